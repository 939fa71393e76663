"""Hidden information at scale: 1,000 random games of every game whose page has landed. The
engine plays every step directly; the board fragment is rendered through the Flask test client,
for a seat or a spectator picked at random, at every step of the first games and at one random
step (and the end) of every fourth game after them — rendering and its checks cost ~10 ms, the
engine ~0.05 ms a step, so that is where the time bound is. The first two games are played
through POST /act itself (every response checked), with a spectator's socket and the log
captured. No body, socket message or log line names a face-down card, the deck's order, the
seed or a tile the viewer has not seen.

The checks are the ones the per-game hidden-information tests use (imported from those files),
so a rule sharpened there is sharpened here too."""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import logging
import random
import re
import time
from pathlib import Path

import pytest
from sqlalchemy import update

import rules_engine
from webapp import create_app, socketio
from webapp.catalog import BY_SLUG
from webapp.seats import COOKIE_NAME, hash_token
from webapp.store import games as games_table

GAMES = 1000
THROUGH_ACT = 2  # games played through POST /act (every response checked), a socket and the log watched
FULL = 4  # games rendered at every step (these first ones included) …
SPARSE = 4  # … then every fourth game at one random step and at its end: rendering is the cost
MAX_STEPS = 100
WEB_TESTS = Path(__file__).resolve().parents[1] / "web"
CSRF_RE = re.compile(r'name="csrf_token" value="([^"]+)"')


@functools.cache
def checks(filename: str):
    """The helpers of a per-game web test file, loaded as a module (not collected twice)."""
    spec = importlib.util.spec_from_file_location(f"_hidden_checks_{Path(filename).stem}", WEB_TESTS / filename)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def card_names(text: str) -> set[str]:
    """Every card a text names (code, rank + suit symbol, words), as the Hebrac's test reads them."""
    return checks("test_hebracs_dungeon_web.py").cards_on_page(text)


# ---- one harness per game: how to deal, how to play, what a viewer must not see ---------------


class ShuffleAndDoom:
    slug = "shuffle-and-doom"

    def deal(self, rng):
        return ["p1"], {"size": rng.choice([4, 5, 6, 7])}

    def choose(self, state, rng):
        actions = self.rules.legal_actions(state, "p1")
        non_moves = [a for a in actions if a["type"] != "move"]
        return "p1", rng.choice(non_moves if non_moves and rng.random() < 0.7 else actions)

    def check(self, body, state, viewer, seed, *, board=True):
        checks("test_hidden_information.py").assert_nothing_hidden(body, state, seed)


class ClearTheDungeon:
    slug = "clear-the-dungeon"

    def deal(self, rng):
        return ["p1"], {}

    def choose(self, state, rng):
        return "p1", checks("test_clear_the_dungeon_web.py").greedy_random(state, rng)

    def check(self, body, state, viewer, seed, *, board=True):
        web = checks("test_clear_the_dungeon_web.py")
        if board:
            web.assert_nothing_hidden(body, state, viewer, seed)
            return
        # A message or a log line has no board to count face-down places on: only names count.
        assert str(seed) not in body
        view = self.rules.view(state, viewer)
        known = web.known_cards(view["log"]) | ({view["known_bottom"]} if view["known_bottom"] else set())
        face_down = {slot["card"] for slot in state["dungeon"].values() if slot and not slot["face_up"]}
        for code in (set(state["power_deck"]) - known | face_down) - {"JK"}:
            web.assert_card_absent(body, code)


class HebracsDungeon:
    slug = "hebracs-dungeon"

    def deal(self, rng):
        return ["p1"], {"jokers": rng.random() < 0.5}

    def choose(self, state, rng):
        actions = [a for a in self.rules.legal_actions(state, "p1") if a["type"] != "resign"]
        others = [a for a in actions if a["type"] != "move"]
        return "p1", rng.choice(others if others and rng.random() < 0.6 else actions)

    def check(self, body, state, viewer, seed, *, board=True):
        checks("test_hebracs_dungeon_web.py").assert_shows_only_the_view(body, state, viewer, seed)


