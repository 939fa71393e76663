"""Multiplayer tables' routes, shared by every multiplayer game: the waiting room (join by link,
lobby choices, start, leave), joining a running game where the rules allow it, the table's chat
and "Play again". What each one changes is ``service.GameService``'s; here requests become
calls and refusals become HTTP answers."""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

from flask import Blueprint, abort, current_app, redirect, request, url_for

from rules_engine.text import clean_text

from ..domain import bots, play
from ..domain.catalog import BY_SLUG, clean_name
from ..domain.service import Seated, missing_choices
from ..pages.viewer import SEAT_COOKIE_NAME
from ..realtime.sockets import push_chat
from .context import classic_gateway, game_or_404, is_htmx, note_seat, service, store, viewer_seat
from .limits import CHAT, CREATE_GAME, JOIN, limiter, table_write
from .seat_cookies import give_seat, request_origin
from .security import check_csrf

bp = Blueprint("tables", __name__)

CHAT_MAX = 200
CHAT_BURST = 5  # messages per seat …
CHAT_WINDOW = 10.0  # … per this many seconds


@dataclass(frozen=True)
class ChoiceButton:
    """One value of a lobby field, drawn as a button of its own."""

    value: str
    title: str
    description: str
    key: str
    """Fixed by the value's place in the field's list: a key never moves as others are taken."""
    mine: bool
    taken_by: str | None
    problem: str | None
    """Why the rules refuse it at this table's size (e.g. Dungeon Cards' Mage alone), or None."""

    @property
    def open(self) -> bool:
        return self.mine or (self.taken_by is None and self.problem is None)


@dataclass(frozen=True)
class LobbyChoice:
    name: str
    label: str
    buttons: list[ChoiceButton]
    mine: ChoiceButton | None


@dataclass(frozen=True)
class WaitingRoom:
    choices: list[LobbyChoice]
    start_blocked: str | None
    """Why the host cannot start yet (someone owes a choice), as a sentence; None when it can."""
    roster_tags: dict[str, str]
    """Each seat's choices so far, for the roster (everyone sees who still has to choose)."""


@bp.app_template_global()
def waiting_room(entry, lobby: dict, seats: list[dict], seat: str | None) -> WaitingRoom:
    """What the waiting room draws for its lobby fields: one button per value (a choice label may
    read "Name — what it does": the button shows both), who holds each, and whether the host can
    start. The one place a seat makes its choices: the game starts with all of them made."""
    choices = lobby.get("choices", {})
    names = {row["seat"]: row["name"] for row in seats}
    keys = iter(play.CHOICE_KEYS)
    fields = []
    for field in entry.lobby_fields:
        holders = {}
        if field.name in entry.unique_lobby_fields:
            holders = {c.get(field.name): names.get(other, other) for other, c in choices.items() if other != seat}
        mine_value = choices.get(seat, {}).get(field.name) if seat else None
        buttons = []
        for value, label in field.choices:
            title, _, description = str(label).partition(" — ")
            problem = entry.rules.lobby_choice_problem(field.name, value, len(seats))
            buttons.append(
                ChoiceButton(
                    value=str(value),
                    title=title,
                    description=description,
                    key=next(keys, ""),
                    mine=value == mine_value,
                    taken_by=holders.get(value),
                    problem=problem,
                )
            )
        fields.append(LobbyChoice(field.name, field.label, buttons, next((b for b in buttons if b.mine), None)))
    blocked = missing_choices(entry.lobby_fields, choices, [(row["seat"], row["name"]) for row in seats])
    labels = {f.name: {str(v): str(label).partition(" — ")[0] for v, label in f.choices} for f in entry.lobby_fields}
    tags = {}
    for row in seats:
        picked = choices.get(row["seat"], {})
        words = [labels[f.name].get(str(picked[f.name]), "") for f in entry.lobby_fields if f.name in picked]
        if entry.lobby_fields:
            tags[row["seat"]] = ", ".join(words) if words else f"no {entry.lobby_fields[0].label.lower()} yet"
    return WaitingRoom(
        choices=fields,
        start_blocked=f"{blocked[0].upper()}{blocked[1:]}." if blocked else None,
        roster_tags=tags,
    )


def _back(game_id: str):
    response = redirect(url_for("games.page", game_id=game_id), code=303)
    if is_htmx():
        response.headers["HX-Redirect"] = url_for("games.page", game_id=game_id)
    return response


