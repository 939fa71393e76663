"""Hebrac's Dungeon: the contract, options, every spell's legality in each situation, and the
rulings of section 12 that no acceptance scenario covers (rules: ``docs/rules/hebracs-dungeon.md``)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import rules_engine
from rules_engine import IllegalAction, InvalidAction
from rules_engine.games.hebracs_dungeon import data, trade
from tests.helpers.engine import refused
from tests.helpers.hebracs_dungeon import bottom, situation

R = rules_engine.get("hebracs-dungeon")


def mv(row, col):
    return {"type": "move", "row": row, "col": col}


def cast(spell, *potions, **extra):
    return {"type": "cast", "spell": spell, "potions": list(potions), **extra}


def act(kind, **params):
    return {"type": kind, **params}


ATTACK = act("attack")


def play(state, *actions):
    for action in actions:
        state = R.apply(state, "p1", action)
    return state


def cell(state, row, col):
    return state["grid"][row - 1][col - 1]


# --- the contract -----------------------------------------------------------------------------


class TestContract:
    def test_constants_and_registry(self):
        assert (R.slug, R.title, R.min_players, R.max_players) == ("hebracs-dungeon", "Hebrac's Dungeon", 1, 1)
        assert "hebracs-dungeon" in rules_engine.available()

    def test_standard_deal(self):
        state = R.new_game(5, ["p1"], None)
        everything = Counter(state["hand_deck"]) + Counter(
            c for row in state["grid"] for cl in row for c in (cl["enemy"], cl["treasure"])
        )
        assert sum(everything.values()) == 108 and everything["JK"] == 4 and everything["AS"] == 2
        assert len(state["hand_deck"]) == 84
        assert R.new_game(5, ["p1"], None) == state
        assert R.new_game(6, ["p1"], None)["hand_deck"] != state["hand_deck"]

    @pytest.mark.parametrize(
        "options, size, jokers",
        [({"decks": 3}, 162, 6), ({"jokers": False}, 104, 0), ({"decks": 4, "jokers": False}, 208, 0)],
    )
    def test_deck_options(self, options, size, jokers):
        state = R.new_game(5, ["p1"], options)
        cards = state["hand_deck"] + [c for row in state["grid"] for cl in row for c in (cl["enemy"], cl["treasure"])]
        assert len(cards) == size and cards.count("JK") == jokers

    @pytest.mark.parametrize(
        "options",
        [
            {"colour": "red"},
            {"decks": 1},
            {"decks": "2"},
            {"jokers": 1},
            {"rows": 6},
            {"cols": 2},
            {"rows": 2, "cols": 5},
            {"max_life": 4},
            {"max_life": 31},
            {"inventory_limit": 2},
            {"inventory_limit": 31},
            {"strength_after_attack": "yes"},
            {"alignment": "neutral"},
            {"deck": ["AS"] * 23},
            {"deck": ["ZZ"] * 24},
            {"deck": "AS KS"},
            "decks=2",
        ],
    )
    def test_bad_options_are_invalid(self, options):
        with pytest.raises(InvalidAction):
            R.new_game(1, ["p1"], options)

    def test_stacked_deck_of_any_composition(self):
        state = R.new_game(1, ["p1"], {"deck": ["5D"] * 24})
        assert state["hand_deck"] == [] and state["grid"][0][0]["enemy"] == "5D"
        assert R.result(play(state, mv(1, 1), ATTACK))["reason"] == "stranded"
        assert R.view(state, None)["stacked_deck"] and "deck" not in R.view(state, None)["options"]

    @pytest.mark.parametrize("seed, players", [(1, []), (1, ["p1", "p2"]), (1, [3]), ("1", ["p1"]), (True, ["p1"])])
    def test_bad_players_or_seed(self, seed, players):
        with pytest.raises(InvalidAction):
            R.new_game(seed, players, None)

    def test_other_seats_cannot_act(self):
        state = R.new_game(3, ["p1"], None)
        assert R.legal_actions(state, "p2") == []
        refused_by = R.dump(state)
        with pytest.raises(IllegalAction):
            R.apply(state, "p2", mv(1, 1))
        assert R.dump(state) == refused_by

    def test_dump_load_round_trip(self):
        state = play(R.new_game(3, ["p1"], None), mv(1, 1))
        assert R.load(json.loads(json.dumps(R.dump(state)))) == state
        with pytest.raises(InvalidAction):
            R.load({"not": "a game"})

    def test_apply_never_mutates_its_input(self):
        state = situation(cells={(1, 1): "8S/5C"}, hand=["3H", "9C"])
        frozen = json.dumps(state, sort_keys=True)
        new = play(state, mv(1, 1), ATTACK)
        assert json.dumps(state, sort_keys=True) == frozen and new != state

    def test_resign_and_result(self):
        state = R.new_game(3, ["p1"], None)
        assert R.result(state) is None
        over = play(state, act("resign"))
        res = R.result(over)
        assert res["reason"] == "resigned" and res["winners"] == [] and res["scores"] == {"p1": 0}
        assert over["phase"] == "over" and R.legal_actions(over, "p1") == []
        assert res["ranked"] and not R.result(play(situation(), act("resign")))["ranked"]

    def test_log_entries_and_labels(self):
        state = play(situation(cells={(1, 1): "JS/6C"}, inventory=["5C", "2H"], life=9), mv(1, 1))
        assert all(isinstance(e["text"], str) and e["text"] for e in state["log"])
        for action in R.legal_actions(state, "p1"):
            assert R.action_label(state, action)
        labels = {R.action_label(state, a) for a in R.legal_actions(state, "p1")}
        assert {"Fight", "Propose a trade", "Drink 2♥", "Give up"} <= labels

    def test_view_choices(self):
        state = situation(position=(1, 1), cells={(1, 1): "cleared"}, inventory=["AC", "5C", "3D", "JH"])
        player, spectator = R.view(state, "p1"), R.view(state, None)
        assert spectator["choices"] is None
        assert player["choices"]["potions"] == [{"card": "5C", "points": 10}]
        assert player["choices"]["gems"] == ["3D"]
        assert player["choices"]["offer_cards"] == [
            {"card": "5C", "value": 5},
            {"card": "3D", "value": 3},
            {"card": "JH", "value": 8},
        ]
        assert sorted(player["choices"]["targets"]["move"]) == [[1, 2], [2, 1]]
        assert {c["action"]["type"] for c in player["choices"]["actions"]} >= {"move", "cast", "resign"}
        assert player["cleared"] == 1 and player["descent_threshold"] == 6 and player["chambers"] == 12


# --- spells: legality in each situation (8.2) ----------------------------------------------------

POTIONS = ["10C", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "2C"]
FREE = {
    "remote_vision",
    "future_perception",
    "healing",
    "anti_magic",
    "body_switch",
    "teleport",
    "revelation",
    "hell_bomb",
    "curse",
    "genie_of_luck",
    "stone_statue",
    "god_vision",
}
BATTLE = set(data.SPELLS) - {"illusion", "stone_statue"}


def _explore(**kwargs):
    base = {"position": (1, 1), "inventory": POTIONS, "life": 10, **kwargs}
    base["cells"] = {(1, 1): "cleared", **kwargs.get("cells", {})}
    return situation(**base)


def _situations():
    yield "start_level", situation(inventory=POTIONS, life=10), FREE - {"hell_bomb"}
    yield "explore", _explore(), FREE
    yield "battle", play(_explore(), mv(1, 2)), BATTLE
    yield "battle_after_a_spell", play(_explore(), mv(1, 2), cast("paralysis", "4C")), set()
    yield (
        "after_draw",
        play(
            _explore(
                options={"strength_after_attack": True},
                cells={(1, 2): "10S/2H"},
                inventory=POTIONS + ["2S"],
                hand=["2D"],
            ),
            mv(1, 2),
            ATTACK,
        ),
        set(),
    )
    yield "adventurer", play(_explore(cells={(1, 2): "JD/6H"}), mv(1, 2)), {"escape", "stealing_spirit"}
    yield "trade", play(_explore(cells={(1, 2): "JD/6H"}), mv(1, 2), act("propose_trade")), {"illusion"}
    yield (
        "trade_evil",
        play(_explore(cells={(1, 2): "JD/6H"}, options={"alignment": "evil"}), mv(1, 2), act("propose_trade")),
        {"illusion", "stealing_spirit"},
    )
    yield "merchant", play(_explore(cells={(1, 2): "KS/6H"}), mv(1, 2)), {"stealing_spirit"}
    yield "priestess", play(_explore(cells={(1, 2): "QH/6H"}), mv(1, 2)), set()
    yield "hebrac", play(_explore(cells={(1, 2): "JK/6H"}), mv(1, 2)), set()
    yield "hebrac_reward", play(_explore(cells={(1, 2): "AS/JK"}), mv(1, 2)), set()
    yield "remote_vision", play(_explore(), cast("remote_vision", "2C")), set()
    yield "genie_of_death", play(_explore(cells={(1, 2): "AS/KS"}), mv(1, 2)), set()
    yield (
        "overflow",
        play(_explore(cells={(1, 2): "AS/6H"}, options={"inventory_limit": len(POTIONS)}), mv(1, 2)),
        set(),
    )


SITUATIONS = list(_situations())


def _cast_for(state, spell):
    spec = data.SPELLS[spell]
    items = [(c, data.number(c)) for c in state["inventory"] if data.is_magic_potion(c)]
    potions = [items[-1][0]] if spec["scaled"] else trade.canonical(items, spec["cost"])
    action = cast(spell, *potions)
    if spell == "body_switch" and state["phase"] != "battle":
        action["target"] = [2, 2]
    if spell == "teleport":
        action["target"] = [3, 3]
    if spell == "stone_statue":
        action["targets"] = [[3, 3]]
    return action


class TestSpellLegality:
    @pytest.mark.parametrize("situation, state, allowed", SITUATIONS, ids=[s[0] for s in SITUATIONS])
    def test_each_spell_in_each_situation(self, situation, state, allowed):
        assert state["phase"] == situation.replace("_evil", "").replace("battle_after_a_spell", "battle")
        for spell in data.SPELLS:
            action = _cast_for(state, spell)
            if spell in allowed:
                R.apply(state, "p1", action)
            else:
                refused(R, state, "p1", action)
        listed = {a["spell"] for a in R.legal_actions(state, "p1") if a["type"] == "cast"}
        assert listed == allowed

    @pytest.mark.parametrize("situation, state, allowed", SITUATIONS, ids=[s[0] for s in SITUATIONS])
    def test_the_spell_book_says_what_the_rules_allow_and_why_not(self, situation, state, allowed):
        standing = R.view(state, "p1")["choices"]["spells"]
        assert {spell for spell, s in standing.items() if s["castable"]} == allowed
        for spell, s in standing.items():
            if s["castable"]:
                assert s["reason"] is None
                continue
            assert s["reason"], spell
            if situation == "battle_after_a_spell":
                assert s["reason"].startswith("only one spell per battle")
        assert R.view(state, None)["choices"] is None  # a spectator has no spell book

    def test_spell_book_reasons_and_caps(self):
        state = _explore(life=12)
        standing = R.view(state, "p1")["choices"]["spells"]
        assert standing["paralysis"]["reason"] == refused(R, state, "p1", _cast_for(state, "paralysis"))
        assert standing["paralysis"]["reason"] == "Paralysis cannot be cast outside a battle: only in a battle"
        assert standing["healing"]["cap"] == 3  # 12 of 15 life
        assert standing["remote_vision"]["cap"] == 11  # every other chamber hides a face-down enemy
        assert standing["future_perception"]["cap"] == 30
        assert standing["anti_magic"]["cap"] is None
        poor = situation(position=(1, 1), cells={(1, 1): "cleared"}, inventory=["2C"])
        standing = R.view(poor, "p1")["choices"]["spells"]
        assert standing["genie_of_luck"]["reason"] == "needs 11 points, your potions give 2"
        assert standing["healing"]["reason"] == "your life is already at its maximum"
        broke = R.view(situation(position=(1, 1), cells={(1, 1): "cleared"}), "p1")["choices"]["spells"]
        assert {s["reason"] for s in broke.values()} >= {"you have no magic potion"}
        empty = situation(
            position=(1, 1),
            inventory=["10C", "9C"],
            cells={pos: "cleared" for pos in [(r, c) for r in (1, 2, 3) for c in (1, 2, 3, 4)]},
        )
        standing = R.view(empty, "p1")["choices"]["spells"]
        assert standing["stone_statue"]["reason"] == "no chamber of the level holds an enemy card"
        assert standing["remote_vision"]["reason"] == "no unvisited chamber hides a face-down enemy"
        assert standing["remote_vision"]["cap"] == 0

    def test_costs_and_payment(self):
        state = _explore()
        assert "superfluous" in refused(R, state, "p1", cast("anti_magic", "4C", "2C", "3C"))
        assert "needs 5" in refused(R, state, "p1", cast("anti_magic", "4C"))
        R.apply(state, "p1", cast("anti_magic", "3C", "2C"))
        R.apply(state, "p1", cast("anti_magic", "10C"))  # points above the cost are lost
        assert "at least one" in refused(R, state, "p1", cast("healing"))
        assert "not a magic potion" in refused(R, situation(inventory=["5H"], life=3), "p1", cast("healing", "5H"))
        assert "do not hold" in refused(R, state, "p1", cast("healing", "10C", "10C"))

    def test_scepter_doubles_points(self):
        state = play(situation(inventory=["AC", "3C"], life=3), cast("healing", "3C"))
        assert state["life"] == 6

    @pytest.mark.parametrize(
        "state, action, reason",
        [
            (situation(inventory=["5C", "5C"], effects=["anti_magic"]), cast("anti_magic", "5C"), "already active"),
            (situation(inventory=["10C"], effects=["curse"]), cast("curse", "10C"), "already active"),
            (situation(inventory=["9C"], effects=["enemies_revealed"]), None, "already face up"),
            (situation(inventory=["3C"], filler=False), cast("future_perception", "3C"), "empty"),
            (situation(inventory=["7C"], filler=False), cast("body_switch", "7C", target=[1, 1]), "empty"),
            (situation(inventory=["6C", "5C"], filler=False), cast("genie_of_luck", "6C", "5C"), "empty"),
            (situation(inventory=["6C"]), cast("healing", "6C"), "maximum"),
        ],
    )
    def test_pointless_casts_are_refused(self, state, action, reason):
        if action is None:  # Revelation with every enemy face up
            for row in state["grid"]:
                for c in row:
                    c["enemy_up"] = True
            action = cast("revelation", "9C")
        assert reason in refused(R, state, "p1", action)

    def test_remote_vision_without_eligible_chamber(self):
        state = situation(inventory=["3C"])
        for row in state["grid"]:
            for c in row:
                c["visited"] = True
        state["phase"] = "explore"
        assert "face-down" in refused(R, state, "p1", cast("remote_vision", "3C"))

    def test_god_vision_when_everything_is_face_up(self):
        state = _explore()
        state = play(state, cast("god_vision", "10C", "5C"))
        assert "already face up" in refused(R, state, "p1", cast("god_vision", "9C", "6C"))

    def test_hell_bomb_with_nothing_to_strike(self):
        cells = {(1, 1): "cleared", (1, 2): "cleared", (2, 1): "cleared"}
        assert "no struck chamber" in refused(
            R, situation(cells=cells, position=(1, 1), inventory=["9C"]), "p1", cast("hell_bomb", "9C")
        )

    def test_remote_vision_peeks_each_chamber_once_and_may_stop(self):
        state = play(_explore(), cast("remote_vision", "3C"))
        state = play(state, act("peek", row=3, col=3))
        assert "already" in refused(R, state, "p1", act("peek", row=3, col=3))
        refused(R, state, "p1", act("peek", row=9, col=9))
        state = play(state, act("stop_peeking"))
        assert state["phase"] == "explore" and state["decision"] is None

    def test_remote_vision_in_battle_returns_to_the_battle(self):
        state = play(
            _explore(), mv(1, 2), cast("remote_vision", "2C"), act("peek", row=3, col=3), act("peek", row=3, col=4)
        )
        assert state["phase"] == "battle" and state["battle"]["spell"] == "remote_vision"

    def test_remote_vision_ends_when_no_chamber_is_left(self):
        cells = {(r, c): "cleared" for r in range(1, 4) for c in range(1, 5)}
        cells[(3, 4)] = "7S/2H"
        state = play(situation(cells=cells, position=(1, 1), inventory=["9C"]), cast("remote_vision", "9C"))
        state = play(state, act("peek", row=3, col=4))
        assert state["phase"] == "explore" and cell(state, 3, 4)["enemy_seen"]

    def test_illusion_on_a_black_queen_is_refused(self):
        state = play(situation(inventory=["4C"], cells={(1, 1): "JD/QS"}), mv(1, 1), act("propose_trade"))
        assert "pointless" in refused(R, state, "p1", cast("illusion", "4C"))

    def test_illusion_release_order(self):
        state = situation(inventory=["4C"], cells={(1, 1): "JD/7H"})
        start = list(state["hand_deck"])
        state = play(state, mv(1, 1), act("propose_trade"), cast("illusion", "4C"))
        assert bottom(state, start) == ["4C", "JD"] and state["inventory"] == ["7H"]

    def test_stealing_spirit_refused_on_a_black_queen_merchant(self):
        state = play(situation(inventory=["6C"], cells={(1, 1): "KS/QC"}), mv(1, 1))
        assert [a["type"] for a in R.legal_actions(state, "p1") if a["type"] != "resign"] == ["decline"]
        assert "black priestess" in refused(R, state, "p1", cast("stealing_spirit", "6C"))

    def test_stealing_spirit_in_a_robbed_chamber_battle_is_refused(self):
        state = play(
            situation(position=(1, 1), cells={(1, 1): "cleared", (1, 2): "10S/AS"}, inventory=["6C", "7C", "3C"]),
            mv(1, 2),
            cast("stealing_spirit", "6C"),
            mv(1, 2),
        )
        assert "Escape" in refused(R, state, "p1", cast("stealing_spirit", "7C"))
        play(state, cast("escape", "3C"))

    def test_body_switch_in_a_battle_targets_only_the_enemy(self):
        state = play(_explore(), mv(1, 2))
        refused(R, state, "p1", cast("body_switch", "7C", target=[2, 2]))
        ok = play(state, cast("body_switch", "7C", target=[1, 2]))
        assert ok["battle"]["enemy"] == "5D"

    def test_body_switch_outside_needs_an_enemy(self):
        state = _explore()
        assert "no enemy" in refused(R, state, "p1", cast("body_switch", "7C", target=[1, 1]))
        assert "choose" in refused(R, state, "p1", cast("body_switch", "7C"))

    def test_stone_statue_target_rules(self):
        state = _explore()
        refused(R, state, "p1", cast("stone_statue", "10C", "5C", targets=[]))
        refused(R, state, "p1", cast("stone_statue", "10C", "5C", targets=[[2, 2], [2, 2]]))
        refused(R, state, "p1", cast("stone_statue", "10C", "5C", targets=[[1, 1]]))
        refused(R, state, "p1", cast("stone_statue", "10C", "5C", targets=[[7, 7]]))

    def test_teleport_targets(self):
        state = _explore()
        assert "another chamber" in refused(R, state, "p1", cast("teleport", "8C", target=[1, 1]))
        refused(R, state, "p1", cast("teleport", "8C", target=[4, 1]))


# --- rulings -------------------------------------------------------------------------------------


class TestRulings:
    def test_r10_life_potion_at_full_life_is_refused(self):
        assert "maximum" in refused(R, situation(inventory=["5H"]), "p1", act("drink", card="5H"))

    def test_r46_teleport_cannot_restart_the_same_battle(self):
        state = play(_explore(), mv(1, 2))
        assert "another chamber" in refused(R, state, "p1", cast("teleport", "8C", target=[1, 2]))
        moved = play(state, cast("teleport", "8C", target=[1, 1]))
        assert moved["position"] == [1, 1] and moved["battle"] is None

    def test_r47_stone_statue_clears_a_robbed_chamber_and_may_force_the_descent(self):
        cells = {(r, c): "cleared" for r in range(1, 4) for c in range(1, 5)}
        cells[(1, 2)] = "10S/AS"
        state = situation(cells=cells, position=(1, 1), inventory=["6C", "10C", "5C"])
        state = play(state, mv(1, 2), cast("stealing_spirit", "6C"))
        assert cell(state, 1, 2)["robbed"] and state["level"] == 1
        cleared_before = state["counters"]["chambers_cleared"]
        state = play(state, cast("stone_statue", "10C", "5C", targets=[[1, 2]]))
        assert state["counters"]["chambers_cleared"] == cleared_before + 1
        assert state["level"] == 2 and state["phase"] == "start_level"

    def test_r48_evil_escape_after_a_trade_keeps_the_treasure_face_up(self):
        state = situation(options={"alignment": "evil"}, inventory=["3C"], cells={(1, 1): "JD/9D"}, hand=["2D"])
        state = play(state, mv(1, 1), act("propose_trade"), act("fight"), ATTACK, cast("escape", "3C"))
        c = cell(state, 1, 1)
        assert not c["enemy_up"] and c["treasure_up"] and not c["robbed"]
        assert R.view(state, None)["grid"][0][0]["treasure"] == "9D"
        state = play(state, mv(1, 1))
        assert state["phase"] == "adventurer"
        assert {"fight", "propose_trade"} <= {a["type"] for a in R.legal_actions(state, "p1")}

    def test_r34_god_vision_does_not_lock_the_fight(self):
        state = play(_explore(cells={(1, 2): "JD/9D"}), cast("god_vision", "10C", "5C"), mv(1, 2))
        assert cell(state, 1, 2)["treasure_up"] and state["phase"] == "adventurer"
        assert play(state, act("fight"))["phase"] == "battle"

    def test_good_alignment_trade_lock(self):
        state = play(_explore(cells={(1, 2): "JD/AH"}), mv(1, 2), act("propose_trade"))
        refused(R, state, "p1", act("fight"))
        refused(R, state, "p1", cast("escape", "3C"))
        assert [a["type"] for a in R.legal_actions(state, "p1") if a["type"] not in ("resign", "drink")] == ["decline"]

    def test_r49_body_switch_into_a_merchant_allows_stealing_spirit(self):
        state = situation(inventory=["7C", "6C", "JD"], cells={(1, 1): "10S/4H"}, hand=["KS"])
        start = list(state["hand_deck"])
        state = play(state, mv(1, 1), act("call_prisoner", card="JD"), cast("body_switch", "7C"))
        assert state["phase"] == "merchant" and state["battle"] is None and cell(state, 1, 1)["treasure_up"]
        state = play(state, cast("stealing_spirit", "6C"))
        assert bottom(state, start) == ["7C", "10S", "JD", "6C", "KS"] and state["inventory"] == ["4H"]
        assert state["position"] is None

    def test_body_switch_into_a_black_queen_steals_at_once(self):
        state = play(
            situation(inventory=["7C", "9H"], cells={(1, 1): "10S/4H"}, hand=["QC"]),
            mv(1, 1),
            cast("body_switch", "7C"),
        )
        assert state["inventory"] == ["4H"] and state["phase"] == "explore"

    def test_body_switch_in_a_battle_keeps_the_curse(self):
        state = play(
            situation(inventory=["10C", "7C"], cells={(1, 1): "10S/4H"}, hand=["9D"]), cast("curse", "10C"), mv(1, 1)
        )
        assert state["battle"]["enemy_life"] == 5
        state = play(state, cast("body_switch", "7C"))
        assert state["battle"]["enemy"] == "9D" and state["battle"]["enemy_life"] == 5

    def test_body_switch_after_revelation_lies_face_up(self):
        state = play(_explore(), cast("revelation", "9C"), cast("body_switch", "7C", target=[2, 2]))
        assert cell(state, 2, 2)["enemy_up"] and R.view(state, None)["grid"][1][1]["enemy"] == "5D"

    def test_r45_stealing_spirit_in_battle_settles_the_treasure_before_the_prisoners(self):
        state = situation(inventory=["6C", "JD"], cells={(1, 1): "10S/KH"})
        start = list(state["hand_deck"])
        state = play(state, mv(1, 1), act("call_prisoner", card="JD"), cast("stealing_spirit", "6C"))
        assert bottom(state, start) == ["6C", "KH", "JD"] and state["max_life"] == 17
        assert state["battle"] is None and state["position"] is None and cell(state, 1, 1)["robbed"]

    def test_r45_a_decision_inside_the_theft_keeps_the_battle_on(self):
        state = situation(inventory=["6C", "JD"], cells={(1, 1): "10S/JK"})
        start = list(state["hand_deck"])
        state = play(state, mv(1, 1), act("call_prisoner", card="JD"), cast("stealing_spirit", "6C"))
        assert state["phase"] == "hebrac_reward" and state["battle"] is not None
        state = play(state, act("decline"))
        assert state["battle"] is None and state["phase"] == "explore"
        assert bottom(state, start) == ["6C", "JK", "JD"]

    def test_r44_stealing_spirit_on_a_merchant_selling_a_queen(self):
        state = situation(life=5, inventory=["6C"], cells={(1, 1): "KD/QH"})
        start = list(state["hand_deck"])
        state = play(state, mv(1, 1), cast("stealing_spirit", "6C"))
        assert bottom(state, start) == ["6C", "KD", "QH"] and state["life"] == 15 and state["position"] is None

    def test_r43_white_priestess_heal_at_full_life(self):
        state = situation(cells={(1, 1): "QD/QS"}, inventory=["5H"])
        start = list(state["hand_deck"])
        state = play(state, mv(1, 1), act("priestess", choice="heal"))
        assert bottom(state, start) == ["QD", "QS"] and state["inventory"] == ["5H"]

    def test_r41_a_stolen_ace_found_again_is_genuine(self):
        state = play(situation(inventory=["AH"], cells={(1, 1): "QS/2H", (1, 2): "AS/AH"}), mv(1, 1))
        assert state["inventory"] == ["2H"] and state["max_life"] == 15
        state = play(state, mv(1, 2))
        assert state["inventory"] == ["2H", "AH"] and state["max_life"] == 20

    def test_r36_genie_of_life_is_permanent(self):
        state = play(situation(inventory=["AH"], cells={(1, 1): "AS/KH", (1, 2): "QC/2H"}), mv(1, 1))
        assert state["max_life"] == 22
        state = play(state, mv(1, 2))
        assert state["max_life"] == 17 and state["genie_life_bonus"] == 2

    def test_r33_prisoners_leave_when_escaping(self):
        state = situation(inventory=["JD", "JC", "3C"], cells={(1, 1): "9S/4H"})
        start = list(state["hand_deck"])
        state = play(state, mv(1, 1), act("call_prisoner", card="JD"), act("call_prisoner", card="JC"))
        assert state["battle"]["prisoners"] == ["JD", "JC"]
        state = play(state, cast("escape", "3C"))
        assert bottom(state, start) == ["3C", "JD", "JC"] and state["inventory"] == []

    def test_r13_prisoners_stack_and_add_once_with_double_attack(self):
        state = situation(inventory=["JD", "JC", "4C"], cells={(1, 1): "10S/4H"}, hand=["2D", "2H"])
        state = play(
            state,
            mv(1, 1),
            act("call_prisoner", card="JD"),
            act("call_prisoner", card="JC"),
            cast("double_attack", "4C"),
        )
        state = play(state, ATTACK)
        assert state["battle"] is None and state["inventory"] == ["4H"]  # 2 + 2 + 3 + 3 = 10

    def test_r15_anti_magic_cast_in_a_battle_protects_from_the_next_round(self):
        state = play(situation(inventory=["5C"], cells={(1, 1): "9C/4H"}, hand=["2D", "3D"]), mv(1, 1), ATTACK)
        assert state["life"] == 8
        state = play(state, cast("anti_magic", "5C"), ATTACK)
        assert state["life"] == 8

    def test_anti_magic_does_not_shield_against_other_fighters(self):
        state = play(situation(effects=["anti_magic"], cells={(1, 1): "9H/4H"}, hand=["2D"]), mv(1, 1), ATTACK)
        assert state["life"] == 8

    def test_anti_magic_stops_a_black_priestess_found_as_a_treasure(self):
        state = play(situation(effects=["anti_magic"], inventory=["9H"], cells={(1, 1): "AS/QC"}), mv(1, 1))
        assert state["inventory"] == ["9H"]

    def test_curse_cast_in_a_battle_halves_the_current_enemy(self):
        state = play(situation(inventory=["10C"], cells={(1, 1): "9S/4H"}, hand=["5D"]), mv(1, 1), cast("curse", "10C"))
        assert state["battle"]["enemy_life"] == 5
        assert play(state, ATTACK)["battle"] is None

    def test_r26_genie_of_death_with_fewer_targets(self):
        cells = {(r, c): "cleared" for r in range(1, 4) for c in range(1, 5)}
        cells.update({(1, 1): "AS/KS", (3, 3): "7S/2H", (3, 4): "8S/2H"})
        state = play(situation(cells=cells), mv(1, 1))
        assert state["phase"] == "genie_of_death" and state["decision"]["count"] == 2
        assert R.legal_actions(state, "p1")[0] == {"type": "destroy", "targets": [[3, 3], [3, 4]]}
        state = play(state, act("destroy", targets=[[3, 4], [3, 3]]))
        assert cell(state, 3, 4)["enemy"] is None and state["phase"] == "explore"

    def test_r26_genie_of_death_without_target(self):
        cells = {(r, c): "cleared" for r in range(1, 4) for c in range(1, 5)}
        cells.update({(1, 1): "AS/KS", (1, 2): "7S/2H"})
        state = situation(cells=cells)
        state["grid"][0][1]["visited"] = True
        state = play(state, mv(1, 1))
        assert state["phase"] == "explore" and state["decision"] is None

    def test_r8_hebrac_cannot_be_played_on_an_empty_hand_deck(self):
        state = play(situation(cells={(1, 1): "JK/5H"}, filler=False), mv(1, 1))
        assert "empty" in refused(R, state, "p1", act("play"))
        assert [a["type"] for a in R.legal_actions(state, "p1")] == ["decline", "resign"]

    def test_r8_genie_of_luck_takes_what_is_there(self):
        # the Hand Deck holds only the two cards that just went under: AS (genuine) and KD (lost)
        state = play(situation(cells={(1, 1): "AS/KD"}, filler=False), mv(1, 1))
        assert state["inventory"] == ["AS"] and state["hand_deck"] == ["KD"]

    def test_r8_double_attack_without_a_second_card_strands(self):
        state = play(
            situation(inventory=["4C"], cells={(1, 1): "9S/4H"}, filler=False), mv(1, 1), cast("double_attack", "4C")
        )
        assert state["hand_deck"] == ["4C"]
        state = play(state, ATTACK)
        assert state["status"] == "stranded"

    def test_r22_reward_is_the_card_after_the_test_card(self):
        state = play(situation(cells={(1, 1): "AS/JK"}, hand=["3H", "7S"]), mv(1, 1), act("play"))
        assert state["inventory"] == ["7S"]

    def test_genie_of_luck_spell_in_a_battle(self):
        state = play(
            situation(inventory=["6C", "5C"], cells={(1, 1): "9S/4H"}, hand=["2H", "3H", "4S", "5S", "6S"]),
            mv(1, 1),
            cast("genie_of_luck", "6C", "5C"),
        )
        assert state["phase"] == "battle" and state["inventory"] == ["2H", "3H", "4S", "5S", "6S"]

    def test_inventory_limit_pauses_a_genie_of_luck_sequence(self):
        # the two potions go under first, so the Genie of Luck draws 3H 4H 5H 6C 5C
        state = situation(
            options={"inventory_limit": 3}, inventory=["6C", "5C", "2H"], hand=["3H", "4H", "5H"], filler=False
        )
        state = play(state, cast("genie_of_luck", "6C", "5C"))
        assert state["phase"] == "overflow" and state["inventory"] == ["2H", "3H", "4H", "5H"]
        assert R.view(state, None)["pending"] == [{"kind": "luck", "card": "6C"}, {"kind": "luck", "card": "5C"}]
        state = play(state, act("drop", card="2H"))
        assert state["phase"] == "overflow" and state["inventory"] == ["3H", "4H", "5H", "6C"]
        state = play(state, act("drop", card="6C"), act("drop", card="3H"))
        assert state["phase"] == "start_level" and state["inventory"] == ["4H", "5H", "5C"]
        assert state["hand_deck"] == ["2H", "6C", "3H"]

    def test_hell_bomb_in_a_battle_releases_prisoners_before_the_enemies(self):
        state = situation(position=(1, 1), cells={(1, 1): "cleared", (1, 2): "10S/3H"}, inventory=["9C", "JD"])
        start = list(state["hand_deck"])
        state = play(state, mv(1, 2), act("call_prisoner", card="JD"), cast("hell_bomb", "9C"))
        # centre (1,2), east (1,3), south (2,2); north is outside, west (1,1) is cleared
        assert bottom(state, start) == ["9C", "JD", "10S", "2S", "2S"]
        assert state["inventory"] == ["3H", "2H", "2H"]
        assert all(cell(state, *p)["visited"] for p in ((1, 3), (2, 2)))

    def test_hell_bomb_needs_a_position_after_an_escape(self):
        state = play(
            situation(position=(1, 1), cells={(1, 1): "cleared"}, inventory=["3C", "9C"]),
            mv(1, 2),
            cast("escape", "3C"),
        )
        assert state["position"] is None
        refused(R, state, "p1", cast("hell_bomb", "9C"))
        assert play(state, mv(1, 1), cast("hell_bomb", "9C"))["inventory"][-1] == "2H"

    def test_merchant_selling_a_joker_and_a_red_queen(self):
        state = play(situation(life=5, inventory=["2D", "9D"], cells={(1, 1): "KD/JK", (1, 2): "KH/QD"}), mv(1, 1))
        assert state["encounter"]["price"] == 2
        state = play(state, act("buy", gems=["2D"]))
        assert state["phase"] == "hebrac_reward"
        state = play(state, act("decline"), mv(1, 2), act("buy", gems=["9D"]))
        assert state["life"] == 15 and state["phase"] == "explore"

    def test_canonical_payment_in_legal_actions(self):
        state = play(situation(inventory=["5D", "4D", "3D", "9D"], cells={(1, 1): "KS/7H"}), mv(1, 1))
        buys = [a for a in R.legal_actions(state, "p1") if a["type"] == "buy"]
        assert buys == [{"type": "buy", "gems": ["4D", "3D"]}]
        assert trade.minimal_sets([("5D", 5), ("4D", 4), ("3D", 3), ("9D", 9)], 7) != []
        for s in trade.minimal_sets([("5D", 5), ("4D", 4), ("3D", 3), ("9D", 9)], 7):
            assert trade.payment_ok([[5, 4, 3, 9][i] for i in s], 7)

    def test_optional_descent_is_only_in_free_time(self):
        cells = {(1, c): "cleared" for c in range(1, 5)}
        cells.update({(2, 1): "cleared", (2, 2): "cleared", (2, 3): "JD/2H"})
        state = play(situation(cells=cells, position=(2, 2)), mv(2, 3))
        assert state["phase"] == "adventurer"
        refused(R, state, "p1", act("descend"))

    def test_strength_potion_bonus_is_lost_after_the_battle(self):
        state = play(
            situation(inventory=["5S", "3C"], cells={(1, 1): "9S/4H"}),
            mv(1, 1),
            act("drink", card="5S"),
            cast("escape", "3C"),
        )
        state = play(state, mv(1, 1))
        assert state["battle"]["strength"] == 0


# --- R31 / 8.1: a Paralysis that could change nothing is refused ----------------------------------


def _fight(enemy="9S", *, extra=(), prisoners=(), strength=(), effects=(), hand=()):
    """A battle against ``enemy`` in (1,1), holding 4C (to pay Paralysis), ``extra`` and the given
    prisoners (called) and strength potions (drunk) before the first attack."""
    inventory = ["4C", *extra, *prisoners, *strength]
    state = play(situation(inventory=inventory, cells={(1, 1): f"{enemy}/4H"}, effects=effects, hand=hand), mv(1, 1))
    state = play(state, *[act("call_prisoner", card=c) for c in prisoners], *[act("drink", card=c) for c in strength])
    assert state["phase"] == "battle" and state["battle"]["spell"] is None
    return state


def _paralysis_standing(state):
    """The spell book's word on Paralysis, checked against the legal actions and a real cast."""
    standing = R.view(state, "p1")["choices"]["spells"]["paralysis"]
    listed = any(a["type"] == "cast" and a["spell"] == "paralysis" for a in R.legal_actions(state, "p1"))
    assert standing["castable"] == listed
    if standing["castable"]:
        assert R.apply(state, "p1", cast("paralysis", "4C"))["battle"]["paralysis"] == 2
    else:
        assert standing["reason"] == refused(R, state, "p1", cast("paralysis", "4C"))
    return standing


