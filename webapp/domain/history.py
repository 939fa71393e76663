"""Replays of finished games: any step of a game's history, drawn with the game's own board.

A finished game's history is public (its hidden cards and map no longer decide anything), so its
replay shows, by default, everything the live pages hid (the engine's ``full_view``), and on
request one seat's view as it was at the time. A running game has no replay: every route here
answers 409 for it, whatever it is asked, so nothing hidden leaves the server early.

States are rebuilt by the engine from the stored seed, options, players and actions (the engine is
pure and deterministic). Each finished game's rebuild is done once per process (one rebuild at a
time per game) and kept as a checkpoint every ``CHECKPOINT_WORK`` units of work: a step is then at
most that much work away, whatever the game's length. Finished games never change, so the cache
needs no invalidation; it is bounded by its histories' estimated bytes as well as their number.

Work is counted in units: replaying one action costs the size of the game's state (its JSON at the
deal, at least ``ACTION_FLOOR_BYTES``), which grows with seats × map cells. A rebuild yields to
the other requests every ``SLICE_WORK`` units (production runs one gevent worker: a loop that
never yields freezes every page), so no request holds the worker for more than a slice plus one
action. The creation form bounds the state (3,600 cells, 8 seats), so a slice is short for any
game played here. An import is refused before replaying if its actions × that cost is over
``IMPORT_WORK_BUDGET``, and stopped past ``IMPORT_SECONDS``: an imported game's rebuild, on a
later GET too, is bounded by that budget; a played game's by the actions its players played.

The same history travels as a file: ``/g/<id>/replay.json`` downloads it, and importing the file
replays it through the engine (refused with the first action that does not replay) and stores it
as a finished game with a replay of its own. Imported games write nothing else (no Hall of Fame).
"""

from __future__ import annotations

import bisect
import json
import logging
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import rules_engine
from rules_engine.undo import UNDO

from ..config import async_mode
from ..storage.store import Store
from . import play
from .catalog import BY_SLUG, GameEntry, clean_name, parse_options

log = logging.getLogger("delve.replays")


ACTION_FLOOR_BYTES = 8192
"""The least one action costs, in work units (a small game's state grows with its log)."""
SLICE_WORK = 2_000_000
"""Work done between two yields to the other requests (a few milliseconds)."""
CHECKPOINT_WORK = 4_000_000
"""Work between two kept states: showing a step replays at most this much from the one before it."""
IMPORT_WORK_BUDGET = 200_000_000
"""An import's whole replay, at most (under a second of one core, done in slices)."""
IMPORT_SECONDS = 10.0
"""An import's replay stops past this, however busy the process (its slices wait their turn)."""
MARKS_KEPT = 4096
EVERYTHING = "all"
EXPORT_FORMAT = "delve-game"
EXPORT_VERSION = 1
# A long game's file is a few hundred kilobytes; the app's default request cap (16 KB) is for forms.
IMPORT_MAX_BYTES = 2 * 1024 * 1024
IMPORT_MAX_ACTIONS = 20_000
# The seat ids the store gives (``p1``, ``p2``, … in join order, never reusing a number, so a
# table where somebody left the waiting room has a gap): an imported file's seats are these.
SEAT_ID = re.compile(r"p[1-9][0-9]{0,2}")
SPEEDS = (("0.5", "slow"), ("1", "normal"), ("2", "fast"), ("4", "very fast"))


class ReplayRefused(Exception):
    """A history that does not replay through the engine (an imported file), with the reason."""


class HistoryBroken(Exception):
    """A stored game whose actions no longer replay (an engine changed its rules under stored
    games): our bug, never shown as a history that is not the one played."""


class ReplayTooCostly(ReplayRefused):
    """A history whose replay is over the work an import may take (its budget or its deadline)."""


def yield_to_others() -> None:
    """Let the other requests run: under gevent a rebuild runs in the worker's only loop."""
    if async_mode() == "gevent":
        import gevent

        gevent.sleep(0)


def action_cost(rules: rules_engine.Rules, state: Any) -> int:
    """Work units one action costs on ``state``'s game: its dumped size (seats × cells on a map)."""
    return max(len(json.dumps(rules.dump(state), separators=(",", ":"))), ACTION_FLOOR_BYTES)


# What a history holds, in bytes, per unit it is measured in (measured with tracemalloc: a state
# in memory is up to 4 times its JSON, a move about 300 bytes, a token's step about 150).
STATE_BYTES_PER_JSON_BYTE = 4
MOVE_BYTES = 400
TOKEN_STEP_BYTES = 150
MARK_BYTES = 100


