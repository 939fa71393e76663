"""hall of fame: set deals

Escapes on a stacked deal are marked, so the ranking can leave them out (webapp/hall_of_fame.py).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Entries written before this column existed are not known to be set deals: 0 (the server default).
    with op.batch_alter_table("hall_of_fame", schema=None) as batch_op:
        batch_op.add_column(sa.Column("set_deal", sa.Integer(), server_default="0", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("hall_of_fame", schema=None) as batch_op:
        batch_op.drop_column("set_deal")
