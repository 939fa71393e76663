"""A crowd of idle open pages on one server process (the README's serve command, gevent worker):
N pages hold a Socket.IO websocket each (spoken by hand, answering the server's pings as a
browser does), spread over many client addresses of the loopback range so that the per-address
caps stay in force. Meanwhile /healthz is asked 20 times a second and a seated player plays a
table (one action a second); figures only, never pass/fail:

- /healthz p50/p95/p99 and the seated player's action p50/p95/p99 while the crowd is open,
- the server's resident memory before and with the crowd, and per open page,
- the server's CPU while the crowd idles, and the generator's own CPU.

    .venv/bin/python benchmarks/crowd.py [--pages 5000] [--seconds 30]
"""

from __future__ import annotations

import sys

if True:  # the generator's thousands of sockets are greenlets: patched before anything else loads
    from gevent import monkey

    monkey.patch_all()

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

import gevent
import psutil
import websocket

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests" / "ops"), str(Path(__file__).resolve().parent)]
os.environ.setdefault("SECRET_KEY", "benchmark")

from _common import percentile, print_table  # noqa: E402
from cluster import Player, Server, action_version, buttons  # noqa: E402

PAGES_PER_ADDRESS = 40  # under the default cap of 50 open pages an address
S2_DECK = "5C 8D 3H 9S 7D KS JS QH 6S"


class IdlePage:
    """One open page: an Engine.IO websocket joined to the Socket.IO namespace, answering pings."""

    def __init__(self, port: int, address: str):
        import socket

        raw = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(address, 0))
        self.ws = websocket.create_connection(
            f"ws://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket", socket=raw, timeout=60
        )
        assert self.ws.recv().startswith("0{")
        self.ws.send("40")
        answer = self.ws.recv()
        self.connected = answer.startswith("40")
        self.closed = False
        self.reader = gevent.spawn(self._answer_pings) if self.connected else None

    def _answer_pings(self):
        while not self.closed:
            try:
                message = self.ws.recv()
            except Exception:
                self.closed = True
                return
            if message == "2":
                self.ws.send("3")

    def close(self):
        self.closed = True
        try:
            self.ws.close()
        except Exception:
            pass


def rss_mb(pids: list[int]) -> float:
    return sum(psutil.Process(pid).memory_info().rss for pid in pids) / 2**20


def cpu_seconds(pids: list[int]) -> float:
    return sum(sum(psutil.Process(pid).cpu_times()[:2]) for pid in pids)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="delve-crowd-"))
    server = Server(workdir, database_url=f"sqlite:///{workdir / 'delve.sqlite3'}", env={"DELVE_TEST_OPTIONS": "0"})
    server.start()
    pids = server.pids()
    me = psutil.Process()
    try:
        player = Player(server.url, "Ann")
        game_id = player.create("shuffle-and-doom", size="4", deck=S2_DECK)
        idle_rss = rss_mb(pids)
        pages: list[IdlePage] = []
        t0 = time.monotonic()
        for index in range(args.pages):
            address = f"127.1.{index // PAGES_PER_ADDRESS // 250}.{index // PAGES_PER_ADDRESS % 250 + 1}"
            pages.append(IdlePage(server.port, address))
        opened = time.monotonic() - t0
        connected = sum(page.connected for page in pages)
        gevent.sleep(2)
        crowd_rss = rss_mb(pids)

        health: list[float] = []
        actions: list[float] = []
        statuses: dict = {}

        def ask_health():
            import urllib.request

            end = time.monotonic() + args.seconds
            while time.monotonic() < end:
                started = time.monotonic()
                with urllib.request.urlopen(server.url + "/healthz", timeout=30) as response:
                    statuses[("healthz", response.status)] = statuses.get(("healthz", response.status), 0) + 1
                health.append(time.monotonic() - started)
                gevent.sleep(max(0.0, 0.05 - (time.monotonic() - started)))

        def play():
            nonlocal game_id
            end = time.monotonic() + args.seconds
            board = player.board(game_id).text
            while time.monotonic() < end:
                offered = buttons(board)
                if not offered:  # the game ended: a fresh one
                    game_id = player.create("shuffle-and-doom", size="4", deck=S2_DECK)
                    board = player.board(game_id).text
                    continue
                started = time.monotonic()
                response = player.act(game_id, offered[0], action_version(board))
                actions.append(time.monotonic() - started)
                statuses[("act", response.status_code)] = statuses.get(("act", response.status_code), 0) + 1
                board = response.text if response.status_code == 200 else player.board(game_id).text
                gevent.sleep(max(0.0, 1.0 - (time.monotonic() - started)))

        cpu0, gen0, w0 = cpu_seconds(pids), sum(me.cpu_times()[:2]), time.monotonic()
        gevent.joinall([gevent.spawn(ask_health), gevent.spawn(play)])
        wall = time.monotonic() - w0
        server_cpu = (cpu_seconds(pids) - cpu0) / wall * 100
        generator_cpu = (sum(me.cpu_times()[:2]) - gen0) / wall * 100
        still_open = sum(not page.closed for page in pages if page.connected)
        for page in pages:
            page.close()
        ms = 1000
        result = {
            "pages": args.pages,
            "connected": connected,
            "still_open": still_open,
            "open_s": opened,
            "healthz_p50": percentile(health, 50) * ms,
            "healthz_p95": percentile(health, 95) * ms,
            "healthz_p99": percentile(health, 99) * ms,
            "act_p50": percentile(actions, 50) * ms,
            "act_p95": percentile(actions, 95) * ms,
            "act_p99": percentile(actions, 99) * ms,
            "rss_idle_mb": idle_rss,
            "rss_crowd_mb": crowd_rss,
            "kb_per_page": (crowd_rss - idle_rss) * 1024 / max(1, connected),
            "server_cpu": server_cpu,
            "generator_cpu": generator_cpu,
            "statuses": {f"{k[0]} {k[1]}": v for k, v in statuses.items()},
        }
        print(json.dumps(result), file=sys.stderr)
        print_table(
            f"Crowd: {args.pages} idle open pages ({PAGES_PER_ADDRESS} an address), {args.seconds:.0f} s",
            [
                "pages open",
                "opened in s",
                "/healthz p50/p95/p99 ms",
                "action p50/p95/p99 ms",
                "server RSS MB idle → crowd",
                "KB per page",
                "server CPU %",
                "generator CPU %",
                "answers",
            ],
            [
                [
                    f"{connected} (still {still_open})",
                    round(opened, 1),
                    f"{result['healthz_p50']:.1f} / {result['healthz_p95']:.1f} / {result['healthz_p99']:.1f}",
                    f"{result['act_p50']:.1f} / {result['act_p95']:.1f} / {result['act_p99']:.1f}",
                    f"{idle_rss:.0f} → {crowd_rss:.0f}",
                    round(result["kb_per_page"], 1),
                    round(server_cpu),
                    round(generator_cpu),
                    ", ".join(f"{k}: {v}" for k, v in result["statuses"].items()),
                ]
            ],
        )
    finally:
        server.kill()


if __name__ == "__main__":
    main()
