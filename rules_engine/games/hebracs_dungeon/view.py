"""What a seat may see (13.3): the one place where hidden information is redacted.

``view(state, "p1")`` (the player) and ``view(state, None)`` (a spectator) return::

    game              "hebracs-dungeon"
    seat              the viewer's seat, or None for a spectator
    status            "playing" | "won" | "dead" | "stranded" | "resigned"
    phase             13.4: start_level, explore, battle, after_draw, adventurer, trade,
                      merchant, priestess, hebrac, hebrac_reward, remote_vision,
                      genie_of_death, overflow, over
    level             level number, from 1
    life, max_life    current life (never negative) and maximum
    base_max_life     the max_life option; genie_life_bonus: 2 per Genie of Life
    options           the effective options, without the stacked deck; stacked_deck: bool
    hand_deck         {"count": cards in the Hand Deck,
                       "known_top": the top cards the player knows from Future Perception
                                    (player only; [] for a spectator)}
    rows, cols        grid size; chambers: rows × cols
    grid              rows × cols list of chambers, each
                      {row, col, here (the player stands there),
                       enemy (code when face up, else None), enemy_present, enemy_up,
                       remembered (player only: code of a face-down enemy the player has
                                   seen — Remote Vision, an escape, a Body Switch — else None),
                       treasure (code when face up, else None), treasure_present,
                       treasure_up, visited, robbed, cleared, corner}
    level_effects     {anti_magic, curse, enemies_revealed, treasures_revealed}
    position          [row, col] or None
    inventory         card codes in acquisition order
    encounter         None or {kind, pos, guardian, treasure (face-up code), trade_proposed,
                       price (merchant), value (trade), fake_ace (buying would give a fake)}
    battle            None or {pos, enemy, enemy_life, spell (id used in this battle or None),
                       paralysis (rounds left), double_attack, super_strength, prisoners,
                       strength (pending potion bonus), round, drawn (attack cards waiting
                       in after_draw), drawn_sum and drawn_score (their values, their score),
                       shielded (no round can cost life now; magic_shielded: because of
                       Anti-Magic against a magician), forecast (``battle.forecast``:
                       what the next attack must draw, from what the player sees),
                       last_attack {cards, score, enemy_life, damage, won, card_sum, bonus}}
    pending           steps still to resolve: {"kind": "luck", "card"} (a drawn Genie of Luck
                      card, face up), {"kind": "take", "pos"} (a treasure to collect),
                      {"kind": "leave_battle"}
    decision          None or {kind, ...}: remote_vision {points, peeked},
                      genie_of_death {count}, hebrac_reward {}, overflow {limit}
    counters          {turns, chambers_cleared, rounds, spells_cast, life_lost}
    cleared           chambers of this level holding no card
    descent_threshold chambers to clear before `descend` (half, rounded up)
    score             the score so far (13.7); result: None or the final result
    log               the event texts the viewer may read, oldest first
    choices           player only (None for a spectator): {actions: [{action, label}],
                       potions: [{card, points}], gems, offer_cards: [{card, value}],
                       targets: {move, peek, destroy, body_switch, teleport, stone_statue},
                       spells: {spell: {castable, reason (why not, else None), cap (scaled spells)}}}

Never in a view: the seed, the Hand Deck order beyond the known top, the identity of a
face-down card the player has not seen, and cards that went under unrevealed (R27).
"""

from __future__ import annotations

from typing import Any

from rules_engine import kit

from . import actions, battle, data, flow, scoring, spells, trade, treasures
from .state import chamber_count, cleared_count, descent_threshold, is_cleared


