"""A solo game's hints (``domain/hints.py``): the player asks (POST, with the version the page
shows and the CSRF token), the background solver answers, and the page shows the answer: with
htmx its hint area polls the GET until the hint is there; without a script the page shows it
after a reload. Both answer with the game's board, which draws the hint area and highlights the
hinted move's button."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, request, url_for

from ..domain import hints
from ..pages import board as board_renderer
from .context import game_or_404, is_htmx, store, viewer_seat
from .games import rendered_here
from .limits import ACT, READ, limiter
from .security import check_csrf

bp = Blueprint("hints", __name__)

MOVED_ON = "The game had moved on since that click; here is where it stands now."


def _players_game(game_id: str, version_field: str | None):
    """The game, its player's seat and whether the page's version is the game's (else the
    request is answered here): 403 for anyone but its player, 400 for an unreadable version."""
    game = game_or_404(game_id)
    seat = viewer_seat(game)
    if seat is None:
        abort(403, description="Only this game's player can ask for a hint.")
    raw = version_field or ""
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
        abort(400, description="This request did not say which moment of the game it was made in. Reload the page.")
    return game, seat, int(raw) == game.version


@bp.post("/g/<game_id>/hint")
@limiter.limit(ACT)
def ask(game_id: str):
    check_csrf()
    game, seat, current = _players_game(game_id, request.form.get("version"))
    if not current:
        return board_renderer.render_game(game, seat, status=409, flash=MOVED_ON)
    hints.ask(store(), game, seat)
    if not is_htmx():
        return redirect(url_for("games.page", game_id=game.id), code=303)
    return board_renderer.render_game(game, seat)


@bp.get("/g/<game_id>/hint")
@limiter.shared_limit(READ, scope="read", deduct_when=rendered_here)
def poll(game_id: str):
    """The board with the hint asked at ``version``: still thinking, or the answer."""
    game, seat, current = _players_game(game_id, request.args.get("version"))
    if not current:
        return board_renderer.render_game(game, seat, status=409, flash=MOVED_ON)
    return board_renderer.render_game(game, seat)
