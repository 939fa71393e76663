"""A character's turn: its start, the move, its end, and passing play on (§4, §7.4).

Phases of a turn: ``awaiting_turn_action`` → (``awaiting_fortune``) → (``awaiting_play``, hand
mode) → the move → end of turn (``awaiting_hand_discard`` if the hand is over the limit). The
draw, Fortune Telling and playing a card, which may start a fight, are ``turn_actions``.
"""

from __future__ import annotations

from typing import Any, cast

from ...cards import pretty, seeded_rng
from ...errors import IllegalAction
from . import endings, party
from .core import active, current, log, pretty_list, sq, value
from .data import CLASSES, HAND_SIZE, REVERSED_DIRECTION, SPELLS, SUIT_DIRECTIONS
from .movement import walk


def hand_mode(state: dict[str, Any]) -> bool:
    return bool(state["options"]["turn_mode"] == "three_card_hand")


def begin_turn(state: dict[str, Any], c: dict[str, Any]) -> None:
    """§4.1 step 1: pending spell effects become active, then the Healer's start-of-turn healing."""
    turn = state["turn"]
    turn["current"] = c["id"]
    turn["turn_number"] += 1
    turn["movement_card"] = None
    turn["drawn_this_turn"] = []
    turn["fortune_used"] = False
    turn["healed"] = []
    c["turns_taken"] += 1
    c["active_effects"] = c["pending_effects"]
    c["pending_effects"] = []
    state["phase"] = "awaiting_turn_action"
    effects = ""
    if c["active_effects"]:
        effects = " Active: " + ", ".join(SPELLS[e]["name"] for e in c["active_effects"]) + "."
    log(
        state,
        "turn_started",
        f"Round {turn['round_number']}, turn {turn['turn_number']}: "
        f"{c['id']} the {CLASSES[c['class']]['name']} at {sq(c['position'])}.{effects}",
    )
    if c["class"] == "healer":
        party.heal_at_start(state, c)


def card_move(state: dict[str, Any], c: dict[str, Any], card: str) -> tuple[str, int]:
    """Direction and distance of a card move (§4.3, §4.4): value + Speed (+1 Haste), suit way
    (flipped by Reversal)."""
    suit = card[-1]
    direction = REVERSED_DIRECTION[suit] if "reversal" in c["active_effects"] else SUIT_DIRECTIONS[suit]
    distance = value(card) + c["speed"] + (1 if "haste" in c["active_effects"] else 0)
    return direction, distance


def move(
    state: dict[str, Any],
    c: dict[str, Any],
    direction: str,
    distance: int,
    what: str,
    *,
    card: str | None = None,
    dash: bool = False,
) -> bool:
    """Walk (§4.3) and record the ``moved`` event; the caller checks the final square.

    The event carries the §11.5 ``moved`` payload as ``move``: who, from, path, direction,
    distance, bounced, redirects, card and whether it was a dash (all public)."""
    start = c["position"]
    result = walk(state["board"], start, direction, distance, ninja=c["class"] == "ninja")
    path = result["path"]
    if path:
        c["position"] = list(path[-1])
    notes = ""
    if result["bounced"]:
        notes += " Active Reflex: it turns around."
    if result["redirects"]:
        notes += " Redirected at " + ", ".join(sq(p) for p in result["redirects"]) + "."
    payload = {
        "who": c["id"],
        "from": list(start),
        "path": [list(p) for p in path],
        "direction": direction,
        "distance": distance,
        "bounced": result["bounced"],
        "redirects": [list(p) for p in result["redirects"]],
        "card": card,
        "dash": dash,
    }
    if path:
        log(
            state,
            "moved",
            f"{c['id']} moves {direction} {distance} ({what}): "
            + " → ".join(sq(p) for p in path)
            + f", ending at {sq(c['position'])}.{notes}",
            move=payload,
        )
    else:
        log(
            state, "moved", f"{c['id']} cannot move {direction} ({what}) and stays at {sq(start)}.{notes}", move=payload
        )
    return bool(path)


