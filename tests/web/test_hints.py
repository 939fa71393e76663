"""Hints that never peek (issue 27, item 5): a solo game's Hint button queues a job for the
background solver (run here in-process, ``solver_jobs.run_next``); the page shows "Thinking…" and
polls until the hint is there, then the move in words with the counts it rests on, its button
highlighted. The hint is computed from the seat's view alone: changing the hidden cards of the
running game (keeping the view) changes nothing. Asking makes the game *assisted*: never ranked
(deals, the browser's record, the Hall of Fame), and its end and ranking rows say so; a ranked
attempt offers no hints and refuses one."""

from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest
from sqlalchemy import select, update
from werkzeug.datastructures import MultiDict

import rules_engine
from rules_engine import solving
from tests.engine.test_loss_warnings import ctd_hidden_changed, hd_hidden_changed, sad_hidden_changed
from tests.helpers.web import at_address
from tests.page import Page
from tests.web.test_deals import challenge_from, take
from tests.web.test_dungeon_cards_web import Table as DungeonCardsTable
from tests.web.test_hostile_pass2_rankings import fame_entry
from tests.web.test_practice import browsers_key, resign
from webapp.domain import browsers, deals, hall_of_fame, hints, play, solver_jobs
from webapp.domain.catalog import BY_SLUG, parse_options
from webapp.pages.presenters import clear_the_dungeon as ctd_presenter
from webapp.pages.viewer import SEAT_COOKIE_NAME as COOKIE_NAME
from webapp.storage.schema import games
from webapp.storage.schema import solver_jobs as jobs_table

SLUG = "shuffle-and-doom"
GIVES_UP = "clear-the-dungeon"
"""A solo game its player can end at once (a resignation), for the tests of finished games."""
CHANGERS = {
    "shuffle-and-doom": sad_hidden_changed,
    "clear-the-dungeon": ctd_hidden_changed,
    "hebracs-dungeon": hd_hidden_changed,
}
SMALL_BUDGET = (4, 400)
"""Sampled deals and nodes per sample for the games whose own budget takes seconds per hint."""
GAME_SEED, HINT_SEED = 14, 7
"""A deal and samples on which a hint that read the hidden cards' true order would differ."""


def same_each_time(body: str) -> str:
    """A page without what differs from one request to the next: the script nonce, and the
    viewer ticket, which is signed with the second it was made (two reads a second apart differ)."""
    body = re.sub(r'data-viewer="[^"]*"', 'data-viewer=""', body)
    return re.sub(r'nonce="[^"]*"', 'nonce=""', body)


def assisted(store, game_id) -> int:
    with store.engine.connect() as conn:
        return conn.execute(select(games.c.assisted).where(games.c.id == game_id)).scalar_one()


def hint_jobs(store, game_id) -> list:
    with store.engine.connect() as conn:
        return conn.execute(select(jobs_table).where(jobs_table.c.game_id == game_id)).all()


def ask(client, *, version=None, htmx=False, csrf=None):
    return client.http.post(
        f"/g/{client.game_id}/hint",
        data={
            "csrf_token": client.csrf if csrf is None else csrf,
            "version": str(client.version if version is None else version),
        },
        headers={"HX-Request": "true"} if htmx else {},
    )


def poll(client, version: int):
    return client.http.get(f"/g/{client.game_id}/hint?version={version}", headers={"HX-Request": "true"})


def run_jobs(store) -> None:
    """The background worker's work, in-process: every queued job run."""
    while solver_jobs.run_next(store, owner="test") is not None:
        pass


def seated(seat_client, store, slug: str, seed: int, form: dict):
    """A client seated in a new solo game dealt from ``seed`` (the creation form draws its own)."""
    client = seat_client()
    client.get("/")
    game_id, token = play.start_game(store, slug, parse_options(BY_SLUG[slug], MultiDict(form)), seed=seed)
    client.http.set_cookie(COOKIE_NAME, token, path=f"/g/{game_id}")
    client.watch(game_id)
    return client


