"""Rate limits with the limiter on (``create_app`` leaves it off under ``TESTING``): game creation
30 a minute, actions 20 a second, chat 20 a minute, per client address. The request over the
limit gets 429 with a readable message and changes nothing; another address is not held up;
the next window lets requests through again. With REDIS_URL, two processes share the counters.

The limiter's clock is frozen (``limits``' in-memory storage reads ``time.time()``), so "within
one second" does not depend on how fast a shared machine answers 21 requests."""

from __future__ import annotations

import html
import re

import limits.storage.memory
import pytest

from webapp import create_app
from webapp.pages.viewer import SEAT_COOKIE_NAME as COOKIE_NAME
from webapp.web.limits import ACT, CHAT, CREATE_GAME, READ, TABLE

S2_DECK = "5C 8D 3H 9S 7D KS JS QH 6S"
FIRST = {"type": "choose_stat_set", "set": "top"}  # the first action of that deal
ALERT_RE = re.compile(r'role="alert"[^>]*>(.*?)</p>', re.S)
TOO_MANY = "too many requests"


class FrozenClock:
    """Stands in for the ``time`` module inside limits' memory storage."""

    def __init__(self, now: float):
        self.now = now

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch):
    frozen = FrozenClock(1_000_000.0)
    monkeypatch.setattr(limits.storage.memory, "time", frozen)
    return frozen


@pytest.fixture
def app(db_url, clock):
    """The shared ``seat_client`` fixture's app, with the limiter on (its storage in memory)."""
    app = create_app({"TESTING": True, "DATABASE_URL": db_url, "RATELIMIT_ENABLED": True})
    yield app
    app.extensions["delve_store"].engine.dispose()


def message_of(response) -> str:
    body = response.get_data(as_text=True) if hasattr(response, "get_data") else response.text
    match = ALERT_RE.search(body)
    return html.unescape(re.sub(r"<[^>]+>", "", match.group(1))).strip() if match else ""


def assert_limited(response) -> None:
    """429 from the limiter (its Retry-After header), with the page's readable message."""
    assert response.status_code == 429, response.status_code
    assert "Retry-After" in response.headers
    assert TOO_MANY in message_of(response).lower()


def test_the_limits_are_the_documented_ones():
    assert CREATE_GAME.startswith("30 per minute") and ACT.startswith("20 per second") and CHAT == "20 per minute"


def test_game_creation_30_a_minute_per_address(seat_client, store, clock):
    player = seat_client()
    player.get("/")

    def create(who=player):
        return who.http.post("/games", data={"game": "shuffle-and-doom", "csrf_token": who.csrf, "size": "4"})

    for _ in range(30):
        assert create().status_code == 303
    refused = create()
    assert_limited(refused)
    assert store.count_games() == 30
    # Someone at another address is not held up by it.
    neighbour = seat_client()
    neighbour.http.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    neighbour.get("/")
    assert create(neighbour).status_code == 303
    clock.advance(61)  # the next minute
    assert create().status_code == 303
    assert store.count_games() == 32


def test_actions_20_a_second_per_address(seat_client, store, clock):
    player = seat_client()
    game_id = player.start(size="4", deck=S2_DECK)
    for _ in range(20):  # refused as stale, but counted: every request to /act is
        assert player.act(FIRST, version=7).status_code == 409
    # A legal action over the limit: from the page (into its flash area) and without JavaScript.
    from_page = player.act(FIRST, version=0)
    assert_limited(from_page)
    assert from_page.headers["HX-Retarget"] == "#flash"
    assert_limited(player.act(FIRST, version=0, htmx=False))
    assert store.load(game_id).version == 0 and store.actions(game_id) == []
    clock.advance(1)  # the next second
    assert player.act(FIRST, version=0).status_code == 200
    assert store.actions(game_id) == [(1, "p1", FIRST)]


def test_chat_20_a_minute_per_address(seat_client, store, clock):
    """Five seats at one address (each seat may also say only 5 things per 10 s)."""
    host = seat_client()
    host.get("/")
    created = host.http.post(
        "/games",
        data={
            "game": "dungeon-of-doom",
            "csrf_token": host.csrf,
            "name": "Ann",
            "max_players": "5",
            "turn_seconds": "0",
        },
    )
    assert created.status_code == 303
    game_id = created.headers["Location"].rsplit("/", 1)[-1]
    host.watch(game_id)
    seats = [host]
    for name in ["Bob", "Cy", "Di", "Ed"]:
        friend = seat_client()
        friend.watch(game_id)
        assert friend.http.post(f"/g/{game_id}/join", data={"csrf_token": friend.csrf, "name": name}).status_code == 303
        seats.append(friend)

    def say(who, text):
        return who.http.post(
            f"/g/{game_id}/chat", data={"csrf_token": who.csrf, "text": text}, headers={"HX-Request": "true"}
        )

    for index, who in enumerate(seats[:4]):
        for n in range(5):
            assert say(who, f"hello {index}.{n}").status_code == 204
    refused = say(seats[4], "one too many")
    assert_limited(refused)
    said = [m["text"] for m in store.chat(game_id)]
    assert len(said) == 20 and "one too many" not in said
    clock.advance(61)
    assert say(seats[4], "a minute later").status_code == 204
    assert "a minute later" in [m["text"] for m in store.chat(game_id)]


