"""Screen-reader mode (issue 28): the switch every page starts with, the game page drawn text-first
from the seat's view, and the command line's answers: an action through the same path as a
button, a question answered, a refusal said, bad input refused with the state untouched."""

from __future__ import annotations

import html
import json
import re

import pytest
from sqlalchemy import update

import rules_engine
from rules_engine.games.shuffle_and_doom import speech as sad_speech
from tests.engine.test_loss_warnings import sad_hidden_changed
from tests.page import Page
from tests.web.test_board_pushes import board_socket, events
from tests.web.test_dungeon_of_doom_web import Table
from webapp.domain import play
from webapp.pages import reader
from webapp.storage.schema import games

S2_DECK = "5C 8D 3H 9S 7D KS JS QH 6S"  # a whole short game on a 4 × 4 map (e2e/test_shuffle_and_doom.py)


def reader_on(client) -> None:
    client.get("/")
    response = client.http.post("/reader", data={"csrf_token": client.csrf, "on": "1", "next": "/"})
    assert response.status_code == 303


def command(client, text, *, version=None, htmx=True):
    data = {"csrf_token": client.csrf, "command": text, "version": str(client.version if version is None else version)}
    headers = {"HX-Request": "true"} if htmx else {}
    return client._remember(client.http.post(f"/g/{client.game_id}/command", data=data, headers=headers))


def answer_of(response) -> str:
    """The live region's words in a command's answer (its out-of-band swap)."""
    found = re.search(
        r'<div id="reader-answer" hx-swap-oob="innerHTML">(.*?)</div>', response.get_data(as_text=True), re.S
    )
    assert found, response.get_data(as_text=True)[:2000]
    return html.unescape(found.group(1)).strip(" \n")  # a trailing no-break space stays


@pytest.fixture
def player(seat_client):
    client = seat_client()
    reader_on(client)
    client.start(size="4", deck=S2_DECK)
    return client


def test_the_switch_is_the_first_control_and_sets_a_lasting_cookie(seat_client):
    client = seat_client()
    page = client.get("/").get_data(as_text=True)
    body = page[page.index("<body") :]
    first = re.search(r"<(a|button|input(?![^>]*hidden))[^>]*>", body)
    assert first and "Screen reader mode" in body[first.start() : first.start() + 400]
    assert 'aria-pressed="false"' in body[first.start() : first.start() + 400]
    response = client.http.post(
        "/reader", data={"csrf_token": client.csrf, "on": "1", "next": "/how-to-play/shuffle-and-doom"}
    )
    assert response.status_code == 303 and response.headers["Location"].endswith("/how-to-play/shuffle-and-doom")
    cookie = client.http.get_cookie(reader.READER_COOKIE)
    assert cookie.value == "1" and cookie.expires is not None
    assert 'aria-pressed="true"' in client.get("/").get_data(as_text=True)
    # Off again; a foreign "next" goes home; no CSRF token, no switch.
    response = client.http.post("/reader", data={"csrf_token": client.csrf, "on": "0", "next": "//evil.example/"})
    assert response.headers["Location"] == "/" and client.http.get_cookie(reader.READER_COOKIE) is None
    assert client.http.post("/reader", data={"on": "1"}).status_code == 400


def test_the_game_page_is_text_first_under_headings(player):
    page = Page(player.get(f"/g/{player.game_id}").get_data(as_text=True))
    headings = page.texts("h2")
    for wanted in ("Status", "Your character", "Board", "Your choices", "Command", "Transcript", "Log"):
        assert wanted in headings
    html = str(page.soup)
    assert 'role="log"' in html and 'aria-live="polite"' in html and 'role="status"' in html
    assert '<label for="command">Command</label>' in html
    assert "<svg" not in html.split('id="game"', 1)[1].split("</section>", 1)[0]  # no drawing in the reading order
    assert "choose top" in page.text() and "Choose the set" in page.text()
    # The choices are real buttons posting the action, as the normal page's do.
    form = page.one("form.play")
    assert form["action"] == f"/g/{player.game_id}/act"
    actions = [json.loads(b["value"]) for b in form.select('button[name="action"]')]
    assert actions == [{"type": "choose_stat_set", "set": "top"}, {"type": "choose_stat_set", "set": "side"}]


