"""The board of a game as one viewer sees it: the page, and the fragment htmx swaps. Both the HTTP
answers (``web/games.py``) and the boards pushed over each page's socket
(``realtime/board_push.py``) render through here, so hidden information has one path out: the
engine's view for the viewer's own seat."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from flask import abort, current_app, make_response, render_template, request
from jinja2_fragments.flask import render_blocks

from rules_engine import undo
from rules_engine.options import Option
from rules_engine.undo import is_practice

from ..domain import bots, browsers, deal_pools, deals, hints, play
from ..domain.catalog import BY_SLUG
from ..domain.service import GRACE_SECONDS, REQUEST_SEEN_EVERY, takes_bots
from . import link_preview
from .bot_play import BotPlay, bot_play, marked, win_sentence
from .presenters import Scene, keys_for, present
from .reader import page_parts as reader_parts
from .reader import reader_mode
from .rendering import cached_url_for, name_seats, refusal
from .tickets import ticket_for
from .verdicts import verdict_for
from .viewer import (
    browser_key,
    game_or_404,
    has_seat_cookie,
    is_htmx,
    prefetched_for,
    service,
    spectator_fragments,
    store,
    viewer_seat,
)

FRAGMENT_BLOCKS = ["game", "announce"]

LOG_SEEN_DIGITS = 9


def log_seen_param() -> int | None:
    """How much of the log the page has shown: a whole number, or absent; anything else is 400
    (the spectators' shared fragments are keyed by it, so a made-up value must not reach a key)."""
    raw = request.values.get("log_seen")
    if raw is None or raw == "":
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= LOG_SEEN_DIGITS):
        abort(400, description="This request's log position is not a whole number. Reload the page.")
    return int(raw)


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


def seat_parts(game: play.LoadedGame, seat: str | None) -> tuple[dict, list[play.ActionButton]]:
    """The view and the buttons of ``seat`` (None: a spectator) in ``game``, worked out once per
    game object (``LoadedGame.parts``): the action's own answer and every page it pushes to."""
    parts = game.parts.get(seat)
    if parts is None:
        keys = keys_for(BY_SLUG[game.record.slug].template_dir)
        parts = game.parts[seat] = (game.rules.view(game.state, seat), play.action_buttons(game, seat, keys))
    return parts


def board_inputs(prefetched, page: str) -> tuple | None:
    """Everything a running game's pushed board is drawn from but its revision and version (the
    seat's view and buttons, the roster, the turn's deadline, the lobby), or None when a board
    must be drawn whatever it was drawn from before (the waiting room, a game that ended).

    Two boards drawn from equal inputs are the same board: the page that shows one is told the
    new revision and version instead of being sent the other (``realtime/board_push.py``). A
    countdown on it goes on by itself (the page counts it down from when it was drawn)."""
    game = prefetched.game
    if page or game.state is None or game.record.status != "running":
        return None
    view, buttons = seat_parts(game, prefetched.seat)
    roster = [(s.seat, s.name, s.connected, s.gone, s.bot, s.kept, s.bot_played, s.bot_since) for s in prefetched.seats]
    # The Undo button too: a seat's run of moves it can take back may end while its view stays.
    reach = undo_reach(game, prefetched.seat, buttons)
    return (prefetched.seat, view, buttons, reach, roster, game.record.turn_deadline, game.record.lobby)


def undo_reach(game: play.LoadedGame, seat: str | None, buttons: list[play.ActionButton]):
    """How far ``seat`` can undo now and, if not at all, why (``rules_engine.undo``), worked out
    from its own game state; None where no Undo is drawn: a spectator's page, a finished game, a
    seat with nothing to do, and at a table a seat that has not moved since someone else did (a
    move out of its sight must leave its board as it was: ``board_inputs``)."""
    if seat is None or not buttons or game.state is None or game.record.status != "running":
        return None
    reach = game.rules.undo_reach(game.state, seat)
    if game.rules.table and not reach.steps and reach.reason in (undo.NOTHING_YET, undo.SOMEONE_ELSE):
        return None
    return reach


UNDONE_ELSEWHERE = "A move was taken back: the board is as it was before it."
"""The flash of a page whose log got shorter since it last drew it: someone undid a move (the
page that undid it says which, ``web/games.py``)."""


def practice_panel(game: play.LoadedGame, seat: str | None) -> dict | None:
    """What the page of a game played alone (a solo game, Dungeon Cards alone) says of practice
    (``templates/_practice.html``): ``on`` when the game is practice (``rules_engine.undo``: never
    ranked), ``offered`` when its player may still switch it — the engine would take the switch
    now and the game is no ranked attempt on a shared deal (those are played without it:
    ``deals.note_practice_switch`` refuses one). None: nothing to say (a table of several too)."""
    if game.state is None:
        return None
    on = is_practice(game.state)
    offered = (
        not on
        and seat is not None
        and game.rules.undo_reach(game.state, seat).practice_offered
        and not deals.is_ranked_attempt(store(), game.id)
    )
    return {"on": on, "offered": offered, "version": game.version} if on or offered else None


