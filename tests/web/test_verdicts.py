"""A finished solo game's verdict on its deal (webapp/domain/verdicts.py): queued by the action that
ends the game, worked out by the solver's job (run here in-process), shown on the end page and in
the replays. The Puzzle is the test's own, over Clear the Dungeon's real states: resigning before
any card is played "wins", so every deal can be won by one move, and any card played loses it."""

from __future__ import annotations

import re

import pytest

import rules_engine
from rules_engine.solving import Puzzle
from rules_engine.undo import game_part
from webapp.domain import play, solver_jobs, verdicts

SLUG = "clear-the-dungeon"
RESIGN = {"type": "resign"}
RULES = rules_engine.get(SLUG)


def _won(state) -> bool:
    return state["status"] == "resigned" and not any(slot and slot.get("attack") for slot in state["dungeon"].values())


def _resign_first_puzzle(*, moves=lambda state: [RESIGN]) -> Puzzle:
    return Puzzle(
        key=lambda state: (state["status"], len(state["log"])),
        moves=moves,
        step=lambda state, action: game_part(RULES.apply(game_part(state), "p1", action)),
        won=_won,
        over=lambda state: state["status"] != "playing",
        # Every deal drawn from the view is the deal itself: the odds are the truth, 100 % or 0 %.
        determinize=lambda state, _seat, _rng: game_part(state),
    )


@pytest.fixture
def puzzle(monkeypatch):
    """Clear the Dungeon's Puzzle is the test's own while the test runs (``set`` changes it)."""
    original = RULES.puzzle

    def set_puzzle(made: Puzzle) -> None:
        object.__setattr__(RULES, "puzzle", made)

    set_puzzle(_resign_first_puzzle())
    monkeypatch.setattr(verdicts, "budgets", lambda slug: verdicts.Budgets(solve_nodes=50, sample_nodes=20, samples=3))
    yield set_puzzle
    set_puzzle(original)


def _play_one_card_and_resign(client) -> tuple[str, dict, str]:
    game_id = client.start(SLUG)
    assert "Working out" not in client.get(f"/g/{game_id}").get_data(as_text=True)
    game = play.load_game(client.app.extensions["delve_store"], game_id)
    card = next(a for a in RULES.legal_actions(game.state, "p1") if a["type"] == "play")
    label = RULES.action_label(game.state, card)
    assert client.act(card).status_code == 200
    return game_id, card, label


def _finish(client):
    response = client.act(RESIGN)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_the_action_that_ends_a_solo_game_queues_its_verdict_and_none_is_queued_before(store, seat_client, puzzle):
    client = seat_client()
    game_id, _card, _label = _play_one_card_and_resign(client)
    assert solver_jobs.latest(store, game_id, "verdict") is None  # the game runs: nothing is judged
    end = _finish(client)
    job = solver_jobs.latest(store, game_id, "verdict")
    assert job is not None and job.status == solver_jobs.QUEUED
    assert "Working out whether this deal could be won…" in end
    assert 'hx-trigger="every 2s"' in end
    # Asking again (the page, the fragment) queues nothing more.
    assert client.get(f"/g/{game_id}/verdict").status_code == 200
    assert solver_jobs.latest(store, game_id, "verdict").id == job.id


def test_the_verdict_says_the_deal_could_be_won_where_it_was_lost_and_the_odds(store, seat_client, puzzle):
    client = seat_client()
    game_id, _card, label = _play_one_card_and_resign(client)
    _finish(client)
    done = solver_jobs.run_next(store, owner="test")
    assert done is not None and done.status == solver_jobs.DONE
    verdict = done.result
    assert verdict["outcome"] == "win" and verdict["line"] == [RESIGN]
    assert verdict["lost"] == {"step": 1, "from_step": 0, "label": label}
    assert verdict["odds"]["start"] == {"winnable": 3, "answered": 3, "samples": 3}
    assert verdict["odds"]["lost"] == {"winnable": 3, "answered": 3, "samples": 3}  # as it stood before move 1

    # The winning line is a finished, watch-only game on the same deal that the line wins.
    line = store.load(verdict["line_game"])
    source = store.load(game_id)
    assert (line.status, line.seed, line.options, line.lobby) == (
        "finished",
        source.seed,
        source.options,
        {"imported": True, "line_of": game_id},
    )
    assert [action for _seq, _seat, action in store.actions(line.id)] == [RESIGN]

    section = client.get(f"/g/{game_id}/verdict").get_data(as_text=True)
    assert "hx-trigger" not in section  # done: the section stops asking
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    for said in (section, page):
        assert "This deal could be won." in said
        assert f'href="/g/{line.id}/replay"' in said and "Watch a winning line" in said
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", said))
        assert "Your game could still be won until move 1 (" in text
        assert f'href="/g/{game_id}/replay?step=1"' in said
        assert "From what you could see at the start, 100 % of deals like this could be won; at move 1, 100 %." in text

    line_replay = client.get(f"/g/{line.id}/replay").get_data(as_text=True)
    assert "<h1>A winning line for Clear the Dungeon's deal</h1>" in line_replay
    own_replay = client.get(f"/g/{game_id}/replay").get_data(as_text=True)
    assert 'id="replay-lost"' in own_replay and 'list="replay-marks"' in own_replay
    assert "lost-here" in own_replay and "From this move on, no line won the deal." in own_replay


