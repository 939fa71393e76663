"""The board: its squares (only the special ones drawn as more than a checker square), the
tokens, and the last move's trail, animated when it is fresh."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from rules_engine.games.dungeon_cards.core import sq

from ....domain.play import ActionButton
from .page import ARROWS, Page, letters

# The stylesheet times the trail's steps st-1 … st-40; a longer move shares the last delay.
LAST_TRAIL_STEP = 40


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the last move's trail: its order, and the way the square was entered."""

    order: int
    arrow: str
    last: bool


@dataclass(frozen=True, slots=True)
class Token:
    seat_number: int
    letters: str
    css: str
    arrive: str | None
    """The classes that animate this token's arrival, when it made the move just shown."""


@dataclass(frozen=True, slots=True)
class Square:
    css: str
    plain: bool
    target: ActionButton | None = None
    redirect: str | None = None
    marker: str | None = None
    steps: tuple[Step, ...] = ()
    bounce: bool = False
    move_start: bool = False
    tokens: tuple[Token, ...] = ()
    tokens_css: str = ""


@dataclass(frozen=True)
class LegendToken:
    seat_number: int
    name: str
    letters: str


@dataclass(frozen=True)
class Board:
    width: int
    height: int
    css: str
    clickable: bool
    description: str
    squares: list[Square]
    """Top row first, each row from the left."""
    stop_walls: bool
    redirects: bool
    legend_tokens: list[LegendToken]


@dataclass(frozen=True)
class LastMove:
    card: str | None
    badge: str
    who: str
    verb: str
    direction: str
    distance: int
    route: str
    bounced: bool
    redirects: list[str]


PLAIN = Square("sq", plain=True)


PLAIN_ALT = Square("sq alt", plain=True)


def shown_move(page: Page) -> dict | None:
    """The last move of the log: the page draws its trail, and animates it when it is fresh (the
    entries a page has not shown are the log's tail, so a fresh move is always this one)."""
    for entry in reversed(page.view["log"]):
        if "move" in entry:
            return entry["move"]
    return None


def board(page: Page) -> Board | None:
    b = page.view["board"]
    if not b:
        return None
    width, height = b["width"], b["height"]
    exits = {(x, y) for x, y in b["exits"]}
    pits = {(x, y) for x, y in b["pits"]}
    start = tuple(b["start"]) if b["start"] else None
    sides: dict[tuple, list[str]] = defaultdict(list)
    for one, other in b["stop_walls"]:
        if one[0] == other[0]:
            low, high = (one, other) if one[1] < other[1] else (other, one)
            sides[tuple(low)].append("wt")
            sides[tuple(high)].append("wb")
        else:
            left, right = (one, other) if one[0] < other[0] else (other, one)
            sides[tuple(left)].append("wr")
            sides[tuple(right)].append("wl")
    redirects = {tuple(r["square"]): r["kind"] for r in b["redirects"]}
    targets = {tuple(button.action["square"]): button for button in page.buttons("place_marker", "choose_start")}
    move = shown_move(page)
    steps, bounce_at, move_start, arrive = trail(move)
    tokens: dict[tuple, list[Token]] = defaultdict(list)
    for c in page.chars:
        if c["position"]:
            css = (
                f"tok seat-{c['seat_number']}"
                + (" you" if c["id"] == page.seat else "")
                + (" current" if c["id"] == page.current else "")
            )
            tokens[tuple(c["position"])].append(
                Token(c["seat_number"], letters(c), css, arrive if move and move["who"] == c["id"] else None)
            )
    # Only these squares are more than their checker colour: the rest share two constant squares.
    special = {*exits, *pits, *sides, *redirects, *tokens, *steps, *targets, start, bounce_at, move_start}
    squares = []
    for y in range(height, 0, -1):
        for x in range(1, width + 1):
            k = (x, y)
            alt = (x + y) % 2 == 0
            if k not in special:
                squares.append(PLAIN_ALT if alt else PLAIN)
                continue
            marker = "exit" if k in exits else "pit" if k in pits else None
            css = "".join(
                (
                    "sq",
                    *(f" {side}" for side in sides.get(k, ())),
                    " alt" if alt else "",
                    " start" if k == start else "",
                    f" {marker}" if marker else "",
                    " trail" if k in steps else "",
                )
            )
            here = tokens.get(k, [])
            squares.append(
                Square(
                    css,
                    plain=False,
                    target=targets.get(k),
                    redirect=redirects.get(k),
                    marker=marker,
                    steps=tuple(steps.get(k, ())),
                    bounce=k == bounce_at,
                    move_start=k == move_start,
                    tokens=tuple(here),
                    tokens_css=f"toks n{min(len(here), 3)}" if here else "",
                )
            )
    placed = [c for c in page.chars if c["position"]]
    description = "".join(
        (
            f"The board, {width} by {height} squares. ",
            *(f"Exit at {sq(s)}. " for s in b["exits"]),
            *(f"Pit at {sq(s)}. " for s in b["pits"]),
            f"{len(b['stop_walls'])} stop walls. " if b["stop_walls"] else "",
            f"{len(b['redirects'])} redirecting walls. " if b["redirects"] else "",
            *(f"{page.who(c['id'])} the {c['class_name']} at {sq(c['position'])}. " for c in placed),
        )
    )
    return Board(
        width=width,
        height=height,
        css=f"dc-board cols-{width}" + (" big" if width > 16 or height > 16 else ""),
        clickable=bool(targets),
        description=description,
        squares=squares,
        stop_walls=bool(b["stop_walls"]),
        redirects=bool(b["redirects"]),
        legend_tokens=[LegendToken(c["seat_number"], page.who(c["id"]), letters(c)) for c in placed],
    )


def trail(move: dict | None) -> tuple[dict[tuple, list[Step]], tuple | None, tuple | None, str]:
    """The last move drawn on the board: its steps by square (in order, with the way each square
    was entered), where the Ninja turned around, where the move set out, and the classes of the
    mover's arrival (timed after its last step)."""
    steps: dict[tuple, list[Step]] = defaultdict(list)
    if not move or not move["path"]:
        return steps, None, None, "arrive st-0"
    path = move["path"]
    previous = move["from"]
    for n, (x, y) in enumerate(path, start=1):
        dx, dy = x - previous[0], y - previous[1]
        arrow = "→" if dx > 0 else "←" if dx < 0 else "↑" if dy > 0 else "↓"
        steps[(x, y)].append(Step(min(n, LAST_TRAIL_STEP), arrow, n == len(path)))
        previous = (x, y)
    bounce_at = None
    if move["bounced"]:
        # The Ninja turned where the path first doubles back (or at once, at its start square).
        full = [move["from"], *path]
        bounce_at = next(
            (tuple(full[i]) for i in range(1, len(full) - 1) if full[i - 1] == full[i + 1]), tuple(move["from"])
        )
    return steps, bounce_at, tuple(move["from"]), f"arrive st-{min(len(path), LAST_TRAIL_STEP)}"


def last_move(page: Page) -> LastMove | None:
    move = shown_move(page)
    if not move or not page.view["board"]:
        return None
    path = move["path"]
    return LastMove(
        card=move["card"],
        badge=f"{ARROWS[move['direction']]} {move['distance']}",
        who=page.who(move["who"]),
        verb="dashed" if move["dash"] else "moved",
        direction=move["direction"],
        distance=move["distance"],
        route=f"{sq(move['from'])} → {sq(path[-1])}" if path else "blocked at once, no step taken",
        bounced=move["bounced"],
        redirects=[sq(r) for r in move["redirects"]],
    )
