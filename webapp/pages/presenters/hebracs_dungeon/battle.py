"""A battle (section 7): the enemy, what helps, the attack drawn or the next one forecast.

The arithmetic is the engine's (``battle.forecast``, ``drawn_score``, ``shielded`` in the view):
this module puts it in words."""

from __future__ import annotations

from markupsafe import Markup

from rules_engine.games.hebracs_dungeon import battle as rules
from rules_engine.games.hebracs_dungeon import data

from ...rendering import pretty_cards
from .page import Page

ENEMY_KINDS = {"S": "mercenary", "H": "amazon warrior", "C": "evil magician", "D": "demon"}


def battle(view: dict, page: Page) -> dict:
    """A battle (section 5): what helps, then the attack drawn (``drawn``) or the next one forecast."""
    fight = view["battle"]
    inventory = view["inventory"]
    effects = view["level_effects"]
    ahead = fight["forecast"]
    factor, bonus = ahead["multiplier"], ahead["bonus"]
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
        "helps": battle_helps(fight, inventory),
        "spell_allowed": not fight["spell"],
        "drawn": None,
        "forecast": None,
        "last": None,
    }
    # Every potion the rules let the player drink now, strength and life alike: a wounded player
    # reads the battle panel, not the bag, before the next attack.
    drinks = [
        {"button": b, "words": pretty_cards(f"Drink {b.action['card']} (+{data.number(b.action['card'])})")}
        for b in page.by_type.get("drink", [])
        if data.is_strength_potion(b.action["card"])
    ] + [
        {"button": b, "words": pretty_cards(f"Drink {b.action['card']} (+{data.number(b.action['card'])} life)")}
        for b in page.by_type.get("drink", [])
        if data.is_life_potion(b.action["card"])
    ]
    if view["phase"] == "after_draw":
        so_far = fight["drawn_score"]
        if so_far >= life:
            verdict = "enough to win."
        elif fight["shielded"]:
            verdict = "short, but no damage this round."
        else:
            verdict = f"you would lose {life - so_far} life."
        panel["drawn"] = {
            "hint": (
                f"Attack card{'s' if len(fight['drawn']) > 1 else ''} drawn (round {fight['round'] + 1})"
                " — strength potions may still be added:"
            ),
            "cards": attack_cards(fight["drawn"]),
            "sum": attack_sum(fight["drawn_sum"], factor, bonus),
            "total": so_far,
            "against": life,
            "verdict": verdict,
        }
        panel["drinks"] = drinks
        panel["finish"] = page.by_type.get("finish_attack", [])
        return panel
    panel["forecast"] = forecast(ahead, fight["shielded"])
    last = fight["last_attack"]
    if last:
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
            "sum": attack_sum(last["card_sum"], factor, last["bonus"]),
            "total": last["score"],
            "against": last["enemy_life"],
            "verdict": verdict,
        }
    calls = [
        {"button": b, "words": pretty_cards(f"Call prisoner {b.action['card']} (+{rules.PRISONER_BONUS} each attack)")}
        for b in page.by_type.get("call_prisoner", [])
    ]
    panel["prep"] = drinks + calls
    panel["attack"] = page.by_type.get("attack", [])
    return panel


def spell_chip(fight: dict) -> dict:
    """Whether this battle's one spell (7.6) is used: its chip's look (``cls``) and words."""
    if fight["spell"]:
        return {"cls": "used", "text": f"Spell used: {data.SPELLS[fight['spell']]['name']} (one per battle)"}
    return {"cls": "free", "text": "One spell allowed in this battle"}


def battle_helps(fight: dict, inventory: list[str]) -> list[str]:
    """What else helps this battle, one chip each."""
    helps = []
    if "AS" in inventory:
        helps.append(f"Bracelet of Armok +{rules.BRACELET_BONUS}")
    if fight["prisoners"]:
        prisoners = "".join(f"{p} " for p in fight["prisoners"])
        helps.append(pretty_cards(f"Prisoners {prisoners}+{rules.PRISONER_BONUS * len(fight['prisoners'])}"))
    if fight["strength"]:
        helps.append(f"Strength potions +{fight['strength']} (next attack)")
    if fight["super_strength"]:
        helps.append("Super Strength: card values ×2")
    if fight["double_attack"]:
        helps.append("Double Attack: next attack draws two cards")
    if fight["paralysis"]:
        helps.append(f"Paralysis: {fight['paralysis']} round{'s' if fight['paralysis'] > 1 else ''} without damage")
    if fight["magic_shielded"]:
        helps.append("Anti-Magic: this magician cannot hurt you")
    return helps


def attack_cards(cards: list[str]) -> list[dict]:
    return [{"code": c, "badge": data.attack_value(c)} for c in cards]


def attack_sum(cards_sum: int, factor: int, bonus: int) -> str:
    """An attack's sum before its total: "7 × 2 + 3"."""
    return f"{cards_sum}" + (" × 2" if factor == 2 else "") + (f" + {bonus}" if bonus else "")


def forecast(ahead: dict, shielded: bool) -> dict:
    """The engine's forecast of the next attack (``battle.forecast``, in the view) in words."""
    draws, factor, bonus, per = ahead["draws"], ahead["multiplier"], ahead["bonus"], ahead["worth_to_win"]
    lead = (
        f"Next attack: the top {'two cards' if draws == 2 else 'card'} of the Hand Deck"
        + (" × 2" if factor == 2 else "")
        + (f" + {bonus}" if bonus else "")
        + "."
    )
    not_now = " — but not this round" if shielded else ""
    if per <= 0:
        verdict = "Any card wins."
    elif not ahead["least_loss"]:
        verdict = Markup("{} <strong>{}</strong> or more wins; less costs you the difference{}.").format(
            "Cards worth" if draws == 2 else "A card worth", per, not_now
        )
    else:
        verdict = (
            f"Even {'two tens' if draws == 2 else 'a ten'} cannot win: you lose at least "
            f"{ahead['least_loss']} life{not_now}."
        )
    card_values = (
        f"Aces count {rules.LOWEST_ATTACK_VALUE}, jacks, queens, kings and jokers {rules.HIGHEST_ATTACK_VALUE}."
    )
    return {"lead": lead, "verdict": verdict, "card_values": card_values}
