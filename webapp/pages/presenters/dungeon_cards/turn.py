"""This seat's turn outside a fight: choosing a class, setting up the board, drawing, casting,
Fortune Telling, the hand and its discards."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace

from ....domain.play import ActionButton
from .page import Choice, Page

# The actions of a turn outside a fight (the "Your turn" panel).
TURN_ACTIONS = frozenset(
    (
        "choose_class",
        "start_game",
        "choose_start",
        "place_marker",
        "draw_card",
        "cast_spell",
        "fortune_telling",
        "play_card",
        "discard_to_limit",
    )
)


# Each class keeps one key however many are taken (the order of the rules' class list).
CLASS_ORDER = ("ninja", "athlete", "soldier", "tank", "rogue", "swordsman", "mage", "healer")


CLASS_KEYS = {cls: str(n) for n, cls in enumerate(CLASS_ORDER, 1)}


@dataclass(frozen=True)
class ClassChoice:
    """A class button (only in the engine's own lobby, which a table reaches again when ruling 58
    leaves a lone Mage or Healer): its fixed key, and what the class does."""

    button: ActionButton
    css: str
    what: str


@dataclass(frozen=True)
class HandCard:
    code: str
    badge: str
    choices: list[Choice] = field(default_factory=list)


@dataclass(frozen=True)
class Placing:
    prompt: str
    compose: str
    marker_kind: str | None
    submit_label: str
    columns: range
    rows: range


@dataclass(frozen=True)
class TurnPanel:
    title: str
    class_choices: list[ClassChoice]
    start_buttons: list[ActionButton]
    placing: Placing | None
    draw: ActionButton | None
    spells: list[tuple[ActionButton, str]]
    fortune_card: HandCard | None
    hand: list[HandCard]
    hand_heading: bool
    fortune_swaps: list[ActionButton]
    fortune_keep: list[Choice]
    discards: list[ActionButton]
    active_spells: str | None


def turn_panel(page: Page) -> TurnPanel | None:
    """This seat's choices outside a fight, and its hand."""
    view, me, seat = page.view, page.me, page.seat
    mine_now = [b for b in page.scene.buttons if b.action["type"] in TURN_ACTIONS]
    hand = me["hand"] if me and me["hand"] else []
    if not mine_now and not hand:
        return None
    if view["stage"] == "lobby":
        title = "Choose your class"
    elif view["stage"] == "setup":
        title = "Set up the board"
    else:
        title = "Your turn" if mine_now else "Your hand"
    by_card: dict[str, list[Choice]] = defaultdict(list)
    for b in page.buttons("play_card", "fortune_telling"):
        if b.action.get("card"):
            by_card[b.action["card"]].append(Choice(b, "primary" if b.action["type"] == "play_card" else ""))
    fortune = page.buttons("fortune_telling")
    turn = page.turn
    shows_fortune_card = view["phase"] == "awaiting_fortune" and turn and turn["movement_card"] and page.current == seat
    spells = page.data.SPELLS
    return TurnPanel(
        title=title,
        class_choices=[
            ClassChoice(
                replace(b, key=CLASS_KEYS.get(b.action["class"])),
                "primary" if view["classes"].get(seat) == b.action["class"] else "",
                page.data.CLASSES[b.action["class"]]["summary"],
            )
            for b in page.buttons("choose_class")
        ],
        start_buttons=page.buttons("start_game"),
        placing=placing(page),
        draw=next(iter(page.buttons("draw_card")), None),
        spells=[(b, spells[b.action["spell"]]["summary"]) for b in page.buttons("cast_spell")],
        fortune_card=HandCard(turn["movement_card"], page.suit_badge(turn["movement_card"]))
        if shows_fortune_card
        else None,
        hand=[HandCard(code, page.suit_badge(code), by_card.get(code, [])) for code in hand],
        hand_heading=bool(mine_now),
        fortune_swaps=[b for b in fortune if not page.hand_mode and b.action.get("card")],
        fortune_keep=[Choice(b, "" if page.hand_mode else "primary") for b in fortune if b.action.get("card") is None],
        discards=page.buttons("discard_to_limit"),
        active_spells=", ".join(spells[e]["name"] for e in me["active_effects"])
        if me and me["active_effects"]
        else None,
    )


def placing(page: Page) -> Placing | None:
    """Where the host puts a marker or the start square: the same choice as clicking the board."""
    buttons = page.buttons("place_marker") or page.buttons("choose_start")
    if not buttons:
        return None
    action = buttons[0].action
    board = page.view["board"]
    if action["type"] == "choose_start":
        prompt, kind, label = "the start square (an edge square)", None, "Start here"
    elif action["kind"] == "exit":
        prompt, kind, label = "an Exit", "exit", "Place the Exit"
    else:
        prompt, kind, label = "a Pit", action["kind"], "Place the Pit"
    return Placing(prompt, action["type"], kind, label, range(1, board["width"] + 1), range(1, board["height"] + 1))
