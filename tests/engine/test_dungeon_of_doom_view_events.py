"""The Dungeon of Doom's event window, pinned by hand: the latest 50 events a viewer may read,
worded for that viewer ("your turn" only for the seat whose turn it is), with private events
among the public ones. Views word each event once per viewer and keep it (``views._shown``), so
the same state is also read in the other order of viewers, and an equal copy of it (other event
objects), and after the kept words are dropped: every reading must be the same.
"""

from __future__ import annotations

import json
from typing import Any

import rules_engine
from rules_engine.games.dungeon_of_doom import views

dod = rules_engine.get("dungeon-of-doom")


def played() -> dict[str, Any]:
    # p1 steps out of p2's sight and back after 60 turns: two private sightings amid 62 turns.
    state = dod.new_game(5, ["p1", "p2"], {"start_positions": {"p1": [5, 5], "p2": [7, 5]}})
    state = dod.apply(state, "p1", {"type": "move", "dir": "N"})  # seq 1: each leaves the other's view
    for _ in range(60):  # seq n (2..61): turn n starts, p2's when n is even
        state = dod.apply(state, state["turn"]["seat"], {"type": "end_turn"})
    state = dod.apply(state, "p1", {"type": "move", "dir": "S"})  # seq 62: back in view
    return dod.apply(state, "p1", {"type": "end_turn"})  # seq 63: turn 62, p2's


def turn(number: int, viewer: str | None) -> dict[str, Any]:
    seat = "p2" if number % 2 == 0 else "p1"
    whose = "your" if seat == viewer else f"{seat}'s"
    seq = 63 if number == 62 else number
    return {"seq": seq, "type": "turn_started", "seat": seat, "turn": number, "text": f"Turn {number}: {whose} turn."}


EXPECTED = {
    "p1": [
        *(turn(n, "p1") for n in range(14, 62)),
        {
            "seq": 62,
            "type": "came_into_view",
            "seat": "p2",
            "pos": [7, 5],
            "offset": [2, 0],
            "text": "p2 came into view 2 steps south of you.",
        },
        turn(62, "p1"),
    ],
    "p2": [
        *(turn(n, "p2") for n in range(14, 62)),
        {
            "seq": 62,
            "type": "came_into_view",
            "seat": "p1",
            "pos": [5, 5],
            "offset": [-2, 0],
            "text": "p1 came into view 2 steps north of you.",
        },
        turn(62, "p2"),
    ],
    None: [turn(n, None) for n in range(13, 63)],
}


def test_each_viewer_reads_its_latest_fifty_events_worded_for_it_in_any_order_of_reading():
    state = played()
    assert len(state["events"]) == 52  # 50 public turns and the two sightings still in a window
    readings = [
        {seat: dod.view(state, seat)["events"] for seat in ["p1", "p2", None]},
        {seat: dod.view(state, seat)["events"] for seat in [None, "p2", "p1"]},
        {seat: dod.view(json.loads(json.dumps(state)), seat)["events"] for seat in ["p2", None, "p1"]},
    ]
    views._shown.clear()
    readings.append({seat: dod.view(state, seat)["log"] for seat in ["p2", "p1", None]})
    for reading in readings:
        assert reading == EXPECTED
