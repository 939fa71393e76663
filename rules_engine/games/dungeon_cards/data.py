"""Dungeon Cards as data: classes, bosses, spells, suit directions, redirects and options.

The how-to-play page renders from these tables, so every entry carries the player-facing text
the rules file gives (``docs/rules/dungeon-cards.md``, section numbers below refer to it).

>>> [c["name"] for c in CLASSES.values() if c["party_only"]]
['Mage', 'Healer']
>>> BOSSES["Q"]["lives"], BOSSES["K"]["special"]
(4, 'Royal Barrage')
>>> SUIT_DIRECTIONS["D"], REVERSED_DIRECTION["D"], REDIRECT_TURNS["/"]["up"]
('up', 'down', 'right')
"""

from __future__ import annotations

from typing import Any, cast

from ... import turn_limits
from ...options import STACKED_DEAL, Option

# §3.3 — one entry per class, in the order the lobby lists them.
CLASSES: dict[str, dict[str, Any]] = {
    "ninja": {
        "name": "Ninja",
        "ability": "Active Reflex",
        "party_only": False,
        "summary": "The first time a move is blocked by the edge or a stop wall, turn around and "
        "finish the move the other way. A second block ends the move.",
    },
    "athlete": {
        "name": "Athlete",
        "ability": "Controlled Dash",
        "party_only": False,
        "summary": "After every boss victory you survive, draw a dash card and move exactly its "
        "value in a direction of your choice (or decline). No Speed, no Haste, no Reversal.",
    },
    "soldier": {
        "name": "Soldier",
        "ability": "Strong Will",
        "party_only": False,
        "summary": "Once per combat, automatically: when a matchup would take your last life, "
        "draw a replacement card for it and resolve it again.",
    },
    "tank": {
        "name": "Tank",
        "ability": "Damage Sponge",
        "party_only": False,
        "summary": "Start with 5 extra lives (+5 max lives and +5 lives).",
    },
    "rogue": {
        "name": "Rogue",
        "ability": "Critical Hit",
        "party_only": False,
        "summary": "Once per combat, after seeing the boss's card(s): draw three cards for your "
        "first slot and keep the highest.",
    },
    "swordsman": {
        "name": "Swordsman",
        "ability": "Guard Break",
        "party_only": False,
        "summary": "A tie in any of your matchups deals 1 damage to the boss instead of nothing.",
    },
    "mage": {
        "name": "Mage",
        "ability": "Spells",
        "party_only": True,
        "summary": "At the start of your turn you may cast a spell instead of drawing. It affects "
        "the next turn of every character, yourself included.",
    },
    "healer": {
        "name": "Healer",
        "ability": "Healing Touch",
        "party_only": True,
        "summary": "At the start and at the end of your turn, every other character adjacent to "
        "you heals 1 (at most once each per turn, never above max lives).",
    },
}
PARTY_ONLY = frozenset(k for k, c in CLASSES.items() if c["party_only"])

# §5.2 — bosses by rank.
BARRAGE_CARDS = 3
"""How many cards the King and every fighter draw in a Royal Barrage (§5.5)."""
BARRAGE_LIVES = 1
"""The King's lives that start a Royal Barrage (§5.5)."""

BOSSES: dict[str, dict[str, Any]] = {
    "J": {"name": "Jack", "lives": 3, "special": None, "summary": "No special ability."},
    "Q": {
        "name": "Queen",
        "lives": 4,
        "special": "Second Wind",
        "summary": "Once per combat, when a matchup would take her last life, she draws a new "
        "card for that slot and the matchup is resolved again.",
    },
    "K": {
        "name": "King",
        "lives": 5,
        "special": "Royal Barrage",
        "summary": "Every exchange that starts with him on 1 life, he draws 3 cards and every "
        "fighter draws 3; the first matchup he loses defeats him.",
    },
}

