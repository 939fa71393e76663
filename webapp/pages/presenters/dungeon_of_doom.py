"""The Dungeon of Doom: what its page draws, worked out from the engine's view.

Rules: ``docs/rules/dungeon-of-doom.md``; the view's shape is in the engine's module docstring.
A spectator and a dead seat see no dungeon until the end (rules §8), so most of the page is
about who is still in, whose turn it is and what this seat may do. The template
(``templates/dungeon_of_doom/game.html``) prints these values and decides nothing.
"""

from __future__ import annotations

from markupsafe import Markup

from ..rendering import name_seats
from . import Scene
from .controls import buttons_by_type, move_pad

RANDOM_MAP_SIZES = {"S": "small", "M": "medium", "L": "large"}
FINAL_OUTCOMES = {"slain": "slain", "left": "left", "disconnected": "connection lost", "idle": "timed out"}
"""How the final table words why a player is out (the engine's ``cause``)."""
TILES = {"#": "wall", "E": "exit"}
"""The final map's terrain characters (rules §2); anything else is floor."""
TURN_ACTIONS = (("attack", "danger"), ("pickup", "primary"), ("end_turn", ""))
"""The actions beside the move pad, in this order, with the look of their buttons."""


# Leaving kills your adventurer: no key (the page asks for a second, explicit click).
KEYS = {
    "pickup": ("p", None),
    "end_turn": ("e", None),
    "leave": (None, None),
    **{
        f"attack:{d}": (f"Shift+{arrow}", f"Shift+{letter}")
        for d, arrow, letter in (
            ("N", "ArrowUp", "w"),
            ("E", "ArrowRight", "d"),
            ("S", "ArrowDown", "s"),
            ("W", "ArrowLeft", "a"),
        )
    },
}


def present(scene: Scene) -> dict:
    view, seat, result, names = scene.view, scene.seat, scene.result, scene.names
    me = view["me"]
    alive = bool(me) and me["status"] == "alive"
    turn = view["turn"]
    my_turn = alive and turn is not None and turn["seat"] == seat
    by_type = buttons_by_type(scene.buttons)
    return {
        "root_attrs": Markup(' data-your-turn="{}"').format("true" if my_turn else "false"),
        "acting": seat is not None and bool(scene.buttons),
        "my_turn": my_turn,
        "status_tone": "over" if result else ("watching" if not seat else ""),
        "outcome": outcome(result, names) if result else None,
        "turn_name": names.get(turn["seat"], turn["seat"]) if turn else None,
        "turn_note": turn_note(seat, alive, my_turn),
        "current_seat": turn["seat"] if turn else None,
        "statuses": statuses(view["players"], result),
        "result_title": result_title(result, seat, scene.bot_won_for),
        "final_rows": final_rows(view["final"], result, seat, names) if view["final"] and result else [],
        "map_title": map_title(view["map"]),
        "final_cells": final_cells(view["final"], token_marks(view["final"], names)) if view["final"] else None,
        "final_trails": trails(view.get("trails"), names),
        "field": field(view) if alive else None,
        "blind_note": (
            "You can no longer see the dungeon."
            if seat
            else "Spectators see the dungeon when the game ends, and then its replay shows the whole map and "
            "every move; follow the table and the log meanwhile."
        ),
        "adventurer": adventurer(me, view["map"]["target_gold"]) if alive else None,
        "move_pad": move_pad(by_type.get("move", [])),
        "turn_actions": [{"button": b, "cls": cls} for kind, cls in TURN_ACTIONS for b in by_type.get(kind, [])],
        # Leaving kills your adventurer: the page asks twice (open, confirm) and gives it no key.
        "leave_buttons": by_type.get("leave", []),
        "can_join": seat is None and not result,
    }


def result_title(result: dict | None, seat: str | None, bot_won_for: str | None) -> str:
    """The result's heading: the winner's own page cheers, unless a bot won it for them."""
    if not result or seat not in result["winners"]:
        return "Game over"
    return "A bot won it for you" if seat == bot_won_for else "You won!"


def outcome(result: dict, names: dict[str, str]) -> str:
    """The game's end in one line: who escaped with the gold (rule 10.8), or nobody."""
    return name_seats(result["text"], names)


def turn_note(seat: str | None, alive: bool, my_turn: bool) -> str | None:
    """What the status line adds after whose turn it is, for whoever cannot act now."""
    if not seat:
        return "Watching live."
    if not alive:
        return "You are out of this game; you can keep watching."
    if not my_turn:
        return "Wait for your turn."
    return None


def statuses(players: list[dict], result: dict | None) -> dict[str, str]:
    """Each seat's tag on the roster: won, alive, or why it is out."""
    winners = result["winners"] if result else []
    return {
        p["seat"]: "won" if p["seat"] in winners else (p["status"] if p["status"] == "alive" else p["cause"] or "dead")
        for p in players
    }


