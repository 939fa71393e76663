"""Options, the lobby and game setup (§2, §3.2, §8, §11.3 lobby actions).

>>> opts = normalize_options({"board_width": 20, "potion_roll": True}, ["ann"])
>>> opts["board_width"], opts["board_height"], opts["potion_roll"], opts["round_limit"]
(20, 10, True, 200)
>>> normalize_options({"board_width": 5}, ["ann"])
Traceback (most recent call last):
...
rules_engine.errors.InvalidAction: board_width must be a whole number from 6 to 30
"""

from __future__ import annotations

import math
import random
from typing import Any

from ... import turn_limits
from ...cards import check_stacked_deck, pretty, seeded_rng, shuffled, standard_deck
from ...errors import IllegalAction, InvalidAction
from . import deck as _deck
from . import turns
from .core import is_face, key, log, pretty_list, sq, value
from .data import (
    CHOICES,
    CLASSES,
    ENGINE_OPTIONS,
    HAND_SIZE,
    MAX_PARTY,
    OPTION_DEFAULTS,
    PARTY_ONLY,
    RANGES,
    REDIRECT_TURNS,
    TANK_BONUS,
    TURN_SECONDS_RANGE,
)
from .movement import all_edges, connected, edge_squares, is_edge, wall_key

# --- options --------------------------------------------------------------------------------


def _square(name: str, obj: object, width: int, height: int) -> list[int]:
    if not isinstance(obj, (list, tuple)) or len(obj) != 2 or not all(type(v) is int for v in obj):
        raise InvalidAction(f"{name} must be a square [x, y]")
    x, y = obj
    if not (1 <= x <= width and 1 <= y <= height):
        raise InvalidAction(f"{name} at {sq(obj)} is off the {width}×{height} board")
    return [x, y]


