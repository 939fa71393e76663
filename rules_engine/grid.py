"""Square-grid helpers shared by the map games. Positions are ``(row, col)`` tuples.

Each game picks its own origin (Shuffle and Doom counts from 1, others from 0); these helpers
take the bounds explicitly so they stay neutral.

>>> neighbours((1, 1), rows=3, cols=3, first=1)
[(1, 2), (2, 1)]
>>> sorted(map(sorted, connected_regions({(0, 0), (0, 1), (2, 2)})))
[[(0, 0), (0, 1)], [(2, 2)]]
"""

from __future__ import annotations

from collections.abc import Iterable

Pos = tuple[int, int]

DIRECTIONS: dict[str, Pos] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
DIRECTION_NAMES = {"N": "north", "E": "east", "S": "south", "W": "west"}


def step(pos: Pos, direction: str) -> Pos:
    """The position one step from ``pos`` towards ``N``, ``E``, ``S`` or ``W``.

    >>> step((2, 2), "N"), step((2, 2), "E")
    ((1, 2), (2, 3))
    """
    dr, dc = DIRECTIONS[direction]
    return (pos[0] + dr, pos[1] + dc)


def in_bounds(pos: Pos, *, rows: int, cols: int, first: int = 0) -> bool:
    return first <= pos[0] < first + rows and first <= pos[1] < first + cols


def orthogonal(pos: Pos) -> list[Pos]:
    """The four orthogonal neighbours, in N, E, S, W order, unbounded."""
    return [step(pos, d) for d in DIRECTIONS]


def neighbours(pos: Pos, *, rows: int, cols: int, first: int = 0) -> list[Pos]:
    """Orthogonal neighbours inside the grid, ordered N, E, S, W."""
    return [p for p in orthogonal(pos) if in_bounds(p, rows=rows, cols=cols, first=first)]


def connected_regions(cells: Iterable[Pos]) -> list[set[Pos]]:
    """Split cells into maximal groups joined edge to edge, in first-seen order (sorted input order)."""
    remaining = set(cells)
    regions: list[set[Pos]] = []
    for start in sorted(remaining):
        if start not in remaining:
            continue
        region = {start}
        frontier = [start]
        remaining.discard(start)
        while frontier:
            for nxt in orthogonal(frontier.pop()):
                if nxt in remaining:
                    remaining.discard(nxt)
                    region.add(nxt)
                    frontier.append(nxt)
        regions.append(region)
    return regions


def manhattan(a: Pos, b: Pos) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])
