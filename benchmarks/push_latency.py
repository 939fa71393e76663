"""Push latency: from a player's action to every other page's refreshed board (Socket.IO
"changed" received, then that page's own GET of its board done), against gunicorn (the
production command) on SQLite: The Dungeon of Doom with 2, 4 and 8 players plus 50
spectators, and a 5-player Dungeon Cards party. Also: server memory per running table.

Each move is a random legal action of whoever may act, read from the game's stored state.

    .venv/bin/python benchmarks/push_latency.py [--actions 40] [--spectators 50]
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests
import socketio
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import json  # noqa: E402
import random  # noqa: E402

from _common import print_table, summary_us  # noqa: E402
from memory import free_port, rss_mb  # noqa: E402

import rules_engine  # noqa: E402
from webapp.storage.store import Store  # noqa: E402

PARTY_CLASSES = ["mage", "healer", "soldier", "rogue", "tank"]

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"|"X-CSRF-Token": "([^"]+)"')
PRESENCE = re.compile(r'data-presence="([^"]+)"')
VERSION = re.compile(r'data-revision="(\d+)"')


def browser_session() -> requests.Session:
    """A requests session that retries a GET on a connection the server closed as it was reused
    (gunicorn drops idle keep-alive connections after a few seconds), as browsers do."""
    session = requests.Session()
    retry = Retry(total=2, connect=2, read=2, allowed_methods={"GET"}, backoff_factor=0)
    session.mount("http://", HTTPAdapter(max_retries=retry))
    return session


def csrf_of(html: str) -> str:
    match = CSRF.search(html)
    return match.group(1) or match.group(2)


class Page:
    """One browser page: an HTTP session and a Socket.IO client that refetches the board on "changed"."""

    def __init__(self, base: str, game_id: str, session: requests.Session | None = None):
        self.base, self.game_id = base, game_id
        self.http = session or browser_session()
        self.html = self.http.get(f"{base}/g/{game_id}").text
        self.pushed: dict[int, float] = {}
        self.refreshed: dict[int, float] = {}
        self.lock = threading.Lock()
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("changed", self._changed)
        ticket = PRESENCE.search(self.html)
        self.sio.connect(base, transports=["websocket"], wait_timeout=10)
        self.sio.call("watch", {"game": game_id, "revision": -1, "presence": ticket.group(1) if ticket else None})

    def _changed(self, message):
        revision = message["revision"]
        with self.lock:
            self.pushed.setdefault(revision, time.perf_counter())
        body = self.http.get(f"{self.base}/g/{self.game_id}/board", headers={"HX-Request": "true"}).text
        with self.lock:
            self.refreshed.setdefault(revision, time.perf_counter())
            self.html = body

    def close(self):
        self.sio.disconnect()


def start_server(workdir: str, threads: int):
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{workdir}/push.sqlite3",
        "SECRET_KEY": "bench",
        "LOG_LEVEL": "WARNING",
        "RATE_LIMITS": "0",
        "THREADS": str(threads),
        "PORT": str(port),
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "webapp.wsgi:app"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            requests.get(base + "/healthz", timeout=1)
            return server, base
        except requests.RequestException:
            time.sleep(0.1)
    raise RuntimeError("server did not start")


def open_table(base: str, players: int, slug: str = "dungeon-of-doom"):
    host = browser_session()
    csrf = csrf_of(host.get(base + "/").text)
    form = {"game": slug, "csrf_token": csrf, "name": "P1"}
    if slug == "dungeon-of-doom":
        form.update(map_choice="flooded-crypt", max_players=str(players), turn_seconds="0")
    response = host.post(base + "/games", data=form)
    game_id = response.url.rsplit("/", 1)[-1]
    sessions = [host]
    for i in range(2, players + 1):
        s = browser_session()
        token = csrf_of(s.get(f"{base}/g/{game_id}").text)
        s.post(f"{base}/g/{game_id}/join", data={"csrf_token": token, "name": f"P{i}"})
        sessions.append(s)
    if slug == "dungeon-cards":
        for session, cls in zip(sessions, PARTY_CLASSES):
            token = csrf_of(session.get(f"{base}/g/{game_id}").text)
            session.post(f"{base}/g/{game_id}/lobby", data={"csrf_token": token, "classes": cls})
    host.post(f"{base}/g/{game_id}/start", data={"csrf_token": csrf})
    return game_id, sessions


PUSH_WAIT = 10.0
"""Seconds a page may take to refresh after an action; later counts as a missed push."""


def measure(
    base: str, store: Store, players: int, spectators: int, actions: int, slug: str
) -> tuple[list[float], list[float], int]:
    """(refresh latencies, push arrival latencies, in seconds; missed pushes): a page that has not
    refreshed PUSH_WAIT seconds after an action is counted as missed, not left out of the figures
    unnoticed. Both latencies count from the click, so they include the action's own round trip."""
    game_id, sessions = open_table(base, players, slug)
    rules = rules_engine.get(slug)
    pages = [Page(base, game_id, s) for s in sessions]
    watchers = [Page(base, game_id) for _ in range(spectators)]
    time.sleep(0.5)
    rng = random.Random(1)
    samples, arrivals = [], []
    missed = 0
    for _ in range(actions):
        record = store.load(game_id)
        state = rules.load(record.snapshot)
        if rules.result(state) is not None:
            break
        movers = [
            (i, a)
            for i in range(players)
            for a in rules.legal_actions(state, f"p{i + 1}")
            if a["type"] not in ("leave", "leave_game", "resign")
        ]
        if not movers:
            break
        index, action = rng.choice(movers)
        mover = pages[index]
        page_html = mover.http.get(f"{base}/g/{game_id}").text
        t0 = time.perf_counter()
        response = mover.http.post(
            f"{base}/g/{game_id}/act",
            headers={"HX-Request": "true"},
            data={"csrf_token": csrf_of(page_html), "version": str(record.version), "action": json.dumps(action)},
        )
        assert response.status_code == 200, response.text[:300]
        new_version = int(VERSION.search(response.text).group(1))
        others = [p for p in pages + watchers if p is not mover]
        deadline = time.time() + PUSH_WAIT
        while time.time() < deadline and not all(max(p.refreshed, default=0) >= new_version for p in others):
            time.sleep(0.002)
        for page in others:
            done = min((t for v, t in page.refreshed.items() if v >= new_version), default=None)
            if done is None:
                missed += 1
            else:
                samples.append(done - t0)
                arrived = min(t for v, t in page.pushed.items() if v >= new_version)
                arrivals.append(arrived - t0)
    for page in pages + watchers:
        page.close()
    return samples, arrivals, missed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=40)
    parser.add_argument("--spectators", type=int, default=50)
    args = parser.parse_args()
    workdir = tempfile.mkdtemp()
    server, base = start_server(workdir, threads=200)
    store = Store(f"sqlite:///{workdir}/push.sqlite3")
    try:
        rows = []
        for slug, players, spectators in [
            ("dungeon-of-doom", 2, args.spectators),
            ("dungeon-of-doom", 4, args.spectators),
            ("dungeon-of-doom", 8, args.spectators),
            ("dungeon-cards", 5, 0),
        ]:
            samples, arrivals, missed = measure(base, store, players, spectators, args.actions, slug)
            stats, pushed = summary_us(samples), summary_us(arrivals)
            rows.append(
                [
                    f"{slug}: {players} players + {spectators} spectators",
                    stats["n"],
                    missed,
                    pushed["p50"] / 1000,
                    pushed["p95"] / 1000,
                    stats["p50"] / 1000,
                    stats["p95"] / 1000,
                    stats["p99"] / 1000,
                ]
            )
        print_table(
            f'Push latency from the click (ms): the "changed" message reaching each other page, and that '
            f"page's board refreshed; missed = no refresh within {PUSH_WAIT:.0f} s (not in the percentiles)",
            [
                "table",
                "samples",
                "missed",
                "pushed p50",
                "pushed p95",
                "refreshed p50",
                "refreshed p95",
                "refreshed p99",
            ],
            rows,
        )
        before = rss_mb(server.pid)
        for _ in range(200):
            open_table(base, 2)
        after = rss_mb(server.pid)
        print_table(
            "Server memory per running table (games live in the database, not the process)",
            ["running tables added", "RSS before MB", "RSS after MB", "per table KB"],
            [[200, before, after, (after - before) * 1024 / 200]],
        )
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(20)


if __name__ == "__main__":
    main()
