"""Hidden information at scale: 1,000 random games of every game whose page has landed, each
played to its end (or a generous cap). No page, fragment, action response, socket message or
log line names a face-down card, the deck's order, the seed or a tile the viewer has not seen.

- Every game is checked at one step drawn uniformly from the whole game (its end included) —
  the engine's view for a random viewer and the board it renders into through the routes' own
  ``render_game`` (templates, buttons, roster: all of GET /board but the HTTP round trip, which
  is the cost) — and at its end through the view (one game in ``RENDER_EVERY`` renders it too).
- Where an order is the secret (the deck in Shuffle and Doom, Hebrac's Dungeon, Dungeon Cards),
  the same state with that order rotated must give the very same view and page: a page cannot
  depend on what it must not show. This is the whole check once a Shuffle and Doom deck has run
  out (big maps): the cards that come back were all seen before, only their order is secret.
- The first ``THROUGH_HTTP`` games of each game go through ``POST /act`` at their first steps,
  then ever more sparsely, and at their last: each response and a GET of another viewer's
  board, every seat's socket and a spectator's, and the log are checked, and at the end each
  seat's and a spectator's whole page.

The checks build on the per-game hidden-information tests (imported from those files), so a
rule sharpened there is sharpened here too: their own strict checks run on the end pages and on
every step of the first engine-run game, a one-pass card scan on everything else. A failure
names the game and its seed; ``GAME_SEED=<seed> pytest tests/web/test_hidden_at_scale.py -k
<slug>`` replays that game alone, through HTTP and then every step through every viewer's eyes."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.util
import json
import logging
import os
import random
import re
import time
from pathlib import Path

import pytest
from sqlalchemy import update

import rules_engine
from webapp import create_app, socketio
from webapp.domain.catalog import BY_SLUG
from webapp.domain.play import LoadedGame
from webapp.domain.seat_tokens import hash_token
from webapp.pages.board import render_game
from webapp.pages.tickets import ticket_for
from webapp.pages.viewer import SEAT_COOKIE_NAME as COOKIE_NAME
from webapp.storage.schema import games as games_table
from webapp.web.security import CSRF_FIELD

GAMES = 1000
THROUGH_HTTP = 25  # games of each game played through POST /act, sockets and the log
FULL = 1  # engine-run games rendered at each of their first FULL_STEPS steps, strictly checked
FULL_STEPS = 40
RENDER_EVERY = 16  # one game in this many also renders its end, and renders twice (see check_at)
# A generous cap: 95 % of the games end sooner (random play in Hebrac's Dungeon can wander
# cleared rooms for thousands of steps; the cap keeps 85 % of its steps).
MAX_STEPS = 600
WEB_TESTS = Path(__file__).resolve().parent
# What differs between two renders of one state: each request context has its own session (CSRF
# token), a signed presence ticket carries its own time, a countdown the seconds left.
PER_REQUEST = re.compile(
    r'(name="csrf_token" value=|data-presence=|"X-CSRF-Token": )"[^"]*"'
    r'|data-countdown="\d+">[^<]*'
)


@functools.cache
def checks(filename: str):
    """The helpers of a per-game web test file, loaded as a module (not collected twice)."""
    spec = importlib.util.spec_from_file_location(f"_hidden_checks_{Path(filename).stem}", WEB_TESTS / filename)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Every card a text names — as a code, as rank + suit symbol (markup between allowed), in words —
# read exactly as the Hebrac's test's ``cards_on_page`` reads them, in a sixth of its time: its
# patterns open with a lookbehind, which Python's re tries at every position of a 60 kB page,
# while these find a suit (letter, symbol, word) first and look back from there. The strictly
# checked texts are read both ways and must agree (``card_names(..., cross_check=True)``).
RANKS = frozenset(["10", *"23456789AJQK"])
TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
CODE_AT = re.compile(r"(?:10|[2-9AJQK])[SHDC]")
SUIT_AT = re.compile(r"[♠♥♦♣]")
SPAN_BEFORE = re.compile(r"<span[^>]*>$")
NAME_AT = re.compile(r" of (spades|hearts|diamonds|clubs)\b", re.I)
RANK_WORD_BEFORE = re.compile(r"(?:^|(?<=[^\w–-]))(ace|10|[2-9]|jack|queen|king)$", re.I)


def in_token(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] lies in a run of 20+ token characters (a game id, a CSRF token)."""
    while start > 0 and text[start - 1] in TOKEN_CHARS:
        start -= 1
    while end < len(text) and text[end] in TOKEN_CHARS:
        end += 1
    return end - start >= 20


