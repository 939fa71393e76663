"""A finished solo game's verdict on its deal, worked out by the background solver
(``solver_jobs``, kind ``verdict``), never while the game runs.

When a solo game whose rules declare a ``Puzzle`` ends, the action that ends it queues a verdict
job in its own transaction (``VerdictQueue``, a ``play.Writer``). The job (``run_verdict``)
rebuilds the states the player stood in from the stored log and asks ``rules_engine.solving``:

- **the deal**: could it be won from the first decision (``solve``)? "win" with a line of engine
  actions (``engine_line``: a solver's own macro moves spelled out), stored as a watch-only
  finished game on the same seed and options (its replay is the line, ``line_game``), "no win",
  or "unknown" (the search stopped after its budget of nodes);
- **where it was lost** (a game not won on a deal that could be): the last state of the
  player's game from which a win was still possible (``last_winnable``); the move after it is
  the one that lost it (``lost``: its log step and its words);
- **the odds from what the player could see**: at the first decision and where it was lost,
  the share of deals consistent with the player's view that could be won (``odds``).

A game with undo is searched along the moves that stand at its end (each undo takes one back):
a state the player left by an undo is not on the way their game went. The budgets are the
solver module's (``SOLVE_NODES``, ``SAMPLE_NODES``, ``HINT_SAMPLES``).
"""

from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass
from typing import Any

import rules_engine
from rules_engine import solving
from rules_engine.undo import PRACTICE, UNDO, game_part

from ..storage.store import Store
from . import play, seat_tokens, solver_jobs
from .catalog import BY_SLUG
from .solver_jobs import DONE, FAILED, KINDS, Job, QueueFull

log = logging.getLogger("delve.verdicts")

KIND = "verdict"
PARAMS: dict = {}
"""One verdict per game: its params say nothing more."""
SOLVER_NAME = "The solver"
"""The name of the winning line's one seat."""
DEFAULT_SOLVE_NODES = 200_000
DEFAULT_SAMPLE_NODES = 3_000
DEFAULT_SAMPLES = 10


@dataclass(frozen=True)
class Budgets:
    solve_nodes: int
    sample_nodes: int
    samples: int


def solver_module(slug: str) -> Any:
    """The game's solver module (its package's ``SOLVER``), or None."""
    solver_name = getattr(importlib.import_module(rules_engine.GAMES[slug]), "SOLVER", None)
    return importlib.import_module(solver_name) if solver_name else None


def engine_line(slug: str, line: list[dict]) -> list[dict]:
    """A solver's line as the engine's actions: a solver whose moves join several actions into
    one of its own spells them out (its ``engine_actions``); the others' moves are the engine's."""
    spell = getattr(solver_module(slug), "engine_actions", None)
    return list(spell(line)) if spell is not None else list(line)


def budgets(slug: str) -> Budgets:
    """The solver module's budgets for the game (sensible defaults where it names none)."""
    solver = solver_module(slug)
    return Budgets(
        solve_nodes=getattr(solver, "SOLVE_NODES", DEFAULT_SOLVE_NODES),
        sample_nodes=getattr(solver, "SAMPLE_NODES", DEFAULT_SAMPLE_NODES),
        samples=getattr(solver, "ODDS_SAMPLES", getattr(solver, "HINT_SAMPLES", DEFAULT_SAMPLES)),
    )


def judged(slug: str, lobby: dict) -> bool:
    """Whether a finished game of ``slug`` gets a verdict: a solo game whose rules can be solved,
    played here (an imported game, a winning line included, is only watched)."""
    entry = BY_SLUG.get(slug)
    return entry is not None and entry.solo and entry.rules.puzzle is not None and not lobby.get("imported")


class VerdictQueue:
    """A writer of the game service (``play.Writer``): the action that ends a solo game queues
    its verdict in the same transaction (none while the game runs: nothing derived from the
    deal may reach anyone then). A full queue (``limit`` verdicts waiting) queues nothing: the
    game's end page asks again later (``panel``)."""

    def __init__(self, store: Store, limit: int):
        self.store = store
        self.limit = limit

    def __call__(self, conn, game, _seat, _action, new_state, _now) -> None:
        if game.rules.result(new_state) is None or not judged(game.record.slug, game.record.lobby):
            return
        try:
            solver_jobs.enqueue(self.store, KIND, game.id, PARAMS, conn, limit=self.limit)
        except QueueFull:
            log.info("the solver's queue is full: no verdict queued for game %s yet", game.id)


# ---- the job ------------------------------------------------------------------------------------


@dataclass
class _Played:
    """A finished game's states, rebuilt from its log: ``states[i]`` after ``i`` actions (with
    the undo trail: what ``legal_actions`` and ``action_label`` read), and ``path``, the log steps
    of the states its standing moves led through, from the deal to the end."""

    rules: Any
    moves: list[tuple[str, dict]]
    states: list[Any]
    path: list[int]

    def game_state(self, index: int) -> Any:
        """The game's own state at ``path[index]`` (what the solver reads)."""
        return game_part(self.states[self.path[index]])


def _played(store: Store, game_id: str) -> tuple[Any, _Played]:
    record = store.load(game_id)
    if record is None:
        raise LookupError(f"no game {game_id}")
    rules = rules_engine.get(record.slug)
    moves = [(seat, action) for _seq, seat, action in store.actions(game_id)]
    state = rules.new_game(record.seed, list(record.players), dict(record.options))
    states, standing = [state], [0]
    for step, (seat, action) in enumerate(moves, start=1):
        state = rules.apply(state, seat, action)
        states.append(state)
        if action.get("type") == UNDO:
            standing.pop()
        elif action.get("type") != PRACTICE:
            standing.append(step)
    return record, _Played(rules, moves, states, standing)


