"""The web layer per role: every refusal is a 4xx with a sentence, and leaves the event log as it was."""

import os
import re

import psycopg
import pytest
from sqlalchemy import make_url

from companion.addresses import public_base_url
from companion.store import Store, make_engine
from tools.driver import ApiGame, wrong

from .api import followed, table_path


@pytest.fixture
def game(client):
    return ApiGame(client)


def refused(game, answer, status, code):
    """Assert a refusal: status, a readable sentence, and nothing written."""
    body = answer.get_json()
    assert answer.status_code == status, body
    assert body["code"] == code
    assert isinstance(body["error"], str) and body["error"].endswith(".") and len(body["error"]) > 15


def unchanged(game, action):
    before = game.events()
    answer = action()
    assert game.events() == before, "a refused command changed the event log"
    return answer


# --- identity -----------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["", "nope", "x" * 200, "Bearer", "../../etc/passwd"])
def test_unknown_tokens_are_refused(game, client, token):
    answer = client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 403
    missing = 401 if token == "" else 403  # (game.post sends no Authorization at all for "")
    answer = unchanged(game, lambda: game.post("clues", token, clues=["a", "b", "c"]))
    assert answer.status_code == missing


def test_a_token_of_another_game_is_refused(client, game):
    other = ApiGame(client)
    answer = unchanged(game, lambda: game.post("clues", other.encryptor("white"), clues=["a", "b", "c"]))
    refused(game, answer, 403, "wrong_game")


@pytest.mark.parametrize(
    "command,body,role,code",
    [
        ("start", {}, "white_player", "host_only"),
        ("verdicts", {"verdicts": {}}, "spectator", "host_only"),
        ("clues", {"clues": ["a", "b", "c"]}, "host", "players_only"),
        ("guess", {"code": [1, 2, 3]}, "spectator", "players_only"),
        ("guess", {"code": [1, 2, 3]}, "white_join", "players_only"),
        ("join", {"name": "Eve"}, "host", "join_link_only"),
        ("join", {"name": "Eve"}, "white_player", "join_link_only"),
    ],
)
def test_each_command_needs_its_capability(game, command, body, role, code):
    token = {
        "white_player": game.seats["Abe"],
        "spectator": game.tokens["spectator"],
        "host": game.tokens["host"],
        "white_join": game.tokens["white"],
    }[role]
    refused(game, unchanged(game, lambda: game.post(command, token, body)), 403, code)


def test_only_the_encryptor_announces(game):
    refused(
        game,
        unchanged(game, lambda: game.post("clues", game.teammate("white"), clues=["a", "b", "c"])),
        403,
        "not_encryptor",
    )


def test_the_encryptor_cannot_decrypt_their_own_code(game):
    game.announce("white", ["orbit", "evergreen", "fortress"])
    game.announce("black", ["ripple", "fin", "spire"])
    refused(
        game,
        unchanged(game, lambda: game.post("guess", game.encryptor("white"), code=[1, 2, 3])),
        403,
        "encryptor_cannot_guess",
    )


def test_a_team_cannot_guess_for_the_other_team(game):
    """The team comes from the token: a body naming another team is ignored."""
    game.announce("white", ["orbit", "evergreen", "fortress"])
    game.announce("black", ["ripple", "fin", "spire"])
    answer = unchanged(game, lambda: game.post("guess", game.seats["Bob"], code=[1, 2, 3], team="white", by="white"))
    refused(game, answer, 409, "no_interception_round_one")


# --- phases -------------------------------------------------------------------------------


