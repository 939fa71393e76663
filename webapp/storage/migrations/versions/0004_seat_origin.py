"""seats: the client address a seat was taken from, as a keyed hash

A running Dungeon of Doom table takes newcomers; without knowing where a mid-game seat came from, one
client could join, look and leave again and again to map a secret dungeon. The store keeps only
an HMAC of the address (webapp/seats.py: origin_of), never the address itself.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Seats taken before this column existed have no known origin: NULL counts against nobody.
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("origin", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("origin")
