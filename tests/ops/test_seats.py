"""Seats: a spectator or another game's seat can never act (403); seat tokens are 256-bit
``secrets.token_urlsafe(32)`` values, unique, stored only hashed; and no seat token, cookie,
CSRF token or presence ticket ever reaches the server's (JSON, DEBUG-level) log."""

from __future__ import annotations

import base64
import hashlib
import random
import re
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from cluster import PRESENCE_RE, action_version, log_records

import rules_engine
from tests.helpers.web import form_token
from webapp import create_app
from webapp.pages.viewer import SEAT_COOKIE_NAME as COOKIE_NAME

dod = rules_engine.get("dungeon-of-doom")
TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{43}$")  # 32 bytes in URL-safe base64, unpadded
GAMES = 150


def test_seat_tokens_are_256_bit_unique_and_stored_only_hashed(tmp_path):
    db = tmp_path / "delve.sqlite3"
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{db}"})
    store = app.extensions["delve_store"]
    tokens: dict[str, str] = {}  # token -> game
    for index in range(GAMES):
        client = app.test_client()
        csrf = form_token(client.get("/").get_data(as_text=True))
        if index % 3:
            response = client.post("/games", data={"game": "shuffle-and-doom", "csrf_token": csrf, "size": "4"})
        else:  # tables: the host's seat, and a guest's from /join
            response = client.post("/games", data={"game": "dungeon-of-doom", "csrf_token": csrf, "name": "Ann"})
        game_id = response.headers["Location"].rsplit("/", 1)[-1]
        tokens[client.get_cookie(COOKIE_NAME, path=f"/g/{game_id}").value] = game_id
        if index % 3 == 0:
            guest = app.test_client()
            guest_csrf = form_token(guest.get(f"/g/{game_id}").get_data(as_text=True))
            assert guest.post(f"/g/{game_id}/join", data={"csrf_token": guest_csrf, "name": "Bob"}).status_code == 303
            tokens[guest.get_cookie(COOKIE_NAME, path=f"/g/{game_id}").value] = game_id
    assert len(tokens) == GAMES + GAMES // 3  # no token twice
    raw = []
    for token in tokens:
        assert TOKEN_SHAPE.match(token), token
        decoded = base64.urlsafe_b64decode(token + "=")
        assert len(decoded) == 32 and base64.urlsafe_b64encode(decoded).rstrip(b"=").decode() == token
        raw.append(decoded)
    # Entropy shape: every one of the 256 bit positions is set in about half the tokens (a stuck
    # or biased bit is far outside this), and the bytes cover their range.
    n = len(raw)
    for bit in range(256):
        ones = sum((token[bit // 8] >> (bit % 8)) & 1 for token in raw)
        assert 0.3 * n < ones < 0.7 * n, (bit, ones, n)
    assert len(Counter(b for token in raw for b in token)) > 250

    # Stored only hashed: the seat rows hold SHA-256 digests, and no token is anywhere in the file.
    by_game: dict[str, set[str]] = {}
    for token, game_id in tokens.items():
        by_game.setdefault(game_id, set()).add(hashlib.sha256(token.encode()).hexdigest())
    for game_id, hashes in by_game.items():
        assert set(store.seat_hashes(game_id).values()) == hashes
    store.engine.dispose()
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = b"".join(path.read_bytes() for path in Path(tmp_path).glob("delve.sqlite3*"))
    sample = random.Random(1).sample(sorted(tokens), 40)
    assert not [t for t in sample if t.encode() in data]


@pytest.fixture
def logged_server(servers, tmp_path):
    # DEBUG: everything any logger has to say goes into the file we search.
    env = {"LOG_FORMAT": "json", "LOG_LEVEL": "DEBUG", "RATE_LIMITS": "0"}
    (server,) = servers(f"sqlite:///{tmp_path / 'logged.sqlite3'}", env=env)
    return server


def test_a_whole_game_leaves_no_secret_in_the_logs_and_strangers_cannot_act(logged_server, players, store_of, tmp_path):
    server = logged_server
    store = store_of(f"sqlite:///{tmp_path / 'logged.sqlite3'}")
    ann, bob, cy = players(server.url, "Ann"), players(server.url, "Bob"), players(server.url, "Cy")
    watcher = players(server.url, "Watcher")
    secrets_seen: set[str] = set()

    game_id = ann.open_table(max_players=3, forced={"start_positions": {"p1": [1, 1], "p2": [3, 3], "p3": [4, 6]}})
    bob.join(game_id)
    cy.join(game_id)
    ann.start(game_id)
    solo_id = cy.create("shuffle-and-doom", size="4")  # another game, whose seat Cy holds
    by_seat = {"p1": ann, "p2": bob, "p3": cy}
    for player in (ann, bob, cy, watcher):
        page = player.get(f"/g/{game_id}").text
        if ticket := PRESENCE_RE.search(page):
            secrets_seen.add(ticket.group(1))
        player.listen(game_id)
    ann.post(f"/g/{game_id}/chat", {"text": "good luck, all"})

    # Strangers: a spectator, and the seat of another game presented for this one.
    body = ann.board(game_id).text
    assert watcher.act(game_id, {"type": "end_turn"}, action_version(body)).status_code == 403
    cy_solo_token = cy.seat_token(solo_id)
    stranger = players(server.url, "Stranger")
    stranger.get("/")
    stranger.http.cookies.set(COOKIE_NAME, cy_solo_token, domain="127.0.0.1", path=f"/g/{game_id}")
    assert stranger.act(game_id, {"type": "end_turn"}, action_version(body)).status_code == 403
    ann_token = ann.seat_token(game_id)
    stranger.http.cookies.set(COOKIE_NAME, ann_token, domain="127.0.0.1", path=f"/g/{solo_id}")
    solo_body = cy.board(solo_id).text
    assert (
        stranger.act(solo_id, {"type": "choose_stat_set", "set": "top"}, action_version(solo_body)).status_code == 403
    )
    assert ann.act(game_id, {"type": "end_turn"}, action_version(body), csrf_token="forged").status_code == 400

    # The whole game: random legal play, then everyone leaves.
    rng = random.Random(3)
    for _step in range(40):
        state = dod.load(store.load(game_id).snapshot)
        if dod.result(state) is not None:
            break
        seat = state["turn"]["seat"]
        choices = [a for a in dod.legal_actions(state, seat) if a["type"] != "leave"]
        player = by_seat[seat]
        response = player.act(game_id, rng.choice(choices), action_version(player.board(game_id).text))
        assert response.status_code == 200, response.text[:300]
    for seat, player in by_seat.items():
        state = dod.load(store.load(game_id).snapshot)
        if dod.result(state) is None and {"type": "leave"} in dod.legal_actions(state, seat):
            assert player.act(game_id, {"type": "leave"}, action_version(player.board(game_id).text)).status_code == 200
    assert store.load(game_id).status == "finished"
    for player in (ann, bob, cy, watcher, stranger):
        player.get(f"/g/{game_id}")
        for listener in player.listeners:
            listener.close()

    for player in (ann, bob, cy, watcher, stranger):
        secrets_seen |= {cookie.value for cookie in player.http.cookies}
        if player.csrf:
            secrets_seen.add(player.csrf)
    tokens = {p.seat_token(game_id) for p in (ann, bob, cy)} | {cy_solo_token}
    secrets_seen |= tokens | {hashlib.sha256(t.encode()).hexdigest() for t in tokens}
    secrets_seen.discard(None)
    assert len(tokens) == 4 and all(len(s) >= 20 for s in secrets_seen)

    text = server.log_text()
    records, strays = log_records(text)
    assert strays == []  # one JSON object a line
    access = [r for r in records if r["logger"] == "delve.access"]
    assert len(access) > 80 and all(re.fullmatch(r"[0-9a-f]{16}", r["request_id"]) for r in access)
    assert {r["status"] for r in access} >= {200, 303, 400, 403}
    leaked = sorted(s for s in secrets_seen if s in text)
    assert leaked == []
