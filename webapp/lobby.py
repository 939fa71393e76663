"""The front page and the how-to-play pages."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

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
    return render_template(f"{entry.template_dir}/how_to_play.html", entry=entry)


@bp.get("/healthz")
def healthz():
    return {"status": "ok"}
