"""Bots at the table: who plays a bot seat, and the loop that drives them (issue 16).

A seat is a bot's when its row says so (``seats.bot`` = the level, "easy" or "normal"): one the
host added in the waiting room, or a dropped player's seat a bot keeps for them (``seats.kept``,
see ``presence.drop_absent``) until their page comes back. A bot seat's token hash is the hash of
a token nobody was given, so no browser can act for it; the bot acts through
``GameService.act`` with its own seat like any player, so each of its actions is stored, pushed
and in the replay, and refused like anyone's if the game moved on.

Driving (``BotDriver``), decided here:

- One loop per server process (``realtime.presence.start_bot_loop``, started beside the presence
  loop from ``create_app``): a greenlet under gevent, never a thread per bot. Every TICK_SECONDS it reads,
  in one query, the running games where a bot plays a seat still in the game.
- **Exactly one process drives a table**: before acting it holds the game's row in
  ``bot_leases`` (``Store.take_lease``: one conditional UPDATE, or the INSERT of a game never
  leased). The lease lasts LEASE_SECONDS and is renewed once less than half of it is left, so a
  table costs a lease write every few seconds, not every tick; a crashed process's leases run
  out and whichever process reads the table next takes it. The action's own optimistic lock
  (``seq = version + 1``) would refuse a second copy anyway: the lease keeps two processes from
  even trying.
- **Human pace**: a bot acts only once ``BOT_DELAY_SECONDS`` (default 1.0) have passed since the
  game last changed (``games.updated_at``), one action a table per pass, so the others can follow
  the board. Where several bot seats owe a decision at once, the seat whose turn the clock names
  goes first, then the others in join order.
- **What a bot knows**: ``decide(slug, rules.view(state, seat), rules.legal_actions(state, seat),
  rng=…)``: its seat's view, never the state. The rng is seeded from an HMAC of (game, version,
  seat) under SECRET_KEY: a restart makes the same choice, and nobody without the key can
  foresee a bot's coin flips from the public game id.
- **Restart**: nothing lives only in memory: the bot seats, the action log and the leases are in
  the database, so a restarted process simply reads the tables again and carries on.
- A version where no bot seat had a decision is remembered, and the game skipped until its
  version moves: a table waiting on its humans costs one row of the query a pass, nothing more.
- A bot's ``StaleVersion`` or refusal is not an error: the next pass decides again on the new
  board (and a refusal is logged: a bot that picks a refused action is a bot bug).
"""

from __future__ import annotations

import collections
import hashlib
import hmac
import logging
import os
import random
import secrets
import socket
import time

import rules_engine
from rules_engine.bots import BOT_GAMES, LEVELS, decide, has_choice

from ..config import ConfigError
from ..storage.records import StaleVersion
from . import play

log = logging.getLogger("delve.bots")

DEFAULT_DELAY_SECONDS = 1.0
TICK_SECONDS = 0.25
LEASE_SECONDS = 6.0
TAKE_OVER_LEVEL = "normal"
"""A dropped player's seat is kept by the stronger bot: the table should not lose by the drop."""
BOT_NAME = "Bot"
ABANDONED_SECONDS = 600.0
"""A table's bots play only while a person is at it (``Store.bot_tables``); one no person has
been at for this long is ended by the presence loop (``presence.end_abandoned``)."""
BOT_TABLES_PER_ADDRESS = 5
"""Running tables with bots one client address may host at once ("Play now with bots", or a
waiting room's start with bots): each one's bots cost the server their play."""
DECISION_SAMPLES = 4096


def supports_bots(slug: str) -> bool:
    return slug in BOT_GAMES


def delay_from_environment() -> float:
    """``BOT_DELAY_SECONDS``: seconds a bot waits after the game last changed before it acts."""
    raw = os.environ.get("BOT_DELAY_SECONDS", "")
    if raw.strip() == "":
        return DEFAULT_DELAY_SECONDS
    try:
        delay = float(raw)
    except ValueError:
        raise ConfigError("BOT_DELAY_SECONDS must be a number of seconds (e.g. 1 or 0.5)") from None
    if not 0 <= delay <= 60:
        raise ConfigError("BOT_DELAY_SECONDS must be between 0 and 60 seconds")
    return delay


