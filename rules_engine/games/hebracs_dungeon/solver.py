"""Hebrac's Dungeon as a puzzle (``rules_engine.solving``): the whole deal known, can the four
aces be gathered, and how well?

The game can almost always be won with the whole deal in view (issue 27): the deck is never
shuffled again, every card comes back, and a player who knows the Hand Deck knows every attack
card before drawing it. So the useful questions are *how quickly* (``PUZZLE`` with ``solve``)
and *how well* (``best_score``). The search looks at the moves that matter, best first:

- exploring: only chambers that still hold a card (walking through cleared ones changes
  nothing the rules score or test, 4.2), a chamber guarding a needed ace first, then by the
  life the known attack cards would cost; going down at once when no needed ace is left;
- a battle: the attack when it does not kill, then the strength potions, prisoners, life
  potions and the spells that get a needed ace or get out (Escape, Stealing Spirit,
  Hell Bomb, Super Strength, Paralysis);
- Hebrac's games: played when the test card (known) is red, else declined;
- the rest (trades, merchants, priestesses, the Genie of Death) in a sensible order.

"no win" therefore means no win among the moves tried, except where ``hopeless`` proves it: a
needed ace that is nowhere in the game (a stacked deck without it).

``best_score`` is a branch and bound over the same moves with the game's own score (13.7):
each level reached and chamber cleared adds points and cards never leave the game, so while a
further level can still be dealt no bound is finite and the best is only "best found"; the
answer says whether the whole tree was searched (``exhausted``).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from rules_engine.errors import IllegalAction
from rules_engine.solving import Action, Puzzle
from rules_engine.undo import game_part

from . import actions, battle, data, flow, scoring, spells, trade
from .state import cell_at, chamber_count, clone, is_cleared

SOLVE_NODES = 20_000
"""A solve's budget of states: wins come well inside it on standard deals."""
SAMPLE_NODES = 4_000
"""Each sampled deal's budget in ``odds`` and ``hint``."""
HINT_SAMPLES = 4
"""Sampled deals per hint (each solved after each legal move: about 1 s at p95)."""
SCORE_NODES = 8_000
"""``best_score``'s default budget (about 2 s on a standard deal)."""

_ESCAPES = ("escape", "stealing_spirit", "hell_bomb", "super_strength", "paralysis", "double_attack", "curse")
"""The battle spells worth trying, in order; the others never decide a battle."""
_FREE_TIME_SPELLS = ("healing", "teleport")
"""Spells worth trying between encounters: life back, and a level with no ace skipped."""


# --- reading the state ----------------------------------------------------------------------------


def _needed(state: dict[str, Any]) -> set[str]:
    """The legendary aces still missing from the inventory."""
    return {ace for ace in data.LEGENDARY if ace not in state["inventory"]}


def _wanted(state: dict[str, Any], card: str | None) -> bool:
    return card is not None and card in _needed(state)


def _attack_outcome(state: dict[str, Any], enemy: str, strength: int = 0) -> int:
    """The life a plain fight against ``enemy`` costs with the known Hand Deck (no spells), or a
    big number when the deck runs out first."""
    life = battle.enemy_life(state, enemy)
    fight = state["battle"]
    prisoners = len(fight["prisoners"]) if fight else 0
    factor = 2 if fight and fight["super_strength"] else 1
    added = (3 if "AS" in state["inventory"] else 0) + 3 * prisoners + strength
    shielded = state["level_effects"]["anti_magic"] and data.is_magician(enemy)
    cost = 0
    for card in state["hand_deck"]:
        total = factor * data.attack_value(card) + added
        if total >= life:
            return cost
        cost += 0 if shielded else life - total
        added -= strength
        strength = 0
    return 10_000


def _entry_cost(state: dict[str, Any], pos: list[int]) -> int:
    """Roughly what entering a chamber costs in life (its treasure aside)."""
    cell = cell_at(state, pos)
    enemy = cell["enemy"]
    if enemy is None:
        return 0
    rank = data.rank(enemy)
    if rank in ("A", "K") or data.is_red_queen(enemy):
        return 0
    if enemy == "JK":
        return 0  # declined when the test card is black
    if data.is_black_queen(enemy):
        held = [c for c in state["inventory"] if c in data.STEAL_RANK]
        if state["level_effects"]["anti_magic"] or not held:
            return 0
        victim = min(held, key=data.STEAL_RANK.__getitem__)
        return 100 if data.rank(victim) == "A" else 2
    if rank == "J" and not cell["robbed"] and cell["treasure"] is not None and data.trade_value(cell["treasure"]):
        return 1  # a trade, when it can be paid
    return _attack_outcome(state, enemy)


