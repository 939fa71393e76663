"""Stacked Shuffle and Doom! decks the tests share (rules: ``docs/rules/shuffle-and-doom.md``)."""

from __future__ import annotations

from rules_engine.cards import standard_deck

# The eight header cards of acceptance scenario S1 (section 12): two rows that draw its map.
S1_HEADERS = ["5C", "8D", "3H", "9S", "7D", "KS", "JS", "QH"]
# S1's header cards and one card more: a whole short game (one enemy, then out with gold).
SHORT_DEAL = [*S1_HEADERS, "6S"]


def full_deck(*first: str) -> list[str]:
    """A full stacked deck: the given cards on top, the rest in canonical order."""
    return list(first) + [c for c in standard_deck() if c not in first]


# The short deal on top of a full deck: the same opening, and cards enough for every room.
S1_DECK = full_deck(*SHORT_DEAL)
