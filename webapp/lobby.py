"""The front page and the how-to-play pages."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template
from sqlalchemy import text

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
    """Liveness: the process answers."""
    return {"status": "ok"}


@bp.get("/readyz")
def readyz():
    """Readiness: 503 when the database does not answer; "degraded" (200) when only Redis does not."""
    checks = {}
    try:
        with current_app.extensions["delve_store"].engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        checks["database"] = "ok"
    except Exception as error:  # any failure means: do not send players here
        checks["database"] = f"unavailable: {error.__class__.__name__}"
    if current_app.config["REDIS_URL"]:
        try:
            import redis

            redis.Redis.from_url(current_app.config["REDIS_URL"], socket_timeout=1).ping()
            checks["redis"] = "ok"
        except Exception as error:
            checks["redis"] = f"unavailable: {error.__class__.__name__}"
    # Without the database nothing can be played: take this process out of the balancer. Without
    # Redis, play goes on (actions apply and persist; only pushes to other processes pause until
    # it is back), so pulling every process out would turn a degraded site into a dead one.
    if checks["database"] != "ok":
        return {"status": "not ready", "checks": checks}, 503
    status = "ready" if all(v == "ok" for v in checks.values()) else "degraded"
    return {"status": status, "checks": checks}, 200
