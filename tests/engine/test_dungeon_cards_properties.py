"""Dungeon Cards properties over random solo and party games (Hypothesis).

Random legal play never crashes and always ends; after every step the 52 cards are all in one
place each, ``dump``/``load`` round-trips, the input state is untouched, every listed legal action
is accepted, and no view shows the seed or depends on hidden cards. Replaying the actions from
the same seed and options gives the live state, server timeouts included; random actions are
accepted exactly when they are legal, and otherwise raise and change nothing; a timeout's default
for every seat it answers for is one of that seat's legal actions.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_engine import IllegalAction, InvalidAction
from rules_engine.cards import standard_deck
from rules_engine.games import dungeon_cards as dc
from rules_engine.games.dungeon_cards import clock
from rules_engine.games.dungeon_cards.actions import ACTIONS, parse
from rules_engine.games.dungeon_cards.data import CLASSES, PARTY_ONLY
from rules_engine.games.dungeon_cards.deck import all_cards

FULL_DECK = Counter(standard_deck())
MAX_STEPS = 4000


@st.composite
def games(draw, min_players=1, max_players=5):
    n = draw(st.integers(min_players, max_players))
    players = [f"seat{i}" for i in range(n)]
    pool = [c for c in CLASSES if n > 1 or c not in PARTY_ONLY]
    classes = draw(st.permutations(pool))[:n]
    size = draw(st.sampled_from([6, 10, 13]))
    options = {
        "classes": dict(zip(players, classes)),
        "turn_mode": draw(st.sampled_from(["single_draw", "three_card_hand"])),
        "board_width": size,
        "board_height": draw(st.sampled_from([6, 10])),
        "start_square": draw(st.sampled_from(["bottom_middle", "random_edge", "chosen"])),
        "marker_placement": draw(st.sampled_from(["random", "manual"])),
        "exit_count": draw(st.integers(1, 4)),
        "pit_count": draw(st.integers(1, 6)),
        "random_stop_walls": draw(st.sampled_from([0, 0, 6, 20])),
        "random_redirects": draw(st.sampled_from([0, 0, 5])),
        "potion_roll": draw(st.booleans()),
        "draw_stats": draw(st.booleans()),
        "after_first_escape": draw(st.sampled_from(["end", "continue"])),
        "round_limit": draw(st.sampled_from([10, 12, 20])),
    }
    if draw(st.integers(0, 4)) == 0:
        del options["classes"]  # start in the lobby: classes are chosen by action
    seed = 10**15 + draw(st.integers(0, 10**9))
    return seed, players, options, draw(st.integers(0, 2**32))


def pick(rng, state, players):
    """A random legal action; now and then, in a timed party decision, the server's timeout."""
    timer = dc.turn_clock(state)
    if timer and timer["seconds"] and rng.random() < 0.1:
        return timer["seat"], dict(dc.timeout_action)
    moves = [(p, a) for p in players for a in dc.legal_actions(state, p)]
    assert moves, (state["status"], state["phase"])
    stay = [m for m in moves if m[1]["type"] != "leave_game"]
    return rng.choice(stay) if stay and rng.random() > 0.01 else rng.choice(moves)


def scramble(obj):
    """Empty every container of a view in place (a careless caller)."""
    if isinstance(obj, dict):
        for v in obj.values():
            scramble(v)
        obj.clear()
    elif isinstance(obj, list):
        for v in obj:
            scramble(v)
        obj.clear()


def check_views(state, players, seed):
    saved = dc.dump(state)
    for seat in players + [None]:
        v = dc.view(state, seat)
        text = json.dumps(v)
        assert str(seed) not in text
        assert json.loads(text) == v
        scramble(dc.view(state, seat))
        assert dc.dump(state) == saved, "a view shares containers with the state"
        # Non-interference: hidden cards (deck order, other hands) do not change the view.
        other = dc.load(dc.dump(state))
        other["deck"].reverse()
        for c in other["characters"]:
            if c["id"] != seat:
                for i in range(min(len(c["hand"]), len(other["deck"]))):
                    c["hand"][i], other["deck"][i] = other["deck"][i], c["hand"][i]
        assert dc.view(other, seat) == v


