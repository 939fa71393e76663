"""The solver worker as a real process (``python -m webapp solver``'s loop) on a real SQLite file:
it runs at niceness 19, rests after each job as its CPU share asks, and a job it was killed in the
middle of is finished by the worker started after it, once the lease runs out."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from webapp.domain import solver_jobs
from webapp.storage.store import Store

ROOT = Path(__file__).resolve().parents[2]

# The worker's own entry point, with one kind of the test's: its first attempt says it started and
# then hangs (the test kills the process there); a later attempt answers at once.
LAUNCHER = """
import pathlib, sys, time
from webapp.domain import solver_jobs

def slow_first_time(store, job):
    if job.attempts == 1:
        pathlib.Path(sys.argv[1]).write_text(str(job.id))
        time.sleep(600)
    return {"attempt": job.attempts}

solver_jobs.KINDS["pool"] = slow_first_time
from webapp.solver_worker import main
main()
"""


def _start(tmp_path: Path, url: str, log_name: str) -> subprocess.Popen:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("SOLVER_", "DATABASE_URL", "LOG_"))},
        "DATABASE_URL": url,
        "SECRET_KEY": "ops-solver",
        "DELVE_INSTANCE_DIR": str(tmp_path),
        "SOLVER_CPU_SHARE": "0.25",
        "SOLVER_LEASE_SECONDS": "1",
        "LOG_FORMAT": "text",
        "LOG_LEVEL": "INFO",
    }
    log = open(tmp_path / log_name, "ab")
    try:
        return subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, str(tmp_path / "started")],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    finally:
        log.close()


def _wait_for(condition, seconds: float = 60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("timed out waiting")


def test_a_killed_worker_s_job_is_finished_after_a_restart_at_low_priority_and_cpu_share(tmp_path):
    url = f"sqlite:///{tmp_path / 'delve.sqlite3'}"
    store = Store(url)
    job_id = solver_jobs.enqueue(store, "pool", None, {"n": 1})
    first = _start(tmp_path, url, "first.log")
    second = None
    try:
        _wait_for(lambda: (tmp_path / "started").exists())
        assert os.getpriority(os.PRIO_PROCESS, first.pid) == 19
        assert solver_jobs.job(store, job_id).status == solver_jobs.RUNNING
        first.send_signal(signal.SIGKILL)  # mid-job
        first.wait(10)
        assert solver_jobs.job(store, job_id).status == solver_jobs.RUNNING  # its lease says so, for now

        second = _start(tmp_path, url, "second.log")
        done = _wait_for(lambda: (job := solver_jobs.job(store, job_id)).status == solver_jobs.DONE and job)
        assert (done.attempts, done.result) == (2, {"attempt": 2})
        assert os.getpriority(os.PRIO_PROCESS, second.pid) == 19
        # After the job, the rest its CPU share asks: three times the work at a quarter of a CPU.
        said = _wait_for(
            lambda: re.search(r"after ([\d.]+) s; resting ([\d.]+) s", (tmp_path / "second.log").read_text())
        )
        worked, rested = float(said.group(1)), float(said.group(2))
        assert abs(rested - 3 * worked) < 0.002
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait(10)
        store.engine.dispose()


def test_the_served_app_starts_a_worker_that_judges_a_finished_game(servers, sqlite_url, store_of):
    """gunicorn's app with SOLVER_WORKER on has the worker as a process of its own, at niceness 19,
    and the verdict queued by the action that ends a solo game is worked out by it."""
    import psutil

    from webapp.domain import play, verdicts

    (server,) = servers(sqlite_url, env={"SOLVER_WORKER": "1"})
    below = psutil.Process(server.process.pid).children(recursive=True)
    (worker,) = [p for p in below if "multiprocessing.spawn" in " ".join(p.cmdline())]
    _wait_for(lambda: worker.nice() == 19)  # once it has started
    store = store_of(sqlite_url)
    game_id, _token = play.start_game(store, "clear-the-dungeon", {}, seed=1)
    game = play.load_game(store, game_id)
    play.act(store, game, play.SOLO_SEAT, {"type": "resign"}, writers=[verdicts.VerdictQueue(store, 500)])
    done = _wait_for(
        lambda: (job := solver_jobs.latest(store, game_id, verdicts.KIND)) and job.status == solver_jobs.DONE and job
    )
    assert done.owner is None and done.result["outcome"] in ("win", "no win", "unknown")
