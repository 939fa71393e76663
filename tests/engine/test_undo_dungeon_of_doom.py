"""Undo in The Dungeon of Doom (issue 26): what counts as a reveal (``reveals``), checked against
the views themselves over random games, in the rules' situations, and through the undo action.

A step that reveals nothing must leave every other seat's view unchanged, and must show the mover
nothing that depends on a tile it has never seen; a step that shows a tile it had not seen is a
reveal. Every reveal a step is given is checked against what the views show."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import rules_engine
from rules_engine import IllegalAction
from rules_engine.games.dungeon_of_doom import apply, legal_actions, new_game, reveals, view
from rules_engine.undo import SOMEONE_ELSE, game_part

dod = rules_engine.get("dungeon-of-doom")

State = dict[str, Any]
UNDO = {"type": "undo"}
EAST, WEST = {"type": "move", "dir": "E"}, {"type": "move", "dir": "W"}
END_TURN = {"type": "end_turn"}

# One row of 20 cells: an exit at the west end, gold at column 10, a lantern at column 2. A seat
# without a lantern sees two cells either way along it, so who sees whom is easy to work out.
LONG_HALL = "name Long Hall\nwin 1\nE.L.......G........."


def _table(**starts: list[int]) -> State:
    return new_game(1, list(starts), {"map": LONG_HALL, "start_positions": starts})


def _seat(state: State, seat: str) -> dict[str, Any]:
    return next(p for p in state["players"] if p["seat"] == seat)


# --- soundness over random games ----------------------------------------------------------------


def _field(state: State, seat: str) -> set[tuple[int, int]]:
    return {(cell["pos"][0], cell["pos"][1]) for cell in view(state, seat)["visible"]}


def _hidden_changed(state: State, after: State, seat: str) -> State:
    """``state`` with everything ``seat`` cannot know made different: every other living player
    it does not see stands elsewhere (still out of its field, before and after its action:
    ``after``), then every cell it has never seen changes: walls become floor with a gold pile,
    floor and exits become walls (their items gone); a cell someone stands on keeps its terrain
    and swaps its item for a potion (or loses it)."""
    seen_now = _field(state, seat)
    seen_either = seen_now | _field(after, seat)
    height, width = state["map"]["height"], state["map"]["width"]
    players = []
    occupied = {(p["pos"][0], p["pos"][1]) for p in state["players"] if p["status"] == "alive"}
    for p in state["players"]:
        pos = (p["pos"][0], p["pos"][1]) if p["status"] == "alive" else None
        if p["seat"] != seat and pos is not None and pos not in seen_now:
            elsewhere = [
                (r, c)
                for r in range(height)
                for c in range(width)
                if (r, c) not in occupied and (r, c) not in seen_either
            ]
            if elsewhere:
                occupied.discard(pos)
                pos = elsewhere[-1]
                occupied.add(pos)
                p = {**p, "pos": [pos[0], pos[1]]}
        players.append(p)
    rows = _seat(state, seat)["memory"]["rows"]
    terrain = [list(row) for row in state["map"]["terrain"]]
    items = {(it["pos"][0], it["pos"][1]): it for it in state["map"]["items"]}
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            if code != "?":
                continue
            cell = (r, c)
            if cell in occupied:
                if items.pop(cell, None) is None:
                    items[cell] = {"pos": [r, c], "kind": "potion", "amount": 1}
            elif terrain[r][c] == "#":
                terrain[r][c] = "."
                items[cell] = {"pos": [r, c], "kind": "gold", "amount": 7}
            else:
                terrain[r][c] = "#"
                items.pop(cell, None)
    changed_map = {
        **state["map"],
        "terrain": ["".join(row) for row in terrain],
        "items": [items[cell] for cell in sorted(items)],
    }
    return {**state, "map": changed_map, "players": players}


def _new_field(before: State, after: State, seat: str) -> list[tuple[int, int]]:
    """The cells of ``seat``'s field in ``after`` it had never seen in ``before``."""
    rows = _seat(before, seat)["memory"]["rows"]
    return [tuple(cell["pos"]) for cell in view(after, seat)["visible"] if rows[cell["pos"][0]][cell["pos"][1]] == "?"]


def _sees_player(state: State, viewer: str, seat: str | None = None) -> bool:
    """Whether ``viewer``'s view shows ``seat`` (any other player when None) in its field."""
    shown = {cell["player"] for cell in view(state, viewer)["visible"]} - {None, viewer}
    return bool(shown if seat is None else seat in shown)


