"""Actions: their shapes (§11.3), who may send them when, and the legal list for a seat.

An action is ``{"type": name, **params}``. A malformed one (unknown type, a missing, unknown or
ill-typed parameter) raises ``InvalidAction``; a well-formed one the rules forbid raises
``IllegalAction``.

>>> parse({"type": "dash", "direction": "up"})
{'type': 'dash', 'direction': 'up'}
>>> parse({"type": "dash", "direction": "north-east"})
Traceback (most recent call last):
...
rules_engine.errors.InvalidAction: direction must be up, down, left, right or null
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ... import kit
from ...cards import Card, pretty
from ...errors import IllegalAction, InvalidAction
from . import combat, setup, turn_actions, turns
from .core import char, clone, current, sq, value
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


WORDING = kit.Wording(
    not_an_object="an action must be a dictionary with a type",
    missing=lambda kind, names: f"{kind} needs the parameter {names[0]}",
)


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


# --- the actions ----------------------------------------------------------------------------


def _join_game(state: dict[str, Any], seat: str, _p: dict[str, Any]) -> None:
    _need_status(state, "lobby")
    setup.join_game(state, seat)


def _choose_class(state: dict[str, Any], seat: str, p: dict[str, Any]) -> None:
    _need_status(state, "lobby")
    setup.choose_class(state, seat, p["class"])


def _update_options(state: dict[str, Any], seat: str, p: dict[str, Any]) -> None:
    _need_status(state, "lobby")
    _need_host(state, seat)
    setup.update_options(state, p["options"])


def _start_game(state: dict[str, Any], seat: str, _p: dict[str, Any]) -> None:
    _need_status(state, "lobby")
    _need_host(state, seat)
    setup.start_game(state)


def _leave_game(state: dict[str, Any], seat: str, _p: dict[str, Any]) -> None:
    if state["status"] in ("lobby", "setup"):
        setup.leave_before_start(state, seat)
    else:
        c = char(state, seat)
        if c["status"] != "active":
            raise IllegalAction("your character is no longer in the dungeon")
        turn_actions.leave_in_play(state, c)


def _choose_start(state: dict[str, Any], seat: str, p: dict[str, Any]) -> None:
    _need_status(state, "setup")
    _need_host(state, seat)
    setup.choose_start(state, p["square"])


def _place_marker(state: dict[str, Any], seat: str, p: dict[str, Any]) -> None:
    _need_status(state, "setup")
    _need_host(state, seat)
    setup.place_marker(state, p["kind"], p["square"])


def _draw_card(state: dict[str, Any], seat: str, _p: dict[str, Any]) -> None:
    turn_actions.draw_card(state, _need_turn(state, seat, "awaiting_turn_action"))


def _cast_spell(state: dict[str, Any], seat: str, p: dict[str, Any]) -> None:
    turn_actions.cast_spell(state, _need_turn(state, seat, "awaiting_turn_action"), p["spell"])


def _fortune_telling(state: dict[str, Any], seat: str, p: dict[str, Any]) -> None:
    turn_actions.fortune_telling(state, _need_turn(state, seat, "awaiting_fortune"), p["card"])


def _play_card(state: dict[str, Any], seat: str, p: dict[str, Any]) -> None:
    turn_actions.play_card(state, _need_turn(state, seat, "awaiting_play"), p["card"])


def _discard_to_limit(state: dict[str, Any], seat: str, p: dict[str, Any]) -> None:
    turns.discard_to_limit(state, _need_turn(state, seat, "awaiting_hand_discard"), p["cards"])


def _join_combat(state: dict[str, Any], seat: str, p: dict[str, Any]) -> None:
    c = _need_phase(state, "awaiting_join", "deciding whether to join a fight")
    if seat not in c["eligible_helpers"]:
        raise IllegalAction("only characters adjacent to the challenger may join the fight")
    if seat in c["join_answers"]:
        raise IllegalAction("you have already answered")
    combat.join(state, seat, p["join"])


def _combat_draw(state: dict[str, Any], seat: str, p: dict[str, Any]) -> None:
    c = _need_phase(state, "awaiting_combat_draw", "drawing for a fight")
    if seat != combat.lead(state):
        raise IllegalAction("only the lead fighter gives the signal to draw")
    if c["draw_signal"]:
        raise IllegalAction("the signal to draw has already been given")
    combat.combat_draw(state, seat, p.get("critical_hit", False))


def _draw_until_decided(state: dict[str, Any], seat: str, _p: dict[str, Any]) -> None:
    _need_phase(state, "awaiting_combat_draw", "drawing for a fight")
    if not combat.may_draw_until_decided(state, seat):
        raise IllegalAction("only the lead fighter draws on, and not while a Critical Hit is still to be decided")
    combat.draw_until_decided(state, seat)


def _critical_hit(state: dict[str, Any], seat: str, p: dict[str, Any]) -> None:
    _need_phase(state, "awaiting_combat_draw", "drawing for a fight")
    if seat != combat.rogue_to_ask(state):
        raise IllegalAction("no Critical Hit decision is awaited from you")
    combat.critical_hit(state, seat, p["use"])


def _choose_stat(state: dict[str, Any], seat: str, p: dict[str, Any]) -> None:
    c = _need_phase(state, "awaiting_reward", "choosing a reward")
    if seat not in c["pending_rewards"]:
        raise IllegalAction("no reward is owed to you")
    combat.choose_stat(state, seat, p["stat"])


def _dash(state: dict[str, Any], seat: str, p: dict[str, Any]) -> None:
    c = _need_phase(state, "awaiting_dash", "dashing")
    if seat != c["dash"]["athlete"]:
        raise IllegalAction("only the Athlete dashes")
    combat.dash(state, seat, p["direction"])


# --- the buttons' words (each label reads the parsed action) ------------------------------

Action = dict[str, Any]


def _class_label(_state: dict[str, Any], p: Action) -> str:
    return f"Play the {CLASSES[p['class']]['name']} ({CLASSES[p['class']]['ability']})"


def _marker_label(_state: dict[str, Any], p: Action) -> str:
    return f"Put {'an Exit' if p['kind'] == 'exit' else 'a Pit'} on {sq(p['square'])}"


def _fortune_label(_state: dict[str, Any], p: Action) -> str:
    return "Keep the cards" if p["card"] is None else f"Swap {pretty(p['card'])} for a new card"


def _play_label(state: dict[str, Any], p: Action) -> str:
    cur = current(state)
    if cur is None:
        return f"Play {pretty(p['card'])}"
    direction, distance = turns.card_move(state, cur, p["card"])
    return f"Play {pretty(p['card'])}: {direction} {distance}"


def _dash_label(state: dict[str, Any], p: Action) -> str:
    cb = state.get("combat")
    if p["direction"] is None:
        return "Don't dash"
    if cb and cb.get("dash"):
        return f"Dash {p['direction']} {value(cb['dash']['card'])}"
    return f"Dash {p['direction']}"


_Kind = kit.ActionKind[dict[str, Any]]

# Every action: its parameters (``kit.parse_action``), the handler that checks the actor and
# the phase, then carries it out on the state's private copy, and its button's words.
ACTIONS: dict[str, _Kind] = {
    "join_game": _Kind({}, _join_game, "Join the party"),
    "choose_class": _Kind({"class": CLASSES}, _choose_class, _class_label),
    "update_options": _Kind({"options": dict}, _update_options, "Change the options"),
    "start_game": _Kind({}, _start_game, "Start the game"),
    "leave_game": _Kind({}, _leave_game, "Leave the game"),
    "choose_start": _Kind({"square": _square}, _choose_start, lambda _s, p: f"Start on {sq(p['square'])}"),
    "place_marker": _Kind(
        {"kind": kit.Param(("exit", "pit"), "kind must be exit or pit"), "square": _square},
        _place_marker,
        _marker_label,
    ),
    "draw_card": _Kind({}, _draw_card, "Draw a card"),
    "cast_spell": _Kind({"spell": SPELLS}, _cast_spell, lambda _s, p: f"Cast {SPELLS[p['spell']]['name']}"),
    "fortune_telling": _Kind({"card": kit.Param(_card, nullable=True)}, _fortune_telling, _fortune_label),
    "play_card": _Kind({"card": _card}, _play_card, _play_label),
    "join_combat": _Kind(
        {"join": bool}, _join_combat, lambda _s, p: "Join the fight" if p["join"] else "Stay out of the fight"
    ),
    "combat_draw": _Kind(
        {"critical_hit": kit.Param(bool, optional=True)},
        _combat_draw,
        lambda _s, p: "Draw with a Critical Hit" if p.get("critical_hit") else "Draw",
    ),
    "draw_until_decided": _Kind({}, _draw_until_decided, "Draw until the fight is decided"),
    "critical_hit": _Kind(
        {"use": bool}, _critical_hit, lambda _s, p: "Use Critical Hit" if p["use"] else "Save Critical Hit"
    ),
    "choose_stat": _Kind(
        {"stat": kit.Param(STATS, "stat must be lives or speed")},
        _choose_stat,
        lambda _s, p: "+1 Lives" if p["stat"] == "lives" else "+1 Speed",
    ),
    "dash": _Kind(
        {"direction": kit.Param(DIRECTIONS, "direction must be up, down, left, right or null", nullable=True)},
        _dash,
        _dash_label,
    ),
    "discard_to_limit": _Kind(
        {"cards": _cards}, _discard_to_limit, lambda _s, p: "Discard " + ", ".join(pretty(c) for c in p["cards"])
    ),
}


def _refusal(state: dict[str, Any], seat: str, action: dict[str, Any]) -> str | None:
    """Who may send actions at all: a player (an outsider only to join), while the game runs."""
    if not isinstance(seat, str):
        raise InvalidAction("the seat must be a player name")
    if state["status"] == "finished":
        return "the game is over"
    if action["type"] == "join_game":
        if seat in state["players"]:
            return "you are already in the party"
    elif seat not in state["players"]:
        return "you are not a player in this game"
    return None


ENGINE = kit.Engine(
    actions=ACTIONS,
    wording=WORDING,
    refusal=_refusal,
    copy=clone,
    not_a_state="not a Dungeon Cards game",
    state_keys=("players", "status"),
    label_parsed=True,
)
parse = ENGINE.parse
"""The action with its parameters checked (an optional one left out stays out)."""


def do(state: dict[str, Any], seat: str, action: dict[str, Any]) -> None:
    """Carry out a parsed ``action`` of ``seat`` on ``state`` (a private copy), as a timeout does."""
    ACTIONS[action["type"]].handle(state, seat, action)


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
