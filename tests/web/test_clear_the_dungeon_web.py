"""Clear the Dungeon's page through Flask's test client: creating a stacked deal, playing whole
games over HTTP, the plain buttons that work without JavaScript, spectators, and hidden
information (face-down monsters, the power deck's order) over whole random games.

The two complete winning lines (rules S18 and S19) live here and are reused by the browser
tests in ``e2e/test_clear_the_dungeon.py``."""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Iterable

import pytest
from bs4 import Tag

import rules_engine
from rules_engine.cards import Card
from tests.engine.test_clear_the_dungeon import named_cards
from tests.page import Page
from webapp import create_app

cd = rules_engine.get("clear-the-dungeon")
SLUG = "clear-the-dungeon"

LAYOUTS = {
    "A": "KH JK QS JD KD QH JC JK QC KS JS JH QD KC",
    "C": "QS JD JC QH JS QC JH QD JK KC JK KH KD KS",
    "W": "QH KD QS JC KH JD QC JS JK KC QD JH KS JK",
    "B": "JK JK KH QH KD JC QS JD QC KC JS JH KS QD",
}


def stacked(layout: str, power_top: str = "") -> str:
    """A 54-card stacked deal (rules 11.0): the dungeon, the listed power cards, the rest in order."""
    top = power_top.split()
    return " ".join(LAYOUTS[layout].split() + top + [c for c in cd.POWER_DECK if c not in top])


# S18, line A: a win using every item (K♠ while placing, K♣, K♥, K♦).
LINE_A_DECK = stacked(
    "W",
    "3H 2S 10C AD 4H 9D 2C 5D 7C 6H 3C 8H 5S 10D 2D 4C 9H 4D 6S AH 5C 7H "
    "8D 3S 8C 9C 10S 3D 6D 10H 2H 7S 9S 5H AS 4S 8S 7D AC 6C",
)
LINE_A = [
    "JK r7c2",
    "3H r7c2",
    "2S r7c2",
    "10C r7c1",  # turn 1
    "AD r7c1",
    "4H r7c1",
    "9D r6c2",  # 2
    "2C r6c2 double",
    "5D r6c2",
    "7C r6c1",  # 3
    "6H r6c1",
    "3C r6c1",
    "8H r4c2",
    "JK r4c2",  # 4
    "5S r4c2",
    "10D r4c1",
    "KC",
    "2D r4c1",
    "4C r4c1",  # 5
    "9H r3c2",
    "4D r3c2",
    "6S r3c3",  # 6
    "AH r3c2",
    "5C r3c3",
    "KH 7H",  # 7
    "8D r3c3",
    "3S r3c1",
    "8C r3c1",  # 8
    "9C r3c1",
    "10S r2c1",
    "3D r2c1",  # 9
    "6D r2c1",
    "10H r2c2",
    "2H r2c2",  # 10
    "7S r2c2",
    "KD",
    "top",
    "9S r1c1",
    "5H r1c1",  # 11
    "7H r1c1",  # 12: won
]

# S19, line B: a win on the last card with four hits, a doubled ace and a one-card draw.
LINE_B_DECK = stacked(
    "B",
    "10H AC 2H 9S 4C 5S 8D 4S 3D 10C 3S 7C 2S 9C 6S 8H 4D 7H 3C 10D 3H "
    "7S 6H 5C 5D 10S 8S 9D 4H 6D 9H AD 8C 2D 2C AS 7D 6C 5H AH",
)
LINE_B = [
    "10H r7c1",
    "AC r7c1",
    "2H r7c1",
    "9S r7c2",
    "4C r7c2",
    "5S r7c2",
    "8D r7c3",
    "4S r7c3",
    "3D r7c3",
    "10C r6c1",
    "3S r6c1",
    "7C r6c1",
    "2S r6c2",
    "9C r6c2",
    "6S r6c2",
    "8H r5c1",
    "4D r5c1",
    "end",
    "3C r5c1",
    "10D r4c1",
    "3H r4c1",
    "7S r4c1",
    "6H r4c2",
    "5C r4c2",
    "5D r4c2",
    "10S r3c1",
    "8S r3c1",
    "9D r3c2",
    "4H r3c2",
    "6D r3c2",
    "9H r3c3",
    "AD r3c3 double",
    "8C r3c3",
    "end",
    "7D r2c2",
    "6C r2c2",
    "5H r2c2",
    "AH r3c1",
]


