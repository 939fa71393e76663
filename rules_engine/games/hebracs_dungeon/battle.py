"""Battles (section 7): rounds, attack scores, damage, winning and the other ways out.

A round: the top card of the Hand Deck is the attack card (two with Double Attack);
``score = m × values + 3 × Bracelet + 3 × prisoners + strength``; below the enemy's life the
player loses the difference, unless Paralysis or Anti-Magic (against a magician) says no.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from . import data
from .state import cell_at, draw, end, log, name, take_enemy, under

FIGHTERS = {"S": "A mercenary", "H": "An amazon warrior", "C": "An evil magician", "D": "A demon"}


def cursed_life(base: int) -> int:
    """An enemy's life under a Curse: halved, rounded up (7.2)."""
    return (base + 1) // 2


def enemy_life(state: dict[str, Any], card: str) -> int:
    """L: rank (10 for a jack), halved and rounded up under a Curse (7.2)."""
    base = data.enemy_base_life(card)
    return cursed_life(base) if state["level_effects"]["curse"] else base


def describe(card: str) -> str:
    if data.rank(card) == "J":
        return "The adventurer"
    return FIGHTERS[cast(str, data.suit(card))]  # a fighter is never the joker


def start(state: dict[str, Any], pos: Sequence[int]) -> None:
    card = cell_at(state, pos)["enemy"]
    state["battle"] = {
        "pos": list(pos),
        "enemy": card,
        "enemy_life": enemy_life(state, card),
        "spell": None,
        "paralysis": 0,
        "double_attack": False,
        "super_strength": False,
        "prisoners": [],
        "strength": 0,
        "round": 0,
        "drawn": [],
        "last_attack": None,
    }
    log(state, f"{describe(card)} ({card}) fights you: life {state['battle']['enemy_life']}.")


LOWEST_ATTACK_VALUE = min(data.attack_value(code) for code in data.ALL_CODES)
"""The least an attack card can be worth: an ace, 1 (2.3)."""


BRACELET_BONUS = 3
"""What the Bracelet of Armok (the ace of spades) adds to every attack (7.3)."""
PRISONER_BONUS = 3
"""What each prisoner called into the battle adds to every attack (6.7)."""


def bonus(state: dict[str, Any]) -> int:
    """What the next attack adds to its card values: Bracelet, prisoners, strength potions (7.3)."""
    battle = state["battle"]
    strength: int = battle["strength"]
    bracelet = BRACELET_BONUS if "AS" in state["inventory"] else 0
    return bracelet + PRISONER_BONUS * len(battle["prisoners"]) + strength


HIGHEST_ATTACK_VALUE = max(data.attack_value(code) for code in data.ALL_CODES)
"""The most an attack card can be worth: a ten or a face card, 10 (2.3)."""


def multiplier(state: dict[str, Any]) -> int:
    """What each attack card's value counts for: twice under Super Strength (8.3)."""
    return 2 if state["battle"]["super_strength"] else 1


def card_sum(cards: list[str]) -> int:
    """The attack cards' values, before the multiplier and the bonus."""
    return sum(data.attack_value(c) for c in cards)


def score(state: dict[str, Any], cards: list[str]) -> int:
    return multiplier(state) * card_sum(cards) + bonus(state)


def magic_shielded(state: dict[str, Any]) -> bool:
    """Anti-Magic is active and the enemy is an evil magician: no round can cost life (R15)."""
    return state["level_effects"]["anti_magic"] and data.is_magician(state["battle"]["enemy"])


def shielded(state: dict[str, Any]) -> bool:
    """No round of this battle can cost life now: Paralysis, or Anti-Magic against a magician."""
    return state["battle"]["paralysis"] > 0 or magic_shielded(state)


