"""Clear the Dungeon (Mark S. Ball, rules v1.2): a solitaire card game, pure rules.

The rules are ``docs/rules/clear-the-dungeon.md``; section numbers below refer to it.
Twelve monsters (J, Q, K) and two jokers lie face down in a 14-card dungeon; the player draws
power cards (A–10) three at a time and lays them on face-up monsters: two cards whose values
reach the monster's power, then a finisher of its suit. Defeated kings become one-shot items.
Cards left in hand at the end of a turn are hits; the fifth hit loses.

>>> state = new_game(7, ["p1"])
>>> len(state["hand"]) >= 3, state["turn"], state["status"]
(True, 1, 'playing')
>>> {"type": "end_turn"} in legal_actions(state, "p1")
True
>>> after = apply(state, "p1", {"type": "resign"})
>>> result(after)["reason"], state["status"]
('resigned', 'playing')

Options (section 10.1)
    ``deck``: a stacked deck, top card first, exactly the 54 codes (52 cards and ``"JK"``
    twice). The J/Q/K/JK codes, in order, fill the dungeon in reading order; the A–10 codes,
    in order, form the power deck (first = top). Without it the seed shuffles.

Actions (section 10.4); a card is named by its code (``"JK"`` is either joker), a monster by
its position ``r<row>c<col>``:
    ``{"type": "play", "card", "target", "double": bool = False}``
    ``{"type": "use_item", "item": "KH", "card"}``    card from hand under the power deck
    ``{"type": "use_item", "item": "KD"}``            peek at the bottom card (opens a decision)
    ``{"type": "peek_decision", "move_to_top": bool}``
    ``{"type": "use_item", "item": "KS", "target"}``  double the single card on a monster
    ``{"type": "use_item", "item": "KC"}``            draw one card
    ``{"type": "end_turn"}``, ``{"type": "resign"}``

The view (``view(state, seat)``), a JSON-safe dict:
    ``dungeon``: 14 entries in reading order (r1c1 … r7c3), each with ``pos``, ``row``,
      ``col`` and ``state``: ``"hidden"`` (a face-down card: nothing more is said),
      ``"empty"``, or ``"monster"`` with also ``card`` (code), ``suit``, ``power`` (11/12/13),
      ``attack`` (cards placed, in order: ``{card, value, doubled}``, value already doubled),
      ``sum`` (the power cards' total), ``needs`` (``"power"`` while it holds 0–1 cards,
      ``"finisher"`` with 2) and ``short`` (how much the power cards still lack, 0 when met).
    ``hand``: the hand's codes in order of arrival.
    ``deck_count``: how many cards the power deck holds (never its order or contents).
    ``known_bottom``: the bottom card of the power deck when the player knows it (the card the
      K♥ put under the deck, or the card a K♦ peek left in place), else ``null``; shown to a
      spectator too (10.3). It is forgotten when the K♦ moves it to the top or a draw empties
      the deck.
    ``hit_row``, ``hits`` (its size), ``hits_left`` (5 − hits; the game is lost when it reaches 0).
    ``clear_pile``: defeated monsters, their attack cards and used kings.
    ``inventory``: unused king items, in order obtained.
    ``item_status``: the same kings as ``{item, usable, reason}``: whether some ``use_item`` with it is
      legal now and, if not, why (``item_status``).
    ``end_turn_cost``: what ``end_turn`` would do now, ``{hits, hits_after, fatal}``
      (``end_turn_cost``), or ``null`` while it is not legal.
    ``pending``: ``null``, or ``{"kind": "peek", "card": code}`` while a K♦ decision is
      open.
    ``turn``, ``defeated`` (0–12), ``status`` (``playing`` or ``finished``, as every game's view),
      ``ending`` (``None`` while playing, then ``won``, ``lost_hits``, ``lost_power`` or
      ``resigned``), ``seat`` (the viewer's seat, ``None`` for a spectator, as every game's view),
      ``player`` (the one seat), ``result`` (as ``result()``).
    ``log``: the event log as ``{seq, text}`` entries.

As the rules say (10.3), a spectator's view equals the player's but for ``seat``, so a
spectator (``None``, or any seat but the player's) gets the dict above, the hand,
the ``pending`` K♦ card, ``known_bottom`` and the log's K♦ lines included, since any onlooker at
the table would see them. Only the face-down cards, the power deck's order and contents (beyond
its count and ``known_bottom``) and the seed are never shown, to anyone.
"""

from __future__ import annotations

from typing import Any

from .. import kit
from ..cards import (
    JOKER,
    RANK_NAMES,
    SUIT_NAMES,
    SUIT_SYMBOLS,  # noqa: F401  (part of this module's vocabulary: the tests read the suits from here)
    check_stacked_deck,
    pretty,
    seeded_rng,
    shuffled,
    standard_deck,
)
from ..errors import IllegalAction, InvalidAction
from ..options import Option
from ..text import counted

