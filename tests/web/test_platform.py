"""The platform through Flask's test client: lobby, seats, CSRF, versions, errors, restart safety."""

from __future__ import annotations

import json
import re

import pytest
from bs4 import Tag

import rules_engine
from tests.helpers.decks import S1_DECK, SHORT_DEAL
from tests.helpers.web import every_signature_a_second_later, per_request_parts_removed
from tests.page import Page
from webapp import create_app
from webapp.domain import play


def stored_state(store, game_id):
    return store.load(game_id).snapshot


class TestLobby:
    def test_lists_all_five_games_with_play_buttons_only_where_playable(self, seat_client):
        player = seat_client()
        page = Page(player.get("/").get_data(as_text=True))
        assert page.texts("li.game-card h3") == [
            "Shuffle and Doom!",
            "Clear the Dungeon",
            "Hebrac's Dungeon",
            "Dungeon Cards",
            "The Dungeon of Doom",
        ]
        assert page.attr('#game-shuffle-and-doom form input[name="game"]', "value") == "shuffle-and-doom"
        for card in page.select("li.game-card"):  # each either offers a form to play or says it is coming
            playable = card.select('form input[name="game"]')
            assert len(playable) + ("Being built" in card.get_text()) == 1, card["id"]

    def test_no_dead_links(self, seat_client):
        player = seat_client()
        page = Page(player.get("/").get_data(as_text=True))
        links = {tag["href"] for tag in page.select('[href^="/"]')}
        assert links
        for link in links:
            response = player.http.get(link)
            response.close()
            assert response.status_code == 200, link

    def test_how_to_play_page(self, seat_client):
        body = seat_client().get("/how-to-play/shuffle-and-doom").get_data(as_text=True)
        assert "How to play" in body and "trap" in body.lower()

    def test_unknown_how_to_play_is_404(self, seat_client):
        assert seat_client().get("/how-to-play/chess").status_code == 404


