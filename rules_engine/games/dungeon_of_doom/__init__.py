"""The Dungeon of Doom: real-time, strictly turn-based treasure hunt in a dark dungeon.

Rules: ``docs/rules/dungeon-of-doom.md`` (section numbers below refer to it). The engine
knows nothing of clocks: turn timeouts and lost connections arrive as the server actions
``timeout`` and ``drop`` (10.3, 10.6), mid-game arrivals as ``join``.

>>> state = new_game(7, ["p1", "p2"], {"map": "name Ledge\\nwin 0\\n#E..#",
...                                   "start_positions": {"p1": [0, 3], "p2": [0, 2]}})
>>> [a["type"] + a.get("dir", "") for a in legal_actions(state, "p1")]
['attackW', 'end_turn', 'leave']
>>> legal_actions(state, "p2")
[{'type': 'leave'}]
>>> state = apply(state, "p1", {"type": "end_turn"})
>>> state = apply(state, "p2", {"type": "move", "dir": "W"})
>>> result(state)
{'winners': ['p2'], 'scores': {'p1': 0, 'p2': 0}, 'reason': 'escaped', 'text': 'p2 escaped with the gold!'}

Options (10.1): ``map`` (text of a map file; default the built-in "Lantern Gallery"),
``max_players`` (1–8, default 4: living players allowed at once), ``turn_seconds`` (0 or
30–600, default 120; enforced by the web layer), ``dice`` (forced d4 attack rolls, tests only),
``start_positions`` (seat → ``[row, col]``, tests only), and one beyond the rules file's table:
``random_map`` (``"S"``, ``"M"`` or ``"L"``, instead of ``map``): the engine draws a fresh map of
that size from the game's own seed (``generate_map``). Only so can a page honestly label a map
"random" (a pasted text could imitate a generated one), and a "play again" (same options, new
seed) gets a fresh map that nobody has seen whole.

Actions (10.3): ``{"type": "move", "dir": "N"|"E"|"S"|"W"}``, ``{"type": "pickup"}``,
``{"type": "attack", "dir": ...}``, ``{"type": "end_turn"}``, ``{"type": "leave"}``,
``{"type": "join"}``; server-only: ``{"type": "timeout"}`` (the seat whose turn it is),
``{"type": "drop"}`` (any living seat, after the 60-second grace).

``view(state, seat)`` returns (10.5)::

    status    "running" or "finished"
    map       {name, width, height, target_gold, custom, random}: public facts; custom is true
              when the host gave a map text that is not one of the shipped maps; random is the
              size ("S"/"M"/"L") of a map the engine generated (``random_map``), else null
    turn      {number, seat, seconds} while running (seconds = turn time limit, 0 = none), else null
    players   roster in join order: [{seat, status ("alive"/"dead"), cause (null or "slain",
              "left", "disconnected", "idle")}]
    me        a living seat: {seat, status, pos [row, col], hp, gold, kit (sorted list), ap (int
              on your turn, else null), ap_next_turn (6 - kit), vision ("normal"/"lantern")};
              a dead seat: {seat, status}; a spectator (None or an unknown seat): null
    visible   one {pos, tile ("wall"/"floor"/"exit"), item (null or {kind, amount}), player
              (seat of a living player there, or null)} per field cell on the map, row-major;
              empty for the dead and spectators
    look      the classic 5×5 (7×7 with a lantern) rendering, north first: X outside the field,
              # wall or off the map, P another player, else G H S A L, . or E; empty if not alive
    memory    cells seen before and not visible now, as last seen: {pos, tile, item}
    events    the latest 50 events addressed to this viewer, oldest first: {seq, type, ...data,
              text} (10.7), text being a plain-English line for the log
    log       the same list: every game's view has its log under this name
    result    null while running, else as ``result(state)``
    final     null while running, else {rows (map rows, items on top, gold as G), terrain (rows
              over # . E: what lies under items and players), items [{pos, kind, amount}],
              players [{seat, status, cause, pos, hp, gold, kit}]}

The seed, ``dice``, ``start_positions``, other players' stats and anything outside the seat's
field and memory never appear in it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from functools import cache
from typing import Any, cast

from ... import kit
from ...errors import IllegalAction, InvalidAction
from ...grid import DIRECTION_NAMES, DIRECTIONS
from ...options import Option
from . import vision
from .generator import SIZES, generate_map
from .maps import (
    DEFAULT_MAP,
    ITEM_CHARS,
    TILE_NAMES,
    DungeonMap,
    MapError,
    grid_rows,
    is_shipped,
    parse_map,
    shipped_maps,
)

__all__ = [
    "slug",
    "title",
    "min_players",
    "max_players",
    "new_game",
    "legal_actions",
    "apply",
    "view",
    "result",
    "dump",
    "load",
    "action_label",
    "parse_map",
    "generate_map",
    "shipped_maps",
    "MapError",
    "DungeonMap",
    "SIZES",
    "field_of_view",
]

slug = "dungeon-of-doom"
title = "The Dungeon of Doom"
min_players = 1
max_players = 8
TABLE = True
PLAYERS_LABEL = "Multiplayer, 1–8"
BLURB = (
    "A real-time, turn-based dungeon for a table of friends sharing one link. You see "
    "only what your lantern lights: gather gold, arm yourself, fight or dodge the other "
    "delvers, and be the first to reach the exit with the gold the map demands."
)
TABLE_SIZE = Option(
    "max_players", "Players at the table", "int", 4, min_players, max_players, help="1 to 8 living players at once."
)
TURN_SECONDS = Option(
    "turn_seconds",
    "Time per turn",
    "choice",
    "120",
    choices=(
        ("0", "No limit"),
        ("30", "30 seconds"),
        ("60", "1 minute"),
        ("120", "2 minutes"),
        ("300", "5 minutes"),
        ("600", "10 minutes"),
    ),
)
OPTIONS = (TABLE_SIZE, TURN_SECONDS)
"""The creation form's options (the map is chosen by ``form_options`` from its own fields)."""
TEST_OPTIONS = ("dice", "start_positions")
"""Options for tests only (forced dice, start positions): never from a production form."""
UPLOAD_MAX_BYTES = 12 * 1024
UPLOAD_MAX_CELLS = 3600
"""Cells a map made on the creation form may have (60 × 60; the file format allows 100 × 100).
Every viewer's page draws the whole map at the end, at about 120 bytes a cell: 3,600 cells keep
that page near 430 KB, three times the largest random map, where 100 × 100 made it 1.2 MB."""


