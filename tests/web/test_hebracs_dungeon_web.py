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
from webapp import create_app
from webapp.play import ActionButton

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
        page = body(player.get(f"/g/{player.game_id}"))
        assert page.count('<li class="chamber') == 12
        assert "Level 1: choose a corner chamber to enter." in page

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
        page = body(player.get(f"/g/{player.game_id}"))
        assert page.count('<li class="chamber') == 20 and "chambers cols-5" in page
        assert "<strong>20</strong> / 20" in page and "0 treasures of 6 allowed" in page

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
        assert words in body(response)
        assert store.count_games() == 0


class TestStackedGame:
    def test_deal_a_to_victory_with_composed_actions(self, seat_client, store):
        player = start(seat_client)
        page = body(player.get(f"/g/{player.game_id}"))
        entries = set(re.findall(r'aria-label="Enter chamber \((\d),(\d)\)"', page))
        assert entries == {("1", "1"), ("1", "4"), ("3", "1"), ("3", "4")}

        ok(player.act(mv(1, 1)))
        page = ok(player.act(mv(1, 2)))
        assert "Battle in chamber (1,2)" in page and "A card worth <strong>10</strong> or more wins" in page
        page = ok(player.act({"type": "attack"}))
        assert 'you lost <strong class="dmg">7</strong> life' in page
        page = ok(player.act({"type": "drink", "card": "6S"}))
        assert "Strength potions +6 (next attack)" in page and "A card worth <strong>4</strong> or more wins" in page
        ok(player.act({"type": "attack"}))
        assert state_of(store, player)["inventory"] == ["9C"]

        ok(player.act(mv(2, 1)))
        page = ok(player.act(mv(2, 2)))
        assert "A merchant in (2,2)" in page and "Price <strong>8 gems</strong>" in page
        assert re.search(r'name="a_gems\[\]" value="8D" data-value="8" checked', page)
        assert "8 gems: exactly enough." in page
        ok(compose(player, "buy", **{"a_gems[]": ["8D"]}))
        assert state_of(store, player)["inventory"] == ["9C", "JC"]

        ok(player.act(mv(3, 1)))
        ok(player.act(mv(1, 3)))
        page = ok(player.act({"type": "propose_trade"}))
        assert "he wants cards worth 10" in page and "11 points for 10: enough (1 lost, no change)." in page
        refused = compose(player, "offer", j_cards="[]", **{"a_cards[]": ["3D"]})
        assert refused.status_code == 422 and "the trade needs 10" in body(refused)
        refused = compose(player, "offer", j_cards="[]", **{"a_cards[]": ["9C", "JC", "3D"]})
        assert refused.status_code == 422 and "superfluous" in body(refused)
        ok(compose(player, "offer", j_cards="[]", **{"a_cards[]": ["JC", "3D"]}))
        ok(player.act(mv(3, 2)))
        ok(player.act(mv(1, 4)))
        assert state_of(store, player)["inventory"] == ["9C", "10C", "2C", "4H"]

        page = ok(compose(player, "cast", a_spell="remote_vision", j_potions="[]", **{"a_potions[]": ["2C"]}))
        assert "Remote Vision" in page and 'aria-label="Peek into (2,3)"' in page
        ok(player.act({"type": "peek", "row": 2, "col": 3}))
        page = ok(player.act({"type": "peek", "row": 2, "col": 4}))
        assert "face down, you saw queen of spades" in page
        watcher = seat_client()
        watched = body(watcher.watch(player.game_id))
        assert "QS" in cards_on_page(page) and "QS" not in cards_on_page(watched)  # what she saw is hers alone
        ok(compose(player, "cast", a_spell="healing", j_potions="[]", **{"a_potions[]": ["10C"]}))
        assert state_of(store, player)["life"] == 13
        page = ok(
            compose(player, "cast", a_spell="teleport", j_potions="[]", j_target="[2,3]", **{"a_potions[]": ["9C"]})
        )
        state = state_of(store, player)
        assert state["inventory"] == ["2H"] and state["position"] == [2, 3]
        assert "The black priestess (Q" in page and "steals 4" in page  # she took the life potion

        page = ok(player.act({"type": "descend"}))
        assert "Level 2" in page
        for col in (1, 2, 3, 4):
            page = ok(player.act(mv(1, col)))
        assert "Victory! You hold the four legendary treasures." in page
        assert "Play the same deal again" in page and "a stacked deal (not ranked)" in page
        assert 'name="compose"' not in page and 'name="action"' not in page
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
        assert refused.status_code == 400 and "must be a chamber" in body(refused)  # the page's script asks first
        assert state_of(store, player) == before
        refused = compose(player, "cast", a_spell="revelation", j_potions="[]")
        assert refused.status_code == 422 and "needs 9" in body(refused), body(refused)

    def test_genie_of_death_targets_are_chosen_on_the_map(self, seat_client, store):
        player = start(seat_client, deck=DECK_G, rows="5", cols="6")
        page = ok(player.act(mv(1, 1)))
        assert "The Genie of Death" in page
        ticked = re.findall(r'data-pick value="\[(\d+),(\d+)\]" checked', page)
        assert ticked == [("1", "2"), ("1", "3"), ("1", "4")]  # the canonical three, pre-ticked
        assert 'value="[[1, 2], [1, 3], [1, 4]]" data-picks' in page
        refused = compose(player, "destroy", j_targets="[[1,2],[5,6]]")
        assert refused.status_code == 422 and "exactly 3" in body(refused)
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
        page = ok(player.act(mv(1, 2)))
        assert "A white priestess in (1,2)" in page
        assert has_button(page, "Be healed (she keeps the treasure)") and has_button(page, "Take the treasure")
        ok(player.act({"type": "priestess", "choice": "treasure"}))
        page = ok(player.act(mv(1, 3)))
        assert "Hebrac himself" in page and "costs you <strong>5 life</strong>" in page
        ok(player.act({"type": "play"}))
        page = ok(player.act(mv(1, 4)))
        assert "Hebrac&#39;s game for a card" in page and "the next card of the Hand Deck" in page
        ok(player.act({"type": "decline"}))
        page = ok(player.act(mv(2, 1)))
        assert (
            "A fellow adventurer in (2,1)" in page and has_button(page, "Propose a trade") and has_button(page, "Fight")
        )
        ok(player.act({"type": "fight"}))
        page = ok(player.act({"type": "attack"}))
        assert "9 = <strong>9</strong> of 10:" in page and "you would lose 1 life." in page
        assert 'aria-label="Drink 5S"' in page and "(+5)" in page and has_button(page, "Finish the attack")
        assert TestSpellBook().spell_states(page)["healing"] == "no spell can be added once the attack card is drawn"
        ok(player.act({"type": "finish_attack"}))
        page = ok(player.act({"type": "attack"}))
        assert "Too many treasures" in page and "You may hold 3." in page
        assert re.findall(r'aria-label="Drop (\w+)"', page) == ["5S", "7H", "3C", "JC"]
        ok(player.act({"type": "drop", "card": "7H"}))
        assert state_of(store, player)["inventory"] == ["5S", "3C", "JC"]