# --- moves --------------------------------------------------------------------------------------


def _spell_casts(state: dict[str, Any], wanted: tuple[str, ...]) -> list[Action]:
    """The canonical casts (13.5) of the ``wanted`` spells allowed now, in that order."""
    if not spells.potion_items(state):
        return []
    standing = spells.availability(state)
    return [cast for spell in wanted for cast in standing[spell]["casts"]]


def _life_potions(state: dict[str, Any]) -> list[Action]:
    """Life potions worth drinking now, the one that loses least first."""
    room = state["max_life"] - state["life"]
    if room <= 0:
        return []
    hearts = sorted(
        {c for c in state["inventory"] if data.is_life_potion(c)},
        key=lambda c: (data.number(c) > room, -data.number(c)),
    )
    return [{"type": "drink", "card": c} for c in hearts]


def _explore_moves(state: dict[str, Any]) -> list[Action]:
    needed = _needed(state)
    grid = state["grid"]
    targets = [p for p in flow.move_targets(state) if not is_cleared(grid[p[0] - 1][p[1] - 1])]
    aces_here = any(cell["treasure"] in needed for row in grid for cell in row)
    costs = {tuple(p): _entry_cost(state, p) for p in targets}
    life = state["life"]

    def order(p: list[int]) -> tuple[int, int]:
        cell = cell_at(state, p)
        cost = costs[tuple(p)]
        ace = cell["treasure"] in needed and cost < life
        return (0 if ace else 1 if cost < life else 2, cost)

    moves: list[Action] = [{"type": "move", "row": r, "col": c} for r, c in sorted(targets, key=order)]
    healing = _life_potions(state) if life * 2 <= state["max_life"] else []
    descend = [{"type": "descend"}] if state["phase"] == "explore" and flow.can_descend(state) else []
    teleport = [
        a for a in _spell_casts(state, _FREE_TIME_SPELLS) if a.get("target") == "next_level" or a["spell"] == "healing"
    ]
    if not aces_here:
        return (
            healing
            + descend
            + [a for a in teleport if a["spell"] == "teleport"]
            + moves
            + [a for a in teleport if a["spell"] == "healing"]
        )
    return healing + moves + descend + teleport


def _battle_moves(state: dict[str, Any]) -> list[Action]:
    fight = state["battle"]
    enemy = fight["enemy"]
    cost = _attack_outcome(state, enemy, fight["strength"])
    top = state["hand_deck"][: 2 if fight["double_attack"] else 1]
    first_hit = battle.score(state, top) if top else 0
    lethal_now = not battle.shielded(state) and fight["enemy_life"] - first_hit >= state["life"]
    attack: list[Action] = [] if lethal_now else [{"type": "attack"}]
    strength = [
        {"type": "drink", "card": c}
        for c in sorted({c for c in state["inventory"] if data.is_strength_potion(c)}, key=data.number)
        if first_hit < fight["enemy_life"]
    ]
    prisoners = [
        {"type": "call_prisoner", "card": c}
        for c in dict.fromkeys(state["inventory"])
        if data.is_prisoner(c) and first_hit < fight["enemy_life"]
    ]
    casts = _spell_casts(state, _ESCAPES) if fight["spell"] is None else []
    treasure = cell_at(state, fight["pos"])["treasure"]
    steal = [a for a in casts if a["spell"] == "stealing_spirit" and _wanted(state, treasure)]
    others = [a for a in casts if a not in steal]
    hearts = _life_potions(state)
    if cost < state["life"] and not lethal_now:
        return steal + attack + strength + prisoners + hearts + others
    return steal + strength + prisoners + hearts + others + attack


def _hebrac_moves(state: dict[str, Any]) -> list[Action]:
    deck = state["hand_deck"]
    if deck and data.is_red(deck[0]) and deck[0] != "JK":
        return [{"type": "play"}, {"type": "decline"}]
    return [{"type": "decline"}]


