"""The classic gateway (webapp/adapters/classic) through real TCP sockets, with a protocol client of our
own written from issue 17 and rules 10.9: a gateway started in process on free ports, browser
players through the Flask test client, classic clients next to them.

The Duelling Hall, forced (DELVE_TEST_OPTIONS):
    #######
    #G.H.E#     the classic seat (p2) starts on the gold at [1,1]; Ann (p1, the browser host)
    #.S.A.#     waits at [3,4], out of its sight. p2 takes both coins in one turn and walks out
    #G...L#     through the exit on the next.
    #######
"""

from __future__ import annotations

import dataclasses
import random
import socket
import time

import pytest

from tests.web.test_dungeon_of_doom_web import Table
from webapp.adapters import classic
from webapp.domain import play

FORCED = {"start_positions": {"p1": [3, 4], "p2": [1, 1], "p3": [2, 3]}}


def free_range(size=4) -> tuple[int, int]:
    for _attempt in range(50):
        low = random.randrange(20000, 60000)
        try:
            for port in range(low, low + size):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
        except OSError:
            continue
        return low, low + size - 1
    raise RuntimeError("no free port range")


@pytest.fixture
def app(db_url):
    from webapp import create_app

    app = create_app(
        {"TESTING": True, "DATABASE_URL": db_url, "CLASSIC_PORTS": free_range(), "CLASSIC_BIND": "127.0.0.1"}
    )
    gateway = app.extensions["delve_classic"]
    gateway.hello_wait = 0.3
    yield app
    gateway.close()
    app.extensions["delve_store"].engine.dispose()


@pytest.fixture
def gateway(app):
    return app.extensions["delve_classic"]


OPEN: list[socket.socket] = []


@pytest.fixture(autouse=True)
def close_clients():
    yield
    while OPEN:
        OPEN.pop().close()


class Client:
    """A classic client: writes commands, reads the server's lines one at a time."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        OPEN.append(self.sock)
        self.buffer = b""

    def send(self, *lines: str, end: str = "\n") -> None:
        self.sock.sendall("".join(line + end for line in lines).encode())

    def line(self, timeout: float = 10) -> str | None:
        """The next line (None: the server closed the connection)."""
        self.sock.settimeout(timeout)
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        assert b"\r" not in line
        return line.decode("ascii")

    def expect(self, *lines: str) -> None:
        got = [self.line() for _ in lines]
        assert got == list(lines)

    def look(self) -> list[str]:
        self.send("LOOK")
        assert self.line() == "LOOKREPLY"
        rows = []
        while (row := self.line()) != "":
            rows.append(row)
        return rows

    def closed(self) -> bool:
        try:
            return self.line(timeout=5) is None
        except ConnectionResetError:
            return True

    def nothing_pending(self, wait=0.3) -> bool:
        try:
            self.sock.settimeout(wait)
            chunk = self.sock.recv(4096)
        except TimeoutError:
            return self.buffer == b""
        self.buffer += chunk
        return False

    def close(self) -> None:
        self.sock.close()


def table_with_classic(app, seat_client, gateway, *, max_players=3):
    table = Table(app, seat_client, players=1, start=False, test_options=FORCED, max_players=max_players)
    host = table.clients["p1"]
    response = host.http.post(f"/g/{table.game_id}/classic", data={"csrf_token": host.csrf, "on": "1"})
    assert response.status_code == 303
    port = classic.recorded_port(table.store.load(table.game_id).lobby)
    assert port in gateway.ports and gateway.listening() == {port: table.game_id}
    return table, port


def join_code(table) -> str:
    """The table's join code: what its page shows seated players, and a classic HELLO must say."""
    return table.store.load(table.game_id).lobby["classic"].get("code", "")


def seated(table, count, present=()):
    """The table's seats once ``count`` are taken and the ``present`` seats are marked present
    (a connection takes its seat, then is marked present: a moment apart)."""
    deadline = time.time() + 5
    while time.time() < deadline:
        seats = table.store.seats(table.game_id)
        if len(seats) >= count and all(s.connected for s in seats if s.seat in present):
            break
        time.sleep(0.02)
    return table.store.seats(table.game_id)


