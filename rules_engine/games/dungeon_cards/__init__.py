"""Dungeon Cards — a dungeon crawl on grid paper driven by a deck of cards, solo or in a party.

Rules: ``docs/rules/dungeon-cards.md`` (section numbers in this package refer to it).
A number card moves you (value + Speed squares, the suit gives the way); a face card is a boss
you fight at once; end a move on the Exit to escape, on the Pit to fall.

>>> s = new_game(7, ["ann"], {"classes": {"ann": "swordsman"}, "deck": ["3C", "JH", "7D", "9S"],
...                           "marker_placement": "manual", "shuffles": "stacked"})
>>> s["phase"]
'placing_markers'
>>> s = apply(s, "ann", {"type": "place_marker", "kind": "exit", "square": [5, 8]})
>>> s = apply(s, "ann", {"type": "place_marker", "kind": "pit", "square": [8, 8]})
>>> s = apply(s, "ann", {"type": "draw_card"})
>>> view(s, "ann")["characters"][0]["position"]
[8, 1]
>>> s = apply(s, "ann", {"type": "draw_card"})
>>> v = view(s, "ann")
>>> v["phase"], v["combat"]["boss_name"], v["combat"]["boss_cards"]
('awaiting_combat_draw', 'Jack', ['7D'])
>>> [action_label(s, a) for a in legal_actions(s, "ann")]
['Draw', 'Draw until the fight is decided', 'Leave the game']

Players are the seat ids the web layer passes (their names appear in the log as given).

Options (§8.1 names; all optional): ``turn_mode`` (``single_draw``/``three_card_hand``),
``board_width``/``board_height`` (6–30), ``start_square`` (``bottom_middle``/``random_edge``/
``chosen``), ``marker_placement`` (``random``/``manual``), ``exit_count`` (1–4), ``pit_count``
(1–6), ``stop_walls`` (list of ``[[x, y], [x, y]]`` neighbour pairs), ``redirects`` (list of
``{"square": [x, y], "kind": "/" or "\\\\"}``), ``random_stop_walls``, ``random_redirects`` (≥ 0),
``potion_roll``, ``draw_stats`` (bools), ``after_first_escape`` (``end``/``continue``),
``round_limit`` (10–1000). Engine extras: ``classes`` ``{player: class}`` — when every player
has one the game skips the lobby and starts at once; ``deck`` (stacked deck, top first; the other
cards lie below in random order); ``shuffles`` (``"stacked"``: every shuffle puts the discard pile
under the deck, the test shuffle of §12.0); ``d20_rolls`` (scripted potion rolls, used first).

Actions (§11.3), ``{"type": ..., **params}``: ``join_game``, ``choose_class`` {class},
``update_options`` {options}, ``start_game``, ``leave_game`` (any time), ``choose_start``
{square}, ``place_marker`` {kind: exit|pit, square}, ``draw_card``, ``cast_spell`` {spell},
``fortune_telling`` {card: code or null}, ``play_card`` {card}, ``join_combat`` {join: bool},
``combat_draw`` {critical_hit: bool, optional}, ``draw_until_decided`` (the lead's
``combat_draw`` repeated, each exactly as a single press, until the fight is decided or another
decision is due; not while a Rogue's Critical Hit is unused), ``critical_hit`` {use: bool}, ``choose_stat``
{stat: lives|speed}, ``dash`` {direction: up|down|left|right or null}, ``discard_to_limit``
{cards: [codes]}. Squares are ``[x, y]``, x from 1 at the left, y from 1 at the bottom.

``view(state, seat)`` returns:

- ``game`` ``"dungeon-cards"``; ``status`` setup | playing | finished (the words every game's
  view shares); ``stage`` lobby | setup | playing | finished; ``phase`` (lobby, placing_markers,
  awaiting_turn_action, awaiting_fortune, awaiting_play, awaiting_join, awaiting_combat_draw,
  awaiting_reward, awaiting_dash, awaiting_hand_discard, game_over).
- ``seat`` the viewer's seat (``None`` for a spectator); ``host``; ``players`` in seat order;
  ``classes`` {player: class or null} (the lobby's choices).
- ``options`` the §8.1 options in force (never the stacked deck, shuffle mode or scripted rolls);
  ``warnings`` sentences the lobby must show (Draw your Stats).
- ``board`` null in the lobby, else {width, height, start, exits, pits, stop_walls: [[a, b]],
  redirects: [{square, kind}]} (start/markers may be missing while being placed).
- ``deck_count``; ``discard`` (bottom first, in discard order); ``removed`` (defeated bosses).
- ``characters`` in seat order: id, class, class_name, seat_number, level, lives, max_lives,
  speed, position (null once off the board), status (active | dead | fallen | escaped | lost |
  left), hand_count, hand (the viewer's own hand only, else null), pending_effects,
  active_effects (spell keys), turns_taken, bosses_defeated (ranks).
- ``turn`` null before play, else {current, turn_number, round_number, round_limit,
  movement_card (the basic-mode turn card while Fortune Telling is decided), drawn_this_turn
  (in hand mode others see only face cards), fortune_used}.
- ``combat`` null, or {boss_card, boss_rank, boss_name, boss_lives, boss_max_lives,
  boss_on_table, challenger, eligible_helpers, join_answers {id: bool}, fighters (fighter
  order), lead, exchange_number, barrage, boss_cards (this exchange's boss cards by slot, shown
  before the fighters draw), second_wind_used, crit_used, strong_will_used, draw_signal,
  last_exchange {number, barrage, boss_cards, fighter_cards {id: [cards]}, crit_cards, matchups:
  [{slot, fighter, boss_card, fighter_card, result boss_hit|fighter_hit|tie|void, guard_break,
  boss_lives, fighter_lives}]}, result null|defeated|fighters_lost, pending_rewards, dash
  {athlete, card} or null}.
- ``last_spell`` {mage, spell, cast_turn} or null.
- ``awaiting`` [{seat, actions: [types]}]: whose input is needed (public).
- ``actions`` the viewer's legal actions as [{action, label}].
- ``outcome`` null or {result victory|defeat|team_victory|abandoned, reason, escaped: [ids]}.
- ``hall_of_fame`` entries written this game (§7.3; the web layer adds the date).
- ``log`` [{event, text}]: §11.5 event names with plain-English text; entries private to a seat
  (its own hand draws) appear only in that seat's view. A ``moved`` entry also carries ``move``
  {who, from, path, direction, distance, bounced, redirects, card, dash} (public, §11.5), so a
  page can animate the path square by square.

Web hooks (the platform's presence and turn clock; ``server_actions`` are never sent by players
and never in ``legal_actions``):

- ``absence_action`` ``{"type": "absent"}`` is what the server applies when a player's page has
  been gone beyond the grace period: in party play it is ``leave_game`` (the seat's character
  leaves, the others play on); a solo game waits for its player, so there it is refused.
- ``turn_clock(state)`` ``{seat, number, seconds}`` and ``timeout_action`` ``{"type": "timeout"}``:
  in party play each decision may take ``options["turn_seconds"]`` seconds (default 90, 30–300,
  or 0 for no limit; not a rules option, the platform's timer). When the time is up the server
  sends ``timeout`` as the clock's seat and every decision still owed gets its default: draw
  (the turn), keep the cards (Fortune Telling), play the card held longest, discard the cards
  drawn last, stay out of the fight, draw without a Critical Hit, keep the Critical Hit, +1 Lives,
  no dash. ``clock.py`` says why each. Solo games are never timed.
- ``lobby_choice_problem(field, value, seats)``: why a waiting-room choice is refused at a table
  of ``seats`` players (ruling 55: Mage and Healer need 2 or more), or None.
- Newcomers join only in the lobby, so there is no ``join_action``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import IllegalAction, InvalidAction
from ...fame import HallOfFame
from ...options import Option
from . import actions as _actions
from . import clock as _clock
from . import data as _data
from . import reveals as _reveals
from . import risks as _risks
from . import setup as _setup
from . import views as _views
from .core import clone as _clone
from .core import log as _log
from .views import DEFEAT_REASONS as DEFEAT_REASONS  # the words of each defeat, for the pages too

slug = "dungeon-cards"
title = "Dungeon Cards"
min_players = 1
max_players = 5
TABLE = True  # one table for solo and party: the host may start alone or with 2–5 seats
PLAYERS_LABEL = "Solo or a party of 2–5"
BLURB = (
    "Pick a class and crawl a board of cards where every drawn card moves you: its "
    "suit is the direction, its rank the distance. Duel the royal bosses, level up, and "
    "find the exit — alone, or with friends who can step in to help a fight. Every "
    "escape earns a place in the Hall of Fame."
)
OPTIONS = _data.FORM_OPTIONS
LOBBY_FIELDS = (
    Option(
        "classes",
        "Class",
        "choice",
        choices=tuple(
            (key, f"{cls['name']} — {cls['ability']}: {cls['summary']}{' Party only.' if cls['party_only'] else ''}")
            for key, cls in _data.CLASSES.items()
        ),
    ),
)
"""Each seat chooses a class in the waiting room (a label reads "Name — what it does"); the choices
reach ``new_game`` as ``classes``, one for every seat, so the game skips its own lobby."""
UNIQUE_LOBBY_FIELDS = ("classes",)


def sets_the_deal(options: Mapping[str, Any]) -> bool:
    """Whether these options let a player know or shape the deal in advance (§7.3: such an escape
    is listed but not ranked): a stacked deck, "Keep the stacked order" shuffles, scripted dice,
    markers the host placed by hand, hand-placed walls or redirects.

    >>> sets_the_deal({"deck": ["3C"]}), sets_the_deal({"shuffles": "stacked"}), sets_the_deal({"d20_rolls": [20]})
    (True, True, True)
    >>> sets_the_deal({"turn_mode": "single_draw"})
    False
    """
    return (
        bool(options.get("deck"))
        or options.get("shuffles") == "stacked"
        or bool(options.get("d20_rolls"))
        or options.get("marker_placement") == "manual"
        or bool(options.get("stop_walls"))
        or bool(options.get("redirects"))
    )


# What the platform offers around the game (rules_engine/contract.py): after the solo games on the
# front page; no daily deal; every escape in the Hall of Fame, ranked as §7.3 says; bots.
FRONT_PAGE_PLACE = 40
HALL_OF_FAME = HallOfFame(
    page="dungeon_cards/hall_of_fame.html",
    sorts=(
        ("rank", "Rank"),
        ("name", "Name"),
        ("class", "Class"),
        ("level", "Level"),
        ("lives", "Lives"),
        ("speed", "Speed"),
        ("turns", "Turns"),
        ("board", "Board"),
        ("date", "Date"),
    ),
    # §7.3: level high to low, then current lives high to low, then turns low to high (then earlier first).
    ranking=(("level", "desc"), ("lives", "desc"), ("turns", "asc")),
    ascending_first=frozenset({"name", "class", "turns"}),
    set_deal=sets_the_deal,
)
BOT = "rules_engine.bots.dungeon_cards"
SPEECH = "rules_engine.games.dungeon_cards.speech"


def form_options(form: Mapping[str, Any], options: dict[str, Any]) -> None:
    """The creation form's board size: a preset of the rules (§2.2) or a custom width and height.

    A width or height changed beside a preset would be silently ignored, so it is refused instead
    (the fields show 10 until changed)."""
    size = options.pop("board_size")
    if size == "custom":
        return
    width, height = _data.BOARD_PRESETS[size]
    if options["board_width"] not in (width, 10) or options["board_height"] not in (height, 10):
        raise InvalidAction("Board size: choose Custom to use a width and height of your own.")
    options["board_width"], options["board_height"] = width, height


def form_fields_for(_options: Mapping[str, Any]) -> dict[str, str]:
    """The creation form's fields that make a game's options: its board as a custom size (a
    preset is stored as its width and height)."""
    return {"board_size": "custom"}


absence_action = {"type": "absent"}
timeout_action = {"type": "timeout"}
server_actions = ("absent", "timeout")
"""Applied by the server on a seat's behalf; a client posting one is refused by the web layer."""