def normalize_options(options: dict[str, Any] | None, players: list[str]) -> dict[str, Any]:
    """Every option of §8.1 filled in and checked; ``InvalidAction`` names the first bad one."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InvalidAction("options must be a dictionary")
    unknown = sorted(set(options) - set(OPTION_DEFAULTS) - set(ENGINE_OPTIONS), key=str)
    if unknown:
        raise InvalidAction(f"unknown option(s): {', '.join(map(str, unknown))}")
    out: dict[str, Any] = {}
    for name, default in OPTION_DEFAULTS.items():
        v = options.get(name, default)
        if name in CHOICES:
            if v not in CHOICES[name]:
                raise InvalidAction(f"{name} must be one of {', '.join(CHOICES[name])}")
        elif name in RANGES:
            lo, hi = RANGES[name]
            if type(v) is not int or not lo <= v <= hi:
                raise InvalidAction(f"{name} must be a whole number from {lo} to {hi}")
        elif name in ("potion_roll", "draw_stats"):
            if type(v) is not bool:
                raise InvalidAction(f"{name} must be true or false")
        elif name in ("random_stop_walls", "random_redirects"):
            if type(v) is not int or v < 0:
                raise InvalidAction(f"{name} must be a whole number, 0 or more")
        elif name == "turn_seconds":
            if not turn_limits.allowed(v, TURN_SECONDS_RANGE):
                raise InvalidAction(turn_limits.refusal(TURN_SECONDS_RANGE))
        out[name] = v
    w, h = out["board_width"], out["board_height"]

    walls = out["stop_walls"]
    if not isinstance(walls, (list, tuple)):
        raise InvalidAction("stop_walls must be a list of [[x, y], [x, y]] pairs")
    seen: set[str] = set()
    norm_walls = []
    for wall in walls:
        if not isinstance(wall, (list, tuple)) or len(wall) != 2:
            raise InvalidAction("each stop wall must be a pair of neighbouring squares")
        a = _square("a stop wall square", wall[0], w, h)
        b = _square("a stop wall square", wall[1], w, h)
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            raise InvalidAction(f"a stop wall must separate two neighbouring squares, not {sq(a)} and {sq(b)}")
        k = wall_key(a, b)
        if k in seen:
            raise InvalidAction(f"the stop wall between {sq(a)} and {sq(b)} is listed twice")
        seen.add(k)
        norm_walls.append(sorted([a, b]))
    out["stop_walls"] = norm_walls
    if len(norm_walls) + out["random_stop_walls"] > (w - 1) * (h - 1):
        raise InvalidAction(f"at most {(w - 1) * (h - 1)} stop walls fit on a {w}×{h} board")

    redirects = out["redirects"]
    if not isinstance(redirects, (list, tuple)):
        raise InvalidAction('redirects must be a list of {"square": [x, y], "kind": "/" or "\\\\"}')
    norm_red = []
    taken: set[str] = set()
    for r in redirects:
        if not isinstance(r, dict) or set(r) != {"square", "kind"}:
            raise InvalidAction('each redirect must be {"square": [x, y], "kind": "/" or "\\\\"}')
        s = _square("a redirect square", r["square"], w, h)
        if r["kind"] not in REDIRECT_TURNS:
            raise InvalidAction('a redirect kind must be "/" or "\\\\"')
        if key(s) in taken:
            raise InvalidAction(f"two redirects on {sq(s)}")
        taken.add(key(s))
        norm_red.append({"square": s, "kind": r["kind"]})
    out["redirects"] = norm_red
    free = w * h - 1 - (out["exit_count"] + out["pit_count"])
    if len(norm_red) + out["random_redirects"] > free:
        raise InvalidAction(f"at most {free} redirects fit with these markers on a {w}×{h} board")

    # Engine-only options (data.ENGINE_OPTIONS).
    out["deck"] = None
    if options.get("deck") is not None:
        out["deck"] = check_stacked_deck(options["deck"], allowed=standard_deck())
    out["shuffles"] = options.get("shuffles", "random")
    if out["shuffles"] not in ("random", "stacked"):
        raise InvalidAction("shuffles must be random or stacked")
    rolls = options.get("d20_rolls", [])
    if not isinstance(rolls, (list, tuple)) or not all(type(r) is int and 1 <= r <= 20 for r in rolls):
        raise InvalidAction("d20_rolls must be a list of whole numbers from 1 to 20")
    out["d20_rolls"] = list(rolls)
    return out


def class_problem(cls: str, party_size: int) -> str | None:
    """Why ``cls`` cannot be chosen at a table of ``party_size`` players, or None (§3.3, ruling 55:
    the Mage and the Healer need a party, so a lobby holding one player refuses them)."""
    if cls in PARTY_ONLY and party_size < 2:
        return f"the {CLASSES[cls]['name']} can only be chosen in a party of 2 or more"
    return None


def check_classes(classes: object, players: list[str]) -> dict[str, Any]:
    """``options["classes"]``: ``{player: class}``, each class at most once (§3.3)."""
    if classes is None:
        return {}
    if not isinstance(classes, dict):
        raise InvalidAction("classes must map each player to a class")
    out: dict[str, str] = {}
    for player, cls in classes.items():
        if player not in players:
            raise InvalidAction(f"classes names {player!r}, who is not a player")
        if cls is None:
            continue
        if cls not in CLASSES:
            raise InvalidAction(f"unknown class {cls!r}; choose from {', '.join(CLASSES)}")
        if cls in out.values():
            raise InvalidAction(f"the {CLASSES[cls]['name']} can be taken by one character only")
        problem = class_problem(cls, len(players))
        if problem:
            raise InvalidAction(problem)
        out[player] = cls
    return out


def check_players(players: object) -> list[str]:
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) and p for p in players):
        raise InvalidAction("players must be a list of player names")
    if not 1 <= len(players) <= MAX_PARTY:
        raise InvalidAction(f"a party has 1 to {MAX_PARTY} characters")
    if len(set(players)) != len(players):
        raise InvalidAction("a player can only sit at the table once")
    return list(players)


# --- lobby actions --------------------------------------------------------------------------


def choose_class(state: dict[str, Any], seat: str, cls: str) -> None:
    taken = {c for p, c in state["classes"].items() if p != seat and c}
    if cls in taken:
        raise IllegalAction(f"the {CLASSES[cls]['name']} is already taken")
    problem = class_problem(cls, len(state["players"]))
    if problem:
        raise IllegalAction(problem)
    state["classes"][seat] = cls
    log(state, "lobby_updated", f"{seat} chooses the {CLASSES[cls]['name']}.")


def join_game(state: dict[str, Any], seat: str) -> None:
    if len(state["players"]) >= MAX_PARTY:
        raise IllegalAction(f"the party is full ({MAX_PARTY} characters)")
    state["players"].append(seat)
    state["classes"][seat] = None
    log(state, "lobby_updated", f"{seat} joins the party.")


def update_options(state: dict[str, Any], changes: dict[str, Any]) -> None:
    if "classes" in changes:
        raise InvalidAction("classes are chosen with choose_class")
    merged = {k: v for k, v in state["options"].items() if v is not None}
    merged.update(changes)
    state["options"] = normalize_options(merged, state["players"])
    state["rolls"] = list(state["options"]["d20_rolls"])
    log(state, "lobby_updated", "The host changes the options.")


def leave_before_start(state: dict[str, Any], seat: str) -> None:
    """Ruling 58: before the first turn a leaver is simply dropped; the next seat may become host."""
    state["players"].remove(seat)
    state["classes"].pop(seat, None)
    log(state, "lobby_updated", f"{seat} leaves the party.")
    if not state["players"]:
        state["status"], state["phase"] = "finished", "game_over"
        state["outcome"] = {"result": "abandoned", "reason": "everyone left", "escaped": []}
        log(state, "game_over", "Everyone left: the game is abandoned.")
        return
    if state["host"] == seat:
        state["host"] = state["players"][0]
        log(state, "lobby_updated", f"{state['host']} is now the host.")
    if len(state["players"]) == 1:
        only = state["players"][0]
        if state["classes"].get(only) in PARTY_ONLY:
            log(
                state,
                "lobby_updated",
                f"{only} must choose another class: the {CLASSES[state['classes'][only]]['name']} needs a party.",
            )
            state["classes"][only] = None
            if state["status"] == "setup":
                # §3.3: the class must be chosen again before the game starts.
                state["status"], state["phase"], state["board"] = "lobby", "lobby", None


# --- setup ----------------------------------------------------------------------------------


def _rng(state: dict[str, Any]) -> random.Random:
    n = state["counters"]["setup"]
    state["counters"]["setup"] = n + 1
    return seeded_rng(state["seed"], "setup", n)


def bottom_middle(width: int) -> list[int]:
    return [math.ceil(width / 2), 1]


def validate_start(state: dict[str, Any]) -> None:
    """``start_game``'s checks (§3.3, §8.2), without changing anything."""
    missing = [p for p in state["players"] if not state["classes"].get(p)]
    if missing:
        raise IllegalAction(f"every player must choose a class first ({', '.join(missing)} has not)")
    if len(state["players"]) < 2 and any(state["classes"][p] in PARTY_ONLY for p in state["players"]):
        raise IllegalAction("the Mage and the Healer need a party of 2 or more")
    opts = state["options"]
    w, h = opts["board_width"], opts["board_height"]
    if not connected(w, h, frozenset(wall_key(a, b) for a, b in opts["stop_walls"])):
        raise IllegalAction("board not connected")
    redirects = {key(r["square"]) for r in opts["redirects"]}
    if opts["start_square"] == "bottom_middle" and key(bottom_middle(w)) in redirects:
        raise IllegalAction("a redirect lies on the start square")
    edges = {"width": w, "height": h}
    if all(key(s) in redirects for s in edge_squares(edges)):
        raise IllegalAction("every edge square holds a redirect: there is nowhere to start")


