"""Hebrac's Dungeon by typed commands (``rules_engine.speech``): each action's words, and the
answers in words, read from the seat's view and legal actions alone.

A chamber is typed as the page numbers it, row then column ("enter 2 3" for chamber (2,3)); a
card of the bag by its code ("drink 5h", "call jd"); a spell by its name ("cast healing",
"cast teleport down"). Each spell is cast with the potions the page ticks first (the cheapest
that pay for it), and aimed at the first chamber it may aim at, as its legal action says.

>>> from . import new_game, legal_actions, view
>>> state = new_game(7, ["p1"])
>>> [c.typed for c in commands(view(state, "p1"), legal_actions(state, "p1"))]
['enter 1 1', 'enter 1 4', 'enter 3 1', 'enter 3 4', 'resign']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...cards import Card
from ...speech import Command, Grid
from ...text import counted
from . import data

VERBS = frozenset(
    {
        "enter",
        "descend",
        "fight",
        "trade",
        "offer",
        "buy",
        "decline",
        "heal",
        "take",
        "play",
        "attack",
        "finish",
        "drink",
        "call",
        "cast",
        "peek",
        "stop",
        "destroy",
        "drop",
        "resign",
    }
)

COMMAND_HELP: tuple[tuple[str, str], ...] = (
    ("enter 2 3", "Enter chamber (2,3): row 2, column 3."),
    ("descend", "Go down to the next level, once enough chambers are cleared."),
    ("attack", "Attack in a battle: turn the top card of the Hand Deck."),
    ("finish", "Finish an attack that fell short, after drinking strength potions."),
    ("drink 5h", "Drink a potion of your bag: a life potion, or a strength potion in a battle."),
    ("call jd", "Call a prisoner of your bag into the battle."),
    ("cast healing", "Cast a spell by its name, paid with the cheapest potions that reach its cost."),
    ("cast teleport 2 3", "Cast Teleport to chamber (2,3); cast teleport down goes to the next level."),
    ("fight", "Fight the adventurer."),
    ("trade", "Propose a trade to the adventurer."),
    ("offer", "Offer the adventurer the cards that pay for his treasure."),
    ("buy", "Buy the merchant's treasure with your gems."),
    ("decline", "Decline a trade, a merchant or Hebrac's game."),
    ("heal", "Let the white priestess heal you (she keeps the treasure)."),
    ("take", "Take the white priestess's treasure."),
    ("play", "Play Hebrac's game."),
    ("peek 2 3", "Remote Vision: look at the face-down enemy of chamber (2,3)."),
    ("stop", "Stop peeking."),
    ("destroy", "Let the Genie of Death destroy the enemies of the chambers it names."),
    ("drop 5h", "Drop a treasure of your bag when it holds too many."),
    ("resign", "Give up the game."),
)
"""Every command form with an example, for the How to play page (the tests check it names
every verb)."""

QUESTIONS: tuple[tuple[str, str], ...] = (
    ("help", "The commands that work now, and what each does."),
    ("status", "What is asked of you now, your life, the level and the chambers cleared."),
    (
        "where",
        "Your chamber, what faces you, the chambers north, east, south and west, and where else you can go "
        "(look does the same).",
    ),
    ("hand", "Your bag, card by card, and the known top cards of the Hand Deck."),
    ("board", "The level's chambers row by row."),
    ("log", "The last lines of the game's log."),
    ("score", "The score so far and the legendary treasures you hold."),
)
"""What each question answers in this game, for the How to play page."""

DIRECTIONS = (("North", -1, 0), ("East", 0, 1), ("South", 1, 0), ("West", 0, -1))

PHASE_WORDS = {
    "start_level": "choose a corner chamber to enter",
    "explore": "enter a chamber next to one you have visited",
    "battle": "a battle: drink strength potions, call prisoners or cast one spell, then attack",
    "after_draw": "the attack falls short: drink strength potions, then finish the attack",
    "adventurer": "a fellow adventurer: fight him or propose a trade",
    "trade": "a trade: offer cards, or decline",
    "merchant": "a merchant: buy his treasure with gems, or decline",
    "priestess": "a white priestess: be healed, or take the treasure",
    "hebrac": "Hebrac offers his game: play or decline",
    "hebrac_reward": "Hebrac's game for a card: play or decline",
    "remote_vision": "Remote Vision: peek into chambers, or stop",
    "genie_of_death": "the Genie of Death: destroy the enemies it names",
    "overflow": "your bag is over its limit: drop one treasure",
}
"""What each phase asks of the player (``status``)."""

_TREASURE_NAMES = {code: row["name"] for row in data.TREASURES for code in row["codes"]}


def card_name(code: str) -> str:
    return Card.parse(code).name


def typed_card(code: str) -> str:
    """How a card is typed: its code in lower case ("5h")."""
    return code.lower()


def typed_chamber(chamber: Sequence[int]) -> str:
    return f"{chamber[0]} {chamber[1]}"


def chamber_name(chamber: Sequence[int]) -> str:
    return f"({chamber[0]},{chamber[1]})"


def treasure_words(code: str) -> str:
    """A treasure card in words: "5 of hearts, life potion"."""
    kind = data.LEGENDARY_NAMES.get(code) or _TREASURE_NAMES[code].lower()
    return f"{card_name(code)}, {kind}"


def enemy_words(code: str) -> str:
    """An enemy card in words: "7 of spades, a mercenary"."""
    rank = data.rank(code)
    if rank == "A":
        kind = "no guardian"
    elif rank == "J":
        kind = "a fellow adventurer"
    elif rank == "Q":
        kind = "a white priestess" if data.is_red_queen(code) else "a black priestess"
    elif rank == "K":
        kind = "a merchant"
    elif code == "JK":
        kind = "Hebrac"
    else:
        kind = {"S": "a mercenary", "H": "an amazon warrior", "C": "an evil magician", "D": "a demon"}[
            str(data.suit(code))
        ]
    return f"{card_name(code)}, {kind}"


def chamber_words(cell: dict[str, Any]) -> str:
    """What the seat knows of a chamber, as the page's picture of it is read out."""
    if cell["cleared"]:
        return "cleared"
    words = ["visited" if cell["visited"] else "unexplored"]
    if not cell["enemy_present"]:
        words.append("no enemy")
    elif cell["enemy"]:
        words.append("enemy " + enemy_words(cell["enemy"]))
    elif cell["remembered"]:
        words.append("enemy face down, you saw " + enemy_words(cell["remembered"]))
    else:
        words.append("enemy face down")
    if cell["treasure_present"]:
        words.append("treasure " + (treasure_words(cell["treasure"]) if cell["treasure"] else "face down"))
    if cell["robbed"]:
        words.append("robbed")
    return ", ".join(words)