def form_options(form: Mapping[str, Any], options: dict[str, Any]) -> None:
    """The creation form's map: a shipped one, a fresh random one (S/M/L), or the player's own,
    pasted (``map_text``) or uploaded (``map_file``, its bytes)."""
    choice = str(form.get("map_choice") or DEFAULT_MAP)
    shipped = shipped_maps()
    if choice in shipped:
        options["map"] = shipped[choice]
    elif choice in {f"random-{size}" for size in SIZES}:
        # The engine draws it from the game's secret seed: labelled "random", and fresh on play again.
        options["random_map"] = choice.removeprefix("random-")
    elif choice == "custom":
        upload = form.get("map_file")
        if upload:
            if len(upload) > UPLOAD_MAX_BYTES:
                raise InvalidAction("That map file is too large (12 KB at most).")
            # The parser reads the bytes, so an error names the line (also the first one that is
            # not UTF-8 text); new_game checks the text again.
            dungeon = parse_map(upload)
            text = upload.decode("utf-8")
        else:
            text = str(form.get("map_text") or "")
            if not text.strip():
                raise InvalidAction("Paste a map or choose a map file, or pick one of our maps.")
            dungeon = parse_map(text)
        if dungeon.width * dungeon.height > UPLOAD_MAX_CELLS:
            raise InvalidAction(
                f"That map is {dungeon.width} × {dungeon.height} = {dungeon.width * dungeon.height:,} cells; "
                f"Delve hosts maps of up to {UPLOAD_MAX_CELLS:,} cells (60 × 60, or any shape that size), "
                "so every player's page stays light."
            )
        options["map"] = text
    else:
        raise InvalidAction("Choose one of the listed maps.")


DEFAULT_TABLE = 4
DEFAULT_TURN_SECONDS = 120
START_HP = 3
BASE_AP = 6
MAX_TIMEOUTS = 3
EVENT_WINDOW = 50
KIT = ("armour", "lantern", "sword")
OPTION_KEYS = ("map", "random_map", "max_players", "turn_seconds", "dice", "start_positions")
STATE_KEYS = ("seed", "step", "options", "map", "players", "turn", "dice_used", "events", "result")
DIRECTION_ORDER = ("N", "E", "S", "W")

# The parameters of each action (``kit.parse_action``). timeout and drop are applied by the
# web layer only (10.3).
_DIRECTION = kit.Param(DIRECTION_ORDER, "{value!r} is not a direction: use N, E, S or W")
ACTIONS: dict[str, dict[str, kit.Spec]] = {
    "move": {"dir": _DIRECTION},
    "pickup": {},
    "attack": {"dir": _DIRECTION},
    "end_turn": {},
    "leave": {},
    "join": {},
    "timeout": {},
    "drop": {},
}
# ``dir`` is the only parameter there is to miss; null counts as missing.
_WORDING = kit.Wording(
    not_an_object="an action must be an object with a 'type'",
    unexpected=lambda kind, names: f"unexpected parameter(s) for {kind}: {', '.join(map(str, names))}",
    missing=lambda kind, _names: f"{kind} needs a direction 'dir': N, E, S or W",
    none_is_absent=True,
)

# Memory cell codes: '?' unseen, '#', '.', 'E' bare terrain, an item letter on floor,
# its lowercase on an exit (only gold dropped by a death can lie there, ruling 20).
_UNSEEN = "?"
_SEEN = re.compile(r"[^?]")
_CODE_ITEM = {
    **{c: ("floor", k) for c, k in zip("GHSAL", ("gold", "potion", "sword", "armour", "lantern"))},
    **{c.lower(): ("exit", k) for c, k in zip("GHSAL", ("gold", "potion", "sword", "armour", "lantern"))},
}


# ---------------------------------------------------------------------------------------------
# Options and setup


@cache
def _default_map() -> DungeonMap:
    return parse_map(shipped_maps()[DEFAULT_MAP])


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_pos(value: object, what: str) -> list[int]:
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(_is_int(v) for v in value):
        raise InvalidAction(f"{what} must be [row, col] with two whole numbers")
    return [value[0], value[1]]


def _check_options(
    options: dict[str, Any] | None, players: list[str], seed: int | str
) -> tuple[dict[str, Any], DungeonMap]:
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InvalidAction("options must be an object")
    unknown = sorted(str(k) for k in options if k not in OPTION_KEYS)
    if unknown:
        raise InvalidAction(f"unknown option(s): {', '.join(unknown)} (known: {', '.join(OPTION_KEYS)})")

    text = options.get("map")
    size = options.get("random_map")
    if size is not None:
        if text is not None:
            raise InvalidAction("give either a map or random_map, not both")
        if not isinstance(size, str) or size not in SIZES:
            raise InvalidAction(f"random_map must be one of {', '.join(SIZES)}")
        # Its own stream of the seed (generate_map derives "<seed>:map:<size>"), apart from the
        # placement and dice draws of 10.4.
        dungeon = parse_map(generate_map(seed, size))
    elif text is None:
        dungeon = _default_map()
    elif isinstance(text, str):
        dungeon = parse_map(text)  # MapError is an InvalidAction naming the line
    else:
        raise InvalidAction("the map option must be the text of a map file")

    table = options.get("max_players", DEFAULT_TABLE)
    if not _is_int(table) or not min_players <= table <= max_players:
        raise InvalidAction(f"max_players must be a whole number from {min_players} to {max_players}")
    if len(players) > table:
        raise InvalidAction(f"{len(players)} players cannot sit at a table for {table}")

    seconds = options.get("turn_seconds", DEFAULT_TURN_SECONDS)
    if not _is_int(seconds) or not (seconds == 0 or 30 <= seconds <= 600):
        raise InvalidAction("turn_seconds must be 0 (no limit) or a whole number from 30 to 600")

    dice = options.get("dice", [])
    if not isinstance(dice, (list, tuple)) or not all(_is_int(d) and 1 <= d <= 4 for d in dice):
        raise InvalidAction("dice must be a list of forced d4 rolls, each from 1 to 4")

    forced = options.get("start_positions", {})
    if not isinstance(forced, dict):
        raise InvalidAction("start_positions must map seats to [row, col]")
    starts: dict[str, list[int]] = {}
    taken: dict[tuple[int, int], str] = {}
    for seat, value in forced.items():
        if not isinstance(seat, str):
            raise InvalidAction("start_positions must map seats to [row, col]")
        r, c = _check_pos(value, f"the start position of {seat}")
        if not (0 <= r < dungeon.height and 0 <= c < dungeon.width):
            raise InvalidAction(f"the start position of {seat}, [{r}, {c}], is off the map")
        if dungeon.terrain[r][c] == "#":
            raise InvalidAction(f"the start position of {seat}, [{r}, {c}], is a wall")
        if (r, c) in taken:
            raise InvalidAction(f"the start position of {seat}, [{r}, {c}], is already {taken[r, c]}'s")
        taken[r, c] = seat
        starts[seat] = [r, c]

    normal = {
        "map": text,
        "random_map": size,
        "max_players": table,
        "turn_seconds": seconds,
        "dice": list(dice),
        "start_positions": starts,
    }
    return normal, dungeon


