"""Small helpers the whole engine shares: cards, squares, characters, the log and cloning.

>>> value("AD"), value("10S"), is_face("QH"), is_face("9C")
(1, 10, True, False)
>>> pretty_list(["10H", "AS"]), sq([5, 1])
('10♥, A♠', 'column 5, row 1')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ... import kit
from ...cards import pretty

FACES = frozenset("JQK")


def is_face(code: str) -> bool:
    """Jack, Queen or King: a boss when drawn as a turn card (§0.1, §5.1)."""
    return code[0] in FACES


def value(code: str) -> int:
    """The value of a number card: Ace 1, 2–10 their number (§0.1)."""
    rank = code[:-1]
    return 1 if rank == "A" else int(rank)


def pretty_list(codes: Sequence[str]) -> str:
    return ", ".join(pretty(c) for c in codes) if codes else "none"


def sq(square: Sequence[int]) -> str:
    """A square ``[x, y]`` named as the board's labels read it: columns from the left, rows from the bottom (§0.2)."""
    return f"column {square[0]}, row {square[1]}"


def key(square: Sequence[int]) -> str:
    """The string key of a square in JSON dicts (``"x,y"``)."""
    return f"{square[0]},{square[1]}"


# --- characters ---------------------------------------------------------------------------


def char(state: dict[str, Any], cid: str) -> dict[str, Any]:
    character: dict[str, Any] = state["characters"][state["players"].index(cid)]
    return character


def active(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Characters still alive and in the dungeon, in seat order (§0.3)."""
    return [c for c in state["characters"] if c["status"] == "active"]


def is_party(state: dict[str, Any]) -> bool:
    return len(state["players"]) > 1


def current(state: dict[str, Any]) -> dict[str, Any] | None:
    turn = state["turn"]
    if not turn or turn["current"] is None:
        return None
    return char(state, turn["current"])


# --- log ----------------------------------------------------------------------------------


def log(state: dict[str, Any], event: str, text: str, private: str | None = None, **data: Any) -> None:
    """Append an event. ``private`` names the only seat that may read it (its own hand); ``data``
    adds public structured fields (a ``moved`` event's ``move``, which pages animate)."""
    entry = {"event": event, "text": text, **data}
    if private is not None:
        entry["private"] = private
    state["log"].append(entry)


# --- copy-on-write --------------------------------------------------------------------------


def clone(state: dict[str, Any]) -> dict[str, Any]:
    """The copy ``apply`` works on.

    Log and Hall of Fame entries are never changed once written, and the options never change in
    place, so those are shared; the board is fixed once play starts and is shared then too.
    """
    new = {}
    for k, v in state.items():
        if k in ("log", "hall_of_fame", "deck", "discard", "removed", "players", "rolls"):
            new[k] = list(v)
        elif k == "options" or (k == "board" and state["status"] in ("playing", "finished")):
            new[k] = v
        elif k == "characters":
            new[k] = [_clone_char(c) for c in v]
        else:
            new[k] = kit.deep_copy(v)
    return new


def _clone_char(c: dict[str, Any]) -> dict[str, Any]:
    n = dict(c)
    n["hand"] = list(c["hand"])
    n["pending_effects"] = list(c["pending_effects"])
    n["active_effects"] = list(c["active_effects"])
    n["bosses_defeated"] = list(c["bosses_defeated"])
    if c["position"] is not None:
        n["position"] = list(c["position"])
    return n