def test_a_typed_action_plays_through_the_same_path_and_the_answers_read(player):
    response = command(player, "choose top")
    assert response.status_code == 200
    assert answer_of(response).startswith("Choose the top set")
    assert play.load_game(player.app.extensions["delve_store"], player.game_id).version == 1
    response = command(player, "give 1 attack")
    assert response.status_code == 200
    # The same answer twice is read twice: a no-break space is added to the second.
    first = answer_of(command(player, "where"))
    second = answer_of(command(player, "where"))
    assert "You are at row 1, column 1" in first and second == first + reader.NO_BREAK_SPACE
    assert answer_of(command(player, "look")) == first
    assert answer_of(command(player, "help")).startswith("attack 1: Attack 6 of spades")
    assert "6 of spades" in answer_of(command(player, "log"))
    assert "health" in answer_of(command(player, "score"))
    assert answer_of(command(player, "hand")).startswith("Your hand is empty")
    # The transcript keeps the exchanges, newest last; without script a reload shows them.
    page = Page(player.get(f"/g/{player.game_id}").get_data(as_text=True))
    items = page.texts("#transcript li")
    # Nine exchanges so far: the oldest went, the newest is last.
    assert len(items) <= reader.TRANSCRIPT_ENTRIES and items[-1].startswith("hand")
    assert not any(item.startswith("choose top") for item in items)
    response = command(player, "attack 1", htmx=False)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/g/{player.game_id}")
    page = Page(player.get(f"/g/{player.game_id}").get_data(as_text=True))
    assert page.texts("#transcript li")[-1].startswith(
        "attack 1 : Attack 6 of spades (strength 6). You attack 6 of spades"
    )


def test_refusals_say_why_and_change_nothing(player, store):
    def version():
        return play.load_game(store, player.game_id).version

    response = command(player, "chose top")
    assert response.status_code == 200 and 'Did you mean "choose top"?' in answer_of(response)
    response = command(player, "attack 1")
    assert (
        response.status_code == 200
        and answer_of(response) == "You cannot attack now. You can: choose top, choose side."
    )
    response = command(player, "")
    assert response.status_code == 400 and answer_of(response).startswith("Type a command")
    response = command(player, "x" * 201)
    assert response.status_code == 413 and "at most 200 characters" in response.get_data(as_text=True)
    response = command(player, "choose top", version=player.version + 5)
    assert response.status_code == 409 and answer_of(response).startswith("The game had moved on")
    response = command(player, "choose top", version="soon")
    assert response.status_code == 400
    assert version() == 0
    response = player.http.post(f"/g/{player.game_id}/command", data={"command": "choose top", "version": "0"})
    assert response.status_code == 400 and version() == 0


def test_a_spectator_asks_but_cannot_act(player, seat_client):
    onlooker = seat_client()
    reader_on(onlooker)
    onlooker.watch(player.game_id)
    assert "Watching" in answer_of(command(onlooker, "status"))
    response = command(onlooker, "choose top")
    assert response.status_code == 403 and "only its players can act" in answer_of(response)
    assert play.load_game(onlooker.app.extensions["delve_store"], player.game_id).version == 0


def test_a_command_out_of_turn_says_whose_turn_it_is(app, seat_client):
    """A Dungeon of Doom table: the seat whose turn it is not is told who is playing."""
    table = Table(app, seat_client, players=2)
    game = play.load_game(app.extensions["delve_store"], table.game_id)
    waiting = next(p for p in game.record.players if p != table.turn_seat())
    client = table.clients[waiting]
    client.http.set_cookie(reader.READER_COOKIE, "1")
    page = client.http.get(f"/g/{table.game_id}").get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    response = client.http.post(
        f"/g/{table.game_id}/command",
        data={"csrf_token": client.csrf, "command": "move n", "version": version},
        headers={"HX-Request": "true"},
    )
    playing = "Ann" if waiting != "p1" else "Bob"
    assert response.status_code == 200
    assert answer_of(response) == f"It is not your turn: {playing} is playing."


def test_the_mode_never_shows_the_hidden_cards(player, store, monkeypatch):
    """The page and every answer are drawn from the seat's view: changing the undealt cards
    (keeping the view) changes nothing the mode sends."""
    command(player, "choose top")
    command(player, "give 1 attack")
    paths = [f"/g/{player.game_id}", f"/g/{player.game_id}/board"]

    def seen():
        pages = [same(player.http.get(p, headers={"HX-Request": "true"} if "board" in p else {})) for p in paths]
        answers = [answer_of(command(player, topic)) for topic in ("where", "board", "status", "score", "help", "hand")]
        return pages, answers

    first = seen()
    game = play.load_game(store, player.game_id)
    changed = sad_hidden_changed(game.state)
    assert changed != game.state and game.rules.view(changed, "p1") == game.rules.view(game.state, "p1")
    with store.engine.begin() as conn:
        conn.execute(
            update(games).where(games.c.id == player.game_id).values(snapshot=json.dumps(game.rules.dump(changed)))
        )
    monkeypatch.setattr(play, "loaded_states", play.LoadedStates())
    assert play.load_game(store, player.game_id).state["draw"] == changed["draw"]
    second = seen()
    assert second[1] == [a.rstrip(reader.NO_BREAK_SPACE) for a in first[1]] or second[1] == first[1]
    assert second[0] == first[0]


