"""Replays of finished games, step by step, drawn with the game's own board; their files, exported
and imported (``domain/history.py`` rebuilds the histories and checks the files)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from jinja2_fragments.flask import render_blocks
from markupsafe import Markup, escape

from rules_engine.undo import is_practice

from ..config import PROJECT_ROOT
from ..domain import deal_pools, deals, play, verdicts
from ..domain import history as game_history
from ..domain.catalog import BY_SLUG
from ..domain.history import History
from ..domain.seat_tokens import hash_token, new_token
from ..pages.presenters import Scene, present
from ..pages.rendering import name_seats, pretty_cards
from .context import browser_key, histories, is_htmx, store
from .limits import CREATE_GAME, READ, limiter
from .security import check_csrf

bp = Blueprint("replays", __name__)


def replay_history(game: play.LoadedGame) -> History:
    """The finished game's history, rebuilt once per process (``Histories``)."""
    try:
        return histories().get(store(), game)
    except game_history.HistoryBroken:
        abort(500, description="This game's history no longer replays with today's rules.")


@dataclass(frozen=True)
class LogLine:
    """One line of a finished game's whole log, as one perspective reads it, its words drawn
    (seat ids named, card codes as symbols)."""

    seq: int
    html: Markup


def lines_of(history: History, perspective: str | None, names: dict[str, str]) -> list[LogLine]:
    """The whole log as ``perspective`` reads it at the end; drawn once per game and perspective
    (a long game's log has a thousand lines, and a finished game's words never change)."""
    with history.lock:
        cached = history.log_lines.get(perspective)
    if cached is not None:
        return cached
    final = history.view_at(history.state_at(history.steps), perspective)
    lines = [LogLine(seq=e["seq"], html=pretty_cards(name_seats(e["text"], names))) for e in final["log"]]
    with history.lock:
        history.log_lines[perspective] = lines
    return lines


LOST_HERE = "From this move on, no line won the deal."
"""What the replay says of the move that lost a game its win (``verdicts.lost_step``)."""


def log_items(
    lines: list[LogLine],
    shown_before: int,
    shown_up_to: int,
    link: Callable[[int], str],
    lost: range | None = None,
) -> Markup:
    """The replay's log as list items: lines shown before this step, the ones this step added
    (marked for assistive technology too), and those still to come; each links to its own step.
    ``lost``: the ``seq`` of the lines the move that lost the game wrote, marked as where it
    was lost. Assembled here rather than in the template: it runs for every line of every step."""
    items = []
    for line in lines:
        href = escape(link(line.seq))
        if line.seq > shown_up_to:
            classes, current = "future", ""
        elif line.seq > shown_before:
            classes, current = "past now", ' aria-current="step"'
        else:
            classes, current = "past", ""
        said = line.html
        if lost is not None and line.seq in lost:
            classes += " lost-here"
            said = Markup(f'{said} <span class="lost-mark">({LOST_HERE})</span>')  # noqa: S704 (our words)
        items.append(f'<li class="{classes}"{current}><a href="{href}" hx-get="{href}">{said}</a></li>')
    return Markup("".join(items))  # noqa: S704 (hrefs are ours; the words were escaped by pretty_cards)


def finished_game_or_409(game_id: str) -> play.LoadedGame:
    game = play.load_game(store(), game_id)
    if game is None:
        abort(404, description="There is no game at this address. It may have been mistyped.")
    if game.record.status != "finished":
        abort(
            409,
            description=(
                "This game is still being played. Its replay opens when it ends: until then what "
                "is hidden stays hidden, step by step included."
            ),
        )
    closed = deals.replay_closed_because(store(), deals.dealt_as(game), browser_key())
    if closed is not None:
        abort(closed[0], description=closed[1])
    return game


def _step_param(steps: int) -> int:
    raw = request.args.get("step", "0")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
        abort(400, description="A replay step is a whole number, like ?step=12.")
    return min(int(raw), steps)


def _perspective_param(seats: list[str]) -> str | None:
    raw = request.args.get("as", game_history.EVERYTHING)
    if raw == game_history.EVERYTHING:
        return None
    if raw not in seats:
        abort(400, description="This game has no such seat to watch from.")
    return raw


_THIS_VIEW = object()


def step_links(game_id: str, perspective: str | None) -> Callable[..., str]:
    """``link(step, perspective=this one)``: a step's address. ``url_for`` is built once per
    request; a long game's page links thousands of steps."""
    base = url_for("replays.replay", game_id=game_id)

    def link(step: int, seen_as: str | None | object = _THIS_VIEW) -> str:
        seat = perspective if seen_as is _THIS_VIEW else seen_as
        return f"{base}?step={step}" + (f"&as={quote(str(seat))}" if seat else "")

    return link


