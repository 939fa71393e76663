"""A deal of the day is dealt on its game's standard options, but for what its DAILY_FORM
chooses on purpose (The Dungeon of Doom's random map)."""

from __future__ import annotations

import pytest

from webapp.domain.catalog import parse_options
from webapp.domain.deals import DAILY_GAMES


@pytest.mark.parametrize("slug", sorted(DAILY_GAMES))
def test_a_deal_of_the_day_keeps_every_box_its_form_does_not_name_at_its_default(slug):
    # A creation form sends a ticked box and leaves an unticked one out, so a daily form that
    # does not name a box ticked by default deals the day without it (Hebrac's jokers did).
    entry = DAILY_GAMES[slug]
    chosen = dict(entry.rules.daily_form or {})
    options = parse_options(entry, chosen)
    for option in entry.options:
        if option.kind == "bool" and option.name not in chosen:
            assert options[option.name] is option.default, option.name
    for name, value in chosen.items():
        box = next((o for o in entry.options if o.name == name and o.kind == "bool"), None)
        if box is not None:
            assert options[name] is box.default, f"the daily form names {name} ({value}) but not as its default"
