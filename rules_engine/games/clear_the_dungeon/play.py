"""Play: setup, the queries the pages and ``legal_actions`` share, and every action declared once
(parameters, handler and button label) in the ``kit.Engine`` that gives ``apply``, ``dump``,
``load`` and ``action_label``.

>>> s = new_game(5, ["p1"])
>>> apply(s, "p1", {"type": "dance"})
Traceback (most recent call last):
...
rules_engine.errors.InvalidAction: unknown action type: dance
>>> apply(s, "p1", {"type": "peek_decision", "move_to_top": True})
Traceback (most recent call last):
...
rules_engine.errors.IllegalAction: there is no K♦ decision to make
>>> action_label(s, {"type": "end_turn"})
'End turn: 3 cards become hits (3/5)'
>>> action_label(s, {"type": "use_item", "item": "KC"})
'K♣: draw a card'
"""

from __future__ import annotations

from typing import Any

from ... import kit
from ...cards import (
    JOKER,
    SUIT_NAMES,
    SUIT_SYMBOLS,  # noqa: F401  (part of this module's vocabulary: the tests read the suits from here)
    check_stacked_deck,
    pretty,
    pretty_all,
    seeded_rng,
    shuffled,
)
from ...errors import IllegalAction, InvalidAction
from ...text import counted
from .data import (
    _CARD,
    _TARGET,
    _WORDING,
    ALL_CARDS,
    COVERED_BY,
    DEFEAT_POINTS,
    HAND_SIZE,
    ITEMS,
    MAX_HITS,
    MONSTER_DECK,
    MONSTERS,
    POSITIONS,
    POWER,
    POWER_DECK,
    SETTLE_ORDER,
    SPARE_HIT_POINTS,
    STATUS_REASON,
    WIN_BONUS,
    _monster_word,
    _named,
    place_name,
    power_value,
)

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


def attack_sum(slot: dict[str, Any]) -> int:
    """The attack on a monster so far: its attack cards' values added up."""
    return sum(_card_value(a) for a in slot["attack"])


def _check_play(state: dict[str, Any], card: str, target: str, double: bool) -> None:
    """Raise ``IllegalAction`` unless placing ``card`` on ``target`` is legal now (4.2)."""
    if card not in state["hand"]:
        raise IllegalAction(f"{pretty(card, joker='the joker')} is not in your hand")
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
    first = attack_sum(slot)
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


def _check_item(state: dict[str, Any], act: dict[str, Any]) -> None:
    item = act["item"]
    if item not in state["inventory"]:
        raise IllegalAction(f"you have no {pretty(item)}")
    if item == "KH":
        if act["card"] not in state["hand"]:
            raise IllegalAction(f"{pretty(act['card'], joker='the joker')} is not in your hand")
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
        log.append(f"K♥: {pretty(card, joker='the joker')} put under the power deck")
    elif item == "KD":
        bottom = state["power_deck"][-1]
        state["pending"] = {"kind": "peek", "card": bottom}
        log.append(f"K♦: the bottom card is {pretty(bottom, joker='the joker')}")
    elif item == "KS":
        slot = state["dungeon"][act["target"]]
        slot["attack"][0]["doubled"] = True
        log.append(
            f"{pretty(slot['attack'][0]['card'], joker='The joker')} doubled by K♠ on {pretty(slot['card'])} "
            f"({attack_sum(slot)}/{POWER[slot['card'][:-1]]})"
        )
    else:  # KC
        card = state["power_deck"].pop(0)
        state["hand"].append(card)
        if not state["power_deck"]:
            state["known_bottom"] = None
        log.append(f"K♣: drew {pretty(card, joker='the joker')}")


def _decide_peek(state: dict[str, Any], move_to_top: bool) -> None:
    card = state["pending"]["card"]
    state["pending"] = None
    deck = state["power_deck"]
    if move_to_top and len(deck) > 1:
        deck.insert(0, deck.pop())
        state["known_bottom"] = None
        state["log"].append(f"K♦: {pretty(card, joker='the joker')} moved to the top")
    else:
        # Left in place (or a one-card deck, where top and bottom are the same card).
        state["known_bottom"] = card
        where = "moved to the top" if move_to_top else "left at the bottom"
        state["log"].append(f"K♦: {pretty(card, joker='the joker')} {where}")


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
        sums = f"({attack_sum(slot)}/{POWER[monster[:-1]]})"
        how = " doubled by K♠" if double else ""
        log.append(f"{pretty(card, joker='The joker')}{how} on {pretty(monster)} {sums}")
        return
    log.append(f"{pretty(card, joker='The joker')} finishes the {pretty(monster)}")
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
    state["log"].append(f"Turn {state['turn']}: drew {pretty_all(drawn, joker='the joker')}")


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


def _refusal(state: dict[str, Any], seat: str, _action: dict[str, Any]) -> str | None:
    if state["status"] != "playing":
        return _GAME_OVER
    if seat != _seat(state):
        return "you are not the player of this game"
    return None


