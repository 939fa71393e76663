"""Playing cards shared by every card game: codes, suits, colours, values, decks and shuffles.

Cards travel through states, views and actions as their *codes* (plain strings, JSON-safe):
rank ``A 2 … 10 J Q K`` followed by the suit letter ``S H D C``; a joker is ``"JK"``.

>>> card = Card.parse("10H")
>>> card.rank, card.suit, card.colour, card.symbol
('10', 'H', 'red', '♥')
>>> rank_value("QS"), rank_value("AS"), rank_value("AS", ace=1)
(12, 14, 1)
>>> standard_deck()[:3], len(standard_deck()), len(standard_deck(jokers=2))
(['AS', '2S', '3S'], 52, 54)
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from .errors import InvalidAction

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
JOKER = "JK"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
RANK_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}


@dataclass(frozen=True)
class Card:
    """One playing card, parsed from its code."""

    rank: str
    """``A``, ``2``…``10``, ``J``, ``Q``, ``K``; ``JK`` for a joker."""
    suit: str | None
    """``S``, ``H``, ``D`` or ``C``; ``None`` for a joker."""

    @classmethod
    def parse(cls, code: str) -> Card:
        """The card a code names; ``InvalidAction`` if it names none.

        >>> Card.parse("JK").is_joker
        True
        >>> Card.parse("1X")
        Traceback (most recent call last):
        ...
        rules_engine.errors.InvalidAction: '1X' is not a card code
        """
        if not isinstance(code, str):
            raise InvalidAction(f"{code!r} is not a card code")
        if code == JOKER:
            return cls(JOKER, None)
        rank, suit = code[:-1], code[-1:]
        if rank not in RANKS or suit not in SUITS:
            raise InvalidAction(f"{code!r} is not a card code")
        return cls(rank, suit)

    @property
    def code(self) -> str:
        return JOKER if self.is_joker else f"{self.rank}{self.suit}"

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def colour(self) -> str | None:
        """``"red"`` for hearts and diamonds, ``"black"`` for spades and clubs, ``None`` for a joker."""
        if self.suit is None:
            return None
        return "red" if self.suit in RED_SUITS else "black"

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS.get(self.suit or "", "★")

    @property
    def name(self) -> str:
        """Words a screen reader can say: ``"queen of spades"``.

        >>> Card.parse("10D").name, Card.parse("JK").name
        ('10 of diamonds', 'joker')
        """
        if self.is_joker:
            return "joker"
        suit = cast(str, self.suit)  # only a joker has no suit
        return f"{RANK_NAMES.get(self.rank, self.rank)} of {SUIT_NAMES[suit]}"


# Every card but the joker as the games write it (a lookup: logs write cards on every action).
_WRITTEN = {f"{rank}{suit}": rank + symbol for suit, symbol in SUIT_SYMBOLS.items() for rank in RANKS}


def pretty(code: str, *, joker: str = "joker") -> str:
    """A card as the games write it in logs and on buttons: rank and suit symbol; ``joker`` for a joker.

    >>> pretty("QD"), pretty("10S"), pretty("JK"), pretty("JK", joker="the joker")
    ('Q♦', '10♠', 'joker', 'the joker')
    >>> pretty("1X")
    Traceback (most recent call last):
    ...
    rules_engine.errors.InvalidAction: '1X' is not a card code
    """
    text = _WRITTEN.get(code) if isinstance(code, str) else None
    if text is None:
        if code == JOKER:
            return joker
        raise InvalidAction(f"{code!r} is not a card code")
    return text


def pretty_all(codes: Sequence[str], *, joiner: str = ", ", joker: str = "joker") -> str:
    """Several cards as the games write them, joined.

    >>> pretty_all(["9D", "2S", "JK"], joker="the joker"), pretty_all(("AC", "KH"), joiner=" and ")
    ('9♦, 2♠, the joker', 'A♣ and K♥')
    """
    return joiner.join(pretty(code, joker=joker) for code in codes)


_CODE_IN_TEXT = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b|\bJK\b")


def written(text: str) -> str:
    """A sentence built from card codes, each code written as ``pretty`` writes it: for games
    whose sentences quote cards from many places, turned at the one place their log is kept.

    >>> written("Attack card 9D + KS: 22 of 30 so far."), written("Declined: JK and 5D go under.")
    ('Attack card 9♦ + K♠: 22 of 30 so far.', 'Declined: the joker and 5♦ go under.')
    """
    return _CODE_IN_TEXT.sub(lambda m: pretty(m.group(0), joker="the joker"), text)


# A card as ``pretty`` writes it inside a sentence: rank and suit symbol, or the word "joker".
_WRITTEN_CARD = re.compile(r"(?<![\w♠♥♦♣])(10|[2-9AJQK])([♠♥♦♣])")
_SYMBOL_SUITS = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}


def spoken(text: str) -> str:
    """A sentence the games wrote (cards as ``pretty`` writes them) in words a listener follows:
    each card by its name, so a screen reader says "queen of diamonds", not "Q black diamond".

    >>> spoken("You attack 10♠: it is defeated. K♥: put A♦ under the power deck")
    'You attack 10 of spades: it is defeated. king of hearts: put ace of diamonds under the power deck'
    >>> spoken("The joker finishes the Q♣")
    'The joker finishes the queen of clubs'
    """
    return _WRITTEN_CARD.sub(lambda m: Card(m.group(1), _SYMBOL_SUITS[m.group(2)]).name, text)


def is_card_code(code: object) -> bool:
    """Whether ``code`` names a card.

    >>> is_card_code("KD"), is_card_code("KDD"), is_card_code(7)
    (True, False, False)
    """
    try:
        Card.parse(code)  # type: ignore[arg-type]
    except InvalidAction:
        return False
    return True


def colour_of(code: str) -> str | None:
    return Card.parse(code).colour


def rank_value(code: str, *, ace: int = 14, jack: int = 11, queen: int = 12, king: int = 13) -> int:
    """The face value of a card: number cards their number, faces and ace as the game says.

    Each game passes its own ace/face values; jokers are worth 0 unless a game says otherwise.
    """
    rank = Card.parse(code).rank
    faces = {"A": ace, "J": jack, "Q": queen, "K": king, JOKER: 0}
    return faces[rank] if rank in faces else int(rank)


def standard_deck(*, jokers: int = 0, decks: int = 1) -> list[str]:
    """Codes of ``decks`` 52-card decks plus ``jokers`` jokers, in a fixed canonical order."""
    one = [f"{rank}{suit}" for suit in SUITS for rank in RANKS]
    return one * decks + [JOKER] * jokers


def seeded_rng(seed: int, *salt: object) -> random.Random:
    """A ``random.Random`` determined by the seed and a salt (e.g. the step number).

    Deriving a fresh generator per use keeps states JSON-safe: nothing but the seed and the
    counters already in the state is needed to replay a game.

    >>> seeded_rng(42, "deal", 0).random() == seeded_rng(42, "deal", 0).random()
    True
    >>> seeded_rng(42, "deal", 0).random() == seeded_rng(42, "deal", 1).random()
    False
    """
    material = repr((int(seed),) + tuple(salt)).encode()
    return random.Random(int.from_bytes(hashlib.sha256(material).digest()[:16], "big"))


def shuffled(codes: list[str], rng: random.Random) -> list[str]:
    """A new list with the codes in a random order; the input is untouched."""
    result = list(codes)
    rng.shuffle(result)
    return result


def check_stacked_deck(
    deck: object, *, allowed: list[str] | None = None, unique: bool = True, min_size: int = 1
) -> list[str]:
    """Validate an ``options["deck"]`` stacked order (top card first) and return it as a list.

    ``allowed`` is the multiset the game plays with (default: one 52-card deck); a stacked deck
    may hold fewer cards where the game allows it, never cards outside that set.

    >>> check_stacked_deck(["AS", "KH"])
    ['AS', 'KH']
    >>> check_stacked_deck(["AS", "AS"])
    Traceback (most recent call last):
    ...
    rules_engine.errors.InvalidAction: the stacked deck holds AS more often than the game's cards do
    """
    if not isinstance(deck, (list, tuple)) or not all(isinstance(c, str) for c in deck):
        raise InvalidAction("the stacked deck must be a list of card codes")
    codes = [c.strip().upper() for c in deck]
    for code in codes:
        Card.parse(code)
    if len(codes) < min_size:
        raise InvalidAction(f"the stacked deck needs at least {min_size} cards")
    pool = list(allowed) if allowed is not None else standard_deck()
    counts: dict[str, int] = {}
    for code in pool:
        counts[code] = counts.get(code, 0) + 1
    for code in codes:
        counts[code] = counts.get(code, 0) - 1
        if counts[code] < 0:
            raise InvalidAction(f"the stacked deck holds {code} more often than the game's cards do")
    if unique and len(set(codes)) != len(codes):
        raise InvalidAction("the stacked deck repeats a card")
    return codes
