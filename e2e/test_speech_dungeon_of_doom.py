"""The Dungeon of Doom played to its end without sight (issue 28): two seats in screen-reader mode,
each in its own browser, typed commands only (the classic words: look, move w, pickup, attack w,
end), read back through the roles, labels and the live region (no CSS selector, no test id), axe
clean; Bob's page announces what Ann did, in the third person.

The map, pasted on the create form (1 gold to win)::

    #######
    #E.G..#     Ann starts right of the gold, Bob between the gold and the exit.
    #.....#     Ann takes the gold and strikes Bob (the forced die hits); Bob steps
    #######     aside; Ann walks west onto the exit with the gold.

The start squares and the die are test options (the server runs with DELVE_TEST_OPTIONS=1); the
create form has no field for them, so they are added to its request on its way out.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from e2e.reader import reader_mode, say

MAP = "name Speech Hall\nwin 1\n#######\n#E.G..#\n#.....#\n#######"
FORCED = {"dice": [1], "start_positions": {"p1": [1, 4], "p2": [1, 2]}}
GAME_URL = re.compile(r".*/g/[A-Za-z0-9_-]{20,}$")


def with_test_options(route) -> None:
    """The create form's multipart request, with the test options as one more field."""
    request = route.request
    boundary = request.headers["content-type"].split("boundary=", 1)[1].strip('"')
    body = request.post_data_buffer or b""
    field = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="test_options"\r\n\r\n{json.dumps(FORCED)}\r\n'
    ).encode()
    closing = f"--{boundary}--".encode()
    route.continue_(post_data=body.replace(closing, field + closing))


def open_table(page) -> str:
    reader_mode(page)
    entry = page.get_by_role("listitem").filter(has=page.get_by_role("heading", name="The Dungeon of Doom", exact=True))
    entry.get_by_label("Your name").fill("Ann")
    entry.get_by_role("group").click()  # the closed Options fold
    entry.get_by_label("Dungeon").select_option("custom")
    entry.get_by_label("Paste a map").fill(MAP)
    page.route("**/games", with_test_options)
    entry.get_by_role("button", name=re.compile("Open a")).click()
    page.wait_for_url(GAME_URL)
    page.unroute("**/games")
    return page.url


def join(page, url: str) -> None:
    reader_mode(page)
    page.goto(url)
    page.get_by_label("Your name").fill("Bob")
    page.get_by_role("button", name="Join the table").click()


def live(page):
    """The live region that answers this page's own commands."""
    return page.get_by_role("status").filter(has_text=re.compile(".")).last


def announced(page):
    """The live log: what happened at the table, each line once, in order."""
    return page.get_by_role("log", name="Log")


def test_two_seats_play_to_a_win_by_typed_commands(page, new_page, axe_check, console_errors):
    ann, bob = page, new_page()
    url = open_table(ann)
    join(bob, url)
    ann.get_by_role("button", name=re.compile("Start the game")).click()
    for seat in (ann, bob):
        expect(seat.get_by_role("heading", name="Command")).to_be_visible()
    say(
        ann,
        "look",
        "North: a wall next to you. East: a wall 2 steps away. South: a wall 2 steps away. "
        "West: 1 gold next to you, then Bob 2 steps away.",
    )
    say(bob, "status", "Turn 1: Ann's turn.")
    say(bob, "move s", "It is not your turn: Ann is playing.")
    axe_check(ann)

    say(ann, "move w", "Move west.")
    say(ann, "where", "Here: 1 gold.")
    say(ann, "pickup", "Pick up 1 gold.")
    say(ann, "attack w", "Attack Bob (west).")
    # Bob's page, untouched, announces what Ann did where he could see it, in the third person.
    expect(announced(bob)).to_contain_text("Ann picked up gold.")
    expect(announced(bob)).to_contain_text("Ann attacked you: hit for 1 damage. You have 2 HP.")
    # The attack's step logged three lines under one seq: each is announced, not just the first.
    expect(announced(bob)).to_contain_text("Your hit points fell to 2.")
    expect(announced(bob)).to_contain_text("Turn 2: your turn.")
    say(bob, "status", "Turn 2: your turn. You have 6 AP left. You have 2 HP")
    say(bob, "help", "move s: Walk one step south.")
    say(bob, "move s", "Move south.")
    say(bob, "end", "End turn.")
    say(ann, "look", "West: the exit 2 steps away. Also in sight: Bob 1 step south and 1 step west of you.")
    say(ann, "move w", "Move west.")
    say(ann, "move w", "Move west.")
    expect(announced(bob)).to_contain_text("Ann escaped with the gold and won!")
    say(ann, "status", "The game is over. Ann escaped with the gold!")
    say(bob, "score", "Ann 1 gold, Bob 0 gold")
    axe_check(bob)
    assert console_errors == []