def _first_decision(played: _Played, seat: str) -> int:
    """The index on the path of the first state where the player has a move of the game's own."""
    for index, step in enumerate(played.path):
        own = [a for a in played.rules.legal_actions(played.states[step], seat) if a["type"] not in (UNDO, PRACTICE)]
        if own:
            return index
    return 0


def _odds(puzzle: solving.Puzzle, state: Any, seat: str, budget: Budgets) -> dict | None:
    if puzzle.determinize is None:
        return None
    found = solving.odds(puzzle, state, seat, samples=budget.samples, max_nodes=budget.sample_nodes)
    return {"winnable": found.winnable, "answered": found.answered, "samples": found.samples}


def _line_game(store: Store, record, played: _Played, first: int, line: list[dict]) -> str | None:
    """The winning line as a finished, watch-only game on the same deal: the player's standing
    moves up to the first decision, then the solver's; None if it does not end the game."""
    rules = played.rules
    seat = record.players[0]
    moves = [played.moves[step - 1] for step in played.path[1 : first + 1]] + [(seat, action) for action in line]
    state = rules.new_game(record.seed, list(record.players), dict(record.options))
    try:
        for mover, action in moves:
            state = rules.apply(state, mover, action)
    except (rules_engine.InvalidAction, rules_engine.IllegalAction) as error:
        log.error("game %s: the solver's winning line does not replay: %s", record.id, error)
        return None
    result = rules.result(state)
    if result is None:
        log.error("game %s: the solver's winning line does not end the game", record.id)
        return None
    return store.import_finished(
        slug=record.slug,
        options=record.options,
        seed=record.seed,
        players=list(record.players),
        names={seat: SOLVER_NAME},
        moves=moves,
        snapshot=rules.dump(state),
        result=result,
        placeholder_hash=seat_tokens.hash_token(seat_tokens.new_token()),
        lobby={"line_of": record.id},
    )


def run_verdict(store: Store, job: Job) -> dict:
    """The verdict job (see the module's docstring); its result, stored as the job's."""
    assert job.game_id is not None
    record, played = _played(store, job.game_id)
    rules, seat = played.rules, record.players[0]
    puzzle = rules.puzzle
    budget = budgets(record.slug)
    first = _first_decision(played, seat)
    deal = solving.solve(puzzle, played.game_state(first), max_nodes=budget.solve_nodes)
    line = engine_line(record.slug, deal.line)
    verdict: dict[str, Any] = {
        "outcome": deal.outcome,
        "nodes": deal.nodes,
        "budget": budget.solve_nodes,
        "first_step": played.path[first],
        "line": line,
        "line_game": _line_game(store, record, played, first, line) if deal.outcome == solving.WIN else None,
        "lost": None,
        "odds": {"start": _odds(puzzle, played.game_state(first), seat, budget), "lost": None},
    }
    final = played.game_state(len(played.path) - 1)
    if deal.outcome == solving.WIN and not puzzle.won(final):
        states = [played.game_state(index) for index in range(first, len(played.path))]
        last = solving.last_winnable(puzzle, states, max_nodes=budget.solve_nodes)
        if last is not None and first + last + 1 < len(played.path):
            at = first + last
            step = played.path[at + 1]  # the move that lost it: log step ``step``
            _mover, action = played.moves[step - 1]
            verdict["lost"] = {
                "step": step,
                # The replay's step it was played from: the last winnable position (after an
                # undo, the same position as an earlier step of the path).
                "from_step": step - 1,
                "label": rules.action_label(played.states[step - 1], action),
            }
            verdict["odds"]["lost"] = _odds(puzzle, played.game_state(at), seat, budget)
    return verdict


KINDS[KIND] = run_verdict


# ---- what a page shows --------------------------------------------------------------------------


@dataclass(frozen=True)
class Panel:
    """What a finished game's end page says of its deal: ``state`` is "pending" (queued or
    running), "done", "failed" or "busy" (the queue was full: nothing queued yet); once done,
    the verdict (``job.result``)."""

    state: str
    verdict: dict | None = None
    failed_because: str | None = None

    @property
    def lost(self) -> dict | None:
        return self.verdict.get("lost") if self.verdict else None

    def percent(self, which: str) -> int | None:
        """The odds at the start or where it was lost, as a whole percentage (None: not known)."""
        found = (self.verdict or {}).get("odds", {}).get(which)
        if not found or not found["answered"]:
            return None
        return round(100 * found["winnable"] / found["answered"])


def panel(store: Store, game: play.LoadedGame, *, queue_max: int) -> Panel | None:
    """The end page's verdict on a finished game's deal (None: the game gets none); a game
    whose verdict was never queued (the queue was full when it ended, or it ended before Delve
    had verdicts) is queued now, if the queue has room."""
    if game.record.status != "finished" or not judged(game.record.slug, game.record.lobby):
        return None
    current = solver_jobs.latest(store, game.id, KIND)
    if current is None:
        try:
            solver_jobs.enqueue(store, KIND, game.id, PARAMS, limit=queue_max)
        except QueueFull:
            return Panel("busy")
        return Panel("pending")
    if current.status == DONE:
        return Panel("done", verdict=current.result)
    if current.status == FAILED:
        return Panel("failed", failed_because=current.failed_because)
    return Panel("pending")


def lost_step(store: Store, game_id: str) -> int | None:
    """The log step of the move that lost a finished game its win, once its verdict says so."""
    current = solver_jobs.latest(store, game_id, KIND)
    if current is None or current.status != DONE or not current.result or not current.result.get("lost"):
        return None
    return int(current.result["lost"]["step"])
