"""Issue 25.6: a classic client's refusals name players as the web pages do, not by seat code."""

from __future__ import annotations

from tests.web.test_classic import Client, app, close_clients, gateway, join_code, seated  # noqa: F401 (fixtures)
from tests.web.test_dungeon_of_doom_web import Table
from webapp.adapters import classic

# Ann (p1) stands right beside where the classic client (p2) starts.
NEIGHBOURS = {"start_positions": {"p1": [3, 4], "p2": [2, 4]}}


def test_a_move_onto_a_player_names_the_player_not_the_seat(app, seat_client, gateway):  # noqa: F811
    table = Table(app, seat_client, players=1, start=False, test_options=NEIGHBOURS, max_players=2)
    host = table.clients["p1"]
    assert host.http.post(f"/g/{table.game_id}/classic", data={"csrf_token": host.csrf, "on": "1"}).status_code == 303
    port = classic.recorded_port(table.store.load(table.game_id).lobby)
    bob = Client(port)
    assert bob.line() == "GOLD 2"
    bob.send(f"HELLO {join_code(table)} Bob")
    assert bob.line() == "HELLO Bob"
    seated(table, 2, present=("p2",))
    table.start()
    assert bob.line() == "CHANGE"
    table.act("p1", {"type": "end_turn"})
    assert bob.line() == "STARTTURN"
    bob.send("MOVE S")  # positions are [row, column]: Ann is just south
    assert bob.line() == "FAIL you cannot move south: Ann is standing there"
    bob.close()