def play_moves(client, store, moves: int, seed: int = 1) -> None:
    """``moves`` random legal moves (never a resignation) through the action route."""
    rng = random.Random(seed)
    for _ in range(moves):
        game = play.load_game(store, client.game_id)
        if game.record.status != "running":
            return
        legal = [a for a in game.rules.legal_actions(game.state, "p1") if a["type"] != "resign"]
        client.version = game.version
        assert client.act(rng.choice(legal)).status_code == 200


class TestThePage:
    def test_the_button_says_what_it_costs_posts_plainly_and_has_its_key(self, seat_client):
        client = seat_client()
        game_id = client.start(SLUG, size="5")
        page = Page(client.get(f"/g/{game_id}").data)
        button = page.one("#hint-button")
        assert page.text("#hint-button") == "Hint (this game will not be ranked) H"
        assert button["data-key"] == play.HINT_KEY and button["aria-keyshortcuts"] == "H"
        assert page.attr("#hint form", "method") == "post" and page.attr("#hint form", "action") == f"/g/{game_id}/hint"
        fields = {tag["name"]: tag.get("value") for tag in page.select("#hint form [name]")}
        assert fields["version"] == "0" and fields["csrf_token"]
        # No other button takes H; a spectator sees no hint area.
        assert [b for b in page.select("button[data-key=h]")] == [button]
        assert Page(seat_client().get(f"/g/{game_id}").data).select("#hint") == []

    def test_a_practice_games_button_does_not_warn_of_a_ranking_it_has_not(self, seat_client):
        client = seat_client()
        game_id = client.start(SLUG, size="5")
        assert client.act({"type": "practice"}).status_code == 200
        assert Page(client.get(f"/g/{game_id}").data).text("#hint-button") == "Hint H"

    def test_clear_the_dungeons_monster_letters_leave_h_to_the_hint(self):
        assert play.HINT_KEY not in ctd_presenter.MONSTER_KEYS

    def test_a_plain_post_queues_the_hint_and_the_page_shows_it_after_a_reload(self, seat_client, store):
        client = seat_client()
        game_id = client.start(SLUG, size="5")
        response = ask(client)
        assert response.status_code == 303 and response.headers["Location"].endswith(f"/g/{game_id}")
        assert assisted(store, game_id) == 1
        waiting = Page(client.get(f"/g/{game_id}").data)
        assert waiting.text("#hint-text") == "Thinking…"
        assert waiting.text("#hint-button") == "Hint H" and waiting.attr("#hint-button", "disabled") is not None
        run_jobs(store)
        page = Page(client.get(f"/g/{game_id}").data)
        (job,) = hint_jobs(store, game_id)
        result = json.loads(job.result)
        assert result["move"] is not None and page.text("#hint-text") == result["text"]
        assert f"in {result['wins']} of {result['answered']} likely decks it keeps you alive" in result["text"]
        assert result["text"].startswith(result["label"])
        (hinted,) = page.select("button.hinted")
        assert json.loads(hinted["value"]) == result["move"] and hinted["aria-describedby"] == "hint-text"
        assert page.select(".assisted-tag")

    def test_with_htmx_the_area_polls_until_the_hint_is_there(self, seat_client, store):
        client = seat_client()
        game_id = client.start(SLUG, size="5")
        thinking = Page(ask(client, htmx=True).data)
        assert thinking.attr("#hint", "hx-get") == f"/g/{game_id}/hint?version=0"
        assert thinking.attr("#hint", "hx-target") == "#game" and "load" in thinking.attr("#hint", "hx-trigger")
        assert Page(poll(client, 0).data).text("#hint-text") == "Thinking…"
        run_jobs(store)
        answered = Page(poll(client, 0).data)
        assert answered.attr("#hint", "hx-get") is None  # done: no more polling
        assert answered.select("button.hinted") and "likely decks" in answered.text("#hint-text")

    def test_asking_again_at_the_same_version_is_the_same_job(self, seat_client, store):
        client = seat_client()
        client.start(SLUG, size="5")
        assert ask(client).status_code == 303 and ask(client).status_code == 303
        assert len(hint_jobs(store, client.game_id)) == 1

    def test_a_page_that_waited_over_three_seconds_says_there_is_no_hint_in_time(self, seat_client, store):
        client = seat_client()
        game_id = client.start(SLUG, size="5")
        ask(client)
        with store.engine.begin() as conn:  # asked a while ago; the worker has not got to it
            conn.execute(update(jobs_table).values(created_at=jobs_table.c.created_at - hints.PATIENCE_SECONDS - 1))
        page = Page(poll(client, 0).data)
        assert page.text("#hint-text") == hints.BUSY and page.attr("#hint", "hx-get") is None
        assert game_id

    def test_a_move_after_the_hint_leaves_it_behind(self, seat_client, store):
        client = seat_client()
        game_id = client.start(SLUG, size="5")
        ask(client)
        run_jobs(store)
        play_moves(client, store, 1)
        page = Page(client.get(f"/g/{game_id}").data)
        assert page.select("#hint-text") == [] and page.select("button.hinted") == []
        assert page.text("#hint-button") == "Hint H"  # assisted already: no warning any more


