"""Hebrac's Dungeon through the HTTP client: creating games with options, a stacked deal played
to victory with composed actions (gems, offers, potions, targets), the spell book's reasons,
spectators, the how-to-play tables rendered from the engine's data, and no hidden card in any
body over random games."""

from __future__ import annotations

import json
import random
import re

import pytest

import rules_engine
from rules_engine.cards import standard_deck
from tests.helpers.web import every_signature_a_second_later, per_request_parts_removed
from tests.page import Page, squash
from webapp import create_app
from webapp.domain.play import ActionButton

rules = rules_engine.get("hebracs-dungeon")
SLUG = "hebracs-dungeon"

# Deal A — treasures of level 1 in reading order, then their enemies, then the Hand Deck:
# a battle won with a strength potion, a merchant, a trade, three spells, a black priestess,
# a descent and four aces on level 2 (the same deal as the browser test).
DECK_A = (
    "6S 9C 10C 4H 8D JC 2H 2H 3D 2C 2H 2H "
    "AC 10H JS AD AD KH QS 2S AS AC 2S 2S "
    "3H 4D "
    "AH AD AS AC 2H 2H 2H 2H 2H 2H 2H 2H "
    "AD AS AC AH 2S 2S 2S 2S 2S 2S 2S 2S "
    "5D 5D 5D 5D 5D 5D"
)
# Deal G: (1,1) hides a Genie of Death behind an empty chamber; a 5 × 6 level.
DECK_G = " ".join(["KS"] + ["2H"] * 29 + ["AH"] + ["2S"] * 29 + ["5D"] * 10)


def mv(row, col):
    return {"type": "move", "row": row, "col": col}


def start(seat_client, deck=DECK_A, **options):
    player = seat_client()
    player.start(SLUG, jokers="on", deck=deck, **options)
    return player


def compose(player, kind, **fields):
    """Post a composed action the way the page's forms do (compose + a_/j_ fields)."""
    data = {"csrf_token": player.csrf, "version": str(player.version), "compose": kind, "log_seen": "0"}
    for name, value in fields.items():
        data[name] = value
    response = player.http.post(f"/g/{player.game_id}/act", data=data, headers={"HX-Request": "true"})
    return player._remember(response)


def state_of(store, player):
    return rules.load(store.load(player.game_id).snapshot)


def body(response):
    return response.get_data(as_text=True)


def ok(response):
    assert response.status_code == 200, body(response)[:2000]
    return body(response)


def alert(response) -> str:
    """The words of a refusal: the text of its one alert."""
    return Page(body(response)).text("p.alert")


def encounter_buttons(page: Page) -> dict[str, dict]:
    """The encounter panel's action buttons: each label (without its key hint) and the action it posts."""
    return {button.label: button.action for button in page.buttons("#encounter")}


def chamber_label(page: Page, row: int, col: int) -> str:
    """How the map describes one chamber to a screen reader (and to the eye, in its cards)."""
    return page.attr(f'#level .pair[aria-label^="Chamber ({row},{col}):"]', "aria-label")


def log_lines(page: Page) -> list[str]:
    """The game log, one entry a line (suit symbols are inline spans: no space before them)."""
    return [squash(line.get_text()) for line in page.select("#log > li")]


def rematch_label(page: Page) -> str:
    return page.text('.result form[action$="/rematch"] button')


