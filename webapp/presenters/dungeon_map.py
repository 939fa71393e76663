"""The Dungeon of Doom's map drawn in SVG: what a seat sees now bright, what it remembers dim.

Drawn here in Python rather than in a Jinja macro because it runs once per tile of the map on
every board (every push to every seat): a template expression per coordinate escaped tens of
thousands of numbers a second under load. The only text that comes from people, a player's
name, is escaped; everything else is numbers and fixed words.

``cells``: ``[{pos: [r, c], tile, item, player}]`` drawn bright; ``remembered``:
``[{pos, tile, item}]`` drawn dim, before them; ``me``: this seat or None.

>>> svg = dungeon_svg([{"pos": [1, 1], "tile": "floor", "item": None, "player": "p2"}], "p1", {"p2": "<Bo>"})
>>> "&lt;Bo&gt;" in svg and "<Bo>" not in svg, svg.count('class="dod-cell"')
(True, 1)
>>> str(dungeon_svg([]))
'<p class="hint">Nothing to show yet.</p>'
"""

from __future__ import annotations

from markupsafe import Markup, escape

KIT_LETTER = {"sword": "S", "armour": "A", "lantern": "L"}
DIM_CELL, BRIGHT_CELL = '<g class="dod-cell" opacity="0.45">', '<g class="dod-cell">'
MIN_SIDE = 7  # at least 7 cells each way, so a few known cells still look like a place, not a zoom


def _item(item: dict, x: int, y: int) -> str:
    kind = item["kind"]
    if kind == "gold":
        out = f'<circle cx="{x + 5}" cy="{y + 5}" r="3" fill="#f0b84a" stroke="#8a6414" stroke-width=".6"/>'
        if item.get("amount") and item["amount"] > 1:
            out += f'<text x="{x + 5}" y="{y + 6.4}" class="glyph small">{int(item["amount"])}</text>'
        return out
    if kind == "potion":
        return (
            f'<path d="M{x + 4} {y + 2}h2v2l2 3a2 2 0 0 1-2 3h-2a2 2 0 0 1-2-3l2-3z" fill="#e5484d"'
            ' stroke="#15131a" stroke-width=".4"/>'
        )
    return (
        f'<rect x="{x + 2}" y="{y + 2}" width="6" height="6" rx="1" fill="#cfd8e3"/>'
        f'<text x="{x + 5}" y="{y + 6.9}" class="glyph kit">{KIT_LETTER[kind]}</text>'
    )


def _tile(tile: str, x: int, y: int) -> str:
    if tile == "wall":
        return (
            f'<rect x="{x}" y="{y}" width="10" height="10" fill="#6d5a45"/>'
            f'<path d="M{x} {y + 5}h10M{x + 5} {y}v5M{x + 2} {y + 5}v5" stroke="#4f4032" stroke-width=".6"/>'
        )
    if tile == "exit":
        return (
            f'<rect x="{x + 0.3}" y="{y + 0.3}" width="9.4" height="9.4" rx="1" fill="#1f5130"/>'
            f'<text x="{x + 5}" y="{y + 7.2}" class="glyph exit">E</text>'
        )
    return f'<rect x="{x + 0.3}" y="{y + 0.3}" width="9.4" height="9.4" rx="1" fill="#3b3544"/>'


def _player(player: str, you: bool, names: dict, x: int, y: int) -> str:
    title = "You" if you else escape(names.get(player, player))
    return (
        f'<g class="player{" you" if you else ""}"><title>{title}</title>'
        f'<circle cx="{x + 5}" cy="{y + 5}" r="4.3" fill="{"#f0b84a" if you else "#7cc4ff"}" stroke="#15131a"'
        ' stroke-width=".7"/>'
        f'<circle cx="{x + 5}" cy="{y + 3.6}" r="1.3" fill="#15131a"/>'
        f'<path d="M{x + 2.8} {y + 7.8}a2.2 2.6 0 0 1 4.4 0z" fill="#15131a"/></g>'
    )


def dungeon_svg(
    cells: list[dict],
    me: str | None = None,
    names: dict | None = None,
    label: str = "Dungeon map",
    remembered: list[dict] | None = None,
) -> Markup:
    names = names or {}
    remembered = remembered or []
    every = remembered + cells
    if not every:
        return Markup('<p class="hint">Nothing to show yet.</p>')
    rows_seen = sorted(cell["pos"][0] for cell in every)
    cols_seen = sorted(cell["pos"][1] for cell in every)
    r0, r1, c0, c1 = rows_seen[0], rows_seen[-1], cols_seen[0], cols_seen[-1]
    rows, cols = max(r1 - r0 + 1, MIN_SIDE), max(c1 - c0 + 1, MIN_SIDE)
    top = r0 - (rows - (r1 - r0 + 1)) // 2
    left = c0 - (cols - (c1 - c0 + 1)) // 2
    box = f"{left * 10 - 1} {top * 10 - 1} {cols * 10 + 2} {rows * 10 + 2}"
    out = [
        f'<svg class="dungeon" viewBox="{box}" role="img" aria-label="{escape(label)}"'
        ' preserveAspectRatio="xMidYMid meet">',
        f'<rect x="{left * 10 - 1}" y="{top * 10 - 1}" width="{cols * 10 + 2}" height="{rows * 10 + 2}"'
        ' fill="#0d0b10"/>',
    ]
    for group, dim in ((remembered, True), (cells, False)):
        for cell in group:
            y, x = cell["pos"][0] * 10, cell["pos"][1] * 10
            item = cell["item"]
            player = None if dim else cell["player"]
            out.append(DIM_CELL if dim else BRIGHT_CELL)
            out.append(_tile(cell["tile"], x, y))
            if item and not player:
                out.append(_item(item, x, y))
            if player:
                out.append(_player(player, bool(me) and player == me, names, x, y))
                if item:
                    # What the player stands on would hide under the token: drawn on top, half
                    # size, in the tile's top-right corner, so an item to pick up stays in sight.
                    out.append(f'<g transform="translate({x + 5} {y}) scale(.5) translate({-x} {-y})">')
                    out.append(_item(item, x, y))
                    out.append("</g>")
            out.append("</g>")
    out.append("</svg>")
    return Markup("\n".join(out))