slug = "clear-the-dungeon"
title = "Clear the Dungeon"
min_players = 1
max_players = 1
TABLE = False
PLAYERS_LABEL = "Solo"
BLURB = (
    "A solitaire card battle: the dungeon is seven overlapping rows of face-down "
    "monsters. Play cards from your hand onto revealed monsters until their sum beats "
    "their power, turn kings into magic items, and clear the dungeon before the fifth "
    "hit lands."
)
OPTIONS = (
    Option(
        "deck",
        "Stacked deal",
        "deck",
        group="Advanced",
        help=(
            "Optional: all 54 card codes, top card first (52 cards and JK twice). The jacks, queens, "
            "kings and jokers fill the dungeon from the top row down; the aces to tens form the power deck."
        ),
    ),
)

# --- Layout (section 3) -------------------------------------------------------------------

ROW_SIZES = (1, 2, 3, 2, 1, 2, 3)
"""Cards per row, top to bottom."""

POSITIONS = tuple(f"r{r}c{c}" for r, n in enumerate(ROW_SIZES, 1) for c in range(1, n + 1))
"""The 14 positions in reading order (dealing order, 3.1)."""

COVERED_BY: dict[str, list[str]] = {
    "r1c1": ["r2c1", "r2c2"],
    "r2c1": ["r3c1", "r3c2"], "r2c2": ["r3c2", "r3c3"],
    "r3c1": ["r4c1"], "r3c2": ["r4c1", "r4c2"], "r3c3": ["r4c2"],
    "r4c1": ["r5c1"], "r4c2": ["r5c1"],
    "r5c1": ["r6c1", "r6c2"],
    "r6c1": ["r7c1", "r7c2"], "r6c2": ["r7c2", "r7c3"],
    "r7c1": [], "r7c2": [], "r7c3": [],
}  # fmt: skip
"""The cover table of 3.2: covered position -> the positions covering it."""

SETTLE_ORDER = tuple(p for r in range(len(ROW_SIZES), 0, -1) for p in POSITIONS if p.startswith(f"r{r}c"))
"""Bottom row first, left to right within a row (3.4, ruling 25)."""

_SIDES = {1: ("",), 2: ("left", "right"), 3: ("left", "middle", "right")}


def place_name(pos: str) -> str:
    """A position in the words the board gives it (rows counted from the top, as its pictures are
    read out): ``r<row>c<col>`` is the engine's code, never a player's.

    >>> place_name("r7c1"), place_name("r3c2"), place_name("r5c1")
    ('row 7, left', 'row 3, middle', 'row 5')
    """
    row, col = int(pos[1]), int(pos[3])
    side = _SIDES[ROW_SIZES[row - 1]][col - 1]
    return f"row {row}, {side}" if side else f"row {row}"


_POS_SET = frozenset(POSITIONS)

# --- Cards (section 2) --------------------------------------------------------------------

MONSTER_RANKS = ("J", "Q", "K")
POWER = {"J": 11, "Q": 12, "K": 13}
ALL_CARDS = standard_deck(jokers=2)
MONSTER_DECK = [c for c in ALL_CARDS if c == JOKER or c[:-1] in MONSTER_RANKS]
"""``JS QS KS JH QH KH JD QD KD JC QC KC JK JK``: the canonical order before shuffling."""
POWER_DECK = [c for c in ALL_CARDS if c not in MONSTER_DECK]
"""``AS 2S … 10S AH … 10C``: the standard order of the 40 power cards."""
ITEMS = ("KH", "KD", "KS", "KC")
MONSTERS = 12
"""Monsters to defeat for the win (jokers are not monsters, section 5)."""
MAX_HITS = 5
HAND_SIZE = 3

# The score of 10.7; pages explain it from these, never from a copy of the numbers.
DEFEAT_POINTS = 100
WIN_BONUS = 1000
SPARE_HIT_POINTS = 10
PERFECT_SCORE = MONSTERS * DEFEAT_POINTS + WIN_BONUS + SPARE_HIT_POINTS * MAX_HITS

STATUS_REASON = {"won": "cleared", "lost_hits": "five_hits", "lost_power": "out_of_power", "resigned": "resigned"}

_CARD = kit.Param(frozenset(ALL_CARDS), "{value!r} is not a card code")
_TARGET = kit.Param(_POS_SET, "{value!r} is not a dungeon position (r1c1 … r7c3)")

