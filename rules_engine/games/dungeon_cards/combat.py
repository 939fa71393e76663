"""Combat against a boss (§5): joining, exchanges, matchups, class triggers, rewards and the dash.

One exchange spans two applies: the boss draws when the exchange begins (its cards are public, so
the Rogue can decide on a Critical Hit), then the lead fighter's ``combat_draw`` makes every
fighter draw and resolves every matchup at once. The exchange's cards lie in ``combat["table"]``
in draw order until the clean-up (§5.5 step 6).
"""

from __future__ import annotations

from typing import Any

from ...cards import pretty
from ...errors import IllegalAction
from ...text import counted
from . import deck as _deck
from . import endings, party, turns
from .core import char, is_party, log, pretty_list, value
from .data import BARRAGE_CARDS, BARRAGE_LIVES, BOSSES


def start(state: dict[str, Any], challenger: dict[str, Any], boss_card: str) -> None:
    """§5.1, §5.4: the boss card goes on the table; eligible helpers are asked first (§5.3)."""
    rank = boss_card[0]
    boss = BOSSES[rank]
    eligible = party.eligible_helpers(state, challenger) if is_party(state) else []
    state["combat"] = {
        "boss_card": boss_card,
        "boss_on_table": True,
        "boss_rank": rank,
        "boss_lives": boss["lives"],
        "challenger": challenger["id"],
        "eligible_helpers": eligible,
        "join_answers": {},
        "fighters": [challenger["id"]],
        "second_wind_used": False,
        "crit_used": False,
        "strong_will_used": False,
        "exchange_number": 0,
        "barrage": False,
        "boss_cards": [],
        "fighter_cards": {},
        "crit_cards": [],
        "table": [],
        "draw_signal": False,
        "crit_decision": None,
        "last_exchange": None,
        "result": None,
        "pending_rewards": [],
        "dash": None,
    }
    log(
        state,
        "combat_started",
        f"{challenger['id']} faces the {boss['name']} ({pretty(boss_card)}), {boss['lives']} lives.",
    )
    if eligible:
        state["phase"] = "awaiting_join"
        log(state, "combat_started", f"{', '.join(eligible)} may join the fight.")
    else:
        _begin_fight(state)


def join(state: dict[str, Any], cid: str, joined: bool) -> None:
    c = state["combat"]
    c["join_answers"][cid] = joined
    log(state, "combat_joined", f"{cid} {'joins the fight' if joined else 'stays out of the fight'}.")
    if len(c["join_answers"]) == len(c["eligible_helpers"]):
        _begin_fight(state)


def _begin_fight(state: dict[str, Any]) -> None:
    """Fighter order: the challenger, then helpers in seat order after it (§0.3); §5.4 steps 3–4."""
    c = state["combat"]
    fighters = [c["challenger"]] if char(state, c["challenger"])["status"] == "active" else []
    fighters += [h for h in c["eligible_helpers"] if c["join_answers"].get(h) and char(state, h)["status"] == "active"]
    c["fighters"] = fighters
    if not fighters:
        _end(state, victory=False)
        return
    if len(fighters) > 1:
        log(state, "combat_started", f"Fighters: {', '.join(fighters)}.")
    _deck.shuffle_in(state, "combat_start")
    _begin_exchange(state)


def living(state: dict[str, Any]) -> list[str]:
    return [f for f in state["combat"]["fighters"] if char(state, f)["status"] == "active"]


def lead(state: dict[str, Any]) -> str | None:
    alive = living(state)
    return alive[0] if alive else None


def rogue_to_ask(state: dict[str, Any]) -> str | None:
    """The Rogue, when it is a fighter other than the lead whose Critical Hit decision is awaited."""
    c = state["combat"]
    if c["crit_used"] or c["crit_decision"] is not None:
        return None
    alive = living(state)
    for f in alive[1:]:
        if char(state, f)["class"] == "rogue":
            return f
    return None


