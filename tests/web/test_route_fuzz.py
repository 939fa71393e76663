"""Fuzz every route (security audit, finding 7): Hypothesis-made requests to every URL rule of
the app and every form field its pages post — not only actions.

A module-wide world holds one game of each kind a route can meet (a finished and a running solo
game; a waiting, a running and a finished Dungeon of Doom table; a waiting and a running Dungeon
Cards table), the browsers seated at them, a spectator and a browser without cookies. Each
example draws a route's target (a game of the world, a game an earlier request made, or an
unknown or garbage id), who asks (a seated player, a spectator, no cookies, a forged or garbage
seat cookie), the CSRF token (right, in the header, missing, wrong, another session's, huge, only
in the query string, a wrong header beside a right field), the method, the encoding (form,
multipart, JSON, raw bytes) and a body: every field the route's forms post, absent, a value its
control can post, or a Hypothesis value (control characters, U+202E, NUL, huge and negative
numbers, JSON of odd shapes, strings up to ~20 KB, a map file), plus unknown fields and query
strings. Half the examples are a seated player's well-formed request with a field or two off, so
they reach the route's own code rather than its first refusal.

The properties:
- never a 5xx;
- a GET (or HEAD) never changes a stored game;
- a 4xx changes no stored game: every game row (options, seed, players, version, status, lobby,
  snapshot, result, turn clock — not ``revision``, which presence bumps legitimately), its seats
  (names, tokens, count — not presence), its action log, its chat and the Hall of Fame;
- a POST without the session's CSRF token never succeeds.
A 2xx/3xx POST may change things legitimately (an action, a join, a chat line, a new game): the
games of the world it changed are rebuilt afresh, and the next example compares against the
database as it then is.

``test_every_route_of_the_app_is_fuzzed`` fails when the app gains a URL rule (or a method on
one) this file does not know: add it to ``ROUTES`` with the fields its forms post (a rule served
with two methods is two entries, the second keyed "METHOD /rule").
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import io
import json
import logging
import re
import traceback
import warnings
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, example, given, seed, settings
from hypothesis import strategies as st
from sqlalchemy import select, update
from werkzeug.datastructures import MultiDict

from tests.helpers.web import Browser
from webapp import create_app
from webapp.domain import play
from webapp.domain.catalog import BY_SLUG, GAMES, parse_options
from webapp.domain.hall_of_fame import hall_of_fame
from webapp.pages.viewer import SEAT_COOKIE_NAME as COOKIE_NAME
from webapp.storage.schema import actions as actions_table
from webapp.storage.schema import chat as chat_table
from webapp.storage.schema import games as games_table
from webapp.storage.schema import seats as seats_table

# Hypothesis flags any change of the global ``random`` state while a strategy draws, as a sign the
# strategy uses ``random``. These strategies do not (the file passes alone), but in a whole run a
# thread left by an earlier test may use the global ``random`` (a Socket.IO client's reconnection
# back-off does), and Hypothesis would blame whichever draw it overlaps.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Do not use the `random` module inside strategies:hypothesis.errors.HypothesisDeprecationWarning"
)

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
HALL = "name Fuzz Hall\nwin 2\n#######\n#G...E#\n#..G..#\n#######"
SEED = 20240607

# ---- the world ---------------------------------------------------------------------------------


@dataclass
class WorldGame:
    id: str
    seats: list[tuple[str, Browser]]  # (seat, the browser holding it), host first


@dataclass
class World:
    app: object
    store: object
    spectator: Browser
    stranger: Browser  # another session, for "another session's CSRF token"
    games: dict[str, WorldGame] = field(default_factory=dict)
    created: list[WorldGame] = field(default_factory=list)  # games the fuzzed requests made: targets too
    tracebacks: list[str] = field(default_factory=list)
    baseline: dict | None = None  # the fingerprint as the last example left the database
    challenge: str = ""  # a challenge made from solo_finished's deal (/c/<token>)
    export: bytes = b""  # solo_finished's replay file, for the import route

    def __repr__(self) -> str:  # Hypothesis prints the fixture with a failing example: keep it short
        return f"<world: {', '.join(f'{name}={g.id}' for name, g in self.games.items())}, {len(self.created)} made>"

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(repr(self))


def set_seed(store, game_id: str, seed: int) -> None:
    """Fix a waiting table's seed (the server draws one with ``secrets``): runs replay alike."""
    with store.engine.begin() as conn:
        conn.execute(update(games_table).where(games_table.c.id == game_id).values(seed=seed))


def solo_game(world: World, slug: str, form: dict, moves: int = 0, resign: bool = False) -> WorldGame:
    """A solo game from a fixed seed (start_game with the form's options), ``moves`` legal moves in."""
    store = world.store
    options = parse_options(BY_SLUG[slug], MultiDict(form))
    game_id, token = play.start_game(store, slug, options, seed=SEED)
    for _ in range(moves):
        game = play.load_game(store, game_id)
        legal = [a for a in game.rules.legal_actions(game.state, "p1") if a.get("type") != "resign"]
        play.act(store, game, "p1", legal[0])
    if resign:
        game = play.load_game(store, game_id)
        play.act(store, game, "p1", {"type": "resign"})
    player = Browser(world.app)
    player.http.set_cookie(COOKIE_NAME, token, path=f"/g/{game_id}")
    return WorldGame(game_id, [("p1", player)])


def table(world: World, slug: str, form: dict, *, guests=("Bob",), classes=(), start=False, leave=False) -> WorldGame:
    """A table opened, joined, chosen and started through the forms the pages post."""
    host = Browser(world.app)
    game_id = host.create(game=slug, name="Ann", **form)
    set_seed(world.store, game_id, SEED)
    seated = [("p1", host)]
    for index, name in enumerate(guests, start=2):
        guest = Browser(world.app)
        assert guest.post(f"/g/{game_id}/join", name=name).status_code == 303
        seated.append((f"p{index}", guest))
    for (_seat, browser), cls in zip(seated, classes):
        assert browser.post(f"/g/{game_id}/lobby", classes=cls).status_code == 303
    if start:
        response = host.post(f"/g/{game_id}/start")
        assert response.status_code == 303, response.get_data(as_text=True)[:500]
    if leave:
        for seat, browser in seated:
            version = world.store.version(game_id)
            response = browser.post(f"/g/{game_id}/act", version=str(version), action=json.dumps({"type": "leave"}))
            assert response.status_code == 303, (seat, response.status_code)
        assert world.store.load(game_id).status == "finished"
    return WorldGame(game_id, seated)


DOD = {
    "map_choice": "custom",
    "map_text": HALL,
    "max_players": "3",
    "turn_seconds": "0",
    "test_options": json.dumps({"start_positions": {"p1": [1, 1], "p2": [2, 2]}}),
}
DC = {"turn_seconds": "0", "marker_placement": "random"}

BUILDERS = {
    "solo_running": lambda w: solo_game(w, "shuffle-and-doom", {"size": "5"}, moves=3),
    "solo_finished": lambda w: solo_game(w, "clear-the-dungeon", {}, resign=True),
    "dod_waiting": lambda w: table(w, "dungeon-of-doom", DOD),
    "dod_running": lambda w: table(w, "dungeon-of-doom", DOD, start=True),
    "dod_finished": lambda w: table(w, "dungeon-of-doom", DOD, start=True, leave=True),
    "dc_waiting": lambda w: table(w, "dungeon-cards", DC, classes=("swordsman",)),
    "dc_running": lambda w: table(w, "dungeon-cards", DC, classes=("swordsman", "rogue"), start=True),
}
WORLD_GAMES = list(BUILDERS)


