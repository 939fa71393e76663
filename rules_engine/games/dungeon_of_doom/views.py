"""What the pages show: ``view`` (fields of view, memory, the whole map at the end),
``full_view``, event sentences, ``result``, the server's actions, ``positions``,
``living_seats``, ``turn_clock`` and button labels."""

from __future__ import annotations

from typing import Any

from . import vision
from .maps import (
    ITEM_CHARS,
    TILE_NAMES,
    grid_rows,
    is_shipped,
)
from .play import _find
from .state import _CODE_ITEM, _SEEN, BASE_AP, DEFAULT_TURN_SECONDS, EVENT_WINDOW, _lantern, _pos

# ---------------------------------------------------------------------------------------------
# View, result, dump/load


def _item_view(item: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if item is None else {"kind": item["kind"], "amount": item["amount"]}


def _field_view(
    state: dict[str, Any], p: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[str], set[tuple[int, int]]]:
    m = state["map"]
    terrain, height, width = m["terrain"], m["height"], m["width"]
    lantern = _lantern(p)
    me = _pos(p)
    cells = vision.field_cells(me, lantern=lantern, height=height, width=width)
    cellset = set(cells)
    items = {(it["pos"][0], it["pos"][1]): it for it in m["items"] if (it["pos"][0], it["pos"][1]) in cellset}
    people = {_pos(q): q["seat"] for q in state["players"] if q["status"] == "alive" and _pos(q) in cellset}
    visible = [
        {
            "pos": [r, c],
            "tile": TILE_NAMES[terrain[r][c]],
            "item": _item_view(items.get((r, c))),
            "player": people.get((r, c)),
        }
        for r, c in cells
    ]

    def cell_char(r: int, c: int) -> str:
        if not (0 <= r < height and 0 <= c < width):
            return "#"  # ruling 19
        if (r, c) in people and (r, c) != me:
            return "P"
        item = items.get((r, c))
        return ITEM_CHARS[item["kind"]] if item is not None else terrain[r][c]

    look = vision.render_look(me, lantern=lantern, cell_char=cell_char)
    return visible, look, cellset


def _memory_view(p: dict[str, Any], visible: set[tuple[int, int]]) -> list[dict[str, Any]]:
    gold = p["memory"]["gold"]
    out: list[dict[str, Any]] = []
    for r, row in enumerate(p["memory"]["rows"]):
        for match in _SEEN.finditer(row):
            c = match.start()
            if (r, c) in visible:
                continue
            code = match.group()
            if code in TILE_NAMES:
                out.append({"pos": [r, c], "tile": TILE_NAMES[code], "item": None})
            else:
                tile, kind = _CODE_ITEM[code]
                amount = gold.get(f"{r},{c}", 1) if kind == "gold" else 1
                out.append({"pos": [r, c], "tile": tile, "item": {"kind": kind, "amount": amount}})
    return out


def _final(state: dict[str, Any]) -> dict[str, Any]:
    m = state["map"]
    items = m["items"]
    return {
        "rows": grid_rows(m["terrain"], [((it["pos"][0], it["pos"][1]), it["kind"]) for it in items]),
        # rows hide an exit under dropped gold (ruling 20); the final map draws the tile beneath.
        "terrain": list(m["terrain"]),
        "items": [{"pos": list(it["pos"]), "kind": it["kind"], "amount": it["amount"]} for it in items],
        "players": [
            {
                "seat": p["seat"],
                "status": p["status"],
                "cause": p["cause"],
                "pos": None if p["pos"] is None else list(p["pos"]),
                "hp": p["hp"],
                "gold": p["gold"],
                "kit": list(p["kit"]),
            }
            for p in state["players"]
        ],
    }


def view(state: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """What ``seat`` (or a spectator, ``None``) may know; the shape is in the module docstring.

    >>> from .play import new_game
    >>> s = new_game(5, ["p1", "p2"], {"start_positions": {"p1": [5, 5], "p2": [9, 1]}})
    >>> v = view(s, "p1")
    >>> v["look"], v["me"]["ap"], len(v["visible"])
    (['XH.SX', '.#.#.', '.L.A.', '.#.#.', 'X...X'], 6, 21)
    >>> view(s, None)["me"], view(s, None)["visible"]
    (None, [])
    """
    m = state["map"]
    opts = state["options"]
    over = state["result"] is not None
    turn = state["turn"]
    p = _find(state, seat) if isinstance(seat, str) else None
    out: dict[str, Any] = {
        "status": "finished" if over else "playing",
        "seat": p["seat"] if p is not None else None,
        "map": {
            "name": m["name"] or "Unnamed dungeon",
            "width": m["width"],
            "height": m["height"],
            "target_gold": m["target"],
            "custom": opts["map"] is not None and not is_shipped(opts["map"]),
            # .get: states stored before random_map existed lack the key.
            "random": opts.get("random_map"),
        },
        "turn": None
        if turn is None
        else {"number": turn["number"], "seat": turn["seat"], "seconds": opts["turn_seconds"]},
        "players": [{"seat": q["seat"], "status": q["status"], "cause": q["cause"]} for q in state["players"]],
        "me": None,
        "visible": [],
        "look": [],
        "memory": [],
        "events": (events := _events_for(state, p["seat"] if p is not None else None)),
        # The log every game's view shares ({seq, text} entries): here the events themselves.
        "log": events,
        "result": result(state),
        "final": _final(state) if over else None,
    }
    if p is not None and p["status"] == "alive":
        visible, look, cellset = _field_view(state, p)
        out["me"] = {
            "seat": p["seat"],
            "status": p["status"],
            "pos": list(p["pos"]),
            "hp": p["hp"],
            "gold": p["gold"],
            "kit": list(p["kit"]),
            "ap": p["ap"],
            "ap_next_turn": BASE_AP - len(p["kit"]),
            "vision": "lantern" if _lantern(p) else "normal",
        }
        out["visible"], out["look"] = visible, look
        out["memory"] = _memory_view(p, cellset)
    elif p is not None:
        out["me"] = {"seat": p["seat"], "status": p["status"]}
    return out


def full_view(state: dict[str, Any]) -> dict[str, Any]:
    """A replay's view (``rules_engine.contract``): the spectator's with ``final`` filled in at
    every point, so the page draws the whole map with every item and every player's token, which
    a spectator sees only once the game is over. Nothing else is hidden: ``revealed`` is empty.

    >>> from .play import new_game
    >>> s = new_game(5, ["p1", "p2"], {"start_positions": {"p1": [5, 5], "p2": [9, 1]}})
    >>> v = full_view(s)
    >>> v["status"], [p["pos"] for p in v["final"]["players"]], v["revealed"]
    ('playing', [[5, 5], [9, 1]], [])
    """
    return {**view(state, None), "final": _final(state), "revealed": []}


def _events_for(state: dict[str, Any], seat: str | None) -> list[dict[str, Any]]:
    picked = []
    for event in reversed(state["events"]):
        to = event["to"]
        if to is None or (seat is not None and seat in to):
            picked.append(event)
            if len(picked) == EVENT_WINDOW:
                break
    out = []
    for event in reversed(picked):
        shown = {k: (list(v) if isinstance(v, list) else v) for k, v in event.items() if k != "to"}
        shown["text"] = event_text(event, seat)
        out.append(shown)
    return out


_CAUSE_TEXT = {
    "slain": "was slain",
    "left": "left the game",
    "disconnected": "lost the connection for too long",
    "idle": "ran out of time three turns in a row",
}
_ITEM_TEXT = {
    "gold": "gold",
    "potion": "a health potion",
    "sword": "a sword",
    "armour": "armour",
    "lantern": "a lantern",
}


def whereabouts(offset: list[int]) -> str:
    """Where a tile ``offset`` (rows down, columns right) away lies, in steps along the compass.

    >>> whereabouts([-3, 0]), whereabouts([2, -1])
    ('3 steps north of you', '2 steps south and 1 step west of you')
    """
    dr, dc = offset
    legs = [
        f"{abs(d)} step{'s' if abs(d) != 1 else ''} {name}"
        for d, name in ((dr, "north" if dr < 0 else "south"), (dc, "west" if dc < 0 else "east"))
        if d
    ]
    return f"{' and '.join(legs)} of you" if legs else "where you stand"


def event_text(event: dict[str, Any], viewer: str | None) -> str:
    """One plain-English log line for ``event`` as ``viewer`` reads it.

    >>> event_text({"type": "turn_started", "seat": "p2", "turn": 2}, "p2")
    'Turn 2: your turn.'
    """
    kind: str = event["type"]

    def who(seat: str) -> str:
        return "you" if seat == viewer else seat

    def Who(seat: str) -> str:
        return "You" if seat == viewer else seat

    if kind == "game_started":
        return f"The game begins. Turn order: {', '.join(event['order'])}."
    if kind == "joined":
        return f"{Who(event['seat'])} joined the game."
    if kind == "turn_started":
        whose = "your" if event["seat"] == viewer else f"{event['seat']}'s"
        return f"Turn {event['turn']}: {whose} turn."
    if kind == "timed_out":
        return f"{Who(event['seat'])} ran out of time."
    if kind == "came_into_view":
        # Where, from the reader: the map has no coordinates a player could look up.
        where = f" {whereabouts(event['offset'])}" if "offset" in event else ""  # older games' events lack it
        return f"{event['seat']} came into view{where}."
    if kind == "left_view":
        return f"{event['seat']} went out of view."
    if kind == "picked_up":
        if event["item"] == "gold":
            got = f"You picked up {event['amount']} gold"
        elif event["item"] == "potion":
            got = "You drank a health potion"
        else:
            got = f"You picked up {_ITEM_TEXT[event['item']]}"
        return f"{got} ({event['ap']} AP left)."
    if kind == "item_taken":
        return f"{event['seat']} picked up {_ITEM_TEXT[event['item']]}."
    if kind in ("attack", "attack_seen"):
        outcome = "missed"
        if event["hit"]:
            damage = event.get("damage")
            outcome = (
                "hit"
                if damage is None
                else ("hit, but the armour absorbed it" if damage == 0 else f"hit for {damage} damage")
            )
        line = f"{Who(event['attacker'])} attacked {who(event['target'])}: {outcome}."
        if "hp" in event:
            line += f" You have {event['hp']} HP."
        return line
    if kind == "hp_changed":
        return f"Your hit points {'rose' if event['delta'] > 0 else 'fell'} to {event['hp']}."
    if kind == "gold_changed":
        if event["delta"] < 0:
            return f"You dropped {-event['delta']} gold."
        return f"You now carry {event['gold']} gold."
    if kind == "died":
        cause = _CAUSE_TEXT[event["cause"]]
        if event["seat"] == viewer:
            cause = cause.replace("was slain", "were slain")
        return f"{Who(event['seat'])} {cause}."
    if kind == "won":
        return f"{Who(event['seat'])} escaped with the gold and won!"
    if kind == "game_over":
        if event["winners"]:
            return f"The game is over. Winner: {', '.join(who(s) for s in event['winners'])}."
        return "The game is over: no one is left in the dungeon."
    return kind.replace("_", " ")  # pragma: no cover - every type is handled above


def field_of_view(lantern: bool) -> tuple[tuple[int, int], ...]:
    """The offsets ``(dr, dc)`` a player sees (6.1), row-major: the engine's own field, so the
    pictures of the How to play page cannot drift from the rules.

    >>> len(field_of_view(False)), len(field_of_view(True)), (3, 0) in field_of_view(True)
    (21, 33, True)
    """
    return vision.field_offsets(lantern)


def result(state: dict[str, Any]) -> dict[str, Any] | None:
    """``None`` while running, else ``{"winners", "scores", "reason", "text"}`` (10.8); the sentence
    names seats ("p1"), as the log does."""
    res = state["result"]
    if res is None:
        return None
    winners = list(res["winners"])
    text = f"{', '.join(winners)} escaped with the gold!" if winners else "Nobody escaped."
    return {"winners": winners, "scores": dict(res["scores"]), "reason": res["reason"], "text": text}


# ---------------------------------------------------------------------------------------------
# What the web layer needs to run the clock and presence (10.6): the engine stays clock-free.

server_actions = ("timeout", "drop")
"""Applied by the server on a seat's behalf; a client posting one is refused."""
timeout_action = {"type": "timeout"}
absence_action = {"type": "drop"}
join_action = {"type": "join"}


def positions(state: dict[str, Any]) -> dict[str, list[int]]:
    """Where each adventurer still in the dungeon stands, ``[row, col]``: a replay draws the paths.

    >>> from .play import new_game
    >>> positions(new_game(5, ["p1", "p2"], {"start_positions": {"p1": [5, 5], "p2": [9, 1]}}))
    {'p1': [5, 5], 'p2': [9, 1]}
    """
    return {p["seat"]: list(p["pos"]) for p in state["players"] if p["pos"] is not None}


def living_seats(state: dict[str, Any]) -> list[str]:
    """The seats still playing (alive): a roster cap counts these, never the dead or the departed.

    >>> from .play import apply, new_game
    >>> s = new_game(3, ["p1", "p2"], {"start_positions": {"p1": [5, 5], "p2": [7, 5]}})
    >>> living_seats(apply(s, "p2", {"type": "leave"}))
    ['p1']
    """
    return [p["seat"] for p in state["players"] if p["status"] == "alive"]


def turn_clock(state: dict[str, Any]) -> dict[str, Any] | None:
    """The running turn, for the web layer's timer: ``{seat, number, seconds}``; None when over.

    ``seconds`` is ``options.turn_seconds`` (0 = no limit)."""
    turn = state["turn"]
    if turn is None or state["result"] is not None:
        return None
    seconds = state["options"].get("turn_seconds", DEFAULT_TURN_SECONDS)
    return {"seat": turn["seat"], "number": turn["number"], "seconds": seconds}
