"""Actions: their shapes (§11.3), who may send them when, and the legal list for a seat.

An action is ``{"type": name, **params}``. A malformed one (unknown type, a missing, unknown or
ill-typed parameter) raises ``InvalidAction``; a well-formed one the rules forbid raises
``IllegalAction``.

>>> parse({"type": "dash", "direction": "up"})
('dash', {'direction': 'up'})
>>> parse({"type": "dash", "direction": "north-east"})
Traceback (most recent call last):
...
rules_engine.errors.InvalidAction: direction must be up, down, left, right or null
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ... import kit
from ...cards import Card
from ...errors import IllegalAction, InvalidAction
from . import combat, party, setup, turns
from .core import char, current
from .data import CLASSES, HAND_SIZE, SPELLS, STATS

DIRECTIONS = ("up", "down", "left", "right")


def _card(name: str, v: object) -> str:
    if not isinstance(v, str):
        raise InvalidAction(f'{name} must be a card code such as "7H"')
    code = v.strip().upper()
    card = Card.parse(code)
    if card.is_joker:
        raise InvalidAction("the jokers are board markers, never cards in play")
    return code


def _cards(name: str, v: object) -> list[str]:
    if not isinstance(v, (list, tuple)):
        raise InvalidAction(f"{name} must be a list of card codes")
    return [_card(name, x) for x in v]


def _square(name: str, v: object) -> list[int]:
    if not isinstance(v, (list, tuple)) or len(v) != 2 or not all(type(x) is int for x in v):
        raise InvalidAction(f"{name} must be a square [x, y]")
    return [v[0], v[1]]


# The parameters of each action (``kit.parse_action``).
ACTIONS: dict[str, dict[str, kit.Spec]] = {
    "join_game": {},
    "choose_class": {"class": CLASSES},
    "update_options": {"options": dict},
    "start_game": {},
    "leave_game": {},
    "choose_start": {"square": _square},
    "place_marker": {"kind": kit.Param(("exit", "pit"), "kind must be exit or pit"), "square": _square},
    "draw_card": {},
    "cast_spell": {"spell": SPELLS},
    "fortune_telling": {"card": kit.Param(_card, nullable=True)},
    "play_card": {"card": _card},
    "join_combat": {"join": bool},
    "combat_draw": {"critical_hit": kit.Param(bool, optional=True)},
    "draw_until_decided": {},
    "critical_hit": {"use": bool},
    "choose_stat": {"stat": kit.Param(STATS, "stat must be lives or speed")},
    "dash": {"direction": kit.Param(DIRECTIONS, "direction must be up, down, left, right or null", nullable=True)},
    "discard_to_limit": {"cards": _cards},
}
_WORDING = kit.Wording(
    not_an_object="an action must be a dictionary with a type",
    missing=lambda kind, names: f"{kind} needs the parameter {names[0]}",
)


def parse(action: object) -> tuple[str, dict[str, Any]]:
    """The action's type and its checked parameters (an optional one left out stays out)."""
    params = kit.parse_action(action, ACTIONS, _WORDING)
    return params.pop("type"), params


# --- who may act ----------------------------------------------------------------------------


def _need_status(state: dict[str, Any], *statuses: str) -> None:
    if state["status"] not in statuses:
        if state["status"] == "lobby":
            raise IllegalAction("the game has not started yet")
        raise IllegalAction("the game has already started" if "lobby" in statuses else "that is not possible now")


def _need_host(state: dict[str, Any], seat: str) -> None:
    if seat != state["host"]:
        raise IllegalAction("only the host can do that")


def _need_turn(state: dict[str, Any], seat: str, *phases: str) -> dict[str, Any]:
    _need_status(state, "playing")
    if state["turn"]["current"] != seat:
        raise IllegalAction("it is not your turn")
    if state["phase"] not in phases:
        raise IllegalAction("that is not possible at this point of your turn")
    return char(state, seat)


