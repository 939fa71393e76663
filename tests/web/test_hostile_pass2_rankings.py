"""Security issue 22, second pass (findings 6, 7, 8 and 17b/c): what reaches a ranking.

- An attempt started from another attempt ("the same deal again") is practice, whatever cookies
  the request carries.
- One ranked attempt per deal per browser *and* per client address (its keyed hash): a fresh
  cookie at the same connection plays practice.
- Only what a person played is ranked: daily tables take no bots (neither added nor keeping a
  dropped seat), a seat a bot ever played is marked in the Hall of Fame and kept out of its
  ranking, and a game a bot played for this browser's seat stays out of this browser's record.
- Pages that show this browser's rows are private to it (``Cache-Control: private``,
  ``Vary: Cookie``), and a solo game on a shared deal (a challenge's source game included) opens
  to anyone but its player only when its replay would.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import update

from tests.helpers.web import at_address
from tests.page import Page
from tests.web.test_bots import act, changed_at, driver, open_table, play_now, post, settle, text_of
from tests.web.test_deals import SLUG, challenge_from, finished_game, take
from tests.web.test_dungeon_cards_web import Table as CardsTable
from tests.web.test_replays import play_to_the_end
from webapp.domain import browsers, deals, hall_of_fame, play
from webapp.pages import viewer
from webapp.realtime import presence
from webapp.storage.schema import seats as seats_table

DAILY = f"/daily/{SLUG}"


def todays_ranking(client) -> list[str]:
    return Page(client.get(DAILY).data).texts("#board tbody td:nth-child(2)")


def daily_attempts(app, slug=SLUG, day=dt.date(2026, 11, 26)):
    with app.test_request_context():
        return {a.game_id: a for a in deals.attempts(app.extensions["delve_store"], deals.daily_deal(slug, day))}


# ---- finding 6: an attempt started from another attempt is practice ---------------------------


def test_the_same_deal_again_without_the_browser_cookie_is_practice(app, seat_client, store, clock):
    alice = seat_client()
    first = take(alice, DAILY, name="Alice")
    play_to_the_end(alice, store, seed=1)
    # The seat cookie proves Alice is the game's player; the browser cookie is left behind.
    alice.http.delete_cookie(viewer.BROWSER_COOKIE_NAME)
    again = alice.http.post(f"/g/{first}/rematch", data={"csrf_token": alice.csrf})
    assert again.status_code == 303, again.get_data(as_text=True)
    alice.game_id = again.headers["Location"].rsplit("/", 1)[-1]
    alice.get(f"/g/{alice.game_id}")
    play_to_the_end(alice, store, seed=2)
    assert daily_attempts(app)[alice.game_id].ranked is False
    assert [name.removesuffix(" you") for name in todays_ranking(seat_client())] == ["Alice"]


# ---- finding 7: one ranked attempt per deal per browser and per address ------------------------


def test_a_fresh_browser_at_the_same_address_plays_the_daily_for_practice(app, seat_client, store, clock):
    scout = at_address(seat_client(), "198.51.100.7")
    take(scout, DAILY, name="Scout")
    play_to_the_end(scout, store, seed=1)
    fresh = at_address(seat_client(), "198.51.100.7")
    cheat = take(fresh, DAILY, name="Cheat")
    play_to_the_end(fresh, store, seed=2)
    elsewhere = at_address(seat_client(), "203.0.113.9")
    other = take(elsewhere, DAILY, name="Bea")
    play_to_the_end(elsewhere, store, seed=3)
    found = daily_attempts(app)
    assert found[cheat].ranked is False and found[other].ranked is True
    assert sorted(todays_ranking(seat_client())) == ["Bea", "Scout"]


def test_a_challenge_ranks_one_attempt_per_address_and_says_so(app, seat_client, store):
    ann = at_address(seat_client(), "198.51.100.7")
    finished_game(ann, store)
    link = challenge_from(ann)
    # A throwaway browser at the challenger's own address plays for practice only.
    throwaway = at_address(seat_client(), "198.51.100.7")
    attempt = take(throwaway, link)
    with app.test_request_context():
        ranked = {
            a.game_id: a.ranked
            for a in deals.attempts(
                app.extensions["delve_store"], deals.challenge_deal(link.rsplit("/", 1)[1]), finished_only=False
            )
        }
    assert ranked[attempt] is False and ranked[ann.game_id] is True
    said = Page(seat_client().get(link).data).text(".deal-start")
    assert "one ranked attempt per deal for each browser and each connection" in said


# ---- finding 8: only what a person played is ranked -------------------------------------------


def test_a_daily_table_takes_no_bots(app, store, seat_client, clock):
    host = seat_client()
    host.get("/daily/dungeon-of-doom")
    game_id = take(host, "/daily/dungeon-of-doom", name="Ann")
    assert "Add a bot" not in text_of(host.get(f"/g/{game_id}"))
    refused = post(host, "add-bot", level="normal")
    assert refused.status_code == 409
    assert [s.name for s in store.seats(game_id)] == ["Ann"]


def test_no_bot_keeps_a_dropped_seat_at_a_daily_table(app, store, seat_client, clock):
    host = seat_client()
    game_id = take(host, "/daily/dungeon-of-doom", name="Ann")
    guest = seat_client()
    guest.watch(game_id)
    assert post(guest, "join", name="Bea").status_code == 303
    assert post(host, "start").status_code == 303
    with store.engine.begin() as conn:
        conn.execute(
            update(seats_table)
            .where(seats_table.c.game_id == game_id, seats_table.c.seat == "p2")
            .values(connected=0, last_seen=changed_at(store, game_id) - presence.GRACE_SECONDS - 5)
        )
    with app.app_context():
        presence.drop_absent(app.extensions["delve_service"], changed_at(store, game_id))
    bea = next(s for s in store.seats(game_id) if s.seat == "p2")
    assert bea.bot is None and not bea.kept


def fame_entry(seat: str) -> dict:
    """A Dungeon Cards escape as the engine writes it into the state's Hall of Fame entries."""
    return {
        "player": seat,
        "class": "swordsman",
        "level": 3,
        "lives": 9,
        "max_lives": 10,
        "speed": 1,
        "turns_taken": 4,
        "outcome": "escaped",
        "turn_mode": "single_draw",
        "board_size": "10x10",
    }