@pytest.mark.parametrize(
    "hand,ending,reason",
    [
        ("AS AS", "You died in Hebrac&#39;s Dungeon.", "death"),
        ("", "Stranded: the Hand Deck ran out of cards.", "stranded"),
    ],
)
def test_death_and_stranded_end_the_game(seat_client, store, hand, ending, reason):
    deck = " ".join(["2H"] * 12 + ["10S"] * 12) + (" " + hand if hand else "")
    player = start(seat_client, deck=deck, max_life="10")
    ok(player.act(mv(1, 1)))
    page = ok(player.act({"type": "attack"}))
    if reason == "death":
        assert 'you lost <strong class="dmg">9</strong> life' in page
        page = ok(player.act({"type": "attack"}))
    assert f"Game over.</strong> <span>{ending}" in page and "Play the same deal again" in page
    assert store.load(player.game_id).result["reason"] == reason
    assert 'name="action"' not in page and 'id="spellbook"' not in page


def test_a_decision_inside_a_battle_gets_its_own_panel(seat_client):
    deck = " ".join(["2C"] + ["2H"] * 11 + ["AC", "10H"] + ["2S"] * 10 + ["3H"])
    player = start(seat_client, deck=deck)
    ok(player.act(mv(1, 1)))
    ok(player.act(mv(1, 2)))
    page = ok(compose(player, "cast", a_spell="remote_vision", j_potions="[]", **{"a_potions[]": ["2C"]}))
    assert '<h2 id="enc-title">Remote Vision</h2>' in page and has_button(page, "Stop peeking")
    assert "The battle in chamber (1,2) against life 10 goes on afterwards (spell used: Remote Vision)." in page
    ok(player.act({"type": "peek", "row": 2, "col": 1}))
    page = ok(player.act({"type": "stop_peeking"}))
    assert "Battle in chamber (1,2)" in page and "Spell used: Remote Vision (one per battle)" in page


