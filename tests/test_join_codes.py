"""Join codes (a team's join link as five characters to type), "Back to your game" on the home page, and the
join page that says at once when joining is locked."""

import random
import re
import uuid
from datetime import datetime, timedelta, UTC

import pytest
from sqlalchemy import update

from companion import create_app
from companion.games import JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH, GameService
from companion.store import events
from tools.driver import ApiGame

from .api import browser, expected, table_path
from .conftest import database_url


def make_app(tmp_path, **config):
    return create_app(
        {"TESTING": True, "SECRET_KEY": "t-" + uuid.uuid4().hex, "DATABASE_URL": database_url(tmp_path), **config}
    )


def type_code(phone, code, **environ):
    """A phone's home page form "Join with a code": the join page's address, or the home page saying why not
    (post/redirect/get)."""
    answer = phone.post("/join-code", data={"code": code, "csrf_token": phone.csrf}, environ_base=environ)
    if answer.status_code == 303 and answer.headers["Location"] == "/":
        page = phone.get("/", environ_base=environ)
        page.posted = answer  # (the form's own answer: its rate limit's headers)
        return page
    return answer


def code_error(answer) -> str:
    found = re.search(r'class="form-error" role="alert">([^<]*)<', answer.get_data(as_text=True))
    return found.group(1).replace("&#39;", "'") if found else ""


@pytest.fixture
def lobby(client):
    return ApiGame(client, white=("Ann",), black=("Bea",), start=False)


def test_each_team_gets_its_own_code_of_five_unmistakable_characters(lobby):
    created = lobby.client.post("/api/games").get_json()
    codes = created["codes"]
    assert set(codes) == {"white", "black"} and codes["white"] != codes["black"]
    for code in codes.values():
        assert len(code) == JOIN_CODE_LENGTH and set(code) <= set(JOIN_CODE_ALPHABET)
    assert not set(JOIN_CODE_ALPHABET) & set("0O1IL2Z5S8BUVQ")  # nothing that reads as another


def test_a_code_typed_any_way_opens_its_teams_join_page_and_nothing_else(app, client):
    created = client.post("/api/games").get_json()
    phone = browser(app)
    white, black = created["codes"]["white"], created["codes"]["black"]
    for typed, team in (
        (white, "white"),
        (f" {white[:2].lower()}-{white[2:].lower()} ", "white"),
        (" ".join(black), "black"),
    ):
        answer = type_code(phone, typed)
        assert answer.status_code == 303
        assert answer.headers["Location"] == f"/join/{created['tokens'][team]}"
    page = phone.get(f"/join/{created['tokens']['white']}")
    assert "Join White" in page.get_data(as_text=True) and 'name="name"' in page.get_data(as_text=True)
    # A code is no token: it opens no table screen, seat or view.
    assert phone.get(f"/table/{white}").status_code == 403
    assert (
        client.get(f"/api/games/{created['game_id']}", headers={"Authorization": f"Bearer {white}"}).status_code == 403
    )


def test_an_unknown_code_is_refused_with_a_sentence(app, lobby):
    phone = browser(app)
    before = lobby.events()
    answer = type_code(phone, "XXXXX")
    assert answer.status_code == 404
    assert code_error(answer) == expected(app, "no_such_join_code")
    assert type_code(phone, "").status_code == 404
    assert type_code(phone, "A" * 5000).status_code == 404
    assert lobby.events() == before


def test_a_code_stops_working_while_joining_is_locked_and_works_again_once_reopened(app, client):
    created = client.post("/api/games").get_json()
    game_id, host, code = created["game_id"], created["tokens"]["host"], created["codes"]["white"]
    phone = browser(app)
    lock = lambda locked: client.post(
        f"/api/games/{game_id}/lock-joining",
        json={"locked": locked},  # noqa: E731
        headers={"Authorization": f"Bearer {host}"},
    )
    assert lock(True).status_code == 200
    answer = type_code(phone, code)
    assert answer.status_code == 404  # as if there were no such code (see below)
    assert code_error(answer) == expected(app, "no_such_join_code")
    assert lock(False).status_code == 200
    assert type_code(phone, code).status_code == 303


