"""Shuffle and Doom! as a puzzle (``rules_engine.solving``): can the hero survive a deal (leave
or clear it: the game's win, ``PUZZLE``), can every room be cleared (``CLEAR_PUZZLE``), and the
best score within a budget (``best_score``).

The search sees the whole deal, so it plans with closed forms where the rules leave nothing to
chance. Under the standard consumables and retreats:

- **Walking is free.** Only the walkable region the hero stands in matters (empty cells and
  emptied rooms joined edge to edge): a move is "walk to a room next to it and step in", or
  "walk to (N,N) and leave". An emptied room joins the region it was entered from, so which cell
  a room was entered by never matters, and neither does where a retreat leads.
- **The hand is used at once.** Potions and books are permanent; used now or later (or by an
  exhaustion, which pools used cards and hand cards alike) they give the same, so every move
  starts by using the hand, and a state is keyed as if it had.
- **A room is resolved in one move.** Attack is fixed for the game, so the least damage a fight
  can cost is known: every blow that does not kill first, then the killing blows, the biggest
  first (each blow then leaves the least strength standing). Deactivating an affordable trap
  never hurts; with traps left over the choice is between taking one item (every trap fires)
  and retreating. The trap opener, with each item, is the other way through a room. Of these
  outcomes only those best in health (and in gold, when the score counts) are tried.

A move the search makes of several engine actions is ``{"type": "steps", "actions": [...]}``;
``engine_actions`` spells a line out for ``rules.apply``. ``step`` takes engine actions too.

Under ``temporary_consumables`` and the retreat options the search steps the engine's own
actions (walking stays a macro move); a room may be suspended at most once per room in a line
there (retreating again and again would make it endless), so "no win" means none within that.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from ...cards import rank_value
from ...grid import DIRECTIONS
from ...solving import Puzzle
from ...undo import game_part
from .data import CANONICAL
from .play import ACTIONS, _after_action, _thaw, legal_actions
from .play import apply as apply_checked
from .rooms import _opener_allowed, _retreat_targets
from .views import view

State = dict[str, Any]
Action = dict[str, Any]

SOLVE_NODES = 10_000
"""A solve's budget: every benchmarked deal up to 10×10 needs under 2,000 nodes; at 0.2 ms a node
(more on a busy machine) the budget keeps a solve near 2 s (benchmarks/solver_shuffle_and_doom.py)."""
SAMPLE_NODES = 2_000
"""The budget of each sampled deal's solve in ``odds`` and ``hint``: hints in well under 1 s at p95."""
HINT_SAMPLES = 10
ODDS_SAMPLES = 20
SCORE_NODES = 5_000
"""``best_score``'s budget: about 1–2 s; the best found when it runs out."""

MACRO = "steps"
_WALKABLE = ("emptied",)
_ENTERABLE = ("unvisited", "suspended")
_RETREAT_OPTIONS = ("retreat_from_combat", "retreat_keeps_traps")
_SUSPENDED_LINE = "is suspended as it stands."


def engine_actions(line: list[Action]) -> list[Action]:
    """A solver's line as the engine's actions, one by one, for ``rules.apply``."""
    return [action for move in line for action in (move["actions"] if move.get("type") == MACRO else [move])]


# --------------------------------------------------------------------------------------------
# The walkable region


Cell = tuple[int, int]
Region = tuple[list[Cell], dict[Cell, Any], dict[int, tuple[Cell, str]]]


def _region(s: State) -> Region:
    """From the hero's cell: the walkable cells in breadth-first order, how each was reached
    (``(previous cell, direction)``), and for each enterable room next to them the walkable
    cell (the first in that order) and the direction it is stepped into from."""
    n = s["size"]
    grid = s["map"]
    status = s["room_status"]
    start = (s["position"][0], s["position"][1])
    came: dict[Cell, Any] = {start: None}
    order = [start]
    doors: dict[int, tuple[Cell, str]] = {}
    for cell in order:
        r, c = cell
        for direction, (dr, dc) in DIRECTIONS.items():
            nr, nc = r + dr, c + dc
            if not (0 < nr <= n and 0 < nc <= n) or (nr, nc) in came:
                continue
            rid = grid[nr - 1][nc - 1]
            if rid is None or status[rid - 1] in _WALKABLE:
                came[(nr, nc)] = (cell, direction)
                order.append((nr, nc))
            elif rid not in doors and status[rid - 1] in _ENTERABLE:
                doors[rid] = (cell, direction)
    return order, came, doors


# The last region worked out, with its state: ``key`` and ``moves`` ask for the same state in
# turn. One tuple, swapped whole, so that two searches in two threads never mix their halves.
_last_region: list[tuple[State | None, Region | None]] = [(None, None)]


def _region_of(s: State) -> Region:
    cached_state, cached = _last_region[0]
    if cached_state is s and cached is not None:
        return cached
    region = _region(s)
    _last_region[0] = (s, region)
    return region


