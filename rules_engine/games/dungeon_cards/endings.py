"""Characters leaving the dungeon, the end of the game and the Hall of Fame (§7).

A character leaves the board by escaping, falling, dying, being lost to the round limit or by its
player leaving the game; its hand goes to the discard pile and its spell effects lapse (§4.2, §5.8).
"""

from __future__ import annotations

from typing import Any

from .core import active, is_party, log, sq
from .data import CLASSES

LEAVE_TEXT = {
    "escaped": "escapes the dungeon",
    "fallen": "falls into the Pit",
    "dead": "dies",
    "lost": "is lost in the dungeon",
    "left": "leaves the game",
}
EVENT = {"escaped": "escaped", "fallen": "fell", "dead": "died", "lost": "lost", "left": "left"}
SOLO_REASON = {"escaped": "escaped", "fallen": "fell", "dead": "died", "lost": "round limit", "left": "gave up"}


def remove(state: dict[str, Any], c: dict[str, Any], status: str) -> None:
    square = c["position"]
    c["status"] = status
    c["position"] = None
    if c["hand"]:
        state["discard"].extend(c["hand"])
        c["hand"] = []
    c["pending_effects"] = []
    c["active_effects"] = []
    where = f" at {sq(square)}" if square and status != "left" else ""
    log(
        state,
        EVENT[status],
        f"{c['id']} {LEAVE_TEXT[status]}{where} (level {c['level']}, "
        f"lives {c['lives']}/{c['max_lives']}, speed {c['speed']}).",
    )


def mods(options: dict[str, Any]) -> list[str]:
    used = []
    if (options["board_width"], options["board_height"]) != (10, 10):
        used.append("bigger map")
    if options["exit_count"] > 1:
        used.append("extra exits")
    if options["pit_count"] > 1:
        used.append("extra pits")
    if options["stop_walls"] or options["redirects"] or options["random_stop_walls"] or options["random_redirects"]:
        used.append("walls")
    if options["potion_roll"]:
        used.append("potions")
    if options["draw_stats"]:
        used.append("draw your stats")
    return used


def hall_of_fame_entry(state: dict[str, Any], c: dict[str, Any], outcome: str) -> None:
    """§7.3. The date is the web layer's to add: the engine knows no clock."""
    opts = state["options"]
    entry = {
        "player": c["id"],
        "class": c["class"],
        "level": c["level"],
        "lives": c["lives"],
        "max_lives": c["max_lives"],
        "speed": c["speed"],
        "bosses_defeated": list(c["bosses_defeated"]),
        "turns_taken": c["turns_taken"],
        "outcome": outcome,
        "turn_mode": opts["turn_mode"],
        "board_size": f"{opts['board_width']}x{opts['board_height']}",
        "mods": mods(opts),
        "party_size": len(state["players"]),
    }
    state["hall_of_fame"].append(entry)
    log(
        state,
        "hall_of_fame",
        f"{c['id']} the {CLASSES[c['class']]['name']} enters the Hall of Fame ({outcome}, level {c['level']}).",
    )


def escape(state: dict[str, Any], c: dict[str, Any]) -> None:
    remove(state, c, "escaped")
    hall_of_fame_entry(state, c, "escaped")
    if not is_party(state):
        game_over(state, "victory", "escaped")
    elif state["options"]["after_first_escape"] == "end":
        for other in active(state):
            hall_of_fame_entry(state, other, "team victory")
        game_over(state, "team_victory", "escaped")
    elif not active(state):
        all_gone(state)


def fall(state: dict[str, Any], c: dict[str, Any]) -> None:
    remove(state, c, "fallen")
    if not active(state):
        all_gone(state)


def escaped(state: dict[str, Any]) -> list[str]:
    return [c["id"] for c in state["characters"] if c["status"] == "escaped"]


def all_gone(state: dict[str, Any]) -> None:
    """No active character is left (§7.2): team victory if someone escaped, else defeat."""
    if escaped(state):
        game_over(state, "team_victory", "everyone has left the dungeon")
    elif not is_party(state):
        game_over(state, "defeat", SOLO_REASON[state["characters"][0]["status"]])
    else:
        game_over(state, "defeat", "nobody escaped")


def round_limit(state: dict[str, Any]) -> None:
    """§7.4: every active character is lost."""
    log(state, "lost", f"Round {state['options']['round_limit']} is over: the round limit is reached.")
    for c in active(state):
        remove(state, c, "lost")
    all_gone(state)


def game_over(state: dict[str, Any], result: str, reason: str) -> None:
    if state["status"] == "finished":
        return
    state["status"] = "finished"
    state["phase"] = "game_over"
    state["outcome"] = {"result": result, "reason": reason, "escaped": escaped(state)}
    words = {"victory": "Victory", "defeat": "Defeat", "team_victory": "Team victory"}[result]
    log(state, "game_over", f"Game over: {words} ({reason}).")
