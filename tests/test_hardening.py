"""Hardening for a public server: rate limits, idle games expiring, cookie flags, file modes, cross-site
requests, conformance at the edges."""

import io
import os
import stat
import time
import uuid
from datetime import datetime, timedelta, UTC
from urllib.parse import urljoin, urlsplit

import flask
import pytest
from sqlalchemy import event, func, select, update

from companion import create_app
from companion.app import secret_key
from companion.messages import REFUSALS
from companion.store import events, games
from companion.web.limits import LIMITED
from tools.driver import ApiGame

from .api import browser, table_path
from .conftest import database_url


def make_app(tmp_path, **config):
    return create_app(
        {"TESTING": True, "SECRET_KEY": "t-" + uuid.uuid4().hex, "DATABASE_URL": database_url(tmp_path), **config}
    )


def test_creating_games_is_rate_limited_per_address_and_a_refusal_creates_nothing(tmp_path):
    app = make_app(tmp_path, RATE_LIMIT_CREATE="3 per minute")
    client = app.test_client()
    for _ in range(3):
        assert client.post("/api/games").status_code == 201
    answer = client.post("/api/games")
    assert answer.status_code == 429
    with app.test_request_context():
        assert answer.get_json()["error"] == str(REFUSALS["rate_limited"].sentence)
    assert "Retry-After" in answer.headers
    csrf = client.get("/").data.split(b'name="csrf_token" value="')[1].split(b'"')[0].decode()
    page = client.post("/games", data={"mode": "standard", "csrf_token": csrf})  # the form shares the limit
    assert page.status_code == 429 and b"Wait a minute" in page.data
    other_device = client.post("/api/games", environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other_device.status_code == 201  # counted per address


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
    for refused in (
        game.post("join", game.tokens["white"], name="Abe"),
        client.post(f"/join/{game.tokens['black']}", data={"name": "Bob", "csrf_token": csrf}),
    ):
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
    four_days_ago = datetime.now(UTC) - timedelta(days=4)
    with service.store.engine.begin() as conn:  # the old game's last action was four days ago
        conn.execute(update(events).where(events.c.game_id == old.id).values(created_at=four_days_ago))
        # the resumed game began four days ago, but its last action is today's
        last = service.store.version(resumed.id)
        conn.execute(
            update(events).where(events.c.game_id == resumed.id, events.c.seq < last).values(created_at=four_days_ago)
        )
    assert service.expire_idle_games() == [old.id]
    assert service.store.version(resumed.id) == last
    assert service.store.events_after(old.id) == []
    gone = client.get(f"/api/games/{old.id}", headers={"Authorization": f"Bearer {old.seats['Ann']}"})
    assert gone.status_code == 403 and "not valid" in gone.get_json()["error"]
    assert client.get(f"/table/{old.tokens['host']}").status_code == 403
    assert fresh.view(fresh.tokens["host"])["phase"] == "playing"  # the game played today stays


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


def _csrf(page) -> str:
    return page.data.split(b'name="csrf_token" value="')[1].split(b'"')[0].decode()


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


# --- rate limits: the client behind the proxy, every command route, a cap per game -------------------------


def test_behind_trusted_proxies_each_client_has_its_own_limit_and_a_forged_address_does_not(tmp_path):
    behind = make_app(tmp_path / "proxied", RATE_LIMIT_CREATE="1 per minute", TRUSTED_PROXIES=1).test_client()
    ann, bea = ({"X-Forwarded-For": address} for address in ("198.51.100.1", "198.51.100.2"))
    assert behind.post("/api/games", headers=ann).status_code == 201
    assert behind.post("/api/games", headers=ann).status_code == 429
    assert behind.post("/api/games", headers=bea).status_code == 201  # another client of the proxy
    # Only the nearest proxy's word counts: a client can't name itself someone else to the proxy.
    forged = {"X-Forwarded-For": "203.0.113.9, 198.51.100.1"}
    assert behind.post("/api/games", headers=forged).status_code == 429
    # Without a trusted proxy (the default), the header is anyone's: ignored.
    direct = make_app(tmp_path / "direct", RATE_LIMIT_CREATE="1 per minute").test_client()
    assert direct.post("/api/games", headers=ann).status_code == 201
    assert direct.post("/api/games", headers=bea).status_code == 429


@pytest.mark.parametrize("proxied", [False, True])
def test_an_ipv6_client_counts_by_its_64_network_and_an_ipv4_mapped_address_as_ipv4(tmp_path, proxied):
    """Whoever holds an IPv6 address holds its whole /64 (2^64 addresses): the limits count the network."""
    app = make_app(tmp_path, RATE_LIMIT_CREATE="1 per minute", TRUSTED_PROXIES=int(proxied))
    client = app.test_client()

    def create(address):
        if proxied:
            return client.post("/api/games", headers={"X-Forwarded-For": address}).status_code
        return client.post("/api/games", environ_base={"REMOTE_ADDR": address}).status_code

    assert create("2001:db8:1:2::1") == 201
    assert create("2001:db8:1:2:ffff:ffff:ffff:fffe") == 429  # another address of the same /64
    assert create("2001:db8:1:3::1") == 201  # the next /64 is someone else
    assert create("192.0.2.7") == 201
    assert create("::ffff:192.0.2.7") == 429  # the same IPv4 client, written as IPv6
    assert create("192.0.2.8") == 201  # IPv4 still counts each address


def test_every_post_route_is_rate_limited(tmp_path):
    app = make_app(tmp_path)
    posts = {rule.endpoint for rule in app.url_map.iter_rules() if "POST" in rule.methods}
    assert posts <= set(LIMITED)


def test_the_page_forms_share_the_commands_limit(tmp_path):
    app = make_app(tmp_path, RATE_LIMIT_COMMANDS="3 per minute")
    client = app.test_client()
    game = ApiGame(client, white=(), black=(), start=False)
    csrf = _csrf(client.get(f"/join/{game.tokens['white']}"))
    client.post(f"/join/{game.tokens['white']}", data={"name": "Ann", "csrf_token": csrf})
    answers = [client.post(f"/play/{game.id}/switch-team", data={"csrf_token": csrf}).status_code for _ in range(4)]
    assert answers[:3] != [429] * 3 and answers[3] == 429


def test_a_game_stops_growing_at_its_event_limit_with_a_sentence(tmp_path):
    app = make_app(tmp_path)
    game = ApiGame(app.test_client(), start=False)
    app.extensions["games"].max_events = len(game.events()) + 1
    assert game.post("lock-joining", game.host, locked=True).status_code == 200
    before = game.events()
    refused = game.post("lock-joining", game.host, locked=False)
    assert refused.status_code == 409 and refused.get_json()["code"] == "game_too_long"
    assert "limit of" in refused.get_json()["error"]
    assert game.events() == before


def test_the_event_limit_is_a_setting(tmp_path):
    assert make_app(tmp_path).extensions["games"].max_events == 5000
    assert make_app(tmp_path, MAX_EVENTS_PER_GAME=7).extensions["games"].max_events == 7


# --- the files: only this user reads them --------------------------------------------------------------


def test_the_instance_folder_and_the_database_are_private(tmp_path):
    secret_key(str(tmp_path / "instance"))
    assert _mode(tmp_path / "instance") == 0o700
    assert _mode(tmp_path / "instance" / "secret_key") == 0o600
    if not database_url(tmp_path).startswith("sqlite"):
        pytest.skip("about the SQLite file's modes: the SQLite pass runs it (CI runs both)")
    path = tmp_path / "data" / "decrypto.sqlite3"
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{path}"})
    ApiGame(app.test_client())  # written to: the -wal and -shm files exist now
    assert _mode(path.parent) == 0o700
    for name in ("", "-wal", "-shm"):
        assert _mode(f"{path}{name}") == 0o600, name


def test_an_older_world_readable_database_is_tightened(tmp_path):
    if not database_url(tmp_path).startswith("sqlite"):
        pytest.skip("about the SQLite file's modes: the SQLite pass runs it (CI runs both)")
    path = tmp_path / "old.sqlite3"
    make_app(tmp_path, DATABASE_URL=f"sqlite:///{path}")
    os.chmod(path, 0o644)
    make_app(tmp_path, DATABASE_URL=f"sqlite:///{path}")
    assert _mode(path) == 0o600


# --- the seat cookie stays small ----------------------------------------------------------------------


def test_the_seat_cookie_keeps_only_live_games_and_stays_under_4_kb(tmp_path):
    app = make_app(tmp_path, RATE_LIMITS="off")
    client = app.test_client()
    csrf = _csrf(client.get("/"))
    tried = [client.post("/try", data={"mode": "standard", "csrf_token": csrf}) for _ in range(25)]
    assert {answer.status_code for answer in tried} == {303}
    with client.session_transaction() as session:
        seats, tries = dict(session["seats"]), dict(session["try_out"])
    assert len(seats) == 20 and len(tries) == 3
    assert len(client.get_cookie("decrypto").value) < 3000
    newest = list(seats)[-1]
    assert client.get(f"/play/{newest}").status_code == 200  # the latest try-out still plays
    service = app.extensions["games"]
    with service.store.engine.begin() as conn:  # all but the newest game expire
        conn.execute(
            update(events).where(events.c.game_id != newest).values(created_at=datetime.now(UTC) - timedelta(days=4))
        )
    service.expire_idle_games()
    client.post("/try", data={"mode": "standard", "csrf_token": csrf})
    with client.session_transaction() as session:
        assert newest in session["seats"] and len(session["seats"]) == 2 and len(session["try_out"]) == 2


# --- the seat cookie's signature is checked once per process, its age on every request --------------------


def _seated_phone(tmp_path):
    app = make_app(tmp_path, RATE_LIMITS="off")
    client = app.test_client()
    game = ApiGame(client, white=(), black=(), start=False)
    joined = client.post(f"/join/{game.tokens['white']}", data={"name": "Ann", "csrf_token": _csrf(client.get("/"))})
    assert joined.status_code == 303
    return app, client, game


def test_a_seat_cookie_checked_before_still_expires_and_a_forged_one_still_fails(tmp_path):
    app, client, game = _seated_phone(tmp_path)
    assert client.get(f"/play/{game.id}").status_code == 200  # its signature checked, and kept
    cookie = client.get_cookie("decrypto").value
    # The same content, another signature: its first character changed (the last one's low bits are base64's
    # padding, which decodes to the same signature one time in sixteen).
    content, signature = cookie.rsplit(".", 1)
    forged = f"{content}.{'B' if signature[0] == 'A' else 'A'}{signature[1:]}"
    client.set_cookie("decrypto", forged)
    assert client.get(f"/play/{game.id}").status_code == 401  # not seated
    client.set_cookie("decrypto", cookie)
    assert client.get(f"/play/{game.id}").status_code == 200
    lifetime = app.permanent_session_lifetime.total_seconds()
    app.session_interface.clock = lambda: time.time() + lifetime + 60  # a week and a minute later
    assert client.get(f"/play/{game.id}").status_code == 401
    del app.session_interface.clock
    client.set_cookie("decrypto", cookie)  # (the refusal's page gave the phone a new, seatless cookie)
    assert client.get(f"/play/{game.id}").status_code == 200


def test_a_request_that_changes_its_seat_cookie_in_place_does_not_change_the_next_ones(tmp_path):
    app, client, game = _seated_phone(tmp_path)
    cookie = client.get_cookie("decrypto").value
    headers = {"Cookie": f"decrypto={cookie}"}
    with app.test_request_context(f"/play/{game.id}", headers=headers):
        first = app.session_interface.open_session(app, flask.request)
        first["seats"].clear()
    with app.test_request_context(f"/play/{game.id}", headers=headers):
        assert game.id in app.session_interface.open_session(app, flask.request)["seats"]


def test_a_phone_keeps_one_csrf_token_that_works_and_another_phone_gets_its_own(tmp_path):
    app, client, game = _seated_phone(tmp_path)
    tokens = {_meta_csrf(client.get(f"/play/{game.id}")) for _ in range(3)}
    assert len(tokens) == 1  # signed once for this phone
    other = app.test_client()
    others = _csrf(other.get("/"))
    assert others not in tokens
    switch = {"team": "white", "confirmed": "1"}  # (the team it switches from: a stale tap changes nothing)
    answer = client.post(f"/play/{game.id}/switch-team", data={**switch, "csrf_token": tokens.pop()})
    assert answer.status_code == 303
    assert [p["name"] for p in game.view(game.tokens["host"])["teams"]["black"]["players"]] == ["Ann"]
    other.set_cookie("decrypto", client.get_cookie("decrypto").value)  # Ann's cookie with another phone's token
    back = {"team": "black", "confirmed": "1", "csrf_token": others}
    assert other.post(f"/play/{game.id}/switch-team", data=back).status_code == 400
    assert [p["name"] for p in game.view(game.tokens["host"])["teams"]["black"]["players"]] == ["Ann"]


def _meta_csrf(page) -> str:
    return page.data.split(b'name="csrf-token" content="')[1].split(b'"')[0].decode()


# --- other sites can't act through a visitor's browser ---------------------------------------------------


def _games(app) -> int:
    with app.extensions["games"].store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(games)).scalar_one()


