"""Dungeon Cards' page: one seat's view of the game turned into what ``dungeon_cards/game.html`` draws.

Every choice the page makes is made here — whose turn the status line names, which squares of the
board are drawn as more than a plain checker square, the duel's words and chips, which buttons are
primary — so that the template only loops and prints, and the choices are unit-tested.

What just happened (the page animates the last move and a boss card arriving) depends on the log
entries this page has not shown yet (``scene.new_log``): ``fresh`` says what they bring, and the
squares carry the animation's details, drawn only when it says so.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from rules_engine.cards import Card
from rules_engine.games.dungeon_cards.core import sq

from ..play import ActionButton
from ..rendering import name_seats
from . import Scene

ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→"}
COMPASS = {"up": "n", "down": "s", "left": "w", "right": "e"}
ARROW_KEYS = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}
NO_DASH_KEY = "0"
CLASS_LETTERS = {
    "ninja": "N",
    "athlete": "A",
    "soldier": "So",
    "tank": "T",
    "rogue": "R",
    "swordsman": "Sw",
    "mage": "M",
    "healer": "H",
}

PHASE_TEXT = {
    "lobby": "Every player chooses a class; then the host starts.",
    "placing_markers": "The host is setting up the board.",
    "awaiting_fortune": "Fortune Telling: swap a card for a new one, or keep it.",
    "awaiting_play": "Choose a card from the hand to play.",
    "awaiting_join": "A boss! Characters next to the challenger decide whether to help.",
    "awaiting_combat_draw": "Boss fight: the lead fighter draws.",
    "awaiting_reward": "The boss is defeated: every surviving fighter chooses a reward.",
    "awaiting_dash": "Controlled Dash: the Athlete picks a direction, or stays.",
    "awaiting_hand_discard": "Too many cards: discard down to three.",
}
ENDING_TITLES = {"victory": "Escaped!", "team_victory": "Team victory!", "abandoned": "Abandoned"}

# The actions of a turn outside a fight (the "Your turn" panel), and the log lines of a fight.
TURN_ACTIONS = frozenset(
    (
        "choose_class",
        "start_game",
        "choose_start",
        "place_marker",
        "draw_card",
        "cast_spell",
        "fortune_telling",
        "play_card",
        "discard_to_limit",
    )
)
FIGHT_ACTIONS = ("join_combat", "combat_draw", "draw_until_decided", "critical_hit", "choose_stat")
FIGHT_EVENTS = frozenset(
    (
        "exchange_started",
        "matchup_resolved",
        "second_wind",
        "strong_will",
        "combat_ended",
        "combat_joined",
        "level_up",
        "dash_card",
    )
)
BLOW_BY_BLOW_SHOWN = 14
# The stylesheet times the trail's steps st-1 … st-40; a longer move shares the last delay.
LAST_TRAIL_STEP = 40


# ---- What the template gets ------------------------------------------------------------------


@dataclass(frozen=True)
class Fresh:
    """What just happened on this page, to animate: a move, and a boss fight starting."""

    move: bool
    boss: bool


@dataclass(frozen=True)
class Choice:
    """A button and the classes it is drawn with ("primary" for the likely choice)."""

    button: ActionButton
    css: str = ""


@dataclass(frozen=True)
class ClassChoice:
    """A class button (only in the engine's own lobby, which a table reaches again when ruling 58
    leaves a lone Mage or Healer): its fixed key, and what the class does."""

    button: ActionButton
    css: str
    what: str


@dataclass(frozen=True)
class Chip:
    css: str
    text: str


@dataclass(frozen=True)
class Pips:
    """Lives drawn as hearts: ``hearts`` holds one flag per max life, True while it is kept."""

    label: str
    lives: int
    max_lives: int
    hearts: tuple[bool, ...]


@dataclass(frozen=True)
class Status:
    css: str
    headline: str
    text: str
    turn_of: str | None = None
    """Whose turn it is when it is another's: the headline with the name on its own, to print."""
    waiting_for: str | None = None
    timed: bool = False
    round_hint: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class FameLine:
    player: str
    class_name: str
    level: int
    lives: int
    max_lives: int
    speed: int
    turns: int
    outcome: str


@dataclass(frozen=True)
class Ending:
    title: str
    fame: list[FameLine]


