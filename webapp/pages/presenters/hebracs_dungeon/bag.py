"""The bag: the treasures by kind, their sums, and the Drink buttons."""

from __future__ import annotations

from rules_engine.games.hebracs_dungeon import battle, data
from rules_engine.text import counted

from .page import Page

BAG_GROUPS = (
    ("life", "Life potions", data.is_life_potion),
    ("gems", "Gems", data.is_gem),
    ("strength", "Strength potions", data.is_strength_potion),
    ("magic", "Magic potions", data.is_magic_potion),
    ("prisoners", "Prisoners", data.is_prisoner),
)


def bag(view: dict, page: Page) -> dict:
    """The bag's treasures by kind, each with its sum and the Drink button of the first of each card."""
    inventory = view["inventory"]
    limit = view["options"]["inventory_limit"]
    fighting = view["battle"] is not None
    groups = []
    drinkable = set()
    for gid, title, belongs in BAG_GROUPS:
        cards = [c for c in inventory if belongs(c)]
        # Prisoners are counted; magic potions count their points (the Scepter multiplies them);
        # the rest, their ranks.
        worth = {} if gid == "prisoners" else {c: bag_worth(gid, c, inventory) for c in cards}
        total = len(cards) if gid == "prisoners" else sum(worth[c] for c in cards)
        items = []
        for c in cards:
            # In a battle every potion is offered in the battle panel, with what it adds (one
            # button per action: the page's ids are the actions').
            button = page.drinks.get(c) if gid in ("life", "strength") and not fighting else None
            drink = button if page.controls and button and c not in drinkable else None
            if drink:
                drinkable.add(c)
            items.append(
                {
                    "card": c,
                    "badge": f"{worth[c]} pts" if gid == "magic" and "AC" in inventory else None,
                    "drink": drink,
                }
            )
        groups.append({"id": gid, "title": title, "sum": bag_sum(gid, total, inventory), "items": items})
    count = counted(len(inventory), "treasure") + (f" of {limit} allowed" if limit else "")
    where = "are offered in the battle panel." if fighting else "work in battles only."
    return {
        "title": "Your bag" if page.player else "The bag",
        "count": count,
        "form": page.controls and view["phase"] != "overflow",
        "groups": groups,
        "note": f"Strength potions and prisoners {where} Aces are shown with the goal above.",
        # In play the spell book takes the side column and the bag goes under the map.
        "under_map": page.controls,
    }


def bag_worth(gid: str, card: str, inventory: list[str]) -> int:
    return data.potion_points(card, inventory) if gid == "magic" else data.number(card)


def bag_sum(gid: str, total: int, inventory: list[str]) -> str:
    if gid == "life":
        return f"{total} life in all"
    if gid == "gems":
        return f"{total} gems" + (" · Bag of Meres: buy and trade for free" if "AD" in inventory else "")
    if gid == "strength":
        return f"+{total} in all"
    if gid == "magic":
        if "AC" in inventory:
            return f"{total} points (doubled by the Scepter)"
        return f"{total} points"
    return f"{total} × +{battle.PRISONER_BONUS} per attack"
