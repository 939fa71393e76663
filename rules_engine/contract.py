"""The contract every game module fulfils, and the one object the rest of Delve holds for a game.

A game module (``rules_engine/games/<name>``) defines the seven required functions and the four
facts below, declares itself (its metadata and option schema, below), plus whichever optional
hooks its rules need. ``rules_engine.get(slug)`` fills
every hook the module leaves out with its default, once, and returns a ``Rules``: code outside
the engines never asks "does this game have X" (as boardgame.io's ``ProcessGameConfig`` does).

A state is a plain JSON-safe ``dict``; an action is ``{"type": ..., **params}``. Every view
(``view(state, seat)``) shares an envelope: ``status`` (``setup`` before the first turn when the
game has such a stage, ``playing``, ``finished``), ``seat`` (the viewer's own seat, None for a
spectator) and ``log`` (entries oldest first, each with a sentence ``text`` and a non-decreasing
``seq`` the pages use to show only what is new; a game may add its own keys). ``result(state)``
is None while the game runs, then one shape for every game: ``winners`` (seats), ``scores``
({seat: number}), ``reason`` (a short code), ``text`` (the end in one sentence, naming seats as
the log does), plus whatever a game's own pages or leaderboard need.
``apply`` never mutates its input: it returns a new state or raises
``InvalidAction`` (malformed) / ``IllegalAction`` (against the rules) and changes nothing.

Declarations (module attribute → default):

- ``TABLE`` → False: whether the game is played at a table (a waiting room, seats joining by
  link) rather than alone; ``PLAYERS_LABEL`` (e.g. "Solo"), ``BLURB`` (the front page's words).
- ``OPTIONS`` → (): the creation form's options (``rules_engine.options.Option``), whose ranges and
  choices the engine's own checks read; ``TEST_OPTIONS`` → (): option names accepted only from
  tests (forced dice); ``form_options(form, options)`` → nothing: turns the form's own fields
  (a preset, an uploaded map's bytes) into options, raising InvalidAction for a bad one;
  ``form_fields_for(options)`` → {}: the reverse, the form's own fields that make ``options``
  (an imported game's options go through the creation form's checks with them).
- ``LOBBY_FIELDS`` → (): what each seat chooses in the waiting room (``choice`` options; each
  reaches ``new_game`` as ``options[name] = {seat: value}``); ``UNIQUE_LOBBY_FIELDS`` → ():
  the ones no two seats may share.

What the platform offers around the game is declared here too, so no module outside the game's
own engine, presenter and templates names it:

- ``FRONT_PAGE_PLACE`` → 100: where the game sits on the front page, lowest first (ties by slug);
  the five games take 10–50, solo games before tables.
- ``DAILY_FORM`` → None: the creation form's fields of the game's deal of the day (``{}``: the
  standard options; the same strings a form posts, so ``form_options`` reads them), or None: no
  daily deal.
- ``CHALLENGES`` → False: whether the player of a finished game may challenge friends to its deal
  (a solo game's: a table game cannot declare it).
- ``HALL_OF_FAME`` → None: the game's Hall of Fame (``rules_engine.fame.HallOfFame``: its page,
  columns and ranking, and which options set the deal), whose entries ``fame_entries`` writes;
  None: no Hall of Fame.
- ``CLASSIC_CLIENTS`` → False: whether a table may take clients that speak the game's classic
  line-based TCP protocol (the gateway of ``webapp/adapters/classic``).
- ``SOLVER`` → None: the dotted name of the module whose ``PUZZLE`` (``rules_engine.solving.Puzzle``)
  searches the game's deals (whether a deal could be won, where it was lost, the odds from a
  seat's view, hints), e.g. ``"rules_engine.games.shuffle_and_doom.solver"``; None: not solved.
- ``BOT`` → None: the dotted name of the module whose players the server seats at a table
  (``BotModule``: ``decide`` and ``QUIT``), e.g. ``"rules_engine.bots.dungeon_cards"``; None:
  no bots play the game.

Optional hooks (module attribute → default):

- ``action_label(state, action)`` → a button's words; default: the type, capitalised.
- ``turn_clock(state)`` → ``{seat, number, seconds}`` of the decision being waited for, or None;
  a module that defines it is *timed* (the platform stores and enforces its clock).
- ``server_actions`` → action types only the server applies (never accepted from a player); ().
- ``timeout_action`` / ``absence_action`` / ``join_action`` → what the server applies when a turn
  times out, when a seat stays away past the grace period, when a newcomer joins a running game;
  None: the game has no such rule (a solo game waits for its player; no mid-game joins).
- ``lobby_choice_problem(field, value, seats)`` → why the waiting room refuses a choice; None.
- ``living_seats(state)`` → the seats still playing, which a roster cap counts; None: all count.
- ``fame_entries(state)`` → the Hall of Fame entries the game has written so far; [].
- ``loss_warning(state, seat, action)`` → a sentence when ``action`` (a legal one) certainly
  ends the game in a loss for ``seat``, which the page shows on its button and asks to confirm;
  None: no warning (the default). Worked out only from what ``seat`` may see: an outcome that
  hangs on a face-down card or the deck's order is not certain, and a warning read from one
  would give it away. Giving up (``resign``) is its own warning and gets none.
- ``full_view(state)`` → what a replay of a finished game shows at this point of its history:
  ``view(state, None)``'s envelope and keys (so the game's presenter draws it unchanged), with
  nothing hidden, plus ``revealed``: sections ``{"title", "cards": [codes]}`` and/or
  ``{"title", "items": [short sentences]}``, optionally ``"note"``, naming in plain words what the
  live pages hid (the draw pile top first, face-down cards, hands); [] when nothing is hidden.
  Default: ``view(state, None)`` with ``revealed`` []. Pages show it only once a game is over.
- ``reveals(before, after, seat, action)`` → what ``action`` showed the acting seat or anyone
  else that they had not seen, in a few words ("a card was turned"), or None when it showed
  nothing: the moves since the last reveal can be undone (``rules_engine.undo``). Default: every
  action reveals (the game has no undo).
- ``positions(state)`` → where each seat's token stands, ``{seat: [row, col]}``, for a game played
  on a map: a replay draws each seat's path through the game from them. Default: {} (no map).

>>> from rules_engine import get
>>> rules = get("shuffle-and-doom")
>>> rules.slug, rules.timed, rules.join_action, rules.fame_entries({})
('shuffle-and-doom', False, None, [])
>>> rules.lobby_choice_problem("class", "mage", 1), get("dungeon-of-doom").timed
(None, True)
>>> get("dungeon-of-doom").loss_warning({}, "p1", {"type": "move"}) is None
True
>>> rules.daily_form, rules.challenges, rules.hall_of_fame, rules.bot, rules.front_page_place
({}, True, None, None, 10)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal, Protocol, TypedDict

from .fame import HallOfFame
from .options import Option
from .solving import Puzzle
from .undo import Undoing, UndoReach, reveals_everything

State = dict[str, Any]
Action = dict[str, Any]


class LogEntry(TypedDict):
    """One line of a view's log (``kit.log_entries`` makes them)."""

    seq: int
    text: str


