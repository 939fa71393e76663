"""Shared deals: "beat my score on this deal" challenges, and one deal a day for everybody.

A **challenge** (``/c/<token>``) is made from a finished solo game by its player: whoever opens the
link starts a fresh game on the same deal (the game's seed and options, read from the store; the
token alone travels). A **daily deal** (``/daily/<slug>``) is drawn in secret by the first request
of each UTC day, the same for everybody (from a pool of deals the solver proved winnable when one
is ready: ``deal_pools``; its page says so); The Dungeon of Doom's is a table on the day's random map.

Every game played on a shared deal is an *attempt* (``deal_attempts``): ranked if it is the first
on that deal both of this browser and of this client address (a keyed hash of it, as seats keep:
a fresh cookie is free to make), practice otherwise; one started from another attempt ("the same
deal again") is always practice. Practice is one concept: an attempt that is not ranked may be
switched to practice mode (``rules_engine.undo``: undo past reveals), and a game in practice mode
is never ranked (``games.practice``); a ranked attempt cannot be switched
(``note_practice_switch`` refuses it in the action's own transaction). Nor is a game in which a
hint was asked (``games.assisted``), and a ranked attempt takes none (``hints.ask``). A deal's page lists its
finished attempts, ranked by score (the attempt's own seat's), then fewer actions, then the
earlier finish (``RANKING_ORDER``, which the page states); a seat a bot ever played is never
ranked (and a daily table takes no bots at all: ``service.takes_bots``). The end panel of an
attempt tells its player where it placed (``placement``).

No studying the deal first: the replay (and the file) of an attempt opens only to a browser whose
own attempt on that deal is finished, and a daily deal's replays stay closed to everybody until
its day is over (``replay_closed_because``, which the replays ask). A solo game on a shared
deal — a challenge's source game too — shows its page and board to anyone but its player on the
same terms (``closed_to_onlooker``): a finished game's page shows its whole log. The seed never
leaves the server while a game on the deal runs.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import and_, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from rules_engine.undo import is_practice

from ..storage.schema import browser_seats, challenges, daily_deals, deal_attempts, games, seats
from ..storage.store import Store
from . import deal_pools, play
from .catalog import BY_SLUG, GAMES, parse_options
from .service import Refused

TOKEN_BYTES = 12
LEADERBOARD_SIZE = 50
HISTORY_DAYS = 30
DAILY_GAMES = {entry.slug: entry for entry in GAMES if entry.rules.daily_form is not None}
"""The games that declare a deal of the day (``DAILY_FORM``), front-page order."""
CHALLENGER_NAME = "Challenger"
"""The name of someone who takes a challenge without giving one."""
UNNAMED = frozenset({play.DEFAULT_SOLO_NAME, CHALLENGER_NAME, "Host"})
"""The names a player goes by when they typed none: never offered back as "your name"."""
RANKING_ORDER = "the better score first, then fewer actions, then the earlier finish"
"""How a deal's attempts are ordered, in the words its page uses (``_ranking_key``)."""


def today() -> date:
    """The UTC day (a function, so tests can move the clock)."""
    return datetime.now(UTC).date()


def challenge_deal(token: str) -> str:
    return f"challenge:{token}"


def daily_deal(slug: str, day: date) -> str:
    return f"daily:{slug}:{day.isoformat()}"


@dataclass(frozen=True)
class Attempt:
    game_id: str
    name: str
    score: int
    actions: int
    seconds: float
    finished_at: float
    ranked: bool
    browser: str
    by_bot: bool = False
    """A bot played the attempt's seat (at some point): listed, never ranked."""
    seat: str = play.SOLO_SEAT
    """The attempt's own seat: the one its browser took (a daily table's opener's)."""
    practice_mode: bool = False
    """The game was played in practice mode (undo past reveals): listed, never ranked."""
    assisted: bool = False
    """A hint was asked in the game (``hints``): listed, never ranked."""


def _ranking_key(attempt: Attempt) -> tuple[int, int, float]:
    """``RANKING_ORDER``: the better score, then fewer actions, then the earlier finish."""
    return (-attempt.score, attempt.actions, attempt.finished_at)


def ordinal(n: int) -> str:
    """A place in words a page shows.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '111th']
    """
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# ---- the deals' attempts ------------------------------------------------------------------------