class DungeonCards:
    slug = "dungeon-cards"

    def deal(self, rng):
        classes = list(self.rules.data.CLASSES)
        players = [f"p{i}" for i in range(1, rng.choice([1, 1, 2, 3]) + 1)]
        solo = [c for c in classes if not self.rules.data.CLASSES[c]["party_only"]]
        picked = rng.sample(classes if len(players) > 1 else solo, len(players))
        return players, {"classes": dict(zip(players, picked)),
                         "turn_mode": rng.choice(["single_draw", "three_card_hand"])}

    def choose(self, state, rng):
        players = list(state["players"])
        for seat in rng.sample(players, len(players)):
            actions = [a for a in self.rules.legal_actions(state, seat) if a["type"] != "leave_game"]
            if actions:
                return seat, rng.choice(actions)
        return None

    def check(self, body, state, viewer, seed, *, board=True):
        """Nothing of the deck, nor another character's hand: no card the viewer's view lacks."""
        assert str(seed) not in body
        hidden = set(state["deck"]) | {code for c in state["characters"] if c["id"] != viewer for code in c["hand"]}
        visible = card_names(json.dumps(self.rules.view(state, viewer), ensure_ascii=False))  # its log too
        leaked = (card_names(body) & hidden) - visible
        assert not leaked, f"{viewer or 'a spectator'} is shown {sorted(leaked)}"


class DungeonOfDoom:
    slug = "dungeon-of-doom"

    def deal(self, rng):
        from rules_engine.games.dungeon_of_doom import generate_map, shipped_maps

        maps = list(shipped_maps().values())
        text = rng.choice(maps) if rng.random() < 0.6 else generate_map(rng.getrandbits(32), rng.choice("SM"))
        return [f"p{i}" for i in range(1, rng.choice([1, 2, 3, 4]) + 1)], {"map": text, "turn_seconds": 0}

    def choose(self, state, rng):
        seat = state["turn"]["seat"]
        actions = self.rules.legal_actions(state, seat)
        return seat, rng.choice([a for a in actions if a["type"] != "leave"] or actions)

    def check(self, body, state, viewer, seed, *, board=True):
        web = checks("test_dungeon_of_doom_web.py")
        assert str(seed) not in body
        if self.rules.result(state) is None:
            allowed = web.allowed_cells(state, viewer) if viewer else set()
            drawn = web.drawn_cells(body)
            assert drawn <= allowed, f"{viewer or 'a spectator'} is shown unseen tiles {sorted(drawn - allowed)[:5]}"
            rows = [row for row in state["options"]["map"].splitlines()[2:] if len(row) > 12]
            assert not any(row in body for row in rows), "a row of the map text"


HARNESSES = {h.slug: h for h in (ShuffleAndDoom(), ClearTheDungeon(), HebracsDungeon(), DungeonCards(), DungeonOfDoom())}
for _h in HARNESSES.values():
    _h.rules = rules_engine.get(_h.slug)
LANDED = [slug for slug in HARNESSES if slug in BY_SLUG and BY_SLUG[slug].playable]


# ---- rendering a state through the test client --------------------------------------------------


class Viewers:
    """A test client per seat (p1 … p8, each holding that seat's cookie) and one for a spectator."""

    def __init__(self, app):
        self.app = app
        self.store = app.extensions["delve_store"]
        self.tokens = {f"p{i}": hashlib.sha256(f"render-{i}".encode()).hexdigest()[:43] for i in range(1, 9)}
        self.clients = {seat: app.test_client() for seat in [*self.tokens, None]}
        self.csrf = {seat: CSRF_RE.search(c.get("/").get_data(as_text=True)).group(1) for seat, c in self.clients.items()}

    def seat_game(self, slug, seed, players, options, state, rules) -> str:
        """A stored game whose seats these clients hold (what a finished lobby leaves behind)."""
        game_id = self.store.create_game(
            slug=slug, options=options, seed=seed, players=players, snapshot=rules.dump(state),
            seat_tokens={p: (p.upper(), hash_token(self.tokens[p])) for p in players},
            lobby={"host": players[0], "choices": {}},
        )
        for seat, client in self.clients.items():
            if seat in players:
                client.set_cookie(COOKIE_NAME, self.tokens[seat], path=f"/g/{game_id}")
        return game_id

    def show(self, game_id, state, rules, version):
        """Put ``state`` in the game's row, as an action would have (a new revision too: pages
        are cached per revision for spectators)."""
        result = rules.result(state)
        with self.store.engine.begin() as conn:
            conn.execute(update(games_table).where(games_table.c.id == game_id).values(
                snapshot=json.dumps(rules.dump(state)), version=version, revision=games_table.c.revision + 1,
                status="finished" if result is not None else "running",
                result=json.dumps(result) if result is not None else None,
            ))

    def board(self, game_id, viewer) -> str:
        response = self.clients[viewer].get(f"/g/{game_id}/board", headers={"HX-Request": "true"})
        assert response.status_code == 200, response.get_data(as_text=True)[:500]
        return response.get_data(as_text=True)

    def act(self, game_id, seat, action, version) -> str:
        response = self.clients[seat].post(
            f"/g/{game_id}/act", headers={"HX-Request": "true"},
            data={"csrf_token": self.csrf[seat], "version": str(version), "action": json.dumps(action)},
        )
        assert response.status_code == 200, response.get_data(as_text=True)[:500]
        return response.get_data(as_text=True)


