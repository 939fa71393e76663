"""One classic connection: a seat at a table over TCP, its reader and its worker, and what it is
told of the game (from the seat's view alone)."""

from __future__ import annotations

import dataclasses
import itertools
import logging
import queue
import secrets
import socket
import time
from typing import TYPE_CHECKING

import rules_engine
from rules_engine.text import clean_text

from ...domain import play
from ...domain.catalog import clean_name
from ...domain.seat_tokens import hash_token, origin_hash
from ...domain.service import Refused
from ...pages.rendering import name_seats
from ...realtime.connections import connections
from ...realtime.sockets import ALLOWED, push_chat
from ...storage.records import StaleVersion
from .protocol import (
    ALL_X,
    CHAT_BURST,
    CHAT_WINDOW,
    DIRECTIONS,
    LINE_MAX,
    REPLY_DELAY,
    SHOUT_MAX,
    command_of,
    recorded_code,
    wire,
    wire_name,
)

if TYPE_CHECKING:  # the gateway makes the connections; a connection only reads the gateway's settings
    from .gateway import ClassicGateway

log = logging.getLogger("delve.classic")


@dataclasses.dataclass
class Told:
    """What one connection has told its client so far, to tell it only what is new."""

    version: int = -1  # the game version whose events it has translated (-1: none, before the start)
    look: list[str] | None = None
    my_turn: bool = False
    done: bool = False  # WIN or LOSE sent
    turn_ended_at: float = 0.0


