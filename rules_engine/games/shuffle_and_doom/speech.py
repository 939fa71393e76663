"""Shuffle and Doom!'s command line and its answers in words (``rules_engine.speech``).

Read from the seat's view alone (which shows everything but the draw pile's order). A card in the
room is named by its place in the room as the page lists it, left to right ("attack 2"); a card in
the hand by its place in the hand ("drink 1"); a square by its row and column, as the map's
numbers read ("retreat 2 3").

>>> from rules_engine.games import shuffle_and_doom as sad
>>> state = sad.new_game(1, ["p1"], {"size": 4, "deck": ["5C", "8D", "3H", "9S", "7D", "KS", "JS", "QH", "6S"]})
>>> [c.typed for c in commands(sad.view(state, "p1"), sad.legal_actions(state, "p1"))]
['choose top', 'choose side']
>>> state = sad.apply(state, "p1", {"type": "choose_stat_set", "set": "top"})
>>> state = sad.apply(state, "p1", {"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"})
>>> view = sad.view(state, "p1")
>>> [c.typed for c in commands(view, sad.legal_actions(state, "p1"))]
['attack 1']
>>> print(describe(view, "where").replace(". ", ".\\n"))
You are at row 1, column 1, in room 1, fighting: 1: 6♠, an enemy of strength 6.
North: the edge of the map.
East, 1 square: a corridor.
South, 1 square: a corridor.
West: the edge of the map.
The exit is 3 squares south and 3 squares east, at row 4, column 4.
"""

from __future__ import annotations

from typing import Any

from ...cards import pretty
from ...grid import DIRECTION_NAMES, DIRECTIONS
from ...speech import Command, Grid
from .data import STATS, cell_name

VERBS: frozenset[str] = frozenset(
    {"swap", "choose", "give", "move", "exit", "attack", "open", "deactivate", "take", "retreat", "drink", "read"}
)

COMMAND_FORMS: tuple[tuple[str, str], ...] = (
    ("swap top 1 2", "Swap two header cards of different colours within one set (top or side), by their positions"),
    ("choose top, choose side", "Choose the set of cards that makes your adventurer"),
    ("give 1 attack", "Give the first diamond still to give its +1: to health, attack or intelligence"),
    ("move n, move e, move s, move w", "Walk north, east, south or west"),
    ("exit", "Leave the dungeon from the exit square"),
    ("attack 2", "Attack the room's second card (the room's cards are numbered left to right)"),
    ("open 2", "Take the room's second card with the trap opener: the traps hit you and every enemy"),
    ("deactivate 2", "Deactivate the trap that is the room's second card"),
    ("take 2", "Take the room's second card; the active traps spring"),
    ("retreat 2 3", "Retreat to row 2, column 3 (add keep to keep the traps: retreat 2 3 keep)"),
    ("drink 1", "Drink the first card of your hand, a potion"),
    ("read 1", "Read the first card of your hand, a book"),
)
"""The commands as the How to play page lists them: one example of each word (a test checks that
every word of ``VERBS`` has one)."""

ROOM_WORDS = {"unvisited": "unexplored room", "active": "room you are in", "suspended": "room left waiting"}
GRID_WORDS = {"unvisited": "unexplored", "active": "here", "suspended": "left waiting", "emptied": "emptied"}
PHASE_WORDS = {
    "swap": "Your options ask for a header swap first: swap two cards of different colours within one set.",
    "choose_set": "Choose the set of cards that makes your adventurer: the top set or the side set.",
    "assign_diamonds": "Give each diamond of your set its +1: to health, attack or intelligence.",
    "explore": "Explore the dungeon: move north, east, south or west.",
    "combat": "Fight: attack an enemy; the survivors hit back.",
    "traps": "Traps: deactivate them, take one item and spring them, or retreat.",
}


def commands(view: dict[str, Any], legal: list[dict[str, Any]]) -> list[Command]:
    """Every legal action as a typed command."""
    return [_command(view, action) for action in legal]


