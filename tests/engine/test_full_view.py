"""``full_view(state)``: what a replay of a finished game shows (``rules_engine.contract``).

Each game is played at random from a few seeds; at every step its full view must carry the
spectator's envelope (status, seat None, the same log) and keys, leave the state untouched, and
reveal in plain words everything the spectator's view hides:

- Shuffle and Doom!: the draw pile, top first. Its cards, plus the cards a spectator sees (hand,
  gold pile, room cards, returned pile, and the header cards until they go under the deck), are
  the 52 cards.
- Clear the Dungeon: the face-down cards row by row and the power deck, next card first; with
  the cards a spectator sees they are the 54 cards (52 and two jokers).
- Hebrac's Dungeon: every face-down enemy and treasure, chamber by chamber, and the Hand Deck,
  top first; with the public cards they are the two decks and four jokers.
- Dungeon Cards: the deck, top first, and every hand; with the table, the discard pile and the
  defeated bosses they are the 52 cards once the deck is formed.
- The Dungeon of Doom: nothing is revealed, but ``final`` holds the whole map and every player
  at every point, not only at the end.
"""

from __future__ import annotations

import json
import random
import re
import types
from collections import Counter
from typing import Any

import pytest

import rules_engine
from rules_engine.cards import is_card_code, standard_deck
from rules_engine.contract import Rules

STEPS = 250
SEEDS = (1, 2, 3)
QUITTING = {"resign", "leave", "leave_game"}
ENGINE_PLACE = re.compile(r"\br\d+c\d+\b")  # Clear the Dungeon's internal position codes


def play(slug: str, seed: int, players: list[str], options: dict[str, Any]):
    """The states of one random game, the first included. It ends only when every action left
    would end it: a long game passes through more of what a replay can show."""
    rules = rules_engine.get(slug)
    state = rules.new_game(seed, players, options)
    yield state
    pick = random.Random(f"full-view-{slug}-{seed}")
    for _ in range(STEPS):
        movers = [(seat, actions) for seat in players if (actions := rules.legal_actions(state, seat))]
        if not movers:
            return
        seat, actions = pick.choice(movers)
        staying = [a for a in actions if a["type"] not in QUITTING] or actions
        pick.shuffle(staying)
        after = [rules.apply(state, seat, action) for action in staying[:8]]
        state = next((s for s in after if rules.result(s) is None), after[0])
        yield state


