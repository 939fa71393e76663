"""Dungeon Cards played to its end without sight (issue 28): screen-reader mode, typed commands
only, read back through the roles, labels and the live region (no CSS selector, no test id), axe
clean.

A solo Swordsman on a stacked deal with hand-placed markers (the deal of e2e/test_dungeon_cards.py):
the Exit goes on column 5, row 8, right above the start; the first card is the Jack, beaten in
three exchanges; +1 Speed, then the 6 of diamonds moves up 7 onto the Exit.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.reader import reader_mode, say

ESCAPE = "JH 2C 9D 3S 7H 4D 8S 6D"
GAME_URL = re.compile(r".*/g/[A-Za-z0-9_-]{20,}$")


def open_table(page) -> None:
    reader_mode(page)
    entry = page.get_by_role("listitem").filter(has=page.get_by_role("heading", name="Dungeon Cards", exact=True))
    entry.get_by_label("Your name").fill("Ann")
    entry.get_by_role("group").click()  # the closed Options fold
    entry.get_by_label("Exit and Pit markers").select_option("manual")
    entry.get_by_label("Stacked deal").fill(ESCAPE)
    entry.get_by_label("Shuffles").select_option("stacked")
    entry.get_by_role("button", name="Open a Dungeon Cards table").click()
    page.wait_for_url(GAME_URL)


def test_a_solo_escape_by_typed_commands(page, axe_check):
    open_table(page)
    page.get_by_role("button", name=re.compile("Swordsman")).click()
    page.get_by_role("button", name=re.compile("Start the game")).click()
    expect(page.get_by_role("heading", name="Command")).to_be_visible()
    say(page, "status", "Setting up the board: the host places the markers.")
    say(page, "exit 5 8", "Put an Exit on column 5, row 8.")
    say(page, "where", "The start is on column 5, row 1. The Exit is on column 5, row 8.")
    say(page, "pit 8 8", "Put a Pit on column 8, row 8.")
    say(page, "where", "A Pit: 7 squares up and 3 right, on column 8, row 8. The edges: 9 up, 0 down, 4 left, 5 right.")
    say(page, "status", "your turn. Now: draw a card.")
    axe_check(page)

    say(page, "draw", "Draw a card.")
    say(page, "status", "A fight: the Jack has 3 of 3 lives; fighting it: you.")
    say(page, "drwa", 'Did you mean "draw"?')
    say(page, "draw all", "Draw until the fight is decided.")
    say(page, "help", "gain lives: Take one more life, and one more maximum. gain speed: Take one more Speed.")
    say(page, "gain speed", "+1 Speed")
    say(page, "hand", "You hold no cards: each turn you draw one and it moves you.")
    say(page, "score", "You, the Swordsman: level 2")
    say(page, "draw", "Draw a card.")
    expect(page.get_by_role("log", name="Log")).to_contain_text(re.compile("moved up 7|escape"))
    say(page, "status", "The game is over. Victory: Ann escaped the dungeon.")
    say(page, "draw", "The game is over. Type status or score to hear how it ended.")
    axe_check(page)
