"""No internal codes in anything a player reads: every game played at random through the web, for
a few seeds, as each seat's browser sees it, with no log line, button, status or label naming a
place the way the engine stores it ("r7c1", "[9, 8]", "(5,8)") or offering a one-choice range ("1–1").

The page's words are its text and the attributes read out or shown on hover (aria-label, title,
alt); markup attributes the player never reads (data-*, the action's JSON) may hold codes."""

from __future__ import annotations

import random
import re

import pytest

from tests.page import Page
from tests.web.test_dungeon_cards_web import Table as CardsTable
from tests.web.test_dungeon_of_doom_web import Table as DoomTable

INTERNAL_CODES = re.compile(r"\br\d+c\d+\b|\[\d+, ?\d+\]|\((\d+)\s*[–-]\s*\1\)")
BARE_SQUARES = re.compile(rf"{INTERNAL_CODES.pattern}|\(\d+, ?\d+\)")
"""The codes, and a square as a bare pair: for the games whose boards label their rows and columns,
so a place is named as those labels read ("row 1, column 2")."""
LABELLED_BOARDS = {"shuffle-and-doom", "dungeon-cards"}
READ_ATTRIBUTES = ("aria-label", "title", "alt")
STEPS = 50
SAYS_WHERE = {
    "clear-the-dungeon": r"revealed in row \d|Play \S+ on the [JQK]",
    "hebracs-dungeon": r"chamber",
    "shuffle-and-doom": r"row \d+, column \d+",
}
"""What each solo game says where something is, so a run that never got that far fails."""
QUITTING = ("resign", "leave", "give_up")
"""Taken only when nothing else is offered: a random player who gives up early reads little."""


def words(body: str | Page) -> list[str]:
    """Every piece of a page a player reads: its text, then the read-out attributes (a parsed
    ``Page`` given loses its scripts and styles)."""
    page = body if isinstance(body, Page) else Page(body)
    for hidden in page.select("script, style"):
        hidden.decompose()
    out = [page.text()]
    for attribute in READ_ATTRIBUTES:
        out += [str(tag[attribute]) for tag in page.select(f"[{attribute}]")]
    return out


def assert_plain(body: str, where: str, codes: re.Pattern[str] = INTERNAL_CODES) -> None:
    for text in words(body):
        found = codes.search(text)
        assert found is None, f"{where}: internal code {found.group(0)!r} in {text[:300]!r}"


def pick(rng: random.Random, offers: list[tuple[str, dict]]) -> tuple[str, dict]:
    keep = [offer for offer in offers if offer[1]["type"] not in QUITTING]
    return rng.choice(keep or offers)


def play_at_random(clients: dict, store, rng: random.Random, label: str, codes=INTERNAL_CODES) -> str:
    """Each step: read every seat's board, then one seat presses one of its buttons at random.
    Returns everything the seats read, for the caller to check the game said what it should."""
    read = []
    for step in range(STEPS):
        offers = []
        for seat, client in clients.items():
            body = client.board().get_data(as_text=True)
            assert_plain(body, f"{label}, step {step}, {seat}'s board", codes)
            read += words(body)
            offers += [(seat, button.action) for button in Page(body).buttons()]
        if not offers:
            break
        seat, action = pick(rng, offers)
        # Another seat's action moved the game on since this seat's board was read.
        clients[seat].version = store.load(clients[seat].game_id).version
        response = clients[seat].act(action)
        assert response.status_code == 200, response.get_data(as_text=True)
        assert_plain(response.get_data(as_text=True), f"{label}, step {step}, {seat}'s answer to {action}", codes)
    for seat, client in clients.items():
        last_page = client.get(f"/g/{client.game_id}").get_data(as_text=True)
        assert_plain(last_page, f"{label}, {seat}'s last page", codes)
    return "\n".join(read)


def test_the_pattern_catches_the_codes_it_is_for():
    codes = ("r7c1 revealed: K♣", "came into view at [9, 8]", "at [9,8]", "Pick a card (1–1)", "(2-2)")
    bare_squares = ("You move east to (1,2).", "Retreat to (4, 4)", "Put an Exit on (5,8)")
    for code in codes:
        assert INTERNAL_CODES.search(code) and BARE_SQUARES.search(code), code
    for code in bare_squares:
        assert BARE_SQUARES.search(code), code
    plain_squares = ("You move east to row 1, column 2.", "Put an Exit on column 5, row 8", "Speed (2)")
    for plain in ("K♣ revealed in row 7, left", "3 steps north of you", "Pick a card (1–3)", "Hit 3/5", *plain_squares):
        assert not INTERNAL_CODES.search(plain) and not BARE_SQUARES.search(plain), plain


@pytest.mark.parametrize("slug", ["clear-the-dungeon", "hebracs-dungeon", "shuffle-and-doom"])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_solo_game_played_at_random_reads_in_plain_words(seat_client, store, slug, seed):
    # The deal is the server's; the failure message quotes the text that broke the rule.
    player = seat_client()
    player.start(slug)
    codes = BARE_SQUARES if slug in LABELLED_BOARDS else INTERNAL_CODES
    read = play_at_random({"p1": player}, store, random.Random(seed), f"{slug} seed {seed}", codes)
    # The places the old codes named are still named, in words.
    assert re.search(SAYS_WHERE[slug], read), f"{slug} seed {seed}: no place named at all"


@pytest.mark.parametrize("seed,map_choice", [(1, "duelling-hall"), (2, "duelling-hall"), (3, "random-S")])
def test_the_dungeon_of_doom_played_at_random_reads_in_plain_words(app, seat_client, seed, map_choice):
    table = DoomTable(app, seat_client, players=3, map_choice=map_choice, seed=seed)
    read = play_at_random(table.clients, table.store, random.Random(seed), f"dungeon of doom seed {seed}")
    assert re.search(r"came into view \d+ steps? (north|south|east|west)", read)


@pytest.mark.parametrize("seed", [1, 2])
def test_dungeon_cards_played_at_random_reads_in_plain_words(app, seat_client, seed):
    table = CardsTable(app, seat_client, ("swordsman", "tank"), markers=None)
    read = play_at_random(table.clients, table.store, random.Random(seed), f"dungeon cards seed {seed}", BARE_SQUARES)
    # Squares are still named, the way the board's labels read them.
    assert re.search(r"column \d+, row \d+", read), f"dungeon cards seed {seed}: no square named at all"
