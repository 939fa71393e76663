"""The Dungeon of Doom under random play (Hypothesis), 2–6 players plus late joiners.

Properties: play never crashes and ends once everyone leaves; every listed action is accepted and
every accepted player action was listed; illegal or malformed actions change nothing; apply never
mutates its input; dump/load round-trips; replay equals the live state; and no view mentions a
cell, item or player its seat may not know (rules 8 and 10.5).
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules_engine
from rules_engine import IllegalAction, InvalidAction

dod = rules_engine.get("dungeon-of-doom")

MAPS = (
    [dod.shipped_maps()[stem] for stem in ("duelling-hall", "sunken-vault", "lantern-gallery")]
    + [dod.generate_map(seed, "S") for seed in (1, 2)]
    + ["name Strip\nwin 1\nE.G.H.S.A.L.G"]
)

CANDIDATES = (
    [{"type": t, "dir": d} for t in ("move", "attack") for d in "NESW"]
    + [{"type": t} for t in ("pickup", "end_turn", "leave", "join", "timeout", "drop")]
    + [
        {"type": "move"},
        {"type": "move", "dir": "up"},
        {"type": "fly"},
        {"type": "pickup", "x": 1},
        {},
        None,
    ]
)

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def in_field(dr: int, dc: int, lantern: bool) -> bool:
    """Section 6.1, written out again independently of the engine."""
    if lantern:
        return (dr == 0 and abs(dc) <= 3) or (1 <= abs(dr) <= 2 and abs(dc) <= 2) or (abs(dr) == 3 and abs(dc) <= 1)
    return abs(dr) <= 2 and abs(dc) <= 2 and not (abs(dr) == 2 and abs(dc) == 2)


def field(state: dict, p: dict) -> set[tuple[int, int]]:
    r0, c0 = p["pos"]
    lantern = "lantern" in p["kit"]
    h, w = state["map"]["height"], state["map"]["width"]
    return {
        (r0 + dr, c0 + dc)
        for dr in range(-3, 4)
        for dc in range(-3, 4)
        if in_field(dr, dc, lantern) and 0 <= r0 + dr < h and 0 <= c0 + dc < w
    }


def positions(node, key=None):
    """Every [row, col] found under a "pos" key anywhere in a view."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from positions(v, k)
    elif isinstance(node, list):
        if key == "pos" and len(node) == 2 and all(isinstance(x, int) for x in node):
            yield tuple(node)
        else:
            for v in node:
                yield from positions(v)


