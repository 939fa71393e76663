"""How a game moves on: entering chambers (4.3), meeting guardians (section 5), the queue of
steps still to resolve, phases (13.4), descents (4.4) and the automatic end checks.

After every accepted action ``settle`` runs the pending steps until a decision is needed,
then performs the forced descent if the level is cleared, then names the phase.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import battle, data, treasures
from .state import (
    cell_at,
    chamber_count,
    cleared_count,
    deal_level,
    descent_threshold,
    empty_cell,
    end,
    fresh_effects,
    heal,
    is_cleared,
    log,
    name,
    playing,
    positions,
    take_enemy,
    take_treasure,
    treasure_label,
    under,
)


def _step_take(state: dict[str, Any], step: dict[str, Any]) -> None:
    treasures.take_chamber_treasure(state, step["at"])


def _step_luck(state: dict[str, Any], step: dict[str, Any]) -> None:
    treasures.luck_card(state, step["card"])


def _step_leave_robbed(state: dict[str, Any], step: dict[str, Any]) -> None:
    # R45: Stealing Spirit in a battle ends the battle only after the treasure is settled.
    if state["battle"] is not None:
        battle.leave(state)
        log(state, "You vanish from the battle; the guardian stays.")


STEPS = {"take": _step_take, "luck": _step_luck, "leave_robbed": _step_leave_robbed}


def run(state: dict[str, Any]) -> None:
    pending = state["pending"]
    while pending and state["decision"] is None and playing(state):
        step = pending.pop(0)
        STEPS[step["step"]](state, step)


def settle(state: dict[str, Any]) -> None:
    """Resolve what can be resolved, descend if the level is cleared, and name the phase."""
    run(state)
    if (
        playing(state)
        and state["decision"] is None
        and state["battle"] is None
        and state["encounter"] is None
        and not state["pending"]
        and all(is_cleared(cell) for row in state["grid"] for cell in row)
    ):
        log(state, "Every chamber of the level is cleared: you go down.")
        descend(state)
    state["phase"] = phase_of(state)


def phase_of(state: dict[str, Any]) -> str:
    if not playing(state):
        return "over"
    if state["decision"] is not None:
        decision: str = state["decision"]["kind"]
        return decision
    if state["battle"] is not None:
        return "after_draw" if state["battle"]["drawn"] else "battle"
    encounter = state["encounter"]
    if encounter is not None:
        if encounter["kind"] == "adventurer" and encounter["trade_proposed"]:
            return "trade"
        kind: str = encounter["kind"]
        return kind
    if any(cell["visited"] for row in state["grid"] for cell in row):
        return "explore"
    return "start_level"


# --- levels ----------------------------------------------------------------------------------


def descend(state: dict[str, Any]) -> None:
    """The descent procedure (4.4): sweep the level under, reset level effects, deal anew."""
    for row in state["grid"]:
        for cell in row:
            # R50: a sweep clears nothing; face-down cards stay unrevealed (R27).
            if cell["enemy"] is not None:
                under(state, cell["enemy"])
            if cell["treasure"] is not None:
                under(state, cell["treasure"])
            cell.update(empty_cell())
    state["level"] += 1
    state["level_effects"] = fresh_effects()
    state["position"] = None
    state["encounter"] = None
    state["battle"] = None
    log(state, f"You go down to level {state['level']}.")
    if len(state["hand_deck"]) < 2 * chamber_count(state):
        end(state, "stranded")
        return
    deal_level(state)


def can_descend(state: dict[str, Any]) -> bool:
    return cleared_count(state) >= descent_threshold(state)


# --- moving --------------------------------------------------------------------------------------


def corners(state: dict[str, Any]) -> list[list[int]]:
    rows, cols = len(state["grid"]), len(state["grid"][0])
    return [[1, 1], [1, cols], [rows, 1], [rows, cols]]


def move_targets(state: dict[str, Any]) -> list[list[int]]:
    """Where a move may go (4.2, R3), in reading order."""
    visited = {tuple(p) for p in positions(state) if cell_at(state, p)["visited"]}
    here = tuple(state["position"]) if state["position"] else None
    if not visited:
        return [c for c in corners(state) if tuple(c) != here]
    out = []
    for pos in positions(state):
        key = tuple(pos)
        if key == here:
            continue
        r, c = key
        if key in visited or any(n in visited for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))):
            out.append(pos)
    return out


def enter(state: dict[str, Any], pos: Sequence[int]) -> None:
    """Enter a chamber (4.3)."""
    pos = list(pos)
    cell = cell_at(state, pos)
    state["position"] = pos
    cell["visited"] = True
    if cell["enemy"] is None and cell["treasure"] is None:
        log(state, f"You walk into chamber {name(pos)}.")
        return
    state["counters"]["turns"] += 1
    if cell["enemy"] is not None:
        cell["enemy_up"] = True
        cell["enemy_seen"] = True
        log(state, f"You enter chamber {name(pos)}: {cell['enemy']} is there.")
        meet(state, pos)
    else:
        log(state, f"You enter chamber {name(pos)}: its guardian is gone.")
        state["pending"].insert(0, {"step": "take", "at": pos})


def meet(state: dict[str, Any], pos: Sequence[int]) -> None:
    """The encounter of the chamber's (face-up) enemy card begins (section 5, 5.8)."""
    cell = cell_at(state, pos)
    card = cell["enemy"]
    r = data.rank(card)
    robbed = cell["robbed"] or cell["treasure"] is None
    anti = state["level_effects"]["anti_magic"]
    if r in data.NUMBER_RANKS:
        battle.start(state, pos)
    elif r == "J":
        if robbed:
            log(state, "The adventurer you robbed attacks on sight!")
            battle.start(state, pos)
        else:
            state["encounter"] = _encounter(state, "adventurer", pos)
            log(state, f"A fellow adventurer ({card}): fight him or propose a trade.")
    elif r == "A" or (robbed and r in ("K", "JK")):
        under(state, take_enemy(state, pos))
        if r == "A":
            log(state, f"{card}: the chamber is empty.")
        else:
            log(state, f"{'Hebrac' if r == 'JK' else card} has nothing left to guard here and goes away.")
        _take_if_any(state, pos)
    elif data.is_black_queen(card):
        if anti:
            log(state, f"The black priestess ({card}) steals nothing under Anti-Magic.")
        else:
            treasures.steal(state, most=True, who=card)
        under(state, take_enemy(state, pos))
        _take_if_any(state, pos)
    elif data.is_red_queen(card):
        if robbed:
            if anti:
                log(state, f"The white priestess ({card}) cannot heal under Anti-Magic.")
            else:
                gained = heal(state, state["max_life"])
                log(state, f"The white priestess ({card}) heals you (+{gained}).")
            under(state, take_enemy(state, pos))
        else:
            state["encounter"] = _encounter(state, "priestess", pos)
            log(state, f"A white priestess ({card}): healing or the treasure?")
    elif r == "K":
        cell["treasure_up"] = True
        state["encounter"] = _encounter(state, "merchant", pos)
        enc = state["encounter"]
        offer = cell["treasure"]
        if enc["price"] is None:
            why = "sold out" if data.is_gem(offer) else "no sale"
            log(state, f"A merchant ({card}) shows {offer}: {why}.")
        else:
            log(state, f"A merchant ({card}) sells {offer} for {enc['price']} gems.")
    else:
        state["encounter"] = _encounter(state, "hebrac", pos)
        log(state, "Hebrac himself (the joker) offers his game: play or decline?")