class TestSecurityHeaders:
    """The whole header set on every kind of response; HSTS and Secure cookies behind HTTPS."""

    EXPECTED = {
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
        "X-Frame-Options": "DENY",
        "Cross-Origin-Opener-Policy": "same-origin",
        "Cross-Origin-Resource-Policy": "same-origin",
        "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    }
    CSP = {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }

    def responses(self, player):
        player.start(size="4", deck=S1_DECK)
        game = f"/g/{player.game_id}"
        return {
            "lobby": player.http.get("/"),
            "game page": player.http.get(game),
            "board fragment": player.http.get(f"{game}/board", headers={"HX-Request": "true"}),
            "action": player.act({"type": "choose_stat_set", "set": "top"}),
            "illegal action": player.act({"type": "exit"}),
            "missing page": player.http.get("/g/nope"),
            "how to play": player.http.get("/how-to-play/shuffle-and-doom"),
            "script": player.http.get("/static/js/delve.js"),
            "health": player.http.get("/healthz"),
        }

    def test_every_response_carries_the_whole_set(self, seat_client):
        for name, response in self.responses(seat_client()).items():
            response.close()
            for header, value in self.EXPECTED.items():
                assert response.headers.get(header) == value, (name, header, response.headers.get(header))
            csp = response.headers["Content-Security-Policy"]
            directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
            for directive, sources in self.CSP.items():
                assert directives.get(directive) == sources, (name, directive, csp)
            assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
            # Plain HTTP in development: no HSTS (a browser would pin HTTPS on a dev host).
            assert "Strict-Transport-Security" not in response.headers, name

    def test_no_inline_script_or_style_anywhere(self, seat_client):
        for name, response in self.responses(seat_client()).items():
            body = response.get_data(as_text=True)
            response.close()
            if response.mimetype != "text/html":
                continue
            page = Page(body)
            assert not page.select("script:not([src])"), name  # CSP would block it anyway
            assert not page.select("style, [style]"), name

    @staticmethod
    def cookies(response) -> dict[str, str]:
        return {header.split("=", 1)[0]: header for header in response.headers.getlist("Set-Cookie")}

    @pytest.mark.parametrize("environment", [{"DELVE_ENV": "production"}, {"COOKIE_SECURE": "1"}])
    def test_behind_https_hsts_and_secure_cookies(self, environment, db_url, monkeypatch):
        for name, value in environment.items():
            monkeypatch.setenv(name, value)
        app = create_app({"TESTING": True, "DATABASE_URL": db_url})
        try:
            client = app.test_client()
            home = client.get("/", base_url="https://delve.example")
            hsts = home.headers["Strict-Transport-Security"]
            assert int(re.search(r"max-age=(\d+)", hsts).group(1)) >= 180 * 24 * 3600
            assert "includeSubDomains" in hsts
            session_cookie = self.cookies(home)["session"]
            csrf = Page(home.get_data(as_text=True)).select('input[name="csrf_token"]')[0]["value"]
            created = client.post(
                "/games", data={"game": "shuffle-and-doom", "csrf_token": csrf}, base_url="https://delve.example"
            )
            assert created.status_code == 303
            seat_cookie = self.cookies(created)["delve_seat"]
            for cookie in (session_cookie, seat_cookie):
                assert "; Secure" in cookie and "; HttpOnly" in cookie and "SameSite=Lax" in cookie, cookie
            for path in ("/missing", "/healthz"):  # errors and probes too
                assert "Strict-Transport-Security" in client.get(path, base_url="https://delve.example").headers
        finally:
            app.extensions["delve_store"].engine.dispose()

    def test_in_development_cookies_are_not_secure(self, seat_client):
        player = seat_client()
        home = player.http.get("/")
        player.csrf = Page(home.get_data(as_text=True)).select('input[name="csrf_token"]')[0]["value"]
        created = player.http.post("/games", data={"game": "shuffle-and-doom", "csrf_token": player.csrf})
        for cookie in (self.cookies(home)["session"], self.cookies(created)["delve_seat"]):
            assert "Secure" not in cookie and "HttpOnly" in cookie


class TestRequestIds:
    """Each request's log line carries a request id: the proxy's X-Request-ID when it looks like
    one (nginx's $request_id), else one made up here — never a header value taken verbatim."""

    @pytest.fixture
    def logged(self, db_url):
        """(client, lines): the app with JSON logs, its log handler writing into ``lines``."""
        import io
        import logging

        app = create_app({"TESTING": True, "DATABASE_URL": db_url, "LOG_FORMAT": "json"})
        (handler,) = [h for h in logging.getLogger().handlers if getattr(h, "_delve", False)]
        stream = io.StringIO()
        previous = handler.setStream(stream)

        def lines():
            return [json.loads(line) for line in stream.getvalue().splitlines()]

        try:
            yield app.test_client(), lines
        finally:
            handler.setStream(previous)
            app.extensions["delve_store"].engine.dispose()

    def access_lines(self, lines) -> list[dict]:
        return [line for line in lines() if line["logger"] == "delve.access"]

    @pytest.mark.parametrize("incoming", ["3f2a9c0e7b1d4c55a8e6f0b2c4d6e8fa", "req-42.eu_west", "A" * 64])
    def test_a_proxys_request_id_is_passed_through(self, logged, incoming):
        client, lines = logged
        response = client.get("/healthz", headers={"X-Request-ID": incoming})
        assert response.headers["X-Request-ID"] == incoming
        (line,) = self.access_lines(lines)
        assert line["request_id"] == incoming and line["path"] == "/healthz" and line["status"] == 200

    @pytest.mark.parametrize(
        "incoming",
        [
            "A" * 65,
            "x" * 10_000,
            "two words",
            "id\tFAKE",
            'id","level":"ERROR',
            "<script>",
            "ünïcode",
            "a;b",
            "",
        ],
    )
    def test_a_malformed_or_huge_one_is_replaced(self, logged, incoming):
        client, lines = logged
        response = client.get("/healthz", headers={"X-Request-ID": incoming})
        made_up = response.headers["X-Request-ID"]
        assert re.fullmatch(r"[0-9a-f]{16}", made_up)
        (line,) = self.access_lines(lines)
        assert line["request_id"] == made_up
        if incoming:
            assert incoming not in json.dumps(lines())

    def test_every_request_gets_its_own_id_when_none_comes_in(self, logged):
        client, lines = logged
        ids = {client.get("/healthz").headers["X-Request-ID"] for _ in range(5)}
        assert len(ids) == 5
        assert {line["request_id"] for line in self.access_lines(lines)} == ids


class TestCreate:
    def test_create_redirects_and_gives_a_scoped_httponly_seat_cookie(self, seat_client):
        player = seat_client()
        player.get("/")
        response = player.http.post("/games", data={"game": "shuffle-and-doom", "csrf_token": player.csrf})
        assert response.status_code == 303
        game_id = response.headers["Location"].rsplit("/", 1)[-1]
        assert len(game_id) >= 22
        cookie = response.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and f"Path=/g/{game_id}" in cookie and "SameSite=Lax" in cookie

    def test_options_reach_the_engine(self, seat_client, store):
        player = seat_client()
        game_id = player.start(size="5", base_stats_7="on")
        record = store.load(game_id)
        assert record.options["size"] == 5 and record.options["base_stats_7"] is True
        assert record.options["flat_consumables"] is False

    @pytest.mark.parametrize("size", ["3", "27", "seven", "-1"])
    def test_bad_size_is_a_readable_400(self, seat_client, size, store):
        player = seat_client()
        player.get("/")
        response = player.http.post(
            "/games", data={"game": "shuffle-and-doom", "csrf_token": player.csrf, "size": size}
        )
        assert response.status_code == 400
        assert "Grid size" in response.get_data(as_text=True)
        assert store.count_games() == 0

    def test_bad_stacked_deck_is_a_readable_400(self, seat_client):
        player = seat_client()
        player.get("/")
        response = player.http.post(
            "/games", data={"game": "shuffle-and-doom", "csrf_token": player.csrf, "deck": "AS AS KH"}
        )
        assert response.status_code == 400

    def test_unbuilt_or_unknown_game_is_404(self, seat_client):
        player = seat_client()
        player.get("/")
        for slug in ["chess", ""]:
            response = player.http.post("/games", data={"game": slug, "csrf_token": player.csrf})
            assert response.status_code == 404

    def test_create_without_csrf_is_refused(self, seat_client, store):
        player = seat_client()
        response = player.http.post("/games", data={"game": "shuffle-and-doom"})
        assert response.status_code == 400
        assert store.count_games() == 0


class TestActing:
    def start_s1(self, seat_client):
        player = seat_client()
        player.start(size="4", deck=S1_DECK)
        return player

    def test_whole_s2_game_through_http(self, seat_client, store):
        player = seat_client()
        player.start(size="4", deck=SHORT_DEAL)
        for action in [
            {"type": "choose_stat_set", "set": "top"},
            {"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"},
            {"type": "attack", "card": "6S"},
            {"type": "move", "dir": "E"},
            {"type": "move", "dir": "E"},
            {"type": "move", "dir": "E"},
            {"type": "move", "dir": "S"},
            {"type": "move", "dir": "S"},
            {"type": "move", "dir": "S"},
            {"type": "exit"},
        ]:
            response = player.act(action)
            assert response.status_code == 200, response.get_data(as_text=True)
        body = response.get_data(as_text=True)
        assert "Game over" in body and "Play the same deal again" in body
        record = store.load(player.game_id)
        assert record.result["reason"] == "exited" and record.result["score"] == 8
        assert record.version == 10

    def test_fragment_response_is_the_board_and_the_announcer(self, seat_client):
        player = self.start_s1(seat_client)
        page = Page(player.act({"type": "choose_stat_set", "set": "top"}).get_data(as_text=True))
        first, *_rest = [node for node in page.soup.contents if isinstance(node, Tag) or node.strip()]
        assert isinstance(first, Tag) and first.name == "section" and first.get("id") == "game"
        assert page.attr("#announcer", "hx-swap-oob") == "innerHTML"
        assert not page.select("html")

    def test_without_javascript_a_post_redirects_to_the_page(self, seat_client):
        player = self.start_s1(seat_client)
        response = player.act({"type": "choose_stat_set", "set": "top"}, htmx=False)
        assert response.status_code == 303
        assert response.headers["Location"].endswith(f"/g/{player.game_id}")

    def test_stale_version_is_409_and_changes_nothing(self, seat_client, store):
        player = self.start_s1(seat_client)
        player.act({"type": "choose_stat_set", "set": "top"})
        before = stored_state(store, player.game_id)
        response = player.act({"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"}, version=0)
        assert response.status_code == 409
        assert "moved on" in response.get_data(as_text=True)
        assert stored_state(store, player.game_id) == before

    def test_replayed_action_is_409(self, seat_client, store):
        player = self.start_s1(seat_client)
        first = player.act({"type": "choose_stat_set", "set": "top"}, version=0)
        assert first.status_code == 200
        again = player.act({"type": "choose_stat_set", "set": "top"}, version=0)
        assert again.status_code == 409
        assert store.load(player.game_id).version == 1

    def test_illegal_action_is_422_with_the_reason(self, seat_client, store):
        player = self.start_s1(seat_client)
        before = stored_state(store, player.game_id)
        response = player.act({"type": "move", "dir": "E"})
        assert response.status_code == 422
        assert response.headers["HX-Retarget"] == "#flash"
        assert "Not allowed" in response.get_data(as_text=True)
        assert stored_state(store, player.game_id) == before

    @pytest.mark.parametrize(
        "raw",
        ["not json", "[]", '{"dir": "E"}', '{"type": "fly"}', '{"type": "move", "dir": 7}', "1" * 3000],
    )
    def test_malformed_action_is_400(self, seat_client, store, raw):
        player = self.start_s1(seat_client)
        before = stored_state(store, player.game_id)
        response = player.http.post(
            f"/g/{player.game_id}/act",
            data={"csrf_token": player.csrf, "version": "0", "action": raw},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 400, response.get_data(as_text=True)
        assert stored_state(store, player.game_id) == before

    def test_missing_version_is_400(self, seat_client):
        player = self.start_s1(seat_client)
        response = player.http.post(
            f"/g/{player.game_id}/act",
            data={"csrf_token": player.csrf, "action": json.dumps({"type": "choose_stat_set", "set": "top"})},
        )
        assert response.status_code == 400

    def test_oversized_payload_is_413(self, seat_client, store):
        player = self.start_s1(seat_client)
        response = player.http.post(
            f"/g/{player.game_id}/act",
            data={"csrf_token": player.csrf, "version": "0", "action": "x" * 40_000},
        )
        assert response.status_code == 413
        assert store.load(player.game_id).version == 0

    def test_missing_or_wrong_csrf_is_refused(self, seat_client, store):
        player = self.start_s1(seat_client)
        for csrf in ["", "forged"]:
            response = player.act({"type": "choose_stat_set", "set": "top"}, csrf=csrf)
            assert response.status_code == 400
        assert store.load(player.game_id).version == 0

    def test_spectator_sees_the_game_without_controls_and_cannot_act(self, seat_client, store):
        player = self.start_s1(seat_client)
        watcher = seat_client()
        body = watcher.watch(player.game_id).get_data(as_text=True)
        assert "Watching live" in body
        assert not Page(body).select('[name="action"], .play')
        response = watcher.act({"type": "choose_stat_set", "set": "top"})
        assert response.status_code == 403
        assert "watching" in response.get_data(as_text=True)
        assert store.load(player.game_id).version == 0

    def test_another_games_seat_cannot_act(self, seat_client, store):
        player = self.start_s1(seat_client)
        other = self.start_s1(seat_client)
        # The other player's cookie is scoped to its own game: here it is a spectator.
        other.game_id = player.game_id
        other.get(f"/g/{player.game_id}")
        assert other.act({"type": "choose_stat_set", "set": "top"}).status_code == 403

    def test_unknown_game_is_404_everywhere(self, seat_client):
        player = self.start_s1(seat_client)
        assert player.get("/g/nope").status_code == 404
        assert player.get("/g/nope/board").status_code == 404
        player.game_id = "nope"
        assert player.act({"type": "exit"}).status_code == 404

    def test_board_fragment_for_spectators(self, seat_client):
        player = self.start_s1(seat_client)
        watcher = seat_client()
        watcher.game_id = player.game_id
        response = watcher.board()
        assert response.status_code == 200
        assert response.headers["Vary"].startswith("HX-Request")
        assert not Page(response.get_data(as_text=True)).select(".play")


class TestRestartAndReplay:
    def test_a_new_server_process_resumes_the_game_exactly(self, seat_client, db_url, monkeypatch):
        every_signature_a_second_later(monkeypatch)
        player = seat_client()
        player.start(size="4", deck=S1_DECK)
        player.act({"type": "choose_stat_set", "set": "top"})
        player.act({"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"})
        before = player.get(f"/g/{player.game_id}").get_data(as_text=True)

        restarted = create_app({"TESTING": True, "DATABASE_URL": db_url})
        client = restarted.test_client()
        client.set_cookie(
            "delve_seat",
            player.http.get_cookie("delve_seat", path=f"/g/{player.game_id}").value,
            path=f"/g/{player.game_id}",
        )
        after = client.get(f"/g/{player.game_id}").get_data(as_text=True)
        assert per_request_parts_removed(after) == per_request_parts_removed(before)
        assert "Attack 6" in after

    def test_replaying_the_log_equals_the_stored_snapshot(self, seat_client, store):
        player = seat_client()
        player.start(size="4", deck=SHORT_DEAL)
        for action in [
            {"type": "choose_stat_set", "set": "side"},
            {"type": "assign_diamond_bonus", "card": "7D", "stat": "health"},
        ]:
            player.act(action)
        rules = rules_engine.get("shuffle-and-doom")
        assert rules.dump(play.replay(store, player.game_id)) == store.load(player.game_id).snapshot

    def test_action_log_has_no_gaps(self, seat_client, store):
        player = seat_client()
        player.start(size="4", deck=SHORT_DEAL)
        player.act({"type": "choose_stat_set", "set": "top"})
        player.act({"type": "choose_stat_set", "set": "top"}, version=0)  # stale
        player.act({"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"})
        assert [seq for seq, _seat, _a in store.actions(player.game_id)] == [1, 2]


class TestRematch:
    def finish(self, seat_client):
        player = seat_client()
        player.start(size="4", deck=SHORT_DEAL)
        for action in [
            {"type": "choose_stat_set", "set": "top"},
            {"type": "assign_diamond_bonus", "card": "8D", "stat": "attack"},
            {"type": "attack", "card": "6S"},
            *[{"type": "move", "dir": d} for d in "EEESSS"],
            {"type": "exit"},
        ]:
            player.act(action)
        return player

    def test_same_deal_after_the_end(self, seat_client, store):
        player = self.finish(seat_client)
        response = player.http.post(f"/g/{player.game_id}/rematch", data={"csrf_token": player.csrf})
        assert response.status_code == 303
        new_id = response.headers["Location"].rsplit("/", 1)[-1]
        old, new = store.load(player.game_id), store.load(new_id)
        assert new.seed == old.seed and new.options == old.options and new.version == 0
        body = player.get(f"/g/{new_id}").get_data(as_text=True)
        assert Page(body).select("form.play")  # the new game's seat belongs to whoever asked

    def test_same_deal_refused_while_running(self, seat_client):
        player = seat_client()
        player.start(size="4", deck=S1_DECK)
        response = player.http.post(f"/g/{player.game_id}/rematch", data={"csrf_token": player.csrf})
        assert response.status_code == 409

    def test_new_game_same_options_new_seed(self, seat_client, store):
        player = self.finish(seat_client)
        response = player.http.post(f"/g/{player.game_id}/new", data={"csrf_token": player.csrf})
        new_id = response.headers["Location"].rsplit("/", 1)[-1]
        assert store.load(new_id).options == store.load(player.game_id).options
        assert store.load(new_id).seed != store.load(player.game_id).seed


# --- health and readiness -------------------------------------------------------------------


def test_healthz_and_readyz_answer_on_the_embedded_default(app):
    client = app.test_client()
    assert client.get("/healthz").json == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert {k: ready.json[k] for k in ("status", "checks")} == {"status": "ready", "checks": {"database": "ok"}}
    # What an operator reads of the load: the loop's lag, whether actions are refused, the pushes.
    assert ready.json["load"] == {
        "lag_ms": 0.0,
        "waiting_ms": 0.0,
        "limit_ms": 100,
        "refusing_actions": False,
        "actions_refused": 0,
    }
    assert ready.json["pushes"] == {
        "rendered": 0,
        "unchanged": 0,
        "coalesced": 0,
        "skipped": 0,
        "pages": 0,
        "games_behind": 0,
        "delay_p50_ms": None,
        "delay_p95_ms": None,
    }


def test_readyz_is_degraded_not_down_when_only_redis_is_missing(db_url):
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    app = create_app({"TESTING": True, "DATABASE_URL": db_url, "REDIS_URL": f"redis://127.0.0.1:{closed_port}/0"})
    try:
        ready = app.test_client().get("/readyz")
        assert ready.status_code == 200
        assert ready.json["status"] == "degraded"
        assert ready.json["checks"]["database"] == "ok"
        assert ready.json["checks"]["redis"].startswith("unavailable")
    finally:
        app.extensions["delve_store"].engine.dispose()


def test_readyz_takes_the_process_out_when_the_database_stops_answering(app, monkeypatch):
    from sqlalchemy.exc import OperationalError

    def refuse():
        raise OperationalError("SELECT 1", {}, Exception("database is gone"))

    monkeypatch.setattr(app.extensions["delve_store"].engine, "connect", refuse)
    ready = app.test_client().get("/readyz")
    assert ready.status_code == 503
    assert ready.json["status"] == "not ready"
    assert ready.json["checks"]["database"] == "unavailable: OperationalError"
