"""Golden playthroughs: every committed game in ``tests/golden/`` replays through its engine
exactly — each action legal where it was taken, the same spectator's view after each one, the
same result and the same final dump. A change that alters how any of these games plays fails
here; if it is meant to, regenerate the files (``scripts/golden_playthroughs.py`` says how)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules_engine
from rules_engine.undo import game_part
from scripts.golden_playthroughs import GAMES, GOLDEN, digest

REGENERATE = "if the change is meant to alter this game, run scripts/golden_playthroughs.py"


def test_one_golden_game_per_game():
    assert sorted(path.stem for path in GOLDEN.glob("*.json")) == sorted(rules_engine.available()) == sorted(GAMES)


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda path: path.stem)
def test_the_golden_game_replays_exactly(path: Path):
    golden = json.loads(path.read_text(encoding="utf-8"))
    rules = rules_engine.get(golden["slug"])
    state = rules.new_game(golden["seed"], golden["players"], golden["options"])
    for number, step in enumerate(golden["steps"]):
        where = f"{path.name} step {number} ({step['seat']}: {step['action']}); {REGENERATE}"
        assert rules.result(state) is None, f"the game ended before {where}"
        assert step["action"] in rules.legal_actions(state, step["seat"]), f"not legal any more at {where}"
        state = rules.apply(state, step["seat"], step["action"])
        assert digest(rules.view(state, None)) == step["view"], f"the spectator's view differs after {where}"
    assert rules.result(state) == golden["result"], f"{path.name}: another result; {REGENERATE}"
    assert digest(game_part(rules.dump(state))) == golden["final_dump"], (
        f"{path.name}: another final state; {REGENERATE}"
    )