class Tracebacks(logging.Handler):
    """Keeps the traceback of every unexpected error the app logs (webapp.web.errors answers 500)."""

    def __init__(self, sink: list):
        super().__init__(logging.ERROR)
        self.sink = sink

    def emit(self, record):
        if record.exc_info:
            self.sink.append("".join(traceback.format_exception(*record.exc_info)))


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    app = create_app(
        {
            "TESTING": True,
            "TEST_OPTIONS": True,
            "DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('route_fuzz')}/delve.sqlite3",
        }
    )
    store = app.extensions["delve_store"]
    w = World(app=app, store=store, spectator=Browser(app), stranger=Browser(app))
    for name, build in BUILDERS.items():
        w.games[name] = build(w)
    finished_player = w.games["solo_finished"].seats[0][1]
    made = finished_player.post(f"/g/{w.games['solo_finished'].id}/challenge")
    assert made.status_code == 303, made.get_data(as_text=True)[:500]
    w.challenge = made.headers["Location"].rsplit("/", 1)[1]
    w.export = finished_player.http.get(f"/g/{w.games['solo_finished'].id}/replay.json").get_data()
    assert w.export.startswith(b"{"), w.export[:300]
    catcher = Tracebacks(w.tracebacks)
    logging.getLogger("delve.errors").addHandler(catcher)
    yield w
    logging.getLogger("delve.errors").removeHandler(catcher)
    store.engine.dispose()


# ---- what "no stored game changed" means -------------------------------------------------------

GAME_COLUMNS = [
    "slug",
    "options",
    "seed",
    "players",
    "version",
    "status",
    "lobby",
    "snapshot",
    "result",
    "turn_key",
    "turn_started_at",
    "turn_deadline",
    "finished_at",
]
# Not revision (presence and a no-op lobby save bump it), updated_at, nor the seats' presence.
SEAT_COLUMNS = ["seat", "name", "token_hash", "joined_at", "gone", "bot"]


def fingerprint(store) -> dict[str, dict[str, str]]:
    """Every stored game -> {part: digest}: its row, its seats, its action log, its chat, its Hall
    of Fame entries. Read straight from the tables (not through the app's own loaders)."""
    parts: dict[str, dict[str, list]] = {}

    def add(game_id, part, row):
        parts.setdefault(game_id, {}).setdefault(part, []).append(row)

    with store.engine.connect() as conn:
        for row in conn.execute(select(games_table.c.id, *[games_table.c[c] for c in GAME_COLUMNS])):
            for name, value in zip(GAME_COLUMNS, row[1:]):
                add(row[0], name, value)
        for row in conn.execute(
            select(seats_table.c.game_id, *[seats_table.c[c] for c in SEAT_COLUMNS]).order_by(
                seats_table.c.game_id, seats_table.c.seat
            )
        ):
            add(row[0], "seats", tuple(row[1:]))
        for row in conn.execute(
            select(actions_table.c.game_id, actions_table.c.seq, actions_table.c.seat, actions_table.c.action).order_by(
                actions_table.c.game_id, actions_table.c.seq
            )
        ):
            add(row[0], "actions", tuple(row[1:]))
        for row in conn.execute(
            select(
                chat_table.c.game_id, chat_table.c.id, chat_table.c.seat, chat_table.c.name, chat_table.c.text
            ).order_by(chat_table.c.id)
        ):
            add(row[0], "chat", tuple(row[1:]))
        for row in conn.execute(select(hall_of_fame).order_by(hall_of_fame.c.id)):
            add(row.game_id, "hall_of_fame", tuple(row))
    return {
        game_id: {part: hashlib.sha1(repr(rows).encode()).hexdigest() for part, rows in by_part.items()}
        for game_id, by_part in parts.items()
    }


def changes(before: dict, after: dict, world: World) -> list[str]:
    names = {g.id: name for name, g in world.games.items()}
    out = []
    for game_id in sorted(set(before) | set(after)):
        old, new = before.get(game_id), after.get(game_id)
        if old == new:
            continue
        label = names.get(game_id, "a game outside the world")
        if old is None:
            out.append(f"new game {game_id} ({label})")
        elif new is None:
            out.append(f"game {game_id} ({label}) vanished")
        else:
            parts = sorted(p for p in set(old) | set(new) if old.get(p) != new.get(p))
            out.append(f"game {game_id} ({label}) changed: {', '.join(parts)}")
    return out


def heal(world: World, before: dict, after: dict) -> None:
    """Rebuild every game of the world that the last request changed, so each example starts from
    the world as described (a waiting table still waiting, its seats still seated, …); the
    database as it then is becomes the next example's baseline."""
    rebuilt = False
    for name, game in list(world.games.items()):
        if before.get(game.id) != after.get(game.id):
            world.games[name] = BUILDERS[name](world)
            event(f"rebuilt {name}")
            rebuilt = True
    # Only requests change the database (no background jobs under TESTING): unless a game was
    # rebuilt, the fingerprint after this request is the one before the next.
    world.baseline = fingerprint(world.store) if rebuilt else after


# ---- Hypothesis-made values --------------------------------------------------------------------
#
# Every field has values its page's control can post ("valid") and values no page posts ("odd":
# control characters, U+202E, NUL, numbers of every shape, JSON of odd shapes, deep nesting).
# At most one field of a request gets a "huge" value (a string up to ~20 KB, 5,000 digits):
# with several, nearly every request would be refused as too large (413) before any route code.

CONTROL = [chr(c) for c in range(32)] + ["\x7f", "\x85", "\u2028", "\u2029", "\u202e", "\u200b", "\ufeff", "\ufffe"]
control_text = st.text(alphabet=st.sampled_from(CONTROL + list("aZ9 -<>&\"'")), max_size=60)
numbers = (
    st.integers().map(str)
    | st.integers(-(10**30), 10**30).map(str)
    | st.sampled_from(
        [
            "-1",
            "-0",
            "0",
            "1.5",
            "1e309",
            "NaN",
            "inf",
            "0x10",
            " 3 ",
            "\u0663",
            "\u00b3",
            "1_000",
            "+5",
            "",
            "00012",
            str(2**63),
            str(-(2**63) - 1),
        ]
    )
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=8,
)
deep_nesting = st.integers(1, 1100).flatmap(
    lambda n: st.sampled_from(
        ["[" * n + "]" * n, '{"a":' * n + "1" + "}" * n, '{"type": "move", "dir": ' + "[" * n + "]" * n + "}"]
    )
)
odd = st.one_of(st.text(max_size=60), control_text, numbers, json_values.map(json.dumps), deep_nesting, st.just(""))
huge = st.one_of(
    st.builds(
        lambda chunk, n: chunk * n,
        st.sampled_from(["x", "\u00e9", "\u202e", "\x00", "9", "[", "ab\r\n", "<b>"]),
        st.integers(1000, 20000),
    ),
    st.sampled_from(["9" * 5000, "-" + "9" * 5000, "9" * 4301, "1" * 4300, "[" * 5000]),
)
names = st.text(max_size=30) | control_text | st.sampled_from(["Ann", "p2", "Host", "<b>x</b>", "\u202eevil"])


