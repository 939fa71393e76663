"""Jinja filters shared by every game's templates."""

from __future__ import annotations

import functools
import re

import jinja2
from flask import Flask, has_request_context, make_response, render_template, request, url_for
from markupsafe import Markup, escape

from rules_engine.cards import SUIT_SYMBOLS, Card, spoken

CARD_CODE = re.compile(r"\b(10|[2-9AJQK])([SHDC])\b")
WRITTEN_CARD = re.compile(rf"{CARD_CODE.pattern}|(?<![\w♠♥♦♣])(10|[2-9AJQK])([♠♥♦♣])")
"""A card in a sentence: its code (presenters quote the view's codes) or as the engine writes it ("Q♠")."""
SUITS_BY_SYMBOL = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}

KEY_NAMES = {"ArrowUp": "↑", "ArrowDown": "↓", "ArrowLeft": "←", "ArrowRight": "→", "Enter": "⏎"}


def card(code: str) -> Card:
    return Card.parse(code)


def keyname(key: str) -> str:
    """How a shortcut is shown on its button: "ArrowUp" -> "↑", "Shift+ArrowUp" -> "⇧↑"."""
    if key.startswith("Shift+"):
        return "⇧" + keyname(key[len("Shift+") :])
    return KEY_NAMES.get(key, key.upper())


@functools.lru_cache(maxsize=4096)
def pretty_cards(text: str) -> Markup:
    """Log text with card codes shown as rank and coloured suit symbol ("QS" -> "Q♠").

    >>> str(pretty_cards("QS hits <b>")), str(pretty_cards("10♥ heals"))
    ('Q<span class="suit black">♠</span> hits &lt;b&gt;', '10<span class="suit red">♥</span> heals')
    """

    def symbol(match: re.Match) -> str:
        code_rank, code_suit, written_rank, symbol = match.groups()
        rank, suit = (code_rank, code_suit) if code_rank else (written_rank, SUITS_BY_SYMBOL[symbol])
        colour = "red" if suit in "HD" else "black"
        return f'{rank}<span class="suit {colour}">{SUIT_SYMBOLS[suit]}</span>'

    return Markup(WRITTEN_CARD.sub(symbol, str(escape(text))))


@functools.lru_cache(maxsize=4096)
def spoken_cards(text: str) -> str:
    """Log text for the live region a screen reader speaks: cards by name ("Q♠" -> "queen of spades").

    >>> spoken_cards("You attack 10♠: it is defeated.")
    'You attack 10 of spades: it is defeated.'
    """
    return spoken(text)


SEAT_ID = re.compile(r"\bp(\d{1,2})\b")


def name_seats(text: str, names: dict | None) -> str:
    """Engine log lines name seats ("p2"); pages show the players' chosen names.

    >>> name_seats("Turn 2: p2's turn.", {"p2": "Bob"})
    "Turn 2: Bob's turn."
    """
    if not names:
        return text
    return _name_seats(str(text), tuple(names.items()))


@functools.lru_cache(maxsize=4096)
def _name_seats(text: str, names: tuple) -> str:
    # Cached: every render of a table's page names the seats of the same log lines again.
    lookup = dict(names)
    return SEAT_ID.sub(lambda m: lookup.get(m.group(0), m.group(0)), text)


def log_lines(entries: list, names: dict | None, spoken: bool = False) -> Markup:
    """A log's entries (``{seq, text}``) as list items, seats named and cards drawn
    (``pretty_cards``), or, ``spoken``, as the announcer's paragraphs with cards by name.

    Every board draws up to 60 lines, nearly all of them drawn the same way for the last render
    of every seat: each line's markup is cached, and the loop runs here, not in the template.

    >>> str(log_lines([{"seq": 1, "text": "p2 attacks QS."}], {"p2": "Bob"}))
    '<li>Bob attacks Q<span class="suit black">♠</span>.</li>'
    >>> str(log_lines([{"seq": 1, "text": "p2 attacks Q♠."}], {"p2": "Bob"}, spoken=True))
    '<p>Bob attacks queen of spades.</p>'
    """
    named = tuple(names.items()) if names else ()
    return Markup("".join([_log_line(entry["text"], named, spoken) for entry in entries]))


@functools.lru_cache(maxsize=8192)
def _log_line(text: str, names: tuple, spoken: bool) -> str:
    named = _name_seats(str(text), names) if names else text
    if spoken:
        return f"<p>{escape(spoken_cards(named))}</p>"
    return f"<li>{pretty_cards(named)}</li>"