def process_owner() -> str:
    """This process's name in ``bot_leases``: host, pid and a random part (a restarted process
    with the same pid is another owner: it waits out the dead one's lease like anyone)."""
    return f"{socket.gethostname()[:32]}:{os.getpid()}:{secrets.token_hex(4)}"


def bot_rng(secret: str, game_id: str, version: int, seat: str) -> random.Random:
    digest = hmac.new(secret.encode(), f"{game_id}:{version}:{seat}".encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


class BotDriver:
    """Drives the bots of every table this process holds the lease of; ``tick()`` is one pass."""

    def __init__(self, service, *, secret: str, delay: float = DEFAULT_DELAY_SECONDS, owner: str | None = None):
        self.service = service
        self.store = service.store
        self.secret = secret
        self.delay = delay
        self.owner = owner or process_owner()
        self.lease_seconds = LEASE_SECONDS
        self._held: dict[str, float] = {}  # game -> when our lease on it runs out
        self._idle: dict[str, int] = {}  # game -> a version at which no bot seat had a decision
        self.decision_seconds: collections.deque[float] = collections.deque(maxlen=DECISION_SAMPLES)
        self.actions = 0

    def tick(self, now: float | None = None) -> int:
        """One pass over the tables with bots: the number of bot actions that landed."""
        now = time.time() if now is None else now
        tables = self.store.bot_tables()
        for game_id in [g for g in self._held if g not in tables]:
            self.store.release_lease(game_id, self.owner)  # over, or no bot left in it
            del self._held[game_id]
        for game_id in [g for g in self._idle if g not in tables]:
            del self._idle[game_id]
        landed = 0
        for game_id, (version, updated_at, bot_seats) in tables.items():
            if self._idle.get(game_id) == version or now < updated_at + self.delay:
                continue
            if not self._lease(game_id, now):
                continue
            try:
                landed += self.play_one(game_id, bot_seats)
            except Exception:  # one broken table must not stop every other table's bots
                log.exception("bot turn failed in %s", game_id)
        return landed

    def _lease(self, game_id: str, now: float) -> bool:
        expires = self._held.get(game_id)
        if expires is not None and expires - now > self.lease_seconds / 2:
            return True
        if self.store.take_lease(game_id, self.owner, now, self.lease_seconds):
            self._held[game_id] = now + self.lease_seconds
            return True
        self._held.pop(game_id, None)
        return False

    def play_one(self, game_id: str, bot_seats: list[str]) -> int:
        """One bot action at this table, if a bot seat has a decision to make: 1 if it landed."""
        game = play.load_game(self.store, game_id)
        if game is None or game.record.status != "running" or game.state is None:
            return 0
        rules = game.rules
        clock = rules.turn_clock(game.state)
        first = clock["seat"] if clock else None
        for seat in sorted(bot_seats, key=lambda s: s != first):
            legal = rules.legal_actions(game.state, seat)
            if not has_choice(game.record.slug, legal):
                continue  # nothing to do but quit: waiting for another seat
            levels = {s.seat: s.bot for s in self.store.seats(game_id)}
            level = levels.get(seat)
            if level is None:
                return 0  # its player came back since the query: the seat is theirs
            started = time.perf_counter()
            action = decide(
                game.record.slug,
                rules.view(game.state, seat),
                legal,
                rng=bot_rng(self.secret, game_id, game.version, seat),
                level=level if level in LEVELS else TAKE_OVER_LEVEL,
            )
            self.decision_seconds.append(time.perf_counter() - started)
            try:
                self.service.act(game, seat, action, bot=True)
            except StaleVersion:
                return 0  # a person acted first: decide again on the new board
            except (rules_engine.IllegalAction, rules_engine.InvalidAction) as error:
                log.warning("bot in %s (%s) chose a refused %r: %s", game_id, seat, action.get("type"), error)
                return 0
            self.actions += 1
            return 1
        self._idle[game_id] = game.version
        return 0