def view(state: dict[str, Any], seat: str | None) -> dict[str, Any]:
    player = seat is not None and seat == state["seat"]
    rows, cols = len(state["grid"]), len(state["grid"][0])
    corners = {tuple(c) for c in flow.corners(state)}
    here = tuple(state["position"]) if state["position"] else None
    grid = []
    for r, row in enumerate(state["grid"], start=1):
        out_row = []
        for c, cell in enumerate(row, start=1):
            out_row.append(
                {
                    "row": r,
                    "col": c,
                    "here": (r, c) == here,
                    "enemy": cell["enemy"] if cell["enemy_up"] else None,
                    "enemy_present": cell["enemy"] is not None,
                    "enemy_up": cell["enemy_up"],
                    "remembered": cell["enemy"] if (player and cell["enemy_seen"] and not cell["enemy_up"]) else None,
                    "treasure": cell["treasure"] if cell["treasure_up"] else None,
                    "treasure_present": cell["treasure"] is not None,
                    "treasure_up": cell["treasure_up"],
                    "visited": cell["visited"],
                    "robbed": cell["robbed"],
                    "cleared": is_cleared(cell),
                    "corner": (r, c) in corners,
                }
            )
        grid.append(out_row)
    options = {k: v for k, v in state["options"].items() if k != "deck"}
    return {
        "game": "hebracs-dungeon",
        "seat": seat if player else None,
        "status": "playing" if state["status"] == "playing" else "finished",
        "ending": None if state["status"] == "playing" else state["status"],
        "phase": state["phase"],
        "level": state["level"],
        "life": state["life"],
        "max_life": state["max_life"],
        "base_max_life": state["base_max_life"],
        "genie_life_bonus": state["genie_life_bonus"],
        "options": options,
        "stacked_deck": state["options"]["deck"] is not None,
        "hand_deck": {
            "count": len(state["hand_deck"]),
            "known_top": list(state["hand_deck"][: state["known_top"]]) if player else [],
        },
        "rows": rows,
        "cols": cols,
        "chambers": chamber_count(state),
        "grid": grid,
        "level_effects": dict(state["level_effects"]),
        "position": list(state["position"]) if state["position"] else None,
        "inventory": list(state["inventory"]),
        "encounter": _encounter(state),
        "battle": _battle(state),
        "pending": [_step(s) for s in state["pending"]],
        "decision": _decision(state),
        "counters": dict(state["counters"]),
        "cleared": cleared_count(state),
        "descent_threshold": descent_threshold(state),
        "score": scoring.score(state),
        "result": scoring.result(state),
        "log": kit.log_entries(e["text"] for e in state["log"] if player or not e["private"]),
        "choices": _choices(state) if player else None,
    }


def full_view(state: dict[str, Any]) -> dict[str, Any]:
    """A replay's view (``rules_engine.contract``): the spectator's, plus what it hides — every
    face-down card of the level, chamber by chamber in reading order, and the Hand Deck in order.

    What the player knew of them (13.3) is said too: a face-down enemy the player has seen, the
    top cards Future Perception showed. A card that went under unrevealed (R27) is in the Hand
    Deck, so it is revealed there.
    """
    out = view(state, None)
    revealed: list[dict[str, Any]] = []
    for r, row in enumerate(state["grid"], start=1):
        for c, cell in enumerate(row, start=1):
            enemy = cell["enemy"] is not None and not cell["enemy_up"]
            treasure = cell["treasure"] is not None and not cell["treasure_up"]
            if not (enemy or treasure):
                continue
            what = " and ".join(w for w, hidden in (("enemy", enemy), ("treasure", treasure)) if hidden)
            section: dict[str, Any] = {
                "title": f"Face-down {what} in row {r}, column {c}",
                "cards": ([cell["enemy"]] if enemy else []) + ([cell["treasure"]] if treasure else []),
            }
            if enemy and cell["enemy_seen"]:
                section["note"] = "The player had seen this enemy."
            revealed.append(section)
    deck = state["hand_deck"]
    if deck:
        section = {"title": "Hand Deck, top card first", "cards": list(deck)}
        known = min(state["known_top"], len(deck))
        if known:
            section["note"] = (
                f"The player knew the top {known} cards (Future Perception)."
                if known > 1
                else "The player knew the top card (Future Perception)."
            )
        revealed.append(section)
    out["revealed"] = revealed
    return out


