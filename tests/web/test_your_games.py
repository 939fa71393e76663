"""The front page's "Your games": this browser's games, found from the signed list a seat adds to,
with their state as the store has it; nobody else's, and in one query."""

from __future__ import annotations

import json
import re

import pytest
from flask import request
from itsdangerous import URLSafeSerializer
from sqlalchemy import event, update

from webapp.domain import seat_tokens
from webapp.storage.schema import games
from webapp.web import seat_cookies
from webapp.web.front_page import ago

ROW_RE = re.compile(r'<li class="yg-row yg-([a-z-]+)">(.*?)</li>', re.S)
EMPTY = "No games in this browser yet"


def rows(client) -> list[tuple[str, str]]:
    """(state, the row's text) of each listed game, in order."""
    body = client.get("/").get_data(as_text=True)
    return [(state, " ".join(re.sub(r"<[^>]+>", " ", html).split())) for state, html in ROW_RE.findall(body)]


def links(client) -> list[str]:
    body = client.get("/").get_data(as_text=True)
    section = body.split('id="your-games"', 1)[1].split("</section>", 1)[0]
    return re.findall(r'href="(/g/[^"]+)"', section)


def set_game(store, game_id, **values):
    with store.engine.begin() as conn:
        conn.execute(update(games).where(games.c.id == game_id).values(**values))


def open_table(client, slug="dungeon-of-doom", name="Ann") -> str:
    client.get("/")
    response = client.http.post("/games", data={"game": slug, "csrf_token": client.csrf, "name": name})
    assert response.status_code == 303
    client.game_id = response.headers["Location"].rsplit("/", 1)[-1]
    client.get(f"/g/{client.game_id}")
    return client.game_id


def test_a_new_browser_is_told_its_list_is_empty(seat_client):
    body = seat_client().get("/").get_data(as_text=True)
    assert EMPTY in body
    assert "yg-row" not in body


def test_a_game_started_here_is_listed_with_a_resume_link(seat_client):
    ann = seat_client()
    game_id = ann.start("shuffle-and-doom")
    listed = rows(ann.http)
    assert listed == [("in-progress", "Shuffle and Doom! In progress just now Resume Shuffle and Doom!, just now")]
    assert links(ann.http) == [f"/g/{game_id}"]
    cookie = ann.http.get_cookie(seat_cookies.GAMES_COOKIE_NAME, path="/")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax"


def test_the_newest_game_comes_first_and_a_game_is_listed_once(app, seat_client):
    ann = seat_client()
    first = ann.start("shuffle-and-doom")
    second = ann.start("clear-the-dungeon")
    assert links(ann.http) == [f"/g/{second}", f"/g/{first}"]
    # A seat taken again in a listed game moves it to the front; it does not add a second entry.
    cookie = ann.http.get_cookie(seat_cookies.GAMES_COOKIE_NAME, path="/").value
    headers = {"Cookie": f"{seat_cookies.GAMES_COOKIE_NAME}={cookie}"}
    with app.test_request_context("/", headers=headers):
        response = app.response_class()
        seat_cookies.remember_game(response, first, "another-token", secure=False)
        renewed = response.headers["Set-Cookie"].split(";", 1)[0].split("=", 1)[1]
    with app.test_request_context("/", headers={"Cookie": f"{seat_cookies.GAMES_COOKIE_NAME}={renewed}"}):
        remembered = seat_cookies.remembered_games(request)
    assert [game_id for game_id, _mark in remembered] == [first, second]
    assert remembered[0][1] == seat_tokens.seat_mark(seat_tokens.hash_token("another-token"))


def test_another_browser_sees_none_of_them_even_after_watching(seat_client):
    ann, bob = seat_client(), seat_client()
    game_id = ann.start("shuffle-and-doom")
    bob.watch(game_id)
    body = bob.get("/").get_data(as_text=True)
    assert EMPTY in body
    assert game_id not in body


@pytest.mark.parametrize(
    "forged",
    [
        lambda game_id, mark: f"{game_id}.{mark}",  # not signed at all
        lambda game_id, mark: URLSafeSerializer("not-our-key", salt="delve-games").dumps([f"{game_id}.{mark}"]),
    ],
)
def test_a_list_not_signed_by_the_site_is_ignored(app, seat_client, forged):
    ann, mallory = seat_client(), seat_client()
    game_id = ann.start("shuffle-and-doom")
    mark = seat_tokens.seat_mark(app.extensions["delve_store"].seat_hashes(game_id)["p1"])
    mallory.http.set_cookie(seat_cookies.GAMES_COOKIE_NAME, forged(game_id, mark), path="/")
    assert EMPTY in mallory.get("/").get_data(as_text=True)


