"""No internal codes in anything a player reads: every game played at random through the web, for
a few seeds, as each seat's browser sees it, with no log line, button, status or label naming a
place the way the engine stores it ("r7c1", "[9, 8]") or offering a one-choice range ("1–1").

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
READ_ATTRIBUTES = ("aria-label", "title", "alt")
STEPS = 50
SAYS_WHERE = {
    "clear-the-dungeon": r"revealed in row \d|Play \S+ on the [JQK]",
    "hebracs-dungeon": r"chamber",
    "shuffle-and-doom": r"[Mm]ove",
}
"""What each solo game says where something is, so a run that never got that far fails."""
QUITTING = ("resign", "leave", "give_up")
"""Taken only when nothing else is offered: a random player who gives up early reads little."""


def words(body: str) -> list[str]:
    """Every piece of a page a player reads: its text, then the read-out attributes."""
    page = Page(body)
    for hidden in page.select("script, style"):
        hidden.decompose()
    out = [page.text()]
    for attribute in READ_ATTRIBUTES:
        out += [str(tag[attribute]) for tag in page.select(f"[{attribute}]")]
    return out


def assert_plain(body: str, where: str) -> None:
    for text in words(body):
        found = INTERNAL_CODES.search(text)
        assert found is None, f"{where}: internal code {found.group(0)!r} in {text[:300]!r}"


def pick(rng: random.Random, offers: list[tuple[str, dict]]) -> tuple[str, dict]:
    keep = [offer for offer in offers if offer[1]["type"] not in QUITTING]
    return rng.choice(keep or offers)


def play_at_random(clients: dict, store, rng: random.Random, label: str) -> str:
    """Each step: read every seat's board, then one seat presses one of its buttons at random.
    Returns everything the seats read, for the caller to check the game said what it should."""
    read = []
    for step in range(STEPS):
        offers = []
        for seat, client in clients.items():
            body = client.board().get_data(as_text=True)
            assert_plain(body, f"{label}, step {step}, {seat}'s board")
            read += words(body)
            offers += [(seat, button.action) for button in Page(body).buttons()]
        if not offers:
            break
        seat, action = pick(rng, offers)
        # Another seat's action moved the game on since this seat's board was read.
        clients[seat].version = store.load(clients[seat].game_id).version
        response = clients[seat].act(action)
        assert response.status_code == 200, response.get_data(as_text=True)
        assert_plain(response.get_data(as_text=True), f"{label}, step {step}, {seat}'s answer to {action}")
    for seat, client in clients.items():
        assert_plain(client.get(f"/g/{client.game_id}").get_data(as_text=True), f"{label}, {seat}'s last page")
    return "\n".join(read)


def test_the_pattern_catches_the_codes_it_is_for():
    for code in ("r7c1 revealed: K♣", "came into view at [9, 8]", "at [9,8]", "Pick a card (1–1)", "(2-2)"):
        assert INTERNAL_CODES.search(code), code
    for plain in ("K♣ revealed in row 7, left", "3 steps north of you", "Pick a card (1–3)", "Hit 3/5"):
        assert not INTERNAL_CODES.search(plain), plain


@pytest.mark.parametrize("slug", ["clear-the-dungeon", "hebracs-dungeon", "shuffle-and-doom"])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_solo_game_played_at_random_reads_in_plain_words(seat_client, store, slug, seed):
    # The deal is the server's; the failure message quotes the text that broke the rule.
    player = seat_client()
    player.start(slug)
    read = play_at_random({"p1": player}, store, random.Random(seed), f"{slug} seed {seed}")
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
    assert play_at_random(table.clients, table.store, random.Random(seed), f"dungeon cards seed {seed}")
