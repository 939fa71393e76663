"""What the routes reach of the application, in one place: the store, the game service, the
process-wide caches (made by ``create_app``, kept in ``app.extensions``), whether a request is
htmx's, the game a route names and the seat and browser of who asks (``pages/viewer.py`` works
those out for the pages and the pushed boards alike)."""

from __future__ import annotations

from flask import current_app

from ..domain import browsers
from ..domain.history import Histories
from ..pages.viewer import (
    browser_key,
    game_or_404,
    is_htmx,
    prefetched_for,
    service,
    spectator_fragments,
    store,
    viewer_seat,
    viewer_seat_and_roster,
)

__all__ = [
    "browser_key",
    "classic_gateway",
    "game_or_404",
    "histories",
    "is_htmx",
    "note_seat",
    "prefetched_for",
    "service",
    "spectator_fragments",
    "store",
    "viewer_seat",
    "viewer_seat_and_roster",
]


def histories() -> Histories:
    """This process's rebuilt histories of finished games (the replays)."""
    return current_app.extensions["delve_histories"]


def classic_gateway():
    """This process's classic TCP gateway, or None when ``CLASSIC_PORTS`` is unset."""
    return current_app.extensions.get("delve_classic")


def note_seat(game_id: str, seat: str) -> None:
    """This browser took ``seat`` in the game (given an id now if it has none): it counts in its record."""
    browsers.note_seat(store(), browser_key(create=True) or "", game_id, seat)
