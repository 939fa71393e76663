"""Winnable deals only: pools of solo deals the background solver proved winnable, so that a game
dealt from one starts at once, never waiting for a search.

Per solo game whose rules declare a ``Puzzle`` (``POOL_GAMES``) and per set of options
(``PoolGame.keys``: the creation form's standard options, the daily deal's, and the standard ones
at each size of a game's grid ``size`` option), ``winnable_deals`` keeps up to ``DEAL_POOL_SIZE``
seeds the solver proved winnable from the deal. A game whose solver also declares
``CLEAR_PUZZLE`` (every room can be cleared: a stronger goal than the win) is proved on that, and
its pools hold *clearable* deals.

The pool job (``solver_jobs`` kind ``pool``: one job row per pool, queued again whenever the
pool is short, ``refill``) draws random seeds and keeps those proved within ``POOL_NODES`` of
search ("unknown" is never kept: a deal that takes longer is passed over), ``TRIES_PER_JOB``
seeds a job. The worker claims pool jobs after every other kind (``solver_jobs.LAST_KINDS``)
and queues one when it has nothing else to do (``top_up``). A pool whose last job proved
nothing waits ``RETRY_SECONDS`` before it is tried again: the biggest grids are seldom proved in
budget, and no CPU is burnt on them for ever.

A game takes a seed by deleting its row in the transaction that stores the game
(``start_winnable_game``; the daily deal: ``take_seed``), so no seed is dealt twice. Nothing is
solved in a request: an empty pool refuses (``not_ready``) and queues a refill.

Ranked apart: how a game's deal was drawn is stored on it (``games.deal_kind``: ``ANY`` or
``WINNABLE``) and shown on its page, its end and its replay. A browser's record counts winnable
deals on a line of their own (``browsers.records``); a challenge made from a winnable game deals
that same seed to everyone, and its page says the deal can be won; the day's deal is the same for
everybody, so its ranking compares like with like.
"""

from __future__ import annotations

import importlib
import json
import logging
import random
import time
from dataclasses import dataclass

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection

import rules_engine
from rules_engine import solving
from rules_engine.solving import Puzzle
from rules_engine.undo import game_part

from ..storage.records import _json
from ..storage.schema import solver_jobs as jobs_table
from ..storage.schema import winnable_deals
from ..storage.solver_queries import DONE, FAILED, QUEUED
from ..storage.store import Store
from . import play, solver_jobs
from .catalog import GAMES, GameEntry, parse_options
from .solver_jobs import KINDS, Job

log = logging.getLogger("delve.deal_pools")

KIND = "pool"
ANY, WINNABLE = "any", "winnable"
"""``games.deal_kind`` / ``daily_deals.deal_kind``: a fresh random seed, or one from a pool."""
POOL_NODES = 20_000
"""The most states a pool job's search may try on one deal (at most the solver's own
``SOLVE_NODES``): a deal proved in fewer is kept, a slower one passed over."""
TRIES_PER_JOB = 8
"""Seeds one pool job tries at most: a job stays short, so verdicts and hints never wait long."""
RETRY_SECONDS = 600.0
"""How long a pool whose last job proved no deal waits before it is tried again."""
SIZE_OPTION = "size"
"""A game's grid size (an ``int`` option of this name): it gets a pool at every size."""


@dataclass(frozen=True)
class PoolGame:
    """A solo game whose deals can be proved winnable: its puzzle, its budget and its pools."""

    entry: GameEntry
    puzzle: Puzzle
    clearable: bool
    """Proved on the solver's ``CLEAR_PUZZLE``: every room can be cleared."""
    nodes: int
    keys: tuple[str, ...]
    """Its pools' option sets (``options_key``), the most asked for first: refilled in this order."""

    @property
    def adjective(self) -> str:
        return "clearable" if self.clearable else "winnable"

    @property
    def checkbox_label(self) -> str:
        """The creation form's box: "Winnable deals only"."""
        return f"{self.adjective.capitalize()} deals only"

    @property
    def deal_label(self) -> str:
        """What a game dealt from a pool says of its deal: "A winnable deal"."""
        return f"A {self.adjective} deal"

    @property
    def can_be(self) -> str:
        """ "can be won" or "can be cleared"."""
        return "can be cleared" if self.clearable else "can be won"

    @property
    def not_ready(self) -> str:
        """Why a game asked of an empty pool was not started (nothing is solved in a request)."""
        return f"No {self.adjective} deal is ready yet; try again in a minute, or play any deal."

    @property
    def off_pool(self) -> str:
        """Why a game with other options cannot be dealt from a pool."""
        sizes = " (at any size)" if any(option.name == SIZE_OPTION for option in self.entry.options) else ""
        return (
            f"{self.checkbox_label} is kept for the standard options{sizes}: "
            "reset the other options, or play any deal with them."
        )


