"""Dungeon Cards by typed commands, and its answers in words (``rules_engine.speech``).

Everything here reads the seat's view and its legal actions, never the state: the hand is the
viewer's own (the view hides the others'), the board is public.

Squares are named as the board's labels read them: column from the left, row from the bottom.
Cards in the hand are numbered 1, 2, 3 as ``hand`` reads them, so ``play 2`` plays the second.

>>> view = {"phase": "awaiting_play", "seat": "ann", "characters": [
...     {"id": "ann", "class_name": "Swordsman", "speed": 1, "active_effects": [], "hand": ["7H", "3C"],
...      "position": [5, 1], "status": "active", "level": 1, "lives": 10, "max_lives": 10,
...      "turns_taken": 1, "bosses_defeated": [], "hand_count": 2}]}
>>> legal = [{"type": "play_card", "card": "7H"}, {"type": "play_card", "card": "3C"},
...          {"type": "leave_game"}]
>>> [(c.typed, c.says) for c in commands(view, legal)]  # doctest: +NORMALIZE_WHITESPACE
[('play 1', 'Play the 7 of hearts: move left 8.'), ('play 2', 'Play the 3 of clubs: move right 4.'),
 ('leave game', 'Leave the game for good.')]
>>> describe(view, "hand")
'Your hand: 1, the 7 of hearts: left 8. 2, the 3 of clubs: right 4.'
"""

from __future__ import annotations

from typing import Any

from ...cards import Card, spoken
from ...speech import Command, Grid
from .data import BOSSES, CLASSES, REVERSED_DIRECTION, SPELLS, SUIT_DIRECTIONS

Action = dict[str, Any]

VERBS = frozenset(
    {
        "join",
        "class",
        "start",
        "leave",
        "exit",
        "pit",
        "draw",
        "cast",
        "swap",
        "keep",
        "play",
        "discard",
        "stay",
        "crit",
        "save",
        "gain",
        "dash",
    }
)
"""Every word a Dungeon Cards command starts with."""

COMMAND_HELP: tuple[tuple[str, str], ...] = (
    ("join", "Join the party in the waiting room; next to a fight, join the fight."),
    (
        "class swordsman",
        "In the waiting room: play that class (ninja, athlete, soldier, tank, rogue, swordsman, mage, healer).",
    ),
    ("start", "The host starts the game once every seat has a class."),
    ("start 5 1", "When the host chooses the start square: start on column 5, row 1."),
    ("exit 4 8", "When the host places the markers by hand: put the Exit on column 4, row 8."),
    ("pit 8 8", "When the host places the markers by hand: put a Pit on column 8, row 8."),
    ("draw", "Draw your turn's card; in a fight, the lead fighter draws for the next exchange."),
    ("draw all", "In a fight: draw exchange after exchange until the fight is decided."),
    ("draw crit", "A Rogue leading a fight: draw with a Critical Hit."),
    ("crit", "A Rogue helping in a fight: use the Critical Hit this exchange."),
    ("save crit", "A Rogue helping in a fight: keep the Critical Hit for later."),
    ("cast haste", "A Mage, instead of drawing: cast a spell (reversal, fortune telling, haste, good luck)."),
    ("swap", "Fortune Telling: swap the card you drew for a new one."),
    ("swap 2", "Fortune Telling with a hand of cards: swap card 2 of your hand for a new one."),
    ("keep", "Fortune Telling: keep the cards."),
    ("play 2", "With a hand of three cards: play card 2 of your hand."),
    ("discard 1 3", "With too many cards: discard cards 1 and 3 of your hand."),
    ("stay", "Next to a fight: stay out of it; an Athlete after a fight: do not dash."),
    ("gain lives", "After a boss is beaten: one more life, and one more maximum."),
    ("gain speed", "After a boss is beaten: one more Speed."),
    ("dash up", "An Athlete after a fight: dash up, down, left or right."),
    ("leave game", "Leave the game for good: your explorer leaves the dungeon."),
)
"""Every command form with an example, for the How to play page (the tests check it names
every verb)."""