def _begin_exchange(state: dict[str, Any]) -> None:
    """§5.5 step 1: the boss draws 1 card, or 3 in a Royal Barrage."""
    c = state["combat"]
    c["exchange_number"] += 1
    c["barrage"] = BOSSES[c["boss_rank"]]["special"] == "Royal Barrage" and c["boss_lives"] == BARRAGE_LIVES
    c["draw_signal"] = False
    c["crit_decision"] = None
    c["fighter_cards"] = {}
    c["crit_cards"] = []
    redrawn: list[str] = []
    cards = []
    for _ in range(BARRAGE_CARDS if c["barrage"] else 1):
        card = _deck.draw_number(state, redrawn)
        if card is not None:
            c["table"].append(card)
        cards.append(card)
    c["boss_cards"] = cards
    name = BOSSES[c["boss_rank"]]["name"]
    shown = pretty_list([x for x in cards if x])
    text = f"Exchange {c['exchange_number']}{' (Royal Barrage)' if c['barrage'] else ''}: the {name} draws {shown}"
    if redrawn:
        text += f" (face cards discarded: {pretty_list(redrawn)})"
    log(state, "exchange_started", text + ".")
    state["phase"] = "awaiting_combat_draw"


def combat_draw(state: dict[str, Any], cid: str, critical_hit: bool) -> None:
    c = state["combat"]
    if critical_hit:
        if char(state, cid)["class"] != "rogue":
            raise IllegalAction("only the Rogue can declare a Critical Hit")
        if c["crit_used"]:
            raise IllegalAction("Critical Hit has already been used in this combat")
    if char(state, cid)["class"] == "rogue" and not c["crit_used"]:
        c["crit_decision"] = critical_hit
    c["draw_signal"] = True
    _maybe_run(state)


# Ties can in principle repeat forever: one press stops after this many exchanges, and the fight
# then waits for the lead again (the button is offered again, single draws too).
MAX_EXCHANGES_PER_PRESS = 100


def may_draw_until_decided(state: dict[str, Any], cid: str) -> bool:
    """Whether ``cid`` may draw exchange after exchange (``draw_until_decided``): it is the lead
    fighter, the exchange waits for its signal, and no Critical Hit is left to decide. A Rogue
    with its Critical Hit unused has a real choice every exchange, so then each draw stays a press."""
    c = state["combat"]
    if state["status"] != "playing" or state["phase"] != "awaiting_combat_draw" or c is None:
        return False
    if cid != lead(state) or c["draw_signal"]:
        return False
    return c["crit_used"] or not any(char(state, f)["class"] == "rogue" for f in living(state))


def draw_until_decided(state: dict[str, Any], cid: str) -> None:
    """The lead's ``combat_draw`` (no Critical Hit) again and again, each one exactly as a single
    press would make it (same draws, same log), until the fight is decided or someone else must
    decide something (a new lead, a reward, the dash)."""
    fight = state["combat"]
    for _ in range(MAX_EXCHANGES_PER_PRESS):
        combat_draw(state, cid, False)
        if state["combat"] is not fight or not may_draw_until_decided(state, cid):
            return


def critical_hit(state: dict[str, Any], cid: str, use: bool) -> None:
    state["combat"]["crit_decision"] = use
    log(state, "exchange_drawn", f"{cid} {'declares a Critical Hit' if use else 'keeps the Critical Hit for later'}.")
    _maybe_run(state)


def _maybe_run(state: dict[str, Any]) -> None:
    c = state["combat"]
    if c["draw_signal"] and rogue_to_ask(state) is None:
        _run_exchange(state)


def _run_exchange(state: dict[str, Any]) -> None:
    """§5.5 steps 3–6."""
    c = state["combat"]
    slots = len(c["boss_cards"])
    redrawn: list[str] = []
    for f in living(state):
        cards = []
        crit = c["crit_decision"] and not c["crit_used"] and char(state, f)["class"] == "rogue"
        for slot in range(slots):
            if slot == 0 and crit:
                three = [x for x in (_deck.draw_number(state, redrawn) for _ in range(3)) if x is not None]
                c["table"].extend(three)
                c["crit_cards"] = three
                c["crit_used"] = True
                cards.append(max(three, key=value) if three else None)
                continue
            card = _deck.draw_number(state, redrawn)
            if card is not None:
                c["table"].append(card)
            cards.append(card)
        c["fighter_cards"][f] = cards
    parts = [f"{f} {pretty_list([x for x in cards if x])}" for f, cards in c["fighter_cards"].items()]
    text = "Fighters draw: " + "; ".join(parts)
    if c["crit_cards"]:
        text += f" (Critical Hit: {pretty_list(c['crit_cards'])}, best kept)"
    if redrawn:
        text += f" (face cards discarded: {pretty_list(redrawn)})"
    log(state, "exchange_drawn", text + ".")
    matchups = _resolve(state, slots)
    state["discard"].extend(c["table"])
    c["last_exchange"] = {
        "number": c["exchange_number"],
        "barrage": c["barrage"],
        "boss_cards": c["boss_cards"],
        "fighter_cards": c["fighter_cards"],
        "crit_cards": c["crit_cards"],
        "matchups": matchups,
    }
    c["table"], c["boss_cards"], c["fighter_cards"], c["crit_cards"] = [], [], {}, []
    if c["boss_lives"] <= 0:
        _end(state, victory=True)
    elif not living(state):
        _end(state, victory=False)
    else:
        _begin_exchange(state)