def test_commands_out_of_phase_are_refused(client):
    lobby = ApiGame(client, start=False)
    refused(
        lobby,
        unchanged(lobby, lambda: lobby.post("clues", lobby.seats["Ann"], clues=["a", "b", "c"])),
        409,
        "game_not_started",
    )
    refused(
        lobby,
        unchanged(lobby, lambda: lobby.post("verdicts", lobby.tokens["host"], verdicts={})),
        409,
        "game_not_started",
    )
    playing = ApiGame(client)
    refused(
        playing,
        unchanged(playing, lambda: playing.post("join", playing.tokens["white"], name="Late")),
        409,
        "too_late_to_join",
    )
    refused(playing, unchanged(playing, lambda: playing.post("start", playing.tokens["host"])), 409, "game_in_progress")
    refused(
        playing,
        unchanged(playing, lambda: playing.post("guess", playing.seats["Abe"], code=[1, 2, 3])),
        409,
        "clues_not_announced",
    )
    refused(
        playing,
        unchanged(playing, lambda: playing.post("keyword-guesses", playing.seats["Abe"], guesses=["a", "b", "c", "d"])),
        409,
        "game_in_progress",
    )


def test_announced_clues_cannot_be_edited(game):
    game.announce("white", ["orbit", "evergreen", "fortress"])
    refused(
        game,
        unchanged(game, lambda: game.post("clues", game.encryptor("white"), clues=["x1", "y1", "z1"])),
        409,
        "clues_already_announced",
    )


def test_a_sealed_guess_cannot_change(game):
    game.announce("white", ["orbit", "evergreen", "fortress"])
    game.announce("black", ["ripple", "fin", "spire"])
    game.guess("white", "white", wrong(game.code("white")))
    game.guess("black", "black", wrong(game.code("black")), confirm=False)
    game.guess("black", "black", game.code("black"), confirm=False)  # a draft may change
    game.guess("black", "black", wrong(game.code("black")), confirm=False)
    assert game.view(game.seats["Ann"])["rounds"][0]["transmissions"]["black"]["decryption"]["code"] is None
    game.guess("black", "black", game.code("black"))
    assert game.view(game.tokens["host"])["round"] == 2
    game.announce("white", ["tide", "crater", "howl"])
    game.announce("black", ["lunar", "needle", "moat"])
    game.guess("black", "white", wrong(game.code("white")))
    refused(
        game, unchanged(game, lambda: game.post("guess", game.encryptor("black"), code=[1, 2, 3])), 409, "guess_sealed"
    )


# --- malformed bodies ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "body,code",
    [
        ([1, 2, 3], "malformed_body"),
        ("clues", "malformed_body"),
        ({"clues": "abc"}, "three_clues"),
        ({"clues": ["a", "b"]}, "three_clues"),
        ({"clues": ["a", "b", None]}, "clue_empty"),
        ({"clues": ["<script>alert(1)</script>", "b\u0000", "c"]}, "text_has_control_characters"),
        ({"clues": ["x" * 61, "b", "c"]}, "text_too_long"),
        ({}, "three_clues"),
    ],
)
def test_malformed_clues_are_refused(game, body, code):
    refused(game, unchanged(game, lambda: game.post("clues", game.encryptor("white"), body)), 400, code)


def test_a_body_that_is_not_json_is_refused(game, client):
    answer = unchanged(
        game,
        lambda: client.post(
            f"/api/games/{game.id}/clues",
            data="clues=a",
            headers={"Authorization": f"Bearer {game.encryptor('white')}", "Content-Type": "application/json"},
        ),
    )
    refused(game, answer, 400, "malformed_body")


def test_an_oversized_body_is_refused(game, client):
    answer = unchanged(game, lambda: game.post("clues", game.encryptor("white"), clues=["x" * 20000, "b", "c"]))
    assert answer.status_code == 413 and answer.get_json()["error"]


@pytest.mark.parametrize(
    "code", [[1, 1], [0, 5, 9], "12", ["a", "b", "c"], [1.5, 2, 3], None, {"a": 1, "b": 2, "c": 3}]
)
def test_malformed_guesses_are_refused(game, code):
    game.announce("white", ["orbit", "evergreen", "fortress"])
    game.announce("black", ["ripple", "fin", "spire"])
    refused(
        game, unchanged(game, lambda: game.post("guess", game.teammate("white"), code=code)), 400, "guess_malformed"
    )


