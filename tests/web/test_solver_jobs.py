"""The solver's job queue (webapp/domain/solver_jobs.py) and the worker's loop (webapp/solver_worker.py),
in-process on a real SQLite file: idempotent queueing, hints first, leases that run out, attempts
capped, a bounded queue, the CPU share's rests. tests/ops/test_solver_worker.py runs the real process."""

from __future__ import annotations

import time

import pytest

from webapp import solver_worker
from webapp.domain import solver_jobs
from webapp.domain.solver_jobs import DONE, FAILED, QUEUED, RUNNING


@pytest.fixture
def kinds(monkeypatch):
    """Runners of the test's own for the kinds it queues."""
    ran: list[int] = []

    def record(_store, job):
        ran.append(job.id)
        return {"n": job.params.get("n")}

    for kind in ("verdict", "hint", "pool"):
        monkeypatch.setitem(solver_jobs.KINDS, kind, record)
    return ran


def test_queueing_the_same_job_again_gives_the_job_already_there(store, kinds):
    first = solver_jobs.enqueue(store, "pool", None, {"n": 1})
    assert solver_jobs.enqueue(store, "pool", None, {"n": 1}) == first
    assert solver_jobs.enqueue(store, "pool", None, {"n": 2}) != first
    assert solver_jobs.job(store, first).status == QUEUED


def test_hints_go_before_older_jobs_then_the_oldest_first(store, kinds):
    older = solver_jobs.enqueue(store, "pool", None, {"n": 1})
    old = solver_jobs.enqueue(store, "pool", None, {"n": 2})
    hint = solver_jobs.enqueue(store, "hint", None, {"n": 3})
    while solver_jobs.run_next(store, owner="w") is not None:
        pass
    assert kinds == [hint, older, old]
    assert solver_jobs.job(store, hint).result == {"n": 3}
    assert solver_jobs.run_next(store, owner="w") is None


def test_a_bounded_kind_is_refused_when_the_queue_is_full_and_a_hint_never(store, kinds):
    solver_jobs.enqueue(store, "verdict", None, {"n": 1}, limit=2)
    solver_jobs.enqueue(store, "pool", None, {"n": 2}, limit=2)
    with pytest.raises(solver_jobs.QueueFull):
        solver_jobs.enqueue(store, "verdict", None, {"n": 3}, limit=2)
    assert solver_jobs.enqueue(store, "verdict", None, {"n": 1}, limit=2)  # the one already there
    assert solver_jobs.enqueue(store, "hint", None, {"n": 4}, limit=2)
    solver_jobs.run_next(store, owner="w")  # the hint
    solver_jobs.run_next(store, owner="w")  # a verdict: one place is free again
    assert solver_jobs.enqueue(store, "verdict", None, {"n": 3}, limit=2)


def test_a_runner_that_fails_is_tried_again_then_failed_with_a_sentence(store, monkeypatch):
    def broken(_store, _job):
        raise RuntimeError("boom")

    monkeypatch.setitem(solver_jobs.KINDS, "pool", broken)
    job_id = solver_jobs.enqueue(store, "pool", None, {})
    seen = [solver_jobs.run_next(store, owner="w") for _attempt in range(solver_jobs.MAX_ATTEMPTS)]
    assert [job.status for job in seen] == [QUEUED, QUEUED, FAILED]
    assert solver_jobs.job(store, job_id).failed_because == solver_jobs.CRASHED
    assert solver_jobs.run_next(store, owner="w") is None


def test_a_job_whose_worker_died_is_claimed_again_until_its_attempts_run_out(store, kinds):
    job_id = solver_jobs.enqueue(store, "pool", None, {"n": 7})
    now = time.time()
    for attempt in range(1, solver_jobs.MAX_ATTEMPTS + 1):
        # A worker takes it and dies: its lease runs out (it was claimed "long ago").
        taken_at = now - 100 + 20 * attempt
        claimed = store.claim_solver_job(f"dead{attempt}", taken_at, 10, ())
        assert claimed["id"] == job_id and claimed["attempts"] == attempt
        # Until its lease runs out, nobody else takes the job.
        assert store.claim_solver_job("other", taken_at + 5, 10, ()) is None
    assert solver_jobs.run_next(store, owner="w") is None  # the third death was its last attempt
    assert solver_jobs.job(store, job_id).failed_because == solver_jobs.GAVE_UP
    assert kinds == []


def test_a_dead_workers_job_is_finished_by_the_next_one(store, kinds):
    job_id = solver_jobs.enqueue(store, "pool", None, {"n": 8})
    store.claim_solver_job("dead", time.time() - 100, 10, ())
    assert solver_jobs.job(store, job_id).status == RUNNING
    done = solver_jobs.run_next(store, owner="alive")
    assert (done.id, done.status, done.attempts, done.result) == (job_id, DONE, 2, {"n": 8})
    # The dead worker's late answer is not taken: the job is no longer its.
    assert not store.end_solver_job(job_id, "dead", DONE, '{"n": 0}', time.time())
    assert not store.renew_solver_lease(job_id, "dead", time.time() + 10)


def test_the_worker_rests_after_each_job_to_keep_to_its_cpu_share(db_url, monkeypatch):
    """The loop's rest after a job of t seconds is t·(1−share)/share; with nothing queued it waits
    IDLE_SECONDS. The job's duration comes from a clock the runner moves."""
    from webapp.storage.store import Store

    store = Store(db_url)
    clock = {"now": 1000.0}

    def two_seconds_of_work(_store, _job):
        clock["now"] += 2.0
        return {}

    monkeypatch.setitem(solver_jobs.KINDS, "pool", two_seconds_of_work)
    monkeypatch.setattr(solver_worker.time, "monotonic", lambda: clock["now"])
    monkeypatch.setattr(solver_worker, "lower_priority", lambda: 19)
    solver_jobs.enqueue(store, "pool", None, {"n": 1})
    solver_jobs.enqueue(store, "pool", None, {"n": 2})
    rests: list[float] = []
    solver_worker.serve(db_url, cpu_share=0.25, sleep=rests.append, keep_going=lambda: len(rests) < 3)
    assert rests == [6.0, 6.0, solver_worker.IDLE_SECONDS]
    store.engine.dispose()
