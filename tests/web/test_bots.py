"""Bots at the table (issue 16), through the routes: the host adds and removes bots, "Play now
with bots", a Dungeon Cards bot's class, a bot acting after the human pace delay through the
service for its own seat only, the lease that lets one process drive a table, a dropped player's
seat kept by a bot and given back, and the roster's words."""

from __future__ import annotations

import html
import json
import re

import pytest
from sqlalchemy import select, update

from webapp.domain.bots import LEASE_SECONDS, BotDriver, bot_rng
from webapp.realtime import presence
from webapp.storage.schema import games as games_table
from webapp.storage.schema import seats as seats_table

SECRET = "tests-only-secret-key"


def text_of(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


def open_table(seat_client, slug="dungeon-of-doom", name="Ann", **fields):
    host = seat_client()
    if "test_options" in fields:
        host.app.config["TEST_OPTIONS"] = True
    host.get("/")
    response = host.http.post("/games", data={"game": slug, "csrf_token": host.csrf, "name": name, **fields})
    assert response.status_code == 303
    host.watch(response.headers["Location"].rsplit("/", 1)[-1])
    return host


def play_now(seat_client, slug="dungeon-of-doom", bots="1", **fields):
    player = seat_client()
    if "test_options" in fields:
        player.app.config["TEST_OPTIONS"] = True  # what DELVE_TEST_OPTIONS=1 turns on (never in production)
    player.get("/")
    response = player.http.post(
        "/games/with-bots",
        data={"game": slug, "csrf_token": player.csrf, "name": "Ann", "bots": bots, **fields},
    )
    assert response.status_code == 303, response.get_data(as_text=True)
    player.watch(response.headers["Location"].rsplit("/", 1)[-1])
    return player


def post(client, path, **data):
    return client.http.post(f"/g/{client.game_id}/{path}", data={"csrf_token": client.csrf, **data})


def act(store, client, action):
    """The client's action on the game as it stands (its page's ``data-revision`` is the revision)."""
    return client.act(action, version=store.load(client.game_id).version)


def changed_at(store, game_id) -> float:
    """When the game last changed (what a bot's human pace delay counts from)."""
    with store.engine.connect() as conn:
        return conn.execute(select(games_table.c.updated_at).where(games_table.c.id == game_id)).scalar_one()


def driver(app, delay=0.0, owner="one"):
    return BotDriver(app.extensions["delve_service"], secret=SECRET, delay=delay, owner=owner)


def settle(app, drv, now=None):
    """Ticks until the bots have nothing more to do right now (a bounded number of passes)."""
    landed = 0
    with app.app_context():
        for _ in range(40):
            got = drv.tick(now)
            landed += got
            if not got:
                break
    return landed


class TestWaitingRoom:
    def test_the_host_adds_and_removes_bots_and_a_person_still_takes_a_free_seat(self, app, store, seat_client):
        host = open_table(seat_client, max_players="3")
        assert post(host, "add-bot", level="easy").status_code == 303
        seats = store.seats(host.game_id)
        assert [(s.name, s.bot) for s in seats] == [("Ann", None), ("Bot 1", "easy")]
        assert "bot · easy" in text_of(host.get(f"/g/{host.game_id}"))
        # A bot holds no token a browser has: its seat's hash is of a token nobody was given.
        guest = seat_client()
        guest.watch(host.game_id)
        assert post(guest, "join", name="Bea").status_code == 303
        assert [s.name for s in store.seats(host.game_id)] == ["Ann", "Bot 1", "Bea"]
        assert post(host, "add-bot", level="normal").status_code == 409  # full
        assert post(guest, "add-bot", level="normal").status_code == 403  # only the host
        assert post(guest, "remove-bot", seat="p2").status_code == 403
        assert post(host, "remove-bot", seat="p3").status_code == 409  # Bea is no bot
        assert post(host, "add-bot", level="hard").status_code == 400
        assert post(host, "remove-bot", seat="p2").status_code == 303
        assert [s.name for s in store.seats(host.game_id)] == ["Ann", "Bea"]
        assert post(host, "add-bot", level="normal").status_code == 303
        assert [(s.name, s.bot) for s in store.seats(host.game_id)][-1] == ("Bot 1", "normal")

    def test_a_spectator_and_a_solo_game_cannot_add_bots(self, app, seat_client):
        host = open_table(seat_client)
        watcher = seat_client()
        watcher.watch(host.game_id)
        assert post(watcher, "add-bot", level="normal").status_code == 403
        solo = seat_client()
        solo.start("shuffle-and-doom")
        assert post(solo, "add-bot", level="normal").status_code == 409

    def test_the_bots_panel_is_the_hosts_alone(self, app, seat_client):
        host = open_table(seat_client)
        assert "Add a bot" in text_of(host.get(f"/g/{host.game_id}"))
        watcher = seat_client()
        assert "Add a bot" not in text_of(watcher.watch(host.game_id))

    def test_a_dungeon_cards_bot_takes_a_free_class_at_once(self, app, store, seat_client):
        host = open_table(seat_client, slug="dungeon-cards")
        assert post(host, "lobby", classes="soldier").status_code == 303
        for _ in range(3):
            assert post(host, "add-bot", level="normal").status_code == 303
        choices = store.load(host.game_id).lobby["choices"]
        classes = [choices[s.seat]["classes"] for s in store.seats(host.game_id)]
        assert classes[0] == "soldier" and len(set(classes)) == 4
        assert post(host, "start").status_code == 303
        assert store.load(host.game_id).status == "running"

    def test_the_last_person_leaving_takes_the_bots_along(self, app, store, seat_client):
        host = open_table(seat_client)
        post(host, "add-bot", level="normal")
        assert post(host, "leave-table").status_code == 303
        assert store.seats(host.game_id) == []


class TestPlayNow:
    @pytest.mark.parametrize("slug", ["dungeon-of-doom", "dungeon-cards"])
    def test_one_press_opens_and_starts_a_table_with_bots(self, app, store, seat_client, slug):
        player = play_now(seat_client, slug=slug, bots="3")
        record = store.load(player.game_id)
        assert record.status == "running" and record.players == ["p1", "p2", "p3", "p4"]
        assert [s.bot for s in store.seats(player.game_id)] == [None, "normal", "normal", "normal"]
        assert text_of(player.get(f"/g/{player.game_id}")).count("bot · normal") == 3

    def test_the_creators_class_comes_with_the_form(self, app, store, seat_client):
        player = play_now(seat_client, slug="dungeon-cards", bots="2", classes="mage")
        assert store.load(player.game_id).options["classes"]["p1"] == "mage"

    @pytest.mark.parametrize(
        "fields",
        [{"bots": "0"}, {"bots": "4"}, {"bots": "x"}, {"game": "shuffle-and-doom"}, {"classes": "nobody"}],
    )
    def test_refused_forms(self, app, store, seat_client, fields):
        player = seat_client()
        player.get("/")
        data = {"game": "dungeon-cards", "csrf_token": player.csrf, "bots": "1", **fields}
        assert player.http.post("/games/with-bots", data=data).status_code in (400, 404)
        assert store.count_games() == 0

    def test_the_front_page_offers_it_for_table_games_only(self, app, seat_client):
        front = text_of(seat_client().get("/"))
        assert front.count("Play now with bots") == 2


class TestDriving:
    def test_a_bot_acts_after_the_delay_for_its_own_seat_only(self, app, store, seat_client):
        player = play_now(seat_client, test_options=json.dumps({"start_positions": {"p1": [5, 5], "p2": [9, 1]}}))
        drv = driver(app, delay=1.0)
        assert settle(app, drv, changed_at(store, player.game_id) + 5) == 0  # p1's turn: the bot waits
        assert act(store, player, {"type": "end_turn"}).status_code == 200
        changed = changed_at(store, player.game_id)
        assert settle(app, drv, changed + 0.5) == 0  # too soon
        with app.app_context():
            assert drv.tick(changed + 1.1) == 1
        log = store.actions(player.game_id)
        assert [(seat, action["type"]) for _seq, seat, action in log][0] == ("p1", "end_turn")
        assert {seat for _seq, seat, _action in log[1:]} == {"p2"}
        # The bot plays its own turn to its end, then waits on the person again.
        settle(app, drv, changed + 3600)
        state = app.extensions["delve_store"].load(player.game_id).snapshot
        assert state["turn"]["seat"] == "p1"
        assert {seat for _seq, seat, _action in store.actions(player.game_id)[1:]} == {"p2"}
        assert drv.decision_seconds  # measured

    def test_the_same_board_gets_the_same_choice_after_a_restart(self):
        first = bot_rng(SECRET, "g", 7, "p2").random()
        assert bot_rng(SECRET, "g", 7, "p2").random() == first
        assert bot_rng(SECRET, "g", 8, "p2").random() != first
        assert bot_rng("another key", "g", 7, "p2").random() != first

    def test_one_process_holds_a_table_until_its_lease_runs_out(self, app, store, seat_client):
        player = play_now(seat_client)
        act(store, player, {"type": "end_turn"})
        one, two = driver(app, owner="one"), driver(app, owner="two")
        now = changed_at(store, player.game_id) + 2
        with app.app_context():
            assert one.tick(now) == 1
            assert two.tick(now + 1) == 0  # "one" holds the table
            assert store.lease_owner(player.game_id)[0] == "one"
            # "one" dies (no renewal): once its lease runs out, "two" takes the table over.
            assert two.tick(now + LEASE_SECONDS + 1) in (0, 1)
            assert store.lease_owner(player.game_id)[0] == "two"
        seqs = [seq for seq, _seat, _action in store.actions(player.game_id)]
        assert seqs == list(range(1, len(seqs) + 1))

    def test_a_finished_table_lets_go_of_its_lease(self, app, store, seat_client):
        player = play_now(seat_client)
        act(store, player, {"type": "end_turn"})
        drv = driver(app)
        settle(app, drv, changed_at(store, player.game_id) + 2)
        assert store.lease_owner(player.game_id) is not None
        act(store, player, {"type": "leave"})  # the bot plays on alone; then its game ends or it stays held
        store.engine.dispose()
        with store.engine.begin() as conn:
            conn.execute(update(seats_table).where(seats_table.c.game_id == player.game_id).values(gone=1))
        with app.app_context():
            drv.tick()
        assert store.lease_owner(player.game_id) is None


class TestTakeOver:
    def two_people(self, app, store, seat_client):
        host = open_table(seat_client, test_options=json.dumps({"start_positions": {"p1": [5, 5], "p2": [9, 1]}}))
        guest = seat_client()
        guest.watch(host.game_id)
        post(guest, "join", name="Bea")
        post(host, "start")
        host.get(f"/g/{host.game_id}")
        guest.get(f"/g/{host.game_id}")
        return host, guest

    def away(self, store, game_id, seat, seconds):
        with store.engine.begin() as conn:
            conn.execute(
                update(seats_table)
                .where(seats_table.c.game_id == game_id, seats_table.c.seat == seat)
                .values(connected=0, last_seen=changed_at(store, game_id) - seconds)
            )

    def test_a_bot_keeps_a_dropped_players_seat_until_they_are_back(self, app, store, seat_client):
        host, guest = self.two_people(app, store, seat_client)
        game_id = host.game_id
        self.away(store, game_id, "p2", presence.GRACE_SECONDS + 5)
        with app.app_context():
            presence.drop_absent(app.extensions["delve_service"], changed_at(store, game_id))
        bea = next(s for s in store.seats(game_id) if s.seat == "p2")
        assert (bea.bot, bea.kept, bea.gone) == ("normal", True, False)
        roster = text_of(host.get(f"/g/{game_id}"))
        assert "Bea — a bot plays until Bea is back" in roster, roster[roster.find("Players") :][:300]
        assert "bot · normal" not in text_of(host.get(f"/g/{game_id}"))
        act(store, host, {"type": "end_turn"})
        drv = driver(app)
        assert settle(app, drv, changed_at(store, game_id) + 1) >= 1
        assert store.actions(game_id)[1][1] == "p2"  # the bot played Bea's turn, and never Ann's
        assert {seat for _seq, seat, _action in store.actions(game_id)[1:]} == {"p2"}
        # Bea's page comes back (a request with her seat cookie): the seat is hers again.
        assert "a bot plays until" not in text_of(guest.get(f"/g/{game_id}"))
        bea = next(s for s in store.seats(game_id) if s.seat == "p2")
        assert (bea.bot, bea.kept) == (None, False)
        act(store, host, {"type": "end_turn"})
        assert settle(app, drv, changed_at(store, game_id) + 1) == 0  # Bea's turn is Bea's

    def test_her_socket_gives_the_seat_back_too(self, app, store, seat_client):
        host, _guest = self.two_people(app, store, seat_client)
        assert store.take_over(host.game_id, "p2", "normal") is not None
        assert store.take_over(host.game_id, "p2", "normal") is None  # once
        assert store.set_connected(host.game_id, "p2", True) is not None
        bea = next(s for s in store.seats(host.game_id) if s.seat == "p2")
        assert (bea.bot, bea.kept, bea.connected) == (None, False, True)

    def test_a_table_with_nobody_else_left_drops_the_seat_as_before(self, app, store, seat_client):
        player = play_now(seat_client)
        self.away(store, player.game_id, "p1", presence.GRACE_SECONDS + 5)
        with app.app_context():
            presence.drop_absent(app.extensions["delve_service"], changed_at(store, player.game_id))
        ann = store.seats(player.game_id)[0]
        assert ann.bot is None and [a["type"] for _s, _seat, a in store.actions(player.game_id)] == ["drop"]

    def test_a_bot_seat_is_never_dropped_for_absence(self, app, store, seat_client):
        player = play_now(seat_client)
        self.away(store, player.game_id, "p2", presence.GRACE_SECONDS * 10)
        assert store.absent_seats(changed_at(store, player.game_id)) == []