QUESTIONS: tuple[tuple[str, str], ...] = (
    ("help", "The commands that work now, and what each does."),
    ("status", "The round, whose turn it is, what is asked and of whom, and the fight if there is one."),
    (
        "where",
        "Your square, the Exit and the Pits by direction and distance, the edges, stop walls and the "
        "other explorers (look does the same).",
    ),
    ("hand", "Your cards by number, with the way and distance each would move you."),
    ("board", "The board row by row, top row first: markers, redirects, stop walls and explorers."),
    ("log", "The last lines of the game's log."),
    ("score", "Every explorer's level, lives, Speed, turns and bosses beaten, and the cards left in the deck."),
)
"""What each question answers in this game, for the How to play page."""

REWARD_WORDS = {"lives": "Take one more life, and one more maximum.", "speed": "Take one more Speed."}
"""What ``help`` says of each reward for beating a boss."""

SPELL_WORDS = {key: spell["name"].lower() for key, spell in SPELLS.items()}
"""A spell as it is typed ("fortune telling")."""


def card_words(code: str) -> str:
    """A card as it is read: "the 7 of hearts"."""
    return f"the {Card.parse(code).name}"


def square_words(square: list[int]) -> str:
    return f"column {square[0]}, row {square[1]}"


def _me(view: dict[str, Any]) -> dict[str, Any] | None:
    character: dict[str, Any]
    for character in view.get("characters") or []:
        if character["id"] == view.get("seat"):
            return character
    return None


def _names(view: dict[str, Any]) -> dict[str, str]:
    return {c["id"]: ("you" if c["id"] == view.get("seat") else c["id"]) for c in view.get("characters") or []}


def card_move(character: dict[str, Any], code: str) -> tuple[str, int]:
    """Where a number card moves ``character`` (§4.3, §4.4), from what its view shows."""
    suit = code[-1]
    effects = character.get("active_effects") or []
    direction = REVERSED_DIRECTION[suit] if "reversal" in effects else SUIT_DIRECTIONS[suit]
    rank = code[:-1]
    distance = (1 if rank == "A" else int(rank)) + character["speed"] + (1 if "haste" in effects else 0)
    return direction, distance


def _hand_number(hand: list[str], code: str) -> str:
    return str(hand.index(code) + 1) if code in hand else code.lower()


def _command(view: dict[str, Any], action: Action) -> Command:
    """The typed form of one legal action."""
    kind = action["type"]
    me = _me(view)
    hand = list(me["hand"] or []) if me else []
    if kind == "join_game":
        return Command("join", "", action, "Join the party.")
    if kind == "choose_class":
        cls = CLASSES[action["class"]]
        return Command("class", action["class"], action, f"Play the {cls['name']}: {cls['summary']}")
    if kind == "start_game":
        return Command("start", "", action, "Start the game.")
    if kind == "leave_game":
        return Command("leave", "game", action, "Leave the game for good.")
    if kind == "choose_start":
        x, y = action["square"]
        return Command("start", f"{x} {y}", action, f"Start on {square_words(action['square'])}.")
    if kind == "place_marker":
        x, y = action["square"]
        marker = "the Exit" if action["kind"] == "exit" else "a Pit"
        return Command(action["kind"], f"{x} {y}", action, f"Put {marker} on {square_words(action['square'])}.")
    if kind == "draw_card":
        return Command("draw", "", action, "Draw your turn's card.")
    if kind == "cast_spell":
        spell = SPELLS[action["spell"]]
        return Command("cast", SPELL_WORDS[action["spell"]], action, f"Cast {spell['name']}: {spell['summary']}")
    if kind == "fortune_telling":
        if action["card"] is None:
            return Command("keep", "", action, "Keep the cards.")
        if view.get("options", {}).get("turn_mode") == "three_card_hand":
            number = _hand_number(hand, action["card"])
            return Command("swap", number, action, f"Swap {card_words(action['card'])} for a new card.")
        return Command("swap", "", action, f"Swap {card_words(action['card'])} for a new card.")
    if kind == "play_card":
        says = f"Play {card_words(action['card'])}"
        if me is not None:
            direction, distance = card_move(me, action["card"])
            says += f": move {direction} {distance}"
        return Command("play", _hand_number(hand, action["card"]), action, f"{says}.")
    if kind == "discard_to_limit":
        numbers = " ".join(_hand_number(hand, code) for code in action["cards"])
        named = " and ".join(card_words(code) for code in action["cards"])
        return Command("discard", numbers, action, f"Discard {named}.")
    if kind == "join_combat":
        if action["join"]:
            return Command("join", "", action, "Join the fight.")
        return Command("stay", "", action, "Stay out of the fight.")
    if kind == "combat_draw":
        if action.get("critical_hit"):
            return Command("draw", "crit", action, "Draw with a Critical Hit: draw two cards and keep the best.")
        return Command("draw", "", action, "Draw for the next exchange.")
    if kind == "draw_until_decided":
        return Command("draw", "all", action, "Draw until the fight is decided.")
    if kind == "critical_hit":
        if action["use"]:
            return Command("crit", "", action, "Use your Critical Hit this exchange.")
        return Command("save", "crit", action, "Keep your Critical Hit for later.")
    if kind == "choose_stat":
        return Command(
            "gain",
            action["stat"],
            action,
            REWARD_WORDS[action["stat"]],
        )
    if kind == "dash":
        if action["direction"] is None:
            return Command("stay", "", action, "Do not dash.")
        return Command("dash", action["direction"], action, f"Dash {action['direction']}.")
    raise ValueError(f"no command for {kind}")  # every legal action type is named above


