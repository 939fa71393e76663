"""Screen-reader mode: a game page drawn text-first, and the command line's answers.

The mode is this browser's choice (a long-lived cookie, ``READER_COOKIE``, set by the first
control of every page). A game page in it is drawn by ``templates/reader_game.html`` from the very
view and buttons the normal page is drawn from (``board.render_game``): the game's ``SPEECH``
module (``rules_engine/speech.py``) words them — the status, the character, the board as a grid of
cells, the choices as typed commands. Nothing here reads the state: one path for hidden
information.

The transcript (the commands typed on a game's page and their answers, newest last) is kept in
this browser's session, per game and bounded (``TRANSCRIPT_ENTRIES`` exchanges, ``TRANSCRIPT_CHARS``
characters): the session is a signed cookie, which a browser refuses past 4 KB.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import request, session

from rules_engine import speech as speech_kit
from rules_engine.cards import spoken

from ..domain import play
from .rendering import name_seats

READER_COOKIE = "delve_reader"
"""The mode's cookie: "1" while screen-reader mode is on in this browser (not HttpOnly: nothing
secret; the server reads it to choose the page)."""
READER_COOKIE_MAX_AGE = 60 * 60 * 24 * 365 * 2

MAX_COMMAND_CHARS = 200
TRANSCRIPT_KEY = "reader_transcript"
TRANSCRIPT_ENTRIES = 8
TRANSCRIPT_CHARS = 1800
"""The transcript's words at most (compressed in the session cookie): older exchanges go first,
and an answer longer than this is cut (the live region said it whole when it was given)."""
NO_BREAK_SPACE = "\u00a0"
"""Added to an answer that repeats the one before it (and left off the next repeat): a screen
reader reads a live region's text again only when it changed (lichess's trick)."""
LOG_SHOWN = 30
"""How many of the log's last lines the mode's Log section holds."""


def reader_mode() -> bool:
    """Whether this browser asked for screen-reader mode."""
    return request.cookies.get(READER_COOKIE) == "1"


@dataclass(frozen=True)
class Choice:
    """One thing the seat may do now: its typed command (or none) and the button that posts it."""

    typed: str
    words: str
    button: play.ActionButton


def commands_for(rules, view: dict[str, Any], buttons: Sequence[play.ActionButton]) -> list[speech_kit.Command]:
    """The seat's commands now (none for a game without a ``SPEECH`` module, or a spectator)."""
    if rules.speech is None:
        return []
    return list(rules.speech.commands(view, [b.action for b in buttons]))


def said(text: str, names: dict | None) -> str:
    """A sentence as the mode shows and speaks it: players by name, cards by name."""
    return spoken(name_seats(str(text), names))


def choices(commands: Sequence[speech_kit.Command], buttons: Sequence[play.ActionButton], names) -> list[Choice]:
    """Every button as a choice, named by its typed command when the game has one."""
    typed = {play.ActionButton(c.action, "", None).json: c for c in commands}
    out = []
    for b in buttons:
        command = typed.get(b.json)
        words = said(b.label, names)
        out.append(Choice(command.typed if command else "", words, b))
    return out


def topic_answer(rules, view: dict[str, Any], topic: str, commands: Sequence[speech_kit.Command]) -> str:
    """The answer to a question that does not act (``speech.TOPICS``)."""
    if topic == "help":
        return speech_kit.help_text(commands)
    if topic == "log":
        return speech_kit.log_text(view)
    described = rules.speech.describe(view, topic) if rules.speech is not None else None
    return described if described else f"This game has no {topic}."


def page_parts(rules, view: dict[str, Any], seat: str | None, buttons, names) -> dict[str, Any]:
    """What the mode's page shows beyond the normal page's context: each section in words."""
    commands = commands_for(rules, view, buttons)
    module = rules.speech

    def described(topic: str) -> str | None:
        text = module.describe(view, topic) if module is not None else None
        return said(text, names) if text else None

    grid = module.grid(view) if module is not None else None
    cells = None
    if grid is not None:
        cells = [
            [said(speech_kit.cell_words(grid, r, c), names) for c in range(len(row))] for r, row in enumerate(grid.rows)
        ]
    log = [{**line, "text": said(line["text"], names)} for line in keyed_log(view["log"])[-LOG_SHOWN:]]
    return {
        "reader": {
            "status": described("status"),
            "character": [text for text in (described("score"), described("hand")) if text],
            "board": described("board"),
            "where": described("where"),
            "grid": grid,
            "cells": cells,
            "choices": choices(commands, buttons, names),
            "has_speech": module is not None,
            "log": log,
            "transcript": transcript(),
            "live": last_live(),
            "seat": seat,
        }
    }


def keyed_log(entries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log's lines, each with its key for the Log (``static/js/reader.js`` adds a line only
    past the newest key it holds): its ``seq`` and its ``part``, its place among the lines of
    that seq — one Dungeon of Doom step logs several lines under one seq. Counted over the whole
    view's log before the Log's window (``LOG_SHOWN``) is cut, so that cut never renumbers a step's
    lines and a line has the same key on every board that brings it."""
    keyed: list[dict[str, Any]] = []
    for entry in entries:
        same_seq = bool(keyed) and keyed[-1]["seq"] == entry["seq"]
        keyed.append({"seq": entry["seq"], "part": keyed[-1]["part"] + 1 if same_seq else 0, "text": entry["text"]})
    return keyed


def transcript() -> list[dict[str, str]]:
    """This game's exchanges so far, oldest first (the session keeps the page's game's only)."""
    kept = session.get(TRANSCRIPT_KEY)
    game_id = request.view_args.get("game_id") if request.view_args else None
    if not isinstance(kept, dict) or kept.get("game") != game_id:
        return []
    return [e for e in kept.get("lines", []) if isinstance(e, dict)]


def last_live() -> str:
    """What the live region said last on this game's page (shown again after a reload)."""
    kept = session.get(TRANSCRIPT_KEY)
    game_id = request.view_args.get("game_id") if request.view_args else None
    return str(kept.get("live", "")) if isinstance(kept, dict) and kept.get("game") == game_id else ""


def remember(game_id: str, typed: str, answer: str, live: str | None = None) -> str:
    """Adds an exchange to the game's transcript; returns what the live region says: ``live``
    (an action's: its label, while the log announces its outcome) or the answer, with a no-break
    space added when it repeats the previous one word for word."""
    kept = session.get(TRANSCRIPT_KEY)
    if not isinstance(kept, dict) or kept.get("game") != game_id:
        kept = {}
    lines = list(kept.get("lines", []))
    previous = str(kept.get("live", ""))
    live = answer if live is None else live
    if previous and previous.rstrip(NO_BREAK_SPACE) == live:
        live = live if previous.endswith(NO_BREAK_SPACE) else live + NO_BREAK_SPACE
    lines.append({"said": typed, "answer": cut(answer, TRANSCRIPT_CHARS)})
    lines = lines[-TRANSCRIPT_ENTRIES:]
    while len(lines) > 1 and sum(len(e["said"]) + len(e["answer"]) for e in lines) > TRANSCRIPT_CHARS:
        lines.pop(0)
    session[TRANSCRIPT_KEY] = {"game": game_id, "lines": lines, "live": cut(live, TRANSCRIPT_CHARS)}
    return live


def cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0] + " …"
