"""Delve's games as the lobby presents them, and how each game's creation form maps to engine
options. The rules live in ``rules_engine``; this is only the shop window and the form."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import rules_engine
from rules_engine.cards import Card
from rules_engine.errors import InvalidAction
from rules_engine.text import clean_text

from .config import PROJECT_ROOT


@dataclass(frozen=True)
class Option:
    name: str
    label: str
    kind: str  # "int" | "bool" | "deck" | "choice"
    default: object = None
    minimum: int | None = None
    maximum: int | None = None
    group: str = ""
    help: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    """For ``choice``: (value, label) pairs."""


@dataclass(frozen=True)
class GameEntry:
    slug: str
    title: str
    players: str
    blurb: str
    options: tuple[Option, ...] = field(default_factory=tuple)
    solo: bool = True
    lobby_fields: tuple[Option, ...] = field(default_factory=tuple)
    """Multiplayer: what each seat chooses in the waiting room (kind "choice"). Each field's
    choices reach the engine as ``options[field.name] = {seat: value}``."""
    unique_lobby_fields: tuple[str, ...] = ()
    """Lobby fields no two seats may share (e.g. a class)."""
    extra_options: object = None
    """Optional ``(form, files, options) -> None`` for options a plain field cannot express."""
    keys: dict = field(default_factory=dict)
    """Keyboard shortcuts by action: ``"type"`` or ``"type:dir"`` -> (key, alternative key)."""
    test_option_keys: tuple[str, ...] = ()
    """Engine options for tests and tutorials only (forced dice, start positions); accepted from
    the creation form's ``test_options`` JSON field only when the server runs with
    ``DELVE_TEST_OPTIONS=1`` (never in production)."""

    @property
    def template_dir(self) -> str:
        return self.slug.replace("-", "_")

    @property
    def playable(self) -> bool:
        """Playable once both its rules and its page exist: the lobby never shows a dead link."""
        page = PROJECT_ROOT / "templates" / self.template_dir / "game.html"
        return self.slug in rules_engine.GAMES and Path(page).exists()


STACKED_DECK = Option(
    "deck",
    "Stacked deal",
    "deck",
    group="Advanced",
    help="Optional: card codes top card first, separated by spaces (e.g. 5C 8D 3H …), to replay a known deal or set a puzzle.",
)

GAMES: tuple[GameEntry, ...] = (
    GameEntry(
        slug="shuffle-and-doom",
        title="Shuffle and Doom!",
        players="Solo",
        blurb=(
            "Two rows of dealt cards draw a dungeon map by their colours. Pick the set that "
            "makes your hero, then walk room to room: each room you enter is dealt from the deck "
            "— spades fight back, clubs are traps or books, hearts heal and diamonds are gold. "
            "Leave by the far corner with your gold, or clear every room to double it."
        ),
        options=(
            Option("size", "Grid size", "int", 7, 4, 26, help="4 to 26 cells a side; 7 is the standard game."),
            Option("base_stats_7", "Start with 7 in every stat", "bool", False, group="Easier"),
            Option("split_large_rooms", "Split rooms larger than 16 cells (one header swap)", "bool", False, group="Easier"),
            Option("retreat_from_combat", "Allow retreat from combat (the room waits for you)", "bool", False, group="Easier"),
            Option("retreat_keeps_traps", "Allow retreat without springing traps", "bool", False, group="Easier"),
            Option("merge_single_rooms", "Merge one-cell rooms (one header swap)", "bool", False, group="Harder"),
            Option("temporary_consumables", "Potions and books last one action", "bool", False, group="Harder"),
            Option("flat_consumables", "Every potion and book is worth 3", "bool", False, group="Harder"),
            STACKED_DECK,
        ),
    ),
    GameEntry(
        slug="clear-the-dungeon",
        title="Clear the Dungeon",
        players="Solo",
        blurb=(
            "A solitaire card battle: the dungeon is seven overlapping rows of face-down "
            "monsters. Play cards from your hand onto revealed monsters until their sum beats "
            "their power, turn kings into magic items, and clear the dungeon before the fifth "
            "hit lands."
        ),
        options=(
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
        ),
    ),
    GameEntry(
        slug="hebracs-dungeon",
        title="Hebrac's Dungeon",
        players="Solo",
        blurb=(
            "A card role-playing game across a grid of chambers: battle enemies card by card, "
            "bargain with merchants and adventurers, cast eighteen spells with magic potions, "
            "beware the black priestesses, and descend level by level to gather the four aces."
        ),
        options=(
            Option("decks", "Decks shuffled together", "choice", 2,
                   choices=((2, "Two decks (standard)"), (3, "Three decks"), (4, "Four decks"))),
            Option("jokers", "Include the jokers (Hebrac himself)", "bool", True),
            Option("rows", "Rows of chambers", "int", 3, 2, 5, help="2 to 5; rows × columns must make at least 12."),
            Option("cols", "Columns of chambers", "int", 4, 3, 6, help="3 to 6; the standard level is 3 rows × 4."),
            Option("max_life", "Starting life", "int", 15, 5, 30, group="Difficulty",
                   help="5 to 30; 15 is standard, less is harder."),
            Option("inventory_limit", "Inventory limit", "choice", None, group="Difficulty",
                   choices=((None, "No limit (standard)"),) + tuple((n, f"{n} treasures") for n in range(3, 31)),
                   help="Over the limit you must drop a treasure at once."),
            Option("strength_after_attack", "Strength potions may be drunk after the attack card is seen", "bool",
                   False, group="Variations"),
            Option("alignment", "Alignment", "choice", "good", group="Variations",
                   choices=(("good", "Good (standard)"), ("evil", "Evil")),
                   help="Evil: you may still fight or rob an adventurer after proposing a trade."),
            Option("deck", "Stacked deal", "deck", group="Advanced",
                   help="Optional: card codes, top card first — the treasures of level 1 in reading order, "
                        "then their enemies, then the Hand Deck (e.g. 6S 9C … AC 10H …)."),
        ),
    ),
    GameEntry(
        slug="dungeon-cards",
        title="Dungeon Cards",
        players="Solo or a party of 2–5",
        solo=False,
        blurb=(
            "Pick a class and crawl a board of cards where every drawn card moves you: its "
            "suit is the direction, its rank the distance. Duel the royal bosses, level up, and "
            "find the exit — alone, or with friends who can step in to help a fight. Every "
            "escape earns a place in the Hall of Fame."
        ),
        # One entry for solo and party: the host may start the table alone (solo) or with 2–5
        # seats; each seat's class is a unique lobby choice, validated again by the engine.
        options=(
            Option("turn_mode", "Turn mode", "choice", "single_draw",
                   choices=(("single_draw", "Single draw (basic)"), ("three_card_hand", "Three-card hand")),
                   help="Single draw: the top card moves you. Three-card hand: draw one, then play one of four."),
            Option("board_size", "Board size", "choice", "standard",
                   choices=tuple((key, f"{key.capitalize()} {w} × {h}")
                                 for key, (w, h) in rules_engine.get("dungeon-cards").data.BOARD_PRESETS.items())
                   + (("custom", "Custom: the width and height below"),),
                   help="The rules' presets (§2.2); choose Custom to set the width and height yourself."),
            Option("board_width", "Custom width", "int", 10, 6, 30, help="6 to 30 squares (with a custom size)."),
            Option("board_height", "Custom height", "int", 10, 6, 30, help="6 to 30 squares (with a custom size)."),
            Option("start_square", "Start square", "choice", "bottom_middle",
                   choices=(("bottom_middle", "Middle of the bottom edge"), ("random_edge", "A random edge square"),
                            ("chosen", "The host picks one"))),
            Option("marker_placement", "Exit and Pit markers", "choice", "random",
                   choices=(("random", "At random"), ("manual", "The host places them"))),
            Option("draw_stats", "Draw your Stats (lives and speed from the deck)", "bool", False, group="Stats",
                   help="Warning: a drawn Speed of 5 or more makes every move at least 6 squares, which can leave "
                        "middle squares of a 10 × 10 board out of reach. Choose a larger board with this option."),
            Option("exit_count", "Exits (Extra exits mod)", "int", 1, 1, 4, group="Easier", help="1 to 4 Exit markers."),
            Option("potion_roll", "Potion roll: a d20 after each turn, 19 or 20 heals 1", "bool", False, group="Easier"),
            Option("pit_count", "Pits (Extra pits mod)", "int", 1, 1, 6, group="Harder", help="1 to 6 Pit markers."),
            Option("random_stop_walls", "Stop walls (Walls mod)", "int", 0, 0, 40, group="Harder",
                   help="Walls between squares that stop a move; placed at random, the board stays connected."),
            Option("random_redirects", "Redirecting walls (Walls mod)", "int", 0, 0, 30, group="Harder",
                   help="Diagonal walls inside squares that turn a move by 90°; placed at random."),
            Option("after_first_escape", "After the first escape", "choice", "end", group="Party",
                   choices=(("end", "The game ends"), ("continue", "Play on")),
                   help="Ends: a team victory at once. Play on: until nobody is left in the dungeon."),
            Option("turn_seconds", "Time per decision", "choice", "90", group="Party",
                   choices=(("30", "30 seconds"), ("60", "1 minute"), ("90", "1 minute 30 (standard)"),
                            ("120", "2 minutes"), ("180", "3 minutes"), ("300", "5 minutes"), ("0", "No limit")),
                   help="A turn, a reward, joining a fight…: when the time is up the usual choice is made "
                        "(draw; stay out; +1 Lives; no dash). Solo games are never timed."),
            Option("round_limit", "Round limit", "int", 200, 10, 1000, group="Advanced",
                   help="10 to 1000. Characters still in the dungeon after this round are lost."),
            STACKED_DECK,
            Option("shuffles", "Shuffles", "choice", "random", group="Advanced",
                   choices=(("random", "Random (the real game)"), ("stacked", "Keep the stacked order")),
                   help="Stacked: every shuffle puts the discard pile under the deck, so a stacked deal plays out "
                        "exactly (puzzles and tests)."),
        ),
        lobby_fields=(
            Option("classes", "Class", "choice", choices=tuple(
                (key, f"{cls['name']} — {cls['ability']}{' (party only)' if cls['party_only'] else ''}")
                for key, cls in rules_engine.get("dungeon-cards").data.CLASSES.items()
            )),
        ),
        unique_lobby_fields=("classes",),
        extra_options=lambda form, files, options: dungeon_cards_board(options),
        # Digits pick choices; the dash takes the arrow keys and 0 (drawn by the page), and leaving
        # or one of many board squares gets no key.
        keys={"leave_game": (None, None), "place_marker": (None, None), "choose_start": (None, None),
              "dash": (None, None)},
    ),
    GameEntry(
        slug="dungeon-of-doom",
        title="The Dungeon of Doom",
        players="Multiplayer, 1–8",
        solo=False,
        blurb=(
            "A real-time, turn-based dungeon for a table of friends sharing one link. You see "
            "only what your lantern lights: gather gold, arm yourself, fight or dodge the other "
            "delvers, and be the first to reach the exit with the gold the map demands."
        ),
        options=(
            Option("max_players", "Players at the table", "int", 4, 1, 8, help="1 to 8 living players at once."),
            Option(
                "turn_seconds", "Time per turn", "choice", "120",
                choices=(("0", "No limit"), ("30", "30 seconds"), ("60", "1 minute"), ("120", "2 minutes"),
                         ("300", "5 minutes"), ("600", "10 minutes")),
            ),
        ),
        extra_options=lambda form, files, options: dungeon_of_doom_map(form, files, options),
        test_option_keys=("dice", "start_positions"),
        # Leaving kills your adventurer: no key (the page asks for a second, explicit click).
        keys={
            "pickup": ("p", None), "end_turn": ("e", None), "leave": (None, None),
            **{f"attack:{d}": (f"Shift+{arrow}", f"Shift+{letter}") for d, arrow, letter in
               (("N", "ArrowUp", "w"), ("E", "ArrowRight", "d"), ("S", "ArrowDown", "s"), ("W", "ArrowLeft", "a"))},
        },
    ),
)

MAP_UPLOAD_MAX = 12 * 1024
MAP_CELLS_MAX = 3600
"""Cells an uploaded map may have on this site (60 × 60; the file format allows 100 × 100). Every
viewer's page draws the whole map at the end, at about 120 bytes a cell: 3,600 cells keep that
page near 430 KB, three times the largest random map, where 100 × 100 made it 1.2 MB."""


def dungeon_cards_board(options: dict) -> None:
    """Dungeon Cards' board: a preset of the rules (§2.2) or a custom width and height.

    A width or height changed beside a preset would be silently ignored, so it is refused instead
    (the fields show 10 until changed)."""
    presets = rules_engine.get("dungeon-cards").data.BOARD_PRESETS
    size = options.pop("board_size")
    if size == "custom":
        return
    width, height = presets[size]
    if options["board_width"] not in (width, 10) or options["board_height"] not in (height, 10):
        raise InvalidAction("Board size: choose Custom to use a width and height of your own.")
    options["board_width"], options["board_height"] = width, height


def dungeon_of_doom_map(form, files, options: dict) -> None:
    """The Dungeon of Doom's map: a shipped one, a fresh random one (S/M/L), or the player's own file."""
    from rules_engine.games.dungeon_of_doom import parse_map, shipped_maps

    choice = str(form.get("map_choice") or "lantern-gallery")
    shipped = shipped_maps()
    if choice in shipped:
        options["map"] = shipped[choice]
    elif choice in {"random-S", "random-M", "random-L"}:
        # The engine draws it from the game's secret seed: labelled "random", and fresh on play again.
        options["random_map"] = choice[-1]
    elif choice == "custom":
        upload = files.get("map_file") if files else None
        text = ""
        if upload is not None and upload.filename:
            raw = upload.read(MAP_UPLOAD_MAX + 1)
            if len(raw) > MAP_UPLOAD_MAX:
                raise InvalidAction("That map file is too large (12 KB at most).")
            if raw:
                # The engine's parser reads the bytes, so an error names the line (also the first
                # one that is not UTF-8 text); the engine checks the text again when the game starts.
                parse_map(raw)
                text = raw.decode("utf-8")
        text = text or str(form.get("map_text") or "")
        if not text.strip():
            raise InvalidAction("Paste a map or choose a map file, or pick one of our maps.")
        dungeon = parse_map(text)
        if dungeon.width * dungeon.height > MAP_CELLS_MAX:
            raise InvalidAction(
                f"That map is {dungeon.width} × {dungeon.height} = {dungeon.width * dungeon.height:,} cells; "
                f"Delve hosts maps of up to {MAP_CELLS_MAX:,} cells (60 × 60, or any shape that size), "
                "so every player's page stays light.")
        options["map"] = text
    else:
        raise InvalidAction("Choose one of the listed maps.")
BY_SLUG = {entry.slug: entry for entry in GAMES}

NAME_MAX = 24


def clean_name(raw: object, fallback: str) -> str:
    """A display name through the one text sanitiser, at most NAME_MAX characters; the fallback if empty."""
    return clean_text(raw, NAME_MAX) or fallback


def parse_options(entry: GameEntry, form, files=None, *, allow_test_options: bool = False) -> dict:
    """Turn the creation form into engine options; InvalidAction with a readable reason if a field is off.

    The engine validates again (it owns the rules); this layer only converts form strings."""
    options: dict = {}
    for option in entry.options:
        raw = form.get(option.name)
        if option.kind == "bool":
            options[option.name] = raw in {"on", "true", "1", "yes"}
        elif option.kind == "int":
            if raw in (None, ""):
                options[option.name] = option.default
                continue
            try:
                value = int(str(raw).strip())
            except ValueError:
                raise InvalidAction(f"{option.label} must be a whole number.") from None
            if not option.minimum <= value <= option.maximum:
                raise InvalidAction(f"{option.label} must be between {option.minimum} and {option.maximum}.")
            options[option.name] = value
        elif option.kind == "choice":
            value = option.default if raw in (None, "") else raw
            allowed = {str(v) for v, _label in option.choices}
            if str(value) not in allowed:
                raise InvalidAction(f"{option.label} must be one of: {', '.join(l for _v, l in option.choices)}.")
            value = next(v for v, _l in option.choices if str(v) == str(value))
            options[option.name] = int(value) if str(value).isdigit() else value
        elif option.kind == "deck":
            text = (raw or "").replace(",", " ").split()
            if text:
                options[option.name] = [Card.parse(code.upper()).code for code in text]
    if entry.extra_options:
        entry.extra_options(form, files, options)
    if allow_test_options and form.get("test_options"):
        import json

        try:
            extra = json.loads(form.get("test_options"))
        except (ValueError, RecursionError):
            raise InvalidAction("test_options is not JSON.") from None
        if not isinstance(extra, dict) or not set(extra) <= set(entry.test_option_keys):
            raise InvalidAction(f"test_options may only hold: {', '.join(entry.test_option_keys) or 'nothing'}.")
        options.update(extra)
    return options
