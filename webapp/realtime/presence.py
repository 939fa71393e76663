"""Presence and the turn clock for multiplayer games (the Dungeon of Doom's 10.6, shared by
every multiplayer game): who has a page open, when an absent seat is dropped, when a turn times
out. The engine knows nothing of time; this module applies the game's server actions.

A seat counts as present while one of its pages holds a Socket.IO connection (proved by a
signed presence ticket — never the seat token) or it made a request in the last GRACE seconds.
"""

from __future__ import annotations

import logging
import time

from flask import Flask

from ..domain import bots, play
from ..domain.bots import BotDriver
from ..domain.service import GRACE_SECONDS, REQUEST_SEEN_EVERY, GameService
from ..storage.store import Store
from .connections import connections

__all__ = ["GRACE_SECONDS", "REQUEST_SEEN_EVERY", "start_background_jobs", "start_bot_loop", "tick"]

log = logging.getLogger("delve.presence")
bot_log = logging.getLogger("delve.bots")

HEARTBEAT_SECONDS = 10.0
TICK_SECONDS = 1.0


def expire_turns(service: GameService, now: float) -> None:
    """End every turn whose time is up (the game's timeout action for the seat whose turn it is)."""
    store = service.store
    for game_id in store.due_turns(now):
        game = play.load_game(store, game_id)
        if game is None:
            continue
        clock = game.rules.turn_clock(game.state)
        action = game.rules.timeout_action
        if clock and action:
            service.server_action(game_id, clock["seat"], dict(action), expected_clock=game.record.turn_key)


def drop_absent(service: GameService, now: float) -> None:
    """Apply the game's absence action to every seat away for longer than the grace period, or,
    in a game with bots, let a bot keep the seat until its player is back (``service.take_over``).
    Not at a slow table (``rules_engine.turn_limits``): its players come and go over days, and
    only its turn clock moves the game on."""
    store = service.store
    for game_id, seat in store.absent_seats(now - GRACE_SECONDS):
        game = play.load_game(store, game_id)
        if game is not None and service.take_over(game, seat):
            continue
        action = game.rules.absence_action if game else None
        landed = action is not None and service.server_action(game_id, seat, dict(action))
        if not landed:
            # Nothing to do for that seat (already dead, left, or the game has no such rule).
            store.mark_gone(game_id, seat)


def end_abandoned(service: GameService, now: float) -> None:
    """End the games only bots have played for ``bots.ABANDONED_SECONDS``: each bot still in the
    game leaves as an absent person would (the game's absence action), so the rules end it."""
    store = service.store
    for game_id, seat in store.abandoned_bot_seats(now - bots.ABANDONED_SECONDS):
        game = play.load_game(store, game_id)
        action = game.rules.absence_action if game else None
        if action is None or not service.server_action(game_id, seat, dict(action)):
            store.mark_gone(game_id, seat)  # left already, or the game has no such rule


def tick(service: GameService, now: float | None = None) -> None:
    """One pass of the clock: time out overdue turns, drop seats absent beyond the grace period,
    end the tables nobody but bots has been at for a long time, then tell the clock's listeners
    (the reminders of slow turns, domain/push.py: after the timeouts, so an overdue turn is ended,
    not reminded)."""
    now = time.time() if now is None else now
    expire_turns(service, now)
    drop_absent(service, now)
    end_abandoned(service, now)
    for listener in service.clock_listeners:
        listener(now)


def heartbeat(store: Store) -> None:
    store.seen(connections.pairs())


def start_background_jobs(app: Flask, socketio) -> None:
    """One loop per server process: heartbeat every HEARTBEAT_SECONDS, clock tick every second."""
    service: GameService = app.extensions["delve_service"]
    store = service.store
    store.after_restart(GRACE_SECONDS)

    def loop():
        last_beat = 0.0
        while True:
            socketio.sleep(TICK_SECONDS)
            try:
                with app.app_context():
                    if time.time() - last_beat >= HEARTBEAT_SECONDS:
                        heartbeat(store)
                        last_beat = time.time()
                    tick(service)
            except Exception:  # the loop must outlive any one bad game or database hiccup
                log.exception("presence/clock tick failed")

    socketio.start_background_task(loop)


def start_bot_loop(app: Flask, socketio) -> BotDriver:
    """This process's bot loop: a pass every TICK_SECONDS (a greenlet under gevent)."""
    driver = BotDriver(
        app.extensions["delve_service"],
        secret=app.config["SECRET_KEY"],
        delay=float(app.config.get("BOT_DELAY_SECONDS", bots.DEFAULT_DELAY_SECONDS)),
    )
    app.extensions["delve_bots"] = driver

    def loop():
        while True:
            socketio.sleep(bots.TICK_SECONDS)
            try:
                with app.app_context():
                    driver.tick()
            except Exception:  # the loop must outlive a database hiccup
                bot_log.exception("bot tick failed")

    socketio.start_background_task(loop)
    return driver
