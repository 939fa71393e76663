"""Classic Dungeon of Doom map files (rules section 3): the parser, the writer, the shipped maps.

A map file is ``name <map name>``, ``win <gold needed>`` and then the grid, one character per
cell. Every error names the 1-based line of the file (and, for a bad character, the column).

>>> dungeon = parse_map("name Ledge\\nwin 0\\nE..")
>>> dungeon.name, dungeon.target, dungeon.width, dungeon.height, dungeon.exits
('Ledge', 0, 3, 1, [(0, 0)])
>>> parse_map("name Bad\\nwin 1.5\\nE")
Traceback (most recent call last):
...
rules_engine.games.dungeon_of_doom.maps.MapError: line 2: expected 'win <gold needed>' with a whole number of at least 0, got 'win 1.5'
>>> parse_map("name Bad\\nwin 0\\n###\\n#EZ\\n###")
Traceback (most recent call last):
...
rules_engine.games.dungeon_of_doom.maps.MapError: line 4, column 3: unexpected character 'Z' (allowed: # . E G H S A L, and P B read as floor)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ...errors import InvalidAction
from ...text import clean_text

Pos = tuple[int, int]

MAX_BYTES = 64 * 1024
MAX_SIDE = 100
MAX_NAME = 80
UNNAMED = "Unnamed dungeon"

ITEM_KINDS = {"G": "gold", "H": "potion", "S": "sword", "A": "armour", "L": "lantern"}
"""Map character → item kind."""
ITEM_CHARS = {kind: char for char, kind in ITEM_KINDS.items()}
"""Item kind → map character."""
TILE_NAMES = {"#": "wall", ".": "floor", "E": "exit"}
"""Terrain character → terrain name."""

_LINE_BREAK = re.compile(r"\r\n|\n|\r")
_LINE_BREAK_BYTES = re.compile(rb"\r\n|\n|\r")
_BAD_CHAR = re.compile(r"[^#.EGHSALPB]")
_DIGITS = re.compile(r"[0-9]+")
# P and B (player and bot markers of later single-player variants) read as floor (ruling 37).
_TO_TERRAIN = str.maketrans({c: "." for c in "GHSALPB"})

MAPS_DIR = Path(__file__).with_name("maps")


class MapError(InvalidAction):
    """A map file that cannot be loaded. ``line`` (1-based) and ``column`` say where."""

    def __init__(self, line: int, message: str, *, column: int | None = None, last_line: int | None = None):
        self.line = line
        self.column = column
        if last_line is not None and last_line != line:
            where = f"lines {line}-{last_line}"
        else:
            where = f"line {line}" + (f", column {column}" if column is not None else "")
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Item:
    """One item lying on a cell."""

    pos: Pos
    """``(row, col)``."""
    kind: str
    """``gold``, ``potion``, ``sword``, ``armour`` or ``lantern``."""
    amount: int = 1
    """Coins in a gold pile; 1 for everything else."""


@dataclass(frozen=True)
class DungeonMap:
    """A parsed map file."""

    name: str
    """The name as written (may be empty; see ``display_name``)."""
    target: int
    """Gold needed to win (``win`` line)."""
    width: int
    height: int
    terrain: tuple[str, ...]
    """One string per row over ``# . E``: items and ``P``/``B`` markers replaced by floor."""
    items: tuple[Item, ...]
    """Every item, row-major; each ``G`` of the file is a pile of one coin."""

    @property
    def display_name(self) -> str:
        return self.name or UNNAMED

    @property
    def exits(self) -> list[Pos]:
        return [(r, c) for r, row in enumerate(self.terrain) for c, ch in enumerate(row) if ch == "E"]

    @property
    def gold(self) -> int:
        return sum(item.amount for item in self.items if item.kind == "gold")

    def walkable(self) -> set[Pos]:
        return {(r, c) for r, row in enumerate(self.terrain) for c, ch in enumerate(row) if ch != "#"}

    def as_state(self) -> dict[str, Any]:
        """The ``map`` part of a game state (rules 10.2): plain JSON-safe data."""
        return {
            "name": self.name,
            "target": self.target,
            "width": self.width,
            "height": self.height,
            "terrain": list(self.terrain),
            "items": [{"pos": list(i.pos), "kind": i.kind, "amount": i.amount} for i in self.items],
        }

    def to_text(self) -> str:
        """The map file (``\\n`` line endings, final newline); parses back to an equal map.

        >>> m = parse_map("name Ledge\\r\\nwin 0\\r\\nEG.")
        >>> m.to_text()
        'name Ledge\\nwin 0\\nEG.\\n'
        >>> parse_map(m.to_text()) == m
        True
        """
        return f"name {self.name}\nwin {self.target}\n" + "".join(
            row + "\n" for row in grid_rows(self.terrain, [(i.pos, i.kind) for i in self.items])
        )


def grid_rows(terrain: list[str] | tuple[str, ...], items: list[tuple[Pos, str]]) -> list[str]:
    """Rows as in a map file: terrain with each item's character on top (gold piles as ``G``)."""
    rows = [list(row) for row in terrain]
    for (r, c), kind in items:
        rows[r][c] = ITEM_CHARS[kind]
    return ["".join(row) for row in rows]


