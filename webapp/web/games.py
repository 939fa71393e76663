"""Routes of a game: create, the page, one action, this viewer's fragments, rematch (the board
itself is drawn by ``pages/board.py``)."""

from __future__ import annotations

import logging
import random

from flask import Blueprint, abort, current_app, g, make_response, redirect, request, url_for

import rules_engine
from rules_engine import undo as undo_rules

from ..domain import bots, deal_pools, deals, play
from ..domain.catalog import BY_SLUG, clean_name, parse_options
from ..domain.service import Refused
from ..pages import board as board_renderer
from ..pages import link_preview
from ..pages.board import log_seen_param
from ..pages.presenters import answer_for
from ..storage.records import StaleVersion
from .context import (
    browser_key,
    game_or_404,
    is_htmx,
    note_seat,
    service,
    store,
    viewer_seat,
    viewer_seat_and_roster,
)
from .limits import ACT, CREATE_GAME, READ, limiter
from .seat_cookies import give_seat, request_origin
from .security import check_csrf

bp = Blueprint("games", __name__)
log = logging.getLogger("delve.games")


def _page_socket() -> str | None:
    """The socket of the page that sent this request (``X-Delve-Socket``, set by its script)."""
    sid = request.headers.get("X-Delve-Socket", "")
    return sid if 0 < len(sid) <= 64 else None


def rendered_here(_response) -> bool:
    """Whether this request rendered its page (what the read limit counts): a spectator's board
    served from the shared cache costs next to nothing, so a crowd behind one address is not
    held up by it."""
    return not g.get("served_from_cache", False)


