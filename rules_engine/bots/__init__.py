"""Bots: players the server seats at a table (issue 16), one module per game, which the game
names (its ``BOT`` declaration, ``rules_engine.contract.BotModule``): this module dispatches by
what ``rules_engine.get(slug).bot`` holds and names no game.

A bot decides from what its seat is shown and nothing else: ``view(state, seat)`` and the seat's
own legal actions (its page shows them as buttons). It never sees the state, so it cannot
peek at the deck, the seed or the dungeon beyond its sight, and two states that look the same
to the seat get the same decision. ``decide`` is a pure function of its arguments: any chance
it takes comes from the ``rng`` it is given.

Bots never quit: ``decide`` never returns an action that leaves or gives up the game. A seat
whose only legal action is to quit is waiting for somebody else; ``has_choice`` tells the
driver so, and ``decide`` refuses it with ``NoChoice`` (a ``ValueError``).

>>> import random
>>> from rules_engine.games import dungeon_of_doom as game
>>> s = game.new_game(3, ["p1", "p2"], {"start_positions": {"p1": [5, 5], "p2": [9, 1]}})
>>> has_choice("dungeon-of-doom", game.legal_actions(s, "p2"))
False
>>> decide("dungeon-of-doom", game.view(s, "p1"), game.legal_actions(s, "p1"), rng=random.Random(1))["type"]
'move'
"""

from __future__ import annotations

import random
from typing import Any, cast

from .. import available, get
from ..contract import BotModule

__all__ = ["BOT_GAMES", "LEVELS", "NoChoice", "decide", "has_choice", "playable"]

LEVELS = ("easy", "normal")
BOT_GAMES = tuple(slug for slug in available() if get(slug).bot is not None)
"""The games that declare a bot, in slug order."""


class NoChoice(ValueError):
    """The seat has nothing to do but quit: it is waiting for another seat."""


def _bot(slug: str, level: str) -> BotModule:
    """The bot module of ``slug`` (``ValueError`` for a game no bot plays or an unknown level)."""
    bot = get(slug).bot if slug in BOT_GAMES else None
    if bot is None:
        raise ValueError(f"no bot plays {slug!r} (bots play {', '.join(BOT_GAMES)})")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")
    return cast(BotModule, bot)  # _conformance has mypy check each BOT module against BotModule


def playable(slug: str, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions of ``legal`` a bot may take: all but quitting the game."""
    quit_type = _bot(slug, "normal").QUIT
    return [a for a in legal if a.get("type") != quit_type]


def has_choice(slug: str, legal: list[dict[str, Any]]) -> bool:
    """Whether a bot holding these legal actions has something to do (anything but quitting)."""
    return bool(playable(slug, legal))


def decide(
    slug: str, view: dict[str, Any], legal: list[dict[str, Any]], *, rng: random.Random, level: str = "normal"
) -> dict[str, Any]:
    """One action of ``legal`` for the seat whose ``view`` this is, chosen from the view alone.

    ``easy`` picks any legal action at random (never quitting); ``normal`` plays sensibly.
    ``ValueError`` for a game no bot plays or an unknown level; ``NoChoice`` when ``legal`` holds
    nothing but quitting."""
    bot = _bot(slug, level)
    options = playable(slug, legal)
    if not options:
        raise NoChoice("nothing to do but quit: the seat is waiting for another")
    if level == "easy":
        return rng.choice(options)
    return bot.decide(view, options, rng)
