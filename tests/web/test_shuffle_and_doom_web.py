"""Shuffle and Doom! through Flask's test client, as its page plays it: creating a game with options
and a stacked deck, the page and its buttons, acting, the refusals (the engine's reason for an
illegal action, a stale page, a spectator), the end of the game, the same deal again, and the draw
pile that never reaches a page (rules: ``docs/rules/shuffle-and-doom.md``)."""

from __future__ import annotations

import html
import random

import rules_engine
from tests.helpers.decks import S1_DECK, SHORT_DEAL
from tests.helpers.engine import refused
from tests.page import Page
from tests.web.test_hidden_information import assert_nothing_hidden

rules = rules_engine.get("shuffle-and-doom")
SLUG = "shuffle-and-doom"
# SHORT_DEAL played to the exit: one enemy (the 6♠), then out of the far corner with 8 gold.
WHOLE_SHORT_GAME = [
    {"type": "choose_stat_set", "set": "top"},
    {"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"},
    {"type": "attack", "card": "6S"},
    *[{"type": "move", "dir": d} for d in "EEESSS"],
    {"type": "exit"},
]


def text_of(response) -> str:
    return response.get_data(as_text=True)


def stored(store, game_id):
    return rules.load(store.load(game_id).snapshot)


def start(seat_client, deck=S1_DECK, **options):
    player = seat_client()
    player.start(SLUG, size="4", deck=deck, **options)
    return player


def finish(seat_client):
    player = start(seat_client, SHORT_DEAL)
    for action in WHOLE_SHORT_GAME:
        response = player.act(action)
        assert response.status_code == 200, text_of(response)
    return player, response


class TestCreate:
    def test_options_and_a_stacked_deck_reach_the_engine(self, seat_client, store):
        player = start(seat_client, retreat_from_combat="on")
        record = store.load(player.game_id)
        assert record.status == "running" and record.players == ["p1"]
        assert record.options["size"] == 4 and record.options["retreat_from_combat"] is True
        assert record.options["deck"] == S1_DECK
        assert stored(store, player.game_id)["options"]["retreat_from_combat"] is True

    def test_the_page_offers_exactly_the_legal_actions(self, seat_client, store):
        player = start(seat_client)
        page = Page(player.bodies[-1])
        legal = rules.legal_actions(stored(store, player.game_id), "p1")
        assert legal == [{"type": "choose_stat_set", "set": "top"}, {"type": "choose_stat_set", "set": "side"}]
        offered = [b.action for b in page.buttons()]
        assert len(offered) == len(legal) and all(action in offered for action in legal)
        assert page.attr("[data-revision]", "data-revision") == "0"


class TestActing:
    def test_an_action_moves_the_game_on_and_redraws_the_board(self, seat_client, store):
        player = start(seat_client)
        response = player.act({"type": "choose_stat_set", "set": "top"})
        assert response.status_code == 200
        state = stored(store, player.game_id)
        assert store.load(player.game_id).version == 1 and state["stats"] is not None
        offered = [b.action for b in Page(text_of(response)).buttons()]
        assert {"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"} in offered

    def test_an_illegal_action_is_422_with_the_engines_reason(self, seat_client, store):
        player = start(seat_client)
        before = store.load(player.game_id).snapshot
        action = {"type": "move", "dir": "E"}
        reason = refused(rules, stored(store, player.game_id), "p1", action)
        response = player.act(action)
        assert response.status_code == 422
        assert reason and reason in html.unescape(text_of(response))
        assert store.load(player.game_id).snapshot == before

    def test_a_stale_version_is_409_and_changes_nothing(self, seat_client, store):
        player = start(seat_client)
        player.act({"type": "choose_stat_set", "set": "top"})
        before = store.load(player.game_id).snapshot
        response = player.act({"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"}, version=0)
        assert response.status_code == 409
        assert store.load(player.game_id).snapshot == before

    def test_a_spectator_sees_the_game_but_cannot_act(self, seat_client, store):
        player = start(seat_client)
        watcher = seat_client()
        page = Page(text_of(watcher.watch(player.game_id)))
        assert not page.buttons()
        response = watcher.act({"type": "choose_stat_set", "set": "top"})
        assert response.status_code == 403
        assert store.load(player.game_id).version == 0


class TestTheEnd:
    def test_the_game_over_page_has_the_result_and_no_actions(self, seat_client, store):
        player, response = finish(seat_client)
        body = text_of(response)
        assert "Game over" in body and not Page(body).buttons()
        record = store.load(player.game_id)
        assert record.status == "finished" and record.result["reason"] == "exited" and record.result["score"] == 8
        player.version = record.version  # the finished page has no action form to read it from
        assert player.act({"type": "exit"}).status_code == 422  # nothing is legal once the game is over

    def test_the_same_deal_again(self, seat_client, store):
        player, response = finish(seat_client)
        assert "Play the same deal again" in text_of(response)
        again = player.http.post(f"/g/{player.game_id}/rematch", data={"csrf_token": player.csrf})
        assert again.status_code == 303
        new_id = again.headers["Location"].rsplit("/", 1)[-1]
        assert new_id != player.game_id
        assert store.load(new_id).options == store.load(player.game_id).options
        assert store.load(new_id).status == "running" and store.load(new_id).version == 0


def test_the_draw_pile_never_reaches_a_page(seat_client, store):
    """Random legal play on the full stacked deck: no page, fragment or spectator's board shows a
    card of the draw pile (beyond the public header tail) or the game's seed."""
    player = start(seat_client)
    watcher = seat_client()
    watcher.watch(player.game_id)
    pick = random.Random(20240607)
    for _ in range(60):
        state = stored(store, player.game_id)
        seed = store.load(player.game_id).seed
        for body in (player.bodies[-1], text_of(player.get(f"/g/{player.game_id}")), text_of(watcher.board())):
            assert_nothing_hidden(body, state, seed)
        legal = rules.legal_actions(state, "p1")
        if not legal:
            break
        assert player.act(pick.choice(legal)).status_code == 200
