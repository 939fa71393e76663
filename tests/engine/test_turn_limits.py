"""Slow turn limits (1 hour, 12 hours, 1 day, 3 days) at The Dungeon of Doom and a Dungeon Cards
party: both engines accept them beside the short ones, refuse anything in between, report them in
``turn_clock``, and their creation forms offer them."""

from __future__ import annotations

import pytest

from rules_engine import InvalidAction, turn_limits
from rules_engine.games import dungeon_cards as dc
from rules_engine.games import dungeon_of_doom as dod
from tests.helpers.dungeon_cards import act, started_game

SLOW = (3600, 43200, 86400, 259200)


def test_the_slow_limits_are_one_hour_twelve_hours_one_day_and_three_days():
    assert turn_limits.SLOW_SECONDS == SLOW
    assert [label for _seconds, label in turn_limits.SLOW_CHOICES] == ["1 hour", "12 hours", "1 day", "3 days"]


@pytest.mark.parametrize("seconds", SLOW)
def test_the_dungeon_of_doom_takes_a_slow_limit_and_its_clock_reports_it(seconds):
    state = dod.new_game(1, ["p1", "p2"], {"turn_seconds": seconds})
    assert dod.turn_clock(state) == {"seat": "p1", "number": 1, "seconds": seconds}
    state = dod.apply(state, "p1", {"type": "end_turn"})
    assert dod.turn_clock(state)["seconds"] == seconds


@pytest.mark.parametrize("seconds", SLOW)
def test_a_dungeon_cards_party_takes_a_slow_limit_and_its_clock_reports_it(seconds):
    s = started_game([("A", "ninja"), ("B", "tank")], deck=["3C", "2D"], turn_seconds=seconds)
    assert dc.turn_clock(s) == {"seat": "A", "number": "1.turn", "seconds": seconds}
    s = act(s, "A", "draw_card")
    assert dc.turn_clock(s) == {"seat": "B", "number": "2.turn", "seconds": seconds}


@pytest.mark.parametrize("seconds", [601, 3599, 7200, 86401, 259201, 3600.0, "3600", True])
def test_a_limit_between_the_short_and_the_slow_ones_is_refused(seconds):
    with pytest.raises(InvalidAction, match="slow limit: 3600 \\(1 hour\\)"):
        dod.new_game(1, ["p1", "p2"], {"turn_seconds": seconds})
    with pytest.raises(InvalidAction, match="slow limit: 3600 \\(1 hour\\)"):
        dc.new_game(1, ["A", "B"], {"turn_seconds": seconds})


def test_both_creation_forms_offer_the_slow_limits():
    dod_choices = dict(dod.TURN_SECONDS.choices)
    (dc_option,) = [o for o in dc.OPTIONS if o.name == "turn_seconds"]
    for seconds, label in turn_limits.SLOW_CHOICES:
        assert dod_choices[seconds] == label
        assert dict(dc_option.choices)[seconds] == label