# The parameters of each action (``kit.parse_action``); a king item's depend on the king.
ACTIONS: dict[str, dict[str, kit.Spec] | kit.Variants] = {
    "play": {"card": _CARD, "target": _TARGET, "double": kit.Param(bool, optional=True, default=False)},
    "use_item": kit.Variants(
        "item",
        {
            "KH": {"item": ITEMS, "card": _CARD},
            "KD": {"item": ITEMS},
            "KS": {"item": ITEMS, "target": _TARGET},
            "KC": {"item": ITEMS},
        },
        "use_item needs an item: KH, KD, KS or KC",
    ),
    "peek_decision": {"move_to_top": bool},
    "end_turn": {},
    "resign": {},
}
_WORDING = kit.Wording(
    not_an_object="an action must be a dictionary",
    unknown_type=lambda kind: f"unknown action type: {kind}" if isinstance(kind, str) else "an action needs a type",
    unexpected=lambda kind, names: f"{kind} takes no {', '.join(map(str, names))}",
    missing=lambda kind, names: f"{kind} needs {', '.join(sorted(names))}",
)


def power_value(code: str) -> int:
    """A power card's value: ace 1, 2–10 face value, joker 10 (2.2).

    >>> power_value("AS"), power_value("7D"), power_value("10C"), power_value("JK")
    (1, 7, 10, 10)
    """
    if code == JOKER:
        return 10
    rank = code[:-1]
    return 1 if rank == "A" else int(rank)


def _named(code: str) -> str:
    """``"an ace"``, ``"a 2"``, ``"an 8"``, ``"a joker"`` for error messages."""
    word = "joker" if code == JOKER else RANK_NAMES.get(code[:-1], code[:-1])
    return ("an " if word[0] in "a8" else "a ") + word


def _monster_word(code: str) -> str:
    return RANK_NAMES[code[:-1]]


# --- Setup --------------------------------------------------------------------------------