def add_attempt(store: Store, deal: str, game_id: str, browser: str, origin: str, *, practice: bool = False) -> bool:
    """Note ``game_id`` as an attempt on ``deal`` from ``origin`` (the keyed hash of the address it
    came from, ``seat_tokens.origin_hash``); True when it is
    ranked: the first on the deal of this browser and of this address, not ``practice`` (an
    attempt started from another attempt) and not a game in practice mode or assisted."""
    with store.engine.begin() as conn:
        practice_mode, assisted = conn.execute(
            select(games.c.practice, games.c.assisted).where(games.c.id == game_id)
        ).one()
        earlier = conn.execute(
            select(deal_attempts.c.game_id)
            .where(
                deal_attempts.c.deal == deal,
                or_(deal_attempts.c.browser == browser, deal_attempts.c.origin == origin),
            )
            .limit(1)
        ).first()
        ranked = earlier is None and not practice and not practice_mode and not assisted
        conn.execute(
            insert(deal_attempts).values(
                game_id=game_id, deal=deal, browser=browser, ranked=int(ranked), created_at=time.time(), origin=origin
            )
        )
    return ranked


def attempts(store: Store, deal: str, *, finished_only: bool = True) -> list[Attempt]:
    """The deal's attempts, best first (finished ones, unless asked otherwise)."""
    query = (
        select(
            games.c.id,
            games.c.result,
            games.c.version,
            games.c.created_at,
            games.c.finished_at,
            games.c.practice,
            games.c.assisted,
            deal_attempts.c.ranked,
            deal_attempts.c.browser,
            browser_seats.c.seat,
        )
        .join(deal_attempts, deal_attempts.c.game_id == games.c.id)
        # The attempt's own seat: the one its browser took (a solo game's player; a table's host).
        .outerjoin(
            browser_seats,
            and_(browser_seats.c.game_id == games.c.id, browser_seats.c.browser == deal_attempts.c.browser),
        )
        .where(deal_attempts.c.deal == deal)
    )
    if finished_only:
        query = query.where(games.c.status == "finished")
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
        # A challenge's source game goes by the name its maker gave the challenge.
        senders = dict(
            conn.execute(
                select(challenges.c.game_id, challenges.c.sender).where(
                    challenges.c.token == deal.removeprefix("challenge:")
                )
            ).all()
            if deal.startswith("challenge:")
            else []
        )
        names: dict[tuple[str, str], str] = {}
        played_by_bot: set[tuple[str, str]] = set()
        ids = [row.id for row in rows]
        if ids:
            for game_id, seat, name, bot_played in conn.execute(
                select(seats.c.game_id, seats.c.seat, seats.c.name, seats.c.bot_played).where(seats.c.game_id.in_(ids))
            ):
                names[(game_id, seat)] = name
                if bot_played:
                    played_by_bot.add((game_id, seat))
    found = []
    for row in rows:
        result = json.loads(row.result) if row.result else {}
        scores = result.get("scores") or {}
        seat = row.seat or play.SOLO_SEAT
        by_bot = (row.id, seat) in played_by_bot
        finished_at = row.finished_at or 0.0
        found.append(
            Attempt(
                game_id=row.id,
                name=senders.get(row.id) or names.get((row.id, seat)) or play.DEFAULT_SOLO_NAME,
                score=int(scores.get(seat, 0) or 0),
                actions=row.version,
                seconds=max(0.0, finished_at - row.created_at) if row.finished_at else 0.0,
                finished_at=finished_at,
                ranked=bool(row.ranked) and not by_bot and not row.practice and not row.assisted,
                browser=row.browser,
                by_bot=by_bot,
                seat=seat,
                practice_mode=bool(row.practice),
                assisted=bool(row.assisted),
            )
        )
    found.sort(key=_ranking_key)
    return found


@dataclass(frozen=True)
class Placement:
    """Where a finished attempt stands on its deal, as its player's end panel says it."""

    kind: str
    """"challenge" or "daily"."""
    key: str
    """The deal page's address part: the challenge's token, or the daily game's slug."""
    label: str
    """The deal in words: "Ann's challenge", "today's deal"."""
    ranked: bool
    """False for practice (and for a game a bot played, and for a seat that joined a daily table):
    the panel says so instead of a place."""
    unranked_because: str
    """Why it is not ranked, in a sentence ('' when it is)."""
    place: int
    """1 for the best; 0 when not ranked."""
    of: int
    """How many ranked attempts the deal has."""
    best_other: Attempt | None
    """The best ranked attempt but this one: the score to beat (None when there is none)."""

    @property
    def place_text(self) -> str:
        """ "3rd of 7"."""
        return f"{ordinal(self.place)} of {self.of}"