def test_an_onlooker_reads_the_verdict_in_the_third_person(store, seat_client, puzzle):
    client = seat_client()
    game_id, _card, _label = _play_one_card_and_resign(client)
    _finish(client)
    solver_jobs.run_next(store, owner="test")
    onlooker = seat_client().get(f"/g/{game_id}/verdict").get_data(as_text=True)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", onlooker))
    assert "The deal" in text and "The game could still be won until move 1" in text
    assert "From what the player could see at the start" in text


def test_a_deal_with_no_line_and_a_search_out_of_budget(store, seat_client, puzzle, monkeypatch):
    puzzle(_resign_first_puzzle(moves=lambda state: []))
    client = seat_client()
    no_win, _card, _label = _play_one_card_and_resign(client)
    _finish(client)
    assert solver_jobs.run_next(store, owner="test").result["lost"] is None
    assert "No line survives this deal." in client.get(f"/g/{no_win}/verdict").get_data(as_text=True)

    puzzle(_resign_first_puzzle(moves=lambda state: [{"type": "end_turn"}, RESIGN]))
    monkeypatch.setattr(verdicts, "budgets", lambda slug: verdicts.Budgets(solve_nodes=1, sample_nodes=1, samples=2))
    other = seat_client()
    unknown, _card, _label = _play_one_card_and_resign(other)
    _finish(other)
    verdict = solver_jobs.run_next(store, owner="test").result
    assert verdict["outcome"] == "unknown" and verdict["line_game"] is None
    section = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", other.get(f"/g/{unknown}/verdict").get_data(as_text=True)))
    assert "Unknown: the search stopped after 1 positions." in section


def test_a_full_queue_takes_no_verdict_and_the_page_says_the_server_is_busy(app, store, seat_client, puzzle):
    app.config["SOLVER_QUEUE_MAX"] = 1  # what pages read; the writer was given it when the app was made
    (queue,) = [w for w in app.extensions["delve_service"].writers if isinstance(w, verdicts.VerdictQueue)]
    queue.limit = 1
    first = seat_client()
    first_game, _card, _label = _play_one_card_and_resign(first)
    _finish(first)
    second = seat_client()
    second_game, _card, _label = _play_one_card_and_resign(second)
    end = _finish(second)  # the action lands; only its verdict waits
    assert solver_jobs.latest(store, second_game, "verdict") is None
    assert "The server is busy" in end
    # Once the verdict ahead is done, the page queues this game's own.
    assert solver_jobs.run_next(store, owner="test").game_id == first_game
    assert "Working out whether" in second.get(f"/g/{second_game}").get_data(as_text=True)
    assert solver_jobs.latest(store, second_game, "verdict").status == solver_jobs.QUEUED


def test_a_running_game_has_no_verdict_and_other_games_get_none(store, seat_client, puzzle):
    client = seat_client()
    game_id, _card, _label = _play_one_card_and_resign(client)
    assert client.get(f"/g/{game_id}/verdict").status_code == 409
    assert not verdicts.judged("dungeon-cards", {})
    assert not verdicts.judged(SLUG, {"imported": True})
    assert verdicts.judged(SLUG, {})


