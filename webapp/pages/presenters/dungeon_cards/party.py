"""The party: each character's lives, speed, level and spells, the roster's marks, and leaving."""

from __future__ import annotations

from dataclasses import dataclass

from rules_engine.games.dungeon_cards.core import sq

from ....domain.play import ActionButton
from .page import Chip, Page, letters


@dataclass(frozen=True)
class Member:
    css: str
    seat_number: int
    letters: str
    name: str
    you: bool
    class_name: str
    turn: bool
    status: Chip | None
    lives: int
    max_lives: int
    speed: int
    level: int
    details: str
    chips: list[Chip]


@dataclass(frozen=True)
class Party:
    title: str
    members: list[Member]


@dataclass(frozen=True)
class RosterMarks:
    statuses: dict[str, str]
    current: str | None


@dataclass(frozen=True)
class Leave:
    button: ActionButton
    summary: str
    text: str


def party(page: Page) -> Party | None:
    if not page.chars:
        return None
    classes, spells = page.data.CLASSES, page.data.SPELLS
    members = []
    for c in page.chars:
        has_turn = c["id"] == page.current and not page.result
        details = [classes[c["class"]]["ability"]]
        if c["position"]:
            details.append(f"at {sq(c['position'])}")
        if page.hand_mode:
            details.append(f"{c['hand_count']} cards in hand")
        if c["bosses_defeated"]:
            details.append(f"beat {', '.join(c['bosses_defeated'])}")
        members.append(
            Member(
                css="member"
                + (" current" if has_turn else "")
                + (" out" if c["status"] not in ("active", "escaped") else ""),
                seat_number=c["seat_number"],
                letters=letters(c),
                name=page.who(c["id"]),
                you=c["id"] == page.seat,
                class_name=c["class_name"],
                turn=has_turn,
                status=None
                if c["status"] == "active"
                else Chip("tag won" if c["status"] == "escaped" else "tag", c["status"]),
                lives=c["lives"],
                max_lives=c["max_lives"],
                speed=c["speed"],
                level=c["level"],
                details=" · ".join(details),
                chips=[Chip("chip hot", f"{spells[e]['name']} (this turn)") for e in c["active_effects"]]
                + [Chip("chip", f"{spells[e]['name']} (next turn)") for e in c["pending_effects"]],
            )
        )
    return Party("The party" if len(page.chars) > 1 else "Your character", members)


def roster_marks(page: Page) -> RosterMarks | None:
    """The table's roster marks (only a party has one): who is out, and whose turn it is."""
    if len(page.view["players"]) <= 1:
        return None
    return RosterMarks(
        {c["id"]: c["status"] for c in page.chars if c["status"] != "active"}, None if page.result else page.current
    )


def leave(page: Page) -> Leave | None:
    buttons = page.buttons("leave_game")
    if not buttons:
        return None
    if len(page.chars) > 1:
        return Leave(
            buttons[0],
            "Leave the game",
            "Your character leaves the dungeon with no Hall of Fame entry; the others play on.",
        )
    return Leave(buttons[0], "Give up", "The game ends in defeat.")
