"""Hebrac's Dungeon: what its page draws, worked out from the engine's view.

Rules: ``docs/rules/hebracs-dungeon.md``. The template (``templates/hebracs_dungeon/game.html``)
prints these values and decides nothing. Sentences that mark a word up (a number in bold, a card
with its suit symbol) come as ``Markup``, their values escaped; everything else is plain text.
The rules behind the words — payments, the battle forecast, spell costs, the endings an onlooker
reads — are the engine's: this package only words them.

One module per part of the page: ``page`` (the moment and its buttons), ``status`` (the line
under the title, the end), ``hero``, ``bag``, ``payments`` (the card pickers' sentences),
``encounter`` and ``battle`` (what the adventurer faces), ``level`` (the map) and ``spellbook``.
"""

from __future__ import annotations

from .. import Scene, player_name, solo_ending
from .answer import payment_answer
from .bag import bag
from .encounter import encounter
from .hero import hero
from .level import level
from .page import Page
from .payments import checked_flags, pay_text, pay_words, scaled_text, scaled_words
from .spellbook import spell_costs, spellbook
from .status import ending_text, result_details, status_line

__all__ = [
    "checked_flags",
    "pay_text",
    "pay_words",
    "payment_answer",
    "present",
    "scaled_text",
    "scaled_words",
]

ANSWERS = {"payment": payment_answer}
"""The page's questions (``presenters.answer_for``): a card picker's sentence for the ticks now."""

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
        "spell_costs": spell_costs(),
        "give_up": page.by_type["resign"][0] if page.controls and page.by_type.get("resign") else None,
    }
