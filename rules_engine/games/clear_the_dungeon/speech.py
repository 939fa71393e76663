"""Clear the Dungeon by typed commands (``rules_engine.speech``): each action's words, and the
answers in words, read from the player's view and legal actions alone.

A card in hand is named by its number, counted from 1 in order of arrival as the page numbers
the hand (its keys 1–9); a face-up monster by its card's code, "qh" for the queen of hearts:
each jack, queen and king is dealt once, so the name stays the same as long as it stands.

>>> from . import new_game, legal_actions, view
>>> state = new_game(7, ["p1"])
>>> [c.typed for c in commands(view(state, "p1"), legal_actions(state, "p1"))][-2:]
['end', 'resign']
"""

from __future__ import annotations

from typing import Any

from ...cards import SUIT_NAMES, Card
from ...speech import Command, Grid
from ...text import counted
from .data import (
    _SIDES,
    DEFEAT_POINTS,
    MAX_HITS,
    MONSTERS,
    ROW_SIZES,
    SPARE_HIT_POINTS,
    WIN_BONUS,
    place_name,
    power_value,
)

VERBS = frozenset({"play", "double", "bury", "peek", "top", "leave", "draw", "end", "resign"})

ITEM_WORDS = {
    "KH": ("bury", "put a card from your hand under the power deck"),
    "KD": ("peek", "look at the bottom card of the power deck"),
    "KS": ("double", "double one power card"),
    "KC": ("draw", "draw one more card"),
}
"""Each king item's command word and what it does (``help`` and the How to play page read it)."""

COMMAND_HELP: tuple[tuple[str, str], ...] = (
    ("play 2 qh", "Play card 2 of your hand on the queen of hearts."),
    ("double 2 qh", "Play card 2 doubled by the king of spades item on the queen of hearts."),
    ("double qh", "With the king of spades item, double the only card on the queen of hearts."),
    ("bury 2", "With the king of hearts item, put card 2 under the power deck."),
    ("peek", "With the king of diamonds item, look at the bottom card of the power deck."),
    ("top", "After a peek: move the bottom card to the top."),
    ("leave", "After a peek: leave it at the bottom."),
    ("draw", "With the king of clubs item, draw one more card."),
    ("end", "End the turn: the cards left in your hand become hits."),
    ("resign", "Give up the game."),
)
"""Every command form with an example, for the How to play page (the tests check it names
every verb)."""

QUESTIONS: tuple[tuple[str, str], ...] = (
    ("help", "The commands that work now, and what each does."),
    ("status", "The turn, what is asked of you, your hits, the monsters defeated and the power deck."),
    ("where", "The face-up monsters facing you, lowest row first, and what each still needs (look does the same)."),
    ("hand", "Your hand by number, with each card's worth, your king items and a known bottom card."),
    ("board", "The dungeon row by row, top row first."),
    ("log", "The last lines of the game's log."),
    ("score", "The score so far and what a win would add."),
)
"""What each question answers in this game, for the How to play page."""


def card_name(code: str) -> str:
    return Card.parse(code).name


def monster_code(code: str) -> str:
    """How a monster is typed: its card's code in lower case ("qh")."""
    return code.lower()


def _hand_number(hand: list[str], code: str) -> int:
    """A card's number in the hand (the first of two jokers: either does the same)."""
    return hand.index(code) + 1


