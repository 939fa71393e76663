"""The payment rules have one home, the engine (``trade.payment_case``, ``spells.scaled_units``).
The page script keeps a mirror of them so that the sentence under a card picker follows each tick
without a round trip: run in the browser, the mirror must answer exactly as the engine does."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from rules_engine.games.hebracs_dungeon.trade import PAYMENT_CASES, payment_case
from webapp.pages.presenters.hebracs_dungeon import scaled_text, scaled_words

SCRIPT = Path(__file__).resolve().parent.parent / "static" / "js" / "hebracs_dungeon.js"


def mirror_source(name: str) -> str:
    """One function of the script, as it is served."""
    match = re.search(rf"^  function {name}\(.*?^  \}}\n", SCRIPT.read_text(), re.S | re.M)
    assert match, f"static/js/hebracs_dungeon.js no longer has {name}: update this test"
    return match.group(0)


def test_the_page_scripts_payment_cases_are_the_engines(page):
    worths = [1, 2, 3, 4, 5, 6, 10]
    payments = [list(p) for n in range(4) for p in itertools.combinations_with_replacement(worths, n)]
    asked = [[values, target] for values in payments for target in (0, 1, 4, 6, 7, 10, 15)]
    answers = page.evaluate(
        "([source, asked]) => { const payCase = new Function(source + '; return payCase;')();"
        " return asked.map(([values, target]) => payCase(values, target)); }",
        [mirror_source("payCase"), asked],
    )
    expected = [payment_case(values, target) for values, target in asked]
    assert set(expected) == set(PAYMENT_CASES)
    assert answers == expected


def test_the_page_scripts_scaled_spell_sentences_are_the_engines(page):
    say = scaled_words("life point")
    asked = [[total, per, cap] for total in range(16) for per in (1, 2, 3) for cap in (0, 1, 5)]
    answers = page.evaluate(
        "([source, say, asked]) => { const scaledText = new Function(source + '; return scaledText;')();"
        " return asked.map(([total, per, cap]) => scaledText(say, total, per, cap)); }",
        [mirror_source("fill") + mirror_source("scaledText"), say, asked],
    )
    assert answers == [scaled_text(say, total, per, cap) for total, per, cap in asked]
