"""Shuffle and Doom! — a solo dungeon crawl dealt from one deck of cards.

Rules: ``docs/rules/shuffle-and-doom.md`` (section numbers below refer to it).
The map comes from the colours of 2N header cards; each room is drawn for on first entry.

>>> deck = ["5C", "8D", "3H", "9S", "7D", "KS", "JS", "QH", "6S"]
>>> s = new_game(1, ["p1"], {"size": 4, "deck": deck})
>>> s = apply(s, "p1", {"type": "choose_stat_set", "set": "top"})
>>> s = apply(s, "p1", {"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"})
>>> v = view(s, "p1")
>>> v["phase"], v["position"], v["stats"]["health"], v["stats"]["attack"]
('combat', [1, 1], 14, 11)
>>> [c["code"] for c in v["encounter"]["cards"]]
['6S']
>>> action_label(s, legal_actions(s, "p1")[0])
'Attack 6♠ (strength 6)'

State layout (plain JSON-safe data; copy-on-write in ``apply``):
``map`` (room id per cell, ``None`` for ``0``) and ``rooms`` (id, cells, size) never change
after setup; ``room_status`` / ``room_order`` are lists indexed by room id − 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from .. import kit
from ..cards import Card, check_stacked_deck, pretty, rank_value, seeded_rng, shuffled, standard_deck
from ..errors import IllegalAction, InvalidAction
from ..grid import DIRECTION_NAMES, DIRECTIONS, connected_regions, in_bounds, neighbours, step
from ..options import STACKED_DEAL, Option

slug = "shuffle-and-doom"
title = "Shuffle and Doom!"
min_players = 1
max_players = 1
TABLE = False
PLAYERS_LABEL = "Solo"
BLURB = (
    "Two rows of dealt cards draw a dungeon map by their colours. Pick the set that "
    "makes your hero, then walk room to room: each room you enter is dealt from the deck "
    "— spades fight back, clubs are traps or books, hearts heal and diamonds are gold. "
    "Leave by the far corner with your gold, or clear every room to double it."
)
SIZE = Option("size", "Grid size", "int", 7, 4, 26, help="4 to 26 cells a side; 7 is the standard game.")
OPTIONS = (
    SIZE,
    Option("base_stats_7", "Start with 7 in every stat", "bool", False, group="Easier"),
    Option("split_large_rooms", "Split rooms larger than 16 cells (one header swap)", "bool", False, group="Easier"),
    Option("retreat_from_combat", "Allow retreat from combat (the room waits for you)", "bool", False, group="Easier"),
    Option("retreat_keeps_traps", "Allow retreat without springing traps", "bool", False, group="Easier"),
    Option("merge_single_rooms", "Merge one-cell rooms (one header swap)", "bool", False, group="Harder"),
    Option("temporary_consumables", "Potions and books last one action", "bool", False, group="Harder"),
    Option("flat_consumables", "Every potion and book is worth 3", "bool", False, group="Harder"),
    STACKED_DEAL,
)

FLAGS = (
    "base_stats_7",
    "split_large_rooms",
    "retreat_from_combat",
    "retreat_keeps_traps",
    "merge_single_rooms",
    "temporary_consumables",
    "flat_consumables",
)
SWAP_OPTIONS = ("split_large_rooms", "merge_single_rooms")  # checked in this order (section 9)
STATS = ("health", "attack", "intelligence")
SETS = ("top", "side")
PHASES = ("swap", "choose_set", "assign_diamonds", "explore", "combat", "traps", "over")
RUNNING = ("explore", "combat", "traps")
CANONICAL = {code: i for i, code in enumerate(standard_deck())}
MAX_REDEALS = 10_000


def _card(_name: str, code: Any) -> str:
    Card.parse(code)
    if code == "JK":
        raise InvalidAction("there are no jokers in this game")
    return cast(str, code)  # Card.parse refused anything but a card code


def _cell_pair(_name: str, to: Any) -> Any:
    if (
        not isinstance(to, (list, tuple))
        or len(to) != 2
        or any(isinstance(x, bool) or not isinstance(x, int) for x in to)
    ):
        raise InvalidAction("to must be a [row, col] pair of whole numbers")
    return to


_SET = kit.Param(SETS, "set must be 'top' or 'side'")
_POSITION = kit.Param(int, "{name} must be a position from 1 to N")
_STAT = kit.Param((*STATS, "gold"), "stat must be health, attack or intelligence")

# The parameters of each action (``kit.parse_action``).
ACTIONS: dict[str, dict[str, kit.Spec]] = {
    "swap_headers": {"set": _SET, "i": _POSITION, "j": _POSITION},
    "choose_stat_set": {"set": _SET},
    "assign_diamond_bonus": {"card": _card, "stat": _STAT},
    "move": {"dir": tuple(DIRECTIONS)},
    "drink": {"card": _card},
    "read": {"card": _card},
    "attack": {"card": _card},
    "use_trap_opener": {"card": _card},
    "deactivate": {"card": _card},
    "take": {"card": _card},
    "retreat": {"to": _cell_pair, "keep": kit.Param(bool, optional=True)},
    "exit": {},
}
_WORDING = kit.Wording(unknown_type=lambda kind: f"unknown action type: {kind!r}")


def size_bonus(n: int) -> int:
    """The stat bonus B per heart, spade or club of the chosen set (setup step 6).

    >>> size_bonus(4), size_bonus(7), size_bonus(9), size_bonus(15), size_bonus(26)
    (7, 5, 4, 1, 1)
    """
    table = {4: 7, 5: 6, 6: 6, 7: 5, 8: 5, 9: 4, 10: 4, 11: 3, 12: 3, 13: 2, 14: 2}
    return table.get(n, 1)


def _suit(code: str) -> str:
    return code[-1]


def _red(code: str) -> bool:
    return code[-1] in "HD"


def cell_name(pos: Sequence[int]) -> str:
    """A square named as the map's labels read it (rows down, columns across, both from 1)."""
    return f"row {pos[0]}, column {pos[1]}"


