"""Practice (issue 26, part 3): a solo game opened as practice, or switched once, undoes past
reveals and is never ranked — not on a shared deal, not in a browser's record — and says
"practice" on its page, its end, its replay and its deal's ranking rows; a ranked attempt offers
no switch and the server refuses one. Replays and files of games whose log holds undo and
practice actions show each step as it was."""

from __future__ import annotations

import io
import json
import random

import pytest
from sqlalchemy import select

import rules_engine
from rules_engine.undo import is_practice
from tests.helpers.web import at_address
from tests.page import Page
from tests.web.test_deals import challenge_from, finished_game, take
from tests.web.test_dungeon_cards_web import Table as DungeonCardsTable
from tests.web.test_hostile_pass2_rankings import fame_entry
from webapp.domain import browsers, deals, hall_of_fame, play
from webapp.pages import viewer
from webapp.pages.rendering import pretty_cards
from webapp.storage.schema import games

SLUG = "clear-the-dungeon"
SOLO_SLUGS = ("shuffle-and-doom", "clear-the-dungeon", "hebracs-dungeon")
PRACTICE = {"type": "practice"}


def practice_column(store, game_id) -> int:
    with store.engine.connect() as conn:
        return conn.execute(select(games.c.practice).where(games.c.id == game_id)).scalar_one()


def state_of(store, game_id):
    record = store.load(game_id)
    return rules_engine.get(record.slug).load(record.snapshot)


def switch_form(page: Page):
    """The page's practice switch: its form's fields (None when the page offers none)."""
    forms = page.select("#practice form")
    if not forms:
        return None
    return {tag["name"]: tag.get("value") for tag in forms[0].select("[name]")}


def resign(client, store) -> None:
    """The client's game ended by giving up (unless it is over already)."""
    if store.load(client.game_id).status == "finished":
        return
    client.version = store.load(client.game_id).version
    assert client.act({"type": "resign"}).status_code == 200


class TestOpeningAsPractice:
    def test_every_solo_games_form_has_the_labelled_checkbox_and_no_table_has_one(self, seat_client):
        page = Page(seat_client().get("/").data)
        for slug in SOLO_SLUGS:
            box = page.one(f"#game-{slug} input[type=checkbox][name=practice]")
            assert page.text(f"label[for={box['id']}]") == "Practice: undo anything, never ranked"
        # A table's engine takes no practice switch (rules_engine.undo): its forms offer none.
        for slug in ("dungeon-cards", "dungeon-of-doom"):
            assert page.select(f"#game-{slug} input[name=practice]") == []

    @pytest.mark.parametrize("slug", SOLO_SLUGS)
    def test_a_game_opened_as_practice_logs_the_switch_as_its_first_action(self, seat_client, store, slug):
        client = seat_client()
        game_id = client.start(slug, practice="1")
        assert [action for _seq, _seat, action in store.actions(game_id)] == [PRACTICE]
        assert is_practice(state_of(store, game_id)) and practice_column(store, game_id) == 1
        page = Page(client.get(f"/g/{game_id}").data)
        assert "Practice" in page.text("#practice .practice-on")
        assert switch_form(page) is None  # practice already: nothing to switch
        # The log alone makes it practice again (a replay, an import).
        assert is_practice(play.replay(store, game_id))

    def test_without_the_box_a_game_is_not_practice(self, seat_client, store):
        client = seat_client()
        game_id = client.start(SLUG)
        assert store.actions(game_id) == [] and practice_column(store, game_id) == 0
        assert not is_practice(state_of(store, game_id))