def _need_phase(state: dict[str, Any], phase: str, what: str) -> dict[str, Any]:
    _need_status(state, "playing")
    if state["phase"] != phase:
        raise IllegalAction(f"nobody is {what} now")
    combat: dict[str, Any] = state["combat"]
    return combat


def do(state: dict[str, Any], seat: str, kind: str, p: dict[str, Any]) -> None:
    """Check the actor and phase, then carry the action out on ``state`` (a private copy)."""
    if kind == "join_game":
        _need_status(state, "lobby")
        setup.join_game(state, seat)
    elif kind == "choose_class":
        _need_status(state, "lobby")
        setup.choose_class(state, seat, p["class"])
    elif kind == "update_options":
        _need_status(state, "lobby")
        _need_host(state, seat)
        setup.update_options(state, p["options"])
    elif kind == "start_game":
        _need_status(state, "lobby")
        _need_host(state, seat)
        setup.start_game(state)
    elif kind == "leave_game":
        if state["status"] in ("lobby", "setup"):
            setup.leave_before_start(state, seat)
        else:
            c = char(state, seat)
            if c["status"] != "active":
                raise IllegalAction("your character is no longer in the dungeon")
            party.leave_in_play(state, c)
    elif kind == "choose_start":
        _need_status(state, "setup")
        _need_host(state, seat)
        setup.choose_start(state, p["square"])
    elif kind == "place_marker":
        _need_status(state, "setup")
        _need_host(state, seat)
        setup.place_marker(state, p["kind"], p["square"])
    elif kind == "draw_card":
        turns.draw_card(state, _need_turn(state, seat, "awaiting_turn_action"))
    elif kind == "cast_spell":
        party.cast_spell(state, _need_turn(state, seat, "awaiting_turn_action"), p["spell"])
    elif kind == "fortune_telling":
        turns.fortune_telling(state, _need_turn(state, seat, "awaiting_fortune"), p["card"])
    elif kind == "play_card":
        turns.play_card(state, _need_turn(state, seat, "awaiting_play"), p["card"])
    elif kind == "discard_to_limit":
        turns.discard_to_limit(state, _need_turn(state, seat, "awaiting_hand_discard"), p["cards"])
    elif kind == "join_combat":
        c = _need_phase(state, "awaiting_join", "deciding whether to join a fight")
        if seat not in c["eligible_helpers"]:
            raise IllegalAction("only characters adjacent to the challenger may join the fight")
        if seat in c["join_answers"]:
            raise IllegalAction("you have already answered")
        combat.join(state, seat, p["join"])
    elif kind == "combat_draw":
        c = _need_phase(state, "awaiting_combat_draw", "drawing for a fight")
        if seat != combat.lead(state):
            raise IllegalAction("only the lead fighter gives the signal to draw")
        if c["draw_signal"]:
            raise IllegalAction("the signal to draw has already been given")
        combat.combat_draw(state, seat, p.get("critical_hit", False))
    elif kind == "draw_until_decided":
        _need_phase(state, "awaiting_combat_draw", "drawing for a fight")
        if not combat.may_draw_until_decided(state, seat):
            raise IllegalAction("only the lead fighter draws on, and not while a Critical Hit is still to be decided")
        combat.draw_until_decided(state, seat)
    elif kind == "critical_hit":
        _need_phase(state, "awaiting_combat_draw", "drawing for a fight")
        if seat != combat.rogue_to_ask(state):
            raise IllegalAction("no Critical Hit decision is awaited from you")
        combat.critical_hit(state, seat, p["use"])
    elif kind == "choose_stat":
        c = _need_phase(state, "awaiting_reward", "choosing a reward")
        if seat not in c["pending_rewards"]:
            raise IllegalAction("no reward is owed to you")
        combat.choose_stat(state, seat, p["stat"])
    elif kind == "dash":
        c = _need_phase(state, "awaiting_dash", "dashing")
        if seat != c["dash"]["athlete"]:
            raise IllegalAction("only the Athlete dashes")
        combat.dash(state, seat, p["direction"])
    else:  # pragma: no cover
        raise AssertionError(kind)


