"""push subscriptions: "your turn" notifications by Web Push, and the deployment's VAPID key

``push_subscriptions`` holds each browser's push subscription (endpoint, the browser's P-256 key
and auth secret), keyed to the browser id's hash, so a turn reaches the seats that browser holds
(``browser_seats``). ``vapid_keys`` holds the key pair every process signs with (one row), made
once by the first process that needs it (``webapp/domain/push.py``).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint", sa.String(length=1024), nullable=False),
        sa.Column("browser", sa.String(length=64), nullable=False),
        sa.Column("p256dh", sa.String(length=128), nullable=False),
        sa.Column("auth", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("endpoint"),
    )
    op.create_index("ix_push_subscriptions_browser", "push_subscriptions", ["browser"])
    op.create_table(
        "vapid_keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("private_key", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    op.drop_table("vapid_keys")
    op.drop_index("ix_push_subscriptions_browser", table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