class TestCreate:
    def test_default_options_are_the_standard_game(self, seat_client, store):
        player = seat_client()
        player.start(SLUG, jokers="on")
        options = store.load(player.game_id).options
        assert options == {
            "decks": 2,
            "jokers": True,
            "rows": 3,
            "cols": 4,
            "max_life": 15,
            "inventory_limit": None,
            "strength_after_attack": False,
            "alignment": "good",
        }
        page = Page(body(player.get(f"/g/{player.game_id}")))
        assert len(page.select("#level ol.chambers.cols-4 > li.chamber")) == 12
        assert page.text("#status") == "Your move. Level 1: choose a corner chamber to enter."

    def test_every_option_reaches_the_engine(self, seat_client, store):
        player = seat_client()
        player.start(
            SLUG,
            decks="3",
            rows="4",
            cols="5",
            max_life="20",
            inventory_limit="6",
            strength_after_attack="on",
            alignment="evil",
        )
        options = store.load(player.game_id).options
        assert options == {
            "decks": 3,
            "jokers": False,
            "rows": 4,
            "cols": 5,
            "max_life": 20,
            "inventory_limit": 6,
            "strength_after_attack": True,
            "alignment": "evil",
        }
        state = state_of(store, player)
        assert len(state["hand_deck"]) == 3 * 52 - 40
        page = Page(body(player.get(f"/g/{player.game_id}")))
        assert len(page.select("#level ol.chambers.cols-5 > li.chamber")) == 20
        assert page.text(".hd-life p.big") == "Life 20 / 20" and page.text(".hd-life p.big > strong") == "20"
        assert page.text("#inv-title .hint") == "0 treasures of 6 allowed"

    @pytest.mark.parametrize(
        "fields,words",
        [
            ({"rows": "2", "cols": "5"}, "at least 12 chambers"),
            ({"cols": "7"}, "Columns of chambers must be between 3 and 6"),
            ({"inventory_limit": "2"}, "Inventory limit must be one of"),
            ({"deck": "AS KH"}, "at least 24 cards"),
        ],
    )
    def test_bad_options_are_a_readable_400(self, seat_client, store, fields, words):
        player = seat_client()
        player.get("/")
        response = player.http.post("/games", data={"game": SLUG, "csrf_token": player.csrf, **fields})
        assert response.status_code == 400
        assert words in alert(response)
        assert store.count_games() == 0


