"""The moment every part of Hebrac's Dungeon's page asks about: who looks, and the buttons sorted."""

from __future__ import annotations

from rules_engine.cards import Card

from .. import Scene
from ..controls import buttons_by_type

MAP_AIMS = ("teleport", "body_switch", "stone_statue", "destroy")
"""Spells and the Genie of Death that aim at chambers of the map, in the order of their CSS classes."""


class Page:
    """What every part of the page asks about the moment: who looks, and the buttons sorted."""

    def __init__(self, scene: Scene):
        view = scene.view
        self.player = scene.seat is not None and view["choices"] is not None
        self.playing = view["status"] == "playing"
        self.controls = self.player and self.playing
        """The page draws forms and buttons: the player's, while the game lasts."""
        self.choices = view["choices"] or {}
        self.by_type = buttons_by_type(scene.buttons)
        self.chamber_buttons = {
            (b.action["type"], b.action["row"], b.action["col"]): b
            for b in self.by_type.get("move", []) + self.by_type.get("peek", [])
        }
        self.drinks = {b.action["card"]: b for b in self.by_type.get("drink", [])}
        self.casts: dict[str, dict] = {}
        """Each castable spell's canonical cast: the potions the engine would spend."""
        for b in self.by_type.get("cast", []):
            self.casts.setdefault(b.action["spell"], b.action)
        self.destroy_picks = self.by_type["destroy"][0].action["targets"] if self.by_type.get("destroy") else []
        self.aims = map_aims(view, self.choices.get("targets") or {})


def map_aims(view: dict, targets: dict) -> set[tuple[str, int, int]]:
    """``(kind, row, col)`` for every chamber a spell (or the Genie of Death) may aim at on the map.

    Body Switch in a battle replaces the enemy being fought: it aims at no chamber then."""
    kinds = ["destroy", "teleport", "stone_statue"] + (["body_switch"] if view["phase"] != "battle" else [])
    return {(kind, t[0], t[1]) for kind in kinds for t in targets.get(kind, []) if t != "next_level"}


def spell_form(sid: str) -> str:
    """The id of a spell's form: the map's aiming controls join it with form="…"."""
    return f"spell-{sid}"


def short_name(code: str) -> str:
    """Rank and suit symbol in plain text ("7♣"), as the page script writes a card."""
    card = Card.parse(code)
    return f"{card.rank}{card.symbol}" if card.suit else code
