"""The solver worker: a process of its own that runs the solver's queued jobs
(``webapp/domain/solver_jobs.py``) one at a time, never in a request.

The app starts it when ``SOLVER_WORKER`` is on (``start``: a "spawn" process — the server runs
on gevent, which a forked child would inherit half-done), and it stops with the app's process;
``python -m webapp solver`` runs one on its own (several, on one database, share the queue: each
job is one worker's under its lease). It runs at the lowest priority (``os.nice(19)``) and takes
at most ``SOLVER_CPU_SHARE`` of a CPU: after a job of ``t`` seconds it rests ``t·(1−share)/share``
seconds (``rest_after``), so solving never slows play.
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import socket
import time
from collections.abc import Callable

from .domain import deal_pools, solver_jobs
from .storage.store import Store

log = logging.getLogger("delve.solver")

IDLE_SECONDS = 1.0
"""How long the worker waits before it looks at an empty queue again."""
NICENESS = 19


def rest_after(seconds_of_work: float, cpu_share: float) -> float:
    """How long to rest after ``seconds_of_work`` to use at most ``cpu_share`` of a CPU.

    >>> rest_after(2.0, 0.5), rest_after(3.0, 0.75), rest_after(1.0, 1.0)
    (2.0, 1.0, 0.0)
    """
    return seconds_of_work * (1 - cpu_share) / cpu_share


def lower_priority() -> int:
    """Run at the lowest priority (niceness 19); the niceness now."""
    return os.nice(max(0, NICENESS - os.nice(0)))


def serve(
    database_url: str,
    *,
    cpu_share: float,
    lease_seconds: float = solver_jobs.LEASE_SECONDS,
    parent_pid: int | None = None,
    log_level: str = "INFO",
    deal_pool_size: int = 0,
    sleep: Callable[[float], None] = time.sleep,
    keep_going: Callable[[], bool] = lambda: True,
) -> None:
    """Run jobs until ``keep_going()`` says stop, or the process that started us is gone
    (``parent_pid``: the app's process; we must not outlive it). With nothing queued, it tops up
    the pools of winnable deals to ``deal_pool_size`` each (``deal_pools.top_up``; 0: keeps none)."""
    if not logging.getLogger().handlers:
        logging.basicConfig(level=log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    niceness = lower_priority()
    for name in solver_jobs.KIND_MODULES:
        importlib.import_module(name)
    store = Store(database_url)
    owner = f"{socket.gethostname()}:{os.getpid()}"
    log.info(
        "solver worker %s running at niceness %s, CPU share %s, kinds %s",
        owner,
        niceness,
        cpu_share,
        ", ".join(sorted(solver_jobs.KINDS)),
    )
    try:
        while keep_going():
            if parent_pid is not None and os.getppid() != parent_pid:
                log.info("solver worker %s: the app's process is gone; stopping", owner)
                return
            started = time.monotonic()
            ran = solver_jobs.run_next(store, owner=owner, lease_seconds=lease_seconds)
            if ran is None:
                if not deal_pools.top_up(store, target=deal_pool_size):
                    sleep(IDLE_SECONDS)
                continue
            worked = time.monotonic() - started
            rest = rest_after(worked, cpu_share)
            log.info("solver job %s (%s) %s after %.3f s; resting %.3f s", ran.id, ran.kind, ran.status, worked, rest)
            sleep(rest)
    finally:
        store.engine.dispose()


def start(config: dict) -> multiprocessing.process.BaseProcess:
    """Start the worker beside the app (``config``: the app's) and return its process."""
    process = multiprocessing.get_context("spawn").Process(
        target=serve,
        args=(config["DATABASE_URL"],),
        kwargs=dict(
            cpu_share=config["SOLVER_CPU_SHARE"],
            lease_seconds=config["SOLVER_LEASE_SECONDS"],
            parent_pid=os.getpid(),
            log_level=config["LOG_LEVEL"],
            deal_pool_size=config["DEAL_POOL_SIZE"],
        ),
        name="delve-solver",
        daemon=True,
    )
    process.start()
    return process


def main() -> None:
    """``python -m webapp solver``: one worker on the database the environment names."""
    from .config import ConfigError, from_environment
    from .logs import configure

    try:
        config = from_environment()
    except ConfigError as error:
        raise SystemExit(f"Delve's solver cannot start: {error}") from None
    configure(config["LOG_LEVEL"], config["LOG_FORMAT"])
    serve(
        config["DATABASE_URL"],
        cpu_share=config["SOLVER_CPU_SHARE"],
        lease_seconds=config["SOLVER_LEASE_SECONDS"],
        log_level=config["LOG_LEVEL"],
        deal_pool_size=config["DEAL_POOL_SIZE"],
    )
