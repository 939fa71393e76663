"""Hidden stays hidden: play whole games through the HTTP client, as the player and as a
spectator, and scan every body and socket message for the draw pile's cards and the seed."""

from __future__ import annotations

import json
import random
import re

import pytest

import rules_engine
from rules_engine.cards import Card
from webapp import socketio

rules = rules_engine.get("shuffle-and-doom")
TOKEN = re.compile(r"[A-Za-z0-9_-]{20,}")  # game ids, CSRF tokens: random text that may contain "2C"


def hidden_cards(state) -> set[str]:
    """The draw pile's cards the player has not seen: all of it except the public header tail."""
    view = rules.view(state, "p1")
    public_tail = set(view.get("bottom_headers", []))
    return {code for code in state["draw"] if code not in public_tail} if "draw" in state else set()


def assert_nothing_hidden(body: str, state, seed: int):
    text = TOKEN.sub(" ", body)
    assert str(seed) not in body
    for code in hidden_cards(state):
        card = Card.parse(code)
        assert not re.search(rf"(?<![A-Za-z0-9]){re.escape(code)}(?![A-Za-z0-9])", text), code
        assert card.name not in text, card.name


@pytest.mark.parametrize("game_seed,size", [(1, 4), (2, 5), (3, 7)])
def test_no_hidden_card_or_seed_in_any_body_or_push(app, seat_client, store, game_seed, size):
    player = seat_client()
    player.start(size=str(size))
    watcher = seat_client()
    watcher.watch(player.game_id)
    sio = socketio.test_client(app, flask_test_client=watcher.http)
    sio.emit("watch", {"game": player.game_id, "version": 0}, callback=True)
    record = store.load(player.game_id)
    seed = record.seed
    state = rules.load(record.snapshot)
    assert "draw" in state, "the engine keeps the draw pile under the key 'draw'"
    rng = random.Random(game_seed)
    for _step in range(400):
        if rules.result(state) is not None:
            break
        actions = rules.legal_actions(state, "p1")
        non_moves = [a for a in actions if a["type"] != "move"]
        action = rng.choice(non_moves if non_moves and rng.random() < 0.7 else actions)
        response = player.act(action)
        assert response.status_code == 200, response.get_data(as_text=True)
        state = rules.load(store.load(player.game_id).snapshot)
        assert_nothing_hidden(response.get_data(as_text=True), state, seed)
        assert_nothing_hidden(watcher.board().get_data(as_text=True), state, seed)
    assert_nothing_hidden(player.get(f"/g/{player.game_id}").get_data(as_text=True), state, seed)
    for message in sio.get_received():
        assert set(message["args"][0]) == {"version"}
        assert_nothing_hidden(json.dumps(message), state, seed)
