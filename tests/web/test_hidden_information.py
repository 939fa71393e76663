"""Hidden stays hidden: play whole games through the HTTP client, as the player and as a
spectator, and scan every body and socket message for the draw pile's cards and the seed.

The deals are stacked decks shuffled from the test's own seed, so every run plays the same
games (with a full deck and N ≤ 7 the draw pile never runs out, so the server's secret seed
decides nothing)."""

from __future__ import annotations

import json
import logging
import random
import re

import pytest

import rules_engine
from rules_engine.cards import Card, colour_of, standard_deck
from rules_engine.grid import DIRECTIONS, manhattan, step
from tests.helpers.decks import S1_HEADERS, full_deck
from webapp import socketio

rules = rules_engine.get("shuffle-and-doom")
TOKEN = re.compile(r"[A-Za-z0-9_-]{20,}")  # game ids, CSRF tokens: random text that may contain "2C"
MAX_STEPS = 600


def hidden_cards(state) -> set[str]:
    """The draw pile's cards the player has not seen: all of it except the public header tail."""
    view = rules.view(state, "p1")
    public_tail = set(view.get("bottom_headers", []))
    return {code for code in state["draw"] if code not in public_tail} if "draw" in state else set()


def assert_card_absent(text: str, code: str) -> None:
    """The card appears in ``text`` in none of the ways a page can show it: its code ("10C", as in
    an attribute or JSON), rank and suit symbol with or without markup between ("10♣", as the log
    and the card pictures draw it) or its name in words ("10 of clubs", as screen readers say it)."""
    card = Card.parse(code)
    text = TOKEN.sub(" ", text)
    for form, flags in (
        (re.escape(code), 0),
        (rf"{re.escape(card.rank)}(?:<[^>]*>)*{card.symbol}", 0),
        (re.escape(card.name), re.I),
    ):
        assert not re.search(rf"(?<![A-Za-z0-9]){form}(?![A-Za-z0-9])", text, flags), f"{code} shown as {form}"


def assert_nothing_hidden(body: str, state, seed: int):
    assert str(seed) not in body
    for code in hidden_cards(state):
        assert_card_absent(body, code)


def stacked_deal(game_seed: int, size: int) -> list[str]:
    """A full deck shuffled from ``game_seed`` whose first deal fills some cell (no redeal)."""
    rng = random.Random(game_seed)
    deck = standard_deck()
    while True:
        rng.shuffle(deck)
        if len({colour_of(code) for code in deck[: 2 * size]}) == 2:
            return list(deck)


def finishing_choice(state, rng: random.Random) -> dict:
    """A player whose games end: any legal choice in setup and in rooms; between rooms a step
    (now and then a potion or book) towards the nearest room not yet emptied — the map has no
    walls, so any step that shortens the distance will do — and the exit once none is left."""
    actions = rules.legal_actions(state, "p1")
    view = rules.view(state, "p1")
    if view["phase"] != "explore" or rng.random() < 0.1:
        return rng.choice(actions)
    here = tuple(view["position"])
    goals = [
        tuple(cell) for room in view["rooms"] if room["status"] in ("unvisited", "suspended") for cell in room["cells"]
    ] or [tuple(view["exit"])]
    goal = min(goals, key=lambda cell: manhattan(here, cell))
    if goal == here:
        return {"type": "exit"}
    return next(
        {"type": "move", "dir": d} for d in DIRECTIONS if manhattan(step(here, d), goal) < manhattan(here, goal)
    )


@pytest.mark.parametrize("game_seed,size", [(1, 4), (2, 5), (3, 7), (4, 7)])
def test_no_hidden_card_or_seed_in_any_body_or_push(app, seat_client, store, game_seed, size):
    player = seat_client()
    player.start(size=str(size), deck=stacked_deal(game_seed, size))
    watcher = seat_client()
    watcher.watch(player.game_id)
    sio = socketio.test_client(app, flask_test_client=watcher.http)
    sio.emit("watch", {"game": player.game_id, "revision": 0}, callback=True)
    record = store.load(player.game_id)
    seed = record.seed
    state = rules.load(record.snapshot)
    assert "draw" in state, "the engine keeps the draw pile under the key 'draw'"
    rng = random.Random(game_seed)
    steps = 0
    while rules.result(state) is None:
        assert steps < MAX_STEPS, f"game {game_seed} did not end"
        response = player.act(finishing_choice(state, rng))
        assert response.status_code == 200, response.get_data(as_text=True)
        state = rules.load(store.load(player.game_id).snapshot)
        assert_nothing_hidden(response.get_data(as_text=True), state, seed)
        assert_nothing_hidden(watcher.board().get_data(as_text=True), state, seed)
        steps += 1
    assert hidden_cards(state), "the game ended with cards still hidden, or the check is empty"
    for body in (player.get(f"/g/{player.game_id}"), watcher.get(f"/g/{player.game_id}")):
        assert_nothing_hidden(body.get_data(as_text=True), state, seed)
    messages = sio.get_received()
    assert len(messages) >= steps  # a doorbell for every action, none of them carrying the game
    for message in messages:
        assert set(message["args"][0]) == {"revision"}
        assert_nothing_hidden(json.dumps(message), state, seed)