def alnum_before(text: str, index: int) -> bool:
    return index > 0 and text[index - 1].isascii() and text[index - 1].isalnum()


def card_names(text: str, *, cross_check: bool = False) -> frozenset[str]:
    found = _card_names(text)
    if cross_check:
        assert found == checks("test_hebracs_dungeon_web.py").cards_on_page(text), (
            "card_names reads a text otherwise than cards_on_page"
        )
    return found


@functools.lru_cache(maxsize=16)  # a view's text is read for its own check and for what it names
def _card_names(text: str) -> frozenset[str]:
    web = checks("test_hebracs_dungeon_web.py")
    found = set()
    for match in CODE_AT.finditer(text):
        start, end = match.span()
        after = text[end : end + 1]
        if (
            not alnum_before(text, start)
            and not (after.isascii() and after.isalnum())
            and not in_token(text, start, end)
        ):
            found.add(match.group(0))
    for match in SUIT_AT.finditer(text):
        at = match.start()
        span = SPAN_BEFORE.search(text, max(0, at - 200), at)
        for rank_end in [at, span.start()] if span else [at]:
            rank = "10" if text[max(0, rank_end - 2) : rank_end] == "10" else text[rank_end - 1 : rank_end]
            if (
                rank in RANKS
                and not alnum_before(text, rank_end - len(rank))
                and not in_token(text, rank_end - len(rank), rank_end)
            ):
                found.add(rank + web.SUIT_OF[match.group(0)])
                break
    for match in NAME_AT.finditer(text):
        rank = RANK_WORD_BEFORE.search(text, max(0, match.start() - 6), match.start())
        if rank:
            found.add(
                web.RANK_OF.get(rank.group(1).lower(), rank.group(1).upper()) + web.SUIT_OF[match.group(1).lower()]
            )
    return frozenset(found)


def rotated(cards: list) -> list:
    return cards[1:] + cards[:1]


# ---- one harness per game: how to deal, how to play, what a viewer must not see ---------------


class Harness:
    slug = ""

    def hidden(self, state, viewer, view) -> set[str]:
        """The cards ``viewer`` (whose engine view is ``view``) must not see named in any form."""
        return set()

    def check_text(self, text, state, viewer) -> None:
        """Checks beyond card names that hold for any text (message, log line, view, page)."""

    def check_board(self, body, state, viewer, seed, *, strict: bool) -> None:
        """Checks of a rendered board; ``strict``: also the per-game test's own check."""

    def reshuffled(self, state):
        """The same state with only the secret order changed (None: no such order here)."""
        return None


class ShuffleAndDoom(Harness):
    slug = "shuffle-and-doom"

    def deal(self, rng):
        # Up to 7 a full deck never runs out; from 8 on it can, and the cards that come back
        # after a reshuffle were all seen before: then the draw pile's order is the secret.
        return ["p1"], {"size": rng.choice([4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 26])}

    def choose(self, state, rng):
        actions = self.rules.legal_actions(state, "p1")
        non_moves = [a for a in actions if a["type"] != "move"]
        return "p1", rng.choice(non_moves if non_moves and rng.random() < 0.7 else actions)

    def hidden(self, state, viewer, view):
        if state["exhaustions"]:
            return set()  # every card in the pile was seen before it came back: only order is secret
        return checks("test_hidden_information.py").hidden_cards(state)

    def check_board(self, body, state, viewer, seed, *, strict):
        if strict and not state["exhaustions"]:
            checks("test_hidden_information.py").assert_nothing_hidden(body, state, seed)

    def reshuffled(self, state):
        public_tail = len(self.rules.view(state, None)["bottom_headers"])
        secret = state["draw"][: len(state["draw"]) - public_tail]
        if len(set(secret)) < 2:
            return None
        return {**state, "draw": rotated(secret) + state["draw"][len(secret) :]}


