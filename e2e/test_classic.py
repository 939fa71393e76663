"""A Dungeon of Doom table in Chromium with two classic clients beside the browser player (issue
17): the host turns classic clients on, the page shows where to connect and the join code, two programs speaking
the old text protocol take seats, and one of them wins while the browser watches it happen.

The forced Duelling Hall (e2e/test_dungeon_of_doom.py's map; tests/web/test_classic.py's story):
    #######
    #G.H.E#     Bob (classic, p2) starts on the gold at [1,1] and takes both coins in his first
    #.S.A.#     turn, then walks east along the top row to the exit. Ann (browser, p1) waits at
    #G...L#     [3,4]; Cy (classic, p3) at [2,3] only ends his turns.
    #######
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.test_dungeon_of_doom import open_table
from tests.web.test_classic import Client

FORCED = {"dice": [1, 1, 1], "start_positions": {"p1": [3, 4], "p2": [1, 1], "p3": [2, 3]}}


def next_news(client) -> str:
    """The client's next line that is not a CHANGE (another player moving in its sight)."""
    while (line := client.line()) == "CHANGE":
        pass
    return line


def test_a_browser_player_and_two_classic_clients_play_one_game(page, axe_check, console_errors):
    open_table(page, "Ann", FORCED)
    page.get_by_role("button", name="Take classic clients").click()
    address = page.locator("#classic-address")
    expect(address).to_have_text(re.compile(r"^127\.0\.0\.1:\d+$"))
    axe_check(page)
    port = int(address.inner_text().rsplit(":", 1)[1])
    code = page.locator("#classic-code").inner_text()  # shown to the table's players, as its link

    bob, cy = Client(port), Client(port)
    for client, name in ((bob, "Bob"), (cy, "Cy")):
        assert client.line() == "GOLD 2"
        client.send(f"HELLO {code} {name}")
        assert client.line() == f"HELLO {name}"
    roster = page.locator(".roster")
    expect(roster).to_contain_text("Bob")  # the waiting room follows the table live
    expect(roster).to_contain_text("Cy")

    page.get_by_role("button", name=re.compile("Start the game")).click()
    expect(page.locator("#status")).to_contain_text("Your turn.")
    for client in (bob, cy):
        assert client.line() == "CHANGE"  # their fields of view appeared
    page.get_by_role("button", name=re.compile("End turn")).click()

    assert bob.line() == "STARTTURN"
    bob.send("PICKUP", "MOVE S", "MOVE S", "PICKUP", "MOVE N", "MOVE N")
    bob.expect("SUCCESS", "TREASUREMOD 1", "SUCCESS", "SUCCESS", "SUCCESS", "TREASUREMOD 1", "SUCCESS", "SUCCESS")
    assert bob.line() == "ENDTURN"
    assert next_news(cy) == "STARTTURN"
    cy.send("ENDTURN")  # no reply: the turn passes
    expect(page.locator("#status")).to_contain_text("Your turn.", timeout=10000)
    page.get_by_role("button", name=re.compile("End turn")).click()

    assert next_news(bob) == "STARTTURN"
    bob.send("MOVE E", "MOVE E", "MOVE E", "MOVE E")
    bob.expect("SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS", "WIN")
    assert next_news(cy) == "LOSE"
    expect(page.locator("#status")).to_contain_text("Bob", timeout=10000)
    expect(page.locator(".final-stats")).to_contain_text("Bob")
    axe_check(page)
    bob.close()
    cy.close()
    assert console_errors == []