def _compare(fighter_card: str, boss_card: str, swordsman: bool) -> tuple[str, bool]:
    f, b = value(fighter_card), value(boss_card)
    if f > b:
        return "boss_hit", False
    if f < b:
        return "fighter_hit", False
    return ("boss_hit", True) if swordsman else ("tie", False)


def _replace(state: dict[str, Any], old: str, redrawn: list[str]) -> str | None:
    """Draw a replacement number card; the old one leaves the table for the discard pile."""
    new = _deck.draw_number(state, redrawn)
    if new is None:
        return None
    table = state["combat"]["table"]
    table.remove(old)
    state["discard"].append(old)
    table.append(new)
    return new


def _resolve(state: dict[str, Any], slots: int) -> list[dict[str, Any]]:
    """§5.6–§5.7: slot by slot, fighter by fighter; Second Wind and Strong Will before damage."""
    c = state["combat"]
    name = BOSSES[c["boss_rank"]]["name"]
    results = []
    for slot in range(slots):
        for f in list(c["fighter_cards"]):
            fc = c["fighter_cards"][f][slot]
            bc = c["boss_cards"][slot]
            ch = char(state, f)
            record = {
                "slot": slot + 1,
                "fighter": f,
                "boss_card": bc,
                "fighter_card": fc,
                "result": "void",
                "guard_break": False,
            }
            if c["boss_lives"] <= 0 or ch["status"] != "active" or fc is None or bc is None:
                results.append(record)
                log(state, "matchup_resolved", f"Slot {slot + 1}, {f}: void.")
                continue
            while True:
                outcome, guard_break = _compare(fc, bc, ch["class"] == "swordsman")
                if (
                    outcome == "boss_hit"
                    and c["boss_lives"] == 1
                    and c["boss_rank"] == "Q"
                    and not c["second_wind_used"]
                ):
                    c["second_wind_used"] = True
                    redrawn: list[str] = []
                    new = _replace(state, bc, redrawn)
                    if new is not None:
                        log(
                            state,
                            "second_wind",
                            f"Second Wind! The Queen replaces {pretty(bc)} with {pretty(new)}"
                            + (f" (face cards discarded: {pretty_list(redrawn)})." if redrawn else "."),
                        )
                        bc = c["boss_cards"][slot] = new
                    continue
                if (
                    outcome == "fighter_hit"
                    and ch["lives"] == 1
                    and ch["class"] == "soldier"
                    and not c["strong_will_used"]
                ):
                    c["strong_will_used"] = True
                    redrawn = []
                    new = _replace(state, fc, redrawn)
                    if new is not None:
                        log(
                            state,
                            "strong_will",
                            f"Strong Will! {f} replaces {pretty(fc)} with {pretty(new)}"
                            + (f" (face cards discarded: {pretty_list(redrawn)})." if redrawn else "."),
                        )
                        fc = c["fighter_cards"][f][slot] = new
                    continue
                break
            record.update(boss_card=bc, fighter_card=fc, result=outcome, guard_break=guard_break)
            text = f"Slot {slot + 1}, {f}: {pretty(fc)} against {pretty(bc)}: "
            if outcome == "boss_hit":
                c["boss_lives"] -= 1
                left = counted(c["boss_lives"], "life", "lives")
                text += ("tie, Guard Break! " if guard_break else "") + f"the {name} is hit ({left})."
            elif outcome == "fighter_hit":
                ch["lives"] -= 1
                text += f"{f} is hit ({ch['lives']}/{ch['max_lives']} lives)."
            else:
                text += "tie, no damage."
            record["boss_lives"], record["fighter_lives"] = c["boss_lives"], ch["lives"]
            results.append(record)
            log(state, "matchup_resolved", text)
            if ch["lives"] <= 0:
                endings.remove(state, ch, "dead")
    return results