def test_the_solver_worker_imports_the_hint_runner():
    """The worker process registers the kinds it runs by importing ``KIND_MODULES``."""
    assert hints.__name__ in solver_jobs.KIND_MODULES and solver_jobs.KINDS[hints.KIND] is hints.run_hint


class TestRefusals:
    def test_only_the_seats_player_may_ask_or_poll(self, seat_client, store):
        client = seat_client()
        game_id = client.start(SLUG, size="5")
        other = seat_client()
        other.watch(game_id)
        other.game_id = game_id
        assert ask(other, version=0).status_code == 403
        assert poll(other, 0).status_code == 403
        assert assisted(store, game_id) == 0 and hint_jobs(store, game_id) == []

    def test_a_stale_version_answers_409_with_the_board_as_it_stands(self, seat_client, store):
        client = seat_client()
        game_id = client.start(SLUG, size="5")
        play_moves(client, store, 1)
        stale = ask(client, version=0, htmx=True)
        assert stale.status_code == 409 and "moved on" in Page(stale.data).text("#flash")
        assert poll(client, 0).status_code == 409
        assert assisted(store, game_id) == 0 and hint_jobs(store, game_id) == []

    @pytest.mark.parametrize("version", ["", "x", "-1", "9" * 12])
    def test_an_unreadable_version_is_400(self, seat_client, store, version):
        client = seat_client()
        client.start(SLUG, size="5")
        assert ask(client, version=version).status_code == 400
        assert assisted(store, client.game_id) == 0

    def test_without_the_csrf_token_nothing_is_asked(self, seat_client, store):
        client = seat_client()
        client.start(SLUG, size="5")
        assert ask(client, csrf="nope").status_code == 400
        assert assisted(store, client.game_id) == 0 and hint_jobs(store, client.game_id) == []

    def test_a_ranked_attempt_shows_no_button_and_is_refused_422(self, seat_client, store, clock):
        ann = seat_client()
        game_id = take(ann, f"/daily/{SLUG}", name="Ann")
        assert Page(ann.get(f"/g/{game_id}").data).select("#hint") == []
        refused = ask(ann, version=0)
        assert refused.status_code == 422 and hints.RANKED_NO_HINTS in Page(refused.data).text("main")
        assert assisted(store, game_id) == 0 and hint_jobs(store, game_id) == []

    def test_a_game_without_a_solver_is_refused_422_and_a_finished_one_409(self, app, seat_client, store):
        table = DungeonCardsTable(app, seat_client)  # Dungeon Cards alone: no solver
        table.host.game_id = table.game_id
        assert ask(table.host, version=store.load(table.game_id).version).status_code == 422
        client = seat_client()
        client.start(GIVES_UP)
        resign(client, store)
        finished = store.load(client.game_id)
        assert ask(client, version=finished.version).status_code == 409
        assert Page(client.get(f"/g/{client.game_id}").data).select("#hint") == []
        assert assisted(store, client.game_id) == 0


