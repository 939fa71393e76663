"""Hebrac's Dungeon: the acceptance scenarios of section 14 of ``docs/rules/hebracs-dungeon.md``,
one test each (A1–A46).

Given states follow 14.0 (built with ``tests.helpers.hebracs_dungeon.situation``); "Bottom:" is checked with
``tests.helpers.hebracs_dungeon.bottom`` against the Hand Deck the scenario started from. Every step also checks
that no card appears or vanishes, and every refusal that the state is left untouched.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

import rules_engine
from rules_engine import IllegalAction, InvalidAction
from rules_engine.cards import standard_deck
from rules_engine.games.hebracs_dungeon import scoring
from tests.helpers.hebracs_dungeon import bottom, situation

R = rules_engine.get("hebracs-dungeon")
CARD_CODE = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b|\bJK\b")


def all_cards(state: dict) -> Counter:
    """Every card in every zone (2.4): Hand Deck, level, inventory, in play."""
    cards = list(state["hand_deck"]) + list(state["inventory"])
    for row in state["grid"]:
        for cell in row:
            cards += [c for c in (cell["enemy"], cell["treasure"]) if c is not None]
    if state["battle"] is not None:
        cards += state["battle"]["prisoners"] + state["battle"]["drawn"]
    cards += [p["card"] for p in state["pending"] if p["step"] == "luck"]
    return Counter(cards)


def mv(row: int, col: int) -> dict:
    return {"type": "move", "row": row, "col": col}


def cast(spell: str, *potions: str, **extra) -> dict:
    return {"type": "cast", "spell": spell, "potions": list(potions), **extra}


def act(kind: str, **params) -> dict:
    return {"type": kind, **params}


ATTACK = act("attack")


class Game:
    """A state being played: checks card conservation after every step, purity on refusals."""

    def __init__(self, state: dict):
        self.state = state
        self.start = list(state["hand_deck"])
        self.cards = all_cards(state)

    def do(self, *actions: dict) -> Game:
        for action in actions:
            self.state = R.apply(self.state, "p1", action)
            assert all_cards(self.state) == self.cards, action
        return self

    def refuse(self, action: dict, error=IllegalAction) -> str:
        before = R.dump(self.state)
        with pytest.raises(error) as info:
            R.apply(self.state, "p1", action)
        assert R.dump(self.state) == before
        return str(info.value)

    def bottom(self) -> list[str]:
        return bottom(self.state, self.start)

    def __getitem__(self, key):
        return self.state[key]

    def cell(self, row: int, col: int) -> dict:
        return self.state["grid"][row - 1][col - 1]

    def moves(self) -> list[list[int]]:
        return [[a["row"], a["col"]] for a in R.legal_actions(self.state, "p1") if a["type"] == "move"]

    def legal_types(self) -> set[str]:
        return {a["type"] for a in R.legal_actions(self.state, "p1")}

    def cleared(self) -> int:
        return sum(1 for row in self.state["grid"] for c in row if c["enemy"] is None and c["treasure"] is None)


def g(**kwargs) -> Game:
    return Game(situation(**kwargs))


class TestSetupAndExploring:
    def test_a1_deal_from_a_stacked_deck(self):
        listed = "2H 3H 4H 5H 6H 7H 8H 9H 10H 2C 3C 4C 2S 3S 4S 5S 6S 7S 8S 9S 10S AH AD JK".split()
        rest = standard_deck(jokers=4, decks=2)
        for card in listed:
            rest.remove(card)
        seed = 918273645546
        state = R.new_game(seed, ["p1"], {"deck": listed + rest})
        treasures = [[c["treasure"] for c in row] for row in state["grid"]]
        enemies = [[c["enemy"] for c in row] for row in state["grid"]]
        assert treasures == [["2H", "3H", "4H", "5H"], ["6H", "7H", "8H", "9H"], ["10H", "2C", "3C", "4C"]]
        assert enemies == [["2S", "3S", "4S", "5S"], ["6S", "7S", "8S", "9S"], ["10S", "AH", "AD", "JK"]]
        assert len(state["hand_deck"]) == 84 and state["hand_deck"][0] == rest[0]
        assert (state["life"], state["max_life"], state["level"], state["phase"]) == (15, 15, 1, "start_level")
        assert not any(c["visited"] or c["enemy_up"] or c["treasure_up"] for row in state["grid"] for c in row)
        for seat in ("p1", None):
            text = json.dumps(R.view(state, seat))
            assert not CARD_CODE.search(text), seat
            assert str(seed) not in text
            assert R.view(state, seat)["hand_deck"]["count"] == 84
        assert sorted(a["row"] * 10 + a["col"] for a in R.legal_actions(state, "p1") if a["type"] == "move") == [
            11,
            14,
            31,
            34,
        ]

    def test_a2_corners_adjacency_empty_chambers(self):
        game = g(cells={(1, 1): "AC/3H", (1, 2): "AD/4H"})
        assert "corner" in game.refuse(mv(2, 2))
        game.do(mv(1, 1))
        assert game.bottom() == ["AC"] and game["inventory"] == ["3H"]
        assert game.cell(1, 1)["visited"] and game.cleared() == 1
        assert game["position"] == [1, 1] and game["counters"]["turns"] == 1
        assert sorted(game.moves()) == [[1, 2], [2, 1]]
        game.refuse(mv(2, 2))
        game.do(mv(1, 2))
        assert game.bottom() == ["AC", "AD"] and game["counters"]["turns"] == 2
        assert sorted(game.moves()) == [[1, 1], [1, 3], [2, 1], [2, 2]]
        game.do(mv(1, 1))
        assert game["counters"]["turns"] == 2 and game.cleared() == 2
        assert game["counters"]["chambers_cleared"] == 2
        assert game["inventory"] == ["3H", "4H"] and game["position"] == [1, 1]


class TestBattles:
    def test_a3_plain_battle_a_loss_then_a_win(self):
        game = g(cells={(1, 1): "8S/5C"}, hand=["3H", "9C"])
        game.do(mv(1, 1))
        assert game["phase"] == "battle" and game["battle"]["enemy_life"] == 8
        game.do(ATTACK)
        assert game["life"] == 10 and game.bottom() == ["3H"]
        game.do(ATTACK)
        assert game.bottom() == ["3H", "9C", "8S"]
        assert game["inventory"] == ["5C"] and game.cell(1, 1)["enemy"] is None
        assert game.cleared() == 1 and game["phase"] == "explore"
        assert "cannot be drunk" in game.refuse(act("drink", card="5C"))

    def test_a4_attack_values_bracelet_strength_potions_life_cap(self):
        game = g(life=12, inventory=["AS", "4S", "3S", "2S", "6H"], cells={(1, 1): "10H/2D"}, hand=["AD", "2C", "KD"])
        game.refuse(act("drink", card="4S"))
        game.do(act("drink", card="6H"))
        assert game["life"] == 15
        game.do(mv(1, 1))
        assert game["battle"]["enemy_life"] == 10
        game.do(act("drink", card="4S"), ATTACK)
        assert game["life"] == 13 and game["battle"]["last_attack"]["score"] == 8
        assert game.bottom() == ["6H", "4S", "AD"]
        game.do(ATTACK)
        assert game["battle"]["last_attack"]["score"] == 5 and game["life"] == 8
        game.do(act("drink", card="3S"), act("drink", card="2S"), ATTACK)
        assert game["battle"] is None
        assert game.bottom() == ["6H", "4S", "AD", "2C", "3S", "2S", "KD", "10H"]
        assert game["inventory"] == ["AS", "2D"] and (game["life"], game["max_life"]) == (8, 15)

    def test_a5_adventurer_fought_with_a_prisoner_and_a_life_potion(self):
        game = g(inventory=["JD", "2H"], cells={(1, 1): "JS/6C"}, hand=["5H", "7D"])
        game.do(mv(1, 1))
        assert game["phase"] == "adventurer"
        game.do(act("fight"))
        assert game["battle"]["enemy_life"] == 10
        game.do(act("call_prisoner", card="JD"))
        assert "JD" not in game["inventory"] and game["battle"]["prisoners"] == ["JD"]
        game.do(ATTACK)
        assert game["life"] == 13 and game.bottom() == ["5H"]
        game.do(act("drink", card="2H"))
        assert game["life"] == 15 and game.bottom() == ["5H", "2H"]
        game.do(ATTACK)
        assert game.bottom() == ["5H", "2H", "7D", "JD", "JS"]
        assert game["inventory"] == ["6C"] and game["life"] == 15
        game.do(mv(1, 2))
        assert game["phase"] == "battle"
        game.refuse(act("call_prisoner", card="JD"))

    def test_a22_death(self):
        game = g(life=3, inventory=["9H"], cells={(1, 1): "9C/4H"}, hand=["4D"])
        game.do(mv(1, 1))
        assert game["battle"]["enemy_life"] == 9
        game.do(ATTACK)
        assert game["life"] == 0 and game["status"] == "dead" and game["phase"] == "over"
        assert R.view(game.state, "p1")["life"] == 0
        assert "over" in game.refuse(act("drink", card="9H"))
        assert R.legal_actions(game.state, "p1") == []
        assert R.result(game.state) == {**R.result(game.state), "winners": [], "reason": "death", "scores": {"p1": 0}}

    def test_a27_paralysis_and_the_one_spell_limit(self):
        game = g(inventory=["4C", "5C"], cells={(1, 1): "9S/6H"}, hand=["2H", "3H", "4H", "9D"])
        assert "outside a battle" in game.refuse(cast("paralysis", "4C"))
        game.do(mv(1, 1), cast("paralysis", "4C"))
        game.do(ATTACK)
        assert game["life"] == 15
        game.do(ATTACK)
        assert game["life"] == 15
        assert "one spell per battle" in game.refuse(cast("super_strength", "5C"))
        game.do(ATTACK)
        assert game["life"] == 10
        game.do(ATTACK)
        assert game.bottom() == ["4C", "2H", "3H", "4H", "9D", "9S"]
        assert game["inventory"] == ["5C", "6H"]

    def test_a28_double_attack(self):
        game = g(inventory=["4C", "AS", "2S"], cells={(1, 1): "10C/5S", (1, 2): "9H/2D"}, hand=["4D", "2H", "6S"])
        game.do(mv(1, 1))
        assert game["battle"]["enemy_life"] == 10
        game.do(cast("double_attack", "4C"), act("drink", card="2S"), ATTACK)
        assert game["battle"] is None and "5S" in game["inventory"]
        assert game.bottom() == ["4C", "2S", "4D", "2H", "10C"]
        game.do(mv(1, 2))
        assert game["battle"]["enemy_life"] == 9
        game.do(ATTACK)
        assert game["battle"] is None and "2D" in game["inventory"]
        assert game.bottom()[-2:] == ["6S", "9H"]

    def test_a29_super_strength_against_an_adventurer(self):
        game = g(inventory=["5C", "AS"], cells={(1, 1): "JH/7S"}, hand=["3S", "4S"])
        game.do(mv(1, 1), act("fight"), cast("super_strength", "5C"), ATTACK)
        assert game["battle"]["last_attack"]["score"] == 9 and game["life"] == 14
        game.do(ATTACK)
        assert game["inventory"] == ["AS", "7S"]
        assert game.bottom() == ["5C", "3S", "4S", "JH"]

    def test_a42_option_strength_potions_after_the_attack(self):
        setup = dict(inventory=["3S", "4S", "JC", "4C"], cells={(1, 1): "10S/2H"}, hand=["7D"])
        game = g(options={"strength_after_attack": True}, **setup)
        game.do(mv(1, 1), ATTACK)
        assert game["phase"] == "after_draw" and game["battle"]["drawn"] == ["7D"]
        game.refuse(act("call_prisoner", card="JC"))
        game.refuse(cast("paralysis", "4C"))
        game.do(act("drink", card="3S"))
        assert game["life"] == 15
        game.do(act("finish_attack"))
        assert game["battle"] is None and game["life"] == 15
        assert game.bottom() == ["3S", "7D", "10S"]
        assert game["inventory"] == ["4S", "JC", "4C", "2H"]
        standard = g(**setup)
        standard.do(mv(1, 1), ATTACK)
        assert standard["phase"] == "battle" and standard["life"] == 12


class TestTrades:
    def test_a6_basic_trade_trade_lock_superfluous_cards(self):
        game = g(inventory=["2H", "4C", "6D", "7C"], cells={(1, 1): "JH/6S"})
        game.do(mv(1, 1))
        assert game["phase"] == "adventurer"
        game.do(act("propose_trade"))
        assert game["phase"] == "trade" and game.cell(1, 1)["treasure_up"]
        assert game["encounter"]["value"] == 6
        game.refuse(act("fight"))
        game.refuse(cast("stealing_spirit", "7C"))
        assert "superfluous" in game.refuse(act("offer", cards=["6D", "2H"]))
        game.do(act("offer", cards=["2H", "4C"]))
        assert game.bottom() == ["2H", "4C", "JH"]
        assert game["inventory"] == ["6D", "7C", "6S"] and game.cleared() == 1

    def test_a7_trade_values_of_special_treasures(self):
        game = g(
            life=6,
            inventory=["9S", "8D", "2C", "3H"],
            cells={
                (1, 1): "JC/QD",
                (1, 2): "JD/AH",
                (1, 3): "JS/QC",
                (1, 4): "JH/JK",
                (2, 1): "JS/JC",
                (2, 2): "JH/7C",
            },
        )
        game.do(mv(1, 1), act("propose_trade"))
        assert game["encounter"]["value"] == 9
        game.refuse(act("offer", cards=["8D"]))
        game.do(act("offer", cards=["9S"]))
        assert game["life"] == 15 and game.bottom() == ["9S", "JC", "QD"]
        game.do(mv(1, 2), act("propose_trade"))
        assert game["encounter"]["value"] is None
        game.refuse(act("offer", cards=["8D"]))
        game.do(act("decline"))
        assert game.bottom()[-2:] == ["JD", "AH"]
        game.do(mv(1, 3), act("propose_trade"))
        assert game["encounter"]["value"] is None
        game.do(act("decline"))
        assert game.bottom()[-2:] == ["JS", "QC"] and game["inventory"] == ["8D", "2C", "3H"]
        game.do(mv(1, 4), act("propose_trade"))
        assert game["encounter"]["value"] == 2
        game.do(act("offer", cards=["2C"]))
        assert game.bottom()[-3:] == ["2C", "JH", "JK"] and game["phase"] == "hebrac_reward"
        game.do(act("decline"))
        assert game["phase"] == "explore"
        game.do(mv(2, 1), act("propose_trade"))
        assert game["encounter"]["value"] == 8
        game.do(act("offer", cards=["8D"]))
        assert game.bottom()[-2:] == ["8D", "JS"] and game["inventory"] == ["3H", "JC"]
        game.do(mv(2, 2), act("propose_trade"))
        assert game["encounter"]["value"] == 7
        game.refuse(act("offer", cards=["3H"]))
        game.do(act("offer", cards=["JC"]))
        assert game.bottom() == ["9S", "JC", "QD", "JD", "AH", "JS", "QC", "2C", "JH", "JK", "8D", "JS", "JC", "JH"]
        assert game["inventory"] == ["3H", "7C"] and (game["life"], game["max_life"]) == (15, 15)

    def test_a8_illusion_and_the_genie_of_life(self):
        game = g(inventory=["4C", "5C"], cells={(1, 1): "JS/KH", (1, 2): "JD/AS"})
        game.do(mv(1, 1))
        game.refuse(cast("illusion", "4C"))
        game.do(act("propose_trade"))
        assert game["encounter"]["value"] == 10
        game.do(cast("illusion", "4C"))
        assert (game["life"], game["max_life"]) == (15, 17)
        assert game.bottom() == ["4C", "JS", "KH"]
        game.do(mv(1, 2), act("propose_trade"))
        game.refuse(cast("illusion", "5C"))
        game.do(act("decline"))
        assert game.bottom()[-2:] == ["JD", "AS"]
        assert game["inventory"] == ["5C"] and (game["life"], game["max_life"]) == (15, 17)

    def test_a43_option_evil_alignment(self):
        game = g(options={"alignment": "evil"}, inventory=["6C"], cells={(1, 1): "JS/AH", (1, 2): "JD/9D"}, hand=["KD"])
        game.do(mv(1, 1), act("propose_trade"))
        assert game["encounter"]["value"] is None
        game.do(act("fight"), ATTACK)
        assert game.bottom() == ["KD", "JS"] and game["inventory"] == ["6C", "AH"]
        assert (game["life"], game["max_life"]) == (15, 20)
        game.do(mv(1, 2), act("propose_trade"), cast("stealing_spirit", "6C"))
        assert game["inventory"] == ["AH", "9D"]
        assert game.cell(1, 2)["enemy"] == "JD" and not game.cell(1, 2)["enemy_up"] and game.cell(1, 2)["robbed"]
        assert game.bottom() == ["KD", "JS", "6C"]


class TestPriestesses:
    def test_a9_black_priestess_guardian_and_the_ruby_lost(self):
        game = g(life=18, inventory=["AH", "10D", "JS"], cells={(1, 1): "QS/3H", (1, 2): "QC/2S"})
        assert game["max_life"] == 20
        game.do(mv(1, 1))
        assert game["phase"] == "explore"
        assert (game["life"], game["max_life"]) == (15, 15)
        assert game.bottom() == ["AH", "QS"] and game["inventory"] == ["10D", "JS", "3H"]
        game.do(mv(1, 2))
        assert game.bottom() == ["AH", "QS", "10D", "QC"]
        assert game["inventory"] == ["JS", "3H", "2S"] and (game["life"], game["max_life"]) == (15, 15)

    def test_a10_ranking_and_the_black_priestess_as_a_treasure(self):
        game = g(inventory=["4S", "2C", "3H", "JD"], cells={(1, 1): "QC/7H", (1, 2): "AS/QS"})
        game.do(mv(1, 1))
        assert game.bottom() == ["3H", "QC"]
        game.do(mv(1, 2))
        assert game.bottom() == ["3H", "QC", "AS", "QS", "4S"]
        assert game["inventory"] == ["2C", "JD", "7H"]

    def test_a10_variant_nothing_to_steal(self):
        game = g(inventory=["JD"], cells={(1, 1): "QS/5H"})
        game.do(mv(1, 1))
        assert game.bottom() == ["QS"] and game["inventory"] == ["JD", "5H"]

    def test_a11_white_priestess_as_guardian(self):
        game = g(life=4, inventory=["4C"], cells={(1, 1): "QH/9D", (1, 2): "QD/8C"})
        game.do(mv(1, 1))
        assert game["phase"] == "priestess"
        game.refuse(cast("healing", "4C"))
        game.do(act("priestess", choice="heal"))
        assert game["life"] == 15 and game.bottom() == ["QH", "9D"]
        for seat in ("p1", None):
            view = R.view(game.state, seat)
            assert "9D" not in json.dumps(view)
        game.do(mv(1, 2), act("priestess", choice="treasure"))
        assert game.bottom() == ["QH", "9D", "QD"]
        assert game["inventory"] == ["4C", "8C"] and (game["life"], game["max_life"]) == (15, 15)

    def test_a11_variant_anti_magic(self):
        game = g(effects=["anti_magic"], life=4, cells={(1, 1): "QH/9D"})
        game.do(mv(1, 1))
        assert [a for a in R.legal_actions(game.state, "p1") if a["type"] == "priestess"] == [
            {"type": "priestess", "choice": "treasure"}
        ]
        game.refuse(act("priestess", choice="heal"))
        game.do(act("priestess", choice="treasure"))
        assert game["inventory"] == ["9D"] and game["life"] == 4


class TestMerchants:
    def test_a12_payment_refusals_sold_out_black_queen(self):
        game = g(
            inventory=["5D", "4D", "3D", "3C"],
            cells={(1, 1): "KS/7H", (1, 2): "KC/6C", (1, 3): "KH/8D", (1, 4): "KD/QS"},
        )
        game.do(mv(1, 1))
        assert game.cell(1, 1)["treasure_up"] and game["encounter"]["price"] == 7
        assert "superfluous" in game.refuse(act("buy", gems=["5D", "4D", "3D"]))
        game.do(act("buy", gems=["5D", "3D"]))
        assert game.bottom() == ["5D", "3D", "KS"] and game["inventory"][-1] == "7H"
        game.do(mv(1, 2))
        assert game["encounter"]["price"] == 12
        game.refuse(cast("escape", "3C"))
        game.refuse(act("buy", gems=["4D"]))
        game.do(act("decline"))
        assert game.bottom()[-2:] == ["KC", "6C"]
        game.do(mv(1, 3))
        assert "sold out" in game.refuse(act("buy", gems=["4D"]))
        game.do(act("decline"))
        assert game.bottom()[-2:] == ["KH", "8D"]
        game.do(mv(1, 4))
        game.refuse(act("buy", gems=["4D"]))
        game.do(act("decline"))
        assert game.bottom() == ["5D", "3D", "KS", "KC", "6C", "KH", "8D", "KD", "QS"]
        assert game["inventory"] == ["4D", "3C", "7H"]

    def test_a13_bag_of_meres_genie_for_sale_fake_ace_robbing_merchants(self):
        game = g(
            inventory=["AD", "6C", "7C"],
            cells={(1, 1): "KS/KC", (1, 2): "KH/AD", (1, 3): "KD/9H", (1, 4): "KC/8D", (2, 1): "JH/10S"},
        )
        game.do(mv(1, 1))
        assert game["encounter"]["price"] == 10
        game.do(act("buy", gems=[]))
        assert game.bottom() == ["KS", "KC"]
        assert all(
            c["enemy_up"] and c["treasure_up"] for row in game["grid"] for c in row if c["enemy"] and c["treasure"]
        )
        game.do(mv(1, 2))
        assert game["encounter"]["price"] == 12 and game["encounter"]["fake_ace"]
        assert "fake" in R.action_label(game.state, {"type": "buy", "gems": []})
        game.do(act("buy", gems=[]))
        assert game.bottom()[-2:] == ["KH", "AD"] and game["inventory"] == ["AD", "6C", "7C"]
        game.do(mv(1, 3), cast("stealing_spirit", "6C"))
        assert game.bottom()[-2:] == ["6C", "KD"] and game["inventory"][-1] == "9H"
        assert game.cleared() == 3 and game["position"] is None
        game.do(mv(1, 4), cast("stealing_spirit", "7C"))
        assert game.bottom()[-2:] == ["7C", "KC"] and game["inventory"][-1] == "8D"
        game.do(mv(2, 1))
        assert game["phase"] == "adventurer"
        game.do(act("propose_trade"))
        assert game["encounter"]["value"] == 10
        assert "Bag of Meres" in game.refuse(act("offer", cards=["9H", "8D"]))
        game.do(act("offer", cards=[]))
        assert game.bottom() == ["KS", "KC", "KH", "AD", "6C", "KD", "7C", "KC", "JH"]
        assert game["inventory"] == ["AD", "9H", "8D", "10S"]


class TestHebrac:
    def test_a14_hebrac_as_guardian(self):
        game = g(
            inventory=["3C"],
            cells={(1, 1): "JK/10D", (1, 2): "JK/3S", (1, 3): "JK/4H", (1, 4): "JK/5H"},
            hand=["7H", "5S", "JK", "2C"],
        )
        game.do(mv(1, 1))
        assert game["phase"] == "hebrac"
        game.refuse(cast("escape", "3C"))
        game.do(act("play"))
        assert game.bottom() == ["7H", "JK"] and game["inventory"] == ["3C", "10D"]
        game.do(mv(1, 2), act("play"))
        assert game["life"] == 10 and game.bottom()[-3:] == ["5S", "JK", "3S"]
        game.do(mv(1, 3), act("decline"))
        assert game.bottom()[-2:] == ["JK", "4H"]
        game.do(mv(1, 4), act("play"))
        assert game["life"] == 5
        assert game.bottom() == ["7H", "JK", "5S", "JK", "3S", "JK", "4H", "JK", "JK", "5H"]
        assert game["inventory"] == ["3C", "10D"] and game["hand_deck"][0] == "2C"

    def test_a15_hebrac_as_a_treasure_chain_of_games(self):
        game = g(cells={(1, 1): "AC/JK", (1, 2): "AD/JK"}, hand=["9H", "JK", "3D", "8S", "2S"])
        game.do(mv(1, 1))
        assert game.bottom() == ["AC", "JK"] and game["phase"] == "hebrac_reward"
        game.do(act("play"))
        assert game.bottom() == ["AC", "JK", "9H", "JK"] and game["phase"] == "hebrac_reward"
        game.do(act("play"))
        assert game["inventory"] == ["8S"] and game["phase"] == "explore"
        assert game.bottom() == ["AC", "JK", "9H", "JK", "3D"]
        game.do(mv(1, 2), act("play"))
        assert game["life"] == 10 and game.bottom()[-3:] == ["AD", "JK", "2S"]
        assert game["inventory"] == ["8S"] and game["max_life"] == 15

    def test_a16_hebrac_rewards_act_at_once(self):
        game = g(life=9, cells={(1, 1): "AC/JK", (1, 2): "AS/JK"}, hand=["4H", "KH", "2D", "QH"])
        game.do(mv(1, 1), act("play"))
        assert (game["life"], game["max_life"]) == (9, 17)
        assert game.bottom() == ["AC", "JK", "4H", "KH"]
        game.do(mv(1, 2), act("play"))
        assert (game["life"], game["max_life"]) == (17, 17)
        assert game.bottom()[-4:] == ["AS", "JK", "2D", "QH"] and game["inventory"] == []


class TestGenies:
    def test_a17_genie_of_luck_king_of_diamonds(self):
        game = g(life=10, inventory=["4S"], cells={(1, 1): "AS/KD"}, hand=["QH", "KC", "JK", "6D", "5S", "9C"])
        game.do(mv(1, 1))
        assert game["life"] == 15 and game["phase"] == "hebrac_reward"
        assert not any(c["enemy_up"] for row in game["grid"] for c in row if c["enemy"])
        game.do(act("play"))
        assert game.bottom() == ["AS", "KD", "QH", "KC", "JK", "6D"]
        assert game["inventory"] == ["4S", "5S"] and (game["life"], game["max_life"]) == (15, 15)
        assert game["hand_deck"][0] == "9C"

    def test_a18_genie_of_death(self):
        game = g(inventory=["6H"], cells={(1, 1): "AH/KS", (1, 2): "10S/7D", (2, 2): "QS/8D", (3, 4): "JK/9D"})
        game.do(mv(1, 1))
        assert game.bottom() == ["AH", "KS"] and game["phase"] == "genie_of_death"
        assert game["decision"]["count"] == 3
        game.refuse(act("destroy", targets=[[1, 1], [1, 2], [2, 2]]))
        game.refuse(act("destroy", targets=[[1, 2], [2, 2]]))
        game.do(act("destroy", targets=[[1, 2], [2, 2], [3, 4]]))
        assert game.bottom() == ["AH", "KS", "10S", "QS", "JK"]
        for pos in ((1, 2), (2, 2), (3, 4)):
            cell = game.cell(*pos)
            assert cell["treasure"] and not cell["treasure_up"] and not cell["visited"]
        for seat in ("p1", None):
            text = json.dumps(R.view(game.state, seat))
            assert "10S" not in text and "QS" not in text
        game.do(mv(1, 2))
        assert game["inventory"] == ["6H", "7D"]
        game.do(mv(2, 2))
        assert game["inventory"] == ["6H", "7D", "8D"]
        assert game.cleared() == 3 and game.cell(3, 4)["treasure"] == "9D"

    def test_a19_genies_resist_anti_magic(self):
        game = g(effects=["anti_magic"], cells={(1, 1): "AH/KC", (1, 2): "AD/KH"})
        game.do(mv(1, 1))
        assert all(c["enemy_up"] and c["treasure_up"] for row in game["grid"] for c in row if c["enemy"])
        assert game["counters"]["spells_cast"] == 0
        game.do(mv(1, 2))
        assert (game["life"], game["max_life"]) == (15, 17)
        assert game.bottom() == ["AH", "KC", "AD", "KH"]

    def test_a20_maximum_life_ruby_genie_potion_cap_theft(self):
        game = g(inventory=["9H"], cells={(1, 1): "AS/AH", (1, 2): "AC/KH", (1, 3): "QS/2H"})
        game.do(mv(1, 1))
        assert (game["life"], game["max_life"]) == (15, 20)
        game.do(mv(1, 2))
        assert (game["life"], game["max_life"]) == (15, 22)
        game.do(act("drink", card="9H"))
        assert game["life"] == 22
        game.do(mv(1, 3))
        assert (game["life"], game["max_life"]) == (17, 17)
        assert game.bottom() == ["AS", "AC", "KH", "9H", "AH", "QS"] and game["inventory"] == ["2H"]


class TestVictory:
    def test_a21_a_fake_ace_then_victory(self):
        game = g(inventory=["AH", "AS", "AC"], cells={(1, 1): "AD/AS", (1, 2): "3S/AD"}, hand=["5C"])
        game.do(mv(1, 1))
        assert game.bottom() == ["AD", "AS"] and game["inventory"] == ["AH", "AS", "AC"]
        game.do(mv(1, 2))
        assert game["battle"]["enemy_life"] == 3
        game.do(ATTACK)
        assert game.bottom() == ["AD", "AS", "5C", "3S"]
        assert game["status"] == "won" and game["phase"] == "over"
        game.refuse(mv(1, 3))
        game.refuse(act("resign"))
        res = R.result(game.state)
        assert (res["winners"], res["reason"], res["scores"]) == (["p1"], "victory", {"p1": 2254})


class TestSpellsInPlay:
    def test_a23_remote_vision_with_the_scepter(self):
        game = g(
            inventory=["AC", "3C"],
            position=(1, 1),
            cells={
                (1, 1): "cleared",
                (2, 3): "7S/2H",
                (2, 4): "8H/2H",
                (3, 1): "9D/2H",
                (3, 2): "QS/2H",
                (3, 3): "KD/2H",
                (3, 4): "JK/2H",
            },
        )
        game.do(cast("remote_vision", "3C"))
        assert game["decision"]["points"] == 6 and game.bottom() == ["3C"] and game["phase"] == "remote_vision"
        game.refuse(act("peek", row=1, col=1))
        peeks = [(2, 3), (2, 4), (3, 1), (3, 2), (3, 3), (3, 4)]
        for i, (r, c) in enumerate(peeks):
            assert game["phase"] == "remote_vision"
            game.do(act("peek", row=r, col=c))
            if i < 5:
                game.refuse(act("peek", row=r, col=c))
        assert game["phase"] == "explore"
        player, spectator = R.view(game.state, "p1"), R.view(game.state, None)
        remembered = [player["grid"][r - 1][c - 1]["remembered"] for r, c in peeks]
        assert remembered == ["7S", "8H", "9D", "QS", "KD", "JK"]
        for r, c in peeks:
            cell = spectator["grid"][r - 1][c - 1]
            assert cell["enemy"] is None and cell["remembered"] is None and not cell["enemy_up"]
        assert not CARD_CODE.search(json.dumps(spectator["log"]).replace("3C", ""))

    def test_a24_future_perception(self):
        game = g(inventory=["2C"], cells={(1, 1): "10D/4C"}, hand=["7S", "KD", "3H"])
        game.do(cast("future_perception", "2C"))
        assert game["hand_deck"][:3] == ["7S", "KD", "3H"] and game.bottom() == ["2C"]
        assert R.view(game.state, "p1")["hand_deck"]["known_top"] == ["7S", "KD"]
        assert R.view(game.state, None)["hand_deck"]["known_top"] == []
        assert "KD" not in json.dumps(R.view(game.state, None))
        game.do(mv(1, 1))
        assert game["battle"]["enemy_life"] == 10
        game.do(ATTACK)
        assert game["life"] == 12 and R.view(game.state, "p1")["hand_deck"]["known_top"] == ["KD"]
        game.do(ATTACK)
        assert game["inventory"] == ["4C"] and R.view(game.state, "p1")["hand_deck"]["known_top"] == []
        assert game.bottom() == ["2C", "7S", "KD", "10D"]

    @pytest.mark.parametrize(
        "life, inventory, potion, after",
        [(2, ["AC", "5C"], "5C", 7), (14, ["6C"], "6C", 15)],
    )
    def test_a25_healing_variants(self, life, inventory, potion, after):
        game = g(life=life, inventory=inventory)
        game.do(cast("healing", potion))
        assert game["life"] == after

    def test_a25_healing(self):
        game = g(life=5, inventory=["7C", "9C", "4C"])
        game.do(cast("healing", "7C"))
        assert game["life"] == 8
        game.do(cast("healing", "9C"))
        assert game["life"] == 12
        game.do(cast("healing", "4C"))
        assert game["life"] == 14 and game.bottom() == ["7C", "9C", "4C"]
        full = g(inventory=["6C"])
        assert "maximum" in full.refuse(cast("healing", "6C"))

    def test_a26_escape_battle_and_adventurer(self):
        game = g(
            position=(1, 1),
            cells={(1, 1): "cleared", (1, 2): "10S/4H", (2, 1): "JD/5C"},
            inventory=["3C", "4C"],
            hand=["2D", "10H"],
        )
        game.do(mv(1, 2), ATTACK)
        assert game["life"] == 7 and game.bottom() == ["2D"]
        game.do(cast("escape", "3C"))
        cell = game.cell(1, 2)
        assert game["battle"] is None and cell["enemy"] == "10S" and not cell["enemy_up"]
        assert cell["visited"] and not cell["robbed"] and cell["treasure"] == "4H"
        assert game["position"] is None and game.bottom() == ["2D", "3C"]
        assert R.view(game.state, "p1")["grid"][0][1]["remembered"] == "10S"
        assert R.view(game.state, None)["grid"][0][1]["enemy"] is None
        game.do(mv(1, 2))
        assert game["phase"] == "battle" and game["battle"]["spell"] is None
        game.do(ATTACK)
        assert game["inventory"] == ["4C", "4H"] and game.bottom()[-2:] == ["10H", "10S"]
        game.do(mv(2, 1))
        assert game["phase"] == "adventurer"
        game.do(cast("escape", "4C"))
        assert not game.cell(2, 1)["enemy_up"] and game.cell(2, 1)["visited"] and not game.cell(2, 1)["robbed"]
        assert game.bottom()[-1] == "4C"
        game.do(mv(2, 1))
        assert game["phase"] == "adventurer" and {"fight", "propose_trade"} <= game.legal_types()
        assert game["life"] == 7

    def test_a30_anti_magic(self):
        game = g(
            inventory=["5C"],
            cells={(1, 1): "9C/2D", (1, 2): "QS/3D", (1, 3): "QH/4D", (1, 4): "9S/5D"},
            hand=["2H", "9H", "3S", "10D"],
        )
        game.do(cast("anti_magic", "5C"))
        assert game.bottom() == ["5C"] and game["level_effects"]["anti_magic"]
        game.do(mv(1, 1))
        assert game["battle"]["enemy_life"] == 9
        game.do(ATTACK)
        assert game["life"] == 15
        game.do(ATTACK, mv(1, 2))
        assert game["inventory"] == ["2D", "3D"]
        game.do(mv(1, 3))
        assert [a["choice"] for a in R.legal_actions(game.state, "p1") if a["type"] == "priestess"] == ["treasure"]
        game.do(act("priestess", choice="treasure"), mv(1, 4), ATTACK)
        assert game["life"] == 9
        game.do(ATTACK)
        assert game.bottom() == ["5C", "2H", "9H", "9C", "QS", "QH", "3S", "10D", "9S"]
        assert game["inventory"] == ["2D", "3D", "4D", "5D"] and game["life"] == 9

    def test_a31_stealing_spirit_and_robbed_chambers(self):
        game = g(
            position=(1, 1),
            cells={(1, 1): "cleared", (1, 2): "10S/AS", (2, 1): "JC/5H"},
            inventory=["6C", "8C"],
            hand=["10D", "3H", "JK"],
        )
        game.do(mv(1, 2), cast("stealing_spirit", "6C"))
        cell = game.cell(1, 2)
        assert game["inventory"] == ["8C", "AS"] and cell["enemy"] == "10S" and not cell["enemy_up"]
        assert cell["robbed"] and cell["treasure"] is None and game["position"] is None
        assert game.bottom() == ["6C"] and game["phase"] == "explore"
        game.do(mv(2, 1))
        assert game["phase"] == "adventurer"
        game.do(cast("stealing_spirit", "8C"))
        assert game["inventory"] == ["AS", "5H"] and game.cell(2, 1)["robbed"] and not game.cell(2, 1)["enemy_up"]
        assert game.bottom() == ["6C", "8C"]
        game.do(mv(2, 1))
        assert game["phase"] == "battle"
        game.do(ATTACK)
        assert game["battle"] is None and game["inventory"] == ["AS", "5H"] and game.cell(2, 1)["enemy"] is None
        assert game.bottom()[-2:] == ["10D", "JC"]
        game.do(mv(1, 2), ATTACK)
        assert game["life"] == 11
        game.do(ATTACK)
        assert game.bottom()[-3:] == ["3H", "JK", "10S"]
        assert game["inventory"] == ["AS", "5H"] and game["life"] == 11
        assert game.cleared() == 3 and game["counters"]["chambers_cleared"] == 2

    def test_a32_body_switch(self):
        game = g(inventory=["7C", "9C"], cells={(1, 1): "10S/6D", (1, 2): "9H/2C"}, hand=["3D", "5H", "QH"])
        game.do(mv(1, 1))
        assert game["battle"]["enemy_life"] == 10
        game.do(cast("body_switch", "7C"))
        assert game["battle"]["enemy"] == "3D" and game["battle"]["enemy_life"] == 3
        assert game.bottom() == ["7C", "10S"]
        assert "one spell" in game.refuse(cast("revelation", "9C"))
        game.do(ATTACK)
        assert game["inventory"] == ["9C", "6D"] and game.bottom()[-2:] == ["5H", "3D"]
        game.do(cast("body_switch", "9C", target=[1, 2]))
        assert game.cell(1, 2)["enemy"] == "QH" and not game.cell(1, 2)["enemy_up"]
        assert game.bottom()[-2:] == ["9C", "9H"]
        assert R.view(game.state, "p1")["grid"][0][1]["remembered"] == "QH"
        spectator = R.view(game.state, None)
        assert spectator["grid"][0][1]["enemy"] is None and "QH" not in json.dumps(spectator)
        game.do(mv(1, 2))
        assert game["phase"] == "priestess"
        game.do(act("priestess", choice="treasure"))
        assert game.bottom() == ["7C", "10S", "5H", "3D", "9C", "9H", "QH"]
        assert game["inventory"] == ["6D", "2C"]

    def test_a32_variant_body_switch_brings_an_ace(self):
        game = g(inventory=["7C", "JD"], cells={(1, 1): "10S/4H"}, hand=["AH"])
        game.do(mv(1, 1), act("call_prisoner", card="JD"), cast("body_switch", "7C"))
        assert game["battle"] is None and game.cleared() == 1
        assert game.bottom() == ["7C", "10S", "JD", "AH"] and game["inventory"] == ["4H"]

    def test_a33_teleport(self):
        game = g(
            position=(1, 1),
            cells={(1, 1): "cleared", (3, 4): "AH/9S", (2, 1): "10S/2D"},
            inventory=["8C", "9C", "5C", "3C"],
            hand=["3H"],
        )
        game.do(cast("teleport", "8C", target=[3, 4]))
        assert game["inventory"][-1] == "9S" and game.cleared() == 2 and game.bottom() == ["8C", "AH"]
        assert "6" in game.refuse(act("descend"))
        game.do(mv(2, 1), ATTACK)
        assert game["life"] == 8
        game.do(cast("teleport", "9C", target=[1, 1]))
        assert game["battle"] is None and not game.cell(2, 1)["enemy_up"] and game["position"] == [1, 1]
        assert game.bottom() == ["8C", "AH", "3H", "9C"]
        game.do(cast("teleport", "5C", "3C", target="next_level"))
        swept = []
        for pos in [(1, 2), (1, 3), (1, 4), (2, 1), (2, 2), (2, 3), (2, 4), (3, 1), (3, 2), (3, 3)]:
            swept += ["10S", "2D"] if pos == (2, 1) else ["2S", "2H"]
        assert game.bottom() == ["8C", "AH", "3H", "9C", "5C", "3C"] + swept
        assert game["level"] == 2 and game["phase"] == "start_level" and game["life"] == 8
        assert all(c["enemy"] == "5D" and c["treasure"] == "5D" for row in game["grid"] for c in row)

    def test_a34_revelation(self):
        game = g(inventory=["9C", "3C"], cells={(1, 1): "10S/4H", (3, 4): "JK/5H"})
        game.do(cast("revelation", "9C"))
        assert all(c["enemy_up"] and not c["treasure_up"] for row in game["grid"] for c in row)
        assert game.cell(3, 4)["enemy"] == "JK" and R.view(game.state, None)["grid"][0][0]["enemy"] == "10S"
        assert game.bottom() == ["9C"]
        game.do(mv(1, 1), cast("escape", "3C"))
        assert game.cell(1, 1)["enemy_up"] and game["position"] is None and game.bottom() == ["9C", "3C"]

    def test_a35_hell_bomb(self):
        game = g(
            position=(2, 1),
            cells={(2, 1): "cleared", (2, 2): "10H/3C", (1, 2): "QS/4H", (2, 3): "9C/5D", (3, 2): "KD/2S"},
            inventory=["9C", "10C", "6H"],
        )
        game.do(mv(2, 2))
        assert game["battle"]["enemy_life"] == 10
        game.do(cast("hell_bomb", "9C"))
        assert game["battle"] is None
        assert game.bottom() == ["9C", "10H", "QS", "9C", "KD"]
        assert game["inventory"] == ["10C", "6H", "3C", "4H", "5D", "2S"]
        for pos in ((1, 2), (2, 2), (2, 3), (3, 2)):
            chamber = game.cell(*pos)
            assert chamber["visited"] and chamber["enemy"] is None and chamber["treasure"] is None
        assert game.cleared() == 5 and game["counters"]["chambers_cleared"] == 4

    def test_a35_variant_edge_of_the_grid(self):
        game = g(position=(1, 1), cells={(1, 1): "cleared", (1, 2): "JH/6H", (2, 1): "QH/7H"}, inventory=["9C"])
        game.do(cast("hell_bomb", "9C"))
        assert game["inventory"] == ["6H", "7H"] and game.bottom() == ["9C", "JH", "QH"]

    def test_a35_variant_no_position(self):
        game = g(inventory=["9C"])
        assert game["phase"] == "start_level"
        game.refuse(cast("hell_bomb", "9C"))

    def test_a36_curse(self):
        game = g(inventory=["10C"], cells={(1, 1): "7S/2H", (1, 2): "JD/3H"}, hand=["4D", "5S"])
        game.do(cast("curse", "10C"))
        assert game.bottom() == ["10C"]
        game.do(mv(1, 1))
        assert game["battle"]["enemy_life"] == 4
        game.do(ATTACK, mv(1, 2), act("fight"))
        assert game["battle"]["enemy_life"] == 5
        game.do(ATTACK)
        assert game.bottom() == ["10C", "4D", "7S", "5S", "JD"]
        assert game["inventory"] == ["2H", "3H"] and game["life"] == 15

    def test_a37_genie_of_luck_spell(self):
        game = g(inventory=["6C", "5C"], hand=["2H", "QS", "KH", "9D", "AD", "7C"])
        game.refuse(cast("genie_of_luck", "6C"))
        game.do(cast("genie_of_luck", "6C", "5C"))
        assert game.bottom() == ["6C", "5C", "QS", "2H", "KH"]
        assert game["inventory"] == ["9D", "AD"] and game["max_life"] == 15 and game["hand_deck"][0] == "7C"

    def test_a38_stone_statue_and_god_vision(self):
        game = g(position=(1, 1), cells={(1, 1): "cleared", (2, 2): "10S/7H"}, inventory=["10C", "5C", "9C", "6C"])
        seven = [[1, 2], [1, 3], [1, 4], [2, 1], [2, 2], [2, 3], [2, 4]]
        game.refuse(cast("stone_statue", "10C", "5C", targets=seven))
        game.do(cast("stone_statue", "10C", "5C", targets=seven[:6]))
        assert game.bottom() == ["10C", "5C", "2S", "2S", "2S", "2S", "10S", "2S"]
        assert all(game.cell(r, c)["treasure"] for r, c in seven[:6])
        game.do(mv(1, 2))
        assert game["inventory"][-1] == "2H"
        game.do(mv(2, 2))
        assert game["inventory"][-1] == "7H" and game.cleared() == 3
        game.do(cast("god_vision", "9C", "6C"))
        assert all(
            (c["enemy"] is None or c["enemy_up"]) and (c["treasure"] is None or c["treasure_up"])
            for row in game["grid"]
            for c in row
        )
        assert game.bottom()[-2:] == ["9C", "6C"]


class TestLevels:
    def test_a39_descending_optional_forced_effects_reset(self):
        hand = "2H 3H 4H 5H 6H 7H 8H 9H 10H 2C 3C 4C 9C 2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS".split()
        game = g(
            position=(2, 1),
            effects=["anti_magic", "curse"],
            hand=hand,
            cells={
                (1, 1): "cleared",
                (1, 2): "cleared",
                (1, 3): "cleared",
                (1, 4): "cleared",
                (2, 1): "cleared",
                (2, 2): "AS/2D",
                (2, 3): "4S/4H",
                (2, 4): "5S/5H",
                (3, 1): "6S/6H",
                (3, 2): "7S/7H",
                (3, 3): "8S/8H",
                (3, 4): "9S/9H",
            },
        )
        game.refuse(act("descend"))
        game.do(mv(2, 2))
        assert game["inventory"] == ["2D"] and game.cleared() == 6
        game.do(act("descend"))
        assert game.bottom() == "AS 4S 4H 5S 5H 6S 6H 7S 7H 8S 8H 9S 9H".split()
        assert game["level"] == 2 and game["phase"] == "start_level"
        assert [c["treasure"] for row in game["grid"] for c in row] == hand[:12]
        assert [c["enemy"] for row in game["grid"] for c in row] == hand[12:]
        assert not game["level_effects"]["anti_magic"] and not game["level_effects"]["curse"]
        game.do(mv(1, 1))
        assert game["battle"]["enemy_life"] == 9
        game.do(ATTACK)
        assert game["life"] == 11

    def test_a39_forced_descent(self):
        cells = {(r, c): "cleared" for r in range(1, 4) for c in range(1, 5)}
        cells[(3, 4)] = "AS/2D"
        game = g(cells=cells, position=(3, 3))
        game.do(mv(3, 4))
        assert game["inventory"] == ["2D"]
        assert game["level"] == 2 and game["phase"] == "start_level" and len(game["hand_deck"]) == 7

    def test_a40_stranded_on_attack(self):
        game = g(filler=False, inventory=["AS"], cells={(1, 1): "5S/2H"})
        game.do(mv(1, 1), ATTACK)
        res = R.result(game.state)
        assert game["status"] == "stranded" and res["winners"] == [] and res["scores"] == {"p1": 200}
        assert res["reason"] == "stranded"

    def test_a40_stranded_by_a_forced_descent(self):
        cells = {(r, c): "cleared" for r in range(1, 4) for c in range(1, 5)}
        cells[(3, 4)] = "AS/2D"
        game = g(
            cells=cells, position=(3, 3), filler=False, hand=["5D"] * 10, counters={"chambers_cleared": 11, "turns": 11}
        )
        game.do(mv(3, 4))
        assert game["status"] == "stranded" and game["level"] == 2
        assert R.result(game.state)["scores"] == {"p1": 110}

    def test_a44_options_grid_size_and_maximum_life(self):
        listed = [f"{r}{s}" for s in "SHDC" for r in "2 3 4 5 6 7 8 9".split()][:30]
        state = R.new_game(1, ["p1"], {"rows": 3, "cols": 5, "max_life": 20, "deck": listed + ["KS"] * 5})
        for r in range(1, 4):
            for c in range(1, 6):
                cell = state["grid"][r - 1][c - 1]
                assert cell["treasure"] == listed[5 * (r - 1) + c - 1]
                assert cell["enemy"] == listed[15 + 5 * (r - 1) + c - 1]
        assert (state["life"], state["max_life"]) == (20, 20)
        assert sorted(a["row"] * 10 + a["col"] for a in R.legal_actions(state, "p1") if a["type"] == "move") == [
            11,
            15,
            31,
            35,
        ]
        order = [(r, c) for r in range(1, 4) for c in range(1, 6)]
        seven = g(options={"rows": 3, "cols": 5}, cells={p: "cleared" for p in order[:7]})
        assert seven["phase"] == "explore"
        assert "8" in seven.refuse(act("descend"))
        eight = g(options={"rows": 3, "cols": 5}, cells={p: "cleared" for p in order[:8]})
        eight.do(act("descend"))
        assert eight["level"] == 2

    def test_a45_score_and_ranking(self):
        assert scoring.points(aces=4, level=3, cleared=27, turns=40, life=9, victory=True) == 2305
        assert scoring.points(aces=2, level=2, cleared=15, turns=22, life=0, victory=False) == 525
        victory = {"reason": "victory", "scores": {"p1": 1100}, "turns": 90}
        rich_death = {"reason": "death", "scores": {"p1": 5000}, "turns": 10}
        slow = {"reason": "victory", "scores": {"p1": 2000}, "turns": 50}
        fast = {"reason": "victory", "scores": {"p1": 2000}, "turns": 40}
        board = sorted([rich_death, victory, slow, fast], key=R.leaderboard_key)
        assert board == [fast, slow, victory, rich_death]

    @staticmethod
    def finished(level: int, life: int, inventory: list[str], cell: str, hand: str, cleared: int, turns: int):
        """A real game one chamber from its end: entering (1,1) (a turn) and one attack finish it."""
        state = situation(
            life=life,
            inventory=inventory,
            cells={(1, 1): cell},
            hand=[hand],
            counters={"chambers_cleared": cleared, "turns": turns},
        )
        state["level"] = level
        return R.result(Game(state).do(mv(1, 1), ATTACK).state)

    def test_a45_the_scores_of_real_finished_games(self):
        # A45's two examples, played to their ends rather than computed.
        won = self.finished(3, 9, ["AH", "AS", "AC"], "3S/AD", "5C", cleared=26, turns=39)
        assert won["reason"] == "victory" and won["scores"] == {"p1": 2305}
        assert (won["aces"], won["level"], won["chambers_cleared"], won["turns"], won["life"]) == (4, 3, 27, 40, 9)
        dead = self.finished(2, 1, ["AH", "AS"], "9C/4H", "4D", cleared=15, turns=21)  # 4 + 3 (A♠) hits 9: 2 damage
        assert dead["reason"] == "death" and dead["winners"] == [] and dead["scores"] == {"p1": 525}
        assert (dead["aces"], dead["level"], dead["chambers_cleared"], dead["turns"], dead["life"]) == (2, 2, 15, 22, 0)
        # From 100 turns on the speed bonus is 0: equal scores, and the fewer turns rank first.
        slow = self.finished(3, 9, ["AH", "AS", "AC"], "3S/AD", "5C", cleared=26, turns=109)
        fast = self.finished(3, 9, ["AH", "AS", "AC"], "3S/AD", "5C", cleared=26, turns=99)
        assert slow["scores"] == fast["scores"] == {"p1": 2125}
        assert sorted([dead, slow, won, fast], key=R.leaderboard_key) == [won, fast, slow, dead]


class TestOptions:
    def test_a41_option_inventory_limit(self):
        game = g(options={"inventory_limit": 3}, life=12, inventory=["2H", "3H", "4H"], cells={(1, 1): "AS/5H"})
        game.do(mv(1, 1))
        assert game["inventory"] == ["2H", "3H", "4H", "5H"] and game["phase"] == "overflow"
        game.refuse(mv(1, 2))
        game.refuse(act("drink", card="2H"))
        assert {a["type"] for a in R.legal_actions(game.state, "p1")} == {"drop", "resign"}
        game.do(act("drop", card="5H"))
        assert game.bottom() == ["AS", "5H"] and game["inventory"] == ["2H", "3H", "4H"]
        assert game["life"] == 12 and game["phase"] == "explore"

    def test_a41_variant_victory_before_the_limit(self):
        game = g(options={"inventory_limit": 3}, inventory=["AH", "AS", "AC"], cells={(1, 1): "AH/AD"})
        game.do(mv(1, 1))
        assert game["status"] == "won" and game["decision"] is None


class TestRefusals:
    def test_a46_refused_actions_leave_everything_unchanged(self):
        game = g(inventory=["AS", "5H", "2C", "10C", "5C"], cells={(1, 1): "JD/6S", (1, 2): "3S/4D"})
        game.refuse(ATTACK)
        game.refuse(act("drink", card="2C"))
        game.do(mv(1, 1))
        assert game["phase"] == "adventurer"
        game.refuse(act("descend"))
        game.refuse(mv(1, 2))
        game.do(act("propose_trade"))
        assert game["encounter"]["value"] == 6
        assert "aces" in game.refuse(act("offer", cards=["AS", "5H"]))
        game.refuse(act("offer", cards=["5H"]))
        game.do(act("offer", cards=["5H", "2C"]))
        assert game.bottom() == ["5H", "2C", "JD"]
        game.do(mv(1, 2))
        assert game["battle"]["enemy_life"] == 3
        game.refuse(cast("stone_statue", "10C", "5C", targets=[[2, 1]]))
        game.refuse(act("call_prisoner", card="JD"))
        game.do(ATTACK)
        assert game["inventory"] == ["AS", "10C", "5C", "6S", "4D"]
        assert game.bottom() == ["5H", "2C", "JD", "5D", "3S"]

    def test_malformed_actions_are_invalid(self):
        game = g(inventory=["5C"])
        for bad in [
            {"type": "fly"},
            {"row": 1},
            "move",
            {"type": "move", "row": "1", "col": 1},
            {"type": "move", "row": 1},
            {"type": "move", "row": True, "col": 1},
            {"type": "move", "row": 1, "col": 1, "extra": 2},
            {"type": "cast", "spell": "levitation", "potions": ["5C"]},
            {"type": "cast", "spell": "healing", "potions": "5C"},
            {"type": "cast", "spell": "healing", "potions": ["5X"]},
            {"type": "cast", "spell": "healing", "potions": ["5C"], "target": [1, 1]},
            {"type": "cast", "spell": "teleport", "potions": ["5C"], "target": "down"},
            {"type": "cast", "spell": "stone_statue", "potions": ["5C"], "targets": [[1]]},
            {"type": "drink", "card": 5},
            {"type": "priestess", "choice": "pray"},
            {"type": "destroy", "targets": "all"},
        ]:
            game.refuse(bad, InvalidAction)