def same(response) -> str:
    """A page without what differs between requests by design (tokens, tickets) and the
    transcript (which grows with each command)."""
    body = response.get_data(as_text=True)
    body = re.sub(r'(name="csrf_token" value=|"X-CSRF-Token": |data-presence=|data-viewer=)"[^"]*"', r'\1""', body)
    body = re.sub(r'<ol id="transcript".*?</ol>', "", body, flags=re.S)
    return re.sub(r'<div id="reader-answer".*?</div>', "", body, flags=re.S)


def test_how_to_play_lists_every_command_word(seat_client):
    page = Page(seat_client().get("/how-to-play/shuffle-and-doom").get_data(as_text=True))
    assert "Commands (screen reader mode)" in page.texts("h2")
    listed = {text.split()[0] for text in page.texts(".command-list dt")}
    assert listed == set(sad_speech.VERBS)


def test_a_pushed_board_in_the_mode_brings_the_others_moves_by_name(app, seat_client):
    """At a table, what another seat did reaches a page in the mode by its pushed board: the
    mode's board, whose feed (which the Log announces once each, by number) names the player."""
    table = Table(app, seat_client, players=2)
    mover = table.turn_seat()
    watcher = next(p for p in ("p1", "p2") if p != mover)
    table.clients[watcher].http.set_cookie(reader.READER_COOKIE, "1")
    sio, _http = board_socket(table, watcher)
    sio.get_received()
    assert table.act(mover, {"type": "end_turn"}).status_code == 200
    pushed = Page(events(sio, "board")[0]["html"])
    assert pushed.select("#game h2")[0].get_text() == "Status"
    feed = pushed.one("#reader-feed")
    lines = [(int(p["data-seq"]), p.get_text()) for p in feed.select("[data-seq]")]
    assert [seq for seq, _text in lines] == sorted(seq for seq, _text in lines)
    name = "Ann" if mover == "p1" else "Bob"
    assert name in lines[-1][1] or name in " ".join(text for _seq, text in lines[-3:])
    assert not any(re.search(r"\bp[12]\b", text) for _seq, text in lines)


SPEECH_HALL = "name Speech Hall\nwin 1\n#######\n#E.G..#\n#.....#\n#######"  # e2e/test_speech_dungeon_of_doom.py


def log_keys(lines) -> list[tuple[int, int]]:
    """The keys the Log orders its lines by (static/js/reader.js): the log's seq, then the line's
    place among that seq's lines."""
    return [(int(line["data-seq"]), int(line.get("data-part", 0))) for line in lines]


def speech_table(app, seat_client, *, start: bool = True) -> Table:
    """Ann and Bob on the speech hall, Ann right of the gold, Bob between the gold and the exit,
    every blow hitting (the browser test's table)."""
    return Table(
        app,
        seat_client,
        players=2,
        map_choice="custom",
        form={"map_text": SPEECH_HALL},
        test_options={"dice": [1], "start_positions": {"p1": [1, 4], "p2": [1, 2]}},
        start=start,
    )


def test_every_line_of_a_many_line_step_has_its_own_ordered_key(app, seat_client):
    """One Dungeon of Doom step logs several lines under one seq (Ann's attack that ends her turn:
    the blow, Bob's hit points, Bob's turn): the Log adds a line only past the newest key it holds,
    so each line needs a key of its own, in the log's order, or all but the first are lost."""
    table = speech_table(app, seat_client)
    for action in ({"type": "move", "dir": "W"}, {"type": "pickup"}, {"type": "attack", "dir": "W"}):
        assert table.act("p1", action).status_code == 200
    bob = table.clients["p2"]
    bob.http.set_cookie(reader.READER_COOKIE, "1")
    feed = Page(bob.board().get_data(as_text=True)).one("#reader-feed").select("[data-seq]")
    shown = Page(bob.get(f"/g/{table.game_id}").get_data(as_text=True)).select("#reader-log li")
    for lines in (feed, shown):
        keys = log_keys(lines)
        assert keys == sorted(set(keys)), keys  # unique, in the log's order
        texts = [line.get_text() for line in lines]
        step = texts.index("Ann attacked you: hit for 1 damage. You have 2 HP.")
        assert texts[step + 1 :] == ["Your hit points fell to 2.", "Turn 2: your turn."]
        assert len({seq for seq, _part in keys[step:]}) == 1  # one step, one seq


