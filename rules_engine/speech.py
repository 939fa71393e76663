"""Play without sight: each game's command line, and its answers in words.

A game that can be played by typed commands names a ``SPEECH`` module beside its engine (as it
names ``BOT`` and ``SOLVER``), a ``SpeechModule``:

- ``commands(view, legal)``: every action the seat may take now as a ``Command``: a short word, an
  argument when the word needs one ("attack 2", "move n", "drink"), the action it stands for (one
  of ``legal``, unchanged) and what ``help`` says of it;
- ``VERBS``: every word the game's commands ever use, so that a command typed out of turn is
  refused as "not now" rather than as unknown;
- ``describe(view, topic)``: the answer to a question that does not act, for each of ``TOPICS``
  but ``help`` and ``log`` (which this module answers from the commands and the view's log), or
  None when the game has no such thing (no hand in The Dungeon of Doom);
- ``grid(view)``: the map or grid as rows of cells in words, and where the seat stands, or None.

Every part reads the seat's view alone (the web layer passes ``rules.view(state, seat)``), so a
command line says nothing the seat's page could not show: one path for hidden information.

``read(text, commands, verbs)`` is what the web layer calls with a typed line:

>>> moves = [Command("move", "n", {"type": "move", "dir": "N"}, "Walk north."),
...          Command("end", "", {"type": "end_turn"}, "End your turn.")]
>>> read("  MOVE   N ", moves, {"move", "end", "attack"}).action
{'type': 'move', 'dir': 'N'}
>>> read("status", moves, {"move"}).topic
'status'
>>> read("look", moves, {"move"}).topic
'where'
>>> print(read("mvoe n", moves, {"move", "end"}).text)
I do not know "mvoe n". Did you mean "move n"? Type help for the commands that work now.
>>> print(read("attack e", moves, {"move", "end", "attack"}).text)
You cannot attack now. You can: move n, end.
>>> print(read("move q", moves, {"move", "end"}).text)
There is no "move q" now. You can: move n.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

Action = dict[str, Any]

TOPICS: tuple[str, ...] = ("help", "status", "where", "hand", "board", "log", "score")
"""The questions every game's command line answers (``describe`` for all but help and log)."""

TOPIC_ALIASES: dict[str, str] = {"look": "where", "h": "help", "?": "help", "commands": "help", "map": "board"}
"""Other words people type for a question ("look" is The Dungeon of Doom's classic word)."""

LOG_LINES = 5
"""How many of the log's last lines ``log`` reads."""


@dataclass(frozen=True)
class Command:
    """One action the seat may take now, as it is typed: ``word`` and ``argument``."""

    word: str
    argument: str
    action: Action
    says: str
    """What ``help`` reads for it: a short sentence ("Attack the goblin in room 2.")."""

    @property
    def typed(self) -> str:
        return f"{self.word} {self.argument}".strip()


@dataclass(frozen=True)
class Grid:
    """A map or grid in words: ``rows[r][c]`` is what the seat knows of a cell ("gold", "wall",
    "unseen"), ``you`` the seat's own cell (row, column) or None."""

    label: str
    rows: list[list[str]]
    you: tuple[int, int] | None = None
    row_names: list[str] = field(default_factory=list)
    """How each row is named when read ("row 3" unless a game names them, e.g. "room 3")."""


class SpeechModule(Protocol):
    """What a game's ``SPEECH`` module provides (``games/_conformance.py`` has mypy check it)."""

    VERBS: frozenset[str]

    def commands(self, view: dict[str, Any], legal: list[Action]) -> list[Command]: ...

    def describe(self, view: dict[str, Any], topic: str) -> str | None: ...

    def grid(self, view: dict[str, Any]) -> Grid | None: ...


@dataclass(frozen=True)
class Reading:
    """What a typed line means: an ``action`` to take, a ``topic`` to answer, or ``text`` that
    says why it is neither (unknown, or not now)."""

    action: Action | None = None
    topic: str | None = None
    text: str = ""


def normalised(text: str) -> str:
    """A typed line as it is compared: lower case, one space between words."""
    return " ".join(str(text).lower().split())


def read(text: str, commands: Sequence[Command], verbs: Iterable[str]) -> Reading:
    """What ``text`` asks for, given the ``commands`` the seat has now and all the game's ``verbs``."""
    line = normalised(text)
    if not line:
        return Reading(text="Type a command, or help for the commands that work now.")
    by_typed = {normalised(c.typed): c for c in commands}
    if line in by_typed:
        return Reading(action=by_typed[line].action)
    word = line.split(" ", 1)[0]
    topic = TOPIC_ALIASES.get(line, line if line in TOPICS else None)
    if topic is not None:
        return Reading(topic=topic)
    same_word = [c for c in commands if normalised(c.word) == word]
    if same_word:
        return Reading(text=f'There is no "{line}" now. You can: {listed(same_word)}.')
    if word in {normalised(v) for v in verbs}:
        now = f" You can: {listed(commands)}." if commands else ""
        return Reading(text=f"You cannot {word} now.{now}")
    candidates = [*by_typed, *TOPICS, *TOPIC_ALIASES]
    nearest = difflib.get_close_matches(line, candidates, n=1, cutoff=0.6)
    guess = f' Did you mean "{nearest[0]}"?' if nearest else ""
    return Reading(text=f'I do not know "{line}".{guess} Type help for the commands that work now.')


def listed(commands: Sequence[Command]) -> str:
    return ", ".join(c.typed for c in commands)


def help_text(commands: Sequence[Command]) -> str:
    """The answer to ``help``: the commands that work now, then the questions."""
    acting = " ".join(f"{c.typed}: {c.says}" for c in commands) or "No command acts now: it is not your turn."
    return f"{acting} Questions: {', '.join(t for t in TOPICS)}, look."


def log_text(view: dict[str, Any]) -> str:
    """The answer to ``log``: the log's last lines, oldest first."""
    lines = [str(entry.get("text", "")) for entry in view.get("log", [])][-LOG_LINES:]
    return " ".join(lines) if lines else "Nothing has happened yet."


def cell_words(grid: Grid, row: int, column: int) -> str:
    """How one cell is read: "row 3, column 4: gold" (the rows' own names when the game gives them)."""
    name = grid.row_names[row] if row < len(grid.row_names) else f"row {row + 1}"
    mark = ", you are here" if grid.you == (row, column) else ""
    return f"{name}, column {column + 1}: {grid.rows[row][column]}{mark}"