def _command(view: dict[str, Any], action: dict[str, Any]) -> Command:
    kind = action["type"]
    if kind == "swap_headers":
        cards = view[action["set"]]
        a, b = pretty(cards[action["i"] - 1]), pretty(cards[action["j"] - 1])
        return Command(
            "swap",
            f"{action['set']} {action['i']} {action['j']}",
            action,
            f"Swap {a} and {b} in the {action['set']} set.",
        )
    if kind == "choose_stat_set":
        stats = view["set_stats"][action["set"]]
        says = f"Choose the {action['set']} set: " + ", ".join(f"{name} {stats[name]}" for name in STATS) + "."
        return Command("choose", action["set"], action, says)
    if kind == "assign_diamond_bonus":
        place = view["diamonds_to_assign"].index(action["card"]) + 1
        says = f"Give {pretty(action['card'])} to {action['stat']}: +1."
        return Command("give", f"{place} {action['stat']}", action, says)
    if kind == "move":
        return Command("move", action["dir"].lower(), action, f"Walk {DIRECTION_NAMES[action['dir']]}.")
    if kind == "exit":
        return Command("exit", "", action, f"Leave the dungeon with {view['stats']['gold']} gold.")
    if kind in ("attack", "use_trap_opener", "deactivate", "take"):
        place, card = _room_card(view, action["card"])
        word = {"attack": "attack", "use_trap_opener": "open", "deactivate": "deactivate", "take": "take"}[kind]
        says = {
            "attack": f"Attack {pretty(card['code'])}, strength {card['strength']}.",
            "use_trap_opener": f"Take {pretty(card['code'])} with the trap opener: the traps hit you and every enemy.",
            "deactivate": f"Deactivate the trap {pretty(card['code'])}; it needs intelligence {card['value']}.",
            "take": f"Take {pretty(card['code'])}; the active traps spring.",
        }[kind]
        return Command(word, str(place), action, says)
    if kind == "retreat":
        row, column = action["to"]
        keep = " keep" if action.get("keep") else ""
        says = f"Retreat to {cell_name(action['to'])}" + (", keeping the traps." if keep else ".")
        return Command("retreat", f"{row} {column}{keep}", action, says)
    if kind in ("drink", "read"):
        place = [c["code"] for c in view["hand"]].index(action["card"]) + 1
        return Command(kind, str(place), action, f"{kind.capitalize()} {pretty(action['card'])} from your hand.")
    raise ValueError(f"Shuffle and Doom! has no command for {kind!r}")


def _room_card(view: dict[str, Any], code: str) -> tuple[int, dict[str, Any]]:
    cards = view["encounter"]["cards"]
    place = [c["code"] for c in cards].index(code)
    return place + 1, cards[place]


def describe(view: dict[str, Any], topic: str) -> str | None:
    """The answer to ``status``, ``where``, ``hand``, ``board`` or ``score``."""
    if topic == "status":
        return _status(view)
    if topic == "where":
        return _where(view)
    if topic == "hand":
        return _hand(view)
    if topic == "board":
        return _board(view)
    if topic == "score":
        return _score(view)
    return None


def _status(view: dict[str, Any]) -> str:
    result = view["result"]
    if result is not None:
        return f"Game over. {result['text']}"
    who = "Your turn." if view["seat"] is not None else "Watching: only the player acts."
    where = f" You are at {cell_name(view['position'])}." if view["position"] else ""
    return f"{who} {PHASE_WORDS.get(view['phase'], '')}{where}".strip()


def _room_cards(view: dict[str, Any]) -> str:
    encounter = view["encounter"]
    parts = []
    for place, card in enumerate(encounter["cards"], start=1):
        if card["role"] == "enemy":
            hurt = f", hurt from {card['value']}" if card["strength"] != card["value"] else ""
            what = f"an enemy of strength {card['strength']}{hurt}"
        elif card["role"] == "trap":
            what = f"a trap of {card['value']}"
        else:
            what = f"{card['role']} worth {card['value']}"
        parts.append(f"{place}: {pretty(card['code'])}, {what}")
    stunned = " The enemies are stunned." if encounter["stunned"] else ""
    return "; ".join(parts) + "." + stunned


def _cell_words(view: dict[str, Any], row: int, column: int) -> str:
    """What one square is (row and column from 1)."""
    cell = view["cells"][row - 1][column - 1]
    exit_mark = " with the exit" if [row, column] == view["exit"] else ""
    if cell["room"] is None:
        return "the exit" if exit_mark else "a corridor"
    status = cell["status"]
    if status == "emptied":
        return f"an emptied room{exit_mark}"
    return f"{'an' if status == 'unvisited' else 'a'} {ROOM_WORDS.get(status, 'room')}{exit_mark}"