def _rounds_covered(state):
    """Life and life lost after the (up to) two rounds a Paralysis cast now would cover."""
    for _ in range(2):
        if state["phase"] != "battle":
            break
        state = play(state, ATTACK)
    return state["life"], state["counters"]["life_lost"], state["status"]


NEXT_CARDS = ["AD"] + [f"{n}D" for n in range(2, 11)] + ["KD"]  # every attack value, 1 to 10


class TestParalysisThatChangesNothing:
    """Rule 8.1 / R31: any cast whose outcome equals not casting is refused; for Paralysis that is
    an evil magician under Anti-Magic (he cannot take life anyway), or a next attack that cannot
    fail (its lowest possible score, an ace with every bonus already in play, reaches the enemy's
    life; or the top card the player foresaw already wins)."""

    def test_a_magician_under_anti_magic(self):
        state = _fight("9C", effects=["anti_magic"])
        standing = _paralysis_standing(state)
        assert not standing["castable"]
        assert standing["reason"] == (
            "under Anti-Magic the evil magician cannot take your life: Paralysis would change nothing"
        )

    @pytest.mark.parametrize("enemy, effects", [("9C", ()), ("9S", ("anti_magic",)), ("9H", ("anti_magic",))])
    def test_other_foes_or_no_anti_magic_still_allow_it(self, enemy, effects):
        state = _fight(enemy, effects=effects, hand=["2D"])
        assert _paralysis_standing(state)["castable"]
        assert play(state, cast("paralysis", "4C"), ATTACK)["life"] == 15  # and it does shield

    @pytest.mark.parametrize(
        "enemy, kwargs, lowest",
        [
            ("3S", {"extra": ["AS"]}, 4),  # ace 1 + Bracelet 3 > 3
            ("4S", {"extra": ["AS"]}, 4),  # reaching the life is enough
            ("5S", {"extra": ["AS"], "strength": ["2S"]}, 6),  # a strength potion drunk
            ("10S", {"extra": ["AS"], "prisoners": ["JD", "JC"]}, 10),  # two prisoners called
            ("9S", {"extra": ["AS"], "prisoners": ["JD"], "effects": ["curse"]}, 7),  # life 5 under a Curse
            ("3S", {"strength": ["2S"]}, 3),
        ],
    )
    def test_a_next_attack_that_cannot_fail(self, enemy, kwargs, lowest):
        state = _fight(enemy, **kwargs)
        standing = _paralysis_standing(state)
        assert not standing["castable"]
        life = state["battle"]["enemy_life"]
        assert standing["reason"] == (
            f"even an ace would score {lowest} against life {life}, so your next "
            "attack cannot fail: Paralysis would change nothing"
        )

    @pytest.mark.parametrize(
        "enemy, kwargs",
        [
            ("5S", {"extra": ["AS"]}),  # 4 < 5: an ace would cost 1 life
            ("10S", {"extra": ["AS"], "prisoners": ["JD"]}),  # 7 < 10
            ("9S", {"extra": ["AS"], "prisoners": ["JD"]}),  # no Curse: 7 < 9
            ("3S", {}),  # no bonus at all: 1 < 3
            ("3S", {"effects": ["anti_magic"]}),  # Anti-Magic spares only magicians
        ],
    )
    def test_a_next_attack_that_may_fail_allows_it(self, enemy, kwargs):
        assert _paralysis_standing(_fight(enemy, **kwargs))["castable"]

    def test_the_foreseen_top_card_already_wins(self):
        # Future Perception (free time) shows KD on top: against 9S the next attack scores 10.
        state = play(
            situation(inventory=["2C", "4C"], cells={(1, 1): "9S/4H"}, hand=["KD", "3D"]),
            cast("future_perception", "2C"),
            mv(1, 1),
        )
        assert state["known_top"] == 2  # KD and 3D
        standing = _paralysis_standing(state)
        assert standing["reason"] == (
            "your next attack card is KD, which you foresaw: it scores 10 against "
            "life 9, so Paralysis would change nothing"
        )
        assert standing["reason"] not in json.dumps(R.view(state, None))  # the player's knowledge only

    def test_a_foreseen_losing_card_allows_it(self):
        state = play(
            situation(inventory=["2C", "4C"], cells={(1, 1): "9S/4H"}, hand=["3D", "KD"]),
            cast("future_perception", "2C"),
            mv(1, 1),
        )
        assert _paralysis_standing(state)["castable"]
        assert play(state, cast("paralysis", "4C"), ATTACK)["life"] == 15

    def test_an_unseen_top_card_is_never_used_to_refuse(self):
        # KD is on top but the player has not seen it: the refusal must not give it away.
        state = _fight("9S", hand=["KD"])
        assert state["known_top"] == 0 and _paralysis_standing(state)["castable"]

    @pytest.mark.parametrize("enemy", ["3S", "5S", "9C", "10S"])
    @pytest.mark.parametrize("bracelet", [False, True])
    @pytest.mark.parametrize("prisoner", [False, True])
    @pytest.mark.parametrize("potion", [False, True])
    @pytest.mark.parametrize("effects", [(), ("anti_magic",), ("curse",), ("anti_magic", "curse")])
    def test_refused_exactly_when_no_possible_next_card_makes_a_difference(
        self, enemy, bracelet, prisoner, potion, effects
    ):
        kwargs = {
            "extra": ["AS"] if bracelet else [],
            "prisoners": ["JD"] if prisoner else [],
            "strength": ["2S"] if potion else [],
            "effects": effects,
        }
        pointless = not _paralysis_standing(_fight(enemy, **kwargs))["castable"]
        differs = False
        for card in NEXT_CARDS:  # the player does not know the top card: any of them may come
            state = _fight(enemy, hand=[card, "2D"], **kwargs)
            paralysed = R.load(R.dump(state))
            paralysed["battle"]["paralysis"] = 2  # the spell's effect, even where the cast is refused
            differs |= _rounds_covered(state) != _rounds_covered(paralysed)
        assert pointless == (not differs)


