"""The Hall of Fame: every escape of the game that declares one (``HALL_OF_FAME``, a
``rules_engine.fame.HallOfFame``: Dungeon Cards, rules §7.3), kept across games.

The engine writes each game's entries into its state and declares them through its
``fame_entries`` hook (without a date: the engine knows no clock). ``record_escapes``, one of the
writers ``create_app`` gives the game service, copies every new entry into the ``hall_of_fame``
table, with the player's name at the table and the date, in the same transaction
that stores the action that wrote it: the escape and its entry land together or not at all, so no
crash or error after the commit can lose an entry. The page lists them, ranked as the game
declares or sorted by any column.

Only a fresh, secret deal ranks. A deal its players could know or shape in advance can be
built to guarantee an escape (Dungeon Cards: a stacked deck, "Keep the stacked order" shuffles,
scripted dice, markers the host placed by hand, hand-placed walls — the game's ``set_deal``
says which options), or the same seed played again. Such an escape still gets its entry, but it
is marked as a set deal and kept out of the ranking: the page lists it only when asked, tagged
"set deal". The options are read both as the table was opened and as they stood at the escape
(the engine's own lobby can change them after the start), so no later change slips a rigged deal
into the ranking.

Only what a person played ranks, too: an escape of a seat a bot ever played (``seats.bot_played``:
a bot's own seat, or a person's seat a bot kept while they were away, even if they came back for
the escape) is marked "played by a bot" and kept out of the ranking the same way.

The ``hall_of_fame`` table's columns are the shape of the one game's entries, so at most one game
may declare a Hall of Fame (a second, of another shape, needs its entries stored as JSON).

>>> list(SORTS)[:3]
['rank', 'name', 'class']
>>> is_set_deal({"deck": ["3C"]}), is_set_deal({"shuffles": "stacked"}), is_set_deal({"turn_mode": "single_draw"})
(True, True, False)
>>> is_set_deal({}, {"marker_placement": "manual"}), is_set_deal({}, replayed=True)
(True, True)
"""

from __future__ import annotations

import json
import logging
import time

from sqlalchemy import func, insert, select

from rules_engine.fame import HallOfFame
from rules_engine.undo import is_practice

from ..storage.schema import games, hall_of_fame, seats
from .catalog import GAMES, GameEntry

log = logging.getLogger("delve.hall_of_fame")

_FAMED = [entry for entry in GAMES if entry.rules.hall_of_fame is not None]
if len(_FAMED) > 1:
    raise RuntimeError(f"one Hall of Fame table, {len(_FAMED)} games declaring HALL_OF_FAME")
GAME: GameEntry | None = _FAMED[0] if _FAMED else None
"""The game whose Hall of Fame this is, None when no game declares one (the page is then 404)."""
FAME: HallOfFame | None = GAME.rules.hall_of_fame if GAME is not None else None
SHOWN = 200

# Sort keys the page offers: name -> column header. "rank" is the game's ranking.
SORTS: dict[str, str] = dict(FAME.sorts) if FAME is not None else {}
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
# The game's ranking (§7.3: level high to low, then current lives high to low, then turns low to
# high), then the earlier entry first.
_RANKING = (
    *(_COLUMNS[key].asc() if way == "asc" else _COLUMNS[key].desc() for key, way in (FAME.ranking if FAME else ())),
    hall_of_fame.c.created_at.asc(),
    hall_of_fame.c.id.asc(),
)


def is_set_deal(*option_sets: dict, replayed: bool = False) -> bool:
    """Whether a game's cards, dice or board were set by a player rather than dealt by the server
    in secret, under any of ``option_sets`` (the game's ``set_deal``); or its deal was played
    before (``replayed``)."""
    return replayed or (FAME is not None and any(FAME.set_deal(options) for options in option_sets))


def record_escapes(conn, game, seat, action, new_state, now) -> None:
    """A writer of the game service: store the Hall of Fame entries this action wrote, on the
    connection (and in the transaction) that stores the action. A practice game (undo past
    reveals: ``rules_engine.undo``) writes none: it could be played to an escape by trying."""
    if game.state is None or is_practice(new_state):
        return
    before = len(game.rules.fame_entries(game.state))
    fresh = game.rules.fame_entries(new_state)[before:]
    if not fresh:
        return
    if conn.execute(select(games.c.assisted).where(games.c.id == game.id)).scalar():
        return  # a hint was asked in it (webapp/domain/hints.py): never ranked, never listed
    names: dict[str, str] = {}
    played_by_bot: set[str] = set()
    for seat_id, name, bot_played in conn.execute(
        select(seats.c.seat, seats.c.name, seats.c.bot_played).where(seats.c.game_id == game.id)
    ):
        names[seat_id] = name
        if bot_played:
            played_by_bot.add(seat_id)
    recorded = set(conn.execute(select(hall_of_fame.c.seat).where(hall_of_fame.c.game_id == game.id)).scalars())
    in_force = new_state.get("options") if isinstance(new_state.get("options"), dict) else {}
    set_deal = (
        1 if is_set_deal(game.record.options, in_force, replayed=bool(game.record.lobby.get("same_deal_as"))) else 0
    )
    for entry in fresh:
        if entry["player"] in recorded:  # never twice for one character and game
            log.info("hall of fame entry for %s in %s already recorded", entry["player"], game.id)
            continue
        conn.execute(
            insert(hall_of_fame).values(
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
                set_deal=set_deal,
                bot=int(entry["player"] in played_by_bot),
            )
        )


def entries(
    store, *, sort: str = "rank", direction: str = "desc", limit: int = SHOWN, set_deals: bool = False
) -> list[dict]:
    """Hall of Fame rows as plain dicts, sorted by ``sort`` (ties by rank). Each has its §7.3
    ``rank`` among the ranked escapes (shuffled deals a person played); set deals and seats a bot
    played are left out unless ``set_deals`` (then listed after the others, with no rank)."""
    unranked = (hall_of_fame.c.set_deal + hall_of_fame.c.bot) > 0
    query = select(
        hall_of_fame,
        unranked.label("unranked"),
        func.row_number().over(partition_by=unranked, order_by=_RANKING).label("rank"),
    )
    if not set_deals:
        query = query.where(hall_of_fame.c.set_deal == 0, hall_of_fame.c.bot == 0)
    ranked = query.subquery()
    columns = {name: ranked.c[col.name] for name, col in _COLUMNS.items()}
    first = columns.get(sort)
    ordering = [ranked.c.unranked.asc(), ranked.c.rank.asc()]
    if first is not None:
        ordering.insert(0, first.asc() if direction == "asc" else first.desc())
    with store.engine.connect() as conn:
        rows = conn.execute(select(ranked).order_by(*ordering).limit(limit)).mappings().all()
    out = []
    for row in rows:
        item = dict(row)
        item["set_deal"] = bool(row["set_deal"])
        item["bot"] = bool(row["bot"])
        if row["unranked"]:
            item["rank"] = None
        item["bosses"] = json.loads(row["bosses"] or "[]")
        item["mods"] = json.loads(row["mods"] or "[]")
        item["date"] = time.strftime("%Y-%m-%d", time.gmtime(row["created_at"]))
        item["when"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(row["created_at"]))
        out.append(item)
    return out