class TestNeverPeeks:
    @pytest.mark.parametrize(
        "slug",
        [
            "clear-the-dungeon",
            "hebracs-dungeon",
            "shuffle-and-doom",
        ],
    )
    def test_changing_the_hidden_cards_keeping_the_view_changes_no_hint(self, seat_client, store, monkeypatch, slug):
        if slug != SLUG:
            monkeypatch.setattr(hints, "budgets", lambda _rules: SMALL_BUDGET)
        # The deal and the samples fixed, so that every run asks the same question; and no page
        # turns "Thinking…" into "busy" between the two reads, however slow the machine.
        monkeypatch.setattr(hints, "hint_seed", lambda _game_id, _version: HINT_SEED)
        monkeypatch.setattr(hints, "PATIENCE_SECONDS", 3600.0)
        client = seated(seat_client, store, slug, GAME_SEED, {"size": "5"} if slug == SLUG else {})
        game_id = client.game_id
        play_moves(client, store, 4, seed=2)
        client.version = store.load(game_id).version
        assert ask(client).status_code == 303
        (job_row,) = hint_jobs(store, game_id)
        job = solver_jobs.job(store, job_row.id)
        first = hints.run_hint(store, job)
        assert first["answered"] > 0
        pages = [f"/g/{game_id}", f"/g/{game_id}/board", f"/g/{game_id}/hint?version={client.version}"]
        seen = [same_each_time(client.get(path).get_data(as_text=True)) for path in pages]
        assert all("Thinking" in body for body in seen)
        record = store.load(game_id)
        rules = rules_engine.get(slug)
        state = rules.load(record.snapshot)
        changed = CHANGERS[slug](state)
        assert changed != state and rules.view(changed, "p1") == rules.view(state, "p1")
        with store.engine.begin() as conn:
            conn.execute(update(games).where(games.c.id == game_id).values(snapshot=json.dumps(rules.dump(changed))))
        monkeypatch.setattr(play, "loaded_states", play.LoadedStates())  # read the stored state again
        assert play.load_game(store, game_id).state == rules.load(rules.dump(changed))
        assert hints.run_hint(store, job) == first
        # Every page and fragment the player is sent is the same too: nothing hangs on the hidden cards.
        assert [same_each_time(client.get(path).get_data(as_text=True)) for path in pages] == seen

    def test_the_same_question_gets_the_same_answer_from_the_game_and_version_alone(self):
        assert hints.hint_seed("abc", 3) == hints.hint_seed("abc", 3)
        assert len({hints.hint_seed("abc", 3), hints.hint_seed("abc", 4), hints.hint_seed("abd", 3)}) == 3


class TestBudget:
    def test_the_hint_searches_within_its_node_budget(self, seat_client, store, monkeypatch):
        """Every sampled deal's solve of every legal move stops at the budget: the states expanded
        (each asked for its moves once) stay under samples × moves × (budget + 1), and a budget
        too small for any answer is "No hint in time"."""
        samples, nodes = 3, 25
        monkeypatch.setattr(hints, "budgets", lambda _rules: (samples, nodes))
        real = rules_engine.get(SLUG).puzzle
        searched = []

        def counted_moves(state):
            searched.append(1)  # one state expanded: a solve expands at most its budget + 1
            return real.moves(state)

        monkeypatch.setattr(hints, "puzzle_for", lambda _rules: dataclasses.replace(real, moves=counted_moves))
        client = seat_client()
        game_id = client.start(SLUG, size="7")
        play_moves(client, store, 3, seed=4)
        game = play.load_game(store, game_id)
        legal = game.rules.legal_actions(game.state, "p1")
        advice = hints.advise(game, "p1")
        assert sum(searched) <= samples * len(legal) * (nodes + 1)
        if advice["answered"] == 0:
            assert advice["text"] == hints.NO_HINT_IN_TIME

    def test_a_budget_too_small_for_any_answer_is_no_hint_in_time(self, seat_client, store, monkeypatch):
        # A fixed deal: on a deal drawn at random three moves could end the game, and a game over
        # has no hint to look for at all.
        client = seated(seat_client, store, SLUG, GAME_SEED, {"size": "5"})
        play_moves(client, store, 3, seed=4)
        game = play.load_game(store, client.game_id)
        assert game.record.status == "running"
        puzzle = rules_engine.get(SLUG).puzzle
        # A puzzle that never ends within the budget: its one move leads back to the same state.
        endless = dataclasses.replace(
            puzzle,
            moves=lambda _s: [{"type": "wait"}],
            step=lambda state, _move: state,
            won=lambda _s: False,
            over=lambda _s: False,
            key=lambda _s: random.random(),
            hopeless=None,
        )
        monkeypatch.setattr(hints, "puzzle_for", lambda _rules: endless)
        monkeypatch.setattr(hints, "budgets", lambda _rules: (2, 5))
        advice = hints.advise(game, "p1")
        assert advice == {**advice, "move": None, "answered": 0, "text": hints.NO_HINT_IN_TIME}

    def test_a_hint_for_a_version_the_game_left_is_not_worked_out(self, seat_client, store, monkeypatch):
        client = seat_client()
        client.start(SLUG, size="5")
        ask(client)
        play_moves(client, store, 1)
        monkeypatch.setattr(solving, "hint", lambda *a, **k: pytest.fail("a hint nobody waits for was worked out"))
        run_jobs(store)
        (job,) = hint_jobs(store, client.game_id)
        assert json.loads(job.result)["text"] == hints.MOVED_ON


