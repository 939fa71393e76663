"""The status line (whose turn, what the moment asks) and the end of the game (the engine's
result sentence with the players' names, the Hall of Fame)."""

from __future__ import annotations

from dataclasses import dataclass

from rules_engine.games.dungeon_cards import views as engine_views

from .page import Page

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


def status(page: Page) -> Status:
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


def result_sentence(page: Page) -> str:
    """The engine's sentence for the end (its ``text``), with the players' names for their seats."""
    result = page.result
    assert result is not None  # only called once the game is over
    return engine_views.result_sentence(result, page.chars, page.who)


def setup_warnings(page: Page) -> list[str]:
    """The options' warnings, shown until the first round is over."""
    if page.turn and page.turn["round_number"] != 1:
        return []
    return list(page.view["warnings"])


def ending(page: Page) -> Ending | None:
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
