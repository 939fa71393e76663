"""Shared deals in Chromium: a challenge played by two browsers, and a daily attempt."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.test_replays import AFTER_THE_SET, play_the_short_game
from e2e.test_shuffle_and_doom import click_action


def test_a_challenge_played_by_two_browsers(page, new_page, axe_check, console_errors):
    source_url = play_the_short_game(page)
    page.get_by_role("button", name="Challenge a friend").click()
    page.wait_for_url(re.compile(r".*/c/[A-Za-z0-9_-]+$"))
    expect(page.locator("#deal-start-title")).to_have_text("Adventurer scored 8: can you beat it?")
    link = page.locator("#share-link").input_value()
    axe_check(page)

    friend = new_page(viewport={"width": 390, "height": 844})
    friend.goto(link)
    expect(friend.locator("#board tbody tr")).to_have_count(1)
    expect(friend.locator("#board")).to_contain_text("after yours")
    friend.get_by_label("Your name").fill("Bea")
    friend.get_by_role("button", name="Take the challenge").click()
    friend.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))
    attempt_url = friend.url
    expect(friend.locator("#status")).to_contain_text("Choose the set")
    click_action(friend, re.compile(r"top set", re.I))

    # While her attempt runs, the challenger's replay stays closed to her.
    assert friend.request.get(source_url + "/replay").status == 403
    friend.goto(link)
    expect(friend.locator("#board tbody tr")).to_have_count(1)  # hers is not finished
    expect(friend.locator(".deal-start")).to_contain_text("being played right now")

    # The same deal: the rest of the challenger's ten actions end hers the same way.
    friend.goto(attempt_url)
    for step in AFTER_THE_SET:
        click_action(friend, step)
    friend.goto(link)
    expect(friend.locator("#board tbody tr")).to_have_count(2)
    expect(friend.locator("#board tr.mine")).to_contain_text("Bea")
    friend.locator("#board tbody tr").first.get_by_role("link", name=re.compile("Watch")).click()
    expect(friend.locator("#replay-counter")).to_have_text("Step 0 of 10")
    assert console_errors == []


def test_a_daily_attempt_counts_once_and_shows_the_streak(page, axe_check, console_watch):
    console_watch.allow_4xx_answers("today's replay is asked for on purpose: closed, a 409")
    page.goto("/daily/clear-the-dungeon")
    expect(page.locator("#daily-streak")).to_contain_text("No streak yet")
    axe_check(page)
    page.get_by_label("Your name").fill("Dee")
    page.get_by_role("button", name="Play today's deal").click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))
    page.get_by_text("Give up this game…").click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".ctd-resign button").first.click()
    expect(page.locator(".result")).to_be_visible()
    # Today's replays are closed: the end says when they open instead of offering a dead link.
    expect(page.locator(".result .replay-closed")).to_contain_text("when the day ends")
    expect(page.get_by_role("link", name="Watch the replay")).to_have_count(0)
    page.goto(page.url + "/replay")
    expect(page.get_by_role("alert")).to_contain_text("when the day ends")
    page.goto("/daily/clear-the-dungeon")
    expect(page.locator("#board tr.mine")).to_contain_text("Dee")
    expect(page.locator("#daily-streak")).to_have_text("Streak: 1 day in a row.")
    expect(page.get_by_role("button", name="Play it again (practice)")).to_be_visible()
    axe_check(page)
