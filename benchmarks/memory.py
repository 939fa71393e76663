"""Resident memory of one server process (gunicorn, the production command) after it has served
every one of 1,000 stored games (each page loaded once, a third of them played a few moves).

    .venv/bin/python benchmarks/memory.py [--games 1000]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import psutil
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import print_table  # noqa: E402

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    process = psutil.Process(pid)
    return sum(p.memory_info().rss for p in [process, *process.children(recursive=True)]) / 2**20


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    workdir = tempfile.mkdtemp()
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{workdir}/mem.sqlite3",
        "SECRET_KEY": "bench",
        "LOG_LEVEL": "WARNING",
        "RATE_LIMITS": "0",
    }  # one client creates every game: the per-address limit would refuse it
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "gunicorn.conf.py",
            "-b",
            f"127.0.0.1:{port}",
            "webapp.wsgi:app",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        idle = rss_mb(server.pid)
        http = requests.Session()
        csrf = CSRF.search(http.get(base + "/").text).group(1)
        started = time.perf_counter()
        game_ids = []
        for i in range(args.games):
            response = http.post(
                base + "/games", data={"game": "shuffle-and-doom", "csrf_token": csrf, "size": str(4 + i % 23)}
            )
            response.raise_for_status()
            game_ids.append(response.url.rsplit("/", 1)[-1])
            if i % 3 == 0:
                action = json.dumps({"type": "choose_stat_set", "set": "top"})
                http.post(
                    base + f"/g/{game_ids[-1]}/act",
                    data={"csrf_token": csrf, "version": "0", "action": action},
                    headers={"HX-Request": "true"},
                ).raise_for_status()
        for game_id in game_ids:
            http.get(base + f"/g/{game_id}").raise_for_status()
        elapsed = time.perf_counter() - started
        after = rss_mb(server.pid)
        print_table(
            "Server memory (gunicorn.conf.py: one gevent worker)",
            ["stored games", "RSS idle MB", "RSS after serving all MB", "per game KB", "wall s"],
            [[args.games, idle, after, (after - idle) * 1024 / args.games, elapsed]],
        )
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(15)


if __name__ == "__main__":
    main()
