"""What only matters with several characters: helpers, the Healer, the Mage and leaving (§3.3, §9).

>>> board = {"width": 10, "height": 10, "stop_walls": [[[7, 1], [8, 1]]], "redirects": {}}
>>> from .movement import adjacent
>>> adjacent(board, [5, 5], [5, 6]), adjacent(board, [5, 5], [6, 6]), adjacent(board, [7, 1], [8, 1])
(True, False, False)
"""

from __future__ import annotations

from typing import Any

from ...cards import pretty
from ...errors import IllegalAction
from . import combat, endings, turns
from .core import active, log
from .data import SPELLS
from .movement import adjacent


def eligible_helpers(state: dict[str, Any], challenger: dict[str, Any]) -> list[str]:
    """§5.3: active characters adjacent to the challenger, in fighter order (seat order after it)."""
    n = len(state["characters"])
    seat = challenger["seat_number"] - 1
    order = [state["characters"][(seat + i) % n] for i in range(1, n)]
    board = state["board"]
    return [
        c["id"] for c in order if c["status"] == "active" and adjacent(board, c["position"], challenger["position"])
    ]


def _heal(state: dict[str, Any], healer: dict[str, Any], target: dict[str, Any], when: str) -> None:
    if target["lives"] < target["max_lives"]:
        target["lives"] += 1
        log(
            state,
            "healed",
            f"{healer['id']}'s Healing Touch ({when}): {target['id']} heals to "
            f"{target['lives']}/{target['max_lives']}.",
        )
    else:
        log(state, "healed", f"{healer['id']}'s Healing Touch ({when}): {target['id']} is already at full lives.")


def heal_at_start(state: dict[str, Any], healer: dict[str, Any]) -> None:
    """§3.3 Healer: every other adjacent active character heals 1 and counts as healed this turn."""
    healed = state["turn"]["healed"]
    for c in active(state):
        if c is not healer and adjacent(state["board"], c["position"], healer["position"]):
            _heal(state, healer, c, "start of turn")
            healed.append(c["id"])


def heal_at_end(state: dict[str, Any], healer: dict[str, Any]) -> None:
    """Those adjacent now that were not adjacent at the start heal 1 (ruling 48)."""
    healed = state["turn"]["healed"]
    for c in active(state):
        if c is not healer and c["id"] not in healed and adjacent(state["board"], c["position"], healer["position"]):
            _heal(state, healer, c, "end of turn")
            healed.append(c["id"])


def cast_spell(state: dict[str, Any], mage: dict[str, Any], spell: str) -> None:
    """§9.3: the spell is pending for every active character, the Mage included; the turn ends."""
    if mage["class"] != "mage":
        raise IllegalAction("only the Mage can cast spells")
    if SPELLS[spell]["hand_mode_only"] and not turns.hand_mode(state):
        raise IllegalAction(f"{SPELLS[spell]['name']} can only be cast in the three-card-hand game")
    targets = active(state)
    for c in targets:
        if spell not in c["pending_effects"]:
            c["pending_effects"].append(spell)
    state["last_spell"] = {"mage": mage["id"], "spell": spell, "cast_turn": state["turn"]["turn_number"]}
    log(
        state,
        "spell_cast",
        f"{mage['id']} casts {SPELLS[spell]['name']} on "
        f"{', '.join(c['id'] for c in targets)}: it works on each one's next turn.",
    )
    turns.end_turn(state)


def leave_in_play(state: dict[str, Any], c: dict[str, Any]) -> None:
    """§11.3 ``leave_game`` during play: removed as if dead, no Hall of Fame entry; cards it has in
    play go to the discard pile and decisions it owes lapse."""
    turn = state["turn"]
    was_current = turn["current"] == c["id"]
    if was_current and turn["movement_card"]:
        state["discard"].append(turn["movement_card"])
        log(state, "left", f"{pretty(turn['movement_card'])} goes to the discard pile.")
        turn["movement_card"] = None
    endings.remove(state, c, "left")
    if state["combat"] is not None:
        combat.on_leave(state, c["id"])
    elif was_current:
        turns.pass_turn(state)
    elif not active(state):
        endings.all_gone(state)
