"""Actions (13.5): checking their shape, applying them, listing the legal ones, naming them
(each action's button label is declared with it in ``ACTIONS``).

Shape errors raise ``InvalidAction``; rule errors ``IllegalAction``. Handlers run on a copy of
the state, so a refusal never changes the caller's state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules_engine import kit
from rules_engine.cards import is_card_code, written
from rules_engine.errors import IllegalAction, InvalidAction
from rules_engine.text import counted

from . import battle, data, flow, spells, trade, treasures
from .state import (
    cell_at,
    cleared_count,
    clone,
    descent_threshold,
    end,
    heal,
    in_grid,
    log,
    lose_life,
    name,
    playing,
    remove_from_inventory,
    take_enemy,
    under,
)

# --- shape ---------------------------------------------------------------------------------------


def _card(name: str, value: object) -> str:
    if not isinstance(value, str) or not is_card_code(value) or value != value.strip().upper():
        raise InvalidAction(f"{name!r} must be a card code such as '7H'")
    return value


def _cards(name: str, value: object) -> list[str]:
    if not isinstance(value, list):
        raise InvalidAction(f"{name!r} must be a list of card codes")
    for code in value:
        if not isinstance(code, str) or not is_card_code(code) or code != code.strip().upper():
            raise InvalidAction(f"{code!r} in {name!r} is not a card code")
    return list(value)


def _chamber(name: str, value: object) -> list[int]:
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(type(v) is int for v in value):
        raise InvalidAction(f"{name!r} must be a chamber [row, col]")
    return [value[0], value[1]]


def _chambers(name: str, value: object) -> list[list[int]]:
    if not isinstance(value, list):
        raise InvalidAction(f"{name!r} must be a list of chambers")
    return [_chamber(name, t) for t in value]


def _destination(name: str, value: object) -> str | list[int]:
    return "next_level" if value == "next_level" else _chamber(name, value)


_WHOLE = kit.Param(int, "{name!r} must be a whole number")
_SPELL_ONLY = {"spell": data.SPELLS, "potions": _cards}
_SPELL_PARAMS: dict[str, dict[str, kit.Spec]] = {
    "body_switch": {**_SPELL_ONLY, "target": kit.Param(_chamber, optional=True)},
    "teleport": {**_SPELL_ONLY, "target": _destination},
    "stone_statue": {**_SPELL_ONLY, "targets": _chambers},
}

# A parameter left out or given as None is checked as None, so its own check says what it must be.
WORDING = kit.Wording(
    not_an_object="an action must be a mapping with a 'type'",
    unexpected=lambda kind, names: f"unexpected parameter {names[0]!r} for {kind!r}",
    missing=None,
    none_is_absent=True,
)


# --- rules per action ------------------------------------------------------------------------------

WHY_NOT = {
    "start_level": "choose a corner to enter first",
    "explore": "you are exploring",
    "battle": "you are in a battle",
    "after_draw": "finish the attack first",
    "adventurer": "an adventurer faces you",
    "trade": "a trade is under way",
    "merchant": "a merchant faces you",
    "priestess": "a white priestess awaits your choice",
    "hebrac": "Hebrac awaits your answer",
    "hebrac_reward": "decide on Hebrac's game for a card first",
    "remote_vision": "finish peeking first",
    "genie_of_death": "choose the Genie of Death's targets first",
    "overflow": "drop a treasure first",
}


def _require(state: dict[str, Any], phases: tuple[str, ...], what: str) -> None:
    if state["phase"] not in phases:
        raise IllegalAction(f"you cannot {what} now: {WHY_NOT[state['phase']]}")


def _move(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    _require(state, ("start_level", "explore"), "move")
    pos = [action["row"], action["col"]]
    if not in_grid(state, pos):
        raise IllegalAction(f"there is no chamber {name(pos)}")
    if pos not in flow.move_targets(state):
        if state["phase"] == "start_level":
            raise IllegalAction("a level is entered through a corner")
        if pos == state["position"]:
            raise IllegalAction("you are already there")
        raise IllegalAction(f"{name(pos)} does not touch any chamber you have visited")
    flow.enter(state, pos)


def _descend(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    _require(state, ("explore",), "go down")
    if cleared_count(state) < descent_threshold(state):
        raise IllegalAction(
            f"clear at least {descent_threshold(state)} chambers before going down ({cleared_count(state)} so far)"
        )
    flow.descend(state)


def _fight(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    if state["phase"] == "trade":
        if state["options"]["alignment"] != "evil":
            raise IllegalAction("once a trade is proposed you may not fight the adventurer")
    else:
        _require(state, ("adventurer",), "fight")
    pos = state["encounter"]["pos"]
    state["encounter"] = None
    battle.start(state, pos)


def _propose_trade(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    _require(state, ("adventurer",), "propose a trade")
    flow.propose_trade(state)


def _offer(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    _require(state, ("trade",), "offer cards")
    trade.check_offer(state, action["cards"])
    for card in action["cards"]:
        remove_from_inventory(state, card)
        under(state, card)
    pos = state["encounter"]["pos"]
    jack = take_enemy(state, pos)
    under(state, jack)
    log(state, f"You trade {' + '.join(action['cards']) or 'nothing (Bag of Meres)'} with the adventurer ({jack}).")
    flow.close_with_treasure(state)


def _buy(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    _require(state, ("merchant",), "buy")
    trade.check_purchase(state, action["gems"])
    for card in action["gems"]:
        remove_from_inventory(state, card)
        under(state, card)
    pos = state["encounter"]["pos"]
    king = take_enemy(state, pos)
    under(state, king)
    log(state, f"You pay {' + '.join(action['gems']) or 'nothing (Bag of Meres)'} to the merchant ({king}).")
    flow.close_with_treasure(state)


def _decline(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    phase = state["phase"]
    _require(state, ("trade", "merchant", "hebrac", "hebrac_reward"), "decline")
    if phase == "hebrac_reward":
        state["decision"] = None
        log(state, "You decline Hebrac's game.")
        return
    why = {"trade": "You decline the trade", "merchant": "You buy nothing", "hebrac": "You decline Hebrac's game"}
    flow.send_away(state, why[phase])


def _priestess(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    _require(state, ("priestess",), "answer a priestess")
    pos = state["encounter"]["pos"]
    if action["choice"] == "heal":
        if state["level_effects"]["anti_magic"]:
            raise IllegalAction("under Anti-Magic the white priestess cannot heal")
        gained = heal(state, state["max_life"])
        log(state, f"The white priestess heals you (+{gained}): life {state['life']}.")
        flow.send_away(state, "She leaves with the treasure")
    else:
        under(state, take_enemy(state, pos))
        log(state, "The white priestess gives you the treasure.")
        flow.close_with_treasure(state)


def _play(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    _require(state, ("hebrac", "hebrac_reward"), "play Hebrac's game")
    if not state["hand_deck"]:
        raise IllegalAction("the Hand Deck is empty: Hebrac's game cannot be played")
    if state["phase"] == "hebrac_reward":
        treasures.play_for_a_card(state)
        return
    pos = state["encounter"]["pos"]
    if treasures.hebrac_test(state):
        under(state, take_enemy(state, pos))
        flow.close_with_treasure(state)
    else:
        lose_life(state, data.HEBRAC_TOLL)
        if playing(state):
            flow.send_away(state, f"Hebrac takes {data.HEBRAC_TOLL} life ({state['life']} left) and vanishes")


def _attack(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    _require(state, ("battle",), "attack")
    battle.attack(state)


def _finish_attack(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    _require(state, ("after_draw",), "finish an attack")
    battle.finish_attack(state)


def _drink(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    card = action["card"]
    if state["phase"] == "overflow":
        raise IllegalAction(f"you cannot drink now: {WHY_NOT['overflow']}")
    if card not in state["inventory"]:
        raise IllegalAction(f"you do not hold {written(card)}")
    if data.is_life_potion(card):
        if state["life"] >= state["max_life"]:
            raise IllegalAction("your life is already at its maximum")
        remove_from_inventory(state, card)
        under(state, card)
        gained = heal(state, data.number(card))
        log(state, f"You drink {card}: +{gained} life, {state['life']}.")
    elif data.is_strength_potion(card):
        if state["phase"] not in ("battle", "after_draw"):
            raise IllegalAction("strength potions work only in a battle, on your next attack")
        remove_from_inventory(state, card)
        under(state, card)
        state["battle"]["strength"] += data.number(card)
        log(state, f"You drink {card}: +{data.number(card)} to this attack.")
    elif data.is_magic_potion(card):
        raise IllegalAction(f"{written(card)} is a magic potion: it pays for spells and cannot be drunk")
    else:
        raise IllegalAction(f"{written(card)} cannot be drunk")


def _call_prisoner(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    card = action["card"]
    if state["phase"] == "after_draw":
        raise IllegalAction("prisoners cannot join once the attack card is drawn")
    _require(state, ("battle",), "call a prisoner")
    if not data.is_prisoner(card) or card not in state["inventory"]:
        raise IllegalAction(f"you hold no prisoner {written(card)}")
    remove_from_inventory(state, card)
    state["battle"]["prisoners"].append(card)
    log(state, f"The prisoner {card} joins the battle: +3 to every attack.")


def _cast(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    spells.cast(state, action)


def _peek(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    _require(state, ("remote_vision",), "peek")
    pos = [action["row"], action["col"]]
    decision = state["decision"]
    if pos in decision["peeked"]:
        raise IllegalAction(f"you already looked into {name(pos)} with this spell")
    if pos not in spells.remote_vision_targets(state):
        raise IllegalAction(f"{name(pos)} is not an unvisited chamber with a face-down enemy")
    cell = cell_at(state, pos)
    cell["enemy_seen"] = True
    decision["peeked"].append(pos)
    decision["points"] -= 1
    log(state, f"You look into chamber {name(pos)}.")
    log(state, f"Remote Vision: {name(pos)} is guarded by {cell['enemy']}.", private=True)
    remaining = [p for p in spells.remote_vision_targets(state) if p not in decision["peeked"]]
    if decision["points"] <= 0 or not remaining:
        state["decision"] = None


def _stop_peeking(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    _require(state, ("remote_vision",), "stop peeking")
    state["decision"] = None
    log(state, "You stop peeking.")


def _destroy(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    _require(state, ("genie_of_death",), "choose targets")
    targets = action["targets"]
    count = state["decision"]["count"]
    eligible = treasures.genie_of_death_targets(state)
    if len(targets) != count:
        raise IllegalAction(f"the Genie of Death needs exactly {counted(count, 'chamber')}")
    if len({tuple(t) for t in targets}) != len(targets):
        raise IllegalAction("each chamber may be named once")
    for target in targets:
        if target not in eligible:
            raise IllegalAction(f"{name(target)} is not an unvisited chamber holding an enemy")
    for target in targets:
        cell = cell_at(state, target)
        label = cell["enemy"] if cell["enemy_up"] else "A face-down enemy"
        under(state, take_enemy(state, target))
        log(state, f"{label} in {name(target)} is destroyed by the Genie of Death.")
    state["decision"] = None


def _drop(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    _require(state, ("overflow",), "drop a treasure")
    card = action["card"]
    if card not in state["inventory"]:
        raise IllegalAction(f"you do not hold {written(card)}")
    remove_from_inventory(state, card)
    under(state, card)
    state["decision"] = None
    log(state, f"You drop {card}.")


def _resign(state: dict[str, Any], _seat: str, action: dict[str, Any]) -> None:
    end(state, "resigned")


# --- the buttons' words (each label reads the action as given) -----------------------------------


def _chamber_words(chamber: list[int]) -> str:
    return f"({chamber[0]},{chamber[1]})"


def _cast_label(_state: dict[str, Any], action: dict[str, Any]) -> str:
    spell_id: Any = action.get("spell")  # any JSON value: an unknown one is shown as it is
    spell = data.SPELLS.get(spell_id, {}).get("name", str(spell_id))
    text = f"Cast {spell} ({written(' + '.join(action.get('potions', [])))})"
    target = action.get("target")
    if target == "next_level":
        text += " to the next level"
    elif target is not None:
        text += f" on {_chamber_words(target)}"
    if action.get("targets"):
        text += " on " + ", ".join(_chamber_words(t) for t in action["targets"])
    return text


def _buy_label(state: dict[str, Any], action: dict[str, Any]) -> str:
    text = "Buy with " + (written(" + ".join(action["gems"])) or "nothing (Bag of Meres)")
    enc = state.get("encounter") if isinstance(state, dict) else None
    if enc and enc.get("fake_ace"):
        text += " — it will be a fake!"
    return text


def _card_label(verb: str) -> kit.Label:
    return lambda _state, action: f"{verb} {written(str(action['card']))}"


_Kind = kit.ActionKind[dict[str, Any]]

# Every action: its parameters (``kit.parse_action``; a spell's depend on the spell), what
# carries it out and its button's words.
ACTIONS: dict[str, _Kind] = {
    "move": _Kind({"row": _WHOLE, "col": _WHOLE}, _move, lambda _s, a: f"Enter chamber ({a['row']},{a['col']})"),
    "descend": _Kind({}, _descend, "Go down to the next level"),
    "fight": _Kind({}, _fight, "Fight"),
    "propose_trade": _Kind({}, _propose_trade, "Propose a trade"),
    "offer": _Kind(
        {"cards": _cards},
        _offer,
        lambda _s, a: "Offer " + (written(" + ".join(a["cards"])) or "nothing (Bag of Meres)"),
    ),
    "buy": _Kind({"gems": _cards}, _buy, _buy_label),
    "decline": _Kind({}, _decline, "Decline"),
    "priestess": _Kind(
        {"choice": kit.Param(("heal", "treasure"), "'choice' must be 'heal' or 'treasure'")},
        _priestess,
        lambda _s, a: "Be healed (she keeps the treasure)" if a.get("choice") == "heal" else "Take the treasure",
    ),
    "play": _Kind({}, _play, "Play Hebrac's game"),
    "attack": _Kind({}, _attack, "Attack"),
    "finish_attack": _Kind({}, _finish_attack, "Finish the attack"),
    "drink": _Kind({"card": _card}, _drink, _card_label("Drink")),
    "call_prisoner": _Kind({"card": _card}, _call_prisoner, _card_label("Call prisoner")),
    "cast": _Kind(
        kit.Variants(
            "spell", {spell: _SPELL_PARAMS.get(spell, _SPELL_ONLY) for spell in data.SPELLS}, "unknown spell {value!r}"
        ),
        _cast,
        _cast_label,
    ),
    "peek": _Kind({"row": _WHOLE, "col": _WHOLE}, _peek, lambda _s, a: f"Peek into ({a['row']},{a['col']})"),
    "stop_peeking": _Kind({}, _stop_peeking, "Stop peeking"),
    "destroy": _Kind(
        {"targets": _chambers},
        _destroy,
        lambda _s, a: "Destroy the enemies of " + ", ".join(_chamber_words(t) for t in a["targets"]),
    ),
    "drop": _Kind({"card": _card}, _drop, _card_label("Drop")),
    "resign": _Kind({}, _resign, "Give up"),
}


_STATE_KEYS = frozenset(
    "seat options seed status phase level life base_max_life genie_life_bonus max_life hand_deck "
    "known_top grid level_effects position inventory encounter battle pending decision counters log".split()
)


def _refusal(state: dict[str, Any], seat: str, _action: dict[str, Any]) -> str | None:
    if seat != state["seat"]:
        return "you have no seat in this game"
    if state["status"] != "playing":
        return "the game is over"
    return None


def _settled(state: dict[str, Any], _action: dict[str, Any]) -> dict[str, Any]:
    flow.settle(state)
    return state


# The game's ``apply``, ``dump``, ``load`` and ``action_label``, built from ``ACTIONS``.
ENGINE = kit.Engine(
    actions=ACTIONS,
    wording=WORDING,
    refusal=_refusal,
    copy=clone,
    finish=_settled,
    not_a_state="not a saved game of Hebrac's Dungeon",
    state_keys=_STATE_KEYS,
    exact_keys=True,
)


# --- legal actions -------------------------------------------------------------------------------


def _distinct(cards: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(cards))


def spell_candidates(state: dict[str, Any]) -> list[dict[str, Any]]:
    """One canonical cast per castable spell (teleport twice: a chamber and the next level)."""
    if not spells.potion_items(state):
        return []  # the common case, and nothing can be cast without a potion (8.1)
    return [cast for spell in spells.availability(state).values() for cast in spell["casts"]]


def legal(state: dict[str, Any]) -> list[dict[str, Any]]:
    phase = state["phase"]
    if phase == "over":
        return []
    out: list[dict[str, Any]] = []
    if phase == "overflow":
        out += [{"type": "drop", "card": c} for c in _distinct(state["inventory"])]
        return out + [{"type": "resign"}]
    if phase in ("start_level", "explore"):
        out += [{"type": "move", "row": r, "col": c} for r, c in flow.move_targets(state)]
        if phase == "explore" and flow.can_descend(state):
            out.append({"type": "descend"})
    elif phase == "battle":
        out.append({"type": "attack"})
        out += [{"type": "call_prisoner", "card": c} for c in _distinct(state["inventory"]) if data.is_prisoner(c)]
    elif phase == "after_draw":
        out.append({"type": "finish_attack"})
    elif phase == "adventurer":
        out += [{"type": "fight"}, {"type": "propose_trade"}]
    elif phase == "trade":
        offer = trade.canonical_offer(state)
        if offer is not None:
            out.append({"type": "offer", "cards": offer})
        out.append({"type": "decline"})
        if state["options"]["alignment"] == "evil":
            out.append({"type": "fight"})
    elif phase == "merchant":
        payment = trade.canonical_purchase(state)
        if payment is not None:
            out.append({"type": "buy", "gems": payment})
        out.append({"type": "decline"})
    elif phase == "priestess":
        if not state["level_effects"]["anti_magic"]:
            out.append({"type": "priestess", "choice": "heal"})
        out.append({"type": "priestess", "choice": "treasure"})
    elif phase in ("hebrac", "hebrac_reward"):
        if state["hand_deck"]:
            out.append({"type": "play"})
        out.append({"type": "decline"})
    elif phase == "remote_vision":
        peeked = state["decision"]["peeked"]
        out += [
            {"type": "peek", "row": r, "col": c} for r, c in spells.remote_vision_targets(state) if [r, c] not in peeked
        ]
        out.append({"type": "stop_peeking"})
    elif phase == "genie_of_death":
        count = state["decision"]["count"]
        out.append({"type": "destroy", "targets": treasures.genie_of_death_targets(state)[:count]})
    # drink (13.4: every phase but overflow and over)
    for card in _distinct(state["inventory"]):
        if data.is_life_potion(card) and state["life"] < state["max_life"]:
            out.append({"type": "drink", "card": card})
        elif data.is_strength_potion(card) and phase in ("battle", "after_draw"):
            out.append({"type": "drink", "card": card})
    out += spell_candidates(state)
    out.append({"type": "resign"})
    return out