def action_of(step: str) -> dict:
    """A line's step as the engine action: "9D r6c2", "2C r6c2 double", "KC", "KH 7H",
    "KS r7c1", "top" / "leave", "end"."""
    words = step.split()
    if words[0] == "end":
        return {"type": "end_turn"}
    if words[0] in ("top", "leave"):
        return {"type": "peek_decision", "move_to_top": words[0] == "top"}
    if words[0] in cd.ITEMS:
        action = {"type": "use_item", "item": words[0]}
        if words[0] == "KH":
            action["card"] = words[1]
        if words[0] == "KS":
            action["target"] = words[1]
        return action
    action = {"type": "play", "card": words[0], "target": words[1]}
    if len(words) > 2:
        action["double"] = True
    return action


# --- helpers ---------------------------------------------------------------------------------

TOKEN = re.compile(r"[A-Za-z0-9_-]{20,}")  # game ids, CSRF tokens: random text that may contain "QS"
TAG = re.compile(r"<[^>]+>")


def hidden_slots(body: str) -> list:
    """The face-down places of the dungeon."""
    return Page(body).select("div.ctd-slot.is-hidden")


def needs(body: str) -> list[tuple[str, str]]:
    """Each monster's sum and what it needs next, as drawn: ("9/12", "next card: 3+")."""
    return [
        (figure.get_text(), figure.next_sibling.get_text())
        for figure in Page(body).select(".ctd-need > strong")
        if isinstance(figure.next_sibling, Tag) and figure.next_sibling.name == "span"
    ]


def suit_in_text(body: str, before: str, symbol: str, after: str) -> bool:
    """Whether a black suit symbol is drawn between these two pieces of text (": 10", "♣", " moved…")."""
    return any(
        suit.get_text() == symbol
        and str(suit.previous_sibling).endswith(before)
        and str(suit.next_sibling).startswith(after)
        for suit in Page(body).select("span.suit.black")
    )


def controls_from_the_game_on(body: str) -> list:
    """Forms and buttons inside the game section or after it."""
    return Page(body).one("#game").find_all_next(["form", "button"])


def start(seat_client, deck: str | None = None):
    player = seat_client()
    if deck:
        player.start(SLUG, deck=deck)
    else:
        player.start(SLUG)
    return player


def body_of(response) -> str:
    return response.get_data(as_text=True)


def posted_actions(body: str) -> list[dict]:
    """The actions of every plain submit button (the page's no-JavaScript controls)."""
    return [button.action for button in Page(body).buttons()]


def normal(action: dict) -> str:
    return json.dumps({k: v for k, v in action.items() if not (k == "double" and v is False)}, sort_keys=True)


def state_of(store, game_id):
    return cd.load(store.load(game_id).snapshot)


def play_line(player, store, steps, check=None):
    response = None
    for step in steps:
        response = player.act(action_of(step))
        assert response.status_code == 200, (step, body_of(response))
        if check:
            check(step, body_of(response), state_of(store, player.game_id))
    return response