def _join(codes: Sequence[str]) -> str:
    return ", ".join(codes) if codes else "nothing"


# --------------------------------------------------------------------------------------------
# Setup


def _validate_options(options: dict[str, Any] | None) -> tuple[dict[str, Any], list[str] | None]:
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InvalidAction("options must be a mapping")
    unknown = sorted(set(options) - {"size", "deck", *FLAGS})
    if unknown:
        raise InvalidAction(f"unknown option(s): {', '.join(map(str, unknown))}")
    size = options.get("size", 7)
    if size is None:
        size = 7
    if isinstance(size, str) and size.strip().isdigit():
        size = int(size.strip())
    if isinstance(size, bool) or not isinstance(size, int):
        raise InvalidAction(f"size must be a whole number from {SIZE.minimum} to {SIZE.maximum}")
    if not SIZE.in_range(size):
        raise InvalidAction(f"size must be from {SIZE.minimum} to {SIZE.maximum}, not {size}")
    clean: dict[str, Any] = {"size": size}
    for flag in FLAGS:
        value = options.get(flag, False)
        if value is None:
            value = False
        if not isinstance(value, bool):
            raise InvalidAction(f"option {flag} must be true or false")
        clean[flag] = value
    deck = options.get("deck")
    if deck is not None:
        deck = check_stacked_deck(deck, min_size=2 * size)
        if all(_red(c) for c in deck) or not any(_red(c) for c in deck):
            raise InvalidAction("the stacked deck needs both red and black cards, or no map can be dealt")
    return clean, deck


def _compute_map(s: dict[str, Any]) -> None:
    n = s["size"]
    top, side = s["top"], s["side"]
    filled = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1) if _red(side[r - 1]) != _red(top[c - 1])]
    grid: list[list[int | None]] = [[None] * n for _ in range(n)]
    rooms = []
    for rid, region in enumerate(connected_regions(filled), start=1):
        cells = sorted(region)
        for r, c in cells:
            grid[r - 1][c - 1] = rid
        rooms.append({"id": rid, "cells": [[r, c] for r, c in cells], "size": len(cells)})
    s["map"] = grid
    s["rooms"] = rooms
    s["room_status"] = ["unvisited"] * len(rooms)
    s["room_order"] = [None] * len(rooms)