def commands(view: dict[str, Any], legal: list[Action]) -> list[Command]:
    """Every action in ``legal`` as its typed command, in the same order."""
    return [_command(view, action) for action in legal]


# --- answers --------------------------------------------------------------------------------


PHASE_ASKS = {
    "placing_markers": "the host places the markers",
    "awaiting_turn_action": "draw a card",
    "awaiting_fortune": "Fortune Telling: swap a card or keep the cards",
    "awaiting_play": "play a card from the hand",
    "awaiting_join": "explorers next to the fight decide whether to join it",
    "awaiting_combat_draw": "the lead fighter draws for the next exchange",
    "awaiting_reward": "the winners of the fight choose their reward",
    "awaiting_dash": "the Athlete decides whether to dash",
    "awaiting_hand_discard": "discard down to three cards",
}


def _status(view: dict[str, Any]) -> str:
    names = _names(view)
    if view.get("stage") == "finished" or view.get("outcome"):
        return _ending(view)
    if view.get("stage") == "lobby":
        chosen = ", ".join(
            f"{names.get(p, p)}: {CLASSES[c]['name'] if c else 'no class yet'}" for p, c in view["classes"].items()
        )
        return f"The waiting room. Classes: {chosen}. The host starts the game once every seat has a class."
    if view.get("stage") == "setup":
        return f"Setting up the board: {PHASE_ASKS.get(view['phase'], 'the host sets up the board')}."
    turn = view.get("turn") or {}
    current = turn.get("current")
    whose = "your turn" if current == view.get("seat") else f"{current}'s turn"
    parts = [f"Round {turn.get('round_number')} of {turn.get('round_limit')}, {whose}."]
    waiting = [a["seat"] for a in view.get("awaiting") or [] if a["seat"] != view.get("seat")]
    ask = PHASE_ASKS.get(view.get("phase", ""))
    if ask:
        parts.append(f"Now: {ask}.")
    if waiting:
        parts.append(f"Waiting for {', '.join(waiting)}.")
    combat = view.get("combat")
    if combat:
        parts.append(_fight(view, combat))
    if any(a["seat"] == view.get("seat") for a in view.get("awaiting") or []):
        parts.append("Type help for your commands.")
    return " ".join(parts)


