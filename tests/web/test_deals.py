"""Challenges, daily deals and this browser's record, through the routes: the same deal for
everyone who plays it, ranked first attempts, and replays that stay closed while they would let
someone study a deal before playing it."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.page import Page
from tests.web.test_replays import play_to_the_end
from webapp.domain import browsers, deals
from webapp.pages import viewer

SLUG = "clear-the-dungeon"


def finished_game(client, store, slug=SLUG, seed=3):
    client.start(slug)
    play_to_the_end(client, store, seed)
    return client.game_id


def challenge_from(client) -> str:
    response = client.http.post(f"/g/{client.game_id}/challenge", data={"csrf_token": client.csrf})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def take(client, path, name="Bea"):
    client.get(path)
    response = client.http.post(f"{path}/play", data={"csrf_token": client.csrf, "name": name})
    assert response.status_code == 303, response.get_data(as_text=True)
    client.game_id = response.headers["Location"].rsplit("/", 1)[-1]
    client.get(f"/g/{client.game_id}")
    return client.game_id


class TestChallenges:
    def test_a_challenge_deals_the_same_game_to_a_friend_without_showing_the_deal(self, seat_client, store):
        ann = seat_client()
        source = finished_game(ann, store)
        link = challenge_from(ann)
        assert link.startswith("/c/")
        seed = store.load(source).seed
        bea = seat_client()
        page = bea.get(link)
        assert "can you beat it?" in Page(page.data).text("#deal-start-title")
        attempt = take(bea, link)
        assert store.load(attempt).seed == seed and store.load(attempt).options == store.load(source).options
        # While Bea plays, nothing she can reach carries the deal: not the pages, not the replays.
        bodies = [bea.get(link), bea.get(f"/g/{attempt}"), bea.board(), bea.get(f"/g/{attempt}/replay")]
        bodies += [bea.http.get(f"/g/{source}/replay"), bea.http.get(f"/g/{source}/replay.json")]
        for response in bodies:
            assert str(seed) not in response.get_data(as_text=True)
        closed = bea.http.get(f"/g/{source}/replay")
        assert closed.status_code == 403
        assert "once your own attempt on that deal is over" in Page(closed.data).text("[role=alert]")
        assert "Watch" not in Page(bea.get(link).data).text("#board")
        play_to_the_end(bea, store, seed=9)
        assert bea.http.get(f"/g/{source}/replay").status_code == 200
        assert bea.http.get(f"/g/{source}/replay.json").status_code == 200
        board = Page(bea.get(link).data)
        assert len(board.select("#board tbody tr")) == 2
        assert board.select("#board a[href$='/replay']")
        assert len(board.select("#board tr.mine")) == 1
        # Someone who has not played it still may not look.
        assert seat_client().http.get(f"/g/{attempt}/replay").status_code == 403

    def test_the_attempts_are_ranked_by_score_and_a_second_try_is_practice(self, seat_client, store):
        ann = seat_client()
        finished_game(ann, store)
        link = challenge_from(ann)
        bea = seat_client()
        first = take(bea, link)
        play_to_the_end(bea, store, seed=4)
        second = take(bea, link)
        assert second != first
        play_to_the_end(bea, store, seed=5)
        rows = deals_for(bea.app, link)
        assert {a.game_id: a.ranked for a in rows}[second] is False
        scores = [a.score for a in rows]
        assert scores == sorted(scores, reverse=True)
        page = Page(bea.get(link).data)
        assert "practice" in page.text("#board")

    def test_only_the_player_of_a_finished_solo_game_makes_a_challenge(self, seat_client, store):
        ann = seat_client()
        ann.start(SLUG)
        running = ann.http.post(f"/g/{ann.game_id}/challenge", data={"csrf_token": ann.csrf})
        assert running.status_code == 409
        play_to_the_end(ann, store)
        spectator = seat_client()
        spectator.watch(ann.game_id)
        refused = spectator.http.post(f"/g/{ann.game_id}/challenge", data={"csrf_token": spectator.csrf})
        assert refused.status_code == 403
        assert challenge_from(ann) == challenge_from(ann)  # one challenge per game
        assert seat_client().http.get("/c/not-a-real-token").status_code == 404

    def test_the_end_of_a_solo_game_offers_the_challenge(self, seat_client, store):
        ann = seat_client()
        finished_game(ann, store)
        page = Page(ann.get(f"/g/{ann.game_id}").data)
        assert "Challenge a friend" in page.texts(".result button")


def deals_for(app, link):
    with app.test_request_context():
        return deals.attempts(app.extensions["delve_store"], deals.challenge_deal(link.rsplit("/", 1)[1]))


class TestDailyDeals:
    def test_everyone_gets_the_days_deal_once_ranked_and_replays_open_the_next_day(self, seat_client, store, clock):
        ann, bea = seat_client(), seat_client()
        bea.http.environ_base["REMOTE_ADDR"] = "203.0.113.2"  # a deal ranks one attempt per address
        first = take(ann, f"/daily/{SLUG}", name="Ann")
        other = take(bea, f"/daily/{SLUG}", name="Bea")
        assert store.load(first).seed == store.load(other).seed
        play_to_the_end(ann, store, seed=1)
        play_to_the_end(bea, store, seed=2)
        page = Page(ann.get(f"/daily/{SLUG}").data)
        assert sorted(page.texts("#board tbody td:nth-child(2)")) == ["Ann you", "Bea"]
        assert "at midnight" in page.text("#board")  # today's replays open when the day ends
        closed = ann.http.get(f"/g/{first}/replay")
        assert closed.status_code == 409 and "when the day ends" in Page(closed.data).text("[role=alert]")
        # Playing it again is practice: not on the day's ranking, and closed like the others.
        again = take(ann, f"/daily/{SLUG}", name="Ann")
        play_to_the_end(ann, store, seed=3)
        assert len(Page(ann.get(f"/daily/{SLUG}").data).select("#board tbody tr")) == 2
        assert ann.http.get(f"/g/{again}/replay").status_code == 409
        clock["today"] += dt.timedelta(days=1)
        assert ann.http.get(f"/g/{first}/replay").status_code == 200
        tomorrow = Page(ann.get(f"/daily/{SLUG}").data)
        assert len(tomorrow.select("#yesterday tbody tr")) == 2 and tomorrow.select("#yesterday a[href$='/replay']")
        assert store.load(take(seat_client(), f"/daily/{SLUG}")).seed != store.load(first).seed

    def test_the_same_deal_again_from_a_daily_game_stays_closed_until_the_day_ends(self, seat_client, store, clock):
        ann = seat_client()
        take(ann, f"/daily/{SLUG}")
        play_to_the_end(ann, store)
        response = ann.http.post(f"/g/{ann.game_id}/rematch", data={"csrf_token": ann.csrf})
        assert response.status_code == 303
        ann.game_id = response.headers["Location"].rsplit("/", 1)[-1]
        ann.get(f"/g/{ann.game_id}")
        play_to_the_end(ann, store, seed=8)
        assert ann.http.get(f"/g/{ann.game_id}/replay").status_code == 409
        # A challenge from it sends friends to the daily deal instead.
        challenge = ann.http.post(f"/g/{ann.game_id}/challenge", data={"csrf_token": ann.csrf})
        assert challenge.headers["Location"] == f"/daily/{SLUG}"

    def test_a_streak_counts_consecutive_days_and_history_lists_them(self, seat_client, store, clock):
        ann = seat_client()
        for _ in range(3):
            take(ann, f"/daily/{SLUG}")
            play_to_the_end(ann, store)
            clock["today"] += dt.timedelta(days=1)
        page = Page(ann.get(f"/daily/{SLUG}").data)
        assert page.text("#daily-streak") == "Streak: 3 days in a row."  # today still to play
        assert len(page.select(".deal-history li")) == 3
        clock["today"] += dt.timedelta(days=1)
        assert "No streak yet" in Page(ann.get(f"/daily/{SLUG}").data).text("#daily-streak")

    def test_the_dungeon_of_doom_daily_is_a_table_on_the_days_random_map(self, seat_client, store, clock):
        ann, bea = seat_client(), seat_client()
        first, other = take(ann, "/daily/dungeon-of-doom"), take(bea, "/daily/dungeon-of-doom")
        a, b = store.load(first), store.load(other)
        assert a.status == "waiting" and a.seed == b.seed and a.options == b.options
        assert a.options.get("random_map") == "M"

    @pytest.mark.parametrize("slug", ["chess", "dungeon-cards"])
    def test_games_without_a_daily_deal_are_404(self, seat_client, slug):
        assert seat_client().http.get(f"/daily/{slug}").status_code == 404


class TestRecord:
    def test_a_browsers_record_counts_its_finished_games(self, app, seat_client, store):
        ann = seat_client()
        for seed in (1, 2):
            finished_game(ann, store, seed=seed)
        ann.start(SLUG)  # still running: not counted
        cookie = ann.http.get_cookie(viewer.BROWSER_COOKIE_NAME)
        assert cookie is not None and cookie.http_only and cookie.path == "/"
        with app.test_request_context(headers={"Cookie": f"{viewer.BROWSER_COOKIE_NAME}={cookie.value}"}):
            record = browsers.records(store, viewer.browser_key())[SLUG]
        results = [store.load(g).result for g in _finished_ids(store, ann)]
        assert record.played == 2
        assert record.best == max(r["scores"]["p1"] for r in results)
        assert record.won == sum("p1" in r["winners"] for r in results)
        with app.test_request_context():
            assert browsers.records(store, viewer.browser_key()) == {}
        shown = Page(ann.http.get("/").data).text(f"#record-{SLUG}")
        assert shown.startswith(f"Your record: 2 played · {record.won} won · best {record.best}")
        assert Page(seat_client().http.get("/").data).select(f"#record-{SLUG}") == []


def _finished_ids(store, client):
    from sqlalchemy import select

    from webapp.storage.schema import browser_seats, games

    with store.engine.connect() as conn:
        return [
            row.id
            for row in conn.execute(
                select(games.c.id)
                .join(browser_seats, browser_seats.c.game_id == games.c.id)
                .where(games.c.status == "finished")
            )
        ]


def test_onlookers_read_a_named_players_end_by_name(seat_client, store, clock):
    bea = seat_client()
    game_id = take(bea, "/daily/shuffle-and-doom", name="Bea")
    play_to_the_end(bea, store, seed=2)
    clock["today"] += dt.timedelta(days=1)  # until then, only its player sees a daily game
    watcher = seat_client()
    seen = Page(watcher.get(f"/g/{game_id}").data)
    assert "Bea" in seen.text(".result") and "You " not in seen.text(".result")
    assert seen.texts("#log li")[-1].startswith("Bea ")  # the log's last line is the result's, for onlookers
    assert "Bea" not in Page(bea.get(f"/g/{game_id}").data).text(".result h2")  # she reads "You…"
