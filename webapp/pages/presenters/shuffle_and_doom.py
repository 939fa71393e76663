"""Shuffle and Doom!: what its page draws, worked out from the engine's view.

Rules: ``docs/rules/shuffle-and-doom.md``. The template (``templates/shuffle_and_doom/game.html``)
prints these values and decides nothing.
"""

from __future__ import annotations

from rules_engine.cards import Card
from rules_engine.games.shuffle_and_doom import cell_name, result_text

from ...domain.play import ActionButton
from . import Scene, player_name, solo_ending
from .controls import buttons_by_type, move_pad

PHASE_TEXT = {
    "swap": "Your options require a header swap: exchange two cards of different colours within one set.",
    "choose_set": "Choose the set of cards that makes your adventurer.",
    "assign_diamonds": "Give each diamond of your set its +1.",
    "explore": "Explore the dungeon: move with the arrow keys or W A S D.",
    "combat": "Fight! Attack an enemy — the survivors hit back.",
    "traps": "Traps! Deactivate them, take one item and spring them, or retreat.",
}
SETUP_PHASES = ("swap", "choose_set", "assign_diamonds")
"""While the adventurer is being made, the page shows the header sets to choose from."""
STATLESS_PHASES = ("swap", "choose_set")
"""Before a set is chosen there are no statistics to show."""
SET_TITLES = {"top": "Top set (columns)", "side": "Side set (rows)"}
LARGEST_LABELLED_MAP = 13
"""Header cards of a larger map are too narrow for their rank and suit: only their colour shows."""
ROOM_TITLES = {"combat": "Combat", "traps": "Traps"}
GAIN_BADGES = {"potion": "potion +", "gold": "gold +", "book": "book +"}
"""A card that gives something shows what it gives: a room card by its role, a hand card by its kind."""


def present(scene: Scene) -> dict:
    view = scene.view
    by_type = buttons_by_type(scene.buttons)
    card_buttons = buttons_by_card(scene.buttons)
    told = ending_text(scene)
    return {
        "status_line": status_line(view, scene.seat, scene.result and {**scene.result, "text": told}),
        "ending": solo_ending(scene, won_heading=won_heading(scene), text=told),
        "acting": scene.seat is not None and bool(scene.buttons),
        "headers": {name: header_cards(view[name], view["size"]) for name in SET_TITLES},
        "map_label": map_label(view),
        "map_cells": map_cells(view),
        "setup": setup(view, by_type) if view["phase"] in SETUP_PHASES else None,
        "show_stats": view["phase"] not in STATLESS_PHASES,
        "room": room(view, card_buttons),
        "hand": [hand_card(card, card_buttons) for card in view["hand"]],
        "move_pad": move_pad(by_type.get("move", [])),
        "way_out": [
            {"button": b, "cls": "primary" if b.action["type"] == "exit" else ""}
            for b in by_type.get("retreat", []) + by_type.get("exit", [])
        ],
        "values_multiplied": view["multiplier"] > 1,
    }


WON_HEADINGS = {"exited": "You escaped!", "cleared": "Dungeon cleared!"}
WATCHED_HEADINGS = {"exited": "{name} escaped!", "cleared": "Dungeon cleared!"}


def won_heading(scene: Scene) -> str:
    """The result box's heading when the player won, in the viewer's person."""
    headings = WATCHED_HEADINGS if scene.seat is None else WON_HEADINGS
    reason = scene.result["reason"] if scene.result else ""
    return headings.get(reason, "Victory!").format(name=player_name(scene))


def ending_text(scene: Scene) -> str:
    """The result's sentence in the viewer's person ("" while the game runs)."""
    if not scene.result:
        return ""
    return result_text(scene.result, player_name(scene) if scene.seat is None else None)


def buttons_by_card(buttons: list[ActionButton]) -> dict[str, list[ActionButton]]:
    """The buttons that act on one card of the room or the hand, by its code.

    A diamond's bonus names a header card, not one in play: those buttons stay with the sets."""
    groups: dict[str, list[ActionButton]] = {}
    for b in buttons:
        if "card" in b.action and b.action["type"] != "assign_diamond_bonus":
            groups.setdefault(b.action["card"], []).append(b)
    return groups


def status_line(view: dict, seat: str | None, result: dict | None) -> dict:
    """The status line: how it looks (``tone``), its bold ``lead`` and the ``detail`` after it."""
    phase_text = PHASE_TEXT.get(view["phase"], "")
    if result:
        return {"tone": "over", "lead": "Game over.", "detail": result["text"]}
    if seat:
        return {"tone": "", "lead": "Your turn.", "detail": phase_text}
    return {
        "tone": "watching",
        "lead": "Watching live.",
        "detail": f"Only the player who started this game can act. {phase_text}",
    }