def _resign(new: dict[str, Any], _seat: str, _act: dict[str, Any]) -> None:
    new["pending"] = None
    new["status"] = "resigned"
    new["log"].append("The player resigned.")


def _peek_decision(new: dict[str, Any], _seat: str, act: dict[str, Any]) -> None:
    if new["pending"] is None:
        raise IllegalAction("there is no K♦ decision to make")
    _decide_peek(new, act["move_to_top"])


def _decided_first(new: dict[str, Any]) -> None:
    if new["pending"] is not None:
        raise IllegalAction(_DECIDE_FIRST)


def _play_card(new: dict[str, Any], _seat: str, act: dict[str, Any]) -> None:
    _decided_first(new)
    _check_play(new, act["card"], act["target"], act["double"])
    _play(new, act["card"], act["target"], act["double"])


def _end_turn_action(new: dict[str, Any], _seat: str, _act: dict[str, Any]) -> None:
    _decided_first(new)
    _end_turn(new)


def _use_item_action(new: dict[str, Any], _seat: str, act: dict[str, Any]) -> None:
    _decided_first(new)
    _check_item(new, act)
    _use_item(new, act)
    new["inventory"].remove(act["item"])
    new["clear_pile"].append(act["item"])


def _next_turn_if_done(new: dict[str, Any], act: dict[str, Any]) -> dict[str, Any]:
    # Resigning and the K♦ decision end the action where they are: no new turn begins there.
    if act["type"] in ("play", "end_turn", "use_item"):
        if new["status"] == "playing" and not new["hand"] and new["pending"] is None:
            _start_turn(new)
    return new


# --- the buttons' words (each label reads the parsed action) ------------------------------


def _play_label(state: dict[str, Any], act: dict[str, Any]) -> str:
    slot = state["dungeon"][act["target"]]
    # The face-up monster's card names it (each J, Q and K is dealt once); a place in words otherwise.
    on = f"the {pretty(slot['card'])}" if slot is not None and slot["face_up"] else place_name(act["target"])
    doubled = " doubled by K♠" if act["double"] else ""
    return f"Play {pretty(act['card'], joker='the joker')}{doubled} on {on}"


def _end_turn_label(state: dict[str, Any], _act: dict[str, Any]) -> str:
    cost = end_turn_cost(state)
    if cost is None or cost["hits"] == 0:
        return "End turn"
    count = cost["hits"]
    fatal = " — fatal" if cost["fatal"] else ""
    cards = "1 card becomes a hit" if count == 1 else f"{count} cards become hits"
    return f"End turn: {cards} ({cost['hits_after']}/{MAX_HITS}){fatal}"


def _peek_label(state: dict[str, Any], act: dict[str, Any]) -> str:
    pending = state["pending"]
    card = pretty(pending["card"], joker="the joker") if pending else "the bottom card"
    return f"Move {card} to the top" if act["move_to_top"] else f"Leave {card} at the bottom"


def _item_label(state: dict[str, Any], act: dict[str, Any]) -> str:
    item = act["item"]
    if item == "KH":
        return f"K♥: put {pretty(act['card'], joker='the joker')} under the power deck"
    if item == "KD":
        return "K♦: look at the bottom card"
    if item == "KS":
        slot = state["dungeon"][act["target"]]
        if slot is not None and slot["face_up"] and slot["attack"]:
            return f"K♠: double the {pretty(slot['attack'][0]['card'])} on the {pretty(slot['card'])}"
        return f"K♠: double the card in {place_name(act['target'])}"
    return "K♣: draw a card"


_Kind = kit.ActionKind[dict[str, Any]]

# Every action: its parameters (``kit.parse_action``), what carries it out and its button's
# words; a king item's parameters depend on the king.
ACTIONS: dict[str, _Kind] = {
    "play": _Kind(
        {"card": _CARD, "target": _TARGET, "double": kit.Param(bool, optional=True, default=False)},
        _play_card,
        _play_label,
    ),
    "use_item": _Kind(
        kit.Variants(
            "item",
            {
                "KH": {"item": ITEMS, "card": _CARD},
                "KD": {"item": ITEMS},
                "KS": {"item": ITEMS, "target": _TARGET},
                "KC": {"item": ITEMS},
            },
            "use_item needs an item: KH, KD, KS or KC",
        ),
        _use_item_action,
        _item_label,
    ),
    "peek_decision": _Kind({"move_to_top": bool}, _peek_decision, _peek_label),
    "end_turn": _Kind({}, _end_turn_action, _end_turn_label),
    "resign": _Kind({}, _resign, "Resign"),
}

_ENGINE = kit.Engine(
    actions=ACTIONS,
    wording=_WORDING,
    refusal=_refusal,
    copy=_copy,
    finish=_next_turn_if_done,
    not_a_state="not a Clear the Dungeon state",
    # what every action's working copy copies
    state_keys=("power_deck", "hand", "hit_row", "clear_pile", "inventory", "log", "players", "dungeon", "pending"),
    label_parsed=True,
)
apply = _ENGINE.apply
dump = _ENGINE.dump
load = _ENGINE.load
action_label = _ENGINE.action_label