def _fight(view: dict[str, Any], combat: dict[str, Any]) -> str:
    names = _names(view)
    fighters = ", ".join(names.get(f, f) for f in combat["fighters"])
    text = (
        f"A fight: the {combat['boss_name']} has {combat['boss_lives']} of {combat['boss_max_lives']} lives; "
        f"fighting it: {fighters}."
    )
    if combat.get("boss_cards"):
        text += f" The {combat['boss_name']} drew {', '.join(card_words(c) for c in combat['boss_cards'])}."
    last = combat.get("last_exchange")
    if last:
        text += f" Exchange {last['number']} is over."
    return text


def _ending(view: dict[str, Any]) -> str:
    outcome = view.get("outcome") or {}
    result = outcome.get("result")
    if result == "victory":
        return f"The game is over. Victory: {', '.join(outcome.get('escaped') or [])} escaped the dungeon."
    if result == "team_victory":
        return f"The game is over. Team victory: {', '.join(outcome.get('escaped') or [])} escaped."
    if result == "abandoned":
        return "The game is over: everyone left."
    return f"The game is over. Defeat: {outcome.get('reason', 'nobody escaped')}."


def _offset_words(frm: list[int], to: list[int]) -> str:
    """How far ``to`` lies from ``frm`` in board words: "3 squares up and 2 right".

    >>> _offset_words([5, 1], [4, 8]), _offset_words([5, 1], [6, 1]), _offset_words([5, 1], [5, 1])
    ('7 squares up and 1 left', '1 square right', 'on your square')
    """
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    legs: list[str] = []
    for d, way in ((dy, "up" if dy > 0 else "down"), (dx, "right" if dx > 0 else "left")):
        if d:
            unit = "" if legs else (" square" if abs(d) == 1 else " squares")  # "3 squares up and 2 right"
            legs.append(f"{abs(d)}{unit} {way}")
    return " and ".join(legs) if legs else "on your square"


def _where(view: dict[str, Any]) -> str | None:
    board = view.get("board")
    if board is None:
        return None
    me = _me(view)
    if me is None or me["position"] is None:
        lines = [f"The board is {board['width']} columns by {board['height']} rows."]
        if board.get("start"):
            lines.append(f"The start is on {square_words(board['start'])}.")
        lines += [f"The Exit is on {square_words(s)}." for s in board["exits"]]
        lines += [f"A Pit is on {square_words(s)}." for s in board["pits"]]
        if me is not None:
            lines.insert(0, f"You are no longer on the board ({me['status']}).")
        return " ".join(lines)
    pos = me["position"]
    x, y = pos
    parts = [f"You are on {square_words(pos)} of a board {board['width']} columns by {board['height']} rows."]
    for kind, squares in (("the Exit", board["exits"]), ("a Pit", board["pits"])):
        for square in squares:
            parts.append(f"{kind[0].upper()}{kind[1:]}: {_offset_words(pos, square)}, on {square_words(square)}.")
    parts.append(f"The edges: {board['height'] - y} up, {y - 1} down, {x - 1} left, {board['width'] - x} right.")
    walls = [d for a, b in board.get("stop_walls") or [] for d in (_side(pos, a, b),) if d is not None]
    if walls:
        parts.append(f"A stop wall {' and '.join(SIDE_WORDS[side] for side in walls)}.")
    for redirect in board.get("redirects") or []:
        if redirect["square"] == pos:
            parts.append(f"You stand on a redirect {redirect['kind']}.")
    others = [
        f"{c['id']} {_offset_words(pos, c['position'])}"
        for c in view.get("characters") or []
        if c["id"] != me["id"] and c["position"] is not None
    ]
    if others:
        parts.append(f"Other explorers: {'; '.join(others)}.")
    combat = view.get("combat")
    if combat:
        parts.append(f"You face the {combat['boss_name']} ({combat['boss_lives']} lives).")
    return " ".join(parts)


SIDE_WORDS = {"up": "above you", "down": "below you", "left": "to your left", "right": "to your right"}


def _side(pos: list[int], a: list[int], b: list[int]) -> str | None:
    """Which side of ``pos`` a stop wall between ``a`` and ``b`` stands on, or None."""
    if pos not in (a, b):
        return None
    other = b if pos == a else a
    dx, dy = other[0] - pos[0], other[1] - pos[1]
    return {(0, 1): "up", (0, -1): "down", (-1, 0): "left", (1, 0): "right"}.get((dx, dy))


