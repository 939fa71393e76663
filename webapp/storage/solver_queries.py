"""The store's solver jobs (``solver_jobs``): queueing, the lease a worker claims a job under, and
its result. The rules of the queue (which kinds, what it holds at most) are the domain's
(``webapp/domain/solver_jobs.py``); these are its statements."""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import case, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine

from .schema import solver_jobs

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"


def _claimable(now: float):
    """A job a worker may take: queued, or running under a lease that ran out (its worker died)."""
    return or_(
        solver_jobs.c.status == QUEUED,
        (solver_jobs.c.status == RUNNING) & (solver_jobs.c.lease_until < now),
    )


class SolverQueries:
    """Part of ``Store``: the solver's job queue."""

    engine: Engine

    def find_solver_job(self, conn: Connection, game_id: str | None, kind: str, params: str) -> Mapping | None:
        """Inside a transaction: the newest job of ``kind`` for the game with exactly ``params``."""
        return (
            conn.execute(
                select(solver_jobs)
                .where(solver_jobs.c.game_id == game_id, solver_jobs.c.kind == kind, solver_jobs.c.params == params)
                .order_by(solver_jobs.c.id.desc())
                .limit(1)
            )
            .mappings()
            .first()
        )

    def queued_solver_jobs(self, conn: Connection, kinds: tuple[str, ...]) -> int:
        """Inside a transaction: how many jobs of ``kinds`` wait to be run."""
        return conn.execute(
            select(func.count())
            .select_from(solver_jobs)
            .where(solver_jobs.c.status == QUEUED, solver_jobs.c.kind.in_(kinds))
        ).scalar_one()

    def insert_solver_job(self, conn: Connection, game_id: str | None, kind: str, params: str, now: float) -> int:
        return conn.execute(
            insert(solver_jobs)
            .values(game_id=game_id, kind=kind, params=params, status=QUEUED, attempts=0, created_at=now)
            .returning(solver_jobs.c.id)
        ).scalar_one()

    def solver_job(self, job_id: int) -> Mapping | None:
        with self.engine.connect() as conn:
            return conn.execute(select(solver_jobs).where(solver_jobs.c.id == job_id)).mappings().first()

    def latest_solver_job(self, game_id: str, kind: str, params: str | None) -> Mapping | None:
        """The newest job of ``kind`` for the game (with exactly ``params`` when given)."""
        query = select(solver_jobs).where(solver_jobs.c.game_id == game_id, solver_jobs.c.kind == kind)
        if params is not None:
            query = query.where(solver_jobs.c.params == params)
        with self.engine.connect() as conn:
            return conn.execute(query.order_by(solver_jobs.c.id.desc()).limit(1)).mappings().first()

    def give_up_solver_jobs(self, now: float, max_attempts: int, why: str) -> int:
        """Jobs whose lease ran out after their last allowed attempt are failed, with ``why``."""
        with self.engine.begin() as conn:
            return conn.execute(
                update(solver_jobs)
                .where(
                    solver_jobs.c.status == RUNNING,
                    solver_jobs.c.lease_until < now,
                    solver_jobs.c.attempts >= max_attempts,
                )
                .values(status=FAILED, result=why, owner=None, lease_until=None, finished_at=now)
            ).rowcount

    def claim_solver_job(
        self,
        owner: str,
        now: float,
        lease_seconds: float,
        first_kinds: tuple[str, ...],
        last_kinds: tuple[str, ...] = (),
    ) -> Mapping | None:
        """Take the next job under a lease until ``now + lease_seconds``: ``first_kinds`` before
        the others and ``last_kinds`` after them, then the oldest. One conditional UPDATE on the
        job found: SQLite runs writers one at a time and PostgreSQL re-checks its WHERE on a row a
        concurrent writer just changed, so two workers never both hold a job (the loser looks
        again)."""
        ranks = []
        if first_kinds:
            ranks.append((solver_jobs.c.kind.in_(first_kinds), 0))
        if last_kinds:
            ranks.append((solver_jobs.c.kind.in_(last_kinds), 2))
        order = [case(*ranks, else_=1)] if ranks else []
        for _try in range(5):
            with self.engine.begin() as conn:
                found = conn.execute(
                    select(solver_jobs.c.id)
                    .where(_claimable(now))
                    .order_by(*order, solver_jobs.c.created_at, solver_jobs.c.id)
                    .limit(1)
                ).scalar()
                if found is None:
                    return None
                claimed = (
                    conn.execute(
                        update(solver_jobs)
                        .where(solver_jobs.c.id == found, _claimable(now))
                        .values(
                            status=RUNNING,
                            owner=owner,
                            lease_until=now + lease_seconds,
                            attempts=solver_jobs.c.attempts + 1,
                        )
                        .returning(*solver_jobs.c)
                    )
                    .mappings()
                    .first()
                )
                if claimed is not None:
                    return claimed
        return None

    def renew_solver_lease(self, job_id: int, owner: str, until: float) -> bool:
        """Hold the job's lease on until ``until``: False when another worker has taken it."""
        with self.engine.begin() as conn:
            return bool(
                conn.execute(
                    update(solver_jobs)
                    .where(solver_jobs.c.id == job_id, solver_jobs.c.owner == owner, solver_jobs.c.status == RUNNING)
                    .values(lease_until=until)
                ).rowcount
            )

    def end_solver_job(self, job_id: int, owner: str, status: str, result: str | None, now: float) -> bool:
        """The job is over (``done`` with its result, ``failed`` with the sentence why, or back to
        ``queued`` for another attempt), if ``owner`` still holds it; False if it lost the lease."""
        finished = now if status in (DONE, FAILED) else None
        with self.engine.begin() as conn:
            return bool(
                conn.execute(
                    update(solver_jobs)
                    .where(solver_jobs.c.id == job_id, solver_jobs.c.owner == owner, solver_jobs.c.status == RUNNING)
                    .values(status=status, result=result, owner=None, lease_until=None, finished_at=finished)
                ).rowcount
            )
