"""The contract every game module fulfils, written down as a Protocol for readers and type checkers.

A state is a plain JSON-safe ``dict``; an action is ``{"type": ..., **params}``.
``apply`` never mutates its input: it returns a new state or raises
``InvalidAction`` (malformed) / ``IllegalAction`` (against the rules) and changes nothing.
"""

from __future__ import annotations

from typing import Any, Protocol

State = dict[str, Any]
Action = dict[str, Any]


class Rules(Protocol):
    slug: str
    title: str
    min_players: int
    max_players: int

    def new_game(self, seed: int, players: list[str], options: dict | None = None) -> State: ...

    def legal_actions(self, state: State, seat: str) -> list[Action]: ...

    def apply(self, state: State, seat: str, action: Action) -> State: ...

    def view(self, state: State, seat: str | None) -> dict: ...

    def result(self, state: State) -> dict | None: ...

    def dump(self, state: State) -> dict: ...

    def load(self, data: dict) -> State: ...
