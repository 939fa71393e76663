"""Real processes for the operations tests and the load benchmark: gunicorn servers started the
production way (``gunicorn.conf.py``, ``webapp.wsgi:app``), and players who talk to them the way
a browser does — a ``requests.Session`` each (cookies, CSRF token) and a ``socketio.Client``
that watches a game with the page's presence ticket.

Shared by ``tests/ops/`` and ``benchmarks/load.py``; nothing here asserts anything.
"""

from __future__ import annotations

import html
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECRET = "ops-tests-secret-key"
CSRF_RE = re.compile(r'name="csrf_token" value="([^"]+)"')
ACTION_VERSION_RE = re.compile(r'name="version" value="(\d+)"')
PAGE_REVISION_RE = re.compile(r'data-revision="(\d+)"')
PRESENCE_RE = re.compile(r'data-presence="([^"]+)"')
BUTTON_RE = re.compile(r'name="action" value="([^"]+)"')
YOUR_TURN_RE = re.compile(r'data-your-turn="(true|false)"')
# Variables a parent environment could carry that must not leak into a test server.
_INHERITED_OUT = (
    "DATABASE_URL",
    "REDIS_URL",
    "SOCKETIO_MESSAGE_QUEUE",
    "DELVE_ENV",
    "RATE_LIMITS",
    "LOG_FORMAT",
    "LOG_LEVEL",
    "THREADS",
    "TRUSTED_PROXIES",
    "COOKIE_SECURE",
)

# A small open hall: everyone sees everyone (lantern range aside), so turns come quickly.
HALL_MAP = "name Ops Hall\nwin 3\n##########\n#G......E#\n#..G..G..#\n#........#\n#G..H...G#\n##########"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port_closed(port: int, seconds: float = 15.0) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) != 0:
                return
        time.sleep(0.05)