def new_game(seed: int, players: list[str], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Deal a new dungeon: headers, map (redealt while empty), required swaps.

    >>> new_game(3, ["p1"], {"size": 3})
    Traceback (most recent call last):
    ...
    rules_engine.errors.InvalidAction: size must be from 4 to 26, not 3
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidAction("the seed must be an integer")
    if not isinstance(players, (list, tuple)) or len(players) != 1 or not isinstance(players[0], str):
        raise InvalidAction("Shuffle and Doom! is played by exactly one seat")
    opts, stacked = _validate_options(options)
    n = opts["size"]
    if stacked is not None:
        cards = list(stacked)
    else:
        cards = shuffled(standard_deck(), seeded_rng(seed, "deal", 0))
    redeals = 0
    # Setup step 4: a deal with no filled cell is returned, reshuffled and dealt again.
    while all(_red(t) == _red(s) for t in cards[:n] for s in cards[n : 2 * n]):
        redeals += 1
        if redeals > MAX_REDEALS:  # pragma: no cover - needs astronomically bad luck
            raise InvalidAction("could not deal a map with any filled cell")
        pool = sorted(cards, key=CANONICAL.__getitem__)
        cards = shuffled(pool, seeded_rng(seed, "deal", redeals))
    s: dict[str, Any] = {
        "seat": players[0],
        "seed": seed,
        "options": opts,
        "size": n,
        "phase": "choose_set",
        "actions": 0,
        "top": cards[:n],
        "side": cards[n : 2 * n],
        "swap_checks": [o for o in SWAP_OPTIONS if opts[o]],
        "swap_for": None,
        "chosen_set": None,
        "diamonds": [],
        "map": [],
        "rooms": [],
        "room_status": [],
        "room_order": [],
        "entered": 0,
        "position": None,
        "stats": {"health": 0, "attack": 0, "intelligence": 0, "gold": 0, "ward": 0, "temp_intelligence": 0},
        "hand": [],
        "gold_pile": [],
        "encounter": None,
        "suspended": [],
        "draw": cards[2 * n :],
        "returned": [],
        "multiplier": 1,
        "exhaustions": 0,
        "log": [],
        "result": None,
    }
    _compute_map(s)
    log = s["log"]
    log.append(f"A {n}×{n} dungeon is dealt.")
    if redeals:
        log.append("The first deal left the map empty: the cards were reshuffled and dealt again.")
    log.append(f"Top set: {' '.join(s['top'])}. Side set: {' '.join(s['side'])}.")
    _advance_setup(s)
    return s


def _swap_possible(s: dict[str, Any]) -> bool:
    return any(len({_red(c) for c in s[name]}) == 2 for name in SETS)


def _advance_setup(s: dict[str, Any]) -> None:
    """Work out the next required header swap (section 9), else move on to choosing the set."""
    while s["swap_checks"]:
        option = s["swap_checks"][0]
        sizes = [room["size"] for room in s["rooms"]]
        if option == "split_large_rooms":
            triggered = any(size > 16 for size in sizes)
            why = "a room has more than 16 cells"
        else:
            triggered = any(size == 1 for size in sizes)
            why = "a room has exactly one cell"
        if triggered and _swap_possible(s):
            s["phase"] = "swap"
            s["swap_for"] = option
            s["log"].append(f"{why.capitalize()}: swap two header cards of different colours in one set.")
            return
        s["swap_checks"].pop(0)
        if triggered:
            s["log"].append(f"{why.capitalize()}, but no set holds both colours: the swap is waived.")
    s["swap_for"] = None
    s["phase"] = "choose_set"


def _set_stats(s: dict[str, Any], name: str) -> dict[str, Any]:
    """The statistics choosing set ``name`` gives, before the diamond bonuses."""
    base = 7 if s["options"]["base_stats_7"] else 3
    stats = {"health": 7, "attack": base, "intelligence": base}
    b = size_bonus(s["size"])
    for code in s[name]:
        suit = _suit(code)
        if suit == "H":
            stats["health"] += b
        elif suit == "S":
            stats["attack"] += b
        elif suit == "C":
            stats["intelligence"] += b
    return stats


def _finish_setup(s: dict[str, Any]) -> None:
    # Setup step 7: headers go under the deck, top set in column order then side set.
    s["draw"].extend(s["top"] + s["side"])
    s["log"].append("The header cards go to the bottom of the deck: " + " ".join(s["top"] + s["side"]) + ".")
    s["position"] = [1, 1]
    s["phase"] = "explore"
    s["log"].append(f"You step onto {cell_name((1, 1))}.")
    _enter(s, 1, 1)


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
        + _join([f"{card['code']} ({card['role']} {card['value']})" for card in cards])
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


def _end(s: dict[str, Any], reason: str, cause: str = "") -> None:
    seat = s["seat"]
    gold = s["stats"]["gold"]
    if reason == "died":
        score, text = 0, f"You died in the dungeon with {gold} gold: score 0. {cause}".rstrip()
    elif reason == "exited":
        score, text = gold, f"You left the dungeon with {gold} gold: score {gold}."
    else:
        score, text = 2 * gold, f"You emptied every room with {gold} gold: score {2 * gold} (gold doubled)."
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


# --------------------------------------------------------------------------------------------
# Contract


def legal_actions(state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
    """Every action ``apply`` accepts now, in a stable order (moves N, E, S, W first)."""
    s = state
    if seat != s["seat"] or s["phase"] == "over":
        return []
    phase = s["phase"]
    out: list[dict[str, Any]] = []
    if phase == "swap":
        for name in SETS:
            cards = s[name]
            for i in range(len(cards)):
                for j in range(i + 1, len(cards)):
                    if _red(cards[i]) != _red(cards[j]):
                        out.append({"type": "swap_headers", "set": name, "i": i + 1, "j": j + 1})
        return out
    if phase == "choose_set":
        return [{"type": "choose_stat_set", "set": name} for name in SETS]
    if phase == "assign_diamonds":
        return [
            {"type": "assign_diamond_bonus", "card": code, "stat": stat} for code in s["diamonds"] for stat in STATS
        ]
    n = s["size"]
    if phase == "explore":
        r, c = s["position"]
        for d in DIRECTIONS:
            if in_bounds(step((r, c), d), rows=n, cols=n, first=1):
                out.append({"type": "move", "dir": d})
        if [r, c] == [n, n]:
            out.append({"type": "exit"})
    elif phase == "combat":
        out += [{"type": "attack", "card": card["code"]} for card in _enc_cards(s, "enemy")]
        if _opener_allowed(s):
            out += [{"type": "use_trap_opener", "card": card["code"]} for card in _enc_cards(s, "potion", "gold")]
    elif phase == "traps":
        wits = _intelligence(s)
        out += [{"type": "deactivate", "card": card["code"]} for card in _enc_cards(s, "trap") if wits >= card["value"]]
        out += [{"type": "take", "card": card["code"]} for card in _enc_cards(s, "potion", "gold")]
    if phase in ("combat", "traps"):
        modes = _retreat_modes(s)
        if modes:
            targets = _retreat_targets(s)
            for keep in modes:
                for to in targets:
                    retreat = {"type": "retreat", "to": list(to)}
                    out.append({**retreat, "keep": True} if keep else retreat)
    for card in s["hand"]:
        out.append({"type": "drink" if card["kind"] == "potion" else "read", "card": card["code"]})
    return out


def _thaw(state: dict[str, Any]) -> dict[str, Any]:
    """A working copy: fresh containers for everything an action may change (copy-on-write)."""
    s = dict(state)
    for key in (
        "top",
        "side",
        "swap_checks",
        "diamonds",
        "room_status",
        "room_order",
        "hand",
        "gold_pile",
        "suspended",
        "draw",
        "returned",
        "log",
    ):
        s[key] = list(state[key])
    s["stats"] = dict(state["stats"])
    if state["position"] is not None:
        s["position"] = list(state["position"])
    enc = state["encounter"]
    if enc is not None:
        s["encounter"] = {**enc, "cards": [dict(card) for card in enc["cards"]]}
    s["options"] = dict(state["options"])
    return s


def apply(state: dict[str, Any], seat: str, action: dict[str, Any]) -> dict[str, Any]:
    """Return the state after ``action``; the input is never changed.

    Raises ``InvalidAction`` for a malformed action and ``IllegalAction`` for one the rules
    forbid now; either way nothing changes.
    """
    action = kit.parse_action(action, ACTIONS, _WORDING)
    if seat != state["seat"]:
        raise IllegalAction("That seat does not play this game.")
    if state["phase"] == "over":
        raise IllegalAction("The game is over.")
    s = _thaw(state)
    kind = action["type"]
    _HANDLERS[kind](s, action)
    s["actions"] += 1
    if kind in _NON_FREE:
        stats = s["stats"]
        if stats["ward"] or stats["temp_intelligence"]:
            # Section 9: temporary boosts end with the next non-free action, after its effects.
            stats["ward"] = 0
            stats["temp_intelligence"] = 0
            if s["phase"] != "over":
                s["log"].append("Your temporary boosts fade.")
    return s


def _need_phase(s: dict[str, Any], *phases: str, what: str) -> None:
    phase = s["phase"]
    if phase in phases:
        return
    if phase in ("swap", "choose_set", "assign_diamonds"):
        raise IllegalAction(f"Finish the setup before you {what}.")
    reasons = {
        "explore": "there is no encounter here",
        "combat": "enemies remain in the room",
        "traps": "active traps remain in the room",
    }
    raise IllegalAction(f"You cannot {what} now: {reasons[phase]}.")


def _do_swap(s: dict[str, Any], a: dict[str, Any]) -> None:
    if s["phase"] != "swap":
        raise IllegalAction("No header swap is required now.")
    n = s["size"]
    i, j = a["i"], a["j"]
    if not (1 <= i <= n and 1 <= j <= n):
        raise IllegalAction(f"Positions must be from 1 to {n}.")
    cards = s[a["set"]]
    if _red(cards[i - 1]) == _red(cards[j - 1]):
        raise IllegalAction(f"{cards[i - 1]} and {cards[j - 1]} have the same colour: swap cards of different colours.")
    cards[i - 1], cards[j - 1] = cards[j - 1], cards[i - 1]
    _compute_map(s)
    s["log"].append(f"You swap {cards[j - 1]} and {cards[i - 1]} in the {a['set']} set: {' '.join(cards)}.")
    s["swap_checks"].pop(0)
    _advance_setup(s)


def _do_choose(s: dict[str, Any], a: dict[str, Any]) -> None:
    if s["phase"] == "swap":
        raise IllegalAction("Swap two header cards first.")
    if s["phase"] != "choose_set":
        raise IllegalAction("The stat set has already been chosen.")
    name = a["set"]
    stats = _set_stats(s, name)
    s["stats"].update(stats)
    s["chosen_set"] = name
    s["diamonds"] = [code for code in s[name] if _suit(code) == "D"]
    s["log"].append(
        f"You choose the {name} set: health {stats['health']}, attack {stats['attack']}, "
        f"intelligence {stats['intelligence']}."
    )
    if s["diamonds"]:
        s["phase"] = "assign_diamonds"
    else:
        _finish_setup(s)


def _do_assign(s: dict[str, Any], a: dict[str, Any]) -> None:
    if s["phase"] != "assign_diamonds":
        raise IllegalAction("There is no diamond bonus to assign now.")
    code, stat = a["card"], a["stat"]
    if code not in s["diamonds"]:
        raise IllegalAction(f"{code} is not a diamond of the chosen set still to assign.")
    if stat not in STATS:
        raise IllegalAction("A diamond bonus goes to health, attack or intelligence, never to gold.")
    s["diamonds"].remove(code)
    s["stats"][stat] += 1
    s["log"].append(f"{code} gives +1 {stat}: now {s['stats'][stat]}.")
    if not s["diamonds"]:
        _finish_setup(s)


def _do_move(s: dict[str, Any], a: dict[str, Any]) -> None:
    _need_phase(s, "explore", what="move")
    n = s["size"]
    r, c = step(tuple(s["position"]), a["dir"])
    if not in_bounds((r, c), rows=n, cols=n, first=1):
        raise IllegalAction(f"You cannot step off the map (the way out is the exit at {cell_name((n, n))}).")
    s["position"] = [r, c]
    s["log"].append(f"You move {DIRECTION_NAMES[a['dir']]} to {cell_name((r, c))}.")
    _enter(s, r, c)


def _hand_card(s: dict[str, Any], code: str, kind: str) -> int:
    for idx, card in enumerate(s["hand"]):
        if card["code"] == code and card["kind"] == kind:
            return idx
    raise IllegalAction(f"{code} is not a {kind} in your hand.")


def _do_drink_or_read(s: dict[str, Any], a: dict[str, Any]) -> None:
    drink = a["type"] == "drink"
    _need_phase(s, *RUNNING, what="drink" if drink else "read")
    idx = _hand_card(s, a["card"], "potion" if drink else "book")
    card = s["hand"].pop(idx)
    gain = _gain(s, card)
    stats = s["stats"]
    temporary = s["options"]["temporary_consumables"]
    if drink:
        stat = "ward" if temporary else "health"
    else:
        stat = "temp_intelligence" if temporary else "intelligence"
    stats[stat] += gain
    s["returned"].append(card["code"])
    verb = "drink" if drink else "read"
    s["log"].append(f"You {verb} {card['code']}: {stat.replace('_', ' ')} +{gain}, now {stats[stat]}.")


def _enc_card(s: dict[str, Any], code: str, roles: tuple[str, ...], what: str) -> dict[str, Any]:
    card: dict[str, Any]
    for card in s["encounter"]["cards"] if s["encounter"] else []:
        if card["code"] == code and card["role"] in roles:
            return card
    raise IllegalAction(f"{code} is not {what} in this room.")


def _remove(s: dict[str, Any], cards: list[dict[str, Any]]) -> None:
    """Cards leave play: out of the room, onto the returned pile (section 8)."""
    gone = {id(card) for card in cards}
    enc = s["encounter"]
    enc["cards"] = [card for card in enc["cards"] if id(card) not in gone]
    s["returned"].extend(card["code"] for card in cards)


def _do_attack(s: dict[str, Any], a: dict[str, Any]) -> None:
    _need_phase(s, "combat", what="attack")
    enemy = _enc_card(s, a["card"], ("enemy",), "an enemy")
    enc = s["encounter"]
    power = s["stats"]["attack"]
    enc["attacked_yet"] = True
    if power >= enemy["strength"]:
        _remove(s, [enemy])
        s["log"].append(f"You attack {enemy['code']}: it is defeated.")
    else:
        enemy["strength"] -= power
        s["log"].append(f"You attack {enemy['code']}: its strength drops to {enemy['strength']}.")
    enemies = _enc_cards(s, "enemy")
    if not enemies:
        _settle(s)
        return
    if enc["stunned"]:
        enc["stunned"] = False
        s["log"].append("The stunned enemies cannot hit back.")
        return
    total = sum(e["strength"] for e in enemies)
    who = " and ".join(e["code"] for e in enemies)
    _damage(s, total, f"{who} hit{'s' if len(enemies) == 1 else ''} back", f"{who} hitting back")


def _do_opener(s: dict[str, Any], a: dict[str, Any]) -> None:
    _need_phase(s, "combat", what="use the trap opener")
    if not _opener_allowed(s):
        if s["encounter"]["attacked_yet"]:
            raise IllegalAction("The trap opener is only allowed before the first attack in a room.")
        raise IllegalAction("The trap opener needs an enemy, a trap and a potion or gold in the room.")
    item = _enc_card(s, a["card"], ("potion", "gold"), "a potion or gold")
    enc = s["encounter"]
    enc["cards"] = [card for card in enc["cards"] if card is not item]
    _collect(s, item)
    traps = _enc_cards(s, "trap")
    total = sum(t["value"] for t in traps)
    s["log"].append(f"Trap opener: you take {item['code']} and the traps ({_join([t['code'] for t in traps])}) fire.")
    died = _damage(s, total, "The traps hit you", "the traps")
    defeated = []
    for enemy in _enc_cards(s, "enemy"):
        enemy["strength"] -= total
        if enemy["strength"] <= 0:
            defeated.append(enemy)
    others = [card for card in enc["cards"] if card["role"] != "enemy"]
    _remove(s, others + defeated)
    if died:
        return
    survivors = _enc_cards(s, "enemy")
    s["log"].append(
        f"Defeated: {_join([e['code'] for e in defeated])}. "
        + (
            "Stunned: " + ", ".join(f"{e['code']} (strength {e['strength']})" for e in survivors) + "."
            if survivors
            else "No enemy survives."
        )
    )
    if survivors:
        enc["stunned"] = True
    else:
        _empty_room(s)


def _do_deactivate(s: dict[str, Any], a: dict[str, Any]) -> None:
    _need_phase(s, "traps", what="deactivate a trap")
    trap = _enc_card(s, a["card"], ("trap",), "an active trap")
    wits = _intelligence(s)
    if wits < trap["value"]:
        raise IllegalAction(f"Your intelligence {wits} is below {trap['code']}'s value {trap['value']}.")
    _remove(s, [trap])
    s["log"].append(f"You deactivate {trap['code']}.")
    _settle(s)


def _do_take(s: dict[str, Any], a: dict[str, Any]) -> None:
    _need_phase(s, "traps", what="take an item")
    item = _enc_card(s, a["card"], ("potion", "gold"), "a potion or gold")
    enc = s["encounter"]
    traps = _enc_cards(s, "trap")
    total = sum(t["value"] for t in traps)
    s["log"].append(f"You take {item['code']}: the traps ({_join([t['code'] for t in traps])}) fire.")
    # Ruling 18: the damage lands as the item is taken; a taken potion cannot save you.
    died = _damage(s, total, "The traps hit you", "the traps")
    if died:
        return
    _collect(s, item)
    rest = [card for card in enc["cards"] if card is not item]
    _remove(s, rest)
    if rest:
        s["log"].append(f"Lost with the room: {_join([card['code'] for card in rest])}.")
    enc["cards"] = []
    _empty_room(s)


def _do_retreat(s: dict[str, Any], a: dict[str, Any]) -> None:
    phase = s["phase"]
    if phase not in ("combat", "traps"):
        _need_phase(s, "combat", "traps", what="retreat")
    keep = a.get("keep", False)
    modes = _retreat_modes(s)
    if not modes:
        raise IllegalAction("You cannot retreat during combat.")
    if keep and True not in modes:
        if phase == "traps":
            raise IllegalAction("Keeping the traps needs the retreat_keeps_traps option.")
        raise IllegalAction("keep only applies to a retreat in the traps step.")
    to = [a["to"][0], a["to"][1]]
    n = s["size"]
    rid = s["encounter"]["room"]
    if not in_bounds(tuple(to), rows=n, cols=n, first=1):
        raise IllegalAction(f"You cannot retreat to {cell_name(to)}: it is outside the map.")
    if s["map"][to[0] - 1][to[1] - 1] == rid:
        raise IllegalAction(
            f"You cannot retreat to {cell_name(to)}: it is inside the room; retreat to an empty cell next to it."
        )
    if to not in _retreat_targets(s):
        raise IllegalAction(f"You cannot retreat to {cell_name(to)}: it is not an empty cell next to room {rid}.")
    enc = s["encounter"]
    s["position"] = to
    if phase == "combat" or keep:
        # Section 9: the room is suspended as it stands; a pending stun is lost.
        s["suspended"].append({"room": rid, "cards": enc["cards"], "attacked_yet": enc["attacked_yet"]})
        s["room_status"][rid - 1] = "suspended"
        s["encounter"] = None
        s["phase"] = "explore"
        s["log"].append(f"You retreat to {cell_name(to)}; room {rid} is suspended as it stands.")
        return
    lost = [card["code"] for card in enc["cards"]]
    _remove(s, list(enc["cards"]))
    s["log"].append(f"You retreat to {cell_name(to)}; the traps fire in the empty room. Lost: {_join(lost)}.")
    _empty_room(s)


def _do_exit(s: dict[str, Any], a: dict[str, Any]) -> None:
    _need_phase(s, "explore", what="exit")
    n = s["size"]
    if s["position"] != [n, n]:
        raise IllegalAction(f"The exit is at {cell_name((n, n))}.")
    _end(s, "exited")


_HANDLERS = {
    "swap_headers": _do_swap,
    "choose_stat_set": _do_choose,
    "assign_diamond_bonus": _do_assign,
    "move": _do_move,
    "drink": _do_drink_or_read,
    "read": _do_drink_or_read,
    "attack": _do_attack,
    "use_trap_opener": _do_opener,
    "deactivate": _do_deactivate,
    "take": _do_take,
    "retreat": _do_retreat,
    "exit": _do_exit,
}
_NON_FREE = ("move", "attack", "use_trap_opener", "deactivate", "take", "retreat", "exit")


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


def dump(state: dict[str, Any]) -> dict[str, Any]:
    """A JSON-safe deep copy of the state."""
    copy: dict[str, Any] = kit.deep_copy(state)
    return copy


def load(data: dict[str, Any]) -> dict[str, Any]:
    """The state ``dump`` wrote (an independent copy)."""
    if not isinstance(data, dict) or "phase" not in data or data.get("phase") not in PHASES:
        raise InvalidAction("not a Shuffle and Doom! state")
    copy: dict[str, Any] = kit.deep_copy(data)
    return copy


# --------------------------------------------------------------------------------------------
# Labels for the page


def action_label(state: dict[str, Any], action: dict[str, Any]) -> str:
    """A short readable label for a legal action, e.g. ``"Attack Q♠ (strength 4)"``."""
    s = state
    kind = action.get("type")
    code: Any = action.get("card")
    try:
        if kind == "swap_headers":
            cards = s[action["set"]]
            a, b = cards[action["i"] - 1], cards[action["j"] - 1]
            return f"Swap {pretty(a)} and {pretty(b)} in the {action['set']} set"
        if kind == "choose_stat_set":
            st = _set_stats(s, action["set"])
            return (
                f"Choose the {action['set']} set (health {st['health']}, attack {st['attack']}, "
                f"intelligence {st['intelligence']})"
            )
        if kind == "assign_diamond_bonus":
            return f"Give {pretty(code)} to {action['stat']} (+1)"
        if kind == "move":
            return f"Move {DIRECTION_NAMES[action['dir']]}"
        if kind in ("drink", "read"):
            card = next(c for c in s["hand"] if c["code"] == code)
            gain = _gain(s, card)
            temporary = s["options"]["temporary_consumables"]
            if kind == "drink":
                return f"Drink {pretty(code)} (+{gain} {'ward' if temporary else 'health'})"
            return f"Read {pretty(code)} (+{gain} {'temporary intelligence' if temporary else 'intelligence'})"
        if kind == "attack":
            enemy = next(c for c in s["encounter"]["cards"] if c["code"] == code)
            return f"Attack {pretty(code)} (strength {enemy['strength']})"
        if kind == "use_trap_opener":
            total = sum(t["value"] for t in _enc_cards(s, "trap"))
            return f"Trap opener: take {pretty(code)} — traps deal {total} to you and every enemy"
        if kind == "deactivate":
            trap = next(c for c in s["encounter"]["cards"] if c["code"] == code)
            return f"Deactivate {pretty(code)} (needs intelligence {trap['value']})"
        if kind == "take":
            total = sum(t["value"] for t in _enc_cards(s, "trap"))
            return f"Take {pretty(code)} — active traps deal {total}"
        if kind == "retreat":
            to = action["to"]
            if action.get("keep"):
                return f"Retreat to {cell_name(to)} keeping the traps"
            if s["phase"] == "combat":
                return f"Retreat to {cell_name(to)} (room suspended)"
            return f"Retreat to {cell_name(to)}"
        if kind == "exit":
            return f"Leave the dungeon with {s['stats']['gold']} gold"
    except (KeyError, IndexError, TypeError, StopIteration, InvalidAction):
        pass
    return str(kind)


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
