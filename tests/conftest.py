"""Fixtures shared by the web tests: a fresh app on a real SQLite file per test, and SeatClient."""

from __future__ import annotations

import json
import os
import re
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


def pytest_collection_modifyitems(config, items):
    tests_dir = Path(__file__).resolve().parent
    for item in items:
        folder = Path(item.path).resolve().parent
        if folder.parent == tests_dir and folder.name in FAST_FOLDERS:
            if not any(item.get_closest_marker(name) for name in NOT_FAST):
                item.add_marker(pytest.mark.fast)


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path / 'delve.sqlite3'}"


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
