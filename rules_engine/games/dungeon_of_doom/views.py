"""What the pages show: ``view`` (fields of view, memory, the whole map at the end),
``full_view``, event sentences, ``result``, the server's actions, ``positions``,
``living_seats``, ``turn_clock`` and button labels."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, NamedTuple

from . import vision
from .maps import (
    ITEM_CHARS,
    TILE_NAMES,
    grid_rows,
    is_shipped,
)
from .play import _find
from .state import _CODE_ITEM, _SEEN, BASE_AP, DEFAULT_TURN_SECONDS, EVENT_WINDOW, _lantern

# ---------------------------------------------------------------------------------------------
# View, result, dump/load


# How far the widest field reaches from the viewer along a row or a column (3, the lantern's).
_REACH = max(max(abs(dr), abs(dc)) for dr, dc in vision.LANTERN_FIELD)


def _field_view(
    state: dict[str, Any], p: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[str], set[tuple[int, int]]]:
    m = state["map"]
    terrain, height, width = m["terrain"], m["height"], m["width"]
    lantern = _lantern(p)
    r0, c0 = p["pos"]
    # Items and players beyond the field's reach are left out by two comparisons, before any lookup.
    top, bottom, left, right = r0 - _REACH, r0 + _REACH, c0 - _REACH, c0 + _REACH
    items: dict[tuple[int, int], dict[str, Any]] = {}
    for it in m["items"]:
        r, c = it["pos"]
        if top <= r <= bottom and left <= c <= right:
            items[r, c] = it
    people: dict[tuple[int, int], str] = {}
    for q in state["players"]:
        if q["status"] == "alive":
            r, c = q["pos"]
            if top <= r <= bottom and left <= c <= right:
                people[r, c] = q["seat"]
    # One pass over the field gives the visible cells and the look's characters, both row-major.
    visible: list[dict[str, Any]] = []
    chars: list[str] = []
    cellset: set[tuple[int, int]] = set()
    for dr, dc in vision.field_offsets(lantern):
        r, c = r0 + dr, c0 + dc
        if not (0 <= r < height and 0 <= c < width):
            chars.append("#")  # ruling 19
            continue
        cell = (r, c)
        cellset.add(cell)
        item = items.get(cell)
        seat = people.get(cell)
        code = terrain[r][c]
        if item is None:
            visible.append({"pos": [r, c], "tile": TILE_NAMES[code], "item": None, "player": seat})
        else:
            shown = {"kind": item["kind"], "amount": item["amount"]}
            visible.append({"pos": [r, c], "tile": TILE_NAMES[code], "item": shown, "player": seat})
            code = ITEM_CHARS[item["kind"]]
        # Another player shows as P; the viewer's own cell shows what lies there.
        chars.append("P" if seat is not None and (dr or dc) else code)
    return visible, vision.render_look(chars, lantern=lantern), cellset


# Memory code → (tile, item kind or None): bare terrain, or an item on floor or on an exit.
_MEMORY_CELL: dict[str, tuple[str, str | None]] = {
    **{code: (tile, None) for code, tile in TILE_NAMES.items()},
    **_CODE_ITEM,
}


# 512 rows: a few games' worth on the largest random map, and at most 1.6 MB (rows 41 cells
# wide, every cell seen; 3.8 MB for the 100-wide maps a file may hold).
@lru_cache(maxsize=512)
def _remembered(row: str) -> tuple[tuple[int, str, str | None], ...]:
    """The seen cells of one memory row: ``(column, tile, item kind or None)``.

    A row is a string, and a player's rows change only where they see something new, so every
    view after the first finds its rows here instead of scanning them again."""
    return tuple((match.start(), *_MEMORY_CELL[match.group()]) for match in _SEEN.finditer(row))


def _memory_view(p: dict[str, Any], visible: set[tuple[int, int]]) -> list[dict[str, Any]]:
    gold = p["memory"]["gold"]
    # Only the rows the field reaches can hold a cell seen now, which the memory leaves out.
    near = range(p["pos"][0] - _REACH, p["pos"][0] + _REACH + 1)
    out: list[dict[str, Any]] = []
    for r, row in enumerate(p["memory"]["rows"]):
        in_field = r in near
        for c, tile, kind in _remembered(row):
            if in_field and (r, c) in visible:
                continue
            if kind is None:
                out.append({"pos": [r, c], "tile": tile, "item": None})
            else:
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


# The worded events, by the id of the event: an event stays in a state's window for dozens of
# actions and is shown to every seat after each, but is worded once per viewer. A state's events
# are never changed once written (a transaction appends new ones), so the event itself, held by
# its entry (its id cannot be reused while the entry lives) and checked by identity, is the key.
# An entry: (the event, the keys of its lists, {viewer: the event without ``to``, with its
# text}); its templates are never handed out, each view gets copies. Emptied when full, in one
# call no other thread can interleave with: about 1 kB an event, 4 MB at most, the windows of
# some 70 four-seat tables.
_SHOWN_LIMIT = 4096
_Entry = tuple[dict[str, Any], tuple[str, ...], dict[str | None, dict[str, Any]]]
_shown: dict[int, _Entry] = {}


def _events_for(state: dict[str, Any], seat: str | None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    cache = _shown
    for event in reversed(state["events"]):
        to = event["to"]
        if to is None or (seat is not None and seat in to):
            entry = cache.get(id(event))
            if entry is None or entry[0] is not event:
                entry = _remember(event)
            template = entry[2].get(seat)
            if template is None:
                template = _word(entry, seat)
            # Fresh copies of the template and of its lists: a view shares no list or dict with
            # the state, the cache nor another view.
            shown = template.copy()
            for key in entry[1]:
                shown[key] = list(shown[key])
            out.append(shown)
            if len(out) == EVENT_WINDOW:
                break
    out.reverse()
    return out


def _remember(event: dict[str, Any]) -> _Entry:
    known = _EVENTS.get(event["type"])  # None: a type this module does not word; every list is copied
    keys = known.lists if known is not None else tuple(k for k in event if k != "to")
    lists = tuple(k for k in keys if isinstance(event.get(k), list))  # older came_into_view lacks offset
    if len(_shown) >= _SHOWN_LIMIT:
        _shown.clear()
    entry = _shown[id(event)] = (event, lists, {})
    return entry


def _word(entry: _Entry, viewer: str | None) -> dict[str, Any]:
    event, _, by_viewer = entry
    text = event_text(event, viewer)
    # Most viewers read the same line (only the seats it names read "you"): they share a template.
    # The values are listed first, in one call, so that another thread adding a viewer cannot
    # change the dict under the search.
    template = next((t for t in list(by_viewer.values()) if t["text"] == text), None)
    if template is None:
        template = event.copy()
        del template["to"]
        template["text"] = text
    by_viewer[viewer] = template
    return template


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
    known = _EVENTS.get(kind)
    return kind.replace("_", " ") if known is None else known.text(event, viewer)


# One function per event type, looked up by the type (every event is worded once for each viewer,
# see ``_shown``), and the keys of the type's lists, which a view copies.


def _who(seat: str, viewer: str | None) -> str:
    return "you" if seat == viewer else seat


def _Who(seat: str, viewer: str | None) -> str:
    return "You" if seat == viewer else seat


def _game_started(event: dict[str, Any], viewer: str | None) -> str:
    return f"The game begins. Turn order: {', '.join(event['order'])}."


def _joined(event: dict[str, Any], viewer: str | None) -> str:
    return f"{_Who(event['seat'], viewer)} joined the game."


def _turn_started(event: dict[str, Any], viewer: str | None) -> str:
    whose = "your" if event["seat"] == viewer else f"{event['seat']}'s"
    return f"Turn {event['turn']}: {whose} turn."


def _timed_out(event: dict[str, Any], viewer: str | None) -> str:
    return f"{_Who(event['seat'], viewer)} ran out of time."


def _came_into_view(event: dict[str, Any], viewer: str | None) -> str:
    # Where, from the reader: the map has no coordinates a player could look up.
    where = f" {whereabouts(event['offset'])}" if "offset" in event else ""  # older games' events lack it
    return f"{event['seat']} came into view{where}."


def _left_view(event: dict[str, Any], viewer: str | None) -> str:
    return f"{event['seat']} went out of view."


def _picked_up(event: dict[str, Any], viewer: str | None) -> str:
    if event["item"] == "gold":
        got = f"You picked up {event['amount']} gold"
    elif event["item"] == "potion":
        got = "You drank a health potion"
    else:
        got = f"You picked up {_ITEM_TEXT[event['item']]}"
    return f"{got} ({event['ap']} AP left)."


def _item_taken(event: dict[str, Any], viewer: str | None) -> str:
    return f"{event['seat']} picked up {_ITEM_TEXT[event['item']]}."


def _attack(event: dict[str, Any], viewer: str | None) -> str:
    outcome = "missed"
    if event["hit"]:
        damage = event.get("damage")
        outcome = (
            "hit"
            if damage is None
            else ("hit, but the armour absorbed it" if damage == 0 else f"hit for {damage} damage")
        )
    line = f"{_Who(event['attacker'], viewer)} attacked {_who(event['target'], viewer)}: {outcome}."
    if "hp" in event:
        line += f" You have {event['hp']} HP."
    return line


def _hp_changed(event: dict[str, Any], viewer: str | None) -> str:
    return f"Your hit points {'rose' if event['delta'] > 0 else 'fell'} to {event['hp']}."


def _gold_changed(event: dict[str, Any], viewer: str | None) -> str:
    if event["delta"] < 0:
        return f"You dropped {-event['delta']} gold."
    return f"You now carry {event['gold']} gold."


def _died(event: dict[str, Any], viewer: str | None) -> str:
    cause = _CAUSE_TEXT[event["cause"]]
    if event["seat"] == viewer:
        cause = cause.replace("was slain", "were slain")
    return f"{_Who(event['seat'], viewer)} {cause}."


def _won(event: dict[str, Any], viewer: str | None) -> str:
    return f"{_Who(event['seat'], viewer)} escaped with the gold and won!"


def _game_over(event: dict[str, Any], viewer: str | None) -> str:
    if event["winners"]:
        return f"The game is over. Winner: {', '.join(_who(s, viewer) for s in event['winners'])}."
    return "The game is over: no one is left in the dungeon."


class _EventType(NamedTuple):
    text: Callable[[dict[str, Any], str | None], str]
    lists: tuple[str, ...] = ()


_EVENTS = {
    "game_started": _EventType(_game_started, ("order",)),
    "joined": _EventType(_joined),
    "turn_started": _EventType(_turn_started),
    "timed_out": _EventType(_timed_out),
    "came_into_view": _EventType(_came_into_view, ("pos", "offset")),
    "left_view": _EventType(_left_view),
    "picked_up": _EventType(_picked_up),
    "item_taken": _EventType(_item_taken),
    "attack": _EventType(_attack),
    "attack_seen": _EventType(_attack),
    "hp_changed": _EventType(_hp_changed),
    "gold_changed": _EventType(_gold_changed),
    "died": _EventType(_died),
    "won": _EventType(_won),
    "game_over": _EventType(_game_over, ("winners",)),
}


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
