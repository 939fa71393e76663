"""The line under the title, and the end of the game in words."""

from __future__ import annotations

from rules_engine.games.hebracs_dungeon import scoring

from .. import Scene, player_name

PHASE_TEXT = {
    "start_level": "Level {level}: choose a corner chamber to enter.",
    "explore": "Explore: enter a chamber next to one you have visited.",
    "battle": "Battle! Prepare — strength potions, prisoners, one spell — then attack.",
    "after_draw": "The attack falls short: drink strength potions, then finish the attack.",
    "adventurer": "A fellow adventurer: fight him or propose a trade.",
    "trade": "A trade: choose the cards to offer, or decline.",
    "merchant": "A merchant: buy his treasure with gems, or decline.",
    "priestess": "A white priestess: be healed, or take the treasure.",
    "hebrac": "Hebrac offers his game: play or decline.",
    "hebrac_reward": "Hebrac's game for a card: play or decline.",
    "remote_vision": "Remote Vision: choose chambers on the map to look into.",
    "genie_of_death": "The Genie of Death: choose the chambers on the map.",
    "overflow": "Your bag is over its limit: drop one treasure.",
}
EXPLORE_OR_DESCEND = "Explore: enter a chamber next to one you have visited, or go down a level."


def status_line(view: dict, player: bool, result: dict | None, by_type: dict) -> dict:
    """The line under the title: how it looks (``tone``), its bold ``lead`` and the ``text`` after it."""
    if view["phase"] == "explore" and by_type.get("descend"):
        phase_text = EXPLORE_OR_DESCEND
    else:
        phase_text = PHASE_TEXT.get(view["phase"], "").format(level=view["level"])
    if result:
        return {"tone": "over", "lead": "Game over.", "text": result["text"]}
    if player:
        return {"tone": "", "lead": "Your move.", "text": phase_text}
    return {
        "tone": "watching",
        "lead": "Watching live.",
        "text": f"Only the player who started this game can act. {phase_text}",
    }


def ending_text(scene: Scene) -> str:
    """The result's sentence in the viewer's person ("" while the game runs): the engine's for the
    player; for an onlooker the engine's onlooker sentence (``scoring.watched_text``), naming the player."""
    result = scene.result
    if not result:
        return ""
    if scene.seat is not None:
        return str(result["text"])
    return scoring.watched_text(result, player_name(scene))


def result_details(result: dict) -> str:
    details = (
        f"{result['aces']} of 4 legendary treasures · level {result['level']} reached · "
        f"{result['chambers_cleared']} chambers cleared · {result['turns']} turns · "
        f"{result['life']} life left"
    )
    return details if result["ranked"] else f"{details} · a stacked deal (not ranked)"
