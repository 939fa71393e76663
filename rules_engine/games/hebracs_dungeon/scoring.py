"""Result, score and leaderboard order (13.7).

``score = 200 × A + 50 × (level − 1) + 5 × C`` plus, on a victory,
``1000 + 10 × life + max(0, 300 − 3 × T)``.

>>> points(aces=4, level=3, cleared=27, turns=40, life=9, victory=True)
2305
>>> points(aces=2, level=2, cleared=15, turns=22, life=0, victory=False)
525
"""

from __future__ import annotations

from typing import Any

from rules_engine.cards import pretty

from . import battle, data

REASONS = {"won": "victory", "dead": "death", "stranded": "stranded", "resigned": "resigned"}
ENDINGS = {
    "won": "Victory! You hold the four legendary treasures.",
    "dead": "You died in Hebrac's Dungeon.",
    "stranded": "Stranded: the Hand Deck ran out of cards.",
    "resigned": "You gave up the quest.",
}
"""How each ending reads, before its score (the result's sentence)."""
WATCHED_ENDINGS = {
    "won": "Victory! {name} holds the four legendary treasures.",
    "dead": "{name} died in Hebrac's Dungeon.",
    "stranded": "Stranded: the Hand Deck ran out of cards.",
    "resigned": "{name} gave up the quest.",
}
"""The same endings as an onlooker reads them: the player by ``name``."""


def _sentence(ending: str, cause: str, score: int) -> str:
    """The result's sentence: the ending, the cause of death (if any), the score."""
    return " ".join(filter(None, (ending, cause, f"Score {score}.")))


def watched_text(res: dict[str, Any], name: str) -> str:
    """``result``'s sentence as an onlooker reads it, naming the player ``name``.

    >>> watched_text({"reason": "resigned", "cause": "", "scores": {"p1": 75}}, "Ann")
    'Ann gave up the quest. Score 75.'
    """
    status = next(status for status, reason in REASONS.items() if reason == res["reason"])
    return _sentence(WATCHED_ENDINGS[status].format(name=name), res.get("cause", ""), sum(res["scores"].values()))


def cause_of_death(state: dict[str, Any]) -> str:
    """Why the player died, in a sentence that reads the same to the player and to onlookers.

    Life is lost in two ways only: a battle round (the battle is still open when it kills) and
    Hebrac's game (6.14)."""
    fight = state["battle"]
    if fight is None:
        return "Hebrac's game took the last of the life: a black test card costs 5."
    foe = battle.describe(fight["enemy"]).lower()
    last = fight["last_attack"]
    cost = f": the last round cost {last['damage']} life" if last else ""
    return f"Killed in battle by {foe} ({pretty(fight['enemy'])}){cost}."


def points(*, aces: int, level: int, cleared: int, turns: int, life: int, victory: bool) -> int:
    total = 200 * aces + 50 * (level - 1) + 5 * cleared
    if victory:
        total += 1000 + 10 * life + max(0, 300 - 3 * turns)
    return total


def details(state: dict[str, Any]) -> dict[str, Any]:
    aces = sum(1 for ace in data.LEGENDARY if ace in state["inventory"])
    counters = state["counters"]
    return {
        "aces": aces,
        "level": state["level"],
        "chambers_cleared": counters["chambers_cleared"],
        "turns": counters["turns"],
        "life": state["life"],
    }


def score(state: dict[str, Any]) -> int:
    d = details(state)
    return points(
        aces=d["aces"],
        level=d["level"],
        cleared=d["chambers_cleared"],
        turns=d["turns"],
        life=d["life"],
        victory=state["status"] == "won",
    )


def result(state: dict[str, Any]) -> dict[str, Any] | None:
    if state["status"] == "playing":
        return None
    seat = state["seat"]
    cause = cause_of_death(state) if state["status"] == "dead" else ""
    return {
        "winners": [seat] if state["status"] == "won" else [],
        "scores": {seat: score(state)},
        "reason": REASONS[state["status"]],
        "text": _sentence(ENDINGS[state["status"]], cause, score(state)),
        "cause": cause,
        "ranked": state["options"]["deck"] is None,
        **details(state),
    }


def leaderboard_key(res: dict[str, Any]) -> tuple[bool, int, int]:
    """Sort key for one board (ascending = better): victories first, then score, then fewer turns.

    Ties after that go to the earlier finish, which the web layer knows and appends.

    >>> a = {"reason": "victory", "scores": {"p1": 1500}, "turns": 30}
    >>> b = {"reason": "death", "scores": {"p1": 2000}, "turns": 10}
    >>> sorted([b, a], key=leaderboard_key) == [a, b]
    True
    """
    return (res["reason"] != "victory", -sum(res["scores"].values()), res["turns"])