def final_rows(final: dict, result: dict, seat: str | None, names: dict[str, str]) -> list[dict]:
    """Every adventurer at the end, most gold first (rule 7.3: every viewer sees every player's
    final hit points, gold and kit)."""
    rows = []
    for p in sorted(final["players"], key=lambda p: p["gold"], reverse=True):
        won = p["seat"] in result["winners"]
        if won:
            fate = "escaped"
        elif p["status"] == "alive":
            fate = "still inside"
        else:
            fate = FINAL_OUTCOMES.get(p["cause"], "dead")
        rows.append(
            {
                "who": names.get(p["seat"], p["seat"]) + (" (you)" if p["seat"] == seat else ""),
                "winner": won,
                "outcome": fate,
                "hp": p["hp"],
                "gold": p["gold"],
                "kit": ", ".join(p["kit"]) if p["kit"] else "none",
            }
        )
    return rows


def map_title(game_map: dict) -> str:
    if game_map["random"]:
        return f"{game_map['name']} (random {RANDOM_MAP_SIZES[game_map['random']]} map)"
    if game_map["custom"]:
        return f"{game_map['name']} (custom map)"
    return game_map["name"]


def final_cells(final: dict, marks: dict[str, str] | None = None) -> list[dict]:
    """The whole map at the end, one cell per tile (``dungeon_svg``'s cells): the terrain beneath
    (an exit stays an exit under gold or a player, ruling 20), the item with its amount, and
    whoever stands there on top with the ``mark`` written on their token (``token_marks``)."""
    marks = marks or {}
    items = {tuple(it["pos"]): {"kind": it["kind"], "amount": it["amount"]} for it in final["items"]}
    standing = {tuple(p["pos"]): p["seat"] for p in final["players"] if p["pos"]}
    cells = []
    for r, row in enumerate(final["terrain"]):
        for c, ch in enumerate(row):
            player = standing.get((r, c))
            cells.append(
                {
                    "pos": [r, c],
                    "tile": TILES.get(ch, "floor"),
                    "item": items.get((r, c)),
                    "player": player,
                    "mark": marks.get(player) if player else None,
                }
            )
    return cells


TRAIL_COLOURS = ("#ff8a80", "#8fdc9a", "#c9a7ff", "#ffd166", "#7cc4ff", "#ff9ad5", "#9ee6e0", "#f4a261")
"""One colour a seat, in seat order: paths that cross stay told apart."""


def trails(paths: dict | None, names: dict[str, str]) -> list[dict]:
    """A replay's paths (``{seat: [[row, col], …]}``, from ``replays``) as ``dungeon_svg`` draws
    them: each seat's squares, its colour and its name, in seat order; [] outside a replay."""
    if not paths:
        return []
    ordered = sorted(paths, key=lambda seat: (len(seat), seat))
    return [
        {
            "seat": seat,
            "name": names.get(seat, seat),
            "colour": TRAIL_COLOURS[index % len(TRAIL_COLOURS)],
            "squares": paths[seat],
        }
        for index, seat in enumerate(ordered)
    ]


def token_marks(final: dict, names: dict[str, str]) -> dict[str, str]:
    """What each token on the final map says, so the whole table can tell who ended where: the
    name's initial, two letters where initials clash, the initials of its words where those clash
    too, and the seat's number only where the names themselves are alike.

    >>> token_marks({"players": [{"seat": s} for s in ("p1", "p2", "p3", "p4")]},
    ...             {"p1": "Ann", "p2": "bob", "p3": "Abe", "p4": "Abe"})
    {'p1': 'An', 'p2': 'B', 'p3': 'A3', 'p4': 'A4'}

    Where two letters clash too, the name's words speak ("Bot 1" is "B1", never its seat's number):

    >>> token_marks({"players": [{"seat": s} for s in ("p1", "p2", "p3")]}, {"p1": "Ann", "p2": "Bot 1", "p3": "Bot 2"})
    {'p1': 'A', 'p2': 'B1', 'p3': 'B2'}
    """
    seats = [p["seat"] for p in final["players"]]
    shown = {seat: (names.get(seat) or seat).strip() or seat for seat in seats}

    def clashing(marks: dict[str, str]) -> set[str]:
        counts: dict[str, int] = {}
        for mark in marks.values():
            counts[mark] = counts.get(mark, 0) + 1
        return {seat for seat, mark in marks.items() if counts[mark] > 1}

    marks = {seat: shown[seat][:1].upper() for seat in seats}
    for seat in clashing(marks):
        marks[seat] = shown[seat][:1].upper() + shown[seat][1:2].lower()
    for seat in clashing(marks):
        marks[seat] = initials(shown[seat])
    for seat in clashing(marks):
        marks[seat] = shown[seat][:1].upper() + seat.lstrip("p")
    return marks


def initials(name: str) -> str:
    """A name's words by their first characters, up to three: "Bot 2" -> "B2", "Ann Lee" -> "AL"."""
    return "".join(word[:1].upper() for word in name.split()[:3])


def field(view: dict) -> dict:
    """What a living seat sees (bright) and remembers (dim), and the classic LOOK rendering."""
    return {"cells": view["visible"], "remembered": view["memory"], "look": "\n".join(view["look"])}


def adventurer(me: dict, target_gold: int) -> dict:
    """A living seat's own numbers; action points only exist on its turn."""
    return {
        "hp": me["hp"],
        "gold": me["gold"],
        "target_gold": target_gold,
        "ap": me["ap"] if me["ap"] is not None else "—",
        "ap_next_turn": me["ap_next_turn"],
        "kit": ", ".join(me["kit"]) if me["kit"] else "none",
        "lantern": me["vision"] == "lantern",
    }