def start_game(state: dict[str, Any]) -> None:
    """Check the lobby and the drawn layout, then run setup as far as it can go alone."""
    validate_start(state)
    opts = state["options"]
    w, h = opts["board_width"], opts["board_height"]
    redirects = {key(r["square"]): r["kind"] for r in opts["redirects"]}
    board = {
        "width": w,
        "height": h,
        "start": None,
        "exits": [],
        "pits": [],
        "stop_walls": [[list(a), list(b)] for a, b in opts["stop_walls"]],
        "redirects": redirects,
    }
    state["board"] = board
    state["status"] = "setup"
    log(
        state,
        "game_started",
        f"The game starts on a {w}×{h} board with "
        f"{len(state['players'])} character{'s' if len(state['players']) > 1 else ''}.",
    )
    if opts["start_square"] == "bottom_middle":
        _set_start(state, bottom_middle(w))
    elif opts["start_square"] == "random_edge":
        _set_start(state, _rng(state).choice(start_candidates(state)))
    else:
        state["phase"] = "placing_markers"


def start_candidates(state: dict[str, Any]) -> list[list[int]]:
    board = state["board"]
    return [s for s in edge_squares(board) if key(s) not in board["redirects"]]


def _need_on_board(board: dict[str, Any], square: list[int]) -> None:
    if not (1 <= square[0] <= board["width"] and 1 <= square[1] <= board["height"]):
        raise IllegalAction(f"the square at {sq(square)} is off the {board['width']}×{board['height']} board")


