"""Undo as the engine kit keeps it (``rules_engine.undo``), on a small game of our own and on
every game of Delve: an undo restores the earlier state exactly, never crosses a seat's horizon
in ranked play, is refused with a reason (changing nothing) when it cannot be honest, and is an
ordinary action (labelled, replayed, dumped and loaded). What counts as a reveal in each game is
tested beside its engine (``test_undo_<game>.py``)."""

from __future__ import annotations

import json
import random
import types
from typing import Any

import pytest

import rules_engine
from rules_engine import IllegalAction, InvalidAction
from rules_engine.contract import Rules
from rules_engine.undo import (
    ALL_UNDONE,
    BEFORE_UNDO,
    GAME_OVER,
    NOTHING_YET,
    SOMEONE_ELSE,
    game_part,
    is_practice,
    move_to_undo,
)


def _deck_game(*, table: bool) -> Rules:
    """A game small enough to reason about: ``step`` moves a token (showing nothing), ``draw``
    turns the top card of a shuffled deck (a reveal), ``timeout`` is the server's."""
    module = types.ModuleType("deck_game")

    def new_game(seed: int, players: list[str], options: dict[str, Any] | None = None) -> dict[str, Any]:
        deck = list(range(10))
        random.Random(seed).shuffle(deck)
        return {"deck": deck, "drawn": [], "pos": {p: 0 for p in players}, "turn": players[0], "log": []}

    def legal_actions(state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
        if seat != state["turn"] or not state["deck"]:
            return []
        return [{"type": "step"}, {"type": "draw"}]

    def apply(state: dict[str, Any], seat: str, action: dict[str, Any]) -> dict[str, Any]:
        if action.get("type") == "timeout":
            players = list(state["pos"])
            following = players[(players.index(state["turn"]) + 1) % len(players)]
            return {**state, "turn": following, "log": [*state["log"], "time ran out"]}
        if action not in legal_actions(state, seat):
            raise IllegalAction("not now")
        if action["type"] == "step":
            return {**state, "pos": {**state["pos"], seat: state["pos"][seat] + 1}, "log": [*state["log"], "step"]}
        card, *rest = state["deck"]
        return {**state, "deck": rest, "drawn": [*state["drawn"], card], "log": [*state["log"], f"drew {card}"]}

    def reveals(before: dict, after: dict, seat: str, action: dict) -> str | None:
        return "a card was drawn" if after["drawn"] != before["drawn"] else None

    module.__dict__.update(
        slug="deck-game",
        title="Deck game",
        min_players=1,
        max_players=2,
        new_game=new_game,
        legal_actions=legal_actions,
        apply=apply,
        view=lambda state, seat: {"status": "playing", "seat": seat, "log": [], "drawn": state["drawn"]},
        result=lambda state: None if state["deck"] else {"winners": [], "scores": {}, "reason": "done", "text": ""},
        dump=lambda state: json.loads(json.dumps(state)),
        load=lambda data: json.loads(json.dumps(data)),
        reveals=reveals,
        TABLE=table,
        server_actions=("timeout",),
    )
    return Rules.of(module)


SOLO = _deck_game(table=False)
TABLE = _deck_game(table=True)
STEP, DRAW, UNDO, PRACTICE = {"type": "step"}, {"type": "draw"}, {"type": "undo"}, {"type": "practice"}


def _play(rules: Rules, state: dict, moves: list[tuple[str, dict]]) -> dict:
    for seat, action in moves:
        state = rules.apply(state, seat, action)
    return state


class TestSolo:
    def test_undo_goes_back_one_move_at_a_time_to_the_last_reveal(self):
        start = SOLO.new_game(3, ["p1"], {})
        assert SOLO.undo_reach(start, "p1").reason == NOTHING_YET
        drawn = SOLO.apply(start, "p1", DRAW)
        one = SOLO.apply(drawn, "p1", STEP)
        two = SOLO.apply(one, "p1", STEP)
        assert SOLO.undo_reach(two, "p1").steps == 2 and move_to_undo(two) == STEP
        assert move_to_undo(start) is None
        back = SOLO.apply(two, "p1", UNDO)
        assert game_part(back) == game_part(one)
        back = SOLO.apply(back, "p1", UNDO)
        assert game_part(back) == game_part(drawn)
        reach = SOLO.undo_reach(back, "p1")
        assert (reach.steps, reach.reason) == (0, "a card was drawn")
        with pytest.raises(IllegalAction, match="Nothing to undo: a card was drawn"):
            SOLO.apply(back, "p1", UNDO)

    def test_a_refused_undo_changes_nothing(self):
        state = SOLO.apply(SOLO.new_game(3, ["p1"], {}), "p1", DRAW)
        kept = json.dumps(state, sort_keys=True)
        with pytest.raises(IllegalAction):
            SOLO.apply(state, "p1", UNDO)
        with pytest.raises(InvalidAction, match="undo takes no parameter steps"):
            SOLO.apply(state, "p1", {"type": "undo", "steps": 2})
        assert json.dumps(state, sort_keys=True) == kept

    def test_undone_moves_do_not_come_back_and_new_moves_count_from_the_horizon(self):
        state = _play(SOLO, SOLO.new_game(5, ["p1"], {}), [("p1", STEP), ("p1", STEP), ("p1", UNDO), ("p1", STEP)])
        assert game_part(state)["pos"] == {"p1": 2}
        assert SOLO.undo_reach(state, "p1").steps == 2
        state = _play(SOLO, state, [("p1", UNDO), ("p1", UNDO)])
        assert (SOLO.undo_reach(state, "p1").steps, SOLO.undo_reach(state, "p1").reason) == (0, NOTHING_YET)

    def test_practice_undoes_past_reveals_and_the_same_cards_come_again(self):
        state = SOLO.new_game(9, ["p1"], {})
        first = game_part(SOLO.apply(state, "p1", DRAW))["drawn"]
        state = _play(SOLO, state, [("p1", PRACTICE), ("p1", DRAW), ("p1", STEP), ("p1", DRAW)])
        assert is_practice(state) and SOLO.undo_reach(state, "p1").steps == 3
        assert not SOLO.undo_reach(state, "p1").practice_offered
        state = _play(SOLO, state, [("p1", UNDO)] * 3)
        assert game_part(state) == game_part(SOLO.new_game(9, ["p1"], {}))
        assert game_part(SOLO.apply(state, "p1", DRAW))["drawn"] == first
        with pytest.raises(IllegalAction, match="practice already"):
            SOLO.apply(state, "p1", PRACTICE)

    def test_a_finished_game_cannot_be_undone_nor_become_practice(self):
        state = SOLO.new_game(1, ["p1"], {})
        state = _play(SOLO, state, [("p1", STEP)] + [("p1", DRAW)] * 10)
        assert SOLO.result(state) is not None
        reach = SOLO.undo_reach(state, "p1")
        assert (reach.steps, reach.reason, reach.practice_offered) == (0, GAME_OVER, False)
        with pytest.raises(IllegalAction, match="game is over"):
            SOLO.apply(state, "p1", PRACTICE)

    def test_a_game_stored_before_undo_existed_plays_on_without_it(self):
        state = game_part(SOLO.new_game(1, ["p1"], {}))
        state = SOLO.apply(state, "p1", STEP)
        assert SOLO.undo_reach(state, "p1").reason == BEFORE_UNDO
        with pytest.raises(IllegalAction, match="before Delve had undo"):
            SOLO.apply(state, "p1", PRACTICE)

    def test_the_trail_survives_dump_and_load_and_is_labelled(self):
        state = _play(SOLO, SOLO.new_game(2, ["p1"], {}), [("p1", STEP), ("p1", STEP)])
        loaded = SOLO.load(json.loads(json.dumps(SOLO.dump(state))))
        assert loaded == state and SOLO.undo_reach(loaded, "p1").steps == 2
        assert SOLO.action_label(state, UNDO) == "Undo"
        assert SOLO.action_label(state, PRACTICE) == "Switch to practice"
        with pytest.raises(InvalidAction):
            SOLO.load({**SOLO.dump(state), "undo": "not a trail"})

    def test_spectators_have_no_undo(self):
        state = SOLO.apply(SOLO.new_game(2, ["p1"], {}), "p1", STEP)
        assert SOLO.undo_reach(state, None).steps == 0


class TestTable:
    def test_a_run_of_own_moves_is_undone_to_its_start(self):
        start = TABLE.new_game(4, ["p1", "p2"], {})
        state = _play(TABLE, start, [("p1", STEP), ("p1", STEP)])
        assert TABLE.undo_reach(state, "p1").steps == 2
        assert TABLE.undo_reach(state, "p2").steps == 0
        back = _play(TABLE, state, [("p1", UNDO), ("p1", UNDO)])
        assert game_part(back) == game_part(start)
        assert TABLE.undo_reach(back, "p1").reason == ALL_UNDONE
        with pytest.raises(IllegalAction):
            TABLE.apply(back, "p2", UNDO)

    def test_a_runs_start_is_stored_as_its_differences_and_loads_back_whole(self):
        state = _play(TABLE, TABLE.new_game(4, ["p1", "p2"], {}), [("p1", STEP), ("p1", STEP)])
        stored = json.loads(json.dumps(TABLE.dump(state)))
        assert set(stored["undo"]["start"]["changed"]) == {"pos", "log"}
        loaded = TABLE.load(stored)
        assert loaded == state
        assert game_part(TABLE.apply(loaded, "p1", UNDO)) == game_part(TABLE.apply(state, "p1", UNDO))

    def test_anyone_elses_action_is_a_horizon(self):
        state = _play(TABLE, TABLE.new_game(4, ["p1", "p2"], {}), [("p1", STEP), ("server", {"type": "timeout"})])
        assert TABLE.undo_reach(state, "p1").reason == SOMEONE_ELSE
        state = _play(TABLE, state, [("p2", STEP)])
        assert TABLE.undo_reach(state, "p1").reason == SOMEONE_ELSE
        assert TABLE.undo_reach(state, "p2").steps == 1

    def test_a_reveal_ends_the_run_and_a_table_has_no_practice(self):
        state = _play(TABLE, TABLE.new_game(4, ["p1", "p2"], {}), [("p1", STEP), ("p1", DRAW)])
        assert TABLE.undo_reach(state, "p1").reason == "a card was drawn"
        state = TABLE.apply(state, "p1", STEP)
        assert TABLE.undo_reach(state, "p1").steps == 1
        assert not TABLE.undo_reach(state, "p1").practice_offered
        with pytest.raises(IllegalAction, match="Only a game played alone"):
            TABLE.apply(state, "p1", PRACTICE)


def _random_game_with_undos(rules: Rules, seed: int, steps: int) -> None:
    """Random legal play with undos mixed in: each undo lands exactly on the state before the
    move it takes back, and never takes back a move past the seat's horizon."""
    rng = random.Random(seed)
    players = ["p1"] if not rules.table else ["p1", "p2"]
    state = rules.new_game(seed, players, {})
    before: list[dict] = []  # the game part before each move that can still be undone, in order
    for _ in range(steps):
        if rules.result(state) is not None:
            break
        seat = next((p for p in players if rules.legal_actions(state, p)), None)
        if seat is None:
            break
        reach = rules.undo_reach(state, seat)
        assert reach.steps <= len(before)
        if reach.steps and rng.random() < 0.3:
            state = rules.apply(state, seat, {"type": "undo"})
            assert game_part(state) == before.pop()
            continue
        if reach.steps == 0:
            before.clear()
        action = rng.choice(rules.legal_actions(state, seat))
        previous = game_part(state)
        state = rules.apply(state, seat, action)
        before.append(previous)
        if rules.undo_reach(state, seat).steps == 0:
            before.clear()


@pytest.mark.parametrize("slug", rules_engine.available())
def test_every_game_undoes_exactly_and_never_past_the_horizon(slug):
    rules = rules_engine.get(slug)
    for seed in range(3):
        _random_game_with_undos(rules, seed, 150)


@pytest.mark.parametrize("slug", rules_engine.available())
def test_every_game_says_why_it_cannot_undo_at_its_start(slug):
    rules = rules_engine.get(slug)
    players = ["p1"] if not rules.table else ["p1", "p2"]
    reach = rules.undo_reach(rules.new_game(1, players, {}), "p1")
    assert reach.steps == 0 and reach.reason
    assert reach.practice_offered is not rules.table


def test_a_table_dealt_to_one_player_nobody_can_join_is_played_alone():
    alone = TABLE.new_game(4, ["p1"], {})
    assert TABLE.undo_reach(alone, "p1").practice_offered
    state = _play(TABLE, alone, [("p1", PRACTICE), ("p1", DRAW), ("p1", STEP)])
    state = _play(TABLE, state, [("p1", UNDO), ("p1", UNDO)])
    assert game_part(state) == game_part(alone) and is_practice(state)
    joinable = Rules.of(types.SimpleNamespace(**{**vars(TABLE.module), "join_action": {"type": "join"}}))  # type: ignore[arg-type]
    assert not joinable.undo_reach(joinable.new_game(4, ["p1"], {}), "p1").practice_offered