def placement(store: Store, game_id: str, seat: str = play.SOLO_SEAT) -> Placement | None:
    """Where the finished game ``game_id`` placed on its shared deal for its player at ``seat``,
    None when it is on none. The deal's attempt is the seat of the browser that started the game:
    at a daily table, another seat joined the opener's attempt and is not ranked (its panel says so)."""
    deal = deal_of(store, game_id)
    if deal is None:
        return None
    kind, _, rest = deal.partition(":")
    if kind == "challenge":
        with store.engine.connect() as conn:
            sender = conn.execute(select(challenges.c.sender).where(challenges.c.token == rest)).scalar()
        key, label = rest, f"{sender or play.DEFAULT_SOLO_NAME}'s challenge"
    else:
        key, day = rest.split(":", 1)
        label = "today's deal" if day == today().isoformat() else f"the daily deal of {day}"
    listed = attempts(store, deal)
    ranking = [a for a in listed if a.ranked]
    attempt = next((a for a in listed if a.game_id == game_id), None)
    # Another seat's attempt: ``seat`` joined the table of the player who opened it.
    opener = attempt if attempt is not None and attempt.seat != seat else None
    mine = None if opener else next((i for i, a in enumerate(ranking) if a.game_id == game_id), None)
    others = [a for a in ranking if opener or a.game_id != game_id]
    if mine is not None:
        unranked_because = ""
    elif opener is not None:
        unranked_because = f"You joined {opener.name}'s table: only the seat that opened it is ranked on {label}."
    elif attempt is not None and attempt.by_bot:
        unranked_because = f"A bot played this game: it is listed on {label}, not ranked."
    elif attempt is not None and attempt.practice_mode:
        unranked_because = f"Practice: this game was played in practice mode, so it is not ranked on {label}."
    elif attempt is not None and attempt.assisted:
        unranked_because = f"Assisted: a hint was asked in this game, so it is not ranked on {label}."
    else:
        unranked_because = f"Practice: this game is not ranked on {label} (only a first attempt on a deal is)."
    return Placement(
        kind=kind,
        key=key,
        label=label,
        ranked=mine is not None,
        unranked_because=unranked_because,
        place=0 if mine is None else mine + 1,
        of=len(ranking),
        best_other=others[0] if others else None,
    )


def name_to_offer(store: Store, browser: str | None) -> str:
    """The name this browser last gave on a shared deal (a challenge's sender, or the name it took a
    deal under), to fill in the next time it is asked; '' when it gave none."""
    if browser is None:
        return ""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(challenges.c.sender, seats.c.name)
            .select_from(deal_attempts)
            .outerjoin(challenges, challenges.c.game_id == deal_attempts.c.game_id)
            .outerjoin(
                browser_seats,
                and_(browser_seats.c.game_id == deal_attempts.c.game_id, browser_seats.c.browser == browser),
            )
            .outerjoin(seats, and_(seats.c.game_id == browser_seats.c.game_id, seats.c.seat == browser_seats.c.seat))
            .where(deal_attempts.c.browser == browser)
            .order_by(deal_attempts.c.created_at.desc())
            .limit(HISTORY_DAYS)
        ).all()
    given = (sender or name for sender, name in rows)
    return next((name for name in given if name and name not in UNNAMED), "")


def deal_of(store: Store, game_id: str) -> str | None:
    with store.engine.connect() as conn:
        return conn.execute(select(deal_attempts.c.deal).where(deal_attempts.c.game_id == game_id)).scalar()


RANKED_NO_PRACTICE = (
    "This game is a ranked attempt on its deal, so it cannot become practice: "
    "play it to the end, then play the deal again for practice."
)
"""Why a ranked attempt is not switched to practice (a daily deal's first game, a challenge's)."""


def is_ranked_attempt(store: Store, game_id: str) -> bool:
    """Whether the game is a ranked attempt on a shared deal: it offers no switch to practice."""
    with store.engine.connect() as conn:
        return bool(conn.execute(select(deal_attempts.c.ranked).where(deal_attempts.c.game_id == game_id)).scalar())


