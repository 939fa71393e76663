"""Hebrac's Dungeon played to its end without sight (issue 28): screen-reader mode, typed
commands only, read back through the roles, labels and the live region (no CSS selector, no
test id), axe clean.

A stacked deal (treasures of level 1 in reading order, then their enemies, then the Hand
Deck): the top row holds the four legendary treasures, three of them in empty chambers and one
guarded by a mercenary of life 2, who falls to the first attack card (a 5). Four chambers
entered and one battle won: victory.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.reader import act, reader_mode, say

DECK = " ".join(["AH", "AD", "AS", "AC"] + ["2H"] * 8 + ["AH", "2S", "AS", "AC"] + ["2S"] * 8 + ["5D"] * 6)
GAME_URL = re.compile(r".*/g/[A-Za-z0-9_-]{20,}$")


def start_game(page) -> None:
    reader_mode(page)
    entry = page.get_by_role("listitem").filter(has=page.get_by_role("heading", name="Hebrac's Dungeon", exact=True))
    entry.get_by_role("group").first.click()  # the closed Options fold: its summary is all there is to click
    entry.get_by_label("Stacked deal").fill(DECK)
    entry.get_by_role("button", name="Play Hebrac's Dungeon").click()
    page.wait_for_url(GAME_URL)


def test_a_whole_game_by_typed_commands(page, axe_check):
    start_game(page)
    say(page, "look", "You stand at the entrance of level 1. You can enter a corner: (1,1), (1,4), (3,1), (3,4).")
    say(page, "help", "enter 1 1: Enter chamber (1,1): unexplored, enemy face down, treasure face down.")
    axe_check(page)

    act(page, "enter 1 1", "the Ruby of Gaza")
    say(page, "where", "You are in chamber (1,1), cleared. North: the wall. East, (1,2): unexplored")
    # The level as a grid of chambers, walked with the keys; Y goes back to the player's chamber.
    grid = page.get_by_role("grid", name="Level 1, row by row")
    here = grid.get_by_role("gridcell", name="row 1, column 1: cleared, you are here")
    here.focus()
    page.keyboard.press("ArrowRight")
    expect(
        grid.get_by_role("gridcell", name=re.compile(r"^row 1, column 2: unexplored, enemy face down"))
    ).to_be_focused()
    page.keyboard.press("y")
    expect(here).to_be_focused()
    act(page, "enter 1 2", "fights you: life 2")
    say(page, "where", "You fight the 2 of spades, a mercenary: its life 2")
    say(page, "enter 1 3", "You cannot enter now. You can: attack")
    act(page, "attack", "the Bag of Meres")
    say(page, "hand", "Your bag: ace of hearts, the Ruby of Gaza; ace of diamonds, the Bag of Meres.")
    act(page, "enter 1 3", "the Bracelet of Armok")
    act(page, "enter 1 4", "victory")
    say(page, "status", "Game over. Victory! You hold the four legendary treasures.")
    axe_check(page)
