"""Clear the Dungeon played to its end without sight (issue 28): screen-reader mode, typed
commands only, read back through the roles, labels and the live region (no CSS selector, no
test id), axe clean.

The deal is the stacked one in canonical order: the two jokers lie in row 7, so they start in
the hand (1 and 2) beside the ace, 2 and 3 of spades, facing the king of clubs and the queen of
clubs. Two jokers on the king, then two turns ended with cards in hand: the fifth hit ends it.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

import rules_engine
from e2e.reader import act, reader_mode, say

R = rules_engine.get("clear-the-dungeon")
DECK = " ".join(R.MONSTER_DECK + R.POWER_DECK)
GAME_URL = re.compile(r".*/g/[A-Za-z0-9_-]{20,}$")


def start_game(page) -> None:
    reader_mode(page)
    entry = page.get_by_role("listitem").filter(has=page.get_by_role("heading", name="Clear the Dungeon", exact=True))
    entry.get_by_role("group").click()  # the closed Options fold: its summary is all there is to click
    entry.get_by_label("Stacked deal").fill(DECK)
    entry.get_by_role("button", name="Play Clear the Dungeon").click()
    page.wait_for_url(GAME_URL)


def test_a_whole_game_by_typed_commands(page, axe_check):
    start_game(page)
    expect(page.get_by_role("heading", name="Command")).to_be_visible()
    say(page, "help", "play 1 kc: Play card 1, the joker, on the king of clubs: 10 of 13.")
    say(page, "where", "Facing you: Row 7, left: king of clubs (kc), power 13: no cards yet")
    say(page, "hand", "Your hand: 1: joker, worth 10; 2: joker, worth 10; 3: ace of spades, worth 1")
    # The dungeon as a grid of rows 1 to 3 places wide, walked with the keys.
    grid = page.get_by_role("grid", name="The dungeon, top row first")
    grid.get_by_role("gridcell", name="row 1, column 1: face down").focus()
    page.keyboard.press("PageDown")
    expect(grid.get_by_role("gridcell", name=re.compile(r"^row 7, column 1: king of clubs \(kc\)"))).to_be_focused()
    axe_check(page)

    act(page, "play 1 kc", "(10/13)")
    say(page, "hand", "Your hand: 1: joker, worth 10; 2: ace of spades")
    say(page, "plya 1 kc", 'Did you mean "play 1 kc"?')
    act(page, "play 1 kc", "(20/13)")
    say(page, "where", "joker and joker placed, 20 of 13; finish it with a club or a joker")
    act(page, "end", "3 cards discarded: hits 3/5")
    say(page, "status", "Turn 2")
    act(page, "end", "Fifth hit")
    say(page, "status", "Game over. Five hits after 2 turns.")
    axe_check(page)