def _check_silent_step(state: State, after: State, seat: str, action: dict[str, Any]) -> None:
    """A step ``reveals`` calls silent: nobody else's view changed, and the mover's view would be
    the same had every tile it never saw been different."""
    for other in [p["seat"] for p in state["players"] if p["seat"] != seat] + [None]:
        assert view(after, other) == view(state, other), (seat, action, other)
    twin = _hidden_changed(state, after, seat)
    assert twin != state or "?" not in "".join(_seat(state, seat)["memory"]["rows"])
    assert view(twin, seat) == view(state, seat)
    twin_after = apply(twin, seat, action)
    assert view(twin_after, seat) == view(after, seat), (seat, action)
    assert _new_field(state, after, seat) == []


def _check_step_reveal(state: State, after: State, seat: str, why: str) -> None:
    """The reveal a step was given is what the views show."""
    others = [p["seat"] for p in state["players"] if p["seat"] != seat and p["status"] == "alive"]
    if why == "a new tile came into view":
        assert _new_field(state, after, seat)
    elif why == "a tile you had seen had changed":
        remembered = {tuple(cell["pos"]): cell["item"] for cell in view(state, seat)["memory"]}
        shown = {tuple(cell["pos"]): cell["item"] for cell in view(after, seat)["visible"]}
        assert any(remembered[cell] != shown[cell] for cell in shown.keys() & remembered.keys())
    elif why == "another player could see you":
        assert any(_sees_player(s, other, seat) for other in others for s in (state, after))
    elif why == "another player was in sight":
        assert _sees_player(state, seat) or _sees_player(after, seat)
    elif why == "your turn ended":
        assert dod.turn_clock(after) != dod.turn_clock(state)
    else:
        assert why == "the game ended" and dod.result(after) is not None


def _random_game(seed: int, text: str, players: list[str], steps: int) -> dict[str | None, int]:
    """Random play (mostly steps, never leaving) checking every legal action of the seat to move
    at every state; returns how often each reveal (None: none) was met."""
    rng = random.Random(seed)
    state = new_game(seed, players, {"map": text})
    met: dict[str | None, int] = {}
    for _ in range(steps):
        if state["result"] is not None:
            break
        seat = state["turn"]["seat"]
        actions = [a for a in legal_actions(state, seat) if a["type"] != "leave"]
        for action in actions:
            after = apply(state, seat, action)
            why = reveals(state, after, seat, action)
            met[why] = met.get(why, 0) + 1
            if why is None:
                assert action["type"] == "move"
                _check_silent_step(state, after, seat, action)
            elif action["type"] == "move":
                _check_step_reveal(state, after, seat, why)
        moves = [a for a in actions if a["type"] == "move"]
        action = rng.choice(moves if moves and rng.random() < 0.85 else actions)
        state = apply(state, seat, action)
    return met


def test_silent_steps_change_no_other_view_and_show_nothing_unseen_and_every_reveal_is_true():
    met: dict[str | None, int] = {}
    games = [
        (1, dod.generate_map(1, "S"), 2),
        (2, dod.generate_map(2, "S"), 3),
        (3, dod.shipped_maps()["duelling-hall"], 2),
    ]
    for seed, text, count in games:
        for why, times in _random_game(seed, text, [f"p{n}" for n in range(1, count + 1)], 120).items():
            met[why] = met.get(why, 0) + times
    # The games met silent steps, and steps revealing new tiles, players and turn ends.
    for why in (None, "a new tile came into view", "another player could see you", "your turn ended"):
        assert met.get(why, 0) > 0, (why, met)


# --- the rules' situations ------------------------------------------------------------------------


def test_a_step_back_within_seen_tiles_out_of_sight_reveals_nothing_and_a_new_tile_does():
    state = _table(p1=[0, 6], p2=[0, 17])
    east = apply(state, "p1", EAST)
    assert reveals(state, east, "p1", EAST) == "a new tile came into view"
    back = apply(east, "p1", WEST)
    assert reveals(east, back, "p1", WEST) is None


def test_picking_up_ending_the_turn_and_a_last_step_are_reveals():
    state = _table(p1=[0, 10], p2=[0, 17])
    picked = apply(state, "p1", {"type": "pickup"})
    assert reveals(state, picked, "p1", {"type": "pickup"}) == "you picked something up"
    ended = apply(state, "p1", END_TURN)
    assert reveals(state, ended, "p1", END_TURN) == "your turn ended"
    for action in [EAST, WEST] * 2 + [EAST]:
        state = apply(state, "p1", action)
    last = apply(state, "p1", WEST)  # the sixth AP: the turn passes to p2
    assert reveals(state, last, "p1", WEST) == "your turn ended"