def note_practice_switch(conn, game, _seat, _action, new_state, _now) -> None:
    """A writer of the game service (``play.Writer``): an action that made the game practice
    marks it so (``games.practice``: never ranked on a deal, in the Hall of Fame or in a
    browser's record) in the transaction that stores the action; a ranked attempt is refused
    there (422, nothing stored): its deal's ranking counts it as played without undo. So a
    game in practice mode never holds a ranked attempt, and ``deal_attempts.ranked`` stays true
    to it without being rewritten."""
    if game.state is None or is_practice(game.state) or not is_practice(new_state):
        return
    ranked = conn.execute(select(deal_attempts.c.ranked).where(deal_attempts.c.game_id == game.id)).scalar()
    if ranked:
        raise Refused(422, RANKED_NO_PRACTICE)
    conn.execute(update(games).where(games.c.id == game.id).values(practice=1))


def has_finished_attempt(store: Store, deal: str, browser: str | None) -> bool:
    if browser is None:
        return False
    with store.engine.connect() as conn:
        row = conn.execute(
            select(games.c.id)
            .join(deal_attempts, deal_attempts.c.game_id == games.c.id)
            .where(deal_attempts.c.deal == deal, deal_attempts.c.browser == browser, games.c.status == "finished")
            .limit(1)
        ).first()
    return row is not None


def replay_closed_because(store: Store, game_id: str, browser: str | None) -> tuple[int, str] | None:
    """Why this finished game's replay (and file) stays closed to this browser, as (status,
    sentence), or None when it is open.

    A daily deal's games open once their UTC day is over, to everybody (409: not yet); a
    challenge's attempts open to a browser whose own attempt on that deal is finished (403: not
    to you, yet)."""
    deal = deal_of(store, game_id)
    if deal is None:
        return None
    if deal.startswith("daily:"):
        day = deal.rsplit(":", 1)[1]
        if day >= today().isoformat():
            return 409, "This is today's daily deal: its replays open for everybody when the day ends (midnight UTC)."
        return None
    if has_finished_attempt(store, deal, browser):
        return None
    return 403, (
        "This game was played on a challenge's deal: its replay opens once your own attempt on that deal is over."
    )


def closed_to_onlooker(store: Store, game: play.LoadedGame, seat: str | None, browser: str | None) -> str | None:
    """Why this viewer may not see this game's page or board, or None when they may.

    A solo game on a shared deal (a challenge's source game too) shows what a player needs to
    beat the deal — a finished one, its whole log — so its page opens to anyone but its player on
    its replay's terms: a challenge's once the viewer's own attempt on it is over, a daily deal's
    once its day ends. A daily deal's table stays open: its link is how friends sit down."""
    if seat is not None or not BY_SLUG[game.record.slug].solo:
        return None
    deal = deal_of(store, dealt_as(game))
    if deal is None:
        return None
    if deal.startswith("daily:"):
        if deal.rsplit(":", 1)[1] >= today().isoformat():
            return "This game is on today's daily deal: only its player sees it until the day ends (midnight UTC)."
        return None
    if has_finished_attempt(store, deal, browser):
        return None
    return "This game was played on a challenge's deal: it opens to you once your own attempt on that deal is over."


def on_shared_solo_deal(store: Store, game: play.LoadedGame) -> bool:
    """Whether who may see this game depends on the viewer (``closed_to_onlooker``)."""
    return BY_SLUG[game.record.slug].solo and deal_of(store, dealt_as(game)) is not None


def dealt_as(game: play.LoadedGame) -> str:
    """The game whose deal decides who may see this one: a winning line the solver played on a
    game's deal (``verdicts``, its lobby's ``line_of``) opens on that game's terms."""
    return game.record.lobby.get("line_of") or game.id


# ---- challenges ---------------------------------------------------------------------------------


def challenge_of(store: Store, token: str):
    if not isinstance(token, str) or not (8 <= len(token) <= 32):
        return None
    with store.engine.connect() as conn:
        return conn.execute(select(challenges).where(challenges.c.token == token)).first()