def new_game(seed: int, players: list[str], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A new game with ``players`` (seats, in join order) placed at random; the first seat moves.

    >>> s = new_game(1, ["p1"], {"start_positions": {"p1": [5, 5]}})
    >>> s["turn"], s["players"][0]["pos"], s["players"][0]["ap"]
    ({'seat': 'p1', 'number': 1}, [5, 5], 6)
    >>> new_game(1, ["p1"], {"colour": "red"})
    Traceback (most recent call last):
    ...
    rules_engine.errors.InvalidAction: unknown option(s): colour (known: map, random_map, max_players, turn_seconds, dice, start_positions)
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise InvalidAction("the seed must be an integer (or a string)")
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) and p for p in players):
        raise InvalidAction("players must be a list of seat names")
    if not min_players <= len(players) <= max_players:
        raise InvalidAction(f"the game needs {min_players} to {max_players} players")
    if len(set(players)) != len(players):
        raise InvalidAction("a seat cannot be taken twice")
    opts, dungeon = _check_options(options, list(players), seed)
    state = {
        "seed": seed,
        "step": 0,
        "options": opts,
        "map": dungeon.as_state(),
        "players": [],
        "turn": None,
        "dice_used": 0,
        "events": [],
        "result": None,
    }
    tx = _Tx(state, step=0)
    rng = random.Random(f"{seed}:setup")  # 10.4
    for seat in players:
        problem = tx.place(seat, rng)
        if problem:
            raise InvalidAction(f"cannot place {seat}: {problem}")
    tx.event("game_started", None, order=list(players))
    tx.sight_events()
    tx.begin_turn(players[0], 1)
    return tx.finish()


# ---------------------------------------------------------------------------------------------
# The transaction: a copy-on-write working copy of a state for one action


def _pos(p: dict[str, Any]) -> tuple[int, int]:
    return (p["pos"][0], p["pos"][1])


def _lantern(p: dict[str, Any]) -> bool:
    return "lantern" in p["kit"]


def _sees(viewer: dict[str, Any], cell: tuple[int, int] | list[int]) -> bool:
    pos = viewer["pos"]
    return vision.in_field(cell[0] - pos[0], cell[1] - pos[1], lantern="lantern" in viewer["kit"])


