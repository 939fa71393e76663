"""Rooms: entering and drawing for them, damage, loot, exhaustion and the end of the game; the
queries ``legal_actions`` and the handlers share."""

from __future__ import annotations

from typing import Any

from ...cards import pretty, rank_value, seeded_rng, shuffled
from ...grid import neighbours
from .data import CANONICAL, _join, _suit

# --------------------------------------------------------------------------------------------
# Rooms, drawing, exhaustion


def _exhaust(s: dict[str, Any]) -> bool:
    """Section 8: rebuild the draw pile from the returned pile, the hand and the gold pile."""
    temporary = s["options"]["temporary_consumables"]
    pool = list(s["returned"]) + [g["code"] for g in s["gold_pile"]]
    if not temporary:
        pool += [h["code"] for h in s["hand"]]
    if not pool:
        s["log"].append("Deck exhausted, and no cards are left to reshuffle.")
        return False
    stats = s["stats"]
    if not temporary and s["hand"]:
        used = []
        for card in s["hand"]:
            gain = _gain(s, card)
            stats["health" if card["kind"] == "potion" else "intelligence"] += gain
            used.append(card["code"])
        s["log"].append(
            f"Deck exhausted: you use your hand ({_join(used)}): "
            f"health {stats['health']}, intelligence {stats['intelligence']}."
        )
        s["hand"] = []
    s["gold_pile"] = []
    s["multiplier"] *= 2
    s["exhaustions"] += 1
    pool.sort(key=CANONICAL.__getitem__)
    s["draw"] = shuffled(pool, seeded_rng(s["seed"], "exhaustion", s["exhaustions"]))
    s["returned"] = []
    s["log"].append(f"Deck exhausted: values are now ×{s['multiplier']}.")
    return True


def _make_card(code: str, value: int, loot_present: bool) -> dict[str, Any]:
    suit = _suit(code)
    if suit == "S":
        return {"code": code, "role": "enemy", "value": value, "strength": value}
    role = {"H": "potion", "D": "gold"}.get(suit) or ("trap" if loot_present else "book")
    return {"code": code, "role": role, "value": value, "strength": None}


def _enter(s: dict[str, Any], r: int, c: int) -> None:
    rid = s["map"][r - 1][c - 1]
    if rid is None:
        return
    status = s["room_status"][rid - 1]
    if status == "emptied":
        return
    if status == "suspended":
        idx = next(i for i, sus in enumerate(s["suspended"]) if sus["room"] == rid)
        sus = s["suspended"].pop(idx)
        s["room_status"][rid - 1] = "active"
        s["encounter"] = {
            "room": rid,
            "cards": [dict(card) for card in sus["cards"]],
            "stunned": False,
            "attacked_yet": sus["attacked_yet"],
        }
        s["log"].append(f"You return to room {rid}: {_join([card['code'] for card in sus['cards']])}.")
        _settle(s)
        return
    # First entry: draw S cards (section 5), refilling the pile lazily on exhaustion (section 8).
    s["entered"] += 1
    s["room_order"][rid - 1] = s["entered"]
    s["room_status"][rid - 1] = "active"
    size = s["rooms"][rid - 1]["size"]
    drawn: list[tuple[str, int]] = []
    while len(drawn) < size:
        if not s["draw"] and not _exhaust(s):
            break
        code = s["draw"].pop(0)
        drawn.append((code, rank_value(code) * s["multiplier"]))
    loot_present = any(_suit(code) in "HD" for code, _ in drawn)
    cards = [_make_card(code, value, loot_present) for code, value in drawn]
    s["log"].append(
        f"Room {rid} ({size} cell{'s' if size != 1 else ''}): you find "
        + (", ".join(f"{pretty(card['code'])} ({card['role']} {card['value']})" for card in cards) or "nothing")
        + "."
    )
    s["encounter"] = {"room": rid, "cards": cards, "stunned": False, "attacked_yet": False}
    _settle(s)


def _settle(s: dict[str, Any]) -> None:
    """Section 6's order: combat while enemies remain, then traps, then automatic loot."""
    cards = s["encounter"]["cards"]
    if any(card["role"] == "enemy" for card in cards):
        s["phase"] = "combat"
    elif any(card["role"] == "trap" for card in cards):
        s["phase"] = "traps"
    else:
        _loot(s)


def _collect(s: dict[str, Any], card: dict[str, Any]) -> None:
    if card["role"] == "gold":
        s["stats"]["gold"] += card["value"]
        s["gold_pile"].append({"code": card["code"], "value": card["value"]})
    else:
        kind = "potion" if card["role"] == "potion" else "book"
        s["hand"].append({"code": card["code"], "value": card["value"], "kind": kind})


