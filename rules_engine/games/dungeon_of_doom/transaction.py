"""PARTDOC tx"""

from __future__ import annotations

import random
from typing import Any, cast

from . import vision
from .maps import (
    ITEM_CHARS,
)
from .state import _UNSEEN, BASE_AP, EVENT_WINDOW, START_HP, _lantern, _pos, _sees


def _still_showable(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events some view can still show (10.7 keeps "events with their audiences").

    Every viewer receives the events addressed to everyone, so each viewer's latest
    EVENT_WINDOW events all come at or after the EVENT_WINDOW-th latest such event: anything
    older can never be shown again. Dropping it keeps the state, and every request that loads
    and stores it, from growing with the length of the game."""
    for_everyone = 0
    for index in range(len(events) - 1, -1, -1):
        if events[index]["to"] is None:
            for_everyone += 1
            if for_everyone == EVENT_WINDOW:
                return events[index:] if index else events
    return events


class _Tx:
    """A new state under construction. The input state is never touched: containers are
    copied the first time they change and everything unchanged is shared (states are values)."""

    players: list[dict[str, Any]]

    def __init__(self, state: dict[str, Any], *, step: int):
        self.old = state
        self.state = dict(state)
        self.state["step"] = step
        self.step = step
        self.players = self.state["players"] = list(state["players"])
        self.slot = {p["seat"]: i for i, p in enumerate(self.players)}
        self._own: set[int] = set()
        self.events: list[dict[str, Any]] = []
        self.moved: set[str] = set()  # seats whose field of view moved or widened
        self.changed: set[tuple[int, int]] = set()  # cells whose item changed
        self._items: dict[tuple[int, int], dict[str, Any]] | None = None
        self._items_dirty = False
        self.terrain = state["map"]["terrain"]
        self.height = state["map"]["height"]
        self.width = state["map"]["width"]

    # -- reading and copy-on-write -------------------------------------------------------------

    def player(self, seat: str) -> dict[str, Any] | None:
        i = self.slot.get(seat)
        return None if i is None else self.players[i]

    def edit(self, seat: str) -> dict[str, Any]:
        i = self.slot[seat]
        if i not in self._own:
            self.players[i] = dict(self.players[i])
            self._own.add(i)
        return self.players[i]

    def alive(self) -> list[dict[str, Any]]:
        return [p for p in self.players if p["status"] == "alive"]

    def items(self) -> dict[tuple[int, int], dict[str, Any]]:
        if self._items is None:
            self._items = {(it["pos"][0], it["pos"][1]): it for it in self.state["map"]["items"]}
        return self._items

    def set_item(self, pos: tuple[int, int], item: dict[str, Any] | None) -> None:
        items = self.items()
        if item is None:
            items.pop(pos, None)
        else:
            items[pos] = item
        self._items_dirty = True
        self.changed.add(pos)

    def rng(self) -> random.Random:
        return random.Random(f"{self.state['seed']}:{self.step}")  # 10.4

    def event(self, kind: str, to: list[str] | None, **data: Any) -> None:
        """Record an event for ``to`` (a list of seats) or everyone (``None``)."""
        self.events.append({"seq": self.step, "type": kind, "to": to, **data})

    # -- rules machinery -----------------------------------------------------------------------

    def place(self, seat: str, rng: random.Random) -> str | None:
        """Put a new living player on the board (4.1); the reason if that is impossible."""
        occupied = {_pos(p) for p in self.alive()}
        forced = self.state["options"]["start_positions"]
        if seat in forced:
            pos = (forced[seat][0], forced[seat][1])
            if pos in occupied:
                return "the forced start tile is occupied"
        else:
            # Tiles forced for seats not yet in the game are kept free for them.
            blocked = occupied | {(v[0], v[1]) for s, v in forced.items() if s not in self.slot}
            tiles = [
                (r, c)
                for r, row in enumerate(self.terrain)
                for c, ch in enumerate(row)
                if ch != "#" and (r, c) not in blocked
            ]
            if not tiles:
                return "there is no free tile"
            pos = tiles[rng.randrange(len(tiles))]
        self.slot[seat] = len(self.players)
        self._own.add(len(self.players))
        self.players.append(
            {
                "seat": seat,
                "status": "alive",
                "cause": None,
                "pos": [pos[0], pos[1]],
                "hp": START_HP,
                "gold": 0,
                "kit": [],
                "ap": None,
                "timeouts": 0,
                "memory": {"rows": [_UNSEEN * self.width] * self.height, "gold": {}},
            }
        )
        self.moved.add(seat)
        return None

    def sight_events(self) -> None:
        """``came_into_view`` / ``left_view`` for every pair involving a seat whose field or
        position changed in this action (10.7)."""
        before = {p["seat"]: p for p in self.old["players"] if p["status"] == "alive"}
        now = self.alive()
        for viewer in now:
            v = viewer["seat"]
            for other in now:
                o = other["seat"]
                if o == v or (v not in self.moved and o not in self.moved):
                    continue
                old_v, old_o = before.get(v), before.get(o)
                was = old_v is not None and old_o is not None and _sees(old_v, old_o["pos"])
                sees = _sees(viewer, other["pos"])
                if sees and not was:
                    offset = [other["pos"][0] - viewer["pos"][0], other["pos"][1] - viewer["pos"][1]]
                    self.event("came_into_view", [v], seat=o, pos=list(other["pos"]), offset=offset)
                elif was and not sees:
                    self.event("left_view", [v], seat=o)

    def begin_turn(self, seat: str, number: int) -> None:
        p = self.edit(seat)
        p["ap"] = BASE_AP - len(p["kit"])  # 4.3: kit taken last turn counts from now
        self.state["turn"] = {"seat": seat, "number": number}
        self.event("turn_started", None, seat=seat, turn=number)

    def pass_turn(self) -> None:
        """End the current turn; the next living seat in join order starts (4.2)."""
        turn = self.state["turn"]
        current = turn["seat"]
        if cast("dict[str, Any]", self.player(current))["ap"] is not None:  # the seat whose turn it is
            self.edit(current)["ap"] = None
        start = self.slot[current]
        count = len(self.players)
        for k in range(1, count + 1):
            p = self.players[(start + k) % count]
            if p["status"] == "alive":
                self.begin_turn(p["seat"], turn["number"] + 1)
                return
        self.game_over([], "no_one_left")

    def kill(self, seat: str, cause: str) -> None:
        """Death, leaving, disconnection or idling out (7.2)."""
        p = self.edit(seat)
        pos = _pos(p)
        if p["gold"] > 0:
            here = self.items().get(pos)
            pile = p["gold"] + (here["amount"] if here is not None and here["kind"] == "gold" else 0)
            # Any other item there is destroyed to make room for the gold (7.2, ruling 20).
            self.set_item(pos, {"pos": [pos[0], pos[1]], "kind": "gold", "amount": pile})
            self.event("gold_changed", [seat], delta=-p["gold"], gold=0)
        p.update(status="dead", cause=cause, pos=None, gold=0, kit=[], ap=None)
        self.event("died", None, seat=seat, cause=cause)
        turn = self.state["turn"]
        if turn is not None and turn["seat"] == seat:
            self.pass_turn()
        elif not self.alive():
            self.game_over([], "no_one_left")

    def check_win(self, seat: str) -> bool:
        """7.1: right after the actor's own successful move or pickup."""
        p = cast("dict[str, Any]", self.player(seat))  # the actor
        r, c = p["pos"]
        if self.terrain[r][c] == "E" and p["gold"] >= self.state["map"]["target"]:
            self.game_over([seat], "escaped")
            return True
        return False

    def game_over(self, winners: list[str], reason: str) -> None:
        for p in self.players:
            if p["ap"] is not None:
                self.edit(p["seat"])["ap"] = None
        self.state["turn"] = None
        self.state["result"] = {
            "winners": list(winners),
            "scores": {p["seat"]: p["gold"] for p in self.players},
            "reason": reason,
        }
        if winners:
            self.event("won", None, seat=winners[0])
        self.event("game_over", None, winners=list(winners), reason=reason)

    def after_own_action(self, seat: str) -> None:
        """4.3: an action that leaves 0 AP ends the turn at once."""
        if self.state["result"] is None and cast("dict[str, Any]", self.player(seat))["ap"] == 0:  # the actor
            self.pass_turn()

    # -- closing -------------------------------------------------------------------------------

    def finish(self) -> dict[str, Any]:
        s = self.state
        if self._items_dirty:
            s["map"] = dict(s["map"])
            items = cast("dict[tuple[int, int], dict[str, Any]]", self._items)  # set_item read them
            s["map"]["items"] = [items[pos] for pos in sorted(items)]
        self._remember()
        if self.events:
            s["events"] = _still_showable(self.old["events"] + self.events)
        return s

    def _remember(self) -> None:
        """10.5: each living player's visible cells (without players) go into their memory."""
        if not self.moved and not self.changed:
            return
        for p in self.alive():
            lantern = _lantern(p)
            if p["seat"] in self.moved:
                cells = vision.field_cells(_pos(p), lantern=lantern, height=self.height, width=self.width)
            else:
                cells = [cell for cell in self.changed if _sees(p, cell)]
                if not cells:
                    continue
            memory = _memorise(p["memory"], cells, self.terrain, self.items())
            if memory is not p["memory"]:
                self.edit(p["seat"])["memory"] = memory


def _code(tile: str, item: dict[str, Any] | None) -> str:
    if item is None:
        return tile
    char = ITEM_CHARS[item["kind"]]
    return char if tile != "E" else char.lower()


def _memorise(
    memory: dict[str, Any],
    cells: list[tuple[int, int]],
    terrain: list[str],
    items: dict[tuple[int, int], dict[str, Any]],
) -> dict[str, Any]:
    """``memory`` with ``cells`` written as they are now; the same object if nothing changed."""
    rows, gold = memory["rows"], memory["gold"]
    by_row: dict[int, list[tuple[int, str]]] = {}
    new_gold = None
    for r, c in cells:
        item = items.get((r, c))
        code = _code(terrain[r][c], item)
        before = rows[r][c]
        if before != code:
            by_row.setdefault(r, []).append((c, code))
        if before in "Gg" or (item is not None and item["kind"] == "gold"):
            key = f"{r},{c}"
            amount = item["amount"] if item is not None and item["kind"] == "gold" else None
            if gold.get(key) != amount:
                if new_gold is None:
                    new_gold = dict(gold)
                if amount is None:
                    del new_gold[key]
                else:
                    new_gold[key] = amount
    if not by_row and new_gold is None:
        return memory
    if by_row:
        rows = list(rows)
        for r, changes in by_row.items():
            chars = list(rows[r])
            for c, code in changes:
                chars[c] = code
            rows[r] = "".join(chars)
    return {"rows": rows, "gold": gold if new_gold is None else new_gold}
