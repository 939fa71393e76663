"""The way back to a shared deal's ranking (issue 25): the end panel of an attempt on a challenge or
on the daily deal says where it placed, the score to beat and links to the ranking; a challenge
goes by the name its sender gives; the ranking page states its tie rule, as the code applies it."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from sqlalchemy import update

from tests.helpers.web import at_address
from tests.page import Page
from tests.web.test_deals import SLUG, challenge_from, deals_for, finished_game, take
from tests.web.test_replays import play_to_the_end
from webapp.domain import deals
from webapp.storage.schema import games


def challenge_named(client, name) -> str:
    response = client.http.post(f"/g/{client.game_id}/challenge", data={"csrf_token": client.csrf, "name": name})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def end_panel(client, game_id) -> Page:
    return Page(client.get(f"/g/{game_id}").data)


class TestChallengeEndPanel:
    def test_an_attempt_says_where_it_placed_the_score_to_beat_and_links_to_the_ranking(self, seat_client, store):
        ann = at_address(seat_client(), "203.0.113.1")
        source = finished_game(ann, store)
        link = challenge_named(ann, "Ann")
        bea = at_address(seat_client(), "203.0.113.2")
        attempt = take(bea, link, name="Bea")
        play_to_the_end(bea, store, seed=9)
        ranking = [a for a in deals_for(bea.app, link) if a.ranked]
        place = [a.game_id for a in ranking].index(attempt) + 1
        panel = end_panel(bea, attempt)
        words = panel.text("#deal-placement")
        assert f"{deals.ordinal(place)} of 2 on Ann's challenge." in words
        ann_score = next(a.score for a in ranking if a.game_id == source)
        assert ("You lead." if place == 1 else f"The score to beat: {ann_score} (Ann).") in words
        assert panel.attr("#deal-placement a", "href") == link
        assert panel.text("#deal-placement a") == "See the ranking"
        assert panel.select("#challenge-name") == []  # its deal has a ranking already
        # The sender's own game is on the deal too: its panel shows its place as well.
        assert f"{deals.ordinal(3 - place)} of 2 on Ann's challenge." in end_panel(ann, source).text("#deal-placement")

    def test_only_the_players_own_page_shows_the_placement(self, seat_client, store):
        ann = at_address(seat_client(), "203.0.113.1")
        finished_game(ann, store)
        link = challenge_named(ann, "Ann")
        bea = at_address(seat_client(), "203.0.113.2")
        attempt = take(bea, link)
        play_to_the_end(bea, store, seed=9)
        onlooker_page = ann.http.get(f"/g/{attempt}")  # open to Ann: her own attempt is over
        assert onlooker_page.status_code == 200
        assert Page(onlooker_page.data).select("#deal-placement") == []
        assert Page(bea.get(f"/g/{attempt}").data).select("#deal-placement")

    def test_a_second_attempt_is_practice_and_its_panel_says_so(self, seat_client, store):
        ann = at_address(seat_client(), "203.0.113.1")
        finished_game(ann, store)
        link = challenge_named(ann, "Ann")
        bea = at_address(seat_client(), "203.0.113.2")
        take(bea, link)
        play_to_the_end(bea, store, seed=4)
        again = take(bea, link)
        play_to_the_end(bea, store, seed=5)
        words = end_panel(bea, again).text("#deal-placement")
        assert "Practice: this game is not ranked on Ann's challenge" in words
        assert " of " not in words.split("(")[0]  # no place
        best = max(a.score for a in deals_for(bea.app, link) if a.ranked and a.game_id != again)
        assert f"The score to beat: {best} " in words
        # The ranking gives the practice game no place either.
        rows = Page(bea.get(link).data).select("#board tbody tr")
        assert [row.select("td")[0].get_text(" ", strip=True) for row in rows].count("– not ranked") == 1


class TestSenderName:
    def test_the_challenge_goes_by_the_name_its_sender_gives(self, seat_client, store):
        ann = at_address(seat_client(), "203.0.113.1")
        finished_game(ann, store)
        panel = end_panel(ann, ann.game_id)
        field = panel.one("form.challenge-form input[name=name]")
        assert panel.one("label[for=challenge-name]").get_text(strip=True) == "Your name on the challenge"
        assert field["id"] == "challenge-name" and field["maxlength"] == "24" and field.get("value") == ""
        link = challenge_named(ann, "  Ann  ")
        page = Page(ann.get(link).data)
        assert page.text("h1").startswith("Ann's challenge")
        assert page.text("#deal-start-title").startswith("Ann scored")
        assert page.texts("#board tbody td:nth-child(2)") == ["Ann you"]
        # Her next game offers the name back.
        finished_game(ann, store, seed=5)
        assert end_panel(ann, ann.game_id).one("#challenge-name")["value"] == "Ann"

    def test_no_name_keeps_the_players_name(self, seat_client, store):
        ann = seat_client()
        finished_game(ann, store)
        link = challenge_named(ann, "")
        assert Page(ann.get(link).data).text("h1").startswith("Adventurer's challenge")

    @pytest.mark.parametrize(
        ("name", "message"),
        [("A" * 25, "at most 24 characters"), ("\x01\x02", "letters, digits or signs"), ("B" * 500, "at most 24")],
    )
    def test_a_bad_name_is_a_400_that_says_why(self, seat_client, store, name, message):
        ann = seat_client()
        finished_game(ann, store)
        response = ann.http.post(f"/g/{ann.game_id}/challenge", data={"csrf_token": ann.csrf, "name": name})
        assert response.status_code == 400
        assert message in response.get_data(as_text=True)
        assert deals.deal_of(store, ann.game_id) is None  # no challenge made

    def test_a_name_given_on_a_deal_is_offered_for_the_next_challenge(self, seat_client, store):
        ann = at_address(seat_client(), "203.0.113.1")
        finished_game(ann, store)
        link = challenge_from(ann)
        bea = at_address(seat_client(), "203.0.113.2")
        take(bea, link, name="Bea")
        play_to_the_end(bea, store, seed=9)
        finished_game(bea, store, seed=6)
        assert end_panel(bea, bea.game_id).one("#challenge-name")["value"] == "Bea"


class TestTieRule:
    def test_ties_go_to_fewer_actions_then_the_earlier_finish_as_the_page_says(self, seat_client, store):
        ann = at_address(seat_client(), "203.0.113.1")
        source = finished_game(ann, store)
        link = challenge_named(ann, "Ann")
        players = {"Ann": (ann, source)}
        for number, name in enumerate(["Bea", "Cat"], start=2):
            client = at_address(seat_client(), f"203.0.113.{number}")
            players[name] = (client, take(client, link, name=name))
            play_to_the_end(client, store, seed=number)
        # The same score for all three; Bea and Cat took fewer actions than Ann, and Bea finished first.
        shape = {"Ann": (30, 300.0), "Bea": (20, 100.0), "Cat": (20, 200.0)}
        with store.engine.begin() as conn:
            for name, (actions, finished_at) in shape.items():
                game_id = players[name][1]
                result = dict(store.load(game_id).result)
                result["scores"] = {key: 7 for key in result["scores"]}
                conn.execute(
                    update(games)
                    .where(games.c.id == game_id)
                    .values(result=json.dumps(result), version=actions, finished_at=finished_at, created_at=50.0)
                )
        assert [a.name for a in deals_for(ann.app, link)] == ["Bea", "Cat", "Ann"]
        page = Page(ann.get(link).data)
        assert (
            page.text("#ranking-order") == "Ties: the better score first, then fewer actions, then the earlier finish."
        )
        assert page.texts("#board tbody td:nth-child(2)") == ["Bea", "Cat", "Ann you"]
        assert page.texts("#board tbody td:nth-child(1)") == ["1", "2", "3"]
        cat, cat_game = players["Cat"]
        words = end_panel(cat, cat_game).text("#deal-placement")
        assert "2nd of 3 on Ann's challenge." in words and "The score to beat: 7 (Bea)." in words
        assert "3rd of 3 on Ann's challenge." in end_panel(ann, source).text("#deal-placement")


class TestDailyEndPanel:
    def test_a_daily_attempt_places_on_todays_deal_and_a_replay_is_practice(self, seat_client, store, clock):
        ann = seat_client()
        first = take(ann, f"/daily/{SLUG}", name="Ann")
        play_to_the_end(ann, store, seed=1)
        panel = end_panel(ann, first)
        words = panel.text("#deal-placement")
        assert "1st of 1 on today's deal." in words and "You lead." in words
        assert panel.attr("#deal-placement a", "href") == f"/daily/{SLUG}"
        daily = Page(ann.get(f"/daily/{SLUG}").data)
        assert daily.text("#ranking-order") == f"Ties: {deals.RANKING_ORDER}."
        # The same deal again, from the end panel: practice.
        response = ann.http.post(f"/g/{first}/rematch", data={"csrf_token": ann.csrf})
        ann.game_id = response.headers["Location"].rsplit("/", 1)[-1]
        ann.get(f"/g/{ann.game_id}")
        play_to_the_end(ann, store, seed=2)
        words = end_panel(ann, ann.game_id).text("#deal-placement")
        assert "Practice: this game is not ranked on today's deal" in words
        assert f"The score to beat: {store.load(first).result['scores']['p1']} (Ann)." in words
        # Once the day is over, the panel names the day.
        clock["today"] += dt.timedelta(days=1)
        assert "1st of 1 on the daily deal of 2026-11-26." in end_panel(ann, first).text("#deal-placement")
