"""Undo in every game, in the browser (issue 26): a move that can be taken back is played, the Undo
button takes it back, the same move again, and Ctrl+Z takes it back too; each time the board is
the one before the move (its log and its buttons). Which move can be taken back is the game's to
say: the test plays the page's own buttons, moves first, until the Undo button comes alive.

Screenshots of each game with its Undo control, alive and not, at 1280 × 800 and 390 × 844 go to
test-artifacts/screens/undo-<game>-<state>-<width>x<height>.png (git-ignored)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from e2e.test_clear_the_dungeon import start_game as start_clear_the_dungeon
from e2e.test_dungeon_cards import choose_class, start
from e2e.test_dungeon_cards import open_table as open_dungeon_cards_table
from e2e.test_hebracs_dungeon import DECK_A
from e2e.test_hebracs_dungeon import start_game as start_hebracs_dungeon
from e2e.test_shuffle_and_doom import start_game as start_shuffle_and_doom

SCREENS = Path(__file__).resolve().parent.parent / "test-artifacts" / "screens"  # git-ignored
SIZES = [(1280, 800), (390, 844)]
NOT_TRIED = ("resign", "leave", "leave_game", "practice", "end_turn")
"""Actions the search never plays: they end something, or switch the game to practice."""
MOST_MOVES = 10

# A long hall (tests/web/test_board_pushes.py's): the adventurer alone at its west end.
LONG_HALL = "name Long Hall\nwin 2\n############\n#G.........#\n#..#....#..#\n#..........#\n#....E....G#\n############"


def dungeon_of_doom(page):
    page.goto("/")
    card = page.locator("#game-dungeon-of-doom")
    card.get_by_label("Your name").fill("Ann")
    card.get_by_text("Options").click()
    card.get_by_label("Dungeon").select_option("custom")
    card.locator("#dod-map-text").fill(LONG_HALL)
    card.locator("form").evaluate(
        "(form, forced) => { const i = document.createElement('input'); i.type = 'hidden';"
        " i.name = 'test_options'; i.value = forced; form.appendChild(i); }",
        json.dumps({"start_positions": {"p1": [1, 2]}}),
    )
    card.get_by_role("button", name=re.compile("Open a")).click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))
    page.get_by_role("button", name=re.compile("Start the game")).click()
    expect(page.locator("#game.dod")).to_be_visible()


def dungeon_cards_alone(page):
    """A table of one whose player places the Exit and the Pit by hand: moves that show nothing."""
    open_dungeon_cards_table(page, "Ann", selects=[("Exit and Pit markers", "manual")])
    choose_class(page, "Ann", "soldier")
    start(page)


GAMES = {
    "shuffle-and-doom": lambda page: start_shuffle_and_doom(page, size=6),
    "clear-the-dungeon": start_clear_the_dungeon,
    "hebracs-dungeon": lambda page: start_hebracs_dungeon(page, DECK_A),
    "dungeon-of-doom": dungeon_of_doom,
    "dungeon-cards": dungeon_cards_alone,
}


def version(page):
    """The game's version the board was drawn at (a table's revision also moves with presence)."""
    return page.locator('#game input[name="version"]').first


def moved_on(page, before: str) -> None:
    expect(version(page)).to_have_value(str(int(before) + 1))


def board(page) -> dict:
    """What the board shows of the game: its log and the moves it offers."""
    return page.evaluate(
        """() => ({
             log: [...document.querySelectorAll("#log li")].map(li => li.textContent.trim()),
             moves: [...document.querySelectorAll("#game button[name=action]")].map(b => b.value).sort(),
           })"""
    )


def candidates(page) -> list[str]:
    """The page's action buttons the search may press, moves first."""
    values = page.evaluate(
        """() => [...document.querySelectorAll("#game button[name=action]:not([disabled]):not([data-confirm])")]
                   .map(b => b.value)"""
    )
    tried = [v for v in values if json.loads(v).get("type") not in NOT_TRIED]
    return sorted(tried, key=lambda v: json.loads(v).get("type") != "move")


def press(page, value: str) -> None:
    """Click the button that posts exactly this action's JSON, and wait for the next board."""
    before = version(page).input_value()
    page.evaluate(
        """value => [...document.querySelectorAll("#game button[name=action]")]
                      .find(b => b.value === value).click()""",
        value,
    )
    moved_on(page, before)


def play_until_undoable(page) -> tuple[str, dict]:
    """Play the page's buttons until the Undo button is alive: the last move, and the board before it."""
    undo = page.locator("#undo")
    for _move in range(MOST_MOVES):
        shown, choices = board(page), candidates(page)
        assert choices, "no move left to try"
        press(page, choices[0])
        if undo.count() and undo.is_enabled():
            return choices[0], shown
    pytest.fail(f"no move of the first {MOST_MOVES} could be undone")


def shoot(page, game: str, state: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.locator("#undo").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENS / f"undo-{game}-{state}-{width}x{height}.png"))
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


@pytest.mark.parametrize("game", GAMES)
def test_undo_button_and_ctrl_z_take_the_last_move_back(page, game, axe_check):
    GAMES[game](page)
    move, shown = play_until_undoable(page)
    expect(page.locator("#undo")).to_have_text(re.compile(r"^Undo \(\d+\)"))
    shoot(page, game, "alive")
    axe_check(page)

    before = version(page).input_value()
    page.locator("#undo").click()
    moved_on(page, before)
    expect(page.locator("#flash")).to_contain_text("Undone: ")
    assert board(page) == shown

    press(page, move)
    before = version(page).input_value()
    page.keyboard.press("Control+z")
    moved_on(page, before)
    expect(page.locator("#flash")).to_contain_text("Undone: ")
    assert board(page) == shown
    if page.locator("#undo[disabled]").count():
        expect(page.locator("#undo-why")).to_contain_text("Can't undo: ")
        shoot(page, game, "disabled")
        axe_check(page)
