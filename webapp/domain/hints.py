"""Hints that never peek (issue 27, item 5): a solo game's player asks, the background solver
answers with a move and the reason in words, and the game is *assisted* from then on.

A hint is a job of the solver's queue (``solver_jobs``, kind ``"hint"``) for one seat at one
version of the game. Its runner reads the game as stored at that version and asks
``rules_engine.solving.hint`` for a move chosen from the seat's view alone: the game's Puzzle draws
the hidden cards anew for each sampled deal (``determinize``), so the true hidden cards decide
nothing (tests/web/test_hints.py changes them and gets the same hint). The samples' seed comes from
the game's id and version: the same question always gets the same answer. Budgets are the solver
module's (``HINT_SAMPLES``, ``HINT_NODES`` or else ``SAMPLE_NODES``); a hint whose every sample ran
out of nodes is "No hint in time", and so is one a page waited for longer than ``PATIENCE_SECONDS``.

Asking is what makes a game assisted (``games.assisted``, set in the transaction that queues the
job): whoever asked may read the answer, on this page or after a reload. An assisted game is
never ranked — not on a shared deal, not in the Hall of Fame, not in the browser's record — as a
practice game is not; a ranked attempt (a daily deal's first game, a challenge's) takes no
hints: its page offers none and ``ask`` refuses one.
"""

from __future__ import annotations

import hashlib
import importlib
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update

from rules_engine import Rules, solving
from rules_engine.undo import PRACTICE, UNDO, is_practice

from ..storage.schema import deal_attempts, games
from ..storage.store import Store
from . import play, solver_jobs
from .catalog import BY_SLUG
from .service import Refused

KIND = "hint"
DEFAULT_SAMPLES = 10
"""Sampled deals per hint when the solver module does not say (its ``HINT_SAMPLES``)."""
DEFAULT_SAMPLE_NODES = 3_000
"""Each sampled deal's node budget when the solver module does not say (its ``SAMPLE_NODES``)."""
PATIENCE_SECONDS = 3.0
"""How long a page waits for a hint before it says there is none in time."""

RANKED_NO_HINTS = (
    "This game is a ranked attempt on its deal, so it takes no hints: "
    "play it to the end, then play the deal again with hints."
)
NO_SOLVER = "This game has no hints."
GAME_OVER = "This game is over: hints are for a game still being played."
MOVED_ON = "The game moved on before this hint was ready."
NO_HINT_IN_TIME = "No hint in time."
BUSY = "No hint in time: the server is busy. Ask again in a moment."
GOALS = {"shuffle-and-doom": "keeps you alive"}
"""What a hinted move does in a sampled deal, in the game's own words (else ``DEFAULT_GOAL``)."""
DEFAULT_GOAL = "keeps a win in reach"


def puzzle_for(rules: Rules) -> solving.Puzzle | None:
    """The Puzzle a hint searches (the game's own; None: the game takes no hints)."""
    return rules.puzzle


def budgets(rules: Rules) -> tuple[int, int]:
    """(sampled deals, nodes per sample's solve) for a hint: the solver module's ``HINT_SAMPLES``
    and ``HINT_NODES`` (else its ``SAMPLE_NODES``, which its odds use too), or the defaults."""
    name = getattr(rules, "SOLVER", None)
    module = importlib.import_module(name) if isinstance(name, str) else None
    nodes = getattr(module, "HINT_NODES", getattr(module, "SAMPLE_NODES", DEFAULT_SAMPLE_NODES))
    return int(getattr(module, "HINT_SAMPLES", DEFAULT_SAMPLES)), int(nodes)


def hint_seed(game_id: str, version: int) -> int:
    """The samples' seed: the same for the same game and version, on any machine."""
    return int.from_bytes(hashlib.sha256(f"{game_id}:{version}".encode()).digest()[:8], "big")


def takes_hints(game: play.LoadedGame) -> bool:
    """Whether the game is one a hint can be asked in: a solo game with a Puzzle, still running."""
    return (
        BY_SLUG[game.record.slug].solo
        and game.state is not None
        and game.record.status == "running"
        and puzzle_for(game.rules) is not None
    )


# ---- the runner -----------------------------------------------------------------------------------


def advise(game: play.LoadedGame, seat: str) -> dict[str, Any]:
    """The hint for ``seat`` in ``game`` as it stands (``advice``), from its id and version's seed."""
    return advice(game.rules, game.state, seat, hint_seed(game.id, game.version))


def advice(rules: Rules, state: Any, seat: str, seed: int) -> dict[str, Any]:
    """The hint for ``seat`` in ``state``: ``move`` (None: no hint), its ``label``, the reason in
    words (``text``) and the counts it rests on."""
    puzzle = puzzle_for(rules)
    assert puzzle is not None  # asked only of games that take hints
    samples, nodes = budgets(rules)
    legal = [a for a in rules.legal_actions(state, seat) if a.get("type") not in (UNDO, PRACTICE)]
    found = solving.hint(puzzle, state, seat, legal, samples=samples, max_nodes=nodes, seed=seed)
    label = rules.action_label(state, found.move).rstrip(".") if found.move is not None else None
    return {
        "move": found.move,
        "label": label,
        "text": reason(rules.slug, label, found),
        "wins": found.wins,
        "answered": found.answered,
        "samples": found.samples,
    }


