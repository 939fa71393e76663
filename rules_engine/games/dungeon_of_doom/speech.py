"""The Dungeon of Doom by typed commands, and its answers in words (``rules_engine.speech``).

The words are the classic text language's (``webapp/adapters/classic``, rules 10.9): ``move n``,
``pickup``, ``attack e``, ``end``, and ``look`` for what is around you. Everything here reads the
seat's view alone: its own field of view, what it remembers, and the whole map only once the
game is over (``final``), so nothing it has not seen is ever said.

>>> view = {"seat": "p1", "status": "playing", "turn": {"number": 3, "seat": "p1", "seconds": 0},
...         "me": {"seat": "p1", "status": "alive", "pos": [1, 1], "hp": 3, "gold": 0, "kit": [],
...                "ap": 6, "ap_next_turn": 6, "vision": "normal"},
...         "map": {"name": "Ledge", "width": 4, "height": 3, "target_gold": 1},
...         "visible": [{"pos": [r, c], "tile": "wall" if (r, c) == (0, 1) else "floor",
...                      "item": {"kind": "gold", "amount": 2} if (r, c) == (1, 3) else None,
...                      "player": "p2" if (r, c) == (2, 2) else None}
...                     for r in range(3) for c in range(4) if abs(r - 1) + abs(c - 1) <= 3],
...         "memory": [], "players": [{"seat": "p1", "status": "alive"}, {"seat": "p2", "status": "alive"}]}
>>> [c.typed for c in commands(view, [{"type": "move", "dir": "E"}, {"type": "pickup"},
...                                   {"type": "attack", "dir": "S"}, {"type": "end_turn"}])]
['move e', 'pickup', 'attack s', 'end']
>>> print(describe(view, "where"))  # doctest: +NORMALIZE_WHITESPACE
North: a wall next to you. East: 2 gold 2 steps away. South: the edge of the map 2 steps away.
West: the edge of the map 2 steps away. Also in sight: p2 1 step south and 1 step east of you.
"""

from __future__ import annotations

from typing import Any

from ...grid import DIRECTION_NAMES, DIRECTIONS
from ...speech import Command, Grid
from . import vision
from .state import DIRECTION_ORDER
from .views import whereabouts

Action = dict[str, Any]

VERBS = frozenset({"move", "pickup", "attack", "end", "leave", "join"})
"""Every word a Dungeon of Doom command starts with (the classic language's, and leave and join)."""

COMMAND_HELP: tuple[tuple[str, str], ...] = (
    ("move n", "Walk one step north (1 AP); move e, move s and move w walk east, south and west."),
    (
        "pickup",
        "Pick up what lies on your tile (1 AP): gold, a sword, armour or a lantern; a health potion is "
        "drunk at once and uses every AP you have left.",
    ),
    ("attack e", "Attack the player next to you to the east (or n, s, w): uses all your AP."),
    ("end", "End your turn."),
    ("leave game", "Leave the game for good."),
    ("join", "Join a running game when the table has room."),
)
"""Every command form with an example, for the How to play page (the tests check it names
every verb)."""

QUESTIONS: tuple[tuple[str, str], ...] = (
    ("help", "The commands that work now, and what each does."),
    ("status", "Whose turn it is, your AP left, your hit points and your gold against the gold needed."),
    (
        "where",
        "What you see around you: north, east, south and west by distance up to a wall, then everything "
        "else in sight, then what you remember (look does the same).",
    ),
    ("hand", "Nothing: there are no cards in The Dungeon of Doom."),
    ("board", "The map as you know it, row by row, north first: unseen squares are said so."),
    ("log", "The last lines of the game's log."),
    ("score", "Your gold, hit points and kit, and who is still in the dungeon; at the end, everyone's gold."),
)
"""What each question answers in this game, for the How to play page."""

ITEM_WORDS = {"potion": "a health potion", "sword": "a sword", "armour": "armour", "lantern": "a lantern"}


def item_words(item: dict[str, Any]) -> str:
    return f"{item['amount']} gold" if item["kind"] == "gold" else ITEM_WORDS[item["kind"]]


def _command(view: dict[str, Any], action: Action) -> Command:
    kind = action["type"]
    if kind == "move":
        return Command("move", action["dir"].lower(), action, f"Walk one step {DIRECTION_NAMES[action['dir']]}.")
    if kind == "attack":
        target = _cell_at(view, _step(view, action["dir"]))
        whom = f" {target['player']}" if target and target.get("player") else ""
        return Command(
            "attack", action["dir"].lower(), action, f"Attack{whom} to the {DIRECTION_NAMES[action['dir']]}."
        )
    if kind == "pickup":
        here = _cell_at(view, _position(view))
        item = here.get("item") if here else None
        if item and item["kind"] == "potion":
            says = "Drink the health potion here (uses all your AP)."
        else:
            says = f"Pick up {item_words(item)}." if item else "Pick up what lies here."
        return Command("pickup", "", action, says)
    if kind == "end_turn":
        return Command("end", "", action, "End your turn.")
    if kind == "leave":
        return Command("leave", "game", action, "Leave the game for good.")
    if kind == "join":
        return Command("join", "", action, "Join the game.")
    raise ValueError(f"no command for {kind}")  # every player action is named above


