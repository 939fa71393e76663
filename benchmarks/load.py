"""Load: N concurrent Dungeon of Doom games, 4 seats each, played by a generator of real clients.

Every seat is a browser as the page behaves: a ``requests.Session`` (cookies, CSRF token) and a
``python-socketio`` client watching the game with its presence ticket and ``boards``: the server
pushes each seat its own new board (the seat's view, rendered) and the seat swaps it in, as
delve.js does; it fetches a board (GET /g/<id>/board) only to catch up, and ``--fetch`` measures
the older doorbell model instead (a bare "changed" push, then that GET). Each game takes one action per second
from the seat whose turn it is (a legal move or end of turn from its buttons; 10 % are illegal:
a move into a wall, answered 422). Figures only, never pass/fail:

- throughput (accepted actions/s, all requests/s), action latency p50/p95/p99 (POST round trip),
- push latency p50/p95/p99: from the click (POST sent) to each other seat's socket getting its
  new board pushed (with ``--fetch``, the "changed" doorbell) with the new revision (an upper
  bound of "accepted → pushed": it includes the action's own processing),
- 5xx and client errors, lost or duplicated actions (every acknowledged action compared with the
  stored action log), socket drops, and seats the server dropped (a socket away beyond the grace
  period: the server stores that seat's ``drop``, which is neither lost nor duplicated),
- CPU (% of one core, summed over master and worker) and peak RSS of the server processes;
  with ``--solver-worker``, the background solver's CPU apart (it is not in the server's).

Setups: (a) one gunicorn process on SQLite; (b) two processes on PostgreSQL + Redis (seats
alternate between the processes, so every push crosses Redis for half the table). It starts
everything itself (PostgreSQL and redis-server on free loopback ports, like the tests).

Serving settings for the figures: the README's serve command as it is (``gunicorn.conf.py``: one
gevent worker), except that the generator is one client address, so the per-address limits are
off (``RATE_LIMITS=0``, ``SOCKETS_PER_ADDRESS=0``, ``CONNECTIONS_PER_ADDRESS=0``). ``--worker
gthread`` runs the thread worker instead (``WORKER_CLASS=gthread``, ``THREADS = 4·N + 64``: each
websocket holds a thread), for comparison.

    .venv/bin/python benchmarks/load.py                        # N=100, 600 s, both setups
    .venv/bin/python benchmarks/load.py --seconds 60 --search  # N=100 and the largest N with p95 <= 100 ms
    .venv/bin/python benchmarks/load.py --setup sqlite --games 40 --seconds 30 --worker gthread --fetch
"""

from __future__ import annotations

import sys

# The generator runs its thousands of clients (each socket's reader, writer and pinger, each
# page's fetches) as greenlets, not threads, so it stays lighter than the server it measures:
# patched before anything imports the standard library's threading or socket.
if "--threads" not in sys.argv:
    from gevent import monkey

    monkey.patch_all()

import argparse
import dataclasses
import http.client
import importlib.util
import json
import logging
import os
import random
import resource
import tempfile
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import requests
import websocket._abnf
from requests.cookies import get_cookie_header
from urllib3.util.wait import wait_for_read

ROOT = Path(__file__).resolve().parent.parent


def _validate_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


# websocket-client checks every text frame's UTF-8 in pure Python: with a board in every push,
# that was over half the generator's CPU. The same check, in C.
websocket._abnf.validate_utf8 = _validate_utf8
sys.path[:0] = [str(ROOT / "tests" / "ops"), str(Path(__file__).resolve().parent)]
os.environ.setdefault("SECRET_KEY", "benchmark")

from _common import percentile, print_table  # noqa: E402
from cluster import Player, Server, action_version, buttons, page_revision, your_turn  # noqa: E402

# An open hall the four seats walk around in. The generator never picks anything up, so nobody
# gathers the 2 gold the exit asks for: games never end.
MAP = "name Load Hall\nwin 2\n############\n#G.........#\n#..#....#..#\n#..........#\n#....E....G#\n############"
SEATS = 4
ILLEGAL = 0.10
SERVER_ACTIONS = {"drop", "timeout"}  # stored by the server for a seat, never sent by the generator
P95_TARGET_MS = 100.0


