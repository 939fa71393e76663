"""Classic crowd: 200 classic TCP clients (issue 17's gateway, webapp/adapters/classic) playing The Dungeon
of Doom on one server process while benchmarks/load.py's busy web tables run against it. Figures
only, never pass/fail:

- the web tables' action p50/p95/p99 (POST round trip) without, then with, the classic crowd,
- the classic command round trip p50/p95 (command sent → its whole answer read; every answer
  waits at least the protocol's 10 ms, ``classic.REPLY_DELAY``),
- the server's CPU and the generator's own CPU in each phase.

One server process started the production way (gunicorn with gunicorn.conf.py, one gevent
worker, as load.py and crowd.py do) with ``CLASSIC_PORTS`` set. The web tables are load.py's
(``--games`` tables of 4 seats, one action a second each; the per-address limits off because the
generator is one address). The classic tables are opened over HTTP by a host who turns classic
clients on, lets ``--per-table`` clients take the seats, starts the game and leaves it; each
table's clients come from a loopback address of their own, so the gateway's per-address cap stays
in force. A classic client plays as a person at an old terminal would: on its turn a LOOK, a few
MOVEs and PICKUPs about a second apart, then ENDTURN; between turns it waits for STARTTURN and
polls LOOK every few seconds. The clients are greenlets (gevent), so the generator stays light.

    .venv/bin/python benchmarks/classic_crowd.py [--clients 200] [--per-table 4] [--games 50] [--seconds 20]
"""

from __future__ import annotations

import sys

if True:  # the generator's sockets are greenlets: patched before anything else loads
    from gevent import monkey

    monkey.patch_all()

import argparse
import json
import logging
import os
import random
import re
import resource
import socket
import tempfile
import time
from pathlib import Path

import gevent
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests" / "ops"), str(Path(__file__).resolve().parent)]
os.environ.setdefault("SECRET_KEY", "benchmark")

import load  # noqa: E402
from _common import percentile, print_table  # noqa: E402
from cluster import Player, Server, action_version  # noqa: E402

# Every coin is needed to escape and nobody gathers them all: the classic games never end.
CLASSIC_MAP = (
    "name Classic Hall\nwin 9\n"
    "##############\n"
    "#G...G....G..#\n"
    "#..#.....#...#\n"
    "#G....##...G.#\n"
    "#...G.E...G..#\n"
    "#G..#...#..G.#\n"
    "##############"
)
ADDRESS_REPLY = re.compile(r'id="classic-address">[^<]*:(\d+)<')
CODE_REPLY = re.compile(r'id="classic-code">([^<]+)<')
NEWS = {"CHANGE", "STARTTURN", "ENDTURN", "WIN", "LOSE"}


def free_port_range(size: int) -> tuple[int, int]:
    for _attempt in range(50):
        low = random.randrange(20000, 60000)
        try:
            for port in range(low, low + size):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", port))
        except OSError:
            continue
        return low, low + size - 1
    raise RuntimeError("no free port range")


class Crowd:
    """What every classic client shares: whether round trips count now, and the samples."""

    def __init__(self):
        self.measuring = False
        self.round_trips: list[float] = []
        self.fails: dict[str, int] = {}
        self.stray = 0  # lines nobody asked for that are not news (e.g. a FAIL to an ENDTURN)
        self.dropped = 0
        self.stop = False