def commands(view: dict[str, Any], legal: list[Action]) -> list[Command]:
    """Every action in ``legal`` as its typed command, in the same order."""
    return [_command(view, action) for action in legal]


# --- the seat's knowledge -----------------------------------------------------------------------

Pos = tuple[int, int]


def _position(view: dict[str, Any]) -> Pos | None:
    me = view.get("me") or {}
    pos = me.get("pos")
    return (pos[0], pos[1]) if pos else None


def _step(view: dict[str, Any], direction: str) -> Pos | None:
    pos = _position(view)
    if pos is None:
        return None
    dr, dc = DIRECTIONS[direction]
    return pos[0] + dr, pos[1] + dc


def _visible(view: dict[str, Any]) -> dict[Pos, dict[str, Any]]:
    return {(cell["pos"][0], cell["pos"][1]): cell for cell in view.get("visible") or []}


def _cell_at(view: dict[str, Any], pos: Pos | None) -> dict[str, Any] | None:
    return None if pos is None else _visible(view).get(pos)


TILE_WORDS = {"wall": "a wall", "exit": "the exit"}


def _cell_words(cell: dict[str, Any], viewer: str | None) -> str:
    """One known cell: who stands there, else its item, else its tile."""
    player = cell.get("player")
    if player and player != viewer:
        return str(player)
    if cell.get("item"):
        return item_words(cell["item"])
    return TILE_WORDS.get(cell["tile"], str(cell["tile"]))


def _steps(n: int) -> str:
    return f"{n} step{'s' if n != 1 else ''}"


def _ray(view: dict[str, Any], direction: str) -> str:
    """What lies one way from the seat, outward to a wall, the map's edge or the end of its sight:
    each thing that is not bare floor, by its distance."""
    pos = _position(view)
    assert pos is not None  # only asked of a living seat
    visible, size = _visible(view), view["map"]
    lantern = (view.get("me") or {}).get("vision") == "lantern"
    dr, dc = DIRECTIONS[direction]
    things: list[str] = []
    distance = 1
    while vision.in_field(dr * distance, dc * distance, lantern=lantern):
        r, c = pos[0] + dr * distance, pos[1] + dc * distance
        away = "next to you" if distance == 1 else f"{_steps(distance)} away"
        if not (0 <= r < size["height"] and 0 <= c < size["width"]):
            things.append(f"the edge of the map {away}")
            break
        cell = visible.get((r, c))
        if cell is None:  # a view always holds its whole field on the map; kept safe all the same
            break
        words = _cell_words(cell, view.get("seat"))
        if words != "floor":
            things.append(f"{words} {away}")
        if cell["tile"] == "wall":
            break
        distance += 1
    name = DIRECTION_NAMES[direction].capitalize()
    if not things:
        return f"{name}: floor as far as you see, {_steps(distance - 1)}."
    return f"{name}: {', then '.join(things)}."


def _where(view: dict[str, Any]) -> str:
    pos = _position(view)
    if pos is None:
        return _not_in_the_dungeon(view)
    viewer = view.get("seat")
    parts = []
    here = _visible(view).get(pos)
    if here is not None and (here.get("item") or here["tile"] == "exit"):
        parts.append(f"Here: {item_words(here['item']) if here.get('item') else 'the exit'}.")
    parts += [_ray(view, d) for d in DIRECTION_ORDER]
    on_rays = {
        (pos[0] + DIRECTIONS[d][0] * n, pos[1] + DIRECTIONS[d][1] * n) for d in DIRECTION_ORDER for n in range(1, 4)
    }
    besides = [
        (abs(r - pos[0]) + abs(c - pos[1]), f"{_cell_words(cell, viewer)} {whereabouts([r - pos[0], c - pos[1]])}")
        for (r, c), cell in _visible(view).items()
        if (r, c) not in on_rays and (r, c) != pos and _notable(cell, viewer)
    ]
    if besides:
        parts.append(f"Also in sight: {'; '.join(words for _, words in sorted(besides))}.")
    remembered = _remembered(view, pos)
    if remembered:
        parts.append(f"You remember: {'; '.join(remembered)}.")
    return " ".join(parts)


REMEMBERED_MOST = 5
"""How many remembered things ``where`` reads, nearest first."""


def _remembered(view: dict[str, Any], pos: Pos) -> list[str]:
    notable = [m for m in view.get("memory") or [] if m.get("item") or m["tile"] == "exit"]
    notable.sort(key=lambda m: (abs(m["pos"][0] - pos[0]) + abs(m["pos"][1] - pos[1]), m["pos"]))
    return [
        f"{_cell_words(m, None)} {whereabouts([m['pos'][0] - pos[0], m['pos'][1] - pos[1]])}"
        for m in notable[:REMEMBERED_MOST]
    ]