def test_a_code_stops_working_once_the_game_starts(app, client):
    game = ApiGame(client)
    codes = {team: code for team, code in client.application.extensions["games"].join_codes(game.id).items()}
    phone = browser(app)
    for code in codes.values():
        answer = type_code(phone, code)
        assert answer.status_code == 404
        assert code_error(answer) == expected(app, "no_such_join_code")


def test_a_code_that_opens_nothing_gets_one_answer_whether_wrong_started_over_or_locked(tmp_path):
    """A stranger guessing codes can't tell a code that exists from one that doesn't (issue 20, item 8):
    the same status, sentence, page and headers, and every one counted against the wrong-code limit."""
    app = make_app(tmp_path, RATE_LIMIT_JOIN_CODE="10 per minute")
    client = app.test_client()
    codes_of = app.extensions["games"].join_codes
    locked = ApiGame(client, white=("Ann",), black=("Bea",), start=False)
    assert locked.post("lock-joining", locked.tokens["host"], locked=True).status_code == 200
    started = ApiGame(client)
    over = ApiGame(client)
    over.round(black=(False, False))
    over.round(black=(False, False))  # Black's second Miscommunication
    assert over.view(over.host)["phase"] == "over"
    typed = {
        "locked": codes_of(locked.id)["white"],
        "started": codes_of(started.id)["black"],
        "over": codes_of(over.id)["white"],
    }
    typed["wrong"] = next(
        c * JOIN_CODE_LENGTH for c in JOIN_CODE_ALPHABET if c * JOIN_CODE_LENGTH not in typed.values()
    )
    phone = browser(app)
    answers = {case: type_code(phone, code) for case, code in typed.items()}

    def page(case):  # what differs is what the phone typed, echoed in the form, and the CSRF token's time
        body = answers[case].get_data(as_text=True).replace(f'value="{typed[case]}"', 'value="…"')
        return re.sub(r'name="csrf[-_]token" (value|content)="[^"]+"', "", body)  # the form's and the page's

    def headers(case):
        varying = {"Date", "X-RateLimit-Remaining", "X-RateLimit-Reset"}
        return sorted((name, value) for name, value in answers[case].headers.items() if name not in varying)

    for case, answer in answers.items():
        assert answer.status_code == 404, case
        assert code_error(answer) == expected(app, "no_such_join_code"), case
        assert page(case) == page("wrong") and headers(case) == headers("wrong"), case
    remaining = [int(answers[case].posted.headers["X-RateLimit-Remaining"]) for case in typed]
    assert remaining == [9, 8, 7, 6]  # each one counted as a wrong code
    assert locked.post("lock-joining", locked.tokens["host"], locked=False).status_code == 200
    assert type_code(phone, typed["locked"]).status_code == 303  # the right code, once it works again


def test_wrong_codes_are_rate_limited_per_address_but_right_ones_are_not_counted(tmp_path):
    app = make_app(tmp_path, RATE_LIMIT_JOIN_CODE="3 per minute")
    client = app.test_client()
    code = client.post("/api/games").get_json()["codes"]["black"]
    phone = browser(app)
    for _ in range(5):  # a whole table typing its code from one address
        assert type_code(phone, code).status_code == 303
    for _ in range(3):
        assert type_code(phone, "XXXXX").status_code == 404
    refused = type_code(phone, code)  # even the right code, once the wrong ones ran out
    assert refused.status_code == 429 and "Retry-After" in refused.headers
    assert expected(app, "rate_limited") in refused.get_data(as_text=True).replace("&#39;", "'")
    assert type_code(phone, code, REMOTE_ADDR="192.0.2.9").status_code == 303  # counted per address


def test_codes_never_collide_a_taken_code_is_drawn_again(tmp_path):
    app = make_app(tmp_path)
    service: GameService = app.extensions["games"]
    service.code_rng = random.Random(5)
    first = service.join_codes(service.create().game_id)
    service.code_rng = random.Random(5)  # the same draws again: every first try collides
    second = service.join_codes(service.create().game_id)
    assert set(first.values()).isdisjoint(second.values())
    assert len(set(first.values()) | set(second.values())) == 4


