"""Clear the Dungeon's page: the engine's view turned into what ``clear_the_dungeon/game.html`` draws.

Everything here comes from the view (``rules_engine/games/clear_the_dungeon.py`` documents its
shape), the seat's legal actions and the engine's own numbers (powers, score points), so the
template never asks the rules anything. Spectators get the same board as the player (rules
10.3); they only lack the controls, since they have no actions.
"""

from __future__ import annotations

from markupsafe import Markup

from rules_engine import Rules
from rules_engine.cards import Card
from rules_engine.games.clear_the_dungeon import LOSING_HIT
from rules_engine.text import counted

from ...domain.play import ActionButton
from . import Scene, solo_ending
from .controls import buttons_by_type

MONSTER_KEYS = "abcefgijklmnopqrstuvwyz"
"""Each face-up monster's shortcut, in reading order: D (end turn), X (double) and H (a hint:
templates/_hint.html) are taken, and static/js/clear_the_dungeon.js reads the same letters."""

HAND_KEYS = 9
"""Hand cards 1–9 have a digit key."""

RESULT_HEADLINES = {
    "cleared": "The dungeon is cleared!",
    "five_hits": f"The {LOSING_HIT} — the monsters win.",
    "resigned": "The player gave up.",
    "out_of_power": "The power deck ran out.",
}

SPADE_HINT = " To double while placing, switch on ×2 next to your hand (or pick a “doubled” placement from the list)."
"""Why the K♠ may still matter when no ``use_item`` with it is legal: it doubles a card as it is placed."""


def present(scene: Scene) -> dict:
    """The game page's context for one viewer (the keys the template reads)."""
    view, rules = scene.view, scene.rules
    by_type = buttons_by_type(scene.buttons)
    acting = scene.seat is not None and bool(scene.buttons)
    # The attack phase: the player may place cards, use items and end the turn (no K♦ decision open).
    attacking = acting and not view["pending"]
    end_turn = by_type.get("end_turn", [])
    end_turn_button = end_turn[0] if attacking and end_turn else None
    fatal = bool(view["end_turn_cost"] and view["end_turn_cost"]["fatal"])
    return {
        "root_attrs": Markup(' data-status="{}"').format(view["ending"] or view["status"]),
        "acting": acting,
        "attacking": attacking,
        "status_line": status_line(scene),
        "final_result": scene.result,  # the engine's, with its sentence of how the score came about
        # The sentence reads the same to the player and to onlookers ("Five hits after 9 turns.").
        "ending": solo_ending(scene, won_heading="Dungeon cleared!", text=scene.result["text"] if scene.result else ""),
        "peek": peek(view, by_type, acting),
        "dungeon_slots": dungeon(view, acting),
        "monster_total": rules.MONSTERS,
        "power_legend": power_legend(rules),
        "hand": hand(rules, view["hand"]),
        "offer_double": attacking and "KS" in view["inventory"],
        "end_turn_button": end_turn_button,
        # The engine decides: its forecast of the fifth hit, or its loss_warning (which also knows
        # an empty power deck); the warning's sentence is what the page shows.
        "end_turn_fatal": bool(end_turn_button and (end_turn_button.warning or fatal)),
        "max_hits": rules.MAX_HITS,
        "hits_danger": view["hits_left"] <= 1,
        "hits_warning": (
            f"{view['hits']} hits: one more loses the game."
            if view["status"] == "playing" and view["hits_left"] == 1
            else None
        ),
        "hit_slots": hit_slots(rules, view["hit_row"]),
        "deck_label": f"Power deck: {counted(view['deck_count'], 'card')}, face down",
        "items": items(view, by_type, attacking),
        "placements": by_type.get("play", []),
        "clear_pile_summary": f"Clear pile: {counted(len(view['clear_pile']), 'card')}" if view["clear_pile"] else None,
        "resign_buttons": by_type.get("resign", []),
    }