class TestSwitchingOnce:
    def test_the_page_offers_the_switch_as_a_plain_form_that_says_what_it_costs(self, seat_client, store):
        client = seat_client()
        game_id = client.start(SLUG)
        page = Page(client.get(f"/g/{game_id}").data)
        fields = switch_form(page)
        assert fields is not None
        assert json.loads(fields["action"]) == PRACTICE and fields["version"] == "0" and fields["csrf_token"]
        assert page.attr("#practice form", "method") == "post"
        assert page.attr("#practice form", "hx-post") is None  # works without a script
        words = page.text("#practice-confirm")
        assert "cannot be switched back" in words and "never be ranked" in words
        assert page.text("#practice summary") == "Switch to practice…"
        # A spectator sees no switch.
        assert switch_form(Page(seat_client().get(f"/g/{game_id}").data)) is None

    def test_a_plain_post_switches_once_and_a_second_is_refused(self, seat_client, store):
        client = seat_client()
        game_id = client.start(SLUG)
        switched = client.act(PRACTICE, version=0, htmx=False)
        assert switched.status_code == 303
        assert is_practice(state_of(store, game_id)) and practice_column(store, game_id) == 1
        page = Page(client.get(f"/g/{game_id}").data)
        assert switch_form(page) is None and page.select("#practice .practice-on")
        again = client.act(PRACTICE, version=1)
        assert again.status_code == 422 and "practice already" in again.get_data(as_text=True)
        assert store.load(game_id).version == 1

    def test_undo_goes_back_past_a_reveal_only_in_practice(self, seat_client, store):
        client = seat_client()
        game_id = client.start(SLUG, practice="1")
        rules = rules_engine.get(SLUG)
        dealt = state_of(store, game_id)
        move = rules.legal_actions(dealt, "p1")[0]
        client.version = 1
        assert client.act(move).status_code == 200
        assert client.act({"type": "undo"}, version=2).status_code == 200
        assert rules.dump(state_of(store, game_id))["undo"]["moves"] == []
        assert state_of(store, game_id)["hand"] == dealt["hand"]


class TestRankedAttempts:
    def test_a_daily_first_attempt_offers_no_switch_and_the_server_refuses_one(self, seat_client, store, clock):
        ann = seat_client()
        game_id = take(ann, f"/daily/{SLUG}", name="Ann")
        assert switch_form(Page(ann.get(f"/g/{game_id}").data)) is None
        before = store.load(game_id)
        refused = ann.act(PRACTICE, version=0)
        assert refused.status_code == 422
        assert deals.RANKED_NO_PRACTICE in Page(refused.data).text("[role=alert]")
        after = store.load(game_id)
        assert (after.version, after.snapshot) == (before.version, before.snapshot)
        assert store.actions(game_id) == [] and practice_column(store, game_id) == 0

    def test_a_challenges_attempt_is_ranked_and_refuses_the_switch(self, seat_client, store):
        ann = at_address(seat_client(), "203.0.113.1")
        finished_game(ann, store)
        link = challenge_from(ann)
        bea = at_address(seat_client(), "203.0.113.2")
        attempt = take(bea, link)
        assert switch_form(Page(bea.get(f"/g/{attempt}").data)) is None
        assert bea.act(PRACTICE, version=0).status_code == 422

    def test_a_practice_attempt_may_switch_and_is_labelled_practice_everywhere(self, seat_client, store, clock):
        ann = seat_client()
        first = take(ann, f"/daily/{SLUG}", name="Ann")
        resign(ann, store)
        second = take(ann, f"/daily/{SLUG}", name="Ann")  # not ranked: the deal's second attempt
        assert switch_form(Page(ann.get(f"/g/{second}").data)) is not None
        assert ann.act(PRACTICE, version=0).status_code == 200
        resign(ann, store)
        rows = {a.game_id: a for a in deals.attempts(store, deals.daily_deal(SLUG, clock["today"]))}
        assert rows[first].ranked and not rows[second].ranked and rows[second].practice_mode
        end = Page(ann.get(f"/g/{second}").data)
        assert "practice mode" in end.text("#deal-placement")
        assert "Practice" in end.text("#practice-note")