def _where(view: dict[str, Any]) -> str:
    position = view["position"]
    if position is None:
        start = f"You have not entered the dungeon yet: you start at {cell_name([1, 1])}."
        return f"{start} {PHASE_WORDS.get(view['phase'], '')}".strip()
    row, column = position
    n = view["size"]
    here = f"You are at {cell_name(position)}"
    cell = view["cells"][row - 1][column - 1]
    if view["encounter"] is not None:
        doing = "fighting" if view["phase"] == "combat" else "facing traps"
        here += f", in room {view['encounter']['room']}, {doing}: {_room_cards(view)}"
    elif cell["room"] is not None:
        here += f", in room {cell['room']}."
    else:
        here += ", in a corridor."
    around = []
    for direction, (dr, dc) in DIRECTIONS.items():
        r, c = row + dr, column + dc
        name = DIRECTION_NAMES[direction].capitalize()
        if not (1 <= r <= n and 1 <= c <= n):
            around.append(f"{name}: the edge of the map.")
        else:
            around.append(
                f"{name}: {_cell_words(view, r, c)}."
                if _same_room(view, (row, column), (r, c))
                else f"{name}, 1 square: {_cell_words(view, r, c)}."
            )
    exit_row, exit_column = view["exit"]
    if [row, column] == view["exit"]:
        exit_words = (
            "You are on the exit: type exit to leave." if view["phase"] == "explore" else "You are on the exit."
        )
    else:
        steps = [_steps(exit_row - row, "south", "north"), _steps(exit_column - column, "east", "west")]
        exit_words = f"The exit is {' and '.join(s for s in steps if s)}, at {cell_name(view['exit'])}."
    return " ".join([here, *around, exit_words])


def _same_room(view: dict[str, Any], a: tuple[int, int], b: tuple[int, int]) -> bool:
    room = view["cells"][a[0] - 1][a[1] - 1]["room"]
    return room is not None and view["cells"][b[0] - 1][b[1] - 1]["room"] == room


def _steps(delta: int, forward: str, back: str) -> str:
    if delta == 0:
        return ""
    return f"{abs(delta)} square{'s' if abs(delta) > 1 else ''} {forward if delta > 0 else back}"


def _hand(view: dict[str, Any]) -> str:
    if not view["hand"]:
        return "Your hand is empty: no potions or books."
    cards = [
        f"{place}: {pretty(c['code'])}, a {c['kind']} worth {c['value']}"
        for place, c in enumerate(view["hand"], start=1)
    ]
    return "In your hand: " + "; ".join(cards) + "."


def _board(view: dict[str, Any]) -> str:
    grid = grid_of(view)
    rows = [f"{grid.row_names[r]}: {', '.join(words)}." for r, words in enumerate(grid.rows)]
    deck = f"The draw pile has {view['draw_count']} cards, the returned pile {view['returned_count']}."
    return " ".join([*rows, deck])


def _score(view: dict[str, Any]) -> str:
    if view["phase"] in ("swap", "choose_set"):
        return "No adventurer yet: choose a set first."
    stats = view["stats"]
    parts = [f"health {stats['health']}", f"attack {stats['attack']}", f"intelligence {stats['intelligence']}"]
    if stats.get("temp_intelligence"):
        parts[-1] += f" plus {stats['temp_intelligence']} for now"
    if stats.get("ward"):
        parts.append(f"ward {stats['ward']}")
    parts.append(f"gold {stats['gold']}")
    text = "Your adventurer: " + ", ".join(parts) + "."
    if view["result"] is not None:
        scores = list(view["result"]["scores"].values())
        text += f" Final score: {scores[0]}." if scores else ""
    return text


def grid(view: dict[str, Any]) -> Grid:
    return grid_of(view)


def grid_of(view: dict[str, Any]) -> Grid:
    """The map as words per square: corridor, exit, and each room by its number and state."""
    rows = []
    for r, row in enumerate(view["cells"], start=1):
        words = []
        for c, cell in enumerate(row, start=1):
            if cell["room"] is None:
                word = "corridor"
            else:
                word = f"room {cell['room']}, {GRID_WORDS.get(cell['status'], cell['status'])}"
            if [r, c] == view["exit"]:
                word += ", exit"
            words.append(word)
        rows.append(words)
    position = view["position"]
    you = (position[0] - 1, position[1] - 1) if position else None
    n = view["size"]
    return Grid(label=f"Dungeon map, {n} by {n}", rows=rows, you=you, row_names=[f"row {r}" for r in range(1, n + 1)])
