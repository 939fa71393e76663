"""The shared controls' macros (templates/_controls.html) drawn on their own."""

from __future__ import annotations

from tests.page import Page
from webapp.domain.play import ActionButton
from webapp.pages.presenters.controls import move_pad

WARNING = "Dashing east ends your move on the Pit: you fall, and the game is lost."


def test_a_pad_way_that_loses_says_so_under_the_pad_and_asks_first(app):
    buttons = [
        ActionButton({"type": "dash", "dir": "E"}, "Dash east", "ArrowRight", warning=WARNING),
        ActionButton({"type": "dash", "dir": "N"}, "Dash north", "ArrowUp"),
    ]
    pad = move_pad(buttons)
    with app.test_request_context():
        html = app.jinja_env.from_string(
            '{% from "_controls.html" import dpad %}{{ dpad(pad["ways"], pad["blocked"], "Dash", "dash") }}'
        ).render(pad=pad)
    page = Page(html)
    east = page.one('button[data-key="ArrowRight"]')
    assert east["data-confirm"] == WARNING and "fatal" in east["class"]
    assert WARNING in east["aria-label"]
    assert page.text(".pad-warning") == f"⚠ → {WARNING}"
    assert page.one('button[data-key="ArrowUp"]').get("data-confirm") is None
    assert len(page.select(".pad-warning")) == 1