def _notable(cell: dict[str, Any], viewer: str | None) -> bool:
    return bool(cell.get("item") or cell["tile"] == "exit" or (cell.get("player") and cell["player"] != viewer))


def _not_in_the_dungeon(view: dict[str, Any]) -> str:
    me = view.get("me")
    if view.get("status") == "finished":
        return "The game is over: type board for the whole map."
    if me is None:
        return "You are watching: you see nothing of the dungeon until the game is over."
    return "You are no longer in the dungeon."


def _status(view: dict[str, Any]) -> str:
    result = view.get("result")
    if result is not None:
        return f"The game is over. {result['text']}"
    me = view.get("me")
    turn = view.get("turn") or {}
    whose = "your turn" if turn.get("seat") == view.get("seat") else f"{turn.get('seat')}'s turn"
    parts = [f"Turn {turn.get('number')}: {whose}."]
    if me and me["status"] == "alive":
        if me.get("ap") is not None:
            parts.append(f"You have {me['ap']} AP left.")
        target = view["map"]["target_gold"]
        parts.append(f"You have {me['hp']} HP and {me['gold']} gold of the {target} needed to escape by the exit.")
    elif me:
        parts.append("You are no longer in the dungeon.")
    else:
        parts.append("You are watching.")
    return " ".join(parts)


def _score(view: dict[str, Any]) -> str:
    result = view.get("result")
    if result is not None:
        scores = ", ".join(f"{seat} {gold} gold" for seat, gold in result["scores"].items())
        return f"{result['text']} Gold: {scores}."
    parts = []
    me = view.get("me")
    if me and me["status"] == "alive":
        kit = ", ".join(me["kit"]) or "nothing"
        parts.append(
            f"You: {me['gold']} of {view['map']['target_gold']} gold, {me['hp']} HP, carrying {kit}; "
            f"{me['ap_next_turn']} AP a turn."
        )
    roster = [
        f"{p['seat']} {'in the dungeon' if p['status'] == 'alive' else p.get('cause') or p['status']}"
        for p in view.get("players") or []
    ]
    parts.append(f"Players: {', '.join(roster)}.")
    return " ".join(parts)


def grid(view: dict[str, Any]) -> Grid | None:
    """The map as the seat knows it: its field as it is now, what it remembers as last seen, the
    rest "unseen"; once the game is over, the whole map."""
    size = view.get("map")
    if not size:
        return None
    height, width = size["height"], size["width"]
    final = view.get("final")
    if final is not None:
        return _final_grid(view, final)
    pos = _position(view)
    if pos is None:
        return None
    rows = [["unseen"] * width for _ in range(height)]
    for cell in view.get("memory") or []:
        words = _cell_words(cell, None)
        rows[cell["pos"][0]][cell["pos"][1]] = f"{words}, as last seen" if cell.get("item") else words
    for (r, c), cell in _visible(view).items():
        rows[r][c] = _cell_words(cell, view.get("seat"))
    return Grid(f"The map of {size['name']}", rows, pos)


def _final_grid(view: dict[str, Any], final: dict[str, Any]) -> Grid:
    terrain = final["terrain"]
    tiles = {"#": "a wall", ".": "floor", "E": "the exit"}
    rows = [[tiles.get(code, "floor") for code in line] for line in terrain]
    for item in final["items"]:
        rows[item["pos"][0]][item["pos"][1]] = item_words(item)
    for p in final["players"]:
        if p["pos"] is not None and p["status"] == "alive":
            rows[p["pos"][0]][p["pos"][1]] = p["seat"]
    you = next((tuple(p["pos"]) for p in final["players"] if p["seat"] == view.get("seat") and p["pos"]), None)
    return Grid(f"The whole map of {view['map']['name']}", rows, (you[0], you[1]) if you else None)


def _board(view: dict[str, Any]) -> str | None:
    """The known map row by row, runs of the same words told once."""
    the_grid = grid(view)
    if the_grid is None:
        return _not_in_the_dungeon(view)
    lines = []
    for r, row in enumerate(the_grid.rows):
        words = [("you" if the_grid.you == (r, c) else word) for c, word in enumerate(row)]
        if all(word == "unseen" for word in words):
            continue
        runs: list[str] = []
        start = 0
        for c in range(1, len(words) + 1):
            if c == len(words) or words[c] != words[start]:
                columns = f"column {start + 1}" if c - start == 1 else f"columns {start + 1} to {c}"
                runs.append(f"{columns} {words[start]}")
                start = c
        lines.append(f"Row {r + 1}: {'; '.join(runs)}.")
    return f"{the_grid.label}, {len(the_grid.rows)} rows by {len(the_grid.rows[0])} columns, north first. " + " ".join(
        lines
    )


def describe(view: dict[str, Any], topic: str) -> str | None:
    """The answer to ``topic`` (``rules_engine.speech.TOPICS``) from the seat's view, or None."""
    if topic == "status":
        return _status(view)
    if topic == "where":
        return _where(view)
    if topic == "board":
        return _board(view)
    if topic == "score":
        return _score(view)
    return None  # no hand in The Dungeon of Doom
