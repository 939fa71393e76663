"""running turns index: the turn and bot loops read the running turns, not the whole history

Every process asks, every second, which turns are due or nearly due (timeouts, slow turns'
reminders) and, four times a second, which tables have bots to play. Without an index each of
those questions read every game ever stored: with 220,000 finished or abandoned games they took
31 to 150 ms each. ``games.turn_key`` is set only while a table's turn runs (cleared when the game
ends, never set for a solo game without a turn clock), so those queries start from this index.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-29
"""

from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_games_turn_key", "games", ["turn_key"])


def downgrade() -> None:
    op.drop_index("ix_games_turn_key", table_name="games")