def _path(came: dict[Cell, Any], cell: Cell) -> list[Action]:
    steps: list[Action] = []
    while came[cell] is not None:
        cell, direction = came[cell]
        steps.append({"type": "move", "dir": direction})
    steps.reverse()
    return steps


# --------------------------------------------------------------------------------------------
# Consumables


def _eager(s: State) -> bool:
    return not s["options"]["temporary_consumables"]


def _planned(s: State) -> bool:
    options = s["options"]
    return not (options["temporary_consumables"] or any(options[name] for name in _RETREAT_OPTIONS))


def _gain(s: State, value: int) -> int:
    return 3 if s["options"]["flat_consumables"] else value


def _use_hand(s: State) -> list[Action]:
    return [{"type": "drink" if card["kind"] == "potion" else "read", "card": card["code"]} for card in s["hand"]]


def _effective(s: State) -> tuple[int, int]:
    """Health and intelligence once the hand is used (as every eager move starts by doing)."""
    health, wits = s["stats"]["health"], s["stats"]["intelligence"]
    for card in s["hand"]:
        if card["kind"] == "potion":
            health += _gain(s, card["value"])
        else:
            wits += _gain(s, card["value"])
    return health, wits


# --------------------------------------------------------------------------------------------
# Resolving a room in one move


def _fight(enemies: list[tuple[str, int]], attack: int, stunned: bool) -> tuple[list[str], int]:
    """The blows that cost the least damage, and that damage: each enemy's blows that leave it
    standing first, then the killing blows, the one that takes most strength off first (every
    counterattack then meets the least strength left)."""
    wounding: list[str] = []
    killing: list[tuple[int, str]] = []
    for code, strength in enemies:
        blows = -(-strength // attack)
        wounding += [code] * (blows - 1)
        killing.append((strength - (blows - 1) * attack, code))
    killing.sort(key=lambda kill: -kill[0])
    standing = sum(strength for _, strength in enemies)
    damage = 0
    free = stunned
    for taken in [attack] * len(wounding) + [left for left, _ in killing]:
        standing -= taken
        if standing:
            if free:
                free = False
            else:
                damage += standing
    return wounding + [code for _, code in killing], damage


def _outcomes(s: State, with_gold: bool) -> list[tuple[int, int, list[Action]]]:
    """Each best way through the encounter (standard rules, hand used): (health, gold, actions)
    with no outcome worse in health (and gold, when it counts) than another; none that dies."""
    enc = s["encounter"]
    health, wits = _effective(s)
    attack = s["stats"]["attack"]
    prefix = _use_hand(s)
    cards = enc["cards"]
    enemies = [(card["code"], card["strength"]) for card in cards if card["role"] == "enemy"]
    traps = [(card["code"], card["value"]) for card in cards if card["role"] == "trap"]
    items = [card for card in cards if card["role"] in ("potion", "gold")]
    found: list[tuple[int, int, list[Action]]] = []

    def worth(card: dict[str, Any]) -> tuple[int, int]:
        return (_gain(s, card["value"]), 0) if card["role"] == "potion" else (0, card["value"])

    def after_combat(left: int, actions: list[Action]) -> None:
        if not traps:
            potions = sum(worth(card)[0] for card in items)
            found.append((left + potions, sum(worth(card)[1] for card in items), actions))
            return
        disarm = [{"type": "deactivate", "card": code} for code, value in traps if value <= wits]
        armed = sum(value for _, value in traps if value > wits)
        if not armed:
            found.append(
                (left + sum(worth(card)[0] for card in items), sum(worth(card)[1] for card in items), actions + disarm)
            )
            return
        if left >= armed:
            for card in items:
                potion, gold = worth(card)
                found.append((left - armed + potion, gold, actions + disarm + [{"type": "take", "card": card["code"]}]))
        targets = _retreat_targets(s)
        if targets:
            found.append((left, 0, actions + disarm + [{"type": "retreat", "to": list(targets[0])}]))

    if s["phase"] == "traps":
        after_combat(health, prefix)
    else:
        order, damage = _fight(enemies, attack, enc["stunned"])
        if health >= damage:
            after_combat(health - damage, prefix + [{"type": "attack", "card": code} for code in order])
        if _opener_allowed(s):
            fired = sum(value for _, value in traps)
            if health >= fired:
                survivors = [(code, strength - fired) for code, strength in enemies if strength > fired]
                for card in items:
                    potion, gold = worth(card)
                    opener: list[Action] = prefix + [{"type": "use_trap_opener", "card": card["code"]}]
                    left = health - fired + potion
                    if survivors:
                        if card["role"] == "potion":
                            opener.append({"type": "drink", "card": card["code"]})
                        order, damage = _fight(survivors, attack, True)
                        if left < damage:
                            continue
                        left -= damage
                        opener += [{"type": "attack", "card": code} for code in order]
                    found.append((left, gold, opener))

    def measure(outcome: tuple[int, int, list[Action]]) -> tuple[int, int]:
        return outcome[0], outcome[1] if with_gold else 0

    best: dict[tuple[int, int], tuple[int, int, list[Action]]] = {}
    for outcome in found:
        health, gold = measure(outcome)
        beaten = any(
            other_health >= health and other_gold >= gold and (other_health, other_gold) != (health, gold)
            for other_health, other_gold in map(measure, found)
        )
        if not beaten:
            best.setdefault((health, gold), outcome)
    return [best[measure] for measure in sorted(best, reverse=True)]


# --------------------------------------------------------------------------------------------
# The puzzle's parts


def _room_outlook(s: State, rid: int) -> int:
    """A cheap guess at what a room not yet drawn is worth (hearts minus spades among the cards
    it would draw now): rooms that look kind are tried first."""
    size = s["rooms"][rid - 1]["size"]
    guess = 0
    for code in s["draw"][:size]:
        suit = code[-1]
        if suit == "H":
            guess += rank_value(code)
        elif suit == "S":
            guess -= 2 * rank_value(code)
    return guess


def _moves(s: State, *, leave: bool, with_gold: bool) -> list[Action]:
    phase = s["phase"]
    if phase == "over":
        return []
    if phase == "assign_diamonds":  # the bonuses add up whatever their order: the first one's choices
        code = s["diamonds"][0]
        return [
            {"type": "assign_diamond_bonus", "card": code, "stat": stat}
            for stat in ("attack", "health", "intelligence")
        ]
    if phase in ("swap", "choose_set"):
        return legal_actions(s, s["seat"])
    eager = _eager(s)
    if phase == "explore":
        prefix = _use_hand(s) if eager else []
        order, came, doors = _region_of(s)
        n = s["size"]
        moves: list[Action] = []
        if leave and (n, n) in came:
            moves.append({"type": MACRO, "actions": prefix + _path(came, (n, n)) + [{"type": "exit"}]})
        rooms = sorted(doors, key=lambda rid: (s["room_status"][rid - 1] != "suspended", -_room_outlook(s, rid)))
        for rid in rooms:
            cell, direction = doors[rid]
            moves.append({"type": MACRO, "actions": prefix + _path(came, cell) + [{"type": "move", "dir": direction}]})
        return moves
    if _planned(s):
        return [{"type": MACRO, "actions": actions} for _, _, actions in _outcomes(s, with_gold)]
    if eager and s["hand"]:
        return [{"type": MACRO, "actions": _use_hand(s)}]
    legal = legal_actions(s, s["seat"])
    suspensions = sum(line.endswith(_SUSPENDED_LINE) for line in s["log"])
    if suspensions >= len(s["rooms"]):
        legal = [
            action for action in legal if action["type"] != "retreat" or (phase == "traps" and not action.get("keep"))
        ]
    return legal


def _step(state: State, move: Action) -> State:
    """The state after one of ``moves``' moves or any legal engine action (checked by the
    engine). A move of several actions runs the engine's handlers on one working copy: the same
    states as ``apply`` one action at a time, without copying the game for each."""
    state = game_part(state)
    if move.get("type") != MACRO:
        return apply_checked(state, state["seat"], move)
    s = _thaw(state)
    seat = s["seat"]
    for action in move["actions"]:
        ACTIONS[action["type"]].handle(s, seat, action)
        _after_action(s, action)
        if s["phase"] == "over":
            break
    return s


def _key(s: State, with_gold: bool) -> Hashable:
    phase = s["phase"]
    stats = s["stats"]
    if s["position"] is None:
        return (
            phase,
            tuple(s["top"]),
            tuple(s["side"]),
            tuple(s["swap_checks"]),
            tuple(s["diamonds"]),
            tuple(stats.values()),
            tuple(s["draw"]),
        )
    if _eager(s):
        health, wits = _effective(s)
        hand: tuple[Any, ...] = ()
    else:
        health, wits = stats["health"], stats["intelligence"]
        hand = tuple(sorted((card["code"], card["value"]) for card in s["hand"])) + (
            stats["ward"],
            stats["temp_intelligence"],
        )
    enc = s["encounter"]
    encounter = None
    if enc is not None:
        cards = tuple((card["code"], card["role"], card["value"], card["strength"]) for card in enc["cards"])
        encounter = (enc["room"], cards, enc["stunned"], enc["attacked_yet"])
    where = min(_region_of(s)[0]) if phase == "explore" else None
    suspended: tuple[Any, ...] = ()
    if s["suspended"]:
        suspended = tuple(
            (sus["room"], tuple((card["code"], card["strength"]) for card in sus["cards"]), sus["attacked_yet"])
            for sus in s["suspended"]
        ) + (sum(line.endswith(_SUSPENDED_LINE) for line in s["log"]),)
    return (
        phase,
        where,
        tuple(s["room_status"]),
        health,
        wits,
        stats["attack"],
        stats["gold"] if with_gold else 0,
        hand,
        encounter,
        suspended,
        tuple(s["draw"]),
        s["exhaustions"],
        s["multiplier"],
    )


def _survived(s: State) -> bool:
    return bool(s["phase"] == "over" and s["result"]["reason"] != "died")


def _cleared(s: State) -> bool:
    return bool(s["phase"] == "over" and s["result"]["reason"] == "cleared")


def _over(s: State) -> bool:
    return bool(s["phase"] == "over")


def determinize(state: State, seat: str, rng: random.Random) -> State:
    """A game ``seat`` cannot tell from ``state`` (the same view): the draw pile's unseen cards
    (all but the header cards the view lists at its bottom) in a new order drawn from ``rng``,
    and a new seed for the reshuffles to come. It reads the true order of nothing: the unseen
    cards are shuffled from their canonical order."""
    game = game_part(state)
    shown = len(view(game, seat)["bottom_headers"])
    pile = game["draw"]
    # From the canonical order, so that the sample depends on what the seat sees and rng alone.
    unseen = sorted(pile[: len(pile) - shown], key=CANONICAL.__getitem__)
    rng.shuffle(unseen)
    return {**game, "draw": unseen + pile[len(pile) - shown :], "seed": rng.randrange(2**31)}


PUZZLE = Puzzle(
    key=lambda s: _key(s, False),
    moves=lambda s: _moves(s, leave=True, with_gold=False),
    step=_step,
    won=_survived,
    over=_over,
    determinize=determinize,
)
"""Can the hero survive (leave by the exit or clear every room): the game's win."""

CLEAR_PUZZLE = Puzzle(
    key=lambda s: _key(s, False),
    moves=lambda s: _moves(s, leave=False, with_gold=False),
    step=_step,
    won=_cleared,
    over=_over,
    determinize=determinize,
)
"""Can every room be cleared (the stronger goal: it doubles the gold)."""


# --------------------------------------------------------------------------------------------
# Best score


def _score(s: State) -> int:
    return int(s["result"]["score"]) if s["phase"] == "over" else 0


def _ceiling(s: State) -> int:
    """No line from ``s`` scores more: twice the gold banked, in the room and yet to come. While
    the deck cannot run out, the cards still to come are exactly the top of the draw pile (one
    for each cell of the rooms not yet drawn for); else every diamond not banked may come again,
    at the largest multiplier the cards still to draw could reach."""
    if s["phase"] == "over":
        return _score(s)
    to_draw = sum(room["size"] for room, status in zip(s["rooms"], s["room_status"]) if status == "unvisited")
    in_play = sum(card["value"] for card in (s["encounter"] or {"cards": []})["cards"] if card["role"] == "gold")
    waiting = sum(card["value"] for sus in s["suspended"] for card in sus["cards"] if card["role"] == "gold")
    if to_draw <= len(s["draw"]):
        coming = s["multiplier"] * sum(rank_value(code) for code in s["draw"][:to_draw] if code.endswith("D"))
    else:
        unbanked = s["draw"] + s["returned"] + [gold["code"] for gold in s["gold_pile"]]
        most = s["multiplier"] * 2**to_draw  # each exhaustion gives at least one of the cards to draw
        coming = most * sum(rank_value(code) for code in unbanked if code.endswith("D"))
    ceiling: int = 2 * (s["stats"]["gold"] + in_play + waiting + coming)
    return ceiling


def best_score(state: State, max_nodes: int = SCORE_NODES) -> tuple[int, list[Action], bool]:
    """The best score found from ``state`` within ``max_nodes`` states, a line reaching it, and
    whether it is proved best (the whole tree searched, less the branches a bound ruled out)."""
    state = game_part(state)
    best_line: list[Action] = []
    best = _score(state) if state["phase"] == "over" else 0
    seen: set[Hashable] = set()
    nodes = 0
    line: list[Action] = []

    def search(current: State) -> None:
        nonlocal nodes, best, best_line
        if current["phase"] == "over":
            if _score(current) > best or not best_line:
                best, best_line = _score(current), list(line)
            return
        if _ceiling(current) <= best and best_line:
            return
        key = _key(current, True)
        if key in seen:
            return
        seen.add(key)
        for move in _moves(current, leave=True, with_gold=True):
            nodes += 1
            if nodes > max_nodes:
                raise _OutOfNodes
            line.append(move)
            search(_step(current, move))
            line.pop()

    try:
        search(state)
    except _OutOfNodes:
        return best, best_line, False
    return best, best_line, True


class _OutOfNodes(Exception):
    pass
