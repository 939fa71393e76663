"""Bot tables beside human ones: K tables played by bots alone on one process (SQLite) while the
load generator's N four-seat human tables play (``benchmarks/load.py``: one action per table per
second, 10 % illegal). Figures only, never pass/fail:

- the human players' action latency p50/p95/p99 (the "Hold a crowd" target: p95 <= 100 ms), with
  and without the bot tables (``--bot-tables 0`` for the baseline alone),
- the bots' actions per second, lost or duplicated human actions, 5xx, server CPU,
- the bot decision time p50/p95/p99/max: ``decide(slug, view, legal)`` timed in this process
  over every position the bot tables went through (their logs replayed), as the server's loop
  calls it (plus the seat's view and legal actions, which the loop computes too).

A bot table is a "Play now with bots" table with three normal bots on a large random map whose
person leaves at once: only its bots play, each a move per BOT_DELAY_SECONDS (the default, 1 s).
A table whose game ends is not replaced (the count of bot actions shows how many kept playing).

    .venv/bin/python benchmarks/bot_tables.py                      # N=100 human, K=100 bot tables, 60 s
    .venv/bin/python benchmarks/bot_tables.py --seconds 30 --baseline
"""

from __future__ import annotations

import sys

if "--threads" not in sys.argv:
    from gevent import monkey

    monkey.patch_all()

import argparse
import logging
import random
import resource
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402  (patched first, as load.py itself is)
from load import Player, Run, Server, Usage, check_log, ms, print_table  # noqa: E402

import rules_engine  # noqa: E402
from rules_engine.bots import decide, has_choice  # noqa: E402


def open_bot_tables(url: str, count: int) -> list[str]:
    """``count`` Play-now tables of three bots whose person has left; their ids."""

    def one(index: int) -> str:
        player = load.browser_like(Player(url, f"B{index}"))
        response = player.post(
            "/games/with-bots",
            {
                "game": "dungeon-of-doom",
                "name": f"B{index}",
                "bots": "3",
                "map_choice": "random-L",
                "turn_seconds": "0",
            },
            htmx=False,
        )
        assert response.status_code == 303, response.text[:300]
        game_id = response.headers["Location"].rsplit("/", 1)[-1]
        player.get(f"/g/{game_id}")
        assert player.act(game_id, {"type": "leave"}, 0).status_code == 200
        player.close()
        return game_id

    with ThreadPoolExecutor(max_workers=16) as pool:
        return list(pool.map(one, range(count)))


def decision_times(store, game_ids: list[str]) -> list[float]:
    """Seconds each bot decision takes, over every position of the bot tables' logs."""
    samples = []
    for game_id in game_ids:
        record = store.load(game_id)
        rules = rules_engine.get(record.slug)
        state = rules.new_game(seed=record.seed, players=record.players, options=record.options)
        rng = random.Random(0)
        for _seq, seat, action in store.actions(game_id):
            for bot_seat in ("p2", "p3", "p4"):
                started = time.perf_counter()
                legal = rules.legal_actions(state, bot_seat)
                if has_choice(record.slug, legal):
                    decide(record.slug, rules.view(state, bot_seat), legal, rng=rng)
                    samples.append(time.perf_counter() - started)
            state = rules.apply(state, seat, action)
    return samples


def run_point(games: int, bot_tables: int, seconds: float, workdir: Path) -> dict:
    from webapp.storage.store import Store

    env = {
        "RATE_LIMITS": "0",
        "SOCKETS_PER_ADDRESS": "0",
        "CONNECTIONS_PER_ADDRESS": "0",
        "LOG_LEVEL": "WARNING",
        "DELVE_TEST_OPTIONS": "0",
    }
    point_dir = Path(tempfile.mkdtemp(prefix=f"bots-{games}-{bot_tables}-", dir=workdir))
    url = f"sqlite:///{point_dir / 'delve.sqlite3'}"
    server = Server(point_dir / "s0", database_url=url, env=env, name="server0")
    try:
        server.start(timeout=90)
        bots_ids = open_bot_tables(server.url, bot_tables)
        run = Run(games, [server.url])
        run.prepare()
        store = Store(url)
        before = sum(len(store.actions(g)) for g in bots_ids)
        generator = psutil.Process()
        gen0 = sum(generator.cpu_times()[:2])
        with Usage(server.pids()) as usage:
            wall = run.play(seconds)
        gen_cpu = (sum(generator.cpu_times()[:2]) - gen0) / wall * 100
        bot_actions = sum(len(store.actions(g)) for g in bots_ids) - before
        still_running = sum(store.load(g).status == "running" for g in bots_ids)
        lost, duplicated, _unknown, _server_actions = check_log(store, run)
        decisions = decision_times(store, bots_ids)
        store.engine.dispose()
        result = {
            "games": games,
            "bot_tables": bot_tables,
            "running_at_end": still_running,
            "seconds": round(wall, 1),
            "human_actions_per_s": len(run.latencies) / wall,
            "bot_actions_per_s": bot_actions / wall,
            "p50": ms(run.latencies, 50),
            "p95": ms(run.latencies, 95),
            "p99": ms(run.latencies, 99),
            "5xx": sum(n for (_m, s), n in run.statuses.items() if isinstance(s, int) and s >= 500),
            "lost": lost,
            "duplicated": duplicated,
            "cpu": usage.cpu_percent,
            "generator_cpu": gen_cpu,
            "decisions": len(decisions),
            "decide_p50": ms(decisions, 50),
            "decide_p95": ms(decisions, 95),
            "decide_p99": ms(decisions, 99),
            "decide_max": max(decisions) * 1000 if decisions else 0.0,
        }
        run.close()
        return result
    finally:
        server.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--games", type=int, default=100, help="N, the generator's four-seat human tables")
    parser.add_argument("--bot-tables", type=int, default=100, help="K, tables played by three bots")
    parser.add_argument("--baseline", action="store_true", help="also measure the human tables alone")
    parser.add_argument("--threads", action="store_true", help="the generator's clients on threads")
    args = parser.parse_args()
    logging.getLogger("engineio.client").setLevel(logging.CRITICAL)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    workdir = Path(tempfile.mkdtemp(prefix="delve-bots-"))
    points = [(args.games, 0)] if args.baseline else []
    points.append((args.games, args.bot_tables))
    results = [run_point(n, k, args.seconds, workdir) for n, k in points]
    print_table(
        f"Bot tables beside human tables: 1 process, SQLite, {args.seconds:.0f} s a point",
        [
            "human tables",
            "bot tables (running at end)",
            "human actions/s",
            "bot actions/s",
            "human action p50/p95/p99 ms",
            "5xx",
            "lost",
            "dup",
            "server CPU %",
            "generator CPU %",
            "bot decisions",
            "decide p50/p95/p99/max ms",
        ],
        [
            [
                r["games"],
                f"{r['bot_tables']} ({r['running_at_end']})",
                round(r["human_actions_per_s"], 1),
                round(r["bot_actions_per_s"], 1),
                f"{r['p50']:.0f} / {r['p95']:.0f} / {r['p99']:.0f}",
                r["5xx"],
                r["lost"],
                r["duplicated"],
                round(r["cpu"]),
                round(r["generator_cpu"]),
                r["decisions"],
                f"{r['decide_p50']:.2f} / {r['decide_p95']:.2f} / {r['decide_p99']:.2f} / {r['decide_max']:.1f}"
                if r["decisions"]
                else "-",
            ]
            for r in results
        ],
    )


if __name__ == "__main__":
    main()