def _moves(state: dict[str, Any]) -> list[Action]:
    state = game_part(state)
    phase = state["phase"]
    if phase == "over":
        return []
    encounter = state["encounter"]
    if phase in ("start_level", "explore"):
        return _explore_moves(state)
    if phase == "battle":
        return _battle_moves(state)
    if phase in ("hebrac", "hebrac_reward"):
        return _hebrac_moves(state)
    treasure = cell_at(state, encounter["pos"])["treasure"] if encounter else None
    if phase == "adventurer":
        value = data.trade_value(treasure) if treasure else None
        steal = _spell_casts(state, ("stealing_spirit",)) if _wanted(state, treasure) else []
        trade_first = value is not None and trade.canonical(trade.offer_items(state["inventory"]), value) is not None
        talk: list[Action] = [{"type": "propose_trade"}]
        fight: list[Action] = [{"type": "fight"}]
        return steal + (talk + fight if trade_first or trade.has_bag(state) else fight + talk)
    if phase == "trade":
        out: list[Action] = []
        offer = trade.canonical_offer(state)
        if offer is not None:
            out.append({"type": "offer", "cards": offer})
        out += _spell_casts(state, ("illusion",))
        return out + [{"type": "decline"}]
    if phase == "merchant":
        out = []
        payment = trade.canonical_purchase(state)
        if payment is not None and not encounter.get("fake_ace"):
            out.append({"type": "buy", "gems": payment})
        steal = _spell_casts(state, ("stealing_spirit",))
        out += steal if _wanted(state, treasure) else []
        out.append({"type": "decline"})
        return out + ([] if _wanted(state, treasure) else steal)
    if phase == "priestess":
        heal: list[Action] = [] if state["level_effects"]["anti_magic"] else [{"type": "priestess", "choice": "heal"}]
        take: list[Action] = [{"type": "priestess", "choice": "treasure"}]
        low = state["life"] * 2 <= state["max_life"] and not _wanted(state, treasure)
        return heal + take if low else take + heal
    if phase == "remote_vision":
        return [{"type": "stop_peeking"}]
    return [a for a in actions.legal(state) if a["type"] != "resign"]


# --- stepping -------------------------------------------------------------------------------------


def _step(state: dict[str, Any], action: Action) -> dict[str, Any]:
    """The state after ``action``: what ``rules.apply`` gives (its checks aside, for the moves the
    solver makes itself; a cast and any other action go through the engine's checks)."""
    state = game_part(state)
    if action["type"] in ("cast", "offer", "buy", "destroy"):
        return actions.ENGINE.apply(state, state["seat"], action)
    working = clone(state)
    actions.ACTIONS[action["type"]].handle(working, state["seat"], action)
    flow.settle(working)
    return working


# --- the puzzle -----------------------------------------------------------------------------------


def _cells(state: dict[str, Any]) -> tuple[Hashable, ...]:
    return tuple(
        (c["enemy"], c["enemy_up"], c["enemy_seen"], c["treasure"], c["treasure_up"], c["visited"], c["robbed"])
        for row in state["grid"]
        for c in row
    )


def _key(state: dict[str, Any]) -> Hashable:
    """Everything that decides the rest of the game (the log and the score's counters aside)."""
    state = game_part(state)
    return (
        state["status"],
        state["phase"],
        state["level"],
        state["life"],
        state["max_life"],
        state["genie_life_bonus"],
        tuple(state["hand_deck"]),
        state["known_top"],
        _cells(state),
        tuple(state["level_effects"].values()),
        tuple(state["position"] or ()),
        tuple(sorted(state["inventory"])),
        repr(state["encounter"]),
        repr(state["battle"]),
        repr(state["pending"]),
        repr(state["decision"]),
    )


def _won(state: dict[str, Any]) -> bool:
    return bool(state["status"] == "won")


def _over(state: dict[str, Any]) -> bool:
    return bool(state["status"] != "playing")


def _hopeless(state: dict[str, Any]) -> bool:
    """A needed ace that no zone of the game holds: it can never be acquired."""
    state = game_part(state)
    present = set(state["hand_deck"])
    for row in state["grid"]:
        for cell in row:
            present.update((cell["enemy"], cell["treasure"]))
    for step in state["pending"]:
        present.add(step.get("card"))
    return not _needed(state) <= present


