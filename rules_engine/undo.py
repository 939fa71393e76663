"""Undo that never peeks: taking back a seat's moves until one of them showed something.

Every game's ``apply`` goes through ``Undoing`` (``contract.Rules`` builds one per game), which
adds two actions the game itself never sees and keeps, inside the state, the trail that undoing
needs:

- ``{"type": "undo"}`` takes back the seat's last move: the game's state becomes exactly what it
  was before that move. It is an action like any other (stored in the log, replayed by replays
  and imports, checked by the optimistic lock), so the log stays append-only.
- ``{"type": "practice"}`` turns a game played alone (a solo game, or a table game dealt to one
  player that nobody can join later: Dungeon Cards alone) into practice, once and for good: undo then goes
  back past reveals (the deal is fixed, so the same cards come again). The platform never ranks
  a practice game (``is_practice``).

**What counts as a reveal** is the game's to say: its ``reveals(before, after, seat, action)``
hook names, in a few words ("a card was turned"), what the action showed the acting seat or
anyone else that they had not seen (a card turned or drawn, a die rolled, a tile coming into
view, another seat's view changing), or returns None when it showed nothing. A game without the
hook has no undo: every action counts as a reveal. A seat's **horizon** is its last revealing
move; at a table, also the last action of anyone else (and of the server: a timeout). A ranked
game never undoes past its horizon, so undoing can only show a seat views it has already seen.

**The trail** (the state's ``"undo"`` key, which the game's own functions never read):

- a game played alone keeps how it was dealt (``origin``: seed, players, options: hidden, like the rest
  of a state) and every move that stands (``moves``); an undo deals again and replays all but
  the last (a few milliseconds for the longest games measured, none of it on a normal move), so
  the state stays small: a move costs its action's few bytes;
- a table keeps only the acting seat's run of moves that revealed nothing (``moves``) and the
  state before the run (``start``); another seat's action or a reveal ends the run. ``dump``
  stores of ``start`` only the parts that differ from the state now (in The Dungeon of Doom a
  four-seat snapshot grows from about 15 kB to 16 kB during a run, not to 27 kB).

``why`` keeps the words of the last reveal, so a page can say why nothing can be undone.

>>> from rules_engine import get
>>> rules = get("clear-the-dungeon")
>>> state = rules.new_game(seed=7, players=["p1"], options={})
>>> rules.undo_reach(state, "p1")
UndoReach(steps=0, reason='nothing to undo yet', practice=False, practice_offered=True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import IllegalAction, InvalidAction
from .kit import deep_copy

State = dict[str, Any]
Action = dict[str, Any]

UNDO = "undo"
PRACTICE = "practice"
TRAIL = "undo"
"""The state's key for the trail (no game uses it for its own)."""

NOTHING_YET = "nothing to undo yet"
GAME_OVER = "the game is over"
SOMEONE_ELSE = "someone else has played since your last move"
BEFORE_UNDO = "this game began before Delve had undo"
NO_UNDO = "this game has no undo"
ALL_UNDONE = "every move since the last reveal is undone"
SERVER_MOVED = "the game's clock moved it on"


def reveals_everything(_before: State, _after: State, _seat: str, _action: Action) -> str | None:
    """The default ``reveals``: a game that does not say what its actions show has no undo."""
    return NO_UNDO


@dataclass(frozen=True)
class UndoReach:
    """How far ``seat`` can undo now: ``steps`` moves (0: none, ``reason`` says why in a few
    words), whether the game is practice, and whether it may still be switched to practice."""

    steps: int
    reason: str | None
    practice: bool
    practice_offered: bool


def game_part(state: State) -> State:
    """The state as the game's own functions know it: without the trail."""
    if TRAIL not in state:
        return state
    game = state.copy()  # a shallow copy and a del: twice as fast as filtering the keys
    del game[TRAIL]
    return game


def move_to_undo(state: State | None) -> Action | None:
    """The move an undo of ``state`` would take back: the last one that stands in its trail
    (whether undo is allowed now is ``Rules.undo_reach``'s to say), or None."""
    trail = state.get(TRAIL) if isinstance(state, dict) else None
    moves = trail.get("moves") if isinstance(trail, dict) else None
    return dict(moves[-1][1]) if moves else None


