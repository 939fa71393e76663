"""Every page a visitor can reach from the front page passes an axe scan (no serious finding),
and so does the error page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_linked_page_is_accessible(page, axe_check, console_errors, scheme):
    page.emulate_media(color_scheme=scheme)
    page.goto("/")
    hrefs = sorted(
        {h for h in page.locator("a[href^='/']").evaluate_all("els => els.map(e => e.getAttribute('href'))")}
    )
    assert any(h.startswith("/how-to-play/") for h in hrefs)
    for href in hrefs:
        page.goto(href)
        expect(page.locator("main")).to_be_visible()
        axe_check(page)
    assert console_errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_error_page_is_readable_and_accessible(page, axe_check, scheme, console_watch):
    console_watch.allow_4xx_answers("the page asked for is a game that does not exist: a 404 on purpose")
    page.emulate_media(color_scheme=scheme)
    response = page.goto("/g/no-such-game")
    assert response.status == 404
    expect(page.get_by_role("alert")).to_contain_text(re.compile("no game", re.I))
    axe_check(page)