class TestCreate:
    def test_the_lobby_offers_a_stacked_deal(self, seat_client):
        entry = Page(body_of(seat_client().get("/"))).one("#game-clear-the-dungeon")
        assert entry.select('input[name="game"][value="clear-the-dungeon"]')
        assert entry.select('[name="deck"]') and "Stacked deal" in entry.get_text()

    def test_a_stacked_deal_shows_the_dungeon_the_hand_and_the_counts(self, seat_client, store):
        player = start(seat_client, stacked("A"))
        body = player.bodies[-1]
        page = Page(body)
        assert store.load(player.game_id).options["deck"][:3] == ["KH", "JK", "QS"]
        assert len(page.select("div.ctd-slot")) == 14
        assert len(hidden_slots(body)) == 11
        for pos, name, power in (
            ("r7c1", "Jack of hearts", 11),
            ("r7c2", "Queen of diamonds", 12),
            ("r7c3", "King of clubs", 13),
        ):
            labels = [tag["aria-label"] for tag in page.select(f'[data-target="{pos}"][aria-label]')]
            assert any(label.startswith(f"{name}, power {power}") for label in labels), pos
        hand = [card["data-card"] for card in page.select('.ctd-hand-card[id^="ctd-h-"][data-card]')]
        assert hand == ["AS", "2S", "3S"]
        assert "Power deck: 37 cards" in body
        assert page.one("dd#ctd-hits").get_text() == "0/5"
        assert "Turn 1." in body
        assert "4S" not in TOKEN.sub(" ", body)  # the next card of the power deck

    def test_a_bad_stacked_deal_is_a_readable_400(self, seat_client, store):
        player = seat_client()
        player.get("/")
        response = player.http.post("/games", data={"game": SLUG, "csrf_token": player.csrf, "deck": "AS AS KH"})
        assert response.status_code == 400
        assert "Could not start the game: the stacked deck" in body_of(response)
        assert store.count_games() == 0

    def test_without_a_deck_the_seed_deals(self, seat_client, store):
        player = start(seat_client)
        assert store.load(player.game_id).options == {}
        assert len(hidden_slots(player.bodies[-1])) >= 9


