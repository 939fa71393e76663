"""Screen-reader mode's routes: the switch every page starts with, and a game's command line.

A typed command is read by ``rules_engine.speech.read`` against the seat's commands now (worked
out from its view and legal actions, as its page's buttons are): an action goes through the very
path a clicked button takes (``service().act``: the version lock, stored before it is answered,
pushed to the other pages, undoable); a question is answered from the seat's view; anything else
is answered with why not.

Status codes: refusing a well-formed line is a conversation, not an error, so it answers 200 with
the sentence (no console error for a typo) — an unknown word (with the nearest one), a command
that does not fit now, not your turn, the game over, a spectator's typo, the rules refusing a read
action after all. A 4xx is only for a request no page sends as it is: empty (400), too long (413),
without a readable version (400), a spectator acting (403), an action typed on a board the game
has moved past (409, with the board as it stands), and a command to a game still in its waiting
room (409: the waiting room has no command line, so only a hand-made request gets there).

Every answer goes to the page's live region and its transcript (``pages/reader.py``): swapped in
for htmx, after a reload (303) without script (a 4xx comes back as the page, with its status).
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, make_response, redirect, request, url_for

import rules_engine
from rules_engine import speech as speech_kit

from ..domain import deals, play
from ..pages import board as board_renderer
from ..pages import reader
from ..storage.records import StaleVersion
from .context import browser_key, game_or_404, is_htmx, service, store, viewer_seat
from .games import _page_socket
from .limits import ACT, limiter
from .security import check_csrf

bp = Blueprint("reader", __name__)


@bp.app_template_global()
def reader_on() -> bool:
    """Whether this browser is in screen-reader mode (the switch on every page says so)."""
    return reader.reader_mode()


MAX_NEXT_CHARS = 500
MOVED_ON = "The game had moved on since that command; here is where it stands now. Type it again if it still fits."


def _safe_next(raw: str | None) -> str:
    """Where the switch sends the browser back: a path of this site, else the front page."""
    if not raw or len(raw) > MAX_NEXT_CHARS or not raw.startswith("/") or raw.startswith("//") or "\\" in raw:
        return url_for("front_page.index")
    if any(ord(ch) < 32 for ch in raw):
        return url_for("front_page.index")
    return raw.rstrip("?") or "/"


@bp.post("/reader")
def toggle():
    """Screen-reader mode on ("on" = "1") or off, remembered by this browser."""
    check_csrf()
    on = request.form.get("on", "1") == "1"
    response = redirect(_safe_next(request.form.get("next")), code=303)
    secure = current_app.config["SESSION_COOKIE_SECURE"]
    if on:
        response.set_cookie(
            reader.READER_COOKIE, "1", max_age=reader.READER_COOKIE_MAX_AGE, path="/", samesite="Lax", secure=secure
        )
    else:
        response.delete_cookie(reader.READER_COOKIE, path="/", samesite="Lax", secure=secure)
    return response


def _playing(game) -> list[str]:
    """The seats whose turn it is: the turn clock's, else every seat that may act now."""
    clock = game.rules.turn_clock(game.state)
    if clock and clock.get("seat"):
        return [str(clock["seat"])]
    return [p for p in game.record.players if game.rules.legal_actions(game.state, p)]


def _not_your_turn(game, seat: str | None) -> str | None:
    """Why ``seat`` cannot act now, when that is why a command was refused: the game is over, or
    it is someone else's turn (None: it is the seat's turn, the command just does not fit)."""
    if game.record.status == "finished" or game.rules.result(game.state) is not None:
        return "The game is over. Type status or score to hear how it ended."
    playing = _playing(game)
    if seat in playing:
        return None
    if not playing:
        return "It is not your turn."
    names = {s.seat: s.name for s in store().seats(game.id)}
    verb = "is" if len(playing) == 1 else "are"
    return f"It is not your turn: {' and '.join(names.get(p, p) for p in playing)} {verb} playing."


