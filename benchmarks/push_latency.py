"""Push latency for The Dungeon of Doom: from a player's action to every other page's refreshed
board (Socket.IO "changed" received, then that page's own GET of its board done), for tables of
2, 4 and 8 players plus 50 spectators, against gunicorn (the production command) on SQLite.
Also: server memory per running table.

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

import psutil
import requests
import socketio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import print_table, summary_us  # noqa: E402
from memory import free_port, rss_mb  # noqa: E402

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"|"X-CSRF-Token": "([^"]+)"')
PRESENCE = re.compile(r'data-presence="([^"]+)"')
VERSION = re.compile(r'data-version="(\d+)"')
TURN = re.compile(r'data-your-turn="true"')


def csrf_of(html: str) -> str:
    match = CSRF.search(html)
    return match.group(1) or match.group(2)


class Page:
    """One browser page: an HTTP session and a Socket.IO client that refetches the board on "changed"."""

    def __init__(self, base: str, game_id: str, session: requests.Session | None = None):
        self.base, self.game_id = base, game_id
        self.http = session or requests.Session()
        self.html = self.http.get(f"{base}/g/{game_id}").text
        self.refreshed: dict[int, float] = {}
        self.lock = threading.Lock()
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("changed", self._changed)
        ticket = PRESENCE.search(self.html)
        self.sio.connect(base, transports=["websocket"], wait_timeout=10)
        self.sio.call("watch", {"game": game_id, "version": -1, "presence": ticket.group(1) if ticket else None})

    def _changed(self, message):
        version = message["version"]
        body = self.http.get(f"{self.base}/g/{self.game_id}/board", headers={"HX-Request": "true"}).text
        with self.lock:
            self.refreshed.setdefault(version, time.perf_counter())
            self.html = body

    def close(self):
        self.sio.disconnect()


def start_server(workdir: str, threads: int):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{workdir}/push.sqlite3", "SECRET_KEY": "bench",
           "LOG_LEVEL": "WARNING", "RATE_LIMITS": "0", "THREADS": str(threads), "PORT": str(port)}
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "webapp.wsgi:app"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            requests.get(base + "/healthz", timeout=1)
            return server, base
        except requests.RequestException:
            time.sleep(0.1)
    raise RuntimeError("server did not start")


def open_table(base: str, players: int):
    host = requests.Session()
    csrf = csrf_of(host.get(base + "/").text)
    response = host.post(base + "/games", data={"game": "dungeon-of-doom", "csrf_token": csrf, "name": "P1",
                                                "map_choice": "flooded-crypt", "max_players": str(players),
                                                "turn_seconds": "0"})
    game_id = response.url.rsplit("/", 1)[-1]
    sessions = [host]
    for i in range(2, players + 1):
        s = requests.Session()
        token = csrf_of(s.get(f"{base}/g/{game_id}").text)
        s.post(f"{base}/g/{game_id}/join", data={"csrf_token": token, "name": f"P{i}"})
        sessions.append(s)
    host.post(f"{base}/g/{game_id}/start", data={"csrf_token": csrf})
    return game_id, sessions


def measure(base: str, players: int, spectators: int, actions: int) -> list[float]:
    game_id, sessions = open_table(base, players)
    pages = [Page(base, game_id, s) for s in sessions]
    watchers = [Page(base, game_id) for _ in range(spectators)]
    time.sleep(0.5)
    samples = []
    for _ in range(actions):
        for page in pages:
            page.html = page.http.get(f"{base}/g/{game_id}").text
        mover = next(p for p in pages if TURN.search(p.html))
        version = int(VERSION.search(mover.html).group(1))
        form_version = re.search(r'name="version" value="(\d+)"', mover.html).group(1)
        t0 = time.perf_counter()
        response = mover.http.post(f"{base}/g/{game_id}/act", headers={"HX-Request": "true"},
                                   data={"csrf_token": csrf_of(mover.html), "version": form_version,
                                         "action": '{"type": "end_turn"}'})
        assert response.status_code == 200, response.text[:200]
        new_version = int(VERSION.search(response.text).group(1))
        others = [p for p in pages + watchers if p is not mover]
        deadline = time.time() + 10
        while time.time() < deadline and not all(new_version in p.refreshed or max(p.refreshed, default=0) >= new_version for p in others):
            time.sleep(0.002)
        for page in others:
            done = page.refreshed.get(new_version)
            if done:
                samples.append(done - t0)
        assert version < new_version
    for page in pages + watchers:
        page.close()
    return samples


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=40)
    parser.add_argument("--spectators", type=int, default=50)
    args = parser.parse_args()
    workdir = tempfile.mkdtemp()
    server, base = start_server(workdir, threads=200)
    try:
        rows = []
        for players in (2, 4, 8):
            samples = measure(base, players, args.spectators, args.actions)
            stats = summary_us(samples)
            rows.append([f"{players} players + {args.spectators} spectators", stats["n"],
                         stats["p50"] / 1000, stats["p95"] / 1000, stats["p99"] / 1000])
        print_table("Push latency: action → every other page's refreshed board (ms)",
                    ["table", "samples", "p50 ms", "p95 ms", "p99 ms"], rows)
        before = rss_mb(server.pid)
        for _ in range(200):
            open_table(base, 2)
        after = rss_mb(server.pid)
        print_table("Server memory per running table (games live in the database, not the process)",
                    ["running tables added", "RSS before MB", "RSS after MB", "per table KB"],
                    [[200, before, after, (after - before) * 1024 / 200]])
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(20)


if __name__ == "__main__":
    main()