def services_module():
    """The root conftest's PostgresServer and RedisServer (the tests' own service starters)."""
    spec = importlib.util.spec_from_file_location("delve_test_services", ROOT / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def browser_like(player: Player) -> Player:
    """Retry a GET once when a kept-alive connection was closed under it (gunicorn closes idle
    ones after 2 s; a browser retries such a GET on a new connection by itself). POSTs are not
    retried: their fate is unknown, and counted so."""
    from requests.adapters import HTTPAdapter
    from urllib3.util.retry import Retry

    retry = Retry(
        total=1, connect=1, read=1, status=0, other=0, allowed_methods=frozenset({"GET"}), raise_on_status=False
    )
    player.http.mount("http://", HTTPAdapter(max_retries=retry, pool_connections=1, pool_maxsize=2))
    # Loopback only: no proxy or .netrc to look up in the environment, which requests otherwise does
    # on every request (a tenth of the generator's CPU at 300 tables).
    player.http.trust_env = False
    return player


class LeanPoster:
    """A seat's action POSTs on one kept-alive ``http.client`` connection, with the cookies its
    session holds for the game's pages: what ``requests`` adds to a POST (preparing it, merging
    settings, walking the cookie jar, checking protocols) made the generator heavier than the
    server it measures at 300 tables (84 % of a core against the server's 82 %). Cookies the
    server sets are kept; a connection the server closed while idle (gunicorn closes them after
    2 s) is seen before the next POST and opened anew, as urllib3 does. A POST is never retried."""

    def __init__(self, player: Player, game_id: str):
        url = urllib.parse.urlsplit(player.base_url)
        self.host, self.port = url.hostname, url.port
        page = requests.Request("POST", f"{player.base_url}/g/{game_id}/act").prepare()
        header = get_cookie_header(player.http.cookies, page) or ""
        self.cookies = dict(cookie.split("=", 1) for cookie in header.split("; ") if "=" in cookie)
        self.player = player
        self.connection: http.client.HTTPConnection | None = None

    def _connection(self) -> http.client.HTTPConnection:
        connection = self.connection
        if connection is not None and connection.sock is not None:
            if not wait_for_read(connection.sock, timeout=0):  # nothing to read while idle: still open
                return connection
            connection.close()  # readable while idle: the server closed it
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.player.timeout)
        return self.connection

    def post(self, path: str, fields: dict, headers: dict | None = None) -> LeanResponse:
        body = urllib.parse.urlencode({"csrf_token": self.player.csrf, **fields})
        sent = {
            "Content-Type": "application/x-www-form-urlencoded",
            "HX-Request": "true",
            "Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items()),
            **(headers or {}),
        }
        connection = self._connection()
        try:
            connection.request("POST", path, body=body, headers=sent)
            answer = connection.getresponse()
            text = answer.read().decode()
        except BaseException:
            connection.close()
            self.connection = None
            raise
        for header in answer.headers.get_all("Set-Cookie") or ():
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        if answer.will_close:
            connection.close()
            self.connection = None
        return LeanResponse(answer.status, text)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()


@dataclasses.dataclass
class LeanResponse:
    status_code: int
    text: str


