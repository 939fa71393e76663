"""A game's link, pasted into a chat app, unfurls into a preview: Open Graph and Twitter-card tags
on the game's page, and a picture of the game we draw (``/g/<id>/preview.png``, 1200 × 630, the
size the unfurlers ask for).

Unfurlers fetch without cookies and take no seat, so the preview says only what any onlooker of
the table may read: the game, the names at the table, whose turn it is, the seats still free.
It reads no game state at all (the stored record and seats only), so no hidden card, map or
deal can reach it: a solo game's preview names the game and its player, never its deal."""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from dataclasses import dataclass

from flask import url_for
from PIL import Image, ImageDraw, ImageFont

from ..domain import play
from ..domain.catalog import BY_SLUG
from ..storage.records import SeatRecord
from .viewer import store

WIDTH, HEIGHT = 1200, 630
CACHED_PICTURES = 64
"""Pictures kept per process, each for one (game, revision): a link shared in a busy group chat is
fetched by every member's app within seconds, and a new revision draws a new picture."""

BACKGROUND = (21, 19, 26)
SURFACE = (36, 32, 45)
ACCENT = (240, 184, 74)
TEXT = (236, 232, 242)
MUTED = (168, 160, 182)
MAX_NAMES = 8


@dataclass(frozen=True)
class Preview:
    """What a game's link unfurls into: the words of its tags, and the lines of its picture."""

    title: str
    description: str
    game_title: str
    names: tuple[str, ...]
    turn_name: str | None


def _host_name(record, seats: list[SeatRecord]) -> str:
    host = play.host_of(record.lobby, seats)
    return next((s.name for s in seats if s.seat == host), seats[0].name if seats else "Someone")


def preview_of(game: play.LoadedGame) -> Preview:
    """The preview of ``game``, from its stored record and seats (what every onlooker reads)."""
    entry = BY_SLUG[game.record.slug]
    record = game.record
    seats = store().seats(game.id)
    if entry.solo:
        player = next((s.name for s in seats if s.name != play.DEFAULT_SOLO_NAME), None)
        title = f"{player} is playing {entry.title}" if player else f"A game of {entry.title} on Delve"
        over = record.status == "finished"
        description = (
            "The game is over: open the link to see how it ended, or play your own."
            if over
            else "Open the link to watch it live, or play your own."
        )
        return Preview(title, description, entry.title, (), None)
    people = [s for s in seats if not s.gone]
    names = tuple(s.name for s in people)
    turn_seat = record.turn_key.split(":", 1)[0] if record.turn_key else None
    turn_name = next((s.name for s in seats if s.seat == turn_seat), None)
    title = f"{_host_name(record, seats)} invites you to {entry.title}"
    if record.status == "waiting":
        free = play.table_size(game.rules, record.options) - len(seats)
        seats_word = "seat" if free == 1 else "seats"
        description = (
            f"{free} {seats_word} free at the table: open the link to take one."
            if free > 0
            else "Every seat is taken: open the link to watch."
        )
    elif record.status == "finished":
        description = "The game is over: open the link to see how it ended."
    elif turn_name:
        description = f"{_listed(names)} at the table; it is {turn_name}'s turn. Open the link to watch."
    else:
        description = f"{_listed(names)} at the table. Open the link to watch."
    return Preview(title, description, entry.title, names, turn_name)


def _listed(names: tuple[str, ...]) -> str:
    if len(names) <= 1:
        return names[0] if names else "Nobody"
    return ", ".join(names[:-1]) + " and " + names[-1]


def tags(game: play.LoadedGame) -> dict[str, str]:
    """The page's Open Graph and Twitter-card tags (property → content), absolute URLs."""
    preview = preview_of(game)
    image = url_for("games.preview_picture", game_id=game.id, v=game.record.revision, _external=True)
    return {
        "og:site_name": "Delve",
        "og:type": "website",
        "og:title": preview.title,
        "og:description": preview.description,
        "og:url": url_for("games.page", game_id=game.id, _external=True),
        "og:image": image,
        "og:image:type": "image/png",
        "og:image:width": str(WIDTH),
        "og:image:height": str(HEIGHT),
        "og:image:alt": f"{preview.game_title} on Delve",
        "twitter:card": "summary_large_image",
        "twitter:title": preview.title,
        "twitter:description": preview.description,
        "twitter:image": image,
    }


class Pictures:
    """This process's drawn pictures, per (game, revision), the newest ``CACHED_PICTURES``."""

    def __init__(self, size: int = CACHED_PICTURES):
        self._size = size
        self._lock = threading.Lock()
        self._png: OrderedDict[tuple[str, int], bytes] = OrderedDict()

    def png(self, game: play.LoadedGame) -> bytes:
        key = (game.id, game.record.revision)
        with self._lock:
            if key in self._png:
                self._png.move_to_end(key)
                return self._png[key]
        drawn = draw(preview_of(game))
        with self._lock:
            self._png[key] = drawn
            while len(self._png) > self._size:
                self._png.popitem(last=False)
        return drawn


PICTURES = Pictures()


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    # Pillow's own scalable font: the same drawing on every machine with the pinned Pillow.
    return ImageFont.load_default(size=size)


def _fitted(draw_on: ImageDraw.ImageDraw, text: str, size: int, width: int):
    """The font at ``size`` or smaller that fits ``text`` into ``width`` pixels (text cut at 24 sizes down)."""
    while size > 24 and draw_on.textlength(text, font=_font(size)) > width:
        size -= 4
    return _font(size)


def draw(preview: Preview) -> bytes:
    """The picture of a preview: the game's name, the invitation, the table's names with the one
    whose turn it is marked, over a lantern-lit dungeon floor of our own drawing."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    pen = ImageDraw.Draw(image)
    tile = 42
    for row in range(HEIGHT // tile + 1):
        for col in range(WIDTH // tile + 1):
            # Flagstones fading out from a lantern at the bottom right: the same for every game.
            distance = ((col * tile - 1020) ** 2 + (row * tile - 520) ** 2) ** 0.5
            glow = max(0, 40 - int(distance / 22))
            shade = (28 + glow, 25 + glow * 3 // 4, 34 + glow // 3)
            pen.rectangle((col * tile + 2, row * tile + 2, col * tile + tile - 2, row * tile + tile - 2), fill=shade)
    pen.rounded_rectangle((60, 60, WIDTH - 60, HEIGHT - 60), radius=28, fill=SURFACE, outline=ACCENT, width=4)
    pen.text((110, 100), "Delve", font=_font(40), fill=ACCENT)
    pen.text((110, 160), preview.game_title, font=_fitted(pen, preview.game_title, 76, WIDTH - 220), fill=TEXT)
    pen.text((110, 270), preview.title, font=_fitted(pen, preview.title, 44, WIDTH - 220), fill=ACCENT)
    y = 350
    shown = preview.names[:MAX_NAMES]
    for index, name in enumerate(shown):
        x = 110 + (index % 4) * 250
        row_y = y + (index // 4) * 64
        turn = name == preview.turn_name
        pen.ellipse((x, row_y + 10, x + 22, row_y + 32), fill=ACCENT if turn else MUTED)
        pen.text((x + 34, row_y + 2), name[:14], font=_font(34), fill=TEXT if turn else MUTED)
    if not shown:
        pen.text((110, y), "Open the link to watch it live.", font=_font(36), fill=MUTED)
    footer = f"It is {preview.turn_name}'s turn" if preview.turn_name else "Dungeon games to play by sharing a link"
    pen.text((110, HEIGHT - 130), footer, font=_fitted(pen, footer, 32, WIDTH - 220), fill=MUTED)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
