"""The Hall of Fame page (``domain/hall_of_fame.py`` keeps and ranks its entries)."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from ..domain.hall_of_fame import FAME, GAME, SHOWN, SORTS, entries
from .context import store

bp = Blueprint("hall_of_fame", __name__)


@bp.get("/hall-of-fame")
def page():
    if GAME is None or FAME is None:
        abort(404, description="No game here keeps a Hall of Fame.")
    sort = request.args.get("sort", "rank")
    sort = sort if sort in SORTS else "rank"
    direction = request.args.get("dir", "")
    if direction not in ("asc", "desc"):
        # Natural first directions, as the game declares them (names A→Z, fewest turns first).
        direction = FAME.first_direction(sort)
    set_deals = request.args.get("deals") == "all"
    return render_template(
        FAME.page,
        rows=entries(store(), sort=sort, direction=direction, set_deals=set_deals),
        set_deals=set_deals,
        sort=sort,
        direction=direction,
        sorts=SORTS,
        rules=GAME.rules,
        shown=SHOWN,
    )