@dataclass(frozen=True)
class Fighter:
    name: str
    class_name: str
    seat_number: int
    letters: str
    css: str
    lead: bool
    challenger: bool
    status: str | None
    pips: Pips
    lives: int
    max_lives: int
    chips: list[Chip]


@dataclass(frozen=True)
class Helper:
    name: str
    answer: str | None
    """"joins the fight" or "stays out"; None while deciding."""


@dataclass(frozen=True)
class Slot:
    label: str
    boss_card: str | None


@dataclass(frozen=True)
class Exchange:
    """The exchange being drawn: the boss's cards face up, the fighters' still face down."""

    number: int
    barrage: bool
    slots: list[Slot]
    waiting: list[str]


@dataclass(frozen=True)
class Matchup:
    css: str
    slot_label: str | None
    boss_card: str | None
    boss_label: str
    fighter_card: str | None
    fighter_label: str
    fighter: str
    outcome: str


@dataclass(frozen=True)
class LastExchange:
    number: int
    barrage: bool
    crit_cards: list[str]
    matchups: list[Matchup]


@dataclass(frozen=True)
class FightLine:
    event: str
    text: str


@dataclass(frozen=True)
class Dash:
    card: str
    athlete: str
    distance: str


@dataclass(frozen=True)
class Duel:
    challenger: str
    boss_name: str
    boss_card: str
    boss_card_css: str
    boss_card_label: str
    boss_pips: Pips
    boss_chips: list[Chip]
    fighters: list[Fighter]
    asking_helpers: bool
    helpers: list[Helper]
    exchange: Exchange | None
    last_exchange: LastExchange | None
    blow_by_blow: list[FightLine]
    blow_by_blow_open: bool
    rewarding: bool
    still_choosing: str
    dash: Dash | None
    buttons: list[Choice]
    dash_pad: list[dict]
    """The ways of the dash, as the shared ``dpad`` macro draws them: button, place ("n"…) and arrow."""
    no_dash: list[ActionButton]
    stat_hint: bool

    @property
    def dashing(self) -> bool:
        return bool(self.dash_pad or self.no_dash)

    @property
    def has_actions(self) -> bool:
        return bool(self.buttons) or self.dashing


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the last move's trail: its order, and the way the square was entered."""

    order: int
    arrow: str
    last: bool


@dataclass(frozen=True, slots=True)
class Token:
    seat_number: int
    letters: str
    css: str
    arrive: str | None
    """The classes that animate this token's arrival, when it made the move just shown."""


@dataclass(frozen=True, slots=True)
class Square:
    css: str
    plain: bool
    target: ActionButton | None = None
    redirect: str | None = None
    marker: str | None = None
    steps: tuple[Step, ...] = ()
    bounce: bool = False
    move_start: bool = False
    tokens: tuple[Token, ...] = ()
    tokens_css: str = ""


@dataclass(frozen=True)
class LegendToken:
    seat_number: int
    name: str
    letters: str


@dataclass(frozen=True)
class Board:
    width: int
    height: int
    css: str
    clickable: bool
    description: str
    squares: list[Square]
    """Top row first, each row from the left."""
    stop_walls: bool
    redirects: bool
    legend_tokens: list[LegendToken]


@dataclass(frozen=True)
class LastMove:
    card: str | None
    badge: str
    who: str
    verb: str
    direction: str
    distance: int
    route: str
    bounced: bool
    redirects: list[str]


@dataclass(frozen=True)
class HandCard:
    code: str
    badge: str
    choices: list[Choice] = field(default_factory=list)


@dataclass(frozen=True)
class Placing:
    prompt: str
    compose: str
    marker_kind: str | None
    submit_label: str
    columns: range
    rows: range


@dataclass(frozen=True)
class TurnPanel:
    title: str
    class_choices: list[ClassChoice]
    start_buttons: list[ActionButton]
    placing: Placing | None
    draw: ActionButton | None
    spells: list[tuple[ActionButton, str]]
    fortune_card: HandCard | None
    hand: list[HandCard]
    hand_heading: bool
    fortune_swaps: list[ActionButton]
    fortune_keep: list[Choice]
    discards: list[ActionButton]
    active_spells: str | None


