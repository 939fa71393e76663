"""Hebrac's Dungeon: what its page draws, worked out from the engine's view.

Rules: ``docs/rules/hebracs-dungeon.md``. The template (``templates/hebracs_dungeon/game.html``)
prints these values and decides nothing. Sentences that mark a word up (a number in bold, a card
with its suit symbol) come as ``Markup``, their values escaped; everything else is plain text.

The sentence under a payment picker changes as the player ticks cards, in the browser, without
asking the server: each picker carries its sentences (``say``) with ``{total}``-style blanks,
and ``static/js/hebracs_dungeon.js`` only picks one and fills the blanks in. The words are made
here and nowhere else; ``pay_text`` and ``scaled_text`` fill them for the page as first drawn.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from rules_engine.cards import Card
from rules_engine.games.hebracs_dungeon import data
from rules_engine.text import counted

from ..rendering import pretty_cards
from . import Scene, player_name, solo_ending
from .controls import buttons_by_type

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
ENEMY_KINDS = {"S": "mercenary", "H": "amazon warrior", "C": "evil magician", "D": "demon"}
BAG_GROUPS = (
    ("life", "Life potions", data.is_life_potion),
    ("gems", "Gems", data.is_gem),
    ("strength", "Strength potions", data.is_strength_potion),
    ("magic", "Magic potions", data.is_magic_potion),
    ("prisoners", "Prisoners", data.is_prisoner),
)
SCALED_UNITS = {"remote_vision": "chamber", "future_perception": "card", "healing": "life point"}
"""What one step of a scaled spell buys, in words (its cost is per step)."""
MAP_AIMS = ("teleport", "body_switch", "stone_statue", "destroy")
"""Spells and the Genie of Death that aim at chambers of the map, in the order of their CSS classes."""
BATTLE_PHASES = ("battle", "after_draw")
MAP_PHASES = ("start_level", "explore")
"""Phases with nothing to face: the page shows no encounter panel."""


NEWS_SHOWN = 6
"""The latest new log lines the "Just now" box shows."""


def present(scene: Scene) -> dict:
    view = scene.view
    page = Page(scene)
    told = ending_text(scene)
    return {
        "news": [entry["text"] for entry in scene.new_log[-NEWS_SHOWN:]],
        "root_class": f"hd phase-{view['phase']}",
        "player": page.player,
        "controls": page.controls,
        "status_line": status_line(view, page.player, scene.result and {**scene.result, "text": told}, page.by_type),
        "ending": solo_ending(
            scene, won_heading="Victory!" if page.player else f"{player_name(scene)} won!", text=told
        ),
        "result_details": result_details(scene.result) if scene.result else "",
        "hero": hero(view, page.player),
        "bag": bag(view, page),
        "encounter": encounter(view, page) if page.playing and view["phase"] not in MAP_PHASES else None,
        "level": level(view, page),
        "spellbook": spellbook(view, page) if page.controls else None,
        "give_up": page.by_type["resign"][0] if page.controls and page.by_type.get("resign") else None,
    }


class Page:
    """What every part of the page asks about the moment: who looks, and the buttons sorted."""

    def __init__(self, scene: Scene):
        view = scene.view
        self.player = scene.seat is not None and view["choices"] is not None
        self.playing = view["status"] == "playing"
        self.controls = self.player and self.playing
        """The page draws forms and buttons: the player's, while the game lasts."""
        self.choices = view["choices"] or {}
        self.by_type = buttons_by_type(scene.buttons)
        self.chamber_buttons = {
            (b.action["type"], b.action["row"], b.action["col"]): b
            for b in self.by_type.get("move", []) + self.by_type.get("peek", [])
        }
        self.drinks = {b.action["card"]: b for b in self.by_type.get("drink", [])}
        self.casts: dict[str, dict] = {}
        """Each castable spell's canonical cast: the potions the engine would spend."""
        for b in self.by_type.get("cast", []):
            self.casts.setdefault(b.action["spell"], b.action)
        self.destroy_picks = self.by_type["destroy"][0].action["targets"] if self.by_type.get("destroy") else []
        self.aims = map_aims(view, self.choices.get("targets") or {})


