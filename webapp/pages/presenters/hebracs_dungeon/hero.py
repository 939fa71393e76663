"""The adventurer's bar: whose it is, the maximum life's sources, the four legendary treasures."""

from __future__ import annotations

from rules_engine.cards import Card
from rules_engine.games.hebracs_dungeon import data


def hero(view: dict, player: bool) -> dict:
    """The adventurer's bar: whose it is, where the maximum life comes from, the four aces."""
    inventory = view["inventory"]
    life_note = ""
    if view["max_life"] != view["base_max_life"]:
        life_note = f"Maximum {view['base_max_life']}"
        if "AH" in inventory:
            life_note += f" + {data.RUBY_LIFE} Ruby of Gaza"
        if view["genie_life_bonus"]:
            life_note += f" + {view['genie_life_bonus']} Genie of Life"
    aces = []
    for ace in data.LEGENDARY:
        card = Card.parse(ace)
        found = ace in inventory
        aces.append(
            {
                "code": ace,
                "found": found,
                "state": "found" if found else "missing",
                "colour": card.colour,
                "symbol": card.symbol,
                "name": data.LEGENDARY_NAMES[ace].removeprefix("the "),
                "heard": ": found" if found else ": not found yet",
            }
        )
    return {"title": "Your adventurer" if player else "The adventurer", "life_note": life_note, "aces": aces}
