"""Hebrac's Dungeon — Luc Miron's solitaire role-playing card game, as a pure rules engine.

The contract (``rules_engine.contract.Rules``) plus ``action_label``. Rules:
``docs/rules/hebracs-dungeon.md`` (section, ruling and scenario numbers in this package refer
to it); the module layout follows its concepts:
``data`` (cards, prices, spells, the priestess ranking), ``state`` (zones and options),
``flow`` (chambers, encounters, phases, descents), ``treasures``, ``battle``, ``trade``,
``spells``, ``actions`` (shapes with their labels, legality), ``view`` (redaction), ``scoring``.

>>> import rules_engine
>>> rules = rules_engine.get("hebracs-dungeon")
>>> state = rules.new_game(7, ["p1"], None)
>>> state["phase"], state["life"], len(state["hand_deck"])
('start_level', 15, 84)
>>> [a for a in rules.legal_actions(state, "p1") if a["type"] == "move"][0]
{'type': 'move', 'row': 1, 'col': 1}
>>> state = rules.apply(state, "p1", {"type": "move", "row": 1, "col": 1})
>>> state["position"], state["counters"]["turns"]
([1, 1], 1)
>>> action_label(state, {"type": "move", "row": 1, "col": 4})
'Enter chamber (1,4)'
>>> action_label(state, {"type": "cast", "spell": "healing", "potions": ["7C"]})
'Cast Healing (7♣)'
"""

from __future__ import annotations

from typing import Any

from rules_engine.errors import InvalidAction

from . import actions as _actions
from . import data  # noqa: F401  (the page templates render rules tables from ``rules.data``)
from . import reveals as _reveals
from . import risks as _risks
from . import scoring as _scoring
from . import state as _state
from . import view as _view
from .data import SPELLS, STEAL_RANKING  # noqa: F401  (data the how-to-play page renders)

slug = "hebracs-dungeon"
title = "Hebrac's Dungeon"
min_players = 1
max_players = 1
TABLE = False
PLAYERS_LABEL = "Solo"
BLURB = (
    "A card role-playing game across a grid of chambers: battle enemies card by card, "
    "bargain with merchants and adventurers, cast eighteen spells with magic potions, "
    "beware the black priestesses, and descend level by level to gather the four aces."
)
OPTIONS = _state.OPTIONS

# What the platform offers around the game (rules_engine/contract.py): its front-page place, a
# deal of the day on the standard options, and challenges to a finished game's deal.
FRONT_PAGE_PLACE = 30
# A form's unticked box is absent: the standard deck's jokers are named, or the day would deal none.
DAILY_FORM = {"jokers": "on"}
CHALLENGES = True
SOLVER = "rules_engine.games.hebracs_dungeon.solver"
SPEECH = "rules_engine.games.hebracs_dungeon.speech"


def new_game(seed: int, players: list[str], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A new game: the deck shuffled from the seed (or stacked), level 1 dealt, life full."""
    if type(seed) is not int:
        raise InvalidAction("the seed must be an integer")
    if not isinstance(players, list) or len(players) != 1 or not isinstance(players[0], str):
        raise InvalidAction("Hebrac's Dungeon is played by exactly one player")
    return _state.new_state(seed, players[0], options)


def legal_actions(state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
    """Every action the seat may take now (set-valued parameters in canonical form, 13.5)."""
    if seat != state["seat"]:
        return []
    return _actions.legal(state)


apply = _actions.ENGINE.apply
dump = _actions.ENGINE.dump
load = _actions.ENGINE.load


def view(state: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """What ``seat`` (or a spectator, ``None``) may know; see ``view.py`` for the shape."""
    return _view.view(state, seat)


def full_view(state: dict[str, Any]) -> dict[str, Any]:
    """A replay's view: the spectator's plus every hidden card (``view.full_view``)."""
    return _view.full_view(state)


def result(state: dict[str, Any]) -> dict[str, Any] | None:
    """None while playing; else winners, scores, reason and the score details (13.7)."""
    return _scoring.result(state)


action_label = _actions.ENGINE.action_label
"""A short text for a button showing ``action`` (its label declared in ``actions.ACTIONS``)."""


def loss_warning(state: dict[str, Any], seat: str, action: dict[str, Any]) -> str | None:
    """A sentence when ``action`` certainly ends the game in a loss (``risks.py``), else None."""
    return _risks.loss_warning(state, action) if seat == state["seat"] else None


leaderboard_key = _scoring.leaderboard_key

reveals = _reveals.reveals
"""What an action showed the player that they had not seen (``reveals.py``), or None: undo
(``rules_engine.undo``) takes back moves until one of them showed something."""
