"""Hebrac's Dungeon as data: what every card is worth and does, the spells, the priestess ranking.

Everything here is plain data (or a tiny lookup over it) so that the how-to-play page can
render its tables from the same source the engine plays by.

>>> attack_value("QS"), attack_value("AD"), attack_value("7C")
(10, 1, 7)
>>> merchant_price("5C"), merchant_price("8D"), merchant_price("QS"), merchant_price("JK")
(10, None, None, 2)
>>> trade_value("6C"), trade_value("JH"), trade_value("AH"), offer_value("JD"), offer_value("AS")
(6, 8, None, 8, None)
>>> STEAL_RANKING[:4], STEAL_RANK["2S"]
(('AD', 'AH', 'AC', 'AS'), 40)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from rules_engine.cards import JOKER, RANKS, SUITS, Card

# --- card anatomy ---------------------------------------------------------------------------

ALL_CODES: tuple[str, ...] = tuple(f"{r}{s}" for s in SUITS for r in RANKS) + (JOKER,)
_PARSED: dict[str, Card] = {code: Card.parse(code) for code in ALL_CODES}
NUMBER_RANKS = frozenset(str(n) for n in range(2, 11))
LEGENDARY = ("AH", "AD", "AS", "AC")
"""The four legendary treasures; holding one of each wins the game."""
LEGENDARY_NAMES = {
    "AH": "the Ruby of Gaza",
    "AD": "the Bag of Meres",
    "AS": "the Bracelet of Armok",
    "AC": "the Scepter of Leynos",
}


def rank(code: str) -> str:
    """``"A"``, ``"2"``…``"10"``, ``"J"``, ``"Q"``, ``"K"`` or ``"JK"``."""
    return _PARSED[code].rank


def suit(code: str) -> str | None:
    return _PARSED[code].suit


def is_number(code: str) -> bool:
    """A 2 to 10 of any suit."""
    return _PARSED[code].rank in NUMBER_RANKS


def number(code: str) -> int:
    """The rank of a 2–10 card as an int."""
    return int(_PARSED[code].rank)


def is_red(code: str) -> bool:
    """Hearts and diamonds; a joker has no colour here (Hebrac's test treats it as black)."""
    return _PARSED[code].suit in ("H", "D")


def is_life_potion(code: str) -> bool:
    return is_number(code) and suit(code) == "H"


def is_gem(code: str) -> bool:
    return is_number(code) and suit(code) == "D"


def is_strength_potion(code: str) -> bool:
    return is_number(code) and suit(code) == "S"


def is_magic_potion(code: str) -> bool:
    return is_number(code) and suit(code) == "C"


def is_prisoner(code: str) -> bool:
    return rank(code) == "J"


def is_magician(code: str) -> bool:
    """An evil magician (2–10 of clubs): the only foe Anti-Magic disarms."""
    return is_magic_potion(code)


def is_black_queen(code: str) -> bool:
    return code in ("QS", "QC")


def is_red_queen(code: str) -> bool:
    return code in ("QH", "QD")


def attack_value(code: str) -> int:
    """What a card scores when turned from the Hand Deck as an attack card (2.3)."""
    r = rank(code)
    if r in NUMBER_RANKS:
        return int(r)
    return 1 if r == "A" else 10


def merchant_price(code: str) -> int | None:
    """The price in gems of a merchant's treasure (6.12); ``None`` when it is not for sale."""
    r, s = rank(code), suit(code)
    if r == "A":
        return 12
    if r in NUMBER_RANKS:
        if s == "D":
            return None
        return 2 * int(r) if s == "C" else int(r)
    if r == "J":
        return 8
    if r == "Q":
        return 9 if s in ("H", "D") else None
    if r == "K":
        return 10
    return 2  # joker


def trade_value(code: str) -> int | None:
    """What an adventurer's treasure is worth in a trade (9.2); ``None``: no trade (ace, black queen)."""
    r, s = rank(code), suit(code)
    if r in NUMBER_RANKS:
        return int(r)
    return {"J": 8, "K": 10, JOKER: 2}.get(r, 9 if r == "Q" and s in ("H", "D") else None)


def offer_value(code: str) -> int | None:
    """What an inventory card is worth offered in a trade (9.3); ``None``: it cannot be offered."""
    r = rank(code)
    if r in NUMBER_RANKS:
        return int(r)
    return 8 if r == "J" else None


def enemy_base_life(code: str) -> int:
    """A fighter's life is its rank, an adventurer's 10 (7.2)."""
    return 10 if rank(code) == "J" else number(code)


# --- the black priestesses' ranking (section 10) ---------------------------------------------

STEAL_RANKING: tuple[str, ...] = tuple(
    """AD AH AC AS 10D 9D 8D 10H 9H 7D 10C 9C 10S 9S 8H 8C 6D 7H 8S 7C
    7S 5D 6C 6H 6S 5H 5C 5S 4D 4H 4C 3D 2D 3H 2H 3C 2C 4S 3S 2S""".split()
)
"""Every stealable treasure, most valuable first. Prisoners (jacks) are never stolen."""
STEAL_RANK: dict[str, int] = {code: i + 1 for i, code in enumerate(STEAL_RANKING)}
"""Card code -> its place in the ranking, 1 (most valuable) to 40 (least)."""


HEBRAC_TOLL = 5
"""The life Hebrac's game takes on a black card or a joker (6.14)."""
RUBY_LIFE = 5
"""What the Ruby of Gaza (the ace of hearts) adds to the maximum life (R36)."""
SCEPTER_FACTOR = 2
"""What the Scepter of Leynos (the ace of clubs) multiplies each magic potion's points by (6.2)."""


def potion_points(card: str, inventory: list[str]) -> int:
    """A magic potion's points: its rank, multiplied while the Scepter of Leynos is held (6.2)."""
    return number(card) * (SCEPTER_FACTOR if "AC" in inventory else 1)


# --- what each card is, as enemy and as treasure (2.3), for the how-to-play page --------------

ENEMIES: tuple[dict[str, Any], ...] = (
    {"cards": "Ace", "name": "Empty chamber", "text": "Nobody is home: the treasure is yours."},
    {"cards": "2–10 ♠", "name": "Mercenary", "text": "A battle; life = rank."},
    {"cards": "2–10 ♥", "name": "Amazon warrior", "text": "A battle; life = rank."},
    {"cards": "2–10 ♣", "name": "Evil magician", "text": "A battle; life = rank. Anti-Magic stops his damage."},
    {"cards": "2–10 ♦", "name": "Demon", "text": "A battle; life = rank."},
    {"cards": "Jack", "name": "Fellow adventurer", "text": "Life 10: fight him or propose a trade."},
    {"cards": "Q♠ Q♣", "name": "Black priestess", "text": "Steals your most valuable treasure, then leaves you hers."},
    {
        "cards": "Q♥ Q♦",
        "name": "White priestess",
        "text": "Heals you fully (and leaves with the treasure) or gives the treasure.",
    },
    {"cards": "King", "name": "Merchant", "text": "Shows his treasure and sells it for gems."},
    {
        "cards": "Joker",
        "name": "Hebrac",
        "text": f"Play his game: a red card wins the treasure, a black one costs {HEBRAC_TOLL} life.",
    },
)


def _numbers(suit: str) -> tuple[str, ...]:
    return tuple(f"{n}{suit}" for n in range(2, 11))


def price_text(codes: Sequence[str]) -> str | int:
    """A row of the price list (6.12) in words, read off ``merchant_price`` for the row's cards.

    >>> price_text(("AH",)), price_text(_numbers("C")), price_text(_numbers("D"))
    (12, '2 × rank', 'not for sale')
    """
    prices = [merchant_price(code) for code in codes]
    if all(price is None for price in prices):
        return "not for sale"
    if len(set(prices)) == 1:
        return cast(int, prices[0])  # not all None, so none is
    for factor, words in ((1, "rank"), (2, "2 × rank")):
        if all(price == factor * number(code) for code, price in zip(codes, prices)):
            return words
    raise ValueError(f"no words for the prices of {codes}: {prices}")


# The cards of each row (``codes``) give its price through merchant_price: one source.
TREASURES: tuple[dict[str, Any], ...] = tuple(
    {**row, "price": price_text(row["codes"])}
    for row in (
        {"cards": "A♥", "codes": ("AH",), "name": "Ruby of Gaza", "text": "Maximum life +5 while held."},
        {"cards": "A♦", "codes": ("AD",), "name": "Bag of Meres", "text": "Purchases and trades cost nothing."},
        {"cards": "A♠", "codes": ("AS",), "name": "Bracelet of Armok", "text": "+3 to every attack."},
        {"cards": "A♣", "codes": ("AC",), "name": "Scepter of Leynos", "text": "Magic potions give double points."},
        {
            "cards": "2–10 ♥",
            "codes": _numbers("H"),
            "name": "Life potion",
            "text": "Heals its rank, up to the maximum.",
        },
        {"cards": "2–10 ♦", "codes": _numbers("D"), "name": "Gems", "text": "Pay merchants; offer in trades."},
        {
            "cards": "2–10 ♠",
            "codes": _numbers("S"),
            "name": "Strength potion",
            "text": "In a battle: +rank to the next attack.",
        },
        {
            "cards": "2–10 ♣",
            "codes": _numbers("C"),
            "name": "Magic potion",
            "text": "Rank magic points to cast spells.",
        },
        {
            "cards": "Jack",
            "codes": ("JS", "JH", "JD", "JC"),
            "name": "Prisoner",
            "text": "Called in a battle: +3 to every attack of it.",
        },
        {"cards": "Q♥ Q♦", "codes": ("QH", "QD"), "name": "White priestess", "text": "Heals you fully at once."},
        {
            "cards": "Q♠ Q♣",
            "codes": ("QS", "QC"),
            "name": "Black priestess",
            "text": "Steals your least valuable treasure.",
        },
        {"cards": "K♥", "codes": ("KH",), "name": "Genie of Life", "text": "Maximum life +2 for good."},
        {"cards": "K♦", "codes": ("KD",), "name": "Genie of Luck", "text": "Draw 3 treasures from the Hand Deck."},
        {
            "cards": "K♠",
            "codes": ("KS",),
            "name": "Genie of Death",
            "text": "Destroys 3 enemies in unvisited chambers.",
        },
        {"cards": "K♣", "codes": ("KC",), "name": "Genie of Destiny", "text": "Turns every card of the level face up."},
        {"cards": "Joker", "codes": (JOKER,), "name": "Hebrac", "text": "His game for a card: red wins the next card."},
    )
)


# --- spells (section 8) -----------------------------------------------------------------------

# Where a spell may be cast: "free" (free time), "battle" (before an attack, one per battle),
# "adventurer" (a jack faced, no trade yet), "trade" (trade proposed), "merchant".
OCCASIONS: dict[str, str] = {
    "free": "in free time",
    "battle": "in a battle",
    "adventurer": "facing an adventurer",
    "trade": "during a trade",
    "merchant": "facing a merchant",
}
"""Each occasion of a spell's ``when``, in words (the refusals, the spell book, the how-to-play)."""
SPELLS: dict[str, dict[str, Any]] = {
    "remote_vision": {
        "name": "Remote Vision",
        "cost": 1,
        "scaled": True,
        "when": ("free", "battle"),
        "text": "1 point per chamber: look at the face-down enemy of unvisited chambers.",
    },
    "future_perception": {
        "name": "Future Perception",
        "cost": 1,
        "scaled": True,
        "when": ("free", "battle"),
        "text": "1 point per card: see the top cards of the Hand Deck.",
    },
    "healing": {
        "name": "Healing",
        "cost": 2,
        "scaled": True,
        "when": ("free", "battle"),
        "text": "2 points per life point restored.",
    },
    "escape": {
        "name": "Escape",
        "cost": 3,
        "scaled": False,
        "when": ("battle", "adventurer"),
        "text": "Leave a battle, or an adventurer before a trade; the guardian stays.",
    },
    "illusion": {
        "name": "Illusion",
        "cost": 4,
        "scaled": False,
        "when": ("trade",),
        "text": "During a trade: the adventurer hands over his treasure for nothing (not an ace).",
    },
    "paralysis": {
        "name": "Paralysis",
        "cost": 4,
        "scaled": False,
        "when": ("battle",),
        "text": "The next two rounds cost you no life.",
    },
    "double_attack": {
        "name": "Double Attack",
        "cost": 4,
        "scaled": False,
        "when": ("battle",),
        "text": "The next attack draws two cards.",
    },
    "super_strength": {
        "name": "Super Strength",
        "cost": 5,
        "scaled": False,
        "when": ("battle",),
        "text": "Attack cards count double for the rest of the battle.",
    },
    "anti_magic": {
        "name": "Anti-Magic",
        "cost": 5,
        "scaled": False,
        "when": ("free", "battle"),
        "text": "For this level: magicians do no damage, priestesses neither steal nor heal.",
    },
    "stealing_spirit": {
        "name": "Stealing Spirit",
        "cost": 6,
        "scaled": False,
        "when": ("battle", "adventurer", "trade", "merchant"),
        "text": "Take the chamber's treasure and leave; the guardian stays (a merchant leaves).",
    },
    "body_switch": {
        "name": "Body Switch",
        "cost": 7,
        "scaled": False,
        "when": ("free", "battle"),
        "text": "Replace an enemy card with the top card of the Hand Deck.",
    },
    "teleport": {
        "name": "Teleport",
        "cost": 8,
        "scaled": False,
        "when": ("free", "battle"),
        "text": "Go to any chamber of the level, or down to the next level.",
    },
    "revelation": {
        "name": "Revelation",
        "cost": 9,
        "scaled": False,
        "when": ("free", "battle"),
        "text": "Every enemy card of the level is turned face up.",
    },
    "hell_bomb": {
        "name": "Hell Bomb",
        "cost": 9,
        "scaled": False,
        "when": ("free", "battle"),
        "text": "Destroy every enemy in your chamber and its four neighbours; take their treasures.",
    },
    "curse": {
        "name": "Curse",
        "cost": 10,
        "scaled": False,
        "when": ("free", "battle"),
        "text": "For this level: enemies' life is halved (rounded up).",
    },
    "genie_of_luck": {
        "name": "Genie of Luck",
        "cost": 11,
        "scaled": False,
        "when": ("free", "battle"),
        "text": "Draw 5 treasures from the Hand Deck.",
    },
    "stone_statue": {
        "name": "Stone Statue",
        "cost": 15,
        "scaled": False,
        "when": ("free",),
        "text": "Turn 1 to 6 enemies of the level to stone (never in a battle).",
    },
    "god_vision": {
        "name": "God Vision",
        "cost": 15,
        "scaled": False,
        "when": ("free", "battle"),
        "text": "Every card of the level is turned face up.",
    },
}
