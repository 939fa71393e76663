"""The first decision of every game is on screen as the game opens (issue 25.3): at the usual laptop
sizes and on two phones, the buttons the status line asks for and the cards they act on are inside
the window without a scroll.

A screenshot of each game at each size goes to test-artifacts/first-decision-<game>-<w>x<h>.png
(git-ignored) for a reviewer to look at."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from e2e.conftest import ARTIFACTS
from e2e.test_clear_the_dungeon import start_game as start_clear_the_dungeon
from e2e.test_dungeon_cards import open_table as open_dungeon_cards_table
from e2e.test_dungeon_cards import start as start_dungeon_cards
from e2e.test_phone_layouts import HIDDEN_OR_COVERED, settle
from e2e.test_shuffle_and_doom import FULL_S1
from e2e.test_shuffle_and_doom import start_game as start_shuffle_and_doom

LAPTOPS = [(1280, 720), (1366, 768), (1440, 900), (1280, 800)]
PHONES = [(390, 844), (360, 740)]

# A Queen on top of the deal: the first "Draw a card" opens a boss fight.
BOSS_FIRST = "QH 2C 9D 3S 7H 4D 8S 5C 10S 6D"


def shuffle_and_doom(page):
    start_shuffle_and_doom(page, deck=FULL_S1)
    expect(page.locator("#status")).to_contain_text("Choose the set of cards")
    return [(".p-sets .card-row .card", ".p-sets .actions button[name=action]")]


def clear_the_dungeon(page):
    start_clear_the_dungeon(page)
    return [("button.ctd-monster", "button.ctd-hand-card")]


def hebracs_dungeon(page):
    page.goto("/")
    page.locator("#game-hebracs-dungeon").get_by_role("button", name="Play Hebrac's Dungeon").click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))
    return [(".chamber:has(button.enter)", ".chamber button.enter")]


def dungeon_cards(page):
    open_dungeon_cards_table(page, "Ann", deck=BOSS_FIRST)
    page.locator('button[name="classes"][value="ninja"]').click()
    expect(page.locator('button[name="classes"][value="ninja"]')).to_have_attribute("aria-pressed", "true")
    start_dungeon_cards(page)
    expect(page.locator("#status")).to_contain_text("Your move")
    return [(".dc-board", "#game button.big-draw")]


def dungeon_cards_boss_fight(page):
    dungeon_cards(page)
    page.get_by_role("button", name=re.compile("Draw a card")).click()
    expect(page.locator("#duel-title")).to_contain_text("against the Queen")
    return [(".duel-boss .card", ".fight-actions button")]


def dungeon_of_doom(page):
    page.goto("/")
    entry = page.locator("#game-dungeon-of-doom")
    entry.get_by_label("Your name").fill("Ann")
    entry.get_by_role("button", name=re.compile("Open a")).click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))
    page.get_by_role("button", name=re.compile("Start the game")).click()
    expect(page.locator("#status")).to_contain_text("Your turn")
    return [("svg.dungeon", ".p-moves .dpad button")]


GAMES = {
    "shuffle-and-doom": shuffle_and_doom,
    "clear-the-dungeon": clear_the_dungeon,
    "hebracs-dungeon": hebracs_dungeon,
    "dungeon-cards": dungeon_cards,
    "dungeon-cards-boss-fight": dungeon_cards_boss_fight,
    "dungeon-of-doom": dungeon_of_doom,
}


def out_of_view(page, game, width, height, checks) -> list[str]:
    """The game opened at this size: what of its decision is outside the window or under a docked
    panel. The page is loaded again at the size, as a player opens it: from its top, with whatever
    scroll the page's own script makes on opening."""
    page.set_viewport_size({"width": width, "height": height})
    page.goto(page.url)
    expect(page.locator("#game")).to_be_visible()
    settle(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"first-decision-{game}-{width}x{height}.png"))
    problems = []
    for targets, controls in checks:
        assert page.locator(targets).count() and page.locator(controls).count(), (targets, controls)
        problems += page.evaluate(HIDDEN_OR_COVERED, targets) + page.evaluate(HIDDEN_OR_COVERED, controls)
    return [f"{width}x{height}: {p}" for p in problems]


@pytest.mark.parametrize("game", list(GAMES))
def test_the_first_decision_is_on_screen_without_a_scroll(browser, base_url, game):
    problems = []
    # A laptop's mouse and a phone's finger: phone pages are told they are touch screens, as a
    # phone's browser tells them (a finger has no keys, so key hints may give way).
    for sizes, device in ((LAPTOPS, {}), (PHONES, {"is_mobile": True, "has_touch": True})):
        width, height = sizes[0]
        context = browser.new_context(base_url=base_url, viewport={"width": width, "height": height}, **device)
        try:
            page = context.new_page()
            checks = GAMES[game](page)
            for width, height in sizes:
                problems += out_of_view(page, game, width, height, checks)
        finally:
            context.close()
    assert problems == [], "\n".join(problems)
