"""The panel of whatever the adventurer faces: a battle, a fellow adventurer, a merchant, a
priestess, Hebrac, or a decision (Remote Vision, the Genie of Death, a full bag)."""

from __future__ import annotations

from markupsafe import Markup

from rules_engine.games.hebracs_dungeon import battle as rules
from rules_engine.games.hebracs_dungeon import data
from rules_engine.text import counted

from ...rendering import pretty_cards
from .battle import battle
from .page import Page
from .payments import picker

BATTLE_PHASES = ("battle", "after_draw")


def encounter(view: dict, page: Page) -> dict:
    """The panel of whatever the adventurer faces: ``kind`` names its part of the template."""
    phase = view["phase"]
    panel: dict = {"form": page.player, "needs": "picks" if phase == "genie_of_death" else ""}
    if phase in BATTLE_PHASES:
        panel.update(kind="battle", battle=battle(view, page))
    elif phase in ("adventurer", "trade"):
        panel.update(kind="adventurer", adventurer=adventurer(view, page))
    elif phase == "merchant":
        panel.update(kind="merchant", merchant=merchant(view, page))
    elif phase == "priestess":
        panel.update(kind="priestess", priestess=priestess(view, page))
    elif phase in ("hebrac", "hebrac_reward"):
        panel.update(kind="hebrac", hebrac=hebrac(view, page))
    elif phase == "remote_vision":
        panel.update(
            kind="remote_vision",
            points=counted(view["decision"]["points"], "point"),
            stop=page.by_type.get("stop_peeking", []),
        )
    elif phase == "genie_of_death":
        panel.update(kind="genie_of_death", genie=genie_of_death(view, page))
    elif phase == "overflow":
        panel.update(kind="overflow", limit=view["decision"]["limit"], drops=page.by_type.get("drop", []))
    else:
        panel.update(kind="")
    fight = view["battle"]
    panel["paused"] = None
    if fight and phase not in BATTLE_PHASES:
        spell = f" (spell used: {data.SPELLS[fight['spell']]['name']})" if fight["spell"] else ""
        panel["paused"] = {
            "enemy": fight["enemy"],
            "text": f"The battle in chamber ({fight['pos'][0]},{fight['pos'][1]}) against life "
            f"{fight['enemy_life']} goes on afterwards{spell}.",
        }
    luck = "".join(f"{step['card']} " for step in view["pending"] if step["kind"] == "luck")
    panel["luck"] = pretty_cards(f"Still to come from the Genie of Luck: {luck}") if luck else ""
    return panel


def adventurer(view: dict, page: Page) -> dict:
    """A fellow adventurer (a jack): fight or propose, then the trade (section 6)."""
    meeting = view["encounter"]
    value = meeting["value"]
    inventory = view["inventory"]
    life = data.enemy_base_life(meeting["guardian"])
    curse = f" ({rules.cursed_life(life)} under the Curse)" if view["level_effects"]["curse"] else ""
    # Only an evil adventurer may still fight or rob him after proposing (11.4).
    for_good = (
        " — once you propose, you can no longer fight or rob him" if view["options"]["alignment"] == "good" else ""
    )
    panel = {
        "title": f"A fellow adventurer in ({meeting['pos'][0]},{meeting['pos'][1]})",
        "guardian": meeting["guardian"],
        "treasure": meeting["treasure"],
        "badge": f"worth {value}" if value is not None else "no trade",
        "hint": f"Life {life}{curse}. Fight him, or see his treasure and trade{for_good}.",
        "proposing": view["phase"] == "adventurer",
    }
    if panel["proposing"]:
        panel["choices"] = [
            {"button": b, "cls": "primary" if b.action["type"] == "propose_trade" else ""}
            for b in page.by_type.get("fight", []) + page.by_type.get("propose_trade", [])
        ]
        return panel
    offers = page.by_type.get("offer", [])
    if value is None:
        why = (
            "nobody wants a black priestess"
            if data.is_black_queen(meeting["treasure"])
            else "legendary treasures are never traded"
        )
        panel.update(mode="refused", text=pretty_cards(f"He will not part with {meeting['treasure']}: {why}."))
    elif not page.player:
        meres = " — nothing at all with the Bag of Meres" if "AD" in inventory else ""
        panel.update(mode="watching", text=f"He wants cards worth {value}{meres}.")
    elif "AD" in inventory:
        panel.update(mode="free", offers=offers)
    else:
        items = [(item["card"], item["value"], f"worth {item['value']}") for item in page.choices["offer_cards"]]
        chosen = offers[0].action["cards"] if offers else []
        panel.update(mode="picker", picker=picker("offer-", "a_cards[]", items, chosen, value, "points"))
    panel["others"] = page.by_type.get("decline", []) + page.by_type.get("fight", [])
    panel["illusion_hint"] = value is not None and page.player
    return panel