def make_challenge(store: Store, game_id: str, browser: str, origin: str, sender: str) -> str:
    """The challenge token of a finished solo game, made the first time (with the game as the
    deal's first attempt, from ``browser`` and ``origin``, its maker named ``sender``; ranked
    unless the game was practice or assisted)."""
    with store.engine.connect() as conn:
        token = conn.execute(select(challenges.c.token).where(challenges.c.game_id == game_id)).scalar()
    if token is None:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        now = time.time()
        try:
            with store.engine.begin() as conn:
                conn.execute(insert(challenges).values(token=token, game_id=game_id, created_at=now, sender=sender))
                practice_mode, assisted = conn.execute(
                    select(games.c.practice, games.c.assisted).where(games.c.id == game_id)
                ).one()
                # The challenger's own game is the score to beat: the deal's first attempt.
                conn.execute(
                    insert(deal_attempts).values(
                        game_id=game_id,
                        deal=challenge_deal(token),
                        browser=browser,
                        ranked=0 if practice_mode or assisted else 1,
                        created_at=now,
                        origin=origin,
                    )
                )
                # The game is closed to onlookers from now on (closed_to_onlooker): a new revision
                # retires the board spectators may have been shared before (pages.board's spectator fragments).
                conn.execute(update(games).where(games.c.id == game_id).values(revision=games.c.revision + 1))
        except IntegrityError:  # a second press at the same moment made it first
            with store.engine.connect() as conn:
                token = conn.execute(select(challenges.c.token).where(challenges.c.game_id == game_id)).scalar_one()
    return token


# ---- daily deals --------------------------------------------------------------------------------


@dataclass(frozen=True)
class DailyDeal:
    seed: int
    options: dict
    deal_kind: str
    """"winnable" when the seed came from a pool of deals the solver proved (``deal_pools``)."""


def daily_seed(store: Store, slug: str, day: date, *, pool_target: int = 0) -> DailyDeal:
    """The day's deal for ``slug``: drawn by the first request of the day, kept. It is taken from
    the pool of winnable deals for the day's options when one is ready (``deal_pools``; then the
    pool is queued for a refill up to ``pool_target``), else drawn at random: either way everybody
    plays the same deal that day."""
    key = day.isoformat()
    with store.engine.connect() as conn:
        row = conn.execute(
            select(daily_deals.c.seed, daily_deals.c.options, daily_deals.c.deal_kind).where(
                daily_deals.c.day == key, daily_deals.c.slug == slug
            )
        ).first()
    if row is not None:
        return DailyDeal(row.seed, json.loads(row.options), row.deal_kind)
    options = parse_options(DAILY_GAMES[slug], dict(DAILY_GAMES[slug].rules.daily_form or {}))
    pooled = deal_pools.pool_for(slug, options) is not None
    try:
        with store.engine.begin() as conn:
            proved = deal_pools.take_seed(conn, slug, options) if pooled else None
            seed = secrets.randbits(62) if proved is None else proved
            kind = deal_pools.ANY if proved is None else deal_pools.WINNABLE
            conn.execute(
                insert(daily_deals).values(
                    day=key, slug=slug, seed=seed, options=json.dumps(options), created_at=time.time(), deal_kind=kind
                )
            )
            if pooled:
                deal_pools.refill(store, slug, options, target=pool_target, conn=conn)
    except IntegrityError:  # another request drew the day's deal first: that one it is (a seed taken goes back)
        return daily_seed(store, slug, day, pool_target=pool_target)
    return DailyDeal(seed, options, kind)


def daily_history(store: Store, slug: str, browser: str | None, day: date) -> tuple[list[dict], int]:
    """This browser's ranked daily attempts at ``slug`` (newest first) and its current streak:
    consecutive days up to today (or up to yesterday, while today's is still to play)."""
    if browser is None:
        return [], 0
    prefix = f"daily:{slug}:"
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(deal_attempts.c.deal, games.c.id, games.c.result, games.c.status)
            .join(games, games.c.id == deal_attempts.c.game_id)
            .where(
                deal_attempts.c.browser == browser,
                deal_attempts.c.ranked == 1,
                deal_attempts.c.deal.startswith(prefix),
            )
        ).all()
    history = []
    for row in rows:
        result = json.loads(row.result) if row.result else None
        history.append(
            {
                "day": row.deal.removeprefix(prefix),
                "game_id": row.id,
                "finished": row.status == "finished",
                "score": max((result or {}).get("scores", {}).values(), default=None) if result else None,
                "text": result["text"] if result else "Still being played.",
            }
        )
    history.sort(key=lambda h: h["day"], reverse=True)
    played = {h["day"] for h in history}
    streak = 0
    cursor = day if day.isoformat() in played else day - timedelta(days=1)
    while cursor.isoformat() in played:
        streak += 1
        cursor -= timedelta(days=1)
    return history[:HISTORY_DAYS], streak