class ClearTheDungeon(Harness):
    slug = "clear-the-dungeon"

    def deal(self, rng):
        return ["p1"], {}

    def choose(self, state, rng):
        return "p1", checks("test_clear_the_dungeon_web.py").greedy_random(state, rng)

    def hidden(self, state, viewer, view):
        web = checks("test_clear_the_dungeon_web.py")
        known = web.known_cards(e["text"] for e in view["log"]) | (
            {view["known_bottom"]} if view["known_bottom"] else set()
        )
        face_down = {slot["card"] for slot in state["dungeon"].values() if slot and not slot["face_up"]}
        return (set(state["power_deck"]) - known | face_down) - {"JK"}

    def check_board(self, body, state, viewer, seed, *, strict):
        if strict:  # its own check also counts the face-down places and that they all look alike
            checks("test_clear_the_dungeon_web.py").assert_nothing_hidden(body, state, viewer, seed)


class HebracsDungeon(Harness):
    slug = "hebracs-dungeon"

    def deal(self, rng):
        return ["p1"], {"jokers": rng.random() < 0.5}

    def choose(self, state, rng):
        actions = [a for a in self.rules.legal_actions(state, "p1") if a["type"] != "resign"]
        others = [a for a in actions if a["type"] != "move"]
        return "p1", rng.choice(others if others and rng.random() < 0.6 else actions)

    def hidden(self, state, viewer, view):
        """Its per-game test's rule: no card the viewer's view does not name."""
        in_view = checks("test_hebracs_dungeon_web.py").cards_in_view(view)
        return ALL_CARDS - in_view

    def check_board(self, body, state, viewer, seed, *, strict):
        if strict:
            checks("test_hebracs_dungeon_web.py").assert_shows_only_the_view(body, state, viewer, seed)

    def reshuffled(self, state):
        known = state["known_top"]  # Future Perception shows the player the top cards
        secret = state["hand_deck"][known:]
        if len(set(secret)) < 2:
            return None
        return {**state, "hand_deck": state["hand_deck"][:known] + rotated(secret)}


class DungeonCards(Harness):
    slug = "dungeon-cards"

    def deal(self, rng):
        classes = list(self.rules.data.CLASSES)
        players = [f"p{i}" for i in range(1, rng.choice([1, 1, 2, 3]) + 1)]
        solo = [c for c in classes if not self.rules.data.CLASSES[c]["party_only"]]
        picked = rng.sample(classes if len(players) > 1 else solo, len(players))
        return players, {
            "classes": dict(zip(players, picked)),
            "turn_mode": rng.choice(["single_draw", "three_card_hand"]),
        }

    def choose(self, state, rng):
        players = list(state["players"])
        for seat in rng.sample(players, len(players)):
            actions = [a for a in self.rules.legal_actions(state, seat) if a["type"] != "leave_game"]
            if actions:
                return seat, rng.choice(actions)
        return None

    def hidden(self, state, viewer, view):
        """Nothing of the deck, nor another character's hand, that the viewer's view lacks
        (discards come back into the deck, and the log names them)."""
        secret = set(state["deck"]) | {code for c in state["characters"] if c["id"] != viewer for code in c["hand"]}
        return secret - card_names(json.dumps(view, ensure_ascii=False))

    def reshuffled(self, state):
        if len(set(state["deck"])) < 2:
            return None
        return {**state, "deck": rotated(state["deck"])}


