"""What a character does on their turn that may start a fight or change the party: drawing the
turn card, Fortune Telling, playing a card from the hand, casting a spell, leaving (§4, §7.4, §9).

A face card drawn as the turn card, in the draw step or as a Fortune Telling replacement starts
a combat instead (``combat.start``); the turn then ends without a card move (ruling 6). This
module sits above ``turns`` (the turn's own course), ``combat`` and ``party``, which never
import it.
"""

from __future__ import annotations

from typing import Any

from ...cards import pretty
from ...errors import IllegalAction
from . import combat, endings, turns
from . import deck as _deck
from .core import active, is_face, log
from .data import SPELLS
from .turns import end_turn, hand_mode, move_with_card


def draw_card(state: dict[str, Any], c: dict[str, Any]) -> None:
    """§4.1 step 3 (the turn card) or §4.2 step 3 (the draw step: 1 card, 2 with Good Luck)."""
    if hand_mode(state):
        count = 2 if "good_luck" in c["active_effects"] else 1
        for i in range(count):
            card = _deck.draw(state)
            if card is None:
                if i == 0:
                    log(state, "card_drawn", "There is no card left to draw: the turn ends.")
                    end_turn(state)
                    return
                break
            if is_face(card):
                log(state, "card_drawn", f"{c['id']} draws {pretty(card)}: a boss!")
                combat.start(state, c, card)
                return
            c["hand"].append(card)
            state["turn"]["drawn_this_turn"].append(card)
            log(state, "card_drawn", f"{c['id']} draws a card into the hand ({len(state['deck'])} left in the deck).")
            log(state, "card_drawn", f"You draw {pretty(card)}.", private=c["id"])
        _after_draw(state, c)
        return
    card = _deck.draw(state)
    if card is None:
        log(state, "card_drawn", "There is no card left to draw: the turn ends.")
        end_turn(state)
        return
    state["turn"]["drawn_this_turn"].append(card)
    if is_face(card):
        log(state, "card_drawn", f"{c['id']} draws {pretty(card)}: a boss!")
        combat.start(state, c, card)
        return
    log(state, "card_drawn", f"{c['id']} draws {pretty(card)}.")
    state["turn"]["movement_card"] = card
    _after_draw(state, c)


def fortune_available(state: dict[str, Any], c: dict[str, Any]) -> bool:
    return "fortune_telling" in c["active_effects"] and not state["turn"]["fortune_used"]


def _after_draw(state: dict[str, Any], c: dict[str, Any]) -> None:
    if fortune_available(state, c):
        state["phase"] = "awaiting_fortune"
    elif hand_mode(state):
        state["phase"] = "awaiting_play"
    else:
        card = state["turn"]["movement_card"]
        state["turn"]["movement_card"] = None
        move_with_card(state, c, card)


def fortune_telling(state: dict[str, Any], c: dict[str, Any], card: str | None) -> None:
    """§4.1 step 4 / §4.2 step 4: discard one number card and draw a replacement, or keep."""
    turn = state["turn"]
    turn["fortune_used"] = True
    if hand_mode(state):
        if card is not None and card not in c["hand"]:
            raise IllegalAction(f"{pretty(card)} is not in your hand")
        if card is None:
            log(state, "fortune_telling_used", f"{c['id']} keeps the hand.")
            state["phase"] = "awaiting_play"
            return
        c["hand"].remove(card)
    else:
        if card is not None and card != turn["movement_card"]:
            raise IllegalAction(f"only the movement card {pretty(turn['movement_card'])} can be discarded")
        if card is None:
            log(state, "fortune_telling_used", f"{c['id']} keeps {pretty(turn['movement_card'])}.")
            card = turn["movement_card"]
            turn["movement_card"] = None
            move_with_card(state, c, card)
            return
        turn["movement_card"] = None
    state["discard"].append(card)
    new = _deck.draw(state)
    if new is None:
        log(state, "fortune_telling_used", f"{c['id']} discards {pretty(card)}, but no card is left: the turn ends.")
        end_turn(state)
        return
    turn["drawn_this_turn"].append(new)
    if is_face(new):
        log(state, "fortune_telling_used", f"{c['id']} discards {pretty(card)} and draws {pretty(new)}: a boss!")
        combat.start(state, c, new)
        return
    if hand_mode(state):
        c["hand"].append(new)
        log(state, "fortune_telling_used", f"{c['id']} discards {pretty(card)} and draws a replacement.")
        log(state, "fortune_telling_used", f"You draw {pretty(new)}.", private=c["id"])
        state["phase"] = "awaiting_play"
    else:
        log(state, "fortune_telling_used", f"{c['id']} discards {pretty(card)} and draws {pretty(new)}.")
        move_with_card(state, c, new)


def play_card(state: dict[str, Any], c: dict[str, Any], card: str) -> None:
    if card not in c["hand"]:
        raise IllegalAction(f"{pretty(card)} is not in your hand")
    c["hand"].remove(card)
    log(state, "card_played", f"{c['id']} plays {pretty(card)}.")
    move_with_card(state, c, card)


def cast_spell(state: dict[str, Any], mage: dict[str, Any], spell: str) -> None:
    """§9.3: the spell is pending for every active character, the Mage included; the turn ends."""
    if mage["class"] != "mage":
        raise IllegalAction("only the Mage can cast spells")
    if SPELLS[spell]["hand_mode_only"] and not turns.hand_mode(state):
        raise IllegalAction(f"{SPELLS[spell]['name']} can only be cast in the three-card-hand game")
    targets = active(state)
    for c in targets:
        if spell not in c["pending_effects"]:
            c["pending_effects"].append(spell)
    state["last_spell"] = {"mage": mage["id"], "spell": spell, "cast_turn": state["turn"]["turn_number"]}
    log(
        state,
        "spell_cast",
        f"{mage['id']} casts {SPELLS[spell]['name']} on "
        f"{', '.join(c['id'] for c in targets)}: it works on each one's next turn.",
    )
    turns.end_turn(state)


def leave_in_play(state: dict[str, Any], c: dict[str, Any]) -> None:
    """§11.3 ``leave_game`` during play: removed as if dead, no Hall of Fame entry; cards it has in
    play go to the discard pile and decisions it owes lapse."""
    turn = state["turn"]
    was_current = turn["current"] == c["id"]
    if was_current and turn["movement_card"]:
        state["discard"].append(turn["movement_card"])
        log(state, "left", f"{pretty(turn['movement_card'])} goes to the discard pile.")
        turn["movement_card"] = None
    endings.remove(state, c, "left")
    if state["combat"] is not None:
        combat.on_leave(state, c["id"])
    elif was_current:
        turns.pass_turn(state)
    elif not active(state):
        endings.all_gone(state)
