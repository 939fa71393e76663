"""winnable deals: pools of seeds the solver proved winnable, and which games were dealt from one

``winnable_deals`` holds, per solo game and set of options (``options``: the options' JSON, keys
sorted), seeds the background solver proved winnable (``webapp/domain/deal_pools.py``), with the
number of nodes the proof took. A seed is deleted in the transaction that deals it, so no two
games get it. ``games.deal_kind`` and ``daily_deals.deal_kind`` say how a game's or a day's deal
was drawn: "any" (a fresh random seed: everything stored before) or "winnable" (from a pool).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "winnable_deals",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("slug", sa.String(length=64), nullable=False),
        sa.Column("options", sa.String(length=512), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("nodes", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_winnable_deals_slug_options", "winnable_deals", ["slug", "options"])
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deal_kind", sa.String(length=16), nullable=False, server_default="any"))
    with op.batch_alter_table("daily_deals", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deal_kind", sa.String(length=16), nullable=False, server_default="any"))


def downgrade() -> None:
    with op.batch_alter_table("daily_deals", schema=None) as batch_op:
        batch_op.drop_column("deal_kind")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("deal_kind")
    op.drop_index("ix_winnable_deals_slug_options", table_name="winnable_deals")
    op.drop_table("winnable_deals")