class DungeonOfDoom(Harness):
    slug = "dungeon-of-doom"

    def deal(self, rng):
        from rules_engine.games.dungeon_of_doom import generate_map, shipped_maps

        maps = list(shipped_maps().values())
        text = rng.choice(maps) if rng.random() < 0.6 else generate_map(rng.getrandbits(32), rng.choice("SM"))
        return [f"p{i}" for i in range(1, rng.choice([1, 2, 3, 4]) + 1)], {"map": text, "turn_seconds": 0}

    def choose(self, state, rng):
        """Gold is picked up when there is some; now and then a player leaves the dungeon, so
        games end (by escape or with no one left) instead of wandering for thousands of turns."""
        seat = state["turn"]["seat"]
        actions = self.rules.legal_actions(state, seat)
        pickup = [a for a in actions if a["type"] == "pickup"]
        if pickup and rng.random() < 0.9:
            return seat, pickup[0]
        if rng.random() < 0.025 and {"type": "leave"} in actions:
            return seat, {"type": "leave"}
        return seat, rng.choice([a for a in actions if a["type"] != "leave"] or actions)

    def check_text(self, text, state, viewer):
        if self.rules.result(state) is None:  # the whole map is shown once the game is over
            rows = [row for row in state["options"]["map"].splitlines()[2:] if len(row) > 12]
            assert not any(row in text for row in rows), "a row of the map text"

    def check_board(self, body, state, viewer, seed, *, strict):
        if self.rules.result(state) is None:  # the whole map is shown once the game is over
            web = checks("test_dungeon_of_doom_web.py")
            allowed = web.allowed_cells(state, viewer) if viewer else set()
            drawn = web.drawn_cells(body)
            assert drawn <= allowed, f"unseen tiles {sorted(drawn - allowed)[:5]}"


ALL_CARDS = {rank + suit for rank in ["A", *map(str, range(2, 11)), "J", "Q", "K"] for suit in "SHDC"}
HARNESSES = {
    h.slug: h for h in (ShuffleAndDoom(), ClearTheDungeon(), HebracsDungeon(), DungeonCards(), DungeonOfDoom())
}
for _h in HARNESSES.values():
    _h.rules = rules_engine.get(_h.slug)
LANDED = [slug for slug in HARNESSES if slug in BY_SLUG and BY_SLUG[slug].playable]


class Leak(AssertionError):
    pass


def inspect(harness, text, state, viewer, seed, where, view=None, *, strict=False):
    """The checks every text gets: no seed, no hidden card by any name, the game's own extras."""
    try:
        assert str(seed) not in text, "the seed"
        view = harness.rules.view(state, viewer) if view is None else view
        hidden = harness.hidden(state, viewer, view)
        leaked = card_names(text, cross_check=strict) & hidden if hidden or strict else set()  # the costly part
        assert not leaked, f"hidden cards {sorted(leaked)}"
        harness.check_text(text, state, viewer)
    except AssertionError as error:
        raise Leak(f"{where}, seen by {viewer or 'a spectator'}: {error}") from None


def inspect_board(harness, body, state, viewer, seed, where, *, strict=False, view=None):
    inspect(harness, body, state, viewer, seed, where, view, strict=strict)
    try:
        harness.check_board(body, state, viewer, seed, strict=strict)
    except AssertionError as error:
        raise Leak(f"{where}, seen by {viewer or 'a spectator'}: {error}") from None


# ---- rendering a state the way the routes do ----------------------------------------------------


class Renderer:
    """Renders any state of any game through ``render_game`` (what GET /board and POST /act
    return), in a request context. The roster comes from a stored table with those seats; the
    record carries the game's own seed and options, so a template showing them would be caught."""

    def __init__(self, app):
        self.app = app
        self.store = app.extensions["delve_store"]
        self.stages: dict[tuple, object] = {}

    def record(self, harness, players, options, seed, state, step):
        key = (harness.slug, tuple(players))
        if key not in self.stages:
            game_id = self.store.create_game(
                slug=harness.slug,
                options=options,
                seed=seed,
                players=players,
                snapshot=harness.rules.dump(state),
                lobby={"host": players[0], "choices": {}},
                seat_tokens={p: (p.upper(), hash_token(f"stage-{p}")) for p in players},
            )
            self.stages[key] = self.store.load(game_id)
        result = harness.rules.result(state)
        return dataclasses.replace(
            self.stages[key],
            options=options,
            seed=seed,
            version=step,
            revision=step,
            status="running" if result is None else "finished",
            result=result,
        )

    def render(self, record, rules, state, viewer, *, page=False) -> str:
        headers = {} if page else {"HX-Request": "true"}
        with self.app.test_request_context(f"/g/{record.id}/board", headers=headers):
            return render_game(LoadedGame(record, rules, state), viewer).get_data(as_text=True)


