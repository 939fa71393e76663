"""The spell book (section 8): every spell, its cost and occasions, castable now or why not."""

from __future__ import annotations

from rules_engine.games.hebracs_dungeon import data
from rules_engine.games.hebracs_dungeon import spells as rules
from rules_engine.text import counted

from .page import Page, spell_form
from .payments import picker

SCALED_UNITS = {"remote_vision": "chamber", "future_perception": "card", "healing": "life point"}
"""What one step of a scaled spell buys, in words (its cost is per step)."""


def spell_costs() -> dict[str, int]:
    """Each spell's cost in magic points (per step for a scaled one), for the hints that name it."""
    return {sid: spec["cost"] for sid, spec in data.SPELLS.items()}


def spellbook(view: dict, page: Page) -> dict:
    """Every spell (section 8): its cost and occasions, whether it can be cast now or why not,
    and for each castable one its form, the engine's canonical potions ticked."""
    potions = page.choices["potions"]
    points = sum(p["points"] for p in potions)
    hint = counted(points, "magic point") + " in potions"
    fight = view["battle"]
    if fight:
        hint += " · this battle's spell is used" if fight["spell"] else " · one spell per battle"
    in_battle = view["phase"] == "battle"
    spells = []
    for sid, spec in data.SPELLS.items():
        standing = page.choices["spells"][sid]
        cast = page.casts.get(sid)
        unit = SCALED_UNITS.get(sid, "")
        entry = {
            "id": sid,
            "form": spell_form(sid),
            "name": spec["name"],
            "cost": f"{spec['cost']} per {unit}" if spec["scaled"] else f"{spec['cost']} points",
            "text": spec["text"],
            "ready": cast is not None,
            "state": "Ready — open to cast" if cast else f"Not now: {standing['reason']}",
            "when": "When: " + ", ".join(data.OCCASIONS[w] for w in spec["when"]) + ".",
            "needs": "",
            "aim": "",
            "picker": None,
        }
        if cast:
            entry["needs"] = (
                "target"
                if sid == "teleport" or (sid == "body_switch" and not in_battle)
                else "picks"
                if sid == "stone_statue"
                else ""
            )
            # How the spell is aimed: the template draws the matching note (or destination).
            entry["aim"] = {
                "teleport": "teleport",
                "stone_statue": "stone_statue",
                "body_switch": "body_switch_battle" if in_battle else "body_switch_map",
            }.get(sid, "")
            scaled = {"per": spec["cost"], "cap": standing["cap"], "unit": unit} if spec["scaled"] else None
            items = [(p["card"], p["points"], f"{p['points']} pts") for p in potions]
            entry["picker"] = picker(
                f"{spell_form(sid)}-p", "a_potions[]", items, cast["potions"], spec["cost"], "points", scaled=scaled
            )
        spells.append(entry)
    # What can be cast now comes first; the rest waits folded, each with its reason, so the book
    # does not fill the page with "Not now".
    others = [entry for entry in spells if not entry["ready"]]
    return {
        "hint": hint,
        "spells": spells,
        "ready": [entry for entry in spells if entry["ready"]],
        "others": others,
        "others_title": f"Other spells ({len(others)})",
        "stone_most": rules.STONE_STATUE_MOST,
        "stone_say": "{n} chosen.",
        "stone_chosen": "0 chosen.",
    }
