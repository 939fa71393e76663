"""loops read the games in play: indexes for the turn, presence and bot loops; finished games' seats gone

Every process asks, every second, which turns are due or nearly due (timeouts, slow turns'
reminders) and which seats are away or left to bots, and, four times a second, which tables have
bots to play. Without an index each of those questions read every game or every seat ever stored:
with 220,000 finished or abandoned games they took 31 to 150 ms each.

- ``games.turn_key`` is set only while a table's turn runs (cleared when the game ends, never set
  for a solo game without a turn clock): the turn and bot queries start from ``ix_games_turn_key``.
- The presence loop reads the seats not gone (``ix_seats_gone_connected_last_seen``). A finished
  game's seats are marked gone from now on, as an imported finished game's always were: nothing of
  a finished game is watched. This marks the seats of the games finished before.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_games_turn_key", "games", ["turn_key"])
    op.create_index("ix_seats_gone_connected_last_seen", "seats", ["gone", "connected", "last_seen"])
    games = sa.table("games", sa.column("id", sa.String), sa.column("status", sa.String))
    seats = sa.table("seats", sa.column("game_id", sa.String), sa.column("gone", sa.Integer))
    finished = sa.select(games.c.id).where(games.c.status == "finished")
    op.execute(seats.update().where(seats.c.gone == 0, seats.c.game_id.in_(finished)).values(gone=1))


def downgrade() -> None:
    # The finished games' seats stay gone: nothing read them as present once their game was over.
    op.drop_index("ix_seats_gone_connected_last_seen", table_name="seats")
    op.drop_index("ix_games_turn_key", table_name="games")