class TestPriceList:
    def test_every_card_has_one_row_and_its_price_comes_from_merchant_price(self):
        codes = [code for row in data.TREASURES for code in row["codes"]]
        assert sorted(codes) == sorted(data.ALL_CODES)  # each card described once
        for row in data.TREASURES:
            prices = {data.merchant_price(code) for code in row["codes"]}
            if row["price"] == "not for sale":
                assert prices == {None}
            elif row["price"] == "rank":
                assert all(data.merchant_price(c) == data.number(c) for c in row["codes"])
            elif row["price"] == "2 × rank":
                assert all(data.merchant_price(c) == 2 * data.number(c) for c in row["codes"])
            else:
                assert prices == {row["price"]}
        # 6.12, as the rules file prints it.
        assert {row["name"]: row["price"] for row in data.TREASURES} == {
            "Ruby of Gaza": 12,
            "Bag of Meres": 12,
            "Bracelet of Armok": 12,
            "Scepter of Leynos": 12,
            "Life potion": "rank",
            "Gems": "not for sale",
            "Strength potion": "rank",
            "Magic potion": "2 × rank",
            "Prisoner": 8,
            "White priestess": 9,
            "Black priestess": "not for sale",
            "Genie of Life": 10,
            "Genie of Luck": 10,
            "Genie of Death": 10,
            "Genie of Destiny": 10,
            "Hebrac": 2,
        }


