"""The state of a game of Hebrac's Dungeon: creation, options, copying and the low-level moves
every rule is built from (drawing, putting under, taking cards off chambers, life).

The state is a plain JSON-safe dict (see ``new_game`` for its fields). Every card is in
exactly one zone: ``hand_deck``, a chamber of ``grid``, ``inventory``, the committed
``battle["prisoners"]``, the paused attack ``battle["drawn"]``, or a drawn-but-untreated
Genie of Luck card in ``pending``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rules_engine import kit
from rules_engine.cards import is_card_code, seeded_rng, shuffled, standard_deck, written
from rules_engine.errors import InvalidAction
from rules_engine.options import Option

from . import data

DEFAULT_OPTIONS: dict[str, Any] = {
    "decks": 2,
    "jokers": True,
    "rows": 3,
    "cols": 4,
    "max_life": 15,
    "inventory_limit": None,
    "strength_after_attack": False,
    "alignment": "good",
    "deck": None,
}


ROWS = Option("rows", "Rows of chambers", "int", 3, 2, 5, help="2 to 5; rows × columns must make at least 12.")
COLS = Option("cols", "Columns of chambers", "int", 4, 3, 6, help="3 to 6; the standard level is 3 rows × 4.")
MAX_LIFE = Option(
    "max_life", "Starting life", "int", 15, 5, 30, group="Difficulty", help="5 to 30; 15 is standard, less is harder."
)
INVENTORY_LIMIT = Option(
    "inventory_limit",
    "Inventory limit",
    "choice",
    None,
    3,
    30,
    group="Difficulty",
    choices=((None, "No limit (standard)"),) + tuple((n, f"{n} treasures") for n in range(3, 31)),
    help="Over the limit you must drop a treasure at once.",
)
DECKS = Option(
    "decks",
    "Decks shuffled together",
    "choice",
    2,
    choices=((2, "Two decks (standard)"), (3, "Three decks"), (4, "Four decks")),
)
ALIGNMENT = Option(
    "alignment",
    "Alignment",
    "choice",
    "good",
    group="Variations",
    choices=(("good", "Good (standard)"), ("evil", "Evil")),
    help="Evil: you may still fight or rob an adventurer after proposing a trade.",
)
OPTIONS = (
    DECKS,
    Option("jokers", "Include the jokers (Hebrac himself)", "bool", True),
    ROWS,
    COLS,
    MAX_LIFE,
    INVENTORY_LIMIT,
    Option(
        "strength_after_attack",
        "Strength potions may be drunk after the attack card is seen",
        "bool",
        False,
        group="Variations",
    ),
    ALIGNMENT,
    Option(
        "deck",
        "Stacked deal",
        "deck",
        group="Advanced",
        help="Optional: card codes, top card first — the treasures of level 1 in reading order, "
        "then their enemies, then the Hand Deck (e.g. 6S 9C … AC 10H …).",
    ),
)
"""The options the creation form offers; ``check_options`` reads its ranges and choices from here."""


def _int_option(options: dict[str, Any], option: Option) -> int:
    value: int = options[option.name]
    if not option.in_range(value):
        raise InvalidAction(f"option {option.name!r} must be a whole number from {option.minimum} to {option.maximum}")
    return value


def _bool_option(options: dict[str, Any], key: str) -> bool:
    if type(options[key]) is not bool:
        raise InvalidAction(f"option {key!r} must be true or false")
    flag: bool = options[key]
    return flag


def check_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """The effective options (defaults filled in), or ``InvalidAction`` naming what is wrong.

    >>> check_options({"rows": 3, "cols": 5})["cols"]
    5
    >>> check_options({"rows": 2, "cols": 5})
    Traceback (most recent call last):
    ...
    rules_engine.errors.InvalidAction: a level needs at least 12 chambers (rows × cols)
    """
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InvalidAction("options must be a mapping")
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    if unknown:
        raise InvalidAction(f"unknown option {unknown[0]!r}")
    opts = {**DEFAULT_OPTIONS, **options}
    if type(opts["decks"]) is not int or opts["decks"] not in DECKS.values:
        raise InvalidAction("option 'decks' must be 2, 3 or 4")
    _bool_option(opts, "jokers")
    _int_option(opts, ROWS)
    _int_option(opts, COLS)
    if opts["rows"] * opts["cols"] < 12:
        raise InvalidAction("a level needs at least 12 chambers (rows × cols)")
    _int_option(opts, MAX_LIFE)
    if opts["inventory_limit"] is not None:
        _int_option(opts, INVENTORY_LIMIT)
    _bool_option(opts, "strength_after_attack")
    if opts["alignment"] not in ALIGNMENT.values:
        raise InvalidAction("option 'alignment' must be 'good' or 'evil'")
    if opts["deck"] is not None:
        deck = opts["deck"]
        if not isinstance(deck, (list, tuple)) or not all(isinstance(c, str) for c in deck):
            raise InvalidAction("the stacked deck must be a list of card codes")
        codes = [c.strip().upper() for c in deck]
        for code in codes:
            if not is_card_code(code):
                raise InvalidAction(f"{code!r} is not a card code")
        needed = 2 * opts["rows"] * opts["cols"]
        if len(codes) < needed:
            # 13.1: any composition, but enough for one level (the Hand Deck may start empty).
            raise InvalidAction(f"the stacked deck needs at least {needed} cards (two per chamber)")
        opts["deck"] = codes
    return opts


def new_state(seed: int, seat: str, options: dict[str, Any] | None) -> dict[str, Any]:
    opts = check_options(options)
    if opts["deck"] is not None:
        deck = list(opts["deck"])
    else:
        jokers = 2 * opts["decks"] if opts["jokers"] else 0
        deck = shuffled(standard_deck(jokers=jokers, decks=opts["decks"]), seeded_rng(seed, "shuffle", 0))
    rows, cols = opts["rows"], opts["cols"]
    state = {
        "seat": seat,
        "options": opts,
        "seed": seed,
        "status": "playing",
        "phase": "start_level",
        "level": 1,
        "life": opts["max_life"],
        "base_max_life": opts["max_life"],
        "genie_life_bonus": 0,
        "max_life": opts["max_life"],
        "hand_deck": deck,
        "known_top": 0,
        "grid": [[empty_cell() for _ in range(cols)] for _ in range(rows)],
        "level_effects": fresh_effects(),
        "position": None,
        "inventory": [],
        "encounter": None,
        "battle": None,
        "pending": [],
        "decision": None,
        "counters": {"turns": 0, "chambers_cleared": 0, "rounds": 0, "spells_cast": 0, "life_lost": 0},
        "log": [],
    }
    log(state, f"You enter Hebrac's Dungeon with {state['life']} life.")
    deal_level(state)
    return state


def empty_cell() -> dict[str, Any]:
    return {
        "enemy": None,
        "enemy_up": False,
        "enemy_seen": False,
        "treasure": None,
        "treasure_up": False,
        "visited": False,
        "robbed": False,
    }


def fresh_effects() -> dict[str, Any]:
    return {"anti_magic": False, "curse": False, "enemies_revealed": False, "treasures_revealed": False}


def deal_level(state: dict[str, Any]) -> None:
    """Deal a level from the top of the Hand Deck: treasures in reading order, then enemies (R2)."""
    grid = state["grid"]
    cells = [cell for row in grid for cell in row]
    for cell in cells:
        cell.clear()
        cell.update(empty_cell())
        cell["treasure"] = draw(state)
    for cell in cells:
        cell["enemy"] = draw(state)
    log(state, f"Level {state['level']} is dealt: {len(cells)} chambers, every card face down.")


# --- copying -----------------------------------------------------------------------------------


def clone(state: dict[str, Any]) -> dict[str, Any]:
    """A copy safe to mutate: every mutable part is new, except log entries (never mutated)."""
    new = dict(state)
    new["options"] = dict(state["options"])
    if new["options"]["deck"] is not None:
        new["options"]["deck"] = list(new["options"]["deck"])
    new["hand_deck"] = list(state["hand_deck"])
    new["grid"] = [[dict(cell) for cell in row] for row in state["grid"]]
    new["level_effects"] = dict(state["level_effects"])
    new["inventory"] = list(state["inventory"])
    new["counters"] = dict(state["counters"])
    new["log"] = list(state["log"])
    for key in ("position", "encounter", "battle", "pending", "decision"):
        new[key] = kit.deep_copy(state[key])
    return new


# --- the log -----------------------------------------------------------------------------------


def log(state: dict[str, Any], text: str, *, private: bool = False) -> None:
    """Record an event, its cards written for people ("9♦", not the code "9D"). ``private``
    entries carry what only the player may know (13.3)."""
    state["log"].append({"text": written(text), "private": private})


# --- the Hand Deck -------------------------------------------------------------------------------


def draw(state: dict[str, Any]) -> str:
    """Take the top card of the Hand Deck (the caller checks it is not empty)."""
    if state["known_top"]:
        state["known_top"] -= 1
    card: str = state["hand_deck"].pop(0)
    return card


def under(state: dict[str, Any], card: str) -> None:
    """Put a used card under the Hand Deck (4.5)."""
    state["hand_deck"].append(card)


# --- chambers ----------------------------------------------------------------------------------


def cell_at(state: dict[str, Any], pos: Sequence[int]) -> dict[str, Any]:
    cell: dict[str, Any] = state["grid"][pos[0] - 1][pos[1] - 1]
    return cell


def in_grid(state: dict[str, Any], pos: Sequence[int]) -> bool:
    return 1 <= pos[0] <= len(state["grid"]) and 1 <= pos[1] <= len(state["grid"][0])


def positions(state: dict[str, Any]) -> list[list[int]]:
    """Every chamber of the level, in reading order."""
    return [[r + 1, c + 1] for r in range(len(state["grid"])) for c in range(len(state["grid"][0]))]


def chamber_count(state: dict[str, Any]) -> int:
    return len(state["grid"]) * len(state["grid"][0])


def is_cleared(cell: dict[str, Any]) -> bool:
    return cell["enemy"] is None and cell["treasure"] is None


def cleared_count(state: dict[str, Any]) -> int:
    return sum(1 for row in state["grid"] for cell in row if is_cleared(cell))


def descent_threshold(state: dict[str, Any]) -> int:
    """Chambers that must be cleared before an optional descent: half, rounded up (4.4)."""
    return math.ceil(chamber_count(state) / 2)


def name(pos: Sequence[int]) -> str:
    return f"({pos[0]},{pos[1]})"


def take_enemy(state: dict[str, Any], pos: Sequence[int]) -> str:
    """Remove the chamber's enemy card; a chamber left empty counts as cleared (C, 13.7)."""
    cell = cell_at(state, pos)
    card: str = cell["enemy"]
    cell["enemy"] = None
    cell["enemy_up"] = False
    cell["enemy_seen"] = False
    if cell["treasure"] is None:
        state["counters"]["chambers_cleared"] += 1
    return card