def options_key(options: dict) -> str:
    """A pool's key: the options as JSON, keys sorted (the same options are the same text)."""
    return _json(options)


def _solver(entry: GameEntry):
    name = getattr(importlib.import_module(rules_engine.GAMES[entry.slug]), "SOLVER", None)
    return importlib.import_module(name) if name else None


def _standard_form(entry: GameEntry) -> dict[str, str]:
    """What the creation form posts when nothing is changed (templates/index.html)."""
    form = {}
    for option in entry.options:
        if option.kind == "bool":
            form[option.name] = "on" if option.default else ""
        elif option.kind in ("int", "choice"):
            form[option.name] = str(option.default)
    return form


def _keys(entry: GameEntry) -> tuple[str, ...]:
    standard = parse_options(entry, _standard_form(entry))
    sets = [standard]
    if entry.rules.daily_form is not None:
        sets.append(parse_options(entry, dict(entry.rules.daily_form)))
    size = next((o for o in entry.options if o.name == SIZE_OPTION and o.kind == "int"), None)
    if size is not None and size.minimum is not None and size.maximum is not None:
        sets += [{**standard, size.name: n} for n in range(size.minimum, size.maximum + 1)]
    return tuple(dict.fromkeys(options_key(options) for options in sets))


def _pool_game(entry: GameEntry) -> PoolGame | None:
    if not entry.solo or entry.rules.puzzle is None:
        return None
    solver = _solver(entry)
    clear = getattr(solver, "CLEAR_PUZZLE", None)
    nodes = min(POOL_NODES, getattr(solver, "SOLVE_NODES", POOL_NODES))
    return PoolGame(entry, clear or entry.rules.puzzle, clear is not None, nodes, _keys(entry))


POOL_GAMES: dict[str, PoolGame] = {
    game.entry.slug: game for game in (_pool_game(entry) for entry in GAMES) if game is not None
}
"""The solo games with pools of winnable deals, front-page order."""


def pool_for(slug: str, options: dict) -> PoolGame | None:
    """The game's pools, if ``options`` are one of them."""
    game = POOL_GAMES.get(slug)
    return game if game is not None and options_key(options) in game.keys else None


def winnable_deal(record) -> PoolGame | None:
    """The pools a game (``GameRecord``) was dealt from; None when its deal was any deal."""
    return POOL_GAMES.get(record.slug) if record.deal_kind == WINNABLE else None


# ---- the pools ----------------------------------------------------------------------------------