def _seated_back(seated: Seated):
    """Off to the table just sat at, with the seat's cookie (and the seat in this browser's record)."""
    note_seat(seated.game_id, seated.seat)
    response = _back(seated.game_id)
    give_seat(response, seated.game_id, seated.token, secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response


def _free_player_name(seats: list) -> str:
    """The name of someone who typed none: the first "Player N" nobody at the table goes by."""
    return next(f"Player {n}" for n in itertools.count(len(seats) + 1) if not play.name_taken(seats, f"Player {n}"))


def _seated(game_id: str):
    game = game_or_404(game_id)
    if BY_SLUG[game.record.slug].solo:
        abort(409, description="This is a solo game: tables, chat and “Play again” are for multiplayer games.")
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
    if BY_SLUG[game.record.slug].solo:
        abort(409, description="This is a solo game: you can watch it, and start your own from the front page.")
    if viewer_seat(game) is not None:
        return _back(game_id)
    name = clean_name(request.form.get("name"), "") or _free_player_name(store().seats(game_id))
    origin = request_origin()
    return _seated_back(service().join(game, name=name, origin=origin))


@bp.post("/g/<game_id>/lobby")
@table_write
def lobby_choice(game_id: str):
    """A seated player sets their name and lobby choices (e.g. a class) in the waiting room."""
    game, seat = _seated_in_waiting_room(game_id)
    name = None
    if "name" in request.form:
        current = next((s.name for s in store().seats(game_id) if s.seat == seat), seat)
        name = clean_name(request.form.get("name"), current)
    choices = {}
    for field in BY_SLUG[game.record.slug].lobby_fields:
        raw = request.form.get(field.name)
        if raw is None:
            continue
        if raw != "" and raw not in {str(v) for v, _label in field.choices}:
            abort(400, description=f"{field.label}: choose one of the listed options.")
        choices[field.name] = raw
    service().choose(game, seat, name=name, choices=choices)
    return _back(game_id)


@bp.post("/g/<game_id>/start")
@table_write
def start(game_id: str):
    """The host starts the game with everyone seated, in join order."""
    game, seat = _seated_in_waiting_room(game_id)
    service().start(game, seat, request_origin())
    return _back(game_id)


@bp.post("/g/<game_id>/leave-table")
@table_write
def leave_table(game_id: str):
    """Leave the waiting room (once the game runs, leaving is the game's own action)."""
    _game, seat = _seated_in_waiting_room(game_id)
    service().leave_waiting_room(game_id, seat)
    response = _back(game_id)
    response.delete_cookie(SEAT_COOKIE_NAME, path=f"/g/{game_id}")
    return response


@bp.post("/g/<game_id>/add-bot")
@table_write
def add_bot(game_id: str):
    """The host seats a bot (``level``: easy or normal) in a free seat of the waiting room."""
    game, seat = _seated_in_waiting_room(game_id)
    level = request.form.get("level", "normal")
    if level not in bots.LEVELS:
        abort(400, description=f"A bot's level is one of: {', '.join(bots.LEVELS)}.")
    service().add_bot(game, seat, level, request_origin())
    return _back(game_id)


@bp.post("/g/<game_id>/remove-bot")
@table_write
def remove_bot(game_id: str):
    """The host takes the bot in ``seat`` off the table; the seat is free again."""
    game, seat = _seated_in_waiting_room(game_id)
    bot_seat = request.form.get("seat", "")
    if not (0 < len(bot_seat) <= 32):
        abort(400, description="Say which bot to remove.")
    service().remove_bot(game, seat, bot_seat)
    return _back(game_id)


@bp.post("/g/<game_id>/remove-seat")
@table_write
def remove_seat(game_id: str):
    """The host takes the player in ``seat`` (a person, a bot or a classic client) off the table."""
    game, seat = _seated_in_waiting_room(game_id)
    other = request.form.get("seat", "")
    if not (0 < len(other) <= 32):
        abort(400, description="Say whose seat to free.")
    service().remove_seat(game, seat, other)
    return _back(game_id)


@bp.post("/g/<game_id>/chat")
@limiter.limit(CHAT)
def chat(game_id: str):
    """Say something to the table (the classic SHOUT): seated players only, short, rate-limited."""
    check_csrf()
    _game, seat = _seated(game_id)
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


@bp.post("/g/<game_id>/bot-report")
@table_write
def bot_report_read(game_id: str):
    """The player has read what a bot played for them while they were away: their page stops
    showing it (webapp/pages/bot_play.py)."""
    check_csrf()
    _game, seat = _seated(game_id)
    store().bot_report_read(game_id, seat)
    return _back(game_id)


@bp.post("/g/<game_id>/classic")
@table_write
def classic_clients(game_id: str):
    """The host lets classic TCP clients take seats at a Dungeon of Doom table (``on=1``), or
    stops taking new ones (``on=0``): webapp/adapters/classic."""
    check_csrf()
    game, seat = _seated(game_id)
    gateway = classic_gateway()
    if gateway is None or not BY_SLUG[game.record.slug].rules.classic_clients:
        abort(404, description="This server does not take classic clients (CLASSIC_PORTS is not set).")
    if play.host_of(game.record.lobby, store().seats(game_id)) != seat:
        abort(403, description="Only the host can turn classic clients on or off.")
    if request.form.get("on") == "1":
        gateway.enable(game_id, request_origin())
    elif request.form.get("on") == "0":
        gateway.disable(game_id)
    else:
        abort(400, description="Say on=1 or on=0.")
    return _back(game_id)


@bp.post("/g/<game_id>/again")
@limiter.limit(CREATE_GAME)
def play_again(game_id: str):
    """ "Play again" at a finished multiplayer game: everyone who asks lands at one new table
    with the same options, under the name they had."""
    check_csrf()
    game, seat = _seated(game_id)
    outcome = service().play_again(game, seat, _table_options(game))
    gateway = classic_gateway()
    if gateway is not None:
        # Classic clients cannot be sent to a new address: the next table takes them on the same port.
        gateway.carry_over(game, outcome.game_id if isinstance(outcome, Seated) else outcome)
    return _seated_back(outcome) if isinstance(outcome, Seated) else _back(outcome)


def _table_options(game) -> dict:
    """The options a table was opened with, without what its waiting room added (lobby choices)."""
    entry = BY_SLUG[game.record.slug]
    lobby_names = {f.name for f in entry.lobby_fields}
    return {k: v for k, v in game.record.options.items() if k not in lobby_names}
