"""Option schemas: each game declares its options once — name, kind, range or choices, default,
help text — and both the creation form and the engine's own checks read that one declaration,
so a range is written in one place (as OpenSpiel's ``parameter_specification`` does).

``from_form`` turns a submitted form (strings) into option values by the schema; the engine's
``new_game`` checks the values again against the same ``Option``s (a form is only one of the ways
a game is made). Options a game accepts but never shows on the form (a stacked deck's shuffle
mode, scripted dice, forced start positions for tests) are not in its schema.

>>> size = Option("size", "Grid size", "int", 7, 4, 26)
>>> from_form((size,), {"size": " 9 "}), from_form((size,), {})
({'size': 9}, {'size': 7})
>>> from_form((size,), {"size": "30"})
Traceback (most recent call last):
...
rules_engine.errors.InvalidAction: Grid size must be between 4 and 26.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .errors import InvalidAction

TRUE_WORDS = frozenset({"on", "true", "1", "yes"})


@dataclass(frozen=True)
class Option:
    name: str
    label: str
    kind: str  # "int" | "bool" | "deck" | "choice"
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None
    group: str = ""
    help: str = ""
    choices: tuple[tuple[Any, str], ...] = ()
    """For ``choice``: (value, label) pairs."""

    def in_range(self, value: object) -> bool:
        """Whether ``value`` is a whole number within this ``int`` option's range."""
        return (
            type(value) is int
            and self.minimum is not None
            and self.maximum is not None
            and self.minimum <= value <= self.maximum
        )

    @property
    def values(self) -> tuple[Any, ...]:
        """A ``choice`` option's allowed values."""
        return tuple(value for value, _label in self.choices)


STACKED_DEAL = Option(
    "deck",
    "Stacked deal",
    "deck",
    group="Advanced",
    help="Optional: card codes top card first, separated by spaces (e.g. 5C 8D 3H …), to replay a known deal "
    "or set a puzzle.",
)
"""A stacked deck, top card first (the games that deal from one standard deck)."""


def from_form(schema: tuple[Option, ...], form: Mapping[str, Any]) -> dict[str, Any]:
    """The options a creation form asks for, by ``schema``; InvalidAction with a readable reason
    (the field's label) if a field is off."""
    options: dict[str, Any] = {}
    for option in schema:
        raw = form.get(option.name)
        if option.kind == "bool":
            options[option.name] = raw in TRUE_WORDS
        elif option.kind == "int":
            if raw in (None, ""):
                options[option.name] = option.default
                continue
            try:
                value = int(str(raw).strip())
            except ValueError:
                raise InvalidAction(f"{option.label} must be a whole number.") from None
            if not option.in_range(value):
                raise InvalidAction(f"{option.label} must be between {option.minimum} and {option.maximum}.")
            options[option.name] = value
        elif option.kind == "choice":
            wanted = option.default if raw in (None, "") else raw
            chosen: Any = next((value for value in option.values if str(value) == str(wanted)), _MISSING)
            if chosen is _MISSING:
                raise InvalidAction(
                    f"{option.label} must be one of: {', '.join(label for _v, label in option.choices)}."
                )
            options[option.name] = int(chosen) if str(chosen).isdigit() else chosen
        elif option.kind == "deck":
            codes = str(raw or "").replace(",", " ").split()
            if codes:
                options[option.name] = [Card.parse(code.upper()).code for code in codes]
    return options


_MISSING = object()