def _escape_of(store, game_id: str, seat: str) -> None:
    """``seat``'s escape, written as the engine's fame entry would be (the writer under test)."""
    game = play.load_game(store, game_id)
    entry = fame_entry(seat)
    escaped = dict(game.state, hall_of_fame=[*game.rules.fame_entries(game.state), entry])
    with store.engine.begin() as conn:
        hall_of_fame.record_escapes(conn, game, seat, {}, escaped, 0.0)


def test_a_bots_escape_is_marked_and_kept_out_of_the_ranking(app, store, seat_client):
    player = play_now(seat_client, slug="dungeon-cards", bots="2")
    _escape_of(store, player.game_id, "p2")
    assert hall_of_fame.entries(store) == []
    (row,) = hall_of_fame.entries(store, set_deals=True)
    assert row["bot"] is True and row["rank"] is None
    listed = Page(seat_client().get("/hall-of-fame?deals=all").data)
    assert [chip.get_text() for chip in listed.select("span.chip.bot")] == ["played by a bot"]
    assert "Bot 1" not in Page(seat_client().get("/hall-of-fame").data).text("main")


def test_a_seat_a_bot_once_played_for_its_person_is_not_ranked(app, store, seat_client):
    t = CardsTable(app, seat_client, ("swordsman", "tank"), markers=None)
    game = play.load_game(store, t.game_id)
    bot_seat = next(
        s for s in ("p1", "p2") if any(a["type"] != "leave_game" for a in game.rules.legal_actions(game.state, s))
    )
    assert store.take_over(t.game_id, bot_seat, "normal") is not None
    legal = [a for a in game.rules.legal_actions(game.state, bot_seat) if a["type"] != "leave_game"]
    app.extensions["delve_service"].act(game, bot_seat, legal[0], bot=True)
    store.reclaim(t.game_id, bot_seat)  # the person is back and plays on: the seat stays marked
    _escape_of(store, t.game_id, bot_seat)
    assert hall_of_fame.entries(store) == []
    assert [r["bot"] for r in hall_of_fame.entries(store, set_deals=True)] == [True]


