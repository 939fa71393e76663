"""A seat's view is worked out once per revision and shared by the action's answer and every
board pushed to that seat's pages (``LoadedGame.parts``), so nothing that draws a page may change
the view it is given: every game's presenter and the text-first page are checked here over
seeded random games, for every seat and a spectator."""

from __future__ import annotations

import copy
import random

import pytest

from webapp.domain.catalog import BY_SLUG, parse_options
from webapp.pages.presenters import Scene, present
from webapp.pages.reader import page_parts

PLAYERS = {"dungeon-cards": ["p1", "p2", "p3"], "dungeon-of-doom": ["p1", "p2", "p3"]}
STEPS = 40


@pytest.mark.parametrize("slug", sorted(BY_SLUG))
def test_drawing_a_page_leaves_the_view_it_was_given_as_it_was(app, slug):
    entry = BY_SLUG[slug]
    if not entry.playable:
        pytest.skip("not served")
    rules = entry.rules
    seats = PLAYERS.get(slug, ["p1"])
    rng = random.Random(7)
    state = rules.new_game(7, seats, parse_options(entry, {}))
    names = {seat: f"Player {seat}" for seat in seats}
    for _ in range(STEPS):
        for seat in [*seats, None]:
            view = rules.view(state, seat)
            before = copy.deepcopy(view)
            scene = Scene(rules, view, seat, [], rules.result(state), names, list(view["log"][-3:]))
            with app.test_request_context("/"):
                present(entry.template_dir, scene)
                page_parts(rules, view, seat, [], names)
            assert view == before, (slug, seat)
        if rules.result(state) is not None:
            break
        moves = [(seat, action) for seat in seats for action in rules.legal_actions(state, seat)]
        quiet = [m for m in moves if m[1].get("type") not in ("leave", "leave_game", "resign")]
        if not (quiet or moves):
            break
        seat, action = rng.choice(quiet or moves)
        state = rules.apply(state, seat, action)
