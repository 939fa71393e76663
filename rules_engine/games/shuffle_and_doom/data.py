"""Shuffle and Doom!'s declarations (the contract's facts, options), constants and card words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from ... import kit
from ...cards import Card, pretty_all, standard_deck
from ...errors import InvalidAction
from ...options import STACKED_DEAL, Option

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
    return pretty_all(codes) if codes else "nothing"
