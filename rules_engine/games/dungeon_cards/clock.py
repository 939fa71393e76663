"""The party's turn clock (a digital adaptation): which decision is being waited for, how long it
may take, and what it defaults to when the time is up.

The rules give no time limit, but the platform does (issue 6: party turns run "with the
platform's timer and presence rules"): without one, a connected player who never acts stalls
everybody. The engine knows no time. ``turn_clock`` names the decision now awaited and its
seconds (``options["turn_seconds"]``; 0 = no limit); the web layer applies the server-only
``{"type": "timeout"}`` once they are up. A solo game is never timed: nobody waits for its player.

One clock covers everything owed at the same moment (§9.2): when several players owe a decision
together (joining a fight, rewards, the lead's draw and a helper Rogue's Critical Hit), the clock
does not restart as each one answers, and a timeout settles every decision still owed. Each
default is the choice the rules treat as the normal or the "nothing extra" one:

- the turn (``awaiting_turn_action``): ``draw_card``, the basic turn of §4.1. The rules have no
  pass, and a Mage's spell is optional (§9.3), so the Mage draws too;
- Fortune Telling: keep the card(s) (``fortune_telling`` with ``null``, §11.3);
- choosing a card in hand mode: the card held longest (the first in the hand);
- the hand limit: discard the cards drawn last (the hand keeps its three oldest cards);
- joining a fight: stay out, as a pending join counts as declined when a player leaves (§11.3);
- the lead fighter's signal: draw, with no Critical Hit; a helper Rogue's Critical Hit: kept
  for later (a pending Critical Hit counts as unused when a player leaves, §11.3);
- a reward: Lives (+1 max lives and +1 lives). Speed is the riskier point: it can make squares
  unreachable (§3.2's warning), so it is never chosen for a player;
- the Athlete's dash: no dash; the card is discarded (§5.11 step 4).

A timeout settles one decision point; what follows (say, the fight a timed-out draw revealed)
gets a fresh clock.

>>> from . import new_game
>>> s = new_game(1, ["A", "B"], {"classes": {"A": "ninja", "B": "tank"}, "turn_seconds": 60})
>>> turn_clock(s)
{'seat': 'A', 'number': '1.turn', 'seconds': 60}
>>> s = timeout(s, "A")
>>> s["log"][-3]["text"], turn_clock(s)["seat"]
('A draws 8♥.', 'B')
"""

from __future__ import annotations

from typing import Any

from ...errors import IllegalAction, InvalidAction
from . import actions as _actions
from .core import char, clone, is_party, log
from .data import HAND_SIZE

# Short names of the phases in a clock's number (the web layer stores "seat:number", ≤ 64 chars).
_PHASES = {
    "awaiting_turn_action": "turn",
    "awaiting_fortune": "fortune",
    "awaiting_play": "play",
    "awaiting_hand_discard": "discard",
    "awaiting_join": "join",
    "awaiting_combat_draw": "draw",
    "awaiting_reward": "reward",
    "awaiting_dash": "dash",
}


def decision(state: dict[str, Any]) -> str | None:
    """Which decision point the game is at, as a string that changes whenever a new one begins
    (the turn, the phase and, in a fight, the exchange) and not while a group answers it."""
    if state["status"] != "playing" or state["phase"] not in _PHASES:
        return None
    number = f"{state['turn']['turn_number']}.{_PHASES[state['phase']]}"
    if state["combat"] is not None:
        number += f".{state['combat']['exchange_number']}"
    return number


def turn_clock(state: dict[str, Any]) -> dict[str, Any] | None:
    """``{seat, number, seconds}`` for the web layer's timer, or None when nothing is timed.

    ``seat`` is the character whose turn it is (a fight belongs to its challenger's turn, even once
    the challenger is dead), so the clock keeps its seat while helpers answer; ``number`` is the
    decision point; ``seconds`` 0 means no limit."""
    number = decision(state)
    if number is None or not is_party(state):
        return None
    return {"seat": state["turn"]["current"], "number": number, "seconds": state["options"].get("turn_seconds", 0)}


def default_action(state: dict[str, Any], seat: str) -> dict[str, Any] | None:
    """What ``seat`` is taken to choose when its time is up (see the module docstring)."""
    kinds = {a["type"] for a in _actions.legal(state, seat)} - {"leave_game"}
    c = char(state, seat)
    if "draw_card" in kinds:
        return {"type": "draw_card"}
    if "fortune_telling" in kinds:
        return {"type": "fortune_telling", "card": None}
    if "play_card" in kinds:
        return {"type": "play_card", "card": c["hand"][0]}
    if "discard_to_limit" in kinds:
        return {"type": "discard_to_limit", "cards": c["hand"][HAND_SIZE:]}
    if "join_combat" in kinds:
        return {"type": "join_combat", "join": False}
    if "combat_draw" in kinds:
        return {"type": "combat_draw", "critical_hit": False}
    if "critical_hit" in kinds:
        return {"type": "critical_hit", "use": False}
    if "choose_stat" in kinds:
        return {"type": "choose_stat", "stat": "lives"}
    if "dash" in kinds:
        return {"type": "dash", "direction": None}
    return None


def timeout(state: dict[str, Any], seat: str, action: dict[str, Any] | None = None) -> dict[str, Any]:
    """The server's ``timeout``, sent as the clock's seat: every decision still owed at this
    decision point gets its default. Refused when nothing is timed or the seat is not the clock's."""
    if action is not None and set(action) != {"type"}:
        raise InvalidAction("timeout takes no parameters")
    if state["status"] == "finished":
        raise IllegalAction("the game is over")
    clock = turn_clock(state)
    if clock is None:
        raise IllegalAction("no decision is being timed now")
    if not clock["seconds"]:
        raise IllegalAction("this game has no time limit")
    if seat != clock["seat"]:
        raise IllegalAction("only the seat whose turn it is can time out")
    new = clone(state)
    owed = [(entry["seat"], default_action(new, entry["seat"])) for entry in _actions.awaiting(new)]
    log(new, "timed_out", f"Time is up for {', '.join(s for s, _ in owed)}: the default choice is made.")
    for who, default in owed:
        # Answers are made one at a time; the last one of a group moves the game on, and then
        # nothing more is owed at this decision point.
        if decision(new) != clock["number"]:
            break
        if default is None:
            continue
        _actions.do(new, who, _actions.parse(default))
    return new
