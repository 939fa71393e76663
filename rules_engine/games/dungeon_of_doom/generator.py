"""A random dungeon in the classic map format: a maze with loops and rooms, always connected.

``generate_map(seed, size)`` returns the text of a map file (ready for ``options["map"]``); the
same seed and size always give the same map. The seed never appears in the text.

>>> from .maps import parse_map
>>> dungeon = parse_map(generate_map(12, "S"))
>>> (dungeon.width, dungeon.height), dungeon.gold >= dungeon.target, len(dungeon.exits) >= 1
((15, 11), True, True)
>>> generate_map(12, "S") == generate_map(12, "S")
True
"""

from __future__ import annotations

import random

from ...errors import InvalidAction

# size → (width, height, target gold range, extra coins, exits, potions, rooms)
SIZES: dict[str, tuple[int, int, tuple[int, int], int, int, int, int]] = {
    "S": (15, 11, (2, 3), 2, 1, 2, 2),
    "M": (25, 17, (3, 5), 4, 2, 3, 4),
    "L": (41, 27, (6, 9), 8, 3, 6, 8),
}

_ADJECTIVES = (
    "Sunken",
    "Forgotten",
    "Mouldering",
    "Silent",
    "Crooked",
    "Flooded",
    "Hollow",
    "Whispering",
    "Smoky",
    "Bleak",
    "Gilded",
    "Shattered",
)
_PLACES = ("Halls", "Crypt", "Warrens", "Vaults", "Cellars", "Catacombs", "Galleries", "Pits", "Passages", "Undercroft")


def generate_map(seed: int | str, size: str = "M") -> str:
    """The text of a random, connected map of size ``S``, ``M`` or ``L``."""
    if size not in SIZES:
        raise InvalidAction(f"map size must be one of {', '.join(SIZES)}")
    width, height, (low, high), extra, exits, potions, rooms = SIZES[size]
    rng = random.Random(f"{seed}:map:{size}")
    grid = [["#"] * width for _ in range(height)]

    # A spanning tree over the odd cells (iterative depth-first carving) connects everything.
    start = (1 + 2 * rng.randrange((height - 1) // 2), 1 + 2 * rng.randrange((width - 1) // 2))
    grid[start[0]][start[1]] = "."
    stack = [start]
    while stack:
        r, c = stack[-1]
        options = [
            (r + dr, c + dc)
            for dr, dc in ((-2, 0), (2, 0), (0, -2), (0, 2))
            if 1 <= r + dr < height - 1 and 1 <= c + dc < width - 1 and grid[r + dr][c + dc] == "#"
        ]
        if not options:
            stack.pop()
            continue
        nr, nc = rng.choice(options)
        grid[(r + nr) // 2][(c + nc) // 2] = "."
        grid[nr][nc] = "."
        stack.append((nr, nc))

    # Loops: knocking out walls between two floor cells keeps the map connected.
    for r in range(1, height - 1):
        for c in range(1, width - 1):
            if grid[r][c] == "#" and (r + c) % 2 == 1 and rng.random() < 0.12:
                grid[r][c] = "."

    # Rooms: rectangles of floor; each contains odd cells of the maze, so it stays connected.
    for _ in range(rooms):
        h = rng.randint(2, 4)
        w = rng.randint(3, 6)
        r0 = rng.randint(1, height - 1 - h)
        c0 = rng.randint(1, width - 1 - w)
        for r in range(r0, r0 + h):
            for c in range(c0, c0 + w):
                grid[r][c] = "."

    floor = [(r, c) for r in range(height) for c in range(width) if grid[r][c] == "."]
    rng.shuffle(floor)
    target = rng.randint(low, high)
    placed = floor[: exits + target + extra + potions + 3]
    cursor = 0

    def put(char: str, count: int) -> None:
        nonlocal cursor
        for r, c in placed[cursor : cursor + count]:
            grid[r][c] = char
        cursor += count

    put("E", exits)
    put("G", target + extra)
    put("H", potions)
    put("S", 1)
    put("A", 1)
    put("L", 1)
    name = f"The {rng.choice(_ADJECTIVES)} {rng.choice(_PLACES)}"
    return f"name {name}\nwin {target}\n" + "".join("".join(row) + "\n" for row in grid)
