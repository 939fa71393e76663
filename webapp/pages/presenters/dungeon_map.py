"""The Dungeon of Doom's map drawn in SVG: what a seat sees now bright, what it remembers dim.

Drawn here in Python rather than in a Jinja macro because it runs once per tile of the map on
every board (every push to every seat): a template expression per coordinate escaped tens of
thousands of numbers a second under load. The only text that comes from people, a player's
name, is escaped; everything else is numbers and fixed words.

``cells``: ``[{pos: [r, c], tile, item, player}]`` drawn bright (a cell's optional ``mark`` is
written on its player's token, and a legend after the map names each mark); ``remembered``:
``[{pos, tile, item}]`` drawn dim, before them; ``me``: this seat or None.

>>> svg = dungeon_svg([{"pos": [1, 1], "tile": "floor", "item": None, "player": "p2"}], "p1", {"p2": "<Bo>"})
>>> "&lt;Bo&gt;" in svg and "<Bo>" not in svg, svg.count('class="dod-cell"')
(True, 1)
>>> str(dungeon_svg([]))
'<p class="hint">Nothing to show yet.</p>'
"""

from __future__ import annotations

import functools

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


def _player(player: str, you: bool, names: dict, x: int, y: int, mark: str | None = None) -> str:
    title = "You" if you else escape(names.get(player, player))
    token = (
        f'<g class="player{" you" if you else ""}"><title>{title}</title>'
        f'<circle cx="{x + 5}" cy="{y + 5}" r="4.3" fill="{"#f0b84a" if you else "#7cc4ff"}" stroke="#15131a"'
        ' stroke-width=".7"/>'
    )
    if mark:
        # A marked token says whose it is (the legend beside the map spells the names out).
        # Its look is in attributes too: the legend draws the same token outside the map's CSS.
        return (
            token + f'<text x="{x + 5}" y="{y + 6.8}" class="glyph player" text-anchor="middle" font-size="5"'
            f' font-weight="700" font-family="system-ui, sans-serif" fill="#15131a">{escape(mark)}</text></g>'
        )
    return (
        token + f'<circle cx="{x + 5}" cy="{y + 3.6}" r="1.3" fill="#15131a"/>'
        f'<path d="M{x + 2.8} {y + 7.8}a2.2 2.6 0 0 1 4.4 0z" fill="#15131a"/></g>'
    )


def _token_legend(cells: list[dict], me: str | None, names: dict) -> str:
    """Who each marked token is, in the marks' order on the map (top row first)."""
    entries = []
    for cell in cells:
        player, mark = cell.get("player"), cell.get("mark")
        if not (player and mark):
            continue
        you = bool(me) and player == me
        swatch = (
            '<svg class="token-swatch" viewBox="0 0 10 10" width="20" height="20" aria-hidden="true">'
            f"{_player(player, you, names, 0, 0, mark)}</svg>"
        )
        name = escape(names.get(player, player)) + (" (you)" if you else "")
        entries.append(f"<li>{swatch} <span>{escape(mark)}: {name}</span></li>")
    if not entries:
        return ""
    return '<ul class="map-legend token-legend" aria-label="Who is who on the map">' + "".join(entries) + "</ul>"


def dungeon_svg(
    cells: list[dict],
    me: str | None = None,
    names: dict | None = None,
    label: str = "Dungeon map",
    remembered: list[dict] | None = None,
    trails: list[dict] | None = None,
) -> Markup:
    """The map as SVG; ``trails`` (a replay's, ``presenters.dungeon_of_doom.trails``) are drawn
    over the floor and under the tokens, with a legend of whose path is which colour."""
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
    tokens: list[str] = []
    for group, dim in ((remembered, True), (cells, False)):
        for cell in group:
            item = cell["item"]
            player = None if dim else cell["player"]
            if not player:
                # Most cells: a tile and maybe an item, the same markup on every board drawn.
                where = cell["pos"]
                out.append(
                    _plain_cell(cell["tile"], item and (item["kind"], item.get("amount")), where[0], where[1], dim)
                )
                continue
            y, x = cell["pos"][0] * 10, cell["pos"][1] * 10
            out.append(DIM_CELL if dim else BRIGHT_CELL)
            out.append(_tile(cell["tile"], x, y))
            if item and not player:
                out.append(_item(item, x, y))
            # With paths to draw, tokens wait until after them (over the paths, not under);
            # otherwise each stays in its cell's group.
            drawn_on = tokens if trails else out
            if player:
                drawn_on.append(_player(player, bool(me) and player == me, names, x, y, cell.get("mark")))
                if item:
                    # What the player stands on would hide under the token: drawn on top, half
                    # size, in the tile's top-right corner, so an item to pick up stays in sight.
                    drawn_on.append(f'<g transform="translate({x + 5} {y}) scale(.5) translate({-x} {-y})">')
                    drawn_on.append(_item(item, x, y))
                    drawn_on.append("</g>")
            out.append("</g>")
    out.extend(_trail(trail) for trail in trails or [])
    out.extend(tokens)
    out.append("</svg>")
    out.append(_token_legend(cells, me, names))
    out.append(_trail_legend(trails or []))
    return Markup("\n".join(out))


@functools.lru_cache(maxsize=32768)
def _plain_cell(tile: str, item: tuple | None, row: int, col: int, dim: bool) -> str:
    """A cell without a player: its group, its tile and its item (``(kind, amount)``), cached
    (a board draws hundreds; a seat's next board draws nearly all of them again)."""
    x, y = col * 10, row * 10
    drawn = [DIM_CELL if dim else BRIGHT_CELL, _tile(tile, x, y)]
    if item:
        drawn.append(_item({"kind": item[0], "amount": item[1]}, x, y))
    drawn.append("</g>")
    return "\n".join(drawn)


def _trail(trail: dict) -> str:
    points = " ".join(f"{col * 10 + 5},{row * 10 + 5}" for row, col in trail["squares"])
    return (
        f'<polyline class="trail" points="{points}" fill="none" stroke="{trail["colour"]}" stroke-width="1.6"'
        ' stroke-linecap="round" stroke-linejoin="round" stroke-opacity=".85"/>'
    )


def _trail_legend(trails: list[dict]) -> str:
    if not trails:
        return ""
    entries = "".join(
        f'<li><svg class="token-swatch" viewBox="0 0 20 10" width="28" height="14" aria-hidden="true">'
        f'<path d="M1 5h18" stroke="{t["colour"]}" stroke-width="3" stroke-linecap="round"/></svg>'
        f"{escape(t['name'])}'s path ({len(t['squares'])} squares)</li>"
        for t in trails
    )
    return f'<ul class="map-legend trail-legend" aria-label="Whose path is which colour">{entries}</ul>'
