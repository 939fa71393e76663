"""A Dungeon of Doom player that knows only its own view (rules: ``docs/rules/dungeon-of-doom.md``).

The view carries everything a bot may remember: the cells in sight (``visible``) and the cells
seen before (``memory``, 10.5), so a map rebuilt from those two on every call is the bot's whole
memory and ``decide`` stays a pure function of the view.

The normal bot's plan, in order: pick up what is worth taking where it stands; strike an
adjacent adventurer when it can afford the blow; with the gold in hand walk (breadth-first) to
the nearest known exit; short of gold walk to the nearest known coin; otherwise explore towards
the nearest unseen cells, then hunt a visible rival (who may carry the missing gold), then
wander. It never leaves the game.

>>> import random
>>> from rules_engine.games import dungeon_of_doom as game
>>> s = game.new_game(1, ["p1"], {"map": "name Q\\nwin 1\\n#####\\n#G.E#\\n#####", "start_positions": {"p1": [1, 2]}})
>>> decide(game.view(s, "p1"), game.legal_actions(s, "p1"), rng=random.Random(0))
{'type': 'move', 'dir': 'W'}
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from ..games.dungeon_of_doom.vision import field_offsets
from ..grid import DIRECTIONS
from ..kit import actions_by_type

Pos = tuple[int, int]
QUIT = "leave"
_ORDER = ("N", "E", "S", "W")


class _Map:
    """What the seat knows of the dungeon: terrain and items of the cells seen, rivals in sight."""

    def __init__(self, view: dict[str, Any]):
        me = view["me"]
        self.seat: str = me["seat"]
        self.height: int = view["map"]["height"]
        self.width: int = view["map"]["width"]
        self.tiles: dict[Pos, str] = {}
        self.items: dict[Pos, str] = {}
        self.rivals: set[Pos] = set()
        for cell in view["memory"]:
            self._learn(cell)
        for cell in view["visible"]:
            self._learn(cell)
            if cell["player"] is not None and cell["player"] != self.seat:
                self.rivals.add((cell["pos"][0], cell["pos"][1]))

    def _learn(self, cell: dict[str, Any]) -> None:
        pos = (cell["pos"][0], cell["pos"][1])
        self.tiles[pos] = cell["tile"]
        if cell["item"] is not None:
            self.items[pos] = cell["item"]["kind"]
        else:
            self.items.pop(pos, None)

    def on_map(self, pos: Pos) -> bool:
        return 0 <= pos[0] < self.height and 0 <= pos[1] < self.width

    def walkable(self, pos: Pos) -> bool:
        return self.tiles.get(pos, "wall") != "wall"

    def unknown(self, pos: Pos) -> bool:
        return self.on_map(pos) and pos not in self.tiles

    def distances(self, start: Pos) -> dict[Pos, tuple[int, str]]:
        """Breadth-first over known walkable cells, around rivals: cell -> (steps, first move)."""
        seen: dict[Pos, tuple[int, str]] = {start: (0, "")}
        queue: deque[Pos] = deque([start])
        while queue:
            pos = queue.popleft()
            steps, first = seen[pos]
            for d in _ORDER:
                dr, dc = DIRECTIONS[d]
                nxt = (pos[0] + dr, pos[1] + dc)
                if nxt in seen or not self.walkable(nxt) or nxt in self.rivals:
                    continue
                seen[nxt] = (steps + 1, first or d)
                queue.append(nxt)
        return seen

    def frontier_gain(self, pos: Pos, lantern: bool) -> int:
        """How many unseen cells standing on ``pos`` would bring into sight."""
        return sum(self.unknown((pos[0] + dr, pos[1] + dc)) for dr, dc in field_offsets(lantern))


def _nearest(reach: dict[Pos, tuple[int, str]], cells: list[Pos]) -> Pos | None:
    reachable = [c for c in cells if c in reach]
    return min(reachable, key=lambda c: (reach[c][0], c)) if reachable else None


def decide(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The normal bot's action: a member of ``legal`` that is never ``leave``."""
    options = [a for a in legal if a["type"] != QUIT]
    actions = actions_by_type(options)
    me = view["me"]
    if "move" not in actions and "pickup" not in actions and "attack" not in actions:
        return options[0]  # end_turn (or join), the only thing left to do
    known = _Map(view)
    here: Pos = (me["pos"][0], me["pos"][1])
    hp: int = me["hp"]
    gold: int = me["gold"]
    ap: int = me["ap"] or 0
    target: int = view["map"]["target_gold"]
    kit: list[str] = me["kit"]
    lantern = "lantern" in kit
    rivals_alive = sum(1 for p in view["players"] if p["status"] == "alive" and p["seat"] != known.seat)
    reach = known.distances(here)
    exits = [pos for pos, tile in known.tiles.items() if tile == "exit"]
    enough = gold >= target

    def move(direction: str) -> dict[str, Any]:
        return {"type": "move", "dir": direction}

    # Escape at once when the gold is in hand and an exit is within this turn's steps.
    if enough:
        goal = _nearest(reach, [e for e in exits if e != here])
        if goal is not None and reach[goal][0] <= ap and "move" in actions:
            return move(reach[goal][1])

    item = known.items.get(here)
    if "pickup" in actions and item is not None:
        if item == "gold":
            return actions["pickup"][0]
        if item == "potion" and rivals_alive and (hp < 3 or ap == 1):
            return actions["pickup"][0]
        if item in ("sword", "armour") and rivals_alive:
            return actions["pickup"][0]
        if item == "lantern" and not rivals_alive and not enough:
            return actions["pickup"][0]

    # A blow is worth its AP unless this seat is one hit from death and has somewhere to go.
    if "attack" in actions and (hp >= 2 or not reach.keys() - {here}):
        return actions["attack"][0]

    if rivals_alive and hp <= 1:
        potions = [pos for pos, kind in known.items.items() if kind == "potion"]
        goal = _nearest(reach, potions)
        if goal is not None and reach[goal][0] <= 6 and goal != here:
            return move(reach[goal][1])

    goal = None
    if enough:
        if here in exits and (len(exits) == 1 or reach.keys() == {here}):
            # Standing on the only exit does not win (7.1): step off, to step back on.
            for action in actions.get("move", []):
                return action
        goal = _nearest(reach, [e for e in exits if e != here])
    else:
        goal = _nearest(reach, [pos for pos, kind in known.items.items() if kind == "gold" and pos != here])
    if goal is None:
        goal = _explore(known, reach, lantern)
    if goal is None and known.rivals:
        # Whoever carries the missing gold drops it when slain (7.2).
        beside = [
            (r + dr, c + dc) for r, c in known.rivals for dr, dc in DIRECTIONS.values() if (r + dr, c + dc) in reach
        ]
        goal = _nearest(reach, [b for b in beside if b != here])
    if goal is not None and goal != here:
        return move(reach[goal][1])
    if "attack" in actions:
        return actions["attack"][0]
    if "move" in actions and rivals_alive:
        return rng.choice(actions["move"])  # search for a rival who is out of sight
    return actions["end_turn"][0] if "end_turn" in actions else options[0]


def _explore(known: _Map, reach: dict[Pos, tuple[int, str]], lantern: bool) -> Pos | None:
    """The reachable cell nearest to unseen ground (ties: the one that reveals most)."""
    best: tuple[int, int, Pos] | None = None
    for pos, (steps, _) in reach.items():
        if best is not None and steps > best[0]:
            break  # reach lists cells nearest first
        gain = known.frontier_gain(pos, lantern)
        if gain and (best is None or (steps, -gain, pos) < best):
            best = (steps, -gain, pos)
    return None if best is None else best[2]
