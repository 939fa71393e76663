"""Play: ``new_game``, what may be done now (``legal_actions`` and the rules' refusals), and
every action declared once (parameters, handler and button label) in the ``kit.Engine`` that
gives ``apply``, ``dump``, ``load`` and ``action_label``.

>>> s = new_game(3, ["p1", "p2"], {"start_positions": {"p1": [5, 4], "p2": [5, 5]}})
>>> [action_label(s, a) for a in legal_actions(s, "p1")]
['Move west', 'Pick up the lantern', 'Attack p2 (east)', 'End turn', 'Leave the game']
"""

from __future__ import annotations

import random
from typing import Any, cast

from ... import kit
from ...errors import IllegalAction, InvalidAction
from ...grid import DIRECTION_NAMES, DIRECTIONS
from .state import (
    _WORDING,
    DIRECTION_ORDER,
    KIT,
    MAX_TIMEOUTS,
    STATE_KEYS,
    _check_options,
    _pos,
    _sees,
    max_players,
    min_players,
)
from .transaction import _Tx

# ---------------------------------------------------------------------------------------------
# Legality: one function per question, shared by apply and legal_actions


def new_game(seed: int, players: list[str], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A new game with ``players`` (seats, in join order) placed at random; the first seat moves.

    >>> s = new_game(1, ["p1"], {"start_positions": {"p1": [5, 5]}})
    >>> s["turn"], s["players"][0]["pos"], s["players"][0]["ap"]
    ({'seat': 'p1', 'number': 1}, [5, 5], 6)
    >>> new_game(1, ["p1"], {"colour": "red"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rules_engine.errors.InvalidAction: unknown option(s): colour (known: map, random_map, max_players, ...)
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise InvalidAction("the seed must be an integer (or a string)")
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) and p for p in players):
        raise InvalidAction("players must be a list of seat names")
    if not min_players <= len(players) <= max_players:
        raise InvalidAction(f"the game needs {min_players} to {max_players} players")
    if len(set(players)) != len(players):
        raise InvalidAction("a seat cannot be taken twice")
    opts, dungeon = _check_options(options, list(players), seed)
    state = {
        "seed": seed,
        "step": 0,
        "options": opts,
        "map": dungeon.as_state(),
        "players": [],
        "turn": None,
        "dice_used": 0,
        "events": [],
        "result": None,
    }
    tx = _Tx(state, step=0)
    rng = random.Random(f"{seed}:setup")  # 10.4
    for seat in players:
        problem = tx.place(seat, rng)
        if problem:
            raise InvalidAction(f"cannot place {seat}: {problem}")
    tx.event("game_started", None, order=list(players))
    tx.sight_events()
    tx.begin_turn(players[0], 1)
    return tx.finish()


def _find(state: dict[str, Any], seat: str) -> dict[str, Any] | None:
    p: dict[str, Any]
    for p in state["players"]:
        if p["seat"] == seat:
            return p
    return None


def _occupant(state: dict[str, Any], pos: tuple[int, int]) -> dict[str, Any] | None:
    p: dict[str, Any]
    for p in state["players"]:
        if p["status"] == "alive" and p["pos"][0] == pos[0] and p["pos"][1] == pos[1]:
            return p
    return None


def _item_at(state: dict[str, Any], pos: tuple[int, int]) -> dict[str, Any] | None:
    item: dict[str, Any]
    for item in state["map"]["items"]:
        if item["pos"][0] == pos[0] and item["pos"][1] == pos[1]:
            return item
    return None


def _acting_problem(state: dict[str, Any], p: dict[str, Any] | None) -> str | None:
    """Why this seat may not take a turn action now (None if it may)."""
    if state["result"] is not None:
        return "the game is over"
    if p is None:
        return "you are not playing in this game"
    if p["status"] != "alive":
        return "you have left the game" if p["cause"] in ("left", "disconnected", "idle") else "you are dead"
    if state["turn"]["seat"] != p["seat"]:
        return f"it is not your turn (it is {state['turn']['seat']}'s)"
    return None


def _target(state: dict[str, Any], p: dict[str, Any], direction: str) -> tuple[tuple[int, int], bool]:
    dr, dc = DIRECTIONS[direction]
    r, c = p["pos"][0] + dr, p["pos"][1] + dc
    m = state["map"]
    on_map = 0 <= r < m["height"] and 0 <= c < m["width"]
    return (r, c), on_map


def _move_problem(state: dict[str, Any], p: dict[str, Any], direction: str) -> str | None:
    pos, on_map = _target(state, p, direction)
    where = DIRECTION_NAMES[direction]
    if not on_map:
        return f"you cannot move {where}: the edge of the map is a wall"
    if state["map"]["terrain"][pos[0]][pos[1]] == "#":
        return f"you cannot move {where}: there is a wall"
    other = _occupant(state, pos)
    if other is not None:
        return f"you cannot move {where}: {other['seat']} is standing there"
    return None


_ARTICLE = {"sword": "a sword", "armour": "armour", "lantern": "a lantern"}


def _pickup_problem(state: dict[str, Any], p: dict[str, Any]) -> str | None:
    item = _item_at(state, _pos(p))
    if item is None:
        return "there is nothing here to pick up"
    if item["kind"] in KIT and item["kind"] in p["kit"]:
        return f"you already carry {_ARTICLE[item['kind']]}"  # ruling 11
    return None


def _attack_problem(state: dict[str, Any], p: dict[str, Any], direction: str) -> str | None:
    pos, on_map = _target(state, p, direction)
    if not on_map or _occupant(state, pos) is None:
        return f"there is nobody to attack to the {DIRECTION_NAMES[direction]}"  # ruling 12
    return None


def _join_problem(state: dict[str, Any], seat: str) -> str | None:
    if state["result"] is not None:
        return "the game is over"
    p = _find(state, seat)
    if p is not None:
        if p["status"] == "alive":
            return "you are already playing"
        return "a seat that has died or left cannot come back"  # ruling 27
    alive = [q for q in state["players"] if q["status"] == "alive"]
    table = state["options"]["max_players"]
    if len(alive) >= table:
        return f"the table is full ({table} living players)"
    occupied = {_pos(q) for q in alive}
    forced = state["options"]["start_positions"]
    if seat in forced:
        if tuple(forced[seat]) in occupied:
            return "the forced start tile is occupied"
        return None
    seated = {q["seat"] for q in state["players"]}
    blocked = occupied | {(v[0], v[1]) for s, v in forced.items() if s not in seated and s != seat}
    m = state["map"]
    walkable = m["width"] * m["height"] - sum(row.count("#") for row in m["terrain"])
    if walkable <= len(blocked):
        return "there is no free tile"
    return None


def legal_actions(state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
    """Every player action ``apply`` accepts for ``seat`` now (never ``timeout``/``drop``).

    >>> s = new_game(3, ["p1", "p2"], {"start_positions": {"p1": [5, 5], "p2": [7, 5]}})
    >>> [a["type"] + a.get("dir", "") for a in legal_actions(s, "p1")]
    ['moveN', 'moveE', 'moveS', 'moveW', 'end_turn', 'leave']
    >>> legal_actions(s, "p2"), legal_actions(s, "p3")
    ([{'type': 'leave'}], [{'type': 'join'}])
    """
    if state["result"] is not None:
        return []
    p = _find(state, seat)
    if p is None:
        return [{"type": "join"}] if isinstance(seat, str) and seat and _join_problem(state, seat) is None else []
    if p["status"] != "alive":
        return []
    if state["turn"]["seat"] != seat:
        return [{"type": "leave"}]
    actions = [{"type": "move", "dir": d} for d in DIRECTION_ORDER if _move_problem(state, p, d) is None]
    if _pickup_problem(state, p) is None:
        actions.append({"type": "pickup"})
    actions += [{"type": "attack", "dir": d} for d in DIRECTION_ORDER if _attack_problem(state, p, d) is None]
    actions += [{"type": "end_turn"}, {"type": "leave"}]
    return actions


# ---------------------------------------------------------------------------------------------
# Apply


def _refusal(state: dict[str, Any], seat: str, action: dict[str, Any]) -> str | None:
    """Why ``seat`` may not take ``action`` now (the rules' words), or None."""
    if not isinstance(seat, str) or not seat:
        raise InvalidAction("the seat must be a non-empty string")
    kind = action["type"]
    if kind == "join":
        return _join_problem(state, seat)
    p = _find(state, seat)
    if kind in ("leave", "drop"):
        if state["result"] is not None:
            return "the game is over"
        if p is None:
            return "you are not playing in this game"
        return _acting_problem(state, p) if p["status"] != "alive" else None
    problem = _acting_problem(state, p)
    if problem:
        if kind == "timeout" and problem.startswith("it is not"):
            return "only the player whose turn it is can time out"
        return problem
    p = cast("dict[str, Any]", p)  # _acting_problem refused a None
    if kind == "move":
        return _move_problem(state, p, action["dir"])
    if kind == "pickup":
        return _pickup_problem(state, p)
    if kind == "attack":
        return _attack_problem(state, p, action["dir"])
    return None


def _do_join(tx: _Tx, seat: str, action: dict[str, Any]) -> None:
    problem = tx.place(seat, tx.rng())
    if problem:  # pragma: no cover - _join_problem already refused it
        raise IllegalAction(problem)
    tx.event("joined", None, seat=seat)
    tx.sight_events()


def _do_leave(tx: _Tx, seat: str, action: dict[str, Any]) -> None:
    tx.kill(seat, "left" if action["type"] == "leave" else "disconnected")


def _do_move(tx: _Tx, seat: str, action: dict[str, Any]) -> None:
    p = tx.edit(seat)
    dr, dc = DIRECTIONS[action["dir"]]
    p["pos"] = [p["pos"][0] + dr, p["pos"][1] + dc]
    p["ap"] -= 1
    p["timeouts"] = 0
    tx.moved.add(seat)
    tx.sight_events()
    if not tx.check_win(seat):
        tx.after_own_action(seat)


def _do_pickup(tx: _Tx, seat: str, action: dict[str, Any]) -> None:
    p = tx.edit(seat)
    pos = _pos(p)
    item = tx.items()[pos]
    kind, amount = item["kind"], item["amount"]
    tx.set_item(pos, None)
    p["timeouts"] = 0
    if kind == "potion":
        p["ap"] = 0  # uses every AP left, even if only 1 (ruling 9)
        p["hp"] += 1  # no maximum (ruling 8)
    else:
        p["ap"] -= 1
    tx.event("picked_up", [seat], item=kind, amount=amount, ap=p["ap"])
    if kind == "gold":
        p["gold"] += amount  # the whole pile (ruling 10)
        tx.event("gold_changed", [seat], delta=amount, gold=p["gold"])
    elif kind == "potion":
        tx.event("hp_changed", [seat], delta=1, hp=p["hp"])
    else:
        p["kit"] = sorted(p["kit"] + [kind])
    for other in tx.alive():
        if other["seat"] != seat and _sees(other, pos):
            tx.event("item_taken", [other["seat"]], seat=seat, item=kind)
    if kind == "lantern":
        tx.moved.add(seat)  # wider sight at once (ruling 16)
        tx.sight_events()
    if not tx.check_win(seat):
        tx.after_own_action(seat)


def _do_attack(tx: _Tx, seat: str, action: dict[str, Any]) -> None:
    direction = action["dir"]
    attacker = tx.edit(seat)
    target_pos, _ = _target(tx.state, attacker, direction)
    target_seat = next(q["seat"] for q in tx.alive() if q["pos"][0] == target_pos[0] and q["pos"][1] == target_pos[1])
    target = tx.edit(target_seat)
    dice, used = tx.state["options"]["dice"], tx.state["dice_used"]
    if used < len(dice):
        roll = dice[used]
        tx.state["dice_used"] = used + 1
    else:
        roll = tx.rng().randint(1, 4)
    hit = roll <= 3  # a d4: 1-3 hit (ruling 15)
    damage = max(0, 1 + ("sword" in attacker["kit"]) - ("armour" in target["kit"])) if hit else 0
    attacker["ap"] = 0  # all remaining AP, hit or miss (ruling 13)
    attacker["timeouts"] = 0
    hp = max(0, target["hp"] - damage)
    data = {"attacker": seat, "target": target_seat, "dir": direction, "hit": hit, "damage": damage}
    tx.event("attack", [seat], **data)
    tx.event("attack", [target_seat], **data, hp=hp)
    for other in tx.alive():
        if other["seat"] not in (seat, target_seat) and (_sees(other, attacker["pos"]) or _sees(other, target_pos)):
            tx.event("attack_seen", [other["seat"]], attacker=seat, target=target_seat, hit=hit)
    if hp != target["hp"]:
        tx.event("hp_changed", [target_seat], delta=hp - target["hp"], hp=hp)
        target["hp"] = hp
    if hp <= 0:
        tx.kill(target_seat, "slain")
    tx.pass_turn()


def _do_end_turn(tx: _Tx, seat: str, action: dict[str, Any]) -> None:
    tx.edit(seat)["timeouts"] = 0
    tx.pass_turn()


def _do_timeout(tx: _Tx, seat: str, action: dict[str, Any]) -> None:
    p = tx.edit(seat)
    p["timeouts"] += 1
    tx.event("timed_out", None, seat=seat)
    if p["timeouts"] >= MAX_TIMEOUTS:
        tx.kill(seat, "idle")  # three in a row (4.2)
    else:
        tx.pass_turn()


# --- the buttons' words (each action's label, in the state it is taken in) ------------------


def _mover(state: dict[str, Any]) -> dict[str, Any] | None:
    turn = state["turn"]
    return _find(state, turn["seat"]) if turn is not None else None


def _where(action: dict[str, Any]) -> str:
    direction = action.get("dir")
    return DIRECTION_NAMES.get(direction, "") if isinstance(direction, str) else ""


def _move_label(_state: dict[str, Any], action: dict[str, Any]) -> str:
    return f"Move {_where(action)}"


def _pickup_label(state: dict[str, Any], _action: dict[str, Any]) -> str:
    p = _mover(state)
    item = _item_at(state, _pos(p)) if p is not None else None
    if item is None:
        return "Pick up"
    if item["kind"] == "gold":
        return f"Pick up {item['amount']} gold"
    if item["kind"] == "potion":
        return "Drink the health potion"
    return f"Pick up the {item['kind']}"


def _attack_label(state: dict[str, Any], action: dict[str, Any]) -> str:
    p = _mover(state)
    direction = action.get("dir")
    target = None
    if p is not None and isinstance(direction, str) and direction in DIRECTIONS:
        pos, on_map = _target(state, p, direction)
        target = _occupant(state, pos) if on_map else None
    where = _where(action)
    return f"Attack {target['seat']} ({where})" if target is not None else f"Attack {where}"


_DIRECTION = kit.Param(DIRECTION_ORDER, "{value!r} is not a direction: use N, E, S or W")
_Kind = kit.ActionKind[_Tx]

# Every action: its parameters (``kit.parse_action``), what carries it out and its button's
# words. timeout and drop are applied by the web layer only (10.3).
ACTIONS: dict[str, _Kind] = {
    "move": _Kind({"dir": _DIRECTION}, _do_move, _move_label),
    "pickup": _Kind({}, _do_pickup, _pickup_label),
    "attack": _Kind({"dir": _DIRECTION}, _do_attack, _attack_label),
    "end_turn": _Kind({}, _do_end_turn, "End turn"),
    "leave": _Kind({}, _do_leave, "Leave the game"),
    "join": _Kind({}, _do_join, "Join the game"),
    "timeout": _Kind({}, _do_timeout, "Time out"),
    "drop": _Kind({}, _do_leave, "Remove (connection lost)"),
}


def _begin(state: dict[str, Any]) -> _Tx:
    return _Tx(state, step=state["step"] + 1)


def _finish(tx: _Tx, _action: dict[str, Any]) -> dict[str, Any]:
    return tx.finish()


_ENGINE = kit.Engine(
    actions=ACTIONS,
    wording=_WORDING,
    refusal=_refusal,
    copy=_begin,
    finish=_finish,
    not_a_state="this is not a saved Dungeon of Doom game",
    state_keys=STATE_KEYS,
    exact_keys=True,
)
apply = _ENGINE.apply
dump = _ENGINE.dump
load = _ENGINE.load
action_label = _ENGINE.action_label
