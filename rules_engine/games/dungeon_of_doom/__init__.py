"""The Dungeon of Doom: real-time, strictly turn-based treasure hunt in a dark dungeon.

Rules: ``docs/rules/dungeon-of-doom.md`` (section numbers below refer to it). The engine
knows nothing of clocks: turn timeouts and lost connections arrive as the server actions
``timeout`` and ``drop`` (10.3, 10.6), mid-game arrivals as ``join``.

The package: this module declares the game and its creation form; ``state`` (constants,
options), ``transaction`` (the copy-on-write new state and the shared machinery), ``play``
(``new_game``, legal actions, the actions and ``apply``/``dump``/``load`` from ``kit.Engine``),
``views``; ``reveal`` (what an action showed anyone: the ``reveals`` hook of undo); ``maps``,
``generator`` and ``vision`` as before.

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
30–600, or a slow limit of ``turn_limits``: 1 hour to 3 days; default 120; enforced by the
web layer), ``dice`` (forced d4 attack rolls, tests only),
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

from collections.abc import Mapping
from typing import Any

from ... import turn_limits
from ...errors import InvalidAction
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
from .play import ACTIONS, action_label, apply, dump, legal_actions, load, new_game
from .reveal import reveals
from .state import (
    BASE_AP,
    DEFAULT_TABLE,
    DEFAULT_TURN_SECONDS,
    DIRECTION_ORDER,
    EVENT_WINDOW,
    KIT,
    MAX_TIMEOUTS,
    OPTION_KEYS,
    START_HP,
    STATE_KEYS,
    max_players,
    min_players,
)
from .views import (
    absence_action,
    event_text,
    field_of_view,
    full_view,
    join_action,
    living_seats,
    positions,
    result,
    server_actions,
    timeout_action,
    turn_clock,
    view,
    whereabouts,
)

slug = "dungeon-of-doom"
title = "The Dungeon of Doom"
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
        *turn_limits.SLOW_CHOICES,
    ),
    help="An hour or more makes a slow table: friends play their turns when they can, and nobody is "
    "dropped for being away.",
)
OPTIONS = (TABLE_SIZE, TURN_SECONDS)
"""The creation form's options (the map is chosen by ``form_options`` from its own fields)."""
TEST_OPTIONS = ("dice", "start_positions")
"""Options for tests only (forced dice, start positions): never from a production form."""
# What the platform offers around the game (rules_engine/contract.py): last on the front page; a
# daily table on a fresh medium random map drawn from the day's seed; the classic TCP clients of
# rules 10.9; bots.
FRONT_PAGE_PLACE = 50
DAILY_FORM = {"map_choice": "random-M"}
CLASSIC_CLIENTS = True
BOT = "rules_engine.bots.dungeon_of_doom"
SPEECH = "rules_engine.games.dungeon_of_doom.speech"
UPLOAD_MAX_BYTES = 12 * 1024
UPLOAD_MAX_CELLS = 3600
"""Cells a map made on the creation form may have (60 × 60; the file format allows 100 × 100).
Every viewer's page draws the whole map at the end, at about 120 bytes a cell: 3,600 cells keep
that page near 430 KB, three times the largest random map, where 100 × 100 made it 1.2 MB."""


SHIPPED_SIZE_WORDS = ("tiny", "small", "medium", "large", "huge")
"""The shipped maps' sizes in words, smallest first: one word per map in ``maps/``."""
RANDOM_SIZE_WORDS = {"S": "small", "M": "medium", "L": "large"}
"""The generator's sizes (``SIZES``) in words."""


def map_choices() -> list[dict[str, Any]]:
    """The creation form's map menu, in the values ``form_options`` reads: each shipped map with
    its size and the gold to win its file sets, then a fresh random map of each size; ``selected``
    marks the default map.

    >>> [choice["label"] for choice in map_choices()][:2]
    ['Duelling Hall — tiny (7×5), 2 gold to win', 'The Sunken Vault — small (12×7), 3 gold to win']
    """
    choices = []
    for (stem, text), word in zip(shipped_maps().items(), SHIPPED_SIZE_WORDS, strict=True):
        dungeon = parse_map(text)
        label = f"{dungeon.display_name} — {word} ({dungeon.width}×{dungeon.height}), {dungeon.target} gold to win"
        choices.append({"value": stem, "label": label, "selected": stem == DEFAULT_MAP})
    for size in SIZES:
        label = f"A new random map — {RANDOM_SIZE_WORDS[size]}"
        choices.append({"value": f"random-{size}", "label": label, "selected": False})
    return choices


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


def form_fields_for(options: Mapping[str, Any]) -> dict[str, str]:
    """The creation form's map fields that make ``options``: its random size, or its text pasted."""
    if "random_map" in options:
        return {"map_choice": f"random-{options['random_map']}"}
    if "map" in options:
        return {"map_choice": "custom", "map_text": str(options["map"])}
    return {}


__all__ = [
    "RANDOM_SIZE_WORDS",
    "SHIPPED_SIZE_WORDS",
    "map_choices",
    "ACTIONS",
    "BASE_AP",
    "BLURB",
    "DEFAULT_TABLE",
    "DEFAULT_TURN_SECONDS",
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "DIRECTION_ORDER",
    "DungeonMap",
    "EVENT_WINDOW",
    "ITEM_CHARS",
    "KIT",
    "MAX_TIMEOUTS",
    "MapError",
    "OPTIONS",
    "OPTION_KEYS",
    "PLAYERS_LABEL",
    "SIZES",
    "START_HP",
    "STATE_KEYS",
    "TABLE",
    "TABLE_SIZE",
    "TEST_OPTIONS",
    "TILE_NAMES",
    "TURN_SECONDS",
    "UPLOAD_MAX_BYTES",
    "UPLOAD_MAX_CELLS",
    "absence_action",
    "action_label",
    "apply",
    "dump",
    "event_text",
    "field_of_view",
    "form_fields_for",
    "form_options",
    "full_view",
    "generate_map",
    "grid_rows",
    "is_shipped",
    "join_action",
    "legal_actions",
    "living_seats",
    "load",
    "max_players",
    "min_players",
    "new_game",
    "parse_map",
    "positions",
    "result",
    "reveals",
    "server_actions",
    "shipped_maps",
    "slug",
    "timeout_action",
    "title",
    "turn_clock",
    "view",
    "vision",
    "whereabouts",
]
