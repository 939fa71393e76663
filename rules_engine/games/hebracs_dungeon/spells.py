"""Spells (section 8): where each may be cast, what it costs, what it does.

``check`` raises ``IllegalAction`` with the reason a cast is refused and changes nothing;
``cast`` checks, pays (the potions go under first, 4.5) and carries out the effect.
"""

from __future__ import annotations

import typing
from typing import Any

from rules_engine.cards import written
from rules_engine.errors import IllegalAction
from rules_engine.text import counted

from . import battle, data, flow, trade, treasures
from .state import (
    cell_at,
    draw,
    heal,
    in_grid,
    log,
    name,
    positions,
    remove_from_inventory,
    take_enemy,
    under,
)

STONE_STATUE_MOST = 6
"""The most chambers one Stone Statue turns to stone (8.3)."""

CONTEXTS = {
    "start_level": "free",
    "explore": "free",
    "battle": "battle",
    "adventurer": "adventurer",
    "trade": "trade",
    "merchant": "merchant",
}
CONTEXT_TEXT = {
    "free": "outside a battle",
    "battle": "in a battle",
    "adventurer": "facing an adventurer",
    "trade": "during a trade",
    "merchant": "facing a merchant",
}
PHASE_TEXT = {
    "priestess": "no spell can be cast while facing a white priestess",
    "hebrac": "no spell can be cast while facing Hebrac",
    "hebrac_reward": "decide on Hebrac's game first",
    "remote_vision": "finish peeking first",
    "genie_of_death": "choose the Genie of Death's targets first",
    "overflow": "drop a treasure first",
    "after_draw": "no spell can be added once the attack card is drawn",
    "over": "the game is over",
}


def magic_points(state: dict[str, Any], card: str) -> int:
    """A magic potion's points: its rank, doubled by the Scepter of Leynos (6.2)."""
    return data.potion_points(card, state["inventory"])


def potion_items(state: dict[str, Any]) -> list[tuple[str, int]]:
    return [(c, magic_points(state, c)) for c in state["inventory"] if data.is_magic_potion(c)]


def context(state: dict[str, Any]) -> str:
    ctx = CONTEXTS.get(state["phase"])
    if ctx is None:
        raise IllegalAction(PHASE_TEXT.get(state["phase"], "no spell can be cast now"))
    return ctx


def _check_occasion(state: dict[str, Any], ctx: str, spec: dict[str, Any]) -> None:
    """Whether this moment allows the spell at all, whatever is paid (8.2, 7.6)."""
    if ctx == "battle" and state["battle"]["spell"] is not None:
        used = data.SPELLS[state["battle"]["spell"]]["name"]
        raise IllegalAction(f"only one spell per battle: {used} was already cast in this one")
    if ctx not in spec["when"]:
        allowed = " or ".join(data.OCCASIONS[w] for w in spec["when"])
        raise IllegalAction(f"{spec['name']} cannot be cast {CONTEXT_TEXT[ctx]}: only {allowed}")


def check(state: dict[str, Any], action: dict[str, Any]) -> int:
    """Raise ``IllegalAction`` unless the cast is allowed; return the magic points paid."""
    spell = action["spell"]
    spec = data.SPELLS[spell]
    ctx = context(state)
    _check_occasion(state, ctx, spec)
    potions = action["potions"]
    for card in potions:
        if not data.is_magic_potion(card):
            raise IllegalAction(f"{written(str(card))} is not a magic potion (2–10 of clubs)")
    trade.require_held(state["inventory"], potions)
    points = [magic_points(state, c) for c in potions]
    if spec["scaled"]:
        if not potions:
            raise IllegalAction(f"{spec['name']} needs at least one magic potion")
    else:
        trade.check_payment(potions, points, spec["cost"], spec["name"])
    CHECKS[spell](state, ctx, action, sum(points))
    return sum(points)


