"""Slow tables (issue 29): the waiting room of a Dungeon of Doom or Dungeon Cards party says the
turn limit the host chose, in the creation form's words, to the host, to a friend who joined and
to a visitor deciding whether to join (a table of one day per turn is a different promise)."""

from __future__ import annotations

import pytest

from tests.page import Page, squash
from tests.web.test_dungeon_cards_web import Table as CardsTable
from tests.web.test_dungeon_of_doom_web import Table as DoomTable
from webapp.domain.catalog import BY_SLUG
from webapp.pages.board import turn_limit_words


@pytest.mark.parametrize(
    ("game", "seconds", "words"),
    [
        ("doom", "86400", "1 day"),
        ("doom", "0", "No limit"),
        ("cards", "3600", "1 hour"),
        ("cards", "90", "1 minute 30 (standard)"),
    ],
)
def test_the_waiting_room_says_the_turn_limit(app, seat_client, game, seconds, words):
    if game == "doom":
        table = DoomTable(app, seat_client, players=2, turn_seconds=seconds, start=False)
    else:
        table = CardsTable(app, seat_client, ("ninja", "tank"), start=False, markers=None, turn_seconds=seconds)
    visitor = seat_client()
    pages = [
        table.host.get(f"/g/{table.game_id}"),
        table.clients["p2"].get(f"/g/{table.game_id}"),
        visitor.get(f"/g/{table.game_id}"),
        table.clients["p2"].board(),  # the waiting room as a push redraws it
    ]
    for response in pages:
        page = Page(response.get_data(as_text=True))
        assert page.select("#game.waiting")
        assert squash(page.one("#turn-limit").get_text()) == f"Turn limit: {words}."


def test_a_limit_the_form_does_not_offer_is_said_in_seconds_and_an_untimed_game_says_none():
    assert turn_limit_words(BY_SLUG["dungeon-cards"].options, {"turn_seconds": 45}) == "45 seconds"
    assert turn_limit_words(BY_SLUG["shuffle-and-doom"].options, {"size": 4}) is None
