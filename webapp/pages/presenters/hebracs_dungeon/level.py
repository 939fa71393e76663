"""The level: its effects and the map, chamber by chamber, with the controls that aim at it."""

from __future__ import annotations

from rules_engine.cards import Card
from rules_engine.text import counted

from .page import MAP_AIMS, Page, spell_form


def level(view: dict, page: Page) -> dict:
    effects = view["level_effects"]
    chips = []
    if effects["anti_magic"] or effects["curse"] or effects["enemies_revealed"]:
        if effects["anti_magic"]:
            chips.append("Anti-Magic")
        if effects["curse"]:
            chips.append("Curse: enemies' life halved")
        if effects["treasures_revealed"]:
            chips.append("Every card revealed")
        elif effects["enemies_revealed"]:
            chips.append("Enemies revealed")
    descents = page.by_type.get("descend", [])
    descent_hint = ""
    if not descents and view["phase"] == "explore":
        left = view["descent_threshold"] - view["cleared"]
        descent_hint = (
            f"Clear {counted(left, 'more chamber')} to be allowed down (or Teleport); "
            "clearing them all takes you down at once."
        )
    return {"effects": chips, "cells": chambers(view, page), "descents": descents, "descent_hint": descent_hint}


def chambers(view: dict, page: Page) -> list[dict]:
    """Every chamber of the level, row by row: its look, its words for a screen reader, its controls."""
    fight, meeting = view["battle"], view["encounter"]
    focus = tuple(fight["pos"]) if fight else (tuple(meeting["pos"]) if meeting else None)
    cells = []
    for row in view["grid"]:
        for cell in row:
            r, c = cell["row"], cell["col"]
            enter = page.chamber_buttons.get(("move", r, c))
            peek = page.chamber_buttons.get(("peek", r, c))
            seen = cell["remembered"]
            revealed = cell["enemy_up"] and not cell["visited"]
            classes = ["chamber"]
            classes += [
                name
                for name, on in (
                    ("visited", cell["visited"]),
                    ("cleared", cell["cleared"]),
                    ("here", cell["here"]),
                    ("active", focus == (r, c)),
                    ("reachable", enter),
                    ("peekable", peek),
                    ("corner", cell["corner"] and view["phase"] == "start_level"),
                )
                if on
            ]
            classes += [f"t-{kind}" for kind in MAP_AIMS if (kind, r, c) in page.aims]
            if cell["enemy_up"]:
                enemy = {"code": cell["enemy"], "extra": "cc revealed" if revealed else "cc"}
            elif seen:
                enemy = {"code": seen, "extra": "cc remembered"}
            else:
                enemy = {"code": None, "extra": "cc"}
            cells.append(
                {
                    "key": f"{r},{c}",
                    "classes": " ".join(classes),
                    "pair_classes": " ".join(
                        ["pair"]
                        + (["has-e"] if cell["enemy_present"] else [])
                        + (["has-t"] if cell["treasure_present"] else [])
                    ),
                    "label": chamber_label(cell, seen, revealed, enter is not None),
                    "treasure": (
                        {"code": cell["treasure"] if cell["treasure_up"] else None}
                        if cell["treasure_present"]
                        else None
                    ),
                    "enemy": enemy if cell["enemy_present"] else None,
                    "floor": ("✓" if cell["visited"] else "") if cell["cleared"] else None,
                    "here": cell["here"],
                    "tags": [
                        {"cls": cls, "word": word}
                        for cls, word, on in (
                            ("seen", "seen", seen),
                            ("rev", "revealed", revealed),
                            ("robbed", "robbed", cell["robbed"]),
                        )
                        if on
                    ],
                    "enter": enter if page.controls else None,
                    "peek": peek if page.controls else None,
                    "aims": chamber_aims(r, c, page) if page.controls else [],
                }
            )
    return cells


def chamber_label(cell: dict, seen: str | None, revealed: bool, enterable: bool) -> str:
    """A chamber in words: what the picture of its two cards shows."""
    words = f"Chamber ({cell['row']},{cell['col']}): " + ("you are here; " if cell["here"] else "")
    if cell["cleared"]:
        words += "cleared"
    else:
        words += "visited" if cell["visited"] else "unexplored"
        if not cell["enemy_present"]:
            words += ", no enemy"
        elif cell["enemy_up"]:
            words += f", enemy {Card.parse(cell['enemy']).name}" + (" (revealed)" if revealed else "")
        elif seen:
            words += f", enemy face down, you saw {Card.parse(seen).name}"
        else:
            words += ", enemy face down"
        if cell["treasure_present"]:
            words += ", treasure " + (Card.parse(cell["treasure"]).name if cell["treasure_up"] else "face down")
        if cell["robbed"]:
            words += ", robbed"
    return words + ("; you can enter" if enterable else "")


AIM_CONTROLS = {
    "destroy": ("checkbox", "aim-destroy", "Destroy", " the enemy of {at}"),
    "teleport": ("radio", "aim-teleport", "Go", " to {at} by Teleport"),
    "body_switch": ("radio", "aim-bs", "Switch", " the enemy of {at} by Body Switch"),
    "stone_statue": ("checkbox", "aim-stone", "Stone", " the enemy of {at}"),
}
"""How each kind of aim is drawn on a chamber: its control (a checkbox ticks one of several
chambers, gathered by the page script; a radio chooses the one ``j_target``), its id's prefix, its
word, and what a screen reader hears after the word."""


def chamber_aims(r: int, c: int, page: Page) -> list[dict]:
    """The controls on this chamber that aim a castable spell, or the Genie of Death, at it: each
    joins its form (the encounter's, or the spell's) with form="…"."""
    aims = []
    for kind, (control, prefix, word, heard) in AIM_CONTROLS.items():
        if (kind, r, c) not in page.aims or (kind != "destroy" and kind not in page.casts):
            continue
        ticks = control == "checkbox"
        aims.append(
            {
                "kind": kind,
                "input": control,
                "id": f"{prefix}-{r}-{c}",
                "form": "hd-act" if kind == "destroy" else spell_form(kind),
                "name": "" if ticks else "j_target",
                "pick": ticks,
                "value": f"[{r},{c}]",
                "checked": kind == "destroy" and [r, c] in page.destroy_picks,
                "word": word,
                "heard": heard.format(at=f"({r},{c})"),
            }
        )
    return aims