def test_a_classic_client_that_gives_no_name_and_never_says_endturn_plays_to_a_win(app, seat_client, gateway):
    table, port = table_with_classic(app, seat_client, gateway)
    bob = Client(port)
    assert bob.line() == "GOLD 2"  # the server speaks first
    bob.send(f"HELLO {join_code(table)}")  # the table's join code, and no name
    assert bob.line() == "HELLO Classic 1"
    started = time.monotonic()
    assert bob.look() == ["XXXXX"] * 5  # before the start: an all-X block
    assert time.monotonic() - started >= classic.REPLY_DELAY
    seats = seated(table, 2, present=("p2",))
    assert [(s.seat, s.name, s.connected) for s in seats] == [("p1", "Ann", False), ("p2", "Classic 1", True)]
    bob.send("MOVE N")
    assert bob.line() == "FAIL not your turn"
    table.start()
    assert bob.line() == "CHANGE"  # its field of view appeared
    rows = bob.look()
    assert rows == ["X###X", "#####", "##G.H", "##.S.", "X#G.X"] == _view_look(table, "p2")  # Ann unseen
    bob.send("PICKUP")
    assert bob.line() == "FAIL not your turn"
    table.act("p1", {"type": "end_turn"})
    assert bob.line() == "STARTTURN"
    # Pipelined, one answer each in order; the sixth action spends the last AP and ends the turn.
    bob.send("PICKUP", "MOVE S", "MOVE S", "PICKUP", "MOVE N", "MOVE N")
    bob.expect("SUCCESS", "TREASUREMOD 1", "SUCCESS", "SUCCESS", "SUCCESS", "TREASUREMOD 1", "SUCCESS", "SUCCESS")
    assert bob.line() == "ENDTURN"
    ended = time.monotonic()
    table.act("p1", {"type": "end_turn"})  # at once: STARTTURN still waits its two seconds
    assert bob.line() == "STARTTURN"
    assert time.monotonic() - ended >= classic.TURN_GAP - 0.05
    bob.send("MOVE E", "MOVE E", "MOVE E", "MOVE E")
    bob.expect("SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS", "WIN")
    bob.send("MOVE W", "LOOK")
    assert bob.line() == "FAIL the game is over"
    assert bob.line() == "LOOKREPLY"
    result = table.store.load(table.game_id).result
    assert result["winners"] == ["p2"]
    assert "Classic 1" in table.clients["p1"].get(f"/g/{table.game_id}").get_data(as_text=True)
    assert gateway.listening() == {}  # a finished table frees its port
    bob.close()