def test_codes_go_with_their_game_when_it_expires(app):
    service: GameService = app.extensions["games"]
    created = service.create()
    code = service.join_codes(created.game_id)["white"]
    assert service.store.join_code(code) is not None
    with service.store.engine.begin() as conn:  # nobody played it for four days
        conn.execute(
            update(events)
            .where(events.c.game_id == created.game_id)
            .values(created_at=datetime.now(UTC) - timedelta(days=4))
        )
    assert service.expire_idle_games() == [created.game_id]
    assert service.store.join_code(code) is None


def test_the_join_page_says_at_once_that_joining_is_locked(app, lobby):
    assert lobby.post("lock-joining", lobby.tokens["host"], locked=True).status_code == 200
    page = browser(app).get(f"/join/{lobby.tokens['white']}").get_data(as_text=True)
    assert "Joining is locked" in page
    assert 'name="name"' not in page and "Take my seat" not in page
    assert lobby.post("lock-joining", lobby.tokens["host"], locked=False).status_code == 200
    page = browser(app).get(f"/join/{lobby.tokens['white']}").get_data(as_text=True)
    assert "Joining is locked" not in page and 'name="name"' in page


def test_the_table_screen_shows_each_teams_code_under_its_qr_code(app, lobby):
    codes = app.extensions["games"].join_codes(lobby.id)
    page = lobby.client.get(table_path(lobby.client, lobby.tokens['host'])).get_data(as_text=True)
    for team in ("white", "black"):
        assert f'<p class="join-code" data-team="{team}">{codes[team]}</p>' in page
    # Locking joining hides them with the QR codes; the spectator never sees them.
    assert lobby.post("lock-joining", lobby.tokens["host"], locked=True).status_code == 200
    page = lobby.client.get(table_path(lobby.client, lobby.tokens['host'])).get_data(as_text=True)
    watch = lobby.client.get(f"/watch/{lobby.tokens['spectator']}").get_data(as_text=True)
    for code in codes.values():
        assert code not in page and code not in watch


def test_a_seated_phone_finds_its_game_from_the_home_page(app, client):
    game = ApiGame(client, start=False)
    seated = browser(app, game.id, game.seats["Abe"])
    home = seated.get("/").get_data(as_text=True)
    assert "Back to your game" in home and f'href="/play/{game.id}"' in home
    assert "Abe · White" in home
    rules = seated.get("/rules").get_data(as_text=True)
    assert f'href="/play/{game.id}"' in rules
    assert "Back to your game" not in browser(app).get("/").get_data(as_text=True)  # a phone without a seat
    # A seat the table screen removed, or a game that is over, is no game to go back to.
    abe = next(p["seat"] for p in game.view(game.tokens["host"])["teams"]["white"]["players"] if p["name"] == "Abe")
    assert game.post("remove-player", game.tokens["host"], seat=abe).status_code == 200
    assert "Back to your game" not in seated.get("/").get_data(as_text=True)


def test_a_game_from_before_join_codes_keeps_its_lobby_after_the_upgrade(app, client):
    """Migration 3 adds the join codes' table; a lobby created before it simply has no codes."""
    from sqlalchemy import delete

    from companion.store import LATEST_SCHEMA, join_codes, schema_version

    game = ApiGame(client, white=("Ann",), black=(), start=False)
    store = app.extensions["games"].store
    with store.engine.begin() as conn:  # as the database was at schema version 2
        join_codes.drop(conn)
        conn.execute(delete(schema_version).where(schema_version.c.version >= 3))
    assert store.schema_version() == 2
    store.migrate()
    assert store.schema_version() == LATEST_SCHEMA and app.extensions["games"].join_codes(game.id) == {}
    page = client.get(table_path(client, game.tokens['host'])).get_data(as_text=True)
    assert 'class="join-code"' not in page and "No camera? Open:" in page
    assert client.post("/api/games").get_json()["codes"]  # new games get theirs
