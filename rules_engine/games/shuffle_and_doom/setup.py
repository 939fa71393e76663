"""Setup: options, the deal, the map from the header cards, header swaps, choosing a stat set and
the diamond bonuses."""

from __future__ import annotations

from typing import Any

from ...cards import check_stacked_deck, pretty_all, seeded_rng, shuffled, standard_deck
from ...errors import InvalidAction
from ...grid import connected_regions
from .data import CANONICAL, FLAGS, MAX_REDEALS, SETS, SIZE, SWAP_OPTIONS, _red, _suit, cell_name, size_bonus
from .rooms import _enter

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
    log.append(f"Top set: {pretty_all(s['top'], joiner=' ')}. Side set: {pretty_all(s['side'], joiner=' ')}.")
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
    s["log"].append(
        "The header cards go to the bottom of the deck: " + pretty_all(s["top"] + s["side"], joiner=" ") + "."
    )
    s["position"] = [1, 1]
    s["phase"] = "explore"
    s["log"].append(f"You step onto {cell_name((1, 1))}.")
    _enter(s, 1, 1)
