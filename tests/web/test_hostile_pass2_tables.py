"""Security issue 22, second pass over tables with bots and the waiting room:

- finding 12: a bot table whose people have all gone stops costing anything (its bots wait for a
  person and play on when one is back; after ``ABANDONED_SECONDS`` the game is ended), and one
  client address holds at most ``BOT_TABLES_PER_ADDRESS`` tables with its bots;
- finding 17d: every waiting-room write shares one budget per table and client address (``TABLE``),
  so alternating two different writes does not get twice as many through."""

from __future__ import annotations

import json

import limits.storage.memory
import pytest
from sqlalchemy import select, update

from webapp import create_app
from webapp.domain.bots import ABANDONED_SECONDS, BOT_TABLES_PER_ADDRESS, BotDriver
from webapp.realtime import presence
from webapp.storage.schema import games as games_table
from webapp.storage.schema import seats as seats_table

SECRET = "tests-only-secret-key"
POSITIONS = json.dumps({"start_positions": {"p1": [5, 5], "p2": [9, 1], "p3": [1, 9]}})


def open_table(seat_client, **fields):
    host = seat_client()
    host.app.config["TEST_OPTIONS"] = True
    host.get("/")
    response = host.http.post(
        "/games", data={"game": "dungeon-of-doom", "csrf_token": host.csrf, "name": "Ann", **fields}
    )
    assert response.status_code == 303
    host.watch(response.headers["Location"].rsplit("/", 1)[-1])
    return host


def play_now(player, slug="dungeon-of-doom", bots="2"):
    player.get("/")
    return player.http.post(
        "/games/with-bots", data={"game": slug, "csrf_token": player.csrf, "name": "Ann", "bots": bots}
    )


def played_now(seat_client, slug="dungeon-of-doom", bots="2"):
    player = seat_client()
    response = play_now(player, slug, bots)
    assert response.status_code == 303, response.get_data(as_text=True)
    player.watch(response.headers["Location"].rsplit("/", 1)[-1])
    return player


def post(client, path, **data):
    return client.http.post(f"/g/{client.game_id}/{path}", data={"csrf_token": client.csrf, **data})


def changed_at(store, game_id) -> float:
    with store.engine.connect() as conn:
        return conn.execute(select(games_table.c.updated_at).where(games_table.c.id == game_id)).scalar_one()


def away_since(store, game_id, seat, when):
    """The seat's pages closed at ``when`` (what the presence loop reads)."""
    with store.engine.begin() as conn:
        conn.execute(
            update(seats_table)
            .where(seats_table.c.game_id == game_id, seats_table.c.seat == seat)
            .values(connected=0, last_seen=when)
        )


def drop(app, when):
    """Two passes of the presence loop's drops at ``when`` (the second marks a dropped seat gone)."""
    with app.app_context():
        for _ in range(2):
            presence.drop_absent(app.extensions["delve_service"], when)


def bot_actions(store, game_id) -> int:
    bot_seats = {s.seat for s in store.seats(game_id) if s.bot and not s.kept}
    return sum(1 for _seq, seat, _action in store.actions(game_id) if seat in bot_seats)


class TestNobodyLeft:
    def test_the_bots_wait_once_the_last_person_is_dropped(self, app, store, seat_client):
        player = played_now(seat_client)
        game_id = player.game_id
        left_at = changed_at(store, game_id)
        away_since(store, game_id, "p1", left_at - presence.GRACE_SECONDS - 5)
        drop(app, left_at)
        assert next(s for s in store.seats(game_id) if s.seat == "p1").gone
        before = len(store.actions(game_id))
        drv = BotDriver(app.extensions["delve_service"], secret=SECRET, delay=0.0, owner="one")
        with app.app_context():
            assert drv.tick(left_at + 5) == 0
        assert len(store.actions(game_id)) == before and store.load(game_id).status == "running"
        assert game_id not in store.bot_tables()

    def test_they_play_on_when_a_person_is_back(self, app, store, seat_client):
        host = open_table(seat_client, test_options=POSITIONS)
        guest = seat_client()
        guest.watch(host.game_id)
        assert post(guest, "join", name="Bea").status_code == 303
        assert post(host, "add-bot", level="normal").status_code == 303
        assert post(host, "start").status_code == 303
        game_id = host.game_id
        now = changed_at(store, game_id)
        # Bea's page goes: a bot keeps her seat while Ann plays; then Ann's goes too.
        away_since(store, game_id, "p2", now - presence.GRACE_SECONDS - 5)
        drop(app, now)
        assert next(s for s in store.seats(game_id) if s.seat == "p2").kept
        assert game_id in store.bot_tables()
        away_since(store, game_id, "p1", now - presence.GRACE_SECONDS - 5)
        drop(app, now)
        assert game_id not in store.bot_tables()  # only bots at the table: they wait
        # Bea's page is back (her socket): her seat is hers, and the bot beside her plays on.
        store.set_connected(game_id, "p2", True)
        assert list(store.bot_tables()[game_id][2]) == ["p3"]

    @pytest.mark.parametrize("slug", ["dungeon-of-doom", "dungeon-cards"])
    def test_a_table_nobody_came_back_to_is_ended(self, app, store, seat_client, slug):
        player = played_now(seat_client, slug)
        game_id = player.game_id
        left_at = changed_at(store, game_id)
        away_since(store, game_id, "p1", left_at)
        with app.app_context():
            service = app.extensions["delve_service"]
            presence.tick(service, now=left_at + presence.GRACE_SECONDS + 1)
            presence.tick(service, now=left_at + presence.GRACE_SECONDS + 2)
            assert store.load(game_id).status == "running"  # nobody there: paused, not over yet
            for step in range(4):
                presence.tick(service, now=left_at + ABANDONED_SECONDS + 1 + step)
        assert store.load(game_id).status == "finished"
        assert store.bot_tables() == {}


