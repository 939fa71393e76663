"""What an action showed that nobody had seen: the ``reveals`` hook of ``rules_engine.undo``.

Alone, the player sees everything but the deck's order and the random source (the seed behind
every shuffle, the random layout and the potion rolls): the board, the discard pile and the
hand are all on the page. So an action showed nothing new when the deck is as it was and the
random source was not used (its counters and the scripted rolls are as they were); this module
checks that on the states, whatever the action was. A game that ends shows everything (a
finished game's replay).

At a party every move is shared: each draw, and each choice, is seen by the whole table at
once, so no move can be taken back.
"""

from __future__ import annotations

from typing import Any

from .core import is_party

State = dict[str, Any]

PARTY = "at a party every move is shared"


def reveals(before: State, after: State, _seat: str, _action: dict[str, Any]) -> str | None:
    """A few words naming what the action showed, or None when it showed nothing new."""
    if is_party(before) or is_party(after):
        return PARTY
    if after["status"] == "finished":
        return "the game ended"
    was, now = before["counters"], after["counters"]
    if now["d20"] != was["d20"] or after["rolls"] != before["rolls"]:
        return "the die was rolled"
    if now["setup"] != was["setup"]:
        return "the dungeon was laid out at random"
    deck, left = before["deck"], after["deck"]
    if now["shuffle"] != was["shuffle"]:
        return "the deck was shuffled"
    if left == deck:
        return None
    # Cards leave the deck only from the top; anything else is a shuffle ("stacked" shuffles,
    # the test mode of §12.0, put the discard pile under the deck without using the seed).
    return "a card was drawn" if left == deck[len(deck) - len(left) :] else "the deck was shuffled"
