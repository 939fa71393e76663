"""Dungeon Cards' presenter words the engine's rules and keeps no copy of them: the result
sentence (the engine's, naming the players), the bosses' abilities and the Royal Barrage's numbers
(``data``), the classes' fight abilities, and a dash card's worth."""

from __future__ import annotations

from types import SimpleNamespace

import rules_engine
from rules_engine.games.dungeon_cards import data, views
from tests.helpers.dungeon_cards import act, started_game
from webapp.domain import play
from webapp.pages.presenters import Scene, keys_for
from webapp.pages.presenters.dungeon_cards import Chip, present

rules = rules_engine.get("dungeon-cards")
KEYS = keys_for("dungeon_cards")


def shown(state: dict, seat: str, names: dict | None = None) -> dict:
    buttons = play.action_buttons(SimpleNamespace(rules=rules, state=state), seat, KEYS)
    view = rules.view(state, seat)
    return present(Scene(rules, view, seat, buttons, rules.result(state), names or {}))


def kings_fight() -> dict:
    deck = ["KH", "2C", "5C", "6C", "3C", "7C", "8C", "9D", "4D", "6D", "2H", "4H", "10H", "3S", "AS", "5S"]
    s = started_game([("A", "swordsman"), ("B", "soldier")], deck=deck, positions={"A": (4, 4), "B": (4, 5)})
    return act(act(s, "A", "draw_card"), "B", "join_combat", join=True)


def test_the_engine_words_the_result_naming_each_seat_as_asked():
    outcome = {"result": "team_victory", "reason": "escaped", "escaped": ["p1", "p2"]}
    chars = [{"id": "p1"}, {"id": "p2"}]
    assert views.result_sentence(outcome, chars) == "Team victory: p1, p2 escaped."
    assert views.result_sentence(outcome, chars, {"p1": "Ann", "p2": "Bob"}.get) == "Team victory: Ann, Bob escaped."


def test_the_boss_chips_follow_the_engines_bosses(monkeypatch):
    monkeypatch.setattr(data, "BARRAGE_LIVES", 2)
    monkeypatch.setitem(data.BOSSES, "K", {**data.BOSSES["K"], "special": "Second Wind"})
    duel = shown(kings_fight(), "A")["duel"]
    assert duel.boss_chips == [Chip("chip", "Second Wind ready")]
    monkeypatch.setitem(data.BOSSES, "K", {**data.BOSSES["K"], "special": "Royal Barrage"})
    assert shown(kings_fight(), "A")["duel"].boss_chips == [Chip("chip", "Royal Barrage at 2 life")]


def test_the_fighters_chips_name_the_engines_abilities(monkeypatch):
    monkeypatch.setitem(data.CLASSES, "soldier", {**data.CLASSES["soldier"], "ability": "Iron Will"})
    duel = shown(kings_fight(), "A")["duel"]
    assert duel.fighters[1].chips == [Chip("chip", "Iron Will ready")]


def test_an_ace_dash_card_goes_one_square():
    deck = ["JH", "2S", "9D", "3S", "8H", "4S", "7C", "QC", "AD"]
    s = act(started_game([("P", "athlete")], deck=deck, exits=[(5, 4)]), "P", "draw_card")
    for _ in range(3):
        s = act(s, "P", "combat_draw")
    s = act(s, "P", "choose_stat", stat="speed")
    assert shown(s, "P")["duel"].dash.distance == "1 square"