class _Tx:
    """A new state under construction. The input state is never touched: containers are
    copied the first time they change and everything unchanged is shared (states are values)."""

    players: list[dict[str, Any]]

    def __init__(self, state: dict[str, Any], *, step: int):
        self.old = state
        self.state = dict(state)
        self.state["step"] = step
        self.step = step
        self.players = self.state["players"] = list(state["players"])
        self.slot = {p["seat"]: i for i, p in enumerate(self.players)}
        self._own: set[int] = set()
        self.events: list[dict[str, Any]] = []
        self.moved: set[str] = set()  # seats whose field of view moved or widened
        self.changed: set[tuple[int, int]] = set()  # cells whose item changed
        self._items: dict[tuple[int, int], dict[str, Any]] | None = None
        self._items_dirty = False
        self.terrain = state["map"]["terrain"]
        self.height = state["map"]["height"]
        self.width = state["map"]["width"]

    # -- reading and copy-on-write -------------------------------------------------------------

    def player(self, seat: str) -> dict[str, Any] | None:
        i = self.slot.get(seat)
        return None if i is None else self.players[i]

    def edit(self, seat: str) -> dict[str, Any]:
        i = self.slot[seat]
        if i not in self._own:
            self.players[i] = dict(self.players[i])
            self._own.add(i)
        return self.players[i]

    def alive(self) -> list[dict[str, Any]]:
        return [p for p in self.players if p["status"] == "alive"]

    def items(self) -> dict[tuple[int, int], dict[str, Any]]:
        if self._items is None:
            self._items = {(it["pos"][0], it["pos"][1]): it for it in self.state["map"]["items"]}
        return self._items

    def set_item(self, pos: tuple[int, int], item: dict[str, Any] | None) -> None:
        items = self.items()
        if item is None:
            items.pop(pos, None)
        else:
            items[pos] = item
        self._items_dirty = True
        self.changed.add(pos)

    def rng(self) -> random.Random:
        return random.Random(f"{self.state['seed']}:{self.step}")  # 10.4

    def event(self, kind: str, to: list[str] | None, **data: Any) -> None:
        """Record an event for ``to`` (a list of seats) or everyone (``None``)."""
        self.events.append({"seq": self.step, "type": kind, "to": to, **data})

    # -- rules machinery -----------------------------------------------------------------------

    def place(self, seat: str, rng: random.Random) -> str | None:
        """Put a new living player on the board (4.1); the reason if that is impossible."""
        occupied = {_pos(p) for p in self.alive()}
        forced = self.state["options"]["start_positions"]
        if seat in forced:
            pos = (forced[seat][0], forced[seat][1])
            if pos in occupied:
                return "the forced start tile is occupied"
        else:
            # Tiles forced for seats not yet in the game are kept free for them.
            blocked = occupied | {(v[0], v[1]) for s, v in forced.items() if s not in self.slot}
            tiles = [
                (r, c)
                for r, row in enumerate(self.terrain)
                for c, ch in enumerate(row)
                if ch != "#" and (r, c) not in blocked
            ]
            if not tiles:
                return "there is no free tile"
            pos = tiles[rng.randrange(len(tiles))]
        self.slot[seat] = len(self.players)
        self._own.add(len(self.players))
        self.players.append(
            {
                "seat": seat,
                "status": "alive",
                "cause": None,
                "pos": [pos[0], pos[1]],
                "hp": START_HP,
                "gold": 0,
                "kit": [],
                "ap": None,
                "timeouts": 0,
                "memory": {"rows": [_UNSEEN * self.width] * self.height, "gold": {}},
            }
        )
        self.moved.add(seat)
        return None

    def sight_events(self) -> None:
        """``came_into_view`` / ``left_view`` for every pair involving a seat whose field or
        position changed in this action (10.7)."""
        before = {p["seat"]: p for p in self.old["players"] if p["status"] == "alive"}
        now = self.alive()
        for viewer in now:
            v = viewer["seat"]
            for other in now:
                o = other["seat"]
                if o == v or (v not in self.moved and o not in self.moved):
                    continue
                old_v, old_o = before.get(v), before.get(o)
                was = old_v is not None and old_o is not None and _sees(old_v, old_o["pos"])
                sees = _sees(viewer, other["pos"])
                if sees and not was:
                    offset = [other["pos"][0] - viewer["pos"][0], other["pos"][1] - viewer["pos"][1]]
                    self.event("came_into_view", [v], seat=o, pos=list(other["pos"]), offset=offset)
                elif was and not sees:
                    self.event("left_view", [v], seat=o)

    def begin_turn(self, seat: str, number: int) -> None:
        p = self.edit(seat)
        p["ap"] = BASE_AP - len(p["kit"])  # 4.3: kit taken last turn counts from now
        self.state["turn"] = {"seat": seat, "number": number}
        self.event("turn_started", None, seat=seat, turn=number)

    def pass_turn(self) -> None:
        """End the current turn; the next living seat in join order starts (4.2)."""
        turn = self.state["turn"]
        current = turn["seat"]
        if cast("dict[str, Any]", self.player(current))["ap"] is not None:  # the seat whose turn it is
            self.edit(current)["ap"] = None
        start = self.slot[current]
        count = len(self.players)
        for k in range(1, count + 1):
            p = self.players[(start + k) % count]
            if p["status"] == "alive":
                self.begin_turn(p["seat"], turn["number"] + 1)
                return
        self.game_over([], "no_one_left")

    def kill(self, seat: str, cause: str) -> None:
        """Death, leaving, disconnection or idling out (7.2)."""
        p = self.edit(seat)
        pos = _pos(p)
        if p["gold"] > 0:
            here = self.items().get(pos)
            pile = p["gold"] + (here["amount"] if here is not None and here["kind"] == "gold" else 0)
            # Any other item there is destroyed to make room for the gold (7.2, ruling 20).
            self.set_item(pos, {"pos": [pos[0], pos[1]], "kind": "gold", "amount": pile})
            self.event("gold_changed", [seat], delta=-p["gold"], gold=0)
        p.update(status="dead", cause=cause, pos=None, gold=0, kit=[], ap=None)
        self.event("died", None, seat=seat, cause=cause)
        turn = self.state["turn"]
        if turn is not None and turn["seat"] == seat:
            self.pass_turn()
        elif not self.alive():
            self.game_over([], "no_one_left")

    def check_win(self, seat: str) -> bool:
        """7.1: right after the actor's own successful move or pickup."""
        p = cast("dict[str, Any]", self.player(seat))  # the actor
        r, c = p["pos"]
        if self.terrain[r][c] == "E" and p["gold"] >= self.state["map"]["target"]:
            self.game_over([seat], "escaped")
            return True
        return False

    def game_over(self, winners: list[str], reason: str) -> None:
        for p in self.players:
            if p["ap"] is not None:
                self.edit(p["seat"])["ap"] = None
        self.state["turn"] = None
        self.state["result"] = {
            "winners": list(winners),
            "scores": {p["seat"]: p["gold"] for p in self.players},
            "reason": reason,
        }
        if winners:
            self.event("won", None, seat=winners[0])
        self.event("game_over", None, winners=list(winners), reason=reason)

    def after_own_action(self, seat: str) -> None:
        """4.3: an action that leaves 0 AP ends the turn at once."""
        if self.state["result"] is None and cast("dict[str, Any]", self.player(seat))["ap"] == 0:  # the actor
            self.pass_turn()

    # -- closing -------------------------------------------------------------------------------

    def finish(self) -> dict[str, Any]:
        s = self.state
        if self._items_dirty:
            s["map"] = dict(s["map"])
            items = cast("dict[tuple[int, int], dict[str, Any]]", self._items)  # set_item read them
            s["map"]["items"] = [items[pos] for pos in sorted(items)]
        self._remember()
        if self.events:
            s["events"] = _still_showable(self.old["events"] + self.events)
        return s

    def _remember(self) -> None:
        """10.5: each living player's visible cells (without players) go into their memory."""
        if not self.moved and not self.changed:
            return
        for p in self.alive():
            lantern = _lantern(p)
            if p["seat"] in self.moved:
                cells = vision.field_cells(_pos(p), lantern=lantern, height=self.height, width=self.width)
            else:
                cells = [cell for cell in self.changed if _sees(p, cell)]
                if not cells:
                    continue
            memory = _memorise(p["memory"], cells, self.terrain, self.items())
            if memory is not p["memory"]:
                self.edit(p["seat"])["memory"] = memory


def _code(tile: str, item: dict[str, Any] | None) -> str:
    if item is None:
        return tile
    char = ITEM_CHARS[item["kind"]]
    return char if tile != "E" else char.lower()


def _memorise(
    memory: dict[str, Any],
    cells: list[tuple[int, int]],
    terrain: list[str],
    items: dict[tuple[int, int], dict[str, Any]],
) -> dict[str, Any]:
    """``memory`` with ``cells`` written as they are now; the same object if nothing changed."""
    rows, gold = memory["rows"], memory["gold"]
    by_row: dict[int, list[tuple[int, str]]] = {}
    new_gold = None
    for r, c in cells:
        item = items.get((r, c))
        code = _code(terrain[r][c], item)
        before = rows[r][c]
        if before != code:
            by_row.setdefault(r, []).append((c, code))
        if before in "Gg" or (item is not None and item["kind"] == "gold"):
            key = f"{r},{c}"
            amount = item["amount"] if item is not None and item["kind"] == "gold" else None
            if gold.get(key) != amount:
                if new_gold is None:
                    new_gold = dict(gold)
                if amount is None:
                    del new_gold[key]
                else:
                    new_gold[key] = amount
    if not by_row and new_gold is None:
        return memory
    if by_row:
        rows = list(rows)
        for r, changes in by_row.items():
            chars = list(rows[r])
            for c, code in changes:
                chars[c] = code
            rows[r] = "".join(chars)
    return {"rows": rows, "gold": gold if new_gold is None else new_gold}


# ---------------------------------------------------------------------------------------------
# Legality: one function per question, shared by apply and legal_actions


def _find(state: dict[str, Any], seat: str) -> dict[str, Any] | None:
    p: dict[str, Any]
    for p in state["players"]:
        if p["seat"] == seat:
            return p
    return None


def _occupant(state: dict[str, Any], pos: tuple[int, int]) -> dict[str, Any] | None:
    p: dict[str, Any]
    for p in state["players"]:
        if p["status"] == "alive" and p["pos"][0] == pos[0] and p["pos"][1] == pos[1]:
            return p
    return None


def _item_at(state: dict[str, Any], pos: tuple[int, int]) -> dict[str, Any] | None:
    item: dict[str, Any]
    for item in state["map"]["items"]:
        if item["pos"][0] == pos[0] and item["pos"][1] == pos[1]:
            return item
    return None