class Seat:
    """One seat's page: its board, and the fetches a push triggers, coalesced as the page's own
    script does (one fetch in flight; a push that arrives meanwhile asks for one more after it;
    a push the page already shows — its own action's — asks for nothing)."""

    def __init__(self, game: Game, index: int, player: Player):
        self.game = game
        self.index = index
        self.name = f"p{index + 1}"
        self.player = browser_like(player)
        self.listener = None
        self.lock = threading.Lock()
        self.body = ""
        self.version = -1  # the game version its board's forms are based on
        self.revision = -1  # the revision its board shows (the doorbell's number)
        self.wanted = -1
        self.fetching = False
        self.acting = False  # its own POST is in flight: its answer is the new board
        self.poster: LeanPoster | None = None  # its action POSTs (after it joined: its cookies)

    def close(self) -> None:
        if self.poster is not None:
            self.poster.close()
        self.player.close()

    def remember(self, body: str) -> None:
        version, revision = action_version(body), page_revision(body)
        with self.lock:
            if version is not None and revision is not None and revision >= self.revision:
                self.version, self.revision, self.body = version, revision, body

    def on_changed(self, revision: int, at: float, html: str | None = None, version: int | None = None) -> None:
        if html is not None:  # a pushed board: the page has it without asking
            self.remember(html)
            return
        if version is not None:  # the board it shows is unchanged at this revision (delve.js: same)
            with self.lock:
                if revision > self.revision:
                    self.revision = revision
                    if self.version >= 0:
                        self.version = version
            return
        with self.lock:
            if revision <= self.revision or self.game.run.closed:
                return
            self.wanted = max(self.wanted, revision)
            if self.fetching or self.acting:
                return
            self.fetching = True
        self._start_catch_up()

    def acted(self, body: str | None) -> None:
        """Its own POST came back (``body``: the new board, on a 2xx/4xx with a board)."""
        if body is not None:
            self.remember(body)
        with self.lock:
            self.acting = False
            if self.revision >= self.wanted or self.fetching or self.game.run.closed:
                return
            self.fetching = True
        self._start_catch_up()

    def _start_catch_up(self) -> None:
        try:
            self.game.run.fetches.submit(self._catch_up)
        except RuntimeError:  # the run is over
            pass

    def _catch_up(self) -> None:
        while True:
            self.fetch()
            with self.lock:
                if self.revision >= self.wanted or self.game.run.closed:
                    self.fetching = False
                    return

    def fetch(self) -> None:
        try:
            response = self.player.board(self.game.id)
            self.game.run.count(response.status_code, "GET")
            if response.status_code == 200:
                self.remember(response.text)
        except requests.RequestException as error:
            self.game.run.count("error", "GET", error)


class Game:
    def __init__(self, run: Run, index: int, urls: list[str]):
        self.run = run
        self.index = index
        self.rng = random.Random(index)
        self.seats = [Seat(self, i, Player(urls[i % len(urls)], f"P{i + 1}")) for i in range(SEATS)]
        self.id = None
        self.turn = 0
        self.acknowledged: dict[int, dict] = {}
        self.unknown = 0  # actions whose answer never came (timeouts, dropped connections)
        # (click time, new revision, the acting seat) of accepted actions
        self.actions: list[tuple[float, int, int]] = []

    def open(self) -> None:
        host = self.seats[0].player
        self.id = host.open_table(map_text=MAP, max_players=SEATS, turn_seconds=0)
        for seat in self.seats[1:]:
            seat.player.join(self.id)
        host.start(self.id)

    def connect(self) -> None:
        for seat in self.seats:
            seat.listener = seat.player.listen(self.id, on_changed=seat.on_changed, boards=self.run.boards)
            seat.fetch()
            seat.poster = LeanPoster(seat.player, self.id)

    def seat_on_turn(self) -> Seat:
        seat = self.seats[self.turn]
        if seat.version < self.known_version() or not your_turn(seat.body):
            seat.fetch()  # its push-triggered fetch has not landed yet (or we lost track): a reload
        if not your_turn(seat.body):
            for other in self.seats:  # resynchronise: whoever's page says "your turn"
                other.fetch()
                if your_turn(other.body):
                    self.turn = other.index
                    return other
        return seat

    def known_version(self) -> int:
        return max(seat.version for seat in self.seats)

    def step(self) -> None:
        seat = self.seat_on_turn()
        with seat.lock:
            body, version = seat.body, seat.version
        offered = [a for a in buttons(body) if a["type"] in ("move", "end_turn")]
        if not offered:
            return
        illegal = self.rng.random() < ILLEGAL
        if illegal:
            legal_dirs = {a["dir"] for a in offered if a["type"] == "move"}
            walls = [d for d in "NESW" if d not in legal_dirs]
            if not walls:
                illegal = False
            else:
                action = {"type": "move", "dir": self.rng.choice(walls)}
        if not illegal:
            moves = [a for a in offered if a["type"] == "move"]
            action = self.rng.choice(moves) if moves and self.rng.random() < 0.7 else {"type": "end_turn"}
        sent = time.monotonic()
        with seat.lock:
            seat.acting = True
        try:
            socket = seat.listener.client.get_sid() if self.run.boards else None
            headers = {"X-Delve-Socket": socket} if socket else None
            response = seat.poster.post(
                f"/g/{self.id}/act", {"version": str(version), "action": json.dumps(action)}, headers=headers
            )
        except (OSError, http.client.HTTPException) as error:
            seat.acted(None)
            self.unknown += 1
            self.run.count("error", "POST", error)
            return
        elapsed = time.monotonic() - sent
        self.run.count(response.status_code, "POST")
        if response.status_code == 200:
            self.run.latencies.append(elapsed)
            new_version = action_version(response.text)
            if new_version in self.acknowledged:
                self.run.duplicate_acks += 1
            self.acknowledged[new_version] = action
            self.actions.append((sent, page_revision(response.text), seat.index))
            seat.acted(response.text)
            if not your_turn(response.text):
                self.turn = (self.turn + 1) % SEATS
            return
        seat.acted(None)
        if response.status_code == 503:  # refused for overload: nothing happened; the next tick tries again
            self.run.refused_latencies.append(elapsed)
        elif response.status_code == 422:
            self.run.latencies_illegal.append(elapsed)
        elif response.status_code == 409:
            seat.fetch()

    def drive(self, stop: threading.Event, start_at: float) -> None:
        next_tick = start_at + self.rng.random()  # phases spread over the first second
        while not stop.is_set():
            delay = next_tick - time.monotonic()
            if delay > 0 and stop.wait(delay):
                break
            try:
                self.step()
            except Exception as error:  # counted and shown: a generator fault must not pass for a quiet table
                self.run.count("error", "step", error)
            next_tick = max(next_tick + 1.0, time.monotonic())  # 1 action/s; never a burst to catch up


