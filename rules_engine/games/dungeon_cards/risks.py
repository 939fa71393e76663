"""The warning before a move that certainly loses a solo game (the contract's ``loss_warning``).

A card's move is fixed by the card (the player's own), the character's Speed and effects and the
board, which is all face up (§4.3): where it ends is certain. Only a solo game is lost by one
fall; in a party a fallen character still shares a team victory (§7.2), so nothing is certain.
"""

from __future__ import annotations

from typing import Any

from ...cards import pretty
from .core import char, current, is_party, sq, value
from .movement import walk
from .turns import card_move


def _destination(state: dict[str, Any], c: dict[str, Any], direction: str, distance: int) -> list[int] | None:
    path = walk(state["board"], c["position"], direction, distance, ninja=c["class"] == "ninja")["path"]
    return list(path[-1]) if path else None


def loss_warning(state: dict[str, Any], seat: str, action: dict[str, Any]) -> str | None:
    if state["status"] != "playing" or is_party(state) or seat not in state["players"]:
        return None
    kind = action.get("type")
    card = str(action.get("card"))
    if kind == "play_card" and state["phase"] == "awaiting_play":
        c = current(state)
        if c is None or c["id"] != seat or card not in c["hand"]:
            return None
        direction, distance = card_move(state, c, card)
        what = f"Playing {pretty(card)}"
    elif kind == "dash" and state["phase"] == "awaiting_dash" and action.get("direction"):
        dash = state["combat"]["dash"]
        if dash is None or dash["athlete"] != seat:
            return None
        c = char(state, seat)
        direction, distance, what = action["direction"], value(dash["card"]), f"Dashing {action['direction']}"
    else:
        return None
    end = _destination(state, c, direction, distance)
    board = state["board"]
    if end is None or end in board["exits"] or end not in board["pits"]:
        return None
    return f"{what} ends your move on {sq(end)}, the Pit: you fall, and the game is lost."