def merchant(view: dict, page: Page) -> dict:
    """A merchant (a king): his price in gems, paid in whole cards (6.12)."""
    meeting = view["encounter"]
    price = meeting["price"]
    treasure = meeting["treasure"]
    inventory = view["inventory"]
    gems = page.choices.get("gems") or []
    gem_total = sum(data.number(g) for g in gems)
    if price is None:
        price_text = (
            "He has sold out: gems are never for sale."
            if data.is_gem(treasure)
            else "No sale: nobody buys a black priestess."
        )
    else:
        meres = " and the Bag of Meres: it costs you nothing" if "AD" in inventory else ""
        price_text = Markup("Price <strong>{} gems</strong>. You hold {}{}.").format(
            price, counted(gem_total, "gem"), meres
        )
    buys = page.by_type.get("buy", [])
    pays = price is not None and "AD" not in inventory and page.player
    gem_picker = None
    if pays and gems:
        items = [(g, data.number(g), f"{data.number(g)} gems") for g in gems]
        gem_picker = picker("gem-", "a_gems[]", items, buys[0].action["gems"] if buys else [], price, "gems")
    return {
        "title": f"A merchant in ({meeting['pos'][0]},{meeting['pos'][1]})",
        "guardian": meeting["guardian"],
        "treasure": treasure,
        "badge": f"{price} gems" if price is not None else "not for sale",
        "sells": pretty_cards(f"He sells {treasure}"),
        "price_text": price_text,
        "fake_ace": bool(meeting["fake_ace"]),
        "picker": gem_picker,
        "can_buy": bool(buys),
        "no_gems": pays and not gems,
        "free_buys": buys if "AD" in inventory else [],
        "declines": page.by_type.get("decline", []),
        "steal_hint": page.player and (price is not None or data.is_gem(treasure)),
    }


def priestess(view: dict, page: Page) -> dict:
    meeting = view["encounter"]
    anti_magic = " Under Anti-Magic she cannot heal." if view["level_effects"]["anti_magic"] else ""
    return {
        "title": f"A white priestess in ({meeting['pos'][0]},{meeting['pos'][1]})",
        "guardian": meeting["guardian"],
        "treasure": meeting["treasure"],
        "text": (
            "She heals you to full life and leaves with her treasure unseen, or she gives you the treasure."
            + anti_magic
        ),
        "choices": [
            {"button": b, "cls": "primary" if b.action["choice"] == "treasure" else ""}
            for b in page.by_type.get("priestess", [])
        ],
    }


def hebrac(view: dict, page: Page) -> dict:
    """Hebrac's game: for the chamber's treasure (the joker), or for a card (a reward)."""
    for_treasure = view["phase"] == "hebrac"
    return {
        "title": "Hebrac himself" if for_treasure else "Hebrac's game for a card",
        "meeting": view["encounter"],
        "prize": "the chamber's treasure" if for_treasure else "the next card of the Hand Deck",
        "also_lost": " and the treasure" if for_treasure else "",
        "choices": [
            {"button": b, "cls": "primary" if b.action["type"] == "play" else ""}
            for b in page.by_type.get("play", []) + page.by_type.get("decline", [])
        ],
        "deck_empty": not page.by_type.get("play"),
        "toll": data.HEBRAC_TOLL,
    }


def genie_of_death(view: dict, page: Page) -> dict:
    """The Genie of Death: the chambers are ticked on the map, the engine's choice first."""
    count = view["decision"]["count"]
    return {
        "who": "Tick" if page.player else "The player ticks",
        "count": count,
        "chambers": "chamber" if count == 1 else "chambers",
        "picks": page.destroy_picks,
        "say": f"{{n}} of {count} chosen.",
        "chosen": f"{len(page.destroy_picks)} of {count} chosen.",
    }
