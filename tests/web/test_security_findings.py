"""Regression tests for the holes a hostile pass found (each failed before its fix), through the
routes: copies of secret tables, a rigged Hall of Fame, map scouting by rejoining, the spectator
cache, waiting-room floods and names, unhandled 500s, the "Play again" race, a waiting room
without a host, and control characters in typed text. Socket.IO findings are in
``test_socket_abuse.py``; rate limits in ``tests/ops/test_rate_limits.py``."""

from __future__ import annotations

import threading

import pytest

from tests.page import Button, Page
from tests.web.test_dungeon_cards_web import Table as CardsTable
from tests.web.test_dungeon_of_doom_web import HALL
from tests.web.test_dungeon_of_doom_web import Table as DoomTable
from webapp.domain import hall_of_fame, play
from webapp.pages.spectator_fragments import SpectatorFragments

SECRET_MAP = "name Secret Vault\nwin 1\n#########\n#G.....E#\n#.......#\n#########\n"
ESCAPE = "JH 2C 9D 3S 7H 4D 8S 6D"  # a Jack beaten, +1 Speed, then 6♦ up 7 onto an Exit at (5, 8)


def fingerprint(store) -> list:
    """Everything a player could tell apart in every stored game."""
    out = []
    with store.engine.connect() as conn:
        for row in conn.exec_driver_sql(
            "SELECT id, version, status, options, lobby, players, snapshot FROM games ORDER BY id"
        ):
            out.append(tuple(row))
        out.append(tuple(conn.exec_driver_sql("SELECT game_id, seat, name FROM seats ORDER BY game_id, seat")))
    return out


def spectator(seat_client, game_id):
    watcher = seat_client()
    watcher.watch(game_id)
    return watcher


def finished_solo(seat_client):
    """A Clear the Dungeon game its player has resigned."""
    player = seat_client()
    game_id = player.start("clear-the-dungeon")
    assert player.act({"type": "resign"}).status_code == 200
    assert player.app.extensions["delve_store"].load(game_id).status == "finished"
    return player, game_id


def post(client, path, **form):
    return client.http.post(path, data={"csrf_token": client.csrf, **form})


def alert(response) -> str:
    """The words of a refusal: the text of its one alert (a whole error page or an htmx fragment)."""
    return Page(response.get_data(as_text=True)).text("p.alert")


# ---- 1. copies of a table's secret options ------------------------------------------------------


class TestNobodyCopiesSecretOptions:
    def test_a_spectator_of_a_running_table_with_an_uploaded_map_gets_no_copy(self, app, seat_client, store):
        t = DoomTable(app, seat_client, players=2, map_choice="custom", form={"map_text": SECRET_MAP})
        watcher = spectator(seat_client, t.game_id)
        before = store.count_games()
        for route in ("new", "rematch"):
            response = post(watcher, f"/g/{t.game_id}/{route}")
            assert response.status_code == 409, route
            assert "Play again" in alert(response)
        assert store.count_games() == before

    def test_nor_does_a_seated_player_of_a_running_table(self, app, seat_client, store):
        t = DoomTable(app, seat_client, players=2, map_choice="custom", form={"map_text": SECRET_MAP})
        before = store.count_games()
        for route in ("new", "rematch"):
            assert post(t.clients["p2"], f"/g/{t.game_id}/{route}").status_code == 409
        assert store.count_games() == before

    def test_a_waiting_tables_stacked_deck_is_not_copied(self, app, seat_client, store):
        t = CardsTable(app, seat_client, ("swordsman",), start=False, deck=ESCAPE)
        watcher = spectator(seat_client, t.game_id)
        before = store.count_games()
        for client in (watcher, t.host):
            for route in ("new", "rematch"):
                assert post(client, f"/g/{t.game_id}/{route}").status_code == 409
        assert store.count_games() == before

    def test_a_solo_game_is_started_again_only_by_its_player_once_it_is_over(self, seat_client, store):
        player = seat_client()
        running = player.start("shuffle-and-doom", size="4", deck="5C 8D 3H 9S 7D KS JS QH 6S")
        assert post(player, f"/g/{running}/new").status_code == 409
        assert post(player, f"/g/{running}/rematch").status_code == 409
        player, finished = finished_solo(seat_client)
        watcher = spectator(seat_client, finished)
        watched = Page(watcher.bodies[-1])
        assert watched.text(".result h2") == "Game over"  # the end of the game, without its player's controls
        assert not watched.select('form[action$="/rematch"], form[action$="/new"]')
        assert "Play the same deal again" not in watched.text()
        before = store.count_games()
        for route in ("new", "rematch"):
            refused = post(watcher, f"/g/{finished}/{route}")
            assert refused.status_code == 403
            assert "Only this game's player" in alert(refused)
        assert store.count_games() == before
        again = post(player, f"/g/{finished}/rematch")
        assert again.status_code == 303
        new_id = again.headers["Location"].rsplit("/", 1)[-1]
        assert store.load(new_id).lobby == {"same_deal_as": finished}
        assert store.load(new_id).seed == store.load(finished).seed


