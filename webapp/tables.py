"""Multiplayer tables, shared by every multiplayer game: the waiting room (join by link, lobby
choices, start), joining a running game where the rules allow it, and the table's chat."""

from __future__ import annotations

import time

from flask import Blueprint, abort, current_app, redirect, request, url_for

import rules_engine
from rules_engine.text import clean_text

from . import play
from . import seats as seat_tokens
from .catalog import BY_SLUG, clean_name
from .games import game_or_404, is_htmx, store, viewer_seat
from .realtime import notify_changed, push_chat
from .limits import CHAT, CREATE_GAME, JOIN, TABLE, limiter
from .security import check_csrf
from .store import StaleVersion

bp = Blueprint("tables", __name__)

CHAT_MAX = 200
SEATS_PER_ADDRESS = 2
"""Seats one client address may take in a running game, over the game's whole life: a newcomer
is placed at random and sees around them, so joining and leaving again and again would map a
secret dungeon. Seats taken in the waiting room do not count (a household on one connection
sits down together); two mid-game joins let a late pair on one connection both play."""
ROSTER_CAP = 64
"""Living seats a running table may hold at most (the rules' own table size is lower)."""
CHAT_BURST = 5  # messages per seat …
CHAT_WINDOW = 10.0  # … per this many seconds


def _back(game_id: str):
    response = redirect(url_for("games.page", game_id=game_id), code=303)
    if is_htmx():
        response.headers["HX-Redirect"] = url_for("games.page", game_id=game_id)
    return response


def _ring(game_id: str) -> None:
    notify_changed(game_id, store().revision(game_id))


def _seated(game_id: str):
    game = game_or_404(game_id)
    seat = viewer_seat(game)
    if seat is None:
        abort(403, description="Take a seat first: only players at this table can do that.")
    return game, seat


def _seated_in_waiting_room(game_id: str):
    """The viewer's seat at a table that has not started yet (409 once it has)."""
    check_csrf()
    game, seat = _seated(game_id)
    if game.record.status != "waiting":
        abort(409, description="The game has already started: use the game's own actions.")
    return game, seat


