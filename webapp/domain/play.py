"""Playing a stored game: load it, apply one seat's action through the rules, store it, and
present the legal actions as buttons. No rule is decided here."""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import rules_engine
from rules_engine import Rules, turn_limits

from ..storage.records import GameRecord
from ..storage.store import Store
from . import seat_tokens

log = logging.getLogger("delve.play")

# The one seat of a solo game.
SOLO_SEAT = "p1"
MAX_ACTION_BYTES = 2048

MOVE_KEYS = {"N": ("ArrowUp", "w"), "E": ("ArrowRight", "d"), "S": ("ArrowDown", "s"), "W": ("ArrowLeft", "a")}
UNDO_KEY = "u"
"""Every game page's Undo key (templates/_undo.html): never a choice's."""
HINT_KEY = "h"
"""A solo game page's Hint key (templates/_hint.html): never a choice's."""
# Choice keys: digits first, then letters that are not movement keys.
CHOICE_KEYS = list("123456789") + [c for c in "0qerftgyhjuiklzxcvbnmop" if c not in "wasd"]


@dataclass
class LoadedGame:
    record: GameRecord
    rules: Rules
    state: Any  # the engine's state; None while a table waits for its start
    # Each seat's view and buttons of this very state, worked out once (``pages.board.seat_parts``):
    # an action's answer and the boards it pushes to every other page read the same object
    # (``recent_games``), so a seat's view is computed once per revision, not once per render.
    parts: dict = field(default_factory=dict, compare=False, repr=False)
    # The game's seats and their token hashes (``Store.seats_and_hashes``) as its action's request
    # read them, carried to the game that action left (``advanced``), so neither the action's
    # answer nor its pushes read them again; None when nobody read them with this very game.
    roster: tuple[list, dict] | None = field(default=None, compare=False, repr=False)

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def version(self) -> int:
        return self.record.version

    def advanced(self, applied: Applied, roster: tuple[list, dict] | None = None) -> LoadedGame:
        """This game after one of our own actions landed: no need to read it back from the store.

        The turn clock moves on with it (as ``act`` stored it), so the page answering the action
        shows the new decision's countdown, not the one that just ended. ``roster``: the seats
        and token hashes the action's request read with this game, kept with the game after it
        (its answer and pushes draw their rosters from them) when they are still that game's."""
        changes: dict = dict(version=applied.version, revision=applied.revision)
        if applied.clock is not None:
            changes.update(turn_key=applied.clock[0], turn_started_at=applied.clock[1], turn_deadline=applied.clock[2])
        if applied.result is not None:
            changes.update(status="finished", result=applied.result)
        loaded_states.put(self.id, applied.version, applied.state)
        after = LoadedGame(dataclasses.replace(self.record, **changes), self.rules, applied.state)
        if applied.revision == self.record.revision + 1:
            # Nothing else changed the game's row between our read and our write: ``after`` is the
            # game as stored at that revision, which the pushes it rings can take without a read.
            # Every write that adds, frees or hands over a seat bumps the revision too, so the
            # seats read with this game are still that revision's; but the action that ends the
            # game marks every seat gone (``Store.append``).
            after.roster = roster if applied.result is None else None
            recent_games.put(self.id, applied.revision, after)
        # The views of the game before this action are no page's next board: only the newest
        # revision of a game keeps its seats' views (``recent_games`` holds a thousand games).
        for before in (self, recent_games.get(self.id, self.record.revision)):
            if before is not None:
                before.parts.clear()
        return after


Clock = tuple[str | None, float | None, float | None]
Writer = Callable[..., None]
"""``(conn, game, seat, action, new_state, now)``: more rows written in the transaction that
stores an action (e.g. a Hall of Fame entry): they land with the action or, if one fails,
neither does."""


@dataclass(frozen=True)
class Applied:
    """One stored action: the game's new version and revision, its state, result and turn clock."""

    version: int
    revision: int
    state: dict
    result: dict | None
    clock: Clock | None


Entry = TypeVar("Entry")