def test_a_step_near_another_player_is_a_reveal_either_way_round():
    near = _table(p1=[0, 6], p2=[0, 9])
    assert reveals(near, apply(near, "p1", EAST), "p1", EAST) == "another player could see you"
    # With a lantern p1 sees three cells along its row, p2 only two: p2 never sees p1 here.
    state = _table(p1=[0, 2], p2=[0, 7])
    state = apply(state, "p1", {"type": "pickup"})
    state = apply(state, "p1", EAST)
    state = apply(state, "p1", EAST)
    assert _sees_player(state, "p1", "p2") and not _sees_player(state, "p2", "p1")
    assert reveals(state, apply(state, "p1", WEST), "p1", WEST) == "another player was in sight"


def test_a_player_coming_into_view_on_a_remembered_tile_is_a_reveal_though_it_cannot_see_you():
    # p1 takes the lantern and learns columns 0 to 7; p2 walks onto column 7 out of p1's sight.
    state = _table(p1=[0, 2], p2=[0, 9])
    for action in [{"type": "pickup"}, EAST, EAST, WEST, END_TURN]:
        state = apply(state, "p1", action)
    for action in [WEST, WEST, END_TURN]:
        state = apply(state, "p2", action)
    step = apply(state, "p1", EAST)  # p2 comes into p1's lantern light; p2 sees two cells, not three
    assert reveals(state, step, "p1", EAST) == "another player was in sight"
    assert not _sees_player(step, "p2", "p1")
    with pytest.raises(AssertionError):  # the step is not silent: where p2 stands was hidden
        _check_silent_step(state, step, "p1", EAST)


def test_a_step_onto_a_tile_that_changed_since_it_was_seen_is_a_reveal():
    # p1 sees the gold at column 10 and walks west; p2 takes it out of p1's sight and steps back.
    state = _table(p1=[0, 8], p2=[0, 14])
    for action in [WEST, WEST, END_TURN]:
        state = apply(state, "p1", action)
    for action in [WEST] * 4 + [{"type": "pickup"}, EAST]:  # the sixth AP ends p2's turn
        state = apply(state, "p2", action)
    assert state["turn"]["seat"] == "p1"
    step = apply(state, "p1", EAST)  # to column 7: every tile as p1 remembers it
    assert reveals(state, step, "p1", EAST) is None
    onto = apply(step, "p1", EAST)  # to column 8: the gold at column 10 is gone
    assert reveals(step, onto, "p1", EAST) == "a tile you had seen had changed"


# --- undo through the platform's rules -----------------------------------------------------------


def _dod_table() -> State:
    return dod.new_game(1, ["p1", "p2"], {"map": LONG_HALL, "start_positions": {"p1": [0, 6], "p2": [0, 17]}})


def test_undo_takes_back_silent_steps_to_the_same_turn_and_stops_at_the_reveal():
    state = dod.apply(dod.apply(_dod_table(), "p1", EAST), "p1", EAST)
    assert dod.undo_reach(state, "p1").reason == "a new tile came into view"
    kept = json.dumps(dod.dump(state), sort_keys=True)
    with pytest.raises(IllegalAction, match=r"^Nothing to undo: a new tile came into view\.$"):
        dod.apply(state, "p1", UNDO)
    assert json.dumps(dod.dump(state), sort_keys=True) == kept
    before = [game_part(state)]
    state = dod.apply(state, "p1", WEST)
    before.append(game_part(state))
    state = dod.apply(state, "p1", WEST)
    assert dod.undo_reach(state, "p1").steps == 2
    clock = dod.turn_clock(state)
    for expected in reversed(before):
        state = dod.apply(state, "p1", UNDO)
        assert game_part(state) == expected
        assert dod.turn_clock(state) == clock
    assert dod.undo_reach(state, "p1").steps == 0
    with pytest.raises(IllegalAction, match="Nothing to undo"):
        dod.apply(state, "p1", UNDO)


def test_another_seats_action_ends_the_run_and_a_table_has_no_practice():
    state = dod.apply(dod.apply(_dod_table(), "p1", EAST), "p1", WEST)
    assert dod.undo_reach(state, "p1").steps == 1
    with pytest.raises(IllegalAction, match="Only a game played alone"):
        dod.apply(state, "p1", {"type": "practice"})
    state = dod.apply(state, "p2", {"type": "leave"})
    assert dod.undo_reach(state, "p1").reason == SOMEONE_ELSE
    with pytest.raises(IllegalAction, match=SOMEONE_ELSE):
        dod.apply(state, "p1", UNDO)


def test_a_run_survives_dump_and_load():
    state = dod.apply(dod.apply(_dod_table(), "p1", EAST), "p1", WEST)
    loaded = dod.load(json.loads(json.dumps(dod.dump(state))))
    assert game_part(dod.apply(loaded, "p1", UNDO)) == game_part(dod.apply(_dod_table(), "p1", EAST))