class Server:
    """One gunicorn process (master + one gthread worker) serving Delve on a loopback port.

    ``kill()`` is SIGKILL to the whole process group (master and worker at once: a crash);
    ``stop()`` is the graceful SIGTERM a deploy sends."""

    def __init__(
        self,
        workdir: Path,
        *,
        database_url: str,
        redis_url: str | None = None,
        port: int | None = None,
        threads: int = 32,
        env: dict | None = None,
        name: str = "server",
        args: list[str] | None = None,
        app: str = "webapp.wsgi:app",
    ):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.database_url = database_url
        self.redis_url = redis_url
        self.port = port or free_port()
        self.threads = threads
        self.extra_env = env or {}
        self.extra_args = args or []
        self.app = app
        self.name = name
        self.log_path = self.workdir / f"{name}.log"
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def environment(self) -> dict:
        env = {k: v for k, v in os.environ.items() if k not in _INHERITED_OUT}
        env.update(
            {
                "HOST": "127.0.0.1",
                "PORT": str(self.port),
                "THREADS": str(self.threads),
                "DATABASE_URL": self.database_url,
                "DELVE_INSTANCE_DIR": str(self.workdir),
                "SECRET_KEY": SECRET,
                "LOG_LEVEL": "WARNING",
                "DELVE_TEST_OPTIONS": "1",
                # Short, so stopping a server with open websockets does not wait 10 s per test.
                "GRACEFUL_TIMEOUT": "2",
                # Never refuse actions as overloaded: these servers share two cores with their
                # clients and other tests, and a test is about something else (the gate is
                # tested in tests/web/test_overload.py and measured by benchmarks/load.py).
                "OVERLOAD_LAG_MS": "0",
                # No background solver (tests/ops/test_solver_worker.py runs one of its own).
                "SOLVER_WORKER": "0",
            }
        )
        if self.redis_url:
            env["REDIS_URL"] = self.redis_url
        env.update({k: str(v) for k, v in self.extra_env.items()})
        return env

    def start(self, timeout: float = 45.0) -> Server:
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", *self.extra_args, self.app],
            cwd=ROOT,
            env=self.environment(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"{self.name} did not start:\n{self.log_text()[-4000:]}")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def pids(self) -> list[int]:
        """The master and its worker(s), for CPU and memory figures."""
        import psutil

        if not self.alive():
            return []
        master = psutil.Process(self.process.pid)
        return [master.pid] + [child.pid for child in master.children(recursive=True)]

    def kill(self) -> None:
        """SIGKILL master and worker together: nothing gets to finish or clean up."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not refused
            pass
        wait_port_closed(self.port)

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                pass
        self.kill()  # the worker too, if the master left it behind

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""


class Listener:
    """A ``socketio.Client`` watching one game, as a page does; keeps every message it gets."""

    def __init__(
        self,
        base_url: str,
        game_id: str,
        *,
        presence: str | None = None,
        known: int = -1,
        on_changed=None,
        boards: bool = False,
    ):
        import socketio

        self.on_changed = on_changed  # called (revision, monotonic time) on every "changed", after recording
        # boards: the page takes pushed boards ("board" messages: a revision and the html); then
        # on_changed is called (revision, monotonic time, html) for each, and (revision, monotonic
        # time, None, version) for a board that did not change.
        self.boards = boards
        self.game_id = game_id
        self.presence = presence
        self.known = known
        self.messages: list[tuple[float, str, dict]] = []
        self.pushed = -1  # the highest revision a "changed" push brought
        self._cond = threading.Condition()
        self.client = socketio.Client(reconnection=True, reconnection_delay=0.2, reconnection_delay_max=1.0)
        self.client.on("connect", self._on_connect)
        self.client.on("changed", lambda data: self._record("changed", data))
        self.client.on("board", lambda data: self._record("board", data))
        self.client.on("chat", lambda data: self._record("chat", data))
        self.client.on("server_restarting", lambda data: self._record("server_restarting", data))
        self.client.on("disconnect", self._on_disconnect)
        self.disconnects = 0  # times the connection dropped (the client reconnects by itself)
        self.closing = False
        self.watch_acks: list[dict] = []
        self.client.connect(base_url, transports=["websocket"], wait_timeout=10)
        self.wait(lambda: bool(self.watch_acks), 10)

    def _on_connect(self):
        def ack(reply):
            with self._cond:
                self.watch_acks.append(reply)
                self._cond.notify_all()

        message = {"game": self.game_id, "revision": self.known, "presence": self.presence}
        if self.boards:
            message["boards"] = True
        self.client.emit("watch", message, callback=ack)

    def _on_disconnect(self, *_reason):
        if not self.closing:
            self.disconnects += 1

    def _record(self, name: str, data) -> None:
        at = time.monotonic()
        with self._cond:
            self.messages.append((at, name, data))
            changed = name in ("changed", "board") and isinstance(data, dict) and isinstance(data.get("revision"), int)
            if changed:
                self.known = max(self.known, data["revision"])
                self.pushed = max(self.pushed, data["revision"])
            self._cond.notify_all()
        if changed and self.on_changed is not None:
            if name == "board" and data.get("same") is True:
                # Nothing the page shows changed: it keeps its board at the new revision and version.
                self.on_changed(data["revision"], at, None, data.get("version"))
            elif name == "board":
                self.on_changed(data["revision"], at, data.get("html"))
            else:
                self.on_changed(data["revision"], at)

    def wait(self, predicate, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(predicate, timeout)

    def revisions(self) -> list[int]:
        with self._cond:
            return [data["revision"] for _t, name, data in self.messages if name in ("changed", "board")]

    def wait_revision(self, at_least: int, timeout: float = 10.0) -> bool:
        """True once a push brought revision ``at_least`` or later (False after ``timeout``)."""
        return self.wait(lambda: self.pushed >= at_least, timeout)

    def close(self) -> None:
        self.closing = True
        try:
            self.client.disconnect()
        except Exception:  # already gone with its server
            pass


class Player:
    """One browser: a requests.Session (seat cookies, the CSRF session) against one server."""

    def __init__(self, base_url: str, name: str = "Ann", timeout: float = 20.0):
        import requests

        self.base_url = base_url
        self.name = name
        self.timeout = timeout
        self.http = requests.Session()
        self.csrf: str | None = None
        self.listeners: list[Listener] = []

    def _remember(self, text: str) -> str:
        if match := CSRF_RE.search(text):
            self.csrf = match.group(1)
        return text

    def get(self, path: str, **kwargs):
        response = self.http.get(self.base_url + path, timeout=self.timeout, **kwargs)
        self._remember(response.text)
        return response

    def post(self, path: str, data: dict, *, htmx: bool = True, **kwargs):
        if self.csrf is None:
            self.get("/")
        headers = {"HX-Request": "true"} if htmx else {}
        headers.update(kwargs.pop("headers", None) or {})
        response = self.http.post(
            self.base_url + path,
            data={"csrf_token": self.csrf, **data},
            headers=headers,
            allow_redirects=False,
            timeout=self.timeout,
            **kwargs,
        )
        self._remember(response.text)
        return response

    def create(self, slug: str, **fields) -> str:
        """POST /games as the lobby's form does; the new game's id (this player holds p1)."""
        response = self.post("/games", {"game": slug, "name": self.name, **fields}, htmx=False)
        if response.status_code != 303:
            raise RuntimeError(f"could not create {slug}: {response.status_code} {response.text[:500]}")
        return response.headers["Location"].rsplit("/", 1)[-1]

    def open_table(
        self, *, map_text: str = HALL_MAP, max_players: int = 4, turn_seconds: int = 0, forced: dict | None = None
    ) -> str:
        fields = {
            "map_choice": "custom",
            "map_text": map_text,
            "max_players": str(max_players),
            "turn_seconds": str(turn_seconds),
        }
        if forced:
            fields["test_options"] = json.dumps(forced)
        return self.create("dungeon-of-doom", **fields)

    def join(self, game_id: str):
        self.get(f"/g/{game_id}")
        response = self.post(f"/g/{game_id}/join", {"name": self.name}, htmx=False)
        if response.status_code != 303:
            raise RuntimeError(f"could not join: {response.status_code} {response.text[:500]}")
        return response

    def start(self, game_id: str):
        response = self.post(f"/g/{game_id}/start", {}, htmx=False)
        if response.status_code != 303:
            raise RuntimeError(f"could not start: {response.status_code} {response.text[:500]}")
        return response

    def act(self, game_id: str, action: dict, version: int, **extra):
        return self.post(f"/g/{game_id}/act", {"version": str(version), "action": json.dumps(action), **extra})

    def board(self, game_id: str):
        return self.get(f"/g/{game_id}/board", headers={"HX-Request": "true"})

    def seat_token(self, game_id: str) -> str | None:
        for cookie in self.http.cookies:
            if cookie.name == "delve_seat" and cookie.path == f"/g/{game_id}":
                return cookie.value
        return None

    def share_seat(self, other: Player, game_id: str) -> None:
        """Give ``other`` this player's seat cookie for the game (the same person in another tab)."""
        other.http.cookies.set("delve_seat", self.seat_token(game_id), domain="127.0.0.1", path=f"/g/{game_id}")

    def listen(
        self, game_id: str, *, base_url: str | None = None, presence: bool = True, on_changed=None, boards: bool = False
    ) -> Listener:
        page = self.get(f"/g/{game_id}").text
        ticket = PRESENCE_RE.search(page) if presence else None
        known = PAGE_REVISION_RE.search(page)
        listener = Listener(
            base_url or self.base_url,
            game_id,
            presence=ticket.group(1) if ticket else None,
            known=int(known.group(1)) if known else -1,
            on_changed=on_changed,
            boards=boards,
        )
        self.listeners.append(listener)
        return listener

    def close(self) -> None:
        for listener in self.listeners:
            listener.close()
        self.http.close()


GUNICORN_LINE = re.compile(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}\] \[\d+\] \[[A-Z]+\] ")


def log_records(text: str) -> tuple[list[dict], list[str]]:
    """A server's output split into Delve's JSON records and stray lines (gunicorn's own
    bracketed lines aside: its master logs before any app code runs)."""
    records, strays = [], []
    for line in text.splitlines():
        if not line.strip() or GUNICORN_LINE.match(line):
            continue
        try:
            record = json.loads(line)
        except ValueError:
            strays.append(line)
            continue
        (records if isinstance(record, dict) else strays).append(record)
    return records, strays


def action_version(body: str) -> int | None:
    """The game version an action form of this body is based on (the hidden ``version`` input)."""
    match = ACTION_VERSION_RE.search(body)
    return int(match.group(1)) if match else None


def page_revision(body: str) -> int | None:
    match = PAGE_REVISION_RE.search(body)
    return int(match.group(1)) if match else None


def buttons(body: str) -> list[dict]:
    """The actions this body offers as buttons (what a person could click)."""
    return [json.loads(html.unescape(raw)) for raw in BUTTON_RE.findall(body)]


def your_turn(body: str) -> bool:
    match = YOUR_TURN_RE.search(body)
    return bool(match) and match.group(1) == "true"