class LoadedStates(Generic[Entry]):
    """This process's most recently used game states by (game, version): a request reads the
    game's row but not its snapshot, the largest column and the costliest to parse, when the
    state at that version is here already (an action just stored it, or another page read it).

    A stored version never changes, so an entry is never stale; engines never modify a state
    they are given, so one entry serves every request that reads it."""

    def __init__(self, size: int = 2048):
        self._lock = threading.Lock()
        self._items: OrderedDict[tuple[str, int], Entry] = OrderedDict()
        self._size = size

    def get(self, game_id: str, version: int) -> Entry | None:
        with self._lock:
            entry = self._items.get((game_id, version))
            if entry is not None:
                self._items.move_to_end((game_id, version))
            return entry

    def put(self, game_id: str, version: int, entry: Entry | None) -> None:
        if entry is None:
            return
        with self._lock:
            self._items[(game_id, version)] = entry
            self._items.move_to_end((game_id, version))
            while len(self._items) > self._size:
                self._items.popitem(last=False)


# A module global, not one per app: ``load_game`` is called with a store alone (the bots' loop,
# the presence loop, the classic gateway, the routes), and an entry is a pure function of
# (game id, version) — the same for every app of this process, whatever database it opened,
# since game ids are random 128-bit names.
loaded_states: LoadedStates[Any] = LoadedStates()
# This process's games as its own actions left them, by (game, revision): the pushes an action
# rings render from it instead of reading the game back. A revision names one stored row of the
# game, so an entry is never stale either.
recent_games: LoadedStates[LoadedGame] = LoadedStates(size=1024)


def loaded(record: GameRecord) -> LoadedGame:
    """A game from its row read with its snapshot: the state at that version from this process's
    cache when it is there (no parse), else from the snapshot."""
    rules = rules_engine.get(record.slug)
    state = loaded_states.get(record.id, record.version)
    if state is None and record.snapshot is not None:
        state = rules.load(record.snapshot)
        loaded_states.put(record.id, record.version, state)
    return LoadedGame(record, rules, state)


def load_game(store: Store, game_id: str) -> LoadedGame | None:
    if not isinstance(game_id, str) or len(game_id) > 64:
        return None
    record = store.load(game_id, snapshot=False)
    if record is None:
        return None
    rules = rules_engine.get(record.slug)
    state = loaded_states.get(game_id, record.version)
    if state is None:
        record = store.load(game_id)  # the snapshot too (the game may have moved on meanwhile)
        if record is None:
            return None
        state = rules.load(record.snapshot) if record.snapshot is not None else None
        loaded_states.put(game_id, record.version, state)
    return LoadedGame(record, rules, state)  # a waiting room has no state yet: None


DEFAULT_SOLO_NAME = "Adventurer"


def start_game(
    store: Store,
    slug: str,
    options: dict,
    *,
    seed: int | None = None,
    name: str = DEFAULT_SOLO_NAME,
    lobby: dict | None = None,
    deal_kind: str = "any",
    conn=None,
):
    """Create a solo game; returns (game id, the seat's token). Raises InvalidAction for bad options.

    ``lobby`` keeps facts about the game's origin (``same_deal_as``: the game whose seed it replays);
    ``deal_kind`` how its seed was drawn ("winnable": from a pool, ``deal_pools``, taken on ``conn``,
    the transaction that stores the game)."""
    rules = rules_engine.get(slug)
    seed = secrets.randbits(62) if seed is None else seed
    state = rules.new_game(seed=seed, players=[SOLO_SEAT], options=options)
    token = seat_tokens.new_token()
    game_id = store.create_game(
        slug=slug,
        options=options,
        seed=seed,
        players=[SOLO_SEAT],
        snapshot=rules.dump(state),
        seat_tokens={SOLO_SEAT: (name, seat_tokens.hash_token(token))},
        lobby=lobby,
        deal_kind=deal_kind,
        conn=conn,
    )
    return game_id, token


def parse_action(raw: str | None) -> dict:
    """The action a form posted, as a dict; InvalidAction if it is not a JSON object."""
    if not raw:
        raise rules_engine.InvalidAction("No action was sent.")
    if len(raw) > MAX_ACTION_BYTES:
        raise rules_engine.InvalidAction("That action is too large to be one of ours.")
    try:
        action = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: "[[[[…" nested deeper than json allows
        raise rules_engine.InvalidAction("That action is not readable.") from None
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise rules_engine.InvalidAction("An action needs a type.")
    return action


def _form_value(raw: str):
    value = str(raw)[:64]
    return int(value) if value.lstrip("-").isdigit() and len(value) < 10 else value