def test_a_signed_list_naming_a_seat_this_browser_does_not_hold_is_ignored(app, seat_client):
    """Knowing a game's link (and so its id) is not holding its seat: the row needs the seat's mark."""
    ann, bob = seat_client(), seat_client()
    game_id = ann.start("shuffle-and-doom")
    with app.test_request_context():
        guessed = URLSafeSerializer(app.secret_key, salt="delve-games").dumps([f"{game_id}.0123456789abcdef"])
    bob.http.set_cookie(seat_cookies.GAMES_COOKIE_NAME, guessed, path="/")
    assert EMPTY in bob.get("/").get_data(as_text=True)


@pytest.mark.parametrize(
    "result, state, link",
    [
        ({"winners": ["p1"], "scores": {"p1": 10}}, "won", "See the end"),
        ({"winners": [], "scores": {"p1": 0}}, "lost", "See the end"),
        ({"scores": {}}, "finished", "See the end"),
    ],
)
def test_a_finished_game_says_how_it_ended(app, seat_client, result, state, link):
    ann = seat_client()
    game_id = ann.start("shuffle-and-doom")
    set_game(app.extensions["delve_store"], game_id, status="finished", result=json.dumps(result), finished_at=1.0)
    [(listed_state, text)] = rows(ann.http)
    assert listed_state == state
    assert link in text and "Resume" not in text


def test_a_tables_state_follows_the_turn(app, seat_client):
    store = app.extensions["delve_store"]
    ann, bob = seat_client(), seat_client()
    game_id = open_table(ann)
    assert rows(ann.http)[0][0] == "waiting"
    assert "Waiting for players" in rows(ann.http)[0][1]
    bob.get(f"/g/{game_id}")
    assert bob.http.post(f"/g/{game_id}/join", data={"csrf_token": bob.csrf, "name": "Bob"}).status_code == 303
    set_game(store, game_id, status="running", turn_key="p1:1")
    assert rows(ann.http)[0][0] == "your-turn"
    assert rows(bob.http)[0][0] == "their-turn"
    set_game(store, game_id, turn_key="p2:2")
    assert rows(ann.http)[0][0] == "their-turn"
    assert rows(bob.http)[0][0] == "your-turn"
    set_game(store, game_id, turn_key=None)
    assert rows(ann.http)[0][0] == "in-progress"


def test_leaving_a_waiting_room_takes_the_table_off_the_list(seat_client):
    ann, bob = seat_client(), seat_client()
    game_id = open_table(ann)
    bob.get(f"/g/{game_id}")
    bob.http.post(f"/g/{game_id}/join", data={"csrf_token": bob.csrf, "name": "Bob"})
    assert links(bob.http) == [f"/g/{game_id}"]
    bob.get(f"/g/{game_id}")
    assert bob.http.post(f"/g/{game_id}/leave-table", data={"csrf_token": bob.csrf}).status_code in (302, 303)
    assert links(bob.http) == []
    assert links(ann.http) == [f"/g/{game_id}"]


def test_the_list_costs_one_query_however_many_games(app, seat_client):
    ann = seat_client()
    for _ in range(6):
        ann.start("shuffle-and-doom")
    statements: list[str] = []
    engine = app.extensions["delve_store"].engine

    def count(_conn, _cursor, statement, *_args):
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        body = ann.http.get("/").get_data(as_text=True)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert body.count('class="yg-row') == 6
    # One for the list, one for this browser's record (webapp/domain/browsers.py), however many games.
    assert len(statements) == 2, statements
    assert sum("browser_seats" in statement for statement in statements) == 1
    # The newest four are in sight; the others fold under one summary.
    assert "2 older games" in body


def test_the_list_keeps_the_newest_twenty(seat_client):
    ann = seat_client()
    started = [ann.start("shuffle-and-doom") for _ in range(seat_cookies.GAMES_REMEMBERED + 1)]
    assert links(ann.http) == [f"/g/{game_id}" for game_id in reversed(started[1:])]


def test_the_page_is_private_to_its_browser(seat_client):
    response = seat_client().http.get("/")
    assert "private" in response.headers["Cache-Control"]
    assert "Cookie" in response.headers["Vary"]


@pytest.mark.parametrize(
    "seconds, said",
    [
        (5, "just now"),
        (61, "1 minute ago"),
        (3 * 3600 + 5, "3 hours ago"),
        (86400 * 1.5, "yesterday"),
        (86400 * 3, "3 days ago"),
        (86400 * 15, "2 weeks ago"),
        (-30, "just now"),
    ],
)
def test_ages_read_plainly(seconds, said):
    assert ago(seconds) == said
