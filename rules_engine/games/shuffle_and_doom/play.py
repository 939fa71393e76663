"""Play: ``legal_actions``, the working copy, and every action declared once (parameters and
handler) in the ``kit.Engine`` that gives ``apply``, ``dump`` and ``load``."""

from __future__ import annotations

from typing import Any

from ... import kit
from ...cards import pretty, pretty_all
from ...errors import IllegalAction
from ...grid import DIRECTION_NAMES, DIRECTIONS, in_bounds, step
from . import labels
from .data import _WORDING, PHASES, RUNNING, SETS, STATS, _card, _cell_pair, _join, _red, _suit, cell_name
from .rooms import (
    _collect,
    _damage,
    _empty_room,
    _enc_cards,
    _end,
    _enter,
    _gain,
    _intelligence,
    _opener_allowed,
    _retreat_modes,
    _retreat_targets,
    _settle,
)
from .setup import _advance_setup, _compute_map, _finish_setup, _set_stats

# --------------------------------------------------------------------------------------------
# Contract


def legal_actions(state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
    """Every action ``apply`` accepts now, in a stable order (moves N, E, S, W first)."""
    s = state
    if seat != s["seat"] or s["phase"] == "over":
        return []
    phase = s["phase"]
    out: list[dict[str, Any]] = []
    if phase == "swap":
        for name in SETS:
            cards = s[name]
            for i in range(len(cards)):
                for j in range(i + 1, len(cards)):
                    if _red(cards[i]) != _red(cards[j]):
                        out.append({"type": "swap_headers", "set": name, "i": i + 1, "j": j + 1})
        return out
    if phase == "choose_set":
        return [{"type": "choose_stat_set", "set": name} for name in SETS]
    if phase == "assign_diamonds":
        return [
            {"type": "assign_diamond_bonus", "card": code, "stat": stat} for code in s["diamonds"] for stat in STATS
        ]
    n = s["size"]
    if phase == "explore":
        r, c = s["position"]
        for d in DIRECTIONS:
            if in_bounds(step((r, c), d), rows=n, cols=n, first=1):
                out.append({"type": "move", "dir": d})
        if [r, c] == [n, n]:
            out.append({"type": "exit"})
    elif phase == "combat":
        out += [{"type": "attack", "card": card["code"]} for card in _enc_cards(s, "enemy")]
        if _opener_allowed(s):
            out += [{"type": "use_trap_opener", "card": card["code"]} for card in _enc_cards(s, "potion", "gold")]
    elif phase == "traps":
        wits = _intelligence(s)
        out += [{"type": "deactivate", "card": card["code"]} for card in _enc_cards(s, "trap") if wits >= card["value"]]
        out += [{"type": "take", "card": card["code"]} for card in _enc_cards(s, "potion", "gold")]
    if phase in ("combat", "traps"):
        modes = _retreat_modes(s)
        if modes:
            targets = _retreat_targets(s)
            for keep in modes:
                for to in targets:
                    retreat = {"type": "retreat", "to": list(to)}
                    out.append({**retreat, "keep": True} if keep else retreat)
    for card in s["hand"]:
        out.append({"type": "drink" if card["kind"] == "potion" else "read", "card": card["code"]})
    return out


def _thaw(state: dict[str, Any]) -> dict[str, Any]:
    """A working copy: fresh containers for everything an action may change (copy-on-write)."""
    s = dict(state)
    for key in (
        "top",
        "side",
        "swap_checks",
        "diamonds",
        "room_status",
        "room_order",
        "hand",
        "gold_pile",
        "suspended",
        "draw",
        "returned",
        "log",
    ):
        s[key] = list(state[key])
    s["stats"] = dict(state["stats"])
    if state["position"] is not None:
        s["position"] = list(state["position"])
    enc = state["encounter"]
    if enc is not None:
        s["encounter"] = {**enc, "cards": [dict(card) for card in enc["cards"]]}
    s["options"] = dict(state["options"])
    return s


def _refusal(state: dict[str, Any], seat: str, _action: dict[str, Any]) -> str | None:
    if seat != state["seat"]:
        return "That seat does not play this game."
    if state["phase"] == "over":
        return "The game is over."
    return None


def _after_action(s: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    s["actions"] += 1
    if action["type"] in _NON_FREE:
        stats = s["stats"]
        if stats["ward"] or stats["temp_intelligence"]:
            # Section 9: temporary boosts end with the next non-free action, after its effects.
            stats["ward"] = 0
            stats["temp_intelligence"] = 0
            if s["phase"] != "over":
                s["log"].append("Your temporary boosts fade.")
    return s


def _need_phase(s: dict[str, Any], *phases: str, what: str) -> None:
    phase = s["phase"]
    if phase in phases:
        return
    if phase in ("swap", "choose_set", "assign_diamonds"):
        raise IllegalAction(f"Finish the setup before you {what}.")
    reasons = {
        "explore": "there is no encounter here",
        "combat": "enemies remain in the room",
        "traps": "active traps remain in the room",
    }
    raise IllegalAction(f"You cannot {what} now: {reasons[phase]}.")


def _do_swap(s: dict[str, Any], _seat: str, a: dict[str, Any]) -> None:
    if s["phase"] != "swap":
        raise IllegalAction("No header swap is required now.")
    n = s["size"]
    i, j = a["i"], a["j"]
    if not (1 <= i <= n and 1 <= j <= n):
        raise IllegalAction(f"Positions must be from 1 to {n}.")
    cards = s[a["set"]]
    if _red(cards[i - 1]) == _red(cards[j - 1]):
        raise IllegalAction(
            f"{pretty(cards[i - 1])} and {pretty(cards[j - 1])} have the same colour: swap cards of different colours."
        )
    cards[i - 1], cards[j - 1] = cards[j - 1], cards[i - 1]
    _compute_map(s)
    s["log"].append(
        f"You swap {pretty(cards[j - 1])} and {pretty(cards[i - 1])} in the {a['set']} set: "
        f"{pretty_all(cards, joiner=' ')}."
    )
    s["swap_checks"].pop(0)
    _advance_setup(s)


def _do_choose(s: dict[str, Any], _seat: str, a: dict[str, Any]) -> None:
    if s["phase"] == "swap":
        raise IllegalAction("Swap two header cards first.")
    if s["phase"] != "choose_set":
        raise IllegalAction("The stat set has already been chosen.")
    name = a["set"]
    stats = _set_stats(s, name)
    s["stats"].update(stats)
    s["chosen_set"] = name
    s["diamonds"] = [code for code in s[name] if _suit(code) == "D"]
    s["log"].append(
        f"You choose the {name} set: health {stats['health']}, attack {stats['attack']}, "
        f"intelligence {stats['intelligence']}."
    )
    if s["diamonds"]:
        s["phase"] = "assign_diamonds"
    else:
        _finish_setup(s)


def _do_assign(s: dict[str, Any], _seat: str, a: dict[str, Any]) -> None:
    if s["phase"] != "assign_diamonds":
        raise IllegalAction("There is no diamond bonus to assign now.")
    code, stat = a["card"], a["stat"]
    if code not in s["diamonds"]:
        raise IllegalAction(f"{pretty(code)} is not a diamond of the chosen set still to assign.")
    if stat not in STATS:
        raise IllegalAction("A diamond bonus goes to health, attack or intelligence, never to gold.")
    s["diamonds"].remove(code)
    s["stats"][stat] += 1
    s["log"].append(f"{pretty(code)} gives +1 {stat}: now {s['stats'][stat]}.")
    if not s["diamonds"]:
        _finish_setup(s)


def _do_move(s: dict[str, Any], _seat: str, a: dict[str, Any]) -> None:
    _need_phase(s, "explore", what="move")
    n = s["size"]
    r, c = step(tuple(s["position"]), a["dir"])
    if not in_bounds((r, c), rows=n, cols=n, first=1):
        raise IllegalAction(f"You cannot step off the map (the way out is the exit at {cell_name((n, n))}).")
    s["position"] = [r, c]
    s["log"].append(f"You move {DIRECTION_NAMES[a['dir']]} to {cell_name((r, c))}.")
    _enter(s, r, c)


def _hand_card(s: dict[str, Any], code: str, kind: str) -> int:
    for idx, card in enumerate(s["hand"]):
        if card["code"] == code and card["kind"] == kind:
            return idx
    raise IllegalAction(f"{pretty(code)} is not a {kind} in your hand.")


def _do_drink_or_read(s: dict[str, Any], _seat: str, a: dict[str, Any]) -> None:
    drink = a["type"] == "drink"
    _need_phase(s, *RUNNING, what="drink" if drink else "read")
    idx = _hand_card(s, a["card"], "potion" if drink else "book")
    card = s["hand"].pop(idx)
    gain = _gain(s, card)
    stats = s["stats"]
    temporary = s["options"]["temporary_consumables"]
    if drink:
        stat = "ward" if temporary else "health"
    else:
        stat = "temp_intelligence" if temporary else "intelligence"
    stats[stat] += gain
    s["returned"].append(card["code"])
    verb = "drink" if drink else "read"
    s["log"].append(f"You {verb} {pretty(card['code'])}: {stat.replace('_', ' ')} +{gain}, now {stats[stat]}.")


def _enc_card(s: dict[str, Any], code: str, roles: tuple[str, ...], what: str) -> dict[str, Any]:
    card: dict[str, Any]
    for card in s["encounter"]["cards"] if s["encounter"] else []:
        if card["code"] == code and card["role"] in roles:
            return card
    raise IllegalAction(f"{pretty(code)} is not {what} in this room.")


def _remove(s: dict[str, Any], cards: list[dict[str, Any]]) -> None:
    """Cards leave play: out of the room, onto the returned pile (section 8)."""
    gone = {id(card) for card in cards}
    enc = s["encounter"]
    enc["cards"] = [card for card in enc["cards"] if id(card) not in gone]
    s["returned"].extend(card["code"] for card in cards)


def _do_attack(s: dict[str, Any], _seat: str, a: dict[str, Any]) -> None:
    _need_phase(s, "combat", what="attack")
    enemy = _enc_card(s, a["card"], ("enemy",), "an enemy")
    enc = s["encounter"]
    power = s["stats"]["attack"]
    enc["attacked_yet"] = True
    if power >= enemy["strength"]:
        _remove(s, [enemy])
        s["log"].append(f"You attack {pretty(enemy['code'])}: it is defeated.")
    else:
        enemy["strength"] -= power
        s["log"].append(f"You attack {pretty(enemy['code'])}: its strength drops to {enemy['strength']}.")
    enemies = _enc_cards(s, "enemy")
    if not enemies:
        _settle(s)
        return
    if enc["stunned"]:
        enc["stunned"] = False
        s["log"].append("The stunned enemies cannot hit back.")
        return
    total = sum(e["strength"] for e in enemies)
    who = pretty_all([e["code"] for e in enemies], joiner=" and ")
    _damage(s, total, f"{who} hit{'s' if len(enemies) == 1 else ''} back", f"{who} hitting back")


def _do_opener(s: dict[str, Any], _seat: str, a: dict[str, Any]) -> None:
    _need_phase(s, "combat", what="use the trap opener")
    if not _opener_allowed(s):
        if s["encounter"]["attacked_yet"]:
            raise IllegalAction("The trap opener is only allowed before the first attack in a room.")
        raise IllegalAction("The trap opener needs an enemy, a trap and a potion or gold in the room.")
    item = _enc_card(s, a["card"], ("potion", "gold"), "a potion or gold")
    enc = s["encounter"]
    enc["cards"] = [card for card in enc["cards"] if card is not item]
    _collect(s, item)
    traps = _enc_cards(s, "trap")
    total = sum(t["value"] for t in traps)
    s["log"].append(
        f"Trap opener: you take {pretty(item['code'])} and the traps ({_join([t['code'] for t in traps])}) fire."
    )
    died = _damage(s, total, "The traps hit you", "the traps")
    defeated = []
    for enemy in _enc_cards(s, "enemy"):
        enemy["strength"] -= total
        if enemy["strength"] <= 0:
            defeated.append(enemy)
    others = [card for card in enc["cards"] if card["role"] != "enemy"]
    _remove(s, others + defeated)
    if died:
        return
    survivors = _enc_cards(s, "enemy")
    s["log"].append(
        f"Defeated: {_join([e['code'] for e in defeated])}. "
        + (
            "Stunned: " + ", ".join(f"{pretty(e['code'])} (strength {e['strength']})" for e in survivors) + "."
            if survivors
            else "No enemy survives."
        )
    )
    if survivors:
        enc["stunned"] = True
    else:
        _empty_room(s)


def _do_deactivate(s: dict[str, Any], _seat: str, a: dict[str, Any]) -> None:
    _need_phase(s, "traps", what="deactivate a trap")
    trap = _enc_card(s, a["card"], ("trap",), "an active trap")
    wits = _intelligence(s)
    if wits < trap["value"]:
        raise IllegalAction(f"Your intelligence {wits} is below {pretty(trap['code'])}'s value {trap['value']}.")
    _remove(s, [trap])
    s["log"].append(f"You deactivate {pretty(trap['code'])}.")
    _settle(s)


def _do_take(s: dict[str, Any], _seat: str, a: dict[str, Any]) -> None:
    _need_phase(s, "traps", what="take an item")
    item = _enc_card(s, a["card"], ("potion", "gold"), "a potion or gold")
    enc = s["encounter"]
    traps = _enc_cards(s, "trap")
    total = sum(t["value"] for t in traps)
    s["log"].append(f"You take {pretty(item['code'])}: the traps ({_join([t['code'] for t in traps])}) fire.")
    # Ruling 18: the damage lands as the item is taken; a taken potion cannot save you.
    died = _damage(s, total, "The traps hit you", "the traps")
    if died:
        return
    _collect(s, item)
    rest = [card for card in enc["cards"] if card is not item]
    _remove(s, rest)
    if rest:
        s["log"].append(f"Lost with the room: {_join([card['code'] for card in rest])}.")
    enc["cards"] = []
    _empty_room(s)


def _do_retreat(s: dict[str, Any], _seat: str, a: dict[str, Any]) -> None:
    phase = s["phase"]
    if phase not in ("combat", "traps"):
        _need_phase(s, "combat", "traps", what="retreat")
    keep = a.get("keep", False)
    modes = _retreat_modes(s)
    if not modes:
        raise IllegalAction("You cannot retreat during combat.")
    if keep and True not in modes:
        if phase == "traps":
            raise IllegalAction("Keeping the traps needs the retreat_keeps_traps option.")
        raise IllegalAction("keep only applies to a retreat in the traps step.")
    to = [a["to"][0], a["to"][1]]
    n = s["size"]
    rid = s["encounter"]["room"]
    if not in_bounds(tuple(to), rows=n, cols=n, first=1):
        raise IllegalAction(f"You cannot retreat to {cell_name(to)}: it is outside the map.")
    if s["map"][to[0] - 1][to[1] - 1] == rid:
        raise IllegalAction(
            f"You cannot retreat to {cell_name(to)}: it is inside the room; retreat to an empty cell next to it."
        )
    if to not in _retreat_targets(s):
        raise IllegalAction(f"You cannot retreat to {cell_name(to)}: it is not an empty cell next to room {rid}.")
    enc = s["encounter"]
    s["position"] = to
    if phase == "combat" or keep:
        # Section 9: the room is suspended as it stands; a pending stun is lost.
        s["suspended"].append({"room": rid, "cards": enc["cards"], "attacked_yet": enc["attacked_yet"]})
        s["room_status"][rid - 1] = "suspended"
        s["encounter"] = None
        s["phase"] = "explore"
        s["log"].append(f"You retreat to {cell_name(to)}; room {rid} is suspended as it stands.")
        return
    lost = [card["code"] for card in enc["cards"]]
    _remove(s, list(enc["cards"]))
    s["log"].append(f"You retreat to {cell_name(to)}; the traps fire in the empty room. Lost: {_join(lost)}.")
    _empty_room(s)


def _do_exit(s: dict[str, Any], _seat: str, a: dict[str, Any]) -> None:
    _need_phase(s, "explore", what="exit")
    n = s["size"]
    if s["position"] != [n, n]:
        raise IllegalAction(f"The exit is at {cell_name((n, n))}.")
    _end(s, "exited")


_SET = kit.Param(SETS, "set must be 'top' or 'side'")
_POSITION = kit.Param(int, "{name} must be a position from 1 to N")
_STAT = kit.Param((*STATS, "gold"), "stat must be health, attack or intelligence")
_Kind = kit.ActionKind[dict[str, Any]]

# Every action: its parameters (``kit.parse_action``), what carries it out and its button's words.
ACTIONS: dict[str, _Kind] = {
    "swap_headers": _Kind({"set": _SET, "i": _POSITION, "j": _POSITION}, _do_swap, labels.swap),
    "choose_stat_set": _Kind({"set": _SET}, _do_choose, labels.choose_set),
    "assign_diamond_bonus": _Kind({"card": _card, "stat": _STAT}, _do_assign, labels.diamond_bonus),
    "move": _Kind({"dir": tuple(DIRECTIONS)}, _do_move, labels.move),
    "drink": _Kind({"card": _card}, _do_drink_or_read, labels.drink_or_read),
    "read": _Kind({"card": _card}, _do_drink_or_read, labels.drink_or_read),
    "attack": _Kind({"card": _card}, _do_attack, labels.attack),
    "use_trap_opener": _Kind({"card": _card}, _do_opener, labels.trap_opener),
    "deactivate": _Kind({"card": _card}, _do_deactivate, labels.deactivate),
    "take": _Kind({"card": _card}, _do_take, labels.take),
    "retreat": _Kind({"to": _cell_pair, "keep": kit.Param(bool, optional=True)}, _do_retreat, labels.retreat),
    "exit": _Kind({}, _do_exit, labels.leave),
}
_NON_FREE = ("move", "attack", "use_trap_opener", "deactivate", "take", "retreat", "exit")

_ENGINE = kit.Engine(
    actions=ACTIONS,
    wording=_WORDING,
    refusal=_refusal,
    copy=_thaw,
    finish=_after_action,
    not_a_state="not a Shuffle and Doom! state",
    state_keys=("phase",),
    valid=lambda data: data["phase"] in PHASES,
)
apply = _ENGINE.apply
"""The state after ``action``; the input is never changed (``kit.Engine.apply``)."""
dump = _ENGINE.dump
load = _ENGINE.load
action_label = _ENGINE.action_label
"""A short readable label for an action, e.g. ``"Attack Q♠ (strength 4)"`` (its declared label)."""