def checked_full_view(rules: Rules, state: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The full view and the spectator's view, after the checks every game shares."""
    before = json.dumps(rules.dump(state), sort_keys=True)
    full = rules.full_view(state)
    assert json.dumps(rules.dump(state), sort_keys=True) == before, "full_view changed the state"
    spectator = rules.view(state, None)
    assert full["status"] == spectator["status"]
    assert full["seat"] is None
    assert full["log"] == spectator["log"]
    assert set(full) == set(spectator) | {"revealed"}
    assert isinstance(full["revealed"], list)
    for section in full["revealed"]:
        assert set(section) <= {"title", "cards", "items", "note"}, section
        assert isinstance(section["title"], str) and section["title"][0].isupper(), section
        assert "cards" in section or "items" in section, section
        assert all(is_card_code(code) for code in section.get("cards", [])), section
        assert all(isinstance(item, str) and item for item in section.get("items", [])), section
        words = [section["title"], section.get("note", ""), *section.get("items", [])]
        assert not any(ENGINE_PLACE.search(text) for text in words), section
    json.dumps(full)  # a replay page stores and sends it as JSON
    return full, spectator


def revealed_cards(full: dict[str, Any]) -> list[str]:
    return [code for section in full["revealed"] for code in section.get("cards", [])]


def section(full: dict[str, Any], title: str) -> list[str]:
    found = [s["cards"] for s in full["revealed"] if s["title"] == title]
    return found[0] if found else []


# --- Shuffle and Doom! --------------------------------------------------------------------------


def shuffle_and_doom_public(view: dict[str, Any]) -> list[str]:
    cards = [c["code"] for c in view["hand"] + view["gold_pile"]] + list(view["returned"])
    for room in ([view["encounter"]] if view["encounter"] else []) + view["suspended"]:
        cards += [c["code"] for c in room["cards"]]
    if view["position"] is None:  # the header cards go under the deck as the adventurer enters
        cards += view["top"] + view["side"]
    return cards


@pytest.mark.parametrize("seed", SEEDS)
def test_shuffle_and_doom_reveals_the_draw_pile_in_order(seed):
    rules = rules_engine.get("shuffle-and-doom")
    for state in play("shuffle-and-doom", seed, ["p1"], {}):
        full, spectator = checked_full_view(rules, state)
        assert "draw" not in spectator
        assert section(full, "Draw pile, top card first") == state["draw"]
        assert Counter(revealed_cards(full) + shuffle_and_doom_public(spectator)) == Counter(standard_deck())


def test_shuffle_and_doom_says_which_cards_of_the_pile_are_the_known_headers():
    rules = rules_engine.get("shuffle-and-doom")
    state = rules.apply(rules.new_game(4, ["p1"], {}), "p1", {"type": "choose_stat_set", "set": "top"})
    while state["phase"] == "assign_diamonds":
        card = state["diamonds"][0]
        state = rules.apply(state, "p1", {"type": "assign_diamond_bonus", "card": card, "stat": "attack"})
    pile = rules.full_view(state)["revealed"][0]
    assert pile["cards"][-14:] == state["top"] + state["side"]
    assert pile["note"] == "The last 14 are the header cards, already shown at the bottom of the deck."


# --- Clear the Dungeon --------------------------------------------------------------------------


def clear_the_dungeon_public(view: dict[str, Any]) -> list[str]:
    cards = view["hand"] + view["hit_row"] + view["clear_pile"] + view["inventory"]
    for place in view["dungeon"]:
        if place["state"] == "monster":
            cards += [place["card"]] + [a["card"] for a in place["attack"]]
    return cards


@pytest.mark.parametrize("seed", range(1, 9))  # random play loses within a few turns
def test_clear_the_dungeon_reveals_the_face_down_cards_and_the_power_deck(seed):
    from rules_engine.games.clear_the_dungeon import ALL_CARDS, POSITIONS

    rules = rules_engine.get("clear-the-dungeon")
    for state in play("clear-the-dungeon", seed, ["p1"], {}):
        full, spectator = checked_full_view(rules, state)
        assert section(full, "Power deck, next card first") == state["power_deck"]
        face_down = [
            state["dungeon"][pos]["card"]
            for pos in POSITIONS
            if state["dungeon"][pos] is not None and not state["dungeon"][pos]["face_up"]
        ]
        rows = [s["cards"] for s in full["revealed"] if s["title"].startswith("Face-down")]
        assert [code for row in rows for code in row] == face_down, "reading order, top row first"
        assert Counter(revealed_cards(full) + clear_the_dungeon_public(spectator)) == Counter(ALL_CARDS)


def test_clear_the_dungeon_names_a_row_in_words():
    rules = rules_engine.get("clear-the-dungeon")
    state = rules.new_game(11, ["p1"])
    state["dungeon"]["r3c3"]["face_up"] = True  # as if row 4's right card had been defeated
    state["dungeon"]["r4c2"] = None
    titles = [s["title"] for s in rules.full_view(state)["revealed"]]
    assert titles[:4] == [
        "Face-down card of row 1",
        "Face-down cards of row 2, left to right",
        "Face-down cards of row 3, left and middle",
        "Face-down card of row 4, left",
    ]


# --- Hebrac's Dungeon ---------------------------------------------------------------------------


def hebracs_public(view: dict[str, Any]) -> list[str]:
    cards = list(view["inventory"])
    for row in view["grid"]:
        for cell in row:
            cards += [code for code in (cell["enemy"], cell["treasure"]) if code is not None]
    if view["battle"]:
        cards += view["battle"]["prisoners"] + view["battle"]["drawn"]
    cards += [step["card"] for step in view["pending"] if step["kind"] == "luck"]
    return cards


@pytest.mark.parametrize("seed", SEEDS)
def test_hebracs_dungeon_reveals_the_face_down_cards_and_the_hand_deck(seed):
    rules = rules_engine.get("hebracs-dungeon")
    whole = Counter(standard_deck(decks=2, jokers=4))
    for state in play("hebracs-dungeon", seed, ["p1"], {}):
        full, spectator = checked_full_view(rules, state)
        assert section(full, "Hand Deck, top card first") == state["hand_deck"]
        assert Counter(revealed_cards(full) + hebracs_public(spectator)) == whole
        for r, row in enumerate(state["grid"], start=1):
            for c, cell in enumerate(row, start=1):
                hidden = [
                    cell[kind] for kind in ("enemy", "treasure") if cell[kind] is not None and not cell[f"{kind}_up"]
                ]
                titled = [s for s in full["revealed"] if s["title"].endswith(f" in row {r}, column {c}")]
                assert [s["cards"] for s in titled] == ([hidden] if hidden else [])


def test_hebracs_dungeon_says_what_the_player_knew():
    rules = rules_engine.get("hebracs-dungeon")
    state = rules.new_game(7, ["p1"], None)
    state["known_top"] = 2  # as after Future Perception
    state["grid"][0][1]["enemy_seen"] = True  # as after Remote Vision
    revealed = rules.full_view(state)["revealed"]
    seen = next(s for s in revealed if s["title"] == "Face-down enemy and treasure in row 1, column 2")
    assert seen["cards"] == [state["grid"][0][1]["enemy"], state["grid"][0][1]["treasure"]]
    assert seen["note"] == "The player had seen this enemy."
    assert revealed[-1]["note"] == "The player knew the top 2 cards (Future Perception)."
    assert "note" not in revealed[0]


# --- Dungeon Cards ------------------------------------------------------------------------------

DUNGEON_CARDS_GAMES = [
    (["p1"], {"classes": {"p1": "swordsman"}}),
    (["p1", "p2"], {"classes": {"p1": "rogue", "p2": "athlete"}, "turn_mode": "three_card_hand"}),
    (["p1", "p2"], {}),  # from the lobby: nothing is dealt yet
]


def dungeon_cards_public(view: dict[str, Any]) -> list[str]:
    cards = view["discard"] + view["removed"]
    if view["turn"] and view["turn"]["movement_card"]:
        cards.append(view["turn"]["movement_card"])
    fight = view["combat"]
    if fight:
        if fight["boss_on_table"]:
            cards.append(fight["boss_card"])
        cards += [code for code in fight["boss_cards"] if code]
        if fight["dash"] and fight["dash"]["card"]:
            cards.append(fight["dash"]["card"])
    return cards


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("players", "options"), DUNGEON_CARDS_GAMES)
def test_dungeon_cards_reveals_the_deck_and_every_hand(seed, players, options):
    rules = rules_engine.get("dungeon-cards")
    hands_seen = False
    for state in play("dungeon-cards", seed, players, options):
        full, spectator = checked_full_view(rules, state)
        assert section(full, "Deck, top card first") == state["deck"]
        for c in state["characters"]:
            assert section(full, f"Hand of {c['id']}") == c["hand"]
            hands_seen = hands_seen or bool(c["hand"])
        cards = revealed_cards(full) + dungeon_cards_public(spectator)
        assert Counter(cards) == (Counter(standard_deck()) if state["characters"] else Counter())
    assert hands_seen == (options.get("turn_mode") == "three_card_hand")