def line_links(game_id: str, perspective: str | None) -> Callable[[int], str]:
    """``link(seq)``: the address that opens the step where log line ``seq`` first shows."""
    base = url_for("replays.replay", game_id=game_id)
    seen_as = f"&as={quote(perspective)}" if perspective else ""
    return lambda seq: f"{base}?seq={seq}{seen_as}"


def _stylesheet(template_dir: str) -> str | None:
    name = f"css/{template_dir}.css"
    return name if (Path(PROJECT_ROOT) / "static" / name).exists() else None


def _board(game: play.LoadedGame, state: Any, view: dict, step: int, perspective: str | None, names: dict) -> Markup:
    """The game's own board block at ``step``, drawn as its page draws it, with no controls."""
    entry = BY_SLUG[game.record.slug]
    result = game.rules.result(state)
    log_entries = view["log"]
    context: dict[str, Any] = dict(
        entry=entry,
        rules=game.rules,
        game_id=game.id,
        version=step,
        revision=step,
        # No seat: the page of a replay has no forms (no rematch, no actions) whoever looks.
        seat=None,
        flash=None,
        share_url="",
        fragment=True,
        new_log=[],
        view=view,
        buttons=[],
        result=result,
        log_mark=game_history.log_end(log_entries),
        next_game=None,
    )
    if not entry.solo:
        context.update(
            names=names,
            seats=[
                {"seat": s, "name": n, "connected": False, "gone": False, "drop_in": None, "host": False}
                for s, n in names.items()
            ],
            turn_deadline_in=None,
        )
    context.update(
        present(
            entry.template_dir,
            Scene(rules=game.rules, view=view, seat=perspective, buttons=[], result=result, names=names),
        )
    )
    return Markup(render_blocks(f"{entry.template_dir}/game.html", ["game"], **context))  # noqa: S704 (our render)


def _names(game: play.LoadedGame) -> dict[str, str]:
    return {s.seat: s.name for s in store().seats(game.id)}


@bp.get("/g/<game_id>/replay")
@limiter.shared_limit(READ, scope="read")
def replay(game_id: str):
    game = finished_game_or_409(game_id)
    history = replay_history(game)
    names = _names(game)
    perspective = _perspective_param(list(game.record.players))
    link = step_links(game.id, perspective)
    if "seq" in request.args:
        # A log line's link: the step where the line first shows. Pages get that step's address.
        raw = request.args["seq"]
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
            abort(400, description="A log line is named by a whole number.")
        step = history.step_of(int(raw), perspective)
        if not is_htmx():
            return redirect(link(step), code=303)
    else:
        step = _step_param(history.steps)
    entry = BY_SLUG[game.record.slug]
    state = history.state_at(step)
    view = history.view_at(state, perspective)
    # The final log's lines that stand by this step, and by the step before (after an undo, a
    # line's number may have been another line's at an earlier step: ``History.shown_at``).
    shown_up_to = history.shown_at(step, perspective, view)
    shown_before = history.shown_at(step - 1, perspective) if step > 0 else 0
    # What this step itself wrote, from its own log (a line a later undo takes back included).
    written_after = history.mark_at(step - 1, perspective) if step > 0 else 0
    step_lines = [pretty_cards(name_seats(e["text"], names)) for e in view["log"] if e["seq"] > written_after]
    if perspective is None and history.on_a_map:
        view = {**view, "trails": history.trails(step)}
    lines = lines_of(history, perspective, names)
    lost = verdicts.lost_step(store(), game.id)
    lost_lines = (
        range(history.shown_at(lost - 1, perspective) + 1, history.shown_at(lost, perspective) + 1)
        if lost is not None and lost <= history.steps
        else None
    )
    context = dict(
        entry=entry,
        game_id=game.id,
        step=step,
        steps=history.steps,
        perspective=perspective,
        perspectives=[(None, "Everything")] + [(s, names.get(s, s)) for s in game.record.players],
        names=names,
        board=_board(game, state, view, step, perspective, names),
        revealed=view.get("revealed") or [] if perspective is None else [],
        log_items=log_items(lines, shown_before, shown_up_to, line_links(game.id, perspective), lost_lines),
        lost_step=lost,
        lost_here=LOST_HERE,
        line_of=game.record.lobby.get("line_of"),
        step_lines=step_lines,
        step_action=_action_said(game, history, step, perspective, names),
        url=link,
        permalink=url_for(
            "replays.replay", game_id=game.id, step=step, _external=True, **({"as": perspective} if perspective else {})
        ),
        speeds=game_history.SPEEDS,
        stylesheet=_stylesheet(entry.template_dir),
        imported=bool(game.record.lobby.get("imported")),
        practice=is_practice(game.state),
        winnable_deal=deal_pools.winnable_deal(game.record),
    )
    if is_htmx():
        response = make_response(render_blocks("replay.html", ["replay"], **context))
        response.headers["HX-Push-Url"] = link(step)
    else:
        response = make_response(render_template("replay.html", **context))
    # Whether a replay opens depends on this browser's own attempt (deals.replay_closed_because).
    response.headers["Vary"] = "HX-Request, Cookie"
    response.headers["Cache-Control"] = "private"
    return response


