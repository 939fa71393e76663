"""Hebrac's Dungeon's presenter words the engine's rules and computes none of its own: what the
view forecasts, the spell costs and Hebrac's toll of ``data``, the engine's onlooker sentence."""

from __future__ import annotations

import rules_engine
from rules_engine.games.hebracs_dungeon import battle, data
from tests.helpers.hebracs_dungeon import situation
from webapp.domain.play import ActionButton
from webapp.pages.presenters import Scene
from webapp.pages.presenters import hebracs_dungeon as presenter

R = rules_engine.get("hebracs-dungeon")


def scene(state: dict, view: dict | None = None) -> Scene:
    buttons = [ActionButton(a, R.action_label(state, a), None) for a in R.legal_actions(state, "p1")]
    return Scene(rules=R, view=view or R.view(state, "p1"), seat="p1", buttons=buttons, result=R.result(state))


def in_battle() -> dict:
    return R.apply(situation(cells={(1, 1): "10S/2H"}), "p1", {"type": "move", "row": 1, "col": 1})


def test_the_battle_panel_words_the_views_forecast():
    state = in_battle()
    view = R.view(state, "p1")
    view["battle"]["forecast"] = {**view["battle"]["forecast"], "worth_to_win": 30, "least_loss": 7}
    fight = presenter.present(scene(state, view))["encounter"]["battle"]
    assert fight["forecast"]["verdict"] == "Even a ten cannot win: you lose at least 7 life."
    assert fight["forecast"]["card_values"] == "Aces count 1, jacks, queens, kings and jokers 10."


def test_the_spell_hints_and_hebracs_toll_come_from_the_engines_data(monkeypatch):
    monkeypatch.setitem(data.SPELLS, "escape", {**data.SPELLS["escape"], "cost": 9})
    monkeypatch.setattr(data, "HEBRAC_TOLL", 7)
    page = presenter.present(scene(in_battle()))
    assert page["spell_costs"]["escape"] == 9
    state = R.apply(situation(cells={(1, 1): "JK/3H"}), "p1", {"type": "move", "row": 1, "col": 1})
    assert presenter.present(scene(state))["encounter"]["hebrac"]["toll"] == 7


def test_an_onlooker_reads_the_engines_onlooker_sentence():
    state = R.apply(situation(), "p1", {"type": "resign"})
    result = R.result(state)
    onlooker = Scene(rules=R, view=R.view(state, None), seat=None, buttons=[], result=result, names={"p1": "Ann"})
    assert (
        presenter.present(onlooker)["status_line"]["text"] == f"Ann gave up the quest. Score {result['scores']['p1']}."
    )


def test_the_bag_and_the_hero_bar_count_with_the_engines_numbers(monkeypatch):
    monkeypatch.setattr(data, "SCEPTER_FACTOR", 3)
    monkeypatch.setattr(data, "RUBY_LIFE", 4)
    monkeypatch.setattr(battle, "PRISONER_BONUS", 2)
    state = situation(inventory=["AC", "AH", "4C", "JD"], position=(1, 1), cells={(1, 1): "cleared"})
    page = presenter.present(scene(state))
    sums = {group["id"]: group["sum"] for group in page["bag"]["groups"]}
    assert sums["magic"] == "12 points (doubled by the Scepter)"
    assert sums["prisoners"] == "1 × +2 per attack"
    assert page["hero"]["life_note"].endswith("+ 4 Ruby of Gaza")
