"""The boss fight: the boss and its ability (``data.BOSSES``), the fighters, the exchange being
drawn and the last one, the fight blow by blow, and the Athlete's dash."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules_engine.cards import Card
from rules_engine.games.dungeon_cards.core import value

from ....domain.play import ActionButton
from ...rendering import name_seats
from .page import ARROWS, Chip, Choice, Page, Pips, letters, pips, used_chip

ARROW_KEYS = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}
COMPASS = {"up": "n", "down": "s", "left": "w", "right": "e"}
NO_DASH_KEY = "0"

# The actions of a fight, and the log lines the fight's blow by blow shows.
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


def duel(page: Page) -> Duel | None:
    cb = page.view["combat"]
    if not cb:
        return None
    phase = page.view["phase"]
    boss = cb["boss_name"]
    boss_chips = []
    # The boss's ability is the engine's (``data.BOSSES``), and so are the Royal Barrage's numbers.
    special = page.data.BOSSES[cb["boss_rank"]]["special"]
    if special == "Second Wind":
        boss_chips.append(used_chip(special, cb["second_wind_used"]))
    if special == "Royal Barrage":
        boss_chips.append(
            Chip("chip hot", f"{special}! {page.data.BARRAGE_CARDS} cards each")
            if cb["barrage"]
            else Chip("chip", f"{special} at {page.data.BARRAGE_LIVES} life")
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


def fighter(page: Page, cb: dict, seat: str) -> Fighter:
    c = page.by_id[seat]
    chips = []
    ability = page.data.CLASSES[c["class"]]["ability"]  # the class's fight ability, named by the engine
    if c["class"] == "rogue":
        chips.append(used_chip(ability, cb["crit_used"]))
    if c["class"] == "soldier":
        chips.append(used_chip(ability, cb["strong_will_used"]))
    if c["class"] == "swordsman":
        chips.append(Chip("chip", f"{ability}: ties hurt the boss"))
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


def exchange(page: Page, cb: dict) -> Exchange:
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


def last_exchange(page: Page, cb: dict) -> LastExchange | None:
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


def fight_lines(page: Page) -> list[dict]:
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


def dash(page: Page, payload: dict) -> Dash:
    squares = value(payload["card"])  # the engine's worth of the dash card: how far the Athlete goes
    return Dash(payload["card"], page.who(payload["athlete"]), f"{squares} square" + ("" if squares == 1 else "s"))
