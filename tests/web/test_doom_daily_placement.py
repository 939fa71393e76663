"""The Dungeon of Doom's daily deal is a table (issue 25): its end panel, on each seated player's own
page, says where that player's attempt placed on the day's ranking, the score to beat, and links
to the ranking, in the solo games' words (``deals.placement``); an onlooker's page says none of it."""

from __future__ import annotations

import datetime as dt
import json

from sqlalchemy import update

from tests.helpers.web import at_address
from tests.page import Page
from tests.web.test_bots import act, post
from tests.web.test_deals import take
from webapp.storage.schema import games

DAILY = "/daily/dungeon-of-doom"


def daily_table(seat_client, store, host, address, guests=()):
    """``host`` opens a table on today's map from ``address``, ``guests`` join, it starts and every
    adventurer leaves it: the game is over. Returns the host's client and the guests'."""
    opener = at_address(seat_client(), address)
    game_id = take(opener, DAILY, name=host)
    joined = []
    for name in guests:
        guest = seat_client()
        guest.watch(game_id)
        assert post(guest, "join", name=name).status_code == 303
        joined.append(guest)
    assert post(opener, "start").status_code == 303
    for client in [*joined, opener]:
        assert act(store, client, {"type": "leave"}).status_code == 200
    assert store.load(game_id).status == "finished"
    return opener, joined


def with_gold(store, game_id, gold):
    """As if every adventurer of the finished game had ended with ``gold``."""
    result = dict(store.load(game_id).result)
    result["scores"] = {seat: gold for seat in result["scores"]}
    with store.engine.begin() as conn:
        conn.execute(update(games).where(games.c.id == game_id).values(result=json.dumps(result)))


def end_panel(client, game_id) -> Page:
    return Page(client.get(f"/g/{game_id}").data)


def test_each_seated_players_end_panel_says_where_the_table_placed_and_onlookers_see_none(seat_client, store, clock):
    cat, _ = daily_table(seat_client, store, "Cat", "203.0.113.3")
    with_gold(store, cat.game_id, 7)
    ann, (bea,) = daily_table(seat_client, store, "Ann", "203.0.113.1", guests=["Bea"])
    game_id = ann.game_id

    mine = end_panel(ann, game_id)
    words = mine.text(".result #deal-placement")
    assert "2nd of 2 on today's deal." in words
    assert "The score to beat: 7 (Cat)." in words
    assert mine.attr("#deal-placement a", "href") == DAILY
    assert mine.text("#deal-placement a") == "See the ranking"
    assert "You lead." in end_panel(cat, cat.game_id).text("#deal-placement")

    # Bea joined Ann's table: the ranking counts the seat that opened it, and her panel says so.
    hers = end_panel(bea, game_id)
    said = hers.text("#deal-placement")
    assert "You joined Ann's table: only the seat that opened it is ranked on today's deal." in said
    assert " of 2" not in said
    assert "The score to beat: 7 (Cat)." in said
    assert hers.attr("#deal-placement a", "href") == DAILY

    # The board the table's pushes and htmx draw says it too.
    board = Page(ann.board().data)
    assert "2nd of 2 on today's deal." in board.text("#deal-placement")

    onlooker = seat_client()
    seen = onlooker.get(f"/g/{game_id}")
    assert seen.status_code == 200 and Page(seen.data).select(".result")
    assert Page(seen.data).select("#deal-placement") == []
    assert Page(onlooker.board().data).select("#deal-placement") == []


def test_a_second_table_the_same_day_is_practice_and_its_panel_says_so(seat_client, store, clock):
    ann, _ = daily_table(seat_client, store, "Ann", "203.0.113.1")
    first = ann.game_id
    with_gold(store, first, 4)
    again = take(ann, DAILY, name="Ann")
    assert post(ann, "start").status_code == 303
    assert act(store, ann, {"type": "leave"}).status_code == 200
    words = end_panel(ann, again).text("#deal-placement")
    assert "Practice: this game is not ranked on today's deal (only a first attempt on a deal is)." in words
    assert "The score to beat: 4 (Ann)." in words
    # A past day's table is worded by its day.
    clock["today"] += dt.timedelta(days=1)
    assert "1st of 1 on the daily deal of 2026-11-26." in end_panel(ann, first).text("#deal-placement")


def test_a_table_off_the_daily_deal_has_no_placement(seat_client, store):
    host = seat_client()
    host.get("/")
    response = host.http.post("/games", data={"game": "dungeon-of-doom", "csrf_token": host.csrf, "name": "Ann"})
    assert response.status_code == 303
    host.watch(response.headers["Location"].rsplit("/", 1)[-1])
    assert post(host, "start").status_code == 303
    assert act(store, host, {"type": "leave"}).status_code == 200
    page = end_panel(host, host.game_id)
    assert page.select(".result") and page.select("#deal-placement") == []