def test_unknown_commands_and_pages_are_refused(game, client):
    refused(game, unchanged(game, lambda: game.post("explode", game.tokens["host"])), 400, "unknown_command")
    answer = client.get("/api/nothing-here")
    assert answer.status_code == 404 and answer.get_json()["error"]
    page = client.get("/nothing-here")
    assert page.status_code == 404 and b"There is nothing here" in page.data


# --- the browser session: seat cookie and CSRF --------------------------------------------


def csrf_of(page) -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', page.get_data(as_text=True)).group(1)


def join_in_browser(client, game, team, name):
    path = "/join/" + game.urls[team].rsplit("/", 1)[1]
    page = client.get(path)
    answer = client.post(path, data={"name": name, "csrf_token": csrf_of(page)})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return answer.headers["Location"]


def test_a_phone_joins_by_its_link_and_comes_back_to_its_seat(app, client):
    game = ApiGame(client, white=("Ann",), black=("Bea", "Bob"), start=False)
    phone = app.test_client()
    play = join_in_browser(phone, game, "white", "Abe")
    assert play == f"/play/{game.id}"
    assert b"Abe" in phone.get(play).data
    again = phone.get("/join/" + game.urls["white"].rsplit("/", 1)[1])
    assert again.status_code == 303 and again.headers["Location"] == play  # reopening the link: same seat
    assert len([e for e in game.events() if e["type"] == "player_joined"]) == 4


def test_a_duplicate_name_in_a_team_gets_a_clear_message(app, client):
    game = ApiGame(client, start=False)
    phone = app.test_client()
    path = "/join/" + game.urls["white"].rsplit("/", 1)[1]
    page = phone.get(path)
    before = game.events()
    answer = followed(phone, phone.post(path, data={"name": "ann", "csrf_token": csrf_of(page)}))
    assert answer.status_code == 409 and "already called ann" in answer.get_data(as_text=True)
    assert 'value="ann"' in answer.get_data(as_text=True)  # what was typed, to correct
    assert game.events() == before


def test_posts_from_a_browser_session_need_the_csrf_token(app, client):
    game = ApiGame(client, white=("Ann",), start=False)
    phone = app.test_client()
    join_in_browser(phone, game, "white", "Abe")
    client.post(f"/api/games/{game.id}/start", headers={"Authorization": f"Bearer {game.tokens['host']}"})
    page = phone.get(f"/play/{game.id}")
    token = csrf_of(page)
    clues = {"clues": ["tide", "crater", "howl"]}
    # Abe may or may not be the Encryptor; either way a missing token is refused before the rules speak.
    for attempt in (
        lambda: phone.post(f"/play/{game.id}/clues", data=clues),
        lambda: phone.post(f"/api/games/{game.id}/clues", json=clues),
        lambda: phone.post(f"/api/games/{game.id}/clues", json=clues, headers={"X-CSRFToken": "forged"}),
    ):
        answer = unchanged(game, attempt)
        assert answer.status_code == 400 and b"Reload it and try again" in answer.data
    answer = phone.post(f"/api/games/{game.id}/guess", json={"code": [1, 2, 3]}, headers={"X-CSRFToken": token})
    assert answer.status_code == 409  # past CSRF: the rules answer (no clues yet)


def test_a_phone_without_a_seat_is_told_to_scan(client, game):
    page = client.get(f"/play/{game.id}")
    assert page.status_code == 401 and b"Scan your team" in page.data
    answer = client.get(f"/api/games/{game.id}")  # no credential at all: 401, saying which one works
    assert answer.status_code == 401 and answer.get_json()["code"] == "not_seated"
    assert answer.headers["WWW-Authenticate"] == "Bearer"


# --- polling, headers ---------------------------------------------------------------------


