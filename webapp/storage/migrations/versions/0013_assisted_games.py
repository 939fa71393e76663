"""which games are assisted: a hint was asked, never ranked

``games.assisted`` is 1 once the player of a solo game asked for a hint (``webapp/domain/hints.py``
sets it in the transaction that queues the hint). Like a practice game, an assisted one is never
ranked: deals' rankings, the Hall of Fame and a browser's record read it. Games stored before are
not assisted: none could be.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("assisted", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("assisted")