def _monsters(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The face-up monsters by position."""
    return {d["pos"]: d for d in view["dungeon"] if d["state"] == "monster"}


def _after(monster: dict[str, Any], value: int) -> str:
    """What placing a card worth ``value`` does to ``monster``."""
    if len(monster["attack"]) == 2:
        return "finishes it"
    return f"{monster['sum'] + value} of {monster['power']}"


def commands(view: dict[str, Any], legal: list[dict[str, Any]]) -> list[Command]:
    """Every legal action as a typed command (the module docstring says how cards are named)."""
    hand = view["hand"]
    monsters = _monsters(view)
    out = []
    for action in legal:
        kind = action["type"]
        if kind == "play":
            number = _hand_number(hand, action["card"])
            monster = monsters[action["target"]]
            value = power_value(action["card"]) * (2 if action.get("double", False) else 1)
            doubled = " doubled by the king of spades" if action.get("double", False) else ""
            out.append(
                Command(
                    "double" if action.get("double", False) else "play",
                    f"{number} {monster_code(monster['card'])}",
                    action,
                    f"Play card {number}, the {card_name(action['card'])}{doubled}, on the "
                    f"{card_name(monster['card'])}: {_after(monster, value)}.",
                )
            )
        elif kind == "use_item":
            out.append(_item_command(view, action))
        elif kind == "peek_decision":
            card = card_name(view["pending"]["card"]) if view["pending"] else "the bottom card"
            if action["move_to_top"]:
                out.append(Command("top", "", action, f"Move the {card} to the top of the power deck."))
            else:
                out.append(Command("leave", "", action, f"Leave the {card} at the bottom of the power deck."))
        elif kind == "end_turn":
            out.append(Command("end", "", action, _end_words(view)))
        else:
            out.append(Command("resign", "", action, "Give up the game."))
    return out


def _item_command(view: dict[str, Any], action: dict[str, Any]) -> Command:
    item = action["item"]
    word, does = ITEM_WORDS[item]
    if item == "KH":
        number = _hand_number(view["hand"], action["card"])
        return Command(
            word,
            str(number),
            action,
            f"King of hearts: put card {number}, the {card_name(action['card'])}, under the power deck.",
        )
    if item == "KS":
        monster = _monsters(view)[action["target"]]
        placed = monster["attack"][0]
        return Command(
            word,
            monster_code(monster["card"]),
            action,
            f"King of spades: double the {card_name(placed['card'])} on the {card_name(monster['card'])}: "
            f"{monster['sum'] + placed['value']} of {monster['power']}.",
        )
    king = "King of diamonds" if item == "KD" else "King of clubs"
    return Command(word, "", action, f"{king}: {does}.")


def _end_words(view: dict[str, Any]) -> str:
    cost = view["end_turn_cost"]
    if not cost or not cost["hits"]:
        return "End the turn."
    fatal = f"; hit {MAX_HITS} loses the game" if cost["fatal"] else ""
    return f"End the turn: {counted(cost['hits'], 'card')} become hits, {cost['hits_after']} of {MAX_HITS}{fatal}."


# --- answers -----------------------------------------------------------------------------


def monster_words(monster: dict[str, Any]) -> str:
    """A face-up monster in words, as the page's picture of it is read out."""
    suit = SUIT_NAMES[monster["suit"]][:-1]
    attack = monster["attack"]
    power = monster["power"]
    head = f"{card_name(monster['card'])} ({monster_code(monster['card'])}), power {power}"
    if not attack:
        return f"{head}: no cards yet; needs two cards adding up to {power} or more, then a {suit} or a joker"
    if len(attack) == 1:
        placed = card_name(attack[0]["card"]) + (" doubled" if attack[0]["doubled"] else "")
        nxt = f"the next card must be worth {monster['short']} or more" if monster["short"] else "any next card will do"
        return f"{head}: {placed} placed, {monster['sum']} of {power}; {nxt}"
    names = " and ".join(card_name(a["card"]) for a in attack)
    return f"{head}: {names} placed, {monster['sum']} of {power}; finish it with a {suit} or a joker"


def _place_words(place: dict[str, Any]) -> str:
    if place["state"] == "hidden":
        return "face down"
    if place["state"] == "empty":
        return "empty"
    return monster_words(place)


def _status(view: dict[str, Any]) -> str:
    if view["result"]:
        return f"Game over. {view['result']['text']}"
    tally = (
        f"Hits: {view['hits']} of {MAX_HITS}. Monsters defeated: {view['defeated']} of {MONSTERS}. "
        f"Power deck: {counted(view['deck_count'], 'card')}."
    )
    if view["seat"] is None:
        return f"You are watching. Turn {view['turn']}. {tally}"
    if view["pending"]:
        card = card_name(view["pending"]["card"])
        return (
            f"Turn {view['turn']}: the bottom card of the power deck is the {card}. "
            f"Type top to move it to the top, or leave to leave it. {tally}"
        )
    return (
        f"Turn {view['turn']}, your move: play cards from your hand on face-up monsters, or end the turn; "
        f"cards left in your hand become hits. {tally}"
    )


def _where(view: dict[str, Any]) -> str:
    # The lowest row lies nearest the player (it is played first), left to right within a row.
    monsters = sorted(_monsters(view).values(), key=lambda m: (-m["row"], m["col"]))
    facing = (
        "Facing you: " + ". ".join(f"{place_name(m['pos']).capitalize()}: {monster_words(m)}" for m in monsters) + "."
        if monsters
        else "No monster is face up."
    )
    hidden = [d for d in view["dungeon"] if d["state"] == "hidden"]
    rows = sorted({d["row"] for d in hidden})
    behind = (
        f" Face down behind them: {counted(len(hidden), 'card')}, in rows {', '.join(map(str, rows))}." if rows else ""
    )
    return facing + behind


def _hand(view: dict[str, Any]) -> str:
    whose = "Your hand" if view["seat"] else "The player's hand"
    hand = view["hand"]
    cards = (
        "; ".join(f"{i}: {card_name(c)}, worth {power_value(c)}" for i, c in enumerate(hand, 1)) if hand else "no cards"
    )
    items = view["inventory"]
    kings = (
        " King items: " + ", ".join(f"{card_name(k)} ({ITEM_WORDS[k][0]}: {ITEM_WORDS[k][1]})" for k in items) + "."
        if items
        else ""
    )
    bottom = f" Known bottom card of the power deck: {card_name(view['known_bottom'])}." if view["known_bottom"] else ""
    return f"{whose}: {cards}.{kings}{bottom}"


def _board(view: dict[str, Any]) -> str:
    rows = []
    for row, size in enumerate(ROW_SIZES, start=1):
        places = [d for d in view["dungeon"] if d["row"] == row]
        if size == 1:
            rows.append(f"Row {row}: {_place_words(places[0])}.")
        else:
            sides = _SIDES[size]
            rows.append(f"Row {row}: " + "; ".join(f"{sides[d['col'] - 1]} {_place_words(d)}" for d in places) + ".")
    return " ".join(rows)


def _score(view: dict[str, Any]) -> str:
    if view["result"]:
        return f"Score {sum(view['result']['scores'].values())}. {view['result']['text']}"
    return (
        f"{view['defeated']} of {MONSTERS} monsters defeated: {DEFEAT_POINTS * view['defeated']} points so far. "
        f"Clearing the dungeon adds {WIN_BONUS}, and {SPARE_HIT_POINTS} for each hit to spare "
        f"({view['hits_left']} now)."
    )


ANSWERS = {"status": _status, "where": _where, "hand": _hand, "board": _board, "score": _score}


def describe(view: dict[str, Any], topic: str) -> str | None:
    """The answer to a question (``rules_engine.speech.TOPICS``), or None for one it has no answer to."""
    answer = ANSWERS.get(topic)
    return answer(view) if answer else None


def grid(view: dict[str, Any]) -> Grid:
    """The dungeon's rows, top row first, each place in words (rows hold 1 to 3 places)."""
    rows = [[_place_words(d) for d in view["dungeon"] if d["row"] == row] for row in range(1, len(ROW_SIZES) + 1)]
    return Grid("The dungeon, top row first", rows)