def test_play_again_carries_the_classic_port_and_its_connections_to_the_next_table(app, seat_client, gateway):
    gateway.turn_gap = 0.2  # the pause is test_a_classic_client_…'s subject; here it only slows the story
    table, port = table_with_classic(app, seat_client, gateway)
    bob = Client(port)
    assert bob.line() == "GOLD 2"
    bob.send(f"HELLO {join_code(table)} Bob")
    assert bob.line() == "HELLO Bob"
    seated(table, 2)
    table.start()
    assert bob.line() == "CHANGE"
    table.act("p1", {"type": "end_turn"})
    assert bob.line() == "STARTTURN"
    bob.send("PICKUP", "MOVE S", "MOVE S", "PICKUP", "MOVE N", "MOVE N")
    bob.expect("SUCCESS", "TREASUREMOD 1", "SUCCESS", "SUCCESS", "SUCCESS", "TREASUREMOD 1", "SUCCESS", "SUCCESS")
    assert bob.line() == "ENDTURN"
    table.act("p1", {"type": "end_turn"})
    assert bob.line() == "STARTTURN"
    bob.send("MOVE E", "MOVE E", "MOVE E", "MOVE E")
    bob.expect("SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS", "WIN")
    finished = table.game_id
    assert table.store.load(finished).status == "finished"

    host = table.clients["p1"]
    again = host.http.post(f"/g/{finished}/again", data={"csrf_token": host.csrf})
    assert again.status_code == 303
    next_id = again.headers["Location"].rsplit("/", 1)[-1]
    assert next_id != finished
    assert bob.line() == "GOLD 2"  # the same connection, told the new game's target
    table.game_id = next_id
    host.watch(next_id)
    seats = seated(table, 2, present=("p2",))
    assert [(s.seat, s.name, s.connected) for s in seats] == [("p1", "Ann", False), ("p2", "Bob", True)]
    deadline = time.time() + 5
    while any(s.connected for s in table.store.seats(finished)) and time.time() < deadline:
        time.sleep(0.02)
    assert not any(s.connected for s in table.store.seats(finished))  # it left the old table
    # The next table takes classic clients on the very port the old clients know.
    assert classic.recorded_port(table.store.load(next_id).lobby) == port
    assert gateway.listening() == {port: next_id}
    cy = Client(port)
    assert cy.line() == "GOLD 2"
    cy.send(f"HELLO {join_code(table)}")  # the next table kept the code as well as the port
    assert cy.line() == "HELLO Classic 1"
    assert [s.name for s in seated(table, 3)] == ["Ann", "Bob", "Classic 1"]

    table.start()
    assert bob.line() == "CHANGE"
    bob.send("PICKUP")
    assert bob.line() == "FAIL not your turn"
    table.act("p1", {"type": "end_turn"})
    assert bob.line() == "STARTTURN"
    bob.send("PICKUP", "MOVE S")
    bob.expect("SUCCESS", "TREASUREMOD 1", "SUCCESS")
    assert table.state()["turn"]["seat"] == "p2"
    bob.close()
    cy.close()


def _view_look(table, seat):
    from tests.web.test_dungeon_of_doom_web import rules

    return rules.view(table.state(), seat)["look"]


def test_hello_crlf_fail_paths_and_the_full_table(app, seat_client, gateway):
    table, port = table_with_classic(app, seat_client, gateway, max_players=2)
    cy = Client(port)
    assert cy.line() == "GOLD 2"
    cy.send(f"HELLO {join_code(table)}  Cy\x07 the\tBold ", end="\r\n")  # CRLF, and a name through the web's sanitiser
    assert cy.line() == "HELLO Cy the Bold"
    assert [s.name for s in seated(table, 2)] == ["Ann", "Cy the Bold"]
    full = Client(port)
    assert full.line() == "FAIL the table is full"
    assert full.closed()
    cy.send("DANCE", "", "MOVE", "MOVE X", "LOOK please", "SETPLAYERPOS 1 1", end="\r\n")
    cy.expect(*["FAIL invalid command"] * 6)
    table.start()
    assert cy.line() == "CHANGE"
    cy.send("ENDTURN", "ATTACK N")
    cy.expect("FAIL not your turn", "FAIL not your turn")
    table.act("p1", {"type": "end_turn"})
    assert cy.line() == "STARTTURN"
    cy.send("MOVE N", "ATTACK E", "MOVE w", "ENDTURN")  # the engine's own reasons; lower case is fine
    assert cy.line() == "FAIL you cannot move north: there is a wall"
    assert cy.line() == "FAIL there is nobody to attack to the east"
    assert cy.line() == "FAIL you cannot move west: there is a wall"
    assert cy.nothing_pending()  # no answer to ENDTURN, not even the turn's end it asked for
    assert table.turn_seat() == "p1"
    cy.close()