def test_a_daily_deals_verdict_links_no_replay_and_its_line_opens_when_the_day_ends(store, seat_client, puzzle, clock):
    import datetime as dt

    from sqlalchemy import insert

    from webapp.domain import deals
    from webapp.storage.schema import deal_attempts

    client = seat_client()
    game_id, _card, _label = _play_one_card_and_resign(client)
    with store.engine.begin() as conn:  # the game is an attempt on today's deal
        deal = deals.daily_deal(SLUG, clock["today"])
        conn.execute(
            insert(deal_attempts).values(game_id=game_id, deal=deal, browser="b", ranked=1, created_at=0.0, origin="o")
        )
    _finish(client)
    line_game = solver_jobs.run_next(store, owner="test").result["line_game"]
    section = client.get(f"/g/{game_id}/verdict").get_data(as_text=True)
    assert "This deal could be won." in section and "/replay" not in section
    assert client.get(f"/g/{line_game}/replay").status_code == 409
    assert seat_client().get(f"/g/{line_game}").status_code == 403  # its page shows the deal too
    clock["today"] += dt.timedelta(days=1)
    assert client.get(f"/g/{line_game}/replay").status_code == 200
    assert f'href="/g/{line_game}/replay"' in client.get(f"/g/{game_id}/verdict").get_data(as_text=True)


def test_a_real_clear_the_dungeon_deal_won_by_its_line_and_lost_where_the_player_resigned(
    store, seat_client, monkeypatch
):
    """Clear the Dungeon's own solver on a deal known to be winnable (its web tests' line A): after
    the line's first move the player resigns; the winning line replays to a cleared dungeon. (Its
    own budgets, but two sampled deals for the odds: the test is about the verdict.)"""
    from tests.web.test_clear_the_dungeon_web import LINE_A_DECK

    if RULES.puzzle is None:
        pytest.skip("Clear the Dungeon declares no solver")
    own = verdicts.budgets(SLUG)
    monkeypatch.setattr(verdicts, "budgets", lambda slug: verdicts.Budgets(own.solve_nodes, own.sample_nodes, 2))
    client = seat_client()
    game_id = client.start(SLUG, deck=LINE_A_DECK)
    game = play.load_game(store, game_id)
    joker = next(a for a in RULES.legal_actions(game.state, "p1") if a.get("card") == "JK" and a["target"] == "r7c2")
    client.act(joker)
    _finish(client)
    verdict = solver_jobs.run_next(store, owner="test").result
    assert verdict["outcome"] == "win"
    assert verdict["lost"] == {"step": 2, "from_step": 1, "label": "Resign"}
    line = store.load(verdict["line_game"])
    assert line.result["winners"] == ["p1"]


def test_a_move_taken_back_is_not_where_the_game_was_lost(store, seat_client, puzzle):
    """The verdict follows the moves that stand at the end: a card played and undone lost nothing;
    the card played after the undo did (log step 3)."""
    client = seat_client()
    game_id, card, label = _play_one_card_and_resign(client)
    assert client.act({"type": "undo"}).status_code == 200
    assert client.act(card).status_code == 200
    _finish(client)
    verdict = solver_jobs.run_next(store, owner="test").result
    assert verdict["lost"] == {"step": 3, "from_step": 2, "label": label}


def test_a_solvers_macro_moves_are_spelled_out_as_the_engines_actions(store, seat_client, puzzle, monkeypatch):
    """A solver may join actions into a move of its own (Shuffle and Doom!'s walks): the line
    stored, and the winning line's game, are the engine's actions (its ``engine_actions``)."""
    import dataclasses
    import types

    plain = _resign_first_puzzle()
    puzzle(
        dataclasses.replace(
            plain,
            moves=lambda state: [{"type": "steps", "actions": [RESIGN]}],
            step=lambda state, move: plain.step(state, move["actions"][0] if move["type"] == "steps" else move),
        )
    )
    spelled = types.SimpleNamespace(engine_actions=lambda line: [a for move in line for a in move["actions"]])
    monkeypatch.setattr(verdicts, "solver_module", lambda slug: spelled)
    client = seat_client()
    _play_one_card_and_resign(client)
    _finish(client)
    verdict = solver_jobs.run_next(store, owner="test").result
    assert verdict["line"] == [RESIGN]
    assert [action for _seq, _seat, action in store.actions(verdict["line_game"])] == [RESIGN]
