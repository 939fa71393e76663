"""hall of fame

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table(
        "hall_of_fame",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("seat", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("character_class", sa.String(length=16), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("lives", sa.Integer(), nullable=False),
        sa.Column("max_lives", sa.Integer(), nullable=False),
        sa.Column("speed", sa.Integer(), nullable=False),
        sa.Column("bosses", sa.Text(), nullable=False),
        sa.Column("turns", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=16), nullable=False),
        sa.Column("turn_mode", sa.String(length=24), nullable=False),
        sa.Column("board", sa.String(length=16), nullable=False),
        sa.Column("mods", sa.Text(), nullable=False),
        sa.Column("party_size", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seat", name="uq_hall_of_fame_game_seat"),
    )
    with op.batch_alter_table("hall_of_fame", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_hall_of_fame_game_id"), ["game_id"], unique=False)


def downgrade() -> None:

    with op.batch_alter_table("hall_of_fame", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_hall_of_fame_game_id"))

    op.drop_table("hall_of_fame")