def is_practice(state: State | None) -> bool:
    """Whether the game was switched to (or opened as) practice: never ranked."""
    trail = state.get(TRAIL) if isinstance(state, dict) else None
    return bool(trail and trail.get("practice"))


def _with_trail(state: State, trail: dict[str, Any] | None) -> State:
    return {**state, TRAIL: trail} if trail is not None else state


def _changes(start: State, now: State) -> dict[str, Any]:
    """A run's start as stored: only its top-level parts that differ from the state now (a step
    in The Dungeon of Doom changes the players, not the 12 kB map), and the keys it lacked."""
    changed = {
        key: value for key, value in start.items() if key not in now or (now[key] is not value and now[key] != value)
    }
    return {"changed": changed, "absent": [key for key in now if key not in start]}


def _rebuilt(stored: dict[str, Any], now: State) -> State:
    absent = set(stored["absent"])
    return {**{key: value for key, value in now.items() if key not in absent}, **stored["changed"]}


def _check_bare(action: Action) -> None:
    extra = sorted(str(name) for name in action if name != "type")
    if extra:
        raise InvalidAction(f"{action['type']} takes no parameter {', '.join(extra)}")


@dataclass(frozen=True)
class Undoing:
    """A game's ``new_game``, ``apply``, ``dump`` and ``load`` with the trail kept around them."""

    new_game_of_game: Callable[..., State]
    apply_of_game: Callable[[State, str, Action], State]
    dump_of_game: Callable[[State], dict[str, Any]]
    load_of_game: Callable[[dict[str, Any]], State]
    result_of_game: Callable[[State], dict[str, Any] | None]
    label_of_game: Callable[[State, Action], str]
    reveals: Callable[[State, State, str, Action], str | None]
    table: bool
    server_actions: tuple[str, ...] = ()
    joinable: bool = False
    """Whether a newcomer can join a running table (then even a table dealt to one is a table)."""

    # --- the contract's functions -------------------------------------------------------------

    def new_game(self, seed: int, players: list[str], options: dict[str, Any] | None = None) -> State:
        state = self.new_game_of_game(seed, players, options)
        if self.table and (len(players) > 1 or self.joinable):
            return state
        # Played alone (a solo game, or a table game dealt to one player that nobody can join):
        # the trail keeps how it was dealt, so an undo, in practice too, replays from the deal.
        origin = {"seed": seed, "players": list(players), "options": deep_copy(dict(options or {}))}
        return _with_trail(state, {"origin": origin, "moves": [], "horizon": 0, "why": None, "practice": False})

    def apply(self, state: State, seat: str, action: Action) -> State:
        kind = action.get("type") if isinstance(action, dict) else None
        trail = state.get(TRAIL)
        game = game_part(state)
        if kind == UNDO:
            _check_bare(action)
            return self._undo(game, trail, seat)
        if kind == PRACTICE:
            _check_bare(action)
            return self._practice(game, trail)
        after = self.apply_of_game(game, seat, action)
        why = SERVER_MOVED if kind in self.server_actions else self.reveals(game, after, seat, action)
        if trail is None or "origin" not in trail:
            if self.table:
                return _with_trail(after, self._table_trail(game, trail, seat, action, why))
            return after  # a game stored before undo existed: nothing to replay from
        moves = [*trail["moves"], [seat, deep_copy(action)]]
        if why is None:
            return _with_trail(after, {**trail, "moves": moves})
        return _with_trail(after, {**trail, "moves": moves, "horizon": len(moves), "why": why})

    def dump(self, state: State) -> dict[str, Any]:
        trail = state.get(TRAIL)
        game = game_part(state)
        dumped = self.dump_of_game(game)
        if trail is None:
            return dumped
        if "start" in trail:
            trail = {**trail, "start": _changes(trail["start"], game)}
        return _with_trail(dumped, deep_copy(trail))

    def load(self, data: dict[str, Any]) -> State:
        trail = data.get(TRAIL) if isinstance(data, dict) else None
        if trail is not None and not isinstance(trail, dict):
            raise InvalidAction("that is not a saved game's undo trail")
        loaded = self.load_of_game(game_part(data) if isinstance(data, dict) else data)
        if trail is None:
            return loaded
        trail = deep_copy(trail)
        if "start" in trail:
            trail["start"] = _rebuilt(trail["start"], loaded)
        return _with_trail(loaded, trail)

    def action_label(self, state: State, action: Action) -> str:
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == UNDO:
            return "Undo"
        if kind == PRACTICE:
            return "Switch to practice"
        return self.label_of_game(game_part(state), action)

    def reach(self, state: State, seat: str | None) -> UndoReach:
        """How far ``seat`` may undo in ``state`` now, and if not, why."""
        trail = state.get(TRAIL)
        practice = bool(trail and trail.get("practice"))
        over = self.result_of_game(game_part(state)) is not None
        alone = bool(trail and "origin" in trail)
        offered = alone and not over and not practice
        if seat is None:
            return UndoReach(0, None, practice, False)
        if over:
            return UndoReach(0, GAME_OVER, practice, False)
        if trail is None:
            return UndoReach(0, NOTHING_YET if self.table else BEFORE_UNDO, practice, offered)
        if not alone:
            if trail.get("seat") != seat:
                return UndoReach(0, SOMEONE_ELSE if trail.get("seat") else NOTHING_YET, practice, False)
            steps = len(trail.get("moves", ()))
            return UndoReach(steps, None if steps else (trail.get("why") or NOTHING_YET), practice, False)
        moves = trail["moves"]
        steps = len(moves) if practice else len(moves) - min(trail["horizon"], len(moves))
        if moves and moves[-1][0] != seat:
            return UndoReach(0, SOMEONE_ELSE, practice, offered)
        if steps:
            return UndoReach(steps, None, practice, offered)
        if not moves:
            return UndoReach(0, NOTHING_YET, practice, offered)
        return UndoReach(0, trail.get("why") or ALL_UNDONE, practice, offered)

    # --- the two actions ------------------------------------------------------------------------

    def _undo(self, game: State, trail: dict[str, Any] | None, seat: str) -> State:
        reach = self.reach(_with_trail(game, trail), seat)
        if not reach.steps or trail is None:
            raise IllegalAction(f"Nothing to undo: {reach.reason}.")
        moves = trail["moves"][:-1]
        if "origin" not in trail:
            restored = self._replay(trail["start"], moves)
            kept = {**trail, "moves": moves} if moves else {"seat": seat, "why": ALL_UNDONE}
            return _with_trail(restored, kept)
        origin = trail["origin"]
        start = self.new_game_of_game(origin["seed"], list(origin["players"]), deep_copy(origin["options"]))
        restored = self._replay(start, moves)
        horizon = min(trail["horizon"], len(moves))
        why = trail["why"] if horizon == trail["horizon"] else None
        return _with_trail(restored, {**trail, "moves": moves, "horizon": horizon, "why": why})

    def _practice(self, game: State, trail: dict[str, Any] | None) -> State:
        if self.table and not (trail and "origin" in trail):
            raise IllegalAction("Only a game played alone can be practice.")
        if trail is None or "origin" not in trail:
            raise IllegalAction(f"This game cannot become practice: {BEFORE_UNDO}.")
        if trail.get("practice"):
            raise IllegalAction("This game is practice already.")
        if self.result_of_game(game) is not None:
            raise IllegalAction("The game is over: it can no longer become practice.")
        return _with_trail(game, {**trail, "practice": True})

    def _replay(self, start: State, moves: list[list[Any]]) -> State:
        state = start
        for seat, action in moves:
            state = self.apply_of_game(state, seat, action)
        return state

    @staticmethod
    def _table_trail(
        before: State, trail: dict[str, Any] | None, seat: str, action: Action, why: str | None
    ) -> dict[str, Any] | None:
        if why is not None:
            return {"seat": seat, "why": why}
        if trail is not None and trail.get("seat") == seat and "start" in trail:
            return {**trail, "moves": [*trail["moves"], [seat, deep_copy(action)]]}
        # The first move of a run: the state before it is where an undo of the whole run lands.
        # States are never changed once made (engines copy what they change), so it is kept as is.
        return {"seat": seat, "start": before, "moves": [[seat, deep_copy(action)]]}