def test_a_game_a_bot_played_for_this_browser_stays_out_of_its_record(app, store, seat_client):
    host = open_table(seat_client)
    guest = seat_client()
    guest.watch(host.game_id)
    assert post(guest, "join", name="Bea").status_code == 303
    assert post(host, "start").status_code == 303
    game_id = host.game_id
    # Bea's page is gone past the grace period: a bot keeps her seat and plays her turn.
    assert store.take_over(game_id, "p2", "normal") is not None
    act(store, host, {"type": "end_turn"})
    assert settle(app, driver(app), changed_at(store, game_id) + 1) >= 1
    assert store.reclaim(game_id, "p2") is not None
    guest.version = store.load(game_id).version
    assert guest.act({"type": "leave"}).status_code == 200
    host.version = store.load(game_id).version
    assert host.act({"type": "leave"}).status_code == 200
    assert store.load(game_id).status == "finished"
    assert "dungeon-of-doom" not in record_of(app, store, guest)
    assert record_of(app, store, host)["dungeon-of-doom"].played == 1


def record_of(app, store, client) -> dict:
    """The client's browser record, as its pages read it (its browser cookie)."""
    cookie = client.http.get_cookie(viewer.BROWSER_COOKIE_NAME)
    with app.test_request_context(headers={"Cookie": f"{viewer.BROWSER_COOKIE_NAME}={cookie.value}"}):
        return browsers.records(store, viewer.browser_key())


# ---- finding 17b/c: private pages, and a challenge's games closed until yours is over -----------


def test_the_deal_pages_are_private_to_their_browser(app, seat_client, store, clock):
    ann = seat_client()
    finished_game(ann, store)
    link = challenge_from(ann)
    for path in (DAILY, link):
        response = ann.get(path)
        assert "private" in response.headers["Cache-Control"], path
        assert "Cookie" in response.headers["Vary"], path
    replay = ann.http.get(f"/g/{ann.game_id}/replay")
    assert replay.status_code == 200
    assert "private" in replay.headers["Cache-Control"] and "Cookie" in replay.headers["Vary"]


def test_a_challenges_source_game_opens_only_after_your_own_attempt(app, seat_client, store):
    ann = seat_client()
    source = finished_game(ann, store)
    link = challenge_from(ann)
    assert ann.get(f"/g/{source}").status_code == 200  # its player sees it
    bea = seat_client()
    bea.get(link)
    assert bea.http.get(f"/g/{source}").status_code == 403
    assert bea.http.get(f"/g/{source}/board", headers={"HX-Request": "true"}).status_code == 403
    take(bea, link)
    assert bea.http.get(f"/g/{source}").status_code == 403  # her attempt is still running
    play_to_the_end(bea, store, seed=4)
    assert bea.http.get(f"/g/{source}").status_code == 200
    assert bea.http.get(f"/g/{source}/board", headers={"HX-Request": "true"}).status_code == 200
    # What Bea was shown is never handed to a spectator who has not played the deal.
    stranger = seat_client()
    assert stranger.http.get(f"/g/{source}/board", headers={"HX-Request": "true"}).status_code == 403


def test_a_daily_solo_game_opens_to_others_when_the_day_ends(app, seat_client, store, clock):
    ann = seat_client()
    game_id = take(ann, DAILY, name="Ann")
    play_to_the_end(ann, store, seed=1)
    assert ann.get(f"/g/{game_id}").status_code == 200
    friend = seat_client()
    take(friend, DAILY, name="Bea")
    play_to_the_end(friend, store, seed=2)
    assert friend.http.get(f"/g/{game_id}").status_code == 403
    clock["today"] += dt.timedelta(days=1)
    assert friend.http.get(f"/g/{game_id}").status_code == 200