@dataclass(frozen=True)
class Member:
    css: str
    seat_number: int
    letters: str
    name: str
    you: bool
    class_name: str
    turn: bool
    status: Chip | None
    lives: int
    max_lives: int
    speed: int
    level: int
    details: str
    chips: list[Chip]


@dataclass(frozen=True)
class Party:
    title: str
    members: list[Member]


@dataclass(frozen=True)
class Piles:
    deck_count: int
    discard_top: str | None
    discard_top_label: str
    discard_count: int
    removed: list[str]


@dataclass(frozen=True)
class RosterMarks:
    statuses: dict[str, str]
    current: str | None


@dataclass(frozen=True)
class Leave:
    button: ActionButton
    summary: str
    text: str


# ---- The presenter ---------------------------------------------------------------------------


# Digits pick choices; the dash takes the arrow keys and 0 (drawn by the page), and leaving, the
# engine lobby's start or one of many board squares gets no key.
KEYS = {
    "leave_game": (None, None),
    "start_game": (None, None),  # the class buttons' fixed keys (CLASS_KEYS) would collide with the next digit
    "place_marker": (None, None),
    "choose_start": (None, None),
    "dash": (None, None),
}


# Each class keeps one key however many are taken (the order of the rules' class list).
CLASS_ORDER = ("ninja", "athlete", "soldier", "tank", "rogue", "swordsman", "mage", "healer")
CLASS_KEYS = {cls: str(n) for n, cls in enumerate(CLASS_ORDER, 1)}


def present(scene: Scene) -> dict:
    page = _Page(scene)
    return {
        "table_talk": len(scene.view["players"]) > 1,
        "fresh": fresh_in(scene.new_log),
        "your_turn": page.my_turn,
        "status": status(page),
        "setup_warnings": setup_warnings(page),
        "ending": ending(page),
        "action_form": bool(scene.seat and scene.buttons),
        "duel": duel(page),
        "board": board(page),
        "last_move": last_move(page),
        "turn_panel": turn_panel(page),
        "party": party(page),
        "piles": piles(page),
        "roster_marks": roster_marks(page),
        "leave": leave(page),
    }


def fresh_in(new_log: Iterable[dict]) -> Fresh:
    """What the log entries this page has not shown yet bring that the page animates."""
    move = boss = False
    for entry in new_log:
        move = move or "move" in entry
        boss = boss or entry.get("event") == "combat_started"
    return Fresh(move=move, boss=boss)


class _Page:
    """The scene with the lookups every part of the page shares."""

    def __init__(self, scene: Scene):
        self.scene = scene
        self.view = scene.view
        self.data = scene.rules.data
        self.defeat_reasons = scene.rules.DEFEAT_REASONS
        self.seat = scene.seat
        self.names = scene.names
        self.result = scene.result
        self.chars = self.view["characters"]
        self.by_id = {c["id"]: c for c in self.chars}
        self.me = self.by_id.get(self.seat) if self.seat else None
        self.by_type: dict[str, list[ActionButton]] = defaultdict(list)
        for b in scene.buttons:
            self.by_type[b.action["type"]].append(b)
        self.turn = self.view["turn"]
        self.current = self.turn["current"] if self.turn else None
        self.awaited = [a["seat"] for a in self.view["awaiting"]]
        self.my_turn = self.seat is not None and self.seat in self.awaited
        self.hand_mode = self.view["options"]["turn_mode"] == "three_card_hand"

    def who(self, seat: str) -> str:
        return self.names.get(seat, seat)

    def buttons(self, *kinds: str) -> list[ActionButton]:
        return [b for kind in kinds for b in self.by_type.get(kind, [])]

    def suit_badge(self, code: str) -> str:
        direction = self.data.SUIT_DIRECTIONS.get(code[-1], "")
        return f"{ARROWS.get(direction, '')} {direction}"


def letters(character: dict) -> str:
    return CLASS_LETTERS.get(character["class"], "?")


def pips(lives: int, max_lives: int, label: str) -> Pips:
    kept = max(lives, 0)
    return Pips(label, kept, max_lives, tuple(i < kept for i in range(max_lives)))


def used_chip(name: str, used: bool) -> Chip:
    return Chip("chip used" if used else "chip", f"{name} {'used' if used else 'ready'}")


# ---- Status line and ending --------------------------------------------------------------------