def _action_said(
    game: play.LoadedGame, history: History, step: int, perspective: str | None, names: dict
) -> str | None:
    """Who did what at ``step``, in the words of the action's button ("Ann: Move east"): in the
    view of everything, and in a seat's view for that seat's own actions only."""
    if step == 0:
        return None
    seat, action = history.moves[step - 1]
    if perspective is not None and seat != perspective:
        return None
    label = game.rules.action_label(history.state_at(step - 1), action)
    return f"{names.get(seat, seat)}: {name_seats(label, names)}"


@bp.get("/g/<game_id>/replay.json")
@limiter.shared_limit(READ, scope="read")
def export(game_id: str):
    """The finished game as a file: what importing it needs to replay it through the engine."""
    game = finished_game_or_409(game_id)
    record = game.record
    names = _names(game)
    document = {
        "format": game_history.EXPORT_FORMAT,
        "version": game_history.EXPORT_VERSION,
        "game": record.slug,
        "options": record.options,
        "seed": record.seed,
        "players": record.players,
        "names": {seat: names[seat] for seat in record.players if seat in names},
        "actions": [{"seat": seat, "action": action} for _seq, seat, action in store().actions(game.id)],
        "result": record.result,
        "finished_at": record.finished_at,
    }
    response = make_response(json.dumps(document, ensure_ascii=False, indent=1))
    response.headers["Content-Type"] = "application/json; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="delve-{record.slug}-{game.id[:8]}.json"'
    response.headers["Vary"] = "Cookie"
    response.headers["Cache-Control"] = "private"
    return response


@bp.get("/replays/import")
def import_form():
    return render_template("replay_import.html", problem=None)


@bp.post("/replays")
@limiter.limit(CREATE_GAME)
def import_file():
    request.max_content_length = game_history.IMPORT_MAX_BYTES
    check_csrf()
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _import_problem("Choose a replay file (a .json file downloaded from a finished game's replay).")
    try:
        document = json.loads(upload.read(game_history.IMPORT_MAX_BYTES + 1).decode("utf-8"))
        parsed = game_history.parse_document(document)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return _import_problem("That file is not a replay file: it is not JSON text.")
    except RecursionError:
        return _import_problem("That file is not a replay file Delve reads: its lists or objects nest too deeply.")
    except ValueError:  # what remains of the reader's refusals: a number past Python's digit limit
        return _import_problem("That file is not a replay file Delve reads: it holds a number far too long.")
    except game_history.ReplayRefused as error:
        return _import_problem(str(error))
    finally:
        upload.close()
    rules, seed, players, options, moves, names = parsed
    try:
        rebuilt = game_history.rebuild(
            rules,
            seed,
            players,
            options,
            moves,
            budget=game_history.IMPORT_WORK_BUDGET,
            deadline=time.monotonic() + game_history.IMPORT_SECONDS,
        )
    except game_history.ReplayTooCostly as error:
        return _import_problem(str(error), status=422)
    except game_history.ReplayRefused as error:
        return _import_problem(str(error))
    final = rebuilt.state_at(rebuilt.steps)
    result = rules.result(final)
    if result is None:
        return _import_problem(
            f"The file's game is not over after its {rebuilt.steps} actions: only finished games can be imported."
        )
    game_id = store().import_finished(
        slug=rules.slug,
        options=options,
        seed=seed,
        players=players,
        names={seat: names.get(seat) or f"Player {index}" for index, seat in enumerate(players, start=1)},
        moves=moves,
        snapshot=rules.dump(final),
        result=result,
        placeholder_hash=hash_token(new_token()),
    )
    histories().put(game_id, rebuilt)
    return redirect(url_for("replays.replay", game_id=game_id), code=303)


def _import_problem(problem: str, status: int = 400):
    return make_response(render_template("replay_import.html", problem=problem), status)
