"""Knowing a Clear the Dungeon deal (``rules_engine.solving``): can every monster still be
defeated, and what could the player know.

A state is the game's own (with or without its undo trail); ``step`` returns plain game states,
the same ones ``apply`` gives. The search leaves out moves that never help:

- a card doubled by the K♠ as it opens an attack (placing it plain and doubling it later, when
  a second card needs it, reaches the same state and keeps the K♠ in hand meanwhile);
- doubling (placing or with the item) unless it is what lets a card in hand complete the power;
- the K♦ peek left at the bottom (it only spends the K♦; moving the card up is the choice);
- ending a turn into the fifth hit.

States that differ only in which cards lie on a monster are one: what matters is how many it
holds and, while it holds one, their value (with two, the power is met and only a finisher
counts).

>>> from .play import new_game
>>> from rules_engine.solving import solve
>>> verdict = solve(PUZZLE, new_game(3, ["p1"]), max_nodes=SOLVE_NODES)
>>> verdict.outcome, len(verdict.line) > 30
('win', True)
"""

from __future__ import annotations

import random
import re
from collections.abc import Hashable
from typing import Any

from ...cards import JOKER, pretty
from ...solving import Puzzle
from ...undo import game_part
from .data import MAX_HITS, POSITIONS, POWER, POWER_DECK, power_value
from .play import _copy, _decide_peek, _end_turn, _next_turn_if_done, _play, _use_item

SOLVE_NODES = 60_000
"""A solve's budget: about 2 s on a busy 2-core machine; 56 of 60 seeded deals are answered
within it (benchmarks/solver_clear_the_dungeon.py)."""
SAMPLE_NODES = 1_000
"""Each sampled deal's budget in ``odds``: 10 samples take under 1.5 s at p95."""
HINT_SAMPLES = 10
"""Deals sampled for a hint."""
HINT_NODES = 100
"""Each sampled deal's budget for each legal move in ``hint`` (a hint solves samples × moves):
enough to find a win along the best-first line, and a hint in about 1 s at p95."""

State = dict[str, Any]
Action = dict[str, Any]

_PEEK_TO_TOP: Action = {"type": "peek_decision", "move_to_top": True}
_PEEK_LEFT: Action = {"type": "peek_decision", "move_to_top": False}
_END_TURN: Action = {"type": "end_turn"}


def _working_copy(state: State, action: Action) -> State:
    """A copy of ``state`` that ``action`` may change without touching ``state``: every list and
    the dungeon copied, but only the places the action can change (its target, and the face-down
    cards a defeat may turn up) copied down to their attack cards; the rest are shared, as the
    engine never changes a state in place."""
    new = dict(state)
    for name in ("power_deck", "hand", "hit_row", "clear_pile", "inventory", "log"):
        new[name] = list(state[name])
    target = action.get("target")
    if target is not None:
        dungeon = dict(state["dungeon"])
        for pos, slot in dungeon.items():
            if slot is not None and (pos == target or not slot["face_up"]):
                dungeon[pos] = {**slot, "attack": [dict(card) for card in slot["attack"]]}
        new["dungeon"] = dungeon
    if state["pending"] is not None:
        new["pending"] = dict(state["pending"])
    return new


def step(state: State, action: Action) -> State:
    """The state after ``action`` (a move of ``moves`` or any legal engine action), as
    ``apply`` gives it, without checking legality again."""
    new = _working_copy(game_part(state), action)
    kind = action["type"]
    if kind == "play":
        _play(new, action["card"], action["target"], action.get("double", False))
    elif kind == "use_item":
        _use_item(new, action)
        new["inventory"].remove(action["item"])
        new["clear_pile"].append(action["item"])
    elif kind == "peek_decision":
        _decide_peek(new, action["move_to_top"])
    elif kind == "end_turn":
        _end_turn(new)
    else:  # resign
        new["pending"] = None
        new["status"] = "resigned"
        new["log"].append("The player resigned.")
    return _next_turn_if_done(new, action)


_VALUE = {card: power_value(card) for card in [*POWER_DECK, JOKER]}
_SUIT = {card: card[-1] for card in POWER_DECK}


def key(state: State) -> Hashable:
    """What decides the rest of the game: each place (None when empty, the value of its one
    attack card, else minus how many it holds), the deck in order, the hand, the hits, the items,
    an open K♦ decision."""
    places: list[int | None] = []
    for slot in state["dungeon"].values():
        if slot is None:
            places.append(None)
            continue
        attack = slot["attack"]
        if len(attack) == 1:
            first = attack[0]
            places.append(_VALUE[first["card"]] * (2 if first["doubled"] else 1))
        else:
            places.append(-len(attack))
    pending = state["pending"]
    return (
        tuple(places),
        tuple(state["power_deck"]),
        tuple(sorted(state["hand"])),
        len(state["hit_row"]),
        tuple(sorted(state["inventory"])),
        None if pending is None else pending["card"],
    )


def won(state: State) -> bool:
    return bool(state["status"] == "won")


def over(state: State) -> bool:
    return bool(state["status"] != "playing")


def _fits(card: str, monster: str) -> bool:
    return card == JOKER or card[-1] == monster[-1]