def status(page: _Page) -> Status:
    view, result = page.view, page.result
    if result:
        return Status(css="over", headline="Game over.", text=result_sentence(page))
    turn_of = None
    if page.my_turn:
        headline = "Your move."
    elif page.current:
        headline = f"{page.who(page.current)}'s turn."
        turn_of = page.who(page.current)
    elif view["stage"] == "lobby":
        headline = "Choosing classes."
    else:
        headline = "Setting up."
    if view["phase"] == "awaiting_turn_action":
        casts = page.me is not None and page.me["class"] == "mage" and page.current == page.seat
        text = "Draw a card" + (" or cast a spell" if casts else "") + "."
    else:
        text = PHASE_TEXT.get(view["phase"], "")
    note = None
    if not page.seat:
        note = "Watching live."
    elif page.me and page.me["status"] != "active" and view["status"] == "playing":
        note = f"Your character is out ({page.me['status']}); you can keep watching."
    turn = page.turn
    return Status(
        css="" if page.seat else "watching",
        headline=headline,
        turn_of=turn_of,
        text=text,
        waiting_for=", ".join(page.who(s) for s in page.awaited) if page.awaited and not page.my_turn else None,
        timed=view["status"] == "playing",
        round_hint=(
            f"Round {turn['round_number']} of at most {turn['round_limit']} · turn {turn['turn_number']}"
            if turn
            else None
        ),
        note=note,
    )


def result_sentence(page: _Page) -> str:
    """The engine's sentence for the end (its ``text``), with the players' names for their seats."""
    result = page.result
    assert result is not None  # only called once the game is over
    if result["result"] == "victory":
        return f"Victory: {page.who(page.chars[0]['id'])} escaped the dungeon!"
    if result["result"] == "team_victory":
        return f"Team victory: {', '.join(page.who(s) for s in result['escaped'])} escaped."
    if result["result"] == "abandoned":
        return "Everyone left: the game is abandoned."
    return f"Defeat: {page.defeat_reasons.get(result['reason'], result['reason'])}."


def setup_warnings(page: _Page) -> list[str]:
    """The options' warnings, shown until the first round is over."""
    if page.turn and page.turn["round_number"] != 1:
        return []
    return list(page.view["warnings"])


def ending(page: _Page) -> Ending | None:
    if not page.result:
        return None
    classes = page.data.CLASSES
    fame = [
        FameLine(
            page.who(e["player"]),
            classes[e["class"]]["name"],
            e["level"],
            e["lives"],
            e["max_lives"],
            e["speed"],
            e["turns_taken"],
            e["outcome"],
        )
        for e in page.view["hall_of_fame"]
    ]
    return Ending(ENDING_TITLES.get(page.result["result"], "Defeat"), fame)


# ---- The boss fight ---------------------------------------------------------------------------


def duel(page: _Page) -> Duel | None:
    cb = page.view["combat"]
    if not cb:
        return None
    phase = page.view["phase"]
    boss = cb["boss_name"]
    boss_chips = []
    if cb["boss_rank"] == "Q":
        boss_chips.append(used_chip("Second Wind", cb["second_wind_used"]))
    if cb["boss_rank"] == "K":
        boss_chips.append(
            Chip("chip hot", "Royal Barrage! 3 cards each")
            if cb["barrage"]
            else Chip("chip", "Royal Barrage at 1 life")
        )
    if cb["result"] == "defeated":
        boss_chips.append(Chip("chip good", "Defeated"))
    elif cb["result"] == "fighters_lost":
        boss_chips.append(Chip("chip bad", "No fighter left"))
    dash_buttons = page.buttons("dash")
    lines = fight_lines(page)
    return Duel(
        challenger=page.who(cb["challenger"]),
        boss_name=boss,
        boss_card=cb["boss_card"],
        boss_card_css="boss-card defeated" if cb["result"] == "defeated" else "boss-card",
        boss_card_label=f"{boss}, {Card.parse(cb['boss_card']).name}",
        boss_pips=pips(cb["boss_lives"], cb["boss_max_lives"], f"The {boss}"),
        boss_chips=boss_chips,
        fighters=[fighter(page, cb, f) for f in (cb["fighters"] or [cb["challenger"]])],
        asking_helpers=phase == "awaiting_join",
        helpers=[
            Helper(
                page.who(h),
                ("joins the fight" if cb["join_answers"][h] else "stays out") if h in cb["join_answers"] else None,
            )
            for h in cb["eligible_helpers"]
        ],
        exchange=exchange(page, cb) if cb["boss_cards"] and phase == "awaiting_combat_draw" else None,
        last_exchange=last_exchange(page, cb),
        blow_by_blow=[FightLine(e["event"], name_seats(e["text"], page.names)) for e in lines[-BLOW_BY_BLOW_SHOWN:]],
        blow_by_blow_open=any(e["event"] in ("second_wind", "strong_will") for e in lines),
        rewarding=phase == "awaiting_reward",
        still_choosing=", ".join(page.who(s) for s in cb["pending_rewards"]),
        dash=dash(page, cb["dash"]) if cb["dash"] else None,
        buttons=[Choice(b, "primary" if i == 0 else "") for i, b in enumerate(page.buttons(*FIGHT_ACTIONS))],
        dash_pad=[dash_way(b) for b in dash_buttons if b.action.get("direction")],
        no_dash=[replace(b, key=NO_DASH_KEY) for b in dash_buttons if not b.action.get("direction")],
        stat_hint=bool(page.buttons("choose_stat")),
    )


