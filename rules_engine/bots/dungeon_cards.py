"""A Dungeon Cards player that knows only its own view (rules: ``docs/rules/dungeon-cards.md``).

The deck order is hidden, so the bot reasons about the cards it has not seen: the 52 less the
discard pile, the removed bosses, its own hand and the cards on the table. Every choice that
moves a character (Fortune Telling, the card to play, the cards to keep, the Athlete's dash) is
scored by where the move ends: an Exit wins, a Pit loses, any other square is worth its chance
of reaching an Exit with the next card (one move of look-ahead). A Mage casts a spell when the
party's gain on its next turns outweighs the Mage's own draw. Fights: join when the lives allow,
spend the Rogue's Critical Hit on a high boss card, take +1 Speed only when it brings the Exit
within reach at once and lives are plentiful. It never gives up.

>>> import random
>>> from rules_engine.games import dungeon_cards as game
>>> s = game.new_game(4, ["a", "b"], {"classes": {"a": "mage", "b": "tank"}})
>>> decide(game.view(s, "a"), game.legal_actions(s, "a"), rng=random.Random(0))["type"] in ("draw_card", "cast_spell")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..games.dungeon_cards.core import is_face, value
from ..games.dungeon_cards.data import DELTAS, OPPOSITE, REDIRECT_TURNS, REVERSED_DIRECTION, SUIT_DIRECTIONS
from ..games.dungeon_cards.movement import blocked, wall_key
from ..kit import actions_by_type

QUIT = "leave_game"
Square = tuple[int, int]

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_DECK = tuple(rank + suit for suit in "DSHC" for rank in _RANKS)
WIN = 1.0
PIT = -1.0
LOOKAHEAD = 0.9
"""A square's worth is its chance of an Exit with the next card, a little discounted."""


def _fight(lives: int) -> float:
    """What drawing a boss costs a character with ``lives``: a fight it may not survive."""
    return -0.02 if lives >= 6 else -0.08 if lives >= 3 else -0.3


class _Reader:
    """The board and the unseen cards as one seat's view shows them, with memoised moves."""

    def __init__(self, view: dict[str, Any]):
        self.view = view
        board = view["board"]
        self.board = {
            "width": board["width"],
            "height": board["height"],
            "stop_walls": board["stop_walls"],
            "redirects": {f"{r['square'][0]},{r['square'][1]}": r["kind"] for r in board["redirects"]},
        }
        self.walls = frozenset(wall_key(a, b) for a, b in board["stop_walls"])
        self.exits = {(s[0], s[1]) for s in board["exits"]}
        self.pits = {(s[0], s[1]) for s in board["pits"]}
        self.me: dict[str, Any] = next(c for c in view["characters"] if c["id"] == view["seat"])
        seen = set(view["discard"]) | set(view["removed"]) | set(self.me["hand"] or ())
        turn = view["turn"] or {}
        if turn.get("movement_card"):
            seen.add(turn["movement_card"])
        seen.update(turn.get("drawn_this_turn") or ())
        combat = view["combat"]
        if combat is not None:
            if combat["boss_on_table"]:
                seen.add(combat["boss_card"])
            seen.update(combat["boss_cards"])
            if combat["dash"]:
                seen.add(combat["dash"]["card"])
        unseen = [c for c in _DECK if c not in seen]
        self.numbers = [c for c in unseen if not is_face(c)]
        self.faces = len(unseen) - len(self.numbers)
        self._walks: dict[tuple[Square, str, int, bool], Square] = {}
        self._worth: dict[tuple[Square, int, tuple[str, ...], bool, int], float] = {}

    def land(self, start: Square, direction: str, distance: int, ninja: bool) -> Square:
        """Where a move ends (the §4.3 procedure, as ``movement.walk`` walks it)."""
        memo = (start, direction, distance, ninja)
        if memo in self._walks:
            return self._walks[memo]
        pos = start
        turned = False
        redirects = self.board["redirects"]
        for _ in range(distance):
            if blocked(self.board, self.walls, pos, direction):
                if not ninja or turned:
                    break
                direction = OPPOSITE[direction]
                turned = True
                if blocked(self.board, self.walls, pos, direction):
                    break
            dx, dy = DELTAS[direction]
            pos = (pos[0] + dx, pos[1] + dy)
            if redirects:
                kind = redirects.get(f"{pos[0]},{pos[1]}")
                if kind is not None:
                    direction = REDIRECT_TURNS[kind][direction]
        self._walks[memo] = pos
        return pos

    def card_landing(self, c: dict[str, Any], card: str, effects: Sequence[str], start: Square | None = None) -> Square:
        suit = card[-1]
        direction = REVERSED_DIRECTION[suit] if "reversal" in effects else SUIT_DIRECTIONS[suit]
        distance = value(card) + c["speed"] + (1 if "haste" in effects else 0)
        here = start if start is not None else _square(c["position"])
        return self.land(here, direction, distance, c["class"] == "ninja")

    def terminal(self, square: Square) -> float | None:
        if square in self.exits:
            return WIN
        if square in self.pits:
            return PIT
        return None

    def chances(self, c: dict[str, Any], start: Square, effects: Sequence[str], *, pool: Sequence[str] = ()) -> float:
        """A card move's expected worth counting only Exits, Pits and bosses (no look-ahead)."""
        numbers = pool or self.numbers
        total = len(numbers) + self.faces
        if not total:
            return 0.0
        score = self.faces * _fight(c["lives"])
        for card in numbers:
            score += self.terminal(self.card_landing(c, card, effects, start)) or 0.0
        return score / total

    def worth(self, c: dict[str, Any], square: Square, effects: Sequence[str] = (), speed: int | None = None) -> float:
        """A square to end a move on: an Exit wins, a Pit loses, else the next card's chances."""
        end = self.terminal(square)
        if end is not None:
            return end
        speed = c["speed"] if speed is None else speed
        memo = (square, speed, tuple(sorted(effects)), c["class"] == "ninja", c["lives"])
        if memo not in self._worth:
            self._worth[memo] = LOOKAHEAD * self.chances({**c, "speed": speed}, square, effects)
        return self._worth[memo]

    def play_worth(self, c: dict[str, Any], card: str, effects: Sequence[str], after: Sequence[str]) -> float:
        """Playing ``card`` now (``effects`` active), its landing judged with ``after`` for next turn."""
        return self.worth(c, self.card_landing(c, card, effects), after)

    def draw_worth(self, c: dict[str, Any], effects: Sequence[str], after: Sequence[str], pool: Sequence[str]) -> float:
        """A fresh draw: a boss, or a number card played at once."""
        total = len(pool) + self.faces
        if not total:
            return 0.0
        score = self.faces * _fight(c["lives"])
        for card in pool:
            score += self.play_worth(c, card, effects, after)
        return score / total


