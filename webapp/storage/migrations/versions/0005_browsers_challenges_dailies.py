"""browsers' seats, challenges, daily deals and the attempts on shared deals

A browser's record (played, won, best, streak) without accounts; "beat my score on this deal"
links; one deal a day for everybody. See webapp/deals.py and webapp/browsers.py.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "browser_seats",
        sa.Column("browser", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("seat", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("browser", "game_id"),
    )
    op.create_table(
        "challenges",
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("token"),
        sa.UniqueConstraint("game_id"),
    )
    op.create_table(
        "daily_deals",
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("slug", sa.String(length=64), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("day", "slug"),
    )
    op.create_table(
        "deal_attempts",
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("deal", sa.String(length=96), nullable=False),
        sa.Column("browser", sa.String(length=64), nullable=False),
        sa.Column("ranked", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("game_id"),
    )
    with op.batch_alter_table("deal_attempts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_deal_attempts_deal"), ["deal"], unique=False)
        batch_op.create_index(batch_op.f("ix_deal_attempts_browser"), ["browser"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("deal_attempts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_deal_attempts_browser"))
        batch_op.drop_index(batch_op.f("ix_deal_attempts_deal"))
    op.drop_table("deal_attempts")
    op.drop_table("daily_deals")
    op.drop_table("challenges")
    op.drop_table("browser_seats")