def _hand(view: dict[str, Any]) -> str | None:
    me = _me(view)
    if me is None:
        return None
    hand = me["hand"] or []
    if not hand:
        if view.get("options", {}).get("turn_mode") == "three_card_hand":
            return "Your hand is empty."
        return "You hold no cards: each turn you draw one and it moves you."
    read = []
    for number, code in enumerate(hand, start=1):
        card = Card.parse(code)
        if card.rank in BOSSES:
            read.append(f"{number}, {card_words(code)}.")
        else:
            direction, distance = card_move(me, code)
            read.append(f"{number}, {card_words(code)}: {direction} {distance}.")
    return f"Your hand: {' '.join(read)}"


def grid(view: dict[str, Any]) -> Grid | None:
    """The board, top row first: each square's marker, redirect, walls and explorers."""
    board = view.get("board")
    if board is None:
        return None
    width, height = board["width"], board["height"]
    words: dict[tuple[int, int], list[str]] = {}

    def add(square: list[int], word: str) -> None:
        words.setdefault((square[0], square[1]), []).append(word)

    if board.get("start"):
        add(board["start"], "start")
    for square in board["exits"]:
        add(square, "exit")
    for square in board["pits"]:
        add(square, "pit")
    for redirect in board.get("redirects") or []:
        add(redirect["square"], f"redirect {redirect['kind']}")
    for a, b in board.get("stop_walls") or []:
        for here, there in ((a, b), (b, a)):
            side = _side(here, here, there)
            if side:
                add(here, f"wall {side}")
    you = None
    for c in view.get("characters") or []:
        if c["position"] is None:
            continue
        if c["id"] == view.get("seat"):
            you = (height - c["position"][1], c["position"][0] - 1)
        else:
            add(c["position"], c["id"])
    rows = [[", ".join(words.get((x, y), ["empty"])) for x in range(1, width + 1)] for y in range(height, 0, -1)]
    return Grid("The board", rows, you, [f"row {y}" for y in range(height, 0, -1)])


def _board(view: dict[str, Any]) -> str | None:
    the_grid = grid(view)
    if the_grid is None:
        return None
    lines = []
    for r, (name, row) in enumerate(zip(the_grid.row_names, the_grid.rows, strict=True)):
        marked = []
        for c, word in enumerate(row):
            if the_grid.you == (r, c):
                word = "you" if word == "empty" else f"{word}, you"
            if word != "empty":
                marked.append(f"column {c + 1} {word}")
        if marked:
            lines.append(f"{name[0].upper()}{name[1:]}: {'; '.join(marked)}.")
    size = f"{len(the_grid.rows[0])} columns by {len(the_grid.rows)} rows, top row first"
    return f"The board, {size}. {' '.join(lines)} Every other square is empty."


def _score(view: dict[str, Any]) -> str | None:
    characters = view.get("characters") or []
    if not characters:
        return None
    read = []
    for c in characters:
        who = "You" if c["id"] == view.get("seat") else c["id"]
        beaten = len(c["bosses_defeated"])
        bosses = f", {beaten} {'boss' if beaten == 1 else 'bosses'} beaten" if beaten else ""
        turns = f"{c['turns_taken']} {'turn' if c['turns_taken'] == 1 else 'turns'}"
        read.append(
            f"{who}, the {c['class_name']}: level {c['level']}, {c['lives']} of {c['max_lives']} lives, "
            f"speed {c['speed']}, {turns}{bosses}, {c['status']}."
        )
    return f"{' '.join(read)} Cards left in the deck: {view.get('deck_count', 0)}."


def describe(view: dict[str, Any], topic: str) -> str | None:
    """The answer to ``topic`` (``rules_engine.speech.TOPICS``) from the seat's view, or None."""
    if topic == "status":
        return spoken(_status(view))
    if topic == "where":
        return _where(view)
    if topic == "hand":
        return _hand(view)
    if topic == "board":
        return _board(view)
    if topic == "score":
        return _score(view)
    return None
