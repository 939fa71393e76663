"""Presenters: each game's view turned into what its template draws, in Python.

A game's template renders; it does not decide. Whatever a page works out from the engine's view
— which cards are playable, the words of a price, the cells of a map, whose turn it is — a
presenter works out here, where it is unit-tested, and hands to the template as plain values.

``present(scene)`` looks for ``webapp/pages/presenters/<template_dir>.py`` (found by name: adding a game
is adding its module, with no registry to edit) and returns its ``present(scene)``'s context, or
nothing for a game without one. Everything a presenter gets is in ``Scene``.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType

import rules_engine
from rules_engine import Rules

from ...domain.play import ActionButton


@dataclass(frozen=True)
class Scene:
    """One viewer's moment of one game: what the engine says, and who is looking."""

    rules: Rules
    view: dict
    seat: str | None
    buttons: list[ActionButton]
    result: dict | None
    names: dict[str, str] = field(default_factory=dict)
    """Display names by seat (tables; empty for solo games)."""
    new_log: list = field(default_factory=list)
    """The log entries this page has not shown yet (what just happened: the announcer reads them
    out, and a page may animate them)."""
    bot_won_for: str | None = None
    """The seat whose win a bot completed while its player was away (``pages/bot_play.py``)."""


Presenter = Callable[[Scene], dict]


@functools.cache
def _module(template_dir: str) -> ModuleType | None:
    """The game's presenter module (Delve's own, else an add-on package's ``presenters``: see
    ``rules_engine.GAME_PACKAGES``), or None for a game without one."""
    for package in (__name__, *(f"{add_on}.presenters" for add_on in rules_engine.GAME_PACKAGES)):
        try:
            return importlib.import_module(f"{package}.{template_dir}")
        except ModuleNotFoundError as error:
            if error.name != f"{package}.{template_dir}":
                raise  # the presenter exists but imports something missing: a real error
    return None


def presenter_for(template_dir: str) -> Presenter | None:
    module = _module(template_dir)
    return module.present if module is not None else None


def keys_for(template_dir: str) -> dict:
    """The keyboard shortcuts a game's page fixes (its presenter's ``KEYS``: ``"type"`` or
    ``"type:dir"`` -> (key, alternative key)); the rest get arrows and W A S D for moves, then
    digits and letters in order."""
    module = _module(template_dir)
    return dict(getattr(module, "KEYS", {})) if module is not None else {}


Answer = Callable[[Mapping[str, str], Mapping[str, Sequence[str]]], object]
"""A page question's answer: from the query's first values and all its values (a field ticked
several times), the fragment to show; ``ValueError`` for a question the page never asks."""


def answer_for(template_dir: str, question: str) -> Answer | None:
    """What a game's page asks while the player composes an action, answered without a game (its
    presenter's ``ANSWERS``: question -> ``Answer``; Hebrac's Dungeon's card pickers ask for the
    sentence under them as the ticks change), or None when the game asks no such question."""
    module = _module(template_dir)
    answers = getattr(module, "ANSWERS", {}) if module is not None else {}
    return answers.get(question)


def present(template_dir: str, scene: Scene) -> dict:
    """The template context the game's presenter adds for ``scene`` ({} without a presenter)."""
    presenter = presenter_for(template_dir)
    return presenter(scene) if presenter is not None else {}


# --- The end of a solo game, as its result box tells it ----------------------------------------


def player_name(scene: Scene) -> str:
    """How a page names the player of a solo game to onlookers: the seat's name where the page
    has one (``names``, as ``rendering.name_seats`` uses), else "The player"."""
    seat = next(iter(scene.result["scores"]), None) if scene.result else scene.view.get("player")
    name = scene.names.get(seat) if seat else None
    return name or "The player"


def solo_ending(scene: Scene, *, won_heading: str, text: str) -> dict | None:
    """What ``result_box`` shows this viewer of a finished solo game, None while it runs.

    ``won``: the player won (the box celebrates; otherwise it is sober and ``text`` says why);
    ``heading``; ``text``: the end in a sentence, already in the viewer's person (the player reads
    "You …", an onlooker the player's name); ``score``; ``record``: whether this page shows where
    the game leaves its player's record (only the player's own page does; ``pages.board.render_game``
    adds the ``standing``), for ``game``; ``challenges``: whether the box offers "Challenge a
    friend" (the game's ``CHALLENGES``)."""
    result = scene.result
    if not result:
        return None
    won = bool(result["winners"])
    return {
        "won": won,
        "heading": won_heading if won else "Game over",
        "text": text,
        "score": next(iter(result["scores"].values()), 0),
        "record": scene.seat is not None,
        "game": scene.rules.slug,
        "challenges": scene.rules.challenges,
    }
