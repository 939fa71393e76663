"""Replays of finished games: any step of a game's history, drawn with the game's own board.

A finished game's history is public (its hidden cards and map no longer decide anything), so its
replay shows, by default, everything the live pages hid (the engine's ``full_view``), and on
request one seat's view as it was at the time. A running game has no replay: every route here
answers 409 for it, whatever it is asked, so nothing hidden leaves the server early.

States are rebuilt by the engine from the stored seed, options, players and actions (the engine is
pure and deterministic). Each finished game's rebuild is done once per process and kept as a
checkpoint every ``CHECKPOINT_EVERY`` steps: a step is then at most that many applies away,
whatever the game's length. Finished games never change, so the cache needs no invalidation.

The same history travels as a file: ``/g/<id>/replay.json`` downloads it, and importing the file
replays it through the engine (refused with the first action that does not replay) and stores it
as a finished game with a replay of its own. Imported games write nothing else (no Hall of Fame).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from flask import Blueprint, abort, current_app, make_response, redirect, render_template, request, url_for
from jinja2_fragments.flask import render_blocks
from markupsafe import Markup, escape

import rules_engine

from . import deals, play
from . import seats as seat_tokens
from .catalog import BY_SLUG, clean_name
from .config import PROJECT_ROOT
from .limits import CREATE_GAME, READ, limiter
from .presenters import Scene, present
from .rendering import name_seats, pretty_cards
from .security import check_csrf
from .store import Store

bp = Blueprint("replays", __name__)

CHECKPOINT_EVERY = 32
EVERYTHING = "all"
EXPORT_FORMAT = "delve-game"
EXPORT_VERSION = 1
# A long game's file is a few hundred kilobytes; the app's default request cap (16 KB) is for forms.
IMPORT_MAX_BYTES = 2 * 1024 * 1024
IMPORT_MAX_ACTIONS = 20_000
SPEEDS = (("0.5", "slow"), ("1", "normal"), ("2", "fast"), ("4", "very fast"))


class ReplayRefused(Exception):
    """A history that does not replay through the engine (an imported file), with the reason."""


@dataclass(frozen=True)
class LogLine:
    """One line of a finished game's whole log, as one perspective reads it, its words drawn
    (seat ids named, card codes as symbols)."""

    seq: int
    html: Markup


@dataclass
class History:
    """One finished game's history, rebuilt once: its moves, and a state every CHECKPOINT_EVERY steps."""

    rules: rules_engine.Rules
    moves: list[tuple[str, dict]]
    checkpoints: list[Any]
    # Where each seat's token stood at every step (games on a map: ``positions``), for the paths.
    positions: list[dict[str, list[int]]] = field(default_factory=list)
    log_lines: dict[str | None, list[LogLine]] = field(default_factory=dict)
    marks: dict[tuple[int, str | None], int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def steps(self) -> int:
        return len(self.moves)

    def trails(self, step: int) -> dict[str, list[list[int]]]:
        """Each seat's path from the deal to ``step``: the squares it stood on, in order."""
        paths: dict[str, list[list[int]]] = {}
        for where in self.positions[: step + 1]:
            for seat, pos in where.items():
                path = paths.setdefault(seat, [])
                if not path or path[-1] != pos:
                    path.append(pos)
        return paths

    def state_at(self, step: int) -> Any:
        """The state after ``step`` moves (0: as dealt)."""
        state = self.checkpoints[step // CHECKPOINT_EVERY]
        for seat, action in self.moves[step - step % CHECKPOINT_EVERY : step]:
            state = self.rules.apply(state, seat, action)
        return state

    def view_at(self, state: Any, perspective: str | None) -> dict:
        return self.rules.full_view(state) if perspective is None else self.rules.view(state, perspective)

    def mark_at(self, step: int, perspective: str | None, view: dict | None = None) -> int:
        """How far the log reaches at ``step``, as ``perspective`` reads it (kept as found: a page
        of step N needs step N - 1's too, which the step before has just worked out)."""
        key = (step, perspective)
        mark = self.marks.get(key)
        if mark is None:
            if view is None:
                view = self.view_at(self.state_at(step), perspective)
            mark = self.marks[key] = _log_end(view["log"])
        return mark

    def step_of(self, seq: int, perspective: str | None) -> int:
        """The step at which log line ``seq`` first shows (a log only grows: a binary search, a
        dozen views, rather than a view of every step of a long game)."""
        low, high = 0, self.steps
        while low < high:
            middle = (low + high) // 2
            if self.mark_at(middle, perspective) >= seq:
                high = middle
            else:
                low = middle + 1
        return low


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


def log_items(lines: list[LogLine], shown_before: int, shown_up_to: int, link: Callable[[int], str]) -> Markup:
    """The replay's log as list items: lines shown before this step, the ones this step added
    (marked for assistive technology too), and those still to come; each links to its own step.
    Assembled here rather than in the template: it runs for every line of every step."""
    items = []
    for line in lines:
        href = escape(link(line.seq))
        if line.seq > shown_up_to:
            opening = '<li class="future">'
        elif line.seq > shown_before:
            opening = '<li class="past now" aria-current="step">'
        else:
            opening = '<li class="past">'
        items.append(f'{opening}<a href="{href}" hx-get="{href}">{line.html}</a></li>')
    return Markup("".join(items))  # noqa: S704 (hrefs are ours; the words were escaped by pretty_cards)


def _log_end(entries: list) -> int:
    return int(entries[-1]["seq"]) if entries else 0


def rebuild(rules: rules_engine.Rules, seed: int, players: list[str], options: dict, moves: list) -> History:
    """The history of a game replayed through the engine; ReplayRefused names the first move
    that does not replay."""
    try:
        state = rules.new_game(seed, list(players), dict(options))
    except rules_engine.InvalidAction as error:
        raise ReplayRefused(f"The game cannot be set up from these options: {error}") from None
    checkpoints = [state]
    positions = [rules.positions(state)]
    for index, (seat, action) in enumerate(moves, start=1):
        try:
            state = rules.apply(state, seat, action)
        except (rules_engine.InvalidAction, rules_engine.IllegalAction) as error:
            raise ReplayRefused(
                f"Action {index} ({_describe(action)} by seat {seat}) does not replay: {error}"
            ) from None
        except (TypeError, KeyError, IndexError, AttributeError, ValueError) as error:
            raise ReplayRefused(f"Action {index} ({_describe(action)} by seat {seat}) is malformed: {error}") from None
        if index % CHECKPOINT_EVERY == 0:
            checkpoints.append(state)
        positions.append(rules.positions(state))
    return History(rules=rules, moves=list(moves), checkpoints=checkpoints, positions=positions)


def _describe(action: Any) -> str:
    text = json.dumps(action, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "…"


class Histories:
    """The rebuilt histories of the finished games replayed lately (a bounded LRU, per process)."""

    def __init__(self, size: int = 64):
        self._items: OrderedDict[str, History] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, store: Store, game: play.LoadedGame) -> History:
        with self._lock:
            history = self._items.get(game.id)
            if history is not None:
                self._items.move_to_end(game.id)
                return history
        record = game.record
        moves = [(seat, action) for _seq, seat, action in store.actions(game.id)]
        try:
            history = rebuild(game.rules, record.seed, record.players, record.options, moves)
        except ReplayRefused as error:
            # A stored game that does not replay is our bug (an engine changed its rules under
            # stored games): say so rather than show a history that is not the one played.
            current_app.logger.error("game %s does not replay: %s", game.id, error)
            abort(500, description="This game's history no longer replays with today's rules.")
        self.put(game.id, history)
        return history

    def put(self, game_id: str, history: History) -> None:
        with self._lock:
            self._items[game_id] = history
            while len(self._items) > self._size:
                self._items.popitem(last=False)


histories = Histories()


def store() -> Store:
    return current_app.extensions["delve_store"]


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
    closed = deals.replay_closed_because(game.id)
    if closed is not None:
        abort(closed[0], description=closed[1])
    return game


def _step_param(steps: int) -> int:
    raw = request.args.get("step", "0")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
        abort(400, description="A replay step is a whole number, like ?step=12.")
    return min(int(raw), steps)


def _perspective_param(seats: list[str]) -> str | None:
    raw = request.args.get("as", EVERYTHING)
    if raw == EVERYTHING:
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
        log_mark=_log_end(log_entries),
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
    history = histories.get(store(), game)
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
    shown_up_to = history.mark_at(step, perspective, view)
    if perspective is None and any(history.positions):
        view = {**view, "trails": history.trails(step)}
    shown_before = history.mark_at(step - 1, perspective) if step > 0 else 0
    lines = lines_of(history, perspective, names)
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
        log_items=log_items(lines, shown_before, shown_up_to, line_links(game.id, perspective)),
        step_lines=[line.html for line in lines if shown_before < line.seq <= shown_up_to],
        step_action=_action_said(game, history, step, perspective, names),
        url=link,
        permalink=url_for(
            "replays.replay", game_id=game.id, step=step, _external=True, **({"as": perspective} if perspective else {})
        ),
        speeds=SPEEDS,
        stylesheet=_stylesheet(entry.template_dir),
        imported=bool(game.record.lobby.get("imported")),
    )
    if is_htmx():
        response = make_response(render_blocks("replay.html", ["replay"], **context))
        response.headers["HX-Push-Url"] = link(step)
    else:
        response = make_response(render_template("replay.html", **context))
    response.headers["Vary"] = "HX-Request"
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


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


@bp.get("/g/<game_id>/replay.json")
@limiter.shared_limit(READ, scope="read")
def export(game_id: str):
    """The finished game as a file: what importing it needs to replay it through the engine."""
    game = finished_game_or_409(game_id)
    record = game.record
    names = _names(game)
    document = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
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
    return response


@bp.get("/replays/import")
def import_form():
    return render_template("replay_import.html", problem=None)


@bp.post("/replays")
@limiter.limit(CREATE_GAME)
def import_file():
    request.max_content_length = IMPORT_MAX_BYTES
    check_csrf()
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _import_problem("Choose a replay file (a .json file downloaded from a finished game's replay).")
    try:
        document = json.loads(upload.read(IMPORT_MAX_BYTES + 1).decode("utf-8"))
        parsed = _parse_document(document)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return _import_problem("That file is not a replay file: it is not JSON text.")
    except ReplayRefused as error:
        return _import_problem(str(error))
    rules, seed, players, options, moves, names = parsed
    try:
        history = rebuild(rules, seed, players, options, moves)
    except ReplayRefused as error:
        return _import_problem(str(error))
    final = history.state_at(history.steps)
    result = rules.result(final)
    if result is None:
        return _import_problem(
            f"The file's game is not over after its {history.steps} actions: only finished games can be imported."
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
        placeholder_hash=seat_tokens.hash_token(seat_tokens.new_token()),
    )
    histories.put(game_id, history)
    return redirect(url_for("replays.replay", game_id=game_id), code=303)


def _import_problem(problem: str):
    return make_response(render_template("replay_import.html", problem=problem), 400)


def _parse_document(document: Any):
    """The parts of a replay file, checked for shape (the engine checks the rest by replaying)."""
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise ReplayRefused('That file is not a Delve replay file (it has no "format": "delve-game").')
    if document.get("version") != EXPORT_VERSION:
        raise ReplayRefused(f"This replay file's version is not one Delve reads (expected {EXPORT_VERSION}).")
    slug = document.get("game")
    if not isinstance(slug, str) or slug not in BY_SLUG:
        raise ReplayRefused("The file names a game Delve does not have.")
    rules = rules_engine.get(slug)
    seed, players, options = document.get("seed"), document.get("players"), document.get("options")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise ReplayRefused("The file's seed is not a whole number Delve deals from.")
    if (
        not isinstance(players, list)
        or not players
        or len(players) > max(rules.max_players, 1) * 4
        or not all(isinstance(p, str) and 0 < len(p) <= 32 for p in players)
        or len(set(players)) != len(players)
    ):
        raise ReplayRefused("The file's list of players is not one Delve can seat.")
    if not isinstance(options, dict):
        raise ReplayRefused("The file's options are not a set of named values.")
    actions = document.get("actions")
    if not isinstance(actions, list) or len(actions) > IMPORT_MAX_ACTIONS:
        raise ReplayRefused("The file's actions are not a list Delve can replay.")
    moves = []
    for index, item in enumerate(actions, start=1):
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("seat"), str)
            or not isinstance(item.get("action"), dict)
            or not isinstance(item["action"].get("type"), str)
        ):
            raise ReplayRefused(f"Action {index} is not a seat and an action.")
        moves.append((item["seat"], item["action"]))
    raw_names = document.get("names") or {}
    names = {}
    if isinstance(raw_names, dict):
        for seat in players:
            if isinstance(raw_names.get(seat), str):
                names[seat] = clean_name(raw_names[seat], "")
    return rules, seed, players, options, moves, names