def take_treasure(state: dict[str, Any], pos: Sequence[int]) -> str:
    cell = cell_at(state, pos)
    card: str = cell["treasure"]
    cell["treasure"] = None
    cell["treasure_up"] = False
    if cell["enemy"] is None:
        state["counters"]["chambers_cleared"] += 1
    return card


def treasure_label(state: dict[str, Any], pos: Sequence[int]) -> str:
    cell = cell_at(state, pos)
    label: str = cell["treasure"] if cell["treasure_up"] else "a face-down treasure"
    return label


# --- life --------------------------------------------------------------------------------------


def refresh_max_life(state: dict[str, Any]) -> None:
    """Max = base + 5 with the Ruby + the Genies of Life (R36); life is clamped, never raised."""
    ruby = data.RUBY_LIFE if "AH" in state["inventory"] else 0
    state["max_life"] = state["base_max_life"] + ruby + state["genie_life_bonus"]
    if state["life"] > state["max_life"]:
        state["life"] = state["max_life"]


def heal(state: dict[str, Any], amount: int) -> int:
    before = state["life"]
    state["life"] = min(state["max_life"], before + amount)
    healed: int = state["life"] - before
    return healed


def lose_life(state: dict[str, Any], amount: int) -> None:
    """Lose life; at 0 or below the game ends at once in death (1.3, 4.6)."""
    state["life"] -= amount
    state["counters"]["life_lost"] += amount
    check_death(state)


def check_death(state: dict[str, Any]) -> None:
    if state["life"] <= 0 and state["status"] == "playing":
        state["life"] = 0
        end(state, "dead")


def end(state: dict[str, Any], status: str) -> None:
    state["status"] = status
    state["phase"] = "over"
    text = {
        "won": "You hold the four legendary treasures: victory!",
        "dead": "Your life drops to 0: you die in Hebrac's Dungeon.",
        "stranded": "The Hand Deck cannot supply the cards needed: you are stranded.",
        "resigned": "You give up the quest.",
    }[status]
    log(state, text)


def playing(state: dict[str, Any]) -> bool:
    return bool(state["status"] == "playing")


def remove_from_inventory(state: dict[str, Any], card: str) -> None:
    """Remove the earliest-acquired copy of ``card`` (copies are identical)."""
    state["inventory"].remove(card)
    if card == "AH":
        refresh_max_life(state)


def holds_all_legendary(state: dict[str, Any]) -> bool:
    inventory = state["inventory"]
    return all(ace in inventory for ace in data.LEGENDARY)
