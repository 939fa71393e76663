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

The package: ``data`` (declarations, constants), ``setup``, ``rooms`` (drawing, damage, the end),
``play`` (legal actions and the actions, ``apply``/``dump``/``load`` from ``kit.Engine``),
``views`` (views, labels, warnings).

State layout (plain JSON-safe data; copy-on-write in ``apply``):
``map`` (room id per cell, ``None`` for ``0``) and ``rooms`` (id, cells, size) never change
after setup; ``room_status`` / ``room_order`` are lists indexed by room id − 1.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...cards import Card, check_stacked_deck, pretty, rank_value, seeded_rng, shuffled, standard_deck
from ...errors import IllegalAction, InvalidAction
from ...grid import DIRECTION_NAMES, DIRECTIONS, connected_regions, in_bounds, neighbours, step
from ...options import STACKED_DEAL, Option
from .data import (
    BLURB,
    CANONICAL,
    FLAGS,
    MAX_REDEALS,
    OPTIONS,
    PHASES,
    PLAYERS_LABEL,
    RUNNING,
    SETS,
    SIZE,
    STATS,
    SWAP_OPTIONS,
    TABLE,
    cell_name,
    max_players,
    min_players,
    size_bonus,
    slug,
    title,
)
from .play import ACTIONS, action_label, apply, dump, legal_actions, load
from .setup import new_game
from .views import full_view, loss_warning, result, result_text, view

# What the platform offers around the game (rules_engine/contract.py): its front-page place, a
# deal of the day on the standard options, and challenges to a finished game's deal.
FRONT_PAGE_PLACE = 10
DAILY_FORM: dict[str, str] = {}
CHALLENGES = True
SOLVER = "rules_engine.games.shuffle_and_doom.solver"
SPEECH = "rules_engine.games.shuffle_and_doom.speech"


def reveals(before: dict[str, Any], after: dict[str, Any], _seat: str, _action: dict[str, Any]) -> str | None:
    """What the action showed that the player had not seen (``rules_engine.undo``), or None.

    The draw pile's order and the seed are the only hidden parts of the state (section 11), so
    an action reveals when cards leave the draw pile (a room is drawn for on its first entry)
    or the pile is reshuffled from the seed (an exhaustion), and when the game ends (a
    finished game's replay shows the draw pile). Everything else — setting up, walking through
    empty cells and emptied rooms, going back into a suspended room, fights, traps, taking,
    retreating, drinking and reading — follows from face-up cards alone and can be undone.

    >>> deck = ["5C", "8D", "3H", "9S", "7D", "KS", "JS", "QH", "6S"]
    >>> state = apply(new_game(1, ["p1"], {"size": 4, "deck": deck}), "p1", {"type": "choose_stat_set", "set": "top"})
    >>> last = {"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"}
    >>> reveals(state, apply(state, "p1", last), "p1", last)
    'a room was turned face up'
    """
    what: list[str] = []
    shuffled = after["exhaustions"] != before["exhaustions"]
    if shuffled:
        what.append("the deck was shuffled")
    # An exhaustion happens only while a room is drawn for, which then draws from the new pile.
    if shuffled or Counter(before["draw"]) - Counter(after["draw"]):
        what.append("a room was turned face up")
    if after["phase"] == "over":
        what.append("the game ended")
    return " and ".join(what) or None


__all__ = [
    "ACTIONS",
    "BLURB",
    "CANONICAL",
    "Card",
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "FLAGS",
    "IllegalAction",
    "InvalidAction",
    "MAX_REDEALS",
    "OPTIONS",
    "Option",
    "PHASES",
    "PLAYERS_LABEL",
    "RUNNING",
    "SETS",
    "SIZE",
    "STACKED_DEAL",
    "STATS",
    "SWAP_OPTIONS",
    "TABLE",
    "action_label",
    "apply",
    "cell_name",
    "check_stacked_deck",
    "connected_regions",
    "dump",
    "full_view",
    "in_bounds",
    "legal_actions",
    "load",
    "loss_warning",
    "max_players",
    "min_players",
    "neighbours",
    "new_game",
    "pretty",
    "rank_value",
    "result",
    "result_text",
    "reveals",
    "seeded_rng",
    "shuffled",
    "size_bonus",
    "slug",
    "standard_deck",
    "step",
    "title",
    "view",
]