def sampled(values) -> st.SearchStrategy:
    return st.sampled_from(sorted(set(values), key=str))


@dataclass(frozen=True)
class Field:
    valid: st.SearchStrategy
    odd: st.SearchStrategy = odd


# The creation form (templates/index.html, dungeon_of_doom/_create_options.html): every option of
# every game in webapp.domain.catalog.GAMES, with the values its control posts.
CARDS = [r + s for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"] for s in "SHDC"] + ["JK"]
decks = st.lists(st.sampled_from(CARDS), max_size=54).map(" ".join) | st.lists(
    st.sampled_from(CARDS + ["ZZ", "1H", "11S", "jk", "5c,", ""]), max_size=60
).map(" ".join)


def option_field(option) -> Field:
    if option.kind == "bool":
        return Field(sampled(["on", "true", "1", "yes", "off"]))
    if option.kind == "int":
        return Field(
            st.integers(option.minimum, option.maximum).map(str)
            | st.integers(option.minimum - 3, option.maximum + 3).map(str)
        )
    if option.kind == "choice":
        return Field(sampled([str(v) for v, _label in option.choices]))
    return Field(st.just("") | decks)


map_rows = st.text(alphabet="#.EGHSALPB x\t", min_size=0, max_size=12)
win_values = (
    st.integers(0, 4).map(str)
    | st.integers(-3, 12).map(str)
    | sampled(["9" * 4301, "9" * 5000, "1" * 4300, "0" * 5000 + "1", "", "two", "\u0663", "0x2", " 2 "])
)
generated_maps = st.builds(
    lambda bom, name, win, rows, sep: bom + sep.join([f"name {name}", f"win {win}", *rows]),
    sampled(["", "\ufeff"]),
    names,
    win_values,
    st.lists(map_rows, max_size=8),
    sampled(["\n", "\r\n", "\r"]),
)
map_texts = st.just(HALL) | st.just(HALL.replace("Fuzz Hall", "\u202e\x00\x07Hall")) | generated_maps
map_files = st.one_of(
    map_texts.map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.binary(max_size=300),
    st.just(b"\xff\xfe" + HALL.encode("utf-16-le")),
    st.just(b"#" * 13000),  # over the 12 KB upload limit, under the 16 KB request limit
    st.just(b""),
)
positions = st.lists(st.integers(-3, 40), max_size=3) | json_values
test_options = st.fixed_dictionaries(
    {},
    optional={
        "dice": st.lists(st.integers(-5, 30), max_size=8) | json_values,
        "start_positions": st.dictionaries(sampled(["p1", "p2", "p9", ""]), positions, max_size=3) | json_values,
        "deck": json_values,
    },
).map(json.dumps)

GAME_OPTIONS = {e.slug: {o.name: option_field(o) for o in e.options} for e in GAMES}
GAME_OPTIONS["dungeon-of-doom"].update(
    {
        "map_choice": Field(
            sampled(
                [
                    "duelling-hall",
                    "sunken-vault",
                    "lantern-gallery",
                    "flooded-crypt",
                    "hollow-undercroft",
                    "random-S",
                    "random-M",
                    "random-L",
                    "custom",
                    "custom",
                    "custom",
                ]
            ),
            odd | sampled(["random-X", "random-", "CUSTOM"]),
        ),
        "map_text": Field(map_texts),
        "test_options": Field(test_options, odd | deep_nesting),
    }
)
CREATE_FIELDS = {
    "game": Field(sampled([e.slug for e in GAMES]), odd | sampled(["nope", "DUNGEON-CARDS"])),
    "name": Field(names),
    **{name: spec for options in GAME_OPTIONS.values() for name, spec in options.items()},
}

# The game forms (templates/*/game.html, _cards.html, _hd.html): "action" (a button's JSON) or
# "compose" with the a_* / j_* controls, and "version" and "log_seen".
ACTION_TYPES = [
    "move",
    "attack",
    "pickup",
    "end_turn",
    "leave",
    "join",
    "timeout",
    "drop",
    "absent",
    "draw",
    "play",
    "resign",
    "swap_headers",
    "choose_stat_set",
    "place_marker",
    "choose_start",
    "dash",
    "help",
    "offer",
    "buy",
    "destroy",
    "cast",
    "flee",
    "fight",
    "exit",
    "",
    "MOVE",
    "__class__",
]
TEMPLATE_CONTROLS = sorted(
    {
        m
        for path in TEMPLATES.rglob("*.html")
        for m in re.findall(r'name="([aj]_[^"]+)"', path.read_text(encoding="utf-8"))
    }
)
COMPOSE_CONTROLS = sorted(
    set(TEMPLATE_CONTROLS) | {"a_dir", "a_card", "a_direction", "a_target", "j_square", "a_" + "z" * 50}
)
LEGAL = ("legal",)  # resolved when the request is built: one of the seat's legal actions
VERSION = {"current": ("version", "current"), "stale": ("version", "stale"), "future": ("version", "future")}
action_dicts = st.fixed_dictionaries(
    {"type": sampled(ACTION_TYPES) | st.text(max_size=20) | json_values},
    optional={
        "dir": sampled(["N", "E", "S", "W", "n", ""]) | json_values,
        "card": sampled(CARDS[:6] + ["ZZ"]) | json_values,
        "square": st.lists(st.integers(-2, 40), max_size=3) | json_values,
        "kind": sampled(["exit", "pit", "gold"]) | json_values,
        "x" * 60: st.text(max_size=1500),
    },
)
SCALARS = ["N", "E", "S", "W", "top", "side", "1", "2", "0", "-1", "exit", "pit"] + CARDS[:8]
ACT_FIELDS = {
    "action": Field(
        st.one_of(
            st.just(LEGAL),
            st.just(LEGAL),
            st.just(LEGAL),
            st.tuples(
                st.just("tweak"),
                sampled(["dir", "card", "square", "kind", "type", "direction", "target"]) | st.text(max_size=8),
                json_values,
            ),
        ),
        odd | action_dicts.map(json.dumps),
    ),
    "compose": Field(sampled(ACTION_TYPES)),
    "version": Field(st.sampled_from([VERSION["current"]] * 4 + [VERSION["stale"], VERSION["future"]]), odd),
    "log_seen": Field(st.integers(-2, 60).map(str)),
    **{
        name: Field(
            st.lists(sampled(SCALARS), max_size=5)
            if name.endswith("[]")
            else (
                sampled(["[]", '["5C"]', "[1,2]", '"next_level"', "{}", "null"])
                if name.startswith("j_")
                else sampled(SCALARS)
            )
        )
        for name in COMPOSE_CONTROLS
    },
}
LOBBY_FIELDS = {"name": Field(names)}
for _entry in GAMES:
    for _f in _entry.lobby_fields:
        LOBBY_FIELDS[_f.name] = Field(sampled([str(v) for v, _label in _f.choices] + [""]))
PAGE_QUERY = {"log_seen": Field(st.integers(-2, 60).map(str)), "page": Field(sampled(["waiting", "game", ""]))}
HALL_QUERY = {
    "sort": Field(
        sampled(["rank", "name", "class", "level", "lives", "speed", "turns", "board", "date"]),
        odd | sampled(["id", "set_deal", "created_at", "rank desc"]),
    ),
    "dir": Field(sampled(["asc", "desc"]), odd | sampled(["ASC", "up"])),
    "deals": Field(sampled(["all", ""]), odd | sampled(["none", "ALL"])),
}
EXTRA_NAMES = sampled(
    [
        "seat",
        "game",
        "game_id",
        "snapshot",
        "version2",
        "csrf",
        "players",
        "status",
        "host",
        "next",
        "lobby",
        "__proto__",
        "",
        "a_",
        "j_",
        "x" * 300,
    ]
) | st.text(max_size=20)

PLAY_NOW_FIELDS = {
    "game": Field(sampled(["dungeon-of-doom", "dungeon-cards"]), odd | sampled(["shuffle-and-doom", "nope"])),
    "name": Field(names),
    "bots": Field(sampled(["1", "2", "3"]), odd | sampled(["0", "4", "-1", "1.5"])),
    **{k: v for k, v in LOBBY_FIELDS.items() if k != "name"},
    **GAME_OPTIONS["dungeon-of-doom"],
    **GAME_OPTIONS["dungeon-cards"],
}


@dataclass(frozen=True)
class Route:
    method: str
    fields: dict = dataclasses.field(default_factory=dict)  # form fields (POST) or query arguments (GET)
    files: bool = False  # the creation form's map file upload
    examples: int = 40
    near: tuple = ()  # the games a well-formed request goes to more often (where the route does something)


WAITING = ("dod_waiting", "dc_waiting") * 3
RUNNING = ("solo_running", "dod_running", "dc_running") * 3
FINISHED = ("solo_finished", "dod_finished") * 3


REPLAY_QUERY = {
    "step": Field(st.integers(0, 12).map(str), odd | st.integers(-5, 10**12).map(str)),
    "as": Field(sampled(["all", "p1", "p2"]), odd | sampled(["p9", "", "ALL"])),
    "seq": Field(st.integers(0, 30).map(str), odd),
}
# A replay file: solo_finished's own ("EXPORT", swapped in when the request is built), one cut short,
# one with a step changed, or anything at all.
replay_files = st.one_of(
    st.just(b"EXPORT"),
    st.just(b"EXPORT-CUT"),
    st.just(b"EXPORT-TWEAKED"),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=300),
)
TOKENS = ["real"] * 4 + ["A" * 16, "x" * 300, "%00", "..", "short"]