class TestPlaying:
    def test_line_a_won_over_http(self, seat_client, store):
        player = start(seat_client, LINE_A_DECK)
        seen = {}

        def check(step, body, state):
            if step == "2C r6c2 double":
                doubled = Page(body).select('.ctd-mini.black.doubled[data-attack-card="2C"]')
                seen["doubled"] = bool(doubled) and "13/12" in body
            if step == "KD":
                seen["peek"] = bool(Page(body).select('.ctd-peeked [aria-label="7 of hearts"]'))
                assert [normal(a) for a in posted_actions(body)] == [normal(a) for a in cd.legal_actions(state, "p1")]

        body = body_of(play_line(player, store, LINE_A, check))
        assert seen == {"doubled": True, "peek": True}
        assert "Game over" in body and Page(body).one("p.score").get_text() == "2250"
        assert "Cleared in 12 turns with 0 hits" in body
        assert "Play the same deal again" in body and not Page(body).select('[name="action"]')
        record = store.load(player.game_id)
        assert record.result["reason"] == "cleared" and record.version == len(LINE_A)

    def test_line_b_won_over_http_with_four_hits(self, seat_client, store):
        player = start(seat_client, LINE_B_DECK)
        body = body_of(play_line(player, store, LINE_B))
        page = Page(body)
        assert page.one("p.score").get_text() == "2210"
        assert page.one("dd#ctd-hits").get_text() == "4/5"
        assert len(page.select("li.hit")) == 4

    def test_every_legal_action_has_a_plain_button_and_nothing_else_does(self, seat_client, store):
        player = start(seat_client, LINE_A_DECK)

        def check(step, body, state):
            if cd.result(state) is None:
                expected = sorted(normal(a) for a in cd.legal_actions(state, "p1"))
                assert sorted(normal(a) for a in posted_actions(body)) == expected, step

        play_line(player, store, LINE_A, check)

    def test_without_javascript_a_button_posts_and_redirects_to_the_page(self, seat_client, store):
        player = start(seat_client, stacked("A", "10S AC 5H"))
        response = player.act({"type": "play", "card": "10S", "target": "r7c1"}, htmx=False)
        assert response.status_code == 303 and response.headers["Location"].endswith(f"/g/{player.game_id}")
        body = body_of(player.get(f"/g/{player.game_id}"))
        assert "10/11" in body and "next card: 1+" in body

    def test_a_monster_shows_its_sum_and_what_it_needs(self, seat_client):
        player = start(seat_client, stacked("A", "9D 2C 3S 4D 7H 8H"))
        body = body_of(player.act({"type": "play", "card": "9D", "target": "r7c2"}))
        assert ("9/12", "next card: 3+") in needs(body)
        assert "two that add up to its power (J 11, Q 12, K 13; ace 1, joker 10)" in body  # from the engine's table
        assert "9 of diamonds placed, 9 of 12; the next card must be worth 3 or more" in body  # read out
        body = body_of(player.act({"type": "play", "card": "3S", "target": "r7c2"}))
        assert ("12/12", "finish: ♦ or joker") in needs(body)
        assert Page(body).select(".ctd-need.finisher")

    def test_an_illegal_placement_is_a_422_with_the_reason(self, seat_client, store):
        player = start(seat_client, stacked("A", "9D 2C 3S 4D 7H 8H"))
        player.act({"type": "play", "card": "9D", "target": "r7c2"})
        before = store.load(player.game_id).snapshot
        response = player.act({"type": "play", "card": "2C", "target": "r7c2"})
        assert response.status_code == 422
        assert "9 + 2 = 11 is short of the Q♦'s 12" in html.unescape(body_of(response))
        assert store.load(player.game_id).snapshot == before

    def test_the_fatal_end_of_turn_is_marked(self, seat_client):
        player = start(seat_client, stacked("A"))
        body = body_of(player.act({"type": "end_turn"}))
        end_turn = Page(body).one("#ctd-end-turn")
        assert end_turn["class"] == ["danger"] and end_turn["data-fatal"] == "1"
        assert "End turn: 2 cards become hits (5/5) — fatal" in body  # the discard stops at the fifth (4.4)
        assert "Ending the turn now is the fifth hit and loses the game." in body
        body = body_of(player.act({"type": "end_turn"}))
        assert "The fifth hit — the monsters win." in body and Page(body).one("p.score").get_text() == "0"
        assert not Page(body).select('[name="action"], .play')

    def test_king_item_buttons(self, seat_client, store):
        # S13: the K♠ doubles the only card on a monster; S10: the K♥ takes any hand card.
        player = start(seat_client, stacked("C", "10S 3H 4S 6C 4H 7H"))
        body = body_of(play_line(player, store, ["10S r7c3", "3H r7c3", "4S r7c3"]))
        # The engine's reason (item_status), not the template's guess.
        assert "Not usable right now: no face-up monster holds exactly one card." in body
        body = body_of(play_line(player, store, ["6C r7c1"]))
        assert "Not usable right now" not in body
        assert "K♠: double the 6♣ on the K♥" in body
        assert Page(body).select("#ctd-double")  # the switch for doubling while placing
        body = body_of(play_line(player, store, ["KS r7c1"]))
        assert Page(body).select('[data-attack-card="6C"]') and "12/13" in body
        assert not Page(body).select('[class^="ctd-item"]')
        player = start(seat_client, stacked("C", "10H 3S 2H 10D 3H AC 5D 9S 6C"))
        body = body_of(play_line(player, store, ["10H r7c1", "3S r7c1", "2H r7c1", "10D r7c2", "3H r7c2"]))
        assert "K♥: put A♣ under the power deck" in body
        body = body_of(play_line(player, store, ["KH AC"]))
        assert "Known bottom card:" in body and Page(body).one("dd#ctd-hits").get_text() == "0/5"


