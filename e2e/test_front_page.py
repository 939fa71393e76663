"""The front page in a real browser: "Your games" (this browser's own, and only its own), the
theme switch (system / light / dark, remembered, set before the first paint), the light theme's
accessibility on the front page and on each game's page, the grid of games without a hole, and
the games' illustrations."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

GAME_URL = re.compile(r".*/g/[A-Za-z0-9_-]{20,}$")

# (the card's id, its button, a table's waiting room to start alone)
GAMES = [
    ("shuffle-and-doom", "Play Shuffle and Doom!", False),
    ("clear-the-dungeon", "Play Clear the Dungeon", False),
    ("hebracs-dungeon", "Play Hebrac's Dungeon", False),
    ("dungeon-cards", "Open a Dungeon Cards table", True),
    ("dungeon-of-doom", "Open a Dungeon of Doom table", True),
]

# Every custom property of the palette, read off :root as the page computes it.
PALETTE = """() => {
  const names = new Set();
  for (const sheet of document.styleSheets) {
    for (const rule of sheet.cssRules) {
      const blocks = rule.cssRules ? [...rule.cssRules] : [rule];
      for (const block of blocks) {
        if (block.style) for (const name of block.style) if (name.startsWith('--')) names.add(name);
      }
    }
  }
  const style = getComputedStyle(document.documentElement);
  return Object.fromEntries([...names].sort().map(n => [n, style.getPropertyValue(n).trim()]));
}"""


def start_game(page, slug, button, table, *, scan=None):
    """Start a game from the front page; a table is started alone, after a first scan of its
    waiting room when ``scan`` is given."""
    page.goto("/")
    page.locator(f"#game-{slug}").get_by_role("button", name=button).click()
    page.wait_for_url(GAME_URL)
    if table:
        expect(page.get_by_role("button", name=re.compile("Start the game"))).to_be_visible()
        if scan:
            scan(page)
        # A class (or any other waiting-room choice) is needed before the start: take the first.
        for group in page.locator(".choice-buttons").all():
            group.locator("button:enabled").first.click()
            expect(group.locator("button[aria-pressed=true]")).to_have_count(1)
        page.get_by_role("button", name=re.compile("Start the game")).click()
        expect(page.locator("#game[data-revision]")).to_be_visible()
    return page.url


def test_your_games_lists_this_browsers_game_and_no_other(page, new_page, axe_check, console_errors):
    page.goto("/")
    your_games = page.get_by_role("region", name="Your games")
    expect(your_games).to_contain_text("No games in this browser yet")

    url = start_game(page, "clear-the-dungeon", "Play Clear the Dungeon", False)
    page.goto("/")
    rows = your_games.locator(".yg-row")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Clear the Dungeon")
    expect(rows.first).to_contain_text("In progress")
    expect(rows.first.locator("time")).to_have_text("just now")
    axe_check(page)

    # The newest game comes first.
    start_game(page, "shuffle-and-doom", "Play Shuffle and Doom!", False)
    page.goto("/")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("Shuffle and Doom!")

    rows.filter(has_text="Clear the Dungeon").get_by_role("link", name=re.compile("^Resume")).click()
    page.wait_for_url(url)
    expect(page.locator("#game")).to_be_visible()

    # Somebody else's browser sees none of it, not even with the game's link open in it.
    stranger = new_page()
    stranger.goto(url)
    stranger.goto("/")
    expect(stranger.get_by_role("region", name="Your games")).to_contain_text("No games in this browser yet")
    expect(stranger.locator(f"a[href$='{url.rsplit('/', 1)[-1]}']")).to_have_count(0)
    assert console_errors == []


def test_a_forged_list_of_games_is_ignored(page, context, base_url):
    url = start_game(page, "shuffle-and-doom", "Play Shuffle and Doom!", False)
    game_id = url.rsplit("/", 1)[-1]
    context.clear_cookies()
    context.add_cookies([{"name": "delve_games", "value": f"{game_id}.0000000000000000", "url": base_url}])
    page.goto("/")
    expect(page.get_by_role("region", name="Your games")).to_contain_text("No games in this browser yet")


def test_theme_switch_cycles_and_persists_before_the_first_paint(page):
    # What the page's root says when the body starts, before anything of it is painted.
    page.add_init_script(
        """new MutationObserver((records, observer) => {
             if (!document.body) return;
             window.themeAtBody = document.documentElement.getAttribute('data-theme');
             observer.disconnect();
           }).observe(document, {childList: true, subtree: true});"""
    )
    page.emulate_media(color_scheme="dark")
    page.goto("/")
    toggle = page.get_by_role("button", name=re.compile("^Theme"))
    expect(toggle).to_have_accessible_name("Theme: system")
    dark_background = page.evaluate("getComputedStyle(document.body).backgroundColor")

    toggle.click()
    expect(toggle).to_have_accessible_name("Theme: light")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    light_background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert light_background != dark_background
    page.reload()
    assert page.evaluate("window.themeAtBody") == "light"
    expect(toggle).to_have_accessible_name("Theme: light")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == light_background

    toggle.click()
    expect(toggle).to_have_accessible_name("Theme: dark")
    page.emulate_media(color_scheme="light")  # a chosen theme wins over the system's
    page.reload()
    assert page.evaluate("window.themeAtBody") == "dark"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == dark_background

    toggle.click()
    expect(toggle).to_have_accessible_name("Theme: system")
    page.reload()
    assert page.evaluate("window.themeAtBody") is None
    assert page.evaluate("localStorage.getItem('delve-theme')") is None
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == light_background


def test_a_chosen_theme_is_the_same_palette_as_the_systems(new_page):
    """The light palette is written twice (for the system's preference, and for a choice): the two
    must not drift apart. Nor may a chosen dark differ from the default one."""
    palettes = {}
    for system in ("light", "dark"):
        for choice in (None, "light", "dark"):
            page = new_page(color_scheme=system)
            if choice:
                page.add_init_script(f"localStorage.setItem('delve-theme', '{choice}')")
            page.goto("/")
            palettes[system, choice] = page.evaluate(PALETTE)
    light, dark = palettes["light", None], palettes["dark", None]
    assert light["--bg"] != dark["--bg"]
    assert palettes["dark", "light"] == light
    assert palettes["light", "light"] == light
    assert palettes["light", "dark"] == dark
    assert palettes["dark", "dark"] == dark


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_games_page_passes_the_scan_in_both_themes(new_page, axe_check, scheme):
    page = new_page(color_scheme=scheme)
    page.goto("/")
    axe_check(page)
    for slug, button, table in GAMES:
        start_game(page, slug, button, table, scan=axe_check)
        axe_check(page)
    page.goto("/")
    expect(page.locator("#your-games .yg-row")).to_have_count(len(GAMES))
    axe_check(page)


@pytest.mark.parametrize("width", [1280, 1000, 800, 390, 360])
def test_the_grid_of_games_has_no_empty_slot(new_page, width):
    page = new_page(viewport={"width": width, "height": 900})
    page.goto("/")
    boxes = [tile.bounding_box() for tile in page.locator(".game-list > li").all()]
    assert len(boxes) == 6  # five games and the guide
    columns = sorted({round(box["x"]) for box in boxes})
    rows = sorted({round(box["y"]) for box in boxes})
    assert len(columns) * len(rows) == len(boxes), f"{len(columns)} columns, {len(rows)} rows: a slot is empty"
    right_edge = max(box["x"] + box["width"] for box in boxes)
    last_row = [box for box in boxes if round(box["y"]) == rows[-1]]
    assert max(box["x"] + box["width"] for box in last_row) == pytest.approx(right_edge, abs=1)


def test_each_card_has_its_own_illustration(page):
    page.goto("/")
    art = page.locator(".game-list img.game-art")
    expect(art).to_have_count(6)
    sources = set()
    for image in art.all():
        assert image.get_attribute("alt") == ""  # decorative: the card's heading says what it is
        image.scroll_into_view_if_needed()
        expect(image).to_be_visible()
        assert image.evaluate("img => img.complete && img.naturalWidth > 0"), image.get_attribute("src")
        box = image.bounding_box()
        assert box["width"] > 200 and box["height"] > 60
        sources.add(image.get_attribute("src"))
    assert len(sources) == 6
