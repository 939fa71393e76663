"""Dungeon Cards' page: one seat's view of the game turned into what ``dungeon_cards/game.html`` draws.

Every choice the page makes is made here — whose turn the status line names, which squares of the
board are drawn as more than a plain checker square, the duel's words and chips, which buttons are
primary — so that the template only loops and prints, and the choices are unit-tested. The rules
behind the words (the result sentence, the bosses' abilities, a card's worth) are the engine's.

What just happened (the page animates the last move and a boss card arriving) depends on the log
entries this page has not shown yet (``scene.new_log``): ``fresh`` says what they bring, and the
squares carry the animation's details, drawn only when it says so.

One module per part of the page: ``page`` (the shared lookups and pieces), ``fresh``, ``status``
(and the ending), ``fight``, ``board`` (and the last move), ``turn``, ``party`` and ``piles``.
"""

from __future__ import annotations

from .. import Scene
from .board import Step, board, last_move
from .fight import FIGHT_EVENTS, Helper, duel
from .fresh import Fresh, fresh_in
from .page import Chip, Page
from .party import leave, party, roster_marks
from .piles import piles
from .status import FameLine, ending, setup_warnings, status
from .turn import turn_panel

__all__ = ["FIGHT_EVENTS", "KEYS", "Chip", "FameLine", "Fresh", "Helper", "Step", "fresh_in", "present"]

# Digits pick choices; the dash takes the arrow keys and 0 (drawn by the page), and leaving, the
# engine lobby's start or one of many board squares gets no key.
KEYS = {
    "leave_game": (None, None),
    "start_game": (None, None),  # the class buttons' fixed keys (CLASS_KEYS) would collide with the next digit
    "place_marker": (None, None),
    "choose_start": (None, None),
    "dash": (None, None),
}


def present(scene: Scene) -> dict:
    page = Page(scene)
    return {
        "table_talk": len(scene.view["players"]) > 1,
        "fresh": fresh_in(scene.new_log),
        "your_turn": page.my_turn,
        "status": status(page),
        "setup_warnings": setup_warnings(page),
        "ending": ending(page),
        "action_form": bool(scene.seat and scene.buttons),
        "duel": duel(page),
        "board": board(page),
        "last_move": last_move(page),
        "turn_panel": turn_panel(page),
        "party": party(page),
        "piles": piles(page),
        "roster_marks": roster_marks(page),
        "leave": leave(page),
    }
