"""The warning before an action that certainly ends the game in a loss (the contract's ``loss_warning``).

Certain means: whatever the face-down cards and the Hand Deck's order, the action loses. The
cards the player foresaw with Future Perception (``known_top``) are theirs to know, so a warning
may read them; any other unseen card makes an outcome uncertain, and is never read.
"""

from __future__ import annotations

from typing import Any

from rules_engine.cards import pretty

from . import battle, data
from .state import chamber_count


def _known_top(state: dict[str, Any]) -> list[str]:
    return list(state["hand_deck"][: state["known_top"]])


def _finish_warning(state: dict[str, Any], cards: list[str], verb: str) -> str | None:
    """Resolving a round with ``cards`` (all known) kills the player."""
    fight = state["battle"]
    total = battle.score(state, cards)
    if total >= fight["enemy_life"] or battle.shielded(state):
        return None
    damage = fight["enemy_life"] - total
    if state["life"] - damage > 0:
        return None
    return (
        f"{verb} kills you: {' + '.join(pretty(c) for c in cards)} scores {total} against "
        f"{fight['enemy_life']}, a loss of {damage} life, and you have {state['life']}."
    )


def _attack_warning(state: dict[str, Any]) -> str | None:
    fight = state["battle"]
    needed = 2 if fight["double_attack"] else 1
    if len(state["hand_deck"]) < needed:
        return "Attacking now loses the game: the Hand Deck has no attack card left to draw, and you are stranded."
    strength_left = state["options"]["strength_after_attack"] and any(
        data.is_strength_potion(c) for c in state["inventory"]
    )
    if strength_left:
        return None  # a weak draw pauses the round, and a strength potion may still turn it (11.3)
    known = _known_top(state)
    if len(known) >= needed:
        return _finish_warning(state, known[:needed], "Attacking now")
    if battle.shielded(state):
        return None
    best = battle.forecast(state)
    least_damage = best["least_loss"]
    if least_damage <= 0 or state["life"] - least_damage > 0:
        return None
    return (
        f"Attacking now kills you: even the best draw scores {best['best_score']} against {fight['enemy_life']}, "
        f"a loss of at least {least_damage} life, and you have {state['life']}."
    )


def _hebrac_warning(state: dict[str, Any]) -> str | None:
    known = _known_top(state)
    if state["life"] > data.HEBRAC_TOLL or not known or data.is_red(known[0]):
        return None
    return (
        f"Playing Hebrac's game kills you: his test card is the {pretty(known[0])} you foresaw, "
        f"which costs {data.HEBRAC_TOLL} life, and you have {state['life']}."
    )


def _descent_warning(state: dict[str, Any]) -> str | None:
    on_the_level = sum(
        (cell["enemy"] is not None) + (cell["treasure"] is not None) for row in state["grid"] for cell in row
    )
    after_sweep = len(state["hand_deck"]) + on_the_level
    needed = 2 * chamber_count(state)
    if after_sweep >= needed:
        return None
    return (
        f"Going down now loses the game: the Hand Deck would hold {after_sweep} cards and the next level "
        f"needs {needed}, so you are stranded."
    )


def loss_warning(state: dict[str, Any], action: dict[str, Any]) -> str | None:
    if state["status"] != "playing":
        return None
    kind, phase = action.get("type"), state["phase"]
    if kind == "finish_attack" and phase == "after_draw":
        return _finish_warning(state, list(state["battle"]["drawn"]), "Finishing the attack")
    if kind == "attack" and phase == "battle":
        return _attack_warning(state)
    if kind == "play" and phase in ("hebrac", "hebrac_reward") and state["hand_deck"]:
        return _hebrac_warning(state)
    if kind == "descend" and phase == "explore":
        return _descent_warning(state)
    return None