def time_left(seconds: int) -> str:
    """A countdown's words, in the format ``static/js/delve.js`` keeps it ticking in: m:ss under an
    hour, h:mm:ss under a day, then days and hours (a slow table's turn may last three days).

    >>> time_left(88), time_left(43170), time_left(183600)
    ('1:28', '11:59:30', '2 d 03 h')
    """
    seconds = max(0, int(seconds))
    if seconds >= 86400:
        return f"{seconds // 86400} d {seconds % 86400 // 3600:02d} h"
    if seconds >= 3600:
        return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
    return f"{seconds // 60}:{seconds % 60:02d}"


URL_CACHE_SIZE = 8192


def cached_url_for(endpoint: str, **values) -> str:
    """``url_for``, remembered: a board names its game's routes four or five times a render (its
    swap target, its forms, its share link) and Flask builds each of them anew, about as long as
    drawing a log line takes. A URL depends only on the endpoint, its values and the request's
    root (and, external, its scheme and host), which is what the cache is keyed by. A relative
    endpoint (".page") depends on the request's blueprint, and a URL made outside a request on
    the app's configuration: both are built anew every time."""
    if endpoint.startswith(".") or not has_request_context():
        return url_for(endpoint, **values)
    environ = request.environ
    # What the URL is made of, read from the environ as it came (building ``request.host_url`` is
    # the costlier part of the lookup): the root, and for an external URL the scheme and host.
    where: tuple = (environ.get("SCRIPT_NAME"),)
    if values.get("_external"):
        where += tuple(environ.get(name) for name in ("wsgi.url_scheme", "HTTP_HOST", "SERVER_NAME", "SERVER_PORT"))
    key = (endpoint, where, tuple(values.items()))
    try:
        return _built_urls(key)
    except TypeError:  # a value that cannot key a cache (a list of query values): built anew
        return url_for(endpoint, **values)


@functools.lru_cache(maxsize=URL_CACHE_SIZE)
def _built_urls(key: tuple) -> str:
    endpoint, _where, values = key
    return url_for(endpoint, **dict(values))


class Template(jinja2.Template):
    """Jinja's template, with cheaper contexts and ``{% from ... import ... %}`` inside a block.

    Jinja keeps a template's globals as a ``ChainMap`` (the environment's, then the template's)
    and copies it into a plain dict, walking its keys, for every context it makes: once for each
    block of every board (a board is two blocks), a twentieth of a pushed board's cost. Every
    board also imports its macros inside the blocks htmx swaps (a block is rendered on its own),
    and Jinja's check for render-time globals compared key sets through the same ``ChainMap`` on
    every import. Delve adds its globals once, when the app is made, so each template flattens
    its globals once, and the import check becomes one set difference; anything else (a render
    with globals of its own, shared or local variables) is Jinja's own path."""

    def _flat_globals(self) -> dict:
        flat = self.__dict__.get("_delve_globals")
        if flat is None:
            flat = self.__dict__["_delve_globals"] = dict(self.globals)
        return flat

    def new_context(self, vars=None, shared=False, locals=None):
        if shared or locals:
            return super().new_context(vars, shared, locals)
        flat = self._flat_globals()
        parent = {**flat, **vars} if vars else dict(flat)
        return self.environment.context_class(self.environment, parent, self.name, self.blocks, globals=flat)

    def _get_default_module(self, ctx=None):
        if ctx is not None:
            if ctx.globals_keys - self._flat_globals().keys():
                return super()._get_default_module(ctx)
            if self._module is None:
                self._module = self.make_module()
            return self._module
        return super()._get_default_module(ctx)


def init_app(app: Flask) -> None:
    app.jinja_env.template_class = Template
    from .presenters.dungeon_map import dungeon_svg

    app.jinja_env.globals["draw_dungeon"] = dungeon_svg
    app.jinja_env.globals["log_lines"] = log_lines
    app.jinja_env.globals["url_for"] = cached_url_for
    app.jinja_env.filters["name_seats"] = name_seats
    app.jinja_env.filters["pretty_cards"] = pretty_cards
    app.jinja_env.filters["spoken_cards"] = spoken_cards
    app.jinja_env.filters["card"] = card
    app.jinja_env.filters["keyname"] = keyname
    app.jinja_env.filters["time_left"] = time_left


def refusal(status: int, message: str):
    """The answer to a refused request: the flash area's message for htmx, else an error page."""
    if request.headers.get("HX-Request") == "true":
        response = make_response(render_template("_flash.html", message=message, status=status), status)
        # The board stays as it is; only the flash area shows the message.
        response.headers["HX-Retarget"] = "#flash"
        response.headers["HX-Reswap"] = "innerHTML"
        return response
    return make_response(render_template("error.html", message=message, status=status), status)