def fighter(page: _Page, cb: dict, seat: str) -> Fighter:
    c = page.by_id[seat]
    chips = []
    if c["class"] == "rogue":
        chips.append(used_chip("Critical Hit", cb["crit_used"]))
    if c["class"] == "soldier":
        chips.append(used_chip("Strong Will", cb["strong_will_used"]))
    if c["class"] == "swordsman":
        chips.append(Chip("chip", "Guard Break: ties hurt the boss"))
    active = c["status"] == "active"
    return Fighter(
        name=page.who(seat),
        class_name=c["class_name"],
        seat_number=c["seat_number"],
        letters=letters(c),
        css="fighter" if active else "fighter out",
        lead=seat == cb["lead"] and not cb["result"],
        challenger=seat == cb["challenger"],
        status=None if active else c["status"],
        pips=pips(c["lives"], c["max_lives"], page.who(seat)),
        lives=c["lives"],
        max_lives=c["max_lives"],
        chips=chips,
    )


def exchange(page: _Page, cb: dict) -> Exchange:
    boss_cards = cb["boss_cards"]
    several = len(boss_cards) > 1
    return Exchange(
        number=cb["exchange_number"],
        barrage=cb["barrage"],
        slots=[
            Slot(f"Slot {i}" if several else f"The {cb['boss_name']} draws", card)
            for i, card in enumerate(boss_cards, start=1)
        ],
        waiting=[page.who(f) for f in cb["fighters"] if page.by_id[f]["status"] == "active"],
    )


def last_exchange(page: _Page, cb: dict) -> LastExchange | None:
    ex = cb["last_exchange"]
    if not ex:
        return None
    boss = cb["boss_name"]
    several = len(ex["boss_cards"]) > 1
    matchups = []
    for m in ex["matchups"]:
        name = page.who(m["fighter"])
        if m["result"] == "boss_hit":
            outcome = (
                "Guard Break! " if m["guard_break"] else ""
            ) + f"The {boss} loses a life ({m['boss_lives']} left)"
        elif m["result"] == "fighter_hit":
            outcome = f"{name} loses a life ({m['fighter_lives']} left)"
        elif m["result"] == "tie":
            outcome = "Tie: no damage"
        else:
            outcome = "Void: not played out"
        matchups.append(
            Matchup(
                css=f"matchup {m['result']}" + (" guard-break" if m["guard_break"] else ""),
                slot_label=f"Slot {m['slot']}" if several else None,
                boss_card=m["boss_card"],
                boss_label=f"the {boss}'s {Card.parse(m['boss_card']).name}" if m["boss_card"] else "",
                fighter_card=m["fighter_card"],
                fighter_label=f"{name}'s {Card.parse(m['fighter_card']).name}" if m["fighter_card"] else "",
                fighter=name,
                outcome=outcome,
            )
        )
    return LastExchange(ex["number"], ex["barrage"], list(ex["crit_cards"]), matchups)


