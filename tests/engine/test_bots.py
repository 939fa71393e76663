"""Bots (issue 16): a bot's action is one of its seat's legal actions, chosen from its seat's view
alone (never quitting), the same for the same random source, unchanged when what the seat cannot
see changes; and a normal Dungeon of Doom bot alone finds the gold and the exit."""

from __future__ import annotations

import copy
import random

import pytest

from rules_engine import bots
from rules_engine.bots import dungeon_cards as dc_bot
from rules_engine.games import dungeon_cards as dc
from rules_engine.games import dungeon_of_doom as dod
from rules_engine.games.dungeon_cards.movement import walk

DOD = "dungeon-of-doom"
DC = "dungeon-cards"
QUIT = {DOD: "leave", DC: "leave_game"}
DC_CLASSES = ("ninja", "athlete", "soldier", "tank", "rogue", "swordsman", "mage", "healer")


def dod_states(seed: int, players: int, map_text: str, steps: int):
    """States of a game between random (never quitting) players: (state, seat to act)."""
    seats = [f"p{i + 1}" for i in range(players)]
    state = dod.new_game(seed, seats, {"map": map_text, "max_players": players})
    rng = random.Random(seed)
    for _ in range(steps):
        if state["result"] is not None:
            return
        seat = state["turn"]["seat"]
        yield state, seat
        legal = dod.legal_actions(state, seat)
        state = dod.apply(state, seat, rng.choice([a for a in legal if a["type"] != "leave"]))


def dc_seat_to_act(state):
    for seat in state["players"]:
        legal = dc.legal_actions(state, seat)
        if bots.has_choice(DC, legal):
            return seat, legal
    raise AssertionError("a running game awaits somebody")


def dc_options(seed: int, players: int) -> dict:
    pick = random.Random(seed)
    seats = [f"s{i + 1}" for i in range(players)]
    pool = DC_CLASSES if players > 1 else DC_CLASSES[:6]
    options = {"classes": dict(zip(seats, pick.sample(pool, players)))}
    if seed % 2:
        options.update(turn_mode="three_card_hand", random_stop_walls=8, random_redirects=4, potion_roll=True)
    return options


