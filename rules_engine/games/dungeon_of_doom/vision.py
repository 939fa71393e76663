"""What an adventurer sees: the two fields of view (rules 6.1) and the classic rendering (6.3).

Offsets are ``(dr, dc)`` from the viewer; walls and players never block sight (rulings 1, 2, 39).

>>> len(NORMAL_FIELD), len(LANTERN_FIELD)
(21, 33)
>>> in_field(2, 2, lantern=False), in_field(2, 2, lantern=True), in_field(0, 3, lantern=True)
(False, True, True)
>>> field_cells((0, 0), lantern=False, height=2, width=2)
[(0, 0), (0, 1), (1, 0), (1, 1)]
"""

from __future__ import annotations

from collections.abc import Sequence

Pos = tuple[int, int]


def in_field(dr: int, dc: int, *, lantern: bool) -> bool:
    """Whether offset ``(dr, dc)`` lies in the field: 5 × 5 minus corners, or the lantern drawing."""
    adr, adc = abs(dr), abs(dc)
    if lantern:
        # Ruling 1: the original drawing (rows of 3, 5, 5, 7, 5, 5, 3), not a Manhattan diamond.
        if adr == 0:
            return adc <= 3
        if adr <= 2:
            return adc <= 2
        return adr == 3 and adc <= 1
    return adr <= 2 and adc <= 2 and not (adr == 2 and adc == 2)


def _field(radius: int, lantern: bool) -> tuple[Pos, ...]:
    span = range(-radius, radius + 1)
    return tuple((dr, dc) for dr in span for dc in span if in_field(dr, dc, lantern=lantern))


NORMAL_FIELD: tuple[Pos, ...] = _field(2, False)
"""The 21 offsets seen without a lantern, row-major."""
LANTERN_FIELD: tuple[Pos, ...] = _field(3, True)
"""The 33 offsets seen with a lantern, row-major."""


def field_offsets(lantern: bool) -> tuple[Pos, ...]:
    return LANTERN_FIELD if lantern else NORMAL_FIELD


def sees(viewer: Pos, lantern: bool, target: Pos) -> bool:
    """Whether a viewer standing on ``viewer`` sees the cell ``target``.

    >>> sees((5, 5), False, (7, 5)), sees((5, 5), False, (8, 5)), sees((5, 4), True, (8, 5))
    (True, False, True)
    """
    return in_field(target[0] - viewer[0], target[1] - viewer[1], lantern=lantern)


def field_cells(pos: Pos, *, lantern: bool, height: int, width: int) -> list[Pos]:
    """The cells of the field that lie on a ``height`` × ``width`` map, row-major."""
    r0, c0 = pos
    cells = []
    for dr, dc in field_offsets(lantern):
        r, c = r0 + dr, c0 + dc
        if 0 <= r < height and 0 <= c < width:
            cells.append((r, c))
    return cells


def _look_rows(radius: int, field: tuple[Pos, ...]) -> tuple[tuple[str, int], ...]:
    # Each row of a field is one unbroken run centred on the viewer: X pads it on both sides.
    rows = []
    for dr in range(-radius, radius + 1):
        count = sum(1 for r, _ in field if r == dr)
        rows.append(("X" * ((2 * radius + 1 - count) // 2), count))
    return tuple(rows)


_LOOK_ROWS = {False: _look_rows(2, NORMAL_FIELD), True: _look_rows(3, LANTERN_FIELD)}


def render_look(chars: Sequence[str], *, lantern: bool) -> list[str]:
    """The classic LOOKREPLY square: 5 (or 7) strings, north first.

    ``chars`` holds one character per offset of the field, in its row-major order (``#`` off the
    map, ``P`` for another player, else the item or terrain character); cells outside the field
    are ``X``.

    >>> render_look(["#" if r < 0 or c < 0 else "." for r, c in NORMAL_FIELD], lantern=False)
    ['X###X', '#####', '##...', '##...', 'X#..X']
    """
    lines = []
    start = 0
    for pad, count in _LOOK_ROWS[lantern]:
        lines.append(pad + "".join(chars[start : start + count]) + pad)
        start += count
    return lines
