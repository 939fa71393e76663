"""bots: a seat a bot plays (its level), a seat kept for a player while a bot plays it, and the
lease that lets exactly one process drive a table's bots

See webapp/bots.py. ``seats.bot`` is the level ("easy", "normal") of the bot that plays the seat,
NULL for a person; ``seats.kept`` is 1 while a bot plays a dropped player's seat until they come
back. ``bot_leases`` holds, per running game with bots, which process drives them and until when.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bot", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("kept", sa.Integer(), nullable=False, server_default="0"))
    op.create_table(
        "bot_leases",
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    op.drop_table("bot_leases")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("kept")
        batch_op.drop_column("bot")
