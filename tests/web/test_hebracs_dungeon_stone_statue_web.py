"""Hebrac's Dungeon's page: the Stone Statue's aiming note states the engine's bound on chambers
(``spells.STONE_STATUE_MOST``), not a number typed into the template."""

from __future__ import annotations

from rules_engine.games.hebracs_dungeon import spells
from tests.page import Page

# Level 1: treasures 10♣ and 5♣ behind two empty chambers (aces), then filler; then the Hand Deck.
DECK = " ".join(["10C", "5C"] + ["2H"] * 10 + ["AS", "AH"] + ["2S"] * 10 + ["5D"] * 30)


def test_the_stone_statue_note_states_the_engines_bound(seat_client, monkeypatch):
    monkeypatch.setattr(spells, "STONE_STATUE_MOST", 4)
    player = seat_client()
    player.start("hebracs-dungeon", jokers="on", deck=DECK)
    player.act({"type": "move", "row": 1, "col": 1})
    page = player.act({"type": "move", "row": 1, "col": 2})
    notes = Page(page.get_data(as_text=True)).texts("#book-stone_statue .aim-note")
    assert notes and notes[0].startswith("Tick Stone on 1 to 4 chambers of the map")
