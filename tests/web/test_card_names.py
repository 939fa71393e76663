"""Cards are named the way people read and hear them, never by the codes the engine stores ("3S").

Every game played at random through the web, as each seat's browser sees it: no card code and no
joker drawn as a jack ("J★") in the page's text or the attributes read out or shown on hover; the
live region a screen reader speaks names cards in words ("3 of spades", "the joker"), without suit
symbols. The end panel, and the daily page that quotes a finished game's result, too. Codes in
markup the player never reads (data-*, the action's JSON) are the code's, not the player's."""

from __future__ import annotations

import random
import re

import pytest

from tests.engine.test_shuffle_and_doom import act, given_state
from tests.page import Page, squash
from tests.web.test_dungeon_cards_web import Table as CardsTable
from tests.web.test_dungeon_of_doom_web import Table as DoomTable
from tests.web.test_plain_words import QUITTING, pick, words
from tests.web.test_replays import play_to_the_end as play_quickly_to_the_end

CARD_CODE = re.compile(r"\b(10|[2-9AJQK])[SHDC]\b|\bJK\b|J★")
SUIT_SYMBOL = re.compile(r"[♠♥♦♣★]")
NAMED_CARD = re.compile(r"\b(ace|king|queen|jack|10|[2-9]) of (spades|hearts|diamonds|clubs)\b|\bjoker\b")
STEPS = 80
"""Most random solo games end sooner; one still running then gives up at its last step, so its
end panel is read too (a random walk can wander cleared rooms for hundreds of steps, each step
reading every board: the walk's length is the test's cost)."""

SMALL = {"shuffle-and-doom": {"size": "5"}}
"""A small dungeon tells every kind of sentence of a big one, in a third of the steps."""


def assert_named(body: str | Page, where: str) -> str:
    """The page holds no card code where it is read; its live region names cards in words.
    Returns what the live region says. (Given a parsed ``Page``, it reads that one and drops its
    scripts and styles: a walk parses each board once.)"""
    page = body if isinstance(body, Page) else Page(body)
    spoken = " ".join(page.texts("#announcer"))
    for text in words(page):
        found = CARD_CODE.search(text)
        assert found is None, f"{where}: card code {found.group(0)!r} in {text[:300]!r}"
    found = SUIT_SYMBOL.search(spoken)
    assert found is None, f"{where}: the live region says a symbol {found.group(0)!r}: {spoken[:300]!r}"
    return spoken


def play_to_the_end(clients: dict, store, rng: random.Random, label: str, steps: int = STEPS) -> str:
    """Each step every seat reads its board, then one seat presses a button at random, until no
    button is left or the steps run out. Returns everything the live regions said."""
    said = []
    for step in range(steps):
        offers = []
        marks = {}
        for seat, client in clients.items():
            board = Page(client.board().get_data(as_text=True))
            offers += [(seat, button.action) for button in board.buttons()]
            # The page says how much of the log it has shown: the answer's live region reads out the rest.
            marks[seat] = board.attr("#log-seen", "value")
            said.append(assert_named(board, f"{label}, step {step}, {seat}'s board"))
        if not offers:
            break
        quitting = [offer for offer in offers if offer[1]["type"] in QUITTING]
        seat, action = rng.choice(quitting) if quitting and step == steps - 1 else pick(rng, offers)
        clients[seat].version = store.load(clients[seat].game_id).version
        response = clients[seat].act(action, extra={"log_seen": marks[seat]})
        assert response.status_code == 200, response.get_data(as_text=True)
        said.append(assert_named(response.get_data(as_text=True), f"{label}, step {step}, {seat}'s answer to {action}"))
    for seat, client in clients.items():
        assert_named(client.get(f"/g/{client.game_id}").get_data(as_text=True), f"{label}, {seat}'s last page")
    return " ".join(said)


def test_the_patterns_catch_what_they_are_for():
    for coded in ("Killed by 3S and JS hitting back", "JK finishes the K♥", "You attack 10S", "J★", "9D 2S 5S AC"):
        assert CARD_CODE.search(coded), coded
    for plain in ("Killed by 3♠ and J♠ hitting back", "The joker finishes the K♥", "Room 3 is emptied", "10 damage"):
        assert not CARD_CODE.search(plain), plain
    assert SUIT_SYMBOL.search("You attack 10♠") and not SUIT_SYMBOL.search("You attack the 10 of spades")
    assert NAMED_CARD.search("the joker finishes the king of hearts")


@pytest.mark.parametrize("slug", ["clear-the-dungeon", "hebracs-dungeon", "shuffle-and-doom"])
# Two seeds a game: a third added half a minute to the suite and no kind of sentence the first
# two had not read (tests/web/test_plain_words.py scans the same games' wording too).
@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_a_solo_game_played_at_random_names_its_cards(seat_client, store, slug, seed):
    # The deal is the server's secret one: a game it ends within a few moves may name no card
    # aloud, so a second and a third deal are played before the run counts as proving nothing.
    said = ""
    for attempt in range(3):
        player = seat_client()
        player.start(slug, **SMALL.get(slug, {}))
        said = play_to_the_end({"p1": player}, store, random.Random(seed + attempt), f"{slug} seed {seed}")
        if NAMED_CARD.search(said):
            break
    # The live region did name cards, in words: a run that never spoke of one proves nothing.
    assert NAMED_CARD.search(said), f"{slug} seed {seed}: no card named aloud in three games"


@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_dungeon_cards_played_at_random_names_its_cards(app, seat_client, seed):
    table = CardsTable(app, seat_client, ("swordsman", "tank"), markers=None)
    said = play_to_the_end(table.clients, table.store, random.Random(seed), f"dungeon cards seed {seed}")
    assert NAMED_CARD.search(said), f"dungeon cards seed {seed}: no card named aloud"


@pytest.mark.slow
def test_the_dungeon_of_doom_played_at_random_names_no_card_by_its_code(app, seat_client):
    table = DoomTable(app, seat_client, players=2, seed=1)
    # It deals no cards: a hundred steps read every kind of its sentences for a stray code.
    play_to_the_end(table.clients, table.store, random.Random(1), "dungeon of doom", steps=100)


def test_shuffle_and_doom_says_who_killed_you_by_the_cards_names():
    s = given_state("M1", (3, 3), health=3, attack=8, draw=["QS", "5S", "4D"])
    s = act(act(s, "move", dir="E"), "attack", card="QS")
    assert s["result"]["text"].endswith("Killed by Q♠ and 5♠ hitting back: 9 damage against 3 health.")
    assert "Q♠ and 5♠ hit back for 9: health -6." in s["log"]


@pytest.mark.slow
def test_the_daily_page_quotes_a_finished_game_without_card_codes(seat_client, store):
    player = seat_client()
    player.get("/daily/shuffle-and-doom")
    response = player.http.post("/daily/shuffle-and-doom/play", data={"csrf_token": player.csrf, "name": "Ann"})
    assert response.status_code == 303, response.get_data(as_text=True)
    player.game_id = response.headers["Location"].rsplit("/", 1)[-1]
    # Played to its end by its buttons' actions without reading every board on the way (the
    # boards are read by the tests above): the daily page is what this test reads.
    play_quickly_to_the_end(player, store, seed=1)
    result = store.load(player.game_id).result
    assert result is not None, "the random daily game did not end"
    daily = player.get("/daily/shuffle-and-doom").get_data(as_text=True)
    assert_named(daily, "the daily page")
    # The page quotes the game's result sentence, cards and all.
    assert squash(result["text"]) in Page(daily).text("#main")