def _take_if_any(state: dict[str, Any], pos: Sequence[int]) -> None:
    if cell_at(state, pos)["treasure"] is not None:
        state["pending"].insert(0, {"step": "take", "at": list(pos)})


def _encounter(state: dict[str, Any], kind: str, pos: Sequence[int]) -> dict[str, Any]:
    cell = cell_at(state, pos)
    encounter = {
        "kind": kind,
        "pos": list(pos),
        "guardian": cell["enemy"],
        "trade_proposed": False,
        "price": None,
        "value": None,
        "fake_ace": False,
    }
    if kind == "merchant":
        encounter["price"] = data.merchant_price(cell["treasure"])
        encounter["fake_ace"] = cell["treasure"] in state["inventory"] and data.rank(cell["treasure"]) == "A"
    return encounter


def propose_trade(state: dict[str, Any]) -> None:
    enc = state["encounter"]
    cell = cell_at(state, enc["pos"])
    cell["treasure_up"] = True
    enc["trade_proposed"] = True
    enc["value"] = data.trade_value(cell["treasure"])
    enc["fake_ace"] = data.rank(cell["treasure"]) == "A" and cell["treasure"] in state["inventory"]
    if enc["value"] is None:
        log(state, f"The adventurer shows {cell['treasure']}: he will not trade it.")
    else:
        log(state, f"The adventurer shows {cell['treasure']}: it is worth {enc['value']} in a trade.")


def close_with_treasure(state: dict[str, Any]) -> None:
    """The guardian (already under) is gone and the treasure is acquired."""
    pos = state["encounter"]["pos"]
    state["encounter"] = None
    _take_if_any(state, pos)


def send_away(state: dict[str, Any], why: str) -> None:
    """The guardian, then the treasure, go under (declines, a priestess's heal, Hebrac's loss)."""
    pos = state["encounter"]["pos"]
    guardian = take_enemy(state, pos)
    under(state, guardian)
    label = treasure_label(state, pos)
    if cell_at(state, pos)["treasure"] is not None:
        under(state, take_treasure(state, pos))
    state["encounter"] = None
    log(state, f"{why}: {guardian} and {label} go under the Hand Deck.")


def leave_encounter(state: dict[str, Any]) -> None:
    """Escape or Stealing Spirit facing an adventurer: the jack turns face down; position none."""
    pos = state["encounter"]["pos"]
    battle.turn_guardian_down(state, pos)
    state["encounter"] = None
    state["position"] = None