def _line_of_byte(data: bytes, offset: int) -> int:
    return len(_LINE_BREAK_BYTES.split(data[:offset]))


def parse_map(source: str | bytes) -> DungeonMap:
    """Parse the text (or UTF-8 bytes) of a map file; ``MapError`` names the offending line.

    Windows, old Mac and Unix line endings, a missing final newline, trailing empty lines and a
    leading byte-order mark are all accepted (rules 3.1).
    """
    if isinstance(source, bytes):
        data = source
        if len(data) > MAX_BYTES:
            raise MapError(_line_of_byte(data, MAX_BYTES), "the file is larger than 64 KiB")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise MapError(_line_of_byte(data, error.start), "the file is not UTF-8 text") from None
    elif isinstance(source, str):
        text = source
        if len(text) > MAX_BYTES // 4 and len(data := text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            raise MapError(_line_of_byte(data, MAX_BYTES), "the file is larger than 64 KiB")
    else:
        raise InvalidAction("a map must be given as the text of a map file")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = _LINE_BREAK.split(text)
    while lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise MapError(1, "the file is empty; expected 'name <map name>'")

    first = lines[0]
    if not first.startswith("name "):
        raise MapError(1, f"expected 'name <map name>', got {_quote(first)}")
    name = first[5:].strip()
    if len(name) > MAX_NAME:
        raise MapError(1, f"the map name is {len(name)} characters long; at most {MAX_NAME} are allowed")
    # Every player reads the name: control and format characters (U+202E, BEL, NUL) are dropped
    # by the platform's one sanitiser for typed text, as they are from player names and chat.
    name = clean_text(name, MAX_NAME)

    if len(lines) < 2:
        raise MapError(2, "expected 'win <gold needed>', but the file ends after the name")
    second = lines[1]
    amount = second[4:].strip() if second.startswith("win ") else ""
    if not _DIGITS.fullmatch(amount):
        raise MapError(2, f"expected 'win <gold needed>' with a whole number of at least 0, got {_quote(second)}")
    if len(amount.lstrip("0")) > len(str(MAX_SIDE * MAX_SIDE)):
        # Also keeps int() away from numbers longer than Python converts (about 4,300 digits).
        raise MapError(2, f"'win' asks for more gold than any map can hold ({MAX_SIDE * MAX_SIDE} G at most)")
    target = int(amount)

    grid = lines[2:]
    if not grid:
        raise MapError(3, "the grid is missing: at least one row of cells must follow the 'win' line")
    if len(grid) > MAX_SIDE:
        raise MapError(3 + MAX_SIDE, f"the grid has more than {MAX_SIDE} rows")
    width = len(grid[0])
    if width > MAX_SIDE:
        raise MapError(3, f"the grid is {width} cells wide; at most {MAX_SIDE} are allowed")
    terrain = []
    items = []
    for r, row in enumerate(grid):
        line = r + 3
        if not row:
            raise MapError(line, "empty line inside the grid (every grid row needs at least one cell)")
        bad = _BAD_CHAR.search(row)
        if bad:
            raise MapError(
                line,
                f"unexpected character {bad.group()!r} (allowed: # . E G H S A L, and P B read as floor)",
                column=bad.start() + 1,
            )
        if len(row) != width:
            raise MapError(line, f"the row is {len(row)} cells wide, but the grid is {width} wide (line 3)")
        terrain.append(row.translate(_TO_TERRAIN))
        for c, ch in enumerate(row):
            if ch in ITEM_KINDS:
                items.append(Item((r, c), ITEM_KINDS[ch]))

    last = len(grid) + 2
    if not any("E" in row for row in terrain):
        raise MapError(3, "the grid has no exit (E)", last_line=last)
    coins = sum(1 for item in items if item.kind == "gold")
    if coins < target:
        raise MapError(2, f"'win {target}' needs at least {target} gold, but the grid holds only {coins} G")
    return DungeonMap(name, target, width, len(grid), tuple(terrain), tuple(items))


def _quote(line: str) -> str:
    return repr(line if len(line) <= 40 else line[:40] + "…")


def normalise_text(text: str) -> str:
    """The text with the quirks parsing ignores removed (BOM, line endings, trailing empty lines)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return "\n".join(_LINE_BREAK.split(text)).rstrip("\n")


def shipped_maps() -> dict[str, str]:
    """The built-in maps: file stem → text, smallest first.

    >>> list(shipped_maps())[:2]
    ['duelling-hall', 'sunken-vault']
    """
    return dict(_shipped())


@cache
def _shipped() -> tuple[tuple[str, str], ...]:
    found = []
    for path in MAPS_DIR.glob("*.txt"):
        text = path.read_text(encoding="utf-8")
        dungeon = parse_map(text)
        found.append((dungeon.width * dungeon.height, path.stem, text))
    return tuple((stem, text) for _, stem, text in sorted(found))


@cache
def _shipped_texts() -> frozenset[str]:
    return frozenset(normalise_text(text) for _, text in _shipped())


def is_shipped(text: str) -> bool:
    """Whether ``text`` is one of the built-in maps (else the game is labelled "custom map")."""
    return normalise_text(text) in _shipped_texts()


DEFAULT_MAP = "lantern-gallery"
"""The stem of the map a game uses when no ``map`` option is given."""