def new_game(seed: int, players: list[str], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A fresh game for one player: deal, settle the bottom row, draw turn 1 (3.5).

    >>> deck = ["JH", "QH"] + [c for c in ALL_CARDS if c not in ("JH", "QH")]
    >>> s = new_game(1, ["p1"], {"deck": deck})
    >>> s["dungeon"]["r1c1"]["card"], s["hand"], len(s["power_deck"])
    ('JH', ['JK', 'JK', 'AS', '2S', '3S'], 37)
    >>> new_game(1, ["p1"], {"colour": "red"})
    Traceback (most recent call last):
    ...
    rules_engine.errors.InvalidAction: unknown option: colour
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidAction("the seed must be an integer")
    if not isinstance(players, (list, tuple)) or len(players) != 1:
        raise InvalidAction("Clear the Dungeon is played by exactly one player")
    if not isinstance(players[0], str) or not players[0]:
        raise InvalidAction("a seat must be a non-empty string")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InvalidAction("options must be a dictionary")
    for key in options:
        if key != "deck":
            raise InvalidAction(f"unknown option: {key}")
    stored_options: dict[str, Any] = {}
    if "deck" in options:
        deck = check_stacked_deck(options["deck"], allowed=ALL_CARDS, unique=False)
        if len(deck) != len(ALL_CARDS):
            raise InvalidAction("the stacked deck must hold exactly the 54 cards (52 and two jokers)")
        stored_options["deck"] = deck
        monsters = [c for c in deck if c in MONSTER_DECK]
        power = [c for c in deck if c not in MONSTER_DECK]
    else:
        rng = seeded_rng(seed, "deal")
        monsters = shuffled(MONSTER_DECK, rng)
        power = shuffled(POWER_DECK, rng)
    state: dict[str, Any] = {
        "seed": seed,
        "options": stored_options,
        "players": [players[0]],
        "dungeon": {pos: {"card": card, "face_up": False, "attack": []} for pos, card in zip(POSITIONS, monsters)},
        "power_deck": power,
        "hand": [],
        "hit_row": [],
        "clear_pile": [],
        "inventory": [],
        "pending": None,
        "known_bottom": None,
        "turn": 0,
        "defeated": 0,
        "status": "playing",
        "log": ["The dungeon is laid out; the bottom three cards are revealed."],
    }
    _settle(state)
    _start_turn(state)
    return state


# --- Queries ------------------------------------------------------------------------------


def _seat(state: dict[str, Any]) -> str:
    seat: str = state["players"][0]
    return seat


def _face_up_monsters(state: dict[str, Any]) -> list[str]:
    dungeon = state["dungeon"]
    return [p for p in POSITIONS if dungeon[p] is not None and dungeon[p]["face_up"]]


def _card_value(attack_card: dict[str, Any]) -> int:
    return power_value(attack_card["card"]) * (2 if attack_card["doubled"] else 1)


def _attack_sum(slot: dict[str, Any]) -> int:
    return sum(_card_value(a) for a in slot["attack"])


def _check_play(state: dict[str, Any], card: str, target: str, double: bool) -> None:
    """Raise ``IllegalAction`` unless placing ``card`` on ``target`` is legal now (4.2)."""
    if card not in state["hand"]:
        raise IllegalAction(f"{card} is not in your hand")
    slot = state["dungeon"][target]
    if slot is None:
        raise IllegalAction(f"the place in {place_name(target)} is empty")
    if not slot["face_up"]:
        raise IllegalAction(f"the card in {place_name(target)} is still face down")
    monster = slot["card"]
    power = POWER[monster[:-1]]
    placed = len(slot["attack"])
    has_spade = "KS" in state["inventory"]
    if double and not has_spade:
        raise IllegalAction("you have no K♠")
    if placed == 2:
        if double:
            raise IllegalAction("a finisher cannot be doubled")
        if card != JOKER and card[-1] != monster[-1]:
            suit = SUIT_NAMES[monster[-1]][:-1]
            raise IllegalAction(f"the finisher on the {pretty(monster)} must be {_article(suit)} {suit} or a joker")
        return
    value = power_value(card) * (2 if double else 1)
    if placed == 0:
        # Opening guard (ruling 12): the best possible second card must still reach the power.
        best = 20 if has_spade and not double else 10
        if value + best < power:
            who = ("a doubled " + _named(card).split(" ", 1)[1]) if double else _named(card)
            best_word = "a doubled 10" if best == 20 else "a 10"
            raise IllegalAction(
                f"{who} cannot open on {_article(_monster_word(monster))} {_monster_word(monster)}: "
                f"even {best_word} would leave it short"
            )
        return
    first = _attack_sum(slot)
    if first + value < power:
        raise IllegalAction(f"{first} + {value} = {first + value} is short of the {pretty(monster)}'s {power}")


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou8" else "a"


def legal_actions(state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
    """Every action ``seat`` may take now, each accepted by ``apply`` (10.4).

    >>> s = new_game(3, ["p1"])
    >>> legal_actions(s, "p2")
    []
    >>> legal_actions(s, "p1")[-2:]
    [{'type': 'end_turn'}, {'type': 'resign'}]
    """
    if state["status"] != "playing" or seat != _seat(state):
        return []
    if state["pending"] is not None:
        return [
            {"type": "peek_decision", "move_to_top": True},
            {"type": "peek_decision", "move_to_top": False},
            {"type": "resign"},
        ]
    actions: list[dict[str, Any]] = []
    hand = list(dict.fromkeys(state["hand"]))
    targets = _face_up_monsters(state)
    inventory = state["inventory"]
    has_spade = "KS" in inventory
    for card in hand:
        for target in targets:
            for double in (False, True) if has_spade else (False,):
                try:
                    _check_play(state, card, target, double)
                except IllegalAction:
                    continue
                action = {"type": "play", "card": card, "target": target}
                if double:
                    action["double"] = True
                actions.append(action)
    for item in ITEMS:
        if item in inventory:
            actions.extend(_item_uses(state, item))
    actions.append({"type": "end_turn"})
    actions.append({"type": "resign"})
    return actions


def _item_uses(state: dict[str, Any], item: str) -> list[dict[str, Any]]:
    """Every legal use of a held ``item`` while the attack phase runs (section 6, 10.4)."""
    if item == "KH":
        return [{"type": "use_item", "item": "KH", "card": card} for card in dict.fromkeys(state["hand"])]
    if item == "KS":
        return [
            {"type": "use_item", "item": "KS", "target": t}
            for t in _face_up_monsters(state)
            if len(state["dungeon"][t]["attack"]) == 1
        ]
    return [{"type": "use_item", "item": item}] if state["power_deck"] else []


_EMPTY_DECK = "the power deck is empty"
_ITEM_IDLE = {
    # Why a held item has no legal use now, once the game runs and nothing is pending.
    "KH": "your hand is empty",
    "KD": _EMPTY_DECK,
    "KS": "no face-up monster holds exactly one card",
    "KC": _EMPTY_DECK,
}
_GAME_OVER = "the game is over"
_DECIDE_FIRST = "first decide where the K♦ card goes"


def item_status(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Each unused king of the inventory, in order: ``item``, ``usable`` (some ``use_item`` with
    it is legal now) and ``reason`` (why not, else ``None``), from the same code as
    ``legal_actions``. The K♠ may still double a card being placed when ``usable`` is false.

    >>> s = new_game(1, ["p1"])
    >>> for status in item_status({**s, "inventory": ["KC", "KS"]}):
    ...     print(status)
    {'item': 'KC', 'usable': True, 'reason': None}
    {'item': 'KS', 'usable': False, 'reason': 'no face-up monster holds exactly one card'}
    """
    if state["status"] != "playing":
        blocked = _GAME_OVER
    elif state["pending"] is not None:
        blocked = _DECIDE_FIRST
    else:
        blocked = None
    out = []
    for item in state["inventory"]:
        reason = blocked or (None if _item_uses(state, item) else _ITEM_IDLE[item])
        out.append({"item": item, "usable": reason is None, "reason": reason})
    return out


def _discard_count(state: dict[str, Any]) -> int:
    """How many hand cards ``end_turn`` moves to the hit row now: one hit per card, in hand order,
    stopping at the fifth hit (4.4, ruling 17). The one count both ``end_turn`` and its forecast use."""
    return min(len(state["hand"]), MAX_HITS - len(state["hit_row"]))


def end_turn_cost(state: dict[str, Any]) -> dict[str, Any] | None:
    """What ending the turn now would cost, or ``None`` while ``end_turn`` is not legal.

    ``hits``: the cards that would become hits (cards in hand, jokers included, but never past
    the fifth hit, where the discard stops); ``hits_after``: the hit count then; ``fatal``: that
    count is the fifth hit, which loses the game (4.4).

    >>> deck = ["JH", "QH"] + [c for c in ALL_CARDS if c not in ("JH", "QH")]
    >>> s = new_game(1, ["p1"], {"deck": deck})
    >>> s["hand"], end_turn_cost(s)
    (['JK', 'JK', 'AS', '2S', '3S'], {'hits': 5, 'hits_after': 5, 'fatal': True})
    """
    if state["status"] != "playing" or state["pending"] is not None:
        return None
    hits = _discard_count(state)
    after = len(state["hit_row"]) + hits
    return {"hits": hits, "hits_after": after, "fatal": after >= MAX_HITS}


def _result_sentence(reason: str, turns: int, hits: int, defeated: int) -> str:
    """How the score of 10.7 came about, in one sentence."""
    if reason == "cleared":
        return (
            f"Cleared in {turns} turns with {counted(hits, 'hit')}: {MONSTERS} monsters × "
            f"{DEFEAT_POINTS}, +{WIN_BONUS} for the win, +{SPARE_HIT_POINTS} for each of the "
            f"{MAX_HITS - hits} hits to spare."
        )
    ending = {
        "five_hits": f"Five hits after {turns} turns.",
        "resigned": f"Resigned on turn {turns}.",
        "out_of_power": f"Out of power on turn {turns}.",
    }[reason]
    return f"{ending} {defeated} of {MONSTERS} monsters defeated, {DEFEAT_POINTS} points each."


def result(state: dict[str, Any]) -> dict[str, Any] | None:
    """``None`` while the game runs, else winners, score and reason (10.7).

    The score is ``100 × defeated``, plus ``1000 + 10 × (5 − hits)`` for a win. Extra keys:
    ``defeated``, ``hits`` and ``turns`` for the leaderboard.
    """
    status = state["status"]
    if status == "playing":
        return None
    seat = _seat(state)
    hits = len(state["hit_row"])
    won = status == "won"
    score = DEFEAT_POINTS * state["defeated"] + (WIN_BONUS + SPARE_HIT_POINTS * (MAX_HITS - hits) if won else 0)
    return {
        "winners": [seat] if won else [],
        "scores": {seat: score},
        "reason": STATUS_REASON[status],
        "text": _result_sentence(STATUS_REASON[status], state["turn"], hits, state["defeated"]),
        "defeated": state["defeated"],
        "hits": hits,
        "turns": state["turn"],
    }


# --- Actions ------------------------------------------------------------------------------


def apply(state: dict[str, Any], seat: str, action: dict[str, Any]) -> dict[str, Any]:
    """The state after ``seat`` takes ``action``; the input state is never changed.

    Raises ``InvalidAction`` for a malformed action, ``IllegalAction`` for one the rules forbid.

    >>> s = new_game(5, ["p1"])
    >>> apply(s, "p1", {"type": "dance"})
    Traceback (most recent call last):
    ...
    rules_engine.errors.InvalidAction: unknown action type: dance
    >>> apply(s, "p1", {"type": "peek_decision", "move_to_top": True})
    Traceback (most recent call last):
    ...
    rules_engine.errors.IllegalAction: there is no K♦ decision to make
    """
    act = kit.parse_action(action, ACTIONS, _WORDING)
    kind = act["type"]
    if state["status"] != "playing":
        raise IllegalAction(_GAME_OVER)
    if seat != _seat(state):
        raise IllegalAction("you are not the player of this game")
    pending = state["pending"]
    if kind == "resign":
        new = _copy(state)
        new["pending"] = None
        new["status"] = "resigned"
        new["log"].append("The player resigned.")
        return new
    if kind == "peek_decision":
        if pending is None:
            raise IllegalAction("there is no K♦ decision to make")
        new = _copy(state)
        _decide_peek(new, act["move_to_top"])
        return new
    if pending is not None:
        raise IllegalAction(_DECIDE_FIRST)
    if kind == "play":
        _check_play(state, act["card"], act["target"], act["double"])
        new = _copy(state)
        _play(new, act["card"], act["target"], act["double"])
    elif kind == "end_turn":
        new = _copy(state)
        _end_turn(new)
    else:
        item = act["item"]
        _check_item(state, act)
        new = _copy(state)
        _use_item(new, act)
        new["inventory"].remove(item)
        new["clear_pile"].append(item)
    if new["status"] == "playing" and not new["hand"] and new["pending"] is None:
        _start_turn(new)
    return new


def _check_item(state: dict[str, Any], act: dict[str, Any]) -> None:
    item = act["item"]
    if item not in state["inventory"]:
        raise IllegalAction(f"you have no {pretty(item)}")
    if item == "KH":
        if act["card"] not in state["hand"]:
            raise IllegalAction(f"{act['card']} is not in your hand")
    elif item == "KS":
        target = act["target"]
        slot = state["dungeon"][target]
        if slot is None:
            raise IllegalAction(f"the place in {place_name(target)} is empty")
        if not slot["face_up"]:
            raise IllegalAction(f"the card in {place_name(target)} is still face down")
        count = len(slot["attack"])
        if count != 1:
            holds = "no attack card" if count == 0 else f"{count} attack cards"
            raise IllegalAction(
                f"the K♠ doubles the only card on a monster, and the {pretty(slot['card'])} holds {holds}"
            )
    elif not state["power_deck"]:
        raise IllegalAction(_EMPTY_DECK)


def _use_item(state: dict[str, Any], act: dict[str, Any]) -> None:
    item = act["item"]
    log = state["log"]
    if item == "KH":
        card = act["card"]
        state["hand"].remove(card)
        state["power_deck"].append(card)
        state["known_bottom"] = card
        log.append(f"K♥: {card} put under the power deck")
    elif item == "KD":
        bottom = state["power_deck"][-1]
        state["pending"] = {"kind": "peek", "card": bottom}
        log.append(f"K♦: the bottom card is {bottom}")
    elif item == "KS":
        slot = state["dungeon"][act["target"]]
        slot["attack"][0]["doubled"] = True
        log.append(
            f"{slot['attack'][0]['card']} doubled by K♠ on {pretty(slot['card'])} "
            f"({_attack_sum(slot)}/{POWER[slot['card'][:-1]]})"
        )
    else:  # KC
        card = state["power_deck"].pop(0)
        state["hand"].append(card)
        if not state["power_deck"]:
            state["known_bottom"] = None
        log.append(f"K♣: drew {card}")


def _decide_peek(state: dict[str, Any], move_to_top: bool) -> None:
    card = state["pending"]["card"]
    state["pending"] = None
    deck = state["power_deck"]
    if move_to_top and len(deck) > 1:
        deck.insert(0, deck.pop())
        state["known_bottom"] = None
        state["log"].append(f"K♦: {card} moved to the top")
    else:
        # Left in place (or a one-card deck, where top and bottom are the same card).
        state["known_bottom"] = card
        where = "moved to the top" if move_to_top else "left at the bottom"
        state["log"].append(f"K♦: {card} {where}")


def _play(state: dict[str, Any], card: str, target: str, double: bool) -> None:
    """Place a card (already checked legal) and defeat the monster on its third card (4.3)."""
    state["hand"].remove(card)
    slot = state["dungeon"][target]
    monster = slot["card"]
    slot["attack"].append({"card": card, "doubled": double})
    log = state["log"]
    if double:
        state["inventory"].remove("KS")
        state["clear_pile"].append("KS")
    if len(slot["attack"]) < 3:
        sums = f"({_attack_sum(slot)}/{POWER[monster[:-1]]})"
        how = " doubled by K♠" if double else ""
        log.append(f"{card}{how} on {pretty(monster)} {sums}")
        return
    log.append(f"{card} finishes the {pretty(monster)}")
    state["clear_pile"].extend(a["card"] for a in slot["attack"])
    state["dungeon"][target] = None
    state["defeated"] += 1
    log.append(f"{pretty(monster)} defeated")
    if monster[:-1] == "K":
        state["inventory"].append(monster)
        log.append(f"{pretty(monster)} becomes an item")
    else:
        state["clear_pile"].append(monster)
    _settle(state)
    if state["defeated"] == MONSTERS:
        state["status"] = "won"
        log.append("Dungeon cleared!")


def _end_turn(state: dict[str, Any]) -> None:
    """Discard card by card, stopping at the fifth hit (4.4)."""
    hand, hits = state["hand"], state["hit_row"]
    moved = _discard_count(state)
    hits.extend(hand[:moved])
    del hand[:moved]
    state["log"].append(f"{moved} card{'s' if moved != 1 else ''} discarded: hits {len(hits)}/{MAX_HITS}")
    if len(hits) >= MAX_HITS:
        state["status"] = "lost_hits"
        state["log"].append("Fifth hit — the monsters win")


def _settle(state: dict[str, Any]) -> None:
    """Turn up every uncovered face-down card; revealed jokers join the hand (3.4)."""
    dungeon = state["dungeon"]
    changed = True
    while changed:
        changed = False
        for pos in SETTLE_ORDER:
            slot = dungeon[pos]
            if slot is None or slot["face_up"]:
                continue
            if any(dungeon[c] is not None for c in COVERED_BY[pos]):
                continue
            changed = True
            if slot["card"] == JOKER:
                dungeon[pos] = None
                state["hand"].append(JOKER)
                state["log"].append(f"Joker found in {place_name(pos)} — added to your hand")
            else:
                slot["face_up"] = True
                state["log"].append(f"{pretty(slot['card'])} revealed in {place_name(pos)}")


def _start_turn(state: dict[str, Any]) -> None:
    """The draw phase (4.1); an empty deck loses out of power (7, unreachable)."""
    deck = state["power_deck"]
    if not deck:
        state["status"] = "lost_power"
        state["log"].append("The power deck is empty — out of power")
        return
    state["turn"] += 1
    drawn = deck[:HAND_SIZE]
    del deck[:HAND_SIZE]
    state["hand"].extend(drawn)
    if not deck:
        state["known_bottom"] = None
    state["log"].append(f"Turn {state['turn']}: drew {' '.join(drawn)}")


# --- View, labels, persistence --------------------------------------------------------------


def view(state: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """What ``seat`` (or a spectator, ``None``) may see; the shape is in the module docstring.

    >>> v = view(new_game(11, ["p1"]), None)
    >>> sorted({d["state"] for d in v["dungeon"]}) in (["hidden", "monster"], ["empty", "hidden", "monster"])
    True
    >>> "seed" in v, v["deck_count"] <= 37
    (False, True)
    """
    dungeon = []
    for pos in POSITIONS:
        slot = state["dungeon"][pos]
        entry: dict[str, Any] = {"pos": pos, "row": int(pos[1]), "col": int(pos[3])}
        if slot is None:
            entry["state"] = "empty"
        elif not slot["face_up"]:
            entry["state"] = "hidden"
        else:
            entry = monster_view(pos, slot["card"], slot["attack"])
        dungeon.append(entry)
    pending = state["pending"]
    if pending is not None:
        pending = {"kind": pending["kind"], "card": pending["card"]}
    # A dict is a K♦ line of a state stored before the peek was public (it also had a spectator's text).
    log = [entry if isinstance(entry, str) else entry["text"] for entry in state["log"]]
    hits = len(state["hit_row"])
    return {
        "dungeon": dungeon,
        "hand": list(state["hand"]),
        "deck_count": len(state["power_deck"]),
        "known_bottom": state["known_bottom"],
        "hit_row": list(state["hit_row"]),
        "hits": hits,
        "hits_left": MAX_HITS - hits,
        "clear_pile": list(state["clear_pile"]),
        "inventory": list(state["inventory"]),
        "item_status": item_status(state),
        "end_turn_cost": end_turn_cost(state),
        "pending": pending,
        "turn": state["turn"],
        "defeated": state["defeated"],
        "status": "playing" if state["status"] == "playing" else "finished",
        "ending": None if state["status"] == "playing" else state["status"],
        "seat": seat if seat == _seat(state) else None,
        "player": _seat(state),
        "result": result(state),
        "log": kit.log_entries(log),
    }


def full_view(state: dict[str, Any]) -> dict[str, Any]:
    """A replay's view (``rules_engine.contract``): the spectator's, plus what it hides — the
    face-down cards row by row, top row first, and the power deck in drawing order.

    >>> revealed = full_view(new_game(11, ["p1"]))["revealed"]
    >>> revealed[0]["title"], revealed[-1]["title"], len(revealed[-1]["cards"])
    ('Face-down card of row 1', 'Power deck, next card first', 37)
    """
    out = view(state, None)
    dungeon = state["dungeon"]
    revealed: list[dict[str, Any]] = []
    for row, size in enumerate(ROW_SIZES, start=1):
        down = [
            pos
            for pos in POSITIONS
            if pos.startswith(f"r{row}c") and dungeon[pos] is not None and not dungeon[pos]["face_up"]
        ]
        if down:
            revealed.append({"title": _face_down_title(row, size, down), "cards": [dungeon[p]["card"] for p in down]})
    if state["power_deck"]:
        revealed.append({"title": "Power deck, next card first", "cards": list(state["power_deck"])})
    out["revealed"] = revealed
    return out


def _face_down_title(row: int, size: int, down: list[str]) -> str:
    if len(down) == 1:
        return f"Face-down card of {place_name(down[0])}"
    if len(down) == size:
        return f"Face-down cards of row {row}, left to right"
    sides = [_SIDES[size][int(pos[3]) - 1] for pos in down]
    return f"Face-down cards of row {row}, {' and '.join(sides)}"


def monster_view(pos: str, card: str, attack: list[dict[str, Any]]) -> dict[str, Any]:
    """A face-up monster as ``view`` shows it, with what it still needs (10.3); the how-to-play
    pictures are drawn through it too. ``attack``: the cards on it in order, ``{card, doubled}``.

    >>> m = monster_view("r6c2", "QD", [{"card": "9S", "doubled": False}])
    >>> m["sum"], m["needs"], m["short"]
    (9, 'power', 3)
    """
    power = POWER[card[:-1]]
    placed = [{"card": a["card"], "value": _card_value(a), "doubled": a["doubled"]} for a in attack]
    total = sum(a["value"] for a in placed)
    return {
        "pos": pos,
        "row": int(pos[1]),
        "col": int(pos[3]),
        "state": "monster",
        "card": card,
        "suit": card[-1],
        "power": power,
        "attack": placed,
        "sum": total,
        "needs": "finisher" if len(attack) == 2 else "power",
        "short": max(0, power - total),
    }


def action_label(state: dict[str, Any], action: dict[str, Any]) -> str:
    """A short label for an action, for a button on the web page.

    >>> s = new_game(5, ["p1"])
    >>> action_label(s, {"type": "end_turn"})
    'End turn: 3 cards become hits (3/5)'
    >>> action_label(s, {"type": "use_item", "item": "KC"})
    'K♣: draw a card'
    """
    act = kit.parse_action(action, ACTIONS, _WORDING)
    kind = act["type"]
    if kind == "play":
        slot = state["dungeon"][act["target"]]
        # The face-up monster's card names it (each J, Q and K is dealt once); a place in words otherwise.
        on = f"the {pretty(slot['card'])}" if slot is not None and slot["face_up"] else place_name(act["target"])
        doubled = " doubled by K♠" if act["double"] else ""
        return f"Play {pretty(act['card'])}{doubled} on {on}"
    if kind == "end_turn":
        cost = end_turn_cost(state)
        if cost is None or cost["hits"] == 0:
            return "End turn"
        count = cost["hits"]
        fatal = " — fatal" if cost["fatal"] else ""
        cards = "1 card becomes a hit" if count == 1 else f"{count} cards become hits"
        return f"End turn: {cards} ({cost['hits_after']}/{MAX_HITS}){fatal}"
    if kind == "resign":
        return "Resign"
    if kind == "peek_decision":
        pending = state["pending"]
        card = pretty(pending["card"]) if pending else "the bottom card"
        return f"Move {card} to the top" if act["move_to_top"] else f"Leave {card} at the bottom"
    item = act["item"]
    if item == "KH":
        return f"K♥: put {pretty(act['card'])} under the power deck"
    if item == "KD":
        return "K♦: look at the bottom card"
    if item == "KS":
        slot = state["dungeon"][act["target"]]
        if slot is not None and slot["face_up"] and slot["attack"]:
            return f"K♠: double the {pretty(slot['attack'][0]['card'])} on the {pretty(slot['card'])}"
        return f"K♠: double the card in {place_name(act['target'])}"
    return "K♣: draw a card"


def _copy(state: dict[str, Any]) -> dict[str, Any]:
    """A copy deep enough that mutating it never touches ``state`` (options and log strings are shared)."""
    new = dict(state)
    for key in ("power_deck", "hand", "hit_row", "clear_pile", "inventory", "log", "players"):
        new[key] = list(state[key])
    new["dungeon"] = {
        pos: None
        if slot is None
        else {"card": slot["card"], "face_up": slot["face_up"], "attack": [dict(a) for a in slot["attack"]]}
        for pos, slot in state["dungeon"].items()
    }
    if state["pending"] is not None:
        new["pending"] = dict(state["pending"])
    return new


def dump(state: dict[str, Any]) -> dict[str, Any]:
    """The state as JSON-safe data (a copy)."""
    copy: dict[str, Any] = kit.deep_copy(state)
    return copy


def load(data: dict[str, Any]) -> dict[str, Any]:
    """A state from ``dump`` output (exact round trip)."""
    return dump(data)


# --- Warning before a losing action (the contract's ``loss_warning``) -----------------------


def loss_warning(state: dict[str, Any], seat: str, action: dict[str, Any]) -> str | None:
    """A sentence when ``action`` certainly loses the game, else None: ending the turn on the
    fifth hit (4.4), or with an empty power deck to draw from (7). Both follow from the hand,
    the hit row and the deck's size, which everyone sees; resigning is its own warning.

    >>> deck = ["JH", "QH"] + [c for c in ALL_CARDS if c not in ("JH", "QH")]
    >>> s = new_game(1, ["p1"], {"deck": deck})
    >>> loss_warning(s, "p1", {"type": "end_turn"})
    'Ending the turn now is the fifth hit and loses the game.'
    >>> loss_warning(s, "p1", {"type": "resign"}) is None
    True
    """
    if action.get("type") != "end_turn" or seat != _seat(state):
        return None
    cost = end_turn_cost(state)
    if cost is None:
        return None
    if cost["fatal"]:
        return "Ending the turn now is the fifth hit and loses the game."
    if cost["hits"] == len(state["hand"]) and not state["power_deck"]:
        return "Ending the turn now loses the game: the power deck is empty, so no new hand can be drawn."
    return None
