"""The piles: the deck's count, the discard pile's top card, the cards removed from the game."""

from __future__ import annotations

from dataclasses import dataclass

from rules_engine.cards import Card

from .page import Page


@dataclass(frozen=True)
class Piles:
    deck_count: int
    discard_top: str | None
    discard_top_label: str
    discard_count: int
    removed: list[str]


def piles(page: Page) -> Piles | None:
    view = page.view
    if view["status"] not in ("playing", "finished"):
        return None
    discard = view["discard"]
    top = discard[-1] if discard else None
    return Piles(
        deck_count=view["deck_count"],
        discard_top=top,
        discard_top_label=f"top of the discard pile: {Card.parse(top).name}" if top else "",
        discard_count=len(discard),
        removed=list(view["removed"]),
    )