class ClassicConnection:
    """One classic client: its seat, its socket, and the queue its worker answers in order."""

    def __init__(self, gateway: ClassicGateway, game_id: str, sock: socket.socket, address: str, key: str):
        self.gateway = gateway
        self.game_id = game_id
        self.sock = sock
        # Writes have a timeout of their own (a socket object has one timeout, and the reader's is
        # the idle one): the same connection through a second descriptor.
        self.writer = sock.dup()
        self.writer.settimeout(gateway.write_seconds)
        self.address = address
        self.key = key
        self.inbox: queue.Queue = queue.Queue()
        self.seat = ""  # until seated
        self.seat_hash = ""  # the seat's token hash: a seat number freed and taken again is not ours
        self.name = ""
        self.told = Told()
        self._closed = False

    # ---- the socket --------------------------------------------------------------------------

    def read_loop(self) -> None:
        """Cut the stream into lines (``\\n`` or ``\\r\\n``) for the worker, enforcing the line
        length, the command budget and the idle timeout; the worker hears how reading ended."""
        budgets = self.gateway.budgets
        budgets.open(self.key)
        buffer = b""
        ending = ("closed",)
        try:
            try:
                self.sock.settimeout(self.gateway.idle_seconds)
            except OSError:
                return  # closed before reading began (a full table's refusal hangs up at once)
            while True:
                try:
                    chunk = self.sock.recv(4096)
                except TimeoutError:
                    ending = ("idle",)
                    return
                except OSError:
                    return
                if not chunk:
                    return
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    if len(line) > LINE_MAX:
                        ending = ("too long",)
                        return
                    if budgets.spend(self.key) != ALLOWED:
                        ending = ("flooded",)
                        return
                    try:
                        text = line.rstrip(b"\r").decode("utf-8")
                    except UnicodeDecodeError:
                        self.inbox.put(("not text", time.monotonic()))
                        continue
                    self.inbox.put(("line", text, time.monotonic()))
                if len(buffer) > LINE_MAX:
                    ending = ("too long",)
                    return
        finally:
            budgets.close(self.key)
            self.inbox.put(ending)

    def send(self, *lines: str) -> None:
        if self._closed or not lines:
            return
        try:
            self.writer.sendall("".join(wire(line) + "\n" for line in lines).encode("ascii"))
        except OSError:  # a timeout too: a client that stops reading is closed
            self.shut()

    def shut(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.writer.close()

    # ---- the worker --------------------------------------------------------------------------

    def run(self) -> None:
        sid = self.key
        connections.open(sid)
        try:
            with self.gateway.app.app_context():
                if not self._greet():
                    return
                while not self._closed:
                    item = self.inbox.get()
                    if not self._handle(item):
                        return
        except Exception:
            log.exception("classic connection to game %s failed", self.game_id)
        finally:
            released = connections.remove(sid)
            self.shut()
            self._mark_away(released)
            self._leave_waiting_room()

    def _still_seated(self) -> bool:
        """Whether this connection's seat is still its own (the host may have removed it)."""
        return bool(self.seat) and self.gateway.store.seat_hashes(self.game_id).get(self.seat) == self.seat_hash

    def _leave_waiting_room(self) -> None:
        """A closed connection's seat in a waiting room is free again: a client that hung up
        before the start holds no seat (the seat of one closed mid-game has the grace period)."""
        try:
            with self.gateway.app.app_context():
                game = self._game()
                if game is not None and game.record.status == "waiting" and self._still_seated():
                    self.gateway.service.leave_waiting_room(self.game_id, self.seat)
        except Exception:
            log.exception("classic: freeing the waiting-room seat of a closed connection failed")

    def _mark_away(self, released: list[tuple[str, str]]) -> None:
        if not released:
            return
        try:
            with self.gateway.app.app_context():
                for game_id, seat in released:
                    self.gateway.service.ring(game_id, self.gateway.store.set_connected(game_id, seat, False))
        except Exception:
            log.exception("classic: marking a closed connection away failed")

    def _game(self) -> play.LoadedGame | None:
        return play.load_game(self.gateway.store, self.game_id)

    def _no_seat(self, game: play.LoadedGame | None) -> str | None:
        """The FAIL line of a table with no seat for this connection; None when it has one."""
        if game is None:
            return "FAIL there is no such game"
        if game.record.status == "finished":
            return "FAIL the game is over"
        if table_full(game, self.gateway.store):
            return "FAIL the table is full"
        return None

    def _greet(self) -> bool:
        """GOLD first, then a seat for a client that says ``HELLO <join code> [name]`` (named
        "Classic N" when it gives no name or a taken one). Any other command is answered with how
        to say it; a wrong code, or no HELLO within ``hello_wait``, closes the connection. False
        (and the client told why) when it is not seated."""
        game = self._game()
        refusal = self._no_seat(game)
        if game is None or refusal is not None:
            self.send(refusal or "FAIL there is no such game")
            return False
        self.send(f"GOLD {target_gold(game)}")
        deadline = time.monotonic() + self.gateway.hello_wait
        while not self._closed:
            try:
                item = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.send("FAIL no HELLO <join code> <your name> in time")
                return False
            kind = item[0]
            if kind in ("changed", "chat"):
                continue  # not at the table yet
            if kind == "not text":
                self._answer(item[1], ["FAIL lines must be UTF-8 text"])
                continue
            if kind != "line":
                return self._handle(item)  # told why, and closed
            verb, rest = command_of(item[1])
            if verb != "HELLO":
                self._answer(item[2], ["FAIL say HELLO <join code> <your name> first"])
                continue
            code, name = (rest.split(None, 1) + [""])[:2]
            current = self._game()
            expected = recorded_code(current.record.lobby) if current is not None else None
            if expected is None or not secrets.compare_digest(code.encode(), expected.encode()):
                self._answer(item[2], ["FAIL wrong join code"])
                return False
            if not self._sit(current or game, clean_name(name, "") or None):
                return False
            self._answer(item[2], [f"HELLO {self.name}"])
            return True
        return False

    def _sit(self, game: play.LoadedGame, name: str | None) -> bool:
        """Take a seat at ``game`` under ``name`` (or "Classic N" when it has none or it is
        taken); False (and the client told why) when the table refuses."""
        seats = self.gateway.store.seats(self.game_id)
        if name is None or play.name_taken(seats, name):
            name = next(f"Classic {n}" for n in itertools.count(1) if not play.name_taken(seats, f"Classic {n}"))
        origin = origin_hash(self.address or "unknown", self.gateway.app.config["SECRET_KEY"])
        try:
            seated = self.gateway.service.join(game, name=name, origin=origin)
        except Refused as refusal:
            # Someone took the last seat since the check above, or the address has its seats.
            self.send("FAIL the table is full" if table_full(game, self.gateway.store) else f"FAIL {refusal.message}")
            return False
        self.seat, self.name = seated.seat, name
        self.seat_hash = hash_token(seated.token)
        # An open connection is presence, as a page's socket is (the heartbeat keeps it fresh).
        if connections.add(self.key, self.game_id, self.seat):
            self.gateway.service.ring(self.game_id, self.gateway.store.set_connected(self.game_id, self.seat, True))
        joined = self._game()
        if joined is not None and joined.state is not None:
            # Joined a running game: what happened before is not news to this seat.
            view = joined.rules.view(joined.state, self.seat)
            self.told.version = joined.version
            self.told.look = list(view["look"]) or None
            if view["turn"] and view["turn"]["seat"] == self.seat:
                self.told.my_turn = True
                self.send("STARTTURN")
        return True

    def _move(self, next_id: str) -> bool:
        """ "Play again" opened the next table: this connection (an old client cannot be sent to
        another address) takes a seat there under the same name and is told the new game's
        ``GOLD``; the finished table's seat is no longer present. False when there is no seat."""
        game = play.load_game(self.gateway.store, next_id)
        if game is None:
            return True  # nowhere to go: it stays at the finished table
        self.gateway.regroup(self, self.game_id, next_id)
        self._mark_away(connections.release_game(self.key, self.game_id))
        self.game_id, self.seat = next_id, ""
        # A new game tells everything anew; only the pause before a STARTTURN carries over.
        self.told = Told(turn_ended_at=self.told.turn_ended_at)
        refusal = self._no_seat(game)
        if refusal is not None:
            self.send(refusal)
            return False
        self.send(f"GOLD {target_gold(game)}")
        return self._sit(game, self.name)

    def _handle(self, item: tuple) -> bool:
        """One inbox item; False when the connection is to close."""
        kind = item[0]
        if kind == "line":
            self._command(item[1], item[2])
            return True
        if kind == "changed":
            game = self._game()
            if game is not None and game.record.status == "waiting" and not self._still_seated():
                self.send("FAIL you are no longer seated at this table")  # the host removed it
                return False
            if game is not None and game.state is not None:
                self._catch_up(game, own=False)
            following = game.record.lobby.get("next") if game is not None and game.record.status == "finished" else None
            if isinstance(following, str):
                return self._move(following)
            return True
        if kind == "chat":
            message = item[1]
            if message.get("seat") != self.seat:
                self.send(f"MESSAGE {wire_name(message.get('name', ''))}: {message.get('text', '')}")
            return True
        if kind == "not text":
            self._answer(item[1], ["FAIL lines must be UTF-8 text"])
            return True
        if kind == "too long":
            self.send(f"FAIL lines are at most {LINE_MAX} characters")
        elif kind == "flooded":
            self.send("FAIL too many commands: slow down")
        return False  # closed, idle, or cut off

    def _answer(self, received_at: float, lines: list[str]) -> None:
        wait = received_at + REPLY_DELAY - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self._send_paced(lines)

    def _send_paced(self, lines: list[str]) -> None:
        """Send, holding each STARTTURN until TURN_GAP after the line that ended this seat's turn."""
        pending: list[str] = []
        for line in lines:
            if line == "STARTTURN":
                self.send(*pending)
                pending = []
                wait = self.told.turn_ended_at + self.gateway.turn_gap - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
            pending.append(line)
            if line == "ENDTURN":
                self.send(*pending)
                pending = []
                self.told.turn_ended_at = time.monotonic()
        self.send(*pending)

    # ---- commands ----------------------------------------------------------------------------

    def _command(self, line: str, received_at: float) -> None:
        verb, rest = command_of(line)
        if verb == "HELLO":
            self._answer(received_at, [f"HELLO {self._rename(rest)}"])
        elif verb == "LOOK" and not rest:
            self._answer(received_at, ["LOOKREPLY", *self._look(), ""])
        elif verb in ("MOVE", "ATTACK") and rest.upper() in DIRECTIONS:
            self._act(received_at, {"type": verb.lower(), "dir": rest.upper()})
        elif verb == "PICKUP" and not rest:
            self._act(received_at, {"type": "pickup"})
        elif verb == "ENDTURN" and not rest:
            self._act(received_at, {"type": "end_turn"})
        elif verb == "SHOUT":
            self._shout(received_at, rest)
        else:
            self._answer(received_at, ["FAIL invalid command"])

    def _rename(self, raw: str) -> str:
        """HELLO after the seat is taken: a new name in the waiting room (when nobody has it);
        the name stays once the game runs. The name the seat goes by. A client that says its
        first HELLO again, join code and all, is not renamed after its code."""
        game = self._game()
        code, rest = (raw.split(None, 1) + [""])[:2]
        if game is not None and code == recorded_code(game.record.lobby):
            raw = rest
        name = clean_name(raw, "")
        if name and name != self.name and game is not None and game.record.status == "waiting":
            try:
                self.gateway.service.choose(game, self.seat, name=name, choices={})
                self.name = name
            except Refused:
                pass
        return self.name

    def _look(self) -> list[str]:
        game = self._game()
        if game is None or game.state is None:
            return ALL_X
        look = game.rules.view(game.state, self.seat)["look"]
        return list(look) or ALL_X

    def _act(self, received_at: float, action: dict) -> None:
        for _attempt in range(5):
            game = self._game()
            if game is None:
                return self._answer(received_at, ["FAIL there is no such game"])
            if game.record.status == "finished":
                return self._answer(received_at, ["FAIL the game is over"])
            if game.state is None:
                return self._answer(received_at, ["FAIL not your turn"])
            view = game.rules.view(game.state, self.seat)
            alive = view["me"] is not None and view["me"].get("status") == "alive"
            if alive and (view["turn"] is None or view["turn"]["seat"] != self.seat):
                return self._answer(received_at, ["FAIL not your turn"])
            try:
                after = self.gateway.service.act(game, self.seat, action)
            except rules_engine.IllegalAction as refusal:
                # The engine's reason may name seats ("p1 is standing there"): players know names.
                names = {s.seat: s.name for s in self.gateway.store.seats(self.game_id)}
                return self._answer(received_at, [f"FAIL {name_seats(str(refusal), names)}"])
            except rules_engine.InvalidAction:
                return self._answer(received_at, ["FAIL invalid command"])
            except StaleVersion:
                continue  # someone else's action (a timeout, a join) landed first: on theirs
            news = self._news(after, own=True)
            if action["type"] != "end_turn":
                return self._answer(received_at, ["SUCCESS", *news])
            # ENDTURN has no reply (issue 17): the end of the turn this client asked for is not
            # told back to it; the gap before its next STARTTURN still counts from here.
            if "ENDTURN" in news:
                news.remove("ENDTURN")
                self.told.turn_ended_at = time.monotonic()
            return self._answer(received_at, news)
        return self._answer(received_at, ["FAIL the game was too busy; try again"])

    def _shout(self, received_at: float, text: str) -> None:
        store = self.gateway.store
        text = clean_text(text, SHOUT_MAX)  # the web chat's sanitiser and limit
        if not text:
            return self._answer(received_at, ["FAIL invalid command"])
        if store.recent_chat_count(self.game_id, self.seat, time.time() - CHAT_WINDOW) >= CHAT_BURST:
            return self._answer(received_at, ["FAIL slow down: a few messages every ten seconds"])
        push_chat(self.game_id, store.add_chat(self.game_id, seat=self.seat, name=self.name, text=text))

    # ---- news ----------------------------------------------------------------------------------

    def _catch_up(self, game: play.LoadedGame, *, own: bool) -> None:
        self._send_paced(self._news(game, own=own))

    def _news(self, game: play.LoadedGame, *, own: bool) -> list[str]:
        """The lines this seat has not been told of the game at ``game``'s version: CHANGE when
        its field of view changed by someone else's doing, then its events in order."""
        told = self.told
        if game.state is None or game.version < told.version or (game.version == told.version and told.version >= 0):
            return []
        view = game.rules.view(game.state, self.seat)
        lines: list[str] = []
        look = list(view["look"]) or None
        if not own and look != told.look and not told.done:
            lines.append("CHANGE")
        told.look = look
        for event in view["events"]:
            if event["seq"] <= told.version:
                continue
            kind = event["type"]
            if kind == "turn_started" and not told.done:
                if told.my_turn:
                    lines.append("ENDTURN")
                    told.my_turn = False
                if event.get("seat") == self.seat:
                    lines.append("STARTTURN")
                    told.my_turn = True
            elif kind == "hp_changed":
                lines.append(f"HITMOD {event['delta']}")
            elif kind == "gold_changed":
                lines.append(f"TREASUREMOD {event['delta']}")
            elif kind == "died" and event.get("seat") == self.seat and not told.done:
                lines.append("LOSE")
                told.done, told.my_turn = True, False
            elif kind == "game_over" and not told.done:
                lines.append("WIN" if self.seat in event.get("winners", []) else "LOSE")
                told.done, told.my_turn = True, False
        if not told.done:
            # More than the view's latest events happened since: the turn as it stands decides.
            mine_now = view["turn"] is not None and view["turn"]["seat"] == self.seat
            if told.my_turn and not mine_now:
                lines.append("ENDTURN")
                told.my_turn = False
            elif mine_now and not told.my_turn:
                lines.append("STARTTURN")
                told.my_turn = True
        told.version = game.version
        return lines


def table_full(game: play.LoadedGame, store) -> bool:
    """No seat for a newcomer: every waiting-room seat taken, or the rules refuse a join now."""
    if game.state is None:
        return len(store.seats(game.id)) >= play.table_size(game.rules, game.record.options)
    return game.rules.join_action not in game.rules.legal_actions(game.state, "classic-newcomer")


def target_gold(game: play.LoadedGame) -> int:
    """The map's target gold, public before the start too (rules §8): a spectator's view of the
    game as it would begin."""
    state = game.state
    if state is None:
        state = game.rules.new_game(seed=game.record.seed, players=["p1"], options=game.record.options)
    return int(game.rules.view(state, None)["map"]["target_gold"])