def action_from_form(form) -> dict:
    """The action a form posted: the ``action`` field's JSON, or one composed from inputs.

    Composed actions serve choices made with form controls (selects, checkboxes): the button
    ``compose`` names the type, ``a_<param>`` fields give scalars (whole numbers become ints),
    ``a_<param>[]`` fields give lists (checkboxes), and ``j_<param>`` fields hold JSON values."""
    if form.get("action"):
        return parse_action(form.get("action"))
    kind = form.get("compose")
    if not kind:
        raise rules_engine.InvalidAction("No action was sent.")
    action: dict = {"type": str(kind)[:64]}
    for name in form.keys():
        if len(name) > 40:
            continue
        if name.startswith("a_") and name.endswith("[]"):
            action[name[2:-2]] = [_form_value(v) for v in form.getlist(name)[:64]]
        elif name.startswith("a_"):
            action[name[2:]] = _form_value(form.get(name))
        elif name.startswith("j_"):
            raw = form.get(name)
            if len(raw) > MAX_ACTION_BYTES:
                raise rules_engine.InvalidAction("That action is too large to be one of ours.")
            try:
                action[name[2:]] = json.loads(raw)
            except (ValueError, RecursionError):
                raise rules_engine.InvalidAction(f"The {name[2:]} field is not readable.") from None
    return action


def clock_after(
    rules: Rules, state, record: GameRecord | None, now: float
) -> tuple[str | None, float | None, float | None] | None:
    """(turn key, started at, deadline) to store after an action; None for games without a clock.

    A turn that goes on keeps its start time; a new turn starts now (10.6)."""
    if not rules.timed:
        return None
    clock = rules.turn_clock(state)
    if not clock:
        return (None, None, None)
    key = f"{clock['seat']}:{clock['number']}"
    started = record.turn_started_at if record and record.turn_key == key and record.turn_started_at else now
    seconds = clock.get("seconds") or 0
    deadline = started + seconds if seconds > 0 else None
    if record and record.turn_key == key and record.turn_deadline and deadline:
        deadline = max(deadline, record.turn_deadline)  # keeps the grace a restart granted
    return (key, started, deadline)


def slow_clock(record: GameRecord) -> bool:
    """Whether the table's running turn is timed by a slow limit (``rules_engine.turn_limits``):
    then nobody there is dropped for being away (``Store.absent_seats`` reads the same stored
    clock), and the roster counts no seat down to its removal."""
    if record.turn_deadline is None or record.turn_started_at is None:
        return False
    return turn_limits.is_slow(int(record.turn_deadline - record.turn_started_at))


def act(
    store: Store, game: LoadedGame, seat: str, action: dict, *, by_server: bool = False, writers: Sequence[Writer] = ()
) -> Applied:
    """Apply and persist one action based on ``game.version`` (ringing is the caller's:
    ``service.GameService.act`` does both).

    Raises InvalidAction / IllegalAction (nothing stored) or StaleVersion (someone else's action
    landed first). Actions the game reserves for the server (timeouts, drops) are refused from
    players."""
    if not by_server and action.get("type") in game.rules.server_actions:
        raise rules_engine.InvalidAction("That action is applied by the server, not by players.")
    new_state = _apply(game, seat, action)

    def write_with_it(conn, now: float) -> None:
        for writer in writers:
            writer(conn, game, seat, action, new_state, now)

    result = game.rules.result(new_state)
    clock = clock_after(game.rules, new_state, game.record, time.time())
    version, revision = store.append(
        game.id,
        expected_version=game.version,
        seat=seat,
        action=action,
        snapshot=game.rules.dump(new_state),
        result=result,
        clock=clock,
        also=write_with_it if writers else None,
    )
    return Applied(version, revision, new_state, result, clock)


def _apply(game: LoadedGame, seat: str, action: dict) -> dict:
    """The engine's apply, with a net under malformed actions.

    The contract says a malformed action raises InvalidAction; an engine that trips over one
    instead (a TypeError on a list where a string belongs) must not turn a client's garbage into
    a 500. It is logged, so the engine gets fixed. A legal action that crashes is a real bug and
    still raises."""
    try:
        return game.rules.apply(game.state, seat, action)
    except (rules_engine.InvalidAction, rules_engine.IllegalAction):
        raise
    except (TypeError, KeyError, IndexError, AttributeError, ValueError, RecursionError) as error:
        if action in game.rules.legal_actions(game.state, seat):  # a real engine bug: a 500, logged
            raise
        log.warning(
            "%s: the engine raised %s on a malformed %r action (it should raise InvalidAction)",
            game.record.slug,
            type(error).__name__,
            str(action.get("type"))[:40],
        )
        raise rules_engine.InvalidAction("That action is not one this game understands.") from None