def turn_clock(state: dict[str, Any]) -> dict[str, Any] | None:
    """The decision the party is waiting for, for the platform's timer: ``{seat, number,
    seconds}`` (``seconds`` 0 = no limit), or None (solo, not started, over)."""
    return _clock.turn_clock(state)


def fame_entries(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The Hall of Fame entries this game has written so far (§7.3), oldest first: each escape's
    ``player``, ``class``, ``level``, ``lives``, ``max_lives``, ``speed``, ``bosses_defeated``,
    ``turns_taken``, ``outcome``, ``turn_mode``, ``board_size``, ``mods`` and ``party_size``."""
    return [dict(entry) for entry in state.get("hall_of_fame", [])]


def lobby_choice_problem(field: str, value: str, seats: int) -> str | None:
    """Why the waiting room must refuse ``value`` for ``field`` at a table of ``seats`` players."""
    if field == "classes":
        return _setup.class_problem(value, seats)
    return None


def new_game(seed: int, players: list[str], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A new game. With a class for every player in ``options["classes"]`` setup runs at once
    (``InvalidAction`` if it cannot); otherwise the game waits in the lobby for ``choose_class``."""
    if type(seed) is not int:
        raise InvalidAction("the seed must be a whole number")
    players = _setup.check_players(players)
    raw = dict(options or {})
    classes = _setup.check_classes(raw.pop("classes", None), players)
    opts = _setup.normalize_options(raw, players)
    state: dict[str, Any] = {
        "seed": seed,
        "players": players,
        "host": players[0],
        "options": opts,
        "classes": {p: classes.get(p) for p in players},
        "status": "lobby",
        "phase": "lobby",
        "board": None,
        "deck": [],
        "discard": [],
        "removed": [],
        "characters": [],
        "turn": None,
        "combat": None,
        "last_spell": None,
        "outcome": None,
        "hall_of_fame": [],
        "log": [],
        "counters": {"shuffle": 0, "d20": 0, "setup": 0},
        "rolls": list(opts["d20_rolls"]),
    }
    if all(state["classes"].values()):
        try:
            _setup.start_game(state)
        except IllegalAction as err:
            raise InvalidAction(str(err)) from None
    return state


def legal_actions(state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
    """Every action ``seat`` may send now (``join_game`` for an outsider in the lobby)."""
    return _actions.legal(state, seat)


def apply(state: dict[str, Any], seat: str, action: dict[str, Any]) -> dict[str, Any]:
    """The state after ``seat`` sends ``action``; the input is never changed.

    ``InvalidAction`` for a malformed action, ``IllegalAction`` for one the rules forbid now. The
    server's own actions (``absent``, ``timeout``) are worded and checked apart from the players'.
    """
    if isinstance(action, dict) and action.get("type") == "absent":
        return _absent(state, seat, action)
    if isinstance(action, dict) and action.get("type") == "timeout":
        return _clock.timeout(state, seat, action)
    return _actions.ENGINE.apply(state, seat, action)


def _absent(state: dict[str, Any], seat: str, action: dict[str, Any]) -> dict[str, Any]:
    """The server's ``absent``: a party member whose page is gone leaves the game (§11.3
    ``leave_game``); a solo game is never ended behind its player's back."""
    if set(action) != {"type"}:
        raise InvalidAction("absent takes no parameters")
    if state["status"] == "finished":
        raise IllegalAction("the game is over")
    if seat not in state["players"]:
        raise IllegalAction("you are not a player in this game")
    if len(state["players"]) < 2:
        raise IllegalAction("a solo game waits for its player")
    new = _clone(state)
    _log(new, "left", f"{seat} has lost the connection for too long.")
    _actions.do(new, seat, {"type": "leave_game"})
    return new


reveals = _reveals.reveals
"""What an action showed that nobody had seen (``reveals.py``), or None; at a party, every
action (every move is shared): undo (``rules_engine.undo``) takes back only a solo game's moves."""


def view(state: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """What ``seat`` (or a spectator, ``None``) may know; the shape is documented above."""
    return _views.view(state, seat)


def loss_warning(state: dict[str, Any], seat: str, action: dict[str, Any]) -> str | None:
    """A sentence when ``action`` certainly loses a solo game (a move into the Pit), else None."""
    return _risks.loss_warning(state, seat, action)


def full_view(state: dict[str, Any]) -> dict[str, Any]:
    """A replay's view: the spectator's plus the deck and every hand (``views.full_view``)."""
    return _views.full_view(state)


def result(state: dict[str, Any]) -> dict[str, Any] | None:
    """``None`` while the game runs; else winners, scores (levels), reason, result, escaped and
    the Hall of Fame entries of this game."""
    return _views.result(state)


action_label = _actions.ENGINE.action_label
"""Words for a button showing ``action`` (its declared label)."""


dump = _actions.ENGINE.dump
load = _actions.ENGINE.load
