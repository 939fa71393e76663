"""A game's link unfurls (issue 29, item 4): its page, fetched as a chat app's unfurler fetches it
(no cookies, a bot's user agent, no seat taken), carries Open Graph and Twitter-card tags naming
the game and its host, a line on the seats free or whose turn it is, and an absolute link to a
1200 × 630 PNG we draw. Nothing of it depends on what onlookers cannot see: two games that look
the same to an onlooker but differ in hidden cards give the same tags and the same PNG bytes."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from sqlalchemy import func, select

from tests.page import Page
from tests.web.test_dungeon_of_doom_web import Table as DoomTable
from webapp.pages import link_preview
from webapp.storage.schema import metadata

UNFURLERS = [
    "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    "WhatsApp/2.23.20.0",
    "Twitterbot/1.0",
]


def unfurl(app, path: str, agent: str = UNFURLERS[0]):
    """What an unfurler reads: the page fetched with no cookies; its tags (property or name → content)."""
    response = app.test_client().get(path, headers={"User-Agent": agent})
    assert response.status_code == 200
    page = Page(response.get_data(as_text=True))
    found = {}
    for tag in page.select("head meta"):
        key = tag.get("property") or tag.get("name")
        if key and (key.startswith("og:") or key.startswith("twitter:")):
            found[key] = tag["content"]
    return found, response


def row_counts(store) -> dict[str, int]:
    with store.engine.connect() as conn:
        return {
            name: conn.execute(select(func.count()).select_from(table)).scalar_one()
            for name, table in metadata.tables.items()
        }


def without_id(found: dict, game_id: str) -> dict:
    return {key: value.replace(game_id, "<id>") for key, value in found.items()}


@pytest.mark.parametrize("agent", UNFURLERS)
def test_a_waiting_tables_link_unfurls_with_its_host_and_free_seats_and_takes_no_seat(app, seat_client, agent):
    t = DoomTable(app, seat_client, players=2, start=False)
    before = row_counts(t.store)
    found, response = unfurl(app, f"/g/{t.game_id}", agent)
    assert found["og:title"] == "Ann invites you to The Dungeon of Doom"
    assert found["og:description"] == "2 seats free at the table: open the link to take one."
    assert found["og:url"] == f"http://localhost/g/{t.game_id}"
    assert found["og:image"].startswith(f"http://localhost/g/{t.game_id}/preview.png?v=")
    assert (found["og:image:width"], found["og:image:height"]) == ("1200", "630")
    assert found["twitter:card"] == "summary_large_image"
    assert found["twitter:image"] == found["og:image"]
    # The unfurler took no seat, got no seat or browser cookie, and wrote nothing at all.
    assert row_counts(t.store) == before
    assert len(t.store.seats(t.game_id)) == 2
    cookies = " ".join(response.headers.getlist("Set-Cookie"))
    assert "delve_seat" not in cookies and "delve_browser" not in cookies and "delve_games" not in cookies


def test_a_running_tables_link_says_whose_turn_it_is_and_its_picture_is_a_1200_by_630_png(app, seat_client):
    t = DoomTable(app, seat_client, players=2)
    found, _response = unfurl(app, f"/g/{t.game_id}")
    assert found["og:description"] == "Ann and Bob at the table; it is Ann's turn. Open the link to watch."
    picture = app.test_client().get(found["og:image"].removeprefix("http://localhost"))
    assert picture.status_code == 200 and picture.headers["Content-Type"] == "image/png"
    assert picture.data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(picture.data))
    assert (image.format, image.size) == ("PNG", (1200, 630))


def test_the_picture_is_drawn_once_per_revision(app, seat_client, monkeypatch):
    t = DoomTable(app, seat_client, players=2, start=False)
    drawn = []
    real_draw = link_preview.draw
    monkeypatch.setattr(link_preview, "draw", lambda preview: drawn.append(preview) or real_draw(preview))
    client = app.test_client()
    first = client.get(f"/g/{t.game_id}/preview.png").data
    assert client.get(f"/g/{t.game_id}/preview.png").data == first and len(drawn) == 1
    t.join("Cy")  # a new revision: one seat fewer is free
    assert client.get(f"/g/{t.game_id}/preview.png").data != first and len(drawn) == 2


def test_a_dungeon_of_doom_preview_never_depends_on_the_hidden_map(app, seat_client):
    one = DoomTable(app, seat_client, players=2, seed=11, map_choice="random-M")
    two = DoomTable(app, seat_client, players=2, seed=12, map_choice="random-M")
    assert one.state()["map"] != two.state()["map"]  # different dungeons, hidden from onlookers
    assert one.rules.view(one.state(), None)["players"] == two.rules.view(two.state(), None)["players"]
    tags_one, _ = unfurl(app, f"/g/{one.game_id}")
    tags_two, _ = unfurl(app, f"/g/{two.game_id}")
    assert without_id(tags_one, one.game_id) == without_id(tags_two, two.game_id)
    client = app.test_client()
    assert client.get(f"/g/{one.game_id}/preview.png").data == client.get(f"/g/{two.game_id}/preview.png").data


def test_a_solo_games_preview_shows_the_game_never_its_deal(app, seat_client):
    one, two = seat_client(), seat_client()
    first, second = one.start("shuffle-and-doom"), two.start("shuffle-and-doom")
    store = app.extensions["delve_store"]
    assert store.load(first).snapshot != store.load(second).snapshot  # two deals, each the server's secret
    tags_one, _ = unfurl(app, f"/g/{first}")
    tags_two, _ = unfurl(app, f"/g/{second}")
    assert tags_one["og:title"] == "A game of Shuffle and Doom! on Delve"
    assert without_id(tags_one, first) == without_id(tags_two, second)
    client = app.test_client()
    assert client.get(f"/g/{first}/preview.png").data == client.get(f"/g/{second}/preview.png").data


def test_a_named_solo_player_is_named():
    preview = link_preview.Preview("Ann is playing Clear the Dungeon", "", "Clear the Dungeon", (), None)
    assert Image.open(io.BytesIO(link_preview.draw(preview))).size == (1200, 630)


def test_no_picture_for_a_game_that_is_not_there(app):
    assert app.test_client().get("/g/nope/preview.png").status_code == 404