def map_aims(view: dict, targets: dict) -> set[tuple[str, int, int]]:
    """``(kind, row, col)`` for every chamber a spell (or the Genie of Death) may aim at on the map.

    Body Switch in a battle replaces the enemy being fought: it aims at no chamber then."""
    kinds = ["destroy", "teleport", "stone_statue"] + (["body_switch"] if view["phase"] != "battle" else [])
    return {(kind, t[0], t[1]) for kind in kinds for t in targets.get(kind, []) if t != "next_level"}


def spell_form(sid: str) -> str:
    """The id of a spell's form: the map's aiming controls join it with form="…"."""
    return f"spell-{sid}"


def short_name(code: str) -> str:
    """Rank and suit symbol in plain text ("7♣"), as the page script writes a card."""
    card = Card.parse(code)
    return f"{card.rank}{card.symbol}" if card.suit else code


# --- the status line and the adventurer ---------------------------------------------------------


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


WATCHED_ENDINGS = {
    "victory": "Victory! {name} holds the four legendary treasures.",
    "death": "{name} died in Hebrac's Dungeon.",
    "stranded": "Stranded: the Hand Deck ran out of cards.",
    "resigned": "{name} gave up the quest.",
}
"""The engine's endings (``scoring.ENDINGS``) as an onlooker reads them: the player by name."""


def ending_text(scene: Scene) -> str:
    """The result's sentence in the viewer's person ("" while the game runs): the engine's for the
    player; for an onlooker the same ending, cause of death and score, naming the player."""
    result = scene.result
    if not result:
        return ""
    if scene.seat is not None or result["reason"] not in WATCHED_ENDINGS:
        return str(result["text"])
    ending = WATCHED_ENDINGS[result["reason"]].format(name=player_name(scene))
    score = next(iter(result["scores"].values()), 0)
    return " ".join(filter(None, (ending, result.get("cause", ""), f"Score {score}.")))


def result_details(result: dict) -> str:
    details = (
        f"{result['aces']} of 4 legendary treasures · level {result['level']} reached · "
        f"{result['chambers_cleared']} chambers cleared · {result['turns']} turns · "
        f"{result['life']} life left"
    )
    return details if result["ranked"] else f"{details} · a stacked deal (not ranked)"


def hero(view: dict, player: bool) -> dict:
    """The adventurer's bar: whose it is, where the maximum life comes from, the four aces."""
    inventory = view["inventory"]
    life_note = ""
    if view["max_life"] != view["base_max_life"]:
        life_note = f"Maximum {view['base_max_life']}"
        if "AH" in inventory:
            life_note += " + 5 Ruby of Gaza"
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


# --- the bag --------------------------------------------------------------------------------------


