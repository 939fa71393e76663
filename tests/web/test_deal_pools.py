"""Winnable deals only (webapp/domain/deal_pools.py): pools of seeds the background solver proved
winnable, kept by the pool job (run here in-process, with small pools), dealt at once from the
creation form, the daily deal and "New game, same options", each seed once; and games on them
counted apart from any deal.

The pool job's proof is tested on Shuffle and Doom!'s real solver (its small deals are proved in
milliseconds); the routes are tested on Clear the Dungeon with a puzzle of the test's own that
proves every deal, so that a pool fills at once and a game can end by resigning."""

from __future__ import annotations

import dataclasses
import json

import pytest
from sqlalchemy import func, select

import rules_engine
from rules_engine import solving
from rules_engine.games.shuffle_and_doom import solver as shuffle_solver
from rules_engine.solving import Puzzle
from rules_engine.undo import game_part
from tests.page import Page
from webapp.domain import deal_pools, solver_jobs
from webapp.domain.catalog import BY_SLUG, parse_options
from webapp.storage.schema import solver_jobs as solver_jobs_table
from webapp.storage.schema import winnable_deals

CTD = "clear-the-dungeon"
SAD = "shuffle-and-doom"
SAD_STANDARD = json.loads(deal_pools.POOL_GAMES[SAD].keys[0])
EVERY_DEAL_WON = Puzzle(key=id, moves=lambda _s: [], step=lambda s, _a: s, won=lambda _s: True, over=lambda _s: True)
NO_DEAL_WON = Puzzle(key=id, moves=lambda _s: [], step=lambda s, _a: s, won=lambda _s: False, over=lambda _s: True)


def _prove(monkeypatch, slug: str, puzzle: Puzzle) -> None:
    """The game's pools are proved on ``puzzle`` while the test runs."""
    monkeypatch.setitem(deal_pools.POOL_GAMES, slug, dataclasses.replace(deal_pools.POOL_GAMES[slug], puzzle=puzzle))


def _fill(store, slug: str, options: dict, count: int) -> list[int]:
    """Queue the pool's job for ``count`` seeds and run it; the pool's seeds."""
    with store.engine.begin() as conn:
        assert deal_pools.refill(store, slug, options, target=count, conn=conn)
    ran = solver_jobs.run_next(store, owner="test")
    assert ran is not None and ran.kind == deal_pools.KIND and ran.status == solver_jobs.DONE, ran
    return _seeds(store, slug, options)


def _seeds(store, slug: str, options: dict) -> list[int]:
    with store.engine.connect() as conn:
        return list(
            conn.execute(
                select(winnable_deals.c.seed).where(
                    winnable_deals.c.slug == slug, winnable_deals.c.options == deal_pools.options_key(options)
                )
            ).scalars()
        )


def _pool_jobs(store) -> int:
    with store.engine.connect() as conn:
        return conn.execute(
            select(func.count())
            .select_from(solver_jobs_table)
            .where(solver_jobs_table.c.kind == deal_pools.KIND, solver_jobs_table.c.status == solver_jobs.QUEUED)
        ).scalar_one()


def _create(client, slug: str, **fields):
    client.get("/")
    return client.http.post("/games", data={"game": slug, "csrf_token": client.csrf, **fields})


def _resign(client) -> None:
    client.get(f"/g/{client.game_id}")
    assert client.act({"type": "resign"}).status_code == 200


# ---- the pool job -------------------------------------------------------------------------------


def test_a_pool_job_keeps_only_seeds_the_solver_proved_every_room_can_be_cleared(store):
    small = {**SAD_STANDARD, "size": 4}
    seeds: list[int] = []
    for _job in range(3):  # each job tries a few seeds; small deals are nearly all clearable
        seeds = _fill(store, SAD, small, 3)
        if len(seeds) == 3:
            break
    assert len(seeds) == 3 == len(set(seeds))
    rules = rules_engine.get(SAD)
    for seed in seeds:
        deal = game_part(rules.new_game(seed=seed, players=["p1"], options=small))
        assert solving.solve(shuffle_solver.CLEAR_PUZZLE, deal, max_nodes=shuffle_solver.SOLVE_NODES).outcome == "win"
    # A full pool's job tries nothing more.
    assert _fill(store, SAD, small, 3) == seeds


def test_pools_cover_the_standard_options_the_daily_deal_and_every_size():
    sad = deal_pools.POOL_GAMES[SAD]
    assert sad.clearable and sad.checkbox_label == "Clearable deals only"
    assert {json.loads(key)["size"] for key in sad.keys} == set(range(4, 27))
    assert deal_pools.POOL_GAMES[CTD].checkbox_label == "Winnable deals only"
    assert set(deal_pools.POOL_GAMES) == {SAD, CTD, "hebracs-dungeon"}
    assert deal_pools.pool_for(SAD, {**SAD_STANDARD, "split_large_rooms": True}) is None