def fight_lines(page: _Page) -> list[dict]:
    """The fight blow by blow: the log's fight lines since the latest combat started (the first of
    its ``combat_started`` lines; the whole log when there is none)."""
    log = page.view["log"]
    start = 0
    for i, entry in enumerate(log):
        if entry["event"] == "combat_started" and (i == 0 or log[i - 1]["event"] != "combat_started"):
            start = i
    return [e for e in log[start:] if e["event"] in FIGHT_EVENTS]


def dash_way(button: ActionButton) -> dict:
    # The catalog leaves the dash keyless, so that digits go on picking the other choices in order:
    # the pad gives each way its arrow key (and declining is NO_DASH_KEY).
    direction = button.action["direction"]
    return {
        "button": replace(button, key=ARROW_KEYS[direction]),
        "place": COMPASS[direction],
        "arrow": ARROWS[direction],
    }


def dash(page: _Page, payload: dict) -> Dash:
    rank = payload["card"][:-1]
    squares = rank.replace("A", "1")
    return Dash(
        payload["card"], page.who(payload["athlete"]), f"{squares} square" + ("" if rank in ("A", "1") else "s")
    )


# ---- The board and the last move ---------------------------------------------------------------

PLAIN = Square("sq", plain=True)
PLAIN_ALT = Square("sq alt", plain=True)


def shown_move(page: _Page) -> dict | None:
    """The last move of the log: the page draws its trail, and animates it when it is fresh (the
    entries a page has not shown are the log's tail, so a fresh move is always this one)."""
    for entry in reversed(page.view["log"]):
        if "move" in entry:
            return entry["move"]
    return None


def board(page: _Page) -> Board | None:
    b = page.view["board"]
    if not b:
        return None
    width, height = b["width"], b["height"]
    exits = {(x, y) for x, y in b["exits"]}
    pits = {(x, y) for x, y in b["pits"]}
    start = tuple(b["start"]) if b["start"] else None
    sides: dict[tuple, list[str]] = defaultdict(list)
    for one, other in b["stop_walls"]:
        if one[0] == other[0]:
            low, high = (one, other) if one[1] < other[1] else (other, one)
            sides[tuple(low)].append("wt")
            sides[tuple(high)].append("wb")
        else:
            left, right = (one, other) if one[0] < other[0] else (other, one)
            sides[tuple(left)].append("wr")
            sides[tuple(right)].append("wl")
    redirects = {tuple(r["square"]): r["kind"] for r in b["redirects"]}
    targets = {tuple(button.action["square"]): button for button in page.buttons("place_marker", "choose_start")}
    move = shown_move(page)
    steps, bounce_at, move_start, arrive = trail(move)
    tokens: dict[tuple, list[Token]] = defaultdict(list)
    for c in page.chars:
        if c["position"]:
            css = (
                f"tok seat-{c['seat_number']}"
                + (" you" if c["id"] == page.seat else "")
                + (" current" if c["id"] == page.current else "")
            )
            tokens[tuple(c["position"])].append(
                Token(c["seat_number"], letters(c), css, arrive if move and move["who"] == c["id"] else None)
            )
    # Only these squares are more than their checker colour: the rest share two constant squares.
    special = {*exits, *pits, *sides, *redirects, *tokens, *steps, *targets, start, bounce_at, move_start}
    squares = []
    for y in range(height, 0, -1):
        for x in range(1, width + 1):
            k = (x, y)
            alt = (x + y) % 2 == 0
            if k not in special:
                squares.append(PLAIN_ALT if alt else PLAIN)
                continue
            marker = "exit" if k in exits else "pit" if k in pits else None
            css = "".join(
                (
                    "sq",
                    *(f" {side}" for side in sides.get(k, ())),
                    " alt" if alt else "",
                    " start" if k == start else "",
                    f" {marker}" if marker else "",
                    " trail" if k in steps else "",
                )
            )
            here = tokens.get(k, [])
            squares.append(
                Square(
                    css,
                    plain=False,
                    target=targets.get(k),
                    redirect=redirects.get(k),
                    marker=marker,
                    steps=tuple(steps.get(k, ())),
                    bounce=k == bounce_at,
                    move_start=k == move_start,
                    tokens=tuple(here),
                    tokens_css=f"toks n{min(len(here), 3)}" if here else "",
                )
            )
    placed = [c for c in page.chars if c["position"]]
    description = "".join(
        (
            f"The board, {width} by {height} squares. ",
            *(f"Exit at {sq(s)}. " for s in b["exits"]),
            *(f"Pit at {sq(s)}. " for s in b["pits"]),
            f"{len(b['stop_walls'])} stop walls. " if b["stop_walls"] else "",
            f"{len(b['redirects'])} redirecting walls. " if b["redirects"] else "",
            *(f"{page.who(c['id'])} the {c['class_name']} at {sq(c['position'])}. " for c in placed),
        )
    )
    return Board(
        width=width,
        height=height,
        css=f"dc-board cols-{width}" + (" big" if width > 16 or height > 16 else ""),
        clickable=bool(targets),
        description=description,
        squares=squares,
        stop_walls=bool(b["stop_walls"]),
        redirects=bool(b["redirects"]),
        legend_tokens=[LegendToken(c["seat_number"], page.who(c["id"]), letters(c)) for c in placed],
    )