# ---- 2. a rigged Hall of Fame --------------------------------------------------------------------


class TestOnlyAFreshSecretDealRanks:
    def test_options_changed_in_the_engines_own_lobby_mark_the_escape_a_set_deal(self, app, seat_client, store):
        # The table opens with a shuffled deck. The waiting room starts a game only with a class for
        # every seat, so the engine's own lobby is reached through ruling 58: a leaver during setup
        # leaves a lone Mage, who must choose again; there the host's update_options stacks the deck.
        t = CardsTable(app, seat_client, ("mage", "tank"), start=False)
        t.start()
        t.act("p2", {"type": "leave_game"})
        assert t.state()["status"] == "lobby"
        t.act(
            "p1",
            {
                "type": "update_options",
                "options": {"deck": ESCAPE.split(), "shuffles": "stacked", "marker_placement": "manual"},
            },
        )
        t.act("p1", {"type": "choose_class", "class": "swordsman"})
        t.act("p1", {"type": "start_game"})
        t.act("p1", {"type": "place_marker", "kind": "exit", "square": [5, 8]})
        t.act("p1", {"type": "place_marker", "kind": "pit", "square": [8, 8]})
        t.act("p1", {"type": "draw_card"})
        for _ in range(3):
            t.act("p1", {"type": "combat_draw", "critical_hit": False})
        t.act("p1", {"type": "choose_stat", "stat": "speed"})
        t.act("p1", {"type": "draw_card"})
        assert t.state()["outcome"]["result"] == "victory"
        (row,) = hall_of_fame.entries(store, set_deals=True)
        assert row["set_deal"] is True and row["rank"] is None
        assert hall_of_fame.entries(store) == []

    def test_a_finished_table_cannot_be_replayed_from_the_same_seed(self, app, seat_client, store):
        t = CardsTable(app, seat_client, ("swordsman",), markers=None)
        t.act("p1", {"type": "leave_game"})
        assert store.load(t.game_id).status == "finished"
        before = store.count_games()
        assert post(t.host, f"/g/{t.game_id}/rematch").status_code == 409
        assert store.count_games() == before

    def test_an_escape_on_a_replayed_seed_is_a_set_deal(self, app, seat_client, store):
        t = CardsTable(app, seat_client, ("swordsman",), markers=None)
        game = play.load_game(store, t.game_id)
        escape = dict(
            game.state,
            hall_of_fame=[
                {
                    "player": "p1",
                    "class": "swordsman",
                    "level": 1,
                    "lives": 10,
                    "max_lives": 10,
                    "speed": 0,
                    "turns_taken": 1,
                    "outcome": "escaped",
                    "turn_mode": "single_draw",
                    "board_size": "10x10",
                }
            ],
        )
        replayed = play.LoadedGame(
            game.record.__class__(**{**game.record.__dict__, "lobby": {"same_deal_as": "earlier"}}),
            game.rules,
            game.state,
        )
        with store.engine.begin() as conn:
            hall_of_fame.record_escapes(conn, replayed, "p1", {}, escape, 0.0)
        assert hall_of_fame.entries(store) == []
        assert [r["set_deal"] for r in hall_of_fame.entries(store, set_deals=True)] == [True]


# ---- 3. map scouting by rejoining ---------------------------------------------------------------


def newcomer(seat_client, game_id, address):
    client = seat_client()
    client.http.environ_base["REMOTE_ADDR"] = address
    client.watch(game_id)
    return client


def join_and_leave(t, client, name):
    joined = post(client, f"/g/{t.game_id}/join", name=name)
    if joined.status_code != 303:
        return joined
    client.watch(t.game_id)
    client.version = t.store.load(t.game_id).version
    assert client.act({"type": "leave"}).status_code == 200
    return joined


