"""The "Your deal" section of a finished solo game's end panel (``templates/_verdict.html``): the
solver's verdict on the deal (``domain/verdicts.py``), where the game was lost, the odds from what
the player could see; while the solver works, a section that asks again every two seconds."""

from __future__ import annotations

from flask import current_app, url_for

from ..domain import deals, play, verdicts
from .viewer import browser_key, store


def verdict_for(game: play.LoadedGame, seat: str | None) -> dict | None:
    """What the section draws for this viewer (``seat``: the player's own page; None: an
    onlooker), or None when the game gets no verdict."""
    found = verdicts.panel(store(), game, queue_max=current_app.config["SOLVER_QUEUE_MAX"])
    if found is None:
        return None
    section: dict = {
        "state": found.state,
        "url": url_for("verdicts.section", game_id=game.id),
        "yours": seat is not None,
        "failed_because": found.failed_because,
    }
    verdict = found.verdict
    if verdict is None:
        return section
    # The replays (the player's own and the winning line on the same deal) open on the deal's
    # terms (a daily deal's when its day is over): closed, the section names no step to watch.
    replay_open = deals.replay_closed_because(store(), game.id, browser_key()) is None
    lost = verdict.get("lost")
    section.update(
        outcome=verdict["outcome"],
        budget=f"{verdict['budget']:,}",
        line_url=(
            url_for("replays.replay", game_id=verdict["line_game"])
            if replay_open and verdict.get("line_game")
            else None
        ),
        lost=(
            {
                "step": lost["step"],
                "label": lost["label"],
                "url": url_for("replays.replay", game_id=game.id, step=lost["step"]) if replay_open else None,
            }
            if lost
            else None
        ),
        start_percent=found.percent("start"),
        lost_percent=found.percent("lost"),
    )
    return section
