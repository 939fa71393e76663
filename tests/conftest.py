"""Fixtures shared by the web tests: a fresh app on a real SQLite file per test, and SeatClient."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from tests.helpers.web import form_token

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key")

# The action form's optimistic lock (``version``: the game's action count), which a client's next
# action is based on; not the page root's ``data-revision`` (every change a viewer can see).
VERSION_RE = re.compile(r'name="version" value="(\d+)"')

# The quick set (`pytest -m fast`): engine and web tests, all in-process (no browser, no real
# server). A test needing a real service, a browser, or many seconds is marked and left out.
FAST_FOLDERS = {"engine", "web"}
NOT_FAST = ("postgres", "redis", "e2e", "slow")

# The tests marked ``slow`` here: many seconds each (whole random games, property tests of many
# examples, route fuzzing, other processes). Listed in one place, by node id, so that the quick
# set is read at a glance; an id is a file, a class, a test or one of its parameters. Each game's
# rules and pages keep their example tests (and a first seed of a parametrized random game) in the
# quick set; the full run runs everything. tests/web/test_quick_set.py checks every id names tests.
SLOW = (
    # engine: property tests and many whole random games
    "tests/engine/test_bots.py::test_dungeon_of_doom_bots_on_random_maps",
    "tests/engine/test_bots.py::test_a_normal_dungeon_of_doom_bot_alone_escapes_with_the_gold",
    "tests/engine/test_clear_the_dungeon.py::TestProperties",
    "tests/engine/test_dungeon_cards_properties.py",
    "tests/engine/test_dungeon_of_doom_props.py",
    "tests/engine/test_hebracs_dungeon_properties.py",
    "tests/engine/test_shuffle_and_doom.py::test_random_play_ends_round_trips_and_replays",
    "tests/engine/test_shuffle_and_doom.py::test_random_actions_are_refused_cleanly_or_legal",
    "tests/engine/test_loss_warnings.py::test_random_play_warns_only_of_certain_losses_and_never_from_hidden_cards",
    "tests/engine/test_bots.py::test_every_dungeon_cards_decision_kind_is_answered",
    "tests/engine/test_bots.py::test_dungeon_cards_bots_choose_a_legal_action[2]",
    "tests/engine/test_bots.py::test_dungeon_cards_bots_choose_a_legal_action[3]",
    "tests/engine/test_bots.py::test_dungeon_cards_bots_choose_a_legal_action[4]",
    "tests/engine/test_bots.py::test_the_same_random_source_gives_the_same_action",
    "tests/engine/test_bots.py::test_a_dungeon_cards_bot_ignores_the_deck_order_and_other_hands",
    "tests/engine/test_shuffle_and_doom.py::test_view_never_shows_the_seed_or_unseen_cards[13]",
    "tests/engine/test_shuffle_and_doom.py::test_view_never_shows_the_seed_or_unseen_cards[26]",
    "tests/engine/test_shuffle_and_doom.py::test_view_hides_the_reshuffled_order_after_exhaustion[26]",
    "tests/engine/test_contract_malformed.py::test_malformed_parameters_are_refused_readably_and_change_nothing[hebracs-dungeon-7]",
    "tests/engine/test_contract_malformed.py::test_malformed_parameters_are_refused_readably_and_change_nothing[hebracs-dungeon-8]",
    "tests/engine/test_contract_malformed.py::test_malformed_parameters_are_refused_readably_and_change_nothing[shuffle-and-doom-9]",
    "tests/engine/test_contract_malformed.py::test_malformed_parameters_are_refused_readably_and_change_nothing[dungeon-of-doom-8]",
    "tests/engine/test_contract_malformed.py::test_malformed_parameters_are_refused_readably_and_change_nothing[dungeon-of-doom-9]",
    # web: random games played through every page, fuzzing, other processes
    "tests/web/test_route_fuzz.py::test_fuzz_",
    "tests/web/test_hostile_pass2_replays.py::TestImportWork::test_a_rebuild_under_gevent_lets_other_greenlets_run",
    "tests/web/test_sixth_game.py",
    "tests/web/test_hidden_at_scale.py",  # 1,000 random games of each game: about two minutes
    "tests/web/test_hebracs_dungeon_web.py::test_no_hidden_card_in_any_body[12]",
    "tests/web/test_dungeon_cards_web.py::TestPage::test_random_games_render_for_every_seat_without_leaking_hands",
    "tests/web/test_clear_the_dungeon_web.py::test_no_face_down_card_or_deck_order_in_any_body[line B]",
    "tests/web/test_clear_the_dungeon_web.py::test_no_face_down_card_or_deck_order_in_any_body[1]",
    "tests/web/test_clear_the_dungeon_web.py::test_no_face_down_card_or_deck_order_in_any_body[2]",
    "tests/web/test_clear_the_dungeon_web.py::test_no_face_down_card_or_deck_order_in_any_body[3]",
    "tests/web/test_clear_the_dungeon_web.py::test_no_face_down_card_or_deck_order_in_any_body[4]",
    "tests/web/test_dungeon_of_doom_web.py::test_no_payload_shows_a_seat_more_than_it_may_know[2]",
    "tests/web/test_dungeon_of_doom_web.py::test_no_payload_shows_a_seat_more_than_it_may_know[3]",
    "tests/web/test_dungeon_of_doom_web.py::test_s19_seed_dice_and_start_positions_never_reach_a_client",
    "tests/web/test_hidden_information.py::test_no_hidden_card_or_seed_in_any_body_or_push[2-5]",
    "tests/web/test_hidden_information.py::test_no_hidden_card_or_seed_in_any_body_or_push[3-7]",
    "tests/web/test_hidden_information.py::test_no_hidden_card_or_seed_in_any_body_or_push[4-7]",
    "tests/web/test_plain_words.py::test_a_solo_game_played_at_random_reads_in_plain_words[2-",
    "tests/web/test_plain_words.py::test_the_dungeon_of_doom_played_at_random_reads_in_plain_words[2-",
    "tests/web/test_plain_words.py::test_the_dungeon_of_doom_played_at_random_reads_in_plain_words[3-",
    "tests/web/test_plain_words.py::test_dungeon_cards_played_at_random_reads_in_plain_words[2]",
    "tests/web/test_card_names.py::test_a_solo_game_played_at_random_names_its_cards[2-",
    "tests/web/test_card_names.py::test_a_solo_game_played_at_random_names_its_cards[3-",
    "tests/web/test_card_names.py::test_dungeon_cards_played_at_random_names_its_cards[2]",
)


def slow_listed(nodeid: str, listed: str) -> bool:
    """Whether a test's node id is, or is inside, a listed id (a file, class, test or parameter).
    An id ending in ``_`` or ``-`` is a prefix: ``test_fuzz_`` names every route's fuzz test,
    ``test_x[2-`` every parameter set of ``test_x`` starting with 2.

    >>> slow_listed("tests/web/t.py::TestA::test_b[1]", "tests/web/t.py::TestA")
    True
    >>> slow_listed("tests/web/t.py::test_bc", "tests/web/t.py::test_b")
    False
    >>> slow_listed("tests/web/t.py::test_fuzz_index", "tests/web/t.py::test_fuzz_")
    True
    >>> slow_listed("tests/web/t.py::test_b[2-big]", "tests/web/t.py::test_b[2-")
    True
    """
    if listed.endswith(("_", "-")):
        return nodeid.startswith(listed)
    return nodeid == listed or nodeid.startswith((listed + "::", listed + "["))


MEASURED_SLOW = Path(__file__).resolve().parent / "slow_measured.txt"
"""Engine and web tests measured over the quick set's budget (``scripts/measure_quick_set.py``)."""


def measured_slow() -> frozenset[str]:
    lines = MEASURED_SLOW.read_text(encoding="utf-8").splitlines() if MEASURED_SLOW.exists() else []
    return frozenset(line for line in lines if line and not line.startswith("#"))


RUN_FIRST = ("tests/web/test_hidden_at_scale.py",)
"""Files of minutes of work, run first: the whole run spreads its tests over workers a file at a
time in the order collected, and the longest file handed out last would keep one worker busy
alone at the end while the others wait."""


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: not item.nodeid.startswith(RUN_FIRST))  # stable: the rest keep their order
    tests_dir = Path(__file__).resolve().parent
    over_budget = measured_slow()
    for item in items:
        if item.nodeid in over_budget or any(slow_listed(item.nodeid, listed) for listed in SLOW):
            item.add_marker(pytest.mark.slow)
        folder = Path(item.path).resolve().parent
        if folder.parent == tests_dir and folder.name in FAST_FOLDERS:
            if not any(item.get_closest_marker(name) for name in NOT_FAST):
                item.add_marker(pytest.mark.fast)


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory):
    """A SQLite file the migrations have already run on, made once per run: each test's database
    starts as a copy of it (running the migrations was most of an app's start in a test)."""
    from webapp import create_app

    path = tmp_path_factory.mktemp("template") / "delve.sqlite3"
    made = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}"})
    made.extensions["delve_store"].engine.dispose()  # the last connection folds the WAL back in
    return path


