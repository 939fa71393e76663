"""Security issue 22, second pass, replays: an import's work is bounded before it is replayed and
never holds the worker's loop; a replay GET rebuilds within the same bounds; the rebuilt
histories are kept by bytes; an import passes the creation form's own checks; and a file that
breaks the JSON reader is a 400 with a sentence."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

import rules_engine
from tests.page import Page
from tests.web.test_dungeon_of_doom_web import Table
from tests.web.test_replays import play_to_the_end
from webapp.domain import history as replays
from webapp.domain.catalog import BY_SLUG, parse_options

DOOM = rules_engine.get("dungeon-of-doom")
PROJECT = Path(__file__).resolve().parents[2]


def open_map(width: int, height: int) -> str:
    grid = ["E" + "G" + "." * (width - 2)] + ["." * width] * (height - 1)
    return "name Wide\nwin 1\n" + "\n".join(grid)


def seats(count: int) -> list[str]:
    return [f"p{number}" for number in range(1, count + 1)]


def doom_file(*, options: dict, players: list[str], actions: list[dict], seed: int = 7) -> dict:
    return {
        "format": replays.EXPORT_FORMAT,
        "version": replays.EXPORT_VERSION,
        "game": "dungeon-of-doom",
        "options": options,
        "seed": seed,
        "players": players,
        "names": {},
        "actions": actions,
    }


def doom_options(map_text: str, table: int = 8) -> dict:
    """What the creation form makes of a pasted map (its own options, as a played game stores them)."""
    return parse_options(
        BY_SLUG["dungeon-of-doom"],
        {"map_choice": "custom", "map_text": map_text, "max_players": str(table), "turn_seconds": "120"},
    )


def upload(client, document=None, *, raw: bytes | None = None):
    client.get("/replays/import")
    body = raw if raw is not None else json.dumps(document).encode()
    # Encoded here: werkzeug's test client spools a body over 500 KB to a file it never closes.
    boundary, encoded = encode_multipart(
        {"csrf_token": client.csrf, "file": FileStorage(io.BytesIO(body), filename="game.json")}
    )
    return client.http.post("/replays", data=encoded, content_type=f"multipart/form-data; boundary={boundary}")


def problem(response) -> str:
    return Page(response.data).text("#import-problem")


def played_doom_moves(players: list[str], options: dict, count: int, seed: int = 7) -> list[tuple[str, dict]]:
    """``count`` legal actions of a Dungeon of Doom game (moves where it can, else the first legal one)."""
    rng = random.Random(seed)
    state = DOOM.new_game(seed, players, options)
    moves = []
    while len(moves) < count and DOOM.result(state) is None:
        seat = state["turn"]["seat"]
        legal = DOOM.legal_actions(state, seat)
        action = rng.choice([a for a in legal if a["type"] == "move"] or [a for a in legal if a["type"] != "leave"])
        moves.append((seat, action))
        state = DOOM.apply(state, seat, action)
    return moves


@pytest.fixture
def finished_export(seat_client, store):
    """A Clear the Dungeon game played to its end through the pages, as its file."""
    client = seat_client()
    client.start("clear-the-dungeon")
    play_to_the_end(client, store, 3)
    return client.http.get(f"/g/{client.game_id}/replay.json").get_json()


@pytest.fixture
def counted_applies():
    """How many times the engine applied a Dungeon of Doom action, from here on (the one Rules
    object every layer holds, frozen: swapped for the test and back)."""
    calls = {"n": 0}
    real = DOOM.apply

    def counting(state, seat, action):
        calls["n"] += 1
        return real(state, seat, action)

    object.__setattr__(DOOM, "apply", counting)
    yield calls
    object.__setattr__(DOOM, "apply", real)


# ---- 2. an import's work is bounded before replaying, and the replay yields ------------------


class TestImportWork:
    def test_a_file_over_the_work_budget_is_refused_before_a_single_action_replays(
        self, seat_client, store, counted_applies
    ):
        """8 seats on a 60 × 60 map (what the form allows) and 20,000 actions: seconds of replay."""
        document = doom_file(
            options=doom_options(open_map(60, 60)),
            players=seats(8),
            actions=[{"seat": "p1", "action": {"type": "end_turn"}}] * replays.IMPORT_MAX_ACTIONS,
        )
        response = upload(seat_client(), document)
        assert response.status_code == 422
        assert "too much to replay" in problem(response)
        assert counted_applies["n"] == 0
        assert store.count_games() == 0

    def test_the_form_largest_game_still_imports_a_long_game(self):
        """The budget is not so small that a real game on the form's largest table cannot import."""
        deal = DOOM.new_game(1, seats(8), doom_options(open_map(60, 60)))
        assert replays.IMPORT_WORK_BUDGET // replays.action_cost(DOOM, deal) >= 2_000

    def test_an_import_past_its_deadline_is_refused(self, finished_export, seat_client, store, monkeypatch):
        monkeypatch.setattr(replays, "IMPORT_SECONDS", 0.0)
        games_before = store.count_games()
        response = upload(seat_client(), finished_export)
        assert response.status_code == 422
        assert "took too long to replay" in problem(response)
        assert store.count_games() == games_before

    def test_a_rebuild_under_gevent_lets_other_greenlets_run(self, tmp_path):
        """The worker is one gevent loop: a replay that never yields freezes every other request.
        A greenlet ticking beside a long rebuild must run while the rebuild is still going."""
        players = seats(4)
        options = doom_options(open_map(30, 20), table=4)
        moves = played_doom_moves(players, options, 1500)
        history_file = tmp_path / "history.json"
        history_file.write_text(json.dumps({"players": players, "options": options, "moves": moves}))
        script = textwrap.dedent(
            f"""
            from gevent import monkey
            monkey.patch_all()
            import json, gevent, rules_engine
            from webapp.domain import history as replays

            data = json.load(open({str(history_file)!r}))
            ticks = []
            seen_mid_rebuild = []

            def ticker():
                while True:
                    ticks.append(1)
                    gevent.sleep(0)

            rules = rules_engine.get("dungeon-of-doom")
            real_apply = rules.apply

            def watching(state, seat, action):
                if ticks:
                    seen_mid_rebuild.append(1)
                return real_apply(state, seat, action)

            object.__setattr__(rules, "apply", watching)
            gevent.spawn(ticker)
            replays.rebuild(rules, 7, data["players"], data["options"], [tuple(m) for m in data["moves"]])
            print(len(seen_mid_rebuild))
            """
        )
        script_file = tmp_path / "rebuild_under_gevent.py"  # a file: gevent's patching trips on "-c" code
        script_file.write_text(script)
        done = subprocess.run(
            [sys.executable, str(script_file)],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=str(PROJECT),
            env={**os.environ, "PYTHONPATH": str(PROJECT)},
        )
        assert done.returncode == 0, done.stderr
        assert int(done.stdout.strip()) > 0


