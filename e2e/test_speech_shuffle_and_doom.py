"""Shuffle and Doom! played to its end without sight (issue 28): screen-reader mode turned on by
its button, typed commands only, read back through roles, labels and the live regions (no CSS
selector, no test id), axe clean; the grid walked with the keys.

The stacked deal is e2e/test_shuffle_and_doom.py's: a 4 × 4 map whose first room holds the 6♠.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from e2e.reader import say

S2_DECK = "5C 8D 3H 9S 7D KS JS QH 6S"
GAME_URL = re.compile(r".*/g/[A-Za-z0-9_-]{20,}$")
SCREENS = Path(__file__).resolve().parents[1] / "test-artifacts" / "screens"


def start_game(page) -> None:
    page.goto("/")
    switch = page.get_by_role("button", name="Screen reader mode")
    # The first control of the page, as a blind player reaches it: Tab, then Enter.
    page.keyboard.press("Tab")
    expect(switch).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Screen reader mode")).to_have_attribute("aria-pressed", "true")
    entry = page.get_by_role("listitem").filter(has=page.get_by_role("heading", name="Shuffle and Doom!", exact=True))
    entry.get_by_role("group").click()  # the closed Options fold
    entry.get_by_label("Grid size").fill("4")
    entry.get_by_label("Stacked deal").fill(S2_DECK)
    entry.get_by_role("button", name="Play Shuffle and Doom!").click()
    page.wait_for_url(GAME_URL)


def test_a_whole_game_by_typed_commands(page, axe_check):
    start_game(page)
    expect(page.get_by_role("heading", name="Your choices")).to_be_visible()
    axe_check(page)
    say(page, "status", "Choose the set")
    say(page, "chose top", 'Did you mean "choose top"?')
    say(page, "choose top", "Choose the top set")
    say(page, "give 1 attack", "Give 8 of diamonds to attack")
    say(page, "where", "in room 1, fighting: 1: 6 of spades, an enemy of strength 6")
    # The grid: walked with the keys, each cell read by its row and column; Y goes home.
    grid = page.get_by_role("grid", name="Dungeon map, 4 by 4")
    here = grid.get_by_role("gridcell", name="row 1, column 1: room 1, here, you are here")
    here.focus()
    page.keyboard.press("ArrowDown")
    expect(grid.get_by_role("gridcell", name=re.compile(r"^row 2, column 1: "))).to_be_focused()
    page.keyboard.press("PageDown")
    page.keyboard.press("End")
    expect(grid.get_by_role("gridcell", name=re.compile(r"^row 4, column 4: .*exit"))).to_be_focused()
    page.keyboard.press("y")
    expect(here).to_be_focused()
    say(page, "attack 1", "Attack 6 of spades")
    expect(page.get_by_role("log", name="Log")).to_contain_text("You attack 6 of spades")
    for direction in "eeesss":
        say(page, f"move {direction}", "Move")
    say(page, "score", "gold 8")
    axe_check(page)
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        SCREENS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENS / f"reader-shuffle-and-doom-{width}x{height}.png"), full_page=True)
    say(page, "exit", "Leave the dungeon with 8 gold")
    say(page, "status", "Game over.")
    expect(page.get_by_role("heading", name="You escaped!")).to_be_visible()
    say(page, "attack 1", "The game is over.")
    axe_check(page)