class TestNoScoutingByRejoining:
    def test_one_address_takes_at_most_two_seats_in_a_running_game(self, app, seat_client, store):
        t = DoomTable(app, seat_client, players=2, map_choice="random-M", max_players=4)
        for index in range(2):
            assert (
                join_and_leave(t, newcomer(seat_client, t.game_id, "203.0.113.7"), f"Scout {index}").status_code == 303
            )
        before = fingerprint(store)
        third = post(newcomer(seat_client, t.game_id, "203.0.113.7"), f"/g/{t.game_id}/join", name="Scout 3")
        assert third.status_code == 409
        assert "2 seats from your connection" in alert(third)
        assert fingerprint(store) == before
        other = post(newcomer(seat_client, t.game_id, "198.51.100.9"), f"/g/{t.game_id}/join", name="Late friend")
        assert other.status_code == 303

    def test_dead_rows_never_block_a_join(self, app, seat_client, store):
        t = DoomTable(app, seat_client, players=2, map_choice=HALL, max_players=3)
        for index in range(62):  # 64 roster rows, 62 of them departed
            client = newcomer(seat_client, t.game_id, f"198.51.100.{index + 1}")
            assert join_and_leave(t, client, f"Guest {index}").status_code == 303
        assert len(store.seats(t.game_id)) == 64
        late = post(newcomer(seat_client, t.game_id, "203.0.113.99"), f"/g/{t.game_id}/join", name="Real friend")
        assert late.status_code == 303


# ---- 4. the spectator cache -------------------------------------------------------------------


class TestSpectatorCache:
    @pytest.mark.parametrize(
        "query",
        ["log_seen=abc", "log_seen=-1", "log_seen=" + "9" * 40, "log_seen=1.5", "log_seen=%EF%BC%91", "page=nope"],
    )
    def test_made_up_query_values_are_refused_before_any_cache(self, app, seat_client, query):
        t = DoomTable(app, seat_client, players=2)
        watcher = spectator(seat_client, t.game_id)
        response = watcher.http.get(f"/g/{t.game_id}/board?{query}", headers={"HX-Request": "true"})
        assert response.status_code == 400
        assert "Reload the page" in alert(response)

    def test_a_valid_position_is_served_and_shared(self, app, seat_client, monkeypatch):
        cache = SpectatorFragments()
        monkeypatch.setitem(app.extensions, "delve_spectator_fragments", cache)
        t = DoomTable(app, seat_client, players=2)
        for _ in range(3):
            response = app.test_client().get(f"/g/{t.game_id}/board?log_seen=1", headers={"HX-Request": "true"})
            assert response.status_code == 200
        assert len(cache._items) == 1

    def test_the_cache_is_bounded_by_bytes(self):
        cache = SpectatorFragments(size=1000, max_bytes=64 * 1024)
        for index in range(200):
            cache.put(("g", index, None, ""), b"x" * 4096)
        assert cache.held_bytes <= 64 * 1024 and len(cache._items) == 16
        cache.put(("g", "huge", None, ""), b"x" * 60 * 1024)  # over an eighth: never kept
        assert cache.get(("g", "huge", None, "")) is None and cache.held_bytes <= 64 * 1024


def test_uploaded_maps_are_bounded_so_the_end_page_stays_light(seat_client, store):
    """A finished 100 × 100 map drew a 1.2 MB page for every viewer; 60 × 60 is the site's bound."""
    host = seat_client()
    host.get("/")

    def upload(width, height):
        grid = ["E" + "G" + "." * (width - 2)] + ["." * width] * (height - 1)
        return post(
            host,
            "/games",
            game="dungeon-of-doom",
            name="Ann",
            map_choice="custom",
            map_text="name Wide\nwin 1\n" + "\n".join(grid),
        )

    refused = upload(100, 100)
    assert refused.status_code == 400
    assert "up to 3,600 cells" in alert(refused)
    assert store.count_games() == 0
    assert upload(60, 60).status_code == 303
    assert upload(100, 36).status_code == 303


# ---- 5. waiting-room names --------------------------------------------------------------------


class TestNamesAtATable:
    def test_a_name_already_taken_at_the_table_is_refused(self, app, seat_client, store):
        t = DoomTable(app, seat_client, players=2, start=False)
        late = spectator(seat_client, t.game_id)
        refused = post(late, f"/g/{t.game_id}/join", name="  ann ")
        assert refused.status_code == 409
        assert "already called ann" in alert(refused)
        renamed = post(t.clients["p2"], f"/g/{t.game_id}/lobby", name="ANN")
        assert renamed.status_code == 409
        assert [s.name for s in store.seats(t.game_id)] == ["Ann", "Bob"]
        assert post(t.clients["p2"], f"/g/{t.game_id}/lobby", name="Bob").status_code == 303  # one's own name

    def test_an_unchanged_name_rings_nobody(self, app, seat_client, store):
        t = DoomTable(app, seat_client, players=2, start=False)
        revision = store.revision(t.game_id)
        assert post(t.clients["p2"], f"/g/{t.game_id}/lobby", name="Bob").status_code == 303
        assert store.revision(t.game_id) == revision