class TestAssistedNeverRanked:
    def test_the_record_leaves_it_out_and_its_end_says_assisted(self, seat_client, store):
        client = seat_client()
        client.start(GIVES_UP)
        resign(client, store)
        counted = client.game_id
        client.start(GIVES_UP)
        ask(client)
        resign(client, store)
        assert browsers.records(store, browsers_key(client))[GIVES_UP].played == 1
        assert browsers.standing(store, browsers_key(client), GIVES_UP, client.game_id) is None
        end = Page(client.get(f"/g/{client.game_id}").data)
        assert "not ranked" in end.text("#assisted-note") and end.select("[data-best]") == []
        assert Page(client.get(f"/g/{counted}").data).select("#assisted-note") == []

    def test_an_assisted_attempt_on_a_daily_deal_is_listed_assisted_not_ranked(self, seat_client, store, clock):
        ann = seat_client()
        first = take(ann, f"/daily/{GIVES_UP}", name="Ann")
        resign(ann, store)
        second = take(ann, f"/daily/{GIVES_UP}", name="Ann")  # the deal's second attempt: hints allowed
        assert Page(ann.get(f"/g/{second}").data).select("#hint-button")
        assert ask(ann, version=0).status_code == 303
        resign(ann, store)
        rows = {a.game_id: a for a in deals.attempts(store, deals.daily_deal(GIVES_UP, clock["today"]))}
        assert rows[first].ranked and not rows[second].ranked and rows[second].assisted
        end = Page(ann.get(f"/g/{second}").data)
        assert "Assisted" in end.text("#deal-placement") and "Assisted" in end.text("#assisted-note")

    def test_a_challenge_made_from_an_assisted_game_does_not_rank_it(self, seat_client, store):
        ann = at_address(seat_client(), "203.0.113.1")
        ann.start(GIVES_UP)
        ask(ann)
        resign(ann, store)
        link = challenge_from(ann)
        (source,) = deals.attempts(store, deals.challenge_deal(link.rsplit("/", 1)[1]))
        assert source.game_id == ann.game_id and not source.ranked and source.assisted
        row = Page(seat_client().get(link).data).one("#board tbody tr")
        assert "assisted" in row.get_text(" ", strip=True)

    def test_an_assisted_escape_writes_no_hall_of_fame_entry(self, app, seat_client, store):
        table = DungeonCardsTable(app, seat_client)
        game = play.load_game(store, table.game_id)
        entry = fame_entry("p1")
        escaped = dict(game.state, hall_of_fame=[entry])
        with store.engine.begin() as conn:
            conn.execute(update(games).where(games.c.id == game.id).values(assisted=1))
            hall_of_fame.record_escapes(conn, game, "p1", {}, escaped, 0.0)
        assert hall_of_fame.entries(store, set_deals=True) == []