# §9.3 — the Mage's spells.
SPELLS: dict[str, dict[str, Any]] = {
    "reversal": {
        "name": "Reversal",
        "hand_mode_only": False,
        "summary": "Suit directions are flipped for card moves: Diamonds down, Spades up, Hearts right, Clubs left.",
    },
    "fortune_telling": {
        "name": "Fortune Telling",
        "hand_mode_only": False,
        "summary": "Once, after the draw and before moving, discard one number card and draw a "
        "replacement. A face card drawn this way is a boss.",
    },
    "haste": {"name": "Haste", "hand_mode_only": False, "summary": "+1 to the distance of the card move."},
    "good_luck": {
        "name": "Good Luck",
        "hand_mode_only": True,
        "summary": "The draw step draws 2 cards instead of 1 (three-card-hand mode only).",
    },
}

# §0.2, §4.4, §8.2 — directions as (dx, dy) with y counting up from the bottom row.
DELTAS: dict[str, tuple[int, int]] = {"up": (0, 1), "down": (0, -1), "left": (-1, 0), "right": (1, 0)}
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}
SUIT_DIRECTIONS = {"D": "up", "S": "down", "H": "left", "C": "right"}
REVERSED_DIRECTION = {suit: OPPOSITE[d] for suit, d in SUIT_DIRECTIONS.items()}
REDIRECT_TURNS: dict[str, dict[str, str]] = {
    "/": {"right": "up", "up": "right", "left": "down", "down": "left"},
    "\\": {"right": "down", "up": "left", "left": "up", "down": "right"},
}

# §2.2 — board presets the lobby offers (width, height).
BOARD_PRESETS = {"standard": (10, 10), "large": (20, 10), "huge": (20, 20)}

# §8.1 — option keys of the rules file, with their defaults.
OPTION_DEFAULTS: dict[str, object] = {
    "turn_mode": "single_draw",
    "board_width": 10,
    "board_height": 10,
    "start_square": "bottom_middle",
    "marker_placement": "random",
    "exit_count": 1,
    "pit_count": 1,
    "stop_walls": [],
    "redirects": [],
    "random_stop_walls": 0,
    "random_redirects": 0,
    "potion_roll": False,
    "draw_stats": False,
    "after_first_escape": "end",
    "round_limit": 200,
    # Not in §8.1: the platform's turn clock for party play (clock.py). Seconds each decision may
    # take before the server makes its default; 0 means no limit. Solo games are never timed.
    "turn_seconds": 90,
}
TURN_SECONDS_RANGE = (30, 300)

