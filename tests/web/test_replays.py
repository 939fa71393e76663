"""Replays of finished games through the routes: steps, views, the log's links, export and
import, and that a running game's replay gives nothing away."""

from __future__ import annotations

import io
import json
import random

import pytest

import rules_engine
from tests.page import Page
from tests.web.test_dungeon_of_doom_web import Table
from webapp.pages.rendering import pretty_cards

SOLO_GAMES = ["shuffle-and-doom", "clear-the-dungeon", "hebracs-dungeon"]


def play_to_the_end(client, store, seed: int = 1, limit: int = 3000, patience: int = 300) -> None:
    """The client's game played through its pages with random legal actions until it is over
    (the way out whenever it is open, and resigning once the walk passes ``patience`` steps where
    the game lets one resign, so every game ends without a Hebrac's Dungeon walk wandering its
    cleared rooms for thousands of requests; the deal is the server's secret one, so the walk
    differs from run to run)."""
    rng = random.Random(seed)
    record = store.load(client.game_id)
    rules = rules_engine.get(record.slug)
    for _ in range(limit):
        record = store.load(client.game_id)
        state = rules.load(record.snapshot)
        if rules.result(state) is not None:
            return
        legal = rules.legal_actions(state, "p1")
        ends = [a for a in legal if a["type"] in ("resign", "give_up", "abandon")]
        ways_out = [a for a in legal if a["type"] == "exit"]
        action = rng.choice(
            ways_out or (ends if ends and _ >= patience else [a for a in legal if a not in ends] or legal)
        )
        client.version = record.version
        assert client.act(action).status_code == 200
    raise AssertionError("the game did not end")


@pytest.fixture
def finished(seat_client, store):
    def make(slug="shuffle-and-doom", seed=3):
        client = seat_client()
        client.start(slug)
        play_to_the_end(client, store, seed)
        return client

    return make


def replay(client, game_id=None, **args):
    query = "&".join(f"{k}={v}" for k, v in args.items())
    return client.http.get(f"/g/{game_id or client.game_id}/replay" + (f"?{query}" if query else ""))


class TestRunningGames:
    @pytest.mark.parametrize("path", ["/replay", "/replay?step=1", "/replay?as=p1", "/replay.json"])
    def test_a_running_games_replay_is_refused_with_a_sentence(self, seat_client, path):
        client = seat_client()
        game_id = client.start("clear-the-dungeon")
        for headers in ({}, {"HX-Request": "true"}):
            response = client.http.get(f"/g/{game_id}{path}", headers=headers)
            assert response.status_code == 409
            assert "still being played" in Page(response.data).text("[role=alert]")
            assert "seed" not in response.get_data(as_text=True).lower()

    def test_a_waiting_table_has_no_replay(self, app, seat_client):
        t = Table(app, seat_client, start=False)
        assert t.host.http.get(f"/g/{t.game_id}/replay").status_code == 409

    def test_a_running_tables_replay_is_refused_to_its_players_and_spectators(self, app, seat_client):
        t = Table(app, seat_client, players=2)
        t.act(t.turn_seat(), {"type": "end_turn"})
        for client in (t.host, t.clients["p2"], seat_client()):
            for path in ("/replay", "/replay?step=1&as=p1", "/replay?seq=2", "/replay.json"):
                response = client.http.get(f"/g/{t.game_id}{path}")
                assert response.status_code == 409
                assert '"terrain"' not in response.get_data(as_text=True)

    def test_an_unknown_game_is_404(self, seat_client):
        assert seat_client().http.get("/g/nothing-here/replay").status_code == 404