def trail(move: dict | None) -> tuple[dict[tuple, list[Step]], tuple | None, tuple | None, str]:
    """The last move drawn on the board: its steps by square (in order, with the way each square
    was entered), where the Ninja turned around, where the move set out, and the classes of the
    mover's arrival (timed after its last step)."""
    steps: dict[tuple, list[Step]] = defaultdict(list)
    if not move or not move["path"]:
        return steps, None, None, "arrive st-0"
    path = move["path"]
    previous = move["from"]
    for n, (x, y) in enumerate(path, start=1):
        dx, dy = x - previous[0], y - previous[1]
        arrow = "→" if dx > 0 else "←" if dx < 0 else "↑" if dy > 0 else "↓"
        steps[(x, y)].append(Step(min(n, LAST_TRAIL_STEP), arrow, n == len(path)))
        previous = (x, y)
    bounce_at = None
    if move["bounced"]:
        # The Ninja turned where the path first doubles back (or at once, at its start square).
        full = [move["from"], *path]
        bounce_at = next(
            (tuple(full[i]) for i in range(1, len(full) - 1) if full[i - 1] == full[i + 1]), tuple(move["from"])
        )
    return steps, bounce_at, tuple(move["from"]), f"arrive st-{min(len(path), LAST_TRAIL_STEP)}"


def last_move(page: _Page) -> LastMove | None:
    move = shown_move(page)
    if not move or not page.view["board"]:
        return None
    path = move["path"]
    return LastMove(
        card=move["card"],
        badge=f"{ARROWS[move['direction']]} {move['distance']}",
        who=page.who(move["who"]),
        verb="dashed" if move["dash"] else "moved",
        direction=move["direction"],
        distance=move["distance"],
        route=f"{sq(move['from'])} → {sq(path[-1])}" if path else "blocked at once, no step taken",
        bounced=move["bounced"],
        redirects=[sq(r) for r in move["redirects"]],
    )


# ---- This seat's turn, the party, the cards ----------------------------------------------------


def turn_panel(page: _Page) -> TurnPanel | None:
    """This seat's choices outside a fight, and its hand."""
    view, me, seat = page.view, page.me, page.seat
    mine_now = [b for b in page.scene.buttons if b.action["type"] in TURN_ACTIONS]
    hand = me["hand"] if me and me["hand"] else []
    if not mine_now and not hand:
        return None
    if view["stage"] == "lobby":
        title = "Choose your class"
    elif view["stage"] == "setup":
        title = "Set up the board"
    else:
        title = "Your turn" if mine_now else "Your hand"
    by_card: dict[str, list[Choice]] = defaultdict(list)
    for b in page.buttons("play_card", "fortune_telling"):
        if b.action.get("card"):
            by_card[b.action["card"]].append(Choice(b, "primary" if b.action["type"] == "play_card" else ""))
    fortune = page.buttons("fortune_telling")
    turn = page.turn
    shows_fortune_card = view["phase"] == "awaiting_fortune" and turn and turn["movement_card"] and page.current == seat
    spells = page.data.SPELLS
    return TurnPanel(
        title=title,
        class_choices=[
            ClassChoice(
                replace(b, key=CLASS_KEYS.get(b.action["class"])),
                "primary" if view["classes"].get(seat) == b.action["class"] else "",
                page.data.CLASSES[b.action["class"]]["summary"],
            )
            for b in page.buttons("choose_class")
        ],
        start_buttons=page.buttons("start_game"),
        placing=placing(page),
        draw=next(iter(page.buttons("draw_card")), None),
        spells=[(b, spells[b.action["spell"]]["summary"]) for b in page.buttons("cast_spell")],
        fortune_card=HandCard(turn["movement_card"], page.suit_badge(turn["movement_card"]))
        if shows_fortune_card
        else None,
        hand=[HandCard(code, page.suit_badge(code), by_card.get(code, [])) for code in hand],
        hand_heading=bool(mine_now),
        fortune_swaps=[b for b in fortune if not page.hand_mode and b.action.get("card")],
        fortune_keep=[Choice(b, "" if page.hand_mode else "primary") for b in fortune if b.action.get("card") is None],
        discards=page.buttons("discard_to_limit"),
        active_spells=", ".join(spells[e]["name"] for e in me["active_effects"])
        if me and me["active_effects"]
        else None,
    )