class Run:
    """One measurement point: N games against a set of running servers."""

    def __init__(self, games: int, urls: list[str], boards: bool = True):
        self.n = games
        self.boards = boards  # pages take pushed boards (as delve.js does), or fetch on the doorbell
        self.urls = urls
        # Pages fetch concurrently, as browsers do (at most one fetch in flight per seat).
        self.fetches = ThreadPoolExecutor(max_workers=SEATS * games, thread_name_prefix="fetch")
        self.lock = threading.Lock()
        self.statuses: dict[tuple, int] = {}
        self.latencies: list[float] = []
        self.latencies_illegal: list[float] = []
        self.refused_latencies: list[float] = []  # 503: refused for overload
        self.duplicate_acks = 0
        self.errors: list[str] = []  # the first few client-side errors, for the log
        self.closed = False
        self.games = [Game(self, i, urls) for i in range(games)]

    def count(self, status, method: str, error: Exception | None = None) -> None:
        with self.lock:
            self.statuses[(method, status)] = self.statuses.get((method, status), 0) + 1
            if error is not None and len(self.errors) < 5:
                self.errors.append(f"{method}: {type(error).__name__}: {str(error)[:200]}")

    def prepare(self) -> None:
        with ThreadPoolExecutor(max_workers=16) as pool:
            list(pool.map(Game.open, self.games))
            list(pool.map(Game.connect, self.games))

    def play(self, seconds: float) -> float:
        with self.lock:  # only the measured window counts
            self.statuses.clear()
            self.errors.clear()
        self.latencies.clear()
        self.refused_latencies.clear()
        stop = threading.Event()
        start_at = time.monotonic() + 0.5
        threads = [threading.Thread(target=g.drive, args=(stop, start_at), daemon=True) for g in self.games]
        for thread in threads:
            thread.start()
        time.sleep(max(0.0, start_at - time.monotonic()) + seconds)
        stop.set()
        for thread in threads:
            thread.join(60)
        wall = time.monotonic() - start_at
        time.sleep(1.5)  # the last pushes and fetches land
        return wall

    def push_latencies(self) -> list[float]:
        """Click → each other seat's socket got its new board pushed (or, with --fetch, the doorbell
        "changed") with at least the new revision."""
        samples = []
        for game in self.games:
            for seat in game.seats:
                changes = [
                    (t, data["revision"]) for t, name, data in seat.listener.messages if name in ("changed", "board")
                ]
                for sent, revision, actor in game.actions:
                    if actor == seat.index and self.boards:
                        continue  # its answer was its new board: nothing is pushed to it
                    for at, version in changes:
                        if at >= sent and version >= revision:
                            samples.append(at - sent)
                            break
        return samples

    def close(self) -> None:
        self.closed = True
        self.fetches.shutdown(wait=False, cancel_futures=True)
        with ThreadPoolExecutor(max_workers=32) as pool:
            list(pool.map(lambda s: s.close(), [s for g in self.games for s in g.seats]))