# What a Hebrac's Dungeon card picker asks with (its ``ask``) and a card it ticked.
PAYMENT_QUERY = {
    "field": Field(sampled(["a_cards[]", "a_gems[]", "a_potions[]"]), odd | sampled(["a_", "version"])),
    "target": Field(st.integers(0, 30).map(str), odd | st.integers(-5, 10**30).map(str)),
    "noun": Field(sampled(["points", "gems"]), odd | sampled(["<b>", "POINTS"])),
    "per": Field(st.integers(1, 3).map(str), odd | sampled(["0", "-1"])),
    "cap": Field(st.integers(0, 9).map(str), odd),
    "unit": Field(sampled(["chamber", "card", "life point"]), odd | sampled(["goat", ""])),
    "worths": Field(sampled(["9C:9,JC:8,3D:3", "8D:8", "10C:10,2C:2"]), odd | sampled(["9C", "XX:1", "9C:-1", ","])),
    "a_cards[]": Field(sampled(["9C", "JC", "3D"]), odd | sampled(["JK", "KH"])),
    "a_potions[]": Field(sampled(["10C", "2C"]), odd),
}

# A browser's push subscription (PushSubscription.toJSON()): a push service's https endpoint and
# the browser's P-256 key (65 bytes) and auth secret (16), base64url.
PUSH_FIELDS = {
    "endpoint": Field(
        sampled(["https://push.example.com/send/abc", "https://fcm.googleapis.com/fcm/send/x"]),
        odd | sampled(["http://127.0.0.1:9/x", "https://localhost/x", "https://10.0.0.1/x", "javascript:1"]),
    ),
    "p256dh": Field(sampled(["BA" + "A" * 85]), odd | sampled(["A" * 87, "BA", "!!"])),
    "auth": Field(sampled(["A" * 22]), odd | sampled(["A" * 21, "", "=="])),
}

# Screen-reader mode (webapp/web/reader.py): its switch, and a game's command line.
READER_FIELDS = {
    "on": Field(sampled(["1", "0"]), odd),
    "next": Field(
        sampled(["/", "/how-to-play/shuffle-and-doom"]), odd | sampled(["//evil.example/", "http://x/", "/\\x"])
    ),
}
COMMAND_FIELDS = {
    "command": Field(sampled(["help", "status", "where", "look", "choose top", "move n", "attack 1", "end", ""]), odd),
    "version": Field(st.sampled_from([VERSION["current"]] * 4 + [VERSION["stale"], VERSION["future"]]), odd),
}
HINT_FIELDS = {
    "version": Field(st.sampled_from([VERSION["current"]] * 4 + [VERSION["stale"], VERSION["future"]]), odd),
}
GAME_ID = "<game_id>"


def url_rule(key: str) -> str:
    """The URL rule of a ``ROUTES`` key ("/g/<game_id>/hint", or "GET /g/<game_id>/hint" for the
    second method a rule is served with)."""
    return key.rsplit(" ", 1)[-1]


