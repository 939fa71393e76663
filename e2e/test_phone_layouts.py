"""Every game on two phones and a desktop: the part of the board a player acts on and the controls
that act on it are on screen together as the game opens (no scroll between looking and moving),
no two labels of the board run into each other, and nothing is wider than the screen.

A screenshot of each game at each size goes to test-artifacts/screens/<game>-<width>x<height>.png
(git-ignored) for a reviewer to look at."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from e2e.test_clear_the_dungeon import start_game as start_clear_the_dungeon
from e2e.test_dungeon_cards import open_table as open_dungeon_cards_table
from e2e.test_dungeon_cards import start
from e2e.test_dungeon_of_doom import open_table as open_dungeon_of_doom_table
from e2e.test_hebracs_dungeon import DECK_A
from e2e.test_hebracs_dungeon import start_game as start_hebracs_dungeon
from e2e.test_shuffle_and_doom import start_game as start_shuffle_and_doom

SCREENS = Path(__file__).resolve().parent.parent / "test-artifacts" / "screens"  # git-ignored
PHONES = [(390, 844), (360, 740)]
DESKTOP = (1280, 800)

# A 6 × 6 Shuffle and Doom deal (seed 83's order, found with the engine) and the walk that leads
# it, by the corridors, into a room of two traps and a gold card with two potions in the hand
# (+13 and +8): the badges that ran into each other and the trap buttons that zigzagged.
TRAPS_DEAL = (
    "9H QS JC 5S 3D 7D AS QC QD 10S 2H 8C KH 8H 2C 8D 3C 2S 7C KS 3S AC 10D 9S 6C QH 2D 6S 10C JH "
    "JD 9D JS 3H 9C 4H 7H 6D KD 5C 5H 4S 4D AH AD 4C 8S 7S 10H 6H 5D KC"
)
TRAPS_WALK = [
    {"type": "choose_stat_set", "set": "side"},
    {"type": "assign_diamond_bonus", "card": "QD", "stat": "attack"},
    *({"type": "move", "dir": d} for d in "ESWNESEES"),
]
EXPLORING = 3  # the walk's first step on the map: the adventurer stands in a corridor, the pad shown


def act(page, action: dict) -> None:
    """Click the button that posts exactly this action, and wait for the next board."""
    version = int(page.locator("#game").get_attribute("data-revision"))
    found = page.evaluate(
        """wanted => {
             const keyed = a => JSON.stringify(Object.entries(a).sort());
             const same = (a, b) => keyed(a) === keyed(b);
             const button = [...document.querySelectorAll("button[name=action]")]
               .find(b => same(JSON.parse(b.value), wanted));
             if (!button) return false;
             button.id = button.id || "wanted-action";
             return button.id;
           }""",
        action,
    )
    assert found, f"no button for {json.dumps(action)}"
    page.locator(f"#{found}").click()
    expect(page.locator("#game")).to_have_attribute("data-revision", str(version + 1))


def shuffle_and_doom(page, steps=EXPLORING):
    start_shuffle_and_doom(page, size=6, deck=TRAPS_DEAL)
    for action in TRAPS_WALK[:steps]:
        act(page, action)
    # The player's view as a phone holds it after the step: from the top of the page again.
    page.evaluate("window.scrollTo(0, 0)")


def shuffle_and_doom_traps(page):
    shuffle_and_doom(page, len(TRAPS_WALK))
    expect(page.locator("#room-title")).to_have_text("Traps")
    expect(page.locator(".p-hand .card")).to_have_count(2)


def clear_the_dungeon(page):
    start_clear_the_dungeon(page)


def hebracs_dungeon(page):
    start_hebracs_dungeon(page, DECK_A)


def dungeon_cards(page):
    open_dungeon_cards_table(page, "Ann")
    soldier = page.locator(".choice-buttons button", has_text="Soldier")
    soldier.click()
    expect(soldier).to_have_attribute("aria-pressed", "true")
    start(page)
    page.evaluate("window.scrollTo(0, 0)")


def dungeon_of_doom(page):
    open_dungeon_of_doom_table(page, "Ann")
    page.get_by_role("button", name=re.compile("Start the game")).click()  # one player may start alone
    expect(page.locator("#status")).to_contain_text("Your turn")
    page.evaluate("window.scrollTo(0, 0)")


# name: (opens the game, the board's playable part, the controls that play it)
GAMES = {
    "shuffle-and-doom": (shuffle_and_doom, ".map", ".p-moves .dpad button"),
    "shuffle-and-doom-traps": (shuffle_and_doom_traps, ".p-room .card", ".p-room button[name=action]"),
    "clear-the-dungeon": (clear_the_dungeon, "button.ctd-monster", "button.ctd-hand-card"),
    "hebracs-dungeon": (hebracs_dungeon, ".chamber:has(button.enter)", ".chamber button.enter"),
    "dungeon-cards": (dungeon_cards, ".dc-board", "#game button.big-draw"),
    "dungeon-of-doom": (dungeon_of_doom, "svg.dungeon", ".p-moves .dpad button"),
}


HIDDEN_OR_COVERED = """selector => [...document.querySelectorAll(selector)].flatMap(el => {
    const box = el.getBoundingClientRect();
    const name = (el.getAttribute("aria-label") || el.textContent).trim().replace(/\\s+/g, " ").slice(0, 40);
    const at = [box.left, box.top, box.right, box.bottom].map(Math.round).join(",");
    if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth)
      return [`${name}: off screen at ${at}`];
    // Seen, not merely placed: what lies on top near each corner and at the centre is this element
    // (a docked panel over it is what players hit).
    const inset = Math.min(6, box.width / 4, box.height / 4);
    const points = [[box.left + box.width / 2, box.top + box.height / 2],
                    [box.left + inset, box.top + inset], [box.right - inset, box.top + inset],
                    [box.left + inset, box.bottom - inset], [box.right - inset, box.bottom - inset]];
    const seen = hit => hit && (el.contains(hit) || hit.contains(el));
    return points.map(([x, y]) => [x, y, document.elementFromPoint(x, y)])
      .filter(([x, y, hit]) => !seen(hit))
      .map(([x, y, hit]) => `${name}: covered at ${Math.round(x)},${Math.round(y)} by ${hit?.className}`);
  })"""


def not_together(page, playable: str, controls: str) -> list[str]:
    """What of the playable part and its controls is off screen or under something, as the page is."""
    assert page.locator(playable).count() and page.locator(controls).count(), (playable, controls)
    return page.evaluate(HIDDEN_OR_COVERED, playable) + page.evaluate(HIDDEN_OR_COVERED, controls)


# The boxes of the board's text as drawn: each element's own text (not its padding), clipped by any
# scrolling or clipping box around it. Text in a docked (sticky or fixed) panel lies on an opaque
# panel over the page, so it is compared only with text of the same layer.
OVERLAPPING_LABELS = """() => {
  const layer = el => { for (let a = el; a; a = a.parentElement) {
      const p = getComputedStyle(a).position; if (p === "sticky" || p === "fixed") return a; } return null; };
  const clip = (el, r) => {
    for (let a = el; a && r; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const c = a.getBoundingClientRect();
      const left = Math.max(r.left, c.left), right = Math.min(r.right, c.right);
      const top = Math.max(r.top, c.top), bottom = Math.min(r.bottom, c.bottom);
      r = right - left > 1 && bottom - top > 1 ? {left, right, top, bottom} : null;
    }
    return r;
  };
  const labels = [];
  for (const el of document.querySelectorAll("#game *")) {
    // Shown at all (not in a closed disclosure, hidden or see-through) and not for screen readers only.
    if (!el.checkVisibility({contentVisibilityAuto: true, opacityProperty: true, visibilityProperty: true})) continue;
    if (el.closest(".visually-hidden")) continue;
    for (const text of el.childNodes) {
      if (text.nodeType !== 3 || !text.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(text);
      for (const rect of range.getClientRects()) {
        if (rect.width < 1 || rect.height < 1) continue;
        const box = clip(el, {left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom});
        const words = text.textContent.trim().slice(0, 30);
        if (box) labels.push({el, box, words, layer: layer(el), picture: el.closest("[role=img]")});
      }
    }
  }
  const problems = [];
  const SLACK = 2;  // px: glyphs of neighbouring lines may touch
  for (let i = 0; i < labels.length; i++) for (let j = i + 1; j < labels.length; j++) {
    const a = labels[i], b = labels[j];
    // One label's own parts (a card corner's rank and the suit under it) may touch, and so may
    // the marks of one picture (a small card's corner and its pip).
    if (a.el.contains(b.el) || b.el.contains(a.el) || a.layer !== b.layer) continue;
    if (a.picture && a.picture === b.picture) continue;
    const w = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
    const h = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
    if (w > SLACK && h > SLACK)
      problems.push(`"${a.words}" overlaps "${b.words}" by ${Math.round(w)}×${Math.round(h)}`);
  }
  return problems;
}"""


def overlapping_labels(page) -> list[str]:
    return page.evaluate(OVERLAPPING_LABELS)


def saved_screenshot(page, name: str, width: int, height: int) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}-{width}x{height}.png"))


def settle(page) -> None:
    """Let the board's entrance animations finish: a card caught mid-deal is not a layout bug."""
    page.evaluate(
        """() => Promise.race([
             Promise.all(document.getAnimations()
               .filter(a => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
               .map(a => a.finished.catch(() => null))),
             new Promise(resolve => setTimeout(resolve, 3000))])"""
    )


@pytest.mark.parametrize("width,height", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
@pytest.mark.parametrize("game", list(GAMES))
def test_on_a_phone_the_board_and_its_controls_share_the_screen(new_page, game, width, height):
    phone = new_page(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)
    errors: list[str] = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    opens, playable, controls = GAMES[game]
    opens(phone)
    settle(phone)
    saved_screenshot(phone, game, width, height)
    assert phone.evaluate("document.documentElement.scrollWidth") <= width
    assert not_together(phone, playable, controls) == []
    assert overlapping_labels(phone) == []
    assert errors == []


@pytest.mark.parametrize("game", list(GAMES))
def test_on_a_desktop_nothing_breaks(page, game, axe_check):
    width, height = DESKTOP
    page.set_viewport_size({"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    opens, playable, controls = GAMES[game]
    opens(page)
    settle(page)
    saved_screenshot(page, game, width, height)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert overlapping_labels(page) == []
    # Mouse and keyboard still reach the controls where they are drawn.
    for control in page.locator(controls).all():
        expect(control).to_be_visible()
        assert control.is_enabled()
    axe_check(page)
    assert errors == []