def check_at(harness, renderer, record, state, viewer, seed, where, *, render=True, twice=False, strict=False):
    """A state, for one viewer: its view, and (``render``) the board that view renders into.
    Where an order is secret, the same state with that order rotated must give the same view and
    (``twice``: rendering is the cost) the same board: the page cannot depend on what it must
    not show."""
    rules = harness.rules
    view = rules.view(state, viewer)
    inspect(harness, json.dumps(view, ensure_ascii=False), state, viewer, seed, f"{where} view", view)
    other = harness.reshuffled(state)
    if other is not None and rules.view(other, viewer) != view:
        raise Leak(f"{where}: {viewer or 'a spectator'}'s view changes with the secret order")
    if not render:
        return
    body = renderer.render(record, rules, state, viewer)
    inspect_board(harness, body, state, viewer, seed, f"{where} board", strict=strict, view=view)
    if other is not None and (twice or strict):
        mine, theirs = (
            PER_REQUEST.sub("", text).splitlines() for text in (body, renderer.render(record, rules, other, viewer))
        )
        if mine != theirs:
            first = next((a, b) for a, b in zip([*mine, ""], [*theirs, ""]) if a != b)
            raise Leak(f"{where}: {viewer or 'a spectator'}'s board changes with the secret order: {first}")


# ---- games through HTTP, sockets and the log ---------------------------------------------------