def check_log(store, run: Run) -> tuple[int, int, int, int]:
    """(lost, duplicated, unknown, server): acknowledged actions against the stored action log.

    ``server`` counts the actions the server stored for a seat on its own: a seat's ``drop`` once
    its socket stayed away beyond the grace period, or a ``timeout``. The generator never sends
    those types, so they are neither lost nor duplicated; they say a seat looked gone."""
    lost = duplicated = unknown = server = 0
    for game in run.games:
        stored = [(seq, action) for seq, _seat, action in store.actions(game.id)]
        log = dict(stored)
        seqs = sorted(seq for seq, _action in stored)
        duplicated += len(seqs) - len(set(seqs))
        if seqs != list(range(1, len(seqs) + 1)):
            lost += len(set(range(1, (seqs[-1] if seqs else 0) + 1)) - set(seqs))
        for version, action in game.acknowledged.items():
            if log.get(version) != action:
                lost += 1
        by_server = {seq for seq, action in log.items() if action.get("type") in SERVER_ACTIONS}
        server += len(by_server)
        # Entries nobody was told about: the unanswered requests may explain some, never more.
        unacked = len(set(log) - set(game.acknowledged) - by_server)
        unknown += game.unknown
        duplicated += max(0, unacked - game.unknown)
    return lost, duplicated + run.duplicate_acks, unknown, server


class Usage:
    """CPU and peak RSS of a set of processes over a window, sampled every second."""

    def __init__(self, pids: list[int]):
        self.processes = [psutil.Process(pid) for pid in pids]
        self.peak_rss = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _cpu(self) -> float:
        total = 0.0
        for process in self.processes:
            try:
                times = process.cpu_times()
                total += times.user + times.system
            except psutil.Error:
                pass
        return total

    def _sample(self):
        while not self._stop.wait(1.0):
            rss = 0
            for process in self.processes:
                try:
                    rss += process.memory_info().rss
                except psutil.Error:
                    pass
            self.peak_rss = max(self.peak_rss, rss)

    def __enter__(self):
        self.cpu0, self.t0 = self._cpu(), time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.cpu_percent = (self._cpu() - self.cpu0) / (time.monotonic() - self.t0) * 100
        self._stop.set()


def ms(samples: list[float], p: float) -> float:
    return percentile(samples, p) * 1000 if samples else float("nan")


def server_counts(urls: list[str]) -> dict:
    """The servers' own counts (``/readyz``: pushes and refused actions), summed over processes."""
    total: dict = {}
    for url in urls:
        ready = requests.get(url + "/readyz", timeout=10).json()
        for key, value in [
            *ready.get("pushes", {}).items(),
            ("refused", ready.get("load", {}).get("actions_refused", 0)),
        ]:
            if isinstance(value, bool):
                continue
            if isinstance(value, int):
                total[key] = total.get(key, 0) + value
            elif isinstance(value, float):  # the servers' own push delays (their newest pushes): the worst
                total[key] = max(total.get(key, 0.0), value)
    return total


def service_counts(database_url: str, redis_url: str) -> dict:
    """PostgreSQL's commits and written rows in this point's database, and Redis's commands and
    bytes (in and out): the shared services' work, for the per-action figures of the capacity model."""
    import psycopg
    import redis

    with psycopg.connect(database_url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted, xact_rollback FROM pg_stat_database"
            " WHERE datname = current_database()"
        ).fetchone()
    stats = redis.Redis.from_url(redis_url).info("stats")
    return {
        "commits": row[0],
        "rows_written": row[1],
        # SQLAlchemy ends a read-only connection with a rollback: these are the reads.
        "reads": row[2],
        "redis_commands": stats["total_commands_processed"],
        "redis_bytes": stats["total_net_input_bytes"] + stats["total_net_output_bytes"],
    }