def land(state: dict[str, Any], c: dict[str, Any]) -> None:
    """§4.5: only the final square counts."""
    board = state["board"]
    if c["position"] in board["exits"]:
        endings.escape(state, c)
    elif c["position"] in board["pits"]:
        endings.fall(state, c)


def move_with_card(state: dict[str, Any], c: dict[str, Any], card: str) -> None:
    """§4.1 step 5: move, discard the card, then check where the move ended."""
    direction, distance = card_move(state, c, card)
    moved = move(state, c, direction, distance, pretty(card), card=card)
    state["discard"].append(card)
    if moved:
        land(state, c)
    if state["status"] == "playing":
        end_turn(state)


def end_turn(state: dict[str, Any]) -> None:
    """§4.6, for the character whose turn it is; skipped if it left the board in its turn."""
    c = cast("dict[str, Any]", current(state))  # a turn is under way
    if c["status"] != "active":
        pass_turn(state)
        return
    if c["class"] == "healer":
        party.heal_at_end(state, c)
    if state["options"]["potion_roll"]:
        potion_roll(state, c)
    if hand_mode(state) and len(c["hand"]) > HAND_SIZE:
        state["phase"] = "awaiting_hand_discard"
        return
    finish_turn(state)


def discard_to_limit(state: dict[str, Any], c: dict[str, Any], cards: list[str]) -> None:
    need = len(c["hand"]) - HAND_SIZE
    if len(cards) != need:
        raise IllegalAction(f"discard exactly {need} card{'s' if need != 1 else ''}")
    if len(set(cards)) != len(cards):
        raise IllegalAction("name each card once")
    for card in cards:
        if card not in c["hand"]:
            raise IllegalAction(f"{pretty(card)} is not in your hand")
    for card in cards:
        c["hand"].remove(card)
        state["discard"].append(card)
    log(state, "hand_discarded", f"{c['id']} discards {pretty_list(cards)} down to the hand limit.")
    finish_turn(state)


def finish_turn(state: dict[str, Any]) -> None:
    """§4.6 step 4: unused effects expire; then play passes on."""
    c = cast("dict[str, Any]", current(state))  # a turn is under way
    if c["status"] == "active":
        c["active_effects"] = []
    pass_turn(state)


def potion_roll(state: dict[str, Any], c: dict[str, Any]) -> None:
    """§8.3: a d20, re-rolling 1s; 19 or 20 heals 1."""
    rolls = []
    while True:
        if state["rolls"]:
            roll = state["rolls"].pop(0)
        else:
            n = state["counters"]["d20"]
            state["counters"]["d20"] = n + 1
            roll = seeded_rng(state["seed"], "d20", n).randint(1, 20)
        rolls.append(roll)
        if roll != 1:
            break
    text = f"{c['id']} rolls for a potion: {', '.join(map(str, rolls))}"
    if roll >= 19:
        if c["lives"] < c["max_lives"]:
            c["lives"] += 1
            log(state, "potion_roll", f"{text}. A potion! Lives {c['lives']}/{c['max_lives']}.")
        else:
            log(state, "potion_roll", f"{text}. A potion, but lives are already full.")
    else:
        log(state, "potion_roll", f"{text}. Nothing.")


def pass_turn(state: dict[str, Any]) -> None:
    """§9.1, §7.4: the next active character in seat order; a new round when play wraps round."""
    if state["status"] != "playing":
        return
    ended = cast("dict[str, Any]", current(state))  # a turn is under way
    chars = active(state)
    if not chars:
        endings.all_gone(state)
        return
    seat = ended["seat_number"]
    after = [c for c in chars if c["seat_number"] > seat]
    nxt = after[0] if after else chars[0]
    turn = state["turn"]
    if nxt["seat_number"] <= seat:
        if turn["round_number"] + 1 > state["options"]["round_limit"]:
            endings.round_limit(state)
            return
        turn["round_number"] += 1
    begin_turn(state, nxt)
