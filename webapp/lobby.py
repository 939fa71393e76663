"""The front page and the how-to-play pages."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

import rules_engine

from .catalog import BY_SLUG, GAMES

bp = Blueprint("lobby", __name__)


@bp.get("/")
def index():
    return render_template("index.html", games=GAMES)


@bp.get("/how-to-play/<slug>")
def how_to_play(slug: str):
    entry = BY_SLUG.get(slug)
    if entry is None or not entry.playable:
        abort(404, description="There is no such game in Delve.")
    # The engine module is in the context so rules tables render from the engine's own data.
    return render_template(f"{entry.template_dir}/how_to_play.html", entry=entry, rules=rules_engine.get(slug))


@bp.get("/healthz")
def healthz():
    return {"status": "ok"}
