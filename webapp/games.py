"""Routes of a game: create, the page, one action, this viewer's fragments, rematch."""

from __future__ import annotations

import logging

from flask import Blueprint, abort, current_app, make_response, redirect, render_template, request, url_for
from jinja2_fragments.flask import render_blocks

import rules_engine

from . import play
from . import seats as seat_tokens
from .catalog import BY_SLUG, parse_options
from .realtime import notify_changed
from .security import check_csrf
from .store import StaleVersion, Store

bp = Blueprint("games", __name__)
log = logging.getLogger("delve.games")

FRAGMENT_BLOCKS = ["game", "announce"]


def store() -> Store:
    return current_app.extensions["delve_store"]


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def game_or_404(game_id: str) -> play.LoadedGame:
    game = play.load_game(store(), game_id)
    if game is None:
        abort(404, description="There is no game at this address. It may have been mistyped.")
    return game


def viewer_seat(game: play.LoadedGame) -> str | None:
    return seat_tokens.seat_for(request, store().seat_hashes(game.id))


def _log_seen() -> int | None:
    try:
        return max(0, int(request.values.get("log_seen", "")))
    except ValueError:
        return None


def render_game(game: play.LoadedGame, seat: str | None, *, flash: str | None = None, status: int = 200, log_seen=None):
    entry = BY_SLUG[game.record.slug]
    view = game.rules.view(game.state, seat)
    log_entries = view.get("log", [])
    seen = log_seen if log_seen is not None else len(log_entries)
    context = dict(
        entry=entry,
        rules=game.rules,
        game_id=game.id,
        version=game.version,
        view=view,
        seat=seat,
        buttons=play.action_buttons(game, seat),
        result=game.rules.result(game.state),
        flash=flash,
        new_log=log_entries[seen:] if seen < len(log_entries) else [],
        share_url=url_for("games.page", game_id=game.id, _external=True),
        fragment=is_htmx(),
    )
    template = f"{entry.template_dir}/game.html"
    if is_htmx():
        body = render_blocks(template, FRAGMENT_BLOCKS, **context)
    else:
        body = render_template(template, **context)
    response = make_response(body, status)
    response.headers["Vary"] = "HX-Request, Cookie"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/games")
def create():
    check_csrf()
    entry = BY_SLUG.get(request.form.get("game", ""))
    if entry is None or not entry.playable:
        abort(404, description="That game is not available to play yet.")
    try:
        options = parse_options(entry, request.form)
        game_id, token = play.start_game(store(), entry.slug, options)
    except rules_engine.InvalidAction as error:
        abort(400, description=f"Could not start the game: {error}")
    response = redirect(url_for("games.page", game_id=game_id), code=303)
    seat_tokens.give_seat(response, game_id, token, secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response


@bp.get("/g/<game_id>")
def page(game_id: str):
    game = game_or_404(game_id)
    return render_game(game, viewer_seat(game))


@bp.get("/g/<game_id>/board")
def board(game_id: str):
    game = game_or_404(game_id)
    return render_game(game, viewer_seat(game), log_seen=_log_seen())


@bp.post("/g/<game_id>/act")
def act(game_id: str):
    check_csrf()
    game = game_or_404(game_id)
    seat = viewer_seat(game)
    log_seen = _log_seen()
    if seat is None:
        abort(403, description="You are watching this game: only the player who started it can act.")
    try:
        based_on = int(request.form.get("version", ""))
    except ValueError:
        abort(400, description="This request did not say which moment of the game it was made in. Reload the page.")
    if based_on != game.version:
        return render_game(
            game, seat, status=409, log_seen=log_seen,
            flash="The game had moved on since that click; here is where it stands now.",
        )
    try:
        action = play.action_from_form(request.form)
        version, new_state = play.act(store(), game, seat, action)
    except rules_engine.InvalidAction as error:
        abort(400, description=str(error))
    except rules_engine.IllegalAction as error:
        abort(422, description=str(error))
    except StaleVersion:
        fresh = game_or_404(game_id)
        return render_game(
            fresh, seat, status=409, log_seen=log_seen,
            flash="The game had moved on since that click; here is where it stands now.",
        )
    notify_changed(game.id, version)
    if not is_htmx():
        return redirect(url_for("games.page", game_id=game.id), code=303)
    return render_game(game.advanced(version, new_state), seat, log_seen=log_seen)


def _start_from(game_id: str, *, same_deal: bool):
    check_csrf()
    old = game_or_404(game_id)
    if same_deal and old.rules.result(old.state) is None:
        abort(409, description="The same deal can be replayed once this game is over.")
    try:
        new_id, token = play.start_game(
            store(), old.record.slug, old.record.options, seed=old.record.seed if same_deal else None
        )
    except rules_engine.InvalidAction as error:  # options were valid when stored; a rules change could refuse them
        abort(400, description=f"Could not start the game: {error}")
    response = redirect(url_for("games.page", game_id=new_id), code=303)
    seat_tokens.give_seat(response, new_id, token, secure=current_app.config["SESSION_COOKIE_SECURE"])
    if is_htmx():
        response.headers["HX-Redirect"] = url_for("games.page", game_id=new_id)
    return response


@bp.post("/g/<game_id>/rematch")
def rematch(game_id: str):
    return _start_from(game_id, same_deal=True)


@bp.post("/g/<game_id>/new")
def new_with_same_options(game_id: str):
    return _start_from(game_id, same_deal=False)
