"""Acquiring treasures (6.1) and everything that happens at once when a card is acquired:
fake aces, the legendary aces, queens, genies, Hebrac's game for a card, the black priestess's
theft and the inventory limit.

Effects that need the player (Hebrac's game, Genie of Death targets, an inventory drop) set
``state["decision"]``; the steps still to resolve wait in ``state["pending"]`` (see ``flow``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...text import counted
from . import data
from .state import (
    cell_at,
    draw,
    end,
    heal,
    holds_all_legendary,
    log,
    lose_life,
    playing,
    positions,
    refresh_max_life,
    take_treasure,
    under,
)


def acquire(state: dict[str, Any], card: str) -> None:
    """Acquire a card that is already out of every zone (6.1)."""
    r = data.rank(card)
    inventory = state["inventory"]
    if r == "A":
        if card in inventory:
            under(state, card)
            log(state, f"{card} is a fake of {data.LEGENDARY_NAMES[card]}: it goes under the Hand Deck.")
            return
        inventory.append(card)
        log(state, f"You take {card}, {data.LEGENDARY_NAMES[card]}.")
        if card == "AH":
            refresh_max_life(state)
        if holds_all_legendary(state):
            end(state, "won")
            return
        _check_limit(state)
    elif r == "Q":
        under(state, card)
        queen_as_treasure(state, card)
    elif r == "K":
        under(state, card)
        genie(state, card)
    elif r == "JK":
        under(state, card)
        log(state, "The treasure is Hebrac (JK): he offers his game for a card.")
        offer_hebrac_game(state)
    else:
        inventory.append(card)
        log(state, f"You take {card}.")
        _check_limit(state)


def take_chamber_treasure(state: dict[str, Any], pos: Sequence[int]) -> None:
    """The chamber's treasure is acquired (if it still holds one)."""
    if cell_at(state, pos)["treasure"] is not None:
        acquire(state, take_treasure(state, pos))


def _check_limit(state: dict[str, Any]) -> None:
    limit = state["options"]["inventory_limit"]
    if limit is not None and len(state["inventory"]) > limit and playing(state):
        state["decision"] = {"kind": "overflow"}
        log(state, f"Your bag holds more than {limit} treasures: drop one.")


def queen_as_treasure(state: dict[str, Any], card: str) -> None:
    """A queen found as a treasure acts at once (6.8, 6.9); Anti-Magic stops her."""
    anti = state["level_effects"]["anti_magic"]
    if data.is_red_queen(card):
        if anti:
            log(state, f"The white priestess ({card}) cannot heal under Anti-Magic.")
        else:
            gained = heal(state, state["max_life"])
            log(state, f"The white priestess ({card}) heals you (+{gained}): life {state['life']}.")
    else:
        if anti:
            log(state, f"The black priestess ({card}) steals nothing under Anti-Magic.")
        else:
            steal(state, most=False, who=card)


def steal(state: dict[str, Any], *, most: bool, who: str) -> None:
    """A black priestess takes the most (guardian) or least (treasure) valuable card (section 10)."""
    held = [c for c in state["inventory"] if c in data.STEAL_RANK]
    if not held:
        log(state, f"The black priestess ({who}) finds nothing to steal.")
        return
    pick = min if most else max
    victim = pick(held, key=data.STEAL_RANK.__getitem__)
    state["inventory"].remove(victim)  # the earliest copy (R18)
    under(state, victim)
    log(state, f"The black priestess ({who}) steals {victim}.")
    if victim == "AH":
        refresh_max_life(state)


def genie(state: dict[str, Any], card: str) -> None:
    """Kings found as treasures (6.10). Genies ignore Anti-Magic and are not spells."""
    if card == "KH":
        state["genie_life_bonus"] += 2
        refresh_max_life(state)
        log(state, f"The Genie of Life (KH) raises your maximum life to {state['max_life']}.")
    elif card == "KD":
        log(state, "The Genie of Luck (KD) grants three treasures.")
        genie_of_luck(state, 3)
    elif card == "KS":
        eligible = genie_of_death_targets(state)
        if not eligible:
            log(state, "The Genie of Death (KS) finds no enemy in an unvisited chamber.")
        else:
            count = min(3, len(eligible))
            state["decision"] = {"kind": "genie_of_death", "count": count}
            log(state, f"The Genie of Death (KS): choose {counted(count, 'unvisited chamber')} to purge.")
    else:
        log(state, "The Genie of Destiny (KC) shows you every card of the level.")
        reveal_level(state, treasures=True)


def genie_of_luck(state: dict[str, Any], count: int) -> None:
    """Draw up to ``count`` cards, then treat them one by one in draw order (R25)."""
    drawn = [draw(state) for _ in range(min(count, len(state["hand_deck"])))]
    if drawn:
        log(state, "Drawn for the Genie of Luck: " + ", ".join(drawn) + ".")
    else:
        log(state, "The Hand Deck is empty: the Genie of Luck has nothing to give.")
    state["pending"][0:0] = [{"step": "luck", "card": card} for card in drawn]


def luck_card(state: dict[str, Any], card: str) -> None:
    """One Genie of Luck card: queens act, kings are lost, jokers offer a game, the rest is acquired."""
    if data.rank(card) == "K":
        under(state, card)
        log(state, f"{card} is lost: a genie drawn by the Genie of Luck has no effect.")
    else:
        acquire(state, card)


def genie_of_death_targets(state: dict[str, Any]) -> list[list[int]]:
    """Unvisited chambers holding an enemy card, in reading order (R26)."""
    out = []
    for pos in positions(state):
        cell = cell_at(state, pos)
        if not cell["visited"] and cell["enemy"] is not None:
            out.append(pos)
    return out


def reveal_level(state: dict[str, Any], *, treasures: bool) -> None:
    """Revelation (enemies) or God Vision / Genie of Destiny (every card), for the level."""
    effects = state["level_effects"]
    effects["enemies_revealed"] = True
    if treasures:
        effects["treasures_revealed"] = True
    for row in state["grid"]:
        for cell in row:
            if cell["enemy"] is not None:
                cell["enemy_up"] = True
            if treasures and cell["treasure"] is not None:
                cell["treasure_up"] = True


# --- Hebrac's game for a card (6.11) ---------------------------------------------------------


def offer_hebrac_game(state: dict[str, Any]) -> None:
    if playing(state):
        state["decision"] = {"kind": "hebrac_reward"}


def hebrac_test(state: dict[str, Any]) -> bool:
    """Turn the test card; it goes under at once. True when red (R23: a joker loses)."""
    test = draw(state)
    under(state, test)
    won = data.is_red(test)
    log(state, f"Hebrac's test card is {test}: {'red, you win' if won else 'you lose'}.")
    return won


def play_for_a_card(state: dict[str, Any]) -> None:
    state["decision"] = None
    if hebrac_test(state):
        reward = draw(state)
        log(state, f"Your reward is the next card, {reward}.")
        acquire(state, reward)
    else:
        lose_life(state, data.HEBRAC_TOLL)
        if playing(state):
            log(state, f"Hebrac takes {data.HEBRAC_TOLL} life: {state['life']} left.")
