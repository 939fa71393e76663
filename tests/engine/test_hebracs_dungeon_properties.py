"""Hebrac's Dungeon: properties over random play (Hypothesis).

Random legal play never crashes and keeps every card in exactly one zone; every state
round-trips through ``dump``/``load``; replaying the actions from the seed gives the live
state; random (mostly malformed or illegal) actions are refused without changing anything;
and the views are blind to everything hidden: shuffling the hidden cards (Hand Deck below
the known top, unseen face-down cards) never changes what a seat sees.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules_engine
from rules_engine import IllegalAction, InvalidAction
from rules_engine.games.hebracs_dungeon import data

R = rules_engine.get("hebracs-dungeon")

OPTION_SETS = [
    {},
    {"strength_after_attack": True},
    {"alignment": "evil"},
    {"inventory_limit": 4},
    {"rows": 2, "cols": 6, "max_life": 10},
    {"decks": 3, "jokers": False, "max_life": 30},
]
SEEDS = st.integers(min_value=10**15, max_value=10**16)


def all_cards(state: dict) -> Counter:
    cards = list(state["hand_deck"]) + list(state["inventory"])
    for row in state["grid"]:
        for cell in row:
            cards += [c for c in (cell["enemy"], cell["treasure"]) if c is not None]
    if state["battle"] is not None:
        cards += state["battle"]["prisoners"] + state["battle"]["drawn"]
    cards += [p["card"] for p in state["pending"] if p["step"] == "luck"]
    return Counter(cards)


def scramble(state: dict, rng: random.Random, *, player: bool) -> dict:
    """The same public situation with the hidden cards shuffled among their hiding places."""
    s = R.load(R.dump(state))
    keep = s["known_top"] if player else 0
    tail = s["hand_deck"][keep:]
    rng.shuffle(tail)
    s["hand_deck"][keep:] = tail
    cells = [c for row in s["grid"] for c in row]
    hidden_enemies = [c for c in cells if c["enemy"] and not c["enemy_up"] and not (player and c["enemy_seen"])]
    hidden_treasures = [c for c in cells if c["treasure"] and not c["treasure_up"]]
    for group, key in ((hidden_enemies, "enemy"), (hidden_treasures, "treasure")):
        codes = [c[key] for c in group]
        rng.shuffle(codes)
        for c, code in zip(group, codes):
            c[key] = code
    return s


def check_views(state: dict, seed: int, rng: random.Random) -> None:
    for seat, player in (("p1", True), (None, False)):
        seen = R.view(state, seat)
        text = json.dumps(seen)
        assert str(seed) not in text
        assert R.view(scramble(state, rng, player=player), seat) == seen
        if not player:
            assert seen["hand_deck"]["known_top"] == [] and seen["choices"] is None
            assert all(cell["remembered"] is None for row in seen["grid"] for cell in row)
        else:
            assert seen["hand_deck"]["known_top"] == state["hand_deck"][: state["known_top"]]


def pick(state: dict, choice: int) -> dict:
    legal = R.legal_actions(state, "p1")
    assert legal and legal[-1] == {"type": "resign"}
    options = legal[:-1] or legal
    return options[choice % len(options)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=SEEDS, options=st.sampled_from(OPTION_SETS), choices=st.lists(st.integers(0, 10**6), min_size=30, max_size=150)
)
def test_random_legal_play_keeps_every_invariant(seed, options, choices):
    state = R.new_game(seed, ["p1"], options)
    cards = all_cards(state)
    rng = random.Random(seed)
    played = []
    for choice in choices:
        if R.result(state) is not None:
            assert R.legal_actions(state, "p1") == []
            break
        for each in R.legal_actions(state, "p1"):
            R.apply(state, "p1", each)  # every listed action is accepted
        action = pick(state, choice)
        before = json.dumps(state, sort_keys=True)
        new = R.apply(state, "p1", action)
        assert json.dumps(state, sort_keys=True) == before  # apply is pure
        state = new
        played.append(action)
        assert all_cards(state) == cards
        assert R.load(json.loads(json.dumps(R.dump(state)))) == state
        assert 0 <= state["life"] <= state["max_life"]
        assert all(c not in ("JK",) and data.rank(c) not in ("Q", "K") for c in state["inventory"])
        check_views(state, seed, rng)
    replay = R.new_game(seed, ["p1"], options)
    for action in played:
        replay = R.apply(replay, "p1", action)
    assert replay == state


def progress_pick(state: dict, rng: random.Random) -> dict:
    """Random, but never resigning and, while the level has unexplored cards, not strolling
    back into cleared chambers."""
    legal = [a for a in R.legal_actions(state, "p1") if a["type"] != "resign"]
    grid = state["grid"]
    fresh = [
        a
        for a in legal
        if a["type"] == "move"
        and (grid[a["row"] - 1][a["col"] - 1]["enemy"] or grid[a["row"] - 1][a["col"] - 1]["treasure"])
    ]
    if fresh:
        legal = [a for a in legal if a["type"] != "move" or a in fresh]
    return rng.choice(legal)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, options=st.sampled_from(OPTION_SETS))
def test_random_play_ends_within_a_bound(seed, options):
    state = R.new_game(seed, ["p1"], options)
    rng = random.Random(seed)
    for _ in range(6000):
        if R.result(state) is not None:
            break
        state = R.apply(state, "p1", progress_pick(state, rng))
    res = R.result(state)
    assert res is not None and res["reason"] in ("victory", "death", "stranded")
    assert (res["winners"] == ["p1"]) == (res["reason"] == "victory")


CODES = list(data.ALL_CODES) + ["1X", "", "ac", 7, None]
POS = st.one_of(st.lists(st.integers(-1, 7), min_size=0, max_size=3), st.just("next_level"), st.integers())
PARAMS = {
    "row": st.integers(-1, 7),
    "col": st.integers(-1, 7),
    "card": st.sampled_from(CODES),
    "cards": st.lists(st.sampled_from(CODES), max_size=4),
    "gems": st.lists(st.sampled_from(CODES), max_size=4),
    "potions": st.lists(st.sampled_from(CODES), max_size=4),
    "spell": st.sampled_from(list(data.SPELLS) + ["levitation", 3]),
    "choice": st.sampled_from(["heal", "treasure", "pray"]),
    "target": POS,
    "targets": st.lists(POS, max_size=7),
}
TYPES = [
    "move",
    "descend",
    "fight",
    "propose_trade",
    "offer",
    "buy",
    "decline",
    "priestess",
    "play",
    "attack",
    "finish_attack",
    "drink",
    "call_prisoner",
    "cast",
    "peek",
    "stop_peeking",
    "destroy",
    "drop",
    "bogus",
    5,
]
RANDOM_ACTIONS = st.builds(
    lambda kind, params: {"type": kind, **params},
    st.sampled_from(TYPES),
    st.fixed_dictionaries({}, optional=PARAMS),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=SEEDS,
    options=st.sampled_from(OPTION_SETS),
    choices=st.lists(st.integers(0, 10**6), max_size=60),
    data_=st.data(),
)
def test_random_actions_are_refused_cleanly(seed, options, choices, data_):
    state = R.new_game(seed, ["p1"], options)
    cards = all_cards(state)
    for choice in choices:
        if R.result(state) is not None:
            break
        for _ in range(3):
            action = data_.draw(RANDOM_ACTIONS)
            before = R.dump(state)
            try:
                new = R.apply(state, "p1", action)
            except (InvalidAction, IllegalAction) as error:
                assert str(error)
                assert R.dump(state) == before
            else:
                assert all_cards(new) == cards
                assert R.load(R.dump(new)) == new
        state = R.apply(state, "p1", pick(state, choice))
