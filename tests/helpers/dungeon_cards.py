"""Dungeon Cards games for tests: the "Given" of an acceptance scenario (``docs/rules/dungeon-cards.md``).

``started_game`` builds a started game from a stacked deck with the test shuffle of §12.0 and manual
markers (the Exit on (5,8) and the Pit on (8,8) unless told otherwise), then adjusts positions and
stats as a scenario's setup says and restarts the first turn so that start-of-turn effects see
the adjusted board.

>>> s = started_game([("P", "swordsman")], deck=["3C"], positions={"P": (7, 1)})
>>> s = act(s, "P", "draw_card")
>>> where(s, "P"), s["discard"]
([10, 1], ['3C'])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules_engine.games.dungeon_cards import apply, new_game, turns
from rules_engine.games.dungeon_cards.core import char


def started_game(
    party: Sequence[tuple[str, str | None]],
    *,
    deck: Iterable[str] = (),
    exits: Iterable[Sequence[int]] = ((5, 8),),
    pits: Iterable[Sequence[int]] = ((8, 8),),
    positions: Mapping[str, Sequence[int]] | None = None,
    lives: Mapping[str, int | tuple[int, int]] | None = None,
    speed: Mapping[str, int] | None = None,
    deck_exact: Iterable[str] | None = None,
    discard: Iterable[str] | None = None,
    seed: int = 1,
    **options: Any,
) -> dict[str, Any]:
    """A started game. ``party`` is ``[(name, class), ...]`` in seat order; ``lives`` maps a name to
    ``lives`` or ``(lives, max_lives)``; ``deck_exact``/``discard`` replace the piles outright."""
    players = [name for name, _ in party]
    opts: dict[str, Any] = {"classes": dict(party), "shuffles": "stacked", "marker_placement": "manual"}
    if deck:
        opts["deck"] = list(deck)
    opts.update(options)
    s = new_game(seed, players, opts)
    if opts["marker_placement"] == "manual" and s["status"] == "setup":
        host = s["host"]
        for x, y in exits:
            s = apply(s, host, {"type": "place_marker", "kind": "exit", "square": [x, y]})
        for x, y in pits:
            s = apply(s, host, {"type": "place_marker", "kind": "pit", "square": [x, y]})
    for name, (x, y) in (positions or {}).items():
        char(s, name)["position"] = [x, y]
    for name, n in (lives or {}).items():
        c = char(s, name)
        c["lives"], c["max_lives"] = (n, c["max_lives"]) if isinstance(n, int) else n
    for name, n in (speed or {}).items():
        char(s, name)["speed"] = n
    if deck_exact is not None:
        s["deck"] = list(deck_exact)
    if discard is not None:
        s["discard"] = list(discard)
    return restart(s)


def restart(s: dict[str, Any]) -> dict[str, Any]:
    """Begin turn 1 again (after a setup was adjusted by hand)."""
    for c in s["characters"]:
        c["turns_taken"] = 0
    s["turn"].update(turn_number=0, round_number=1)
    s["log"] = []
    turns.begin_turn(s, s["characters"][0])
    return s


def act(s: dict[str, Any], seat: str, kind: str, /, **params: Any) -> dict[str, Any]:
    """``apply`` with the action written as keywords."""
    return apply(s, seat, {"type": kind, **params})


def where(s: dict[str, Any], name: str) -> list[int] | None:
    position: list[int] | None = char(s, name)["position"]
    return position


def stats(s: dict[str, Any], name: str) -> tuple[int, int, int, int]:
    """(level, lives, max_lives, speed)."""
    c = char(s, name)
    return c["level"], c["lives"], c["max_lives"], c["speed"]
