"""Routes of a game: create, the page, one action, this viewer's fragments, rematch."""

from __future__ import annotations

import dataclasses
import logging
import random
import threading
import time
from collections import OrderedDict
from typing import Any

from flask import Blueprint, abort, current_app, g, make_response, redirect, render_template, request, url_for
from jinja2_fragments.flask import render_blocks

import rules_engine

from . import bots, browsers, deals, play
from . import seats as seat_tokens
from .catalog import BY_SLUG, clean_name, parse_options
from .errors import refusal
from .limits import ACT, CREATE_GAME, READ, limiter
from .presenters import Scene, present
from .rendering import name_seats
from .security import check_csrf
from .service import GameService, Refused, takes_bots
from .store import StaleVersion, Store

bp = Blueprint("games", __name__)
log = logging.getLogger("delve.games")

FRAGMENT_BLOCKS = ["game", "announce"]


def store() -> Store:
    return current_app.extensions["delve_store"]


def service() -> GameService:
    return current_app.extensions["delve_service"]


def rendered_here(_response) -> bool:
    """Whether this request rendered its page (what the read limit counts): a spectator's board
    served from the shared cache costs next to nothing, so a crowd behind one address is not
    held up by it."""
    return not g.get("served_from_cache", False)


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def prefetched_for(game_id: str):
    """For a pushed board (``board_push``): what was read once for every page of this game at
    this revision, and the seat this page's socket proved; None for a request of its own."""
    prefetched = g.get("prefetched")
    return prefetched if prefetched is not None and prefetched.game.id == game_id else None


def game_or_404(game_id: str) -> play.LoadedGame:
    prefetched = prefetched_for(game_id)
    if prefetched is not None:
        return prefetched.game
    game = play.load_game(store(), game_id)
    if game is None:
        abort(404, description="There is no game at this address. It may have been mistyped.")
    return game


def viewer_seat(game: play.LoadedGame) -> str | None:
    prefetched = prefetched_for(game.id)
    if prefetched is not None:
        # A pushed board: its page's socket proved the seat (board_push); the seat cookie, scoped
        # to the game's pages, never reaches the socket.
        return prefetched.seat
    return seat_tokens.seat_for(request, store().seat_hashes(game.id))


LOG_SEEN_DIGITS = 9


def _log_seen() -> int | None:
    """How much of the log the page has shown: a whole number, or absent; anything else is 400
    (the spectators' shared fragments are keyed by it, so a made-up value must not reach a key)."""
    raw = request.values.get("log_seen")
    if raw is None or raw == "":
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= LOG_SEEN_DIGITS):
        abort(400, description="This request's log position is not a whole number. Reload the page.")
    return int(raw)


def _page_socket() -> str | None:
    """The socket of the page that sent this request (``X-Delve-Socket``, set by its script)."""
    sid = request.headers.get("X-Delve-Socket", "")
    return sid if 0 < len(sid) <= 64 else None


def _board_page() -> str:
    """Which page asks for the board: the game page ("") or the waiting room ("waiting")."""
    page = request.args.get("page", "")
    if page not in ("", "waiting"):
        abort(400, description="This request asked for a page we do not have. Reload the page.")
    return page


def log_mark(entries: list) -> int:
    """Where the log ends: its last entry's ``seq`` (every view's log is ``{seq, text}`` entries)."""
    return int(entries[-1]["seq"]) if entries else 0


def entries_after(entries: list, seen: int | None) -> list:
    """The log entries a page has not shown yet (the announcer reads them out)."""
    if seen is None:
        return []
    return [e for e in entries if e["seq"] > seen]


def seat_rows(game: play.LoadedGame, now: float, viewer: str | None = None) -> list[dict]:
    """The table's seats for the roster: name, presence, and seconds left before an absent seat is dropped.

    The viewer's own request counts as presence (10.6: an open socket *or* a request in the last
    60 s), so a seat playing over plain HTTP is not dropped. Its ``last_seen`` is written only
    when older than REQUEST_SEEN_EVERY seconds: a busy page does not write on every request.
    A player whose seat a bot kept while they were away has it back with this request.

    ``bot``: the level of the bot that plays the seat (None: a person); ``kept``: a bot plays it
    until its player is back."""
    from .presence import GRACE_SECONDS, REQUEST_SEEN_EVERY

    rows = []
    prefetched = prefetched_for(game.id)
    records = prefetched.seats if prefetched is not None else store().seats(game.id)
    if viewer is not None and prefetched is None and any(s.seat == viewer and s.kept for s in records):
        service().reclaim(game.id, viewer)
        records = store().seats(game.id)
    host = play.host_of(game.record.lobby, records)
    for s in records:
        last_seen = s.last_seen
        if s.seat == viewer and not s.gone and now - last_seen >= REQUEST_SEEN_EVERY:
            store().seen([(game.id, s.seat)])
            last_seen = now
        drop_in = None
        if game.record.status == "running" and not s.connected and not s.gone and not s.bot:
            drop_in = max(0, int(last_seen + GRACE_SECONDS - now))
        rows.append(
            {
                "seat": s.seat,
                "name": s.name,
                "connected": s.connected,
                "gone": s.gone,
                "drop_in": drop_in,
                "host": host == s.seat,
                "bot": s.bot,
                "kept": s.kept,
            }
        )
    return rows


