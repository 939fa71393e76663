"""The buttons' words: each action's label, declared with the action in ``play.ACTIONS``.

A label reads the action as given and the state it is taken in; one that does not fit the state
(a card no longer there) reads as the action's type rather than failing the page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...cards import pretty
from ...errors import InvalidAction
from ...grid import DIRECTION_NAMES
from .data import cell_name
from .rooms import _enc_cards, _gain
from .setup import _set_stats

State = dict[str, Any]
Label = Callable[[State, dict[str, Any]], str]


def _or_its_type(label: Label) -> Label:
    def worded(s: State, action: dict[str, Any]) -> str:
        try:
            return label(s, action)
        except (KeyError, IndexError, TypeError, StopIteration, InvalidAction):
            return str(action.get("type"))

    return worded


@_or_its_type
def swap(s: State, action: dict[str, Any]) -> str:
    cards = s[action["set"]]
    a, b = cards[action["i"] - 1], cards[action["j"] - 1]
    return f"Swap {pretty(a)} and {pretty(b)} in the {action['set']} set"


@_or_its_type
def choose_set(s: State, action: dict[str, Any]) -> str:
    st = _set_stats(s, action["set"])
    return (
        f"Choose the {action['set']} set (health {st['health']}, attack {st['attack']}, "
        f"intelligence {st['intelligence']})"
    )


@_or_its_type
def diamond_bonus(_s: State, action: dict[str, Any]) -> str:
    return f"Give {pretty(action['card'])} to {action['stat']} (+1)"


@_or_its_type
def move(_s: State, action: dict[str, Any]) -> str:
    return f"Move {DIRECTION_NAMES[action['dir']]}"


@_or_its_type
def drink_or_read(s: State, action: dict[str, Any]) -> str:
    code = action["card"]
    card = next(c for c in s["hand"] if c["code"] == code)
    gain = _gain(s, card)
    temporary = s["options"]["temporary_consumables"]
    if action["type"] == "drink":
        return f"Drink {pretty(code)} (+{gain} {'ward' if temporary else 'health'})"
    return f"Read {pretty(code)} (+{gain} {'temporary intelligence' if temporary else 'intelligence'})"


@_or_its_type
def attack(s: State, action: dict[str, Any]) -> str:
    code = action["card"]
    enemy = next(c for c in s["encounter"]["cards"] if c["code"] == code)
    return f"Attack {pretty(code)} (strength {enemy['strength']})"


@_or_its_type
def trap_opener(s: State, action: dict[str, Any]) -> str:
    total = sum(t["value"] for t in _enc_cards(s, "trap"))
    return f"Trap opener: take {pretty(action['card'])} — traps deal {total} to you and every enemy"


@_or_its_type
def deactivate(s: State, action: dict[str, Any]) -> str:
    code = action["card"]
    trap = next(c for c in s["encounter"]["cards"] if c["code"] == code)
    return f"Deactivate {pretty(code)} (needs intelligence {trap['value']})"


@_or_its_type
def take(s: State, action: dict[str, Any]) -> str:
    total = sum(t["value"] for t in _enc_cards(s, "trap"))
    return f"Take {pretty(action['card'])} — active traps deal {total}"


@_or_its_type
def retreat(s: State, action: dict[str, Any]) -> str:
    to = action["to"]
    if action.get("keep"):
        return f"Retreat to {cell_name(to)} keeping the traps"
    if s["phase"] == "combat":
        return f"Retreat to {cell_name(to)} (room suspended)"
    return f"Retreat to {cell_name(to)}"


@_or_its_type
def leave(s: State, _action: dict[str, Any]) -> str:
    return f"Leave the dungeon with {s['stats']['gold']} gold"
