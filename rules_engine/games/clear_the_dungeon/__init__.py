"""Clear the Dungeon (Mark S. Ball, rules v1.2): a solitaire card game, pure rules.

The rules are ``docs/rules/clear-the-dungeon.md``; section numbers below refer to it.
Twelve monsters (J, Q, K) and two jokers lie face down in a 14-card dungeon; the player draws
power cards (A–10) three at a time and lays them on face-up monsters: two cards whose values
reach the monster's power, then a finisher of its suit. Defeated kings become one-shot items.
Cards left in hand at the end of a turn are hits; the fifth hit loses.

The package: ``data`` (declarations, layout, cards, score), ``play`` (setup, queries, the
actions with their labels and ``apply``/``dump``/``load``/``action_label`` from ``kit.Engine``),
``views`` (views, warnings).

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

from collections import Counter
from typing import Any

from ...cards import (
    JOKER,
    RANK_NAMES,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    check_stacked_deck,
    pretty,
    seeded_rng,
    shuffled,
    standard_deck,
)
from ...errors import IllegalAction, InvalidAction
from ...options import Option
from ...text import counted
from .data import (
    ALL_CARDS,
    BLURB,
    COVERED_BY,
    DEFEAT_POINTS,
    HAND_SIZE,
    ITEMS,
    LOSING_HIT,
    MAX_HITS,
    MONSTER_DECK,
    MONSTER_RANKS,
    MONSTERS,
    OPTIONS,
    PERFECT_SCORE,
    PLAYERS_LABEL,
    POSITIONS,
    POWER,
    POWER_DECK,
    ROW_SIZES,
    SETTLE_ORDER,
    SPARE_HIT_POINTS,
    STATUS_REASON,
    TABLE,
    WIN_BONUS,
    max_players,
    min_players,
    place_name,
    power_value,
    slug,
    title,
)
from .play import (
    ACTIONS,
    action_label,
    apply,
    attack_sum,
    dump,
    end_turn_cost,
    item_status,
    legal_actions,
    load,
    new_game,
    result,
)
from .views import full_view, loss_warning, monster_view, view

# What the platform offers around the game (rules_engine/contract.py): its front-page place, a
# deal of the day on the standard options, and challenges to a finished game's deal.
FRONT_PAGE_PLACE = 20
DAILY_FORM: dict[str, str] = {}
CHALLENGES = True
SOLVER = "rules_engine.games.clear_the_dungeon.solver"
SPEECH = "rules_engine.games.clear_the_dungeon.speech"


def reveals(before: dict[str, Any], after: dict[str, Any], _seat: str, _action: dict[str, Any]) -> str | None:
    """What the action showed that the player had not seen (``rules_engine.undo``), or None.

    Read from the hidden parts of the state (10.3) rather than from the action's type: a
    face-down dungeon card turned up or found to be a joker, cards taken from the power deck
    (every draw is from the top, whose order is hidden), the bottom card shown by a K♦ that
    was not already known, and the end of the game (a finished game's replay shows every card).
    Placing a card, a defeat that turns nothing up, the K♠, the K♥ (unless it empties the hand,
    which draws) and the K♦ decision show nothing new, so they can be undone.

    >>> state = new_game(3, ["p1"])
    >>> reveals(state, apply(state, "p1", {"type": "end_turn"}), "p1", {"type": "end_turn"})
    '3 cards were drawn'
    """
    what: list[str] = []
    monsters = jokers = 0
    for pos, slot in before["dungeon"].items():
        if slot is not None and not slot["face_up"]:
            now = after["dungeon"][pos]
            if now is None:
                jokers += 1
            elif now["face_up"]:
                monsters += 1
    if monsters:
        what.append("a monster was turned face up" if monsters == 1 else f"{monsters} monsters were turned face up")
    if jokers:
        what.append("a joker was found" if jokers == 1 else f"{jokers} jokers were found")
    drawn = (Counter(before["power_deck"]) - Counter(after["power_deck"])).total()
    if drawn:
        what.append("a card was drawn" if drawn == 1 else f"{drawn} cards were drawn")
    peeked = after["pending"]
    if peeked is not None and before["pending"] is None and peeked["card"] != before["known_bottom"]:
        what.append("the bottom card of the power deck was shown")
    if after["status"] != "playing":
        what.append("the game ended")
    return " and ".join(what) or None


__all__ = [
    "attack_sum",
    "ACTIONS",
    "ALL_CARDS",
    "BLURB",
    "COVERED_BY",
    "DEFEAT_POINTS",
    "HAND_SIZE",
    "ITEMS",
    "IllegalAction",
    "InvalidAction",
    "JOKER",
    "LOSING_HIT",
    "MAX_HITS",
    "MONSTERS",
    "MONSTER_DECK",
    "MONSTER_RANKS",
    "OPTIONS",
    "Option",
    "PERFECT_SCORE",
    "PLAYERS_LABEL",
    "POSITIONS",
    "POWER",
    "POWER_DECK",
    "RANK_NAMES",
    "ROW_SIZES",
    "SETTLE_ORDER",
    "SPARE_HIT_POINTS",
    "STATUS_REASON",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "TABLE",
    "WIN_BONUS",
    "action_label",
    "apply",
    "check_stacked_deck",
    "counted",
    "dump",
    "end_turn_cost",
    "full_view",
    "item_status",
    "legal_actions",
    "load",
    "loss_warning",
    "max_players",
    "min_players",
    "monster_view",
    "new_game",
    "place_name",
    "power_value",
    "pretty",
    "result",
    "reveals",
    "seeded_rng",
    "shuffled",
    "slug",
    "standard_deck",
    "title",
    "view",
]