def test_an_unchanged_poll_answers_304_and_a_change_answers_200(game, client):
    headers = {"Authorization": f"Bearer {game.tokens['spectator']}"}
    first = client.get(f"/api/games/{game.id}", headers=headers)
    etag = first.headers["ETag"]
    again = client.get(f"/api/games/{game.id}", headers={**headers, "If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    game.announce("white", ["orbit", "evergreen", "fortress"])
    changed = client.get(f"/api/games/{game.id}", headers={**headers, "If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_every_answer_carries_the_security_headers(game, client):
    for answer in (
        client.get("/"),
        client.get(f"/api/games/{game.id}"),
        client.get("/nope"),
        client.get(table_path(client, game.tokens['host'])),
    ):
        assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
        assert "unsafe-inline" not in answer.headers["Content-Security-Policy"]
        assert answer.headers["Referrer-Policy"] == "no-referrer"
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Cache-Control"] in ("no-store", "private, no-cache")


def test_healthz(client):
    assert client.get("/healthz").get_json() == {"status": "ok"}


def test_qr_links_use_public_url_or_the_lan_address_not_loopback(monkeypatch):
    assert public_base_url("http://127.0.0.1:8000/", "https://decrypto.example/") == "https://decrypto.example/"
    monkeypatch.setattr("companion.addresses.lan_address", lambda: "192.168.1.20")
    assert public_base_url("http://127.0.0.1:8000/") == "http://192.168.1.20:8000/"
    assert public_base_url("http://localhost:8000/") == "http://192.168.1.20:8000/"
    assert public_base_url("http://10.0.0.5:8000/") == "http://10.0.0.5:8000/"


# --- pages never carry another team's secrets ---------------------------------------------


def test_pages_show_each_viewer_only_what_it_may_know(app, client):
    game = ApiGame(client, white=("Ann",), black=("Bea", "Bob"), start=False)
    abe = app.test_client()
    join_in_browser(abe, game, "white", "Abe")
    client.post(f"/api/games/{game.id}/start", headers={"Authorization": f"Bearer {game.tokens['host']}"})
    white_words = game.view(game.seats["Ann"])["teams"]["white"]["keywords"]
    black_words = game.view(game.seats["Bea"])["teams"]["black"]["keywords"]
    pages = {
        "table": client.get(table_path(client, game.tokens['host'])).get_data(as_text=True),
        "spectator": client.get(f"/watch/{game.tokens['spectator']}").get_data(as_text=True),
        "white phone": abe.get(f"/play/{game.id}").get_data(as_text=True),
        "join page": client.get("/join/" + game.tokens["black"]).get_data(as_text=True),
    }
    for name, html in pages.items():
        for word in black_words:  # as a whole word: White's PEAR holds Black's PEA
            assert not re.search(rf"\b{re.escape(word)}\b", html), f"Black's keyword {word} on the {name}"
        if name != "white phone":
            for word in white_words:
                assert not re.search(rf"\b{re.escape(word)}\b", html), f"White's keyword {word} on the {name}"
        for token in list(game.seats.values()) + [game.tokens["white"], game.tokens["black"]]:
            assert token not in html or name == "table", f"a capability token on the {name}"
    assert all(word in pages["white phone"] for word in white_words)


def test_the_table_screen_says_why_the_game_cannot_start_yet(client):
    game = ApiGame(client, white=("A1", "A2", "A3", "A4"), black=("B1", "B2"), start=False)
    page = client.get(table_path(client, game.tokens['host'])).get_data(as_text=True)
    assert "Teams must be as even as possible (White 4, Black 2)" in page and "disabled" in page
    refused(game, unchanged(game, lambda: game.post("start", game.tokens["host"])), 409, "teams_uneven")


def test_switching_teams_moves_the_phone_and_withdraws_its_old_seat(app, client):
    game = ApiGame(client, white=("Ann",), black=("Bea",), start=False)
    phone = app.test_client()
    join_in_browser(phone, game, "white", "Abe")
    store = app.extensions["games"].store
    old_token = next(c.token for c in store.capabilities_of(game.id, "seat") if c.seat == 3)  # Abe, third to join
    join_in_browser(phone, game, "black", "Abe")
    roster = game.view(game.tokens["host"])["teams"]
    assert [p["name"] for p in roster["white"]["players"]] == ["Ann"]
    assert [p["name"] for p in roster["black"]["players"]] == ["Bea", "Abe"]
    assert client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {old_token}"}).status_code == 403
    assert b"Abe" in phone.get(f"/play/{game.id}").data


def test_a_new_game_in_an_unknown_language_is_refused(client):
    answer = client.post("/api/games", json={"language": "xx"})
    assert answer.status_code == 400 and answer.get_json()["code"] == "unknown_language"


def test_a_wrong_method_is_a_405_even_without_a_csrf_token(game, client):
    answer = client.delete(f"/api/games/{game.id}")
    assert answer.status_code == 405 and answer.get_json()["code"] == "method_not_allowed"


def test_a_database_failure_is_a_500_with_a_sentence_and_no_details(app, tmp_path, monkeypatch):
    app.testing = False  # errors become responses, as in production
    monkeypatch.setattr(
        app.extensions["games"],
        "store",  # a real driver error
        Store(make_engine(f"sqlite:///{tmp_path}/missing-folder/decrypto.sqlite3")),
    )
    for path, status, sentence in (
        ("/healthz", 503, "database unavailable"),
        ("/api/games/abc", 500, "Something went wrong"),
    ):
        answer = app.test_client().get(path, headers={"Authorization": "Bearer abc"})
        text = answer.get_data(as_text=True)
        assert answer.status_code == status and sentence in text
        assert "OperationalError" not in text and "sqlite" not in text


def test_an_anonymous_visitor_learns_nothing_in_any_phase(client):
    # (names that no header holds: "Bea" is in a 401's "WWW-Authenticate: Bearer")
    game = ApiGame(client, black=("Zoe", "Zed"), start=False)
    snapshots = []

    def look():
        host_view = game.view(game.tokens["host"])
        answers = [
            client.get(f"/play/{game.id}"),
            client.get(f"/api/games/{game.id}"),
            client.get(f"/table/{game.id}"),
            client.get(f"/watch/{game.id}"),
            client.get(f"/join/{game.id}"),
            client.post(f"/api/games/{game.id}/guess", json={"code": [1, 2, 3]}),
        ]
        snapshots.append((host_view["phase"], answers))

    look()
    client.post(f"/api/games/{game.id}/start", headers={"Authorization": f"Bearer {game.tokens['host']}"})
    look()
    game.announce("white", ["orbit", "evergreen", "fortress"])
    game.announce("black", ["ripple", "fin", "spire"])
    look()
    secrets = (
        game.view(game.seats["Ann"])["teams"]["white"]["keywords"]
        + game.view(game.seats["Zoe"])["teams"]["black"]["keywords"]
        + ["orbit", "ripple", "Ann", "Zoe"]
        + list(game.seats.values())
        + list(game.tokens.values())
    )
    for phase, answers in snapshots:
        for answer in answers:
            assert 400 <= answer.status_code < 500, (phase, answer.request.path)
            body = answer.get_data(as_text=True) + str(answer.headers)
            assert not [s for s in secrets if s in body], (phase, answer.request.path)


def test_a_connection_postgresql_dropped_costs_no_request(app, client):
    """Tokens are looked up on the pool's own driver connection (store.DriverQuery): one the server dropped
    (a restart, an idle timeout) is discarded and the lookup runs again on a new one, so the page answers."""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip("needs PostgreSQL: run under scripts/with-postgres (CI does)")
    game = ApiGame(client)
    look = lambda: client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {game.host}"})
    assert look().status_code == 200
    engine = app.extensions["games"].store.engine
    held = engine.pool.checkedin()
    with psycopg.connect(make_url(url).set(drivername="postgresql").render_as_string(False), autocommit=True) as admin:
        dropped = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()[0]
    assert dropped >= held >= 1  # every connection the app keeps (and its stream listener's, if any)
    assert [look().status_code for _ in range(3)] == [200, 200, 200]