def choose_start(state: dict[str, Any], square: list[int]) -> None:
    board = state["board"]
    if board["start"] is not None or state["options"]["start_square"] != "chosen":
        raise IllegalAction("the start square is not being chosen now")
    _need_on_board(board, square)
    if not is_edge(board, square):
        raise IllegalAction("the start square must lie on the edge of the board")
    if key(square) in board["redirects"]:
        raise IllegalAction("the start square cannot hold a redirect")
    _set_start(state, square)


def _set_start(state: dict[str, Any], square: list[int]) -> None:
    board = state["board"]
    board["start"] = list(square)
    log(state, "game_started", f"The start square is {sq(square)}.")
    opts = state["options"]
    if opts["random_stop_walls"] or opts["random_redirects"]:
        _generate_walls(state)
    if opts["marker_placement"] == "manual":
        state["phase"] = "placing_markers"
        return
    rng = _rng(state)
    for kind, count in (("exit", opts["exit_count"]), ("pit", opts["pit_count"])):
        for _ in range(count):
            _put_marker(state, kind, rng.choice(marker_candidates(state)))
    finish_setup(state)


def _generate_walls(state: dict[str, Any]) -> None:
    """§8.2: generated stop walls avoid walled edges and are re-rolled if they would cut the board;
    generated redirects go on squares other than the start that hold no redirect."""
    board, opts = state["board"], state["options"]
    rng = _rng(state)
    w, h = board["width"], board["height"]
    walls = {wall_key(a, b) for a, b in board["stop_walls"]}
    # An edge whose wall would cut the board still would with more walls, so once rejected it is
    # left out of later rolls: the same distribution as re-rolling, without the wasted rolls.
    rejected: set[str] = set()
    for _ in range(opts["random_stop_walls"]):
        candidates = [e for e in all_edges(w, h) if wall_key(*e) not in walls and wall_key(*e) not in rejected]
        while True:
            edge = rng.choice(candidates)
            k = wall_key(*edge)
            if connected(w, h, frozenset(walls | {k})):
                break
            rejected.add(k)
            candidates.remove(edge)
        walls.add(k)
        board["stop_walls"].append(edge)
    for _ in range(opts["random_redirects"]):
        free_squares = [
            [x, y]
            for y in range(1, h + 1)
            for x in range(1, w + 1)
            if [x, y] != board["start"] and key([x, y]) not in board["redirects"]
        ]
        square = rng.choice(free_squares)
        board["redirects"][key(square)] = rng.choice(sorted(REDIRECT_TURNS))
    if opts["random_stop_walls"] or opts["random_redirects"]:
        log(
            state,
            "game_started",
            f"Walls are generated: {len(board['stop_walls'])} stop walls and "
            f"{len(board['redirects'])} redirects in all.",
        )


def marker_candidates(state: dict[str, Any]) -> list[list[int]]:
    """Squares a marker may go on (§2.4): not the start, no marker, no redirect."""
    board = state["board"]
    used = {key(s) for s in board["exits"] + board["pits"]} | {key(board["start"])} | set(board["redirects"])
    return [
        [x, y] for y in range(1, board["height"] + 1) for x in range(1, board["width"] + 1) if key([x, y]) not in used
    ]


def next_marker_kind(state: dict[str, Any]) -> str | None:
    board, opts = state["board"], state["options"]
    if len(board["exits"]) < opts["exit_count"]:
        return "exit"
    if len(board["pits"]) < opts["pit_count"]:
        return "pit"
    return None


def place_marker(state: dict[str, Any], kind: str, square: list[int]) -> None:
    board = state["board"]
    if state["options"]["marker_placement"] != "manual" or board["start"] is None:
        raise IllegalAction("markers are not being placed by hand now")
    expected = next_marker_kind(state)
    if kind != expected:
        raise IllegalAction("place every Exit first, then the Pits")
    _need_on_board(board, square)
    if square == board["start"]:
        raise IllegalAction("a marker cannot go on the start square")
    if key(square) in {key(s) for s in board["exits"] + board["pits"]}:
        raise IllegalAction(f"the square at {sq(square)} already holds a marker")
    if key(square) in board["redirects"]:
        raise IllegalAction(f"the square at {sq(square)} holds a redirect")
    _put_marker(state, kind, square)
    if next_marker_kind(state) is None:
        finish_setup(state)