# ---- 3. a replay GET rebuilds within bounds -------------------------------------------------


class TestReplayRebuild:
    def test_a_get_that_rebuilds_an_evicted_game_yields_as_it_goes(
        self, app, seat_client, store, monkeypatch, counted_applies
    ):
        table = Table(app, seat_client, players=2)
        state = table.state()
        while DOOM.result(state) is None:
            seat = state["turn"]["seat"]
            legal = DOOM.legal_actions(state, seat)
            moves = [a for a in legal if a["type"] == "move"]
            action = moves[0] if moves and counted_applies["n"] < 40 else [a for a in legal if a["type"] == "leave"][0]
            assert table.act(seat, action).status_code == 200
            state = table.state()
        monkeypatch.setitem(app.extensions, "delve_histories", replays.Histories())  # evicted, as after 65 imports
        yields = []
        monkeypatch.setattr(replays, "SLICE_WORK", 1)  # a yield after every action
        monkeypatch.setattr(replays, "yield_to_others", lambda: yields.append(1))
        assert seat_client().http.get(f"/g/{table.game_id}/replay").status_code == 200
        assert len(yields) >= len(store.actions(table.game_id)) - 1  # between every two actions

    def test_one_action_of_the_forms_largest_game_fits_in_a_slice(self):
        """Why a rebuild of a game played through the form holds the loop only briefly: its state
        is no larger than the form's limits allow (a 60 × 60 map, 8 seats), so between two yields
        the rebuild does at most a slice of work plus one action."""
        deal = DOOM.new_game(1, seats(8), doom_options(open_map(60, 60)))
        assert replays.action_cost(DOOM, deal) <= replays.SLICE_WORK
        with pytest.raises(rules_engine.InvalidAction, match="up to 3,600 cells"):
            doom_options(open_map(61, 60))

    def test_a_step_is_at_most_a_checkpoints_work_from_a_stored_state(self, counted_applies):
        players = seats(4)
        options = doom_options(open_map(30, 20), table=4)
        moves = played_doom_moves(players, options, 1200)
        history = replays.rebuild(DOOM, 7, players, options, moves)
        most = replays.CHECKPOINT_WORK // replays.action_cost(DOOM, history.state_at(0)) + 1
        for step in range(0, history.steps + 1, 97):
            counted_applies["n"] = 0
            history.state_at(step)
            assert counted_applies["n"] <= most

    def test_simultaneous_gets_of_an_evicted_game_rebuild_it_once(self, app, seat_client, store, monkeypatch):
        client = seat_client()
        client.start("clear-the-dungeon")
        play_to_the_end(client, store, 3)
        monkeypatch.setitem(app.extensions, "delve_histories", replays.Histories())
        real_rebuild = replays.rebuild
        started, release, rebuilds = threading.Event(), threading.Event(), []

        def slow_rebuild(*args, **kwargs):
            rebuilds.append(1)
            started.set()
            release.wait(10)
            return real_rebuild(*args, **kwargs)

        monkeypatch.setattr(replays, "rebuild", slow_rebuild)
        statuses = []

        def watch():
            statuses.append(seat_client().http.get(f"/g/{client.game_id}/replay").status_code)

        first = threading.Thread(target=watch)
        first.start()
        assert started.wait(10)
        others = [threading.Thread(target=watch) for _ in range(3)]
        for thread in others:
            thread.start()
        release.set()
        for thread in [first, *others]:
            thread.join(30)
        assert statuses == [200] * 4
        assert len(rebuilds) == 1