class TestNeverRanked:
    def test_a_challenge_made_from_a_practice_game_does_not_rank_it(self, seat_client, store):
        ann = seat_client()
        ann.start(SLUG, practice="1")
        resign(ann, store)
        link = challenge_from(ann)
        source = next(a for a in deals.attempts(store, deals.challenge_deal(link.rsplit("/", 1)[1])))
        assert source.game_id == ann.game_id and not source.ranked
        row = Page(seat_client().get(link).data).one("#board tbody tr")
        assert "practice" in row.get_text(" ", strip=True)

    def test_a_practice_game_is_left_out_of_the_browsers_record_and_its_end_says_so(self, seat_client, store):
        client = seat_client()
        client.start(SLUG)
        resign(client, store)
        counted = client.game_id
        client.start(SLUG, practice="1")
        resign(client, store)
        record = browsers.records(store, browsers_key(client))[SLUG]
        assert record.played == 1
        assert browsers.standing(store, browsers_key(client), SLUG, client.game_id) is None
        end = Page(client.get(f"/g/{client.game_id}").data)
        assert "not ranked" in end.text("#practice-note")
        assert end.select("[data-best]") == []  # no record line for a game the record leaves out
        assert Page(client.get(f"/g/{counted}").data).select("#practice-note") == []

    def test_playing_a_practice_game_again_is_practice_too(self, seat_client, store):
        client = seat_client()
        client.start(SLUG, practice="1")
        resign(client, store)
        response = client.http.post(f"/g/{client.game_id}/rematch", data={"csrf_token": client.csrf})
        again = response.headers["Location"].rsplit("/", 1)[-1]
        assert is_practice(state_of(store, again)) and practice_column(store, again) == 1


def browsers_key(client) -> str:
    """The store's key of this client's browser (its id's hash), as the pages read it."""
    cookie = client.http.get_cookie(viewer.BROWSER_COOKIE_NAME)
    with client.app.test_request_context(headers={"Cookie": f"{viewer.BROWSER_COOKIE_NAME}={cookie.value}"}):
        key = viewer.browser_key()
    assert key is not None
    return key


def logs_by_step(store, game_id) -> list[list[tuple[int, str]]]:
    """Every step's whole log (everything seen), replayed through the engine."""
    record = store.load(game_id)
    rules = rules_engine.get(record.slug)
    state = rules.new_game(record.seed, record.players, record.options)
    logs = [[(e["seq"], e["text"]) for e in rules.full_view(state)["log"]]]
    for _seq, seat, action in store.actions(game_id):
        state = rules.apply(state, seat, action)
        logs.append([(e["seq"], e["text"]) for e in rules.full_view(state)["log"]])
    return logs


@pytest.fixture
def undone_game(seat_client, store):
    """A finished practice game of Clear the Dungeon whose log holds a practice action and undos
    that took moves back (so later moves wrote log lines under the numbers the undone ones had)."""
    client = seat_client()
    client.start(SLUG, practice="1")
    rules = rules_engine.get(SLUG)
    rng = random.Random(5)
    for kind in ("move", "move", "move", "undo", "undo", "move", "move"):
        record = store.load(client.game_id)
        state = rules.load(record.snapshot)
        # Cards played, never a turn ended: five hits could end the game before the undos.
        legal = [a for a in rules.legal_actions(state, "p1") if a["type"] != "resign"]
        plays = [a for a in legal if a["type"] == "play"]
        action = {"type": "undo"} if kind == "undo" else rng.choice(plays or legal)
        client.version = record.version
        assert client.act(action).status_code == 200
    resign(client, store)
    return client


