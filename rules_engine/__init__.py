"""Delve's rules engine: pure, deterministic rules for every game, knowing nothing of the web.

>>> import rules_engine
>>> rules = rules_engine.get("shuffle-and-doom")
>>> rules.slug
'shuffle-and-doom'

Each game module exposes the same contract (``rules_engine.contract``): ``new_game``,
``legal_actions``, ``apply``, ``view``, ``result``, ``dump``, ``load`` and its optional hooks;
``get`` returns it as one ``Rules`` object with every hook filled in.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil

from . import games as _games_package
from .contract import Rules
from .errors import IllegalAction, InvalidAction

__all__ = ["GAMES", "IllegalAction", "InvalidAction", "Rules", "get", "available"]

# slug -> module under rules_engine.games. A game module ``foo_bar`` is the game ``foo-bar``:
# adding a game is adding its module, with no registry to edit.
GAMES: dict[str, str] = {
    info.name.replace("_", "-"): info.name
    for info in sorted(pkgutil.iter_modules(_games_package.__path__), key=lambda i: i.name)
    if not info.name.startswith("_")
}


def available() -> list[str]:
    """The slugs of every game whose rules are implemented."""
    return list(GAMES)


@functools.cache
def get(slug: str) -> Rules:
    """The rules of the game called ``slug``, every optional hook filled in (``contract.Rules``).

    >>> get("no-such-game")
    Traceback (most recent call last):
    ...
    KeyError: 'unknown game: no-such-game'
    """
    try:
        module_name = GAMES[slug]
    except KeyError:
        raise KeyError(f"unknown game: {slug}") from None
    return Rules.of(importlib.import_module(f"{__name__}.games.{module_name}"))
