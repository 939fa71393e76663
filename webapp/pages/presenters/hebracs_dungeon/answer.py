"""The sentence under a card picker for the cards ticked now, asked by the page as the player
ticks them (``GET /answers/hebracs-dungeon/payment``, htmx; ``ANSWERS``): the picker's ``ask`` (``payments.picker``)
and the ticked cards in, the engine's payment rule worded by ``payments`` out.

Read-only and tied to no game: the page already holds every worth it sends, and the server
checks the payment itself when the action is submitted. A question this module did not write is
refused (``ValueError``), so no text of the asker's ever reaches the answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from markupsafe import Markup

from rules_engine.cards import Card
from rules_engine.errors import InvalidAction

from .payments import PAY_NOUNS, pay_text, pay_words, scaled_text, scaled_words
from .spellbook import SCALED_UNITS

PICKER_FIELDS = ("a_cards[]", "a_gems[]", "a_potions[]")
"""The form fields a picker's checkboxes post (offers, gems, magic potions)."""

_MOST = 10_000
"""No price, step, cap or worth in the game comes near this: a bound on what is asked."""


def _number(text: str | None, lowest: int) -> int:
    if text is None or not text.isdigit() or not lowest <= int(text) < _MOST:
        raise ValueError(f"not a number from {lowest}: {text!r}")
    return int(text)


def _worths(text: str | None) -> dict[str, int]:
    worths = {}
    for pair in (text or "").split(","):
        code, _, worth = pair.partition(":")
        try:
            Card.parse(code)
        except InvalidAction as bad:
            raise ValueError(str(bad)) from None
        worths[code] = _number(worth, 0)
    return worths


def payment_answer(query: Mapping[str, str], ticked_by_field: Mapping[str, Sequence[str]]) -> Markup | str:
    """The sentence for ``query`` (a picker's ``ask``) and the cards ticked in its field."""
    field = query.get("field")
    if field not in PICKER_FIELDS:
        raise ValueError(f"not a picker's field: {field!r}")
    worths = _worths(query.get("worths"))
    ticked = list(ticked_by_field.get(field, ()))
    if any(card not in worths for card in ticked):
        raise ValueError("a ticked card the picker does not hold")
    values = [worths[card] for card in ticked]
    if "unit" in query:
        unit = query["unit"]
        if unit not in SCALED_UNITS.values():
            raise ValueError(f"not a scaled spell's unit: {unit!r}")
        per, cap = _number(query.get("per"), 1), _number(query.get("cap"), 0)
        return scaled_text(scaled_words(unit), sum(values), per, cap)
    noun, target = query.get("noun"), _number(query.get("target"), 0)
    if noun not in PAY_NOUNS:
        raise ValueError(f"not what a price is counted in: {noun!r}")
    return pay_text(pay_words(target, noun), values, ticked, target)
