"""Logs never hold a token, keyword, code or guess (docs/security.md): SQL parameters hidden, paths and
credentials masked in every line the app and gunicorn write."""

import json
import logging
import random
import sqlite3
import uuid

import pytest
from sqlalchemy import event

from companion import create_app
from companion.logs import mask
from tools.driver import ApiGame

from .conftest import database_url
from .server import Server


def _csrf(page) -> str:
    return page.data.split(b'name="csrf_token" value="')[1].split(b'"')[0].decode()


def _secrets(events) -> list[str]:
    """The keywords and codes of a game's start, as a log line would show them."""
    started = next(e for e in events if e["type"] == "game_started")
    codes = next(e for e in events if e["type"] == "round_started")["codes"]
    return [word for words in started["keywords"].values() for word in words] + [
        json.dumps(code) for code in codes.values()
    ]


def test_masking_keeps_the_route_and_drops_the_token():
    token = "k" * 32
    assert mask(f'"POST /seat/{token}?x=1 HTTP/1.1" 500') == '"POST /seat/…?x=1 HTTP/1.1" 500'
    assert mask(f"Exception on /table/{token}/start [POST]") == "Exception on /table/…/start [POST]"
    assert mask(f"Authorization: Bearer {token}") == "Authorization: Bearer …"
    assert mask("/play/abc/guess /static/live.js") == "/play/abc/guess /static/live.js"
    for forged in (f"//table/{token}", f"/TABLE/{token}", f"/Seat//{token}/x", f"/lang/ko?next=%2Ftable%2F{token}"):
        assert token not in mask(forged), forged  # routes refuse them; the token may still be real
    assert mask(f"/lang/ko?next=/join/{token}&x=1") == "/lang/ko?next=/join/…&x=1"


def test_a_database_error_on_a_token_path_logs_neither_the_token_nor_the_keywords_and_codes(tmp_path, caplog):
    url = database_url(tmp_path)
    if not url.startswith("sqlite"):
        pytest.skip("locks a SQLite file to make the error: the SQLite pass runs it (CI runs both)")
    app = create_app(
        {"TESTING": True, "PROPAGATE_EXCEPTIONS": False, "SECRET_KEY": "t-" + uuid.uuid4().hex, "DATABASE_URL": url}
    )
    client = app.test_client()
    game = ApiGame(client, start=False)
    csrf = _csrf(client.get(f"/join/{game.tokens['black']}"))
    service = app.extensions["games"]
    engine = service.store.engine
    event.listen(engine, "connect", lambda connection, _: connection.execute("PRAGMA busy_timeout=50"))
    engine.dispose()  # every connection from now on gives up after 50 ms
    holder = sqlite3.connect(url[len("sqlite:///") :], isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
    service.rng = random.Random(12)
    with caplog.at_level(logging.ERROR):
        joined = client.post(f"/join/{game.tokens['black']}", data={"name": "Cid", "csrf_token": csrf})
        started = game.post("start", game.host)
    holder.execute("ROLLBACK")
    holder.close()
    assert joined.status_code == started.status_code == 500
    service.rng = random.Random(12)  # the same draw: the keywords and codes the log could show
    game.ok(game.command(game.host, "start"))
    log = caplog.text
    assert "database is locked" in log and "Exception on /join/… [POST]" in log
    for secret in [*game.tokens.values(), *game.seats.values(), *_secrets(game.events())]:
        assert secret not in log


@pytest.mark.system
def test_gunicorn_logs_mask_tokens_in_paths_and_headers(tmp_path):
    url = database_url(tmp_path)
    if not url.startswith("sqlite"):
        pytest.skip("breaks a SQLite file's event table to make the error: the SQLite pass runs it (CI runs both)")
    server = Server(url, workers=1)
    server.start(access_log=True)
    try:
        status, created = server.request("POST", "/api/games")
        assert status == 201
        tokens = created["tokens"]
        for team, name in (("white", "Ann"), ("white", "Abe"), ("black", "Bea"), ("black", "Bob")):
            assert (
                server.request("POST", f"/api/games/{created['game_id']}/join", {"name": name}, token=tokens[team])[0]
                == 200
            )
        # From now on every write of an event fails inside the database, with the event as its parameter.
        with sqlite3.connect(url[len("sqlite:///") :]) as db:
            db.executescript(
                "CREATE TABLE gone (x); CREATE TRIGGER fail BEFORE INSERT ON events "
                "BEGIN INSERT INTO gone VALUES (1); END; DROP TABLE gone;"
            )
        status, _ = server.request("POST", f"/api/games/{created['game_id']}/start", {}, token=tokens["host"])
        assert status == 500
        assert server.request("GET", f"/watch/{tokens['spectator']}", raw=True)[0] == 200
    finally:
        server.stop()
    log = server.process.stderr.read().decode()
    assert "no such table" in log and "GET /watch/… HTTP" in log
    for secret in tokens.values():
        assert secret not in log
    assert "[parameters:" not in log and "game_started" not in log
