"""What each seat may see (§11.2), the result, and button labels for actions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import kit
from . import actions, combat
from .core import is_face, pretty_list
from .data import BOSSES, CLASSES, HIDDEN_OPTIONS


def view(state: dict[str, Any], seat: str | None) -> dict[str, Any]:
    opts = state["options"]
    hand_mode = opts["turn_mode"] == "three_card_hand"
    board = state["board"]
    out: dict[str, Any] = {
        "game": "dungeon-cards",
        "status": "setup" if state["status"] in ("lobby", "setup") else state["status"],
        "stage": state["status"],
        "phase": state["phase"],
        "seat": seat if seat in state["players"] else None,
        "host": state["host"],
        "players": list(state["players"]),
        "classes": dict(state["classes"]),
        "options": {k: kit.deep_copy(v) for k, v in opts.items() if k not in HIDDEN_OPTIONS},
        "warnings": warnings(state),
        "board": None,
        "deck_count": len(state["deck"]),
        "discard": list(state["discard"]),
        "removed": list(state["removed"]),
        "characters": [],
        "turn": None,
        "combat": None,
        "last_spell": dict(state["last_spell"]) if state["last_spell"] else None,
        "awaiting": actions.awaiting(state),
        "actions": [],
        "outcome": kit.deep_copy(state["outcome"]),
        "hall_of_fame": kit.deep_copy(state["hall_of_fame"]),
        "log": [
            _log_entry(e, seq)
            for seq, e in enumerate((e for e in state["log"] if "private" not in e or e["private"] == seat), start=1)
        ],
    }
    if board is not None:
        out["board"] = {
            "width": board["width"],
            "height": board["height"],
            "start": list(board["start"]) if board["start"] else None,
            "exits": [list(s) for s in board["exits"]],
            "pits": [list(s) for s in board["pits"]],
            "stop_walls": [[list(a), list(b)] for a, b in board["stop_walls"]],
            "redirects": [
                {"square": [int(x) for x in k.split(",")], "kind": kind} for k, kind in board["redirects"].items()
            ],
        }
    for c in state["characters"]:
        mine = c["id"] == seat
        out["characters"].append(
            {
                "id": c["id"],
                "class": c["class"],
                "class_name": CLASSES[c["class"]]["name"],
                "seat_number": c["seat_number"],
                "level": c["level"],
                "lives": c["lives"],
                "max_lives": c["max_lives"],
                "speed": c["speed"],
                "position": list(c["position"]) if c["position"] else None,
                "status": c["status"],
                "hand_count": len(c["hand"]),
                "hand": list(c["hand"]) if mine else None,
                "pending_effects": list(c["pending_effects"]),
                "active_effects": list(c["active_effects"]),
                "turns_taken": c["turns_taken"],
                "bosses_defeated": list(c["bosses_defeated"]),
            }
        )
    turn = state["turn"]
    if turn is not None:
        cur = turn["current"]
        drawn = turn["drawn_this_turn"]
        if hand_mode and cur != seat:
            drawn = [c for c in drawn if is_face(c)]
        out["turn"] = {
            "current": cur,
            "turn_number": turn["turn_number"],
            "round_number": turn["round_number"],
            "round_limit": opts["round_limit"],
            "movement_card": turn["movement_card"],
            "drawn_this_turn": list(drawn),
            "fortune_used": turn["fortune_used"],
        }
    cb = state["combat"]
    if cb is not None:
        out["combat"] = {
            "boss_card": cb["boss_card"],
            "boss_rank": cb["boss_rank"],
            "boss_name": BOSSES[cb["boss_rank"]]["name"],
            "boss_lives": cb["boss_lives"],
            "boss_max_lives": BOSSES[cb["boss_rank"]]["lives"],
            "boss_on_table": cb["boss_on_table"],
            "challenger": cb["challenger"],
            "eligible_helpers": list(cb["eligible_helpers"]),
            "join_answers": dict(cb["join_answers"]),
            "fighters": list(cb["fighters"]),
            "lead": combat.lead(state),
            "exchange_number": cb["exchange_number"],
            "barrage": cb["barrage"],
            "boss_cards": list(cb["boss_cards"]),
            "second_wind_used": cb["second_wind_used"],
            "crit_used": cb["crit_used"],
            "strong_will_used": cb["strong_will_used"],
            "draw_signal": cb["draw_signal"],
            "last_exchange": kit.deep_copy(cb["last_exchange"]),
            "result": cb["result"],
            "pending_rewards": list(cb["pending_rewards"]),
            "dash": dict(cb["dash"]) if cb["dash"] else None,
        }
    if seat is not None and seat in state["players"]:  # a spectator's None is never a player; mypy needs the test
        out["actions"] = [
            {"action": a, "label": actions.ENGINE.action_label(state, a)} for a in actions.legal(state, seat)
        ]
    return out


def full_view(state: dict[str, Any]) -> dict[str, Any]:
    """A replay's view (``rules_engine.contract``): the spectator's, plus what it hides (§11.2) —
    the deck in drawing order and every hand in seat order. The cards each seat read in its own
    log lines (its hand, its draws) are those hands, so the lines are not repeated."""
    out = view(state, None)
    revealed: list[dict[str, Any]] = []
    if state["deck"]:
        revealed.append({"title": "Deck, top card first", "cards": list(state["deck"])})
    turn = state["turn"]
    for c in state["characters"]:
        if not c["hand"]:
            continue
        section: dict[str, Any] = {"title": f"Hand of {c['id']}", "cards": list(c["hand"])}
        if turn is not None and turn["current"] == c["id"]:
            unseen = [card for card in turn["drawn_this_turn"] if not is_face(card)]
            if unseen and state["options"]["turn_mode"] == "three_card_hand":
                section["note"] = f"Drawn this turn: {pretty_list(unseen)}."
        revealed.append(section)
    out["revealed"] = revealed
    return out


def _log_entry(e: dict[str, Any], seq: int) -> dict[str, Any]:
    """A log entry as a page sees it: its place in this viewer's log, event and text, and a move's
    public path (§11.5 ``moved``)."""
    out = {"seq": seq, "event": e["event"], "text": e["text"]}
    if "move" in e:
        out["move"] = kit.deep_copy(e["move"])
    return out


def warnings(state: dict[str, Any]) -> list[str]:
    opts = state["options"]
    out = []
    if opts["draw_stats"]:
        out.append(
            "Draw your Stats is on: a Speed of 5 or more makes every move at least 6 squares, "
            "which can leave middle squares unreachable. A larger board is suggested."
        )
    return out


def result(state: dict[str, Any]) -> dict[str, Any] | None:
    if state["status"] != "finished":
        return None
    outcome = state["outcome"]
    chars = state["characters"]
    if outcome["result"] == "victory":
        winners = [c["id"] for c in chars]
    elif outcome["result"] == "team_victory":
        winners = [c["id"] for c in chars if c["status"] != "left"]
    else:
        winners = []
    return {
        "winners": winners,
        "scores": {c["id"]: c["level"] for c in chars},
        "reason": outcome["reason"],
        "result": outcome["result"],
        "text": result_sentence(outcome, chars),
        "escaped": list(outcome["escaped"]),
        "hall_of_fame": kit.deep_copy(state["hall_of_fame"]),
    }


DEFEAT_REASONS = {
    "fell": "fell into the Pit",
    "died": "died in a fight",
    "round limit": "the round limit ran out",
    "gave up": "gave up",
}


def result_sentence(outcome: dict[str, Any], chars: list[dict[str, Any]], who: Callable[[str], str] = str) -> str:
    """The end in one sentence (§7.4): ``outcome`` (the state's, or the result: its ``result``,
    ``reason`` and ``escaped``) and the characters in seat order; ``who`` names a seat (the log
    names seats by their ids; a page, by the players' names)."""
    if outcome["result"] == "victory":
        return f"Victory: {who(chars[0]['id'])} escaped the dungeon!"
    if outcome["result"] == "team_victory":
        return f"Team victory: {', '.join(who(seat) for seat in outcome['escaped'])} escaped."
    if outcome["result"] == "abandoned":
        return "Everyone left: the game is abandoned."
    return f"Defeat: {DEFEAT_REASONS.get(outcome['reason'], outcome['reason'])}."
