"""Shuffle and Doom!'s solver (``rules_engine.games.shuffle_and_doom.solver``): its lines win when
the engine plays them, its shortcuts (macro moves, the hand used at once, each room resolved in
one move) lose no win that trying every engine action finds, and what it says from a seat's view
never depends on the hidden cards."""

from __future__ import annotations

import random

import rules_engine
from rules_engine.cards import standard_deck
from rules_engine.games import shuffle_and_doom as sad
from rules_engine.games.shuffle_and_doom import solver
from rules_engine.solving import NO_WIN, UNKNOWN, WIN, Puzzle, hint, odds, solve
from tests.engine.test_shuffle_and_doom import given_state

SEAT = "p1"
RULES = rules_engine.get("shuffle-and-doom")


def deal(seed: int, size: int, **flags: bool) -> dict:
    return RULES.new_game(seed=seed, players=[SEAT], options={"size": size, **flags})


def played(state: dict, line: list[dict]) -> dict:
    for action in solver.engine_actions(line):
        state = RULES.apply(state, SEAT, action)
    return state


def test_the_game_names_its_solver():
    assert RULES.puzzle is solver.PUZZLE


def test_solved_lines_win_when_the_engine_plays_them():
    for size in (4, 6):
        for seed in range(6):
            state = deal(seed, size)
            for puzzle, reasons in ((solver.PUZZLE, {"exited", "cleared"}), (solver.CLEAR_PUZZLE, {"cleared"})):
                verdict = solve(puzzle, state, max_nodes=solver.SOLVE_NODES)
                assert verdict.outcome != UNKNOWN
                if verdict.outcome == WIN:
                    assert RULES.result(played(state, verdict.line))["reason"] in reasons


def test_surviving_is_not_clearing():
    state = deal(26, 6)  # the exit is in reach, but a room on the way to the last one kills
    assert solve(solver.PUZZLE, state, max_nodes=1000).outcome == WIN
    assert solve(solver.CLEAR_PUZZLE, state, max_nodes=1000).outcome == NO_WIN


def test_a_deal_no_line_survives():
    # Red top headers over black side headers fill the whole 4×4 map: one room of 16 cells, with
    # the exit inside it, that draws all thirteen spades against an attack of 3 (or 3 + 4).
    headers = ["2H", "3H", "4H", "5H", "2C", "3C", "4C", "5C"]
    spades = [code for code in standard_deck() if code.endswith("S")]
    deck = headers + spades + [code for code in standard_deck() if code not in headers + spades]
    state = RULES.new_game(seed=1, players=[SEAT], options={"size": 4, "deck": deck})
    assert solve(solver.PUZZLE, state, max_nodes=1000).outcome == NO_WIN
    assert solve(solver.CLEAR_PUZZLE, state, max_nodes=1000).outcome == NO_WIN
    assert solver.best_score(state, 1000) == (0, [], True)


def test_a_budget_that_runs_out_says_unknown():
    state = deal(17, 6)  # clearing it takes a few hundred states
    assert solve(solver.CLEAR_PUZZLE, state, max_nodes=50).outcome == UNKNOWN
    assert solve(solver.CLEAR_PUZZLE, state, max_nodes=5000).outcome == WIN


def test_a_move_of_several_actions_gives_the_states_the_engine_gives():
    kinds: set[str] = set()
    for seed in range(10):
        state = sad.new_game(seed, [SEAT], {"size": 4})  # plain game states: step gives those
        _, line, _ = solver.best_score(state, 2000)
        for move in line:
            actions = solver.engine_actions([move])
            expected = state
            for action in actions:
                expected = sad.apply(expected, SEAT, action)
            state = solver.PUZZLE.step(state, move)
            assert state == expected
            kinds |= {action["type"] for action in actions}
    # The seeds reach every way through a room the solver plans.
    assert {"move", "drink", "read", "attack", "use_trap_opener", "deactivate", "take", "retreat", "exit"} <= kinds


def test_the_trap_opener_is_tried_when_only_it_gets_through_a_room():
    # 9S against attack 3 strikes back for 6 then 3: 9 damage, 8 health. The opener fires 6C (8 -> 2)
    # and takes 9H (drunk: 11); 9S is left at 3 and stunned, and the next blow kills it.
    state = given_state("M1", (3, 3), health=8, draw=["6C", "9S", "9H"], emptied=[(4, 1)])
    verdict = solve(solver.CLEAR_PUZZLE, state, max_nodes=100)
    assert verdict.outcome == WIN
    assert {"type": "use_trap_opener", "card": "9H"} in solver.engine_actions(verdict.line)
    assert RULES.result(played(state, verdict.line))["reason"] == "cleared"