# ---- 4. the cache of histories is bounded by bytes --------------------------------------------


class TestHistoryMemory:
    def test_a_long_games_history_weighs_what_it_holds(self):
        players = seats(4)
        options = doom_options(open_map(30, 20), table=4)
        moves = played_doom_moves(players, options, 1200)
        history = replays.rebuild(DOOM, 7, players, options, moves)
        dumped = len(json.dumps(DOOM.dump(history.state_at(0))))
        assert history.weight >= len(history.checkpoints) * dumped + history.steps * 100

    def test_the_cache_keeps_histories_up_to_its_bytes(self):
        players = seats(4)
        options = doom_options(open_map(30, 20), table=4)
        history = replays.rebuild(DOOM, 7, players, options, played_doom_moves(players, options, 600))
        cache = replays.Histories(size=64, max_bytes=history.weight * 5)
        for index in range(20):
            cache.put(f"g{index}", history)
        assert cache.held_bytes <= history.weight * 5
        assert cache.peek("g19") is history and cache.peek("g0") is None
        tiny = replays.Histories(size=64, max_bytes=history.weight * 2)  # over a quarter: not kept
        tiny.put("heavy", history)
        assert tiny.peek("heavy") is None and tiny.held_bytes == 0


# ---- 5. an import passes the creation form's checks ------------------------------------------


class TestImportValidation:
    def test_a_map_larger_than_the_form_allows_is_refused_with_the_forms_words(self, seat_client, store):
        document = doom_file(options={"map": open_map(100, 100)}, players=["p1"], actions=[])
        response = upload(seat_client(), document)
        assert response.status_code == 400
        assert "up to 3,600 cells" in problem(response)
        assert store.count_games() == 0

    @pytest.mark.parametrize("extra", [{"dice": [4, 4, 4]}, {"start_positions": {"p1": [2, 2]}}])
    def test_the_test_only_options_are_refused(self, seat_client, store, extra):
        options = {**doom_options(open_map(10, 10), table=1), **extra}
        response = upload(seat_client(), doom_file(options=options, players=["p1"], actions=[]))
        assert response.status_code == 400
        assert "options" in problem(response) and store.count_games() == 0

    def test_an_option_the_form_never_offers_is_refused(self, finished_export, seat_client, store):
        games_before = store.count_games()
        finished_export["options"]["shuffle"] = "stacked"
        response = upload(seat_client(), finished_export)
        assert response.status_code == 400 and "options" in problem(response)
        assert store.count_games() == games_before

    @pytest.mark.parametrize("seat", ["p2\u202e", "<script>alert(1)</script>", "P2", "p02", "host"])
    def test_only_the_sites_own_seat_ids_are_seated(self, seat_client, store, seat):
        options = doom_options(open_map(10, 10), table=2)
        response = upload(seat_client(), doom_file(options=options, players=["p1", seat], actions=[]))
        assert response.status_code == 400
        assert "players" in problem(response) and store.count_games() == 0

    def test_a_table_made_by_the_form_still_imports(self, app, seat_client, store):
        table = Table(app, seat_client, players=2)
        state = table.state()
        while DOOM.result(state) is None:
            seat = state["turn"]["seat"]
            legal = DOOM.legal_actions(state, seat)
            assert table.act(seat, [a for a in legal if a["type"] == "leave"][0]).status_code == 200
            state = table.state()
        document = seat_client().http.get(f"/g/{table.game_id}/replay.json").get_json()
        assert document["players"] == ["p1", "p2"]
        response = upload(seat_client(), document)
        assert response.status_code == 303, problem(response)

    def test_a_dungeon_cards_custom_board_round_trips_through_the_form(self):
        entry = BY_SLUG["dungeon-cards"]
        made = parse_options(entry, {"board_size": "custom", "board_width": "14", "board_height": "9"})
        assert replays.form_made_options(entry, made) == made


# ---- 13. files that break the JSON reader -----------------------------------------------------


class TestUnreadableFiles:
    @pytest.mark.parametrize(
        "raw, words",
        [
            (b"[" * 500_000, "nest too deeply"),
            (b'{"format": "delve-game", "version": 1, "seed": ' + b"9" * 5000 + b"}", "number"),
        ],
    )
    def test_a_file_the_json_reader_cannot_hold_is_a_400_with_a_sentence(self, seat_client, raw, words):
        response = upload(seat_client(), raw=raw)
        assert response.status_code == 400
        assert words in problem(response)