def test_pool_jobs_are_claimed_after_verdicts_and_hints(store, monkeypatch):
    ran: list[str] = []
    for kind in ("pool", "verdict", "hint"):
        monkeypatch.setitem(solver_jobs.KINDS, kind, lambda _store, job: ran.append(job.kind) or {})
    solver_jobs.enqueue(store, "pool", None, {"n": 1})
    solver_jobs.enqueue(store, "verdict", None, {"n": 2})
    solver_jobs.enqueue(store, "hint", None, {"n": 3})
    while solver_jobs.run_next(store, owner="test") is not None:
        pass
    assert ran == ["hint", "verdict", "pool"]


def test_the_idle_worker_tops_up_one_short_pool_at_a_time_and_rests_a_pool_it_cannot_prove(store, monkeypatch):
    _prove(monkeypatch, CTD, NO_DEAL_WON)
    monkeypatch.setattr(deal_pools, "POOL_GAMES", {CTD: deal_pools.POOL_GAMES[CTD]})
    assert deal_pools.top_up(store, target=2, now=1000.0)
    assert _pool_jobs(store) == 1
    assert not deal_pools.top_up(store, target=2, now=1000.0)  # its job waits already
    ran = solver_jobs.run_next(store, owner="test")
    assert ran is not None and ran.result == {"tried": deal_pools.TRIES_PER_JOB, "added": 0, "held": 0}
    # It proved nothing: the pool rests before it is tried again.
    assert not deal_pools.top_up(store, target=2, now=ran.finished_at + deal_pools.RETRY_SECONDS / 2)
    assert deal_pools.top_up(store, target=2, now=ran.finished_at + deal_pools.RETRY_SECONDS + 1)
    assert _pool_jobs(store) == 1


# ---- dealing from a pool ------------------------------------------------------------------------


def test_the_creation_form_offers_winnable_deals_for_the_solo_games_only(seat_client):
    page = Page(seat_client().get("/").data)
    assert page.text(f"label[for='{SAD}-winnable']") == "Clearable deals only"
    assert page.text(f"label[for='{CTD}-winnable']") == "Winnable deals only"
    assert page.text("label[for='hebracs-dungeon-winnable']") == "Winnable deals only"
    assert page.select("label[for='dungeon-of-doom-winnable']") == []
    assert page.select("label[for='dungeon-cards-winnable']") == []


def test_a_winnable_game_takes_a_pooled_seed_once_and_an_empty_pool_refuses_at_once(store, seat_client, monkeypatch):
    _prove(monkeypatch, CTD, EVERY_DEAL_WON)
    (seed,) = _fill(store, CTD, {}, 1)
    ann = seat_client()
    response = _create(ann, CTD, winnable="1")
    assert response.status_code == 303
    ann.game_id = response.headers["Location"].rsplit("/", 1)[-1]
    record = store.load(ann.game_id)
    assert (record.seed, record.deal_kind) == (seed, deal_pools.WINNABLE)
    assert _seeds(store, CTD, {}) == []
    assert Page(ann.get(f"/g/{ann.game_id}").data).text("#deal-kind") == "A winnable deal"
    # The seed went with Ann's game; Bea's request finds the pool empty: nothing is solved for
    # her, no game is made, and a refill is queued.
    bea = seat_client()
    refused = _create(bea, CTD, winnable="1")
    assert refused.status_code == 503
    assert deal_pools.POOL_GAMES[CTD].not_ready in refused.get_data(as_text=True)
    assert _pool_jobs(store) == 1
    # Any deal is still there to play.
    assert store.load(bea.start(CTD)).deal_kind == deal_pools.ANY


def test_winnable_deals_are_kept_for_the_standard_options(seat_client, store):
    refused = _create(seat_client(), SAD, winnable="1", size="7", split_large_rooms="on")
    assert refused.status_code == 400
    assert "kept for the standard options (at any size)" in refused.get_data(as_text=True)
    assert _pool_jobs(store) == 0


