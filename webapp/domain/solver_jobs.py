"""The background solver's job queue: work too long for a request (a finished solo game's
verdict, a hint, a pool of winnable deals) is queued here and run by the solver worker
(``webapp/solver_worker.py``), a process of its own.

A job is ``(kind, game, params)``; queueing the same again gives the job already queued
(``enqueue`` is idempotent). Each kind's module registers its runner in ``KINDS``
(``runner(store, job) -> result``, a JSON-able dict) and is named in ``KIND_MODULES``, which the
worker imports at its start. A worker takes the next job under a lease (``LEASE_SECONDS``, renewed
while it runs): a worker that dies leaves a job another claims again once the lease runs out,
``MAX_ATTEMPTS`` times at most; then the job fails with a sentence. Hints go before everything
else (``FIRST_KINDS``: someone waits for them), pools of winnable deals after everything
(``LAST_KINDS``); the kinds in ``BOUNDED_KINDS`` are refused
(``QueueFull``) while ``limit`` jobs of them wait.

>>> from webapp.storage.store import Store
>>> store = Store("sqlite:///:memory:")
>>> KINDS["double"] = lambda store, job: {"twice": job.params["n"] * 2}
>>> job_id = enqueue(store, "double", None, {"n": 21})
>>> enqueue(store, "double", None, {"n": 21}) == job_id
True
>>> run_next(store, owner="doc").result
{'twice': 42}
>>> del KINDS["double"]
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..storage.records import _json
from ..storage.solver_queries import DONE, FAILED, QUEUED, RUNNING
from ..storage.store import Store

log = logging.getLogger("delve.solver")

__all__ = [
    "DONE",
    "FAILED",
    "QUEUED",
    "RUNNING",
    "KINDS",
    "KIND_MODULES",
    "Job",
    "QueueFull",
    "enqueue",
    "job",
    "latest",
    "run_next",
]

KIND_MODULES: tuple[str, ...] = ("webapp.domain.verdicts", "webapp.domain.hints", "webapp.domain.deal_pools")
"""The modules that register a runner in ``KINDS`` when imported: the worker imports them."""
FIRST_KINDS: tuple[str, ...] = ("hint",)
"""Kinds claimed before every other (a player waits for a hint; a verdict can wait)."""
LAST_KINDS: tuple[str, ...] = ("pool",)
"""Kinds claimed after every other (a pool of winnable deals is kept full ahead of need)."""
BOUNDED_KINDS: tuple[str, ...] = ("verdict", "pool")
"""Kinds not queued while ``limit`` of them wait (``SOLVER_QUEUE_MAX``)."""
MAX_ATTEMPTS = 3
LEASE_SECONDS = 30.0
"""How long a claimed job is a worker's before another may take it: renewed every third of it
while the job runs, so only a worker that died (or hangs) loses its job."""
GAVE_UP = "The solver stopped three times while working on this; it will not try again."
CRASHED = "The solver met an error while working on this."


@dataclass(frozen=True)
class Job:
    id: int
    game_id: str | None
    kind: str
    params: dict
    status: str
    result: dict | None
    attempts: int
    owner: str | None
    lease_until: float | None
    created_at: float
    finished_at: float | None

    @property
    def pending(self) -> bool:
        return self.status in (QUEUED, RUNNING)

    @property
    def failed_because(self) -> str | None:
        return self.result.get("failed") if self.status == FAILED and self.result else None


Runner = Callable[[Store, Job], dict]
KINDS: dict[str, Runner] = {}
"""kind -> its runner; each kind's module adds its own (verdicts: ``webapp.domain.verdicts``)."""


class QueueFull(Exception):
    """The queue already holds as many jobs of a bounded kind as it may: this one was not queued."""


def _job(row: Mapping | None) -> Job | None:
    if row is None:
        return None
    return Job(
        id=row["id"],
        game_id=row["game_id"],
        kind=row["kind"],
        params=json.loads(row["params"]),
        status=row["status"],
        result=json.loads(row["result"]) if row["result"] else None,
        attempts=row["attempts"],
        owner=row["owner"],
        lease_until=row["lease_until"],
        created_at=row["created_at"],
        finished_at=row["finished_at"],
    )


def enqueue(store: Store, kind: str, game_id: str | None, params: dict, conn=None, *, limit: int | None = None) -> int:
    """Queue a job (``conn``: inside the caller's transaction, e.g. an action's writer) and
    return its id; the existing job when one of the same kind, game and params is there already.
    ``limit``: for a kind in ``BOUNDED_KINDS``, QueueFull when that many of them wait."""
    text = _json(params)
    if conn is None:
        with store.engine.begin() as own:
            return enqueue(store, kind, game_id, params, own, limit=limit)
    existing = store.find_solver_job(conn, game_id, kind, text)
    if existing is not None:
        return existing["id"]
    if limit is not None and kind in BOUNDED_KINDS and store.queued_solver_jobs(conn, BOUNDED_KINDS) >= limit:
        raise QueueFull(kind)
    return store.insert_solver_job(conn, game_id, kind, text, time.time())


def job(store: Store, job_id: int) -> Job | None:
    return _job(store.solver_job(job_id))


def latest(store: Store, game_id: str, kind: str, params: dict | None = None) -> Job | None:
    """The newest job of ``kind`` for the game (with exactly ``params`` when given), or None."""
    return _job(store.latest_solver_job(game_id, kind, None if params is None else _json(params)))


class _Lease:
    """Renews a running job's lease every third of it, in a thread, while the job runs (a
    solve holds the worker's main thread for seconds)."""

    def __init__(self, store: Store, job_id: int, owner: str, seconds: float):
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._renew, args=(store, job_id, owner, seconds), name=f"solver-lease-{job_id}", daemon=True
        )

    def _renew(self, store: Store, job_id: int, owner: str, seconds: float) -> None:
        while not self._stop.wait(seconds / 3):
            if not store.renew_solver_lease(job_id, owner, time.time() + seconds):
                return

    def __enter__(self) -> _Lease:
        self._thread.start()
        return self

    def __exit__(self, *_exc: Any) -> None:
        self._stop.set()
        self._thread.join()


def run_next(store: Store, *, owner: str, lease_seconds: float = LEASE_SECONDS) -> Job | None:
    """Claim the next job, run it and store what came of it; the job as it ended (None: the
    queue was empty). A runner's error puts the job back for another attempt (failed, with a
    sentence, after ``MAX_ATTEMPTS``); a job whose worker died is failed here after its last one."""
    now = time.time()
    store.give_up_solver_jobs(now, MAX_ATTEMPTS, _json({"failed": GAVE_UP}))
    claimed = _job(store.claim_solver_job(owner, now, lease_seconds, FIRST_KINDS, LAST_KINDS))
    if claimed is None:
        return None
    runner = KINDS.get(claimed.kind)
    status, result = DONE, None
    try:
        if runner is None:
            raise LookupError(f"no runner for solver jobs of kind {claimed.kind!r}")
        with _Lease(store, claimed.id, owner, lease_seconds):
            result = runner(store, claimed)
    except Exception:
        log.exception("solver job %s (%s) failed on attempt %s", claimed.id, claimed.kind, claimed.attempts)
        status = FAILED if claimed.attempts >= MAX_ATTEMPTS else QUEUED
        result = {"failed": CRASHED} if status == FAILED else None
    if not store.end_solver_job(claimed.id, owner, status, None if result is None else _json(result), time.time()):
        log.warning("solver job %s was taken over before it ended here", claimed.id)
    return job(store, claimed.id)
