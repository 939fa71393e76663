"""What just happened on the page, to animate: the log entries this page has not shown yet
(``scene.new_log``) bring a move, or a boss fight starting."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Fresh:
    """What just happened on this page, to animate: a move, and a boss fight starting."""

    move: bool
    boss: bool


def fresh_in(new_log: Iterable[dict]) -> Fresh:
    """What the log entries this page has not shown yet bring that the page animates."""
    move = boss = False
    for entry in new_log:
        move = move or "move" in entry
        boss = boss or entry.get("event") == "combat_started"
    return Fresh(move=move, boss=boss)