class TestSteps:
    @pytest.mark.parametrize("slug", SOLO_GAMES)
    def test_every_step_draws_the_games_own_board_at_that_moment(self, finished, store, slug):
        client = finished(slug)
        steps = len(store.actions(client.game_id))
        for step in sorted({0, 1, steps // 2, steps}):
            page = Page(replay(client, step=step).data)
            assert page.attr("#game", "data-revision") == str(step)
            assert page.text("#replay-counter") == f"Step {step} of {steps}"
            assert page.select("#game form[hx-post], #game button[name=action]") == []  # nothing to press
        last = Page(replay(client, step=steps).data)
        assert last.select("#replay-next[aria-disabled=true]") and last.select("#replay-previous[href]")

    def test_the_step_links_walk_one_step_at_a_time(self, finished):
        client = finished()
        page = Page(replay(client, step=1).data)
        assert page.attr("#replay-next", "href").endswith("step=2")
        assert page.attr("#replay-previous", "href").endswith("step=0")
        assert page.attr("#replay-first", "href").endswith("step=0")

    def test_a_step_past_the_end_shows_the_end_and_a_bad_step_is_400(self, finished, store):
        client = finished()
        steps = len(store.actions(client.game_id))
        assert Page(replay(client, step=99999).data).attr("#game", "data-revision") == str(steps)
        for bad in ("-1", "two", "1e3", "9" * 12):
            assert replay(client, step=bad).status_code == 400

    def test_an_htmx_step_answers_the_replay_block_alone(self, finished):
        client = finished()
        response = client.http.get(f"/g/{client.game_id}/replay?step=1", headers={"HX-Request": "true"})
        body = response.get_data(as_text=True)
        assert body.lstrip().startswith('<div id="replay"') and "<html" not in body

    def test_each_log_line_opens_the_step_it_happened_at(self, finished, store):
        client = finished()
        page = Page(replay(client).data)
        links = page.select(".replay-log li a")
        assert len(links) > 3
        rules = rules_engine.get("shuffle-and-doom")
        record = store.load(client.game_id)
        moves = store.actions(client.game_id)
        for link in links[:: max(1, len(links) // 6)]:
            opened = client.http.get(link["href"])
            assert opened.status_code == 303 and "?step=" in opened.headers["Location"]
            step = int(opened.headers["Location"].rsplit("step=", 1)[1])
            text = link.get_text(" ", strip=True)
            seq = int(link["href"].rsplit("seq=", 1)[1])
            state = rules.new_game(record.seed, record.players, record.options)
            for _seq, seat, action in moves[:step]:
                state = rules.apply(state, seat, action)
            assert any(e["seq"] == seq and _same(text, e["text"]) for e in rules.full_view(state)["log"])
            if step:  # a step earlier the line had not happened yet
                before = rules.new_game(record.seed, record.players, record.options)
                for _seq, seat, action in moves[: step - 1]:
                    before = rules.apply(before, seat, action)
                assert all(e["seq"] < seq for e in rules.full_view(before)["log"])
            shown = Page(client.http.get(opened.headers["Location"]).data)
            assert text in shown.texts(".replay-log li.now a")
        htmx = client.http.get(links[-1]["href"], headers={"HX-Request": "true"})
        assert htmx.status_code == 200 and "?step=" in htmx.headers["HX-Push-Url"]
        assert client.http.get(f"/g/{client.game_id}/replay?seq=x").status_code == 400


def _same(shown: str, logged: str) -> bool:
    """A log line as the page shows it (card codes drawn as symbols) against the engine's text."""
    return Page(f"<p>{pretty_cards(logged)}</p>").text("p") == " ".join(shown.split())


class TestViews:
    def test_a_table_replay_offers_everything_and_each_seats_view(self, app, seat_client):
        t = Table(app, seat_client, players=2)
        state = t.state()
        rules = rules_engine.get("dungeon-of-doom")
        acted = 0
        while rules.result(state) is None:
            seat = state["turn"]["seat"]
            legal = rules.legal_actions(state, seat)
            moves = [a for a in legal if a["type"] == "move"]
            leave = [a for a in legal if a["type"] == "leave"]
            action = moves[acted % len(moves)] if moves and acted < 8 else (leave or legal)[0]
            assert t.act(seat, action).status_code == 200
            acted += 1
            state = t.state()
        watcher = seat_client()
        page = Page(replay(watcher, t.game_id).data)
        assert page.texts(".replay-views a") == ["Everything", "Ann", "Bob"]
        assert page.select(".replay-views a[aria-current]")[0].get_text(strip=True) == "Everything"
        # Everything: the whole map at each step, every token, and each seat's path so far.
        steps = len(t.store.actions(t.game_id))
        everything = Page(replay(watcher, t.game_id, step=steps).data)
        assert len(everything.select("svg.dungeon polyline.trail")) == 2
        assert everything.texts(".trail-legend li")[0].startswith("Ann's path")
        walked = [int(text.rsplit("(", 1)[1].split()[0]) for text in everything.texts(".trail-legend li")]
        assert max(walked) > 1  # somebody moved: a path of several squares
        assert Page(replay(watcher, t.game_id, step=0).data).select("svg.dungeon g.player")
        as_bob = Page(replay(watcher, t.game_id, step=0, **{"as": "p2"}).data)
        assert as_bob.select("polyline.trail") == []
        assert "only what they could see" in as_bob.text("#replay-note")
        assert replay(watcher, t.game_id, **{"as": "p9"}).status_code == 400


class TestExportAndImport:
    def _import(self, client, document, *, raw=None):
        client.get("/replays/import")
        data = {
            "csrf_token": client.csrf,
            "file": (io.BytesIO(raw if raw is not None else json.dumps(document).encode()), "game.json"),
        }
        return client.http.post("/replays", data=data, content_type="multipart/form-data")

    def test_a_finished_game_exports_and_imports_into_the_same_game(self, finished, seat_client, store):
        client = finished("clear-the-dungeon")
        response = client.http.get(f"/g/{client.game_id}/replay.json")
        assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
        document = response.get_json()
        assert document["game"] == "clear-the-dungeon" and len(document["actions"]) == len(
            store.actions(client.game_id)
        )
        other = seat_client()
        imported = self._import(other, document)
        assert imported.status_code == 303
        new_id = imported.headers["Location"].split("/g/")[1].split("/")[0]
        assert new_id != client.game_id
        original, copy = store.load(client.game_id), store.load(new_id)
        assert copy.status == "finished" and copy.snapshot == original.snapshot and copy.result == original.result
        assert [a[1:] for a in store.actions(new_id)] == [a[1:] for a in store.actions(client.game_id)]
        assert other.http.get(imported.headers["Location"]).status_code == 200
        # An imported game is watched, never played: nobody holds its seat.
        assert other.http.get(f"/g/{new_id}").status_code == 200
        assert "Play the same deal again" not in other.http.get(f"/g/{new_id}").get_data(as_text=True)

    def test_a_file_that_does_not_replay_is_refused_naming_the_first_bad_action(self, finished, seat_client):
        client = finished()
        document = client.http.get(f"/g/{client.game_id}/replay.json").get_json()
        document["actions"][2]["action"] = {"type": "move", "dir": "nowhere"}
        response = self._import(seat_client(), document)
        assert response.status_code == 400
        assert Page(response.data).text("#import-problem").startswith("Action 3 (")

    def test_an_unfinished_history_is_refused(self, finished, seat_client):
        client = finished()
        document = client.http.get(f"/g/{client.game_id}/replay.json").get_json()
        document["actions"] = document["actions"][:-1]
        response = self._import(seat_client(), document)
        assert response.status_code == 400 and "not over" in Page(response.data).text("#import-problem")

    @pytest.mark.parametrize(
        "raw, words",
        [
            (b"\xff\xfe not text", "not JSON"),
            (b"{not json", "not JSON"),
            (b'{"format": "something-else"}', "not a Delve replay file"),
            (b'{"format": "delve-game", "version": 1, "game": "chess"}', "game Delve does not have"),
            (
                b'{"format": "delve-game", "version": 1, "game": "shuffle-and-doom", "seed": "x", '
                b'"players": ["p1"], "options": {}, "actions": []}',
                "seed",
            ),
        ],
    )
    def test_malformed_files_get_a_readable_400(self, seat_client, raw, words):
        response = self._import(seat_client(), None, raw=raw)
        assert response.status_code == 400 and words in Page(response.data).text("#import-problem")

    def test_import_needs_the_form_token(self, seat_client):
        client = seat_client()
        response = client.http.post(
            "/replays",
            data={"file": (io.BytesIO(b"{}"), "game.json")},
            content_type="multipart/form-data",
        )
        assert response.status_code in (400, 403)
