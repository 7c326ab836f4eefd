"""Hardening for a public server: rate limits, idle games expiring, cookie flags."""

import uuid
from datetime import datetime, timedelta, timezone

from sqlalchemy import update

from companion import create_app
from companion.messages import REFUSALS
from companion.store import events

from .api import table_path
from .driver import ApiGame
from .conftest import database_url


def make_app(tmp_path, **config):
    return create_app({"TESTING": True, "SECRET_KEY": "t-" + uuid.uuid4().hex,
                       "DATABASE_URL": database_url(tmp_path), **config})


def test_creating_games_is_rate_limited_per_address_and_a_refusal_creates_nothing(tmp_path):
    app = make_app(tmp_path, RATE_LIMIT_CREATE="3 per minute")
    client = app.test_client()
    for _ in range(3):
        assert client.post("/api/games").status_code == 201
    answer = client.post("/api/games")
    assert answer.status_code == 429
    with app.test_request_context():
        assert answer.get_json()["error"] == str(REFUSALS["rate_limited"])
    assert "Retry-After" in answer.headers
    csrf = client.get("/").data.split(b'name="csrf_token" value="')[1].split(b'"')[0].decode()
    page = client.post("/games", data={"mode": "standard", "csrf_token": csrf})   # the form shares the limit
    assert page.status_code == 429 and b"Wait a minute" in page.data
    other_device = client.post("/api/games", environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other_device.status_code == 201                           # counted per address


def test_join_attempts_are_rate_limited(tmp_path):
    app = make_app(tmp_path, RATE_LIMIT_JOIN="2 per minute", RATE_LIMIT_COMMANDS="1000 per minute")
    client = app.test_client()
    game = ApiGame(client, white=(), black=(), start=False)
    store = app.extensions["games"].store
    assert game.post("join", game.tokens["white"], name="Ann").status_code == 200
    join_page = client.get(f"/join/{game.tokens['black']}")
    csrf = join_page.data.split(b'name="csrf_token" value="')[1].split(b'"')[0].decode()
    assert client.post(f"/join/{game.tokens['black']}", data={"name": "Bea", "csrf_token": csrf}).status_code == 303
    before = store.events_after(game.id)
    # Two seatings a minute from this address (the API and the join page count together)...
    for refused in (game.post("join", game.tokens["white"], name="Abe"),
                    client.post(f"/join/{game.tokens['black']}", data={"name": "Bob", "csrf_token": csrf})):
        assert refused.status_code == 429
    assert store.events_after(game.id) == before
    # ...while the game's other commands have their own, larger allowance.
    assert game.post("lock-joining", game.tokens["host"], locked=True).status_code == 200


def test_rate_limits_can_be_switched_off(tmp_path):
    client = make_app(tmp_path, RATE_LIMIT_CREATE="1 per minute", RATE_LIMITS="off").test_client()
    assert [client.post("/api/games").status_code for _ in range(3)] == [201, 201, 201]


def test_idle_games_expire_and_their_links_stop_working(tmp_path):
    app = make_app(tmp_path, GAME_EXPIRY_HOURS=72)
    client = app.test_client()
    old, fresh, resumed = ApiGame(client), ApiGame(client), ApiGame(client)
    service = app.extensions["games"]
    host = client.get(table_path(client, old.tokens['host']))
    assert host.status_code == 200
    four_days_ago = datetime.now(timezone.utc) - timedelta(days=4)
    with service.store.engine.begin() as conn:      # the old game's last action was four days ago
        conn.execute(update(events).where(events.c.game_id == old.id).values(created_at=four_days_ago))
        # the resumed game began four days ago, but its last action is today's
        last = service.store.version(resumed.id)
        conn.execute(update(events).where(events.c.game_id == resumed.id, events.c.seq < last)
                     .values(created_at=four_days_ago))
    assert service.expire_idle_games() == [old.id]
    assert service.store.version(resumed.id) == last
    assert service.store.events_after(old.id) == []
    gone = client.get(f"/api/games/{old.id}", headers={"Authorization": f"Bearer {old.seats['Ann']}"})
    assert gone.status_code == 403 and "not valid" in gone.get_json()["error"]
    assert client.get(f"/table/{old.tokens['host']}").status_code == 403
    assert fresh.view(fresh.tokens["host"])["phase"] == "playing"    # the game played today stays


def test_the_seat_cookie_is_http_only_same_site_and_secure_behind_https(tmp_path):
    for public_url, secure in (("", False), ("https://decrypto.example.org/", True)):
        app = make_app(tmp_path / ("s" if secure else "p"), PUBLIC_URL=public_url)
        client = app.test_client()
        game = ApiGame(client, white=(), black=(), start=False)
        page = client.get(f"/join/{game.tokens['white']}")
        csrf = page.data.split(b'name="csrf_token" value="')[1].split(b'"')[0].decode()
        joined = client.post(f"/join/{game.tokens['white']}", data={"name": "Ann", "csrf_token": csrf})
        cookie = joined.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
        assert ("Secure" in cookie) is secure
