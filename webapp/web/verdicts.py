"""The "Your deal" section of a finished solo game's end panel, on its own: what the section asks
for every two seconds while the solver works (``pages/verdicts.py`` draws it)."""

from __future__ import annotations

from flask import Blueprint, abort, make_response, render_template

from ..domain import deals
from ..pages.verdicts import verdict_for
from ..pages.viewer import browser_key, game_or_404, store, viewer_seat
from .limits import READ, limiter

bp = Blueprint("verdicts", __name__)


@bp.get("/g/<game_id>/verdict")
@limiter.shared_limit(READ, scope="read")
def section(game_id: str):
    game = game_or_404(game_id)
    if game.record.status != "finished":
        abort(409, description="This game is still being played: its deal is judged once it ends.")
    seat = viewer_seat(game)
    closed = deals.closed_to_onlooker(store(), game, seat, browser_key())
    if closed:
        abort(403, description=closed)
    verdict = verdict_for(game, seat)
    if verdict is None:
        abort(404, description="This game's deal gets no verdict.")
    response = make_response(render_template("_verdict.html", verdict=verdict))
    response.headers["Vary"] = "Cookie"
    response.headers["Cache-Control"] = "no-store"
    return response