def _end(state: dict[str, Any], victory: bool) -> None:
    """§5.9: the boss card goes to the removed pile (victory) or the discard pile, then a shuffle."""
    c = state["combat"]
    if c["table"]:
        state["discard"].extend(c["table"])
        c["table"], c["boss_cards"] = [], []
    c["boss_on_table"] = False
    c["result"] = "defeated" if victory else "fighters_lost"
    name = BOSSES[c["boss_rank"]]["name"]
    if victory:
        state["removed"].append(c["boss_card"])
        log(state, "combat_ended", f"The {name} is defeated and removed from the game.")
    else:
        state["discard"].append(c["boss_card"])
        log(state, "combat_ended", f"No fighter is left: the {name} goes to the discard pile.")
    _deck.shuffle_in(state, "combat_end")
    if victory:
        c["pending_rewards"] = living(state)
        state["phase"] = "awaiting_reward"
    else:
        after_fight(state)


def choose_stat(state: dict[str, Any], cid: str, stat: str) -> None:
    """§5.10: +1 level and a stat point spent at once."""
    c = state["combat"]
    ch = char(state, cid)
    ch["level"] += 1
    ch["bosses_defeated"].append(c["boss_rank"])
    if stat == "lives":
        ch["max_lives"] += 1
        ch["lives"] += 1
    else:
        ch["speed"] += 1
    c["pending_rewards"].remove(cid)
    log(
        state,
        "level_up",
        f"{cid} reaches level {ch['level']} and raises {stat.capitalize()}: "
        f"lives {ch['lives']}/{ch['max_lives']}, speed {ch['speed']}.",
    )
    if not c["pending_rewards"]:
        after_rewards(state)


def after_rewards(state: dict[str, Any]) -> None:
    """§5.11: a surviving Athlete gets a dash card."""
    c = state["combat"]
    athlete = next((f for f in living(state) if char(state, f)["class"] == "athlete"), None)
    if athlete is not None:
        redrawn: list[str] = []
        card = _deck.draw_number(state, redrawn)
        if card is not None:
            c["dash"] = {"athlete": athlete, "card": card}
            state["phase"] = "awaiting_dash"
            log(
                state,
                "dash_card",
                f"{athlete} draws {pretty(card)} for a Controlled Dash"
                + (f" (face cards discarded: {pretty_list(redrawn)})." if redrawn else "."),
            )
            return
    after_fight(state)


def dash(state: dict[str, Any], cid: str, direction: str | None) -> None:
    c = state["combat"]
    card = c["dash"]["card"]
    c["dash"] = None
    ch = char(state, cid)
    if direction is None:
        log(state, "moved", f"{cid} declines the dash.")
        state["discard"].append(card)
    else:
        moved = turns.move(state, ch, direction, value(card), f"dash with {pretty(card)}", card=card, dash=True)
        state["discard"].append(card)
        if moved:
            turns.land(state, ch)
    after_fight(state)


def after_fight(state: dict[str, Any]) -> None:
    """§5.9 step 5: the challenger's end of turn, or the next character if it is gone."""
    if state["status"] != "playing":
        return
    state["combat"] = None
    turns.end_turn(state)


def on_leave(state: dict[str, Any], cid: str) -> None:
    """Ruling 58 / §11.3 ``leave_game`` during a combat: owed decisions lapse."""
    c = state["combat"]
    phase = state["phase"]
    if phase == "awaiting_join":
        if cid in c["eligible_helpers"] and cid not in c["join_answers"]:
            join(state, cid, False)
    elif phase == "awaiting_combat_draw":
        if cid in c["fighters"]:
            if not living(state):
                _end(state, victory=False)
            else:
                _maybe_run(state)
    elif phase == "awaiting_reward":
        if cid in c["pending_rewards"]:
            c["pending_rewards"].remove(cid)
            if not c["pending_rewards"]:
                after_rewards(state)
    elif phase == "awaiting_dash" and c["dash"]["athlete"] == cid:
        state["discard"].append(c["dash"]["card"])
        c["dash"] = None
        after_fight(state)