def run_point(
    setup: str,
    games: int,
    seconds: float,
    services,
    workdir: Path,
    worker: str,
    boards: bool = True,
    processes: int | None = None,
    overload_ms: float = 100,
    solver_worker: bool = False,
) -> dict:
    from webapp.storage.store import Store

    threads = SEATS * games + 64  # the gthread worker's; the gevent worker has no threads to size
    env = {
        "RATE_LIMITS": "0",
        "SOCKETS_PER_ADDRESS": "0",
        "CONNECTIONS_PER_ADDRESS": "0",
        "LOG_LEVEL": "WARNING",
        "DELVE_TEST_OPTIONS": "0",
        "OVERLOAD_LAG_MS": str(overload_ms),
        # The background solver beside the server (it tops up its pools of winnable deals while
        # idle, so it works all along): its CPU is reported apart from the server's.
        "SOLVER_WORKER": "1" if solver_worker else "0",
    }
    args: list[str] = []
    if worker == "gthread":
        env["WORKER_CLASS"] = "gthread"
        args = ["--worker-connections", str(max(1000, 3 * threads))]
    app = "webapp.wsgi:app"
    point_dir = Path(tempfile.mkdtemp(prefix=f"{setup}-{games}-", dir=workdir))
    if setup == "sqlite":
        url, redis_url, count = f"sqlite:///{point_dir / 'delve.sqlite3'}", None, 1
    else:
        url, redis_url, count = (
            services["postgres"].create_database(f"load_{games}_{int(time.time())}"),
            services["redis"].url,
            processes or 2,
        )
    servers = [
        Server(
            point_dir / f"s{i}",
            database_url=url,
            redis_url=redis_url,
            threads=threads,
            env=env,
            name=f"server{i}",
            args=args,
            app=app,
        )
        for i in range(count)
    ]
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(lambda s: s.start(timeout=90), servers))
        run = Run(games, [s.url for s in servers], boards=boards)
        t = time.monotonic()
        run.prepare()
        prepared = time.monotonic() - t
        all_pids = [pid for s in servers for pid in s.pids()]
        solver_pids = [pid for pid in all_pids if _is_solver(pid)]
        pids = [pid for pid in all_pids if pid not in solver_pids]
        generator = psutil.Process()
        counts0 = server_counts([s.url for s in servers])
        services0 = service_counts(url, redis_url) if redis_url else None
        gen_cpu0 = sum(generator.cpu_times()[:2])
        with Usage(pids) as usage, Usage(solver_pids) as solver_usage:
            wall = run.play(seconds)
        gen_cpu = (sum(generator.cpu_times()[:2]) - gen_cpu0) / wall * 100
        counts1 = server_counts([s.url for s in servers])
        time.sleep(1.0)  # PostgreSQL publishes its statistics about once a second
        services1 = service_counts(url, redis_url) if redis_url else None
        counts = {key: counts1.get(key, 0) - counts0.get(key, 0) for key in counts1 if isinstance(counts1[key], int)}
        counts.update({key: value for key, value in counts1.items() if isinstance(value, float)})
        load = os.getloadavg()[0]
        store = Store(url)
        lost, duplicated, unknown, server_actions = check_log(store, run)
        store.engine.dispose()
        pushes = run.push_latencies()
        drops = sum(seat.listener.disconnects for game in run.games for seat in game.seats)
        accepted = len(run.latencies)
        # A 503 is an action refused for overload (web/overload.py), counted as refused, not as an error.
        server_errors = sum(n for (m, s), n in run.statuses.items() if isinstance(s, int) and s >= 500 and s != 503)
        client_errors = sum(n for (m, s), n in run.statuses.items() if s == "error")
        count = len(servers)
        result = {
            "setup": "1 process, SQLite"
            if setup == "sqlite"
            else f"{count} process{'es' if count > 1 else ''}, PostgreSQL + Redis",
            "worker": worker if boards else f"{worker}, fetch",
            "games": games,
            "seconds": round(wall, 1),
            "threads": threads if worker == "gthread" else "-",
            "actions_per_s": accepted / wall,
            "requests_per_s": sum(run.statuses.values()) / wall,
            "p50": ms(run.latencies, 50),
            "p95": ms(run.latencies, 95),
            "p99": ms(run.latencies, 99),
            "push_p50": ms(pushes, 50),
            "push_p95": ms(pushes, 95),
            "push_p99": ms(pushes, 99),
            "5xx": server_errors,
            "errors": client_errors,
            "socket_drops": drops,
            "409": sum(n for (m, s), n in run.statuses.items() if s == 409),
            "422": sum(n for (m, s), n in run.statuses.items() if s == 422),
            "lost": lost,
            "duplicated": duplicated,
            "unanswered": unknown,
            "server_actions": server_actions,
            "cpu": usage.cpu_percent,
            # Server CPU per accepted action (every seat's board and the commit included): the
            # figure compared with the peer framework's CPU per move.
            "cpu_ms_per_action": usage.cpu_percent * 10 / (accepted / wall) if accepted else float("nan"),
            "refused": sum(n for (m, s), n in run.statuses.items() if s == 503),
            # Per accepted action, on PostgreSQL + Redis (the generator's own reads included: the
            # few before and after the window).
            "per_action": {key: (services1[key] - services0[key]) / accepted for key in services1}
            if services0 and services1 and accepted
            else None,
            "boards_rendered": counts.get("rendered", 0),
            "boards_unchanged": counts.get("unchanged", 0),
            "pushes_coalesced": counts.get("coalesced", 0) + counts.get("skipped", 0),
            # The server's own share of a push's way (doorbell to the push leaving the process).
            "server_push_p95": counts.get("delay_p95_ms"),
            "rss_mb": usage.peak_rss / 2**20,
            "generator_cpu": gen_cpu,
            "solver_cpu": solver_usage.cpu_percent if solver_pids else None,
            "loadavg": load,
            "setup_s": prepared,
            "first_errors": list(run.errors),
        }
        run.close()
        return result
    finally:
        for server in servers:
            server.kill()