def seat_rows(game: play.LoadedGame, now: float, viewer: str | None = None) -> list[dict]:
    """The table's seats for the roster: name, presence, and seconds left before an absent seat is
    dropped (none at a slow table, where nobody is dropped for being away).

    The viewer's own request counts as presence (10.6: an open socket *or* a request in the last
    60 s), so a seat playing over plain HTTP is not dropped. Its ``last_seen`` is written only
    when older than REQUEST_SEEN_EVERY seconds: a busy page does not write on every request.
    A player whose seat a bot kept while they were away has it back with this request.

    ``bot``: the level of the bot that plays the seat (None: a person); ``kept``: a bot plays it
    until its player is back. The seats are those a pushed board was given, or those the
    action that made ``game`` read already (``LoadedGame.roster``), or read now."""
    rows = []
    prefetched = prefetched_for(game.id)
    if prefetched is not None:
        records = prefetched.seats
    elif game.roster is not None:
        records = game.roster[0]
    else:
        records = store().seats(game.id)
    if viewer is not None and prefetched is None and any(s.seat == viewer and s.kept for s in records):
        service().reclaim(game.id, viewer)
        records = store().seats(game.id)
    host = play.host_of(game.record.lobby, records)
    counts_down = game.record.status == "running" and not play.slow_clock(game.record)
    for s in records:
        last_seen = s.last_seen
        if s.seat == viewer and not s.gone and now - last_seen >= REQUEST_SEEN_EVERY:
            store().seen([(game.id, s.seat)])
            last_seen = now
        drop_in = None
        if counts_down and not s.connected and not s.gone and not s.bot:
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
                "bot_played": s.bot_played,
                "bot_since": s.bot_since,
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


def turn_limit_words(schema: tuple[Option, ...], options: dict) -> str | None:
    """A table's turn limit in its creation form's words ("1 day", "No limit"), from the game's
    ``turn_seconds`` option; None for a game without one. A limit the form does not offer (the
    engine takes any whole number in the short range) is said in seconds."""
    option = next((o for o in schema if o.name == "turn_seconds"), None)
    if option is None or "turn_seconds" not in options:
        return None
    seconds = options["turn_seconds"]
    return next((label for value, label in option.choices if str(value) == str(seconds)), f"{seconds} seconds")


