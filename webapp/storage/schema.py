"""The database's tables (SQLAlchemy Core): the action log is the game, one row per game and one
row per accepted action; the other tables hold seats, chat, bot leases, this browser's seats,
shared deals and the Hall of Fame. Alembic's migrations (``migrations/``) build them."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("slug", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("players", Text, nullable=False),
    Column("version", Integer, nullable=False, default=0),
    # Bumped by every change a viewer can see (actions, seats, lobby, presence); the doorbell's number.
    Column("revision", Integer, nullable=False, default=0),
    # "waiting" (a multiplayer table filling up), "running" or "finished".
    Column("status", String(16), nullable=False, default="running"),
    # The waiting room: host seat and each seat's lobby choices (e.g. a class).
    Column("lobby", Text, nullable=False, default="{}"),
    # Engine state cache; "null" while waiting.
    Column("snapshot", Text, nullable=False),
    # The turn clock (multiplayer): which turn is running, since when, and when it times out.
    Column("turn_key", String(64), nullable=True),
    Column("turn_started_at", Float, nullable=True),
    Column("turn_deadline", Float, nullable=True),
    # The turn key whose reminder has been claimed (webapp/domain/push.py: a slow turn's last
    # quarter): set once per turn by whichever process claims it first, so it is sent once.
    Column("turn_reminded", String(64), nullable=True),
    Column("result", Text, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    # The highest seat number ("p<N>") ever given at this table. A seat left in the waiting room is
    # deleted, and its number must go to nobody else: pages and sockets name a seat by its id.
    Column("seats_issued", Integer, nullable=False, server_default="0"),
    # 1 once the game is practice (``rules_engine.undo``: undo past reveals), set with the stored
    # practice action: never ranked on a deal, in the Hall of Fame or in a browser's record.
    Column("practice", Integer, nullable=False, server_default="0"),
    # 1 once the game's player asked for a hint (webapp/domain/hints.py), set in the transaction
    # that queues it: never ranked, as a practice game is not.
    Column("assisted", Integer, nullable=False, server_default="0"),
    # How the deal was drawn (webapp/domain/deal_pools.py): "any" (a fresh random seed) or "winnable"
    # (from a pool of seeds the solver proved winnable). Records keep the two apart.
    Column("deal_kind", String(16), nullable=False, server_default="any"),
    # The running turns: the background loops that need one (turn timeouts, slow turns' reminders,
    # bots) look only at those games, never at the history of finished and abandoned games. A
    # finished game's turn key is cleared (``play.clock_after``); a solo game without a turn clock
    # has none (``records._RUNNING_TURNS``).
    Index("ix_games_turn_key", "turn_key"),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("seat", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(128), nullable=False),
    Column("joined_at", Float, nullable=False, default=0.0),
    # Presence (10.6 of the Dungeon of Doom): connected now, and when last seen.
    Column("connected", Integer, nullable=False, default=0),
    Column("last_seen", Float, nullable=False, default=0.0),
    # The absence action was applied (or is pointless): stop watching this seat.
    Column("gone", Integer, nullable=False, default=0),
    # For a seat taken mid-game: a keyed hash of the client address it came from (never the
    # address itself), to cap how many seats one address takes in a running game.
    Column("origin", String(64), nullable=True),
    # Bots (webapp/domain/bots.py): the level of the bot that plays this seat ("easy", "normal"), NULL
    # for a person; ``kept`` 1 while a bot plays a dropped player's seat until they come back.
    Column("bot", String(16), nullable=True),
    Column("kept", Integer, nullable=False, server_default="0"),
    # 1 once a bot has played this seat (its own, or a person's it kept), even after its player is
    # back: such a seat's result is never ranked (Hall of Fame, deals' rankings, browser records).
    Column("bot_played", Integer, nullable=False, server_default="0"),
    # The game's version when a bot began keeping this seat for its player, until the player has
    # read what the bot did for them (then NULL): their page lists the bot's actions since.
    Column("bot_since", Integer, nullable=True),
    # The seats the presence loop watches for absence (``SeatQueries.absent_seats``) and the bot
    # loop for abandoned tables: only seats not gone, and a finished game's seats are all gone, so
    # the loops read the games in play, never the history.
    Index("ix_seats_gone_connected_last_seen", "gone", "connected", "last_seen"),
)


def new_seat(game_id: str, seat: str, name: str, token_hash: str, now: float, **more) -> dict:
    """The row of a seat taken at ``now`` (not yet connected); ``more`` sets the other columns
    (``gone``, ``origin``, ``bot`` …)."""
    row = {"game_id": game_id, "seat": seat, "name": name, "token_hash": token_hash}
    return {**row, "joined_at": now, "connected": 0, "last_seen": now, "gone": 0, **more}


# Which process drives a running table's bots, and until when (webapp/domain/bots.py): exactly one at a
# time; a crashed process's lease runs out and another takes the table over.
bot_leases = Table(
    "bot_leases",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("expires_at", Float, nullable=False),
)

chat = Table(
    "chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(64), ForeignKey("games.id"), nullable=False, index=True),
    Column("seat", String(32), nullable=True),
    Column("name", String(64), nullable=False),
    Column("text", String(400), nullable=False),
    Column("created_at", Float, nullable=False),
)

actions = Table(
    "actions",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", String(32), nullable=False),
    Column("action", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    # 1: a bot played this action for its seat (webapp/domain/bots.py); the engine's action is the same.
    Column("bot", Integer, nullable=False, server_default="0"),
    # A bot's action: the log entries it wrote, per viewer ({seat, or "" for onlookers: [after, through]}
    # of each view's log ``seq``), so a page can say which lines were the bot's.
    Column("log_span", Text, nullable=True),
)


# This browser's seats (webapp/domain/browsers.py): what a browser without an account has played, keyed
# by the hash of its own unguessable cookie, for its record (played, won, best, streak).
browser_seats = Table(
    "browser_seats",
    metadata,
    Column("browser", String(64), primary_key=True),
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("seat", String(32), nullable=False),
    Column("created_at", Float, nullable=False),
)

# A finished solo game's deal offered to friends (webapp/deals.py): /c/<token>. The seed and options
# stay on the game row; the token alone travels.
challenges = Table(
    "challenges",
    metadata,
    Column("token", String(32), primary_key=True),
    Column("game_id", String(64), ForeignKey("games.id"), nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
    # The name its maker gives when making it ("Ann's challenge"); the ranking shows it for their game.
    Column("sender", String(64), nullable=False, server_default="Adventurer"),
)

# The deal of the day for each game, drawn in secret by the first request of the (UTC) day.
daily_deals = Table(
    "daily_deals",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("slug", String(64), primary_key=True),
    Column("seed", BigInteger, nullable=False),
    Column("options", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    # "winnable" when the day's seed came from a pool the solver proved winnable (deal_pools), else "any".
    Column("deal_kind", String(16), nullable=False, server_default="any"),
)

# A game played on a shared deal: "challenge:<token>" or "daily:<slug>:<day>". Ranked unless this
# browser had already played that deal (further attempts are practice).
deal_attempts = Table(
    "deal_attempts",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("deal", String(96), nullable=False, index=True),
    Column("browser", String(64), nullable=False, index=True),
    Column("ranked", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    # The keyed hash of the client address it came from (webapp/domain/seat_tokens.py: origin_hash): a deal ranks
    # one attempt per address as well as per browser (a fresh cookie is free to make).
    Column("origin", String(64), nullable=True),
)


# The Hall of Fame of Dungeon Cards (webapp/domain/hall_of_fame.py): one row per escape, kept across games.
hall_of_fame = Table(
    "hall_of_fame",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(64), ForeignKey("games.id"), nullable=False, index=True),
    Column("seat", String(32), nullable=False),
    Column("name", String(64), nullable=False),
    Column("character_class", String(16), nullable=False),
    Column("level", Integer, nullable=False),
    Column("lives", Integer, nullable=False),
    Column("max_lives", Integer, nullable=False),
    Column("speed", Integer, nullable=False),
    Column("bosses", Text, nullable=False),  # JSON list of ranks, e.g. ["J", "Q"]
    Column("turns", Integer, nullable=False),
    Column("outcome", String(16), nullable=False),  # "escaped" or "team victory"
    Column("turn_mode", String(24), nullable=False),
    Column("board", String(16), nullable=False),  # "10x10"
    Column("mods", Text, nullable=False),  # JSON list of the mods in use
    Column("party_size", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    # 1: the game was dealt from a stacked deck or stacked shuffles; kept out of the ranking.
    Column("set_deal", Integer, nullable=False, server_default="0"),
    # 1: a bot played the escaping seat (seats.bot_played); kept out of the ranking.
    Column("bot", Integer, nullable=False, server_default="0"),
    # One entry per character and game: recording is idempotent.
    UniqueConstraint("game_id", "seat", name="uq_hall_of_fame_game_seat"),
)


# Seeds the background solver proved winnable, per solo game and options (webapp/domain/deal_pools.py):
# a "winnable deals only" game takes one, deleting it in the transaction that stores the game.
winnable_deals = Table(
    "winnable_deals",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("slug", String(64), nullable=False),
    Column("options", String(512), nullable=False),  # JSON, keys sorted: the pool's key
    Column("seed", BigInteger, nullable=False),
    Column("nodes", Integer, nullable=False),  # the states the proof searched
    Column("created_at", Float, nullable=False),
    Index("ix_winnable_deals_slug_options", "slug", "options"),
)


# The background solver's queue (webapp/domain/solver_jobs.py, webapp/solver_worker.py): one row per
# job ("verdict": a finished solo game's deal; "hint"; "pool"), claimed by a worker under a lease.
solver_jobs = Table(
    "solver_jobs",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(64), ForeignKey("games.id"), nullable=True),
    Column("kind", String(16), nullable=False),
    Column("params", Text, nullable=False),  # JSON, keys sorted: the same params are the same text
    Column("status", String(16), nullable=False),  # "queued", "running", "done" or "failed"
    Column("result", Text, nullable=True),  # JSON, once done (failed: the sentence why)
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("owner", String(64), nullable=True),
    Column("lease_until", Float, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    Index("ix_solver_jobs_status_created_at", "status", "created_at"),
    Index("ix_solver_jobs_game_id_kind", "game_id", "kind"),
)


# "Your turn" notifications (webapp/domain/push.py): one row per browser's push subscription (the
# push service's endpoint and the browser's keys for RFC 8291's encryption), keyed to the browser's
# id hash, so it reaches the seats that browser holds (``browser_seats``). Deleted from the page, or
# when the push service answers 404/410 (the browser dropped it).
push_subscriptions = Table(
    "push_subscriptions",
    metadata,
    Column("endpoint", String(1024), primary_key=True),
    Column("browser", String(64), nullable=False, index=True),
    Column("p256dh", String(128), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
)

# The deployment's VAPID key pair (RFC 8292), made once by the first process that needs it (unless
# VAPID_PRIVATE_KEY sets one): one row, id 1. Every process and machine on the database signs with it.
vapid_keys = Table(
    "vapid_keys",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("private_key", String(64), nullable=False),  # raw 32-byte P-256 key, base64url
    Column("created_at", Float, nullable=False),
)