def _acting_problem(state: dict[str, Any], p: dict[str, Any] | None) -> str | None:
    """Why this seat may not take a turn action now (None if it may)."""
    if state["result"] is not None:
        return "the game is over"
    if p is None:
        return "you are not playing in this game"
    if p["status"] != "alive":
        return "you have left the game" if p["cause"] in ("left", "disconnected", "idle") else "you are dead"
    if state["turn"]["seat"] != p["seat"]:
        return f"it is not your turn (it is {state['turn']['seat']}'s)"
    return None


def _target(state: dict[str, Any], p: dict[str, Any], direction: str) -> tuple[tuple[int, int], bool]:
    dr, dc = DIRECTIONS[direction]
    r, c = p["pos"][0] + dr, p["pos"][1] + dc
    m = state["map"]
    on_map = 0 <= r < m["height"] and 0 <= c < m["width"]
    return (r, c), on_map


def _move_problem(state: dict[str, Any], p: dict[str, Any], direction: str) -> str | None:
    pos, on_map = _target(state, p, direction)
    where = DIRECTION_NAMES[direction]
    if not on_map:
        return f"you cannot move {where}: the edge of the map is a wall"
    if state["map"]["terrain"][pos[0]][pos[1]] == "#":
        return f"you cannot move {where}: there is a wall"
    other = _occupant(state, pos)
    if other is not None:
        return f"you cannot move {where}: {other['seat']} is standing there"
    return None


_ARTICLE = {"sword": "a sword", "armour": "armour", "lantern": "a lantern"}


def _pickup_problem(state: dict[str, Any], p: dict[str, Any]) -> str | None:
    item = _item_at(state, _pos(p))
    if item is None:
        return "there is nothing here to pick up"
    if item["kind"] in KIT and item["kind"] in p["kit"]:
        return f"you already carry {_ARTICLE[item['kind']]}"  # ruling 11
    return None


def _attack_problem(state: dict[str, Any], p: dict[str, Any], direction: str) -> str | None:
    pos, on_map = _target(state, p, direction)
    if not on_map or _occupant(state, pos) is None:
        return f"there is nobody to attack to the {DIRECTION_NAMES[direction]}"  # ruling 12
    return None


def _join_problem(state: dict[str, Any], seat: str) -> str | None:
    if state["result"] is not None:
        return "the game is over"
    p = _find(state, seat)
    if p is not None:
        if p["status"] == "alive":
            return "you are already playing"
        return "a seat that has died or left cannot come back"  # ruling 27
    alive = [q for q in state["players"] if q["status"] == "alive"]
    table = state["options"]["max_players"]
    if len(alive) >= table:
        return f"the table is full ({table} living players)"
    occupied = {_pos(q) for q in alive}
    forced = state["options"]["start_positions"]
    if seat in forced:
        if tuple(forced[seat]) in occupied:
            return "the forced start tile is occupied"
        return None
    seated = {q["seat"] for q in state["players"]}
    blocked = occupied | {(v[0], v[1]) for s, v in forced.items() if s not in seated and s != seat}
    m = state["map"]
    walkable = m["width"] * m["height"] - sum(row.count("#") for row in m["terrain"])
    if walkable <= len(blocked):
        return "there is no free tile"
    return None