class ViewEnvelope(TypedDict):
    """The keys every view carries (``view(state, seat)``; a game adds its own)."""

    status: Literal["setup", "playing", "finished"]
    seat: str | None
    log: list[LogEntry]


class GameResult(TypedDict):
    """What ``result(state)`` returns once the game is over, for every game (a game may add keys)."""

    winners: list[str]
    scores: dict[str, int]
    reason: str
    text: str


class GameModule(Protocol):
    """What a game module must define (the optional hooks are listed in this module's docstring)."""

    slug: str
    title: str
    min_players: int
    max_players: int

    def new_game(self, seed: int, players: list[str], options: dict[str, Any] | None = None) -> State: ...

    def legal_actions(self, state: State, seat: str) -> list[Action]: ...

    def apply(self, state: State, seat: str, action: Action) -> State: ...

    def view(self, state: State, seat: str | None) -> dict[str, Any]: ...

    def result(self, state: State) -> dict[str, Any] | None: ...

    def dump(self, state: State) -> dict[str, Any]: ...

    def load(self, data: dict[str, Any]) -> State: ...


class BotModule(Protocol):
    """What a game's bot module (``BOT``) defines: the action type a bot never takes (leaving
    or giving up the game), and how it picks one of ``legal`` (quitting left out) from the seat's
    view alone, any chance from ``rng``."""

    QUIT: str

    def decide(self, view: dict[str, Any], legal: list[Action], rng: Any) -> Action: ...