def dc_states(seed: int, players: int, steps: int, level: str = "easy"):
    """States of a Dungeon Cards game played by bots of ``level``: (state, seat to act, legal)."""
    options = dc_options(seed, players)
    state = dc.new_game(seed, list(options["classes"]), options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state["status"] == "finished":
            return
        seat, legal = dc_seat_to_act(state)
        yield state, seat, legal
        state = dc.apply(state, seat, bots.decide(DC, dc.view(state, seat), legal, rng=rng, level=level))


def assert_a_bot_move(slug: str, view: dict, legal: list[dict], seed: int) -> None:
    for level in bots.LEVELS:
        action = bots.decide(slug, view, legal, rng=random.Random(seed), level=level)
        assert action in legal, (level, action, legal)
        assert action["type"] != QUIT[slug]


def test_the_interface():
    assert bots.LEVELS == ("easy", "normal")
    assert bots.BOT_GAMES == (DC, DOD)  # the games that declare a BOT, in slug order
    state = dod.new_game(3, ["p1", "p2"], {"start_positions": {"p1": [5, 5], "p2": [9, 1]}})
    view, legal = dod.view(state, "p1"), dod.legal_actions(state, "p1")
    with pytest.raises(ValueError, match="no bot plays"):
        bots.decide("clear-the-dungeon", view, legal, rng=random.Random(1))
    with pytest.raises(ValueError, match="unknown bot level"):
        bots.decide(DOD, view, legal, rng=random.Random(1), level="hard")
    # A seat whose only action is to leave is waiting for another: a bot never leaves.
    waiting = dod.legal_actions(state, "p2")
    assert waiting == [{"type": "leave"}] and not bots.has_choice(DOD, waiting)
    with pytest.raises(bots.NoChoice):
        bots.decide(DOD, dod.view(state, "p2"), waiting, rng=random.Random(1))


@pytest.mark.parametrize("map_name", sorted(dod.shipped_maps()))
def test_dungeon_of_doom_bots_choose_a_legal_action(map_name):
    text = dod.shipped_maps()[map_name]
    checked = 0
    for seed, players in ((1, 1), (2, 2), (3, 3)):
        for step, (state, seat) in enumerate(dod_states(seed, players, text, 300)):
            if step % 7 == 0:
                assert_a_bot_move(DOD, dod.view(state, seat), dod.legal_actions(state, seat), step)
                checked += 1
    assert checked >= 20


def test_dungeon_of_doom_bots_on_random_maps():
    for seed, size in ((4, "S"), (5, "M")):
        state = dod.new_game(seed, ["p1", "p2"], {"random_map": size})
        rng = random.Random(seed)
        for step in range(200):
            if state["result"] is not None:
                break
            seat = state["turn"]["seat"]
            view, legal = dod.view(state, seat), dod.legal_actions(state, seat)
            assert_a_bot_move(DOD, view, legal, step)
            level = "normal" if seat == "p1" else "easy"
            state = dod.apply(state, seat, bots.decide(DOD, view, legal, rng=rng, level=level))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_dungeon_cards_bots_choose_a_legal_action(players):
    kinds = set()
    for seed in (players * 10, players * 10 + 1):
        for level in bots.LEVELS:
            for step, (state, seat, legal) in enumerate(dc_states(seed, players, 600, level)):
                assert_a_bot_move(DC, dc.view(state, seat), legal, step)
                kinds.update(a["type"] for a in legal)
    # The walk covered the decisions that need more than drawing.
    assert {"draw_card", "combat_draw", "choose_stat"} <= kinds
    if players > 1:
        assert "join_combat" in kinds


def test_every_dungeon_cards_decision_kind_is_answered():
    """Over party games in both modes played by random players (who cast every spell, Good Luck
    included), the normal bot answers each kind of decision with a legal action."""
    answered = set()
    for seed in range(12):
        for state, seat, legal in dc_states(seed, 2 + seed % 3, 800):
            action = bots.decide(DC, dc.view(state, seat), legal, rng=random.Random(seed))
            assert action in legal and action["type"] != "leave_game"
            answered.add(action["type"])
    assert {
        "draw_card",
        "combat_draw",
        "choose_stat",
        "join_combat",
        "play_card",
        "discard_to_limit",
        "fortune_telling",
        "cast_spell",
    } <= answered


@pytest.mark.parametrize("level", bots.LEVELS)
def test_the_same_random_source_gives_the_same_action(level):
    text = dod.shipped_maps()["hollow-undercroft"]
    for step, (state, seat) in enumerate(dod_states(8, 2, text, 120)):
        view, legal = dod.view(state, seat), dod.legal_actions(state, seat)
        first = bots.decide(DOD, view, legal, rng=random.Random(step), level=level)
        assert bots.decide(DOD, copy.deepcopy(view), legal, rng=random.Random(step), level=level) == first
    for step, (state, seat, legal) in enumerate(dc_states(3, 3, 300)):
        view = dc.view(state, seat)
        first = bots.decide(DC, view, legal, rng=random.Random(step), level=level)
        assert bots.decide(DC, copy.deepcopy(view), legal, rng=random.Random(step), level=level) == first


def _with_cell(text: str, pos: tuple[int, int], char: str) -> str:
    lines = text.splitlines()
    row = 2 + pos[0]
    lines[row] = lines[row][: pos[1]] + char + lines[row][pos[1] + 1 :]
    return "\n".join(lines) + "\n"


def test_a_dungeon_of_doom_bot_ignores_what_its_seat_cannot_see():
    """Two games that differ only far from p1 (a tile, the rival's unseen start) look the same to
    p1, and p1's bot plays them the same, move after move, as long as they look the same."""
    base = dod.shipped_maps()["hollow-undercroft"]
    # Both maps are edited (so both are "custom"), each in a corner p1 never sees from [1, 1].
    one = _with_cell(base, (25, 38), "H")
    other = _with_cell(base, (25, 37), "H")
    assert one != other
    states = [
        dod.new_game(11, ["p1", "p2"], {"map": one, "start_positions": {"p1": [1, 1], "p2": [23, 1]}}),
        dod.new_game(11, ["p1", "p2"], {"map": other, "start_positions": {"p1": [1, 1], "p2": [25, 30]}}),
    ]
    decided = 0
    while states[0]["turn"]["seat"] == "p1":
        views = [dod.view(s, "p1") for s in states]
        if views[0] != views[1]:
            break
        legal = dod.legal_actions(states[0], "p1")
        assert legal == dod.legal_actions(states[1], "p1")
        actions = [bots.decide(DOD, v, legal, rng=random.Random(decided)) for v in views]
        assert actions[0] == actions[1]
        states = [dod.apply(s, "p1", actions[0]) for s in states]
        decided += 1
    assert decided >= 3
    # The hidden parts did differ: a seat that sees everything tells the games apart.
    assert dod.full_view(states[0]) != dod.full_view(states[1])


def test_a_dungeon_cards_bot_ignores_the_deck_order_and_other_hands():
    checked = 0
    for seed in (1, 2, 3, 5):
        for step, (state, seat, legal) in enumerate(dc_states(seed, 3, 400)):
            if step % 5 or len(state["deck"]) < 2:
                continue
            hidden = copy.deepcopy(state)
            random.Random(step).shuffle(hidden["deck"])
            hidden["deck"].reverse()  # surely a different order, even if the shuffle kept it
            others = [c for c in hidden["characters"] if c["id"] != seat and c["hand"]]
            if others:  # a card of another's hand swapped with one from the deck
                hand = others[0]["hand"]
                hand[0], hidden["deck"][0] = hidden["deck"][0], hand[0]
            assert hidden["deck"] != state["deck"]
            view = dc.view(state, seat)
            assert dc.view(hidden, seat) == view
            for level in bots.LEVELS:
                ours = bots.decide(DC, view, legal, rng=random.Random(step), level=level)
                theirs = bots.decide(DC, dc.view(hidden, seat), legal, rng=random.Random(step), level=level)
                assert ours == theirs
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("map_name", ["sunken-vault", "lantern-gallery"])
def test_a_normal_dungeon_of_doom_bot_alone_escapes_with_the_gold(map_name):
    text = dod.shipped_maps()[map_name]
    escapes = 0
    for seed in range(10):
        state = dod.new_game(seed, ["p1"], {"map": text})
        rng = random.Random(seed)
        for _ in range(600):
            if state["result"] is not None:
                break
            action = bots.decide(DOD, dod.view(state, "p1"), dod.legal_actions(state, "p1"), rng=rng)
            assert action["type"] != "leave"
            state = dod.apply(state, "p1", action)
        escapes += state["result"] is not None and state["result"]["winners"] == ["p1"]
    assert escapes >= 3


def test_the_dungeon_cards_bot_moves_as_the_engine_walks():
    """The bot's own walk (it scores landings without the state) lands where the engine does."""
    for seed in (1, 3, 5, 7):
        state = dc.new_game(seed, ["s1", "s2"], {**dc_options(seed, 2), "board_width": 12})
        view = dc.view(state, "s1")
        reader = dc_bot._Reader(view)
        rng = random.Random(seed)
        for _ in range(300):
            start = (rng.randint(1, 12), rng.randint(1, 10))
            direction = rng.choice(["up", "down", "left", "right"])
            distance, ninja = rng.randint(0, 14), rng.random() < 0.5
            path = walk(state["board"], list(start), direction, distance, ninja=ninja)["path"]
            assert reader.land(start, direction, distance, ninja) == (tuple(path[-1]) if path else start)