def _is_solver(pid: int) -> bool:
    """The background solver: the server's process spawned by multiprocessing (webapp/solver_worker.py)."""
    try:
        return any("spawn_main" in part for part in psutil.Process(pid).cmdline())
    except psutil.Error:
        return False


def within_target(r: dict) -> bool:
    return r["p95"] <= P95_TARGET_MS and not (
        r["5xx"] or r["errors"] or r["lost"] or r["duplicated"] or r.get("socket_drops") or r.get("server_actions")
    )


def largest_within_target(point, start: int, limit: int) -> dict | None:
    """Up by x1.5 from ``start`` while within the target (or halving down until within), then two
    bisection steps between the last good and the first bad N."""
    good = bad = None
    n = start
    if within_target(point(n)):
        good = n
        while n < limit:
            n = min(limit, int(n * 1.5))
            if not within_target(point(n)):
                bad = n
                break
            good = n
    else:
        bad = n
        while n > 4:
            n //= 2
            if within_target(point(n)):
                good = n
                break
            bad = n
    for _ in range(2):
        if good is None or bad is None or bad - good <= max(2, good // 10):
            break
        middle = (good + bad) // 2
        if within_target(point(middle)):
            good = middle
        else:
            bad = middle
    return point(good) if good is not None else None


def print_results(title: str, results: list[dict]) -> None:
    print_table(
        title,
        [
            "setup",
            "worker",
            "N games",
            "threads",
            "actions/s",
            "requests/s",
            "action p50/p95/p99 ms",
            "push p50/p95/p99 ms",
            "5xx",
            "errors",
            "socket drops",
            "seats dropped",
            "lost",
            "dup",
            "refused (503)",
            "boards rendered / unchanged / coalesced",
            "server CPU %",
            "CPU ms per action",
            "server RSS MB",
            "generator CPU %",
            "solver CPU %",
            "load avg",
        ],
        [
            [
                r["setup"],
                r["worker"],
                r["games"],
                r["threads"],
                round(r["actions_per_s"], 1),
                round(r["requests_per_s"], 1),
                f"{r['p50']:.0f} / {r['p95']:.0f} / {r['p99']:.0f}",
                f"{r['push_p50']:.0f} / {r['push_p95']:.0f} / {r['push_p99']:.0f}",
                r["5xx"],
                r["errors"],
                r.get("socket_drops", "-"),
                r.get("server_actions", "-"),
                r["lost"],
                r["duplicated"],
                r.get("refused", "-"),
                " / ".join(str(r.get(key, "-")) for key in ("boards_rendered", "boards_unchanged", "pushes_coalesced")),
                round(r["cpu"]),
                f"{r['cpu_ms_per_action']:.2f}",
                round(r["rss_mb"]),
                round(r["generator_cpu"]),
                "-" if r.get("solver_cpu") is None else round(r["solver_cpu"]),
                round(r["loadavg"], 1),
            ]
            for r in results
        ],
    )


def print_services(results: list[dict]) -> None:
    rows = [r for r in results if r.get("per_action")]
    if rows:
        print_table(
            "Shared services per accepted action (PostgreSQL fsync off, as in the tests)",
            [
                "setup",
                "N games",
                "PostgreSQL commits",
                "read transactions",
                "rows written",
                "Redis commands",
                "Redis bytes",
            ],
            [
                [
                    r["setup"],
                    r["games"],
                    f"{r['per_action']['commits']:.2f}",
                    f"{r['per_action']['reads']:.2f}",
                    f"{r['per_action']['rows_written']:.2f}",
                    f"{r['per_action']['redis_commands']:.2f}",
                    f"{r['per_action']['redis_bytes']:.0f}",
                ]
                for r in rows
            ],
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=600, help="measured seconds per point (default 600)")
    parser.add_argument("--games", type=int, default=100, help="N, concurrent games of 4 seats (default 100)")
    parser.add_argument("--setup", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument(
        "--search",
        action="store_true",
        help=f"also find the largest N keeping action p95 <= {P95_TARGET_MS:.0f} ms (x1.5 steps up, halving down)",
    )
    parser.add_argument("--max-games", type=int, default=400)
    parser.add_argument("--worker", choices=["gevent", "gthread"], default="gevent")
    parser.add_argument(
        "--overload-ms",
        type=float,
        default=100,
        help="the servers' OVERLOAD_LAG_MS (default 100, the production default; 0: never refuse actions)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        choices=[1, 2],
        default=2,
        help="server processes on PostgreSQL + Redis (default 2; seats alternate between them)",
    )
    parser.add_argument(
        "--solver-worker",
        action="store_true",
        help="run the background solver beside each server (SOLVER_WORKER=1) and report its CPU apart",
    )
    parser.add_argument(
        "--threads", action="store_true", help="run the generator's clients on threads instead of greenlets"
    )
    parser.add_argument(
        "--fetch",
        action="store_true",
        help="pages fetch their board on the doorbell (the way before pushed boards) instead of taking pushes",
    )
    args = parser.parse_args()

    # A dropped socket is counted (socket drops); the client library's own line for it is noise.
    logging.getLogger("engineio.client").setLevel(logging.CRITICAL)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets on both ends
    workdir = Path(tempfile.mkdtemp(prefix="delve-load-"))
    setups = ["sqlite", "postgres"] if args.setup == "both" else [args.setup]
    services: dict = {}
    results: list[dict] = []
    try:
        if "postgres" in setups:
            conf = services_module()
            services["postgres"] = conf.PostgresServer().start()
            services["redis"] = conf.RedisServer().start()
        for setup in setups:
            tried: dict[int, dict] = {}

            def point(n: int, setup: str = setup, tried: dict[int, dict] = tried) -> dict:
                if n not in tried:
                    print(f"... {setup}, N={n}, {args.seconds:.0f} s", file=sys.stderr, flush=True)
                    tried[n] = run_point(
                        setup,
                        n,
                        args.seconds,
                        services,
                        workdir,
                        args.worker,
                        not args.fetch,
                        args.processes,
                        args.overload_ms,
                        args.solver_worker,
                    )
                    print(json.dumps(tried[n]), file=sys.stderr, flush=True)
                return tried[n]

            first = point(args.games)
            results.append(first)
            if args.search:
                best = largest_within_target(point, args.games, args.max_games)
                if best is not None and best["games"] != first["games"]:
                    results.append(best)
                print_results(f"{setup}: every point tried", sorted(tried.values(), key=lambda r: r["games"]))
    finally:
        for service in services.values():
            service.stop()
    print_results(
        f"Load: Dungeon of Doom, {SEATS} seats a game, 1 action per game per second, "
        f"{ILLEGAL:.0%} illegal, {args.seconds:.0f} s per point",
        results,
    )
    print_services(results)


if __name__ == "__main__":
    main()