def _cell(view: dict[str, Any], chamber: Sequence[int]) -> dict[str, Any]:
    cell: dict[str, Any] = view["grid"][chamber[0] - 1][chamber[1] - 1]
    return cell


def _cards(codes: Sequence[str]) -> str:
    return ", ".join(card_name(c) for c in codes) or "nothing (the Bag of Meres pays)"


# --- commands ----------------------------------------------------------------------------


def commands(view: dict[str, Any], legal: list[dict[str, Any]]) -> list[Command]:
    """Every legal action as a typed command (the module docstring says how things are named)."""
    return [_command(view, action) for action in legal]


def _command(view: dict[str, Any], action: dict[str, Any]) -> Command:
    kind = action["type"]
    if kind == "move":
        chamber = (action["row"], action["col"])
        return Command(
            "enter",
            typed_chamber(chamber),
            action,
            f"Enter chamber {chamber_name(chamber)}: {chamber_words(_cell(view, chamber))}.",
        )
    if kind == "peek":
        chamber = (action["row"], action["col"])
        return Command("peek", typed_chamber(chamber), action, f"Look at the enemy of chamber {chamber_name(chamber)}.")
    if kind in ("drink", "call_prisoner", "drop"):
        word, says = {
            "drink": ("drink", "Drink the {}."),
            "call_prisoner": ("call", "Call the prisoner {} into the battle: +3 to every attack."),
            "drop": ("drop", "Drop the {} under the Hand Deck."),
        }[kind]
        return Command(word, typed_card(action["card"]), action, says.format(treasure_words(action["card"])))
    if kind == "cast":
        return _cast(action)
    if kind == "offer":
        return Command("offer", "", action, f"Offer the adventurer {_cards(action['cards'])}.")
    if kind == "buy":
        fake = " The ace would be a fake: you hold it already." if view["encounter"]["fake_ace"] else ""
        return Command("buy", "", action, f"Buy the treasure with {_cards(action['gems'])}.{fake}")
    if kind == "priestess":
        if action["choice"] == "heal":
            return Command("heal", "", action, "Be healed to full life; she keeps the treasure.")
        return Command("take", "", action, "Take her treasure.")
    word, says = {
        "descend": ("descend", f"Go down to level {view['level'] + 1}."),
        "fight": ("fight", "Fight the adventurer: his life is 10."),
        "propose_trade": ("trade", "Propose a trade: he names the worth of his treasure."),
        "decline": ("decline", "Decline."),
        "play": ("play", "Play Hebrac's game: a red card wins, a black card or a joker costs life."),
        "attack": ("attack", "Attack: turn the top card of the Hand Deck."),
        "finish_attack": ("finish", "Finish the attack."),
        "stop_peeking": ("stop", "Stop peeking: the points left are lost."),
        "destroy": ("destroy", ""),
        "resign": ("resign", "Give up the game."),
    }[kind]
    if kind == "destroy":
        says = "Destroy the enemies of chambers " + ", ".join(chamber_name(t) for t in action["targets"]) + "."
    return Command(word, "", action, says)


