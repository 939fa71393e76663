"""What the screen-reader browser tests share (e2e/test_speech_*.py): they find everything by its
role, name or label and read what the live regions say, as a blind player's screen reader does."""

from __future__ import annotations

import re

from playwright.sync_api import expect


def reader_mode(page) -> None:
    """Screen-reader mode on, from the front page's first control, reached with the keyboard."""
    page.goto("/")
    switch = page.get_by_role("button", name="Screen reader mode", exact=True)
    switch.press("Enter")
    expect(page.get_by_role("button", name="Screen reader mode", exact=True)).to_have_attribute("aria-pressed", "true")


def say(page, command: str, answer: str | re.Pattern) -> None:
    """Type ``command``, wait until it is answered, and check the answer region reads ``answer``.

    The Command box empties once its own command is answered: only then is what the answer region
    reads this command's answer (the one before may still be there, e.g. two "move e" in a row)."""
    box = page.get_by_role("textbox", name="Command", exact=True)
    box.fill(command)
    box.press("Enter")
    expect(box).to_have_value("")
    expect(page.get_by_role("status", name="Answer")).to_contain_text(answer)
    expect(page.get_by_role("list", name="Transcript").get_by_role("listitem").last).to_contain_text(command)


def act(page, command: str, outcome: str | re.Pattern) -> None:
    """Type a command that acts, wait until it is answered, and check the Log (a live region too)
    reads its ``outcome``."""
    box = page.get_by_role("textbox", name="Command", exact=True)
    box.fill(command)
    box.press("Enter")
    expect(box).to_have_value("")
    expect(page.get_by_role("list", name="Transcript").get_by_role("listitem").last).to_contain_text(command)
    expect(page.get_by_role("log", name="Log")).to_contain_text(outcome)
