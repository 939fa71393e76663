"""What the pages show: ``view``, ``full_view``, a monster's picture and the warning before a
losing action."""

from __future__ import annotations

from typing import Any

from ... import kit
from ...cards import (
    SUIT_SYMBOLS,  # noqa: F401  (part of this module's vocabulary: the tests read the suits from here)
)
from .data import _SIDES, LOSING_HIT, MAX_HITS, POSITIONS, POWER, ROW_SIZES, place_name
from .play import _card_value, _seat, end_turn_cost, item_status, result

# --- View, persistence -----------------------------------------------------------------------


def view(state: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """What ``seat`` (or a spectator, ``None``) may see; the shape is in the module docstring.

    >>> from .play import new_game
    >>> v = view(new_game(11, ["p1"]), None)
    >>> sorted({d["state"] for d in v["dungeon"]}) in (["hidden", "monster"], ["empty", "hidden", "monster"])
    True
    >>> "seed" in v, v["deck_count"] <= 37
    (False, True)
    """
    dungeon = []
    for pos in POSITIONS:
        slot = state["dungeon"][pos]
        entry: dict[str, Any] = {"pos": pos, "row": int(pos[1]), "col": int(pos[3])}
        if slot is None:
            entry["state"] = "empty"
        elif not slot["face_up"]:
            entry["state"] = "hidden"
        else:
            entry = monster_view(pos, slot["card"], slot["attack"])
        dungeon.append(entry)
    pending = state["pending"]
    if pending is not None:
        pending = {"kind": pending["kind"], "card": pending["card"]}
    # A dict is a K♦ line of a state stored before the peek was public (it also had a spectator's text).
    log = [entry if isinstance(entry, str) else entry["text"] for entry in state["log"]]
    hits = len(state["hit_row"])
    return {
        "dungeon": dungeon,
        "hand": list(state["hand"]),
        "deck_count": len(state["power_deck"]),
        "known_bottom": state["known_bottom"],
        "hit_row": list(state["hit_row"]),
        "hits": hits,
        "hits_left": MAX_HITS - hits,
        "clear_pile": list(state["clear_pile"]),
        "inventory": list(state["inventory"]),
        "item_status": item_status(state),
        "end_turn_cost": end_turn_cost(state),
        "pending": pending,
        "turn": state["turn"],
        "defeated": state["defeated"],
        "status": "playing" if state["status"] == "playing" else "finished",
        "ending": None if state["status"] == "playing" else state["status"],
        "seat": seat if seat == _seat(state) else None,
        "player": _seat(state),
        "result": result(state),
        "log": kit.log_entries(log),
    }


def full_view(state: dict[str, Any]) -> dict[str, Any]:
    """A replay's view (``rules_engine.contract``): the spectator's, plus what it hides — the
    face-down cards row by row, top row first, and the power deck in drawing order.

    >>> from .play import new_game
    >>> revealed = full_view(new_game(11, ["p1"]))["revealed"]
    >>> revealed[0]["title"], revealed[-1]["title"], len(revealed[-1]["cards"])
    ('Face-down card of row 1', 'Power deck, next card first', 37)
    """
    out = view(state, None)
    dungeon = state["dungeon"]
    revealed: list[dict[str, Any]] = []
    for row, size in enumerate(ROW_SIZES, start=1):
        down = [
            pos
            for pos in POSITIONS
            if pos.startswith(f"r{row}c") and dungeon[pos] is not None and not dungeon[pos]["face_up"]
        ]
        if down:
            revealed.append({"title": _face_down_title(row, size, down), "cards": [dungeon[p]["card"] for p in down]})
    if state["power_deck"]:
        revealed.append({"title": "Power deck, next card first", "cards": list(state["power_deck"])})
    out["revealed"] = revealed
    return out


def _face_down_title(row: int, size: int, down: list[str]) -> str:
    if len(down) == 1:
        return f"Face-down card of {place_name(down[0])}"
    if len(down) == size:
        return f"Face-down cards of row {row}, left to right"
    sides = [_SIDES[size][int(pos[3]) - 1] for pos in down]
    return f"Face-down cards of row {row}, {' and '.join(sides)}"


def monster_view(pos: str, card: str, attack: list[dict[str, Any]]) -> dict[str, Any]:
    """A face-up monster as ``view`` shows it, with what it still needs (10.3); the how-to-play
    pictures are drawn through it too. ``attack``: the cards on it in order, ``{card, doubled}``.

    >>> m = monster_view("r6c2", "QD", [{"card": "9S", "doubled": False}])
    >>> m["sum"], m["needs"], m["short"]
    (9, 'power', 3)
    """
    power = POWER[card[:-1]]
    placed = [{"card": a["card"], "value": _card_value(a), "doubled": a["doubled"]} for a in attack]
    total = sum(a["value"] for a in placed)
    return {
        "pos": pos,
        "row": int(pos[1]),
        "col": int(pos[3]),
        "state": "monster",
        "card": card,
        "suit": card[-1],
        "power": power,
        "attack": placed,
        "sum": total,
        "needs": "finisher" if len(attack) == 2 else "power",
        "short": max(0, power - total),
    }


# --- Warning before a losing action (the contract's ``loss_warning``) -----------------------


def loss_warning(state: dict[str, Any], seat: str, action: dict[str, Any]) -> str | None:
    """A sentence when ``action`` certainly loses the game, else None: ending the turn on the
    fifth hit (4.4), or with an empty power deck to draw from (7). Both follow from the hand,
    the hit row and the deck's size, which everyone sees; resigning is its own warning.

    >>> from .play import new_game
    >>> from .data import ALL_CARDS
    >>> deck = ["JH", "QH"] + [c for c in ALL_CARDS if c not in ("JH", "QH")]
    >>> s = new_game(1, ["p1"], {"deck": deck})
    >>> loss_warning(s, "p1", {"type": "end_turn"})
    'Ending the turn now is the fifth hit and loses the game.'
    >>> loss_warning(s, "p1", {"type": "resign"}) is None
    True
    """
    if action.get("type") != "end_turn" or seat != _seat(state):
        return None
    cost = end_turn_cost(state)
    if cost is None:
        return None
    if cost["fatal"]:
        return f"Ending the turn now is the {LOSING_HIT} and loses the game."
    if cost["hits"] == len(state["hand"]) and not state["power_deck"]:
        return "Ending the turn now loses the game: the power deck is empty, so no new hand can be drawn."
    return None