@pytest.fixture
def db_url(tmp_path, migrated_database):
    path = tmp_path / "delve.sqlite3"
    shutil.copyfile(migrated_database, path)
    return f"sqlite:///{path}"


@pytest.fixture
def app(db_url):
    from webapp import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": db_url})
    yield app
    app.extensions["delve_store"].engine.dispose()


@pytest.fixture
def store(app):
    return app.extensions["delve_store"]


class SeatClient:
    """Plays as one browser: keeps its cookies, its CSRF token and the version it last saw."""

    def __init__(self, app):
        self.app = app
        self.http = app.test_client()
        self.csrf = None
        self.game_id = None
        self.version = 0
        self.bodies: list[str] = []

    def _remember(self, response):
        text = response.get_data(as_text=True)
        self.bodies.append(text)
        if token := form_token(text):
            self.csrf = token
        if match := VERSION_RE.search(text):
            self.version = int(match.group(1))
        return response

    def get(self, path, **kwargs):
        return self._remember(self.http.get(path, **kwargs))

    def start(self, slug="shuffle-and-doom", **options):
        self.get("/")
        form = {"game": slug, "csrf_token": self.csrf, **{k: v for k, v in options.items()}}
        if isinstance(form.get("deck"), list):
            form["deck"] = " ".join(form["deck"])
        response = self.http.post("/games", data=form)
        assert response.status_code == 303, response.get_data(as_text=True)
        self.game_id = response.headers["Location"].rsplit("/", 1)[-1]
        self.get(f"/g/{self.game_id}")
        return self.game_id

    def watch(self, game_id):
        self.game_id = game_id
        return self.get(f"/g/{game_id}")

    def act(self, action, *, version=None, htmx=True, csrf=None, extra=None):
        data = {
            "csrf_token": self.csrf if csrf is None else csrf,
            "version": str(self.version if version is None else version),
            "action": json.dumps(action),
            **(extra or {}),
        }
        headers = {"HX-Request": "true"} if htmx else {}
        return self._remember(self.http.post(f"/g/{self.game_id}/act", data=data, headers=headers))

    def board(self):
        return self._remember(self.http.get(f"/g/{self.game_id}/board", headers={"HX-Request": "true"}))


@pytest.fixture
def seat_client(app):
    def make():
        return SeatClient(app)

    return make


@pytest.fixture
def clock(monkeypatch):
    """The UTC day the daily pages believe it is (``clock["today"]``; move it on to change days)."""
    import datetime as dt

    from webapp.domain import deals

    day = {"today": dt.date(2026, 11, 26)}
    monkeypatch.setattr(deals, "today", lambda: day["today"])
    return day