def has_button(page: str, text: str) -> bool:
    return re.search(r"<button[^>]*>\s*" + re.escape(text) + r"\s*<", page) is not None


def page_score(page: str) -> int:
    return int(re.search(r'<p class="score">(\d+)</p>', page).group(1))


class TestSpellBook:
    def spell_states(self, page):
        """Each spell's line: 'ready' or the reason it cannot be cast now."""
        out = {}
        for sid, state in re.findall(r'<details id="book-(\w+)".*?<span class="sp-state">(.*?)</span>', page, re.S):
            out[sid] = "ready" if state.startswith("Ready") else state.removeprefix("Not now: ")
        return out

    def test_every_spell_is_listed_with_cost_and_a_reason(self, seat_client):
        player = start(seat_client)
        states = self.spell_states(body(player.get(f"/g/{player.game_id}")))
        assert set(states) == set(rules.data.SPELLS)
        assert states["paralysis"] == "Paralysis cannot be cast outside a battle: only in a battle"
        assert states["illusion"] == "Illusion cannot be cast outside a battle: only during a trade"
        assert states["healing"] == states["stone_statue"] == "you have no magic potion"

        for action in (mv(1, 1), mv(1, 2), {"type": "attack"}, {"type": "drink", "card": "6S"}, {"type": "attack"}):
            ok(player.act(action))
        page = body(player.board())
        states = self.spell_states(page)
        assert states["revelation"] == states["healing"] == states["teleport"] == "ready"
        assert states["genie_of_luck"] == "needs 11 points, your potions give 9"
        assert states["escape"] == "Escape cannot be cast outside a battle: only in a battle or facing an adventurer"
        assert states["hell_bomb"] == "ready"  # standing in (1,2), an explored chamber
        assert "9 points" in page and "11 points" in page
        # the pre-ticked payment and what it leaves unused
        assert "9 points for 8: enough (1 lost, no change)." in page

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
        page = ok(compose(player, "cast", a_spell="super_strength", j_potions="[]", **{"a_potions[]": ["9C"]}))
        assert "Spell used: Super Strength (one per battle)" in page
        states = self.spell_states(page)
        assert states["healing"] == "only one spell per battle: Super Strength was already cast in this one"

    def test_a_paralysis_that_changes_nothing_says_why(self, seat_client, store):
        # (1,1) and (1,2) are empty chambers holding 4C and the Bracelet; (1,3) is a 3S mercenary:
        # even an ace scores 1 + 3 = 4 against life 3, so Paralysis is refused (8.1, R31); the 5S
        # of (1,4) could still cost life, and there it is ready.
        deck = " ".join(["4C", "AS"] + ["2H"] * 10 + ["AH", "AD", "3S", "5S"] + ["2S"] * 8 + ["5D"] * 4)
        player = start(seat_client, deck=deck)
        for action in (mv(1, 1), mv(1, 2)):
            ok(player.act(action))
        page = ok(player.act(mv(1, 3)))
        assert state_of(store, player)["inventory"] == ["4C", "AS"]
        assert self.spell_states(page)["paralysis"] == (
            "even an ace would score 4 against life 3, so your next attack cannot fail: Paralysis would change nothing"
        )
        refused = compose(player, "cast", a_spell="paralysis", j_potions="[]", **{"a_potions[]": ["4C"]})
        assert refused.status_code == 422 and "Paralysis would change nothing" in body(refused)
        ok(player.act({"type": "attack"}))
        page = ok(player.act(mv(1, 4)))
        assert self.spell_states(page)["paralysis"] == "ready"