def _square(pos: Sequence[int]) -> Square:
    return (pos[0], pos[1])


def decide(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The normal bot's action: a member of ``legal`` that is never ``leave_game``."""
    options = [a for a in legal if a["type"] != QUIT]
    actions = actions_by_type(options)
    if view["board"] is None or view["seat"] is None or not any(c["id"] == view["seat"] for c in view["characters"]):
        return options[0]  # lobby and setup belong to the waiting room, not to a bot
    reader = _Reader(view)
    me = reader.me
    if "cast_spell" in actions:
        return _spell_or_draw(reader, actions)
    if "draw_card" in actions:
        return actions["draw_card"][0]
    if "fortune_telling" in actions:
        return _fortune(reader, actions["fortune_telling"])
    if "play_card" in actions:
        after = me["pending_effects"]
        return max(
            actions["play_card"],
            key=lambda a: reader.play_worth(me, a["card"], me["active_effects"], after),
        )
    if "discard_to_limit" in actions:
        return max(actions["discard_to_limit"], key=lambda a: _hand_worth(reader, a["cards"]))
    if "join_combat" in actions:
        return _join(view, me, actions["join_combat"])
    if "critical_hit" in actions or "combat_draw" in actions or "draw_until_decided" in actions:
        return _combat(view, me, actions)
    if "choose_stat" in actions:
        return _stat(reader, actions["choose_stat"])
    if "dash" in actions:
        return _dash(reader, view, actions["dash"])
    return options[0]


def _spell_or_draw(reader: _Reader, actions: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """A Mage's turn: cast when the party's next turns gain more than the Mage's own draw now."""
    me = reader.me
    party = [c for c in reader.view["characters"] if c["status"] == "active"]
    here = _square(me["position"])
    best: dict[str, Any] = actions["draw_card"][0]
    if me["active_effects"]:
        return best  # cast last turn: casting again would throw this turn's effect away (§9.3)
    best_gain = reader.chances(me, here, me["active_effects"]) + 0.005  # a spell must beat drawing
    for action in actions["cast_spell"]:
        spell = action["spell"]
        gain = 0.0
        for c in party:
            pos = _square(c["position"])
            base = c["pending_effects"]
            plain = reader.chances(c, pos, base)
            if spell == "fortune_telling":
                # A miss is swapped for a fresh draw: worth it whenever the card lands no better.
                redraw = plain
                total = len(reader.numbers) + reader.faces
                if total:
                    kept = [reader.terminal(reader.card_landing(c, card, base, pos)) or 0.0 for card in reader.numbers]
                    spelled = (reader.faces * _fight(c["lives"]) + sum(max(k, redraw) for k in kept)) / total
                else:
                    spelled = plain
            elif spell == "good_luck":
                spelled = plain  # more cards in hand: not scored, so never chosen for its own sake
            else:
                spelled = reader.chances(c, pos, [*base, spell])
            gain += spelled - plain
        if gain > best_gain:
            best, best_gain = action, gain
    return best


def _fortune(reader: _Reader, options: list[dict[str, Any]]) -> dict[str, Any]:
    """Fortune Telling: swap a card when a fresh draw is worth more than keeping it."""
    me = reader.me
    now, after = me["active_effects"], me["pending_effects"]
    hand = me["hand"] or []
    movement = (reader.view["turn"] or {}).get("movement_card")
    pool = list(reader.numbers)
    if not hand or movement:  # the basic game: one movement card on the table
        keep = next(a for a in options if a["card"] is None)
        swap = next((a for a in options if a["card"] is not None), None)
        if swap is None:
            return keep
        kept = reader.play_worth(me, swap["card"], now, after)
        return swap if reader.draw_worth(me, now, after, pool) > kept else keep
    plays = {card: reader.play_worth(me, card, now, after) for card in set(hand) | set(pool)}
    total = len(pool) + reader.faces

    def hand_after_swap(out: str) -> float:
        rest = [plays[c] for c in hand if c != out]
        score = reader.faces * _fight(me["lives"])  # a boss: a fight, and no move this turn
        for card in pool:
            score += max([*rest, plays[card]])
        return score / total if total else 0.0

    def score(action: dict[str, Any]) -> float:
        card = action["card"]
        return max(plays[c] for c in hand) if card is None else hand_after_swap(card)

    return max(options, key=score)


def _hand_worth(reader: _Reader, discarded: list[str]) -> float:
    """The hand kept after the hand limit: its best next play, then its spread, from here."""
    me = reader.me
    kept = [c for c in me["hand"] or [] if c not in discarded]
    plays = [reader.play_worth(me, c, me["pending_effects"], ()) for c in kept]
    return max(plays, default=0.0) + 0.01 * sum(plays)


def _join(view: dict[str, Any], me: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
    """Help a neighbour's fight while the lives allow: fighters share the blows and the rewards."""
    # Each exchange costs the fighters about as many lives as it costs the boss, however many
    # fight, so joining shortens the fight without adding to its toll, and earns a reward.
    join = me["lives"] >= 3 or (me["lives"] >= 2 and view["combat"]["boss_lives"] <= 1)
    return next((a for a in options if a["join"] is join), options[0])


def _combat(view: dict[str, Any], me: dict[str, Any], actions: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    combat = view["combat"]
    boss_cards = [c for c in combat["boss_cards"] if not is_face(c)]
    top = value(boss_cards[0]) if boss_cards else 0
    # Three cards, keep the best: worth most against a high card, a barrage, or on the last lives.
    crit = top >= 6 or combat["barrage"] or me["lives"] <= 2
    for action in actions.get("critical_hit", []):
        if action["use"] is crit:
            return action
    for action in actions.get("combat_draw", []):
        if bool(action.get("critical_hit")) is crit:
            return action
    if "draw_until_decided" in actions:
        return actions["draw_until_decided"][0]
    return actions["combat_draw"][0]


def _stat(reader: _Reader, options: list[dict[str, Any]]) -> dict[str, Any]:
    """+1 Lives, unless +1 Speed puts an Exit within this square's reach and lives are plenty:
    Speed never comes off, and a high Speed overshoots the Exit from most squares (§3.2)."""
    me = reader.me
    here = _square(me["position"])
    lives = next(a for a in options if a["stat"] == "lives")
    speed = next((a for a in options if a["stat"] == "speed"), None)
    if speed is None or me["lives"] < 6 or me["speed"] + 1 > min(reader.board["width"], reader.board["height"]) // 4:
        return lives
    effects = me["pending_effects"]
    now = reader.worth(me, here, effects)
    faster = reader.worth(me, here, effects, speed=me["speed"] + 1)
    return speed if faster > now + 1 / 40 else lives


def _dash(reader: _Reader, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
    """The Athlete's dash: exactly the card's value, no Speed, no Haste, no Reversal (§5.11)."""
    me = reader.me
    here = _square(me["position"])
    card = view["combat"]["dash"]["card"]
    effects = me["pending_effects"] if view["turn"]["current"] != me["id"] else ()

    def score(action: dict[str, Any]) -> float:
        direction = action["direction"]
        if direction is None:
            return reader.worth(me, here, effects)
        end = reader.land(here, direction, value(card), me["class"] == "ninja")
        return reader.worth(me, end, effects)

    return max(options, key=score)
