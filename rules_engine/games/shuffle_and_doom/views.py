"""What the pages show: ``view``, ``full_view``, ``result`` and the warning before a
fatal action."""

from __future__ import annotations

from typing import Any

from ... import kit
from ...cards import pretty
from .data import SETS, size_bonus
from .rooms import ENDING_OPENINGS, _opener_allowed, _retreat_modes, _retreat_targets
from .setup import _set_stats


def _card_view(card: dict[str, Any]) -> dict[str, Any]:
    return {
        "code": card["code"],
        "role": card["role"],
        "value": card["value"],
        "strength": card["strength"] if card["role"] == "enemy" else None,
    }


def view(state: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """Everything public (the whole game but the seed and the draw pile's order).

    The player and spectators see the same; of the draw pile only its size and, during the
    first pass, the header cards still waiting at its bottom.
    """
    s = state
    n = s["size"]
    statuses = s["room_status"]
    cells = [
        [
            {
                "filled": rid is not None and statuses[rid - 1] != "emptied",
                "room": rid,
                "status": statuses[rid - 1] if rid is not None else None,
            }
            for rid in row
        ]
        for row in s["map"]
    ]
    rooms = [
        {
            "id": room["id"],
            "size": room["size"],
            "status": statuses[room["id"] - 1],
            "order": s["room_order"][room["id"] - 1],
            "cells": [list(cell) for cell in room["cells"]],
        }
        for room in s["rooms"]
    ]
    enc = s["encounter"]
    encounter = None
    if enc is not None:
        encounter = {
            "room": enc["room"],
            "cards": [_card_view(card) for card in enc["cards"]],
            "stunned": enc["stunned"],
            "attacked_yet": enc["attacked_yet"],
            "opener_allowed": _opener_allowed(s),
            "retreat_targets": _retreat_targets(s) if _retreat_modes(s) else [],
        }
    setup_done = s["position"] is not None
    headers = s["top"] + s["side"]
    bottom: list[str] = []
    if setup_done and s["exhaustions"] == 0:
        k = min(len(s["draw"]), len(headers))
        bottom = headers[len(headers) - k :] if k else []
    opts = dict(s["options"])
    return {
        "status": "finished" if s["phase"] == "over" else "playing",
        "seat": seat if seat == s["seat"] else None,
        "player": s["seat"],
        "size": n,
        "phase": s["phase"],
        "options": opts,
        "bonus": size_bonus(n),
        "top": list(s["top"]),
        "side": list(s["side"]),
        "chosen_set": s["chosen_set"],
        "set_stats": {name: _set_stats(s, name) for name in SETS},
        "diamonds_to_assign": list(s["diamonds"]),
        "swaps_required": 1 if s["phase"] == "swap" else 0,
        "swap_reason": s["swap_for"],
        "cells": cells,
        "rooms": rooms,
        "position": list(s["position"]) if s["position"] is not None else None,
        "exit": [n, n],
        "stats": dict(s["stats"]),
        "hand": [dict(card) for card in s["hand"]],
        "gold_pile": [dict(card) for card in s["gold_pile"]],
        "encounter": encounter,
        "suspended": [
            {
                "room": sus["room"],
                "cards": [_card_view(card) for card in sus["cards"]],
                "attacked_yet": sus["attacked_yet"],
            }
            for sus in s["suspended"]
        ],
        "draw_count": len(s["draw"]),
        "bottom_headers": bottom,
        "returned_count": len(s["returned"]),
        "returned": list(s["returned"]),
        "multiplier": s["multiplier"],
        "exhaustions": s["exhaustions"],
        "actions": s["actions"],
        "log": kit.log_entries(s["log"]),
        "result": result(s),
    }


def full_view(state: dict[str, Any]) -> dict[str, Any]:
    """A replay's view (``rules_engine.contract``): the spectator's, plus the draw pile in order.

    The draw pile is the only thing ``view`` hides; everything else is already face up.
    """
    out = view(state, None)
    pile = list(state["draw"])
    revealed: list[dict[str, Any]] = []
    if pile:
        section: dict[str, Any] = {"title": "Draw pile, top card first", "cards": pile}
        headers = len(out["bottom_headers"])
        if headers:
            section["note"] = (
                f"The last {headers} are the header cards, already shown at the bottom of the deck."
                if headers > 1
                else "The last one is a header card, already shown at the bottom of the deck."
            )
        revealed.append(section)
    out["revealed"] = revealed
    return out


def result(state: dict[str, Any]) -> dict[str, Any] | None:
    res = state["result"]
    if res is None:
        return None
    return {**res, "winners": list(res["winners"]), "scores": dict(res["scores"])}


def result_text(result: dict[str, Any], name: str | None) -> str:
    """The result's sentence for the player (``name`` None), or for an onlooker, who reads the
    player's ``name`` where the player reads "You".

    >>> result_text({"reason": "exited", "text": "You left the dungeon with 4 gold: score 4."}, "Ann")
    'Ann left the dungeon with 4 gold: score 4.'
    """
    text: str = result["text"]
    opening = ENDING_OPENINGS.get(result["reason"])
    if name is None or opening is None or not text.startswith(opening):
        return text
    return name + text.removeprefix("You")


# --------------------------------------------------------------------------------------------
# Warning before a fatal action (the contract's ``loss_warning``)


def loss_warning(state: dict[str, Any], seat: str, action: dict[str, Any]) -> str | None:
    """A sentence when ``action`` certainly kills the adventurer, else None.

    Only the damage an action deals at once counts: the room's face-up cards, the stats, the
    ward. Entering a room draws unseen cards, so a move is never "certain" (and a warning
    worked out from the draw pile would give its order away).

    >>> s = {"seat": "p1", "phase": "traps", "hand": [],
    ...      "stats": {"health": 13, "ward": 0, "attack": 5},
    ...      "encounter": {"stunned": False, "cards": [
    ...          {"code": "9H", "role": "potion", "value": 9, "strength": None},
    ...          {"code": "KC", "role": "trap", "value": 14, "strength": None}]}}
    >>> loss_warning(s, "p1", {"type": "take", "card": "9H"})
    'Taking 9♥ kills you: the traps deal 14 and you have 13 health.'
    >>> s["stats"]["health"] = 14
    >>> loss_warning(s, "p1", {"type": "take", "card": "9H"}) is None
    True
    """
    if seat != state.get("seat") or state.get("phase") not in ("combat", "traps") or not state.get("encounter"):
        return None
    kind = action.get("type")
    code = action.get("card")
    cards = state["encounter"]["cards"]
    traps = sum(c["value"] for c in cards if c["role"] == "trap")
    if kind == "take":
        damage, what, source = traps, f"Taking {pretty(str(code))}", "the traps deal"
    elif kind == "use_trap_opener":
        damage, what, source = traps, "The trap opener", "the traps deal"
    elif kind == "attack":
        enemy = next((c for c in cards if c["role"] == "enemy" and c["code"] == code), None)
        if enemy is None or state["encounter"]["stunned"]:
            return None
        power = state["stats"]["attack"]
        left = [c["strength"] for c in cards if c["role"] == "enemy" and c is not enemy]
        if enemy["strength"] > power:
            left.append(enemy["strength"] - power)
        damage, what, source = sum(left), f"Attacking {pretty(str(code))}", "the enemies left hit back for"
    else:
        return None
    stats = state["stats"]
    if stats["health"] - max(0, damage - stats["ward"]) >= 0:
        return None
    ward = f" and a ward of {stats['ward']}" if stats["ward"] else ""
    sentence = f"{what} kills you: {source} {damage} and you have {stats['health']} health{ward}."
    potions = sum(1 for c in state["hand"] if c["kind"] == "potion")
    if potions:
        sentence += f" You still hold {'a potion' if potions == 1 else f'{potions} potions'}."
    return sentence