def _cast(action: dict[str, Any]) -> Command:
    spell = data.SPELLS[action["spell"]]
    argument = spell["name"].lower()
    paid = f"paid with {_cards(action['potions'])}"
    target = action.get("target")
    if target == "next_level":
        argument += " down"
        aim = " to the next level"
    elif target is not None:
        argument += " " + typed_chamber(target)
        aim = f" on chamber {chamber_name(target)}"
    elif action.get("targets"):
        aim = " on chambers " + ", ".join(chamber_name(t) for t in action["targets"])
    else:
        aim = ""
    return Command("cast", argument, action, f"Cast {spell['name']}{aim}, {paid}: {spell['text']}")


# --- answers -----------------------------------------------------------------------------


def _tally(view: dict[str, Any]) -> str:
    return (
        f"Life {view['life']} of {view['max_life']}. Level {view['level']}: {view['cleared']} of "
        f"{view['chambers']} chambers cleared, {view['descent_threshold']} let you go down."
    )


def _status(view: dict[str, Any]) -> str:
    if view["result"]:
        return f"Game over. {view['result']['text']}"
    asked = PHASE_WORDS.get(view["phase"], "")
    if view["seat"] is None:
        return f"You are watching: {asked}. {_tally(view)}"
    return f"Your move: {asked}. {_tally(view)}"


def _facing(view: dict[str, Any]) -> str:
    """What faces the player in the chamber: the battle or the encounter, or nothing."""
    fight, meeting = view["battle"], view["encounter"]
    if fight:
        forecast = fight["forecast"]
        needs = (
            "any attack card wins"
            if not forecast["worth_to_win"]
            else f"the attack card must be worth {forecast['worth_to_win']} or more to win the round"
        )
        return f" You fight the {enemy_words(fight['enemy'])}: its life {fight['enemy_life']}; {needs}."
    if meeting:
        treasure = treasure_words(meeting["treasure"]) if meeting["treasure"] else "face down"
        price = f", price {meeting['price']} in gems" if meeting["price"] is not None else ""
        return f" Facing you: the {enemy_words(meeting['guardian'])}, guarding a treasure: {treasure}{price}."
    return ""


def _where(view: dict[str, Any]) -> str:
    targets = view["choices"]["targets"]["move"] if view["choices"] else []
    reachable = {tuple(t) for t in targets}
    position = view["position"]
    if position is None:
        corners = ", ".join(chamber_name(t) for t in targets)
        return (
            f"You stand at the entrance of level {view['level']}. You can enter a corner: {corners}."
            if corners
            else f"Level {view['level']}: not entered yet."
        )
    here = _cell(view, position)
    parts = [f"You are in chamber {chamber_name(position)}, {chamber_words(here)}.{_facing(view)}"]
    for word, dr, dc in DIRECTIONS:
        row, col = position[0] + dr, position[1] + dc
        if not (1 <= row <= view["rows"] and 1 <= col <= view["cols"]):
            parts.append(f"{word}: the wall.")
            continue
        enter = "; you can enter" if (row, col) in reachable else ""
        parts.append(f"{word}, {chamber_name((row, col))}: {chamber_words(_cell(view, (row, col)))}{enter}.")
    around = {(position[0] + dr, position[1] + dc) for _, dr, dc in DIRECTIONS}
    farther = [chamber_name(t) for t in targets if tuple(t) not in around]
    if farther:
        parts.append(f"You can also enter {', '.join(farther)}.")
    return " ".join(parts)


def _hand(view: dict[str, Any]) -> str:
    whose = "Your bag" if view["seat"] else "The bag"
    bag = "; ".join(treasure_words(c) for c in view["inventory"]) or "empty"
    known = view["hand_deck"]["known_top"]
    top = f" Next cards of the Hand Deck, top first: {', '.join(card_name(c) for c in known)}." if known else ""
    return f"{whose}: {bag}.{top} Hand Deck: {counted(view['hand_deck']['count'], 'card')}."


def _board(view: dict[str, Any]) -> str:
    return " ".join(
        f"Row {r}: " + "; ".join(f"{chamber_name((r, c))} {chamber_words(cell)}" for c, cell in enumerate(row, 1)) + "."
        for r, row in enumerate(view["grid"], 1)
    )


def _score(view: dict[str, Any]) -> str:
    aces = [data.LEGENDARY_NAMES[a] for a in data.LEGENDARY if a in view["inventory"]]
    held = f"You hold {', '.join(aces)}" if aces else "You hold none of the four legendary treasures"
    if view["result"]:
        return f"Score {view['score']}. {view['result']['text']}"
    return f"Score {view['score']} so far. {held}; all four win the game."


ANSWERS = {"status": _status, "where": _where, "hand": _hand, "board": _board, "score": _score}


def describe(view: dict[str, Any], topic: str) -> str | None:
    """The answer to a question (``rules_engine.speech.TOPICS``), or None for one it has no answer to."""
    answer = ANSWERS.get(topic)
    return answer(view) if answer else None


def grid(view: dict[str, Any]) -> Grid:
    """The level's chambers row by row, each in words, and the player's chamber."""
    rows = [[chamber_words(cell) for cell in row] for row in view["grid"]]
    position = view["position"]
    you = (position[0] - 1, position[1] - 1) if position else None
    return Grid(f"Level {view['level']}, row by row", rows, you)
