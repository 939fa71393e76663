"""Commit, then ring: the one path by which anything changes a stored game.

Every change a viewer can see — an action, a seat taken or given up, a waiting-room choice, a
start, a "Play again" — goes through ``GameService``: it stores the change (each store write
returns the game's new revision, in its own transaction), and only then rings the doorbell with
that revision. Routes translate requests and ``Refused`` into HTTP answers and nothing more;
the presence loop applies timeouts and drops through the same ``server_action``.

The service is made once per app in ``create_app`` with what it needs (the store, the doorbell,
the writers that land inside an action's transaction): nothing registers itself on import.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import rules_engine

from ..storage.records import StaleVersion
from ..storage.store import Store
from . import bots, play, seat_tokens
from .catalog import BY_SLUG, clean_name

log = logging.getLogger("delve.service")

SEATS_PER_ADDRESS = 2
"""Seats one client address may take in a running game, over the game's whole life: a newcomer
is placed at random and sees around them, so joining and leaving again and again would map a
secret dungeon. Seats taken in the waiting room do not count (a household on one connection
sits down together); two mid-game joins let a late pair on one connection both play."""
GRACE_SECONDS = 60.0
"""A seat away this long (no open page, no request) is dropped, or kept by a bot (10.6)."""
REQUEST_SEEN_EVERY = 5.0
"""A seated request refreshes ``last_seen`` only when it is older than this (``pages.board.seat_rows``)."""
ROSTER_CAP = 64
"""Living seats a running table may hold at most (the rules' own table size is lower)."""
JOIN_TRIES = 3


def missing_choices(fields: Sequence, choices: dict, seated: Sequence[tuple[str, str]]) -> str | None:
    """Who still owes a waiting-room choice, as the words the Start button shows, or None.

    ``fields`` the game's lobby fields, ``choices`` the lobby's {seat: {field: value}}, ``seated``
    (seat, name) pairs in join order. Every seat makes every lobby choice before the start (Dungeon
    Cards: a class each), so the game begins with nothing left to choose: the waiting room is the
    one place for it."""
    for field in fields:
        owing = [name for seat, name in seated if field.name not in choices.get(seat, {})]
        if owing:
            names = owing[0] if len(owing) == 1 else ", ".join(owing[:-1]) + " and " + owing[-1]
            return f"waiting for {names} to choose a {field.label.lower()}"
    return None


class Refused(Exception):
    """A request the rules or the table's state refuse: ``status`` (an HTTP 4xx) and a sentence."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Seated:
    """A seat just taken: which, its token (for the cookie), and the game it is at."""

    game_id: str
    seat: str
    token: str


Ring = Callable[[str, int, str | None], None]  # (game, revision, the acting page's socket or None)
TurnListener = Callable[[str, str, float | None], None]  # (game, seat whose turn began, its deadline)
ClockListener = Callable[[float], None]  # the turn clock's time at each of its passes


def turn_began(before_key: str | None, clock: play.Clock | None) -> tuple[str, float | None] | None:
    """(seat, deadline) when the stored turn clock now names another seat than ``before_key``'s
    (turn keys are "seat:number"), else None: a decision within the same seat's turn is no new turn.

    >>> turn_began("p1:3", ("p2:4", 10.0, 70.0)), turn_began("p1:3", ("p1:4", 10.0, None)), turn_began(None, None)
    (('p2', 70.0), None, None)
    """
    if clock is None or clock[0] is None:
        return None
    seat = clock[0].split(":", 1)[0]
    if before_key is not None and before_key.split(":", 1)[0] == seat:
        return None
    return seat, clock[2]


class GameService:
    def __init__(
        self,
        store: Store,
        ring: Ring,
        writers: Sequence[play.Writer] = (),
        turn_listeners: Sequence[TurnListener] = (),
        clock_listeners: Sequence[ClockListener] = (),
    ):
        self.store = store
        self._ring = ring
        self.writers = list(writers)
        # Told after a change is stored that a seat's turn began (webapp/domain/push.py); they only queue.
        self.turn_listeners = list(turn_listeners)
        # Told at each pass of the turn clock (realtime/presence.tick), on its time: turn reminders.
        self.clock_listeners = list(clock_listeners)

    def _tell_turn(self, game_id: str, before_key: str | None, clock: play.Clock | None) -> None:
        began = turn_began(before_key, clock)
        if began is not None:
            for listener in self.turn_listeners:
                listener(game_id, *began)

    def ring(self, game_id: str, revision: int | None, acted_by: str | None = None) -> None:
        """Tell every page watching the game that it changed (after the change is committed);
        ``acted_by``: the socket of the page whose action this was (its answer is its new board)."""
        if revision is not None:
            self._ring(game_id, revision, acted_by)

    # ---- actions ---------------------------------------------------------------------------------

    def act(
        self,
        game: play.LoadedGame,
        seat: str,
        action: dict,
        *,
        by_server: bool = False,
        page: str | None = None,
        bot: bool = False,
        roster: tuple[list, dict] | None = None,
    ) -> play.LoadedGame:
        """Apply, store and ring one action based on ``game.version``; the game after it.

        ``bot``: a bot plays ``seat`` (webapp/domain/bots.py): the action lands only if a bot still plays
        it when the action is stored (its player may have come back meanwhile: then StaleVersion).
        ``roster``: the game's seats and token hashes as this request read them with ``game``
        (``Store.seats_and_hashes``): the pushes this action rings draw their rosters from it.
        Raises InvalidAction / IllegalAction (nothing stored) or StaleVersion."""
        writers = self.writers
        if bot:

            def still_a_bot(conn, game_, seat_, _action, new_state, _now) -> None:
                if not self.store.seat_is_bot(conn, game_.id, seat_):
                    raise StaleVersion(game_.version)
                # Before the other writers: an escape this action writes is already a bot's.
                self.store.mark_bot_played(conn, game_.id, seat_)
                viewers = [None, *self.store.seat_ids(conn, game_.id)]
                span = bot_log_span(game_.rules, game_.state, new_state, viewers)
                self.store.mark_bot_action(conn, game_.id, game_.version + 1, span)

            writers = [still_a_bot, *writers]
        applied = play.act(self.store, game, seat, action, by_server=by_server, writers=writers)
        after = game.advanced(applied, roster)  # before the ring: the pushes it starts render from this
        self.ring(game.id, applied.revision, page)
        self._tell_turn(game.id, game.record.turn_key, applied.clock)
        return after

    def server_action(self, game_id: str, seat: str, action: dict, *, expected_clock: str | None = None) -> bool:
        """Apply a server action (timeout, drop) through the same optimistic lock as players'
        actions; True if it landed. A stale version means a player acted first: the next tick decides."""
        game = play.load_game(self.store, game_id)
        if game is None or game.record.status != "running":
            return False
        if expected_clock is not None and game.record.turn_key != expected_clock:
            return False
        try:
            self.act(game, seat, action, by_server=True)
        except (rules_engine.IllegalAction, rules_engine.InvalidAction) as error:
            log.info("server action %s for %s in %s not applied: %s", action.get("type"), seat, game_id, error)
            return False
        except StaleVersion:
            return False
        return True

    # ---- seats -------------------------------------------------------------------------------

    def join(self, game: play.LoadedGame, *, name: str, origin: str) -> Seated:
        """Take a free seat: in the waiting room, or mid-game where the rules allow a newcomer
        (the game's join action, applied for the new seat). ``origin`` is the client address's
        keyed hash: it caps the seats one address takes in a running game."""
        status = game.record.status
        if status == "finished":
            raise Refused(409, "This game is over; you can watch how it ended.")
        if play.name_taken(self.store.seats(game.id), name):
            raise Refused(409, f"Someone at this table is already called {name}: choose another name.")
        join_action = game.rules.join_action
        if status == "running" and join_action is None:
            raise Refused(409, "This game has started and does not take newcomers; you can watch it.")
        running = status == "running"
        if running and self.store.seats_from(game.id, origin) >= SEATS_PER_ADDRESS:
            raise Refused(
                409,
                f"This game already took {SEATS_PER_ADDRESS} seats from your connection; "
                "you can watch it, or join the next game.",
            )
        token = seat_tokens.new_token()
        if running:
            limit, counted = ROSTER_CAP, _living_counter(game)
        else:
            limit, counted = play.table_size(game.rules, game.record.options), None
        taken = self.store.add_seat(
            game.id,
            name=name,
            token_hash=seat_tokens.hash_token(token),
            limit=limit,
            origin=origin if running else None,
            counted=counted,
        )
        if taken is None:
            raise Refused(409, "Every seat at this table is taken; you can still watch.")
        seat, revision = taken
        if running and join_action is not None:
            self._play_join(game.id, seat, join_action)
        else:
            self.ring(game.id, revision)
        return Seated(game.id, seat, token)

    def _play_join(self, game_id: str, seat: str, join_action: dict) -> None:
        """The rules' join for a seat just added, retried past other players' actions; the seat
        is removed again if the rules refuse it or the game stays too busy."""
        for _attempt in range(JOIN_TRIES):
            fresh = play.load_game(self.store, game_id)
            if fresh is None:
                break
            try:
                self.act(fresh, seat, dict(join_action), by_server=True)
                return
            except StaleVersion:
                continue
            except (rules_engine.IllegalAction, rules_engine.InvalidAction) as error:
                self.ring(game_id, self.store.remove_seat(game_id, seat))
                raise Refused(409, f"You cannot join this game now: {error}") from None
        self.ring(game_id, self.store.remove_seat(game_id, seat))
        raise Refused(409, "The game was too busy to seat you; try again.")

    # ---- the waiting room --------------------------------------------------------------------

    def choose(self, game: play.LoadedGame, seat: str, *, name: str | None, choices: dict[str, str]) -> None:
        """A seated player's new name and lobby choices (``""`` clears one); ``choices`` holds only
        values the game's form offers. Everything is checked before anything is written, and the
        name and the choices land together or not at all. Rings only if something changed: every
        ring makes every page at the table refetch."""
        entry = BY_SLUG[game.record.slug]
        labels = {f.name: f.label for f in entry.lobby_fields}
        seats_now = self.store.seats(game.id)
        current = next((s.name for s in seats_now if s.seat == seat), None)
        if name is not None and play.name_taken(seats_now, name, besides=seat):
            raise Refused(409, f"Someone at this table is already called {name}: choose another name.")
        lobby = dict(game.record.lobby)
        picked = {k: dict(v) for k, v in lobby.get("choices", {}).items()}
        mine_before = dict(picked.get(seat, {}))
        mine = picked.setdefault(seat, {})
        for field, value in choices.items():
            if value == "":
                mine.pop(field, None)
                continue
            problem = game.rules.lobby_choice_problem(field, value, len(seats_now))
            if problem:
                raise Refused(422, f"{labels[field]}: {problem}.")
            if field in entry.unique_lobby_fields and any(
                other.get(field) == value for other_seat, other in picked.items() if other_seat != seat
            ):
                raise Refused(409, f"Another player has already chosen that {labels[field].lower()}.")
            mine[field] = value
        new_name = name if name is not None and name != current else None
        if new_name is None and mine == mine_before:
            return
        lobby["choices"] = {k: v for k, v in picked.items() if v}
        try:
            revision = self.store.update_waiting_seat(
                game.id, seat, name=new_name, lobby=lobby, expected_revision=game.record.revision
            )
        except StaleVersion:
            raise Refused(409, "The table changed at the same moment; please choose again.") from None
        self.ring(game.id, revision)

    def start(self, game: play.LoadedGame, seat: str, origin: str | None = None) -> None:
        """The host starts the game with everyone seated, in join order. ``origin``, the host's
        client address as a keyed hash, may have at most ``bots.BOT_TABLES_PER_ADDRESS`` running
        tables with its bots (each one's bots cost the server their play)."""
        seated = self.store.seats(game.id)
        if play.host_of(game.record.lobby, seated) != seat:
            raise Refused(403, "Only the host (who opened the table, or has sat longest since) can start the game.")
        if origin and any(s.bot for s in seated) and self.store.bot_tables_from(origin) >= bots.BOT_TABLES_PER_ADDRESS:
            raise Refused(
                429,
                f"One connection may play at most {bots.BOT_TABLES_PER_ADDRESS} tables with bots at once: "
                "finish or leave one first (a table nobody is at any more ends by itself after a while).",
            )
        players = [s.seat for s in seated]
        if len(players) < game.rules.min_players:
            raise Refused(409, f"This game needs at least {game.rules.min_players} players.")
        missing = missing_choices(
            BY_SLUG[game.record.slug].lobby_fields,
            game.record.lobby.get("choices", {}),
            [(s.seat, s.name) for s in seated],
        )
        if missing:
            raise Refused(409, f"The game cannot start yet: {missing}.")
        options = dict(game.record.options)
        choices = game.record.lobby.get("choices", {})
        for field in BY_SLUG[game.record.slug].lobby_fields:
            options[field.name] = {p: choices[p][field.name] for p in players}
        try:
            state = game.rules.new_game(seed=game.record.seed, players=players, options=options)
        except rules_engine.InvalidAction as error:
            raise Refused(409, f"The game cannot start yet: {error}") from None
        clock = play.clock_after(game.rules, state, None, time.time()) or (None, None, None)
        try:
            revision = self.store.start(
                game.id,
                expected_revision=game.record.revision,
                players=players,
                options=options,
                snapshot=game.rules.dump(state),
                clock=clock,
            )
        except StaleVersion:
            raise Refused(
                409, "Someone joined or changed their choice just now; check the table and start again."
            ) from None
        self.ring(game.id, revision)
        self._tell_turn(game.id, None, clock)

    def leave_waiting_room(self, game_id: str, seat: str) -> None:
        """The seat leaves before the start. A choice the smaller table no longer allows is cleared,
        to be made again (Dungeon Cards' ruling 55: the last player left holding the Mage or the
        Healer chooses again; a bot chooses again at once), and the host passes to the
        longest-seated player (an empty room's next arrival hosts it). Bots never host: when the
        last person leaves, the bots leave with them."""
        self.ring(game_id, self.store.remove_seat(game_id, seat))
        left = self.store.seats(game_id)
        if left and all(s.bot for s in left):
            for bot_seat in left:
                self.ring(game_id, self.store.remove_seat(game_id, bot_seat.seat))
        for _attempt in range(5):
            game = play.load_game(self.store, game_id)
            if game is None or game.record.status != "waiting":
                return
            remaining = self.store.seats(game_id)
            lobby = dict(game.record.lobby)
            choices = {k: dict(v) for k, v in lobby.get("choices", {}).items() if k != seat}
            for mine in choices.values():
                for field, value in list(mine.items()):
                    if game.rules.lobby_choice_problem(field, value, len(remaining)):
                        del mine[field]
            lobby["choices"] = {k: v for k, v in choices.items() if v}
            lobby["host"] = play.host_of(lobby, [s for s in remaining if not s.bot])
            if lobby == game.record.lobby:
                break
            try:
                self.ring(game_id, self.store.set_lobby(game_id, lobby, expected_revision=game.record.revision))
                break
            except StaleVersion:
                continue  # someone joined or chose meanwhile: redo it on theirs
        self.give_bots_choices(game_id)

    # ---- bots (webapp/domain/bots.py) ------------------------------------------------------------------

    def add_bot(self, game: play.LoadedGame, seat: str, level: str, origin: str | None = None) -> str:
        """The host seats a bot of ``level`` in a free seat of the waiting room; its seat.

        The bot is named "Bot N" (the first N nobody at the table goes by) and makes its lobby
        choices at once (Dungeon Cards: a free class the table allows), so it never holds up the
        start. Its token is one nobody was given. ``origin`` (the host's client address as a
        keyed hash) is kept on the bot's seat: it counts the running tables of one address's
        bots (``start``)."""
        if not bots.supports_bots(game.record.slug):
            raise Refused(409, "This game has no bots yet.")
        if not takes_bots(game.record):
            raise Refused(409, "A daily deal's table is for people only: its ranking counts what a person played.")
        if level not in bots.LEVELS:
            raise Refused(400, f"A bot's level is one of: {', '.join(bots.LEVELS)}.")
        seated = self.store.seats(game.id)
        if play.host_of(game.record.lobby, seated) != seat:
            raise Refused(403, "Only the host can add bots to the table.")
        number = next(n for n in range(1, 100) if not play.name_taken(seated, f"{bots.BOT_NAME} {n}"))
        taken = self.store.add_seat(
            game.id,
            name=f"{bots.BOT_NAME} {number}",
            token_hash=seat_tokens.hash_token(seat_tokens.new_token()),
            limit=play.table_size(game.rules, game.record.options),
            origin=origin,
            bot=level,
        )
        if taken is None:
            raise Refused(409, "Every seat at this table is taken.")
        self.ring(game.id, taken[1])
        self.give_bots_choices(game.id)
        return taken[0]

    def remove_bot(self, game: play.LoadedGame, seat: str, bot_seat: str) -> None:
        """The host takes a bot off the table before the start (its seat is free again)."""
        seated = self.store.seats(game.id)
        if play.host_of(game.record.lobby, seated) != seat:
            raise Refused(403, "Only the host can remove bots from the table.")
        if not any(s.seat == bot_seat and s.bot for s in seated):
            raise Refused(409, "There is no bot in that seat.")
        self.leave_waiting_room(game.id, bot_seat)

    def remove_seat(self, game: play.LoadedGame, seat: str, other: str) -> None:
        """The host takes any other seat off the table before the start: a person, a bot or a
        classic client (whose connection is then told and closed, webapp/adapters/classic). The seat is
        free again; a person removed may take a seat again by the link."""
        seated = self.store.seats(game.id)
        if play.host_of(game.record.lobby, seated) != seat:
            raise Refused(403, "Only the host can remove players from the table.")
        if other == seat:
            raise Refused(409, "To leave the table yourself, use “Leave the table”.")
        if not any(s.seat == other for s in seated):
            raise Refused(409, "Nobody sits in that seat.")
        self.leave_waiting_room(game.id, other)

    def give_bots_choices(self, game_id: str) -> None:
        """Every bot in a waiting room holds each lobby choice: a value at random among those the
        table allows and nobody else holds (Dungeon Cards: a class)."""
        for _attempt in range(5):
            game = play.load_game(self.store, game_id)
            if game is None or game.record.status != "waiting":
                return
            entry = BY_SLUG[game.record.slug]
            seated = self.store.seats(game_id)
            lobby = dict(game.record.lobby)
            choices = {k: dict(v) for k, v in lobby.get("choices", {}).items()}
            for bot_seat in (s.seat for s in seated if s.bot):
                mine = choices.setdefault(bot_seat, {})
                for field in entry.lobby_fields:
                    if field.name in mine:
                        continue
                    held = (
                        {c.get(field.name) for other, c in choices.items() if other != bot_seat}
                        if field.name in entry.unique_lobby_fields
                        else set()
                    )
                    free = [
                        str(value)
                        for value, _label in field.choices
                        if str(value) not in held
                        and not game.rules.lobby_choice_problem(field.name, value, len(seated))
                    ]
                    if free:
                        mine[field.name] = random.choice(free)
            choices = {k: v for k, v in choices.items() if v}
            if choices == lobby.get("choices", {}):
                return
            lobby["choices"] = choices
            try:
                self.ring(game_id, self.store.set_lobby(game_id, lobby, expected_revision=game.record.revision))
                return
            except StaleVersion:
                continue

    def take_over(self, game: play.LoadedGame, seat: str) -> bool:
        """A bot keeps a dropped player's seat until they come back (instead of the game's absence
        action): True if it does. Only in a game with bots (never at a daily deal's table), only for
        a seat still in play, and only while another person plays at the table: a table nobody is
        left at ends as it always did (the absence action), and a solo table waits for its player."""
        if not takes_bots(game.record) or game.state is None:
            return False
        living = game.rules.living_seats(game.state)
        if living is not None and seat not in living:
            return False
        seated = self.store.seats(game.id)
        if not any(s.seat != seat and not s.bot and not s.gone for s in seated):
            return False
        revision = self.store.take_over(game.id, seat, bots.TAKE_OVER_LEVEL)
        self.ring(game.id, revision)
        return revision is not None

    def reclaim(self, game_id: str, seat: str) -> None:
        """The player of a seat a bot kept is back: it is theirs again."""
        self.ring(game_id, self.store.reclaim(game_id, seat))

    def play_again(self, game: play.LoadedGame, seat: str, options: dict) -> Seated | str:
        """ "Play again" at a finished table: the first player to ask opens a new table with
        ``options``; everyone else who asks is seated there under the name they had. Two players
        asking at once both open one and exactly one is recorded as the next table: the other is
        removed unseen and its opener is seated at the winner instead. Returns the new seat, or
        the next table's id when it has already started (nothing to sit at)."""
        if game.record.status != "finished":
            raise Refused(409, "This game is still running.")
        name = next((s.name for s in self.store.seats(game.id) if s.seat == seat), "Player")
        next_id = game.record.lobby.get("next")
        if next_id is None:
            opened, token = play.open_table(self.store, game.record.slug, options, name=name)
            next_id, revision = self.store.claim_next_game(game.id, opened)
            if next_id == opened:
                self.ring(game.id, revision)
                return Seated(opened, "p1", token)
            self.store.delete_waiting_table(opened)
            if next_id is None:
                raise Refused(404, "There is no game at this address. It may have been mistyped.")
        following = play.load_game(self.store, next_id)
        if following is None:
            raise Refused(404, "There is no game at this address. It may have been mistyped.")
        if following.record.status != "waiting":
            return next_id
        seats_there = self.store.seats(next_id)
        if play.name_taken(seats_there, name):
            name = clean_name(f"{name} ({seat})", name)
        token = seat_tokens.new_token()
        taken = self.store.add_seat(
            next_id,
            name=name,
            token_hash=seat_tokens.hash_token(token),
            limit=play.table_size(following.rules, following.record.options),
        )
        if taken is None:
            raise Refused(409, "The new table is already full; you can watch it.")
        self.ring(next_id, taken[1])
        return Seated(next_id, taken[0], token)


def bot_log_span(rules, before, after, viewers: Sequence[str | None]) -> dict[str, list[int]]:
    """The log entries an action wrote, in each viewer's log: {seat, or "" for onlookers: [after,
    through]} of the ``seq`` of the entries (equal: none). A seat not listed sat down later: its
    log of that moment is the onlookers'."""
    return {
        viewer or "": [_last_seq(rules.view(before, viewer)), _last_seq(rules.view(after, viewer))]
        for viewer in viewers
    }


def _last_seq(view: dict) -> int:
    log = view.get("log") or []
    return int(log[-1]["seq"]) if log else 0


def takes_bots(record) -> bool:
    """Whether bots may play at this table: a game with bots, but never a daily deal's table (its
    ranking counts what a person played, so no bot sits there nor keeps a dropped seat)."""
    return bots.supports_bots(record.slug) and "daily" not in record.lobby


def _living_counter(game: play.LoadedGame):
    """Which of a running game's seats count against its roster: the living ones (dead and
    departed rows stay for the log but never block a newcomer)."""
    if game.state is None:
        return None
    living = game.rules.living_seats(game.state)
    if living is None:
        return None
    alive = set(living)
    # A seat row without a player yet is a join on its way in: it counts until it lands or is removed.
    playing = {p["seat"] for p in game.state.get("players", []) if isinstance(p, dict) and "seat" in p}
    return lambda seat_ids: [s for s in seat_ids if s in alive or s not in playing]