def placing(page: _Page) -> Placing | None:
    """Where the host puts a marker or the start square: the same choice as clicking the board."""
    buttons = page.buttons("place_marker") or page.buttons("choose_start")
    if not buttons:
        return None
    action = buttons[0].action
    board = page.view["board"]
    if action["type"] == "choose_start":
        prompt, kind, label = "the start square (an edge square)", None, "Start here"
    elif action["kind"] == "exit":
        prompt, kind, label = "an Exit", "exit", "Place the Exit"
    else:
        prompt, kind, label = "a Pit", action["kind"], "Place the Pit"
    return Placing(prompt, action["type"], kind, label, range(1, board["width"] + 1), range(1, board["height"] + 1))


def party(page: _Page) -> Party | None:
    if not page.chars:
        return None
    classes, spells = page.data.CLASSES, page.data.SPELLS
    members = []
    for c in page.chars:
        has_turn = c["id"] == page.current and not page.result
        details = [classes[c["class"]]["ability"]]
        if c["position"]:
            details.append(f"at {sq(c['position'])}")
        if page.hand_mode:
            details.append(f"{c['hand_count']} cards in hand")
        if c["bosses_defeated"]:
            details.append(f"beat {', '.join(c['bosses_defeated'])}")
        members.append(
            Member(
                css="member"
                + (" current" if has_turn else "")
                + (" out" if c["status"] not in ("active", "escaped") else ""),
                seat_number=c["seat_number"],
                letters=letters(c),
                name=page.who(c["id"]),
                you=c["id"] == page.seat,
                class_name=c["class_name"],
                turn=has_turn,
                status=None
                if c["status"] == "active"
                else Chip("tag won" if c["status"] == "escaped" else "tag", c["status"]),
                lives=c["lives"],
                max_lives=c["max_lives"],
                speed=c["speed"],
                level=c["level"],
                details=" · ".join(details),
                chips=[Chip("chip hot", f"{spells[e]['name']} (this turn)") for e in c["active_effects"]]
                + [Chip("chip", f"{spells[e]['name']} (next turn)") for e in c["pending_effects"]],
            )
        )
    return Party("The party" if len(page.chars) > 1 else "Your character", members)


def piles(page: _Page) -> Piles | None:
    view = page.view
    if view["status"] not in ("playing", "finished"):
        return None
    discard = view["discard"]
    top = discard[-1] if discard else None
    return Piles(
        deck_count=view["deck_count"],
        discard_top=top,
        discard_top_label=f"top of the discard pile: {Card.parse(top).name}" if top else "",
        discard_count=len(discard),
        removed=list(view["removed"]),
    )


def roster_marks(page: _Page) -> RosterMarks | None:
    """The table's roster marks (only a party has one): who is out, and whose turn it is."""
    if len(page.view["players"]) <= 1:
        return None
    return RosterMarks(
        {c["id"]: c["status"] for c in page.chars if c["status"] != "active"}, None if page.result else page.current
    )


def leave(page: _Page) -> Leave | None:
    buttons = page.buttons("leave_game")
    if not buttons:
        return None
    if len(page.chars) > 1:
        return Leave(
            buttons[0],
            "Leave the game",
            "Your character leaves the dungeon with no Hall of Fame entry; the others play on.",
        )
    return Leave(buttons[0], "Give up", "The game ends in defeat.")