class TestBotTablesPerAddress:
    def test_one_address_holds_a_few_bot_tables_and_is_told_why_not_more(self, app, store, seat_client):
        for _ in range(BOT_TABLES_PER_ADDRESS):
            played_now(seat_client)
        games = store.count_games()
        refused = play_now(seat_client())
        assert refused.status_code == 429
        assert f"at most {BOT_TABLES_PER_ADDRESS} tables with bots" in refused.get_data(as_text=True)
        assert store.count_games() == games  # nothing left behind
        # A waiting room's bots cost nothing: starting it with them is another bot table.
        host = open_table(seat_client)
        assert post(host, "add-bot", level="easy").status_code == 303
        started = post(host, "start")
        assert started.status_code == 429
        assert store.load(host.game_id).status == "waiting"
        # Another address is not held up.
        neighbour = seat_client()
        neighbour.http.environ_base["REMOTE_ADDR"] = "192.0.2.7"
        assert play_now(neighbour).status_code == 303

    def test_an_ended_table_frees_its_place(self, app, store, seat_client):
        players = [played_now(seat_client) for _ in range(BOT_TABLES_PER_ADDRESS)]
        assert play_now(seat_client()).status_code == 429
        game_id = players[0].game_id
        left_at = changed_at(store, game_id)
        away_since(store, game_id, "p1", left_at)
        with app.app_context():
            for step in range(4):
                presence.tick(app.extensions["delve_service"], now=left_at + ABANDONED_SECONDS + 1 + step)
        assert store.load(game_id).status == "finished"
        assert play_now(seat_client()).status_code == 303


class FrozenClock:
    """Stands in for the ``time`` module inside limits' memory storage (as tests/ops/test_rate_limits.py)."""

    def __init__(self, now: float):
        self.now = now

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class TestOneBudgetForTheWaitingRoom:
    @pytest.fixture
    def clock(self, monkeypatch):
        frozen = FrozenClock(1_000_000.0)
        monkeypatch.setattr(limits.storage.memory, "time", frozen)
        return frozen

    @pytest.fixture
    def app(self, db_url, clock):
        """The shared fixtures' app with the limiter on (``create_app`` leaves it off in tests)."""
        app = create_app({"TESTING": True, "DATABASE_URL": db_url, "RATELIMIT_ENABLED": True})
        yield app
        app.extensions["delve_store"].engine.dispose()

    def test_alternating_writes_share_the_tables_budget(self, store, seat_client, clock):
        host = seat_client()
        host.get("/")
        created = host.http.post("/games", data={"game": "dungeon-of-doom", "csrf_token": host.csrf, "name": "Ann"})
        host.watch(created.headers["Location"].rsplit("/", 1)[-1])
        assert post(host, "add-bot", level="easy").status_code == 303
        assert post(host, "lobby", name="Ann 2").status_code == 303
        revision = store.revision(host.game_id)
        for path, data in [("remove-bot", {"seat": "p2"}), ("add-bot", {"level": "easy"}), ("lobby", {"name": "X"})]:
            assert post(host, path, **data).status_code == 429, path
        assert store.revision(host.game_id) == revision
        # The budget is this table's and this address's: a guest at the table, and the host at
        # another table, still have theirs.
        guest = seat_client()
        guest.http.environ_base["REMOTE_ADDR"] = "192.0.2.8"
        guest.watch(host.game_id)
        assert post(guest, "join", name="Bea").status_code == 303
        assert post(guest, "lobby", name="Bea 2").status_code == 303
        other = host.http.post("/games", data={"game": "dungeon-of-doom", "csrf_token": host.csrf, "name": "Ann"})
        host.watch(other.headers["Location"].rsplit("/", 1)[-1])
        assert post(host, "lobby", name="Ann 3").status_code == 303
        clock.advance(1)
        host.watch(created.headers["Location"].rsplit("/", 1)[-1])
        assert post(host, "remove-bot", seat="p2").status_code == 303
