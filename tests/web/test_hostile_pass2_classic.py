"""Security issue 22, the classic gateway (webapp/adapters/classic) under hostile clients: seats only
for clients that send the table's join code, no ghost seats, ports that a few tables from one
address cannot hold forever, an address the pages take from configuration alone, writes that
time out, and names that cannot forge a line."""

from __future__ import annotations

import socket
import time

from tests.web import test_classic
from tests.web.test_classic import Client, join_code, seated, table_with_classic
from tests.web.test_dungeon_of_doom_web import Table
from webapp.adapters import classic
from webapp.storage.schema import games as games_table
from webapp.storage.schema import seats as seats_table

# The classic gateway's fixtures: an app taking classic clients on free ports, and its gateway.
app = test_classic.app
gateway = test_classic.gateway

FORCED = {"start_positions": {"p1": [3, 4], "p2": [1, 1], "p3": [2, 3]}}


def names(table) -> list[str]:
    return [s.name for s in table.store.seats(table.game_id)]


def names_become(table, wanted: list[str]) -> list[str]:
    """The table's seat names once they are ``wanted`` (or as they stand after five seconds)."""
    deadline = time.time() + 5
    while names(table) != wanted and time.time() < deadline:
        time.sleep(0.02)
    return names(table)


# ---- finding 9: classic ghosts -----------------------------------------------------------------


def test_only_a_client_that_sends_the_tables_join_code_takes_a_seat(app, seat_client, gateway):
    table, port = table_with_classic(app, seat_client, gateway, max_players=8)
    silent = Client(port)
    assert silent.line() == "GOLD 2"
    assert silent.line().startswith("FAIL ")  # no HELLO with the code in time
    assert silent.closed()
    guesser = Client(port)
    assert guesser.line() == "GOLD 2"
    guesser.send("HELLO 12345678 Eve")
    assert guesser.line() == "FAIL wrong join code"
    assert guesser.closed()
    long = Client(port)
    assert long.line() == "GOLD 2"
    long.send("SHOUT " + "x" * 300)
    assert long.line() == f"FAIL lines are at most {classic.LINE_MAX} characters"
    assert long.closed()
    early = Client(port)
    assert early.line() == "GOLD 2"
    early.send("LOOK")
    assert early.line() == "FAIL say HELLO <join code> <your name> first"
    time.sleep(0.5)  # past the HELLO wait: none of them was seated meanwhile
    assert names(table) == ["Ann"]

    bob = Client(port)
    assert bob.line() == "GOLD 2"
    bob.send(f"HELLO {join_code(table)} Bob")
    assert bob.line() == "HELLO Bob"
    assert names_become(table, ["Ann", "Bob"]) == ["Ann", "Bob"]


def test_the_join_code_is_shown_to_seated_players_and_never_to_spectators(app, seat_client, gateway):
    table, _port = table_with_classic(app, seat_client, gateway)
    code = join_code(table)
    assert f'id="classic-code">{code}<' in table.clients["p1"].get(f"/g/{table.game_id}").get_data(as_text=True)
    spectator = app.test_client()
    page = spectator.get(f"/g/{table.game_id}").get_data(as_text=True)
    board = spectator.get(
        f"/g/{table.game_id}/board", query_string={"page": "waiting"}, headers={"HX-Request": "true"}
    ).get_data(as_text=True)
    assert 'id="classic-address"' in page
    assert code not in page and code not in board


def test_a_classic_seat_whose_connection_closes_before_the_start_is_dropped(app, seat_client, gateway):
    table, port = table_with_classic(app, seat_client, gateway, max_players=8)
    for n in range(3):
        ghost = Client(port)
        assert ghost.line() == "GOLD 2"
        ghost.send(f"HELLO {join_code(table)} Ghost{n}")
        assert ghost.line() == f"HELLO Ghost{n}"
        ghost.close()
    assert names_become(table, ["Ann"]) == ["Ann"]
    friend = seat_client()
    friend.watch(table.game_id)
    joined = friend.http.post(f"/g/{table.game_id}/join", data={"csrf_token": friend.csrf, "name": "Bob"})
    assert joined.status_code == 303