def typed(client, game_id, text, *, version=None):
    """A command typed on ``client``'s page of a game in the mode, with its page's version."""
    client.http.set_cookie(reader.READER_COOKIE, "1")
    if version is None:
        page = client.http.get(f"/g/{game_id}").get_data(as_text=True)
        version = re.search(r'name="version" value="(\d+)"', page).group(1)
    data = {"csrf_token": client.csrf, "command": text, "version": str(version)}
    return client.http.post(f"/g/{game_id}/command", data=data, headers={"HX-Request": "true"})


def test_a_refused_line_is_answered_200_and_only_a_malformed_request_is_a_4xx(app, seat_client):
    """Refusing a well-formed line is a conversation, not an error (no console error for a typo):
    200 with the sentence — an unknown word (with the nearest one), not now, not your turn, the game
    over, a spectator's typo. A 4xx is for a request no page sends as it is: empty (400), too long
    (413, in test_refusals_say_why_and_change_nothing), a spectator acting (403), an action typed on
    a board that is no longer the game's (409), a game still in its waiting room (409)."""
    table = speech_table(app, seat_client, start=False)
    ann, bob = table.clients["p1"], table.clients["p2"]
    onlooker = seat_client()
    onlooker.watch(table.game_id)
    response = typed(ann, table.game_id, "status", version=0)
    assert response.status_code == 409 and "waiting room" in response.get_data(as_text=True)
    table.start()

    def answered(client, text, status, **version):
        response = typed(client, table.game_id, text, **version)
        assert response.status_code == status, (text, response.status_code)
        return answer_of(response)

    assert answered(ann, "", 400).startswith("Type a command")
    assert 'Did you mean "move w"?' in answered(ann, "mvoe w", 200)
    assert answered(ann, "attack w", 200).startswith("You cannot attack now.")
    assert answered(bob, "move s", 200) == "It is not your turn: Ann is playing."
    # A typo is answered as one, whoever's turn it is: the nearest word, not "not your turn".
    assert 'Did you mean "status"?' in answered(bob, "stauts", 200)
    assert 'Did you mean "status"?' in answered(onlooker, "stauts", 200)
    assert "only its players can act" in answered(onlooker, "move s", 403)
    not_this_board = table.store.load(table.game_id).version + 1
    assert answered(ann, "move w", 409, version=not_this_board).startswith("The game had moved on")
    assert answered(ann, "where", 200, version=not_this_board).startswith("North")  # a question acts on no board
    steps = [("p1", "move w"), ("p1", "pickup"), ("p1", "attack w"), ("p2", "move s"), ("p2", "end")]
    for seat, line in [*steps, ("p1", "move w"), ("p1", "move w")]:
        assert answered(table.clients[seat], line, 200).startswith(("Move", "Pick", "Attack", "End"))
    assert rules_engine.get("dungeon-of-doom").result(table.state())["winners"] == ["p1"]
    for client in (ann, bob):
        assert answered(client, "move s", 200).startswith("The game is over.")
        assert answered(client, "end", 200).startswith("The game is over.")
        assert 'Did you mean "score"?' in answered(client, "scor", 200)


def test_an_action_the_engine_refuses_after_all_is_answered_200_and_changes_nothing(player, store, monkeypatch):
    """A typed line is read into one of the seat's commands now, so the engine refusing it is a
    "not now" (the rules' reason, said), not a malformed request."""

    def refused(_game, _seat, _action):
        raise rules_engine.IllegalAction("The stat sets are not dealt yet.")

    monkeypatch.setattr(play, "_apply", refused)
    response = command(player, "choose top")
    assert response.status_code == 200 and answer_of(response) == "The stat sets are not dealt yet."
    assert play.load_game(store, player.game_id).version == 0


def test_the_switch_keeps_out_of_sight_until_focused_and_the_front_page_offers_a_visible_one(seat_client):
    """Off, the first control shows only when focused (a sighted player's page keeps its room); the
    front page says the mode exists with a button anyone sees; on, the switch stays in view."""
    client = seat_client()
    front = client.get("/").get_data(as_text=True)
    assert 'class="reader-switch"' in front
    assert "Switch to text-first pages" in front
    client.http.post("/reader", data={"csrf_token": client.csrf, "on": "1", "next": "/"})
    front_on = client.get("/").get_data(as_text=True)
    assert 'class="reader-switch on"' in front_on
    assert "Switch to text-first pages" not in front_on