class TestSpectators:
    def test_a_spectator_sees_the_board_without_any_control(self, seat_client, store):
        player = start(seat_client, LINE_A_DECK)
        play_line(player, store, LINE_A[:8])  # an item in the inventory, a doubled card
        watcher = seat_client()
        for body in (body_of(watcher.watch(player.game_id)), body_of(watcher.board())):
            assert "Watching live." in body and "The player's hand" in body
            assert not controls_from_the_game_on(body) and not Page(body).select('[name="action"]')
            assert Page(body).select(".ctd-mini.black.doubled")  # but everything public is there
        response = watcher.act({"type": "end_turn"})
        assert response.status_code == 403

    @pytest.mark.parametrize("move_to_top", [True, False])
    def test_a_spectator_sees_the_k_diamonds_peek_but_cannot_decide(self, seat_client, store, move_to_top):
        """Rules 10.3: the spectator's view equals the player's, the pending K♦ card included."""
        player = start(seat_client, stacked("C", "10D 3H 2D"))
        play_line(player, store, ["10D r7c2", "3H r7c2", "2D r7c2"])
        watcher = seat_client()
        watcher.watch(player.game_id)
        body = body_of(player.act({"type": "use_item", "item": "KD"}))
        assert Page(body).select('[aria-label="10 of clubs"]') and "Move 10♣ to the top" in body
        for page in (body_of(watcher.board()), body_of(watcher.get(f"/g/{player.game_id}"))):
            assert Page(page).select('span.ctd-peeked [aria-label="10 of clubs"]')
            assert "The player is choosing whether this card goes to the top" in page
            assert "Move 10♣ to the top" not in page and not controls_from_the_game_on(page)
        assert watcher.act({"type": "peek_decision", "move_to_top": move_to_top}).status_code == 403
        body = body_of(player.act({"type": "peek_decision", "move_to_top": move_to_top}))
        seen = body_of(watcher.board())
        # The log writes both cards with their suits drawn in colour: "K♦: 10♣ moved to the top".
        said = [entry.get_text() for entry in Page(seen).select("#log li")]
        if move_to_top:
            assert "K♦: 10♣ moved to the top" in said and suit_in_text(seen, ": 10", "♣", " moved to the top")
            assert "Known bottom card:" not in seen
        else:
            assert "Known bottom card:" in body and "Known bottom card:" in seen
            assert "K♦: 10♣ left at the bottom" in said and suit_in_text(seen, ": 10", "♣", " left at the bottom")


# --- Hidden information over whole random games ------------------------------------------------


def page_texts(body: str) -> tuple[str, str]:
    """The body without random tokens, and its plain text (tags removed, entities decoded)."""
    raw = TOKEN.sub(" ", body)
    return raw, html.unescape(TAG.sub("", raw))


def assert_card_absent(body: str, code: str, texts: tuple[str, str] | None = None) -> None:
    """Not as a code (attributes, plain text), a name ("9 of diamonds") nor rank and suit ("9♦")."""
    raw, text = texts or page_texts(body)
    assert not re.search(rf"(?<![A-Za-z0-9]){re.escape(code)}(?![A-Za-z0-9])", raw), code
    assert Card.parse(code).name not in text, code
    assert not re.search(rf"(?<![0-9A-Za-z]){re.escape(cd.pretty(code))}", text), code


def known_cards(viewer_log: Iterable[str]) -> set[str]:
    """Power cards this viewer may know although they lie in the deck: the K♥ puts a named card
    under it and the K♦ shows the bottom card, both in public (the view's log says so)."""
    codes: set[str] = set()
    for line in viewer_log:
        if line.startswith(("K♥:", "K♦:")):
            codes.update(named_cards(line.split(":", 1)[1]))
    return codes