def test_page_and_board_renders_60_a_second_per_address(seat_client, clock):
    """Far above what a browser asks (one board per push), low enough that nobody renders a huge
    finished map hundreds of times a second; spectators' boards from the shared cache are free."""
    assert READ.startswith("60 per second")
    host = seat_client()
    game_id = host.start(size="4")
    watcher = seat_client()  # no seat: its boards come from the shared cache after the first
    for _ in range(100):
        assert watcher.http.get(f"/g/{game_id}/board", headers={"HX-Request": "true"}).status_code == 200
    player = seat_client()
    player.http.set_cookie(
        COOKIE_NAME, host.http.get_cookie(COOKIE_NAME, path=f"/g/{game_id}").value, path=f"/g/{game_id}"
    )
    for index in range(58):  # start() read the page once and the spectator rendered one board
        path = f"/g/{game_id}/board" if index % 2 else f"/g/{game_id}"
        assert player.http.get(path, headers={"HX-Request": "true"}).status_code == 200
    assert_limited(player.http.get(f"/g/{game_id}"))
    neighbour = seat_client()
    neighbour.http.environ_base["REMOTE_ADDR"] = "192.0.2.8"
    assert neighbour.http.get(f"/g/{game_id}").status_code == 200
    clock.advance(1)
    assert player.http.get(f"/g/{game_id}/board", headers={"HX-Request": "true"}).status_code == 200


def test_waiting_room_writes_are_limited_and_ring_nobody_over_the_limit(seat_client, store, clock):
    """200 renames in 0.7 s once rang every page at the table 200 times."""
    assert TABLE.startswith("2 per second")
    host = seat_client()
    host.get("/")
    created = host.http.post("/games", data={"game": "dungeon-of-doom", "csrf_token": host.csrf, "name": "Ann"})
    game_id = created.headers["Location"].rsplit("/", 1)[-1]
    host.watch(game_id)

    def rename(name):
        return host.http.post(f"/g/{game_id}/lobby", data={"csrf_token": host.csrf, "name": name})

    assert rename("Ann 1").status_code == 303 and rename("Ann 2").status_code == 303
    revision = store.revision(game_id)
    for n in range(3, 20):
        assert_limited(rename(f"Ann {n}"))
    assert store.revision(game_id) == revision and store.seats(game_id)[0].name == "Ann 2"
    for route in ("start", "leave-table"):  # the waiting room's writes share one budget per table and address
        for _ in range(2):
            host.http.post(f"/g/{game_id}/{route}", data={"csrf_token": "wrong"})
        assert_limited(host.http.post(f"/g/{game_id}/{route}", data={"csrf_token": host.csrf}))
    assert store.load(game_id).status == "waiting" and len(store.seats(game_id)) == 1
    clock.advance(1)
    assert rename("Ann 3").status_code == 303


@pytest.fixture
def own_redis(redis_server):
    """A redis-server of this test alone: no other test's counters in its windows."""
    server = type(redis_server)().start()
    yield server
    server.stop()


@pytest.mark.postgres
@pytest.mark.redis
def test_two_processes_share_the_counters_in_redis(servers, players, postgres_url, own_redis, store_of):
    """15 games created on each process fill the address's 30 a minute: the next is refused by
    either. (Real time here: the window opens at the first request and lasts a minute.) On
    PostgreSQL, as several processes are deployed (README, "Deploy")."""
    a, b = servers(postgres_url, own_redis.url, count=2)
    on_a, on_b = players(a.url, "Ann"), players(b.url, "Ann")
    for _ in range(15):
        for player in (on_a, on_b):
            player.create("shuffle-and-doom", size="4")
    for player in (on_a, on_b):
        refused = player.post("/games", {"game": "shuffle-and-doom", "size": "4"}, htmx=False)
        assert refused.status_code == 429 and "Retry-After" in refused.headers
        assert TOO_MANY in message_of(refused).lower()
    assert store_of(postgres_url).count_games() == 30
