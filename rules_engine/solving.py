"""Knowing a deal: exact search over a solo game's whole deal, and what a player could know.

A solo deal is a deterministic one-player puzzle once every card is known. A game that can be
solved declares a ``Puzzle`` in a ``solver`` module beside its engine (``solver.PUZZLE``): how
to key a state, which moves to try (best first, and only the ones that matter), how to make one,
and whether a state is won or over. On it, this module answers four questions, each bounded by a
number of nodes (states searched), so the same question gets the same answer on any machine:

- ``solve``: can this state still be won, and by which line? ("unknown" when the budget ran out)
- ``last_winnable``: along the states of a player's game, the last one from which a win was
  still possible (a state that cannot be won has no successor that can, so a binary search
  over the game finds it in a handful of solves);
- ``odds``: from what a seat could see, the share of deals like this one that could be won: the
  hidden cards drawn again consistently with the seat's view (``Puzzle.determinize``), each
  sample solved;
- ``hint``: a move chosen from the seat's view alone: the move that keeps a win in the most
  sampled deals.

``determinize(state, seat, rng)`` returns a state the seat cannot tell from ``state`` (its view
is the same) whose hidden cards are drawn anew from ``rng``; it may read the true state only to
keep what the seat sees. ``odds`` and ``hint`` never look at the true state otherwise, and
their tests change the hidden cards and check that the answer does not change.

>>> import random
>>> puzzle = Puzzle(  # reach exactly 5 from 0 by steps of 2 or 3, never past it
...     key=lambda s: s, moves=lambda s: [{"type": "add", "n": 3}, {"type": "add", "n": 2}],
...     step=lambda s, a: s + a["n"], won=lambda s: s == 5, over=lambda s: s >= 5)
>>> verdict = solve(puzzle, 0, max_nodes=100)
>>> verdict.outcome, [a["n"] for a in verdict.line]
('win', [3, 2])
>>> solve(puzzle, 4, max_nodes=100).outcome
'no win'
>>> last_winnable(puzzle, [0, 2, 4, 6], max_nodes=100)
1
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

State = Any
Action = dict[str, Any]

WIN: Literal["win"] = "win"
NO_WIN: Literal["no win"] = "no win"
UNKNOWN: Literal["unknown"] = "unknown"
Outcome = Literal["win", "no win", "unknown"]


@dataclass(frozen=True)
class Puzzle:
    """What a game's solver declares (see the module's docstring).

    ``moves(state)``: the moves worth trying, best first (a solver may leave out moves that
    never help, e.g. walking back and forth, or join several into one of its own); ``step(state,
    move)``: the state after it, for those moves and for every legal action of the engine
    (``hint`` steps those); ``won``/``over``: the end;
    ``hopeless``: a cheap test that no win is possible from here (prunes, never required);
    ``determinize``: see the module's docstring."""

    key: Callable[[State], Hashable]
    moves: Callable[[State], list[Action]]
    step: Callable[[State, Action], State]
    won: Callable[[State], bool]
    over: Callable[[State], bool]
    hopeless: Callable[[State], bool] | None = None
    determinize: Callable[[State, str, random.Random], State] | None = None


@dataclass(frozen=True)
class Verdict:
    """``outcome``: ``win`` (``line`` wins from the state), ``no win`` (the whole tree was
    searched), or ``unknown`` (the budget of nodes ran out first); ``nodes`` searched."""

    outcome: Outcome
    line: list[Action] = field(default_factory=list)
    nodes: int = 0


class _OutOfNodes(Exception):
    pass


