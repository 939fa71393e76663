"""Issue 25.6, the smaller slips: words the pages say and a button Hebrac's battle panel lacked."""

from __future__ import annotations

from tests.page import Page
from tests.web.test_deals import SLUG, take
from tests.web.test_replays import play_to_the_end


class TestDailyRanking:
    def test_a_daily_rows_replay_opens_at_midnight_not_after_yours(self, seat_client, store, clock):
        """Today's replays open for everybody when the day ends: the player's own row, over already,
        cannot say its replay opens "after yours"."""
        ann = seat_client()
        take(ann, f"/daily/{SLUG}", name="Ann")
        play_to_the_end(ann, store, seed=1)
        board = Page(ann.get(f"/daily/{SLUG}").data)
        mine = board.one("#board tr.mine").get_text(" ", strip=True)
        assert "after yours" not in mine
        assert "at midnight" in mine


# Deal A of Hebrac's web tests with a life potion (4♥) in the first chamber instead of the
# strength potion: the amazon of (1,2), life 10, then beats the first attack drawn, a 3.
HEBRAC_LIFE_DEAL = (
    "4H 9C 10C 4H 8D JC 2H 2H 3D 2C 2H 2H "
    "AC 10H JS AD AD KH QS 2S AS AC 2S 2S "
    "3H 4D "
    "AH AD AS AC 2H 2H 2H 2H 2H 2H 2H 2H "
    "AD AS AC AH 2S 2S 2S 2S 2S 2S 2S 2S "
    "5D 5D 5D 5D 5D 5D"
)


class TestHebracsBattlePanel:
    def test_the_battle_panel_offers_the_life_potions_the_rules_allow(self, seat_client):
        """A wounded player in a battle may drink life potions before the next attack: the battle
        panel offers them beside the strength potions, not only the bag's bare "Drink"."""
        player = seat_client()
        player.start("hebracs-dungeon", jokers="on", deck=HEBRAC_LIFE_DEAL)
        for action in ({"type": "move", "row": 1, "col": 1}, {"type": "move", "row": 1, "col": 2}):
            assert player.act(action).status_code == 200
        assert player.act({"type": "attack"}).status_code == 200  # a 3 against 10: 7 life lost
        panel = Page(player.board().data)
        drinks = {b.label: b.action for b in panel.buttons("#encounter")}
        assert {"type": "drink", "card": "4H"} in drinks.values(), drinks
        assert any("Drink 4" in label and "life" in label for label in drinks), drinks


class TestImportPage:
    def test_the_file_picker_wears_delves_button_style(self, seat_client):
        """The browser's bare file control looked foreign on the import page: it carries the
        class delve.css styles (its button like every other button, its box like the fields)."""
        client = seat_client()
        picker = Page(client.get("/replays/import").data).one("#import-file")
        assert "file-picker" in picker.get("class", [])
        assert Page(client.get("/replays/import").data).one("label[for=import-file]")
        with client.http.get("/static/css/delve.css") as response:
            stylesheet = response.get_data(as_text=True)
        assert ".file-picker::file-selector-button" in stylesheet