# --- The shortcuts lose nothing: the same answers as trying every engine action -----------------


def _every_action(won) -> Puzzle:
    """Every legal action in a room, drinking and reading at any time; only walking is a macro."""

    def key(state: dict) -> str:
        data = sad.dump(state)
        del data["log"], data["actions"]
        if data["phase"] == "explore":
            data["position"] = min(solver._region(state)[0])
        return repr(data)

    def moves(state: dict) -> list[dict]:
        uses = [a for a in sad.legal_actions(state, SEAT) if a["type"] in ("drink", "read")]
        if state["phase"] != "explore":
            return sad.legal_actions(state, SEAT)
        walks = solver.PUZZLE.moves({**state, "hand": []})
        return walks + uses

    return Puzzle(key=key, moves=moves, step=solver.PUZZLE.step, won=won, over=solver.PUZZLE.over)


def test_the_shortcuts_lose_no_win_that_every_action_finds():
    answers = set()
    rng = random.Random(5)
    for seed in range(4):
        state = deal(seed, 4)
        while state["phase"] != "over":
            if state["phase"] in ("explore", "combat", "traps") and rng.random() < 0.5:
                weak = sad.dump(state)
                weak["stats"]["health"] = rng.randrange(12)
                for puzzle in (solver.PUZZLE, solver.CLEAR_PUZZLE):
                    ours = solve(puzzle, weak, max_nodes=20_000).outcome
                    assert ours == solve(_every_action(puzzle.won), weak, max_nodes=200_000).outcome
                    answers.add(ours)
            state = sad.apply(state, SEAT, rng.choice(sad.legal_actions(state, SEAT)))
    assert answers == {WIN, NO_WIN}


# --- From a seat's view -------------------------------------------------------------------------


def first_decision(seed: int, size: int) -> dict:
    state = RULES.apply(deal(seed, size), SEAT, {"type": "choose_stat_set", "set": "top"})
    while state["phase"] == "assign_diamonds":
        state = RULES.apply(state, SEAT, RULES.legal_actions(state, SEAT)[0])
    return state


def test_determinize_keeps_the_view_and_draws_the_hidden_cards_anew():
    rng = random.Random(3)
    setup = deal(2, 5)
    running = first_decision(2, 5)  # with the undo trail the rules object keeps
    headers_only = ["2H", "3C", "4H", "5C", "6S", "7H", "8D", "9C", "10S", "JH"]
    exhausted = sad.new_game(3, [SEAT], {"size": 5, "deck": headers_only})
    exhausted["draw"], exhausted["returned"], exhausted["exhaustions"] = ["4H", "9C", "JH"], [], 1
    for state in (setup, running, exhausted):
        sample = solver.determinize(state, SEAT, rng)
        assert sad.view(sample, SEAT) == RULES.view(state, SEAT)
        assert sorted(sample["draw"]) == sorted(state["draw"]) and sample["seed"] != state["seed"]
        shown = len(sad.view(state, SEAT)["bottom_headers"])
        assert sample["draw"][len(sample["draw"]) - shown :] == state["draw"][len(state["draw"]) - shown :]
        assert any(solver.determinize(state, SEAT, rng)["draw"] != state["draw"] for _ in range(3))


def test_odds_and_hints_never_depend_on_the_hidden_cards():
    for seed in (0, 26):
        state = first_decision(seed, 6)
        other = solver.determinize(state, SEAT, random.Random(99))  # the same view, other hidden cards
        assert other["draw"] != state["draw"]
        legal = RULES.legal_actions(state, SEAT)
        for puzzle in (solver.PUZZLE, solver.CLEAR_PUZZLE):
            assert odds(puzzle, state, SEAT, samples=4, max_nodes=2000) == odds(
                puzzle, other, SEAT, samples=4, max_nodes=2000
            )
            assert hint(puzzle, state, SEAT, legal, samples=3, max_nodes=2000) == hint(
                puzzle, other, SEAT, legal, samples=3, max_nodes=2000
            )


# --- Best score ---------------------------------------------------------------------------------


def test_the_best_score_is_reached_by_its_line_and_no_solved_line_beats_it():
    for seed in range(4):
        state = deal(seed, 5)
        score, line, proved = solver.best_score(state)
        assert proved and RULES.result(played(state, line))["score"] == score
        cleared = solve(solver.CLEAR_PUZZLE, state, max_nodes=solver.SOLVE_NODES)
        if cleared.outcome == WIN:
            assert RULES.result(played(state, cleared.line))["score"] <= score


def test_the_best_score_within_a_small_budget_is_the_best_found():
    state = deal(1, 8)
    score, line, proved = solver.best_score(state, 3)
    assert not proved and score == 0 and line == []
