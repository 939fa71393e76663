"""which games are practice: never ranked

``games.practice`` is 1 once a solo game is practice (opened as practice, or switched once: its
stored ``{"type": "practice"}`` action sets it in the same transaction). Deals' rankings, the Hall
of Fame and a browser's record read it; the engine's state says the same (``rules_engine.undo``).
Games stored before are not practice: none could be.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("practice", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("practice")
