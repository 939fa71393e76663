"""Delve's games as the lobby presents them, and how each game's creation form maps to engine
options. The rules live in ``rules_engine``; this is only the shop window and the form."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import rules_engine
from rules_engine.cards import Card
from rules_engine.errors import InvalidAction

from .config import PROJECT_ROOT


@dataclass(frozen=True)
class Option:
    name: str
    label: str
    kind: str  # "int" | "bool" | "deck" | "choice"
    default: object = None
    minimum: int | None = None
    maximum: int | None = None
    group: str = ""
    help: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    """For ``choice``: (value, label) pairs."""


@dataclass(frozen=True)
class GameEntry:
    slug: str
    title: str
    players: str
    blurb: str
    options: tuple[Option, ...] = field(default_factory=tuple)
    solo: bool = True

    @property
    def template_dir(self) -> str:
        return self.slug.replace("-", "_")

    @property
    def playable(self) -> bool:
        """Playable once both its rules and its page exist: the lobby never shows a dead link."""
        page = PROJECT_ROOT / "templates" / self.template_dir / "game.html"
        return self.slug in rules_engine.GAMES and Path(page).exists()


STACKED_DECK = Option(
    "deck",
    "Stacked deal",
    "deck",
    group="Advanced",
    help="Optional: card codes top card first, separated by spaces (e.g. 5C 8D 3H …), to replay a known deal or set a puzzle.",
)

GAMES: tuple[GameEntry, ...] = (
    GameEntry(
        slug="shuffle-and-doom",
        title="Shuffle and Doom!",
        players="Solo",
        blurb=(
            "Two rows of dealt cards draw a dungeon map by their colours. Pick the set that "
            "makes your hero, then walk room to room: each room you enter is dealt from the deck "
            "— spades fight back, clubs are traps or books, hearts heal and diamonds are gold. "
            "Leave by the far corner with your gold, or clear every room to double it."
        ),
        options=(
            Option("size", "Grid size", "int", 7, 4, 26, help="4 to 26 cells a side; 7 is the standard game."),
            Option("base_stats_7", "Start with 7 in every stat", "bool", False, group="Easier"),
            Option("split_large_rooms", "Split rooms larger than 16 cells (one header swap)", "bool", False, group="Easier"),
            Option("retreat_from_combat", "Allow retreat from combat (the room waits for you)", "bool", False, group="Easier"),
            Option("retreat_keeps_traps", "Allow retreat without springing traps", "bool", False, group="Easier"),
            Option("merge_single_rooms", "Merge one-cell rooms (one header swap)", "bool", False, group="Harder"),
            Option("temporary_consumables", "Potions and books last one action", "bool", False, group="Harder"),
            Option("flat_consumables", "Every potion and book is worth 3", "bool", False, group="Harder"),
            STACKED_DECK,
        ),
    ),
    GameEntry(
        slug="clear-the-dungeon",
        title="Clear the Dungeon",
        players="Solo",
        blurb=(
            "A solitaire card battle: the dungeon is seven overlapping rows of face-down "
            "monsters. Play cards from your hand onto revealed monsters until their sum beats "
            "their power, turn kings into magic items, and clear the dungeon before the fifth "
            "hit lands."
        ),
    ),
    GameEntry(
        slug="hebracs-dungeon",
        title="Hebrac's Dungeon",
        players="Solo",
        blurb=(
            "A card role-playing game across a grid of chambers: battle enemies card by card, "
            "bargain with merchants and adventurers, cast eighteen spells with magic potions, "
            "beware the black priestesses, and descend level by level to gather the four aces."
        ),
    ),
    GameEntry(
        slug="dungeon-cards",
        title="Dungeon Cards",
        players="Solo or a party of 2–5",
        solo=False,
        blurb=(
            "Pick a class and crawl a board of cards where every drawn card moves you: its "
            "suit is the direction, its rank the distance. Duel the royal bosses, level up, and "
            "find the exit — alone, or with friends who can step in to help a fight. Every "
            "escape earns a place in the Hall of Fame."
        ),
    ),
    GameEntry(
        slug="dungeon-of-doom",
        title="The Dungeon of Doom",
        players="Multiplayer, 1–8",
        solo=False,
        blurb=(
            "A real-time, turn-based dungeon for a table of friends sharing one link. You see "
            "only what your lantern lights: gather gold, arm yourself, fight or dodge the other "
            "delvers, and be the first to reach the exit with the gold the map demands."
        ),
    ),
)

BY_SLUG = {entry.slug: entry for entry in GAMES}


def parse_options(entry: GameEntry, form) -> dict:
    """Turn the creation form into engine options; InvalidAction with a readable reason if a field is off.

    The engine validates again (it owns the rules); this layer only converts form strings."""
    options: dict = {}
    for option in entry.options:
        raw = form.get(option.name)
        if option.kind == "bool":
            options[option.name] = raw in {"on", "true", "1", "yes"}
        elif option.kind == "int":
            if raw in (None, ""):
                options[option.name] = option.default
                continue
            try:
                value = int(str(raw).strip())
            except ValueError:
                raise InvalidAction(f"{option.label} must be a whole number.") from None
            if not option.minimum <= value <= option.maximum:
                raise InvalidAction(f"{option.label} must be between {option.minimum} and {option.maximum}.")
            options[option.name] = value
        elif option.kind == "choice":
            value = option.default if raw in (None, "") else raw
            allowed = {str(v) for v, _label in option.choices}
            if str(value) not in allowed:
                raise InvalidAction(f"{option.label} must be one of: {', '.join(l for _v, l in option.choices)}.")
            options[option.name] = next(v for v, _l in option.choices if str(v) == str(value))
        elif option.kind == "deck":
            text = (raw or "").replace(",", " ").split()
            if text:
                options[option.name] = [Card.parse(code.upper()).code for code in text]
    return options
