"""the solver's job queue: verdicts after a solo game, hints, later deal pools

``solver_jobs`` holds one row per piece of work for the background solver (webapp/solver_worker.py):
its kind ("verdict", "hint", "pool"), the game it is about (none for a pool), its parameters and
result as JSON text, and the lease of the worker running it (``owner``, ``lease_until``): a job
whose lease ran out is claimed again, up to three attempts (webapp/domain/solver_jobs.py).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "solver_jobs",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("params", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("owner", sa.String(length=64), nullable=True),
        sa.Column("lease_until", sa.Float(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_solver_jobs_status_created_at", "solver_jobs", ["status", "created_at"])
    op.create_index("ix_solver_jobs_game_id_kind", "solver_jobs", ["game_id", "kind"])


def downgrade() -> None:
    op.drop_index("ix_solver_jobs_game_id_kind", table_name="solver_jobs")
    op.drop_index("ix_solver_jobs_status_created_at", table_name="solver_jobs")
    op.drop_table("solver_jobs")
