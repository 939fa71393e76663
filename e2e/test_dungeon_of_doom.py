"""The Dungeon of Doom in four browser contexts: three players and a spectator, live."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

# The shipped Duelling Hall (7 × 5, 2 gold to win), picked in the create form:
#   #######
#   #G.H.E#     Bob starts on the gold at [1,1], Ann below him at [2,1], Cy on the gold at [3,1].
#   #.S.A.#     Ann fells Bob in three blows; Cy walks round Ann to Bob's dropped coin, then east
#   #G...L#     along the top row to the exit.
#   #######
# Forced for the test only (the server runs with DELVE_TEST_OPTIONS=1): every attack hits, and
# the three seats start where the story needs them.
FORCED = {"dice": [1, 1, 1], "start_positions": {"p1": [2, 1], "p2": [1, 1], "p3": [3, 1]}}
YOUR_TURN = re.compile(r"^▶ Your turn")


def open_table(page, name, forced=FORCED):
    page.goto("/")
    card = page.locator("#game-dungeon-of-doom")
    card.get_by_label("Your name").fill(name)
    card.get_by_text("Options").click()
    card.get_by_label("Dungeon").select_option("duelling-hall")
    card.locator("form").evaluate(
        "(form, forced) => { const i = document.createElement('input'); i.type = 'hidden';"
        " i.name = 'test_options'; i.value = forced; form.appendChild(i); }",
        json.dumps(forced),
    )
    card.get_by_role("button", name=re.compile("Open a")).click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))
    return page.url


def seconds_shown(page) -> int:
    """The turn countdown as the page shows it ("1:58" or "45 s")."""
    text = page.locator("#turn-timer .countdown").inner_text().strip()
    minutes, _, seconds = text.removesuffix(" s").rpartition(":")
    return int(minutes or 0) * 60 + int(seconds)


def join(page, url, name):
    page.goto(url)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Join the table").click()
    expect(page.locator("#roster-title")).to_be_visible()


def wait_all_caught_up(page, before, everyone):
    """The actor's page shows its own action's answer; then every page reaches that revision."""
    expect(page.locator("#game")).not_to_have_attribute("data-revision", str(before))
    after = int(page.locator("#game").get_attribute("data-revision"))
    for other in everyone:
        other.wait_for_function(
            "rev => parseInt(document.getElementById('game').getAttribute('data-revision'), 10) >= rev", arg=after
        )


def act(page, name, everyone):
    """Click an action (it exists only on the player's turn) and wait until every page has caught up."""
    button = page.get_by_role("button", name=name).first
    expect(button).to_be_visible()
    before = int(page.locator("#game").get_attribute("data-revision"))
    button.click()
    wait_all_caught_up(page, before, everyone)


def key(page, pressed, everyone):
    """Press a key on the player's turn and wait until every page has caught up."""
    expect(page.locator("#game")).to_have_attribute("data-your-turn", "true")
    before = int(page.locator("#game").get_attribute("data-revision"))
    page.keyboard.press(pressed)
    wait_all_caught_up(page, before, everyone)


def test_three_players_and_a_spectator_play_to_a_win(page, new_page, axe_check, console_errors):
    ann = page
    url = open_table(ann, "Ann")
    bob, cy, spectator = new_page(), new_page(viewport={"width": 375, "height": 800}), new_page()
    join(bob, url, "Bob")
    join(cy, url, "Cy")
    spectator.goto(url)
    expect(ann.locator(".roster li")).to_have_count(3)
    axe_check(ann)
    ann.get_by_role("button", name=re.compile("Start the game")).click()
    everyone = [ann, bob, cy, spectator]
    board_fetches: list[str] = []  # every board comes pushed over its page's socket: none is fetched
    for p in everyone:
        p.on("request", lambda r: board_fetches.append(r.url) if "/board" in r.url else None)
    for p in everyone:
        expect(p.locator("#map-title")).to_have_text("Duelling Hall")  # a shipped map: no "custom" label
        expect(p.locator("html")).to_have_attribute("data-live", "connected")
    expect(ann.locator("#status")).to_contain_text("Your turn")
    expect(bob.locator("#status")).to_contain_text("Ann's turn")
    expect(spectator.locator("#status")).to_contain_text("Watching live")
    expect(spectator.locator("button[name=action]")).to_have_count(0)
    expect(ann).to_have_title(YOUR_TURN)
    expect(bob).not_to_have_title(YOUR_TURN)
    # The current player's countdown is shown and runs down (the page ticks it every second).
    expect(ann.locator("#turn-timer .countdown")).to_be_visible()
    shown = seconds_shown(ann)
    assert 0 < shown <= 120
    ann.wait_for_function(
        "start => { const el = document.querySelector('#turn-timer .countdown'); if (!el) return false;"
        " const [m, s] = el.textContent.trim().replace(' s', '').split(':');"
        " return (s === undefined ? +m : +m * 60 + +s) < start; }",
        arg=shown,
        timeout=10000,
    )
    axe_check(ann)
    axe_check(spectator)

    act(ann, "Attack Bob (north)", everyone)  # turn 1: hit, Bob 2 HP
    expect(bob).to_have_title(YOUR_TURN)  # the badge comes with the push
    expect(ann).not_to_have_title(YOUR_TURN)
    expect(bob.locator(".stats .health dd")).to_have_text("2")
    expect(bob.locator("#log")).to_contain_text("Ann attacked you")
    bob.keyboard.press("1")  # leaving has no key: nothing happens
    act(bob, "Pick up 1 gold", everyone)  # turn 2 (fails if "1" had left the game)
    key(bob, "e", everyone)
    act(cy, "Pick up 1 gold", everyone)  # turn 3
    key(cy, "e", everyone)
    key(ann, "Shift+ArrowUp", everyone)  # turn 4: Bob 1 HP
    expect(bob.locator(".stats .health dd")).to_have_text("1")

    bob.reload()  # a reload mid-game keeps the seat
    expect(bob.locator("html")).to_have_attribute("data-live", "connected")  # scripts are running
    expect(bob.locator("#status")).to_contain_text("Your turn")
    expect(bob.locator(".stats .gold dd")).to_have_text("1 / 2")
    key(bob, "e", everyone)  # turn 5
    key(cy, "e", everyone)  # turn 6

    ann.keyboard.press("f")  # turn 7: F then a direction
    key(ann, "ArrowUp", [ann, cy, spectator])
    expect(bob.locator("#log")).to_contain_text("You were slain")
    expect(cy.locator("#log")).to_contain_text("Bob was slain")
    everyone = [ann, cy, spectator]

    for step in ["ArrowRight", "ArrowUp", "ArrowUp", "ArrowLeft"]:  # turn 8: round Ann to Bob's coin
        key(cy, step, everyone)
    act(cy, "Pick up 1 gold", everyone)  # the death drop
    expect(cy.locator(".stats .gold dd")).to_have_text("2 / 2")
    key(cy, "ArrowRight", everyone)  # the last AP
    key(ann, "e", everyone)  # turn 9
    for step in ["ArrowRight", "ArrowRight", "ArrowRight"]:  # turn 10: out through the exit
        key(cy, step, everyone)

    for p in [ann, bob, cy, spectator]:
        expect(p.locator("#status")).to_contain_text("Cy escaped with the gold!")
        expect(p.locator("svg.dungeon")).to_be_visible()  # the whole map at the end
        expect(p.locator(".final-stats tbody tr")).to_have_count(3)  # and everyone's HP, gold, kit
    expect(spectator.locator(".final-stats tbody tr").first).to_contain_text("Cy")
    expect(cy.locator("#result-title")).to_have_text("You won!")
    axe_check(spectator)
    assert board_fetches == []

    # Play again: the first click opens the next table; the others follow it there.
    ann.get_by_role("button", name="Play again with this table").click()
    ann.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]{20,}$"))
    assert ann.url != url
    for p in [bob, cy]:
        p.get_by_role("button", name="Join the next game").click()
        p.wait_for_url(ann.url)
    spectator.get_by_role("link", name="Watch the next game").click()
    spectator.wait_for_url(ann.url)
    for p in [ann, bob, cy, spectator]:
        expect(p.locator(".roster li")).to_have_count(3)
    expect(ann.get_by_role("button", name=re.compile("Start the game"))).to_be_visible()
    assert console_errors == []


def test_chat_reaches_the_table_escaped(page, new_page):
    url = open_table(page, "Ann")
    bob = new_page()
    join(bob, url, "Bob")
    page.get_by_label("Message to the table").fill("<b>hello</b> Bob")
    page.get_by_role("button", name="Send").click()
    expect(bob.locator("#chat-log")).to_contain_text("Ann: <b>hello</b> Bob")
    expect(bob.locator("#chat-log b")).to_have_count(0)
    expect(page.get_by_label("Message to the table")).to_have_value("")