# ---- 7. unhandled 500s -------------------------------------------------------------------------


class TestNoServerErrors:
    def test_rematch_of_a_waiting_table_is_a_409(self, app, seat_client, store):
        doom = DoomTable(app, seat_client, players=2, start=False)
        cards = CardsTable(app, seat_client, ("swordsman",), start=False)
        before = fingerprint(store)
        for table in (doom, cards):
            assert post(table.host, f"/g/{table.game_id}/rematch").status_code == 409
        assert fingerprint(store) == before

    def test_a_map_asking_for_more_gold_than_python_converts_is_a_400_with_the_line(self, seat_client, store):
        host = seat_client()
        host.get("/")
        response = post(
            host,
            "/games",
            game="dungeon-of-doom",
            name="Ann",
            map_choice="custom",
            map_text="name Greedy\nwin " + "9" * 5000 + "\n#E.G#\n",
        )
        assert response.status_code == 400
        assert "line 2" in alert(response)
        assert store.count_games() == 0


# ---- 8. the "Play again" race ------------------------------------------------------------------


def race_play_again(t, monkeypatch):
    """Both players press "Play again" at once: each request opens its table before either records it."""
    both_opened = threading.Barrier(2, timeout=10)
    open_table = play.open_table

    def open_then_wait(*args, **kwargs):
        opened = open_table(*args, **kwargs)
        both_opened.wait()
        return opened

    monkeypatch.setattr(play, "open_table", open_then_wait)
    answers: dict = {}

    def press(seat):
        client = t.clients[seat]
        answers[seat] = client.http.post(f"/g/{t.game_id}/again", data={"csrf_token": client.csrf})

    threads = [threading.Thread(target=press, args=(seat,)) for seat in ("p1", "p2")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


def test_two_players_pressing_play_again_at_once_reach_one_table(app, seat_client, store, monkeypatch):
    t = DoomTable(app, seat_client, players=2)
    for seat in ("p1", "p2"):
        assert t.act(seat, {"type": "leave"}).status_code == 200
    answers = race_play_again(t, monkeypatch)
    assert [answers[s].status_code for s in ("p1", "p2")] == [303, 303]
    targets = {answers[s].headers["Location"].rsplit("/", 1)[-1] for s in ("p1", "p2")}
    assert len(targets) == 1
    (next_id,) = targets
    assert store.load(t.game_id).lobby["next"] == next_id
    assert sorted(s.name for s in store.seats(next_id)) == ["Ann", "Bob"]
    assert store.count_games() == 2  # the loser's table was removed unseen


# ---- 9. a waiting room always has a host -------------------------------------------------------


def assert_hosts(client, game_id, start_label):
    """The waiting room, as this client sees it, is the host's: told to start, with the button to."""
    page = Page(client.watch(game_id).get_data(as_text=True))
    assert "Start when everyone is here." in page.text("#status")
    assert page.text(f'form[action="/g/{game_id}/start"] button') == start_label


class TestHost:
    def test_the_host_passes_to_the_longest_seated_player(self, app, seat_client, store):
        t = DoomTable(app, seat_client, players=3, start=False)
        assert post(t.host, f"/g/{t.game_id}/leave-table").status_code == 303
        assert post(t.clients["p3"], f"/g/{t.game_id}/start").status_code == 403
        assert_hosts(t.clients["p2"], t.game_id, "Start the game with 2 players")
        assert post(t.clients["p2"], f"/g/{t.game_id}/start").status_code == 303

    def test_an_emptied_waiting_room_is_hosted_by_its_next_arrival(self, app, seat_client, store):
        t = DoomTable(app, seat_client, players=2, start=False)
        for seat in ("p1", "p2"):
            assert post(t.clients[seat], f"/g/{t.game_id}/leave-table").status_code == 303
        assert store.seats(t.game_id) == []
        newcomer_client = spectator(seat_client, t.game_id)
        assert post(newcomer_client, f"/g/{t.game_id}/join", name="Cy").status_code == 303
        assert_hosts(newcomer_client, t.game_id, "Start the game with 1 player")
        assert post(newcomer_client, f"/g/{t.game_id}/start").status_code == 303
        assert store.load(t.game_id).status == "running"


# ---- 10. one sanitiser for typed text ----------------------------------------------------------

HOSTILE = "Ev\u202eil\x07\x00 \t Name\u200b"


def test_control_and_format_characters_never_reach_a_page(app, seat_client, store):
    hostile_map = f"name {HOSTILE}\nwin 1\n#########\n#G.....E#\n#########\n"
    t = DoomTable(app, seat_client, players=2, map_choice="custom", form={"map_text": hostile_map}, start=False)
    assert post(t.clients["p2"], f"/g/{t.game_id}/lobby", name=HOSTILE).status_code == 303
    t.start()
    assert post(t.clients["p2"], f"/g/{t.game_id}/chat", text=HOSTILE).status_code == 303
    assert [s.name for s in store.seats(t.game_id)] == ["Ann", "Evil Name"]
    assert store.chat(t.game_id)[-1]["text"] == "Evil Name"
    page = t.clients["p1"].watch(t.game_id).get_data(as_text=True)
    parsed = Page(page)
    assert parsed.text("h2#map-title") == "Evil Name (custom map)"
    assert "Evil Name" in parsed.texts("#game .who")
    assert parsed.texts("#chat-log > li")[-1] == "Evil Name: Evil Name"
    for bad in ("\u202e", "\x07", "\x00", "\u200b", "&#8238;"):
        assert bad not in page  # nowhere in the bytes: not in text, attributes or markup


# ---- found by the route fuzzer (tests/web/test_route_fuzz.py) -------------------------------


def test_a_refused_class_choice_does_not_rename_the_seat_either(app, seat_client, store):
    t = CardsTable(app, seat_client, ("swordsman", None), start=False, markers=None)
    before = fingerprint(store)
    taken = post(t.clients["p2"], f"/g/{t.game_id}/lobby", name="Zed", classes="swordsman")
    assert taken.status_code == 409
    assert fingerprint(store) == before  # Bob is still Bob
    renamed = post(t.clients["p2"], f"/g/{t.game_id}/lobby", name="Zed", classes="tank")
    assert renamed.status_code == 303
    assert [s.name for s in store.seats(t.game_id)][1] == "Zed"


def test_solo_games_have_no_chat_and_no_table_to_play_again(seat_client, store):
    player, game_id = finished_solo(seat_client)
    before = fingerprint(store)
    assert post(player, f"/g/{game_id}/chat", text="hello").status_code == 409
    assert post(player, f"/g/{game_id}/again").status_code == 409
    assert fingerprint(store) == before and store.chat(game_id) == []


def test_action_buttons_escape_their_labels_and_keep_attributes_apart(app):
    """Labels carry players' names (a seat id becomes its player's name): never raw HTML."""
    from webapp.domain.play import ActionButton

    hostile = ActionButton({"type": "attack", "dir": "N"}, 'Attack "><script>alert(1)</script>', "1", "q")
    with app.test_request_context():
        template = app.jinja_env.from_string(
            '{% from "_cards.html" import action_button %}{{ action_button(b, "primary", "Attack") }}'
        )
        html_out = template.render(b=hostile)
    assert "<script>" not in html_out  # no raw tag anywhere in the bytes
    page = Page(html_out)
    assert not page.select("script")
    assert page.buttons() == [Button(action={"type": "attack", "dir": "N"}, label="Attack", key="1", id="act-attack-N")]
    button = page.one("button")  # the label stayed inside its attributes, and added none
    assert button["aria-label"] == button["title"] == hostile.label
    assert button["class"] == ["primary"] and button["aria-keyshortcuts"] == "1" and button["data-alt-key"] == "q"
    assert set(button.attrs) == set(
        "type name value id class aria-label title data-key aria-keyshortcuts data-alt-key".split()
    )


def test_someone_who_types_no_name_gets_a_free_player_number(app, seat_client, store):
    t = DoomTable(app, seat_client, players=1, start=False)
    guests = [spectator(seat_client, t.game_id) for _ in range(3)]
    for guest in guests[:2]:
        assert post(guest, f"/g/{t.game_id}/join").status_code == 303
    assert post(guests[0], f"/g/{t.game_id}/leave-table").status_code == 303
    assert post(guests[2], f"/g/{t.game_id}/join").status_code == 303  # "Player 3" is taken: Player 4
    assert [s.name for s in store.seats(t.game_id)] == ["Ann", "Player 3", "Player 4"]