class TestStackedGame:
    def test_deal_a_to_victory_with_composed_actions(self, seat_client, store):
        player = start(seat_client)
        page = Page(body(player.get(f"/g/{player.game_id}")))
        entries = {button["aria-label"]: json.loads(button["value"]) for button in page.select("#level button.enter")}
        assert entries == {f"Enter chamber ({r},{c})": mv(r, c) for r, c in ((1, 1), (1, 4), (3, 1), (3, 4))}

        ok(player.act(mv(1, 1)))
        page = Page(ok(player.act(mv(1, 2))))
        assert page.text("#enc-title") == "Battle in chamber (1,2)"
        assert "A card worth 10 or more wins" in page.text("#encounter p.forecast")
        assert page.text("#encounter p.forecast > strong") == "10"
        page = Page(ok(player.act({"type": "attack"})))
        assert "you lost 7 life" in page.text("#encounter p.sum") and page.text("#encounter p.sum strong.dmg") == "7"
        page = Page(ok(player.act({"type": "drink", "card": "6S"})))
        assert "Strength potions +6 (next attack)" in page.texts("#encounter ul.chips > li")
        assert "A card worth 4 or more wins" in page.text("#encounter p.forecast")
        assert page.text("#encounter p.forecast > strong") == "4"
        ok(player.act({"type": "attack"}))
        assert state_of(store, player)["inventory"] == ["9C"]

        ok(player.act(mv(2, 1)))
        page = Page(ok(player.act(mv(2, 2))))
        assert page.text("#enc-title") == "A merchant in (2,2)"
        assert "Price 8 gems" in page.text("#encounter .foe") and "8 gems" in page.texts("#encounter .foe p > strong")
        gem = page.one('#encounter input[type="checkbox"][name="a_gems[]"][value="8D"]')
        assert gem.has_attr("checked")
        assert page.text("#encounter p.pay-out") == "8 gems: exactly enough."
        ok(compose(player, "buy", **{"a_gems[]": ["8D"]}))
        assert state_of(store, player)["inventory"] == ["9C", "JC"]

        ok(player.act(mv(3, 1)))
        ok(player.act(mv(1, 3)))
        page = Page(ok(player.act({"type": "propose_trade"})))
        assert page.text("#encounter fieldset.picker > legend") == "Your offer — he wants cards worth 10"
        assert page.text("#encounter p.pay-out") == "11 points for 10: enough (1 lost, no change)."
        refused = compose(player, "offer", j_cards="[]", **{"a_cards[]": ["3D"]})
        assert refused.status_code == 422 and "the trade needs 10" in alert(refused)
        refused = compose(player, "offer", j_cards="[]", **{"a_cards[]": ["9C", "JC", "3D"]})
        assert refused.status_code == 422 and "superfluous" in alert(refused)
        ok(compose(player, "offer", j_cards="[]", **{"a_cards[]": ["JC", "3D"]}))
        ok(player.act(mv(3, 2)))
        ok(player.act(mv(1, 4)))
        assert state_of(store, player)["inventory"] == ["9C", "10C", "2C", "4H"]

        page = Page(ok(compose(player, "cast", a_spell="remote_vision", j_potions="[]", **{"a_potions[]": ["2C"]})))
        assert page.text("#enc-title") == "Remote Vision"
        peek = page.one('#level button[name="action"][aria-label="Peek into (2,3)"]')
        assert json.loads(peek["value"]) == {"type": "peek", "row": 2, "col": 3}
        ok(player.act({"type": "peek", "row": 2, "col": 3}))
        peeked = ok(player.act({"type": "peek", "row": 2, "col": 4}))
        assert "face down, you saw queen of spades" in chamber_label(Page(peeked), 2, 3)
        watcher = seat_client()
        watched = body(watcher.watch(player.game_id))
        # Anywhere in the bytes, in any form: what she saw is hers alone.
        assert "QS" in cards_on_page(peeked) and "QS" not in cards_on_page(watched)
        ok(compose(player, "cast", a_spell="healing", j_potions="[]", **{"a_potions[]": ["10C"]}))
        assert state_of(store, player)["life"] == 13
        page = Page(
            ok(compose(player, "cast", a_spell="teleport", j_potions="[]", j_target="[2,3]", **{"a_potions[]": ["9C"]}))
        )
        state = state_of(store, player)
        assert state["inventory"] == ["2H"] and state["position"] == [2, 3]
        assert "The black priestess (Q♠) steals 4♥." in log_lines(page)  # she took the life potion

        page = Page(ok(player.act({"type": "descend"})))
        assert page.text("#level-title").startswith("Level 2 ")
        for col in (1, 2, 3, 4):
            page = Page(ok(player.act(mv(1, col))))
        assert page.text("#status").startswith("Game over. Victory! You hold the four legendary treasures.")
        assert rematch_label(page) == "Play the same deal again"
        assert page.text("p.hd-result-details").endswith("· a stacked deal (not ranked)")
        assert not page.select('[name="compose"]') and not page.select('[name="action"]')
        result = store.load(player.game_id).result
        assert result["reason"] == "victory" and result["scores"]["p1"] == page_score(page)
        # A45 on this real game: 13.7's formula over its own figures (two levels, four aces).
        assert (result["aces"], result["level"]) == (4, 2)
        assert result["scores"]["p1"] == (
            200 * 4
            + 50 * (2 - 1)
            + 5 * result["chambers_cleared"]
            + 1000
            + 10 * result["life"]
            + max(0, 300 - 3 * result["turns"])
        )

    def test_spells_refused_with_readable_reasons(self, seat_client, store):
        player = start(seat_client)
        for action in (mv(1, 1), mv(1, 2), {"type": "attack"}, {"type": "drink", "card": "6S"}, {"type": "attack"}):
            ok(player.act(action))
        before = state_of(store, player)
        refused = compose(player, "cast", a_spell="teleport", j_potions="[]", **{"a_potions[]": ["9C"]})
        assert refused.status_code == 400 and "must be a chamber" in alert(refused)  # the page's script asks first
        assert state_of(store, player) == before
        refused = compose(player, "cast", a_spell="revelation", j_potions="[]")
        assert refused.status_code == 422 and "needs 9" in alert(refused), body(refused)

    def test_genie_of_death_targets_are_chosen_on_the_map(self, seat_client, store):
        player = start(seat_client, deck=DECK_G, rows="5", cols="6")
        page = Page(ok(player.act(mv(1, 1))))
        assert page.text("#enc-title") == "The Genie of Death"
        ticked = page.select('#level input[type="checkbox"][form="hd-act"][data-pick][checked]')
        assert [json.loads(box["value"]) for box in ticked] == [[1, 2], [1, 3], [1, 4]]  # the canonical three
        picks = page.one('form#hd-act input[type="hidden"][name="j_targets"][data-picks]')
        assert json.loads(picks["value"]) == [[1, 2], [1, 3], [1, 4]]  # what the form posts before any change
        refused = compose(player, "destroy", j_targets="[[1,2],[5,6]]")
        assert refused.status_code == 422 and "exactly 3" in alert(refused)
        ok(compose(player, "destroy", j_targets="[[5,6],[2,2],[1,2]]"))
        state = state_of(store, player)
        assert [state["grid"][r - 1][c - 1]["enemy"] for r, c in ((5, 6), (2, 2), (1, 2), (1, 3))] == [
            None,
            None,
            None,
            "2S",
        ]

    def test_priestess_hebrac_adventurer_pause_and_overflow_panels(self, seat_client, store):
        deck = "5S 7H 3C JK JC 2H 2H 2H 2H 2H 2H 2H AC QH JK AD JD 2S 2S 2S 2S 2S 2S 2S 4D 9S KD"
        player = start(seat_client, deck=deck, strength_after_attack="on", inventory_limit="3")
        ok(player.act(mv(1, 1)))
        page = Page(ok(player.act(mv(1, 2))))
        assert page.text("#enc-title") == "A white priestess in (1,2)"
        buttons = encounter_buttons(page)
        assert buttons["Be healed (she keeps the treasure)"] == {"type": "priestess", "choice": "heal"}
        assert buttons["Take the treasure"] == {"type": "priestess", "choice": "treasure"}
        ok(player.act({"type": "priestess", "choice": "treasure"}))
        page = Page(ok(player.act(mv(1, 3))))
        assert page.text("#enc-title") == "Hebrac himself" and "costs you 5 life" in page.text("#encounter .foe")
        ok(player.act({"type": "play"}))
        page = Page(ok(player.act(mv(1, 4))))
        assert page.text("#enc-title") == "Hebrac's game for a card"
        assert "the next card of the Hand Deck" in page.text("#encounter .foe")
        ok(player.act({"type": "decline"}))
        page = Page(ok(player.act(mv(2, 1))))
        assert page.text("#enc-title") == "A fellow adventurer in (2,1)"
        buttons = encounter_buttons(page)
        assert buttons["Propose a trade"] == {"type": "propose_trade"} and buttons["Fight"] == {"type": "fight"}
        ok(player.act({"type": "fight"}))
        page = Page(ok(player.act({"type": "attack"})))
        assert page.text("#encounter p.sum") == "9 = 9 of 10: you would lose 1 life."
        drink = page.one('#encounter button[name="action"][aria-label="Drink 5♠"]')
        assert json.loads(drink["value"]) == {"type": "drink", "card": "5S"}
        assert squash(drink.get_text()).startswith("Drink 5♠ (+5)")  # then its key hint
        assert encounter_buttons(page)["Finish the attack"] == {"type": "finish_attack"}
        assert spell_states(page)["healing"] == "no spell can be added once the attack card is drawn"
        ok(player.act({"type": "finish_attack"}))
        page = Page(ok(player.act({"type": "attack"})))
        assert page.text("#enc-title") == "Too many treasures" and "You may hold 3." in page.text("#encounter")
        drops = page.select('#encounter button[name="action"][aria-label^="Drop "]')
        assert [button["aria-label"] for button in drops] == ["Drop 5♠", "Drop 7♥", "Drop 3♣", "Drop J♣"]
        assert [json.loads(button["value"]) for button in drops] == [
            {"type": "drop", "card": card} for card in ("5S", "7H", "3C", "JC")
        ]
        ok(player.act({"type": "drop", "card": "7H"}))
        assert state_of(store, player)["inventory"] == ["5S", "3C", "JC"]