ROUTES: dict[str, Route] = {
    "/": Route("GET", examples=22),
    "/healthz": Route("GET", examples=15),
    "/readyz": Route("GET", examples=15),
    "/how-to-play/<slug>": Route("GET", examples=45),
    "/hall-of-fame": Route("GET", HALL_QUERY, examples=60),
    "/games": Route("POST", CREATE_FIELDS, files=True, examples=300),
    # "Play now with bots": the front page's creation form posted by its second button.
    "/games/with-bots": Route("POST", PLAY_NOW_FIELDS, files=True, examples=90),
    "/g/<game_id>": Route("GET", PAGE_QUERY, examples=90),
    "/g/<game_id>/board": Route("GET", PAGE_QUERY, examples=120),
    # The picture a game's link unfurls with (webapp/pages/link_preview.py); ?v= names the revision.
    "/g/<game_id>/preview.png": Route("GET", {"v": Field(st.integers(0, 50).map(str), odd)}, examples=40),
    "/g/<game_id>/act": Route("POST", ACT_FIELDS, examples=375, near=RUNNING),
    "/g/<game_id>/hint": Route("POST", HINT_FIELDS, examples=90, near=("solo_running",) * 6),
    "GET /g/<game_id>/hint": Route("GET", HINT_FIELDS, examples=60, near=("solo_running",) * 6),
    "/g/<game_id>/rematch": Route("POST", examples=90, near=FINISHED),
    "/g/<game_id>/new": Route("POST", examples=90, near=FINISHED),
    "/g/<game_id>/join": Route("POST", {"name": Field(names)}, examples=120, near=WAITING + ("dod_running",) * 2),
    "/g/<game_id>/lobby": Route("POST", LOBBY_FIELDS, examples=150, near=WAITING),
    "/g/<game_id>/start": Route("POST", examples=90, near=WAITING),
    "/g/<game_id>/leave-table": Route("POST", examples=90, near=WAITING),
    "/g/<game_id>/add-bot": Route(
        "POST", {"level": Field(sampled(["easy", "normal"]), odd | sampled(["hard", "", "NORMAL"]))}, near=WAITING
    ),
    "/g/<game_id>/remove-bot": Route(
        "POST", {"seat": Field(sampled(["p2", "p3", "p1"]), odd | sampled(["p9", "", "x" * 40]))}, near=WAITING
    ),
    "/g/<game_id>/remove-seat": Route(
        "POST", {"seat": Field(sampled(["p2", "p3", "p1"]), odd | sampled(["p9", "", "x" * 40]))}, near=WAITING
    ),
    "/g/<game_id>/chat": Route(
        "POST",
        {"text": Field(st.text(min_size=1, max_size=200) | control_text)},
        examples=120,
        near=("dod_waiting", "dod_running", "dc_running", "dod_finished") * 2,
    ),
    "/g/<game_id>/again": Route("POST", examples=90, near=FINISHED),
    # The returning player has read what a bot played for them (webapp/pages/bot_play.py).
    "/g/<game_id>/bot-report": Route("POST", examples=45, near=("dod_running", "dc_running", "dod_finished")),
    # The classic gateway's toggle (webapp/adapters/classic); this app has no CLASSIC_PORTS, so it must
    # refuse cleanly whatever it is sent (tests/web/test_classic.py covers it turned on).
    "/g/<game_id>/classic": Route(
        "POST", {"on": Field(sampled(["1", "0"]), odd | sampled(["", "2", "on"]))}, examples=45, near=WAITING
    ),
    "/g/<game_id>/replay": Route("GET", REPLAY_QUERY, examples=90, near=FINISHED),
    "/g/<game_id>/replay.json": Route("GET", examples=45, near=FINISHED),
    "/g/<game_id>/verdict": Route("GET", examples=45, near=FINISHED),
    "/g/<game_id>/challenge": Route("POST", examples=60, near=FINISHED),
    "/c/<token>": Route("GET", examples=30),
    "/c/<token>/play": Route("POST", {"name": Field(names)}, examples=45),
    "/daily/<slug>": Route("GET", examples=30),
    "/daily/<slug>/play": Route("POST", {"name": Field(names)}, examples=45),
    "/replays/import": Route("GET", examples=15),
    "/replays": Route("POST", files=True, examples=60),
    # A game page's question (a Hebrac's Dungeon card picker asking for the sentence under it).
    "/answers/<slug>/<question>": Route("GET", PAYMENT_QUERY, examples=90),
    "/reader": Route("POST", READER_FIELDS, examples=30),
    "/g/<game_id>/command": Route("POST", COMMAND_FIELDS, examples=120, near=RUNNING + FINISHED),
    # "Your turn" notifications (webapp/web/push.py): the service worker, a subscription kept or deleted.
    "/sw.js": Route("GET", examples=10),
    "/push/subscription": Route("POST", PUSH_FIELDS, examples=60),
    "/push/subscription/delete": Route("POST", examples=30),
}
SLUGS = [e.slug for e in GAMES]
QUESTIONS = ["payment", "nope", "payment.json", "%00"]
"""A page question: the one a game asks, then ones no game asks."""
GARBAGE_IDS = {
    "missing": "A" * 22,
    "long": "x" * 300,
    "edge64": "y" * 64,
    "dots": "..%2f..%2fetc",
    "nul": "%00",
    "rlo": "%E2%80%AE",
    "quote": "1'%20OR%20'1'%3D'1",
    "space": "%20",
    "unicode": "%C3%A9t%C3%A9",
}
GARBAGE_SLUGS = ["nope", "..", "%00", "x" * 300, "DUNGEON-CARDS", "%E2%80%AE", "hall-of-fame", "index"]
CLIENTS = [
    "seated",
    "seated",
    "seated",
    "other_seat",
    "spectator",
    "spectator",
    "no_cookies",
    "forged_seat",
    "garbage_seat",
]
CSRF_MODES = [
    "right",
    "right",
    "right",
    "right",
    "header",
    "missing",
    "wrong",
    "other_session",
    "huge",
    "in_query",
    "wrong_header",
]  # in_query: only in the URL; wrong_header: a wrong header beside a right field
ENCODINGS = ["form"] * 6 + ["multipart", "json", "raw"]
RAW_TYPES = [
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=zz",
    "multipart/form-data",
    "text/plain",
    "application/x-www-form-urlencoded; charset=utf-16",
    "application/json",
]
raw_bodies = (
    st.binary(max_size=300)
    | st.sampled_from(
        [
            b"version=%zz&action=%7B&csrf_token=%",
            b"a=1&&&=&==&%00=%00",
            b'--zz\r\nContent-Disposition: form-data; name="x"\r\n\r\n',
            b'--zz\r\nContent-Disposition: form-data; name="map_file"; filename="m"\r\n\r\n' + b"#" * 500,
            b"\xff\xfe\x00",
            b'{"version": 1}',
        ]
    )
    | st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass"))
)
QUERY_NAMES = sampled(["log_seen", "page", "version", "csrf_token", "action", "game", "seat", "sort"]) | st.text(
    max_size=12
)
ODD_METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH"]