def legal_actions(state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
    """Every player action ``apply`` accepts for ``seat`` now (never ``timeout``/``drop``).

    >>> s = new_game(3, ["p1", "p2"], {"start_positions": {"p1": [5, 5], "p2": [7, 5]}})
    >>> [a["type"] + a.get("dir", "") for a in legal_actions(s, "p1")]
    ['moveN', 'moveE', 'moveS', 'moveW', 'end_turn', 'leave']
    >>> legal_actions(s, "p2"), legal_actions(s, "p3")
    ([{'type': 'leave'}], [{'type': 'join'}])
    """
    if state["result"] is not None:
        return []
    p = _find(state, seat)
    if p is None:
        return [{"type": "join"}] if isinstance(seat, str) and seat and _join_problem(state, seat) is None else []
    if p["status"] != "alive":
        return []
    if state["turn"]["seat"] != seat:
        return [{"type": "leave"}]
    actions = [{"type": "move", "dir": d} for d in DIRECTION_ORDER if _move_problem(state, p, d) is None]
    if _pickup_problem(state, p) is None:
        actions.append({"type": "pickup"})
    actions += [{"type": "attack", "dir": d} for d in DIRECTION_ORDER if _attack_problem(state, p, d) is None]
    actions += [{"type": "end_turn"}, {"type": "leave"}]
    return actions


# ---------------------------------------------------------------------------------------------
# Apply


def apply(state: dict[str, Any], seat: str, action: dict[str, Any]) -> dict[str, Any]:
    """The state after ``seat`` takes ``action``; the input state is never modified.

    Raises ``InvalidAction`` for a malformed action and ``IllegalAction`` (with the reason a
    player reads) for one the rules forbid now; either way nothing changes.
    """
    kind = kit.parse_action(action, ACTIONS, _WORDING)["type"]
    if not isinstance(seat, str) or not seat:
        raise InvalidAction("the seat must be a non-empty string")
    if kind == "join":
        problem = _join_problem(state, seat)
        if problem:
            raise IllegalAction(problem)
        tx = _Tx(state, step=state["step"] + 1)
        problem = tx.place(seat, tx.rng())
        if problem:  # pragma: no cover - _join_problem already refused it
            raise IllegalAction(problem)
        tx.event("joined", None, seat=seat)
        tx.sight_events()
        return tx.finish()
    p = _find(state, seat)
    if kind in ("leave", "drop"):
        if state["result"] is not None:
            raise IllegalAction("the game is over")
        if p is None:
            raise IllegalAction("you are not playing in this game")
        if p["status"] != "alive":
            raise IllegalAction(_acting_problem(state, p))
        tx = _Tx(state, step=state["step"] + 1)
        tx.kill(seat, "left" if kind == "leave" else "disconnected")
        return tx.finish()

    problem = _acting_problem(state, p)
    if problem:
        if kind == "timeout" and problem.startswith("it is not"):
            problem = "only the player whose turn it is can time out"
        raise IllegalAction(problem)
    p = cast("dict[str, Any]", p)  # _acting_problem refused a None
    if kind == "move":
        problem = _move_problem(state, p, action["dir"])
    elif kind == "pickup":
        problem = _pickup_problem(state, p)
    elif kind == "attack":
        problem = _attack_problem(state, p, action["dir"])
    if problem:
        raise IllegalAction(problem)

    tx = _Tx(state, step=state["step"] + 1)
    _HANDLERS[kind](tx, seat, action)
    return tx.finish()


def _do_move(tx: _Tx, seat: str, action: dict[str, Any]) -> None:
    p = tx.edit(seat)
    dr, dc = DIRECTIONS[action["dir"]]
    p["pos"] = [p["pos"][0] + dr, p["pos"][1] + dc]
    p["ap"] -= 1
    p["timeouts"] = 0
    tx.moved.add(seat)
    tx.sight_events()
    if not tx.check_win(seat):
        tx.after_own_action(seat)


def _do_pickup(tx: _Tx, seat: str, action: dict[str, Any]) -> None:
    p = tx.edit(seat)
    pos = _pos(p)
    item = tx.items()[pos]
    kind, amount = item["kind"], item["amount"]
    tx.set_item(pos, None)
    p["timeouts"] = 0
    if kind == "potion":
        p["ap"] = 0  # uses every AP left, even if only 1 (ruling 9)
        p["hp"] += 1  # no maximum (ruling 8)
    else:
        p["ap"] -= 1
    tx.event("picked_up", [seat], item=kind, amount=amount, ap=p["ap"])
    if kind == "gold":
        p["gold"] += amount  # the whole pile (ruling 10)
        tx.event("gold_changed", [seat], delta=amount, gold=p["gold"])
    elif kind == "potion":
        tx.event("hp_changed", [seat], delta=1, hp=p["hp"])
    else:
        p["kit"] = sorted(p["kit"] + [kind])
    for other in tx.alive():
        if other["seat"] != seat and _sees(other, pos):
            tx.event("item_taken", [other["seat"]], seat=seat, item=kind)
    if kind == "lantern":
        tx.moved.add(seat)  # wider sight at once (ruling 16)
        tx.sight_events()
    if not tx.check_win(seat):
        tx.after_own_action(seat)


def _do_attack(tx: _Tx, seat: str, action: dict[str, Any]) -> None:
    direction = action["dir"]
    attacker = tx.edit(seat)
    target_pos, _ = _target(tx.state, attacker, direction)
    target_seat = next(q["seat"] for q in tx.alive() if q["pos"][0] == target_pos[0] and q["pos"][1] == target_pos[1])
    target = tx.edit(target_seat)
    dice, used = tx.state["options"]["dice"], tx.state["dice_used"]
    if used < len(dice):
        roll = dice[used]
        tx.state["dice_used"] = used + 1
    else:
        roll = tx.rng().randint(1, 4)
    hit = roll <= 3  # a d4: 1-3 hit (ruling 15)
    damage = max(0, 1 + ("sword" in attacker["kit"]) - ("armour" in target["kit"])) if hit else 0
    attacker["ap"] = 0  # all remaining AP, hit or miss (ruling 13)
    attacker["timeouts"] = 0
    hp = max(0, target["hp"] - damage)
    data = {"attacker": seat, "target": target_seat, "dir": direction, "hit": hit, "damage": damage}
    tx.event("attack", [seat], **data)
    tx.event("attack", [target_seat], **data, hp=hp)
    for other in tx.alive():
        if other["seat"] not in (seat, target_seat) and (_sees(other, attacker["pos"]) or _sees(other, target_pos)):
            tx.event("attack_seen", [other["seat"]], attacker=seat, target=target_seat, hit=hit)
    if hp != target["hp"]:
        tx.event("hp_changed", [target_seat], delta=hp - target["hp"], hp=hp)
        target["hp"] = hp
    if hp <= 0:
        tx.kill(target_seat, "slain")
    tx.pass_turn()


def _do_end_turn(tx: _Tx, seat: str, action: dict[str, Any]) -> None:
    tx.edit(seat)["timeouts"] = 0
    tx.pass_turn()


def _do_timeout(tx: _Tx, seat: str, action: dict[str, Any]) -> None:
    p = tx.edit(seat)
    p["timeouts"] += 1
    tx.event("timed_out", None, seat=seat)
    if p["timeouts"] >= MAX_TIMEOUTS:
        tx.kill(seat, "idle")  # three in a row (4.2)
    else:
        tx.pass_turn()


_HANDLERS = {
    "move": _do_move,
    "pickup": _do_pickup,
    "attack": _do_attack,
    "end_turn": _do_end_turn,
    "timeout": _do_timeout,
}


# ---------------------------------------------------------------------------------------------
# View, result, dump/load


def _item_view(item: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if item is None else {"kind": item["kind"], "amount": item["amount"]}


def _field_view(
    state: dict[str, Any], p: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[str], set[tuple[int, int]]]:
    m = state["map"]
    terrain, height, width = m["terrain"], m["height"], m["width"]
    lantern = _lantern(p)
    me = _pos(p)
    cells = vision.field_cells(me, lantern=lantern, height=height, width=width)
    cellset = set(cells)
    items = {(it["pos"][0], it["pos"][1]): it for it in m["items"] if (it["pos"][0], it["pos"][1]) in cellset}
    people = {_pos(q): q["seat"] for q in state["players"] if q["status"] == "alive" and _pos(q) in cellset}
    visible = [
        {
            "pos": [r, c],
            "tile": TILE_NAMES[terrain[r][c]],
            "item": _item_view(items.get((r, c))),
            "player": people.get((r, c)),
        }
        for r, c in cells
    ]

    def cell_char(r: int, c: int) -> str:
        if not (0 <= r < height and 0 <= c < width):
            return "#"  # ruling 19
        if (r, c) in people and (r, c) != me:
            return "P"
        item = items.get((r, c))
        return ITEM_CHARS[item["kind"]] if item is not None else terrain[r][c]

    look = vision.render_look(me, lantern=lantern, cell_char=cell_char)
    return visible, look, cellset


def _memory_view(p: dict[str, Any], visible: set[tuple[int, int]]) -> list[dict[str, Any]]:
    gold = p["memory"]["gold"]
    out: list[dict[str, Any]] = []
    for r, row in enumerate(p["memory"]["rows"]):
        for match in _SEEN.finditer(row):
            c = match.start()
            if (r, c) in visible:
                continue
            code = match.group()
            if code in TILE_NAMES:
                out.append({"pos": [r, c], "tile": TILE_NAMES[code], "item": None})
            else:
                tile, kind = _CODE_ITEM[code]
                amount = gold.get(f"{r},{c}", 1) if kind == "gold" else 1
                out.append({"pos": [r, c], "tile": tile, "item": {"kind": kind, "amount": amount}})
    return out


def _final(state: dict[str, Any]) -> dict[str, Any]:
    m = state["map"]
    items = m["items"]
    return {
        "rows": grid_rows(m["terrain"], [((it["pos"][0], it["pos"][1]), it["kind"]) for it in items]),
        # rows hide an exit under dropped gold (ruling 20); the final map draws the tile beneath.
        "terrain": list(m["terrain"]),
        "items": [{"pos": list(it["pos"]), "kind": it["kind"], "amount": it["amount"]} for it in items],
        "players": [
            {
                "seat": p["seat"],
                "status": p["status"],
                "cause": p["cause"],
                "pos": None if p["pos"] is None else list(p["pos"]),
                "hp": p["hp"],
                "gold": p["gold"],
                "kit": list(p["kit"]),
            }
            for p in state["players"]
        ],
    }


def view(state: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """What ``seat`` (or a spectator, ``None``) may know; the shape is in the module docstring.

    >>> s = new_game(5, ["p1", "p2"], {"start_positions": {"p1": [5, 5], "p2": [9, 1]}})
    >>> v = view(s, "p1")
    >>> v["look"], v["me"]["ap"], len(v["visible"])
    (['XH.SX', '.#.#.', '.L.A.', '.#.#.', 'X...X'], 6, 21)
    >>> view(s, None)["me"], view(s, None)["visible"]
    (None, [])
    """
    m = state["map"]
    opts = state["options"]
    over = state["result"] is not None
    turn = state["turn"]
    p = _find(state, seat) if isinstance(seat, str) else None
    out: dict[str, Any] = {
        "status": "finished" if over else "playing",
        "seat": p["seat"] if p is not None else None,
        "map": {
            "name": m["name"] or "Unnamed dungeon",
            "width": m["width"],
            "height": m["height"],
            "target_gold": m["target"],
            "custom": opts["map"] is not None and not is_shipped(opts["map"]),
            # .get: states stored before random_map existed lack the key.
            "random": opts.get("random_map"),
        },
        "turn": None
        if turn is None
        else {"number": turn["number"], "seat": turn["seat"], "seconds": opts["turn_seconds"]},
        "players": [{"seat": q["seat"], "status": q["status"], "cause": q["cause"]} for q in state["players"]],
        "me": None,
        "visible": [],
        "look": [],
        "memory": [],
        "events": (events := _events_for(state, p["seat"] if p is not None else None)),
        # The log every game's view shares ({seq, text} entries): here the events themselves.
        "log": events,
        "result": result(state),
        "final": _final(state) if over else None,
    }
    if p is not None and p["status"] == "alive":
        visible, look, cellset = _field_view(state, p)
        out["me"] = {
            "seat": p["seat"],
            "status": p["status"],
            "pos": list(p["pos"]),
            "hp": p["hp"],
            "gold": p["gold"],
            "kit": list(p["kit"]),
            "ap": p["ap"],
            "ap_next_turn": BASE_AP - len(p["kit"]),
            "vision": "lantern" if _lantern(p) else "normal",
        }
        out["visible"], out["look"] = visible, look
        out["memory"] = _memory_view(p, cellset)
    elif p is not None:
        out["me"] = {"seat": p["seat"], "status": p["status"]}
    return out


def full_view(state: dict[str, Any]) -> dict[str, Any]:
    """A replay's view (``rules_engine.contract``): the spectator's with ``final`` filled in at
    every point, so the page draws the whole map with every item and every player's token, which
    a spectator sees only once the game is over. Nothing else is hidden: ``revealed`` is empty.

    >>> s = new_game(5, ["p1", "p2"], {"start_positions": {"p1": [5, 5], "p2": [9, 1]}})
    >>> v = full_view(s)
    >>> v["status"], [p["pos"] for p in v["final"]["players"]], v["revealed"]
    ('playing', [[5, 5], [9, 1]], [])
    """
    return {**view(state, None), "final": _final(state), "revealed": []}


def _still_showable(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events some view can still show (10.7 keeps "events with their audiences").

    Every viewer receives the events addressed to everyone, so each viewer's latest
    EVENT_WINDOW events all come at or after the EVENT_WINDOW-th latest such event: anything
    older can never be shown again. Dropping it keeps the state, and every request that loads
    and stores it, from growing with the length of the game."""
    for_everyone = 0
    for index in range(len(events) - 1, -1, -1):
        if events[index]["to"] is None:
            for_everyone += 1
            if for_everyone == EVENT_WINDOW:
                return events[index:] if index else events
    return events


def _events_for(state: dict[str, Any], seat: str | None) -> list[dict[str, Any]]:
    picked = []
    for event in reversed(state["events"]):
        to = event["to"]
        if to is None or (seat is not None and seat in to):
            picked.append(event)
            if len(picked) == EVENT_WINDOW:
                break
    out = []
    for event in reversed(picked):
        shown = {k: (list(v) if isinstance(v, list) else v) for k, v in event.items() if k != "to"}
        shown["text"] = event_text(event, seat)
        out.append(shown)
    return out


_CAUSE_TEXT = {
    "slain": "was slain",
    "left": "left the game",
    "disconnected": "lost the connection for too long",
    "idle": "ran out of time three turns in a row",
}
_ITEM_TEXT = {
    "gold": "gold",
    "potion": "a health potion",
    "sword": "a sword",
    "armour": "armour",
    "lantern": "a lantern",
}


def whereabouts(offset: list[int]) -> str:
    """Where a tile ``offset`` (rows down, columns right) away lies, in steps along the compass.

    >>> whereabouts([-3, 0]), whereabouts([2, -1])
    ('3 steps north of you', '2 steps south and 1 step west of you')
    """
    dr, dc = offset
    legs = [
        f"{abs(d)} step{'s' if abs(d) != 1 else ''} {name}"
        for d, name in ((dr, "north" if dr < 0 else "south"), (dc, "west" if dc < 0 else "east"))
        if d
    ]
    return f"{' and '.join(legs)} of you" if legs else "where you stand"


def event_text(event: dict[str, Any], viewer: str | None) -> str:
    """One plain-English log line for ``event`` as ``viewer`` reads it.

    >>> event_text({"type": "turn_started", "seat": "p2", "turn": 2}, "p2")
    'Turn 2: your turn.'
    """
    kind: str = event["type"]

    def who(seat: str) -> str:
        return "you" if seat == viewer else seat

    def Who(seat: str) -> str:
        return "You" if seat == viewer else seat

    if kind == "game_started":
        return f"The game begins. Turn order: {', '.join(event['order'])}."
    if kind == "joined":
        return f"{Who(event['seat'])} joined the game."
    if kind == "turn_started":
        whose = "your" if event["seat"] == viewer else f"{event['seat']}'s"
        return f"Turn {event['turn']}: {whose} turn."
    if kind == "timed_out":
        return f"{Who(event['seat'])} ran out of time."
    if kind == "came_into_view":
        # Where, from the reader: the map has no coordinates a player could look up.
        where = f" {whereabouts(event['offset'])}" if "offset" in event else ""  # older games' events lack it
        return f"{event['seat']} came into view{where}."
    if kind == "left_view":
        return f"{event['seat']} went out of view."
    if kind == "picked_up":
        if event["item"] == "gold":
            got = f"You picked up {event['amount']} gold"
        elif event["item"] == "potion":
            got = "You drank a health potion"
        else:
            got = f"You picked up {_ITEM_TEXT[event['item']]}"
        return f"{got} ({event['ap']} AP left)."
    if kind == "item_taken":
        return f"{event['seat']} picked up {_ITEM_TEXT[event['item']]}."
    if kind in ("attack", "attack_seen"):
        outcome = "missed"
        if event["hit"]:
            damage = event.get("damage")
            outcome = (
                "hit"
                if damage is None
                else ("hit, but the armour absorbed it" if damage == 0 else f"hit for {damage} damage")
            )
        line = f"{Who(event['attacker'])} attacked {who(event['target'])}: {outcome}."
        if "hp" in event:
            line += f" You have {event['hp']} HP."
        return line
    if kind == "hp_changed":
        return f"Your hit points {'rose' if event['delta'] > 0 else 'fell'} to {event['hp']}."
    if kind == "gold_changed":
        if event["delta"] < 0:
            return f"You dropped {-event['delta']} gold."
        return f"You now carry {event['gold']} gold."
    if kind == "died":
        cause = _CAUSE_TEXT[event["cause"]]
        if event["seat"] == viewer:
            cause = cause.replace("was slain", "were slain")
        return f"{Who(event['seat'])} {cause}."
    if kind == "won":
        return f"{Who(event['seat'])} escaped with the gold and won!"
    if kind == "game_over":
        if event["winners"]:
            return f"The game is over. Winner: {', '.join(who(s) for s in event['winners'])}."
        return "The game is over: no one is left in the dungeon."
    return kind.replace("_", " ")  # pragma: no cover - every type is handled above


def field_of_view(lantern: bool) -> tuple[tuple[int, int], ...]:
    """The offsets ``(dr, dc)`` a player sees (6.1), row-major: the engine's own field, so the
    pictures of the How to play page cannot drift from the rules.

    >>> len(field_of_view(False)), len(field_of_view(True)), (3, 0) in field_of_view(True)
    (21, 33, True)
    """
    return vision.field_offsets(lantern)


def result(state: dict[str, Any]) -> dict[str, Any] | None:
    """``None`` while running, else ``{"winners", "scores", "reason", "text"}`` (10.8); the sentence
    names seats ("p1"), as the log does."""
    res = state["result"]
    if res is None:
        return None
    winners = list(res["winners"])
    text = f"{', '.join(winners)} escaped with the gold!" if winners else "Nobody escaped."
    return {"winners": winners, "scores": dict(res["scores"]), "reason": res["reason"], "text": text}


# ---------------------------------------------------------------------------------------------
# What the web layer needs to run the clock and presence (10.6): the engine stays clock-free.

server_actions = ("timeout", "drop")
"""Applied by the server on a seat's behalf; a client posting one is refused."""
timeout_action = {"type": "timeout"}
absence_action = {"type": "drop"}
join_action = {"type": "join"}


def positions(state: dict[str, Any]) -> dict[str, list[int]]:
    """Where each adventurer still in the dungeon stands, ``[row, col]``: a replay draws the paths.

    >>> positions(new_game(5, ["p1", "p2"], {"start_positions": {"p1": [5, 5], "p2": [9, 1]}}))
    {'p1': [5, 5], 'p2': [9, 1]}
    """
    return {p["seat"]: list(p["pos"]) for p in state["players"] if p["pos"] is not None}


def living_seats(state: dict[str, Any]) -> list[str]:
    """The seats still playing (alive): a roster cap counts these, never the dead or the departed.

    >>> s = new_game(3, ["p1", "p2"], {"start_positions": {"p1": [5, 5], "p2": [7, 5]}})
    >>> living_seats(apply(s, "p2", {"type": "leave"}))
    ['p1']
    """
    return [p["seat"] for p in state["players"] if p["status"] == "alive"]


def turn_clock(state: dict[str, Any]) -> dict[str, Any] | None:
    """The running turn, for the web layer's timer: ``{seat, number, seconds}``; None when over.

    ``seconds`` is ``options.turn_seconds`` (0 = no limit)."""
    turn = state["turn"]
    if turn is None or state["result"] is not None:
        return None
    seconds = state["options"].get("turn_seconds", DEFAULT_TURN_SECONDS)
    return {"seat": turn["seat"], "number": turn["number"], "seconds": seconds}


def dump(state: dict[str, Any]) -> dict[str, Any]:
    """The complete state (10.2) as a fresh JSON-safe dict."""
    copy: dict[str, Any] = kit.deep_copy(state)
    return copy


def load(data: dict[str, Any]) -> dict[str, Any]:
    """A state from ``dump`` output: ``load(json.loads(json.dumps(dump(s)))) == s``."""
    if not isinstance(data, dict) or set(data) != set(STATE_KEYS):
        raise InvalidAction("this is not a saved Dungeon of Doom game")
    copy: dict[str, Any] = kit.deep_copy(data)
    return copy


def action_label(state: dict[str, Any], action: dict[str, Any]) -> str:
    """A short button label for ``action`` in the current state.

    >>> s = new_game(3, ["p1", "p2"], {"start_positions": {"p1": [5, 4], "p2": [5, 5]}})
    >>> [action_label(s, a) for a in legal_actions(s, "p1")]
    ['Move west', 'Pick up the lantern', 'Attack p2 (east)', 'End turn', 'Leave the game']
    """
    kind: Any = action.get("type") if isinstance(action, dict) else None
    direction = action.get("dir") if isinstance(action, dict) else None
    where = DIRECTION_NAMES.get(direction, "") if isinstance(direction, str) else ""
    turn = state["turn"]
    p = _find(state, turn["seat"]) if turn is not None else None
    if kind == "move":
        return f"Move {where}"
    if kind == "pickup":
        item = _item_at(state, _pos(p)) if p is not None else None
        if item is None:
            return "Pick up"
        if item["kind"] == "gold":
            return f"Pick up {item['amount']} gold"
        if item["kind"] == "potion":
            return "Drink the health potion"
        return f"Pick up the {item['kind']}"
    if kind == "attack":
        target = None
        if p is not None and isinstance(direction, str) and direction in DIRECTIONS:
            pos, on_map = _target(state, p, direction)
            target = _occupant(state, pos) if on_map else None
        return f"Attack {target['seat']} ({where})" if target is not None else f"Attack {where}"
    labels = {
        "end_turn": "End turn",
        "leave": "Leave the game",
        "join": "Join the game",
        "timeout": "Time out",
        "drop": "Remove (connection lost)",
    }
    return labels.get(kind, str(kind))