def pooled(store: Store) -> dict[tuple[str, str], int]:
    """How many seeds each pool holds now: (slug, options key) -> count (empty pools left out)."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(winnable_deals.c.slug, winnable_deals.c.options, func.count()).group_by(
                winnable_deals.c.slug, winnable_deals.c.options
            )
        ).all()
    return {(slug, key): count for slug, key, count in rows}


def _count(conn: Connection, slug: str, key: str) -> int:
    return conn.execute(
        select(func.count())
        .select_from(winnable_deals)
        .where(winnable_deals.c.slug == slug, winnable_deals.c.options == key)
    ).scalar_one()


def take_seed(conn: Connection, slug: str, options: dict) -> int | None:
    """Inside the transaction that stores the game: the oldest seed of the pool, deleted from it
    (None: the pool is empty). One statement finds and deletes it; when another transaction
    deleted that row first, the next one is tried."""
    key = options_key(options)
    oldest = (
        select(winnable_deals.c.id)
        .where(winnable_deals.c.slug == slug, winnable_deals.c.options == key)
        .order_by(winnable_deals.c.id)
        .limit(1)
        .scalar_subquery()
    )
    for _try in range(5):
        if not _count(conn, slug, key):
            return None
        seed = conn.execute(
            delete(winnable_deals).where(winnable_deals.c.id == oldest).returning(winnable_deals.c.seed)
        ).scalar()
        if seed is not None:
            return int(seed)
    return None


def start_winnable_game(
    store: Store, slug: str, options: dict, *, target: int, name: str = play.DEFAULT_SOLO_NAME
) -> tuple[str, str] | None:
    """A solo game dealt from the pool of ``options`` (its seed taken in the transaction that
    stores it), as ``play.start_game``'s (game id, token); None when the pool is empty. Either
    way the pool is queued for a refill up to ``target``."""
    with store.engine.begin() as conn:
        seed = take_seed(conn, slug, options)
        started = (
            None
            if seed is None
            else play.start_game(store, slug, options, seed=seed, name=name, deal_kind=WINNABLE, conn=conn)
        )
        refill(store, slug, options, target=target, conn=conn)
    return started


def params_for(slug: str, options: dict, target: int) -> dict:
    return {"slug": slug, "options": options_key(options), "target": target}


def refill(store: Store, slug: str, options: dict, *, target: int, conn: Connection, now: float | None = None) -> bool:
    """Queue the pool's job (the same row each time: queued again once done), unless it waits
    or runs already, or its last run proved nothing less than ``RETRY_SECONDS`` ago; True when
    queued."""
    if target <= 0:
        return False
    now = time.time() if now is None else now
    params = params_for(slug, options, target)
    row = store.find_solver_job(conn, None, KIND, _json(params))
    if row is None:
        solver_jobs.enqueue(store, KIND, None, params, conn)
        return True
    if row["status"] not in (DONE, FAILED):
        return False  # it waits, or runs
    last = json.loads(row["result"]) if row["result"] else {}
    proved_nothing = row["status"] == FAILED or (last.get("tried", 0) and not last.get("added"))
    if proved_nothing and (row["finished_at"] or 0) > now - RETRY_SECONDS:
        return False
    return bool(
        conn.execute(
            update(jobs_table)
            .where(jobs_table.c.id == row["id"], jobs_table.c.status.in_((DONE, FAILED)))
            .values(status=QUEUED, result=None, attempts=0, created_at=now, finished_at=None)
        ).rowcount
    )


def top_up(store: Store, *, target: int, now: float | None = None) -> bool:
    """What the worker does with nothing else to do: queue the job of the first pool (in each
    game's ``keys`` order, games in front-page order) that is short of ``target`` seeds and may
    be tried now; True when one was queued."""
    if target <= 0:
        return False
    counts = pooled(store)
    for game in POOL_GAMES.values():
        for key in game.keys:
            if counts.get((game.entry.slug, key), 0) >= target:
                continue
            with store.engine.begin() as conn:
                if refill(store, game.entry.slug, json.loads(key), target=target, conn=conn, now=now):
                    return True
    return False


def run_pool(store: Store, job: Job) -> dict:
    """The pool job: random seeds solved from the deal, each proved winnable kept, until the pool
    holds its target or ``TRIES_PER_JOB`` seeds were tried; what it did, stored as its result."""
    slug, key, target = job.params["slug"], job.params["options"], int(job.params["target"])
    game = POOL_GAMES[slug]
    options = json.loads(key)
    rules = game.entry.rules
    draw = random.SystemRandom()  # a dealt seed is as secret as any game's
    tried = added = 0
    with store.engine.connect() as conn:
        have = _count(conn, slug, key)
    while tried < TRIES_PER_JOB and have < target:
        seed = draw.getrandbits(62)
        tried += 1
        state = game_part(rules.new_game(seed=seed, players=[play.SOLO_SEAT], options=options))
        verdict = solving.solve(game.puzzle, state, max_nodes=game.nodes)
        if verdict.outcome != solving.WIN:
            continue
        with store.engine.begin() as conn:
            conn.execute(
                insert(winnable_deals).values(
                    slug=slug, options=key, seed=seed, nodes=verdict.nodes, created_at=time.time()
                )
            )
            have = _count(conn, slug, key)
        added += 1
    log.info("pool %s %s: %s of %s seeds proved, %s held", slug, key, added, tried, have)
    return {"tried": tried, "added": added, "held": have}


KINDS[KIND] = run_pool