@st.composite
def requests_to(draw, rule: str):
    """One request to ``rule``: "near" (a seated player's well-formed request with a field or two
    off — it reaches the route's own code) or "any" (everything drawn: who, token, method, target)."""
    route = ROUTES[rule]
    near = draw(st.booleans())
    req = {
        "rule": rule,
        "shape": "near" if near else "any",
        "method": route.method,
        "game": None,
        "slug": None,
        "token": None,
        "client": "seated",
        "seat_index": draw(st.integers(0, 3)),
        "csrf": "right",
        "htmx": draw(st.booleans()),
        "pick": draw(st.integers(0, 40)),
        "fields": {},
        "extra": {},
        "files": {},
        "query": {},
        "encoding": "form",
        "raw": None,
    }
    if not near:
        req["method"] = draw(
            st.sampled_from([route.method] * 30 + ODD_METHODS + ["HEAD"] * 2 * (route.method == "GET"))
        )
        req["client"] = draw(st.sampled_from(CLIENTS))
        req["csrf"] = draw(st.sampled_from(CSRF_MODES))
        req["encoding"] = draw(st.sampled_from(ENCODINGS))
        if req["encoding"] == "raw":
            req["raw"] = (draw(raw_bodies), draw(st.sampled_from(RAW_TYPES)))
        req["query"] = draw(st.dictionaries(QUERY_NAMES, odd | st.integers(-2, 60).map(str), max_size=3))
    if GAME_ID in rule:
        req["game"] = draw(
            st.sampled_from(
                WORLD_GAMES + list(route.near) + ["created"]
                if near
                else WORLD_GAMES * 2 + ["created"] * 2 + list(GARBAGE_IDS)
            )
        )
    if "<slug>" in rule:
        req["slug"] = draw(st.sampled_from(SLUGS if near else SLUGS + GARBAGE_SLUGS))
    if "<token>" in rule:
        req["token"] = draw(st.sampled_from(TOKENS[:4] if near else TOKENS))
    if "<question>" in rule:
        req["question"] = draw(st.sampled_from(QUESTIONS[:1] if near else QUESTIONS))
    fields = route.fields
    if rule == "/games":  # the chosen game's own fields; the others' only now and then
        game = draw(st.sampled_from(SLUGS))
        fields = {
            "game": Field(st.just(game), CREATE_FIELDS["game"].odd),
            "name": CREATE_FIELDS["name"],
            **GAME_OPTIONS[game],
        }
        others = sorted(set(CREATE_FIELDS) - set(fields))
        for name in draw(st.lists(st.sampled_from(others), max_size=2, unique=True)):
            req["fields"][name] = draw(CREATE_FIELDS[name].odd | CREATE_FIELDS[name].valid)
    modes = ["valid"] * 10 + ["absent", "odd"] if near else ["absent"] * 3 + ["valid"] * 3 + ["odd"] * 2
    for name, spec in fields.items():
        mode = draw(st.sampled_from(modes))
        if mode != "absent":
            req["fields"][name] = draw(spec.valid if mode == "valid" else spec.odd)
    if fields and draw(st.integers(0, 7)) == 0:
        req["fields"][draw(st.sampled_from(sorted(fields)))] = draw(huge)
    if not near or draw(st.booleans()):
        req["extra"] = draw(st.dictionaries(EXTRA_NAMES, odd, max_size=3))
    if rule == "/replays" and (near or draw(st.booleans())):
        req["files"]["file"] = (draw(replay_files), draw(st.sampled_from(["game.json", "", "../x", "g\x00.json"])))
    elif route.files and draw(st.integers(0, 3)) == 0:
        req["files"]["map_file"] = (
            draw(map_files),
            draw(st.sampled_from(["map.txt", "", "../../etc/passwd", "m\x00.txt"])),
        )
    return req


def known(rule: str, game: str | None = None, **changes) -> dict:
    """A well-formed request by the seated player with the right token (for the pinned examples)."""
    return {
        "rule": rule,
        "shape": "pinned",
        "method": ROUTES[rule].method,
        "game": game,
        "slug": None,
        "token": None,
        "client": "seated",
        "seat_index": 0,
        "csrf": "right",
        "htmx": False,
        "pick": 0,
        "fields": {},
        "extra": {},
        "files": {},
        "query": {},
        "encoding": "form",
        "raw": None,
        **changes,
    }


# ---- one request -------------------------------------------------------------------------------


def resolve_action(world: World, game: WorldGame | None, seat: str | None, value, pick: int):
    """The ``action`` field: a legal action of the seat (or one with a parameter tweaked), else as drawn."""
    if not isinstance(value, tuple):
        return value
    legal = []
    loaded = play.load_game(world.store, game.id) if game else None
    if loaded is not None and loaded.state is not None:
        legal = loaded.rules.legal_actions(loaded.state, seat or (game.seats[0][0] if game.seats else "p1"))
    if not legal:
        return json.dumps({"type": "end_turn"})
    action = dict(legal[pick % len(legal)])
    if value[0] == "tweak":
        action[value[1]] = value[2]
    return json.dumps(action)


def build(world: World, req: dict):
    """(client, method, path, open() keyword arguments, whether the CSRF token is this session's)."""
    game = world.games.get(req["game"]) if req["game"] else None
    if req["game"] == "created" and world.created:
        game = world.created[req["pick"] % len(world.created)]
    path_id = game.id if game else GARBAGE_IDS.get(req["game"] or "", "")
    token = world.challenge if req.get("token") == "real" else req.get("token") or ""
    path = (
        url_rule(req["rule"]).replace(GAME_ID, path_id).replace("<slug>", req["slug"] or "").replace("<token>", token)
    )
    path = path.replace("<question>", req.get("question") or "")
    # Who asks.
    seat, browser, cookie = None, None, None
    if req["client"] == "seated":
        seats = game.seats if game and game.seats else world.games["dod_running"].seats
        seat, browser = seats[req["seat_index"] % len(seats)]
        if not game:
            seat = None
    elif req["client"] == "other_seat":  # seated elsewhere: its cookie is for another game's path
        others = [g for name, g in world.games.items() if g is not game]
        browser = others[req["seat_index"] % len(others)].seats[0][1]
    elif req["client"] in ("spectator", "forged_seat", "garbage_seat"):
        browser = world.spectator
        if req["client"] == "forged_seat":  # another game's seat token, presented at this path
            other = [g for g in world.games.values() if g is not game][req["pick"] % (len(world.games) - 1)]
            cookie = other.seats[0][1].token(other.id)
        elif req["client"] == "garbage_seat":
            cookie = ["g" * 43, "x" * 300, "", "\u202e"][req["seat_index"]]
    client = browser.http if browser else world.app.test_client()
    own_token = browser.csrf if browser else world.spectator.csrf  # no cookies: no session, no token
    # The body.
    fields = {}
    for name, value in req["fields"].items():
        if name == "action":
            value = resolve_action(world, game, seat, value, req["pick"])
        elif name == "version" and isinstance(value, tuple):
            current = world.store.version(game.id) if game else 0
            value = str({"current": current, "stale": current - 1, "future": current + 1}[value[1]])
        fields[name] = value
    for name, value in req["extra"].items():
        if name != "csrf_token":
            fields.setdefault(name, value)
    headers = {"HX-Request": "true"} if req["htmx"] else {}
    mode = req["csrf"]
    csrf = {
        "right": own_token,
        "wrong": own_token[::-1],
        "huge": "c" * 9000,
        "other_session": world.stranger.csrf,
        "wrong_header": own_token,
    }.get(mode)
    if mode in ("header", "wrong_header"):
        headers["X-CSRF-Token"] = own_token if mode == "header" else own_token[::-1]
    query = dict(req["query"])
    if mode == "in_query":
        query["csrf_token"] = own_token
    kwargs = {"headers": headers, "query_string": query}
    encoding = req["encoding"]
    if req["method"] in ("GET", "HEAD"):
        kwargs["query_string"] = {**query, **fields}
    elif encoding == "raw":
        kwargs["data"], kwargs["content_type"] = req["raw"]
    elif encoding == "json":
        kwargs["json"] = {**fields, **({"csrf_token": csrf} if csrf is not None else {})}
    else:
        if csrf is not None:
            fields["csrf_token"] = csrf
        data = MultiDict()
        for name, value in fields.items():
            for one in value if isinstance(value, list) else [value]:
                data.add(name, one)
        for name, (content, filename) in req["files"].items():
            data.add(name, (io.BytesIO(replay_file(world, content)), filename))
        kwargs["data"] = data
        if encoding == "multipart":
            kwargs["content_type"] = "multipart/form-data"
    # Whether the request carries this session's token where the app reads it (form field or header).
    session_token = browser is not None and (
        mode == "header" or (mode == "right" and encoding in ("form", "multipart"))
    )
    return client, req["method"], path, kwargs, cookie, session_token


