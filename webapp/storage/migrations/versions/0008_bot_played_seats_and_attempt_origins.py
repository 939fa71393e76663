"""rankings hold only what a person played, once per deal per browser and per address

``seats.bot_played`` is 1 once a bot has played the seat (a bot's own seat, or a person's seat a
bot kept for them), even after its player is back; ``hall_of_fame.bot`` marks an escape of such a
seat, kept out of the ranking; ``deal_attempts.origin`` is the keyed hash of the client address an
attempt came from (webapp/seats.py: origin_of), so a deal ranks one attempt per address as well
as per browser. Existing bot seats (and seats a bot keeps now) count as played by a bot, and
their escapes are marked.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bot_played", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("hall_of_fame", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bot", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("deal_attempts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("origin", sa.String(length=64), nullable=True))
    op.execute("UPDATE seats SET bot_played = 1 WHERE bot IS NOT NULL")
    op.execute(
        "UPDATE hall_of_fame SET bot = 1 WHERE EXISTS (SELECT 1 FROM seats WHERE seats.game_id = hall_of_fame.game_id"
        " AND seats.seat = hall_of_fame.seat AND seats.bot_played = 1)"
    )


def downgrade() -> None:
    with op.batch_alter_table("deal_attempts", schema=None) as batch_op:
        batch_op.drop_column("origin")
    with op.batch_alter_table("hall_of_fame", schema=None) as batch_op:
        batch_op.drop_column("bot")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("bot_played")
