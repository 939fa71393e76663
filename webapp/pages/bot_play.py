"""What a bot did in an absent player's name, as the pages say it (issue 25).

A bot keeps a dropped player's seat until they are back (``domain/service.py``: take_over); each
action it plays is stored as the bot's (``actions.bot``) with the log entries it wrote in every
viewer's log (``actions.log_span``). From those:

- the log lines of a bot's actions for a person read "Bot (for Ann): …" ("Bot (for you): …" on
  Ann's own page);
- a win whose last action a bot played is the bot's, said in one sentence beside the result;
- the returning player's page lists what the bot did for them ("While you were away a bot played
  7 actions for you: …") until they dismiss it (``seats.bot_since``, cleared by the dismissal).

A bot's own seat (one the host added) is a bot for everyone to see: its actions are not marked.
"""

from __future__ import annotations

from dataclasses import dataclass

import rules_engine

from ..domain import play


@dataclass(frozen=True)
class BotPlay:
    """One viewer's words for what bots played for people at the table."""

    marks: dict[int, str]
    """This viewer's log ``seq`` -> the seat a bot played that line's action for."""
    won_for: str | None
    """The seat whose win a bot completed (its last action was the bot's), or None."""
    report: list[str]
    """The viewer's own report: the bot's actions for them since it took their seat, in words
    (repeats folded: "Move east (×2)"); empty when there is nothing to tell."""
    report_count: int


def bot_play(store, game: play.LoadedGame, seat: str | None, seats: list[dict]) -> BotPlay | None:
    """What bots played for people at this table, for ``seat``'s page (None: an onlooker); None
    when no bot ever played for a person here. ``seats``: the roster's rows (``board.seat_rows``)."""
    people = [row["seat"] for row in seats if row["bot_played"] and (row["kept"] or not row["bot"])]
    if not people:
        return None
    moves = store.bot_moves(game.id, people)
    if not moves:
        return None
    marks: dict[int, str] = {}
    for _seq, played_for, _action, span in moves:
        first, last = span.get(seat or "", span.get("", [0, 0]))
        marks.update(dict.fromkeys(range(first + 1, last + 1), played_for))
    result = game.record.result
    last_seq, last_seat = moves[-1][0], moves[-1][1]
    won_for = last_seat if result and last_seq == game.version and last_seat in (result.get("winners") or []) else None
    mine = next((row for row in seats if row["seat"] == seat), None)
    since = mine["bot_since"] if mine and not mine["kept"] else None
    told = [
        action for seq, played_for, action, _span in moves if since is not None and played_for == seat and seq > since
    ]
    return BotPlay(marks, won_for, _in_words(game, told), len(told))


def _in_words(game: play.LoadedGame, actions: list[dict]) -> list[str]:
    """The actions as their buttons name them, a run of the same one folded into one item."""
    words: list[str] = []
    runs: list[int] = []
    for action in actions:
        try:
            label = game.rules.action_label(game.state, action)
        except (rules_engine.InvalidAction, rules_engine.IllegalAction):
            label = str(action.get("type", "an action")).replace("_", " ").capitalize()
        if words and words[-1] == label:
            runs[-1] += 1
        else:
            words.append(label)
            runs.append(1)
    return [label if run == 1 else f"{label} (×{run})" for label, run in zip(words, runs, strict=True)]


def marked(entries: list, marks: dict[int, str], seat: str | None) -> list:
    """Log entries with the bot's lines saying whose they were ("Bot (for p2): …": the page names
    the seat)."""
    if not marks:
        return entries
    return [
        {**e, "text": f"Bot (for {'you' if marks[e['seq']] == seat else marks[e['seq']]}): {e['text']}"}
        if e["seq"] in marks
        else e
        for e in entries
    ]


def win_sentence(won_for: str, seat: str | None, names: dict[str, str]) -> str:
    """The result's word that the win was a bot's, played for ``won_for`` while they were away."""
    if won_for == seat:
        return "A bot won it for you while you were away."
    name = names.get(won_for, won_for)
    return f"A bot won it for {name} while {name} was away."
