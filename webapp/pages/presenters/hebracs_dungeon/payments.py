"""Payments: the sentences under a card picker (spells, gems, offers).

Which sentence fits the ticked cards is the engine's rule (``trade.payment_case``,
``spells.scaled_units``), worded here and nowhere else: ``pay_text`` and ``scaled_text`` word it
for the page as first drawn, and as the player ticks cards the picker asks the server again
(htmx, ``answer.payment_answer``) with its ``ask``: the field, the price or the scaled spell's
step, and each card's worth. Without JavaScript the sentence stays as drawn and the server checks
the payment on submit.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from rules_engine.games.hebracs_dungeon.spells import scaled_units
from rules_engine.games.hebracs_dungeon.trade import payment_case, superfluous_card

from ...rendering import pretty_cards

PAY_NOUNS = ("points", "gems")
"""What a price is counted in: magic and trade points, or gems."""


def pay_words(target: int, noun: str) -> dict:
    """The sentences under a payment picker (spells, gems, offers), one per case, with blanks for
    the ``{total}``, the points ``{lost}`` and the ``{spare}`` card."""
    return {
        "none": f"Choose cards worth {target} {noun}.",
        "short": f"{{total}} of {target} {noun}: not enough.",
        "spare": f"{{total}} {noun}: {{spare}} is not needed — no change is given.",
        "over": f"{{total}} {noun} for {target}: enough ({{lost}} lost, no change).",
        "exact": f"{{total}} {noun}: exactly enough.",
    }


def pay_text(say: dict, values: list[int], cards: list[str], target: int) -> Markup:
    """The sentence for the cards ticked as the page is drawn: the engine's case of the payment
    (``trade.payment_case``; the spare card with its suit symbol)."""
    case = payment_case(values, target)
    total = sum(values)
    spare = pretty_cards(superfluous_card(cards, values)) if case == "spare" else ""
    return Markup(escape(say[case])).format(total=total, lost=total - target, spare=spare)


def scaled_words(unit: str) -> dict:
    """The sentences under a scaled spell's picker: ``{units}`` bought and points ``{lost}``, each
    phrase singular (``_one``) or plural (``_other``)."""
    return {
        "none": "Choose at least one magic potion.",
        "sentence": "{total} points: {units}{lost}.",
        "units_one": f"{{units}} {unit}",
        "units_other": f"{{units}} {unit}s",
        "lost_one": ", {lost} point lost",
        "lost_other": ", {lost} points lost",
    }


def scaled_text(say: dict, total: int, per: int, cap: int) -> str:
    """What ``total`` points buy (``spells.scaled_units``): whole steps of ``per`` points, at most ``cap``."""
    if total == 0:
        return say["none"]
    units, lost = scaled_units(total, per, cap)
    bought = say["units_one" if units == 1 else "units_other"].format(units=units)
    wasted = say["lost_one" if lost == 1 else "lost_other"].format(lost=lost) if lost else ""
    return say["sentence"].format(total=total, units=bought, lost=wasted)


def checked_flags(cards: list[str], chosen: list[str]) -> list[bool]:
    """Which of ``cards`` start ticked: the engine's canonical choice, copies counted."""
    left: dict[str, int] = {}
    for c in chosen:
        left[c] = left.get(c, 0) + 1
    flags = []
    for c in cards:
        flags.append(left.get(c, 0) > 0)
        if flags[-1]:
            left[c] -= 1
    return flags


def picker(
    prefix: str,
    field: str,
    items: list[tuple[str, int, str]],
    chosen: list[str],
    target: int,
    noun: str,
    *,
    scaled: dict | None = None,
) -> dict:
    """A payment picker: ``items`` are (card, worth, caption); ``chosen`` the cards ticked at first.

    ``scaled`` (``per``, ``cap``, ``unit``) buys whole steps instead of reaching a price."""
    cards = [card for card, _, _ in items]
    flags = checked_flags(cards, chosen)
    rows = [
        {"id": f"{prefix}{i}", "name": field, "card": card, "value": worth, "caption": caption, "checked": flag}
        for i, ((card, worth, caption), flag) in enumerate(zip(items, flags), start=1)
    ]
    ticked = [(card, worth) for (card, worth, _), flag in zip(items, flags) if flag]
    values = [worth for _, worth in ticked]
    # What the picker asks the server with as the ticks change (payment_answer reads it back).
    ask: dict = {"field": field, **(scaled or {"target": target, "noun": noun})}
    ask["worths"] = ",".join(dict.fromkeys(f"{card}:{worth}" for card, worth, _ in items))
    if scaled:
        text = scaled_text(scaled_words(scaled["unit"]), sum(values), scaled["per"], scaled["cap"])
    else:
        text = pay_text(pay_words(target, noun), values, [card for card, _ in ticked], target)
    return {"items": rows, "target": target, "ask": ask, "text": text}