def replay_file(world: World, content: bytes) -> bytes:
    """A drawn file's bytes, with the world's own replay file where the draw named it."""
    if not content.startswith(b"EXPORT"):
        return content
    document = json.loads(world.export)
    if content == b"EXPORT-CUT":
        document["actions"] = document["actions"][:-1]
    elif content == b"EXPORT-TWEAKED" and document["actions"]:
        document["actions"][0]["action"] = {"type": "play", "card": "ZZ"}
    return json.dumps(document).encode()


def remember_created(world: World, client, before: dict, after: dict) -> None:
    """A game a request made (a new table, a rematch, "play again") becomes a target of later examples,
    seated for the browser it answered (found by its seat cookie, as the app finds it)."""
    known_ids = {g.id for g in world.games.values()} | {g.id for g in world.created}
    browsers = [b for g in world.games.values() for _s, b in g.seats] + [world.spectator]
    browser = next((b for b in browsers if b.http is client), None)
    for game_id in sorted(set(after) - set(before) - known_ids):
        seats = []
        token = browser.token(game_id) if browser else None
        if token:
            mine = hashlib.sha256(token.encode()).hexdigest()
            seats = [(seat, browser) for seat, stored in world.store.seat_hashes(game_id).items() if stored == mine]
        world.created.append(WorldGame(game_id, seats))