class TestPriestessRanking:
    def test_ranking_is_complete_data(self):
        # Section 10's table, rank 1 (most valuable) to 40, copied here independently of data.py.
        section_10 = [
            "AD",
            "AH",
            "AC",
            "AS",
            "10D",
            "9D",
            "8D",
            "10H",
            "9H",
            "7D",  # 1-10
            "10C",
            "9C",
            "10S",
            "9S",
            "8H",
            "8C",
            "6D",
            "7H",
            "8S",
            "7C",  # 11-20
            "7S",
            "5D",
            "6C",
            "6H",
            "6S",
            "5H",
            "5C",
            "5S",
            "4D",
            "4H",  # 21-30
            "4C",
            "3D",
            "2D",
            "3H",
            "2H",
            "3C",
            "2C",
            "4S",
            "3S",
            "2S",  # 31-40
        ]
        assert list(data.STEAL_RANKING) == section_10
        assert [data.STEAL_RANK[code] for code in section_10] == list(range(1, 41))
        stealable = {f"{r}{s}" for s in "SHDC" for r in ["A"] + [str(n) for n in range(2, 11)]}
        assert set(data.STEAL_RANKING) == stealable  # every ace and number card, once; no jack

    def test_guardians_steal_in_ranking_order(self):
        hoard = ["2S", "JH", "10D", "AS", "5H", "3C", "AD"]
        cells = {(1, c): "QS/" for c in range(1, 5)}
        state = situation(inventory=hoard, cells={**cells, (2, 1): "QC/", (2, 2): "QS/", (2, 3): "QC/"})
        stolen = []
        for pos in [(1, 1), (1, 2), (1, 3), (1, 4), (2, 4), (2, 3), (2, 2), (2, 1)]:
            before = list(state["inventory"])
            if pos == (2, 4):
                continue
            state = play(state, mv(*pos))
            stolen += [c for c in before if c not in state["inventory"]]
        assert stolen == ["AD", "AS", "10D", "5H", "3C", "2S"] and state["inventory"] == ["JH"]

    def test_earliest_copy_is_taken(self):
        state = play(situation(inventory=["5H", "2C", "5H"], cells={(1, 1): "QS/9S"}), mv(1, 1))
        assert state["inventory"] == ["2C", "5H", "9S"]

    def test_treasure_priestess_takes_the_least_valuable(self):
        state = play(situation(inventory=["2S", "AD", "4S"], cells={(1, 1): "AC/QS"}), mv(1, 1))
        assert state["inventory"] == ["AD", "4S"]