FRONT_PAGE_LAST = 100
"""A game that declares no ``FRONT_PAGE_PLACE`` sits after the five (ties by slug)."""


def _default_label(_state: State, action: Action) -> str:
    return str(action["type"]).replace("_", " ").capitalize()


def _no_clock(_state: State) -> dict[str, Any] | None:
    return None


def _no_objection(_field: str, _value: str, _seats: int) -> str | None:
    return None


def _everyone_counts(_state: State) -> list[str] | None:
    return None


def _no_fame(_state: State) -> list[dict[str, Any]]:
    return []


def _no_warning(_state: State, _seat: str, _action: Action) -> str | None:
    return None


def _spectator_view_revealing_nothing(
    game_view: Callable[[State, str | None], dict[str, Any]],
) -> Callable[[State], dict[str, Any]]:
    # Only a game knows what its views hide, so the default reveals nothing rather than guess.
    def full_view(state: State) -> dict[str, Any]:
        return {**game_view(state, None), "revealed": []}

    return full_view


def _no_positions(_state: State) -> dict[str, list[int]]:
    return {}


def _no_form_fields(_form: Any, _options: dict[str, Any]) -> None:
    return None


def _no_fields_for(_options: dict[str, Any]) -> dict[str, str]:
    return {}


@dataclass(frozen=True)
class Rules:
    """One game's rules with every optional hook filled in: what the web layer holds.

    A game's own extras (its data tables, a map parser) stay on ``module``; attribute access
    falls back to it, so a game's templates and tests can reach them as ``rules.data``."""

    module: ModuleType
    slug: str
    title: str
    min_players: int
    max_players: int
    new_game: Callable[..., State]
    legal_actions: Callable[[State, str], list[Action]]
    apply: Callable[[State, str, Action], State]
    view: Callable[[State, str | None], dict[str, Any]]
    result: Callable[[State], dict[str, Any] | None]
    dump: Callable[[State], dict[str, Any]]
    load: Callable[[dict[str, Any]], State]
    action_label: Callable[[State, Action], str]
    turn_clock: Callable[[State], dict[str, Any] | None]
    timed: bool
    server_actions: tuple[str, ...]
    timeout_action: Action | None
    absence_action: Action | None
    join_action: Action | None
    lobby_choice_problem: Callable[[str, str, int], str | None]
    living_seats: Callable[[State], list[str] | None]
    fame_entries: Callable[[State], list[dict[str, Any]]]
    loss_warning: Callable[[State, str, Action], str | None]
    full_view: Callable[[State], dict[str, Any]]
    positions: Callable[[State], dict[str, list[int]]]
    table: bool
    players_label: str
    blurb: str
    options: tuple[Option, ...]
    test_options: tuple[str, ...]
    form_options: Callable[[Any, dict[str, Any]], None]
    form_fields_for: Callable[[dict[str, Any]], dict[str, str]]
    lobby_fields: tuple[Option, ...]
    unique_lobby_fields: tuple[str, ...]
    front_page_place: int
    daily_form: Mapping[str, str] | None
    challenges: bool
    hall_of_fame: HallOfFame | None
    classic_clients: bool
    bot: ModuleType | None
    """The ``BOT`` module (a ``BotModule``: ``_conformance`` has mypy check each one)."""
    puzzle: Puzzle | None
    """The ``SOLVER`` module's ``PUZZLE``, or None."""
    undo_reach: Callable[[State, str | None], UndoReach]
    """How far a seat may undo now, and why not (``rules_engine.undo``)."""
    speech: ModuleType | None
    """The ``SPEECH`` module (a ``speech.SpeechModule``: the command line and answers in words), or None."""

    def __getattr__(self, name: str) -> Any:
        # Only reached for names that are not fields: a game's own extras.
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.module, name)

    @classmethod
    def of(cls, module: ModuleType) -> Rules:
        """The module's rules with its missing hooks filled in (a missing required part raises)."""
        hooks = vars(module)
        required = (
            "slug",
            "title",
            "min_players",
            "max_players",
            "new_game",
            "legal_actions",
            "apply",
            "view",
            "result",
            "dump",
            "load",
        )
        missing = [name for name in required if name not in hooks]
        if missing:
            raise TypeError(f"game module {module.__name__} lacks {', '.join(missing)}")

        def action_or_none(name: str) -> Action | None:
            action = hooks.get(name)
            return dict(action) if action else None

        table = bool(hooks.get("TABLE", False))
        challenges = bool(hooks.get("CHALLENGES", False))
        if challenges and table:
            raise TypeError(f"game module {module.__name__}: CHALLENGES are for solo games (TABLE is True)")
        daily_form = hooks.get("DAILY_FORM")
        # Imported here, not by the game module: a bot module reads the game's own parts, so the
        # game naming it by its dotted name keeps the import one-way.
        bot = importlib.import_module(hooks["BOT"]) if hooks.get("BOT") else None
        puzzle = importlib.import_module(hooks["SOLVER"]).PUZZLE if hooks.get("SOLVER") else None
        speech = importlib.import_module(hooks["SPEECH"]) if hooks.get("SPEECH") else None
        server_actions = tuple(hooks.get("server_actions", ()))
        # Every game's new_game, apply, dump and load keep the undo trail around the game's own.
        undoing = Undoing(
            new_game_of_game=hooks["new_game"],
            apply_of_game=hooks["apply"],
            dump_of_game=hooks["dump"],
            load_of_game=hooks["load"],
            result_of_game=hooks["result"],
            label_of_game=hooks.get("action_label", _default_label),
            reveals=hooks.get("reveals", reveals_everything),
            table=table,
            server_actions=server_actions,
            joinable=bool(hooks.get("join_action")),
        )

        return cls(
            module=module,
            slug=hooks["slug"],
            title=hooks["title"],
            min_players=hooks["min_players"],
            max_players=hooks["max_players"],
            new_game=undoing.new_game,
            legal_actions=hooks["legal_actions"],
            apply=undoing.apply,
            view=hooks["view"],
            result=hooks["result"],
            dump=undoing.dump,
            load=undoing.load,
            action_label=undoing.action_label,
            turn_clock=hooks.get("turn_clock", _no_clock),
            timed="turn_clock" in hooks,
            server_actions=server_actions,
            timeout_action=action_or_none("timeout_action"),
            absence_action=action_or_none("absence_action"),
            join_action=action_or_none("join_action"),
            lobby_choice_problem=hooks.get("lobby_choice_problem", _no_objection),
            living_seats=hooks.get("living_seats", _everyone_counts),
            fame_entries=hooks.get("fame_entries", _no_fame),
            loss_warning=hooks.get("loss_warning", _no_warning),
            full_view=hooks.get("full_view") or _spectator_view_revealing_nothing(hooks["view"]),
            positions=hooks.get("positions", _no_positions),
            table=table,
            players_label=hooks.get("PLAYERS_LABEL", "Solo"),
            blurb=hooks.get("BLURB", ""),
            options=tuple(hooks.get("OPTIONS", ())),
            test_options=tuple(hooks.get("TEST_OPTIONS", ())),
            form_options=hooks.get("form_options", _no_form_fields),
            form_fields_for=hooks.get("form_fields_for", _no_fields_for),
            lobby_fields=tuple(hooks.get("LOBBY_FIELDS", ())),
            unique_lobby_fields=tuple(hooks.get("UNIQUE_LOBBY_FIELDS", ())),
            front_page_place=int(hooks.get("FRONT_PAGE_PLACE", FRONT_PAGE_LAST)),
            daily_form=dict(daily_form) if daily_form is not None else None,
            challenges=challenges,
            hall_of_fame=hooks.get("HALL_OF_FAME"),
            classic_clients=bool(hooks.get("CLASSIC_CLIENTS", False)),
            bot=bot,
            puzzle=puzzle,
            undo_reach=undoing.reach,
            speech=speech,
        )