@bp.post("/g/<game_id>/command")
@limiter.limit(ACT)
def command(game_id: str):
    check_csrf()
    game = game_or_404(game_id)
    seat = viewer_seat(game)
    closed = deals.closed_to_onlooker(store(), game, seat, browser_key())
    if closed:
        abort(403, description=closed)
    if game.record.status == "waiting":
        abort(409, description="The game has not started yet: the host starts it from the waiting room.")
    typed = request.form.get("command", "")
    if len(typed) > reader.MAX_COMMAND_CHARS:
        abort(413, description=f"That command is too long: commands are at most {reader.MAX_COMMAND_CHARS} characters.")
    try:
        based_on = int(request.form.get("version", ""))
    except ValueError:
        abort(400, description="This command did not say which moment of the game it was typed in. Reload the page.")
    names = {s.seat: s.name for s in store().seats(game.id)} if game.rules.table else None
    view = game.rules.view(game.state, seat)
    buttons = play.action_buttons(game, seat)
    commands = reader.commands_for(game.rules, view, buttons)
    verbs = game.rules.speech.VERBS if game.rules.speech is not None else frozenset()
    reading = speech_kit.read(typed, commands, verbs)
    line = speech_kit.normalised(typed)
    if reading.topic is not None:
        answer = reader.said(reader.topic_answer(game.rules, view, reading.topic, commands), names)
        return _answered(game, seat, line, answer, 200)
    if reading.action is None:
        if not line:
            return _answered(game, seat, line, reading.text, 400)
        acting = _starts_with_a_verb(line, verbs)
        if seat is None and acting:
            return _answered(
                game,
                seat,
                line,
                "You are watching this game: only its players can act. Questions work: type help.",
                403,
            )
        # A line that does not fit is answered, not an error: the conversation goes on. One of the
        # game's words is told why not now; any other word, the nearest one (a typo of a question
        # is a typo, whoever's turn it is).
        why = _not_your_turn(game, seat) if acting else None
        return _answered(game, seat, line, why or reader.said(reading.text, names), 200)
    if seat is None:  # a spectator has no commands, so no action is read for one
        abort(403, description="You are watching this game: only its players can act.")
    if based_on != game.version:
        return _answered(game, seat, line, MOVED_ON, 409)
    label = game.rules.action_label(game.state, reading.action)
    try:
        after = service().act(game, seat, reading.action, page=_page_socket())
    except (rules_engine.InvalidAction, rules_engine.IllegalAction) as error:
        # The line was read into one of the seat's own commands: the rules refusing it after all
        # is a "not now", said, not a malformed request.
        return _answered(game, seat, line, str(error), 200)
    except StaleVersion:
        return _answered(game_or_404(game_id), seat, line, MOVED_ON, 409)
    before = board_renderer.log_mark(view["log"])
    outcome = [e["text"] for e in after.rules.view(after.state, seat)["log"] if e["seq"] > before]
    done = f"{label.rstrip('.')}."
    answer = reader.said(" ".join([done, *outcome]), names)
    # The live region says which action it was; the Log (a live region too) reads its outcome.
    return _answered(after, seat, line, answer, 200, live=reader.said(done, names))


def _starts_with_a_verb(line: str, verbs) -> bool:
    """Whether a typed line starts with one of the game's action words (an attempt to act)."""
    return line.split(" ", 1)[0] in {speech_kit.normalised(verb) for verb in verbs}


def _answered(game, seat: str | None, line: str, answer: str, status: int, live: str | None = None):
    """The answer said: kept in the transcript, then the page (a 303 to it without script, unless
    refused: a refusal's page comes with its status) or, for htmx, its blocks with the answer."""
    spoken = reader.remember(game.id, line, answer, live)
    if not is_htmx() and status < 400:
        return redirect(url_for("games.page", game_id=game.id), code=303)
    response = board_renderer.render_game(game, seat, status=status, reader=True, answer=spoken)
    return make_response(response)
