"""Movement on the board: blocking, the Ninja's reflex, redirects, adjacency, connectivity (§4.3, §8.2).

Squares are ``[x, y]`` lists, ``x`` from 1 at the left, ``y`` from 1 at the bottom (§0.2).

>>> board = {"width": 10, "height": 10, "stop_walls": [], "redirects": {}}
>>> walk(board, [5, 1], "right", 8, ninja=True)
{'path': [[6, 1], [7, 1], [8, 1], [9, 1], [10, 1], [9, 1], [8, 1], [7, 1]], 'bounced': True, 'redirects': []}
>>> walk(board, [5, 1], "down", 3, ninja=False)["path"]
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .data import DELTAS, OPPOSITE, REDIRECT_TURNS


def wall_key(a: Sequence[int], b: Sequence[int]) -> str:
    """A stop wall's key, the same whichever side it is named from."""
    (x1, y1), (x2, y2) = sorted([tuple(a), tuple(b)])
    return f"{x1},{y1}|{x2},{y2}"


def wall_set(board: dict[str, Any]) -> frozenset[str]:
    return frozenset(wall_key(a, b) for a, b in board["stop_walls"]) if board["stop_walls"] else frozenset()


def blocked(board: dict[str, Any], walls: frozenset[str], pos: Sequence[int], direction: str) -> bool:
    """The neighbour of ``pos`` that way is off the board, or a stop wall lies between (§4.3)."""
    dx, dy = DELTAS[direction]
    x, y = pos[0] + dx, pos[1] + dy
    if not (1 <= x <= board["width"] and 1 <= y <= board["height"]):
        return True
    return bool(walls) and wall_key(pos, (x, y)) in walls


def walk(board: dict[str, Any], start: Sequence[int], direction: str, distance: int, *, ninja: bool) -> dict[str, Any]:
    """The §4.3 procedure: the path taken (final square last), whether a Ninja bounced, and the
    redirect squares entered."""
    walls = wall_set(board)
    redirects = board["redirects"]
    pos = list(start)
    left = distance
    turned = False
    path: list[list[int]] = []
    passed: list[list[int]] = []
    while left > 0:
        if blocked(board, walls, pos, direction):
            if ninja and not turned:
                direction = OPPOSITE[direction]
                turned = True
                if blocked(board, walls, pos, direction):
                    break
            else:
                break
        dx, dy = DELTAS[direction]
        pos = [pos[0] + dx, pos[1] + dy]
        left -= 1
        path.append(pos)
        if redirects:
            kind = redirects.get(f"{pos[0]},{pos[1]}")
            if kind is not None:
                direction = REDIRECT_TURNS[kind][direction]
                passed.append(pos)
    return {"path": path, "bounced": turned, "redirects": passed}


def adjacent(board: dict[str, Any], a: Sequence[int] | None, b: Sequence[int] | None) -> bool:
    """Same square, or neighbours with no stop wall between (§0.2, ruling 16)."""
    if a is None or b is None:
        return False
    dist = abs(a[0] - b[0]) + abs(a[1] - b[1])
    if dist == 0:
        return True
    if dist != 1:
        return False
    return not board["stop_walls"] or wall_key(a, b) not in wall_set(board)


def is_edge(board: dict[str, Any], square: Sequence[int]) -> bool:
    x, y = square
    return x in (1, board["width"]) or y in (1, board["height"])


def edge_squares(board: dict[str, Any]) -> list[list[int]]:
    w, h = board["width"], board["height"]
    return [[x, y] for y in range(1, h + 1) for x in range(1, w + 1) if x in (1, w) or y in (1, h)]


def all_edges(width: int, height: int) -> list[list[list[int]]]:
    """Every edge between two neighbouring squares, as ``[[x, y], [x', y']]`` (smaller first)."""
    edges = []
    for y in range(1, height + 1):
        for x in range(1, width + 1):
            if x < width:
                edges.append([[x, y], [x + 1, y]])
            if y < height:
                edges.append([[x, y], [x, y + 1]])
    return edges


def connected(width: int, height: int, walls: frozenset[str]) -> bool:
    """Every square reachable from every other by steps that cross no stop wall (§8.2)."""
    seen = {(1, 1)}
    frontier = [(1, 1)]
    while frontier:
        x, y = frontier.pop()
        for dx, dy in DELTAS.values():
            nx, ny = x + dx, y + dy
            if 1 <= nx <= width and 1 <= ny <= height and (nx, ny) not in seen:
                if walls and wall_key((x, y), (nx, ny)) in walls:
                    continue
                seen.add((nx, ny))
                frontier.append((nx, ny))
    return len(seen) == width * height