def reason(slug: str, label: str | None, found: solving.Hint) -> str:
    """The hint in words, with the counts it rests on.

    >>> reason("shuffle-and-doom", "Attack the 7♠", solving.Hint({"type": "x"}, 8, 10, 10))
    'Attack the 7♠: in 8 of 10 likely decks it keeps you alive.'
    >>> reason("clear-the-dungeon", "Play 5♣", solving.Hint({"type": "x"}, 3, 6, 10))
    'Play 5♣: in 3 of the 6 likely decks judged in time (of 10) it keeps a win in reach.'
    >>> reason("clear-the-dungeon", None, solving.Hint(None, 0, 10, 10))
    'No hint: in none of 10 likely decks can this still be won.'
    >>> reason("clear-the-dungeon", None, solving.Hint(None, 0, 0, 10))
    'No hint in time.'
    """
    if found.answered == 0:
        return NO_HINT_IN_TIME
    decks = (
        f"{found.answered} likely decks"
        if found.answered == found.samples
        else f"the {found.answered} likely decks judged in time (of {found.samples})"
    )
    if found.move is None or label is None:
        return f"No hint: in none of {decks} can this still be won."
    return f"{label}: in {found.wins} of {decks} it {GOALS.get(slug, DEFAULT_GOAL)}."


def run_hint(store: Store, job: solver_jobs.Job) -> dict[str, Any]:
    """The queue's runner of a hint job (``params``: ``seat`` and ``version``): the game as stored
    at that version, or no hint when it has moved on (nobody waits for that one any more)."""
    game = play.load_game(store, job.game_id or "")
    seat, version = job.params["seat"], job.params["version"]
    if game is None or game.version != version or not takes_hints(game):
        return {"move": None, "label": None, "text": MOVED_ON}
    return advise(game, seat)


solver_jobs.KINDS[KIND] = run_hint


# ---- asking, and the page's hint area -------------------------------------------------------------


def params_for(seat: str, version: int) -> dict[str, Any]:
    return {"seat": seat, "version": version}


def ask(store: Store, game: play.LoadedGame, seat: str) -> int:
    """Queue a hint for ``seat`` at the game's version (the same question again: the same job) and
    mark the game assisted, in one transaction; a ranked attempt is refused there (422)."""
    if not BY_SLUG[game.record.slug].solo or puzzle_for(game.rules) is None:
        raise Refused(422, NO_SOLVER)
    if not takes_hints(game):
        raise Refused(409, GAME_OVER)
    with store.engine.begin() as conn:
        ranked = conn.execute(select(deal_attempts.c.ranked).where(deal_attempts.c.game_id == game.id)).scalar()
        if ranked:
            raise Refused(422, RANKED_NO_HINTS)
        conn.execute(update(games).where(games.c.id == game.id).values(assisted=1))
        return solver_jobs.enqueue(store, KIND, game.id, params_for(seat, game.version), conn=conn)


@dataclass(frozen=True)
class Panel:
    """What a running game's page says of hints (``templates/_hint.html``)."""

    version: int
    assisted: bool
    """A hint was asked in this game already (the button no longer warns)."""
    status: str
    """"offered" (no hint asked at this version), "thinking", or "answered"."""
    text: str = ""
    move: dict | None = None
    """The hinted move (its button is highlighted)."""
    practice: bool = False
    """The game is practice: never ranked already, so a hint costs it nothing to say."""


def panel(store: Store, game: play.LoadedGame, seat: str | None, *, now: float | None = None) -> Panel | None:
    """The seat's hint area, None where none is drawn: a spectator, a game that takes no hints,
    and a ranked attempt (it is played without)."""
    if seat is None or not takes_hints(game):
        return None
    with store.engine.connect() as conn:
        ranked = conn.execute(select(deal_attempts.c.ranked).where(deal_attempts.c.game_id == game.id)).scalar()
        assisted = bool(conn.execute(select(games.c.assisted).where(games.c.id == game.id)).scalar())
    if ranked:
        return None
    practice = is_practice(game.state)
    asked = solver_jobs.latest(store, game.id, KIND, params_for(seat, game.version)) if assisted else None
    if asked is None:
        return Panel(game.version, assisted, "offered", practice=practice)
    if asked.status == solver_jobs.DONE and isinstance(asked.result, dict):
        return Panel(game.version, assisted, "answered", str(asked.result.get("text", "")), asked.result.get("move"))
    if asked.status == solver_jobs.FAILED:
        return Panel(game.version, assisted, "answered", NO_HINT_IN_TIME)
    waited = (time.time() if now is None else now) - asked.created_at
    if waited > PATIENCE_SECONDS:
        return Panel(game.version, assisted, "answered", BUSY)
    return Panel(game.version, assisted, "thinking", "Thinking…")


def is_assisted(store: Store, game_id: str) -> bool:
    with store.engine.connect() as conn:
        return bool(conn.execute(select(games.c.assisted).where(games.c.id == game_id)).scalar())
