"""which stored actions a bot made, and what a returning player has yet to read

``actions.bot`` is 1 for an action a bot played for its seat (the action itself is unchanged:
replays and imports apply it as before), ``actions.log_span`` the log entries it wrote in each
viewer's log, so a page marks the bot's lines; ``seats.bot_since`` is the game's version when a
bot began keeping a player's seat, until the player has read what the bot did for them. Actions
stored before are a person's (nobody can tell any more).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bot", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("log_span", sa.Text(), nullable=True))
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bot_since", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("bot_since")
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.drop_column("log_span")
        batch_op.drop_column("bot")
