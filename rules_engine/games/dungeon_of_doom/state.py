"""The Dungeon of Doom's constants, the options ``new_game`` checks, and the small questions
about a player every part asks (where, with a lantern, seeing a cell)."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from ... import kit, turn_limits
from ...errors import InvalidAction
from . import vision
from .generator import SIZES, generate_map
from .maps import (
    DEFAULT_MAP,
    DungeonMap,
    parse_map,
    shipped_maps,
)

min_players = 1
max_players = 8
DEFAULT_TABLE = 4
DEFAULT_TURN_SECONDS = 120
SHORT_TURN_SECONDS = (30, 600)
"""The short turn limits (seconds) a table played at one sitting may have; ``turn_limits`` adds the slow ones."""
START_HP = 3
BASE_AP = 6
MAX_TIMEOUTS = 3
EVENT_WINDOW = 50
KIT = ("armour", "lantern", "sword")
OPTION_KEYS = ("map", "random_map", "max_players", "turn_seconds", "dice", "start_positions")
STATE_KEYS = ("seed", "step", "options", "map", "players", "turn", "dice_used", "events", "result")
DIRECTION_ORDER = ("N", "E", "S", "W")

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
    if not turn_limits.allowed(seconds, SHORT_TURN_SECONDS):
        raise InvalidAction(turn_limits.refusal(SHORT_TURN_SECONDS))

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


# ---------------------------------------------------------------------------------------------
# The transaction: a copy-on-write working copy of a state for one action


def _pos(p: dict[str, Any]) -> tuple[int, int]:
    return (p["pos"][0], p["pos"][1])


def _lantern(p: dict[str, Any]) -> bool:
    return "lantern" in p["kit"]


def _sees(viewer: dict[str, Any], cell: tuple[int, int] | list[int]) -> bool:
    pos = viewer["pos"]
    return vision.in_field(cell[0] - pos[0], cell[1] - pos[1], lantern="lantern" in viewer["kit"])