def header_cards(codes: list[str], size: int) -> list[dict]:
    """The header cards along one side of the map: each card's ``colour``, and its rank and suit
    (``short``) where the squares are wide enough to show them."""
    labelled = size <= LARGEST_LABELLED_MAP
    headers = []
    for code in codes:
        card = Card.parse(code)
        headers.append({"colour": card.colour, "short": f"{card.rank}{card.symbol}" if labelled else ""})
    return headers


def map_label(view: dict) -> str:
    """The map in words, for a screen reader (the map itself is a picture)."""
    n = view["size"]
    emptied = sum(room["status"] == "emptied" for room in view["rooms"])
    position = view["position"]
    where = f"You are at {cell_name(position)}." if position else "You have not entered yet."
    exit_at = cell_name(view["exit"])
    return f"Map {n} by {n}: {len(view['rooms'])} rooms, {emptied} emptied. {where} The exit is at {exit_at}."


def map_cells(view: dict) -> list[dict]:
    """Every square of the map, row by row: its CSS ``classes``, and whether ``you`` stand there."""
    n = view["size"]
    here = tuple(view["position"]) if view["position"] else None
    cells = []
    for r, row in enumerate(view["cells"], start=1):
        for c, cell in enumerate(row, start=1):
            classes = "cell"
            if cell["filled"]:
                classes += f" filled {cell['status']}"
            elif cell["room"]:
                # An emptied room is empty floor to the rules ("filled" false) but keeps its own
                # shade, as the legend promises.
                classes += " emptied"
            if r == n and c == n:
                classes += " exit"
            cells.append({"classes": classes, "you": (r, c) == here})
    return cells


def setup(view: dict, by_type: dict[str, list[ActionButton]]) -> dict:
    """The header sets while the adventurer is made: each set's cards and choice, the swap, the diamonds."""
    swappable = bool(by_type.get("swap_headers"))
    return {
        "heart_bonus": view.get("bonus", "its bonus"),
        "sets": [
            {
                "name": name,
                "title": SET_TITLES[name] + (" — chosen" if view["chosen_set"] == name else ""),
                "cards": view[name],
                "buttons": [b for b in by_type.get("choose_stat_set", []) if b.action["set"] == name],
            }
            for name in SET_TITLES
        ],
        # Positions count from 1; the form starts on the first two cards.
        "swap_positions": list(range(1, view["size"] + 1)) if swappable else [],
        "swap_second": 2,
        "diamond_buttons": by_type.get("assign_diamond_bonus", []),
    }


def room(view: dict, card_buttons: dict[str, list[ActionButton]]) -> dict | None:
    """The room being dealt with: its title and its cards, each with what can be done to it."""
    encounter = view["encounter"]
    if not encounter:
        return None
    title = ROOM_TITLES.get(view["phase"], "The room")
    if encounter["stunned"]:
        title += " — enemies stunned"
    cards = []
    for room_card in encounter["cards"]:
        badge = room_badge(room_card)
        damaged = room_card["role"] == "enemy" and room_card["strength"] != room_card["value"]
        cards.append(
            {
                "code": room_card["code"],
                "badge": badge,
                "label": f"{Card.parse(room_card['code']).name}: {badge}",
                "extra": "damaged" if damaged else "",
                "actions": [
                    {"button": b, "cls": "primary" if b.action["type"] == "attack" else ""}
                    for b in card_buttons.get(room_card["code"], [])
                ],
            }
        )
    return {"title": title, "cards": cards}


def room_badge(room_card: dict) -> str:
    """What a card in a room is (rules §5): an enemy shows its strength, and its value once hurt."""
    role, value, strength = room_card["role"], room_card["value"], room_card["strength"]
    if role == "enemy":
        return f"enemy {strength}" + (f"/{value}" if strength != value else "")
    if role == "trap":
        return f"trap {value}"
    return GAIN_BADGES[role] + str(value)


def hand_card(card: dict, card_buttons: dict[str, list[ActionButton]]) -> dict:
    badge = GAIN_BADGES[card["kind"]] + str(card["value"])
    return {
        "code": card["code"],
        "badge": badge,
        "label": f"{Card.parse(card['code']).name}: {badge}",
        "buttons": card_buttons.get(card["code"], []),
    }
