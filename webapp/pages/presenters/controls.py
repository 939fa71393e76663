"""What every game's presenter does with its buttons: group them, and lay moves out on a pad."""

from __future__ import annotations

from ...domain.play import ActionButton

ARROWS = {"N": "↑", "E": "→", "S": "↓", "W": "←"}
COMPASS = "NESW"


def buttons_by_type(buttons: list[ActionButton]) -> dict[str, list[ActionButton]]:
    """The buttons grouped by the type of their action, in their legal order."""
    groups: dict[str, list[ActionButton]] = {}
    for b in buttons:
        groups.setdefault(b.action["type"], []).append(b)
    return groups


def move_pad(moves: list[ActionButton]) -> dict | None:
    """The ``dpad`` (``templates/_controls.html``) for these move buttons, or None without any.

    A blocked way keeps its place on the pad, drawn empty, so the cross never changes shape.
    Moves are ``{"type": "move", "dir": "N"|"E"|"S"|"W"}`` (Shuffle and Doom!, The Dungeon of Doom)."""
    if not moves:
        return None
    open_ways = {b.action["dir"] for b in moves}
    return {
        "ways": [{"button": b, "place": b.action["dir"].lower(), "arrow": ARROWS[b.action["dir"]]} for b in moves],
        "blocked": [d.lower() for d in COMPASS if d not in open_ways],
    }
