"""Hebrac's Dungeon: each rule a page words is written once, in the engine — the payment cases,
what a scaled spell buys, the battle forecast in the view (from what the seat sees only), the
onlooker's ending and Hebrac's toll."""

from __future__ import annotations

import pytest

import rules_engine
from rules_engine.errors import IllegalAction
from rules_engine.games.hebracs_dungeon import battle, data, risks, scoring, spells, trade
from tests.helpers.hebracs_dungeon import situation

HD = rules_engine.get("hebracs-dungeon")


@pytest.mark.parametrize(
    "values,case",
    [([], "none"), ([3], "short"), ([9, 8, 3], "spare"), ([8, 3], "over"), ([7, 3], "exact")],
)
def test_a_payment_is_one_of_five_cases_and_only_over_and_exact_pay(values, case):
    assert trade.payment_case(values, 10) == case
    assert trade.payment_ok(values, 10) == (case in ("over", "exact"))
    cards = [f"{v}C" for v in values]
    if case in ("over", "exact"):
        trade.check_payment(cards, values, 10, "the price")
    else:
        with pytest.raises(IllegalAction):
            trade.check_payment(cards, values, 10, "the price")


def test_the_superfluous_card_is_the_first_of_the_least_worth():
    assert trade.superfluous_card(["2D", "5D", "2H"], [2, 5, 2]) == "2D"


@pytest.mark.parametrize("points,per,cap,bought", [(14, 2, 5, (5, 4)), (3, 2, 5, (1, 1)), (4, 1, 9, (4, 0))])
def test_a_scaled_spell_buys_whole_steps_up_to_its_cap(points, per, cap, bought):
    assert spells.scaled_units(points, per, cap) == bought


def fight_state(enemy: str = "10S", **given) -> dict:
    state = situation(cells={(1, 1): f"{enemy}/2H"}, **given)
    return HD.apply(state, "p1", {"type": "move", "row": 1, "col": 1})


class TestForecast:
    def test_the_view_forecasts_what_the_next_attack_must_draw(self):
        fight = HD.view(fight_state(inventory=["AS"]), "p1")["battle"]
        assert fight["forecast"] == {
            "draws": 1,
            "multiplier": 1,
            "bonus": battle.BRACELET_BONUS,
            "worth_to_win": 7,
            "best_score": 13,
            "least_loss": 0,
        }
        assert not fight["shielded"] and not fight["magic_shielded"]

    def test_beyond_the_best_draw_it_says_the_least_life_lost(self):
        state = fight_state("10S")
        state["battle"]["enemy_life"] = 14
        ahead = HD.view(state, "p1")["battle"]["forecast"]
        assert (ahead["worth_to_win"], ahead["best_score"], ahead["least_loss"]) == (14, 10, 4)

    def test_the_forecast_reads_nothing_the_seat_cannot_see(self):
        # The Hand Deck's order and the seed are hidden: changing them changes no forecast.
        state = fight_state(inventory=["AS", "JD"])
        hidden_changed = {**state, "hand_deck": list(reversed(state["hand_deck"])), "seed": state["seed"] + 1}
        for seat in ("p1", None):
            assert HD.view(hidden_changed, seat)["battle"] == HD.view(state, seat)["battle"]

    def test_the_attack_warning_uses_the_same_forecast(self):
        state = fight_state("10S", life=3)
        state["battle"]["enemy_life"] = 14
        warning = risks.loss_warning(state, {"type": "attack"})
        assert warning is not None and "even the best draw scores 10 against 14, a loss of at least 4" in warning


def test_an_onlooker_reads_the_same_ending_naming_the_player():
    result = {"reason": "death", "cause": "Killed in battle.", "scores": {"p1": 525}}
    assert scoring.watched_text(result, "Ann") == "Ann died in Hebrac's Dungeon. Killed in battle. Score 525."


def test_hebracs_toll_is_one_number_the_game_and_its_words_share():
    state = situation(cells={(1, 1): "JK/3H"}, hand=["2S"], life=20)
    state = HD.apply(state, "p1", {"type": "move", "row": 1, "col": 1})
    state = HD.apply(state, "p1", {"type": "play"})
    assert state["life"] == 20 - data.HEBRAC_TOLL
    assert f"costs {data.HEBRAC_TOLL} life" in next(e["text"] for e in data.ENEMIES if e["name"] == "Hebrac")
