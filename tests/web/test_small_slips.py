"""Issue 25.6, the smaller slips: words the pages say and a button Hebrac's battle panel lacked."""

from __future__ import annotations

from tests.page import Page
from tests.web.test_deals import SLUG, clock, take  # noqa: F401 (clock is a fixture)
from tests.web.test_replays import play_to_the_end


class TestDailyRanking:
    def test_a_daily_rows_replay_opens_at_midnight_not_after_yours(self, seat_client, store, clock):  # noqa: F811
        """Today's replays open for everybody when the day ends: the player's own row, over already,
        cannot say its replay opens "after yours"."""
        ann = seat_client()
        take(ann, f"/daily/{SLUG}", name="Ann")
        play_to_the_end(ann, store, seed=1)
        board = Page(ann.get(f"/daily/{SLUG}").data)
        mine = board.one("#board tr.mine").get_text(" ", strip=True)
        assert "after yours" not in mine
        assert "at midnight" in mine
