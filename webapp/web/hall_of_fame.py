"""The Hall of Fame page (``domain/hall_of_fame.py`` keeps and ranks its entries)."""

from __future__ import annotations

from flask import Blueprint, render_template, request

import rules_engine

from ..domain.hall_of_fame import SHOWN, SLUG, SORTS, entries
from .context import store

bp = Blueprint("hall_of_fame", __name__)


@bp.get("/hall-of-fame")
def page():
    sort = request.args.get("sort", "rank")
    sort = sort if sort in SORTS else "rank"
    direction = request.args.get("dir", "")
    if direction not in ("asc", "desc"):
        # Natural first directions: names and classes A→Z, turns fewest first, the rest highest first.
        direction = "asc" if sort in ("name", "class", "turns") else "desc"
    set_deals = request.args.get("deals") == "all"
    return render_template(
        "dungeon_cards/hall_of_fame.html",
        rows=entries(store(), sort=sort, direction=direction, set_deals=set_deals),
        set_deals=set_deals,
        sort=sort,
        direction=direction,
        sorts=SORTS,
        rules=rules_engine.get(SLUG),
        shown=SHOWN,
    )
