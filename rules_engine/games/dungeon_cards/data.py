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

# §3.3 — one entry per class, in the order the lobby lists them.
CLASSES: dict[str, dict] = {
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
BOSSES: dict[str, dict] = {
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
SPELLS: dict[str, dict] = {
    "reversal": {
        "name": "Reversal",
        "hand_mode_only": False,
        "summary": "Suit directions are flipped for card moves: Diamonds down, Spades up, Hearts "
        "right, Clubs left.",
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
CHOICES = {
    "turn_mode": ("single_draw", "three_card_hand"),
    "start_square": ("bottom_middle", "random_edge", "chosen"),
    "marker_placement": ("random", "manual"),
    "after_first_escape": ("end", "continue"),
}
RANGES = {
    "board_width": (6, 30),
    "board_height": (6, 30),
    "exit_count": (1, 4),
    "pit_count": (1, 6),
    "round_limit": (10, 1000),
}
# Engine-only options for tests, puzzles and tutorials (never shown in a view):
# ``deck`` a stacked deck (top first), ``shuffles`` "stacked" for the test shuffle of §12.0,
# ``d20_rolls`` scripted potion rolls used before random ones, ``classes`` {player: class}.
ENGINE_OPTIONS = ("deck", "shuffles", "d20_rolls", "classes")
HIDDEN_OPTIONS = frozenset(("deck", "shuffles", "d20_rolls"))

MAX_PARTY = 5
HAND_SIZE = 3
STATS = ("lives", "speed")
TANK_BONUS = 5