@pytest.mark.parametrize(
    "hand,ending,reason",
    [
        ("AS AS", "You died in Hebrac's Dungeon.", "death"),
        ("", "Stranded: the Hand Deck ran out of cards.", "stranded"),
    ],
)
def test_death_and_stranded_end_the_game(seat_client, store, hand, ending, reason):
    deck = " ".join(["2H"] * 12 + ["10S"] * 12) + (" " + hand if hand else "")
    player = start(seat_client, deck=deck, max_life="10")
    ok(player.act(mv(1, 1)))
    page = Page(ok(player.act({"type": "attack"})))
    if reason == "death":
        assert "you lost 9 life" in page.text("#encounter p.sum") and page.text("#encounter p.sum strong.dmg") == "9"
        page = Page(ok(player.act({"type": "attack"})))
    assert page.text("#status").startswith(f"Game over. {ending}") and rematch_label(page) == "Play the same deal again"
    assert store.load(player.game_id).result["reason"] == reason
    assert not page.select('[name="action"]') and not page.select("#spellbook")


def test_a_decision_inside_a_battle_gets_its_own_panel(seat_client):
    deck = " ".join(["2C"] + ["2H"] * 11 + ["AC", "10H"] + ["2S"] * 10 + ["3H"])
    player = start(seat_client, deck=deck)
    ok(player.act(mv(1, 1)))
    ok(player.act(mv(1, 2)))
    page = Page(ok(compose(player, "cast", a_spell="remote_vision", j_potions="[]", **{"a_potions[]": ["2C"]})))
    assert page.text("#encounter h2#enc-title") == "Remote Vision"
    assert encounter_buttons(page)["Stop peeking"] == {"type": "stop_peeking"}
    paused = page.text("#encounter p.paused")  # after the battle's card, drawn small
    assert paused.endswith(
        "The battle in chamber (1,2) against life 10 goes on afterwards (spell used: Remote Vision)."
    )
    ok(player.act({"type": "peek", "row": 2, "col": 1}))
    page = Page(ok(player.act({"type": "stop_peeking"})))
    assert page.text("#enc-title") == "Battle in chamber (1,2)"
    assert "Spell used: Remote Vision (one per battle)" in page.texts("#encounter ul.chips > li.used")