@bp.post("/games")
@limiter.limit(CREATE_GAME)
def create():
    check_csrf()
    entry = BY_SLUG.get(request.form.get("game", ""))
    if entry is None or not entry.playable:
        abort(404, description="That game is not available to play yet.")
    try:
        options = parse_options(
            entry, request.form, request.files, allow_test_options=current_app.config["TEST_OPTIONS"]
        )
        if entry.solo:
            if request.form.get("winnable"):
                game_id, token = _deal_winnable(entry.slug, options)
            else:
                game_id, token = play.start_game(store(), entry.slug, options)
            if request.form.get("practice"):
                _open_as_practice(game_id)
        else:
            name = clean_name(request.form.get("name"), "Host")
            game_id, token = play.open_table(store(), entry.slug, options, name=name)
    except rules_engine.InvalidAction as error:
        abort(400, description=f"Could not start the game: {error}")
    note_seat(game_id, play.SOLO_SEAT)  # the creator's seat: p1, solo or host
    response = redirect(url_for("games.page", game_id=game_id), code=303)
    give_seat(response, game_id, token, secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response


def _deal_winnable(slug: str, options: dict) -> tuple[str, str]:
    """A solo game dealt from its pool of deals the solver proved winnable (``deal_pools``): at
    once, or 503 when none is ready (nothing is solved in a request; a refill is queued)."""
    game = deal_pools.POOL_GAMES.get(slug)
    if game is None:
        abort(400, description="This game has no winnable deals to offer.")
    if deal_pools.pool_for(slug, options) is None:
        abort(400, description=game.off_pool)
    started = deal_pools.start_winnable_game(store(), slug, options, target=current_app.config["DEAL_POOL_SIZE"])
    if started is None:
        abort(503, description=game.not_ready)
    return started


def _open_as_practice(game_id: str) -> None:
    """A solo game opened as practice: its first logged action is the switch, played through the
    game service like any other (so its writers mark the game, and replays and imports of the
    log make it practice again), before anybody has seen the game."""
    game = play.load_game(store(), game_id)
    assert game is not None  # just stored
    service().act(game, play.SOLO_SEAT, {"type": undo_rules.PRACTICE})


PLAY_NOW_BOTS = (1, 2, 3)
"""How many bots "Play now with bots" offers (the front page's select)."""


@bp.app_template_global()
def play_now_bots(entry) -> tuple[int, ...]:
    """The bot counts the front page offers for a game's "Play now with bots" (none: no bots)."""
    if entry.solo or not bots.supports_bots(entry.slug):
        return ()
    return tuple(n for n in PLAY_NOW_BOTS if n < entry.rules.max_players)


@bp.app_template_global()
def winnable_offer(entry) -> deal_pools.PoolGame | None:
    """The pools of winnable deals a solo game's creation form offers ("Winnable deals only")."""
    return deal_pools.POOL_GAMES.get(entry.slug)


@bp.post("/games/with-bots")
@limiter.limit(CREATE_GAME)
def play_with_bots():
    """ "Play now with bots": one press opens a table, its creator hosting in the first seat and
    ``bots`` normal bots beside them (1 to 3, as the table allows), and starts it. It is the
    front page's creation form posted here by its second button, so the options the creator set
    on the card (a map, a table size) hold. Where seats choose in the waiting room (Dungeon
    Cards' class) the creator's choice may come with the form (empty: any free one, at random)
    and each bot takes a free one. Everything is checked before the table is stored, and a
    start the table refuses removes it again: a refused press leaves nothing behind."""
    check_csrf()
    entry = BY_SLUG.get(request.form.get("game", ""))
    if entry is None or entry.solo or not entry.playable or not bots.supports_bots(entry.slug):
        abort(404, description="That game has no bots to play with.")
    raw = request.form.get("bots", "1")
    if raw not in {str(n) for n in PLAY_NOW_BOTS}:
        abort(400, description=f"Play with {PLAY_NOW_BOTS[0]} to {PLAY_NOW_BOTS[-1]} bots.")
    count = int(raw)
    mine = {}
    for field in entry.lobby_fields:
        value = request.form.get(field.name, "")
        if value and value not in {str(v) for v, _label in field.choices}:
            abort(400, description=f"{field.label}: choose one of the listed options.")
        if value:
            mine[field.name] = value
    try:
        options = parse_options(
            entry, request.form, request.files, allow_test_options=current_app.config["TEST_OPTIONS"]
        )
    except rules_engine.InvalidAction as error:
        abort(400, description=f"Could not start the game: {error}")
    if count >= play.table_size(entry.rules, options):
        abort(400, description="This table has no room for that many bots.")
    try:
        game_id, token = play.open_table(
            store(), entry.slug, options, name=clean_name(request.form.get("name"), "Host")
        )
    except rules_engine.InvalidAction as error:
        abort(400, description=f"Could not start the game: {error}")
    try:
        if mine:
            # Written before the bots sit down, so none of them takes it; the table's size, which a
            # choice may need (the Mage: a party), is checked by the start.
            opened = play.load_game(store(), game_id)
            assert opened is not None  # just stored
            lobby = dict(opened.record.lobby, choices={play.SOLO_SEAT: mine})
            store().set_lobby(game_id, lobby, expected_revision=opened.record.revision)
        origin = request_origin()
        for _bot in range(count):
            service().add_bot(_loaded(game_id), play.SOLO_SEAT, "normal", origin)
        _choose_for_creator(game_id, entry)
        service().start(_loaded(game_id), play.SOLO_SEAT, origin)
    except Refused:
        # Nobody has seen the table yet: a refused press leaves nothing behind.
        store().delete_waiting_table(game_id)
        raise
    note_seat(game_id, play.SOLO_SEAT)
    response = redirect(url_for("games.page", game_id=game_id), code=303)
    give_seat(response, game_id, token, secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response


def _loaded(game_id: str) -> play.LoadedGame:
    game = play.load_game(store(), game_id)
    assert game is not None  # a table this request opened
    return game


def _choose_for_creator(game_id: str, entry) -> None:
    """The creator's lobby choices that the form left open: a free value at random, as a bot's."""
    game = play.load_game(store(), game_id)
    assert game is not None
    picked = game.record.lobby.get("choices", {})
    held = {field: {c.get(field) for c in picked.values()} for field in entry.unique_lobby_fields}
    size = len(store().seats(game_id))
    wanted = {}
    for field in entry.lobby_fields:
        if field.name in picked.get(play.SOLO_SEAT, {}):
            continue
        free = [
            str(v)
            for v, _label in field.choices
            if str(v) not in held.get(field.name, set()) and not game.rules.lobby_choice_problem(field.name, v, size)
        ]
        if free:
            wanted[field.name] = random.choice(free)
    if wanted:
        service().choose(game, play.SOLO_SEAT, name=None, choices=wanted)


@bp.get("/g/<game_id>")
@limiter.shared_limit(READ, scope="read", deduct_when=rendered_here)
def page(game_id: str):
    game = game_or_404(game_id)
    seat = viewer_seat(game)
    closed = deals.closed_to_onlooker(store(), game, seat, browser_key())
    if closed:
        abort(403, description=closed)
    return board_renderer.render_game(game, seat)


@bp.get("/g/<game_id>/preview.png")
@limiter.shared_limit(READ, scope="read")
def preview_picture(game_id: str):
    """The picture a link to the game unfurls with (``pages/link_preview.py``): drawn from what any
    onlooker reads, once per revision, fetched by chat apps' servers without cookies."""
    game = game_or_404(game_id)
    if deals.closed_to_onlooker(store(), game, None, None):
        abort(403, description="This game's page is closed to onlookers for now.")
    response = make_response(link_preview.PICTURES.png(game))
    response.headers["Content-Type"] = "image/png"
    # Any cache may keep it a few minutes: the page's tag names the revision it shows (?v=).
    response.headers["Cache-Control"] = "public, max-age=300"
    # Shown by other sites (the chat apps' previews), unlike the rest of Delve.
    response.headers["Cross-Origin-Resource-Policy"] = "cross-origin"
    return response


@bp.get("/g/<game_id>/board")
@limiter.shared_limit(READ, scope="read", deduct_when=rendered_here)
def board(game_id: str):
    return board_renderer.board_response(game_id)


@bp.get("/answers/<slug>/<question>")
@limiter.shared_limit(READ, scope="read")
def page_answer(slug: str, question: str):
    """A question a game's page asks while the player composes an action (its presenter's
    ``ANSWERS``), answered from the query alone: read-only and tied to no game, since the page
    already holds everything it sends and the server checks the action itself when it comes."""
    entry = BY_SLUG.get(slug)
    answer = answer_for(entry.template_dir, question) if entry else None
    if answer is None:
        abort(404)
    try:
        fragment = answer(request.args, request.args.to_dict(flat=False))
    except ValueError:
        abort(400)
    return str(fragment), 200, {"Content-Type": "text/html; charset=utf-8"}


@bp.post("/g/<game_id>/act")
@limiter.limit(ACT)
def act(game_id: str):
    check_csrf()
    game = game_or_404(game_id)
    seat, roster = viewer_seat_and_roster(game)
    log_seen = log_seen_param()
    if seat is None:
        abort(403, description="You are watching this game: only its players can act.")
    if game.record.status == "waiting":
        abort(409, description="The game has not started yet: the host starts it from the waiting room.")
    try:
        based_on = int(request.form.get("version", ""))
    except ValueError:
        abort(400, description="This request did not say which moment of the game it was made in. Reload the page.")
    if based_on != game.version:
        return board_renderer.render_game(
            game,
            seat,
            status=409,
            log_seen=log_seen,
            flash="The game had moved on since that click; here is where it stands now.",
        )
    try:
        action = play.action_from_form(request.form)
        after = service().act(game, seat, action, page=_page_socket(), roster=roster)
    except rules_engine.InvalidAction as error:
        abort(400, description=str(error))
    except rules_engine.IllegalAction as error:
        abort(422, description=str(error))
    except StaleVersion:
        fresh = game_or_404(game_id)
        return board_renderer.render_game(
            fresh,
            seat,
            status=409,
            log_seen=log_seen,
            flash="The game had moved on since that click; here is where it stands now.",
        )
    if not is_htmx():
        return redirect(url_for("games.page", game_id=game.id), code=303)
    # Labelled in the state the undo restores, the one the move was played in.
    undone = undo_rules.move_to_undo(game.state) if action.get("type") == undo_rules.UNDO else None
    # An undo's visible result: its board (the log shorter by the move's lines) says which move went.
    flash = f"Undone: {after.rules.action_label(after.state, undone).rstrip('.')}." if undone is not None else None
    return board_renderer.render_game(after, seat, log_seen=log_seen, flash=flash)


def _start_from(game_id: str, *, same_deal: bool):
    """A solo game's player starts another from the finished one: the same deal, or a new deal
    with the same options. Only that player, and only once the game is over: the options may hold
    what nobody else has seen (a stacked deck), and a copy of a running deal would be a peek."""
    check_csrf()
    old = game_or_404(game_id)
    if not BY_SLUG[old.record.slug].solo:
        abort(409, description="A table plays again with everyone seated: use “Play again” at the end of its game.")
    if viewer_seat(old) is None:
        abort(403, description="Only this game's player can start it again; start your own game from the front page.")
    if old.record.status != "finished":
        abort(409, description="This game is still running: it can be started again once it is over.")
    try:
        if same_deal or old.record.deal_kind != deal_pools.WINNABLE:
            new_id, token = play.start_game(
                store(),
                old.record.slug,
                old.record.options,
                seed=old.record.seed if same_deal else None,
                lobby={"same_deal_as": old.id} if same_deal else None,
                deal_kind=old.record.deal_kind if same_deal else deal_pools.ANY,
            )
        else:
            # A new deal for a winnable game's player is winnable too, as their first was.
            new_id, token = _deal_winnable(old.record.slug, old.record.options)
    except rules_engine.InvalidAction as error:  # options were valid when stored; a rules change could refuse them
        abort(400, description=f"Could not start the game: {error}")
    if undo_rules.is_practice(old.state):
        # Playing again keeps the mode the player chose: a practice game's next game is practice.
        _open_as_practice(new_id)
    deal = deals.deal_of(store(), old.id) if same_deal else None
    if deal is not None:
        # The same shared deal again is one more attempt on it, and always practice (whatever
        # cookies came with the request: this game's player has played the deal), so its replay
        # stays closed as the deal's others are.
        deals.add_attempt(store(), deal, new_id, browser_key(create=True) or "", request_origin(), practice=True)
    note_seat(new_id, play.SOLO_SEAT)
    response = redirect(url_for("games.page", game_id=new_id), code=303)
    give_seat(response, new_id, token, secure=current_app.config["SESSION_COOKIE_SECURE"])
    if is_htmx():
        response.headers["HX-Redirect"] = url_for("games.page", game_id=new_id)
    return response


@bp.post("/g/<game_id>/rematch")
@limiter.limit(CREATE_GAME)
def rematch(game_id: str):
    return _start_from(game_id, same_deal=True)


@bp.post("/g/<game_id>/new")
@limiter.limit(CREATE_GAME)
def new_with_same_options(game_id: str):
    return _start_from(game_id, same_deal=False)
