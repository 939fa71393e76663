"""A finished game's replay in Chromium: the step buttons, the keyboard, autoplay, the log's links,
the permalink, a seat's view, export then import, and phone sizes."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from e2e.test_shuffle_and_doom import S2_DECK, click_action, start_game

# The short game's actions after its first (taking the top set), in order: the whole game ends
# at the exit with 8 gold.
AFTER_THE_SET = [
    re.compile(r"8♦.*attack|attack.*8♦", re.I),
    re.compile(r"Attack 6♠"),
    *[re.compile(f"Move {direction}", re.I) for direction in ["east", "east", "east", "south", "south", "south"]],
    re.compile(r"exit|leave", re.I),
]


def play_the_short_game(page) -> str:
    """Shuffle and Doom's ten-action game on the stacked deal (see test_shuffle_and_doom.py)."""
    url = start_game(page, size=4, deck=S2_DECK)
    play_the_short_game_from_the_deal(page)
    return url


def play_the_short_game_from_the_deal(page) -> None:
    """The ten actions of that game, from its deal to its exit."""
    click_action(page, re.compile(r"top set", re.I))
    for step in AFTER_THE_SET:
        click_action(page, step)


def counter(page):
    return page.locator("#replay-counter")


def test_replay_steps_by_buttons_keys_autoplay_and_log_links(page, console_errors, axe_check):
    url = play_the_short_game(page)
    page.get_by_role("link", name=re.compile("Watch the replay")).click()
    expect(counter(page)).to_have_text("Step 0 of 10")
    expect(page.locator("#replay-now")).to_contain_text("as dealt")
    # What was hidden: the draw pile's order, revealed now the game is over.
    expect(page.locator(".replay-revealed")).to_contain_text("Draw pile")
    axe_check(page)

    page.get_by_role("link", name="Next").click()
    expect(counter(page)).to_have_text("Step 1 of 10")
    expect(page).to_have_url(re.compile(r"/replay\?step=1$"))
    expect(page.locator("#replay-now")).to_contain_text("top set")

    # The keyboard: arrows step (focus stays on the control), End and Home jump.
    page.keyboard.press("ArrowRight")
    expect(counter(page)).to_have_text("Step 2 of 10")
    page.keyboard.press("End")
    expect(counter(page)).to_have_text("Step 10 of 10")
    expect(page.locator("#game .result")).to_be_visible()
    page.keyboard.press("Home")
    expect(counter(page)).to_have_text("Step 0 of 10")
    page.get_by_role("link", name="Next").focus()
    page.keyboard.press("Enter")
    expect(counter(page)).to_have_text("Step 1 of 10")
    expect(page.locator("#replay-next")).to_be_focused()

    # A log line jumps to the step it happened at.
    page.locator(".replay-log a", has_text="Room 1 is emptied").click()
    expect(counter(page)).to_have_text("Step 3 of 10")
    expect(page.locator(".replay-log li.now")).to_have_text(
        [re.compile("You attack 6♠"), re.compile("Room 1 is emptied")]
    )

    # Autoplay at the fastest speed runs to the end by itself, then stops.
    page.get_by_label("Speed").select_option("4")
    page.get_by_role("button", name=re.compile("Play")).click()
    expect(counter(page)).to_have_text("Step 10 of 10", timeout=15000)
    expect(page.locator("#replay-autoplay")).to_be_disabled()

    # The permalink opens that step; a reload keeps it.
    page.goto(url + "/replay?step=4")
    expect(counter(page)).to_have_text("Step 4 of 10")
    expect(page.locator("#replay-link")).to_have_value(re.compile(r"/replay\?step=4$"))
    page.get_by_role("link", name="Adventurer").click()
    expect(page.locator("#replay-note")).to_contain_text("only what they could see")
    expect(page.locator(".replay-revealed")).to_have_count(0)

    # Space plays (and pauses) from anywhere on the page but a control of its own.
    page.goto(url + "/replay?step=8")
    page.locator("h1").click()
    page.keyboard.press("Space")
    expect(page.locator("#replay-autoplay")).to_have_attribute("aria-pressed", "true")
    expect(counter(page)).to_have_text("Step 10 of 10", timeout=10000)
    assert console_errors == []


def test_a_downloaded_game_imports_and_a_broken_one_is_refused(page, tmp_path, console_watch):
    console_watch.allow_4xx_answers("the broken file is refused with a 400 on purpose")
    url = play_the_short_game(page)
    page.goto(url + "/replay")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download this game (JSON)").click()
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    document = json.loads(saved.read_text())
    assert len(document["actions"]) == 10

    page.get_by_role("link", name="Import a game file").click()
    page.get_by_label("Game file (.json)").set_input_files(str(saved))
    page.get_by_role("button", name="Import and watch").click()
    expect(counter(page)).to_have_text("Step 0 of 10")
    expect(page.locator("#replay-note")).to_contain_text("Imported from a file")

    document["actions"][4]["action"] = {"type": "move", "dir": "N"}
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(document))
    page.goto("/replays/import")
    page.get_by_label("Game file (.json)").set_input_files(str(broken))
    page.get_by_role("button", name="Import and watch").click()
    expect(page.get_by_role("alert")).to_contain_text("Action 5 (")


def test_replay_on_phones_keeps_the_steps_and_the_board_in_view(browser, base_url, axe_check):
    for width, height in ((390, 844), (360, 740)):
        context = browser.new_context(base_url=base_url, viewport={"width": width, "height": height})
        page = context.new_page()
        url = play_the_short_game(page)
        page.goto(url + "/replay?step=3")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.locator(".p-map").scroll_into_view_if_needed()
        # The step buttons stay on screen while the map is looked at.
        box = page.locator("#replay-next").bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height
        page.locator("#replay-next").click()
        expect(counter(page)).to_have_text("Step 4 of 10")
        axe_check(page)
        context.close()
