"""A game's Hall of Fame, as the game declares it (``HALL_OF_FAME``): what its page ranks and how.

The engine writes its entries into the state (``fame_entries``); the platform keeps them across
games and draws the page the declaration names. Ranking a deal a player could know or shape in
advance would reward building an escape rather than making one, so the game also says which of
its options set the deal (``set_deal``): such an escape is listed but never ranked.

>>> fame = HallOfFame(
...     page="coin/hall_of_fame.html",
...     sorts=(("rank", "Rank"), ("name", "Name"), ("turns", "Turns")),
...     ranking=(("turns", "asc"),),
...     ascending_first=frozenset({"name", "turns"}),
... )
>>> fame.first_direction("name"), fame.first_direction("rank"), fame.set_deal({"deck": ["3C"]})
('asc', 'desc', False)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal


def _nothing_sets_the_deal(_options: Mapping[str, Any]) -> bool:
    return False


@dataclass(frozen=True)
class HallOfFame:
    """What a game's Hall of Fame ranks: its page, its columns, its ranking."""

    page: str
    """The page's template, in the game's own templates folder (``"dungeon_cards/hall_of_fame.html"``)."""
    sorts: tuple[tuple[str, str], ...]
    """(sort key, column header) in the page's order; ``"rank"`` is the ranking itself, ``"name"``
    the player's name at the table, ``"date"`` when the entry was written; the others are the
    entries' own columns."""
    ranking: tuple[tuple[str, Literal["asc", "desc"]], ...]
    """The rules' ranking: sort keys, each highest (``desc``) or lowest (``asc``) first; ties go
    to the earlier entry."""
    ascending_first: frozenset[str] = frozenset()
    """Sort keys whose first click sorts lowest first (names A→Z, fewest turns); the rest highest first."""
    set_deal: Callable[[Mapping[str, Any]], bool] = _nothing_sets_the_deal
    """Whether these options let a player know or shape the deal (a stacked deck, scripted dice):
    such an escape is listed, marked, and kept out of the ranking."""

    def first_direction(self, sort: str) -> Literal["asc", "desc"]:
        """The direction a column sorts in when first chosen."""
        return "asc" if sort in self.ascending_first else "desc"