class TestReplaysWithUndo:
    def test_each_log_line_opens_the_step_from_which_it_stands(self, undone_game, store):
        client = undone_game
        logs = logs_by_step(store, client.game_id)
        final = logs[-1]
        page = Page(client.get(f"/g/{client.game_id}/replay").data)
        links = page.select(".replay-log li a")
        assert len(links) == len(final)
        for link, line in zip(links, final, strict=True):
            opened = client.http.get(link["href"])
            step = int(opened.headers["Location"].rsplit("step=", 1)[1])
            # The line is in the log from that step to the end, and was not the step before.
            assert all(line in log for log in logs[step:]), (line, step)
            assert step == 0 or line not in logs[step - 1]

    def test_a_step_says_what_it_did_and_marks_only_lines_that_stand_by_then(self, undone_game, store):
        client = undone_game
        logs = logs_by_step(store, client.game_id)
        moved_then_undone = 4  # the third move: undone two steps later
        page = Page(client.get(f"/g/{client.game_id}/replay?step={moved_then_undone}").data)
        written = [text for seq, text in logs[moved_then_undone] if (seq, text) not in logs[moved_then_undone - 1]]
        assert written
        now = "".join(page.text("#replay-now").split())
        for text in written:
            assert "".join(Page(f"<p>{pretty_cards(text)}</p>").text("p").split()) in now
        stands = {line for line in logs[-1] if all(line in log for log in logs[moved_then_undone:])}
        past = page.select(".replay-log li.past")
        assert len(past) == len(stands)
        undo_step = Page(client.get(f"/g/{client.game_id}/replay?step=5").data)
        assert "Undo" in undo_step.text("#replay-now")
        assert (
            Page(client.get(f"/g/{client.game_id}/replay?step=1").data)
            .text("#replay-now")
            .endswith("Switch to practice.")
        )

    def test_the_file_imports_into_the_same_practice_game(self, undone_game, seat_client, store):
        client = undone_game
        document = client.http.get(f"/g/{client.game_id}/replay.json").get_json()
        kinds = [item["action"]["type"] for item in document["actions"]]
        assert kinds[0] == "practice" and kinds.count("undo") == 2
        other = seat_client()
        other.get("/replays/import")
        imported = other.http.post(
            "/replays",
            data={"csrf_token": other.csrf, "file": (io.BytesIO(json.dumps(document).encode()), "game.json")},
            content_type="multipart/form-data",
        )
        assert imported.status_code == 303, imported.get_data(as_text=True)
        new_id = imported.headers["Location"].split("/g/")[1].split("/")[0]
        assert store.load(new_id).snapshot == store.load(client.game_id).snapshot
        assert is_practice(state_of(store, new_id))
        replay_page = Page(other.get(imported.headers["Location"]).data)
        assert "practice" in replay_page.text("#replay-note").lower()


def test_a_practice_escape_writes_no_hall_of_fame_entry(app, seat_client, store):
    """The Hall of Fame's writer skips a practice game (Dungeon Cards alone can be switched to one)."""
    table = DungeonCardsTable(app, seat_client)
    game = play.load_game(store, table.game_id)
    entry = fame_entry("p1")
    escaped = dict(game.state, hall_of_fame=[entry])
    with store.engine.begin() as conn:
        hall_of_fame.record_escapes(conn, game, "p1", {}, dict(escaped, undo={"practice": True}), 0.0)
    assert hall_of_fame.entries(store, set_deals=True) == []
    with store.engine.begin() as conn:  # the same escape, not practice: written
        hall_of_fame.record_escapes(conn, game, "p1", {}, escaped, 0.0)
    assert len(hall_of_fame.entries(store, set_deals=True)) == 1


def test_dungeon_cards_alone_offers_the_switch_and_a_party_does_not(app, seat_client, store):
    alone = DungeonCardsTable(app, seat_client)
    page = Page(alone.host.get(f"/g/{alone.game_id}").data)
    fields = switch_form(page)
    assert fields is not None
    assert alone.host.act(PRACTICE, version=int(fields["version"]), htmx=False).status_code == 303
    assert is_practice(state_of(store, alone.game_id)) and practice_column(store, alone.game_id) == 1
    party = DungeonCardsTable(app, seat_client, classes=("swordsman", "rogue"))
    assert switch_form(Page(party.host.get(f"/g/{party.game_id}").data)) is None