def assert_nothing_hidden(body: str, state: dict, seat: str | None, seed: int) -> None:
    view = cd.view(state, seat)
    assert str(seed) not in body
    known = known_cards(e["text"] for e in view["log"]) | ({view["known_bottom"]} if view["known_bottom"] else set())
    texts = page_texts(body)
    for code in set(state["power_deck"]) - known - {"JK"}:
        assert_card_absent(body, code, texts)
    face_down = [slot["card"] for slot in state["dungeon"].values() if slot and not slot["face_up"]]
    for code in set(face_down) - {"JK"}:
        assert_card_absent(body, code, texts)
    # Face-down places all look alike, so nothing tells a joker from a monster.
    hidden = hidden_slots(body)
    assert len({re.sub(r"r\dc\d|row \d", "", str(slot)) for slot in hidden}) <= 1
    assert len(hidden) == len(face_down)


def greedy_random(state: dict, rng: random.Random) -> dict:
    """A player who mostly finishes what it started (random play loses within a few turns)."""
    actions = [a for a in cd.legal_actions(state, "p1") if a["type"] != "resign"]
    others = [a for a in actions if a["type"] != "end_turn"]
    if not others or rng.random() < 0.05:
        return rng.choice(actions)
    if rng.random() < 0.25:
        return rng.choice(others)

    def progress(a):
        return 1 + len(state["dungeon"][a["target"]]["attack"]) if a["type"] == "play" else 0

    best = max(progress(a) for a in others)
    return rng.choice([a for a in others if progress(a) == best])


@pytest.mark.parametrize("game", ["line A", "line B", 1, 2, 3, 4])
def test_no_face_down_card_or_deck_order_in_any_body(app, seat_client, store, game):
    """Every body the player and a spectator receive, over whole games (two complete lines that
    use every item, and random stacked deals), names no face-down card and no card of the
    power deck beyond what the table knows (the K♥'s card and the K♦'s, public by rules 10.3)."""
    if isinstance(game, int):
        deck = list(cd.ALL_CARDS)
        random.Random(game).shuffle(deck)
        script = None
        player = start(seat_client, " ".join(deck))
    else:
        player = start(seat_client, LINE_A_DECK if game == "line A" else LINE_B_DECK)
        script = iter(LINE_A if game == "line A" else LINE_B)
    watcher = seat_client()
    watcher.watch(player.game_id)
    seed = store.load(player.game_id).seed
    state = state_of(store, player.game_id)
    rng = random.Random(str(game))
    while cd.result(state) is None:
        action = action_of(next(script)) if script else greedy_random(state, rng)
        response = player.act(action)
        assert response.status_code == 200, body_of(response)
        state = state_of(store, player.game_id)
        assert_nothing_hidden(body_of(response), state, "p1", seed)
        assert_nothing_hidden(body_of(watcher.board()), state, None, seed)
    assert_nothing_hidden(body_of(player.get(f"/g/{player.game_id}")), state, "p1", seed)
    assert_nothing_hidden(body_of(watcher.get(f"/g/{player.game_id}")), state, None, seed)


def test_a_new_server_process_resumes_the_game(seat_client, store, db_url):
    player = start(seat_client, LINE_A_DECK)
    play_line(player, store, LINE_A[:10])
    path = f"/g/{player.game_id}/board"
    before = body_of(seat_client().http.get(path, headers={"HX-Request": "true"}))
    fresh = create_app({"TESTING": True, "DATABASE_URL": db_url})  # a restarted server, same database
    after = body_of(fresh.test_client().get(path, headers={"HX-Request": "true"}))
    assert str(Page(before).one("div.ctd-dungeon")) == str(Page(after).one("div.ctd-dungeon"))
    assert Page(after).attr("[data-revision]", "data-revision") == "10"


def test_how_to_play_page(seat_client):
    body = body_of(seat_client().get("/how-to-play/clear-the-dungeon"))
    assert "How to play Clear the Dungeon" in body
    assert len(Page(body).select("div.ctd-slot")) == 14  # the layout, pictured
    assert "Queen of diamonds, power 12" in body  # the example attack
    for item in ("K♠", "K♥", "K♦", "K♣"):
        assert item in body
    assert not Page(body).select("script:not([src]), style, [style]")