def page_score(page: Page) -> int:
    return int(page.text(".result p.score"))


def spell_states(page: Page) -> dict[str, str]:
    """Each spell's line in the spell book: 'ready' or the reason it cannot be cast now."""
    out = {}
    for details in page.select('#spellbook details[id^="book-"]'):
        state = squash(details.select_one("summary .sp-state").get_text())
        out[details["id"].removeprefix("book-")] = (
            "ready" if state.startswith("Ready") else state.removeprefix("Not now: ")
        )
    return out


class TestSpellBook:
    def test_every_spell_is_listed_with_cost_and_a_reason(self, seat_client):
        player = start(seat_client)
        states = spell_states(Page(body(player.get(f"/g/{player.game_id}"))))
        assert set(states) == set(rules.data.SPELLS)
        assert states["paralysis"] == "Paralysis cannot be cast outside a battle: only in a battle"
        assert states["illusion"] == "Illusion cannot be cast outside a battle: only during a trade"
        assert states["healing"] == states["stone_statue"] == "you have no magic potion"

        for action in (mv(1, 1), mv(1, 2), {"type": "attack"}, {"type": "drink", "card": "6S"}, {"type": "attack"}):
            ok(player.act(action))
        page = Page(body(player.board()))
        states = spell_states(page)
        assert states["revelation"] == states["healing"] == states["teleport"] == "ready"
        assert states["genie_of_luck"] == "needs 11 points, your potions give 9"
        assert states["escape"] == "Escape cannot be cast outside a battle: only in a battle or facing an adventurer"
        assert states["hell_bomb"] == "ready"  # standing in (1,2), an explored chamber
        assert page.text("#book-revelation .cost") == "9 points"
        assert page.text("#book-genie_of_luck .cost") == "11 points"
        assert page.text("#inventory .g-magic .sum") == "9 points"  # what the potions give
        # the pre-ticked payment and what it leaves unused
        assert page.text("form#spell-teleport p.pay-out") == "9 points for 8: enough (1 lost, no change)."

    def test_one_spell_per_battle_is_visible(self, seat_client):
        player = start(seat_client, deck=DECK_A.replace("10H JS", "10H 9S", 1))
        for action in (
            mv(1, 1),
            mv(1, 2),
            {"type": "attack"},
            {"type": "drink", "card": "6S"},
            {"type": "attack"},
            mv(1, 3),
        ):
            ok(player.act(action))
        page = Page(ok(compose(player, "cast", a_spell="super_strength", j_potions="[]", **{"a_potions[]": ["9C"]})))
        assert "Spell used: Super Strength (one per battle)" in page.texts("#encounter ul.chips > li.used")
        states = spell_states(page)
        assert states["healing"] == "only one spell per battle: Super Strength was already cast in this one"

    def test_a_paralysis_that_changes_nothing_says_why(self, seat_client, store):
        # (1,1) and (1,2) are empty chambers holding 4C and the Bracelet; (1,3) is a 3S mercenary:
        # even an ace scores 1 + 3 = 4 against life 3, so Paralysis is refused (8.1, R31); the 5S
        # of (1,4) could still cost life, and there it is ready.
        deck = " ".join(["4C", "AS"] + ["2H"] * 10 + ["AH", "AD", "3S", "5S"] + ["2S"] * 8 + ["5D"] * 4)
        player = start(seat_client, deck=deck)
        for action in (mv(1, 1), mv(1, 2)):
            ok(player.act(action))
        page = Page(ok(player.act(mv(1, 3))))
        assert state_of(store, player)["inventory"] == ["4C", "AS"]
        assert spell_states(page)["paralysis"] == (
            "even an ace would score 4 against life 3, so your next attack cannot fail: Paralysis would change nothing"
        )
        refused = compose(player, "cast", a_spell="paralysis", j_potions="[]", **{"a_potions[]": ["4C"]})
        assert refused.status_code == 422 and "Paralysis would change nothing" in alert(refused)
        ok(player.act({"type": "attack"}))
        page = Page(ok(player.act(mv(1, 4))))
        assert spell_states(page)["paralysis"] == "ready"