def open_table(
    store: Store, slug: str, options: dict, *, name: str, seed: int | None = None, lobby: dict | None = None
):
    """Create a multiplayer game's waiting room with its creator in seat p1 (the host).

    The engine's game begins when the host starts; returns (game id, the host's token). ``lobby``
    adds facts about the table's origin (``daily``: the day whose deal it plays)."""
    rules = rules_engine.get(slug)
    seed = secrets.randbits(62) if seed is None else seed
    # Validate the options now, so a bad form is refused before anyone is invited.
    rules.new_game(seed=seed, players=["p1"], options=options)
    token = seat_tokens.new_token()
    game_id = store.create_game(
        slug=slug,
        options=options,
        seed=seed,
        players=[],
        snapshot=None,
        seat_tokens={"p1": (name, seat_tokens.hash_token(token))},
        status="waiting",
        lobby={**(lobby or {}), "host": "p1", "choices": {}},
    )
    return game_id, token


def host_of(lobby: dict, seats: list) -> str | None:
    """The seat that hosts a table: the one named in its lobby while it is seated, else the
    longest-seated player (``seats`` in join order), so a table whose host left never becomes
    unstartable and an empty waiting room's next arrival hosts it."""
    seated = [s.seat for s in seats]
    named = lobby.get("host")
    if named in seated:
        return named
    return seated[0] if seated else None


def name_taken(seats: list, name: str, *, besides: str | None = None) -> bool:
    """Whether another seat at the table (not ``besides``) already goes by ``name``, ignoring case."""
    wanted = name.casefold()
    return any(s.name.casefold() == wanted for s in seats if s.seat != besides)


def table_size(rules: Rules, options: dict) -> int:
    return int(options.get("max_players") or rules.max_players)


def replay(store: Store, game_id: str) -> dict:
    """The state rebuilt from seed, options and the action log alone (the snapshot is only a cache)."""
    record = store.load(game_id)
    if record is None:
        raise KeyError(f"no game {game_id}")
    rules = rules_engine.get(record.slug)
    state = rules.new_game(seed=record.seed, players=record.players, options=record.options)
    for _seq, seat, action in store.actions(game_id):
        state = rules.apply(state, seat, action)
    return state


# Both run for every button of every render: one encoder (json.dumps with options builds a new one
# per call) and one regex pass (every character that is not str.isalnum(), which is what \w less
# the underscore matches).
_ACTION_JSON = json.JSONEncoder(separators=(",", ":"), sort_keys=True)
_NOT_ALNUM = re.compile(r"[\W_]")


@dataclass(frozen=True)
class ActionButton:
    action: dict
    label: str
    key: str | None
    alt_key: str | None = None
    warning: str | None = None
    """The engine's sentence when this action certainly loses the game (``loss_warning``): the
    button shows it and asks before posting."""
    hinted: bool = False
    """The move a hint suggests (``hints``): the button is highlighted."""

    @property
    def json(self) -> str:
        return _ACTION_JSON.encode(self.action)

    @property
    def dom_id(self) -> str:
        """A stable element id, so htmx keeps keyboard focus on the same action across swaps."""
        parts = [str(self.action[k]) for k in sorted(self.action) if k != "type"]
        raw = "-".join([self.action["type"], *parts])
        return "act-" + _NOT_ALNUM.sub("-", raw)

    def get(self, name, default=None):
        return self.action.get(name, default)


def action_buttons(game: LoadedGame, seat: str | None, keys: dict | None = None) -> list[ActionButton]:
    """This seat's legal actions with readable labels and keyboard shortcuts (none for spectators).

    ``keys`` (the game's catalog entry) fixes shortcuts by ``"type"`` or ``"type:dir"``; moves
    get arrows and W A S D, and every other action the next digit or letter."""
    if seat is None or game.state is None:
        return []
    keys = keys or {}
    buttons = []
    fixed = {k for pair in keys.values() for k in pair if k} | {UNDO_KEY, HINT_KEY}
    choices = (k for k in CHOICE_KEYS if k not in fixed)
    for action in game.rules.legal_actions(game.state, seat):
        label = game.rules.action_label(game.state, action)
        named = keys.get(f"{action.get('type')}:{action.get('dir')}") or keys.get(action.get("type"))
        if named:
            key, alt = named
        elif action.get("type") == "move" and action.get("dir") in MOVE_KEYS:
            key, alt = MOVE_KEYS[action["dir"]]
        else:
            key, alt = next(choices, None), None
        warning = game.rules.loss_warning(game.state, seat, action)
        buttons.append(ActionButton(action, label, key, alt, warning))
    return buttons
