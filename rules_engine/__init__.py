"""Delve's rules engine: pure, deterministic rules for every game, knowing nothing of the web.

>>> import rules_engine
>>> rules = rules_engine.get("shuffle-and-doom")
>>> rules.slug
'shuffle-and-doom'

Each game module exposes the same contract (see ``rules_engine.contract.Rules``):
``new_game``, ``legal_actions``, ``apply``, ``view``, ``result``, ``dump``, ``load``.
"""

from __future__ import annotations

import importlib

from .errors import IllegalAction, InvalidAction

__all__ = ["GAMES", "IllegalAction", "InvalidAction", "get", "available"]

# slug -> module under rules_engine.games; a game is listed here once its rules exist.
GAMES: dict[str, str] = {
    "shuffle-and-doom": "shuffle_and_doom",
}


def available() -> list[str]:
    """The slugs of every game whose rules are implemented."""
    return list(GAMES)


def get(slug: str):
    """The rules module of the game called ``slug``.

    >>> get("no-such-game")
    Traceback (most recent call last):
    ...
    KeyError: 'unknown game: no-such-game'
    """
    try:
        module_name = GAMES[slug]
    except KeyError:
        raise KeyError(f"unknown game: {slug}") from None
    return importlib.import_module(f"{__name__}.games.{module_name}")
