"""Clear the Dungeon's declarations (the contract's facts, options), the layout of the dungeon
(section 3 of ``docs/rules/clear-the-dungeon.md``), the cards (section 2) and the score."""

from __future__ import annotations

from ... import kit
from ...cards import (
    JOKER,
    RANK_NAMES,
    SUIT_SYMBOLS,  # noqa: F401  (part of this module's vocabulary: the tests read the suits from here)
    standard_deck,
)
from ...options import Option

slug = "clear-the-dungeon"
title = "Clear the Dungeon"
min_players = 1
max_players = 1
TABLE = False
PLAYERS_LABEL = "Solo"
BLURB = (
    "A solitaire card battle: the dungeon is seven overlapping rows of face-down "
    "monsters. Play cards from your hand onto revealed monsters until their sum beats "
    "their power, turn kings into magic items, and clear the dungeon before the fifth "
    "hit lands."
)
OPTIONS = (
    Option(
        "deck",
        "Stacked deal",
        "deck",
        group="Advanced",
        help=(
            "Optional: all 54 card codes, top card first (52 cards and JK twice). The jacks, queens, "
            "kings and jokers fill the dungeon from the top row down; the aces to tens form the power deck."
        ),
    ),
)

# --- Layout (section 3) -------------------------------------------------------------------

ROW_SIZES = (1, 2, 3, 2, 1, 2, 3)
"""Cards per row, top to bottom."""

POSITIONS = tuple(f"r{r}c{c}" for r, n in enumerate(ROW_SIZES, 1) for c in range(1, n + 1))
"""The 14 positions in reading order (dealing order, 3.1)."""

COVERED_BY: dict[str, list[str]] = {
    "r1c1": ["r2c1", "r2c2"],
    "r2c1": ["r3c1", "r3c2"], "r2c2": ["r3c2", "r3c3"],
    "r3c1": ["r4c1"], "r3c2": ["r4c1", "r4c2"], "r3c3": ["r4c2"],
    "r4c1": ["r5c1"], "r4c2": ["r5c1"],
    "r5c1": ["r6c1", "r6c2"],
    "r6c1": ["r7c1", "r7c2"], "r6c2": ["r7c2", "r7c3"],
    "r7c1": [], "r7c2": [], "r7c3": [],
}  # fmt: skip
"""The cover table of 3.2: covered position -> the positions covering it."""

SETTLE_ORDER = tuple(p for r in range(len(ROW_SIZES), 0, -1) for p in POSITIONS if p.startswith(f"r{r}c"))
"""Bottom row first, left to right within a row (3.4, ruling 25)."""

_SIDES = {1: ("",), 2: ("left", "right"), 3: ("left", "middle", "right")}


def place_name(pos: str) -> str:
    """A position in the words the board gives it (rows counted from the top, as its pictures are
    read out): ``r<row>c<col>`` is the engine's code, never a player's.

    >>> place_name("r7c1"), place_name("r3c2"), place_name("r5c1")
    ('row 7, left', 'row 3, middle', 'row 5')
    """
    row, col = int(pos[1]), int(pos[3])
    side = _SIDES[ROW_SIZES[row - 1]][col - 1]
    return f"row {row}, {side}" if side else f"row {row}"


_POS_SET = frozenset(POSITIONS)

# --- Cards (section 2) --------------------------------------------------------------------

MONSTER_RANKS = ("J", "Q", "K")
POWER = {"J": 11, "Q": 12, "K": 13}
ALL_CARDS = standard_deck(jokers=2)
MONSTER_DECK = [c for c in ALL_CARDS if c == JOKER or c[:-1] in MONSTER_RANKS]
"""``JS QS KS JH QH KH JD QD KD JC QC KC JK JK``: the canonical order before shuffling."""
POWER_DECK = [c for c in ALL_CARDS if c not in MONSTER_DECK]
"""``AS 2S … 10S AH … 10C``: the standard order of the 40 power cards."""
ITEMS = ("KH", "KD", "KS", "KC")
MONSTERS = 12
"""Monsters to defeat for the win (jokers are not monsters, section 5)."""
MAX_HITS = 5
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
LOSING_HIT = f"{_ORDINALS[MAX_HITS - 1]} hit"
"""The hit that loses the game, in words ("fifth hit") for the sentences that name it."""
HAND_SIZE = 3

# The score of 10.7; pages explain it from these, never from a copy of the numbers.
DEFEAT_POINTS = 100
WIN_BONUS = 1000
SPARE_HIT_POINTS = 10
PERFECT_SCORE = MONSTERS * DEFEAT_POINTS + WIN_BONUS + SPARE_HIT_POINTS * MAX_HITS

STATUS_REASON = {"won": "cleared", "lost_hits": "five_hits", "lost_power": "out_of_power", "resigned": "resigned"}

_CARD = kit.Param(frozenset(ALL_CARDS), "{value!r} is not a card code")
_TARGET = kit.Param(_POS_SET, "{value!r} is not a dungeon position (r1c1 … r7c3)")

_WORDING = kit.Wording(
    not_an_object="an action must be a dictionary",
    unknown_type=lambda kind: f"unknown action type: {kind}" if isinstance(kind, str) else "an action needs a type",
    unexpected=lambda kind, names: f"{kind} takes no {', '.join(map(str, names))}",
    missing=lambda kind, names: f"{kind} needs {', '.join(sorted(names))}",
)


def power_value(code: str) -> int:
    """A power card's value: ace 1, 2–10 face value, joker 10 (2.2).

    >>> power_value("AS"), power_value("7D"), power_value("10C"), power_value("JK")
    (1, 7, 10, 10)
    """
    if code == JOKER:
        return 10
    rank = code[:-1]
    return 1 if rank == "A" else int(rank)


def _named(code: str) -> str:
    """``"an ace"``, ``"a 2"``, ``"an 8"``, ``"a joker"`` for error messages."""
    word = "joker" if code == JOKER else RANK_NAMES.get(code[:-1], code[:-1])
    return ("an " if word[0] in "a8" else "a ") + word


def _monster_word(code: str) -> str:
    return RANK_NAMES[code[:-1]]