def _encounter(state: dict[str, Any]) -> dict[str, Any] | None:
    enc = state["encounter"]
    if enc is None:
        return None
    cell = state["grid"][enc["pos"][0] - 1][enc["pos"][1] - 1]
    return {
        "kind": enc["kind"],
        "pos": list(enc["pos"]),
        "guardian": enc["guardian"],
        "treasure": cell["treasure"] if cell["treasure_up"] else None,
        "trade_proposed": enc["trade_proposed"],
        "price": enc["price"],
        "value": enc["value"],
        "fake_ace": enc["fake_ace"],
    }


def _battle(state: dict[str, Any]) -> dict[str, Any] | None:
    fight = state["battle"]
    if fight is None:
        return None
    out = {k: v for k, v in fight.items() if k != "last_attack"}
    out["pos"] = list(fight["pos"])
    out["prisoners"] = list(fight["prisoners"])
    out["drawn"] = list(fight["drawn"])
    out["drawn_sum"] = battle.card_sum(fight["drawn"])
    out["drawn_score"] = battle.score(state, fight["drawn"])
    out["shielded"] = battle.shielded(state)
    out["magic_shielded"] = battle.magic_shielded(state)
    out["forecast"] = battle.forecast(state)
    last = fight["last_attack"]
    if last is None:
        out["last_attack"] = None
    else:
        cards_sum = battle.card_sum(last["cards"])
        bonus = last["score"] - battle.multiplier(state) * cards_sum
        out["last_attack"] = {**last, "cards": list(last["cards"]), "card_sum": cards_sum, "bonus": bonus}
    return out


def _step(step: dict[str, Any]) -> dict[str, Any]:
    if step["step"] == "luck":
        return {"kind": "luck", "card": step["card"]}
    if step["step"] == "take":
        return {"kind": "take", "pos": list(step["at"])}
    return {"kind": "leave_battle"}


def _decision(state: dict[str, Any]) -> dict[str, Any] | None:
    decision = state["decision"]
    if decision is None:
        return None
    out = {"kind": decision["kind"]}
    if decision["kind"] == "remote_vision":
        out["points"] = decision["points"]
        out["peeked"] = [list(p) for p in decision["peeked"]]
    elif decision["kind"] == "genie_of_death":
        out["count"] = decision["count"]
    elif decision["kind"] == "overflow":
        out["limit"] = state["options"]["inventory_limit"]
    return out


def _choices(state: dict[str, Any]) -> dict[str, Any]:
    legal = actions.legal(state)
    phase = state["phase"]
    inventory = state["inventory"]
    targets: dict[str, list[Any]] = {
        "move": [[a["row"], a["col"]] for a in legal if a["type"] == "move"],
        "peek": [[a["row"], a["col"]] for a in legal if a["type"] == "peek"],
        "destroy": treasures.genie_of_death_targets(state) if phase == "genie_of_death" else [],
        "body_switch": [],
        "teleport": [],
        "stone_statue": [],
    }
    cast = {a["spell"] for a in legal if a["type"] == "cast"}
    if "body_switch" in cast:
        targets["body_switch"] = spells.body_switch_targets(state)
    if "teleport" in cast:
        targets["teleport"] = spells.teleport_targets(state)
    if "stone_statue" in cast:
        targets["stone_statue"] = spells.stone_statue_targets(state)
    return {
        "actions": [{"action": a, "label": actions.ENGINE.action_label(state, a)} for a in legal],
        "potions": [{"card": c, "points": p} for c, p in spells.potion_items(state)],
        "gems": [c for c in inventory if data.is_gem(c)],
        "offer_cards": [{"card": c, "value": v} for c, v in trade.offer_items(inventory)],
        "targets": targets,
        "spells": {
            spell: {"castable": bool(standing["casts"]), "reason": standing["reason"], "cap": standing["cap"]}
            for spell, standing in spells.availability(state).items()
        },
    }
