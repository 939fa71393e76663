"""Bot strength and speed (issue 16): figures only, never an assertion.

    .venv/bin/python benchmarks/bot_strength.py [--games 200] [--budget 240] [--dc-games 200]

Games are played purely in the engine, the way the server's driver plays them: each step the
seat whose input is needed gets ``view(state, seat)`` and its own ``legal_actions`` and nothing
else. The "random" player is ``decide(..., level="easy")``: any legal action, never quitting.
A game that reaches its action cap counts as a loss for the bot.

- The Dungeon of Doom, each shipped map: a normal bot alone (escape-with-the-gold rate, target
  >= 50 %); a normal bot against a random player, seats alternating (the bot's win rate, target
  >= 80 %).
- Dungeon Cards, parties of 2-4: all normal bots against all random players (escape rates).
- The time of one normal decision, p50 and p95 (target <= 5 ms p95).

The games per setting shrink to fit ``--budget`` seconds in all; the counts are printed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import percentile, print_table  # noqa: E402

from rules_engine import bots  # noqa: E402
from rules_engine.games import dungeon_cards as dc  # noqa: E402
from rules_engine.games import dungeon_of_doom as dod  # noqa: E402

DOD_CAP = 3000
DC_CAP = 3000
DC_CLASSES = ("ninja", "athlete", "soldier", "tank", "rogue", "swordsman", "mage", "healer")
TIMES: list[float] = []


def timed_decide(slug: str, view: dict, legal: list[dict], rng: random.Random, level: str) -> dict:
    started = time.perf_counter()
    action = bots.decide(slug, view, legal, rng=rng, level=level)
    if level == "normal":
        TIMES.append(time.perf_counter() - started)
    return action


def play_dod(map_text: str, levels: list[str], seed: int) -> str | None:
    """One game; the winning seat, or None (nobody escaped or the cap was reached)."""
    seats = [f"p{i + 1}" for i in range(len(levels))]
    level = dict(zip(seats, levels))
    rngs = {seat: random.Random(f"{seed}:{seat}") for seat in seats}
    state = dod.new_game(seed, seats, {"map": map_text, "max_players": len(seats)})
    for _ in range(DOD_CAP):
        if state["result"] is not None:
            winners = state["result"]["winners"]
            return winners[0] if winners else None
        seat = state["turn"]["seat"]
        action = timed_decide(
            "dungeon-of-doom", dod.view(state, seat), dod.legal_actions(state, seat), rngs[seat], level[seat]
        )
        state = dod.apply(state, seat, action)
    return None


def play_dc(level: str, players: int, seed: int) -> bool:
    """One party game of ``level`` bots with random distinct classes; whether anyone escaped."""
    seats = [f"s{i + 1}" for i in range(players)]
    pick = random.Random(f"{seed}:classes")
    classes = dict(zip(seats, pick.sample(DC_CLASSES, players)))
    rngs = {seat: random.Random(f"{seed}:{seat}") for seat in seats}
    state = dc.new_game(seed, seats, {"classes": classes})
    for _ in range(DC_CAP):
        if state["status"] == "finished":
            return state["outcome"]["result"] in ("victory", "team_victory")
        for seat in seats:
            legal = dc.legal_actions(state, seat)
            if bots.has_choice("dungeon-cards", legal):
                break
        else:  # pragma: no cover - a running game always awaits someone
            raise AssertionError("nobody can act")
        action = timed_decide("dungeon-cards", dc.view(state, seat), legal, rngs[seat], level)
        state = dc.apply(state, seat, action)
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="Dungeon of Doom games per map and setting")
    parser.add_argument("--dc-games", type=int, default=200, help="Dungeon Cards games per party size and side")
    parser.add_argument("--budget", type=float, default=240.0, help="seconds for the whole run (about)")
    args = parser.parse_args()
    maps = dod.shipped_maps()
    settings = len(maps) * 2 + 3 * 2
    per_setting = args.budget / settings

    solo_rows, duel_rows = [], []
    for name, text in maps.items():
        for kind, rows in (("solo", solo_rows), ("duel", duel_rows)):
            started = time.perf_counter()
            played = wins = 0
            for seed in range(args.games):
                if time.perf_counter() - started > per_setting:
                    break
                if kind == "solo":
                    wins += play_dod(text, ["normal"], seed) == "p1"
                else:
                    bot_first = seed % 2 == 0
                    levels = ["normal", "easy"] if bot_first else ["easy", "normal"]
                    wins += play_dod(text, levels, seed) == ("p1" if bot_first else "p2")
                played += 1
            rows.append([name, played, wins, f"{100 * wins / played:.1f} %"])
    print_table(
        "The Dungeon of Doom: a normal bot alone (target >= 50 % escape with the gold)",
        ["map", "games", "escapes", "rate"],
        solo_rows,
    )
    print_table(
        "The Dungeon of Doom: a normal bot against a random player (target >= 80 % wins)",
        ["map", "games", "bot wins", "rate"],
        duel_rows,
    )

    dc_rows = []
    for players in (2, 3, 4):
        row: list = [players]
        for level in ("normal", "easy"):
            started = time.perf_counter()
            played = escaped = 0
            for seed in range(args.dc_games):
                if time.perf_counter() - started > per_setting:
                    break
                escaped += play_dc(level, players, seed)
                played += 1
            row += [played, f"{100 * escaped / played:.1f} %"]
        dc_rows.append(row)
    print_table(
        "Dungeon Cards: parties escaping (a party of normal bots vs a party of random players)",
        ["party", "bot games", "bot escape rate", "random games", "random escape rate"],
        dc_rows,
    )

    ms = [t * 1000 for t in TIMES]
    print_table(
        "A normal bot's decision (target <= 5 ms p95)",
        ["decisions", "p50 ms", "p95 ms", "max ms"],
        [[len(ms), f"{percentile(ms, 50):.3f}", f"{percentile(ms, 95):.3f}", f"{max(ms):.3f}"]],
    )


if __name__ == "__main__":
    main()