# --- legal actions --------------------------------------------------------------------------


def legal(state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
    status = state["status"]
    if status == "finished":
        return []
    players = state["players"]
    if seat not in players:
        if status == "lobby" and len(players) < 5:
            return [{"type": "join_game"}]
        return []
    out: list[dict[str, Any]] = []
    if status == "lobby":
        taken = {c for p, c in state["classes"].items() if p != seat and c}
        for cls in CLASSES:
            if cls not in taken and setup.class_problem(cls, len(players)) is None:
                out.append({"type": "choose_class", "class": cls})
        if seat == state["host"] and all(state["classes"].get(p) for p in players):
            try:
                setup.validate_start(state)
                out.append({"type": "start_game"})
            except IllegalAction:
                pass
        out.append({"type": "leave_game"})
        return out
    if status == "setup":
        if seat == state["host"]:
            board = state["board"]
            if board["start"] is None:
                out += [{"type": "choose_start", "square": s} for s in setup.start_candidates(state)]
            else:
                kind = setup.next_marker_kind(state)
                out += [{"type": "place_marker", "kind": kind, "square": s} for s in setup.marker_candidates(state)]
        out.append({"type": "leave_game"})
        return out
    c = char(state, seat)
    if c["status"] != "active":
        return []
    phase = state["phase"]
    cur = current(state)
    if cur is c:
        if phase == "awaiting_turn_action":
            out.append({"type": "draw_card"})
            if c["class"] == "mage":
                out += [
                    {"type": "cast_spell", "spell": s}
                    for s, d in SPELLS.items()
                    if not d["hand_mode_only"] or turns.hand_mode(state)
                ]
        elif phase == "awaiting_fortune":
            options = c["hand"] if turns.hand_mode(state) else [state["turn"]["movement_card"]]
            out += [{"type": "fortune_telling", "card": card} for card in options]
            out.append({"type": "fortune_telling", "card": None})
        elif phase == "awaiting_play":
            out += [{"type": "play_card", "card": card} for card in c["hand"]]
        elif phase == "awaiting_hand_discard":
            n = len(c["hand"]) - HAND_SIZE
            out += [{"type": "discard_to_limit", "cards": list(cards)} for cards in combinations(c["hand"], n)]
    cb = state["combat"]
    if cb is not None:
        if phase == "awaiting_join" and seat in cb["eligible_helpers"] and seat not in cb["join_answers"]:
            out += [{"type": "join_combat", "join": True}, {"type": "join_combat", "join": False}]
        elif phase == "awaiting_combat_draw":
            if seat == combat.lead(state) and not cb["draw_signal"]:
                out.append({"type": "combat_draw", "critical_hit": False})
                if c["class"] == "rogue" and not cb["crit_used"]:
                    out.append({"type": "combat_draw", "critical_hit": True})
            if combat.may_draw_until_decided(state, seat):
                out.append({"type": "draw_until_decided"})
            if seat == combat.rogue_to_ask(state):
                out += [{"type": "critical_hit", "use": True}, {"type": "critical_hit", "use": False}]
        elif phase == "awaiting_reward" and seat in cb["pending_rewards"]:
            out += [{"type": "choose_stat", "stat": s} for s in STATS]
        elif phase == "awaiting_dash" and seat == cb["dash"]["athlete"]:
            out += [{"type": "dash", "direction": d} for d in DIRECTIONS]
            out.append({"type": "dash", "direction": None})
    out.append({"type": "leave_game"})
    return out


def awaiting(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Whose input is needed now and for what (§11.5 ``awaiting``): ``[{seat, actions}]``."""
    out = []
    for seat in state["players"]:
        kinds = []
        for a in legal(state, seat):
            if a["type"] != "leave_game" and a["type"] not in kinds:
                kinds.append(a["type"])
        if kinds and not (state["status"] == "lobby" and kinds == ["choose_class"] and state["classes"].get(seat)):
            out.append({"seat": seat, "actions": kinds})
    return out