def test_a_winnable_game_counts_apart_says_so_at_its_end_and_plays_on_winnable_deals(store, seat_client, monkeypatch):
    _prove(monkeypatch, CTD, EVERY_DEAL_WON)
    _fill(store, CTD, {}, 2)
    ann = seat_client()
    ann.start(CTD, winnable="1")
    _resign(ann)
    end = Page(ann.get(f"/g/{ann.game_id}").data)
    assert "The solver proved this deal can be won" in end.text("#winnable-note")
    assert end.text(".record-line").startswith("Your record on winnable deals here: 1 played")
    front = Page(ann.get("/").data)
    assert front.select(f"#record-{CTD}") == []  # no game on any deal yet
    assert front.text(f"#record-{CTD}-winnable").startswith("Your record on Winnable deals: 1 played · 0 won")
    # The same deal again is the same winnable deal; a new one comes from the pool.
    again = ann.http.post(f"/g/{ann.game_id}/rematch", data={"csrf_token": ann.csrf})
    same = store.load(again.headers["Location"].rsplit("/", 1)[-1])
    assert (same.seed, same.deal_kind) == (store.load(ann.game_id).seed, deal_pools.WINNABLE)
    fresh = ann.http.post(f"/g/{ann.game_id}/new", data={"csrf_token": ann.csrf})
    dealt = store.load(fresh.headers["Location"].rsplit("/", 1)[-1])
    assert dealt.deal_kind == deal_pools.WINNABLE and _seeds(store, CTD, {}) == []
    assert ann.http.post(f"/g/{ann.game_id}/new", data={"csrf_token": ann.csrf}).status_code == 503
    # The replay says how the deal was drawn.
    replay = Page(ann.get(f"/g/{ann.game_id}/replay").data)
    assert "Dealt from the deals the solver proved can be won" in replay.text("#replay-note")


def test_a_challenge_on_a_winnable_deal_says_so_and_deals_it_as_winnable(store, seat_client, monkeypatch):
    _prove(monkeypatch, CTD, EVERY_DEAL_WON)
    _fill(store, CTD, {}, 1)
    ann = seat_client()
    ann.start(CTD, winnable="1")
    _resign(ann)
    made = ann.http.post(f"/g/{ann.game_id}/challenge", data={"csrf_token": ann.csrf})
    path = made.headers["Location"]
    bea = seat_client()
    page = Page(bea.get(path).data)
    assert page.text("#deal-proven").startswith("A winnable deal This deal can be won")
    taken = bea.http.post(f"{path}/play", data={"csrf_token": bea.csrf, "name": "Bea"})
    assert store.load(taken.headers["Location"].rsplit("/", 1)[-1]).deal_kind == deal_pools.WINNABLE


def test_the_daily_deal_is_drawn_from_the_pool_when_one_is_ready_and_says_so(store, seat_client, monkeypatch, clock):
    _prove(monkeypatch, CTD, EVERY_DEAL_WON)
    (seed,) = _fill(store, CTD, {}, 1)
    ann = seat_client()
    page = Page(ann.get(f"/daily/{CTD}").data)
    assert "Today's deal can be won" in page.text("#deal-proven")
    assert _seeds(store, CTD, {}) == []  # the day's deal is fixed: its seed left the pool
    played = ann.http.post(f"/daily/{CTD}/play", data={"csrf_token": ann.csrf, "name": "Ann"})
    game = store.load(played.headers["Location"].rsplit("/", 1)[-1])
    assert (game.seed, game.deal_kind) == (seed, deal_pools.WINNABLE)
    # The next day finds the pool empty: its deal is any deal, and its page says nothing of it.
    clock["today"] = clock["today"].fromordinal(clock["today"].toordinal() + 1)
    assert Page(ann.get(f"/daily/{CTD}").data).select("#deal-proven") == []
    later = ann.http.post(f"/daily/{CTD}/play", data={"csrf_token": ann.csrf, "name": "Ann"})
    assert store.load(later.headers["Location"].rsplit("/", 1)[-1]).deal_kind == deal_pools.ANY


@pytest.mark.parametrize("slug", [SAD, CTD, "hebracs-dungeon"])
def test_every_pool_key_is_what_the_untouched_form_posts(slug, seat_client):
    """The standard pool is the options the front page's form posts as it comes."""
    client = seat_client()
    page = Page(client.get("/").data)
    form = {"game": slug, "csrf_token": client.csrf}
    for field in page.select(f"#game-{slug} form input, #game-{slug} form select"):
        name = field.get("name")
        if not name or name in ("game", "csrf_token", "practice", "winnable", "name", "bots"):
            continue
        if field.name == "select":
            chosen = field.select_one("option[selected]") or field.select_one("option")
            form[name] = chosen.get("value")
        elif field.get("type") == "checkbox":
            if field.has_attr("checked"):
                form[name] = "on"
        else:
            form[name] = field.get("value") or ""
    assert deal_pools.pool_for(slug, parse_options(BY_SLUG[slug], form)) is not None
