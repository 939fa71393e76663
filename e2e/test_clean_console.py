"""The console stays clean while playing (issue 25.7): the conftest fails every browser test on a
console error; these check the ways a swap could write what the page's policy refuses."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.test_shuffle_and_doom import FULL_S1, click_action, start_game


def test_a_swap_never_writes_a_style_attribute(page, console_errors):
    """Content-Security-Policy "style-src 'self'" refuses every style attribute a script writes.
    htmx settles some attributes of an element that keeps its id across a swap by copying the old
    ones onto the new element first: a style the old #log-seen had (set through the CSS object
    model, which the policy allows — as a browser extension does) would be written as an
    attribute, and refused, on every action."""
    start_game(page, size=4, deck=FULL_S1)
    page.evaluate("document.getElementById('log-seen').style.outline = 'none'")
    click_action(page, re.compile(r"top set", re.I))
    click_action(page, re.compile(r"attack", re.I))
    expect(page.locator("#log-seen")).to_have_count(1)
    assert console_errors == []