def status_line(scene: Scene) -> dict:
    """The line above the board: ``tone`` (its class: over, watching or none), ``lead`` and ``detail``."""
    view = scene.view
    if scene.result:
        return {"tone": "over", "lead": "Game over.", "detail": RESULT_HEADLINES[scene.result["reason"]]}
    if scene.seat and view["pending"]:
        return {
            "tone": "",
            "lead": f"Turn {view['turn']}: your K♦ decision.",
            "detail": "Move the bottom card to the top, or leave it where it is.",
        }
    if scene.seat:
        return {
            "tone": "",
            "lead": f"Turn {view['turn']}.",
            "detail": "Pick a card from your hand, then a monster that lights up. "
            "Cards still in your hand when you end the turn become hits.",
        }
    return {
        "tone": "watching",
        "lead": "Watching live.",
        "detail": f"Only the player who started this game can act. Turn {view['turn']}.",
    }


def peek(view: dict, by_type: dict[str, list[ActionButton]], acting: bool) -> dict | None:
    """The open K♦ decision: the peeked ``card`` (public, rules 10.3), a ``prompt`` and the player's
    ``choices`` (button and class; moving the card to the top is the primary one)."""
    pending = view["pending"]
    if not pending:
        return None
    if not acting:
        return {
            "card": pending["card"],
            "choices": [],
            "prompt": "The player is choosing whether this card goes to the top of the power deck.",
        }
    choices = [
        {"button": b, "cls": "primary" if b.action["move_to_top"] else ""} for b in by_type.get("peek_decision", [])
    ]
    return {
        "card": pending["card"],
        "choices": choices,
        "prompt": "Move it to the top to draw it next, or leave it at the bottom.",
    }


def dungeon(view: dict, acting: bool) -> list[dict]:
    """The view's 14 places in reading order; while the player acts each face-up monster is a
    control with its ``key`` (a letter), else ``key`` is None."""
    letters = iter(MONSTER_KEYS)
    slots = []
    for place in view["dungeon"]:
        key = next(letters) if place["state"] == "monster" else None
        slots.append({**place, "key": key if acting else None})
    return slots


def power_legend(rules: Rules) -> str:
    """What each card is worth, from the engine: ``J 11, Q 12, K 13; ace 1, joker 10``."""
    monsters = ", ".join(f"{rank} {power}" for rank, power in rules.POWER.items())
    return f"{monsters}; ace {rules.power_value('AS')}, joker {rules.power_value('JK')}"


def hand(rules: Rules, codes: list[str]) -> list[dict]:
    """The hand in order of arrival: ``code``, ``index`` (from 1), ``key`` (a digit, for the first
    nine) and ``label`` (its name and worth, read out on the card's button)."""
    return [
        {
            "code": code,
            "index": index,
            "key": str(index) if index <= HAND_KEYS else None,
            "label": f"{Card.parse(code).name.capitalize()}, worth {rules.power_value(code)}",
        }
        for index, code in enumerate(codes, 1)
    ]


def hit_slots(rules: Rules, hit_row: list[str]) -> list[dict]:
    """The hit row's places: ``number``, the ``card`` taken there (None while free) and its ``label``."""
    slots = []
    for number in range(1, rules.MAX_HITS + 1):
        code = hit_row[number - 1] if number <= len(hit_row) else None
        what = Card.parse(code).name if code else "free"
        slots.append({"number": number, "card": code, "label": f"Hit {number}: {what}"})
    return slots


def items(view: dict, by_type: dict[str, list[ActionButton]], attacking: bool) -> list[dict]:
    """The unused kings: ``item``, ``title`` (K♠), its legal ``buttons`` now, and ``idle_hint``
    (why it cannot be used, shown to the player in the attack phase) when it has none."""
    uses: dict[str, list[ActionButton]] = {}
    for b in by_type.get("use_item", []):
        uses.setdefault(b.action["item"], []).append(b)
    out = []
    for status in view["item_status"]:
        item = status["item"]
        buttons = uses.get(item, [])
        idle_hint = None
        if not buttons and attacking and not status["usable"]:
            idle_hint = f"Not usable right now: {status['reason']}." + (SPADE_HINT if item == "KS" else "")
        king = Card.parse(item)
        out.append({"item": item, "title": king.rank + king.symbol, "buttons": buttons, "idle_hint": idle_hint})
    return out