def test_s19_the_next_card_stays_hidden(app, seat_client, store, caplog):
    """S19 through the web: after S1's setup on a full stacked deck, the tenth card (the next
    one to be drawn) is in no page, fragment, push, game log or server log line."""
    caplog.set_level(logging.DEBUG)
    deck = full_deck(*S1_HEADERS, "6S", "10C")
    player = seat_client()
    player.start(size="4", deck=deck)
    watcher = seat_client()
    watcher.watch(player.game_id)
    sio = socketio.test_client(app, flask_test_client=watcher.http)
    sio.emit("watch", {"game": player.game_id, "revision": 0}, callback=True)
    bodies = [
        player.act({"type": "choose_stat_set", "set": "top"}),
        player.act({"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"}),
        watcher.board(),
        player.get(f"/g/{player.game_id}"),
        watcher.get(f"/g/{player.game_id}"),
    ]
    state = rules.load(store.load(player.game_id).snapshot)
    view = rules.view(state, "p1")
    assert view["draw_count"] == 51 and view["bottom_headers"] == S1_HEADERS
    assert state["draw"][0] == "10C"  # the card the scenario hides is indeed next
    assert "6S" in bodies[1].get_data(as_text=True)  # the room drawn at (1,1) is shown
    seed = store.load(player.game_id).seed
    texts = [b.get_data(as_text=True) for b in bodies]
    texts += [json.dumps(m) for m in sio.get_received()]
    texts += ["\n".join(e["text"] for e in view["log"]), caplog.text]
    for text in texts:
        assert str(seed) not in text
        assert_card_absent(text, "10C")


def test_a_challenge_gives_nothing_of_its_deal_away_while_an_attempt_runs(app, seat_client, store):
    """A friend playing a challenge's deal reaches the challenge page, the challenger's finished
    game and its replay addresses: none of them shows the deal's hidden cards or seed until the
    friend's own attempt is over."""
    ann = seat_client()
    ann.start(size="5", deck=stacked_deal(5, 5))
    rng = random.Random(5)
    state = rules.load(store.load(ann.game_id).snapshot)
    while rules.result(state) is None:
        assert ann.act(finishing_choice(state, rng)).status_code == 200
        state = rules.load(store.load(ann.game_id).snapshot)
    source = ann.game_id
    link = ann.http.post(f"/g/{source}/challenge", data={"csrf_token": ann.csrf}).headers["Location"]
    bea = seat_client()
    # The challenge never names the challenger's game: its page (a finished game's log) is reached
    # only by a link its player chose to share.
    assert source not in bea.get(link).get_data(as_text=True)
    started = bea.http.post(f"{link}/play", data={"csrf_token": bea.csrf, "name": "Bea"})
    bea.game_id = started.headers["Location"].rsplit("/", 1)[-1]
    bea.get(f"/g/{bea.game_id}")
    rng = random.Random(6)
    for _ in range(12):
        state = rules.load(store.load(bea.game_id).snapshot)
        if rules.result(state) is not None:
            break
        seed = store.load(bea.game_id).seed
        bodies = [bea.act(finishing_choice(state, rng)), bea.get(link), bea.board()]
        bodies += [bea.http.get(f"/g/{source}/{path}") for path in ("replay", "replay.json", "replay?step=3")]
        bodies += [bea.http.get(f"/g/{bea.game_id}/{path}") for path in ("replay", "replay.json")]
        state = rules.load(store.load(bea.game_id).snapshot)
        if rules.result(state) is not None:
            break
        for body in bodies:
            assert body.status_code in (200, 403, 409)
            assert_nothing_hidden(body.get_data(as_text=True), state, seed)
    assert hidden_cards(state), "the attempt's draw pile was empty: the check is empty"