def cast(state: dict[str, Any], action: dict[str, Any]) -> None:
    points = check(state, action)
    spell = action["spell"]
    in_battle = state["phase"] == "battle"
    for card in action["potions"]:
        remove_from_inventory(state, card)
        under(state, card)
    state["counters"]["spells_cast"] += 1
    if in_battle:
        state["battle"]["spell"] = spell
    paid = " + ".join(action["potions"])
    log(state, f"You cast {data.SPELLS[spell]['name']} with {paid} ({points} points).")
    EFFECTS[spell](state, action, points)


def scaled_units(points: int, per: int, cap: int) -> tuple[int, int]:
    """What ``points`` buy of a scaled spell costing ``per`` a unit when ``cap`` units are of use
    now: the whole units bought, and the points lost beyond them (8.1).

    >>> scaled_units(14, 2, 5), scaled_units(3, 2, 5)
    ((5, 4), (1, 1))
    """
    units = min(points // per, cap)
    return units, points - units * per


def scaled_cap(state: dict[str, Any], spell: str) -> int | None:
    """How many units a scaled spell can use now (chambers to look into, cards to foresee, life
    points to restore); points paid beyond them are lost (8.1). ``None`` for a fixed-cost spell."""
    if spell == "remote_vision":
        return len(remote_vision_targets(state))
    if spell == "future_perception":
        return len(state["hand_deck"])
    if spell == "healing":
        missing: int = max(0, state["max_life"] - state["life"])
        return missing
    return None


def _canonical_casts(state: dict[str, Any], spell: str, items: list[tuple[str, int]]) -> list[dict[str, Any]]:
    """The casts the legal actions list for ``spell`` (not yet checked): paid with the cheapest
    potion (a scaled spell) or the canonical payment (13.5); the first target where one is
    needed, and Teleport to the next level as well. Raises the reason when there is none."""
    spec = data.SPELLS[spell]
    potions: list[str] | None
    if spec["scaled"]:
        cheapest = min(range(len(items)), key=lambda i: (items[i][1], i))
        potions = [items[cheapest][0]]
    else:
        potions = trade.canonical(items, spec["cost"])
        if potions is None:
            total = sum(points for _, points in items)
            raise IllegalAction(f"needs {spec['cost']} points, your potions give {total}")
    base = {"type": "cast", "spell": spell, "potions": potions}
    if (spell == "body_switch" and state["phase"] != "battle") or spell == "stone_statue":
        chambers = body_switch_targets(state) if spell == "body_switch" else stone_statue_targets(state)
        if not chambers:
            raise IllegalAction("no chamber of the level holds an enemy card")
        return [
            {**base, "target": chambers[0]}
            if spell == "body_switch"
            else {**base, "targets": chambers[:STONE_STATUE_MOST]}
        ]
    if spell == "teleport":
        destinations = [t for t in teleport_targets(state) if t != "next_level"]
        return [{**base, "target": t} for t in destinations[:1]] + [{**base, "target": "next_level"}]
    return [base]


def availability(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every spell's standing now, for the legal actions and the spell book alike.

    ``{spell: {"casts": [...], "reason": str | None, "cap": int | None}}``: the canonical casts
    allowed now (empty when none), the reason a player reads when there is none (the same words
    a refused cast gives), and ``scaled_cap``.

    >>> from rules_engine.games.hebracs_dungeon import new_game
    >>> spells = availability(new_game(1, ["p1"], {}))
    >>> spells["healing"]["casts"], spells["healing"]["reason"], spells["paralysis"]["reason"]
    ([], 'you have no magic potion', 'Paralysis cannot be cast outside a battle: only in a battle')
    """
    items = potion_items(state)
    try:
        ctx = context(state)
    except IllegalAction as refusal:
        ctx, blocked = None, str(refusal)
    out = {}
    for spell, spec in data.SPELLS.items():
        casts: list[dict[str, Any]] = []
        reason = None
        try:
            if ctx is None:
                raise IllegalAction(blocked)
            _check_occasion(state, ctx, spec)
            if not items:
                raise IllegalAction("you have no magic potion")
            for candidate in _canonical_casts(state, spell, items):
                try:
                    check(state, candidate)
                except IllegalAction as refusal:
                    reason = reason or str(refusal)
                else:
                    casts.append(candidate)
        except IllegalAction as refusal:
            reason = str(refusal)
        out[spell] = {"casts": casts, "reason": None if casts else reason, "cap": scaled_cap(state, spell)}
    return out


# --- checks (the "pointless spell" refusals are R31) ----------------------------------------


def remote_vision_targets(state: dict[str, Any]) -> list[list[int]]:
    """Unvisited chambers whose enemy card is face down (8.3, R4)."""
    out = []
    for pos in positions(state):
        cell = cell_at(state, pos)
        if not cell["visited"] and cell["enemy"] is not None and not cell["enemy_up"]:
            out.append(pos)
    return out


def body_switch_targets(state: dict[str, Any]) -> list[list[int]]:
    if state["phase"] == "battle":
        return [list(state["battle"]["pos"])]
    return [p for p in positions(state) if cell_at(state, p)["enemy"] is not None]


def teleport_targets(state: dict[str, Any]) -> list[list[int] | str]:
    here = state["battle"]["pos"] if state["battle"] is not None else state["position"]
    return [p for p in positions(state) if p != here] + ["next_level"]


def stone_statue_targets(state: dict[str, Any]) -> list[list[int]]:
    return [p for p in positions(state) if cell_at(state, p)["enemy"] is not None]


def hell_bomb_struck(state: dict[str, Any]) -> list[list[int]] | None:
    centre = state["battle"]["pos"] if state["battle"] is not None else state["position"]
    if centre is None:
        return None
    r, c = centre
    around = [[r - 1, c], [r, c + 1], [r + 1, c], [r, c - 1]]  # N, E, S, W
    return [list(centre)] + [p for p in around if in_grid(state, p)]


def _no_check(state: dict[str, Any], ctx: str, action: dict[str, Any], points: int) -> None:
    return None


def _check_remote_vision(state: dict[str, Any], ctx: str, action: dict[str, Any], points: int) -> None:
    if not remote_vision_targets(state):
        raise IllegalAction("no unvisited chamber hides a face-down enemy")


def _check_deck(state: dict[str, Any], ctx: str, action: dict[str, Any], points: int) -> None:
    if not state["hand_deck"]:
        raise IllegalAction("the Hand Deck is empty")


def _check_healing(state: dict[str, Any], ctx: str, action: dict[str, Any], points: int) -> None:
    if state["life"] >= state["max_life"]:
        raise IllegalAction("your life is already at its maximum")


def _check_illusion(state: dict[str, Any], ctx: str, action: dict[str, Any], points: int) -> None:
    treasure = cell_at(state, state["encounter"]["pos"])["treasure"]
    if data.rank(treasure) == "A":
        raise IllegalAction("Illusion does not work on a legendary treasure")
    if data.is_black_queen(treasure):
        raise IllegalAction("nobody wants a black priestess: Illusion would be pointless")


def _check_anti_magic(state: dict[str, Any], ctx: str, action: dict[str, Any], points: int) -> None:
    if state["level_effects"]["anti_magic"]:
        raise IllegalAction("Anti-Magic is already active on this level")


def _check_curse(state: dict[str, Any], ctx: str, action: dict[str, Any], points: int) -> None:
    if state["level_effects"]["curse"]:
        raise IllegalAction("the Curse is already active on this level")


def _check_paralysis(state: dict[str, Any], ctx: str, action: dict[str, Any], points: int) -> None:
    """R31 for Paralysis (8.1): refused when no round it covers could cost life anyway.

    It only ever spares the life a failed attack would cost, so it changes nothing against an
    evil magician under Anti-Magic, or when the next attack cannot fail and so ends the battle:
    even an ace (the lowest attack card) with the bonuses already in play reaches the enemy's
    life, or the top card the player foresaw (Future Perception) does. Only what the player
    knows is used: an unseen top card never decides (it would give the card away). Nothing
    after the cast can lower that score or change the enemy — no second spell in this battle.
    The potions that pay go under the Hand Deck; paying is the price of a cast, never its
    outcome (8.1), so it is not weighed (it would only matter with an empty Hand Deck).
    """
    if battle.magic_shielded(state):
        raise IllegalAction("under Anti-Magic the evil magician cannot take your life: Paralysis would change nothing")
    life = state["battle"]["enemy_life"]
    lowest = battle.LOWEST_ATTACK_VALUE + battle.bonus(state)
    if lowest >= life:
        raise IllegalAction(
            f"even an ace would score {lowest} against life {life}, so your next attack cannot fail: "
            "Paralysis would change nothing"
        )
    if state["known_top"] and state["hand_deck"]:
        top = state["hand_deck"][0]
        foreseen = battle.score(state, [top])
        if foreseen >= life:
            raise IllegalAction(
                f"your next attack card is {top}, which you foresaw: it scores {foreseen} against life {life}, "
                "so Paralysis would change nothing"
            )


def _check_stealing_spirit(state: dict[str, Any], ctx: str, action: dict[str, Any], points: int) -> None:
    if ctx == "battle":
        if cell_at(state, state["battle"]["pos"])["treasure"] is None:
            raise IllegalAction("this chamber holds no treasure to steal (use Escape)")
    elif ctx == "trade":
        if state["options"]["alignment"] != "evil":
            raise IllegalAction("once a trade is proposed you may not rob the adventurer")
    elif ctx == "merchant":
        if data.is_black_queen(cell_at(state, state["encounter"]["pos"])["treasure"]):
            raise IllegalAction("nobody would steal a black priestess")


def _check_body_switch(state: dict[str, Any], ctx: str, action: dict[str, Any], points: int) -> None:
    _check_deck(state, ctx, action, points)
    target = action.get("target")
    if ctx == "battle":
        if target is not None and list(target) != state["battle"]["pos"]:
            raise IllegalAction("in a battle Body Switch can only replace the enemy you fight")
        return
    if target is None:
        raise IllegalAction("choose the chamber whose enemy Body Switch replaces")
    if not in_grid(state, target):
        raise IllegalAction(f"there is no chamber {name(target)}")
    if cell_at(state, target)["enemy"] is None:
        raise IllegalAction(f"chamber {name(target)} holds no enemy card")


def _check_teleport(state: dict[str, Any], ctx: str, action: dict[str, Any], points: int) -> None:
    target = action.get("target")
    if target is None:
        raise IllegalAction("choose a chamber or the next level for Teleport")
    if target == "next_level":
        return
    if not in_grid(state, target):
        raise IllegalAction(f"there is no chamber {name(target)}")
    here = state["battle"]["pos"] if state["battle"] is not None else state["position"]
    if list(target) == here:
        raise IllegalAction("Teleport must take you to another chamber")


def _check_revelation(state: dict[str, Any], ctx: str, action: dict[str, Any], points: int) -> None:
    if not any(c["enemy"] is not None and not c["enemy_up"] for row in state["grid"] for c in row):
        raise IllegalAction("every enemy card of the level is already face up")


def _check_hell_bomb(state: dict[str, Any], ctx: str, action: dict[str, Any], points: int) -> None:
    struck = hell_bomb_struck(state)
    if struck is None:
        raise IllegalAction("Hell Bomb needs you to stand in an explored chamber")
    if not any(cell_at(state, p)["enemy"] or cell_at(state, p)["treasure"] for p in struck):
        raise IllegalAction("no struck chamber holds any card")


def _check_stone_statue(state: dict[str, Any], ctx: str, action: dict[str, Any], points: int) -> None:
    targets = action.get("targets")
    if targets is None or not 1 <= len(targets) <= STONE_STATUE_MOST:
        raise IllegalAction(f"Stone Statue takes 1 to {STONE_STATUE_MOST} chambers")
    seen = set()
    for target in targets:
        if not in_grid(state, target):
            raise IllegalAction(f"there is no chamber {name(target)}")
        if tuple(target) in seen:
            raise IllegalAction(f"chamber {name(target)} is named twice")
        seen.add(tuple(target))
        if cell_at(state, target)["enemy"] is None:
            raise IllegalAction(f"chamber {name(target)} holds no enemy card")


def _check_god_vision(state: dict[str, Any], ctx: str, action: dict[str, Any], points: int) -> None:
    for row in state["grid"]:
        for c in row:
            if (c["enemy"] is not None and not c["enemy_up"]) or (c["treasure"] is not None and not c["treasure_up"]):
                return
    raise IllegalAction("every card of the level is already face up")


CHECKS = {
    "remote_vision": _check_remote_vision,
    "future_perception": _check_deck,
    "healing": _check_healing,
    "escape": _no_check,
    "illusion": _check_illusion,
    "paralysis": _check_paralysis,
    "double_attack": _no_check,
    "super_strength": _no_check,
    "anti_magic": _check_anti_magic,
    "stealing_spirit": _check_stealing_spirit,
    "body_switch": _check_body_switch,
    "teleport": _check_teleport,
    "revelation": _check_revelation,
    "hell_bomb": _check_hell_bomb,
    "curse": _check_curse,
    "genie_of_luck": _check_deck,
    "stone_statue": _check_stone_statue,
    "god_vision": _check_god_vision,
}


# --- effects -------------------------------------------------------------------------------------


def _remote_vision(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    state["decision"] = {"kind": "remote_vision", "points": points, "peeked": []}


def _future_perception(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    count = min(points, len(state["hand_deck"]))
    state["known_top"] = max(state["known_top"], count)
    log(state, f"You foresee the top {counted(count, 'card')} of the Hand Deck.")
    log(state, "Future Perception shows: " + ", ".join(state["hand_deck"][:count]) + ".", private=True)


def _healing(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    gained = heal(state, points // 2)
    log(state, f"Healing restores {gained} life: {state['life']}.")


def _escape(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    if state["battle"] is not None:
        battle.leave(state)
        log(state, "You escape from the battle.")
    else:
        flow.leave_encounter(state)
        log(state, "You escape from the adventurer.")


def _illusion(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    under(state, take_enemy(state, state["encounter"]["pos"]))
    log(state, "The adventurer is fooled and hands over his treasure.")
    flow.close_with_treasure(state)


def _paralysis(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    state["battle"]["paralysis"] = 2


def _double_attack(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    state["battle"]["double_attack"] = True


def _super_strength(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    state["battle"]["super_strength"] = True


def _anti_magic(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    state["level_effects"]["anti_magic"] = True


def _stealing_spirit(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    if state["battle"] is not None:
        pos = state["battle"]["pos"]
        cell_at(state, pos)["robbed"] = True
        # R45: the treasure (and all it triggers) first, then the battle ends.
        state["pending"][0:0] = [{"step": "take", "at": list(pos)}, {"step": "leave_robbed"}]
        return
    encounter = state["encounter"]
    pos = encounter["pos"]
    if encounter["kind"] == "merchant":
        # R29, R44: the merchant leaves for good, before the treasure is acquired.
        under(state, take_enemy(state, pos))
        log(state, "The merchant vanishes, robbed.")
        state["encounter"] = None
        state["position"] = None
    else:
        cell_at(state, pos)["robbed"] = True
        flow.leave_encounter(state)
        log(state, "You rob the adventurer and vanish.")
    state["pending"].insert(0, {"step": "take", "at": list(pos)})


def _body_switch(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    if state["battle"] is not None:
        pos = state["battle"]["pos"]
        cell = cell_at(state, pos)
        old, new = cell["enemy"], draw(state)
        under(state, old)
        cell["enemy"], cell["enemy_up"], cell["enemy_seen"] = new, True, True
        log(state, f"Body Switch: {old} goes under; {new} now stands before you.")
        if data.is_number(new) or data.rank(new) == "J":
            fight = state["battle"]
            fight["enemy"] = new
            fight["enemy_life"] = battle.enemy_life(state, new)
            log(state, f"The battle goes on: life {fight['enemy_life']}.")
        else:
            battle.release_prisoners(state)
            state["battle"] = None
            flow.meet(state, pos)
        return
    pos = list(action["target"])
    cell = cell_at(state, pos)
    old_up = cell["enemy_up"]
    old, new = cell["enemy"], draw(state)
    under(state, old)
    revealed = state["level_effects"]["enemies_revealed"]
    cell["enemy"], cell["enemy_up"], cell["enemy_seen"] = new, revealed, True
    gone = old if old_up else "a face-down card"
    if revealed:
        log(state, f"Body Switch in {name(pos)}: {gone} goes under; {new} takes its place.")
    else:
        log(state, f"Body Switch in {name(pos)}: {gone} goes under; a new card lies face down.")
        log(state, f"The new guardian of {name(pos)} is {new}.", private=True)


def _teleport(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    if state["battle"] is not None:
        battle.leave(state)
    if action["target"] == "next_level":
        log(state, "Teleport takes you down.")
        flow.descend(state)
    else:
        log(state, f"Teleport takes you to {name(action['target'])}.")
        flow.enter(state, action["target"])


def _revelation(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    treasures.reveal_level(state, treasures=False)


def _hell_bomb(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    struck = typing.cast("list[list[int]]", hell_bomb_struck(state))  # _check_hell_bomb refused a None
    if state["battle"] is not None:
        battle.release_prisoners(state)
        state["battle"] = None
        log(state, "The battle is won without an attack.")
    for pos in struck:
        cell = cell_at(state, pos)
        cell["visited"] = True
        if cell["enemy"] is not None:
            label = cell["enemy"] if cell["enemy_up"] else "a face-down enemy"
            under(state, take_enemy(state, pos))
            log(state, f"Hell Bomb destroys {label} in {name(pos)}.")
    state["pending"][0:0] = [
        {"step": "take", "at": list(pos)} for pos in struck if cell_at(state, pos)["treasure"] is not None
    ]


def _curse(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    state["level_effects"]["curse"] = True
    if state["battle"] is not None:
        state["battle"]["enemy_life"] = battle.enemy_life(state, state["battle"]["enemy"])


def _genie_of_luck(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    treasures.genie_of_luck(state, 5)


def _stone_statue(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    for pos in action["targets"]:
        cell = cell_at(state, pos)
        label = cell["enemy"] if cell["enemy_up"] else "A face-down enemy"
        under(state, take_enemy(state, pos))
        log(state, f"{label} in {name(pos)} turns to stone.")


def _god_vision(state: dict[str, Any], action: dict[str, Any], points: int) -> None:
    treasures.reveal_level(state, treasures=True)


EFFECTS = {
    "remote_vision": _remote_vision,
    "future_perception": _future_perception,
    "healing": _healing,
    "escape": _escape,
    "illusion": _illusion,
    "paralysis": _paralysis,
    "double_attack": _double_attack,
    "super_strength": _super_strength,
    "anti_magic": _anti_magic,
    "stealing_spirit": _stealing_spirit,
    "body_switch": _body_switch,
    "teleport": _teleport,
    "revelation": _revelation,
    "hell_bomb": _hell_bomb,
    "curse": _curse,
    "genie_of_luck": _genie_of_luck,
    "stone_statue": _stone_statue,
    "god_vision": _god_vision,
}
