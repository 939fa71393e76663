"""games.seats_issued: the highest seat number ever given at a table, so a seat left in the
waiting room (its row deleted) never goes to anyone else

A page names its seat by its id (its presence ticket); a seat id given twice let a page kept
open after leaving prove the next joiner's seat. Tables made before this start at 0: their next
seat is still one past the highest seat they hold.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seats_issued", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("seats_issued")
