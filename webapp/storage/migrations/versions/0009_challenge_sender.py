"""a challenge names its sender

``challenges.sender`` is the name the challenge's maker gives when they make it ("Ann's
challenge"): the ranking shows it for their game as well. An existing challenge takes its source
game's player name (its one seat's; "Adventurer" until now).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("challenges", schema=None) as batch_op:
        batch_op.add_column(sa.Column("sender", sa.String(length=64), nullable=False, server_default="Adventurer"))
    op.execute(
        "UPDATE challenges SET sender = (SELECT seats.name FROM seats WHERE seats.game_id = challenges.game_id"
        " ORDER BY seats.seat LIMIT 1) WHERE EXISTS (SELECT 1 FROM seats WHERE seats.game_id = challenges.game_id)"
    )


def downgrade() -> None:
    with op.batch_alter_table("challenges", schema=None) as batch_op:
        batch_op.drop_column("sender")