class ClassicClient:
    """One old client: one command at a time, reading until its answer, news on the way."""

    def __init__(self, crowd: Crowd, port: int, code: str, address: str, name: str, rng: random.Random):
        self.crowd = crowd
        self.code = code
        self.rng = rng
        self.name = name
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(address, 0))
        self.buffer = b""
        self.my_turn = False
        self.over = False

    def line(self, timeout: float) -> str | None:
        """The next line; None when nothing came within ``timeout`` (ConnectionError: closed)."""
        self.sock.settimeout(timeout)
        while b"\n" not in self.buffer:
            try:
                chunk = self.sock.recv(4096)
            except TimeoutError:
                return None
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("ascii")

    def news(self, line: str) -> None:
        if line == "STARTTURN":
            self.my_turn = True
        elif line == "ENDTURN":
            self.my_turn = False
        elif line in ("WIN", "LOSE"):
            self.my_turn, self.over = False, True
        elif not (line in NEWS or line.startswith(("TREASUREMOD", "HITMOD", "MESSAGE"))):
            self.crowd.stray += 1

    def command(self, text: str) -> str:
        """Send one command and read its whole answer (news on the way is taken as news)."""
        sent = time.monotonic()
        self.sock.sendall(text.encode() + b"\n")
        while True:
            line = self.line(30)
            if line is None:
                raise ConnectionError(f"no answer to {text} in 30 s")
            if line == "LOOKREPLY" and text == "LOOK":
                while self.line(30):  # the rows, then one empty line
                    pass
                break
            if line == "SUCCESS" or line.startswith(("FAIL", "HELLO")):
                if line.startswith("FAIL"):
                    reason = re.sub(r"north|east|south|west", "<dir>", re.sub(r"\bp\d+\b", "<seat>", line))
                    self.crowd.fails[reason] = self.crowd.fails.get(reason, 0) + 1
                break
            self.news(line)
        if self.crowd.measuring:
            self.crowd.round_trips.append(time.monotonic() - sent)
        return line

    def wait(self, seconds: float) -> None:
        """A person's pause: read news meanwhile (a STARTTURN cuts a wait for one short)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            line = self.line(left)
            if line is None:
                return
            self.news(line)
            if line == "STARTTURN" and not self.over:
                return

    def greet(self) -> None:
        gold = self.line(30)
        assert gold is not None and gold.startswith("GOLD"), gold
        assert self.command(f"HELLO {self.code} {self.name}") == f"HELLO {self.name}"

    def play(self) -> None:
        try:
            while not self.crowd.stop:
                if self.my_turn and not self.over:
                    self.command("LOOK")
                    self.wait(self.rng.uniform(0.5, 1.5))
                    for _step in range(self.rng.randint(2, 5)):
                        if not self.my_turn or self.crowd.stop:
                            break
                        self.command("PICKUP" if self.rng.random() < 0.2 else f"MOVE {self.rng.choice('NESW')}")
                        self.wait(self.rng.uniform(0.5, 1.5))
                    if self.my_turn:
                        self.sock.sendall(b"ENDTURN\n")  # no answer: the turn passes
                        self.my_turn = False
                        self.wait(self.rng.uniform(0.5, 1.0))
                else:
                    self.wait(self.rng.uniform(2.0, 4.0))
                    if not self.my_turn and not self.crowd.stop:
                        self.command("LOOK")  # an old bot's poll
        except (OSError, ConnectionError):
            if not self.crowd.stop:  # the end of the run closes them all
                self.crowd.dropped += 1

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def open_classic_table(server: Server, crowd: Crowd, index: int, per_table: int) -> list[ClassicClient]:
    """A table whose host turns classic clients on, lets ``per_table`` of them sit, starts and leaves."""
    host = Player(server.url, "Host")
    game_id = host.open_table(map_text=CLASSIC_MAP, max_players=per_table + 1, turn_seconds=0)
    turned_on = host.post(f"/g/{game_id}/classic", {"on": "1"}, htmx=False)
    assert turned_on.status_code == 303, turned_on.text[:300]
    page = host.get(f"/g/{game_id}").text
    port, code = int(ADDRESS_REPLY.search(page).group(1)), CODE_REPLY.search(page).group(1)
    address = f"127.2.{index // 250}.{index % 250 + 1}"
    rng = random.Random(index)
    clients = [ClassicClient(crowd, port, code, address, f"Bot{index}x{n}", rng) for n in range(per_table)]
    for client in clients:
        client.greet()
    host.start(game_id)
    left = host.act(game_id, {"type": "leave"}, action_version(host.board(game_id).text))
    assert left.status_code == 200, left.text[:300]
    host.close()
    return clients


def web_phase(run: load.Run, pids: list[int], seconds: float) -> dict:
    generator = psutil.Process()
    gen0 = sum(generator.cpu_times()[:2])
    with load.Usage(pids) as usage:
        wall = run.play(seconds)
    return {
        "p50": load.ms(run.latencies, 50),
        "p95": load.ms(run.latencies, 95),
        "p99": load.ms(run.latencies, 99),
        "actions": len(run.latencies),
        "5xx": sum(n for (_m, s), n in run.statuses.items() if isinstance(s, int) and s >= 500),
        "errors": sum(n for (_m, s), n in run.statuses.items() if s == "error"),
        "server_cpu": usage.cpu_percent,
        "generator_cpu": (sum(generator.cpu_times()[:2]) - gen0) / wall * 100,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200, help="classic connections (default 200)")
    parser.add_argument("--per-table", type=int, default=4, help="classic clients a table (default 4)")
    parser.add_argument("--games", type=int, default=50, help="load.py's busy web tables (default 50)")
    parser.add_argument("--seconds", type=float, default=20, help="measured seconds per phase (default 20)")
    args = parser.parse_args()
    logging.getLogger("engineio.client").setLevel(logging.CRITICAL)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    tables = -(-args.clients // args.per_table)
    low, high = free_port_range(tables + 8)
    workdir = Path(tempfile.mkdtemp(prefix="delve-classic-crowd-"))
    server = Server(
        workdir,
        database_url=f"sqlite:///{workdir / 'delve.sqlite3'}",
        env={
            "RATE_LIMITS": "0",
            "SOCKETS_PER_ADDRESS": "0",
            "CONNECTIONS_PER_ADDRESS": "0",
            "LOG_LEVEL": "WARNING",
            "DELVE_TEST_OPTIONS": "0",
            "CLASSIC_PORTS": f"{low}-{high}",
            "CLASSIC_BIND": "127.0.0.1",
            "CLASSIC_TABLES_PER_ADDRESS": "0",  # every table's host is this one generator
        },
    )
    crowd = Crowd()
    clients: list[ClassicClient] = []
    run = None
    try:
        server.start(timeout=90)
        pids = server.pids()
        run = load.Run(args.games, [server.url])
        run.prepare()
        print(f"... web tables alone, {args.seconds:.0f} s", file=sys.stderr, flush=True)
        alone = web_phase(run, pids, args.seconds)
        print(json.dumps(alone), file=sys.stderr, flush=True)

        started = time.monotonic()
        sizes = [min(args.per_table, args.clients - t * args.per_table) for t in range(tables)]
        opened = gevent.joinall(
            [gevent.spawn(open_classic_table, server, crowd, t, size) for t, size in enumerate(sizes)],
            raise_error=True,
        )
        for job in opened:
            clients.extend(job.value)
        seated_in = time.monotonic() - started
        players = [gevent.spawn(client.play) for client in clients]
        gevent.sleep(5)  # every table's first turns under way
        print(f"... with {len(clients)} classic clients, {args.seconds:.0f} s", file=sys.stderr, flush=True)
        crowd.measuring = True
        crowded = web_phase(run, pids, args.seconds)
        crowd.measuring = False
        commands = len(crowd.round_trips)
        crowded.update(
            classic_p50=percentile(crowd.round_trips, 50) * 1000,
            classic_p95=percentile(crowd.round_trips, 95) * 1000,
            commands_per_s=commands / args.seconds,
        )
        print(json.dumps(crowded), file=sys.stderr, flush=True)
        crowd.stop = True
        for client in clients:
            client.close()
        gevent.joinall(players, timeout=10)
    finally:
        if run is not None:
            run.close()
        server.kill()

    def web(r: dict) -> str:
        return f"{r['p50']:.0f} / {r['p95']:.0f} / {r['p99']:.0f}"

    print_table(
        f"Classic crowd: {len(clients)} classic clients ({args.per_table} a table, seated in "
        f"{seated_in:.1f} s) beside load.py's {args.games} web tables, one gevent worker, {args.seconds:.0f} s a phase",
        [
            "phase",
            "web actions",
            "web action p50/p95/p99 ms",
            "classic commands/s",
            "classic round trip p50/p95 ms",
            "server CPU %",
            "generator CPU %",
            "5xx",
            "errors",
        ],
        [
            [
                "web tables alone",
                alone["actions"],
                web(alone),
                "-",
                "-",
                round(alone["server_cpu"]),
                round(alone["generator_cpu"]),
                alone["5xx"],
                alone["errors"],
            ],
            [
                "with the classic crowd",
                crowded["actions"],
                web(crowded),
                round(crowded["commands_per_s"], 1),
                f"{crowded['classic_p50']:.0f} / {crowded['classic_p95']:.0f}",
                round(crowded["server_cpu"]),
                round(crowded["generator_cpu"]),
                crowded["5xx"],
                crowded["errors"],
            ],
        ],
    )
    print(
        f"\nclassic answers that were FAIL: {json.dumps(crowd.fails)}; connections dropped: {crowd.dropped}; "
        f"stray lines: {crowd.stray}"
    )


if __name__ == "__main__":
    main()