def test_the_host_removes_any_seat_of_the_waiting_room(app, seat_client, gateway):
    table, port = table_with_classic(app, seat_client, gateway, max_players=8)
    host = table.clients["p1"]
    bob = seat_client()
    bob.watch(table.game_id)
    assert bob.http.post(f"/g/{table.game_id}/join", data={"csrf_token": bob.csrf, "name": "Bob"}).status_code == 303
    bob.watch(table.game_id)
    cy = Client(port)
    assert cy.line() == "GOLD 2"
    cy.send(f"HELLO {join_code(table)} Cy")
    assert cy.line() == "HELLO Cy"
    seats = seated(table, 3, present=("p3",))
    assert [(s.seat, s.name) for s in seats] == [("p1", "Ann"), ("p2", "Bob"), ("p3", "Cy")]
    page = host.get(f"/g/{table.game_id}").get_data(as_text=True)
    assert f'action="/g/{table.game_id}/remove-seat"' in page

    refused = bob.http.post(f"/g/{table.game_id}/remove-seat", data={"csrf_token": bob.csrf, "seat": "p3"})
    assert refused.status_code == 403
    itself = host.http.post(f"/g/{table.game_id}/remove-seat", data={"csrf_token": host.csrf, "seat": "p1"})
    assert itself.status_code == 409
    for seat in ("p3", "p2"):
        removed = host.http.post(f"/g/{table.game_id}/remove-seat", data={"csrf_token": host.csrf, "seat": seat})
        assert removed.status_code == 303
    assert names(table) == ["Ann"]
    assert cy.line() == "FAIL you are no longer seated at this table"
    assert cy.closed()
    assert "Join the table" in bob.get(f"/g/{table.game_id}").get_data(as_text=True)  # a spectator again


# ---- finding 10: classic ports run out ---------------------------------------------------------


def _classic_table(app, seat_client, address: str):
    """A waiting table opened from ``address``, and the host's answer to turning classic clients on."""
    table = Table(app, seat_client, players=1, start=False, test_options=FORCED, max_players=3)
    host = table.clients["p1"]
    host.http.environ_base["REMOTE_ADDR"] = address
    answer = host.http.post(f"/g/{table.game_id}/classic", data={"csrf_token": host.csrf, "on": "1"})
    return table, answer


def test_one_address_takes_classic_ports_for_two_tables_at_a_time(app, seat_client, gateway):
    for _table in range(classic.TABLES_PER_ADDRESS):
        _opened, answer = _classic_table(app, seat_client, "198.51.100.7")
        assert answer.status_code == 303
    third, answer = _classic_table(app, seat_client, "198.51.100.7")
    assert answer.status_code == 409
    assert f"{classic.TABLES_PER_ADDRESS} tables" in answer.get_data(as_text=True)
    assert classic.recorded_port(third.store.load(third.game_id).lobby) is None
    _other, answer = _classic_table(app, seat_client, "198.51.100.8")
    assert answer.status_code == 303


def test_an_idle_waiting_table_gives_its_classic_port_to_the_next_table(app, seat_client, gateway):
    idle, answer = _classic_table(app, seat_client, "203.0.113.1")
    assert answer.status_code == 303
    idle_port = classic.recorded_port(idle.store.load(idle.game_id).lobby)
    for n in range(2, len(gateway.ports) + 1):
        _busy, answer = _classic_table(app, seat_client, f"203.0.113.{n}")
        assert answer.status_code == 303
    # Nobody at the idle table has been there or done anything for longer than the idle limit.
    long_ago = time.time() - classic.IDLE_TABLE_SECONDS - 60
    with idle.store.engine.begin() as conn:
        conn.execute(
            games_table.update()
            .where(games_table.c.id == idle.game_id)
            .values(updated_at=long_ago, created_at=long_ago)
        )
        conn.execute(
            seats_table.update()
            .where(seats_table.c.game_id == idle.game_id)
            .values(connected=0, joined_at=long_ago, last_seen=long_ago)
        )
    latest, answer = _classic_table(app, seat_client, "203.0.113.99")
    assert answer.status_code == 303, answer.get_data(as_text=True)
    assert classic.recorded_port(latest.store.load(latest.game_id).lobby) == idle_port
    assert classic.recorded_port(idle.store.load(idle.game_id).lobby) is None
    assert gateway.listening()[idle_port] == latest.game_id


