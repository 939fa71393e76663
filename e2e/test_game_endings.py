"""How games end, in the browser: a fatal move warns and asks first, a win looks like one (with
this browser's best score, kept by the server), a loss says why, and a spectator reads about the player in the
third person. Shuffle and Doom! on stacked deals."""

from __future__ import annotations

import re

from playwright.sync_api import expect

SHOTS = "/tmp/endings"

WIN_DECK = "5C 8D 3H 9S 7D KS JS QH 6S"  # a whole short game: one enemy, then out with 8 gold
# Top set K♣ 2♠ 6♦ K♦ (both diamonds to health: 9 health); the first room is traps 3♣ and Q♣
# (15 in all) over 6♥ and 3♥: taking either potion kills.
TRAP_DECK = (
    "KC 2S 6D KD 8D JD 4C 8C 3C 6H QC 3H AD QD 9C 4S 2H 10D 2D 5S 7H 7S 10C JS KS 2C AS AH 7D 7C "
    "9D 10H 4D 10S 9S 4H 5C KH QH 6C 9H JC 5H 3D 8S 6S AC 8H 5D JH QS 3S"
)
FATAL = "Taking 6♥ kills you: the traps deal 15 and you have 9 health."


def start(page, deck: str) -> str:
    page.goto("/")
    card = page.locator("#game-shuffle-and-doom")
    card.get_by_text("Options").click()
    card.get_by_label("Grid size").fill("4")
    card.get_by_label("Stacked deal").fill(deck)
    card.get_by_role("button", name="Play Shuffle and Doom!").click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))
    expect(page.locator("#game")).to_be_visible()
    return page.url


def version(page) -> int:
    return int(page.locator("#game").get_attribute("data-revision"))


def click(page, name) -> None:
    before = version(page)
    page.get_by_role("button", name=name).first.click()
    expect(page.locator("#game")).to_have_attribute("data-revision", str(before + 1))


def into_the_trap_room(page) -> None:
    start(page, TRAP_DECK)
    click(page, re.compile(r"top set", re.I))
    click(page, re.compile(r"Give 6♦ to health"))
    click(page, re.compile(r"Give K♦ to health"))
    expect(page.locator("#room-title")).to_have_text("Traps")


def test_a_fatal_take_warns_asks_and_a_dismissed_confirm_changes_nothing(page, new_page, console_errors, axe_check):
    page.set_viewport_size({"width": 1280, "height": 800})
    into_the_trap_room(page)
    take = page.locator("button.fatal", has_text="Take 6♥")  # re-found after a reload too
    expect(take).to_contain_text(FATAL)  # the button says so, in words
    expect(take).to_have_attribute("data-confirm", FATAL)
    expect(page.locator("button.fatal")).to_have_count(2)  # both potions; deactivating 3♣ is safe
    axe_check(page)
    page.screenshot(path=f"{SHOTS}-warning-desktop.png", full_page=True)
    # axe leaves style="" on elements it measured; htmx's settle would copy that onto the next
    # board, which the CSP refuses (a console error): a fresh page carries on.
    page.reload()

    asked: list[str] = []

    def dismiss(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/act") else None)
    take.click()
    # The keyboard shortcut asks too.
    key = take.get_attribute("data-key")
    page.keyboard.press(key)
    page.wait_for_timeout(400)
    assert len(asked) == 2 and all(FATAL in message for message in asked), asked
    assert posts == []
    expect(page.locator("#game")).to_have_attribute("data-revision", "3")
    expect(page.locator(".result")).to_have_count(0)

    page.remove_listener("dialog", dismiss)
    page.once("dialog", lambda dialog: dialog.accept())
    click(page, re.compile(r"Take 6♥"))
    box = page.locator(".result")
    expect(box).to_have_class(re.compile(r"\blost\b"))
    expect(box.locator("h2")).to_have_text("Game over")
    expect(box).to_contain_text("You died in the dungeon")
    expect(box).to_contain_text("Killed by the traps: 15 damage against 9 health.")  # why, in a sentence
    expect(box.locator(".best")).to_have_text("Your best: 0.")
    axe_check(page)
    page.screenshot(path=f"{SHOTS}-loss-desktop.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    box.scroll_into_view_if_needed()
    page.screenshot(path=f"{SHOTS}-loss-phone.png")

    watcher = new_page()
    watcher.goto(page.url)
    expect(watcher.locator("#status")).to_contain_text("The player died in the dungeon")
    expect(watcher.locator(".result")).to_contain_text("The player died in the dungeon with 0 gold")
    expect(watcher.locator(".result")).not_to_contain_text("You died")
    expect(watcher.locator(".result .best")).to_have_count(0)  # a spectator's page keeps no best
    axe_check(watcher)
    assert console_errors == []


def test_a_win_celebrates_and_counts_against_this_browsers_best(page, new_page, console_errors, axe_check):
    page.emulate_media(reduced_motion="reduce")
    # An earlier game of this browser's: a death, score 0 (its record is kept by the server).
    into_the_trap_room(page)
    page.once("dialog", lambda dialog: dialog.accept())
    click(page, re.compile(r"Take 6♥"))
    expect(page.locator(".result .best")).to_have_text("Your best: 0.")
    start(page, WIN_DECK)
    click(page, re.compile(r"top set", re.I))
    click(page, re.compile(r"8♦.*attack|attack.*8♦", re.I))
    click(page, re.compile(r"Attack 6♠"))
    for direction in ["east", "east", "east", "south", "south", "south"]:
        click(page, re.compile(f"Move {direction}", re.I))
    click(page, re.compile(r"Leave the dungeon"))
    box = page.locator(".result")
    expect(box).to_have_class(re.compile(r"\bwon\b"))
    expect(box.locator("h2")).to_have_text("You escaped!")
    expect(box.locator(".result-flourish")).to_be_visible()
    expect(box.locator(".score")).to_have_text("8")
    expect(box.locator(".best")).to_have_text("New best! Your previous best was 0.")
    expect(box.locator(".record-line")).to_have_text("Your record here: 2 played · 1 won.")
    axe_check(page)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=f"{SHOTS}-win-desktop.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    box.scroll_into_view_if_needed()
    page.screenshot(path=f"{SHOTS}-win-phone.png")

    page.reload()  # the game that set the best still says so
    expect(page.locator(".result .best")).to_have_text("New best! Your previous best was 0.")

    watcher = new_page()
    watcher.goto(page.url)
    expect(watcher.locator(".result h2")).to_have_text("The player escaped!")
    expect(watcher.locator(".result")).to_contain_text("The player left the dungeon with 8 gold")
    expect(watcher.locator("#status")).not_to_contain_text("You left")
    axe_check(watcher)
    assert console_errors == []
