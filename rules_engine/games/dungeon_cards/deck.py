"""The deck, the discard pile and every shuffle (§6).

All shuffles draw from ``seeded_rng(seed, "shuffle", n)`` with a counter kept in the state, so a
game replays exactly. With ``options["shuffles"] == "stacked"`` every shuffle is the test shuffle
of §12.0: the discard pile, in discard order, goes under the deck and nothing is reordered.

>>> s = {"deck": [], "discard": ["3C", "4D"], "options": {"shuffles": "stacked"},
...      "counters": {"shuffle": 0}, "seed": 1, "log": []}
>>> draw(s), s["deck"], s["log"][-1]["text"]
('3C', ['4D'], 'The deck ran out: the discard pile is shuffled to form a new deck (2 cards).')
"""

from __future__ import annotations

from typing import Any

from ...cards import seeded_rng, shuffled
from .core import is_face, log

SHUFFLE_TEXT = {
    "combat_start": "The discard pile is shuffled into the deck for the fight",
    "combat_end": "The fight is over: the discard pile is shuffled into the deck",
    "exhausted": "The deck ran out: the discard pile is shuffled to form a new deck",
}


def shuffle_in(state: dict[str, Any], reason: str, extra: list[str] | None = None) -> None:
    """Shuffle the discard pile (and ``extra`` cards, e.g. set-aside stats cards) into the deck."""
    incoming = state["discard"] + (extra or [])
    state["discard"] = []
    if state["options"].get("shuffles") == "stacked":
        state["deck"] = state["deck"] + incoming
    else:
        n = state["counters"]["shuffle"]
        state["counters"]["shuffle"] = n + 1
        state["deck"] = shuffled(state["deck"] + incoming, seeded_rng(state["seed"], "shuffle", n))
    if reason in SHUFFLE_TEXT:
        log(state, "deck_shuffled", f"{SHUFFLE_TEXT[reason]} ({len(state['deck'])} cards).")


def draw(state: dict[str, Any]) -> str | None:
    """The top card, reshuffling the discard pile only when a draw finds the deck empty (§6).

    ``None`` only when the deck and the discard pile are both empty (ruling 52).
    """
    if not state["deck"]:
        if not state["discard"]:
            return None
        shuffle_in(state, "exhausted")
    card: str = state["deck"].pop(0)
    return card


def draw_number(state: dict[str, Any], redrawn: list[str] | None = None) -> str | None:
    """Draw until a number card turns up; face cards go to the discard pile at once (§5.5 step 4).

    Face cards redrawn are appended to ``redrawn``. ``None`` when no number card is left in the
    deck or the discard pile (the safety rule of §6).
    """
    while True:
        if not state["deck"] and not any(not is_face(c) for c in state["discard"]):
            return None
        card = draw(state)
        if card is None:
            return None
        if not is_face(card):
            return card
        state["discard"].append(card)
        if redrawn is not None:
            redrawn.append(card)


def all_cards(state: dict[str, Any]) -> list[str]:
    """Every card's current place, for the conservation check (§6): deck, discard, removed,
    hands and the table (turn card, boss card, exchange cards, dash card)."""
    cards: list[str] = state["deck"] + state["discard"] + state["removed"]
    for c in state["characters"]:
        cards += c["hand"]
    turn = state["turn"]
    if turn and turn["movement_card"]:
        cards.append(turn["movement_card"])
    combat = state["combat"]
    if combat:
        if combat["boss_on_table"]:
            cards.append(combat["boss_card"])
        cards += combat["table"]
        if combat["dash"] and combat["dash"]["card"]:
            cards.append(combat["dash"]["card"])
    return cards