# ---- finding 11: the address on the pages ------------------------------------------------------


def test_the_classic_address_comes_from_configuration_never_from_the_host_header(app, seat_client, gateway):
    table, port = table_with_classic(app, seat_client, gateway)
    table.start()
    spectator = app.test_client()
    forged = spectator.get(f"/g/{table.game_id}/board", headers={"HX-Request": "true", "Host": "evil.example:8124"})
    honest = app.test_client().get(f"/g/{table.game_id}/board", headers={"HX-Request": "true"})
    page = app.test_client().get(f"/g/{table.game_id}", headers={"Host": "evil.example:8124"})
    for response in (forged, honest, page):
        body = response.get_data(as_text=True)
        panel = body[body.index('class="panel classic-clients"') :].split("</section>", 1)[0]
        assert "evil.example" not in panel
        assert f'id="classic-address">127.0.0.1:{port}<' in panel  # CLASSIC_BIND, as configured
    for shared in (forged, honest):  # spectators' fragments: nothing of any request
        assert "evil.example" not in shared.get_data(as_text=True)


def test_the_public_host_is_configured_or_the_machines(app):
    assert classic.public_host({"CLASSIC_HOST": "play.example", "CLASSIC_BIND": "127.0.0.1"}) == "play.example"
    assert classic.public_host({"SERVER_NAME": "delve.example:8000", "CLASSIC_BIND": "0.0.0.0"}) == "delve.example"
    assert classic.public_host({"CLASSIC_BIND": "192.0.2.4"}) == "192.0.2.4"
    assert classic.public_host({"CLASSIC_BIND": "0.0.0.0"}) == socket.gethostname()


# ---- finding 15: writes time out ---------------------------------------------------------------


def test_a_client_that_never_reads_is_dropped_once_a_write_times_out(app, seat_client, gateway):
    gateway.write_seconds = 0.5
    table, port = table_with_classic(app, seat_client, gateway)
    deaf = Client(port)
    assert deaf.line() == "GOLD 2"
    deaf.send(f"HELLO {join_code(table)} Deaf")
    assert deaf.line() == "HELLO Deaf"
    assert names_become(table, ["Ann", "Deaf"]) == ["Ann", "Deaf"]
    # It never reads again: far more table chat than any socket buffer holds.
    for n in range(300):
        gateway.chat(table.game_id, {"seat": "p1", "name": "Ann", "text": f"{n} " + "x" * 60000})
    assert names_become(table, ["Ann"]) == ["Ann"]  # dropped (before the start: its seat too)


# ---- finding 16: names on the wire -------------------------------------------------------------


def test_a_name_cannot_forge_who_speaks_on_the_wire_and_hello_is_strict_utf8(app, seat_client, gateway):
    table, port = table_with_classic(app, seat_client, gateway)
    bob = Client(port)
    assert bob.line() == "GOLD 2"
    bob.send(f"HELLO {join_code(table)} Bob")
    assert bob.line() == "HELLO Bob"
    host = table.clients["p1"]
    renamed = host.http.post(f"/g/{table.game_id}/lobby", data={"csrf_token": host.csrf, "name": "Host: psst"})
    assert renamed.status_code == 303
    said = host.http.post(f"/g/{table.game_id}/chat", data={"csrf_token": host.csrf, "text": "hi"})
    assert said.status_code == 303
    assert bob.line() == "MESSAGE Host; psst: hi"  # the first ':' always ends the name

    mangled = Client(port)
    assert mangled.line() == "GOLD 2"
    mangled.sock.sendall(f"HELLO {join_code(table)} ".encode() + b"\xff\xfe\xfdAnn\n")
    assert mangled.line() == "FAIL lines must be UTF-8 text"
    mangled.send(f"HELLO {join_code(table)} Zoë")
    assert mangled.line() == "HELLO Zoe"
    assert names_become(table, ["Host: psst", "Bob", "Zoë"]) == ["Host: psst", "Bob", "Zoë"]
    assert not any("\ufffd" in name for name in names(table))