class LogLines(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(record.getMessage() + " " + json.dumps(getattr(record, "fields", {}), default=str))

    def take(self) -> list[str]:
        taken, self.lines = self.lines, []
        return taken


class Table:
    """A stored game whose seats are held by test clients (what a finished lobby leaves
    behind), a socket for every seat (with its page's presence ticket) and one for a spectator."""

    def __init__(self, app, harness, seed, players, options, state):
        self.app, self.harness, self.store = app, harness, app.extensions["delve_store"]
        # Tokens derived from the seed, never showing it (a page that did would fail the test).
        tokens = {p: hashlib.sha256(f"seat {seed} {p}".encode()).hexdigest() for p in players}
        self.game_id = self.store.create_game(
            slug=harness.slug,
            options=options,
            seed=seed,
            players=players,
            snapshot=harness.rules.dump(state),
            seat_tokens={p: (p.upper(), hash_token(tokens[p])) for p in players},
            lobby={"host": players[0], "choices": {}},
        )
        self.clients = {seat: app.test_client() for seat in [*players, None]}
        self.csrf, self.sockets = {}, {}
        for seat, client in self.clients.items():
            presence = None
            if seat is not None:
                # What a seat's page would hold (its whole page is fetched and checked at the end).
                client.set_cookie(COOKIE_NAME, tokens[seat], path=f"/g/{self.game_id}")
                self.csrf[seat] = hashlib.sha256(f"csrf {seed} {seat}".encode()).hexdigest()
                with client.session_transaction() as session:
                    session[CSRF_FIELD] = self.csrf[seat]
                presence = ticket_for(app, self.game_id, seat)
            sio = socketio.test_client(app, flask_test_client=client)
            ack = sio.emit("watch", {"game": self.game_id, "revision": 0, "presence": presence}, callback=True)
            assert ack["ok"], ack
            self.sockets[seat] = sio

    def show(self, state, version):
        """Put a state the engine reached in the game's row, as an action would have."""
        result = self.harness.rules.result(state)
        with self.store.engine.begin() as conn:
            conn.execute(
                update(games_table)
                .where(games_table.c.id == self.game_id)
                .values(
                    snapshot=json.dumps(self.harness.rules.dump(state)),
                    version=version,
                    revision=games_table.c.revision + 1,
                    status="running" if result is None else "finished",
                    result=json.dumps(result) if result is not None else None,
                )
            )

    def act(self, seat, action, version) -> str:
        response = self.clients[seat].post(
            f"/g/{self.game_id}/act",
            headers={"HX-Request": "true"},
            data={"csrf_token": self.csrf[seat], "version": str(version), "action": json.dumps(action)},
        )
        assert response.status_code == 200, response.get_data(as_text=True)[:500]
        return response.get_data(as_text=True)

    def get(self, viewer, *, page=False) -> str:
        path = f"/g/{self.game_id}" if page else f"/g/{self.game_id}/board"
        response = self.clients[viewer].get(path, headers={} if page else {"HX-Request": "true"})
        assert response.status_code == 200, response.get_data(as_text=True)[:500]
        return response.get_data(as_text=True)

    def state(self):
        return self.harness.rules.load(self.store.load(self.game_id).snapshot)

    def messages(self) -> list[tuple[str | None, dict]]:
        return [(seat, message) for seat, sio in self.sockets.items() for message in sio.get_received()]

    def close(self):
        for sio in self.sockets.values():
            sio.disconnect()


def posts_at(step: int) -> bool:
    """Which steps of an HTTP game go through POST /act (besides the last): the first few, then
    ever sparser (powers of four), so a long game costs a few more requests, not many more."""
    return step < 2 or step & (step - 1) == 0 and step.bit_length() % 2 == 1  # 0, 1, 4, 16, 64, …


def play_through_http(harness, app, seed, players, options, play, look, log, where):
    """One game to its end: the steps through POST /act and the whole of what leaves the server
    checked at each; the engine plays the steps between (stored as an action would store them)."""
    rules = harness.rules
    state = rules.new_game(seed=seed, players=players, options=options)
    table = Table(app, harness, seed, players, options, state)
    viewers = [*players, None]
    posted = 0
    stored = step = 0  # the step whose state the game's row holds; the steps played
    try:
        while rules.result(state) is None and step < MAX_STEPS:
            chosen = harness.choose(state, play)
            if chosen is None:
                break
            seat, action = chosen
            after = rules.apply(state, seat, action)
            if not posts_at(step) and rules.result(after) is None:
                state, step = after, step + 1
                continue
            if stored != step:
                table.show(state, step)
            body = table.act(seat, action, step)
            state, step = table.state(), step + 1
            stored = step
            assert rules.dump(state) == rules.dump(after), "the server's game is the engine's"
            inspect_board(harness, body, state, seat, seed, f"{where} step {step} action response")
            if posted % 2 == 0:  # and what the doorbell makes another page fetch (each GET costs)
                watcher = look.choice(viewers)
                inspect_board(harness, table.get(watcher), state, watcher, seed, f"{where} step {step} board")
            for receiver, message in table.messages():
                # A push carries a revision and nothing else (chat aside: none here).
                assert message["name"] == "changed" and set(message["args"][0]) == {"revision"}, message
                inspect(harness, json.dumps(message), state, receiver, seed, f"{where} step {step} socket")
            for line in log.take():
                inspect(harness, line, state, None, seed, f"{where} step {step} log")
            posted += 1
        if stored != step:
            table.show(state, step)
        for viewer in viewers:  # the end: each seat's whole page, and a spectator's
            inspect_board(harness, table.get(viewer, page=True), state, viewer, seed, f"{where} end page", strict=True)
        for line in log.take():
            inspect(harness, line, state, None, seed, f"{where} end log")
    finally:
        table.close()
    return posted


# ---- the test ----------------------------------------------------------------------------------


def game_seeds(slug: str) -> list[int]:
    """The run's seeds, derived from the slug; GAME_SEED=<seed> replays that one game alone."""
    if os.environ.get("GAME_SEED"):
        return [int(os.environ["GAME_SEED"])]
    rng = random.Random(f"hidden:{slug}")
    return [rng.getrandbits(62) for _ in range(GAMES)]


def play_through_engine(harness, renderer, seed, players, options, play, look, where, *, every_step: int, counts):
    """One game to its end in the engine alone; checked at a step drawn uniformly from the whole
    game (its end included) and at its end, and at each of its first ``every_step`` steps (the
    strict checks, every viewer)."""
    rules = harness.rules
    state = rules.new_game(seed=seed, players=players, options=options)
    steps = 0
    sample, sample_step = state, 0  # reservoir sampling: the length is not known in advance
    while True:
        if steps < every_step:
            record = renderer.record(harness, players, options, seed, state, steps)
            for viewer in [*players, None]:
                check_at(harness, renderer, record, state, viewer, seed, f"{where} step {steps}", strict=True)
        if rules.result(state) is not None or steps == MAX_STEPS:
            break
        chosen = harness.choose(state, play)
        if chosen is None:
            break
        state = rules.apply(state, *chosen)
        steps += 1
        if look.randrange(steps + 1) == 0:
            sample, sample_step = state, steps
    counts["steps"] += steps
    counts["ended"] += rules.result(state) is not None
    # The sampled step rendered, the end through the view; one game in RENDER_EVERY also renders
    # its end, and renders twice where an order is secret (rendering is the cost). A Shuffle and
    # Doom deck that ran out and came back leaves only its order secret: always rendered twice.
    extra = look.randrange(RENDER_EVERY) == 0
    for at, moment, render in ((sample_step, sample, True), (steps, state, extra)):
        record = renderer.record(harness, players, options, seed, moment, at)
        order_only = bool(moment.get("exhaustions"))
        check_at(
            harness,
            renderer,
            record,
            moment,
            look.choice([*players, None]),
            seed,
            f"{where} step {at}",
            render=render,
            twice=extra or order_only,
        )
        counts["rendered"] += render
        counts["order only"] += order_only


@pytest.mark.parametrize("slug", LANDED)
def test_random_games_show_no_hidden_information(slug, tmp_path):
    harness = HARNESSES[slug]
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'delve.sqlite3'}"})
    renderer = Renderer(app)
    log = LogLines()
    logging.getLogger().addHandler(log)
    replay = bool(os.environ.get("GAME_SEED"))
    counts = {"games": 0, "ended": 0, "steps": 0, "rendered": 0, "order only": 0, "posted": 0}
    started = time.perf_counter()
    http_seconds = 0.0
    try:
        for number, seed in enumerate(game_seeds(slug)):
            where = f"game {number} (GAME_SEED={seed})"
            # The game (deal and moves) follows from its seed alone; what is looked at, and by
            # whom, from a second stream: a replay plays the very same game.
            play, look = random.Random(seed), random.Random(f"look {seed}")
            players, options = harness.deal(play)
            if number < THROUGH_HTTP:
                counts["posted"] += play_through_http(harness, app, seed, players, options, play, look, log, where)
                http_seconds = time.perf_counter() - started
                every_step = None
                if replay:  # and the same game again in the engine, every step through every eye
                    play = random.Random(seed)
                    harness.deal(play)
                    every_step = MAX_STEPS + 1
            else:
                every_step = FULL_STEPS if number - THROUGH_HTTP < FULL else 0
            if every_step is not None:
                play_through_engine(
                    harness,
                    renderer,
                    seed,
                    players,
                    options,
                    play,
                    look,
                    where,
                    every_step=every_step,
                    counts=counts,
                )
            counts["games"] += 1
    finally:
        logging.getLogger().removeHandler(log)
        app.extensions["delve_store"].engine.dispose()
    print(f"{slug}: {counts} in {time.perf_counter() - started:.1f} s ({http_seconds:.1f} s through HTTP)")
    if not replay:
        assert counts["games"] == GAMES and counts["posted"] >= 2 * THROUGH_HTTP
        assert counts["ended"] >= 0.9 * (GAMES - THROUGH_HTTP), "the games are played to their end"
        if slug == "shuffle-and-doom":
            assert counts["order only"] >= 20, "decks that ran out and came back were checked"