def play(seed, players, options, choice_seed, *, deep_checks=True):
    rng = random.Random(choice_seed)
    state = dc.new_game(seed, players, options)
    history = []
    for _ in range(MAX_STEPS):
        if dc.result(state) is not None:
            break
        seat, action = pick(rng, state, players)
        before = dc.dump(state)
        if deep_checks:
            for s in players:
                legal = dc.legal_actions(state, s)
                if len(legal) <= 12:
                    for a in legal:
                        dc.apply(state, s, a)
                        assert dc.action_label(state, a)
        new = dc.apply(state, seat, action)
        assert dc.dump(state) == before, "apply changed its input"
        history.append((seat, action))
        state = new
        if state["characters"]:
            assert Counter(all_cards(state)) == FULL_DECK
        assert dc.load(json.loads(json.dumps(dc.dump(state)))) == state
        if deep_checks:
            check_views(state, players, seed)
    res = dc.result(state)
    assert res is not None, "the game did not end"
    assert all(dc.legal_actions(state, p) == [] for p in players)
    assert set(res["scores"]) <= set(players) and set(res["winners"]) <= set(players)
    return state, history


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_random_games_end_and_keep_every_invariant(game):
    seed, players, options, choice_seed = game
    state, history = play(seed, players, options, choice_seed)
    replay = dc.new_game(seed, players, options)
    for seat, action in history:
        replay = dc.apply(replay, seat, action)
    assert replay == state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(min_players=2))
def test_random_party_games_replay_exactly(game):
    seed, players, options, choice_seed = game
    state, history = play(seed, players, options, choice_seed, deep_checks=False)
    replay = dc.new_game(seed, players, json.loads(json.dumps(options)))
    for seat, action in json.loads(json.dumps(history)):
        replay = dc.apply(replay, seat, action)
    assert dc.dump(replay) == dc.dump(state)


CARDS = ["AS", "10H", "KD", "QC", "JK", "5C", "1X", "", None, 7]
PARAM_VALUES = {
    "class": list(CLASSES) + ["wizard", None],
    "options": [{}, {"board_width": 3}, {"potion_roll": True}, None],
    "square": [[1, 1], [5, 1], [10, 10], [0, 3], [3], "a", None],
    "kind": ["exit", "pit", "door"],
    "spell": ["reversal", "fortune_telling", "haste", "good_luck", "fireball"],
    "card": CARDS,
    "join": [True, False, 1, None],
    "critical_hit": [True, False, "yes"],
    "use": [True, False, None],
    "stat": ["lives", "speed", "luck"],
    "direction": ["up", "down", "left", "right", None, "up-left"],
    "cards": [[], ["AS"], ["AS", "2C"], "AS", [None]],
}


def canonical(action):
    """An action as ``apply`` understands it: parsed, the optional Critical Hit spelled out, and a
    discard's cards in any order."""
    parsed = parse(action)
    if parsed["type"] == "combat_draw":
        parsed.setdefault("critical_hit", False)
    if parsed["type"] == "discard_to_limit":
        parsed["cards"] = sorted(parsed["cards"])
    return json.dumps(parsed, sort_keys=True)


def random_action(rng):
    kind = rng.choice(list(ACTIONS) + ["fly", None])
    action = {"type": kind}
    for name in ACTIONS[kind].params if kind in ACTIONS else {}:
        if rng.random() < 0.9:
            action[name] = rng.choice(PARAM_VALUES[name])
    if rng.random() < 0.05:
        action["extra"] = 1
    return action


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(0, 2**32))
def test_random_actions_are_accepted_or_change_nothing(game, probe_seed):
    seed, players, options, choice_seed = game
    rng = random.Random(probe_seed)
    chooser = random.Random(choice_seed)
    state = dc.new_game(seed, players, options)
    for _ in range(300):
        if dc.result(state) is not None:
            break
        before = dc.dump(state)
        legal_now = {seat: {canonical(a) for a in dc.legal_actions(state, seat)} for seat in players + ["outsider"]}
        if dc.turn_clock(state):
            for entry in dc.view(state, None)["awaiting"]:
                assert canonical(clock.default_action(state, entry["seat"])) in legal_now[entry["seat"]]
        for _ in range(8):
            seat = rng.choice(players + ["outsider"])
            action = random_action(rng)
            legal = legal_now[seat]
            try:
                new = dc.apply(state, seat, action)
            except InvalidAction as err:
                assert str(err)
            except IllegalAction as err:
                assert str(err) and canonical(action) not in legal, (seat, action)
            else:
                if action["type"] == "update_options":
                    # Options are too many to list: the host may change valid ones in the lobby.
                    assert seat == state["host"] and state["status"] == "lobby"
                else:
                    assert canonical(action) in legal, (seat, action)
                assert Counter(all_cards(new)) == FULL_DECK or not new["characters"]
            assert dc.dump(state) == before
        seat, action = pick(chooser, state, players)
        state = dc.apply(state, seat, action)
