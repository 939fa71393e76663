"""Each game's How to play page lists its typed commands and questions (issue 28), drawn from
the game's speech module, so the page cannot name a command the command line does not read."""

from __future__ import annotations

import pytest

import rules_engine
from tests.page import Page

SLUGS = ["clear-the-dungeon", "hebracs-dungeon", "dungeon-cards", "dungeon-of-doom"]


@pytest.mark.parametrize("slug", SLUGS)
def test_the_how_to_play_page_lists_the_commands_of_the_speech_module(seat_client, slug):
    speech = rules_engine.get(slug).speech
    page = Page(seat_client().get(f"/how-to-play/{slug}").get_data(as_text=True))
    section = page.one("section[aria-labelledby=commands]")
    rows = [[cell.get_text(" ", strip=True) for cell in row.select("td")] for row in section.select("tbody tr")]
    assert rows == [list(pair) for pair in (*speech.COMMAND_HELP, *speech.QUESTIONS)]
    assert section.select_one("h2").get_text(strip=True) == "Commands"
