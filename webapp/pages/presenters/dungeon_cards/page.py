"""What every part of Dungeon Cards' page shares: the scene with its lookups, and the small
pieces drawn everywhere (a choice, a chip, hearts, a character's letters)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ....domain.play import ActionButton
from .. import Scene

ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→"}


CLASS_LETTERS = {
    "ninja": "N",
    "athlete": "A",
    "soldier": "So",
    "tank": "T",
    "rogue": "R",
    "swordsman": "Sw",
    "mage": "M",
    "healer": "H",
}


@dataclass(frozen=True)
class Choice:
    """A button and the classes it is drawn with ("primary" for the likely choice)."""

    button: ActionButton
    css: str = ""


@dataclass(frozen=True)
class Chip:
    css: str
    text: str


@dataclass(frozen=True)
class Pips:
    """Lives drawn as hearts: ``hearts`` holds one flag per max life, True while it is kept."""

    label: str
    lives: int
    max_lives: int
    hearts: tuple[bool, ...]


class Page:
    """The scene with the lookups every part of the page shares."""

    def __init__(self, scene: Scene):
        self.scene = scene
        self.view = scene.view
        self.data = scene.rules.data
        self.seat = scene.seat
        self.names = scene.names
        self.result = scene.result
        self.chars = self.view["characters"]
        self.by_id = {c["id"]: c for c in self.chars}
        self.me = self.by_id.get(self.seat) if self.seat else None
        self.by_type: dict[str, list[ActionButton]] = defaultdict(list)
        for b in scene.buttons:
            self.by_type[b.action["type"]].append(b)
        self.turn = self.view["turn"]
        self.current = self.turn["current"] if self.turn else None
        self.awaited = [a["seat"] for a in self.view["awaiting"]]
        self.my_turn = self.seat is not None and self.seat in self.awaited
        self.hand_mode = self.view["options"]["turn_mode"] == "three_card_hand"

    def who(self, seat: str) -> str:
        return self.names.get(seat, seat)

    def buttons(self, *kinds: str) -> list[ActionButton]:
        return [b for kind in kinds for b in self.by_type.get(kind, [])]

    def suit_badge(self, code: str) -> str:
        direction = self.data.SUIT_DIRECTIONS.get(code[-1], "")
        return f"{ARROWS.get(direction, '')} {direction}"


def letters(character: dict) -> str:
    return CLASS_LETTERS.get(character["class"], "?")


def pips(lives: int, max_lives: int, label: str) -> Pips:
    kept = max(lives, 0)
    return Pips(label, kept, max_lives, tuple(i < kept for i in range(max_lives)))


def used_chip(name: str, used: bool) -> Chip:
    return Chip("chip used" if used else "chip", f"{name} {'used' if used else 'ready'}")