class Game:
    """A random game driven by Hypothesis, checking the contract after every step."""

    def __init__(self, data, seed: int, players: int, text: str):
        self.data = data
        self.seed = seed
        self.seats = [f"p{i}" for i in range(1, players + 1)]
        self.options = {"map": text, "max_players": 8, "turn_seconds": 0}
        self.state = dod.new_game(seed, self.seats, self.options)
        self.log: list[tuple[str, object]] = []
        self.newcomers = 0
        self.seen: dict[str, set] = {}
        self.last_seen: dict[str, dict] = {}  # seat -> cell -> (tile, item) as last seen
        self.after_step()

    # -- one attempt ---------------------------------------------------------------------------

    def attempt(self, seat, action) -> bool:
        state = self.state
        before = dod.dump(state)
        legal = dod.legal_actions(state, seat)
        try:
            after = dod.apply(state, seat, action)
        except (InvalidAction, IllegalAction):
            assert dod.dump(state) == before, "a refused action changed the state"
            assert action not in legal, f"{action} was listed but refused"
            return False
        assert dod.dump(state) == before, "apply mutated its input"
        kind = action["type"]
        if kind == "timeout":
            assert state["turn"]["seat"] == seat
        elif kind == "drop":
            assert any(p["seat"] == seat and p["status"] == "alive" for p in state["players"])
        else:
            assert action in legal, f"{action} was accepted but not listed"
        self.log.append((seat, action))
        self.state = after
        self.after_step()
        return True

    def step(self) -> None:
        data, state = self.data, self.state
        current = state["turn"]["seat"]
        alive = [p["seat"] for p in state["players"] if p["status"] == "alive"]
        roll = data.draw(st.integers(0, 99), label="roll")
        if roll < 80:
            choices = [a for a in dod.legal_actions(state, current) if a["type"] != "leave"]
            self.attempt(current, data.draw(st.sampled_from(choices), label="action"))
        elif roll < 84:
            self.attempt(current, {"type": "timeout"})
        elif roll < 87:
            seat = data.draw(st.sampled_from(alive), label="quitter")
            self.attempt(seat, data.draw(st.sampled_from([{"type": "leave"}, {"type": "drop"}]), label="how"))
        elif roll < 91:
            self.newcomers += 1
            self.attempt(f"n{self.newcomers}", {"type": "join"})
        else:
            seats = [p["seat"] for p in state["players"]] + ["n99"]
            seat = data.draw(st.sampled_from(seats), label="seat")
            self.attempt(seat, data.draw(st.sampled_from(CANDIDATES), label="attempt"))

    # -- checks after every accepted action ----------------------------------------------------

    def after_step(self) -> None:
        state = self.state
        assert dod.load(json.loads(json.dumps(dod.dump(state)))) == state
        items = {tuple(i["pos"]): {"kind": i["kind"], "amount": i["amount"]} for i in state["map"]["items"]}
        tiles = {"#": "wall", ".": "floor", "E": "exit"}
        for p in state["players"]:
            if p["status"] == "alive":
                cells = field(state, p)
                self.seen.setdefault(p["seat"], set()).update(cells)
                memory = self.last_seen.setdefault(p["seat"], {})
                for r, c in cells:
                    memory[r, c] = (tiles[state["map"]["terrain"][r][c]], items.get((r, c)))
        self.check_invariants()
        self.check_views()
        if dod.result(state) is None:
            for action in dod.legal_actions(state, state["turn"]["seat"]):
                dod.apply(state, state["turn"]["seat"], action)  # every listed action is accepted

    def check_invariants(self) -> None:
        state = self.state
        alive = [p for p in state["players"] if p["status"] == "alive"]
        spots = [tuple(p["pos"]) for p in alive]
        assert len(spots) == len(set(spots))
        for r, c in spots:
            assert state["map"]["terrain"][r][c] != "#"
        for p in state["players"]:
            if p["status"] == "dead":
                assert p["pos"] is None and p["gold"] == 0 and p["kit"] == [] and p["ap"] is None
            else:
                assert p["hp"] >= 1 and p["kit"] == sorted(set(p["kit"]))
        coins = sum(i["amount"] for i in state["map"]["items"] if i["kind"] == "gold") + sum(
            p["gold"] for p in state["players"]
        )
        assert coins == dod.parse_map(self.options["map"]).gold  # gold is never created or lost
        if dod.result(state) is None:
            turn = state["turn"]
            current = next(p for p in alive if p["seat"] == turn["seat"])
            assert 1 <= current["ap"] <= 6
            assert all(p["ap"] is None for p in state["players"] if p is not current)
        else:
            assert state["turn"] is None

    def check_views(self) -> None:
        state = self.state
        running = dod.result(state) is None
        truth_items = {tuple(i["pos"]): {"kind": i["kind"], "amount": i["amount"]} for i in state["map"]["items"]}
        truth_players = {tuple(p["pos"]): p["seat"] for p in state["players"] if p["status"] == "alive"}
        for seat in [p["seat"] for p in state["players"]] + [None, "stranger"]:
            v = dod.view(state, seat)
            text = json.dumps(v)
            assert str(self.seed) not in text
            assert "dice" not in text and "start_positions" not in text and "seed" not in text
            assert [sorted(p) for p in v["players"]] == [["cause", "seat", "status"]] * len(state["players"])
            if not running:
                assert v["final"] is not None and v["result"] == dod.result(state)
                continue
            assert v["final"] is None and v["result"] is None
            me = next((p for p in state["players"] if p["seat"] == seat), None)
            allowed = self.seen.get(seat, set()) if me is not None else set()
            mentioned = set(positions({k: v[k] for k in ("me", "visible", "memory", "events")}))
            assert mentioned <= allowed, f"{seat} is told about {mentioned - allowed}"
            if me is None or me["status"] != "alive":
                assert v["visible"] == v["look"] == v["memory"] == []
                assert v["me"] is None if me is None else v["me"] == {"seat": seat, "status": "dead"}
                continue
            now = field(state, me)
            assert {tuple(c["pos"]) for c in v["visible"]} == now
            for cell in v["visible"]:
                pos = tuple(cell["pos"])
                assert cell["item"] == truth_items.get(pos)
                assert cell["player"] == truth_players.get(pos)
            remembered = {tuple(c["pos"]): (c["tile"], c["item"]) for c in v["memory"]}
            expected = {pos: seen for pos, seen in self.last_seen[seat].items() if pos not in now}
            assert remembered == expected
            for event in v["events"]:
                if "hp" in event and event["type"] == "attack":
                    assert event["target"] == seat  # only the target learns its own hit points
            assert v["me"]["hp"] == me["hp"] and v["me"]["gold"] == me["gold"]
            others = {p["seat"] for p in state["players"] if p["seat"] != seat}
            for entry in v["visible"]:
                if entry["player"] in others:
                    assert tuple(entry["pos"]) in now

    # -- ending --------------------------------------------------------------------------------

    def finish(self) -> None:
        while dod.result(self.state) is None:
            seat = next(p["seat"] for p in self.state["players"] if p["status"] == "alive")
            assert self.attempt(seat, {"type": "leave"})
        assert dod.result(self.state)["reason"] in ("escaped", "no_one_left")

    def replay(self) -> dict:
        state = dod.new_game(self.seed, self.seats, self.options)
        for seat, action in self.log:
            state = dod.apply(state, seat, action)
        return state


game_setup = dict(
    data=st.data(),
    seed=st.integers(10**12, 10**13),
    players=st.integers(2, 6),
    text=st.sampled_from(MAPS),
    steps=st.integers(1, 70),
)


class TestRandomPlay:
    @SETTINGS
    @given(**game_setup)
    def test_random_games_keep_the_contract_and_replay_exactly(self, data, seed, players, text, steps):
        game = Game(data, seed, players, text)
        for _ in range(steps):
            if dod.result(game.state) is not None:
                break
            game.step()
        live = game.state
        assert game.replay() == live
        game.finish()
        assert game.replay() == game.state
        assert len(game.log) <= steps + 20

    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data(), seed=st.integers(10**12, 10**13), players=st.integers(2, 6))
    def test_hidden_information_in_long_games_on_a_big_map(self, data, seed, players):
        # Longer walks on the medium shipped map: memory grows; views must stay within sight.
        game = Game(data, seed, players, dod.shipped_maps()["flooded-crypt"])
        for _ in range(60):
            if dod.result(game.state) is not None:
                break
            game.step()
        game.finish()