class TestWatching:
    def test_spectator_sees_the_game_without_any_control(self, seat_client, store):
        player = start(seat_client)
        for action in (mv(1, 1), mv(1, 2), {"type": "attack"}):
            ok(player.act(action))
        watcher = seat_client()
        page = Page(body(watcher.watch(player.game_id)))
        assert page.text("#status").startswith("Watching live.")
        assert page.text("#enc-title") == "Battle in chamber (1,2)"
        assert "you lost 7 life" in page.text("#encounter p.sum")
        for control in ("form.play", '[name="action"]', '[name="compose"]', 'input[type="checkbox"]', "#spellbook"):
            assert not page.select(control), control
        watcher.version = player.version
        refused = watcher.act({"type": "attack"})
        assert refused.status_code == 403 and "watching" in alert(refused)

    def test_a_fresh_server_on_the_same_database_resumes_the_game(self, seat_client, db_url, monkeypatch):
        every_signature_a_second_later(monkeypatch)
        player = start(seat_client)
        for action in (mv(1, 1), mv(1, 2), {"type": "attack"}):
            ok(player.act(action))
        before = body(player.get(f"/g/{player.game_id}"))
        again = create_app({"TESTING": True, "DATABASE_URL": db_url}).test_client()
        path = f"/g/{player.game_id}"
        again.set_cookie("delve_seat", player.http.get_cookie("delve_seat", path=path).value, path=path)
        after = again.get(path).get_data(as_text=True)
        assert per_request_parts_removed(after) == per_request_parts_removed(before)
        assert Page(after).text("#enc-title") == "Battle in chamber (1,2)"

    def test_the_same_deal_again_once_over(self, seat_client, store):
        player = start(seat_client)
        ok(player.act(mv(1, 1)))
        page = Page(ok(player.act({"type": "resign"})))
        assert "You gave up the quest." in page.text("#status")
        response = player.http.post(f"/g/{player.game_id}/rematch", data={"csrf_token": player.csrf})
        assert response.status_code == 303
        new_id = response.headers["Location"].rsplit("/", 1)[-1]
        assert new_id != player.game_id
        assert store.load(new_id).options["deck"] == DECK_A.split()


class TestHowToPlay:
    def test_tables_come_from_the_engine_data(self, seat_client, monkeypatch):
        monkeypatch.setitem(rules.data.SPELLS["curse"], "text", "Marker: the curse text as the engine has it.")
        page = Page(body(seat_client().get("/how-to-play/hebracs-dungeon")))
        assert page.texts("tr#spell-curse > td")[-1] == "Marker: the curse text as the engine has it."
        for sid, spec in rules.data.SPELLS.items():
            assert page.text(f'tr#spell-{sid} > th[scope="row"]') == spec["name"]
            assert page.text(f"tr#spell-{sid} > td.num") == f"{spec['cost']}{' × n' if spec.get('scaled') else ''}"
        for heading, rows in (("enemies", rules.data.ENEMIES), ("treasures", rules.data.TREASURES)):
            table = page.one(f"h2#{heading}").find_next("table")
            assert [squash(th.get_text()) for th in table.select('tr > th[scope="row"]')] == [r["name"] for r in rows]
        assert len(page.select("ol.ranking > li")) == len(rules.data.STEAL_RANKING) == 40

    def test_linked_from_the_lobby_and_the_game(self, seat_client):
        player = start(seat_client)
        for path in ("/", f"/g/{player.game_id}"):
            assert Page(body(player.get(path))).select('a[href="/how-to-play/hebracs-dungeon"]'), path


# --- hidden information ------------------------------------------------------------------------

