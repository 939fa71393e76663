"""A bot that played for an absent player says so (issue 25, point 5): the returning player is told
what it did in their name, the log and the result say which actions and which win were the bot's,
and the end map's token marks read as the roster does."""

from __future__ import annotations

import html
import io
import json
import re

from sqlalchemy import update

from webapp.domain.bots import BotDriver
from webapp.pages.presenters.dungeon_of_doom import token_marks
from webapp.realtime import presence
from webapp.storage.schema import games as games_table
from webapp.storage.schema import seats as seats_table

SECRET = "tests-only-secret-key"

# Bea (p2) starts beside the only gold and the exit: whoever plays her turn walks out with it.
BOT_HALL = b"name Bot Hall\nwin 1\n#######\n#.....#\n#.GE..#\n#######\n"
STARTS = {"p1": [1, 5], "p2": [2, 1]}


def text_of(body: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))


def changed_at(store, game_id) -> float:
    with store.engine.connect() as conn:
        return conn.execute(
            games_table.select().with_only_columns(games_table.c.updated_at).where(games_table.c.id == game_id)
        ).scalar_one()


def table_of_two(seat_client):
    """Ann (p1, host) and Bea (p2) at a started Dungeon of Doom table on BOT_HALL."""
    host = seat_client()
    host.app.config["TEST_OPTIONS"] = True
    host.get("/")
    response = host.http.post(
        "/games",
        data={
            "game": "dungeon-of-doom",
            "csrf_token": host.csrf,
            "name": "Ann",
            "map_choice": "custom",
            "map_file": (io.BytesIO(BOT_HALL), "bot-hall.txt"),
            "test_options": json.dumps({"start_positions": STARTS}),
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 303, response.get_data(as_text=True)
    game_id = response.headers["Location"].rsplit("/", 1)[-1]
    host.watch(game_id)
    guest = seat_client()
    guest.watch(game_id)
    assert guest.http.post(f"/g/{game_id}/join", data={"csrf_token": guest.csrf, "name": "Bea"}).status_code == 303
    assert host.http.post(f"/g/{game_id}/start", data={"csrf_token": host.csrf}).status_code == 303
    host.get(f"/g/{game_id}")
    guest.get(f"/g/{game_id}")
    return host, guest


def bea_goes_away(app, store, game_id):
    """Bea's page closed long ago: the presence loop gives her seat to a bot until she is back."""
    with store.engine.begin() as conn:
        conn.execute(
            update(seats_table)
            .where(seats_table.c.game_id == game_id, seats_table.c.seat == "p2")
            .values(connected=0, last_seen=changed_at(store, game_id) - presence.GRACE_SECONDS - 5)
        )
    with app.app_context():
        presence.drop_absent(app.extensions["delve_service"], changed_at(store, game_id))
    bea = next(s for s in store.seats(game_id) if s.seat == "p2")
    assert (bea.bot, bea.kept) == ("normal", True)


def let_the_bot_play(app, store, game_id) -> int:
    drv = BotDriver(app.extensions["delve_service"], secret=SECRET, delay=0.0, owner="one")
    landed = 0
    with app.app_context():
        for _ in range(40):
            got = drv.tick(changed_at(store, game_id) + 1)
            landed += got
            if not got:
                break
    return landed


def test_the_bot_plays_beas_turn_and_wins_and_everyone_is_told(app, store, seat_client):
    host, guest = table_of_two(seat_client)
    game_id = host.game_id
    bea_goes_away(app, store, game_id)
    assert host.act({"type": "end_turn"}, version=store.load(game_id).version).status_code == 200
    landed = let_the_bot_play(app, store, game_id)
    assert landed >= 2
    assert store.load(game_id).status == "finished"
    bot_moves = [(seq, seat) for seq, seat, _action in store.actions(game_id) if seat == "p2"]
    assert len(bot_moves) == landed

    # Ann's page: the bot's lines and the win are the bot's, for Bea.
    ann_page = host.get(f"/g/{game_id}").get_data(as_text=True)
    ann_text = text_of(ann_page)
    assert "While you were away" not in ann_text
    assert "Bot (for Bea): Bea escaped with the gold" in ann_text, ann_text[ann_text.find("What happened") :][:600]
    assert "A bot won it for Bea while Bea was away." in ann_text

    # Bea is back: the seat is hers, and her page says what the bot did for her, once.
    bea_page = guest.get(f"/g/{game_id}").get_data(as_text=True)
    bea_text = text_of(bea_page)
    assert f"While you were away a bot played {landed} actions for you:" in bea_text, bea_text[:2000]
    assert "Bot (for you): You escaped with the gold" in bea_text
    assert "A bot won it for you while you were away." in bea_text
    summary = bea_text[bea_text.find("While you were away") :]
    assert "picked up" in summary.lower() or "pick up" in summary.lower(), summary[:400]

    # The end map's marks read as the roster's names do.
    assert "A: Ann" in bea_text and "B: Bea" in bea_text
    assert summary.startswith(f"While you were away a bot played {landed} actions for you: Move east")
    # Once read, the report is gone from her page; the marks stay (they are the game's history).
    form = {"csrf_token": guest.csrf}
    assert guest.http.post(f"/g/{game_id}/bot-report", data=form).status_code == 303
    again = text_of(guest.get(f"/g/{game_id}").get_data(as_text=True))
    assert "While you were away" not in again and "Bot (for you): You escaped with the gold" in again


def test_a_seat_the_bot_never_played_for_is_told_nothing(app, store, seat_client):
    host, guest = table_of_two(seat_client)
    bea_goes_away(app, store, host.game_id)
    back = text_of(guest.get(f"/g/{host.game_id}").get_data(as_text=True))
    assert "While you were away" not in back and "Bot (for" not in back


def test_the_end_maps_marks_read_as_the_roster_names_the_bots():
    final = {"players": [{"seat": s} for s in ("p1", "p2", "p3")]}
    assert token_marks(final, {"p1": "Ann", "p2": "Bot 1", "p3": "Bot 2"}) == {"p1": "A", "p2": "B1", "p3": "B2"}