@dataclass
class History:
    """One finished game's history, rebuilt once: its moves, and a state every CHECKPOINT_WORK units."""

    rules: rules_engine.Rules
    moves: list[tuple[str, dict]]
    checkpoints: list[Any]
    # The step each checkpoint is the state after (ascending, the first 0).
    checkpoint_steps: list[int] = field(default_factory=lambda: [0])
    # Each time a seat's token stood somewhere new (games on a map: ``positions``), for the paths:
    # (step, seat, [row, col]), in order.
    token_steps: list[tuple[int, str, list[int]]] = field(default_factory=list)
    # The estimated bytes of what the history holds (the cache's measure).
    weight: int = 0
    # The whole log as each perspective reads it at the end, drawn once (the replay page's lines).
    log_lines: dict[str | None, list] = field(default_factory=dict)
    marks: dict[tuple[int, str | None], int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    # The steps that undid a move (``rules_engine.undo``): there, and only there, the log gets
    # shorter, and the moves after it write lines under the numbers the undone ones had.
    undo_steps: list[int] = field(default_factory=list)
    # Per perspective, the least log mark at each undo step and every undo step after it.
    undo_floors: dict[str | None, list[int]] = field(default_factory=dict)

    @property
    def steps(self) -> int:
        return len(self.moves)

    @property
    def on_a_map(self) -> bool:
        return bool(self.token_steps)

    def trails(self, step: int) -> dict[str, list[list[int]]]:
        """Each seat's path from the deal to ``step``: the squares it stood on, in order."""
        paths: dict[str, list[list[int]]] = {}
        for at, seat, pos in self.token_steps:
            if at > step:
                break
            paths.setdefault(seat, []).append(pos)
        return paths

    def state_at(self, step: int) -> Any:
        """The state after ``step`` moves (0: as dealt), from the last checkpoint at or before it."""
        index = bisect.bisect_right(self.checkpoint_steps, step) - 1
        state = self.checkpoints[index]
        for seat, action in self.moves[self.checkpoint_steps[index] : step]:
            state = self.rules.apply(state, seat, action)
        return state

    def view_at(self, state: Any, perspective: str | None) -> dict:
        return self.rules.full_view(state) if perspective is None else self.rules.view(state, perspective)

    def mark_at(self, step: int, perspective: str | None, view: dict | None = None) -> int:
        """How far the log reaches at ``step``, as ``perspective`` reads it (kept as found: a page
        of step N needs step N - 1's too, which the step before has just worked out)."""
        key = (step, perspective)
        mark = self.marks.get(key)
        if mark is None:
            if view is None:
                view = self.view_at(self.state_at(step), perspective)
            if len(self.marks) >= MARKS_KEPT:  # the weight counts this many at most
                self.marks.clear()
            mark = self.marks[key] = log_end(view["log"])
        return mark

    def shown_at(self, step: int, perspective: str | None, view: dict | None = None) -> int:
        """How far the log reaches at ``step`` *for good*: the lines of the final log up to
        this ``seq`` have all happened by ``step`` and stand to the end. Without undo it is the
        mark itself (a log only grows); an undo later in the game takes lines back, and those
        after it are other lines under the same numbers, so the least mark of every undo step
        after ``step`` bounds it. It never decreases from one step to the next."""
        mark = self.mark_at(step, perspective, view)
        later = bisect.bisect_right(self.undo_steps, step)
        if later == len(self.undo_steps):
            return mark
        return min(mark, self._undo_floors(perspective)[later])

    def _undo_floors(self, perspective: str | None) -> list[int]:
        floors = self.undo_floors.get(perspective)
        if floors is None:
            floors = [self.mark_at(step, perspective) for step in self.undo_steps]
            for index in range(len(floors) - 2, -1, -1):
                floors[index] = min(floors[index], floors[index + 1])
            self.undo_floors[perspective] = floors
        return floors

    def step_of(self, seq: int, perspective: str | None) -> int:
        """The step from which log line ``seq`` of the final log shows (``shown_at`` only grows:
        a binary search, a dozen views, rather than a view of every step of a long game)."""
        low, high = 0, self.steps
        while low < high:
            middle = (low + high) // 2
            if self.shown_at(middle, perspective) >= seq:
                high = middle
            else:
                low = middle + 1
        return low


def log_end(entries: list) -> int:
    return int(entries[-1]["seq"]) if entries else 0


def rebuild(
    rules: rules_engine.Rules,
    seed: int,
    players: list[str],
    options: dict,
    moves: list,
    *,
    budget: int | None = None,
    deadline: float | None = None,
) -> History:
    """The history of a game replayed through the engine, yielding to other requests every
    SLICE_WORK units; ReplayRefused names the first move that does not replay, ReplayTooCostly
    says the replay is over ``budget`` units (checked before any move replays) or went on past
    ``deadline`` (a ``time.monotonic()``)."""
    try:
        state = rules.new_game(seed, list(players), dict(options))
    except rules_engine.InvalidAction as error:
        raise ReplayRefused(f"The game cannot be set up from these options: {error}") from None
    cost = action_cost(rules, state)
    if budget is not None and len(moves) * cost > budget:
        raise ReplayTooCostly(
            f"This game is too much to replay here: {len(moves):,} actions on a game of its size "
            f"(its players and map). Delve imports up to {budget // cost:,} actions for a game like it."
        )
    checkpoints, checkpoint_steps = [state], [0]
    token_steps: list[tuple[int, str, list[int]]] = []
    standing: dict[str, list[int]] = {}

    def note_tokens(step: int, state: Any) -> None:
        for seat, pos in rules.positions(state).items():
            if standing.get(seat) != pos:
                standing[seat] = pos
                token_steps.append((step, seat, pos))

    def past_deadline() -> None:
        if deadline is not None and time.monotonic() > deadline:
            raise ReplayTooCostly(
                "This game took too long to replay here (the server is busy or the game is long); try again later."
            )

    note_tokens(0, state)
    since_yield = since_checkpoint = 0
    for index, (seat, action) in enumerate(moves, start=1):
        if since_yield >= SLICE_WORK:
            yield_to_others()
            past_deadline()
            since_yield = 0
        try:
            state = rules.apply(state, seat, action)
        except (rules_engine.InvalidAction, rules_engine.IllegalAction) as error:
            raise ReplayRefused(
                f"Action {index} ({_describe(action)} by seat {seat}) does not replay: {error}"
            ) from None
        except (TypeError, KeyError, IndexError, AttributeError, ValueError) as error:
            raise ReplayRefused(f"Action {index} ({_describe(action)} by seat {seat}) is malformed: {error}") from None
        since_yield += cost
        since_checkpoint += cost
        if since_checkpoint >= CHECKPOINT_WORK:
            checkpoints.append(state)
            checkpoint_steps.append(index)
            since_checkpoint = 0
        note_tokens(index, state)
    past_deadline()
    final_bytes = action_cost(rules, state)
    weight = (
        len(checkpoints) * max(cost, final_bytes) * STATE_BYTES_PER_JSON_BYTE
        + len(moves) * MOVE_BYTES
        + len(token_steps) * TOKEN_STEP_BYTES
        # The whole log as each seat and "everything" read it, and the log marks kept.
        + (len(players) + 1) * final_bytes * STATE_BYTES_PER_JSON_BYTE
        + MARKS_KEPT * MARK_BYTES
    )
    return History(
        rules=rules,
        moves=list(moves),
        checkpoints=checkpoints,
        checkpoint_steps=checkpoint_steps,
        token_steps=token_steps,
        weight=weight,
        undo_steps=[index for index, (_seat, action) in enumerate(moves, start=1) if action.get("type") == UNDO],
    )


def _describe(action: Any) -> str:
    text = json.dumps(action, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "…"


class Histories:
    """The rebuilt histories of the finished games replayed lately: an LRU bounded by count and by
    estimated bytes (a history over a quarter of them is rebuilt each time, never kept), per process."""

    def __init__(self, size: int = 64, max_bytes: int = 128 * 1024 * 1024):
        self._items: OrderedDict[str, History] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size
        self._max_bytes = max_bytes
        self._held = 0
        # One rebuild at a time per game: the others asking for it wait for that one.
        self._rebuilding: dict[str, threading.Lock] = {}

    @property
    def held_bytes(self) -> int:
        return self._held

    def peek(self, game_id: str) -> History | None:
        with self._lock:
            history = self._items.get(game_id)
            if history is not None:
                self._items.move_to_end(game_id)
            return history

    def get(self, store: Store, game: play.LoadedGame) -> History:
        history = self.peek(game.id)
        if history is not None:
            return history
        with self._lock:
            rebuilding = self._rebuilding.setdefault(game.id, threading.Lock())
        try:
            with rebuilding:
                history = self.peek(game.id)
                if history is None:
                    history = self._rebuild(store, game)
                    self.put(game.id, history)
                return history
        finally:
            with self._lock:
                self._rebuilding.pop(game.id, None)

    @staticmethod
    def _rebuild(store: Store, game: play.LoadedGame) -> History:
        record = game.record
        moves = [(seat, action) for _seq, seat, action in store.actions(game.id)]
        try:
            return rebuild(game.rules, record.seed, record.players, record.options, moves)
        except ReplayRefused as error:
            # A stored game that does not replay is our bug (an engine changed its rules under
            # stored games): say so rather than show a history that is not the one played.
            log.error("game %s does not replay: %s", game.id, error)
            raise HistoryBroken(game.id) from error

    def put(self, game_id: str, history: History) -> None:
        if history.weight > self._max_bytes // 4:
            return
        with self._lock:
            old = self._items.pop(game_id, None)
            if old is not None:
                self._held -= old.weight
            self._items[game_id] = history
            self._held += history.weight
            while len(self._items) > self._size or self._held > self._max_bytes:
                _id, evicted = self._items.popitem(last=False)
                self._held -= evicted.weight


def form_made_options(entry: GameEntry, options: dict) -> dict:
    """What the creation form makes of ``options`` when its fields are filled in with them
    (InvalidAction, in the form's words, for a value it refuses): an imported game's options are
    accepted only if this gives them back unchanged, so an import passes the very checks a new
    game does, and carries nothing the form cannot set (no test-only option)."""
    fields: dict[str, str] = dict(entry.rules.form_fields_for(options))
    for option in entry.options:
        if option.name not in options:
            continue
        value = options[option.name]
        if option.kind == "bool":
            if value is True:
                fields[option.name] = "on"
        elif option.kind == "deck" and isinstance(value, list):
            fields[option.name] = " ".join(map(str, value))
        else:
            fields[option.name] = str(value)
    return parse_options(entry, fields)


def _check_options(entry: GameEntry, players: list[str], options: dict) -> None:
    """ReplayRefused unless ``options`` are what the creation form and the waiting room make."""
    lobby_names = {field.name for field in entry.lobby_fields}
    try:
        made = form_made_options(entry, {k: v for k, v in options.items() if k not in lobby_names})
    except rules_engine.InvalidAction as error:
        raise ReplayRefused(f"The file's options are not ones Delve's creation form accepts: {error}") from None
    for lobby_field in entry.lobby_fields:
        if lobby_field.name not in options:
            continue
        chosen = options[lobby_field.name]
        if not isinstance(chosen, dict) or set(chosen) != set(players):
            raise ReplayRefused(f"The file's options give {lobby_field.label} to other seats than its players.")
        for value in chosen.values():
            # The waiting room's own checks (tables.lobby_choice, service.choose).
            if str(value) not in {str(v) for v in lobby_field.values} or entry.rules.lobby_choice_problem(
                lobby_field.name, value, len(players)
            ):
                raise ReplayRefused(f"The file's options hold a {lobby_field.label} the waiting room does not offer.")
        if lobby_field.name in entry.unique_lobby_fields and len(set(map(str, chosen.values()))) != len(chosen):
            raise ReplayRefused(f"The file's options give two seats the same {lobby_field.label}.")
        made[lobby_field.name] = chosen
    if made != options:
        extra = sorted(str(name) for name in set(options) - set(made))
        raise ReplayRefused(
            "The file's options are not ones Delve's creation form makes"
            + (f" (it has no {', '.join(extra)})." if extra else ".")
        )


def parse_document(document: Any):
    """The parts of a replay file, checked for shape (the engine checks the rest by replaying)."""
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise ReplayRefused('That file is not a Delve replay file (it has no "format": "delve-game").')
    if document.get("version") != EXPORT_VERSION:
        raise ReplayRefused(f"This replay file's version is not one Delve reads (expected {EXPORT_VERSION}).")
    slug = document.get("game")
    if not isinstance(slug, str) or slug not in BY_SLUG:
        raise ReplayRefused("The file names a game Delve does not have.")
    rules = rules_engine.get(slug)
    seed, players, options = document.get("seed"), document.get("players"), document.get("options")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise ReplayRefused("The file's seed is not a whole number Delve deals from.")
    if (
        not isinstance(players, list)
        or not players
        or len(players) > max(rules.max_players, 1) * 4
        or not all(isinstance(p, str) and SEAT_ID.fullmatch(p) for p in players)
        or len(set(players)) != len(players)
    ):
        raise ReplayRefused("The file's list of players is not one Delve can seat (its seats are p1, p2, …).")
    if not isinstance(options, dict):
        raise ReplayRefused("The file's options are not a set of named values.")
    _check_options(BY_SLUG[slug], players, options)
    actions = document.get("actions")
    if not isinstance(actions, list) or len(actions) > IMPORT_MAX_ACTIONS:
        raise ReplayRefused("The file's actions are not a list Delve can replay.")
    moves = []
    for index, item in enumerate(actions, start=1):
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("seat"), str)
            or not isinstance(item.get("action"), dict)
            or not isinstance(item["action"].get("type"), str)
        ):
            raise ReplayRefused(f"Action {index} is not a seat and an action.")
        moves.append((item["seat"], item["action"]))
    raw_names = document.get("names") or {}
    names = {}
    if isinstance(raw_names, dict):
        for seat in players:
            if isinstance(raw_names.get(seat), str):
                names[seat] = clean_name(raw_names[seat], "")
    return rules, seed, players, options, moves, names