def _solo_player_name(game: play.LoadedGame, seat: str | None, solo: bool) -> dict[str, str]:
    """The name onlookers read a solo game's player by (a challenge's or a daily deal's player
    gives one); {} for the player's own page, and for the default name ("The player" reads better
    than "Adventurer")."""
    if not solo or seat is not None:
        return {}
    prefetched = prefetched_for(game.id)
    records = prefetched.seats if prefetched is not None else store().seats(game.id)
    return {s.seat: s.name for s in records if s.name != play.DEFAULT_SOLO_NAME}


def _onlookers_words(entries: list, players_words: str, onlookers_words: str) -> list:
    return [{**e, "text": onlookers_words} if e["text"] == players_words else e for e in entries]


def render_game(game: play.LoadedGame, seat: str | None, *, flash: str | None = None, status: int = 200, log_seen=None):
    entry = BY_SLUG[game.record.slug]
    now = time.time()
    context: dict[str, Any] = dict(
        entry=entry,
        rules=game.rules,
        game_id=game.id,
        version=game.version,
        revision=game.record.revision,
        seat=seat,
        flash=flash,
        share_url=url_for("games.page", game_id=game.id, _external=True),
        fragment=is_htmx(),
        new_log=[],
    )
    ticket = None
    if seat is not None and not context["fragment"]:
        from .connections import ticket_for

        # The page proves its seat to its socket with this (the seat cookie never reaches the
        # socket), which then pushes it that seat's boards (board_push).
        ticket = context["viewer_ticket"] = ticket_for(current_app, game.id, seat)
    if not entry.solo:
        seats = seat_rows(game, now, viewer=seat)
        names = {row["seat"]: row["name"] for row in seats}
        context.update(
            seats=seats,
            names=names,
            turn_deadline_in=(max(0, int(game.record.turn_deadline - now)) if game.record.turn_deadline else None),
        )
        if not context["fragment"]:
            # The chat and the presence ticket sit outside the blocks htmx swaps: a fragment (every
            # action and every push) never draws them, so it does not read the chat table.
            context.update(
                presence_ticket=ticket,
                chat=store().chat(game.id),
            )
    if game.record.status == "waiting":
        template = "_waiting_room.html"
        context.update(
            lobby=game.record.lobby,
            table_size=play.table_size(game.rules, game.record.options),
            is_host=seat is not None and any(row["host"] and row["seat"] == seat for row in context["seats"]),
            bot_levels=bots.LEVELS if takes_bots(game.record) else (),
            view=None,
            buttons=[],
            result=None,
        )
        blocks = ["game"]
    else:
        view = game.rules.view(game.state, seat)
        log_entries = view["log"]
        buttons = play.action_buttons(game, seat, entry.keys)
        if context.get("names"):
            buttons = [dataclasses.replace(b, label=name_seats(b.label, context["names"])) for b in buttons]
        result = game.rules.result(game.state)
        context.update(
            view=view,
            buttons=buttons,
            result=result,
            log_mark=log_mark(log_entries),
            new_log=entries_after(log_entries, log_seen),
            next_game=game.record.lobby.get("next"),
        )
        context.update(
            present(
                entry.template_dir,
                Scene(
                    rules=game.rules,
                    view=view,
                    seat=seat,
                    buttons=buttons,
                    result=result,
                    names=context.get("names") or _solo_player_name(game, seat, entry.solo),
                    new_log=context["new_log"],
                ),
            )
        )
        ending = context.get("ending")
        if isinstance(ending, dict) and ending.get("record") and seat is not None:
            # The player's own page of a finished game: where it leaves their record here.
            closed = deals.replay_closed_because(game.id)
            context["ending"] = {
                **ending,
                "standing": browsers.standing(store(), browsers.browser_key(), game.record.slug, game.id),
                "replay_closed": closed[1] if closed else None,
            }
        elif isinstance(ending, dict) and result and ending.get("text") not in (None, result["text"]):
            # An onlooker: the log's closing line is the result's sentence, which the engine
            # words for the player ("You died…"); it reads as the result box says it.
            context["view"], context["new_log"] = (
                {**view, "log": _onlookers_words(view["log"], result["text"], ending["text"])},
                _onlookers_words(context["new_log"], result["text"], ending["text"]),
            )
        template = f"{entry.template_dir}/game.html"
        blocks = FRAGMENT_BLOCKS
    if is_htmx():
        body = render_blocks(template, blocks, **context)
    else:
        body = render_template(template, **context)
    response = make_response(body, status)
    response.headers["Vary"] = "HX-Request, Cookie"
    response.headers["Cache-Control"] = "no-store"
    return response


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
            game_id, token = play.start_game(store(), entry.slug, options)
        else:
            name = clean_name(request.form.get("name"), "Host")
            game_id, token = play.open_table(store(), entry.slug, options, name=name)
    except rules_engine.InvalidAction as error:
        abort(400, description=f"Could not start the game: {error}")
    browsers.note_seat(store(), game_id, play.SOLO_SEAT)  # the creator's seat: p1, solo or host
    response = redirect(url_for("games.page", game_id=game_id), code=303)
    seat_tokens.give_seat(response, game_id, token, secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response


PLAY_NOW_BOTS = (1, 2, 3)
"""How many bots "Play now with bots" offers (the front page's select)."""


@bp.app_template_global()
def play_now_bots(entry) -> tuple[int, ...]:
    """The bot counts the front page offers for a game's "Play now with bots" (none: no bots)."""
    if entry.solo or not bots.supports_bots(entry.slug):
        return ()
    return tuple(n for n in PLAY_NOW_BOTS if n < entry.rules.max_players)


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
        origin = seat_tokens.origin_of(request, current_app.config["SECRET_KEY"])
        for _bot in range(count):
            service().add_bot(_loaded(game_id), play.SOLO_SEAT, "normal", origin)
        _choose_for_creator(game_id, entry)
        service().start(_loaded(game_id), play.SOLO_SEAT, origin)
    except Refused:
        # Nobody has seen the table yet: a refused press leaves nothing behind.
        store().delete_waiting_table(game_id)
        raise
    browsers.note_seat(store(), game_id, play.SOLO_SEAT)
    response = redirect(url_for("games.page", game_id=game_id), code=303)
    seat_tokens.give_seat(response, game_id, token, secure=current_app.config["SESSION_COOKIE_SECURE"])
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
    closed = deals.closed_to_onlooker(game, seat)
    if closed:
        abort(403, description=closed)
    return render_game(game, seat)


class SpectatorFragments:
    """Every spectator of a game at one revision gets the same fragment: render it once.

    When a push reaches fifty spectators, fifty GETs arrive together; without this each would
    render the same board. Keyed by (game, revision, log mark) — the only inputs a spectator's
    fragment depends on. The first request for a key renders it while the others arriving at the
    same moment wait for that render rather than all missing the cache together. Seated players
    always get their own render (their view differs)."""

    WAIT_SECONDS = 5.0

    def __init__(self, size: int = 256, max_bytes: int = 32 * 1024 * 1024):
        self._lock = threading.Lock()
        self._items: OrderedDict = OrderedDict()
        self._rendering: dict = {}
        self._size = size
        # Bounded by bytes as well as entries: one finished 100 × 100 map is over a megabyte, and
        # the cache must not hold a worker's memory hostage whatever the keys.
        self._max_bytes = max_bytes
        self._bytes = 0

    @property
    def held_bytes(self) -> int:
        return self._bytes

    def get(self, key):
        with self._lock:
            return self._items.get(key)

    def put(self, key, value: bytes) -> None:
        if len(value) > self._max_bytes // 8:
            return  # a body this large would push out most of the others: render it each time
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= len(old)
            self._items[key] = value
            self._bytes += len(value)
            while len(self._items) > self._size or self._bytes > self._max_bytes:
                _key, evicted = self._items.popitem(last=False)
                self._bytes -= len(evicted)

    def shared(self, key, render):
        """The cached body for ``key`` as a response, else ``render()``'s response; ``render``
        returns (response, body to share or None when this answer must not be shared)."""
        with self._lock:
            body = self._items.get(key)
            rendering = self._rendering.get(key) if body is None else None
            leader = body is None and rendering is None
            if leader:
                rendering = self._rendering[key] = threading.Event()
        if body is not None:
            return _cached_response(body)
        if not leader:
            rendering.wait(self.WAIT_SECONDS)
            body = self.get(key)
            return _cached_response(body) if body is not None else render()[0]
        try:
            response, body = render()
            if body is not None:
                self.put(key, body)
            return response
        finally:
            with self._lock:
                self._rendering.pop(key, None)
            rendering.set()


spectator_fragments = SpectatorFragments()


@bp.get("/g/<game_id>/board")
@limiter.shared_limit(READ, scope="read", deduct_when=rendered_here)
def board(game_id: str):
    return board_response(game_id)


def board_response(game_id: str):
    """This viewer's board: the answer to its GET, and the board pushed to its socket."""
    log_seen, page = _log_seen(), _board_page()  # validated before anything is loaded or cached
    prefetched = prefetched_for(game_id)
    if request.cookies.get(seat_tokens.COOKIE_NAME) or (prefetched and prefetched.seat) or not is_htmx():
        # Rendered for this request alone (never shared): the revision that keys the spectators'
        # cache is not needed, and loading the game answers 404 for a wrong address.
        return _board(game_id, None)[0]
    if not isinstance(game_id, str) or len(game_id) > 64:
        abort(404, description="There is no game at this address. It may have been mistyped.")
    if prefetched is not None:
        revision = prefetched.game.record.revision
    else:
        revision = store().revision(game_id)
    if revision is None:
        abort(404, description="There is no game at this address. It may have been mistyped.")
    key = (game_id, revision, log_seen, page)
    return spectator_fragments.shared(key, lambda: _board(game_id, revision))


def _board(game_id: str, revision: int | None):
    """This viewer's board, and its body when every spectator at ``revision`` may share it (never
    when ``revision`` is None)."""
    game = game_or_404(game_id)
    if request.args.get("page") == "waiting" and game.record.status != "waiting" and is_htmx():
        # The table started: the waiting-room page becomes the game page as a whole.
        response = make_response("", 200)
        response.headers["HX-Refresh"] = "true"
        return response, None
    seat = viewer_seat(game)
    closed = deals.closed_to_onlooker(game, seat)
    if closed:
        # An answer, not an abort: a pushed board (board_push) renders here outside a dispatch.
        return refusal(403, closed), None
    response = render_game(game, seat, log_seen=_log_seen())
    body = response.get_data()
    # Never share a fragment that carries a form token (each browser has its own), nor a board of
    # a game on a shared deal (who may see it depends on the viewer's own attempt, not the game).
    shareable = (
        seat is None
        and not deals.on_shared_solo_deal(game)
        and is_htmx()
        and game.record.revision == revision
        and response.status_code == 200
        and b'name="csrf_token"' not in body
    )
    return response, body if shareable else None


def _cached_response(body: bytes):
    g.served_from_cache = True
    return _fragment_response(body)


def _fragment_response(body: bytes):
    response = make_response(body, 200)
    response.headers["Vary"] = "HX-Request, Cookie"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/g/<game_id>/act")
@limiter.limit(ACT)
def act(game_id: str):
    check_csrf()
    game = game_or_404(game_id)
    seat = viewer_seat(game)
    log_seen = _log_seen()
    if seat is None:
        abort(403, description="You are watching this game: only its players can act.")
    if game.record.status == "waiting":
        abort(409, description="The game has not started yet: the host starts it from the waiting room.")
    try:
        based_on = int(request.form.get("version", ""))
    except ValueError:
        abort(400, description="This request did not say which moment of the game it was made in. Reload the page.")
    if based_on != game.version:
        return render_game(
            game,
            seat,
            status=409,
            log_seen=log_seen,
            flash="The game had moved on since that click; here is where it stands now.",
        )
    try:
        action = play.action_from_form(request.form)
        after = service().act(game, seat, action, page=_page_socket())
    except rules_engine.InvalidAction as error:
        abort(400, description=str(error))
    except rules_engine.IllegalAction as error:
        abort(422, description=str(error))
    except StaleVersion:
        fresh = game_or_404(game_id)
        return render_game(
            fresh,
            seat,
            status=409,
            log_seen=log_seen,
            flash="The game had moved on since that click; here is where it stands now.",
        )
    if not is_htmx():
        return redirect(url_for("games.page", game_id=game.id), code=303)
    return render_game(after, seat, log_seen=log_seen)


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
        new_id, token = play.start_game(
            store(),
            old.record.slug,
            old.record.options,
            seed=old.record.seed if same_deal else None,
            lobby={"same_deal_as": old.id} if same_deal else None,
        )
    except rules_engine.InvalidAction as error:  # options were valid when stored; a rules change could refuse them
        abort(400, description=f"Could not start the game: {error}")
    deal = deals.deal_of(old.id) if same_deal else None
    if deal is not None:
        # The same shared deal again is one more attempt on it, and always practice (whatever
        # cookies came with the request: this game's player has played the deal), so its replay
        # stays closed as the deal's others are.
        deals.add_attempt(deal, new_id, browsers.browser_key(create=True) or "", practice=True)
    browsers.note_seat(store(), new_id, play.SOLO_SEAT)
    response = redirect(url_for("games.page", game_id=new_id), code=303)
    seat_tokens.give_seat(response, new_id, token, secure=current_app.config["SESSION_COOKIE_SECURE"])
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
