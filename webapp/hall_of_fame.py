"""The Hall of Fame of Dungeon Cards (rules §7.3): every escape, kept across games.

The engine writes each game's entries into its state (``state["hall_of_fame"]``, without a date:
the engine knows no clock). A listener in ``play.AFTER_ACTION`` copies every new entry into the
``hall_of_fame`` table, with the player's name at the table and the date, once the action that
wrote it is stored. The page lists them, ranked as §7.3 says or sorted by any column.

>>> list(SORTS)[:3]
['rank', 'name', 'class']
"""

from __future__ import annotations

import json
import logging
import time

from flask import Blueprint, current_app, render_template, request
from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, Text, UniqueConstraint, func, insert, select
from sqlalchemy.exc import IntegrityError

import rules_engine

from .play import AFTER_ACTION
from .store import metadata

log = logging.getLogger("delve.hall_of_fame")

SLUG = "dungeon-cards"
SHOWN = 200

hall_of_fame = metadata.tables.get("hall_of_fame")
if hall_of_fame is None:  # a second import of this module (doctest collection) reuses the table
    hall_of_fame = Table(
        "hall_of_fame",
        metadata,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("game_id", String(64), ForeignKey("games.id"), nullable=False, index=True),
        Column("seat", String(32), nullable=False),
        Column("name", String(64), nullable=False),
        Column("character_class", String(16), nullable=False),
        Column("level", Integer, nullable=False),
        Column("lives", Integer, nullable=False),
        Column("max_lives", Integer, nullable=False),
        Column("speed", Integer, nullable=False),
        Column("bosses", Text, nullable=False),  # JSON list of ranks, e.g. ["J", "Q"]
        Column("turns", Integer, nullable=False),
        Column("outcome", String(16), nullable=False),  # "escaped" or "team victory"
        Column("turn_mode", String(24), nullable=False),
        Column("board", String(16), nullable=False),  # "10x10"
        Column("mods", Text, nullable=False),  # JSON list of the mods in use
        Column("party_size", Integer, nullable=False),
        Column("created_at", Float, nullable=False),
        # One entry per character and game: recording is idempotent.
        UniqueConstraint("game_id", "seat", name="uq_hall_of_fame_game_seat"),
    )

bp = Blueprint("hall_of_fame", __name__)

# Sort keys the page offers: name -> column header. "rank" is §7.3's ranking.
SORTS = {
    "rank": "Rank",
    "name": "Name",
    "class": "Class",
    "level": "Level",
    "lives": "Lives",
    "speed": "Speed",
    "turns": "Turns",
    "board": "Board",
    "date": "Date",
}
_COLUMNS = {
    "name": hall_of_fame.c.name,
    "class": hall_of_fame.c.character_class,
    "level": hall_of_fame.c.level,
    "lives": hall_of_fame.c.lives,
    "speed": hall_of_fame.c.speed,
    "turns": hall_of_fame.c.turns,
    "board": hall_of_fame.c.board,
    "date": hall_of_fame.c.created_at,
}
# §7.3: level high to low, then current lives high to low, then turns low to high, then earlier first.
_RANKING = (hall_of_fame.c.level.desc(), hall_of_fame.c.lives.desc(), hall_of_fame.c.turns.asc(),
            hall_of_fame.c.created_at.asc(), hall_of_fame.c.id.asc())


def record_escapes(store, game, seat, action, new_state, version) -> None:
    """``play.AFTER_ACTION`` listener: store the Hall of Fame entries this action wrote."""
    if game.record.slug != SLUG or not isinstance(new_state, dict):
        return
    before = len((game.state or {}).get("hall_of_fame", []))
    fresh = new_state.get("hall_of_fame", [])[before:]
    if not fresh:
        return
    names = {s.seat: s.name for s in store.seats(game.id)}
    now = time.time()
    for entry in fresh:
        row = dict(
            game_id=game.id,
            seat=entry["player"],
            name=names.get(entry["player"], entry["player"]),
            character_class=entry["class"],
            level=entry["level"],
            lives=entry["lives"],
            max_lives=entry["max_lives"],
            speed=entry["speed"],
            bosses=json.dumps(entry.get("bosses_defeated", [])),
            turns=entry.get("turns_taken", 0),
            outcome=entry["outcome"],
            turn_mode=entry["turn_mode"],
            board=entry["board_size"],
            mods=json.dumps(entry.get("mods", [])),
            party_size=entry.get("party_size", 1),
            created_at=now,
        )
        try:
            with store.engine.begin() as conn:
                conn.execute(insert(hall_of_fame).values(**row))
        except IntegrityError:  # already recorded (a retried request): nothing to add
            log.info("hall of fame entry for %s in %s already recorded", entry["player"], game.id)


def _safe_record(*args) -> None:
    # The action is already stored when listeners run: a Hall of Fame hiccup must not turn a
    # good move into an error page.
    try:
        record_escapes(*args)
    except Exception:
        log.exception("could not record a Hall of Fame entry")


if not any(getattr(listener, "__name__", "") == "_safe_record" for listener in AFTER_ACTION):
    AFTER_ACTION.append(_safe_record)


def entries(store, *, sort: str = "rank", direction: str = "desc", limit: int = SHOWN) -> list[dict]:
    """Hall of Fame rows as plain dicts, each with its §7.3 ``rank``, sorted by ``sort`` (ties by rank)."""
    ranked = select(hall_of_fame, func.row_number().over(order_by=_RANKING).label("rank")).subquery()
    columns = {name: ranked.c[col.name] for name, col in _COLUMNS.items()}
    first = columns.get(sort)
    ordering = [ranked.c.rank.asc()]
    if first is not None:
        ordering.insert(0, first.asc() if direction == "asc" else first.desc())
    with store.engine.connect() as conn:
        rows = conn.execute(select(ranked).order_by(*ordering).limit(limit)).mappings().all()
    out = []
    for row in rows:
        item = dict(row)
        item["bosses"] = json.loads(row["bosses"] or "[]")
        item["mods"] = json.loads(row["mods"] or "[]")
        item["date"] = time.strftime("%Y-%m-%d", time.gmtime(row["created_at"]))
        item["when"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(row["created_at"]))
        out.append(item)
    return out


@bp.get("/hall-of-fame")
def page():
    store = current_app.extensions["delve_store"]
    sort = request.args.get("sort", "rank")
    sort = sort if sort in SORTS else "rank"
    direction = request.args.get("dir", "")
    if direction not in ("asc", "desc"):
        # Natural first directions: names and classes A→Z, turns fewest first, the rest highest first.
        direction = "asc" if sort in ("name", "class", "turns") else "desc"
    return render_template(
        "dungeon_cards/hall_of_fame.html",
        rows=entries(store, sort=sort, direction=direction),
        sort=sort,
        direction=direction,
        sorts=SORTS,
        rules=rules_engine.get(SLUG),
        shown=SHOWN,
    )