def open_with_a_file_part(client, path: str, method: str, kwargs: dict):
    """A request with a raw body holding a file part. Werkzeug's multipart parser (3.x) leaves the spool of a file part
    cut short unclosed (an in-memory SpooledTemporaryFile, freed by the garbage collector; see
    pallets/werkzeug#2435): its ResourceWarning, an error under this repo's filterwarnings, would
    fail whichever test runs when the collector gets to it. Collected here, that warning alone
    ignored."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", r"Unclosed file <tempfile\.SpooledTemporaryFile", ResourceWarning)
        response = client.open(path, method=method, **kwargs)
        response.get_data()
        gc.collect()
    return response


def check(world: World, req: dict) -> None:
    before = world.baseline if world.baseline is not None else fingerprint(world.store)
    world.baseline = None  # until heal() sets it again
    client, method, path, kwargs, cookie, session_token = build(world, req)
    cookie_path = path if path.startswith("/g/") and cookie is not None else None
    after = before
    try:
        if cookie_path:
            client.set_cookie(COOKIE_NAME, cookie, path="/" + "/".join(cookie_path.split("/")[1:3]))
        seen = len(world.tracebacks)
        if req["encoding"] == "raw" and b"filename=" in kwargs.get("data", b""):
            response = open_with_a_file_part(client, path, method, kwargs)
        else:
            response = client.open(path, method=method, **kwargs)
        status = response.status_code
        body = response.get_data().decode("utf-8", errors="replace")  # a picture too (preview.png)
        after = fingerprint(world.store)
        remember_created(world, client, before, after)
        what = f"{method} {path[:120]} → {status}"
        event(f"{req['shape']} {req['game'] or '-'}: {status}")  # --hypothesis-show-statistics shows what was reached
        if status >= 500:
            logged = world.tracebacks[seen:]
            last_lines = "\n".join(logged[-1].rstrip().splitlines()[-8:]) if logged else body[:800]
            pytest.fail(f"{what}: a server error\n{last_lines}")
        assert "Traceback" not in body, f"{what}: {body[:800]}"
        if method in ("GET", "HEAD") and after != before:
            pytest.fail(f"{what}: a {method} changed stored games: {changes(before, after, world)}")
        if 400 <= status < 500 and after != before:
            pytest.fail(f"{what}: refused, yet stored games changed: {changes(before, after, world)}")
        if method not in ("GET", "HEAD") and not session_token and status < 400:
            pytest.fail(f"{what}: accepted without this session's CSRF token: {changes(before, after, world)}")
    finally:
        if cookie_path:
            client.delete_cookie(COOKIE_NAME, path="/" + "/".join(cookie_path.split("/")[1:3]))
        if after is before:
            after = fingerprint(world.store)
        heal(world, before, after)


# ---- one property test per route ---------------------------------------------------------------

HEALTH = [
    HealthCheck.too_slow,
    HealthCheck.data_too_large,
    HealthCheck.large_base_example,
    HealthCheck.function_scoped_fixture,
]
ROUTE_TESTS: dict[str, object] = {}


def fuzz(rule: str, *pinned: dict):
    """The property test of one route: ROUTES[rule].examples Hypothesis-made requests, plus ``pinned``."""

    @settings(max_examples=ROUTES[rule].examples, deadline=None, suppress_health_check=HEALTH)
    @given(req=requests_to(rule))
    def test(world, req):
        check(world, req)

    for req in reversed(pinned):
        test = example(req=req)(test)
    if settings.default.derandomize:
        # One seed per route: under the repeatable profile, routes without fields would otherwise
        # all draw the very same sequence (the seed comes from the test's code, shared here).
        test = seed(zlib.crc32(rule.encode()))(test)
    name = "test_fuzz_" + (re.sub(r"[^a-z0-9]+", "_", rule.replace(GAME_ID, "game").lower()).strip("_") or "index")
    test.__name__ = test.__qualname__ = name
    ROUTE_TESTS[rule] = test
    return test


BIG_WIN = "name Big\nwin " + "9" * 5000 + "\n#####\n#G.E#\n#####"

test_fuzz_index = fuzz("/")
test_fuzz_healthz = fuzz("/healthz")
test_fuzz_readyz = fuzz("/readyz")
test_fuzz_how_to_play = fuzz("/how-to-play/<slug>", known("/how-to-play/<slug>", slug="dungeon-of-doom"))
test_fuzz_hall_of_fame = fuzz(
    "/hall-of-fame", known("/hall-of-fame", fields={"sort": "date", "dir": "asc", "deals": "all"})
)
test_fuzz_create = fuzz(
    "/games",
    # Known (being fixed): a map whose win line has more than 4,300 digits: int() raises ValueError.
    known(
        "/games",
        fields={"game": "dungeon-of-doom", "map_choice": "custom"},
        files={"map_file": (BIG_WIN.encode(), "big.txt")},
    ),
    known("/games", fields={"game": "dungeon-of-doom", "map_choice": "custom", "map_text": BIG_WIN}),
)
test_fuzz_page = fuzz("/g/<game_id>", known("/g/<game_id>", "dod_running"))
test_fuzz_board = fuzz(
    "/g/<game_id>/board",
    known("/g/<game_id>/board", "dod_waiting", htmx=True, fields={"page": "waiting", "log_seen": "9" * 5000}),
)
test_fuzz_preview_picture = fuzz(
    "/g/<game_id>/preview.png", known("/g/<game_id>/preview.png", "solo_running", fields={"v": "9" * 5000})
)
test_fuzz_act = fuzz(
    "/g/<game_id>/act",
    known("/g/<game_id>/act", "dod_running", fields={"action": LEGAL, "version": VERSION["current"]}),
    known(
        "/g/<game_id>/act",
        "solo_running",
        fields={"compose": "swap_headers", "a_set": "top", "a_i": "9" * 5000, "version": VERSION["current"]},
    ),
)
test_fuzz_hint = fuzz(
    "/g/<game_id>/hint",
    known("/g/<game_id>/hint", "solo_running", fields={"version": VERSION["current"]}),
    known("/g/<game_id>/hint", "solo_running", htmx=True, fields={"version": VERSION["stale"]}),
    known("/g/<game_id>/hint", "dc_running", fields={"version": VERSION["current"]}),
)
test_fuzz_hint_poll = fuzz(
    "GET /g/<game_id>/hint",
    known("GET /g/<game_id>/hint", "solo_running", htmx=True, fields={"version": VERSION["current"]}),
    known("GET /g/<game_id>/hint", "solo_running", fields={"version": "9" * 5000}),
)
test_fuzz_rematch = fuzz(
    "/g/<game_id>/rematch",
    # Known (being fixed): a waiting table has no state yet; rematch reads its result and crashes.
    known("/g/<game_id>/rematch", "dod_waiting"),
    known("/g/<game_id>/rematch", "dc_waiting"),
)
test_fuzz_new = fuzz("/g/<game_id>/new", known("/g/<game_id>/new", "solo_finished"))
test_fuzz_join = fuzz(
    "/g/<game_id>/join",
    known("/g/<game_id>/join", "dod_waiting", client="spectator", fields={"name": "\u202eevil\x00" + "9" * 5000}),
)
test_fuzz_lobby = fuzz(
    "/g/<game_id>/lobby",
    known("/g/<game_id>/lobby", "dc_waiting", fields={"classes": "mage"}),
    # Found by this test, pinned: the new name was stored before the class was refused (400, and
    # 409 for a class another seat holds): a refused request changed the seats.
    known("/g/<game_id>/lobby", "dc_waiting", fields={"name": "Zed", "classes": "no-such-class"}),
    known("/g/<game_id>/lobby", "dc_waiting", seat_index=1, fields={"name": "Zed", "classes": "swordsman"}),
)
test_fuzz_start = fuzz("/g/<game_id>/start", known("/g/<game_id>/start", "dc_waiting", seat_index=1))
test_fuzz_leave_table = fuzz("/g/<game_id>/leave-table", known("/g/<game_id>/leave-table", "dod_running"))
test_fuzz_add_bot = fuzz(
    "/g/<game_id>/add-bot",
    known("/g/<game_id>/add-bot", "dc_waiting", fields={"level": "easy"}),
    known("/g/<game_id>/add-bot", "dod_running", fields={"level": "normal"}),
)
test_fuzz_remove_bot = fuzz(
    "/g/<game_id>/remove-bot", known("/g/<game_id>/remove-bot", "dc_waiting", fields={"seat": "p1"})
)
test_fuzz_remove_seat = fuzz(
    "/g/<game_id>/remove-seat", known("/g/<game_id>/remove-seat", "dc_waiting", fields={"seat": "p2"})
)
test_fuzz_play_now = fuzz(
    "/games/with-bots",
    known("/games/with-bots", fields={"game": "dungeon-cards", "bots": "2", "classes": "mage"}),
    known("/games/with-bots", fields={"game": "dungeon-of-doom", "bots": "3", "max_players": "2"}),
)
test_fuzz_chat = fuzz(
    "/g/<game_id>/chat", known("/g/<game_id>/chat", "dod_finished", fields={"text": "\x00\u202e" * 300})
)
test_fuzz_classic = fuzz("/g/<game_id>/classic", known("/g/<game_id>/classic", "dod_waiting", fields={"on": "1"}))
test_fuzz_again = fuzz("/g/<game_id>/again", known("/g/<game_id>/again", "dod_running"))
test_fuzz_bot_report = fuzz("/g/<game_id>/bot-report", known("/g/<game_id>/bot-report", "dod_running"))
test_fuzz_replay = fuzz(
    "/g/<game_id>/replay",
    known("/g/<game_id>/replay", "dod_running", fields={"step": "1", "as": "p1"}),
    known("/g/<game_id>/replay", "solo_finished", fields={"seq": "9" * 12}),
)
test_fuzz_replay_file = fuzz("/g/<game_id>/replay.json", known("/g/<game_id>/replay.json", "solo_running"))
test_fuzz_verdict = fuzz("/g/<game_id>/verdict", known("/g/<game_id>/verdict", "solo_finished"))
test_fuzz_challenge = fuzz("/g/<game_id>/challenge", known("/g/<game_id>/challenge", "solo_finished"))
test_fuzz_challenge_page = fuzz("/c/<token>", known("/c/<token>", token="real"))
test_fuzz_challenge_play = fuzz("/c/<token>/play", known("/c/<token>/play", token="real", fields={"name": "Bea"}))
test_fuzz_daily = fuzz("/daily/<slug>", known("/daily/<slug>", slug="dungeon-of-doom"))
test_fuzz_daily_play = fuzz("/daily/<slug>/play", known("/daily/<slug>/play", slug="clear-the-dungeon"))
test_fuzz_import_form = fuzz("/replays/import")
test_fuzz_import = fuzz("/replays", known("/replays", files={"file": (b"EXPORT", "game.json")}))
test_fuzz_payment_sentence = fuzz(
    "/answers/<slug>/<question>",
    known(
        "/answers/<slug>/<question>",
        slug="hebracs-dungeon",
        question="payment",
        htmx=True,
        fields={"field": "a_cards[]", "target": "10", "noun": "points", "worths": "9C:9,JC:8", "a_cards[]": "9C"},
    ),
)
test_fuzz_service_worker = fuzz("/sw.js")
test_fuzz_push_subscribe = fuzz(
    "/push/subscription",
    known(
        "/push/subscription",
        fields={"endpoint": "https://push.example.com/send/abc", "p256dh": "BA" + "A" * 85, "auth": "A" * 22},
    ),
)
test_fuzz_push_unsubscribe = fuzz("/push/subscription/delete", known("/push/subscription/delete"))

test_fuzz_reader_switch = fuzz("/reader", known("/reader", fields={"on": "1", "next": "/"}))
test_fuzz_command = fuzz(
    "/g/<game_id>/command",
    known("/g/<game_id>/command", "solo_running", htmx=True, fields={"command": "help", "version": VERSION["current"]}),
    known("/g/<game_id>/command", "dod_running", fields={"command": "move n", "version": VERSION["stale"]}),
    known("/g/<game_id>/command", "solo_running", fields={"command": "x" * 5000, "version": VERSION["current"]}),
)


def test_every_route_of_the_app_is_fuzzed(world):
    """A URL rule (or a method on one) added to the app and not to ROUTES fails here, by name."""
    served = set()
    for rule in world.app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.rule.startswith("/socket.io"):
            continue
        served.update((rule.rule, method) for method in rule.methods - {"HEAD", "OPTIONS"})
    fuzzed = {(url_rule(key), route.method) for key, route in ROUTES.items()}
    unknown = sorted(served - fuzzed)
    assert not unknown, (
        f"routes (rule, method) not fuzzed by {__name__}: {unknown}. Add each to ROUTES with the form "
        f"fields and query arguments its pages send, and a fuzz(...) test."
    )
    gone = sorted(fuzzed - served)
    assert not gone, f"ROUTES lists routes (rule, method) the app no longer serves: {gone}"
    untested = sorted(set(ROUTES) - set(ROUTE_TESTS))
    assert not untested, f"ROUTES without a fuzz(...) test: {untested}"