def render_game(
    game: play.LoadedGame,
    seat: str | None,
    *,
    flash: str | None = None,
    status: int = 200,
    log_seen=None,
    reader: bool | None = None,
    answer: str | None = None,
):
    """The game's page (or, for htmx, its swapped blocks) for ``seat``; in screen-reader mode
    (``reader``: this browser's choice unless told) drawn text-first from the same view and
    buttons, with ``answer``: a command's answer for the page's live region and transcript."""
    entry = BY_SLUG[game.record.slug]
    reader = reader_mode() if reader is None else reader
    now = time.time()
    context: dict[str, Any] = dict(
        entry=entry,
        rules=game.rules,
        game_id=game.id,
        version=game.version,
        revision=game.record.revision,
        seat=seat,
        flash=flash,
        share_url=cached_url_for("games.page", game_id=game.id, _external=True),
        # Dealt from a pool of deals the solver proved winnable: the head and the end say so.
        winnable_deal=deal_pools.winnable_deal(game.record),
        fragment=is_htmx(),
        new_log=[],
        undo_reach=None,
        hint=None,
        answer=answer,
    )
    if not context["fragment"]:
        # A whole page (what a chat app's unfurler fetches, without cookies): its link's preview.
        context["link_preview"] = link_preview.tags(game)
    ticket = None
    if seat is not None and not context["fragment"]:
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
            turn_limit=turn_limit_words(entry.options, game.record.options),
            view=None,
            buttons=[],
            result=None,
        )
        blocks = ["game"]
    else:
        view, buttons = seat_parts(game, seat)
        log_entries = view["log"]
        if context.get("names"):
            buttons = [dataclasses.replace(b, label=name_seats(b.label, context["names"])) for b in buttons]
        result = game.rules.result(game.state)
        # A solo game's hint area; the button of the move a hint suggests is highlighted.
        hint = context["hint"] = hints.panel(store(), game, seat) if entry.solo and result is None else None
        if hint is not None and hint.move is not None:
            buttons = [dataclasses.replace(b, hinted=True) if b.action == hint.move else b for b in buttons]
        played_by_bots = bot_play(store(), game, seat, context["seats"]) if not entry.solo else None
        context.update(
            view=view,
            buttons=buttons,
            result=result,
            log_mark=log_mark(log_entries),
            new_log=entries_after(log_entries, log_seen),
            next_game=game.record.lobby.get("next"),
            undo_reach=undo_reach(game, seat, buttons) if result is None else None,
            practice=practice_panel(game, seat),
        )
        if flash is None and log_seen is not None and log_seen > context["log_mark"]:
            context["flash"] = UNDONE_ELSEWHERE
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
                    bot_won_for=played_by_bots.won_for if played_by_bots else None,
                ),
            )
        )
        ending = context.get("ending")
        if isinstance(ending, dict) and context["practice"]:
            # The end of a practice game says so, to its player and to onlookers alike.
            ending = context["ending"] = {**ending, "practice": True}
        if isinstance(ending, dict) and hints.puzzle_for(game.rules) and hints.is_assisted(store(), game.id):
            # So does the end of a game in which a hint was asked.
            ending = context["ending"] = {**ending, "assisted": True}
        if isinstance(ending, dict) and ending.get("record") and seat is not None:
            # The player's own page of a finished game: where it leaves their record here.
            closed = deals.replay_closed_because(store(), game.id, browser_key())
            placement = deals.placement(store(), game.id)
            context["ending"] = {
                **ending,
                "standing": browsers.standing(store(), browser_key(), game.record.slug, game.id, game.record.deal_kind),
                "replay_closed": closed[1] if closed else None,
                # On a shared deal: where it placed, the score to beat, the way back to the ranking.
                "placement": placement,
                # Off one, the "Challenge a friend" form asks the name the challenge goes by.
                "sender_name": (
                    deals.name_to_offer(store(), browser_key()) if ending.get("challenges") and not placement else None
                ),
            }
        elif isinstance(ending, dict) and result and ending.get("text") not in (None, result["text"]):
            # An onlooker: the log's closing line is the result's sentence, which the engine
            # words for the player ("You died…"); it reads as the result box says it.
            context["view"], context["new_log"] = (
                {**view, "log": _onlookers_words(view["log"], result["text"], ending["text"])},
                _onlookers_words(context["new_log"], result["text"], ending["text"]),
            )
        if isinstance(context.get("ending"), dict) and result:
            # The solver's verdict on the deal, once the game is over (domain/verdicts.py).
            context["ending"] = {
                **context["ending"],
                "verdict": verdict_for(game, seat),
                "winnable_deal": context["winnable_deal"],
            }
        if not entry.solo and seat is not None and result and "daily" in game.record.lobby:
            # A daily deal's table (its lobby says so: no query for any other table), on a seated
            # player's own page: where their attempt placed, the score to beat, the ranking.
            context["placement"] = deals.placement(store(), game.id, seat)
        if played_by_bots is not None:
            say_whose_moves(context, played_by_bots, seat)
        template = f"{entry.template_dir}/game.html"
        if reader:
            template = "reader_game.html"
            context.update(reader_parts(game.rules, context["view"], seat, context["buttons"], context.get("names")))
        blocks = FRAGMENT_BLOCKS
    if is_htmx():
        body = render_blocks(template, blocks, **context)
    else:
        body = render_template(template, **context)
    response = make_response(body, status)
    response.headers["Vary"] = "HX-Request, Cookie"
    response.headers["Cache-Control"] = "no-store"
    return response


def say_whose_moves(context: dict, played: BotPlay, seat: str | None) -> None:
    """The board's words for what bots played for people: their log lines marked, a win of
    theirs said, and the viewer's own report of what a bot did for them."""
    context["view"] = {**context["view"], "log": marked(context["view"]["log"], played.marks, seat)}
    context["new_log"] = marked(context["new_log"], played.marks, seat)
    if played.won_for is not None:
        context["bot_win"] = win_sentence(played.won_for, seat, context["names"])
    if played.report:
        context["away_report"] = {"count": played.report_count, "items": played.report}


def board_response(game_id: str):
    """This viewer's board: the answer to its GET, and the board pushed to its socket."""
    log_seen, page = log_seen_param(), _board_page()  # validated before anything is loaded or cached
    prefetched = prefetched_for(game_id)
    if (prefetched and prefetched.seat) or has_seat_cookie() or not is_htmx():
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
    key = (game_id, revision, log_seen, page, reader_mode())
    return spectator_fragments().shared(key, lambda: _board(game_id, revision))


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
    closed = deals.closed_to_onlooker(store(), game, seat, browser_key())
    if closed:
        # An answer, not an abort: a pushed board (board_push) renders here outside a dispatch.
        return refusal(403, closed), None
    response = render_game(game, seat, log_seen=log_seen_param())
    body = response.get_data()
    # Never share a fragment that carries a form token (each browser has its own), nor a board of
    # a game on a shared deal (who may see it depends on the viewer's own attempt, not the game).
    shareable = (
        seat is None
        and not deals.on_shared_solo_deal(store(), game)
        and is_htmx()
        and game.record.revision == revision
        and response.status_code == 200
        and b'name="csrf_token"' not in body
    )
    return response, body if shareable else None