def determinize(state: dict[str, Any], seat: str, rng: random.Random) -> dict[str, Any]:
    """The same game as ``seat`` sees it, its hidden cards dealt anew among their hiding places:
    the Hand Deck below the cards Future Perception showed, every face-down card of the level
    the player has not seen; the shuffle's seed drawn anew too (it is never shown)."""
    game = clone(game_part(state))
    deck = game["hand_deck"]
    slots: list[tuple[Any, Any]] = [(deck, i) for i in range(game["known_top"], len(deck))]
    for row in game["grid"]:
        for cell in row:
            if cell["enemy"] is not None and not (cell["enemy_up"] or cell["enemy_seen"]):
                slots.append((cell, "enemy"))
            if cell["treasure"] is not None and not cell["treasure_up"]:
                slots.append((cell, "treasure"))
    # Shuffled from a sorted order: a shuffle of the cards in their true order would carry it.
    codes = sorted(place[key] for place, key in slots)
    rng.shuffle(codes)
    for (place, key), code in zip(slots, codes, strict=True):
        place[key] = code
    game["seed"] = rng.randrange(2**31)
    return game


PUZZLE = Puzzle(
    key=_key,
    moves=_moves,
    step=_step,
    won=_won,
    over=_over,
    hopeless=_hopeless,
    determinize=determinize,
)


# --- the best score -----------------------------------------------------------------------------


def _more_levels(state: dict[str, Any]) -> bool:
    """Whether a further level could still be dealt: a descent sweeps the level's cards under the
    Hand Deck and every card held may be spent or stolen, so any card may be dealt again (4.4)."""
    on_level = sum(
        (cell["enemy"] is not None) + (cell["treasure"] is not None) for row in state["grid"] for cell in row
    )
    held = (
        len(state["inventory"]) + len(state["pending"]) + (len(state["battle"]["prisoners"]) if state["battle"] else 0)
    )
    return len(state["hand_deck"]) + on_level + held >= 2 * chamber_count(state)


def _bound(state: dict[str, Any]) -> float:
    """No line from ``state`` scores more (13.7); infinite while another level may come."""
    if state["status"] != "playing":
        return scoring.score(state)
    if _more_levels(state):
        return float("inf")
    counters = state["counters"]
    left = sum(not is_cleared(cell) for row in state["grid"] for cell in row)
    return (
        float("inf")
        if left
        else scoring.points(
            aces=4,
            level=state["level"],
            cleared=counters["chambers_cleared"],
            turns=counters["turns"],
            life=state["max_life"],
            victory=True,
        )
    )


def best_score(state: dict[str, Any], max_nodes: int = SCORE_NODES) -> tuple[int | None, list[Action], bool]:
    """The best score of a winning line from ``state`` that a branch and bound over the solver's
    moves finds within ``max_nodes`` states: ``(score, line, exhausted)``; ``score`` None when no
    win was found; ``exhausted`` True when the whole tree was searched (the best is proved).

    Depth first with an explicit stack (a long game runs to many hundreds of moves), the quick
    line first: the first answer is ``solve``'s, later ones only better."""
    best: int | None = None
    best_line: list[Action] = []
    seen: set[Hashable] = set()
    nodes = 0
    line: list[Action] = []
    stack: list[list[Action]] = []

    def worth_searching(current: dict[str, Any]) -> bool:
        nonlocal best, best_line
        if current["status"] == "won":
            points = scoring.score(current)
            if best is None or points > best:
                best, best_line = points, list(line)
            return False
        if current["status"] != "playing" or _hopeless(current):
            return False
        if best is not None and _bound(current) <= best:
            return False
        key = (_key(current), current["counters"]["turns"], current["counters"]["chambers_cleared"])
        if key in seen:
            return False
        seen.add(key)
        return True

    states = [game_part(state)]
    if worth_searching(states[0]):
        stack.append(list(reversed(_moves(states[0]))))
    while stack:
        if not stack[-1]:
            stack.pop()
            states.pop()
            if line:
                line.pop()
            continue
        move = stack[-1].pop()
        nodes += 1
        if nodes > max_nodes:
            return best, best_line, False
        try:
            after = _step(states[-1], move)
        except IllegalAction:
            continue
        line.append(move)
        if worth_searching(after):
            states.append(after)
            stack.append(list(reversed(_moves(after))))
        else:
            line.pop()
    return best, best_line, True
