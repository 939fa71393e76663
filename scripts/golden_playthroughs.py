"""Golden playthroughs: one whole game per game, played by seeded random legal moves, written to
``tests/golden/<slug>.json`` and replayed exactly by ``tests/engine/test_golden.py``.

Each file holds the seed, the options, the players, every action with the seat that took it and
a digest of the spectator's view after it, the final result and a digest of the final dump. An
engine change that alters any of them (a rule, a view, a log line, the deal from a seed) fails
the replay, on purpose: nothing else notices that an old game would now play differently.

When a change is meant to alter a game, regenerate the files and commit them with the change:

    .venv/bin/python scripts/golden_playthroughs.py            # every game
    .venv/bin/python scripts/golden_playthroughs.py dungeon-cards

and say in the commit why the games changed (``git diff tests/golden`` shows from which step).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script, from any folder
    sys.path.insert(0, str(ROOT))

import rules_engine  # noqa: E402  (after the path is set)
from rules_engine.undo import game_part  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"
# What each game is dealt: a fixed seed, the seats, the options (each game's defaults, so the
# file follows the game most people play).
GAMES: dict[str, dict[str, Any]] = {
    "shuffle-and-doom": {"seed": 1001, "players": ["p1"], "options": {}},
    "clear-the-dungeon": {"seed": 1002, "players": ["p1"], "options": {}},
    "hebracs-dungeon": {"seed": 1003, "players": ["p1"], "options": {}},
    "dungeon-cards": {"seed": 1004, "players": ["p1", "p2"], "options": {}},
    "dungeon-of-doom": {"seed": 1005, "players": ["p1", "p2"], "options": {}},
}
# Random play could wander for ever (the Dungeon of Doom has no deck to run out); after this
# many actions a seat that can quit does, so every game reaches its end.
WANDER = 300
QUITTING = {"resign", "leave", "leave_game"}


def digest(data: Any) -> str:
    """A short fingerprint of JSON data (keys sorted, so only the content counts)."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def play(slug: str, seed: int, players: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """One game by seeded random legal moves, to its end: the golden file's content."""
    rules = rules_engine.get(slug)
    state = rules.new_game(seed, list(players), dict(options))
    pick = random.Random(f"golden-{slug}-{seed}")
    steps = []
    while rules.result(state) is None:
        movers = [(seat, actions) for seat in players if (actions := rules.legal_actions(state, seat))]
        if not movers:
            raise RuntimeError(f"{slug}: no seat can act at step {len(steps)} and the game is not over")
        seat, actions = pick.choice(movers)
        quitting = [a for a in actions if a["type"] in QUITTING]
        staying = [a for a in actions if a["type"] not in QUITTING]
        action = pick.choice(quitting if len(steps) >= WANDER and quitting else staying or actions)
        state = rules.apply(state, seat, action)
        steps.append({"seat": seat, "action": action, "view": digest(rules.view(state, None))})
    return {
        "slug": slug,
        "seed": seed,
        "players": list(players),
        "options": dict(options),
        "steps": steps,
        "result": rules.result(state),
        # The game's own state: the undo trail is the platform's, not a rule of the game.
        "final_dump": digest(game_part(rules.dump(state))),
    }


def write(slug: str) -> Path:
    game = GAMES[slug]
    path = GOLDEN / f"{slug}.json"
    played = play(slug, game["seed"], game["players"], game["options"])
    # One step a line: a changed game shows in the diff from the step where it changed.
    lines = [json.dumps(step, sort_keys=True, ensure_ascii=False) for step in played.pop("steps")]
    head = json.dumps(played, sort_keys=True, ensure_ascii=False, indent=1)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(head[:-2] + ',\n "steps": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n", encoding="utf-8")
    return path


def main(argv: list[str]) -> None:
    unknown = [slug for slug in argv if slug not in GAMES]
    if unknown:
        raise SystemExit(f"unknown game(s) {unknown}; known: {sorted(GAMES)}")
    for slug in argv or sorted(GAMES):
        path = write(slug)
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