class TestWatching:
    def test_spectator_sees_the_game_without_any_control(self, seat_client, store):
        player = start(seat_client)
        for action in (mv(1, 1), mv(1, 2), {"type": "attack"}):
            ok(player.act(action))
        watcher = seat_client()
        page = body(watcher.watch(player.game_id))
        assert "Watching live." in page and "Battle in chamber (1,2)" in page and "you lost" in page
        for control in ('<form class="play', 'name="action"', 'name="compose"', 'type="checkbox"', 'id="spellbook"'):
            assert control not in page, control
        watcher.version = player.version
        refused = watcher.act({"type": "attack"})
        assert refused.status_code == 403 and "watching" in body(refused)

    def test_a_fresh_server_on_the_same_database_resumes_the_game(self, seat_client, db_url):
        player = start(seat_client)
        for action in (mv(1, 1), mv(1, 2), {"type": "attack"}):
            ok(player.act(action))
        before = body(player.get(f"/g/{player.game_id}"))
        again = create_app({"TESTING": True, "DATABASE_URL": db_url}).test_client()
        path = f"/g/{player.game_id}"
        again.set_cookie("delve_seat", player.http.get_cookie("delve_seat", path=path).value, path=path)
        after = again.get(path).get_data(as_text=True)
        strip = re.compile(r'name="csrf_token" value="[^"]*"|"X-CSRF-Token": "[^"]*"')
        assert strip.sub("", after) == strip.sub("", before)
        assert "Battle in chamber (1,2)" in after

    def test_the_same_deal_again_once_over(self, seat_client, store):
        player = start(seat_client)
        ok(player.act(mv(1, 1)))
        page = ok(player.act({"type": "resign"}))
        assert "You gave up the quest." in page
        response = player.http.post(f"/g/{player.game_id}/rematch", data={"csrf_token": player.csrf})
        assert response.status_code == 303
        new_id = response.headers["Location"].rsplit("/", 1)[-1]
        assert new_id != player.game_id
        assert store.load(new_id).options["deck"] == DECK_A.split()


class TestHowToPlay:
    def test_tables_come_from_the_engine_data(self, seat_client, monkeypatch):
        monkeypatch.setitem(rules.data.SPELLS["curse"], "text", "Marker: the curse text as the engine has it.")
        page = body(seat_client().get("/how-to-play/hebracs-dungeon"))
        assert "Marker: the curse text as the engine has it." in page
        for spec in rules.data.SPELLS.values():
            assert f'<th scope="row">{spec["name"]}</th><td class="num">{spec["cost"]}' in page
        for row in rules.data.ENEMIES + rules.data.TREASURES:
            assert f'<th scope="row">{row["name"]}</th>' in page
        ranking = re.search(r'<ol class="ranking">(.*?)</ol>', page, re.S).group(1)
        assert ranking.count("<li>") == len(rules.data.STEAL_RANKING) == 40

    def test_linked_from_the_lobby_and_the_game(self, seat_client):
        player = start(seat_client)
        assert 'href="/how-to-play/hebracs-dungeon"' in body(player.get("/"))
        assert 'href="/how-to-play/hebracs-dungeon"' in body(player.get(f"/g/{player.game_id}"))


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
    return {r + s for r, s in CODE.findall(json.dumps(view))}


def cards_on_page(page: str) -> set[str]:
    """Every card a page names: as a code, as rank + suit symbol, or in words."""
    text = TOKEN.sub(" ", page)
    found = {r + s for r, s in CODE.findall(text)}
    found |= {r + SUIT_OF[s] for r, s in SYMBOL.findall(text)}
    found |= {RANK_OF.get(r.lower(), r) + SUIT_OF[s.lower()] for r, s in NAME.findall(text)}
    return found


def assert_shows_only_the_view(page: str, state: dict, seat, seed: int):
    assert str(seed) not in page
    leaked = cards_on_page(page) - cards_in_view(rules.view(state, seat))
    assert not leaked, f"cards the {'player' if seat else 'spectator'} may not see: {sorted(leaked)}"


def test_the_checker_catches_a_face_down_card():
    state = rules.new_game(5, ["p1"], {"deck": DECK_A.split()})
    assert state["grid"][1][2]["enemy"] == "QS" and "QS" not in cards_in_view(rules.view(state, "p1"))
    for page in ('<p>Q<span class="suit black">♠</span></p>', "<p>queen of spades</p>", '{"card": "QS"}'):
        with pytest.raises(AssertionError):
            assert_shows_only_the_view(page, state, "p1", 5)


def assert_every_legal_action_has_a_control(page: str, state: dict):
    """Whatever the rules allow now, the page offers: a button, or a form that composes it."""
    for action in rules.legal_actions(state, "p1"):
        kind = action["type"]
        if kind == "cast":
            assert f'id="spell-{action["spell"]}"' in page, action
        elif kind in ("buy", "offer", "destroy") and action.get("gems", action.get("cards", action.get("targets"))):
            assert f'name="compose" value="{kind}"' in page, action
        elif kind == "resign":
            assert "Give up this game" in page
        else:
            assert f'id="{ActionButton(action, "", None).dom_id}"' in page, action


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
        assert_every_legal_action_has_a_control(body(response), state)
        ids = re.findall(r'\sid="([^"]+)"', body(response))
        assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
        assert_shows_only_the_view(body(watcher.board()), state, None, seed)
        if step % 35 == 0:
            assert_shows_only_the_view(body(watcher.get(f"/g/{player.game_id}")), state, None, seed)