def moves(state: State) -> list[Action]:
    """The moves worth trying, best first: finishers, second cards (closest to the power first),
    openings (biggest first), then the items, and ending the turn last."""
    deck = state["power_deck"]
    if state["pending"] is not None:
        return [_PEEK_TO_TOP, _PEEK_LEFT] if len(deck) > 1 else [_PEEK_LEFT]
    hand = list(dict.fromkeys(state["hand"]))
    inventory = state["inventory"]
    has_spade = "KS" in inventory
    reach = 20 if has_spade else 10
    ranked: list[tuple[float, Action]] = []
    spade_targets: list[Action] = []
    for pos in POSITIONS:
        slot = state["dungeon"][pos]
        if slot is None or not slot["face_up"]:
            continue
        monster = slot["card"]
        power = POWER[monster[:-1]]
        attack = slot["attack"]
        if len(attack) == 2:
            for card in hand:
                if _fits(card, monster):
                    ranked.append((0.5 if card == JOKER else 0, {"type": "play", "card": card, "target": pos}))
            continue
        if len(attack) == 1:
            first = attack[0]
            placed = _VALUE[first["card"]] * (2 if first["doubled"] else 1)
            spade_needed = False
            for card in hand:
                value = _VALUE[card]
                if placed + value >= power:
                    ranked.append((1 + (placed + value - power) / 100, {"type": "play", "card": card, "target": pos}))
                elif has_spade and placed + 2 * value >= power:
                    ranked.append((1.5, {"type": "play", "card": card, "target": pos, "double": True}))
                elif has_spade and not first["doubled"] and 2 * placed + value >= power:
                    spade_needed = True
            if spade_needed:
                spade_targets.append({"type": "use_item", "item": "KS", "target": pos})
            continue
        for card in hand:
            value = _VALUE[card]
            if value + reach >= power:
                ranked.append((3 - value / 100, {"type": "play", "card": card, "target": pos}))
    ranked.sort(key=lambda pair: pair[0])
    out = [action for _, action in ranked]
    out.extend(spade_targets)
    if deck:
        if "KC" in inventory:
            out.append({"type": "use_item", "item": "KC"})
        if "KD" in inventory and len(deck) > 1:
            out.append({"type": "use_item", "item": "KD"})
    if "KH" in inventory:
        out.extend({"type": "use_item", "item": "KH", "card": card} for card in hand)
    if len(state["hit_row"]) + len(state["hand"]) < MAX_HITS:
        out.append(_END_TURN)
    return out


def hopeless(state: State) -> bool:
    """No win can be left: a monster whose power can no longer be met, or more finishers wanted
    of some suits than their cards left and the jokers can give."""
    has_spade = "KS" in state["inventory"]
    wanted: dict[str, int] = {}
    jokers = 0
    for slot in state["dungeon"].values():
        if slot is None:
            continue
        card = slot["card"]
        if card == JOKER:
            jokers += 1
            continue
        attack = slot["attack"]
        if len(attack) == 1 and not has_spade:
            first = attack[0]
            if _VALUE[first["card"]] * (2 if first["doubled"] else 1) + 10 < POWER[card[:-1]]:
                return True
        wanted[card[-1]] = wanted.get(card[-1], 0) + 1
    left: dict[str, int] = {}
    for card in state["power_deck"] + state["hand"]:
        suit = _SUIT.get(card)
        if suit is None:
            jokers += 1
        else:
            left[suit] = left.get(suit, 0) + 1
    short = sum(max(0, count - left.get(suit, 0)) for suit, count in wanted.items())
    return short > jokers


_NAMES = {pretty(card, joker="the joker"): card for card in [*POWER_DECK, JOKER]}
_MOVED_UP = re.compile(r"K♦: (.+) moved to the top")


def _known_top(state: State) -> str | None:
    """The card the K♦ moved to the top of the power deck while it is still there (the log says
    which; only a draw takes it, and a K♥ that put it back under makes it the known bottom)."""
    for line in reversed(state["log"]):
        text = line if isinstance(line, str) else line["text"]
        found = _MOVED_UP.fullmatch(text)
        if found:
            card = _NAMES[found.group(1)]
            deck = state["power_deck"]
            return card if card in deck and card != state["known_bottom"] else None
    return None


def determinize(state: State, _seat: str, rng: random.Random) -> State:
    """A game the player cannot tell from ``state``: the face-down dungeon cards dealt to those
    places anew and the power deck in a new order (a known top or bottom card kept where the
    player knows it is), under a new seed; without the undo trail (it holds the true cards)."""
    game = game_part(state)
    other = _copy(game)
    hidden = [pos for pos, slot in other["dungeon"].items() if slot is not None and not slot["face_up"]]
    # Shuffled from a sorted order: a shuffle of the true order would carry it into the draw.
    cards = sorted(other["dungeon"][pos]["card"] for pos in hidden)
    rng.shuffle(cards)
    for pos, card in zip(hidden, cards):
        other["dungeon"][pos] = {**other["dungeon"][pos], "card": card}
    unseen = list(other["power_deck"])
    bottom = [unseen.pop()] if unseen and (game["known_bottom"] is not None or game["pending"] is not None) else []
    top = _known_top(game)
    head = [top] if top is not None and top in unseen else []
    unseen = sorted(card for card in unseen if card not in head)
    rng.shuffle(unseen)
    other["power_deck"] = head + unseen + bottom
    other["seed"] = rng.randrange(2**31)
    other["options"] = {name: value for name, value in game["options"].items() if name != "deck"}
    return other


PUZZLE = Puzzle(
    key=key,
    moves=moves,
    step=step,
    won=won,
    over=over,
    hopeless=hopeless,
    determinize=determinize,
)
