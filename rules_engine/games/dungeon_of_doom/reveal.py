"""What an action showed anyone (issue 26, rules 10.10): the ``reveals`` hook that lets a seat
undo its own steps within its own turn while they showed nothing new to it and nobody else could
see them.

Only a plain step can reveal nothing, and only when all of this holds (anything else is a reveal,
named in a few words for the page's "Can't undo: …"):

- the turn goes on (the step left AP) and the game goes on (it was not a winning step);
- no other living player could see the mover, standing where it stood or where it stands now;
- the mover saw no other living player, from either place;
- the mover's memory (10.5) did not change: every cell of its new field was seen before and
  holds what it remembers (terrain, item, the size of a gold pile). Memory always holds the
  current field, so this is exactly "no tile came into view that it had not seen as it is".

Every other action reveals: a pickup, an attack (and its die), ending the turn, leaving, joining
(and the server's timeout and drop, which ``rules_engine.undo`` marks itself).

>>> from .play import apply, new_game
>>> corridor = "name Corridor\\nwin 0\\nE........."
>>> s = new_game(1, ["p1"], {"map": corridor, "start_positions": {"p1": [0, 4]}})
>>> east = apply(s, "p1", {"type": "move", "dir": "E"})
>>> reveals(s, east, "p1", {"type": "move", "dir": "E"})
'a new tile came into view'
>>> back = apply(east, "p1", {"type": "move", "dir": "W"})
>>> reveals(east, back, "p1", {"type": "move", "dir": "W"}) is None
True
>>> reveals(back, apply(back, "p1", {"type": "end_turn"}), "p1", {"type": "end_turn"})
'your turn ended'
"""

from __future__ import annotations

from typing import Any

from .play import _find
from .state import _UNSEEN, _sees

State = dict[str, Any]
Action = dict[str, Any]

ACTION_REVEALS = {
    "pickup": "you picked something up",
    "attack": "you attacked",
    "end_turn": "your turn ended",
    "leave": "you left the game",
    "join": "you joined the game",
}
"""What each action other than a step shows, whatever its outcome."""
THE_GAME_MOVED_ON = "the game moved on"
"""An action this module does not know (the server's own among them): a reveal, to be safe."""


def reveals(before: State, after: State, seat: str, action: Action) -> str | None:
    """What ``seat``'s ``action`` (``before`` → ``after``) showed anyone, or None: a plain step
    within tiles the seat has seen as they are, out of everyone's sight, on its turn."""
    kind = str(action["type"])
    if kind != "move":
        return ACTION_REVEALS.get(kind, THE_GAME_MOVED_ON)
    if after["result"] is not None:
        return "the game ended"
    if after["turn"] != before["turn"]:
        return "your turn ended"
    was, mover = _find(before, seat), _find(after, seat)
    if was is None or mover is None:
        return THE_GAME_MOVED_ON
    for other in after["players"]:
        if other["seat"] == seat or other["status"] != "alive":
            continue
        # Fields are not symmetric (a lantern sees farther), so both directions are asked.
        if _sees(other, was["pos"]) or _sees(other, mover["pos"]):
            return "another player could see you"
        if _sees(was, other["pos"]) or _sees(mover, other["pos"]):
            return "another player was in sight"
    if mover["memory"] != was["memory"]:
        return _memory_change(was["memory"]["rows"], mover["memory"]["rows"])
    return None


def _memory_change(before: list[str], after: list[str]) -> str:
    """Why the mover's memory changed: a cell it had never seen, or one not as it remembered."""
    for old, new in zip(before, after, strict=True):
        if old != new and any(o == _UNSEEN and n != _UNSEEN for o, n in zip(old, new, strict=True)):
            return "a new tile came into view"
    return "a tile you had seen had changed"