def forecast(state: dict[str, Any]) -> dict[str, Any]:
    """What the next attack must draw to win, from what the player sees (the battle, the bag, the
    level's effects; never the Hand Deck): ``draws`` cards, each counted ``multiplier`` times, plus
    ``bonus``; ``worth_to_win``, what the drawn cards' values must add up to (0: any card wins);
    ``best_score``, the best draw's score, and ``least_loss``, the life even that draw loses."""
    fight = state["battle"]
    draws = 2 if fight["double_attack"] else 1
    factor = multiplier(state)
    added = bonus(state)
    need = fight["enemy_life"] - added
    best = factor * HIGHEST_ATTACK_VALUE * draws + added
    return {
        "draws": draws,
        "multiplier": factor,
        "bonus": added,
        "worth_to_win": -(-need // factor) if need > 0 else 0,
        "best_score": best,
        "least_loss": max(0, fight["enemy_life"] - best),
    }


def attack(state: dict[str, Any]) -> None:
    battle = state["battle"]
    needed = 2 if battle["double_attack"] else 1
    if len(state["hand_deck"]) < needed:
        log(state, "No attack card is left to draw.")
        end(state, "stranded")
        return
    cards = [draw(state) for _ in range(needed)]
    if (
        state["options"]["strength_after_attack"]
        and score(state, cards) < battle["enemy_life"]
        and any(data.is_strength_potion(c) for c in state["inventory"])
    ):
        # 11.3: the round pauses so that strength potions may still be drunk.
        battle["drawn"] = cards
        log(state, f"Attack card {' + '.join(cards)}: {score(state, cards)} of {battle['enemy_life']} so far.")
        return
    resolve_round(state, cards)


def finish_attack(state: dict[str, Any]) -> None:
    battle = state["battle"]
    cards, battle["drawn"] = battle["drawn"], []
    resolve_round(state, cards)


def resolve_round(state: dict[str, Any], cards: list[str]) -> None:
    battle = state["battle"]
    total = score(state, cards)
    life = battle["enemy_life"]
    won = total >= life
    damage = 0
    if not won:
        damage = 0 if shielded(state) else life - total
    battle["last_attack"] = {"cards": list(cards), "score": total, "enemy_life": life, "damage": damage, "won": won}
    if won:
        log(state, f"Attack {' + '.join(cards)} scores {total} against {life}: the enemy is defeated.")
    else:
        state["life"] -= damage
        state["counters"]["life_lost"] += damage
        log(state, f"Attack {' + '.join(cards)} scores {total} against {life}: you lose {damage} life.")
    # End of round (7.3.5).
    for card in cards:
        under(state, card)
    battle["strength"] = 0
    battle["double_attack"] = False
    if battle["paralysis"]:
        battle["paralysis"] -= 1
    battle["round"] += 1
    state["counters"]["rounds"] += 1
    if state["life"] <= 0:
        state["life"] = 0
        end(state, "dead")
        return
    if won:
        win(state)


def release_prisoners(state: dict[str, Any]) -> None:
    """When a battle ends in any way its prisoners go under (6.7, R33)."""
    for card in state["battle"]["prisoners"]:
        under(state, card)
    state["battle"]["prisoners"] = []


def win(state: dict[str, Any]) -> None:
    """7.4: prisoners, then the enemy go under; then the treasure is acquired (if not robbed)."""
    pos = state["battle"]["pos"]
    release_prisoners(state)
    under(state, take_enemy(state, pos))
    state["battle"] = None
    if cell_at(state, pos)["treasure"] is not None:
        state["pending"].insert(0, {"step": "take", "at": list(pos)})
    else:
        log(state, f"Chamber {name(pos)} was robbed: no treasure.")


def leave(state: dict[str, Any]) -> None:
    """End the battle as with Escape: prisoners under, the enemy face down again (R28)."""
    pos = state["battle"]["pos"]
    release_prisoners(state)
    turn_guardian_down(state, pos)
    state["battle"] = None
    state["position"] = None


def turn_guardian_down(state: dict[str, Any], pos: Sequence[int]) -> None:
    cell = cell_at(state, pos)
    if cell["enemy"] is not None:
        cell["enemy_up"] = state["level_effects"]["enemies_revealed"]
        cell["enemy_seen"] = True