def _loot(s: dict[str, Any]) -> None:
    cards = s["encounter"]["cards"]
    for card in cards:
        _collect(s, card)
    if cards:
        s["log"].append(f"You collect {_join([card['code'] for card in cards])}.")
    _empty_room(s)


def _empty_room(s: dict[str, Any]) -> None:
    rid = s["encounter"]["room"]
    s["room_status"][rid - 1] = "emptied"
    s["encounter"] = None
    s["phase"] = "explore"
    s["log"].append(f"Room {rid} is emptied.")
    if all(status == "emptied" for status in s["room_status"]):
        _end(s, "cleared")


def _damage(s: dict[str, Any], amount: int, what: str, source: str) -> bool:
    """Take damage, the ward first (section 9); True if the adventurer died. ``source`` names
    what dealt it, in words that suit the player and onlookers alike ("the traps")."""
    stats = s["stats"]
    before = stats["health"]
    absorbed = min(stats["ward"], amount)
    stats["ward"] -= absorbed
    stats["health"] -= amount - absorbed
    if absorbed:
        s["log"].append(f"{what} for {amount}: the ward absorbs {absorbed}, health {stats['health']}.")
    else:
        s["log"].append(f"{what} for {amount}: health {stats['health']}.")
    if stats["health"] < 0:
        ward = f" and a ward of {absorbed}" if absorbed else ""
        _end(s, "died", cause=f"Killed by {source}: {amount} damage against {before} health{ward}.")
        return True
    return False


ENDING_OPENINGS = {"died": "You died", "exited": "You left", "cleared": "You emptied"}
"""How the result's sentence opens for each ending, in the player's person (``views.result_text``
words it for an onlooker)."""


def _end(s: dict[str, Any], reason: str, cause: str = "") -> None:
    seat = s["seat"]
    gold = s["stats"]["gold"]
    opening = ENDING_OPENINGS[reason]
    if reason == "died":
        score, text = 0, f"{opening} in the dungeon with {gold} gold: score 0. {cause}".rstrip()
    elif reason == "exited":
        score, text = gold, f"{opening} the dungeon with {gold} gold: score {gold}."
    else:
        score, text = 2 * gold, f"{opening} every room with {gold} gold: score {2 * gold} (gold doubled)."
    s["phase"] = "over"
    s["result"] = {
        "winners": [] if reason == "died" else [seat],
        "scores": {seat: score},
        "reason": reason,
        "score": score,
        "text": text,
    }
    s["log"].append(text)


def _gain(s: dict[str, Any], hand_card: dict[str, Any]) -> int:
    return 3 if s["options"]["flat_consumables"] else hand_card["value"]


# --------------------------------------------------------------------------------------------
# Queries shared by legal_actions and apply


def _enc_cards(s: dict[str, Any], *roles: str) -> list[dict[str, Any]]:
    enc = s["encounter"]
    if enc is None:
        return []
    return [card for card in enc["cards"] if card["role"] in roles]


def _opener_allowed(s: dict[str, Any]) -> bool:
    enc = s["encounter"]
    return (
        s["phase"] == "combat"
        and not enc["attacked_yet"]
        and bool(_enc_cards(s, "enemy"))
        and bool(_enc_cards(s, "trap"))
        and bool(_enc_cards(s, "potion", "gold"))
    )


def _retreat_targets(s: dict[str, Any]) -> list[list[int]]:
    """Empty cells orthogonally next to the encounter's room (ruling 15)."""
    n = s["size"]
    rid = s["encounter"]["room"]
    grid = s["map"]
    targets = set()
    for r, c in s["rooms"][rid - 1]["cells"]:
        for nr, nc in neighbours((r, c), rows=n, cols=n, first=1):
            if grid[nr - 1][nc - 1] is None:
                targets.add((nr, nc))
    return [[r, c] for r, c in sorted(targets)]


def _retreat_modes(s: dict[str, Any]) -> list[bool]:
    """Which ``keep`` values a retreat may use now (6.5 and section 9)."""
    opts = s["options"]
    if s["phase"] == "traps":
        return [False, True] if opts["retreat_keeps_traps"] else [False]
    if s["phase"] == "combat" and opts["retreat_from_combat"]:
        return [False]
    return []


def _intelligence(s: dict[str, Any]) -> int:
    intelligence: int = s["stats"]["intelligence"] + s["stats"]["temp_intelligence"]
    return intelligence
