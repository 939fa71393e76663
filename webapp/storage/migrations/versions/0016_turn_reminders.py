"""turn reminders: the turn whose reminder was claimed, on the game's row

``games.turn_reminded`` holds the turn key (``games.turn_key``) whose "your turn" reminder a
process has claimed (``webapp/domain/push.py``: a slow turn's last quarter). It is claimed by an
update that only lands while it differs from the running turn's key, so a reminder is sent once,
by one process, across restarts.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("turn_reminded", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("turn_reminded")
