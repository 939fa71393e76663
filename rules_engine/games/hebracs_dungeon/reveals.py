"""What an action showed the player that they had not seen: the ``reveals`` hook of
``rules_engine.undo`` (undo goes back to the last action that showed something).

The deck is shuffled once, at setup, and nothing else in the game is random (3). So the
player's view hides exactly two things (13.3): the Hand Deck below the top cards Future
Perception showed (``known_top``), and each card of the level the player has not seen (an enemy
neither face up nor remembered, a treasure face down). An action showed nothing new when those
hidden cards are all still where they were and still hidden; this module checks that on the
states, whatever the action was, and names what happened otherwise. A game that ends shows
everything (a finished game's replay), and a deal turns a new level's cards, so both count.
"""

from __future__ import annotations

from typing import Any

from .state import chamber_count

State = dict[str, Any]


def reveals(before: State, after: State, _seat: str, _action: dict[str, Any]) -> str | None:
    """A few words naming what the action showed, or None when it showed nothing new."""
    if after["status"] != "playing":
        return "the game ended"
    if after["level"] != before["level"]:
        return "a new level was dealt"
    if after["known_top"] > before["known_top"]:
        return "the top of the Hand Deck was foreseen"
    if _drew_unseen(before, after):
        return "a card was drawn"
    return _turned(before, after)


def _drew_unseen(before: State, after: State) -> bool:
    """Whether a card below the known top of the Hand Deck was drawn.

    Cards are drawn from the top and go under the bottom, so without such a draw the hidden run
    (the deck below the known top) is still whole at the top of the after deck's hidden part.
    """
    if after["known_top"]:
        return False  # each draw uses up one known card first: some are left, so none was unseen
    hidden = before["hand_deck"][before["known_top"] :]
    if not hidden:
        return False
    if after["hand_deck"][: len(hidden)] != hidden:
        return True
    # The run can still look whole after its first ``j`` cards were drawn if they went back under
    # at once and the run repeats itself every ``j`` cards (a short deck, a stacked one). No
    # action draws a level's worth of cards but a deal (caught above; the most is a Hell Bomb
    # striking five Genies of Luck, 15 cards), so only such ``j`` need checking.
    most = 2 * chamber_count(before)
    return len(hidden) <= most or any(hidden[j:] == hidden[:-j] for j in range(1, most + 1))


def _turned(before: State, after: State) -> str | None:
    """Words for a face-down card of the level that the player now sees, else None."""
    for row_before, row_after in zip(before["grid"], after["grid"], strict=True):
        for was, now in zip(row_before, row_after, strict=True):
            if was["enemy"] is not None and not (was["enemy_up"] or was["enemy_seen"]):
                if now["enemy"] is None:
                    # Met on entering (turned, then gone: an ace, a black priestess), or sent
                    # under unseen from a chamber nobody entered (the Genie of Death, a Stone Statue).
                    if now["visited"] and not was["visited"]:
                        return "a card was turned"
                elif now["enemy_up"]:
                    return "a card was turned"
                elif now["enemy_seen"]:
                    return "a face-down card was seen"
            if was["treasure"] is not None and not was["treasure_up"]:
                if now["treasure"] is None:
                    return "a face-down treasure was taken"
                if now["treasure_up"]:
                    return "a card was turned"
    return None