TOKEN = re.compile(r"[A-Za-z0-9_-]{20,}")  # game ids and CSRF tokens may contain "2C"
CODE = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([SHDC])(?![A-Za-z0-9])")
SYMBOL = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])(?:<span[^>]*>)?([♠♥♦♣])")
NAME = re.compile(
    r"(?<![\w–-])(ace|10|[2-9]|jack|queen|king) of (spades|hearts|diamonds|clubs)\b", re.I
)  # not "2–10 of …"
SUIT_OF = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
RANK_OF = {"ace": "A", "jack": "J", "queen": "Q", "king": "K"}


def cards_in_view(view: dict) -> set[str]:
    """Every card the view names: as a code, or written in a log line ("9♥")."""
    text = json.dumps(view, ensure_ascii=False)
    return {r + s for r, s in CODE.findall(text)} | {r + SUIT_OF[s] for r, s in SYMBOL.findall(text)}


def cards_on_page(page: str) -> set[str]:
    """Every card a page names: as a code, as rank + suit symbol, or in words."""
    text = TOKEN.sub(" ", page)
    found = {r + s for r, s in CODE.findall(text)}
    found |= {r + SUIT_OF[s] for r, s in SYMBOL.findall(text)}
    found |= {RANK_OF.get(r.lower(), r) + SUIT_OF[s.lower()] for r, s in NAME.findall(text)}
    return found


def assert_shows_only_the_view(page: str, state: dict, seat, seed: int):
    # Substrings of the raw body on purpose: hidden data must not appear anywhere, markup included.
    assert str(seed) not in page
    leaked = cards_on_page(page) - cards_in_view(rules.view(state, seat))
    assert not leaked, f"cards the {'player' if seat else 'spectator'} may not see: {sorted(leaked)}"


def test_the_checker_catches_a_face_down_card():
    state = rules.new_game(5, ["p1"], {"deck": DECK_A.split()})
    assert state["grid"][1][2]["enemy"] == "QS" and "QS" not in cards_in_view(rules.view(state, "p1"))
    for page in ('<p>Q<span class="suit black">♠</span></p>', "<p>queen of spades</p>", '{"card": "QS"}'):
        with pytest.raises(AssertionError):
            assert_shows_only_the_view(page, state, "p1", 5)


def assert_every_legal_action_has_a_control(page: Page, state: dict):
    """Whatever the rules allow now, the page offers: a button, or a form that composes it."""
    buttons = page.buttons()
    by_id = {button.id: button.action for button in buttons}
    for action in rules.legal_actions(state, "p1"):
        kind = action["type"]
        if kind == "cast":
            assert page.select(f'form#spell-{action["spell"]} button[name="compose"][value="cast"]'), action
        elif kind in ("buy", "offer", "destroy") and action.get("gems", action.get("cards", action.get("targets"))):
            assert page.select(f'button[name="compose"][value="{kind}"]'), action
        elif kind == "resign":
            assert any(b.action == action and b.label == "Give up this game" for b in buttons)
        else:
            assert by_id.get(ActionButton(action, "", None).dom_id) == action, action


@pytest.mark.parametrize("game_seed", [11, 12])
def test_no_hidden_card_in_any_body(seat_client, store, game_seed):
    # The whole standard deck (two decks, four jokers), shuffled from the test's own seed: the
    # server's secret seed only shuffles, so every run plays the same game.
    deck = standard_deck(jokers=4, decks=2)
    random.Random(game_seed).shuffle(deck)
    player = start(seat_client, deck=" ".join(deck))
    watcher = seat_client()
    watcher.watch(player.game_id)
    record = store.load(player.game_id)
    seed = record.seed
    state = rules.load(record.snapshot)
    assert_shows_only_the_view(body(player.get(f"/g/{player.game_id}")), state, "p1", seed)
    rng = random.Random(game_seed)
    for step in range(140):
        if rules.result(state) is not None:
            break
        actions = [a for a in rules.legal_actions(state, "p1") if a["type"] != "resign"]
        others = [a for a in actions if a["type"] != "move"]
        action = rng.choice(others if others and rng.random() < 0.6 else actions)
        response = player.act(action)
        assert response.status_code == 200, body(response)[:1000]
        state = state_of(store, player)
        assert_shows_only_the_view(body(response), state, "p1", seed)
        page = Page(body(response))
        assert_every_legal_action_has_a_control(page, state)
        ids = [tag["id"] for tag in page.select("[id]")]
        assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
        assert_shows_only_the_view(body(watcher.board()), state, None, seed)
        if step % 35 == 0:
            assert_shows_only_the_view(body(watcher.get(f"/g/{player.game_id}")), state, None, seed)