def test_another_site_cannot_create_games_through_its_visitors_browsers(tmp_path):
    app = make_app(tmp_path, PUBLIC_URL="https://decrypto.example.org/")
    client = app.test_client()
    before = _games(app)  # the PostgreSQL pass shares one database between tests
    for headers, body in (
        ({"Sec-Fetch-Site": "cross-site"}, {"data": "", "content_type": "text/plain"}),
        ({"Origin": "https://evil.example"}, {"data": {}}),
        ({"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}, {}),
    ):
        refused = client.post("/api/games", headers=headers, **body)
        assert refused.status_code == 403 and refused.get_json()["code"] == "cross_site", headers
        assert "another web site" in refused.get_json()["error"]
    assert _games(app) == before
    # Our own pages (Origin null under no-referrer, or ours; same-origin), PUBLIC_URL's host, and programs.
    for headers in (
        {},
        {"Origin": "null", "Sec-Fetch-Site": "same-origin"},
        {"Origin": "http://localhost"},
        {"Origin": "https://decrypto.example.org"},
        {"Sec-Fetch-Site": "none"},
    ):
        assert client.post("/api/games", headers=headers).status_code == 201, headers
    assert _games(app) == before + 5


def test_a_page_form_posted_from_another_site_is_refused_with_a_page(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    csrf = _csrf(client.get("/"))
    before = _games(app)
    refused = client.post(
        "/games",
        data={"mode": "standard", "csrf_token": csrf},
        headers={"Sec-Fetch-Site": "cross-site", "Origin": "http://evil.example"},
    )
    assert refused.status_code == 403 and b"another web site" in refused.data
    assert _games(app) == before


def test_over_https_page_forms_work_without_a_referer_and_other_sites_are_still_refused(tmp_path):
    """Behind a TLS proxy (`X-Forwarded-Proto: https`, as gunicorn passes it on), our pages post with
    `Origin: null` and no `Referer` (`Referrer-Policy: no-referrer`): Flask-WTF's strict Referer check refused
    every form there. The CSRF token, the SameSite cookie and the cross-site check still hold."""
    app = make_app(tmp_path, PUBLIC_URL="https://decrypto.example.org/")
    client = app.test_client()
    https = {"base_url": "https://decrypto.example.org"}
    ours = {"Origin": "null", "Sec-Fetch-Site": "same-origin"}
    home = client.get("/", **https)
    assert home.headers["Referrer-Policy"] == "no-referrer"
    before = _games(app)
    created = client.post(
        "/games", data={"mode": "standard", "language": "en", "csrf_token": _csrf(home)}, headers=ours, **https
    )
    assert created.status_code == 303 and _games(app) == before + 1
    game = ApiGame(client, white=(), black=(), start=False)
    join = f"/join/{game.tokens['white']}"
    csrf = _csrf(client.get(join, **https))
    seated = client.post(join, data={"name": "Ann", "csrf_token": csrf}, headers=ours, **https)
    assert seated.status_code == 303 and "Secure" in seated.headers["Set-Cookie"]
    for headers, data, code in (
        (ours, {"name": "Abe"}, 400),  # no CSRF token
        ({"Sec-Fetch-Site": "cross-site", "Origin": "null"}, {"name": "Abe", "csrf_token": csrf}, 403),
        ({"Origin": "https://evil.example"}, {"name": "Abe", "csrf_token": csrf}, 403),
        # this host's plain-HTTP page (what the strict Referer check was for): same-site, or cross-site by scheme
        (
            {"Sec-Fetch-Site": "same-site", "Origin": "http://decrypto.example.org"},
            {"name": "Abe", "csrf_token": csrf},
            403,
        ),
    ):
        assert client.post(join, data=data, headers=headers, **https).status_code == code, headers
    assert [p["name"] for p in game.view(game.tokens["host"])["teams"]["white"]["players"]] == ["Ann"]


# --- conformance at the edges -----------------------------------------------------------------------


def test_a_wrong_method_is_405_with_allow(tmp_path):
    answer = make_app(tmp_path).test_client().put("/api/games")
    assert answer.status_code == 405 and answer.get_json()["code"] == "method_not_allowed"
    assert "POST" in answer.headers["Allow"]


METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"}


def test_every_route_allows_exactly_its_methods_and_refuses_the_others_with_405(tmp_path):
    """OPTIONS lists a route's own methods in `Allow`, and any other method is 405 with that `Allow`: a
    command's address (`/api/games/<id>/<command>`, `/play/…`, `/table/…`) no longer takes a game's stream or
    summary for a command, which made their OPTIONS list POST and a POST to them a 400 unknown command."""
    app = make_app(tmp_path, RATE_LIMITS="off")
    client = app.test_client()
    rules = list(app.url_map.iter_rules())
    samples = {"game_id": "g4me", "token": "t0ken", "seat": 1, "filename": "style.css", "command": "start"}
    adapter = app.url_map.bind("localhost")
    for rule in rules:
        path = adapter.build(rule.endpoint, {name: samples[name] for name in rule.arguments})
        own = set().union(*(r.methods for r in rules if r.rule == rule.rule)) & METHODS
        allowed = client.options(path).headers["Allow"]
        assert {m.strip() for m in allowed.split(",")} - {"OPTIONS"} == own, f"{rule.rule}: Allow: {allowed}"
        for method in sorted(METHODS - own):
            answer = client.open(path, method=method)
            assert answer.status_code == 405 and answer.headers["Allow"] == allowed, f"{method} {rule.rule}"
            if method != "HEAD":  # the sentence, as JSON for the API, on a page otherwise
                assert (
                    answer.get_json()["code"] == "method_not_allowed"
                    if path.startswith("/api/")
                    else str(REFUSALS["method_not_allowed"].sentence).replace("'", "&#39;")
                    in answer.get_data(as_text=True)
                )


# Values no token, game id or seat can be. PostgreSQL refuses to compare text holding a NUL byte (a URL's
# %00), where SQLite just finds nothing: a token lookup that reached it answered 500. A seat past 64 bits too.
NOT_A_TOKEN = ["\x00", "a\x00b", "x" * 33, "é", "a b", "..", "%"]


def test_a_token_or_game_id_no_token_can_be_is_refused_by_every_route_and_changes_nothing(tmp_path):
    app = make_app(tmp_path, RATE_LIMITS="off")
    client = app.test_client()
    game = ApiGame(client)
    store = app.extensions["games"].store
    before = store.events_after(game.id)
    adapter = app.url_map.bind("localhost")
    samples = {"filename": "style.css", "command": "start", "seat": 1}
    for rule in app.url_map.iter_rules():
        for name in {"token", "game_id", "seat"} & set(rule.arguments):
            for value in [2**70] if name == "seat" else NOT_A_TOKEN:
                values = {**samples, "token": game.host, "game_id": game.id, name: value}
                path = adapter.build(rule.endpoint, {arg: values[arg] for arg in rule.arguments})
                for method in sorted(rule.methods & {"GET", "POST"}):
                    answer = client.open(path, method=method, headers={"Authorization": f"Bearer {game.host}"})
                    assert 400 <= answer.status_code < 500, f"{method} {path}: {answer.status_code}"
    for value in NOT_A_TOKEN[1:]:  # a header holds no NUL byte, but any of the others
        answer = client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {value}"})
        assert answer.status_code == 403, value
    assert store.events_after(game.id) == before


def test_an_oversized_chunked_body_is_413(tmp_path):
    client = make_app(tmp_path).test_client()
    chunked = {
        "headers": {"Transfer-Encoding": "chunked", "Content-Type": "application/json"},
        "environ_overrides": {"wsgi.input_terminated": True},
    }  # what gunicorn says of a chunked body
    big = client.post("/api/games", input_stream=io.BytesIO(b'{"words": "' + b"a" * 20000 + b'"}'), **chunked)
    assert big.status_code == 413 and big.get_json()["code"] == "too_large"
    small = client.post("/api/games", input_stream=io.BytesIO(b'{"language": "fr"}'), **chunked)
    assert small.status_code == 201


def test_healthz_reports_a_database_it_cannot_write_to(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    engine = app.extensions["games"].store.engine

    def _read_only(connection, _record):  # every new connection: a read-only database
        if engine.dialect.name == "sqlite":
            connection.execute("PRAGMA query_only=ON")
        else:  # (outside a transaction, whose rollback would undo it)
            connection.autocommit = True
            connection.execute("SET default_transaction_read_only = on")
            connection.autocommit = False

    event.listen(engine, "connect", _read_only)
    engine.dispose()
    answer = client.get("/healthz")
    assert answer.status_code == 503 and "read-only" in answer.get_json()["status"]


def test_a_client_that_reaches_the_port_itself_cannot_name_its_address(tmp_path):
    """Behind a proxy (TRUSTED_PROXIES), `X-Forwarded-For` is believed only from the proxies FORWARDED_ALLOW_IPS
    names: a phone on the Wi-Fi that talks to the app's port itself counts as its own address."""
    app = make_app(tmp_path, RATE_LIMIT_CREATE="1 per minute", TRUSTED_PROXIES=1, FORWARDED_ALLOW_IPS="127.0.0.1")
    client = app.test_client()
    direct = {"REMOTE_ADDR": "192.0.2.50"}
    assert (
        client.post("/api/games", environ_base=direct, headers={"X-Forwarded-For": "198.51.100.1"}).status_code == 201
    )
    for forged in ("198.51.100.2", "198.51.100.3, 198.51.100.4", "::1"):
        answer = client.post("/api/games", environ_base=direct, headers={"X-Forwarded-For": forged})
        assert answer.status_code == 429, forged  # the same client, whatever it says it is
    via_proxy = client.post("/api/games", headers={"X-Forwarded-For": "198.51.100.2"})  # (from 127.0.0.1)
    assert via_proxy.status_code == 201
    anywhere = make_app(tmp_path / "star", RATE_LIMIT_CREATE="1 per minute", TRUSTED_PROXIES=1, FORWARDED_ALLOW_IPS="*")
    star = anywhere.test_client()
    assert star.post("/api/games", environ_base=direct, headers={"X-Forwarded-For": "198.51.100.5"}).status_code == 201
    assert star.post("/api/games", environ_base=direct, headers={"X-Forwarded-For": "198.51.100.6"}).status_code == 201


@pytest.mark.parametrize(
    "allowed,peer,believed",
    [
        ("127.0.0.1,::1", "127.0.0.1", True),
        ("127.0.0.1,::1", "::1", True),
        ("127.0.0.1,::1", "::ffff:127.0.0.1", True),
        ("127.0.0.1,::1", "127.0.0.2", False),
        ("10.0.0.0/24", "10.0.0.9", True),
        ("10.0.0.0/24", "10.0.1.9", False),
        ("10.0.0.2, 10.0.0.3", "10.0.0.3", True),
        ("*", "203.0.113.1", True),
        ("127.0.0.1", "not an address", False),
    ],
)
def test_forwarded_headers_are_believed_from_the_named_proxies_alone(allowed, peer, believed):
    from companion.proxies import BehindProxies

    assert BehindProxies(None, 1, allowed).is_proxy(peer) is believed


@pytest.mark.parametrize(
    "path",
    [
        "/%09/evil.example/path",
        "//evil.example/path",
        "///evil.example",
        "/%2F%2Fevil.example",
        "/\\evil.example",
        "/%5Cevil.example",
        "/%5C%5Cevil.example/",
        "/%0a",
        "/%0d%0aSet-Cookie:%20x=1",
        "/%00",
        "/rules%09",
        "/http://evil.example",
        "/ rules",
    ],
)
def test_the_language_link_stays_on_the_site_and_a_bad_path_is_a_404(client, path):
    """`?lang=fr` redirects to the page it was added to: never to another site, never with a header a browser
    would read otherwise (a tab, a newline), and a path with no page is that page's 404."""
    answer = client.get(path + "?lang=fr&x=1")
    assert answer.status_code in (303, 308, 404), answer.status_code
    if answer.status_code != 404:
        location = answer.headers["Location"]
        assert urlsplit(urljoin("http://localhost/", location)).netloc == "localhost", location
        assert location.startswith("/") and not location.startswith(("//", "/\\")), location
        assert not any(ord(c) < 0x21 or c == "\\" for c in location), location


def test_the_language_link_keeps_the_page_and_its_other_query(client):
    answer = client.get("/rules?x=1&lang=ko")
    assert answer.status_code == 303 and answer.headers["Location"] == "/rules?x=1"
    assert client.get("/no/such/page?lang=ko").status_code == 404


def test_a_client_chosen_mount_point_grows_no_cache(tmp_path):
    """Every process cache a request can put a key of its choice in has a bound: distinct mount points
    (`SCRIPT_NAME`) and distinct characters in names cost no memory past it."""
    from companion.cache import every_cache
    from companion.rules.skeleton import plain_letter

    app = make_app(tmp_path, FRAGMENT_CACHE_CHARS=100_000)
    game = ApiGame(app.test_client())
    ann = browser(app, game.id, game.seats["Ann"])
    for n in range(300):
        root = f"/r{n}-" + "x" * 1000
        page = ann.get(f"/play/{game.id}", base_url=f"http://localhost{root}/").get_data(as_text=True)
        assert f'{root}/static/' in page and f'action="{root}/play/' in page  # each page links its own root...
    fragments = app.extensions["fragments"]
    assert 0 < fragments.weight <= app.config["FRAGMENT_CACHE_CHARS"]  # ...and the pieces kept stay in bounds
    assert all(cache.weight <= cache.limit for cache in every_cache())
    for code_point in range(0x4E00, 0x4E00 + 5000):  # more characters than the cache holds
        plain_letter(chr(code_point))
    assert plain_letter.cache_info().currsize <= plain_letter.cache_info().maxsize


def test_every_process_cache_of_the_app_has_a_bound():
    """A function cache with no bound (`functools.cache`, `lru_cache(None)`) is allowed only where its keys
    come from a fixed set the app ships, never from a request."""
    import functools
    import importlib
    import pkgutil

    import companion

    fixed_keys = {  # function -> where its keys come from
        "companion.keywords.load_pack": "a game's language, one of the shipped word packs",
        "companion.rules.skeleton._prototypes": "no argument: Unicode's table, read once",
        "companion.rules.event._names": "an event class",
        "companion.web.openapi_views.answer_schemas": "no argument",
        "companion.release.release": "no argument: the files this process serves",
    }
    unbounded = set()
    for module_info in pkgutil.walk_packages(companion.__path__, "companion."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if (
                isinstance(value, functools._lru_cache_wrapper)
                and value.__module__ == module.__name__
                and value.cache_parameters()["maxsize"] is None
            ):
                unbounded.add(f"{module.__name__}.{name}")
    assert unbounded == set(fixed_keys)


def test_housekeeping_deletes_an_expired_game_on_an_idle_server_and_nothing_else(tmp_path):
    """The worker's housekeeping (companion/housekeeping.py) on the service's clock: at its start, an idle
    server deletes the game nobody played for GAME_EXPIRY_HOURS; a game played within them stays."""
    from companion.housekeeping import expire_while

    app = make_app(tmp_path, GAME_EXPIRY_HOURS=1)
    service = app.extensions["games"]
    now = [time.time()]
    service.clock = lambda: now[0]
    client = app.test_client()
    old, played = ApiGame(client), ApiGame(client)
    now[0] += 3600 - 60  # 59 minutes later, the other table plays on
    with app.extensions["games"].store.engine.begin() as conn:  # (its last event, written "now" by this clock)
        conn.execute(
            update(events).where(events.c.game_id == played.id).values(created_at=datetime.fromtimestamp(now[0], UTC))
        )
    now[0] += 120  # an hour and a minute after the first game's last action; nobody asks the server anything
    turns = iter([True, False])
    waited = []
    expire_while(service, 600, lambda: next(turns), wait=waited.append)
    assert waited and 540 <= waited[0] <= 660  # then it waits its interval, give or take a tenth
    gone = client.get(f"/api/games/{old.id}", headers={"Authorization": f"Bearer {old.host}"})
    assert gone.status_code in (401, 403)
    assert played.view(played.host)["phase"] == "playing"
