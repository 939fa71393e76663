"""Presenters print what the engine words (issue 23.3): the onlooker's ending sentence, the exit
of the Shuffle and Doom map, the hit that loses Clear the Dungeon."""

from __future__ import annotations

import rules_engine.games.clear_the_dungeon as cd
import rules_engine.games.shuffle_and_doom as sad
from webapp.pages.presenters import clear_the_dungeon, shuffle_and_doom


def test_the_onlookers_ending_sentence_is_the_engines():
    result = {"reason": "died", "text": "You died in the dungeon with 3 gold: score 0. Killed by Q♠."}
    assert sad.result_text(result, None) == result["text"]
    assert sad.result_text(result, "Ann") == "Ann died in the dungeon with 3 gold: score 0. Killed by Q♠."
    assert sad.result_text({"reason": "cleared", "text": "You emptied every room"}, "Bo") == "Bo emptied every room"


def test_the_map_label_names_the_exit_the_view_gives():
    state = sad.new_game(7, ["p1"], {"size": 4})
    view = sad.view(state, "p1")
    assert "The exit is at row 4, column 4." in shuffle_and_doom.map_label(view)
    view["exit"] = [1, 3]
    assert shuffle_and_doom.map_label(view).endswith("The exit is at row 1, column 3.")


def test_the_losing_hit_is_the_engines_limit():
    assert cd.LOSING_HIT == "fifth hit"
    assert clear_the_dungeon.RESULT_HEADLINES["five_hits"] == "The fifth hit — the monsters win."