# §8.1 as the creation form offers it: the engine checks options against the same ranges and
# choices (CHOICES and RANGES below are read from these).
TURN_MODE = Option(
    "turn_mode",
    "Turn mode",
    "choice",
    "single_draw",
    choices=(("single_draw", "Single draw (basic)"), ("three_card_hand", "Three-card hand")),
    help="Single draw: the top card moves you. Three-card hand: draw one, then play one of four.",
)
BOARD_SIZE = Option(
    "board_size",
    "Board size",
    "choice",
    "standard",
    choices=tuple((key, f"{key.capitalize()} {w} × {h}") for key, (w, h) in BOARD_PRESETS.items())
    + (("custom", "Custom: the width and height below"),),
    help="The rules' presets (§2.2); choose Custom to set the width and height yourself.",
)
BOARD_WIDTH = Option("board_width", "Custom width", "int", 10, 6, 30, help="6 to 30 squares (with a custom size).")
BOARD_HEIGHT = Option("board_height", "Custom height", "int", 10, 6, 30, help="6 to 30 squares (with a custom size).")
START_SQUARE = Option(
    "start_square",
    "Start square",
    "choice",
    "bottom_middle",
    choices=(
        ("bottom_middle", "Middle of the bottom edge"),
        ("random_edge", "A random edge square"),
        ("chosen", "The host picks one"),
    ),
)
MARKER_PLACEMENT = Option(
    "marker_placement",
    "Exit and Pit markers",
    "choice",
    "random",
    choices=(("random", "At random"), ("manual", "The host places them")),
)
EXIT_COUNT = Option(
    "exit_count", "Exits (Extra exits mod)", "int", 1, 1, 4, group="Easier", help="1 to 4 Exit markers."
)
PIT_COUNT = Option("pit_count", "Pits (Extra pits mod)", "int", 1, 1, 6, group="Harder", help="1 to 6 Pit markers.")
AFTER_FIRST_ESCAPE = Option(
    "after_first_escape",
    "After the first escape",
    "choice",
    "end",
    group="Party",
    choices=(("end", "The game ends"), ("continue", "Play on")),
    help="Ends: a team victory at once. Play on: until nobody is left in the dungeon.",
)
ROUND_LIMIT = Option(
    "round_limit",
    "Round limit",
    "int",
    200,
    10,
    1000,
    group="Advanced",
    help="10 to 1000. Characters still in the dungeon after this round are lost.",
)
FORM_OPTIONS = (
    TURN_MODE,
    BOARD_SIZE,
    BOARD_WIDTH,
    BOARD_HEIGHT,
    START_SQUARE,
    MARKER_PLACEMENT,
    Option(
        "draw_stats",
        "Draw your Stats (lives and speed from the deck)",
        "bool",
        False,
        group="Stats",
        help="Warning: a drawn Speed of 5 or more makes every move at least 6 squares, which can leave "
        "middle squares of a 10 × 10 board out of reach. Choose a larger board with this option.",
    ),
    EXIT_COUNT,
    Option("potion_roll", "Potion roll: a d20 after each turn, 19 or 20 heals 1", "bool", False, group="Easier"),
    PIT_COUNT,
    Option(
        "random_stop_walls",
        "Stop walls (Walls mod)",
        "int",
        0,
        0,
        40,
        group="Harder",
        help="Walls between squares that stop a move; placed at random, the board stays connected.",
    ),
    Option(
        "random_redirects",
        "Redirecting walls (Walls mod)",
        "int",
        0,
        0,
        30,
        group="Harder",
        help="Diagonal walls inside squares that turn a move by 90°; placed at random.",
    ),
    AFTER_FIRST_ESCAPE,
    Option(
        "turn_seconds",
        "Time per decision",
        "choice",
        "90",
        group="Party",
        choices=(
            ("30", "30 seconds"),
            ("60", "1 minute"),
            ("90", "1 minute 30 (standard)"),
            ("120", "2 minutes"),
            ("180", "3 minutes"),
            ("300", "5 minutes"),
            *turn_limits.SLOW_CHOICES,
            ("0", "No limit"),
        ),
        help="A turn, a reward, joining a fight…: when the time is up the usual choice is made "
        "(draw; stay out; +1 Lives; no dash). An hour or more makes a slow table: friends decide when "
        "they can, and nobody is dropped for being away. Solo games are never timed.",
    ),
    ROUND_LIMIT,
    STACKED_DEAL,
    Option(
        "shuffles",
        "Shuffles",
        "choice",
        "random",
        group="Advanced",
        choices=(("random", "Random (the real game)"), ("stacked", "Keep the stacked order")),
        help="Stacked: every shuffle puts the discard pile under the deck, so a stacked deal plays out "
        "exactly (puzzles and tests).",
    ),
)
CHOICES = {option.name: option.values for option in (TURN_MODE, START_SQUARE, MARKER_PLACEMENT, AFTER_FIRST_ESCAPE)}
RANGES = cast(
    "dict[str, tuple[int, int]]",  # each of these int options declares both ends of its range
    {
        option.name: (option.minimum, option.maximum)
        for option in (BOARD_WIDTH, BOARD_HEIGHT, EXIT_COUNT, PIT_COUNT, ROUND_LIMIT)
    },
)
# Engine-only options for tests, puzzles and tutorials (never shown in a view):
# ``deck`` a stacked deck (top first), ``shuffles`` "stacked" for the test shuffle of §12.0,
# ``d20_rolls`` scripted potion rolls used before random ones, ``classes`` {player: class}.
ENGINE_OPTIONS = ("deck", "shuffles", "d20_rolls", "classes")
HIDDEN_OPTIONS = frozenset(("deck", "shuffles", "d20_rolls"))

MAX_PARTY = 5
HAND_SIZE = 3
STATS = ("lives", "speed")
TANK_BONUS = 5