def bag(view: dict, page: Page) -> dict:
    """The bag's treasures by kind, each with its sum and the Drink button of the first of each card."""
    inventory = view["inventory"]
    limit = view["options"]["inventory_limit"]
    fighting = view["battle"] is not None
    scepter = "AC" in inventory
    groups = []
    drinkable = set()
    for gid, title, belongs in BAG_GROUPS:
        cards = [c for c in inventory if belongs(c)]
        total = len(cards) if gid == "prisoners" else sum(data.number(c) for c in cards)
        items = []
        for c in cards:
            # Strength potions in a battle are offered in the battle panel, with their bonus.
            button = page.drinks.get(c) if gid == "life" or (gid == "strength" and not fighting) else None
            drink = button if page.controls and button and c not in drinkable else None
            if drink:
                drinkable.add(c)
            items.append(
                {
                    "card": c,
                    "badge": f"{data.number(c) * 2} pts" if gid == "magic" and scepter else None,
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


def bag_sum(gid: str, total: int, inventory: list[str]) -> str:
    if gid == "life":
        return f"{total} life in all"
    if gid == "gems":
        return f"{total} gems" + (" · Bag of Meres: buy and trade for free" if "AD" in inventory else "")
    if gid == "strength":
        return f"+{total} in all"
    if gid == "magic":
        if "AC" in inventory:
            return f"{total * 2} points (doubled by the Scepter)"
        return f"{total} points"
    return f"{total} × +3 per attack"


# --- payments: the sentences under a picker -----------------------------------------------------


def pay_words(target: int, noun: str, cards: list[str]) -> dict:
    """The sentences under a payment picker (spells, gems, offers), one per case, with blanks for
    the ``{total}``, the points ``{lost}`` and the ``{spare}`` card; ``names`` writes the cards."""
    return {
        "none": f"Choose cards worth {target} {noun}.",
        "short": f"{{total}} of {target} {noun}: not enough.",
        "spare": f"{{total}} {noun}: {{spare}} is not needed — no change is given.",
        "over": f"{{total}} {noun} for {target}: enough ({{lost}} lost, no change).",
        "exact": f"{{total}} {noun}: exactly enough.",
        "names": {c: short_name(c) for c in cards},
    }


def pay_case(values: list[int], target: int) -> str:
    """Which sentence of ``pay_words`` fits the chosen cards' worth: at least the price, no
    superfluous card, no change given (9.3, for gems, offers and fixed-cost spells alike).

    The page script decides the same way as the ticks change."""
    total = sum(values)
    if not values:
        return "none"
    if total < target:
        return "short"
    if total - min(values) >= target:
        return "spare"
    return "over" if total > target else "exact"


def pay_text(say: dict, values: list[int], cards: list[str], target: int) -> Markup:
    """The sentence for the cards ticked as the page is drawn (the spare card with its suit symbol)."""
    case = pay_case(values, target)
    total = sum(values)
    spare = pretty_cards(cards[values.index(min(values))]) if case == "spare" else ""
    return Markup(escape(say[case])).format(total=total, lost=total - target, spare=spare)


def scaled_words(unit: str) -> dict:
    """The sentences under a scaled spell's picker: ``{units}`` bought and points ``{lost}``, each
    phrase singular (``_one``) or plural (``_other``)."""
    return {
        "none": "Choose at least one magic potion.",
        "sentence": "{total} points: {units}{lost}.",
        "units_one": f"{{units}} {unit}",
        "units_other": f"{{units}} {unit}s",
        "lost_one": ", {lost} point lost",
        "lost_other": ", {lost} points lost",
    }


def scaled_text(say: dict, total: int, per: int, cap: int) -> str:
    """What ``total`` points buy: whole steps of ``per`` points, at most ``cap`` of them."""
    if total == 0:
        return say["none"]
    units = min(total // per, cap)
    lost = total - units * per
    bought = say["units_one" if units == 1 else "units_other"].format(units=units)
    wasted = say["lost_one" if lost == 1 else "lost_other"].format(lost=lost) if lost else ""
    return say["sentence"].format(total=total, units=bought, lost=wasted)


def checked_flags(cards: list[str], chosen: list[str]) -> list[bool]:
    """Which of ``cards`` start ticked: the engine's canonical choice, copies counted."""
    left: dict[str, int] = {}
    for c in chosen:
        left[c] = left.get(c, 0) + 1
    flags = []
    for c in cards:
        flags.append(left.get(c, 0) > 0)
        if flags[-1]:
            left[c] -= 1
    return flags


def picker(
    prefix: str,
    field: str,
    items: list[tuple[str, int, str]],
    chosen: list[str],
    target: int,
    noun: str,
    *,
    scaled: dict | None = None,
) -> dict:
    """A payment picker: ``items`` are (card, worth, caption); ``chosen`` the cards ticked at first.

    ``scaled`` (``per``, ``cap``, ``unit``) buys whole steps instead of reaching a price."""
    cards = [card for card, _, _ in items]
    flags = checked_flags(cards, chosen)
    rows = [
        {"id": f"{prefix}{i}", "name": field, "card": card, "value": worth, "caption": caption, "checked": flag}
        for i, ((card, worth, caption), flag) in enumerate(zip(items, flags), start=1)
    ]
    ticked = [(card, worth) for (card, worth, _), flag in zip(items, flags) if flag]
    values = [worth for _, worth in ticked]
    if scaled:
        say = scaled_words(scaled["unit"])
        text = scaled_text(say, sum(values), scaled["per"], scaled["cap"])
    else:
        say = pay_words(target, noun, cards)
        text = pay_text(say, values, [card for card, _ in ticked], target)
    return {"items": rows, "target": target, "scaled": scaled, "say": say, "text": text}


# --- the encounter of the moment ----------------------------------------------------------------


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


def battle(view: dict, page: Page) -> dict:
    """A battle (section 5): what helps, then the attack drawn (``drawn``) or the next one forecast."""
    fight = view["battle"]
    inventory = view["inventory"]
    effects = view["level_effects"]
    factor = 2 if fight["super_strength"] else 1
    bonus = (3 if "AS" in inventory else 0) + 3 * len(fight["prisoners"]) + fight["strength"]
    magician_shielded = effects["anti_magic"] and data.is_magician(fight["enemy"])
    shielded = fight["paralysis"] > 0 or magician_shielded
    life = fight["enemy_life"]
    enemy = fight["enemy"]
    panel = {
        "title": f"Battle in chamber ({fight['pos'][0]},{fight['pos'][1]})",
        "enemy": enemy,
        "foe_name": (
            "Fellow adventurer" if data.rank(enemy) == "J" else ENEMY_KINDS.get(data.suit(enemy) or "", "").capitalize()
        ),
        "enemy_life": life,
        "cursed": bool(effects["curse"]),
        "round_text": (
            f"Round {fight['round'] + 1}. Every attack must reach {life} on its own: enemies do not keep damage."
        ),
        "spell_chip": spell_chip(fight),
        "helps": battle_helps(fight, inventory, magician_shielded),
        "spell_allowed": not fight["spell"],
        "drawn": None,
        "forecast": None,
        "last": None,
    }
    strength = [
        {"button": b, "words": pretty_cards(f"Drink {b.action['card']} (+{data.number(b.action['card'])})")}
        for b in page.by_type.get("drink", [])
        if data.is_strength_potion(b.action["card"])
    ]
    if view["phase"] == "after_draw":
        drawn_sum = sum(data.attack_value(c) for c in fight["drawn"])
        so_far = factor * drawn_sum + bonus
        if so_far >= life:
            verdict = "enough to win."
        elif shielded:
            verdict = "short, but no damage this round."
        else:
            verdict = f"you would lose {life - so_far} life."
        panel["drawn"] = {
            "hint": (
                f"Attack card{'s' if len(fight['drawn']) > 1 else ''} drawn (round {fight['round'] + 1})"
                " — strength potions may still be added:"
            ),
            "cards": attack_cards(fight["drawn"]),
            "sum": attack_sum(drawn_sum, factor, bonus),
            "total": so_far,
            "against": life,
            "verdict": verdict,
        }
        panel["drinks"] = strength
        panel["finish"] = page.by_type.get("finish_attack", [])
        return panel
    panel["forecast"] = forecast(fight, factor, bonus, shielded)
    last = fight["last_attack"]
    if last:
        last_sum = sum(data.attack_value(c) for c in last["cards"])
        if last["won"]:
            verdict = "defeated."
        elif last["damage"]:
            verdict = Markup('you lost <strong class="dmg">{}</strong> life ({} − {}).').format(
                last["damage"], last["enemy_life"], last["score"]
            )
        else:
            verdict = "short, but no damage."
        panel["last"] = {
            "hint": f"Last attack (round {fight['round']}):",
            "cards": attack_cards(last["cards"]),
            "sum": attack_sum(last_sum, factor, last["score"] - factor * last_sum),
            "total": last["score"],
            "against": last["enemy_life"],
            "verdict": verdict,
        }
    calls = [
        {"button": b, "words": pretty_cards(f"Call prisoner {b.action['card']} (+3 each attack)")}
        for b in page.by_type.get("call_prisoner", [])
    ]
    panel["prep"] = strength + calls
    panel["attack"] = page.by_type.get("attack", [])
    return panel


def spell_chip(fight: dict) -> dict:
    """Whether this battle's one spell (7.6) is used: its chip's look (``cls``) and words."""
    if fight["spell"]:
        return {"cls": "used", "text": f"Spell used: {data.SPELLS[fight['spell']]['name']} (one per battle)"}
    return {"cls": "free", "text": "One spell allowed in this battle"}


def battle_helps(fight: dict, inventory: list[str], magician_shielded: bool) -> list[str]:
    """What else helps this battle, one chip each."""
    helps = []
    if "AS" in inventory:
        helps.append("Bracelet of Armok +3")
    if fight["prisoners"]:
        prisoners = "".join(f"{p} " for p in fight["prisoners"])
        helps.append(pretty_cards(f"Prisoners {prisoners}+{3 * len(fight['prisoners'])}"))
    if fight["strength"]:
        helps.append(f"Strength potions +{fight['strength']} (next attack)")
    if fight["super_strength"]:
        helps.append("Super Strength: card values ×2")
    if fight["double_attack"]:
        helps.append("Double Attack: next attack draws two cards")
    if fight["paralysis"]:
        helps.append(f"Paralysis: {fight['paralysis']} round{'s' if fight['paralysis'] > 1 else ''} without damage")
    if magician_shielded:
        helps.append("Anti-Magic: this magician cannot hurt you")
    return helps


def attack_cards(cards: list[str]) -> list[dict]:
    return [{"code": c, "badge": data.attack_value(c)} for c in cards]


def attack_sum(cards_sum: int, factor: int, bonus: int) -> str:
    """An attack's sum before its total: "7 × 2 + 3"."""
    return f"{cards_sum}" + (" × 2" if factor == 2 else "") + (f" + {bonus}" if bonus else "")


def forecast(fight: dict, factor: int, bonus: int, shielded: bool) -> dict:
    """What the next attack must draw to win, and what falling short costs."""
    draws = 2 if fight["double_attack"] else 1
    need = fight["enemy_life"] - bonus
    per = -(-need // factor) if need > 0 else 0
    lead = (
        f"Next attack: the top {'two cards' if draws == 2 else 'card'} of the Hand Deck"
        + (" × 2" if factor == 2 else "")
        + (f" + {bonus}" if bonus else "")
        + "."
    )
    not_now = " — but not this round" if shielded else ""
    if per <= 0:
        verdict = "Any card wins."
    elif per <= 10 * draws:
        verdict = Markup("{} <strong>{}</strong> or more wins; less costs you the difference{}.").format(
            "Cards worth" if draws == 2 else "A card worth", per, not_now
        )
    else:
        verdict = (
            f"Even {'two tens' if draws == 2 else 'a ten'} cannot win: you lose at least "
            f"{fight['enemy_life'] - bonus - factor * 10 * draws} life{not_now}."
        )
    return {"lead": lead, "verdict": verdict}


def adventurer(view: dict, page: Page) -> dict:
    """A fellow adventurer (a jack): fight or propose, then the trade (section 6)."""
    meeting = view["encounter"]
    value = meeting["value"]
    inventory = view["inventory"]
    curse = " (5 under the Curse)" if view["level_effects"]["curse"] else ""
    # Only an evil adventurer may still fight or rob him after proposing (11.4).
    for_good = (
        " — once you propose, you can no longer fight or rob him" if view["options"]["alignment"] == "good" else ""
    )
    panel = {
        "title": f"A fellow adventurer in ({meeting['pos'][0]},{meeting['pos'][1]})",
        "guardian": meeting["guardian"],
        "treasure": meeting["treasure"],
        "badge": f"worth {value}" if value is not None else "no trade",
        "hint": f"Life 10{curse}. Fight him, or see his treasure and trade{for_good}.",
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


# --- the level: effects and the map ---------------------------------------------------------------


def level(view: dict, page: Page) -> dict:
    effects = view["level_effects"]
    chips = []
    if effects["anti_magic"] or effects["curse"] or effects["enemies_revealed"]:
        if effects["anti_magic"]:
            chips.append("Anti-Magic")
        if effects["curse"]:
            chips.append("Curse: enemies' life halved")
        if effects["treasures_revealed"]:
            chips.append("Every card revealed")
        elif effects["enemies_revealed"]:
            chips.append("Enemies revealed")
    descents = page.by_type.get("descend", [])
    descent_hint = ""
    if not descents and view["phase"] == "explore":
        left = view["descent_threshold"] - view["cleared"]
        descent_hint = (
            f"Clear {counted(left, 'more chamber')} to be allowed down (or Teleport); "
            "clearing them all takes you down at once."
        )
    return {"effects": chips, "cells": chambers(view, page), "descents": descents, "descent_hint": descent_hint}


def chambers(view: dict, page: Page) -> list[dict]:
    """Every chamber of the level, row by row: its look, its words for a screen reader, its controls."""
    fight, meeting = view["battle"], view["encounter"]
    focus = tuple(fight["pos"]) if fight else (tuple(meeting["pos"]) if meeting else None)
    cells = []
    for row in view["grid"]:
        for cell in row:
            r, c = cell["row"], cell["col"]
            enter = page.chamber_buttons.get(("move", r, c))
            peek = page.chamber_buttons.get(("peek", r, c))
            seen = cell["remembered"]
            revealed = cell["enemy_up"] and not cell["visited"]
            classes = ["chamber"]
            classes += [
                name
                for name, on in (
                    ("visited", cell["visited"]),
                    ("cleared", cell["cleared"]),
                    ("here", cell["here"]),
                    ("active", focus == (r, c)),
                    ("reachable", enter),
                    ("peekable", peek),
                    ("corner", cell["corner"] and view["phase"] == "start_level"),
                )
                if on
            ]
            classes += [f"t-{kind}" for kind in MAP_AIMS if (kind, r, c) in page.aims]
            if cell["enemy_up"]:
                enemy = {"code": cell["enemy"], "extra": "cc revealed" if revealed else "cc"}
            elif seen:
                enemy = {"code": seen, "extra": "cc remembered"}
            else:
                enemy = {"code": None, "extra": "cc"}
            cells.append(
                {
                    "key": f"{r},{c}",
                    "classes": " ".join(classes),
                    "pair_classes": " ".join(
                        ["pair"]
                        + (["has-e"] if cell["enemy_present"] else [])
                        + (["has-t"] if cell["treasure_present"] else [])
                    ),
                    "label": chamber_label(cell, seen, revealed, enter is not None),
                    "treasure": (
                        {"code": cell["treasure"] if cell["treasure_up"] else None}
                        if cell["treasure_present"]
                        else None
                    ),
                    "enemy": enemy if cell["enemy_present"] else None,
                    "floor": ("✓" if cell["visited"] else "") if cell["cleared"] else None,
                    "here": cell["here"],
                    "tags": [
                        {"cls": cls, "word": word}
                        for cls, word, on in (
                            ("seen", "seen", seen),
                            ("rev", "revealed", revealed),
                            ("robbed", "robbed", cell["robbed"]),
                        )
                        if on
                    ],
                    "enter": enter if page.controls else None,
                    "peek": peek if page.controls else None,
                    "aims": chamber_aims(r, c, page) if page.controls else [],
                }
            )
    return cells


def chamber_label(cell: dict, seen: str | None, revealed: bool, enterable: bool) -> str:
    """A chamber in words: what the picture of its two cards shows."""
    words = f"Chamber ({cell['row']},{cell['col']}): " + ("you are here; " if cell["here"] else "")
    if cell["cleared"]:
        words += "cleared"
    else:
        words += "visited" if cell["visited"] else "unexplored"
        if not cell["enemy_present"]:
            words += ", no enemy"
        elif cell["enemy_up"]:
            words += f", enemy {Card.parse(cell['enemy']).name}" + (" (revealed)" if revealed else "")
        elif seen:
            words += f", enemy face down, you saw {Card.parse(seen).name}"
        else:
            words += ", enemy face down"
        if cell["treasure_present"]:
            words += ", treasure " + (Card.parse(cell["treasure"]).name if cell["treasure_up"] else "face down")
        if cell["robbed"]:
            words += ", robbed"
    return words + ("; you can enter" if enterable else "")


AIM_CONTROLS = {
    "destroy": ("checkbox", "aim-destroy", "Destroy", " the enemy of {at}"),
    "teleport": ("radio", "aim-teleport", "Go", " to {at} by Teleport"),
    "body_switch": ("radio", "aim-bs", "Switch", " the enemy of {at} by Body Switch"),
    "stone_statue": ("checkbox", "aim-stone", "Stone", " the enemy of {at}"),
}
"""How each kind of aim is drawn on a chamber: its control (a checkbox ticks one of several
chambers, gathered by the page script; a radio chooses the one ``j_target``), its id's prefix, its
word, and what a screen reader hears after the word."""


def chamber_aims(r: int, c: int, page: Page) -> list[dict]:
    """The controls on this chamber that aim a castable spell, or the Genie of Death, at it: each
    joins its form (the encounter's, or the spell's) with form="…"."""
    aims = []
    for kind, (control, prefix, word, heard) in AIM_CONTROLS.items():
        if (kind, r, c) not in page.aims or (kind != "destroy" and kind not in page.casts):
            continue
        ticks = control == "checkbox"
        aims.append(
            {
                "kind": kind,
                "input": control,
                "id": f"{prefix}-{r}-{c}",
                "form": "hd-act" if kind == "destroy" else spell_form(kind),
                "name": "" if ticks else "j_target",
                "pick": ticks,
                "value": f"[{r},{c}]",
                "checked": kind == "destroy" and [r, c] in page.destroy_picks,
                "word": word,
                "heard": heard.format(at=f"({r},{c})"),
            }
        )
    return aims


# --- the spell book -------------------------------------------------------------------------------


def spellbook(view: dict, page: Page) -> dict:
    """Every spell (section 8): its cost and occasions, whether it can be cast now or why not,
    and for each castable one its form, the engine's canonical potions ticked."""
    potions = page.choices["potions"]
    points = sum(p["points"] for p in potions)
    hint = counted(points, "magic point") + " in potions"
    fight = view["battle"]
    if fight:
        hint += " · this battle's spell is used" if fight["spell"] else " · one spell per battle"
    in_battle = view["phase"] == "battle"
    spells = []
    for sid, spec in data.SPELLS.items():
        standing = page.choices["spells"][sid]
        cast = page.casts.get(sid)
        unit = SCALED_UNITS.get(sid, "")
        entry = {
            "id": sid,
            "form": spell_form(sid),
            "name": spec["name"],
            "cost": f"{spec['cost']} per {unit}" if spec["scaled"] else f"{spec['cost']} points",
            "text": spec["text"],
            "ready": cast is not None,
            "state": "Ready — open to cast" if cast else f"Not now: {standing['reason']}",
            "when": "When: " + ", ".join(data.OCCASIONS[w] for w in spec["when"]) + ".",
            "needs": "",
            "aim": "",
            "picker": None,
        }
        if cast:
            entry["needs"] = (
                "target"
                if sid == "teleport" or (sid == "body_switch" and not in_battle)
                else "picks"
                if sid == "stone_statue"
                else ""
            )
            # How the spell is aimed: the template draws the matching note (or destination).
            entry["aim"] = {
                "teleport": "teleport",
                "stone_statue": "stone_statue",
                "body_switch": "body_switch_battle" if in_battle else "body_switch_map",
            }.get(sid, "")
            scaled = {"per": spec["cost"], "cap": standing["cap"], "unit": unit} if spec["scaled"] else None
            items = [(p["card"], p["points"], f"{p['points']} pts") for p in potions]
            entry["picker"] = picker(
                f"{spell_form(sid)}-p", "a_potions[]", items, cast["potions"], spec["cost"], "points", scaled=scaled
            )
        spells.append(entry)
    # What can be cast now comes first; the rest waits folded, each with its reason, so the book
    # does not fill the page with "Not now".
    others = [entry for entry in spells if not entry["ready"]]
    return {
        "hint": hint,
        "spells": spells,
        "ready": [entry for entry in spells if entry["ready"]],
        "others": others,
        "others_title": f"Other spells ({len(others)})",
        "stone_say": "{n} chosen.",
        "stone_chosen": "0 chosen.",
    }