# --- The Dungeon of Doom ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_dungeon_of_doom_draws_the_whole_map_at_every_point(seed):
    rules = rules_engine.get("dungeon-of-doom")
    for state in play("dungeon-of-doom", seed, ["p1", "p2"], {}):
        full, spectator = checked_full_view(rules, state)
        assert full["revealed"] == []
        assert spectator["final"] is None or state["result"] is not None
        final = full["final"]
        assert final["terrain"] == state["map"]["terrain"]
        assert len(final["rows"]) == state["map"]["height"]
        assert [(i["pos"], i["kind"]) for i in final["items"]] == [(i["pos"], i["kind"]) for i in state["map"]["items"]]
        assert [(p["seat"], p["pos"], p["hp"], p["gold"]) for p in final["players"]] == [
            (p["seat"], p["pos"], p["hp"], p["gold"]) for p in state["players"]
        ]


def test_dungeon_of_doom_full_view_of_the_end_is_the_spectators_final_map():
    rules = rules_engine.get("dungeon-of-doom")
    *_, state = play("dungeon-of-doom", 4, ["p1", "p2"], {})
    for seat in ("p1", "p2"):
        if {"type": "leave"} in rules.legal_actions(state, seat):
            state = rules.apply(state, seat, {"type": "leave"})
    full, spectator = checked_full_view(rules, state)
    assert full["status"] == "finished"
    assert full["final"] == spectator["final"] is not None


# --- The default ----------------------------------------------------------------------------------


def test_a_game_without_the_hook_shows_the_spectator_view_revealing_nothing():
    engine = rules_engine.get("shuffle-and-doom").module
    bare = types.ModuleType("bare_game")
    for name in ("slug", "title", "min_players", "max_players", "new_game", "legal_actions", "apply"):
        setattr(bare, name, getattr(engine, name))
    for name in ("view", "result", "dump", "load"):
        setattr(bare, name, getattr(engine, name))
    rules = Rules.of(bare)
    state = rules.new_game(3, ["p1"], {})
    assert rules.full_view(state) == {**engine.view(state, None), "revealed": []}


@pytest.mark.parametrize("slug", rules_engine.available())
def test_every_game_defines_its_own_full_view(slug):
    assert "full_view" in vars(rules_engine.get(slug).module), slug
