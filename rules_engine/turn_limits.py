"""Turn limits shared by the timed table games (The Dungeon of Doom, a Dungeon Cards party).

Besides the short limits of a table played at one sitting, a table may be *slow*: a turn (a
decision) may take an hour, twelve hours, a day or three days, so friends play it at different
hours. The engine knows no time; it only accepts these values, and ``turn_clock`` reports them.
The web layer reads ``is_slow``: at a slow table nobody is dropped for being away (their clock is
what moves the game on).

>>> is_slow(86400), is_slow(600), is_slow(0)
(True, False, False)
>>> allowed(3600, (30, 600)), allowed(7200, (30, 600)), allowed(0, (30, 600)), allowed(True, (30, 600))
(True, False, True, False)
"""

from __future__ import annotations

from typing import Any

HOUR = 60 * 60
DAY = 24 * HOUR

SLOW_CHOICES = (
    (str(HOUR), "1 hour"),
    (str(12 * HOUR), "12 hours"),
    (str(DAY), "1 day"),
    (str(3 * DAY), "3 days"),
)
"""The slow limits as a creation form offers them: (seconds, words)."""
SLOW_SECONDS = tuple(int(seconds) for seconds, _words in SLOW_CHOICES)
SLOW_FROM = SLOW_SECONDS[0]
"""A limit this long or longer makes a slow table."""


def is_slow(seconds: int) -> bool:
    """Whether a turn limit (0: none) makes a slow table."""
    return seconds >= SLOW_FROM


def allowed(seconds: Any, short_range: tuple[int, int]) -> bool:
    """Whether ``seconds`` is a turn limit a game with short limits ``short_range`` accepts:
    0 (no limit), a whole number in the short range, or one of the slow limits."""
    if type(seconds) is not int:
        return False
    low, high = short_range
    return seconds == 0 or low <= seconds <= high or seconds in SLOW_SECONDS


def refusal(short_range: tuple[int, int]) -> str:
    """What a refused ``turn_seconds`` is told, for a game with short limits ``short_range``."""
    low, high = short_range
    slow = ", ".join(f"{seconds} ({label})" for seconds, label in SLOW_CHOICES)
    return f"turn_seconds must be 0 (no limit), a whole number from {low} to {high}, or a slow limit: {slow}"