def _put_marker(state: dict[str, Any], kind: str, square: list[int]) -> None:
    state["board"]["exits" if kind == "exit" else "pits"].append(list(square))
    log(state, "game_started", f"{'An Exit' if kind == 'exit' else 'A Pit'} is placed on {sq(square)}.")


def finish_setup(state: dict[str, Any]) -> None:
    """§2.5 steps 3–7: deck, stats, placement, hands, first turn."""
    opts = state["options"]
    rng = _rng(state)
    if opts["deck"]:
        rest = [c for c in standard_deck() if c not in set(opts["deck"])]
        state["deck"] = list(opts["deck"]) + (rest if opts["shuffles"] == "stacked" else shuffled(rest, rng))
    elif opts["shuffles"] == "stacked":
        state["deck"] = standard_deck()
    else:
        state["deck"] = shuffled(standard_deck(), rng)
    state["discard"], state["removed"] = [], []
    log(state, "deck_shuffled", "The 52 cards are shuffled to form the deck.")
    start = state["board"]["start"]
    state["characters"] = [
        {
            "id": p,
            "class": state["classes"][p],
            "seat_number": i + 1,
            "level": 1,
            "lives": 10,
            "max_lives": 10,
            "speed": 0,
            "position": list(start),
            "status": "active",
            "hand": [],
            "pending_effects": [],
            "active_effects": [],
            "turns_taken": 0,
            "bosses_defeated": [],
        }
        for i, p in enumerate(state["players"])
    ]
    if opts["draw_stats"]:
        _draw_stats(state)
    for c in state["characters"]:
        if c["class"] == "tank":
            c["max_lives"] += TANK_BONUS
            c["lives"] += TANK_BONUS
            log(state, "stats_drawn", f"{c['id']} (Tank) gains 5 lives: {c['lives']}/{c['max_lives']}.")
    if opts["turn_mode"] == "three_card_hand":
        _form_hands(state)
    state["status"] = "playing"
    state["turn"] = {
        "current": None,
        "turn_number": 0,
        "round_number": 1,
        "movement_card": None,
        "drawn_this_turn": [],
        "fortune_used": False,
        "healed": [],
    }
    log(state, "game_started", f"Everyone starts on {sq(start)}.")
    turns.begin_turn(state, state["characters"][0])


def _draw_stats(state: dict[str, Any]) -> None:
    """§3.2: lives, then speed, each the first 2–10 card; everything drawn goes back and is shuffled."""
    drawn: list[str] = []
    for c in state["characters"]:
        for stat in ("lives", "speed"):
            aside = []
            while True:
                card = _deck.draw(state)
                if card is None:  # cannot happen with 52 cards and 5 characters
                    break
                drawn.append(card)
                if not is_face(card) and value(card) >= 2:
                    break
                aside.append(card)
            if card is None:
                continue
            if stat == "lives":
                c["lives"] = c["max_lives"] = value(card)
            else:
                c["speed"] = value(card)
            log(
                state,
                "stats_drawn",
                f"{c['id']} draws {pretty(card)} for {stat}: {value(card)}"
                + (f" (set aside {pretty_list(aside)})." if aside else "."),
            )
    _deck.shuffle_in(state, "stats", extra=drawn)
    log(state, "deck_shuffled", "The stats cards go back and the deck is shuffled.")


def _form_hands(state: dict[str, Any]) -> None:
    """§2.5 step 6: draw until 3 number cards; face cards are discarded, never fought."""
    for c in state["characters"]:
        faces: list[str] = []
        while len(c["hand"]) < HAND_SIZE:
            card = _deck.draw_number(state, faces)
            if card is None:
                break
            c["hand"].append(card)
        log(
            state,
            "hand_formed",
            f"{c['id']} forms a hand of {len(c['hand'])} cards"
            + (f" (discarding {pretty_list(faces)})." if faces else "."),
        )
        log(state, "hand_formed", f"Your hand: {pretty_list(c['hand'])}.", private=c["id"])
