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
import os
import pkgutil

from . import games as _games_package
from .contract import Rules
from .errors import IllegalAction, InvalidAction

__all__ = ["GAMES", "GAME_PACKAGES", "IllegalAction", "InvalidAction", "Rules", "get", "available"]

GAME_PACKAGES: tuple[str, ...] = tuple(
    name.strip() for name in os.environ.get("DELVE_GAME_PACKAGES", "").split(",") if name.strip()
)
"""Add-on packages of games beyond Delve's own (the environment's ``DELVE_GAME_PACKAGES``, comma
separated, read once at import). Each mirrors the platform's folders: ``<package>.games`` holds
engine modules as ``rules_engine/games`` does, and the web layer finds the presenters in
``<package>.presenters`` and the templates in ``<package>/templates``
(``docs/ADDING-A-GAME.md``)."""


def _games_in(package_name: str, path: list[str]) -> dict[str, str]:
    return {
        info.name.replace("_", "-"): f"{package_name}.{info.name}"
        for info in sorted(pkgutil.iter_modules(path), key=lambda i: i.name)
        if not info.name.startswith("_")
    }


def _add_on_games() -> dict[str, str]:
    found: dict[str, str] = {}
    for package_name in GAME_PACKAGES:
        package = importlib.import_module(f"{package_name}.games")
        found.update(_games_in(package.__name__, list(package.__path__)))
    return found


_OWN_GAMES = _games_in(_games_package.__name__, list(_games_package.__path__))
_ADD_ON_GAMES = _add_on_games()
if clash := sorted(set(_OWN_GAMES) & set(_ADD_ON_GAMES)):
    raise ValueError(f"DELVE_GAME_PACKAGES would replace Delve's own {', '.join(clash)}")
# slug -> the game's module. A game module ``foo_bar`` is the game ``foo-bar``: adding a game is
# adding its module, with no registry to edit.
GAMES: dict[str, str] = {**_OWN_GAMES, **_ADD_ON_GAMES}


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
    return Rules.of(importlib.import_module(module_name))
