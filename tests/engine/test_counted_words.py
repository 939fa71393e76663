"""Issue 25.6: the engines' sentences count in words ("1 life", "1 chamber"), never "1 lives" or
"chamber(s)" (rules_engine.text.counted)."""

from __future__ import annotations

import pytest

import rules_engine
from rules_engine import IllegalAction
from rules_engine.games.hebracs_dungeon import treasures
from rules_engine.games.hebracs_dungeon.state import cell_at
from tests.helpers.dungeon_cards import act, started_game

HEBRAC = rules_engine.get("hebracs-dungeon")
# (1,1) hides a Genie of Death; every other chamber of the 5 × 6 level holds an enemy.
DECK_G = " ".join(["KS"] + ["2H"] * 29 + ["AH"] + ["2S"] * 29 + ["5D"] * 10)


def test_a_boss_on_its_last_life_is_hit_to_1_life_not_1_lives():
    # The Queen's fight of test_dungeon_cards_rules: three wins bring her to her last life.
    deck = ["QC", "2C", "9C", "2D", "9D", "2H", "9H", "5C", "5D", "8S"]
    s = act(started_game([("P", "swordsman")], deck=deck), "P", "draw_card")
    for _ in range(4):
        s = act(s, "P", "combat_draw")
    texts = [e["text"] for e in s["log"]]
    assert not [t for t in texts if "1 lives" in t], texts
    assert any("is hit (1 life)." in t for t in texts), texts


def genie_of_death_with_one_target() -> dict:
    state = HEBRAC.new_game(1, ["p1"], {"deck": DECK_G.split()})
    for pos in treasures.genie_of_death_targets(state)[:-1]:
        cell_at(state, pos)["visited"] = True
    treasures.genie(state, "KS")
    return state


def test_the_genie_of_death_asks_for_1_chamber():
    state = genie_of_death_with_one_target()
    assert state["log"][-1]["text"].endswith("choose 1 unvisited chamber to purge.")
    state["phase"] = "genie_of_death"
    with pytest.raises(IllegalAction, match=r"needs exactly 1 chamber$"):
        HEBRAC.apply(state, "p1", {"type": "destroy", "targets": []})