def solve(puzzle: Puzzle, state: State, *, max_nodes: int) -> Verdict:
    """Whether ``state`` can be won, by a depth-first search that remembers the states it has
    proved lost (two lines often meet), within ``max_nodes`` states."""
    lost: set[Hashable] = set()
    nodes = 0
    line: list[Action] = []

    def search(current: State) -> bool:
        nonlocal nodes
        if puzzle.won(current):
            return True
        if puzzle.over(current):
            return False
        key = puzzle.key(current)
        if key in lost or (puzzle.hopeless is not None and puzzle.hopeless(current)):
            return False
        for move in puzzle.moves(current):
            nodes += 1
            if nodes > max_nodes:
                raise _OutOfNodes
            line.append(move)
            if search(puzzle.step(current, move)):
                return True
            line.pop()
        lost.add(key)
        return False

    try:
        found = search(state)
    except _OutOfNodes:
        return Verdict(UNKNOWN, nodes=nodes)
    return Verdict(WIN, list(line), nodes) if found else Verdict(NO_WIN, nodes=nodes)


def last_winnable(puzzle: Puzzle, states: Sequence[State], *, max_nodes: int) -> int | None:
    """The index of the last of ``states`` (a game's states in order) from which a win was
    still possible; None when not even the first could be won, or a solve ran out of nodes."""
    first = solve(puzzle, states[0], max_nodes=max_nodes).outcome
    if first != WIN:
        return None
    low, high = 0, len(states) - 1  # states[low] can be won; is any later one?
    while low < high:
        middle = (low + high + 1) // 2
        outcome = solve(puzzle, states[middle], max_nodes=max_nodes).outcome
        if outcome == UNKNOWN:
            return None
        if outcome == WIN:
            low = middle
        else:
            high = middle - 1
    return low


@dataclass(frozen=True)
class Odds:
    """Of ``samples`` deals consistent with a seat's view, ``winnable`` could be won and
    ``answered`` were solved within the budget (the rest are unknown)."""

    winnable: int
    answered: int
    samples: int

    @property
    def share(self) -> float | None:
        return self.winnable / self.answered if self.answered else None


def _samples(puzzle: Puzzle, state: State, seat: str, samples: int, seed: int) -> list[State]:
    if puzzle.determinize is None:
        raise ValueError("this puzzle cannot draw deals consistent with a view")
    rng = random.Random(seed)
    return [puzzle.determinize(state, seat, rng) for _ in range(samples)]


def odds(puzzle: Puzzle, state: State, seat: str, *, samples: int, max_nodes: int, seed: int = 0) -> Odds:
    """From what ``seat`` sees in ``state``, how many of ``samples`` deals like it can be won."""
    winnable = answered = 0
    for sample in _samples(puzzle, state, seat, samples, seed):
        outcome = solve(puzzle, sample, max_nodes=max_nodes).outcome
        answered += outcome != UNKNOWN
        winnable += outcome == WIN
    return Odds(winnable, answered, samples)


@dataclass(frozen=True)
class Hint:
    """The move that keeps a win in the most sampled deals: ``wins`` of ``answered`` (of
    ``samples``); ``move`` None when no sample could be won (or none was answered)."""

    move: Action | None
    wins: int
    answered: int
    samples: int


def hint(
    puzzle: Puzzle,
    state: State,
    seat: str,
    legal: Sequence[Action],
    *,
    samples: int,
    max_nodes: int,
    seed: int = 0,
) -> Hint:
    """A move for ``seat`` chosen from its view alone: each sampled deal is solved from each
    legal move; the move that wins in the most samples (ties: the first in ``legal``)."""
    wins = [0] * len(legal)
    answered = 0
    for sample in _samples(puzzle, state, seat, samples, seed):
        outcomes = [solve(puzzle, puzzle.step(sample, move), max_nodes=max_nodes).outcome for move in legal]
        if UNKNOWN in outcomes and WIN not in outcomes:
            continue
        answered += 1
        for index, outcome in enumerate(outcomes):
            wins[index] += outcome == WIN
    best = max(range(len(legal)), key=lambda index: (wins[index], -index), default=None)
    if best is None or wins[best] == 0:
        return Hint(None, 0, answered, samples)
    return Hint(dict(legal[best]), wins[best], answered, samples)
