"""Paying with whole cards: trades with adventurers (section 9), merchants' prices (5.6) and
magic-potion payments for spells (8.1) all follow one rule — the cards must reach the
target, with no superfluous card (removing any one must fall short), and no change is given.

>>> payment_ok([6], 6), payment_ok([6, 2], 6), payment_ok([4, 2], 6), payment_ok([5], 6)
(True, False, True, False)
>>> canonical([("5D", 5), ("4D", 4), ("3D", 3)], 7)
['4D', '3D']
"""

from __future__ import annotations

from collections import Counter
from typing import Any, cast

from rules_engine.cards import written
from rules_engine.errors import IllegalAction

from . import data

PAYMENT_CASES = ("none", "short", "spare", "over", "exact")
"""How cards of these worths stand against a price: none chosen, not enough, a superfluous card,
enough with points lost (no change is given), exactly enough. Only "over" and "exact" pay."""


def payment_case(values: list[int], target: int) -> str:
    """Which of ``PAYMENT_CASES`` the cards worth ``values`` are, for a price of ``target``: at
    least the price, no superfluous card (removing the least one must fall short), no change.

    >>> [payment_case(v, 6) for v in ([], [5], [6, 2], [4, 3], [4, 2])]
    ['none', 'short', 'spare', 'over', 'exact']
    """
    if not values:
        return "none"
    total = sum(values)
    if total < target:
        return "short"
    if total - min(values) >= target:
        return "spare"
    return "over" if total > target else "exact"


def payment_ok(values: list[int], target: int) -> bool:
    """Total at least ``target`` and no superfluous card (8.1, 9.3, R19)."""
    if not values:
        return target <= 0
    return payment_case(values, target) in ("over", "exact")


def superfluous_card(cards: list[str], values: list[int]) -> str:
    """The card a "spare" payment does not need: the first of the least worth."""
    return cards[values.index(min(values))]


def check_payment(cards: list[str], values: list[int], target: int, what: str) -> None:
    total = sum(values)
    case = payment_case(values, target)
    if case == "short" or (case == "none" and target > 0):
        raise IllegalAction(f"{written(' + '.join(cards)) or 'nothing'} makes {total}: {what} needs {target}")
    if case == "spare":
        spare = superfluous_card(cards, values)
        raise IllegalAction(f"{written(spare)} is superfluous: {what} needs {target} and no change is given")


def minimal_sets(items: list[tuple[str, int]], target: int) -> list[list[int]]:
    """Every valid payment, as lists of indexes into ``items`` (earliest cards of each value).

    Items are tried in decreasing value; a set stops growing the moment it reaches the target,
    which yields exactly the sets with no superfluous card.
    """
    groups: dict[int, list[int]] = {}
    for index, (_, value) in enumerate(items):
        groups.setdefault(value, []).append(index)
    values = sorted(groups, reverse=True)
    found: list[list[int]] = []

    def extend(g: int, total: int, chosen: list[int]) -> None:
        if g == len(values):
            return
        value, indexes = values[g], groups[values[g]]
        extend(g + 1, total, chosen)
        running = total
        for k in range(1, len(indexes) + 1):
            running += value
            picked = chosen + indexes[:k]
            if running >= target:
                found.append(picked)
                break
            extend(g + 1, running, picked)

    if target <= 0:
        return [[]]
    extend(0, 0, [])
    return found


def canonical(items: list[tuple[str, int]], target: int) -> list[str] | None:
    """The canonical payment (13.5): smallest total, then fewest cards, then earliest acquired."""
    sets = minimal_sets(items, target)
    if not sets:
        return None
    best = min(sets, key=lambda s: (sum(items[i][1] for i in s), len(s), sorted(s)))
    return [items[i][0] for i in sorted(best)]


def holds(inventory: list[str], cards: list[str]) -> bool:
    need = Counter(cards)
    have = Counter(inventory)
    return all(have[c] >= n for c, n in need.items())


def require_held(inventory: list[str], cards: list[str]) -> None:
    if not holds(inventory, cards):
        missing = [c for c, n in Counter(cards).items() if Counter(inventory)[c] < n]
        raise IllegalAction(f"you do not hold {written(', '.join(missing))} (or not that many)")


def offer_items(inventory: list[str]) -> list[tuple[str, int]]:
    offers = [(c, data.offer_value(c)) for c in inventory if data.offer_value(c) is not None]
    return cast("list[tuple[str, int]]", offers)  # the None values are left out


def gem_items(inventory: list[str]) -> list[tuple[str, int]]:
    return [(c, data.number(c)) for c in inventory if data.is_gem(c)]


def has_bag(state: dict[str, Any]) -> bool:
    return "AD" in state["inventory"]


def check_offer(state: dict[str, Any], cards: list[str]) -> None:
    """A valid offer for the adventurer's face-up treasure (9.3)."""
    value = state["encounter"]["value"]
    if value is None:
        raise IllegalAction("no trade: the adventurer will not part with this treasure")
    require_held(state["inventory"], cards)
    for card in cards:
        if data.offer_value(card) is None:
            raise IllegalAction(f"{written(card)} cannot be offered (aces are never traded)")
    if has_bag(state):
        if cards:
            raise IllegalAction("with the Bag of Meres the trade costs nothing: offer no card")
        return
    check_payment(cards, cast("list[int]", [data.offer_value(c) for c in cards]), value, "the trade")  # checked above


def check_purchase(state: dict[str, Any], gems: list[str]) -> None:
    """A valid payment to the merchant (5.6, R19)."""
    treasure = _merchant_treasure(state)
    price = state["encounter"]["price"]
    if price is None:
        if data.is_gem(treasure):
            raise IllegalAction("the merchant has sold out: gems are not for sale")
        raise IllegalAction("no sale: nobody buys a black priestess")
    require_held(state["inventory"], gems)
    for card in gems:
        if not data.is_gem(card):
            raise IllegalAction(f"{written(card)} is not a gem: merchants take only 2–10 of diamonds")
    if has_bag(state):
        if gems:
            raise IllegalAction("with the Bag of Meres the purchase costs nothing: pay no gem")
        return
    check_payment(gems, [data.number(c) for c in gems], price, "the price")


def canonical_offer(state: dict[str, Any]) -> list[str] | None:
    if state["encounter"]["value"] is None:
        return None
    if has_bag(state):
        return []
    return canonical(offer_items(state["inventory"]), state["encounter"]["value"])


def canonical_purchase(state: dict[str, Any]) -> list[str] | None:
    if state["encounter"]["price"] is None:
        return None
    if has_bag(state):
        return []
    return canonical(gem_items(state["inventory"]), state["encounter"]["price"])


def _merchant_treasure(state: dict[str, Any]) -> str:
    pos = state["encounter"]["pos"]
    treasure: str = state["grid"][pos[0] - 1][pos[1] - 1]["treasure"]
    return treasure