class LogLines(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(record.getMessage() + " " + json.dumps(getattr(record, "fields", {}), default=str))


def sampled_steps(number: int, rng: random.Random) -> set[int] | None:
    """Which steps of game ``number`` are rendered: every one (None) or a sample."""
    if number < FULL:
        return None
    if number % SPARSE:
        return set()
    return {rng.randrange(MAX_STEPS // 2)}


@pytest.mark.parametrize("slug", LANDED)
def test_random_games_show_no_hidden_information(slug, tmp_path):
    harness = HARNESSES[slug]
    rules = harness.rules
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'delve.sqlite3'}"})
    viewers = Viewers(app)
    rng = random.Random(f"hidden:{slug}")
    logs = LogLines()
    logging.getLogger().addHandler(logs)
    renders = steps = 0
    started = time.perf_counter()

    def verify(text, state, viewer, seed, where, *, board=True):
        try:
            harness.check(text, state, viewer, seed, board=board)
        except AssertionError as error:
            raise AssertionError(f"{where}, seen by {viewer or 'a spectator'}: {error}") from None

    try:
        for number in range(GAMES):
            seed = rng.getrandbits(62)
            players, options = harness.deal(rng)
            state = rules.new_game(seed=seed, players=players, options=options)
            through_act = number < THROUGH_ACT
            sample = sampled_steps(number, rng)
            game_id = None  # stored only if some step of it is rendered
            if through_act:
                game_id = viewers.seat_game(slug, seed, players, options, state, rules)
                sio = socketio.test_client(app)
                sio.emit("watch", {"game": game_id, "version": 0}, callback=True)
            for step in range(MAX_STEPS + 1):
                over = rules.result(state) is not None or step == MAX_STEPS
                if sample is None or step in sample or (over and sample):
                    viewer = rng.choice([*players, None])
                    if game_id is None:
                        game_id = viewers.seat_game(slug, seed, players, options, state, rules)
                    if not through_act:
                        viewers.show(game_id, state, rules, step)
                    verify(viewers.board(game_id, viewer), state, viewer, seed, f"game {number} step {step} board")
                    renders += 1
                if over:
                    break
                chosen = harness.choose(state, rng)
                if chosen is None:
                    break
                seat, action = chosen
                if through_act:
                    body = viewers.act(game_id, seat, action, step)
                    state = rules.load(viewers.store.load(game_id).snapshot)
                    verify(body, state, seat, seed, f"game {number} step {step} action response")
                    renders += 1
                else:
                    state = rules.apply(state, seat, action)
                steps += 1
            if through_act:
                for message in sio.get_received():
                    assert message["name"] == "changed" and set(message["args"][0]) == {"version"}
                    verify(json.dumps(message), state, None, seed, f"game {number} socket", board=False)
                sio.disconnect()
                assert logs.lines, "the log was captured"
                verify("\n".join(logs.lines), state, None, seed, f"game {number} log", board=False)
                logs.lines.clear()
    finally:
        logging.getLogger().removeHandler(logs)
        app.extensions["delve_store"].engine.dispose()
    print(f"{slug}: {GAMES} games, {steps} steps, {renders} renders, {time.perf_counter() - started:.1f} s")
    assert renders >= GAMES // SPARSE