@bp.post("/g/<game_id>/join")
@limiter.limit(JOIN)
def join(game_id: str):
    """Take a free seat: in the waiting room, or mid-game where the rules allow a newcomer."""
    check_csrf()
    game = game_or_404(game_id)
    entry = BY_SLUG[game.record.slug]
    if entry.solo:
        abort(409, description="This is a solo game: you can watch it, and start your own from the front page.")
    if viewer_seat(game) is not None:
        return _back(game_id)
    status = game.record.status
    if status == "finished":
        abort(409, description="This game is over; you can watch how it ended.")
    seats_now = store().seats(game_id)
    name = clean_name(request.form.get("name"), f"Player {len(seats_now) + 1}")
    if play.name_taken(seats_now, name):
        abort(409, description=f"Someone at this table is already called {name}: choose another name.")
    join_action = getattr(game.rules, "join_action", None)
    if status == "running" and not join_action:
        abort(409, description="This game has started and does not take newcomers; you can watch it.")
    origin = seat_tokens.origin_of(request, current_app.config["SECRET_KEY"]) if status == "running" else None
    if origin is not None and store().seats_from(game_id, origin) >= SEATS_PER_ADDRESS:
        abort(409, description=f"This game already took {SEATS_PER_ADDRESS} seats from your connection; "
                               "you can watch it, or join the next game.")
    token = seat_tokens.new_token()
    if status == "waiting":
        limit, counted = play.table_size(game.rules, game.record.options), None
    else:
        limit, counted = ROSTER_CAP, _living_counter(game)
    seat = store().add_seat(game_id, name=name, token_hash=seat_tokens.hash_token(token), limit=limit,
                            origin=origin, counted=counted)
    if seat is None:
        abort(409, description="Every seat at this table is taken; you can still watch.")
    if status == "running":
        landed = False
        for _attempt in range(3):
            fresh = play.load_game(store(), game_id)
            try:
                play.act(store(), fresh, seat, dict(join_action), by_server=True)
                landed = True
                break
            except StaleVersion:
                continue
            except (rules_engine.IllegalAction, rules_engine.InvalidAction) as error:
                store().remove_seat(game_id, seat)
                abort(409, description=f"You cannot join this game now: {error}")
        if not landed:
            store().remove_seat(game_id, seat)
            abort(409, description="The game was too busy to seat you; try again.")
    _ring(game_id)
    response = _back(game_id)
    seat_tokens.give_seat(response, game_id, token, secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response


def _living_counter(game):
    """Which of a running game's seats count against its roster: the living ones (dead and
    departed rows stay for the log but never block a newcomer)."""
    living = getattr(game.rules, "living_seats", None)
    if living is None or game.state is None:
        return None
    alive = set(living(game.state))
    # A seat row without a player yet is a join on its way in: it counts until it lands or is removed.
    playing = {p["seat"] for p in game.state.get("players", []) if isinstance(p, dict) and "seat" in p}
    return lambda seat_ids: [s for s in seat_ids if s in alive or s not in playing]


@bp.post("/g/<game_id>/lobby")
@limiter.limit(TABLE)
def lobby_choice(game_id: str):
    """A seated player sets their name and lobby choices (e.g. a class) in the waiting room."""
    game, seat = _seated_in_waiting_room(game_id)
    entry = BY_SLUG[game.record.slug]
    changed = False
    if "name" in request.form:
        seats_now = store().seats(game_id)
        current = next((s.name for s in seats_now if s.seat == seat), seat)
        name = clean_name(request.form.get("name"), current)
        if play.name_taken(seats_now, name, besides=seat):
            abort(409, description=f"Someone at this table is already called {name}: choose another name.")
        if name != current:
            store().rename_seat(game_id, seat, name)
            changed = True
            game = game_or_404(game_id)
    lobby = dict(game.record.lobby)
    choices = {k: dict(v) for k, v in lobby.get("choices", {}).items()}
    mine = choices.setdefault(seat, {})
    for field in entry.lobby_fields:
        raw = request.form.get(field.name)
        if raw is None:
            continue
        if raw == "":
            mine.pop(field.name, None)
            continue
        allowed = {str(v) for v, _label in field.choices}
        if raw not in allowed:
            abort(400, description=f"{field.label}: choose one of the listed options.")
        problem = _choice_problem(game, field.name, raw, len(store().seats(game_id)))
        if problem:
            abort(422, description=f"{field.label}: {problem}.")
        if field.name in entry.unique_lobby_fields and any(
            other.get(field.name) == raw for other_seat, other in choices.items() if other_seat != seat
        ):
            abort(409, description=f"Another player has already chosen that {field.label.lower()}.")
        mine[field.name] = raw
    lobby["choices"] = {k: v for k, v in choices.items() if v}
    if lobby != game.record.lobby:
        try:
            store().set_lobby(game_id, lobby, expected_revision=game.record.revision)
        except StaleVersion:
            abort(409, description="The table changed at the same moment; please choose again.")
        changed = True
    if changed:  # an unchanged choice rings nobody: every ring makes every page at the table refetch
        _ring(game_id)
    return _back(game_id)


def _choice_problem(game, field: str, value: str, seats: int) -> str | None:
    """The rules' objection to a waiting-room choice at a table of ``seats`` (e.g. Dungeon Cards'
    ruling 55: no Mage or Healer for a lone player), from the engine's optional hook."""
    check = getattr(game.rules, "lobby_choice_problem", None)
    return check(field, value, seats) if check else None


@bp.post("/g/<game_id>/start")
@limiter.limit(TABLE)
def start(game_id: str):
    """The host starts the game with everyone seated, in join order."""
    game, seat = _seated_in_waiting_room(game_id)
    seated = store().seats(game_id)
    if play.host_of(game.record.lobby, seated) != seat:
        abort(403, description="Only the host (who opened the table, or has sat longest since) can start the game.")
    entry = BY_SLUG[game.record.slug]
    players = [s.seat for s in seated]
    if len(players) < game.rules.min_players:
        abort(409, description=f"This game needs at least {game.rules.min_players} players.")
    options = dict(game.record.options)
    choices = game.record.lobby.get("choices", {})
    for field in entry.lobby_fields:
        options[field.name] = {p: choices[p][field.name] for p in players if field.name in choices.get(p, {})}
    try:
        state = game.rules.new_game(seed=game.record.seed, players=players, options=options)
    except rules_engine.InvalidAction as error:
        abort(409, description=f"The game cannot start yet: {error}")
    try:
        store().start(
            game_id,
            expected_revision=game.record.revision,
            players=players,
            options=options,
            snapshot=game.rules.dump(state),
            clock=play.clock_after(game.rules, state, None, time.time()) or (None, None, None),
        )
    except StaleVersion:
        abort(409, description="Someone joined or changed their choice just now; check the table and start again.")
    _ring(game_id)
    return _back(game_id)


@bp.post("/g/<game_id>/leave-table")
@limiter.limit(TABLE)
def leave_table(game_id: str):
    """Leave the waiting room (once the game runs, leaving is the game's own action)."""
    game, seat = _seated_in_waiting_room(game_id)
    store().remove_seat(game_id, seat)
    remaining = store().seats(game_id)
    # A choice the smaller table no longer allows is cleared, to be made again (ruling 55 of
    # Dungeon Cards: the last player left holding the Mage or the Healer chooses again); the
    # host passes to the longest-seated player (an empty room's next arrival hosts it).
    for _attempt in range(5):
        fresh = game_or_404(game_id)
        if fresh.record.status != "waiting":
            break
        lobby = dict(fresh.record.lobby)
        choices = {k: dict(v) for k, v in lobby.get("choices", {}).items() if k != seat}
        for mine in choices.values():
            for name, value in list(mine.items()):
                if _choice_problem(fresh, name, value, len(remaining)):
                    del mine[name]
        lobby["choices"] = choices
        lobby["host"] = play.host_of(lobby, remaining)
        try:
            store().set_lobby(game_id, lobby, expected_revision=fresh.record.revision)
            break
        except StaleVersion:
            remaining = store().seats(game_id)  # someone joined or chose meanwhile: redo it on theirs
    _ring(game_id)
    response = _back(game_id)
    response.delete_cookie(seat_tokens.COOKIE_NAME, path=f"/g/{game_id}")
    return response


@bp.post("/g/<game_id>/chat")
@limiter.limit(CHAT)
def chat(game_id: str):
    """Say something to the table (the classic SHOUT): seated players only, short, rate-limited."""
    check_csrf()
    game, seat = _seated(game_id)
    raw = request.form.get("text", "")
    if len(raw) > 4 * CHAT_MAX:
        abort(400, description=f"Messages are at most {CHAT_MAX} characters.")
    text = clean_text(raw, CHAT_MAX + 1)
    if not text:
        abort(400, description="Type a message first.")
    if len(text) > CHAT_MAX:
        abort(400, description=f"Messages are at most {CHAT_MAX} characters.")
    if store().recent_chat_count(game_id, seat, time.time() - CHAT_WINDOW) >= CHAT_BURST:
        abort(429, description="Slow down a little: a few messages every ten seconds.")
    name = next((s.name for s in store().seats(game_id) if s.seat == seat), seat)
    message = store().add_chat(game_id, seat=seat, name=name, text=text)
    push_chat(game_id, message)
    if is_htmx():
        return "", 204
    return _back(game_id)


@bp.post("/g/<game_id>/again")
@limiter.limit(CREATE_GAME)
def play_again(game_id: str):
    """"Play again" at a finished multiplayer game: the first player to ask opens a new table with
    the same options; everyone else who asks is seated there under the name they had. Two players
    asking at once both open one, and exactly one is recorded as the next table: the other is
    removed unseen and its opener is seated at the winner instead."""
    check_csrf()
    game, seat = _seated(game_id)
    if game.record.status != "finished":
        abort(409, description="This game is still running.")
    name = next((s.name for s in store().seats(game_id) if s.seat == seat), "Player")
    next_id = game.record.lobby.get("next")
    if next_id is None:
        opened, token = play.open_table(store(), game.record.slug, _table_options(game), name=name)
        next_id = store().claim_next_game(game_id, opened)
        if next_id == opened:
            _ring(game_id)
            response = _back(next_id)
            seat_tokens.give_seat(response, next_id, token, secure=current_app.config["SESSION_COOKIE_SECURE"])
            return response
        store().delete_waiting_table(opened)
        if next_id is None:
            abort(404, description="There is no game at this address. It may have been mistyped.")
    nxt = game_or_404(next_id)
    if nxt.record.status != "waiting":
        return _back(next_id)
    token = seat_tokens.new_token()
    seats_there = store().seats(next_id)
    if play.name_taken(seats_there, name):
        name = clean_name(f"{name} ({seat})", name)
    seat_taken = store().add_seat(next_id, name=name, token_hash=seat_tokens.hash_token(token),
                                  limit=play.table_size(nxt.rules, nxt.record.options))
    if seat_taken is None:
        abort(409, description="The new table is already full; you can watch it.")
    _ring(next_id)
    response = _back(next_id)
    seat_tokens.give_seat(response, next_id, token, secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response


def _table_options(game) -> dict:
    """The options a table was opened with, without what its waiting room added (lobby choices)."""
    entry = BY_SLUG[game.record.slug]
    lobby_names = {f.name for f in entry.lobby_fields}
    return {k: v for k, v in game.record.options.items() if k not in lobby_names}
