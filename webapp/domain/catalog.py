"""Delve's games as the lobby presents them, and how each game's creation form maps to engine
options. The rules live in ``rules_engine``; this is only the shop window and the form."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

import rules_engine
from rules_engine import Rules
from rules_engine.errors import InvalidAction
from rules_engine.options import Option, from_form
from rules_engine.text import clean_text

from ..config import PROJECT_ROOT


@dataclass(frozen=True)
class GameEntry:
    """A game as the front page and the creation form present it: the engine's own declarations
    (``rules_engine.contract``). Its page's keyboard shortcuts are its presenter's
    (``pages.presenters.keys_for``)."""

    rules: Rules

    @property
    def slug(self) -> str:
        return self.rules.slug

    @property
    def title(self) -> str:
        return self.rules.title

    @property
    def players(self) -> str:
        return self.rules.players_label

    @property
    def blurb(self) -> str:
        return self.rules.blurb

    @property
    def solo(self) -> bool:
        return not self.rules.table

    @property
    def options(self) -> tuple[Option, ...]:
        return self.rules.options

    @property
    def lobby_fields(self) -> tuple[Option, ...]:
        return self.rules.lobby_fields

    @property
    def unique_lobby_fields(self) -> tuple[str, ...]:
        return self.rules.unique_lobby_fields

    @property
    def template_dir(self) -> str:
        return self.slug.replace("-", "_")

    @property
    def playable(self) -> bool:
        """Playable once both its rules and its page exist: the lobby never shows a dead link."""
        return any((folder / self.template_dir / "game.html").exists() for folder in TEMPLATE_FOLDERS)

    @property
    def art(self) -> str | None:
        """Its front-page picture under ``static/`` (``img/<slug>.svg``), None when it has none."""
        path = f"img/{self.slug}.svg"
        return path if (PROJECT_ROOT / "static" / path).exists() else None


TEMPLATE_FOLDERS: tuple[Path, ...] = (
    PROJECT_ROOT / "templates",
    *(Path(importlib.import_module(package).__path__[0]) / "templates" for package in rules_engine.GAME_PACKAGES),
)
"""Where pages are found: Delve's own, then each add-on package's (``rules_engine.GAME_PACKAGES``)."""

# The front page's order is each game's declared place (the solo games first, then the tables).
GAMES: tuple[GameEntry, ...] = tuple(
    sorted(
        (GameEntry(rules_engine.get(slug)) for slug in rules_engine.available()),
        key=lambda entry: (entry.rules.front_page_place, entry.slug),
    )
)
BY_SLUG = {entry.slug: entry for entry in GAMES}

UPLOAD_READ_MAX = 64 * 1024
NAME_MAX = 24


def clean_name(raw: object, fallback: str) -> str:
    """A display name through the one text sanitiser, at most NAME_MAX characters; the fallback if empty."""
    return clean_text(raw, NAME_MAX) or fallback


def parse_options(entry: GameEntry, form, files=None, *, allow_test_options: bool = False) -> dict:
    """Turn the creation form into engine options; InvalidAction with a readable reason if a field is off.

    The engine validates again (it owns the rules); this layer only converts form strings."""
    options = from_form(entry.options, form)
    fields = dict(form.items())
    for name, upload in (files or {}).items():
        if upload.filename:
            # Read a little past any game's own limit, so the game can say the file is too large.
            fields[name] = upload.read(UPLOAD_READ_MAX + 1)
    entry.rules.form_options(fields, options)
    if allow_test_options and form.get("test_options"):
        import json

        try:
            extra = json.loads(form.get("test_options"))
        except (ValueError, RecursionError):
            raise InvalidAction("test_options is not JSON.") from None
        if not isinstance(extra, dict) or not set(extra) <= set(entry.rules.test_options):
            raise InvalidAction(f"test_options may only hold: {', '.join(entry.rules.test_options) or 'nothing'}.")
        options.update(extra)
    return options