def test_shout_reaches_the_table_and_table_chat_comes_back_as_one_line(app, seat_client, gateway):
    table, port = table_with_classic(app, seat_client, gateway)
    bob = Client(port)
    assert bob.line() == "GOLD 2"
    bob.send(f"HELLO {join_code(table)} Bob")
    assert bob.line() == "HELLO Bob"
    bob.send("SHOUT hello\tthere")
    host = table.clients["p1"]
    deadline = time.time() + 5
    while not table.store.chat(table.game_id) and time.time() < deadline:
        time.sleep(0.02)
    assert [(m["name"], m["text"]) for m in table.store.chat(table.game_id)] == [("Bob", "hello there")]
    assert bob.nothing_pending()  # its own shout does not come back
    said = host.http.post(f"/g/{table.game_id}/chat", data={"csrf_token": host.csrf, "text": "hi\r\nWIN\nLOSE"})
    assert said.status_code == 303
    assert bob.line() == "MESSAGE Ann: hi WIN LOSE"
    # Whatever reaches the gateway, however it was written, leaves as one printable line.
    gateway.chat(table.game_id, {"seat": "p9", "name": "Eve\nWIN", "text": "a\r\nLOSE\x00\u2028STARTTURN\x1b[2J é"})
    assert bob.line() == "MESSAGE Eve WIN: a LOSE STARTTURN [2J e"
    assert bob.nothing_pending()
    bob.close()


def test_wire_keeps_every_line_break_and_control_character_off_the_wire():
    for raw in ["a\nb", "a\rb", "a\r\nb", "a\x0bb", "a\x0cb", "a\x1cb", "a\x85b", "a\u2028b", "a\u2029b", "a\x00b"]:
        assert classic.wire(raw) == "a b"
    assert classic.wire("Zoë ☃") == "Zoe ?"


def test_hostile_clients_long_lines_floods_too_many_connections_and_silence(app, seat_client, gateway):
    table, port = table_with_classic(app, seat_client, gateway, max_players=8)
    long = Client(port)
    assert long.line() == "GOLD 2"
    long.send("SHOUT " + "x" * 300)
    assert long.line() == f"FAIL lines are at most {classic.LINE_MAX} characters"
    assert long.closed()
    flood = Client(port)
    assert flood.line() == "GOLD 2"
    flood.send(f"HELLO {join_code(table)} Flood", *["LOOK"] * (classic.COMMAND_BURST + 10))
    lines = []
    while (line := flood.line()) is not None:
        lines.append(line)
    assert lines[-1] == "FAIL too many commands: slow down"
    assert lines.count("LOOKREPLY") <= classic.COMMAND_BURST - 1
    deadline = time.time() + 5
    while gateway.addresses.held("127.0.0.1") and time.time() < deadline:
        time.sleep(0.02)
    gateway.per_address = 1
    held = Client(port)
    assert held.line() == "GOLD 2"
    refused = Client(port)
    assert refused.line() == "FAIL too many connections from your address"
    assert refused.closed()
    held.close()
    gateway.per_address, gateway.idle_seconds = 8, 0.5
    quiet = Client(port)
    assert quiet.line() == "GOLD 2"
    quiet.send(f"HELLO {join_code(table)} Quiet")
    assert quiet.line() == "HELLO Quiet"
    assert quiet.closed()  # silent past the idle timeout
    deadline = time.time() + 5
    while len(table.store.seats(table.game_id)) > 1 and time.time() < deadline:
        time.sleep(0.02)
    # Closed before the start: none of them holds a seat (the cut-off ones never had one).
    assert [s.name for s in table.store.seats(table.game_id)] == ["Ann"]


def test_the_look_rows_are_the_seats_view_and_nothing_else(app, seat_client, gateway, monkeypatch):
    table, port = table_with_classic(app, seat_client, gateway)
    bob = Client(port)
    assert bob.line() == "GOLD 2"
    bob.send(f"HELLO {join_code(table)} Bob")
    assert bob.line() == "HELLO Bob"
    table.start()
    assert bob.line() == "CHANGE"
    real_load, asked = play.load_game, []

    def view(state, seat):
        asked.append(seat)
        out = real_view(state, seat)
        return {**out, "look": ["VIEW1", "VIEW2", "VIEW3", "VIEW4", "VIEW5"]} if seat == "p2" else out

    def load_game(store, game_id):
        game = real_load(store, game_id)
        return dataclasses.replace(game, rules=dataclasses.replace(game.rules, view=view))

    real_view = real_load(table.store, table.game_id).rules.view
    monkeypatch.setattr(play, "load_game", load_game)
    assert bob.look() == ["VIEW1", "VIEW2", "VIEW3", "VIEW4", "VIEW5"]
    assert set(asked) == {"p2"}
    bob.close()
