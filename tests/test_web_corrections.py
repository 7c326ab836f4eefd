"""The web layer for the host's corrections, seats, game settings, the try-out, the summary and the sand timer.

Every refusal is a 4xx with a sentence a player understands, and leaves the game's event log as it was.
"""

from __future__ import annotations

import html
import re

import pytest
from sqlalchemy import func, select

from companion.rules import Who, RuleError
from companion.store import games as games_table

from companion.rules.host import PHONE_IN_USE_SECONDS
from companion.web.commands import COMMANDS
from tools.driver import ApiGame, targets, wrong

from .api import browser, expected, followed, page_of, table_path

# --- helpers --------------------------------------------------------------------------------


def finished_game(client):
    """A game Black loses in round 2 (two Miscommunications); returns it and what happened."""
    game = ApiGame(client)
    keywords = {
        team: game.view(game.seats[name])["teams"][team]["keywords"]
        for team, name in (("white", "Ann"), ("black", "Bea"))
    }
    rounds = [game.round(black=(False, False)), game.round(black=(False, False))]
    assert game.view(game.tokens["host"])["phase"] == "over"
    return game, keywords, rounds


def log(game):
    """The game's whole event log as stored."""
    return game.client.application.extensions["games"].store.events_after(game.id)


def sentence_in(answer, status, code=None) -> str:
    """Assert a refusal answer: its status, and a sentence (JSON `error`, or an HTML page) for a person."""
    assert answer.status_code == status, answer.get_data(as_text=True)[:500]
    if answer.is_json:
        body = answer.get_json()
        if code:
            assert body["code"] == code, body
        text = body["error"]
    else:
        text = html.unescape(answer.get_data(as_text=True))
    assert isinstance(text, str) and "." in text and len(text) > 15
    return text


def count_games(app) -> int:
    with app.extensions["games"].store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(games_table)).scalar_one()


# --- states a refusal is tried in -------------------------------------------------------------


def state(client, name):
    """A game in one of the states below, through the API."""
    if name == "lobby":
        return ApiGame(client, start=False)
    if name == "locked-lobby":
        game = ApiGame(client, start=False)
        assert game.post("lock-joining", game.tokens["host"], locked=True).status_code == 200
        return game
    if name == "empty-lobby":
        game = ApiGame(client, white=("Ann",), black=(), start=False)
        game.seats["Abe"] = game.seats["Ann"]
        return game
    game = ApiGame(client)
    if name == "writing":  # round 1, no clues yet
        return game
    if name == "announced":  # round 1, White announced
        game.announce("white")
        return game
    if name in ("revealed", "pending"):  # round 1 revealed, round 2 not under way: the reveal is correctable
        game.round()
        if name == "pending":
            last = game.view(game.tokens["host"])["rounds"][0]["transmissions"]["black"]
            answer = game.post("correction", game.tokens["host"], decryption=wrong(last["code"]))
            assert answer.status_code == 200, answer.get_json()
        return game
    if name == "over":
        game.round(black=(False, False))
        game.round(black=(False, False))
        return game
    raise ValueError(name)


def token_of(game, role, client=None):
    if role in ("host", "spectator"):
        return game.tokens[role]
    if role == "white_join":
        return game.tokens["white"]
    if role == "seat":
        return game.seats["Abe"]
    if role == "handoff":  # a seat link the table issued for Abe
        seat = game.view(game.seats["Abe"])["viewer"]["seat"]
        assert game.post("seat-link", game.tokens["host"], seat=seat).status_code == 200
        return game.client.application.extensions["games"].seat_links(game.id)[seat]
    if role == "forged":
        return "forged-" + "A" * 32
    if role == "other_game":
        return ApiGame(client, start=False).tokens["host"]
    raise ValueError(role)


# (command, state, who sends it, body, status, refusal code)
REFUSED = [
    # the wrong kind of token
    ("lock-joining", "lobby", "seat", {"locked": True}, 403, "host_only"),
    ("lock-joining", "lobby", "white_join", {"locked": True}, 403, "host_only"),
    ("move-player", "lobby", "spectator", {"seat": 1}, 403, "host_only"),
    ("remove-player", "lobby", "seat", {"seat": 1}, 403, "host_only"),
    ("skip-encryptor", "writing", "seat", {"team": "white"}, 403, "host_only"),
    ("take-back", "announced", "spectator", {}, 403, "host_only"),
    ("correction", "revealed", "seat", {"decryption": [1, 2, 3]}, 403, "host_only"),
    ("withdraw-correction", "pending", "seat", {}, 403, "host_only"),
    ("seat-link", "writing", "seat", {"seat": 1}, 403, "host_only"),
    ("seat-link", "writing", "handoff", {"seat": 1}, 403, "host_only"),
    ("rematch", "over", "spectator", {}, 403, "host_only"),
    ("swap-keyword", "writing", "host", {"number": 1}, 403, "players_only"),
    ("swap-keyword", "writing", "spectator", {"number": 1}, 403, "players_only"),
    ("swap-keyword", "writing", "handoff", {"number": 1}, 403, "players_only"),
    ("answer-correction", "pending", "host", {"accept": True}, 403, "players_only"),
    ("answer-correction", "pending", "white_join", {"accept": True}, 403, "players_only"),
    ("cancel-seat-link", "writing", "seat", {"seat": 2}, 403, "host_only"),
    ("cancel-seat-link", "writing", "handoff", {"seat": 2}, 403, "host_only"),
    ("claim-seat", "writing", "seat", {}, 403, "seat_link_only"),
    ("claim-seat", "writing", "host", {}, 403, "seat_link_only"),
    ("claim-seat", "writing", "white_join", {}, 403, "seat_link_only"),
    # the wrong phase
    ("lock-joining", "writing", "host", {"locked": True}, 409, "game_in_progress"),
    ("move-player", "writing", "host", {"seat": 1}, 409, "game_in_progress"),
    ("remove-player", "over", "host", {"seat": 1}, 409, "game_over"),
    ("skip-encryptor", "lobby", "host", {"team": "white"}, 409, "game_not_started"),
    ("skip-encryptor", "over", "host", {"team": "white"}, 409, "game_over"),
    ("skip-encryptor", "announced", "host", {"team": "white"}, 409, "clues_already_announced"),
    ("take-back", "lobby", "host", {}, 409, "game_not_started"),
    ("take-back", "writing", "host", {}, 409, "nothing_to_take_back"),
    ("take-back", "pending", "host", {}, 409, "correction_pending"),
    ("correction", "lobby", "host", {"decryption": [1, 2, 3]}, 409, "nothing_to_correct"),
    ("correction", "writing", "host", {"decryption": [1, 2, 3]}, 409, "nothing_to_correct"),
    ("correction", "pending", "host", {"decryption": [1, 2, 3]}, 409, "correction_pending"),
    ("withdraw-correction", "revealed", "host", {}, 409, "no_correction"),
    ("answer-correction", "revealed", "seat", {"accept": True}, 409, "no_correction"),
    ("answer-correction", "revealed", "seat", {"accept": True, "correction": None}, 409, "no_correction"),  # was a 500
    ("swap-keyword", "lobby", "seat", {"number": 1}, 409, "game_not_started"),
    ("swap-keyword", "revealed", "seat", {"number": 1}, 409, "swap_too_late"),
    ("swap-keyword", "over", "seat", {"number": 1}, 409, "game_over"),
    ("rematch", "lobby", "host", {}, 409, "game_not_started"),
    ("rematch", "writing", "host", {}, 409, "game_in_progress"),
    ("lock-joining", "lobby", "host", {"locked": False}, 409, "already_open"),
    ("switch-team", "lobby", "host", {}, 403, "players_only"),
    ("switch-team", "lobby", "white_join", {}, 403, "players_only"),
    ("switch-team", "writing", "seat", {}, 409, "game_in_progress"),
    ("switch-team", "locked-lobby", "seat", {}, 409, "joining_locked"),
    ("switch-team", "lobby", "seat", [1], 400, "malformed_body"),
    ("shuffle-teams", "lobby", "seat", {}, 403, "host_only"),
    ("shuffle-teams", "writing", "host", {}, 409, "game_in_progress"),
    ("shuffle-teams", "empty-lobby", "host", {}, 409, "too_few_to_shuffle"),
    ("shuffle-teams", "lobby", "host", "shuffle", 400, "malformed_body"),
    ("set-timer", "lobby", "seat", {"timer": 30}, 403, "host_only"),
    ("set-timer", "over", "host", {"timer": 30}, 409, "game_over"),
    ("set-timer", "writing", "host", {"timer": 30}, 409, "game_in_progress"),
    ("set-timer", "lobby", "host", {"timer": 5}, 400, "timer_length"),
    ("set-timer", "lobby", "host", {"timer": "30"}, 400, "timer_length"),
    ("set-timer", "lobby", "host", {}, 400, "timer_length"),
    ("cancel-seat-link", "writing", "host", {"seat": 2}, 409, "no_seat_link"),
    # malformed bodies
    ("lock-joining", "lobby", "host", {"locked": "yes"}, 400, "locked_malformed"),
    ("lock-joining", "lobby", "host", {}, 400, "locked_malformed"),
    ("lock-joining", "lobby", "host", [True], 400, "malformed_body"),
    ("move-player", "lobby", "host", {"seat": "1"}, 400, "no_such_player"),
    ("move-player", "lobby", "host", {"seat": 99}, 400, "no_such_player"),
    ("remove-player", "lobby", "host", {"seat": True}, 400, "no_such_player"),
    ("remove-player", "lobby", "host", {}, 400, "no_such_player"),
    ("skip-encryptor", "writing", "host", {"team": "green"}, 400, "no_such_team"),
    ("skip-encryptor", "writing", "host", {}, 400, "no_such_team"),
    ("take-back", "announced", "host", [1], 400, "malformed_body"),
    ("correction", "revealed", "host", {"decryption": "12"}, 400, "guess_malformed"),
    ("correction", "revealed", "host", {}, 400, "guess_malformed"),
    ("correction", "revealed", "host", {"decryption": [0, 5, 9]}, 400, "guess_malformed"),
    ("withdraw-correction", "pending", "host", "withdraw", 400, "malformed_body"),
    ("answer-correction", "pending", "seat", {"accept": "yes"}, 400, "accept_malformed"),
    ("answer-correction", "pending", "seat", {}, 400, "accept_malformed"),
    ("swap-keyword", "writing", "seat", {"number": 5}, 400, "keyword_number"),
    ("swap-keyword", "writing", "seat", {"number": "2"}, 400, "keyword_number"),
    ("swap-keyword", "writing", "seat", {"number": True}, 400, "keyword_number"),
    ("seat-link", "writing", "host", {"seat": 99}, 400, "no_such_player"),
    ("seat-link", "writing", "host", {"seat": "1"}, 400, "no_such_player"),
    ("cancel-seat-link", "writing", "host", {"seat": "2"}, 400, "no_such_player"),
    ("cancel-seat-link", "writing", "host", {}, 400, "no_such_player"),
    ("claim-seat", "writing", "handoff", [1], 400, "malformed_body"),
    ("rematch", "over", "host", [1], 400, "malformed_body"),
    # forged and foreign tokens
    *[(command, "writing", "forged", {}, 403, "no_capability") for command in COMMANDS],
    *[(command, "writing", "other_game", {}, 403, "wrong_game") for command in ("take-back", "seat-link", "rematch")],
]


@pytest.mark.parametrize(
    "command,state_name,role,body,status,code", REFUSED, ids=[f"{c}-{s}-{r}-{code}" for c, s, r, _, _, code in REFUSED]
)
def test_each_command_is_refused_with_a_sentence_and_nothing_written(
    app, client, command, state_name, role, body, status, code
):
    game = state(client, state_name)
    token = token_of(game, role, client)
    before = log(game)
    answer = game.post(command, token, body)
    sentence_in(answer, status, code)
    params = {"min": 10, "max": 600} if code == "timer_length" else {}
    if code == "no_capability" and command == "claim-seat":
        params = {"link": "seat"}  # a dead seat link says so, and what to do instead
    assert answer.get_json()["error"] == expected(app, code, **params)
    assert log(game) == before, "a refused command changed the event log"


SENDER_ROLE = {"host": "host", "seat": "seat", "join": "white_join", "handoff": "handoff"}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_refuses_a_body_that_is_not_an_object(client, command):
    """Each command by the right kind of token; its other refusals by phase and by token are in
    test_hostile_input.py (every command in every phase, by every wrong kind of token)."""
    game = state(client, "writing")
    token = token_of(game, SENDER_ROLE[COMMANDS[command].sender], client)
    before = log(game)
    sentence_in(game.post(command, token, [1]), 400, "malformed_body")
    assert log(game) == before


def test_a_command_without_any_token_is_refused(client):
    game = ApiGame(client)
    before = log(game)
    for command in COMMANDS:
        sentence_in(game.post(command, None, {}), 401, "not_seated")
    assert log(game) == before


# --- the same refusals from the no-JavaScript forms -------------------------------------------

FORM_REFUSED = [
    # (state, path kind, who, command, form fields, status, code)
    ("writing", "table", "host", "lock-joining", {"locked": "1"}, 409, "game_in_progress"),
    ("writing", "table", "host", "skip-encryptor", {"team": "green"}, 400, "no_such_team"),
    ("writing", "table", "host", "take-back", {}, 409, "nothing_to_take_back"),
    ("revealed", "table", "host", "correction", {"decryption": "1-1"}, 400, "guess_malformed"),
    ("lobby", "table", "host", "move-player", {"seat": "x"}, 400, "no_such_player"),
    ("writing", "table", "host", "rematch", {}, 409, "game_in_progress"),
    ("writing", "table", "host", "shuffle-teams", {}, 409, "game_in_progress"),
    ("lobby", "table", "host", "set-timer", {"timer": "9"}, 400, "timer_length"),
    ("lobby", "table", "host", "remove-player", {"seat": "99"}, 400, "no_such_player"),
    ("announced", "table", "host", "skip-encryptor", {"team": "white"}, 409, "clues_already_announced"),
    ("writing", "play", "seat", "switch-team", {}, 409, "game_in_progress"),
    ("writing", "table", "host", "swap-keyword", {"number": "1"}, 400, "unknown_command"),
    # The table's forms take no token: a browser that is not the table screen is refused whatever it holds.
    ("writing", "table", "seat", "take-back", {}, 403, "not_table_screen"),
    ("writing", "table", "spectator", "seat-link", {"seat": "1"}, 403, "not_table_screen"),
    ("writing", "table", None, "rematch", {}, 403, "not_table_screen"),
    ("writing", "play", "seat", "swap-keyword", {"number": "7"}, 400, "keyword_number"),
    ("revealed", "play", "seat", "swap-keyword", {"number": "1"}, 409, "swap_too_late"),
    ("writing", "play", "seat", "answer-correction", {"accept": "1"}, 409, "no_correction"),
    ("writing", "play", "seat", "lock-joining", {"locked": "1"}, 400, "unknown_command"),
    ("writing", "play", None, "swap-keyword", {"number": "1"}, 401, "not_seated"),
    ("writing", "seat", "seat", "claim-seat", {}, 403, "seat_link_only"),
    ("writing", "seat", "forged", "claim-seat", {}, 403, "no_capability"),
]


@pytest.mark.parametrize(
    "state_name,where,role,command,fields,status,code",
    FORM_REFUSED,
    ids=[f"{w}-{c}-{r}-{code}" for _, w, r, c, _, _, code in FORM_REFUSED],
)
def test_the_forms_refuse_with_a_page_that_says_why(
    app, client, state_name, where, role, command, fields, status, code
):
    game = state(client, state_name)
    token = token_of(game, role, client) if role else None
    phone = browser(app, game.id, game.seats["Abe"] if where == "play" and role == "seat" else None)
    table = table_path(phone, token) if where == "table" and role == "host" else f"/table/{game.id}"
    path = {"table": f"{table}/{command}", "play": f"/play/{game.id}/{command}", "seat": f"/seat/{token}"}[where]
    before = log(game)
    answer = page_of(phone, phone.post(path, data={**fields, "csrf_token": phone.csrf}))
    assert answer.status_code == status, answer.get_data(as_text=True)[:300]
    assert answer.mimetype == "text/html"
    params = {"min": 10, "max": 600} if code == "timer_length" else {}
    if code == "no_capability" and command == "claim-seat":
        params = {"link": "seat"}  # a dead seat link says so, and what to do instead
    assert expected(app, code, **params) in html.unescape(answer.get_data(as_text=True))
    assert log(game) == before


def test_a_form_without_its_csrf_token_is_refused_before_the_rules(app, client):
    game = state(client, "writing")
    phone = browser(app)
    before = log(game)
    answer = phone.post(f"{table_path(phone, game.tokens['host'])}/skip-encryptor", data={"team": "white"})
    assert answer.status_code == 400 and "Reload it and try again" in answer.get_data(as_text=True)
    assert log(game) == before


def test_the_forms_carry_out_a_correction_and_a_skip(app, client):
    """The accepted path through the forms: a skip, a correction proposed, confirmed by both teams' phones."""
    game = state(client, "writing")
    table = browser(app)
    host = game.tokens["host"]
    address = table_path(table, host)
    answer = table.post(f"{address}/skip-encryptor", data={"team": "white", "confirmed": "1", "csrf_token": table.csrf})
    assert answer.status_code == 303 and answer.headers["Location"] == address
    assert game.encryptor("white") == game.seats["Abe"]
    game.round()
    last = game.view(host)["rounds"][0]["transmissions"]["black"]
    fixed = "-".join(map(str, wrong(last["code"])))
    answer = table.post(f"{address}/correction", data={"decryption": fixed, "csrf_token": table.csrf})
    assert answer.status_code == 303
    for name in ("Ann", "Bea"):
        phone = browser(app, game.id, game.seats[name])
        answer = phone.post(f"/play/{game.id}/answer-correction", data={"accept": "1", "csrf_token": phone.csrf})
        assert answer.status_code == 303, answer.get_data(as_text=True)[:300]
    view = game.view(host)
    assert view["correction"] is None
    assert view["teams"]["black"]["tokens"]["miscommunications"] == 1
    assert [n["kind"] for n in view["notices"]][-3:] == [
        "correction_answered",
        "correction_answered",
        "reveal_corrected",
    ]


# --- creating games -------------------------------------------------------------------------

TWELVE = "apple, pear\nplum\n\n kiwi ,fig,lime,lemon,melon\npeach, grape, mango, cherry"


def test_the_api_creates_a_three_player_game_with_a_timer_and_its_own_words(client):
    game = ApiGame(
        client, settings={"mode": "three_player", "timer": 30, "words": TWELVE}, white=("Ann", "Abe"), black=("Ivy",)
    )
    created = log(game)[0][1]
    assert created["type"] == "game_created"
    assert (created["mode"], created["timer"]) == ("three_player", 30)
    assert created["words"] == [
        "apple",
        "pear",
        "plum",
        "kiwi",
        "fig",
        "lime",
        "lemon",
        "melon",
        "peach",
        "grape",
        "mango",
        "cherry",
    ]
    view = game.view(game.seats["Ann"])
    assert view["mode"] == "three_player" and view["transmitting"] == ["white"]
    assert set(view["teams"]["white"]["keywords"]) <= set(created["words"])
    assert game.view(game.seats["Ivy"])["teams"]["white"]["keywords"] is None


def test_the_api_creates_a_standard_game_by_default(client):
    game = ApiGame(client, settings={})
    created = log(game)[0][1]
    assert (created["mode"], created["timer"], created["words"]) == ("standard", None, None)


@pytest.mark.parametrize(
    "body,code,params,sentence",
    [
        ({"timer": 5}, "timer_length", {"min": 10, "max": 600}, "The sand timer runs 10 to 600 seconds."),
        ({"timer": 601}, "timer_length", {"min": 10, "max": 600}, None),
        ({"timer": "30"}, "timer_length", {"min": 10, "max": 600}, None),
        ({"timer": True}, "timer_length", {"min": 10, "max": 600}, None),
        ({"timer": 30.5}, "timer_length", {"min": 10, "max": 600}, None),
        ({"mode": "duo"}, "unknown_mode", {}, "Choose the standard game or the three-player game."),
        ({"mode": None}, "unknown_mode", {}, None),
        (
            {"words": "apple, pear, plum"},
            "too_few_words",
            {"count": 3, "min": 12, "repeated": "-"},
            "Your list has 3 different words; it needs at least 12.",
        ),
        (
            {"words": "apple\nApples\npear\nplum\nfig\nlime\nlemon\nmelon\npeach\ngrape\nmango\ncherry"},
            "too_few_words",
            {"count": 11, "min": 12, "repeated": "Apples"},
            "Your list has 11 different words",
        ),
        (
            {"words": "apple\npear\nplum\nkiwi\nfig\nlime\nlemon\nmelon"},
            "too_few_words",  # 8: each team would
            {"count": 8, "min": 12, "repeated": "-"},
            "it needs at least 12",
        ),  # know the other's
        ({"words": "moon\n" * 20}, "too_few_words", None, "Your list has 1 different word;"),
        ({"words": ["apple", "pear"]}, "words_malformed", {}, None),
        ({"words": "x" * 41 + "\n" + TWELVE}, "text_too_long", {"limit": 40}, None),
        ({"language": "xx"}, "unknown_language", {}, None),
        ([1, 2], "malformed_body", {}, None),
    ],
)
def test_a_game_with_bad_settings_is_refused_with_the_sentence_and_not_created(
    app, client, body, code, params, sentence
):
    games_before = count_games(app)
    answer = client.post("/api/games", json=body)
    text = sentence_in(answer, 400, code)
    if params is not None:
        assert text == expected(app, code, **params)
    if sentence:
        assert sentence in text
    assert count_games(app) == games_before


def test_too_few_words_names_the_repeated_ones(app, client):
    answer = client.post("/api/games", json={"words": "Moon, moons, MOON, star, sun"})
    text = sentence_in(answer, 400, "too_few_words")
    assert "3 different words" in text and "at least 12" in text
    assert "moons" in text and "MOON" in text


def test_too_few_words_names_a_word_typed_twice(app, client):
    answer = client.post("/api/games", json={"words": "apple\napple\npear\nplum\nfig\nlime\nlemon\nmelon"})
    text = sentence_in(answer, 400, "too_few_words")
    assert "7 different words" in text
    assert "(apple)" in text


def test_the_home_page_keeps_what_the_host_typed_when_the_list_is_too_short(app):
    home = browser(app)
    games_before = count_games(app)
    typed = "apple\nApples\npear\nplum"
    answer = home.post(
        "/games",
        data={"mode": "three_player", "timer": "1", "timer_seconds": "45", "words": typed, "csrf_token": home.csrf},
    )
    answer = followed(home, answer)  # (post/redirect/get: the refused form's page, with what was typed)
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert "Your list has 3 different words; it needs at least 12." in html.unescape(page)
    assert "at least 12 different words." in page  # the label follows rules.text.MIN_WORDS
    assert "(Apples)" in page
    assert f">{typed}</textarea>" in page
    assert re.search(r'value="three_player" checked', page)
    assert re.search(r'name="timer" value="1" checked', page)
    assert 'value="45"' in page
    assert 'class="brand"' in page  # the home page itself, not an error page
    assert count_games(app) == games_before


def test_the_home_page_refuses_a_bad_timer_and_keeps_the_seconds(app):
    home = browser(app)
    games_before = count_games(app)
    answer = home.post("/games", data={"mode": "standard", "timer": "1", "timer_seconds": "5", "csrf_token": home.csrf})
    answer = followed(home, answer)
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert "The sand timer runs 10 to 600 seconds." in page and 'value="5"' in page
    assert count_games(app) == games_before


def test_the_home_page_creates_a_game_with_its_settings(app):
    home = browser(app)
    answer = home.post(
        "/games",
        data={"mode": "three_player", "timer": "1", "timer_seconds": "45", "words": TWELVE, "csrf_token": home.csrf},
    )
    assert answer.status_code == 303 and answer.headers["Location"].startswith("/table/")
    game_id = answer.headers["Location"].rsplit("/", 1)[1]
    created = app.extensions["games"].store.events_after(game_id)[0][1]
    assert (created["mode"], created["timer"], len(created["words"])) == ("three_player", 45, 12)


# --- seat links -----------------------------------------------------------------------------


def test_a_seat_link_hands_a_seat_to_a_new_phone_once(app, client):
    """With no phone of the seat's team in use (Abe is alone in White, for now, and his phone went quiet) the new
    phone takes the seat at once."""
    now = [1_000_000.0]
    app.extensions["games"].clock = lambda: now[0]
    game = ApiGame(client, white=("Abe",), black=("Bea",), start=False)
    host, old = game.tokens["host"], game.seats["Abe"]
    seat = game.view(old)["viewer"]["seat"]
    answer = game.post("seat-link", host, seat=seat)
    assert answer.status_code == 200 and answer.get_json()["events"] == ["seat_link_issued"]
    links = app.extensions["games"].seat_links(game.id)
    assert list(links) == [seat]
    handoff = links[seat]
    assert game.view(old)["viewer"]["name"] == "Abe"  # the old phone plays on until the claim
    now[0] += PHONE_IN_USE_SECONDS + 1  # and then goes quiet

    claimed = game.post("claim-seat", handoff)
    assert claimed.status_code == 200, claimed.get_json()
    body = claimed.get_json()
    assert body["seat"] == seat and body["events"] == ["seat_claimed"] and game.view(body["token"])["unattended"]
    new = body["token"]
    assert new not in (old, handoff)
    view = game.view(new)
    assert view["viewer"] == {"role": "seat", "team": "white", "seat": seat, "name": "Abe"}
    assert game.post("switch-team", new, team="white").status_code == 200  # the new phone acts for Abe

    before = log(game)
    sentence_in(client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {old}"}), 403, "no_capability")
    sentence_in(game.post("guess", old, code=[1, 2, 3]), 403, "no_capability")
    sentence_in(game.post("claim-seat", handoff), 403, "no_capability")  # single use
    sentence_in(game.post("claim-seat", new), 403, "seat_link_only")  # a seat token can't claim
    assert log(game) == before
    assert app.extensions["games"].seat_links(game.id) == {}
    assert [n["kind"] for n in view["notices"]] == ["seat_link_issued", "seat_claimed"]


def test_a_seat_link_waits_until_a_teammates_phone_lets_the_new_phone_in(app, client):
    """Anyone who scans a seat link off the table screen gets nothing until the seat's team says so."""
    game = ApiGame(client)
    old, ann, bea = game.seats["Abe"], game.seats["Ann"], game.seats["Bea"]
    seat = game.view(old)["viewer"]["seat"]
    handoff = token_of(game, "handoff")
    claimed = game.post("claim-seat", handoff)
    assert claimed.status_code == 200, claimed.get_json()
    assert claimed.get_json()["events"] == ["seat_claim_waiting"] and claimed.get_json()["seat"] == seat
    new = claimed.get_json()["token"]
    assert new not in (old, handoff)
    assert game.view(ann)["you"]["waiting_phones"] == [seat]  # Abe's teammate is asked
    assert game.view(bea)["you"]["waiting_phones"] == []  # the other team is not
    assert game.view(old)["you"]["waiting_phones"] == [seat]  # and the seat's own old phone
    assert "waiting" not in str(game.view(game.tokens["host"])["notices"])

    before = log(game)
    sentence_in(client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {new}"}), 403, "seat_waiting")
    sentence_in(game.post("swap-keyword", new, number=2), 403, "seat_waiting")
    sentence_in(game.post("claim-seat", handoff), 403, "no_capability")  # the link is used up
    sentence_in(game.post("let-in", bea, seat=seat), 403, "teammates_let_in")
    sentence_in(game.post("let-in", game.tokens["host"], seat=seat), 403, "players_only")
    assert log(game) == before
    assert game.view(old)["viewer"]["name"] == "Abe"  # the old phone plays on meanwhile

    let_in = game.post("let-in", ann, seat=seat)
    assert let_in.status_code == 200 and let_in.get_json()["events"] == ["seat_handed"]
    view = game.view(new)
    assert view["viewer"] == {"role": "seat", "team": "white", "seat": seat, "name": "Abe"}
    assert view["teams"]["white"]["keywords"] and view["teams"]["black"]["keywords"] is None
    sentence_in(client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {old}"}), 403, "no_capability")
    before = log(game)
    sentence_in(game.post("let-in", ann, seat=seat), 409, "no_waiting_phone")
    assert log(game) == before
    handed = view["notices"][-1]
    assert handed == {"kind": "seat_handed", "round": 1, "seat": seat, "by": game.view(ann)["viewer"]["seat"]}
    table = html.unescape(client.get(table_path(client, game.tokens["host"])).get_data(as_text=True))
    assert "Abe's seat moved to a new phone, let in by Ann." in table


def test_a_new_seat_link_or_its_cancelling_sends_a_waiting_phone_away(app, client):
    game = ApiGame(client)
    seat = game.view(game.seats["Abe"])["viewer"]["seat"]
    waiting = game.post("claim-seat", token_of(game, "handoff")).get_json()["token"]
    assert game.post("cancel-seat-link", game.tokens["host"], seat=seat).status_code == 409  # no link waits
    token_of(game, "handoff")  # a new link for Abe
    assert game.view(game.seats["Ann"])["you"]["waiting_phones"] == []
    sentence_in(game.post("let-in", game.seats["Ann"], seat=seat), 409, "no_waiting_phone")
    # The phone that waited is told why: another link replaced its claim (not "no longer has its seat").
    sentence_in(
        client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {waiting}"}), 403, "claim_replaced"
    )


def test_a_new_seat_link_replaces_an_unclaimed_one(app, client):
    game = ApiGame(client)
    first = token_of(game, "handoff")
    second = token_of(game, "handoff")
    assert first != second
    before = log(game)
    sentence_in(game.post("claim-seat", first), 403, "no_capability")
    assert log(game) == before
    assert game.post("claim-seat", second).status_code == 200


def test_a_cancelled_seat_link_stops_working_and_the_old_phone_plays_on(app, client):
    game = ApiGame(client)
    handoff = token_of(game, "handoff")
    seat = game.view(game.seats["Abe"])["viewer"]["seat"]
    answer = game.post("cancel-seat-link", game.tokens["host"], seat=seat)
    assert answer.status_code == 200, answer.get_json()
    assert app.extensions["games"].seat_links(game.id) == {}
    before = log(game)
    sentence_in(game.post("claim-seat", handoff), 403, "no_capability")
    assert log(game) == before
    assert game.view(game.seats["Abe"])["viewer"]["name"] == "Abe"


def test_a_seat_link_is_claimed_in_the_browser(app, client):
    game = ApiGame(client)
    handoff = token_of(game, "handoff")
    phone = browser(app)
    page = phone.get(f"/seat/{handoff}")
    assert page.status_code == 200
    answer = phone.post(f"/seat/{handoff}", data={"csrf_token": phone.csrf})
    assert answer.status_code == 303 and answer.headers["Location"] == f"/play/{game.id}"
    words = game.view(game.seats["Abe"])["teams"]["white"]["keywords"]
    waiting = html.unescape(phone.get(f"/play/{game.id}").get_data(as_text=True))
    assert "A phone of your team must let this phone in" in waiting and not any(w in waiting for w in words)
    back = phone.get(f"/seat/{handoff}")  # used up: opened again here (Back), it leads to the seat
    assert back.status_code == 303 and back.headers["Location"] == f"/play/{game.id}"
    sentence_in(browser(app).get(f"/seat/{handoff}"), 403)  # and nowhere for anyone else
    ann = browser(app, game.id, game.seats["Ann"])
    prompt = html.unescape(ann.get(f"/play/{game.id}").get_data(as_text=True))
    assert "Let Abe's new phone in" in prompt
    seat = game.view(game.seats["Ann"])["you"]["waiting_phones"][0]
    assert ann.post(f"/play/{game.id}/let-in", data={"seat": seat, "csrf_token": ann.csrf}).status_code == 303
    assert "Let Abe's new phone in" not in ann.get(f"/play/{game.id}").get_data(as_text=True)
    playing = phone.get(f"/play/{game.id}").get_data(as_text=True)
    assert "Abe" in playing and all(w in playing for w in words)
    sentence_in(
        client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {game.seats['Abe']}"}),
        403,
        "no_capability",
    )


def test_a_phone_can_get_a_new_seat_link_while_a_correction_waits_and_answer_it(app, client):
    game = state(client, "pending")
    handoff = token_of(game, "handoff")  # Abe's phone died
    claimed = game.post("claim-seat", handoff)
    assert claimed.status_code == 200, claimed.get_json()
    new = claimed.get_json()["token"]
    assert game.post("let-in", game.seats["Ann"], seat=claimed.get_json()["seat"]).status_code == 200
    assert game.view(new)["you"]["task"] == "answer_correction"
    assert game.post("answer-correction", new, accept=True).status_code == 200
    assert game.view(new)["correction"]["confirmed"] == ["white"]


def test_a_correction_that_would_resume_a_finished_game_is_refused_with_a_sentence(app, client):
    """At game over everyone has seen both teams' keywords: a correction that would play on suggests a rematch."""
    game = state(client, "over")
    host = game.tokens["host"]
    last = game.view(host)["rounds"][1]["transmissions"]["black"]  # Black's 2nd Miscommunication
    before = log(game)
    answer = game.post("correction", host, decryption=last["code"], interception=last["interception"]["code"])
    text = sentence_in(answer, 409, "correction_resumes_play")
    assert "rematch" in text
    assert log(game) == before


def test_the_lobby_corrections_through_the_api(app, client):
    game = ApiGame(client, white=("Ann", "Abe", "Amy", "Al"), black=("Bea",), start=False)
    host = game.tokens["host"]
    assert game.post("lock-joining", host, locked=True).status_code == 200
    before = log(game)
    text = sentence_in(game.post("join", game.tokens["black"], name="Eve"), 409, "joining_locked")
    assert text == "Joining is locked. Ask the table screen to reopen it."
    assert log(game) == before
    assert game.view(host)["joining_locked"] is True
    assert game.post("lock-joining", host, locked=False).status_code == 200

    amy = game.seats["Amy"]
    seat = game.view(amy)["viewer"]["seat"]
    assert game.post("move-player", host, seat=seat).status_code == 200
    assert game.view(amy)["viewer"]["team"] == "black"
    ann = game.seats["Ann"]
    assert game.post("remove-player", host, seat=game.view(ann)["viewer"]["seat"]).status_code == 200
    sentence_in(client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {ann}"}), 403, "no_capability")
    assert game.post("start", host).status_code == 200
    # Amy's token was made for White: she now sees Black's keywords, never White's.
    view = game.view(amy)
    assert view["teams"]["black"]["keywords"] and view["teams"]["white"]["keywords"] is None
    assert view["teams"]["black"]["keywords"] == game.view(game.seats["Bea"])["teams"]["black"]["keywords"]


# --- the try-out ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "mode,names", [("standard", ["Ann", "Ben", "Cleo", "Dev"]), ("three_player", ["Ann", "Ben", "Ivy"])]
)
def test_a_try_out_gives_one_browser_every_seat_and_no_join_links(app, mode, names):
    me = browser(app)
    answer = me.post("/try", data={"mode": mode, "csrf_token": me.csrf})
    assert answer.status_code == 303 and answer.headers["Location"].startswith("/table/")
    with me.session_transaction() as session:
        ((game_id, mine),) = session["try_out"].items()
        seats_cookie = dict(session["seats"])
    service = app.extensions["games"]
    assert set(service.shared_tokens(game_id)) == {"host"}
    assert answer.headers["Location"] == f"/table/{game_id}"
    with me.session_transaction() as session:
        assert session["tables"][game_id] == service.shared_tokens(game_id)["host"]  # its host cookie
    store_seats = {c.seat: c.token for c in service.store.capabilities_of(game_id, "seat")}
    assert {int(s): t for s, t in mine["seats"].items()} == store_seats
    assert len(store_seats) == len(names)
    assert seats_cookie[game_id] == store_seats[1]
    assert not service.store.capabilities_of(game_id, "join") and not service.store.capabilities_of(
        game_id, "spectator"
    )
    table = me.get(f"/table/{game_id}").get_data(as_text=True)
    assert "/join/" not in table and "/watch/" not in table

    view = me.get(f"/api/games/{game_id}").get_json()
    assert view["try_out"] and view["viewer"]["seat"] == 1
    assert [p["name"] for t in ("white", "black") for p in view["teams"][t]["players"]] == names

    last = len(names)
    switched = me.post(f"/try/{game_id}/seat/{last}", data={"csrf_token": me.csrf})
    assert switched.status_code == 303 and switched.headers["Location"] == f"/play/{game_id}"
    with me.session_transaction() as session:
        assert session["seats"][game_id] == store_seats[last]
    assert me.get(f"/api/games/{game_id}").get_json()["viewer"]["name"] == names[-1]
    assert names[-1] in me.get(f"/play/{game_id}").get_data(as_text=True)

    before = service.store.events_after(game_id)
    sentence_in(me.post(f"/try/{game_id}/seat/9", data={"csrf_token": me.csrf}), 401)  # no such seat
    stranger = browser(app)
    sentence_in(stranger.post(f"/try/{game_id}/seat/1", data={"csrf_token": stranger.csrf}), 401)
    with pytest.raises(RuleError) as refused:
        service.execute(game_id, Who("join", "white"), {"type": "join", "name": "Eve"})
    assert refused.value.code == "try_out_fixed_seats"
    answer = followed(me, me.post(f"/table/{game_id}/lock-joining", data={"locked": "1", "csrf_token": me.csrf}))
    assert answer.status_code == 403
    assert "A try-out keeps its own seats" in html.unescape(answer.get_data(as_text=True))
    assert service.store.events_after(game_id) == before

    # Nobody else can join once it has started either, not even through a seat link: none is offered.
    host = {"Authorization": f"Bearer {service.shared_tokens(game_id)['host']}"}
    assert me.post(f"/api/games/{game_id}/start", json={}, headers=host).status_code == 200
    assert "/seat-link" not in me.get(f"/table/{game_id}").get_data(as_text=True)
    before = service.store.events_after(game_id)
    sentence_in(me.post(f"/api/games/{game_id}/seat-link", json={"seat": 2}, headers=host), 403, "try_out_fixed_seats")
    assert service.store.events_after(game_id) == before


def test_a_try_out_of_an_unknown_mode_is_refused_on_the_home_page(app):
    me = browser(app)
    games_before = count_games(app)
    answer = followed(me, me.post("/try", data={"mode": "duo", "csrf_token": me.csrf}))
    assert answer.status_code == 400
    assert "Choose the standard game or the three-player game." in answer.get_data(as_text=True)
    assert count_games(app) == games_before


def test_the_api_cannot_create_a_try_out(app, client):
    created = client.post("/api/games", json={"try_out": True, "players": {"white": ["A1", "A2"]}}).get_json()
    assert set(created["tokens"]) == {"host", "spectator", "white", "black"}
    view = client.get(
        f"/api/games/{created['game_id']}", headers={"Authorization": f"Bearer {created['tokens']['host']}"}
    ).get_json()
    assert not view["try_out"] and not view["teams"]["white"]["players"]


# --- the summary ----------------------------------------------------------------------------


def test_the_summary_waits_for_the_end(app, client):
    game = ApiGame(client)
    before = log(game)
    answer = client.get(f"/api/games/{game.id}/summary", headers={"Authorization": f"Bearer {game.seats['Ann']}"})
    assert sentence_in(answer, 409, "summary_not_ready") == "The summary is ready once the game is over."
    page = client.get(f"{table_path(client, game.tokens['host'])}/summary")
    assert page.status_code == 409 and "The summary is ready once the game is over." in page.get_data(as_text=True)
    assert client.get(f"/summary/{game.tokens['spectator']}.json").status_code == 409
    assert log(game) == before


def test_the_summary_of_a_finished_game_reaches_everyone_and_holds_everything(app, client):
    game, keywords, rounds = finished_game(client)
    api = lambda token, query="": client.get(
        f"/api/games/{game.id}/summary{query}",  # noqa: E731
        headers={"Authorization": f"Bearer {token}"},
    )
    phone = browser(app, game.id, game.seats["Bob"])
    pages = {
        "host": client.get(f"{table_path(client, game.tokens['host'])}/summary"),
        "spectator": client.get(f"/summary/{game.tokens['spectator']}"),
        "seat cookie": phone.get(f"/play/{game.id}/summary"),
    }
    for who, page in pages.items():
        text = page.get_data(as_text=True)
        assert page.status_code == 200, who
        assert all(word in text for team in keywords for word in keywords[team]), who
        assert all(clue in text for r in rounds for said in r["clues"].values() for clue in said), who
    summary = api(game.seats["Ann"])
    assert summary.status_code == 200
    data = summary.get_json()

    downloads = [
        client.get(f"{table_path(client, game.tokens['host'])}/summary.json"),
        client.get(f"/summary/{game.tokens['spectator']}.json"),
        phone.get(f"/play/{game.id}/summary.json"),
    ]
    for download in downloads:
        assert download.status_code == 200, download.get_data(as_text=True)[:200]
        assert download.headers["Content-Disposition"].startswith("attachment")
        assert f"decrypto-{game.id}-game-1.json" in download.headers["Content-Disposition"]
        assert download.get_json() == data

    assert data["match"] == 1 and data["phase"] == "over"
    assert {team: data["teams"][team]["keywords"] for team in keywords} == keywords
    assert data["result"]["winners"] == ["white"] and data["result"]["reason"] == "miscommunications"
    assert [r["number"] for r in data["rounds"]] == [1, 2]
    for r_view, played in zip(data["rounds"], rounds, strict=True):
        for team in ("white", "black"):
            t = r_view["transmissions"][team]
            assert t["clues"] == played["clues"][team]
            assert t["code"] == played["codes"][team]
            code = played["codes"][team]
            assert t["decryption"]["code"] == (code if team == "white" else wrong(code))  # Black misreads
            if r_view["number"] > 1:
                assert t["interception"]["code"] == wrong(code)
            else:
                assert t["interception"] is None
            assert t["awards"] == ([{"team": "black", "token": "miscommunications"}] if team == "black" else [])
    assert data["teams"]["black"]["tokens"] == {"interceptions": 0, "miscommunications": 2}
    for secret in list(game.seats.values()) + list(game.tokens.values()):
        assert secret not in summary.get_data(as_text=True)

    sentence_in(client.get(f"/summary/{game.tokens['white']}"), 403)  # a join link is not for this
    sentence_in(api("forged-" + "A" * 30), 403, "no_capability")


def test_after_a_rematch_the_first_game_stays_and_the_current_one_waits(app, client):
    game, keywords, _ = finished_game(client)
    host = game.tokens["host"]
    first = client.get(f"/api/games/{game.id}/summary", headers={"Authorization": f"Bearer {host}"}).get_json()
    answer = game.post("rematch", host)
    assert answer.status_code == 200, answer.get_json()
    assert game.view(host)["match"] == 2
    assert game.post("start", host).status_code == 200

    api = lambda query: client.get(
        f"/api/games/{game.id}/summary{query}",  # noqa: E731
        headers={"Authorization": f"Bearer {game.seats['Bea']}"},
    )
    again = api("?match=1")
    assert again.status_code == 200 and again.get_json() == first
    assert api("").get_json() == first  # the latest finished match
    assert {t: again.get_json()["teams"][t]["keywords"] for t in keywords} == keywords
    sentence_in(api("?match=2"), 409, "summary_not_ready")  # not over yet
    sentence_in(api("?match=7"), 409, "summary_not_ready")  # no such match
    assert client.get(f"{table_path(client, host)}/summary.json?match=2").status_code == 409
    download = client.get(f"/summary/{game.tokens['spectator']}.json?match=1")
    assert download.status_code == 200 and download.get_json() == first
    assert "game-1.json" in download.headers["Content-Disposition"]

    game.round(black=(False, False))
    game.round(black=(False, False))
    second = api("?match=2")
    assert second.status_code == 200 and second.get_json()["match"] == 2
    assert api("").get_json()["match"] == 2
    assert api("?match=1").get_json() == first
    page = client.get(f"{table_path(client, host)}/summary?match=1").get_data(as_text=True)
    assert 'href="?match=2"' in page


# --- the rematch lobby ------------------------------------------------------------------------


def test_a_rematch_goes_back_to_the_lobby_where_phones_keep_their_seats_and_the_forms_rearrange_the_teams(app, client):
    game, _, _ = finished_game(client)
    host = game.tokens["host"]
    table = browser(app)
    address = table_path(table, host)
    assert table.post(f"{address}/rematch", data={"csrf_token": table.csrf}).status_code == 303
    view = game.view(host)
    assert (view["phase"], view["match"], view["rounds"]) == ("lobby", 2, [])
    assert {t: [p["name"] for p in view["teams"][t]["players"]] for t in ("white", "black")} == {
        "white": ["Ann", "Abe"],
        "black": ["Bea", "Bob"],
    }
    abe = browser(app, game.id, game.seats["Abe"])  # the same cookie, no new scan
    page = abe.get(f"/play/{game.id}").get_data(as_text=True)
    assert "Rematch: you keep your seat." in page and "Switch to Black" in page
    assert abe.post(f"/play/{game.id}/switch-team", data={"confirmed": "1", "csrf_token": abe.csrf}).status_code == 303
    assert [p["name"] for p in game.view(host)["teams"]["black"]["players"]] == ["Bea", "Bob", "Abe"]
    assert game.view(game.seats["Abe"])["viewer"]["team"] == "black"
    cy = game.post("join", game.tokens["white"], name="Cy")  # the join links work for newcomers
    assert cy.status_code == 200, cy.get_json()
    lobby = html.unescape(table.get(address).get_data(as_text=True))
    assert "Rematch: everyone keeps their seat." in lobby and "Shuffle teams" in lobby
    assert table.post(f"{address}/shuffle-teams", data={"csrf_token": table.csrf}).status_code == 303
    sizes = sorted(len(game.view(host)["teams"][t]["players"]) for t in ("white", "black"))
    assert sizes == [2, 3]
    assert table.post(f"{address}/set-timer", data={"timer": "45", "csrf_token": table.csrf}).status_code == 303
    assert game.view(host)["timer_seconds"] == 45
    assert "Sand timer: 45 seconds." in abe.get(f"/play/{game.id}").get_data(as_text=True)
    assert table.post(f"{address}/set-timer", data={"timer": "", "csrf_token": table.csrf}).status_code == 303
    assert game.view(host)["timer_seconds"] is None
    assert table.post(f"{address}/start", data={"csrf_token": table.csrf}).status_code == 303
    assert game.view(host)["phase"] == "playing"


@pytest.mark.parametrize(
    "command,field,state_name,armed_text",
    [
        ("remove-player", "seat", "lobby", "Tap again to remove Abe"),
        ("skip-encryptor", "team", "writing", "Tap again to skip Ann"),
        ("cancel-seat-link", "seat", "writing", "Tap again to cancel Abe's link"),
    ],
)
def test_a_careful_host_button_without_javascript_asks_again_naming_the_player(
    app, client, command, field, state_name, armed_text
):
    game = state(client, state_name)
    host = game.tokens["host"]
    abe = game.view(game.seats["Abe"])["viewer"]["seat"]
    if command == "cancel-seat-link":
        assert game.post("seat-link", host, seat=abe).status_code == 200
    value = "white" if field == "team" else str(abe)
    table = browser(app)
    address = table_path(table, host)
    before = log(game)
    first = followed(table, table.post(f"{address}/{command}", data={field: value, "csrf_token": table.csrf}))
    page = html.unescape(first.get_data(as_text=True))
    assert first.status_code == 200 and log(game) == before  # nothing done yet
    forms = re.findall(r'<form[^>]*action="/table/[^"]+/' + command + r'".*?</form>', page, re.S)
    armed = [form for form in forms if 'name="confirmed" value="1"' in form]
    assert len(armed) == 1 and armed_text in armed[0] and "autofocus" in armed[0], forms
    if command == "skip-encryptor":
        assert re.search(r'<details id="fix-a-mistake"[^>]* open', page)  # the panel shows it
    second = table.post(f"{address}/{command}", data={field: value, "confirmed": "1", "csrf_token": table.csrf})
    assert second.status_code == 303 and len(log(game)) == len(before) + 1


def test_switching_team_without_javascript_takes_a_second_tap(app, client):
    """A stray tap on the phone's "Switch to Black" moves nobody: the page comes back asking again (the button
    focused), and only that second tap moves the player. A first tap that can't be done says why at once."""
    game = state(client, "lobby")
    abe = browser(app, game.id, game.seats["Abe"])
    lobby = html.unescape(abe.get(f"/play/{game.id}").get_data(as_text=True))
    assert 'data-confirm="Tap again to switch to Black"' in lobby and 'name="confirmed"' not in lobby
    before = log(game)
    first = followed(abe, abe.post(f"/play/{game.id}/switch-team", data={"team": "white", "csrf_token": abe.csrf}))
    page = html.unescape(first.get_data(as_text=True))
    assert first.status_code == 200 and log(game) == before  # nothing done yet
    form = re.search(r'<form[^>]*action="/play/[^"]+/switch-team".*?</form>', page, re.S).group(0)
    assert 'name="confirmed" value="1"' in form and "Tap again to switch to Black" in form and "autofocus" in form
    second = abe.post(f"/play/{game.id}/switch-team", data={"team": "white", "confirmed": "1", "csrf_token": abe.csrf})
    assert second.status_code == 303 and len(log(game)) == len(before) + 1
    assert "Abe" in [p["name"] for p in game.view(game.tokens["host"])["teams"]["black"]["players"]]
    assert game.post("lock-joining", game.tokens["host"], locked=True).status_code == 200
    locked = followed(abe, abe.post(f"/play/{game.id}/switch-team", data={"team": "black", "csrf_token": abe.csrf}))
    assert locked.status_code == 409 and 'name="confirmed"' not in locked.get_data(as_text=True)


def test_a_phone_leaves_the_lobby_and_its_seat_is_gone_everywhere(app, client):
    """The lobby's "Leave the game" (behind a disclosure: two taps, with or without JavaScript): the seat is
    freed on every screen, the phone's cookie no longer opens the game, and its team's link seats it again."""
    game = state(client, "lobby")
    abe = browser(app, game.id, game.seats["Abe"])
    lobby = html.unescape(abe.get(f"/play/{game.id}").get_data(as_text=True))
    assert re.search(
        r'<details id="leave-game"[^>]*>\s*<summary>Not playing this time\? Leave the game</summary>', lobby
    )
    before = log(game)
    left = abe.post(f"/play/{game.id}/leave", data={"csrf_token": abe.csrf})
    assert left.status_code == 303 and [event["type"] for _, event, _ in log(game)[len(before) :]] == ["player_left"]
    assert "Abe" not in [p["name"] for p in game.view(game.tokens["host"])["teams"]["white"]["players"]]
    assert abe.get(f"/play/{game.id}").status_code in (401, 403)  # this phone is out of the game
    again = abe.post(f"/play/{game.id}/leave", data={"csrf_token": abe.csrf})
    assert again.status_code in (401, 403) and len(log(game)) == len(before) + 1  # a repeat changes nothing
    playing = ApiGame(client)
    page = browser(app, playing.id, playing.seats["Ann"]).get(f"/play/{playing.id}").get_data(as_text=True)
    assert 'id="leave-game"' not in page  # the lobby's only


def test_the_table_screen_offers_each_careful_button_with_its_second_tap_named(app, client):
    game = state(client, "lobby")
    page = html.unescape(client.get(table_path(client, game.tokens['host'])).get_data(as_text=True))
    assert 'data-confirm="Tap again to remove Abe"' in page
    assert 'name="confirmed"' not in page


# --- the sand timer -------------------------------------------------------------------------

TIMER_FIELDS = ("seconds", "late_team", "late_seat", "remaining", "up")


def shown(page) -> str:
    """A page's text as shown now: without the sentence its script shows once the countdown ends."""
    assert page.status_code == 200
    return html.unescape(re.sub(r'data-up-text="[^"]*"', "", page.get_data(as_text=True)))


def test_the_sand_timer_runs_on_the_services_clock(app, client):
    now = [1000.0]
    app.extensions["games"].clock = lambda: now[0]
    game = ApiGame(client, settings={"timer": 30})
    host = game.tokens["host"]
    viewers = [host, game.tokens["spectator"], game.tokens["white"], game.tokens["black"], *game.seats.values()]
    assert all(game.view(token)["timer"] is None for token in viewers)

    game.announce("white")  # at t = 1000: Black's Encryptor has 30 seconds
    late = game.encryptor("black")
    late_seat = game.view(late)["viewer"]["seat"]
    for token in viewers:
        timer = game.view(token)["timer"]
        assert {k: timer[k] for k in TIMER_FIELDS} == {
            "seconds": 30,
            "late_team": "black",
            "late_seat": late_seat,
            "remaining": 30,
            "up": False,
        }
    now[0] = 1012.0
    assert all(game.view(token)["timer"]["remaining"] == 18 for token in viewers)
    late_page = browser(app, game.id, late)
    other_page = browser(app, game.id, game.seats["Ann"])
    text = shown(late_page.get(f"/play/{game.id}"))
    assert "Sand timer: you have" in text and "0:18" in text and "Time is up" not in text

    now[0] = 1031.0
    for token in viewers:
        timer = game.view(token)["timer"]
        assert timer["up"] is True and timer["remaining"] == 0 and timer["late_team"] == "black"
    mine = shown(late_page.get(f"/play/{game.id}"))
    assert "Time is up! Announce your clues now." in mine
    theirs = shown(other_page.get(f"/play/{game.id}"))
    assert "Time is up for Black's Encryptor." in theirs and "Time is up! Announce your clues now." not in theirs
    table = shown(client.get(table_path(client, host)))
    assert "Time is up for" in table

    answer = game.post("clues", late, clues=game.fresh_clues())  # late, but still allowed: a pacing aid only
    assert answer.status_code == 200, answer.get_json()
    assert all(game.view(token)["timer"] is None for token in viewers)
    assert "Time is up" not in client.get(table_path(client, host)).get_data(as_text=True)


def form_on(page: str, command: str) -> dict[str, str]:
    """The hidden fields of the table page's form for `command`: what its tap posts (the targets it showed)."""
    form = re.search(r'<form[^>]*action="/table/[^"]+/' + command + r'".*?</form>', page, re.S)
    assert form, f"no {command} form on the page"
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0)))


def test_a_stale_pause_is_refused_and_changes_nothing(app, client):
    """The table screen's Pause and Resume post the timer they showed: a second tap, or a tap on a page drawn
    before the late clues came, is refused with 409 `stale` and its sentence, and the event log stays as it
    was; the API's answer is the same."""
    now = [1000.0]
    app.extensions["games"].clock = lambda: now[0]
    game = ApiGame(client, settings={"timer": 30})
    host = game.tokens["host"]
    game.announce("white")
    table = browser(app)
    address = table_path(table, host)
    pause = form_on(table.get(address).get_data(as_text=True), "pause-timer")
    assert {k: pause[k] for k in ("match", "round", "team")} == {"match": "1", "round": "1", "team": "black"}
    as_script = {"Accept": "application/json"}  # as static/live.js posts a form
    now[0] = 1010.0
    assert table.post(f"{address}/pause-timer", data=pause, headers=as_script).get_json()["events"] == ["timer_paused"]

    before = log(game)
    now[0] = 1020.0
    twice = table.post(f"{address}/pause-timer", data=pause, headers=as_script)
    assert twice.status_code == 409
    assert twice.get_json() == {"code": "stale", "error": expected(app, "stale", change="timer_paused")}
    without_script = followed(table, table.post(f"{address}/pause-timer", data=pause))  # (post/redirect/get)
    assert without_script.status_code == 409
    assert expected(app, "stale", change="timer_paused") in html.unescape(without_script.get_data(as_text=True))
    assert log(game) == before
    assert game.view(host)["timer"]["paused"] is True and game.view(host)["timer"]["remaining"] == 20

    resume = form_on(table.get(address).get_data(as_text=True), "resume-timer")
    assert table.post(f"{address}/resume-timer", data=resume, headers=as_script).status_code == 200
    game.announce("black")  # the late clues come while the page still shows the timer
    before = log(game)
    behind = table.post(f"{address}/resume-timer", data=resume, headers=as_script)
    assert behind.status_code == 409
    assert behind.get_json() == {"code": "stale", "error": expected(app, "stale", change="timer_stopped")}
    api = game.post("pause-timer", host, match=1, round=1, team="black")
    assert api.status_code == 409 and api.get_json()["error"] == expected(app, "stale", change="timer_stopped")
    assert log(game) == before


def test_no_timer_without_the_setting_or_with_one_transmission(app, client):
    now = [50.0]
    app.extensions["games"].clock = lambda: now[0]
    plain = ApiGame(client)
    plain.announce("white")
    now[0] = 500.0
    assert plain.view(plain.tokens["host"])["timer"] is None
    three = ApiGame(client, settings={"mode": "three_player", "timer": 30}, white=("Ann", "Abe"), black=("Ivy",))
    three.announce("white")
    now[0] = 1000.0
    assert three.view(three.tokens["host"])["timer"] is None


def test_taking_back_the_first_clues_stops_the_timer(app, client):
    now = [0.0]
    app.extensions["games"].clock = lambda: now[0]
    game = ApiGame(client, settings={"timer": 20})
    game.announce("black")
    now[0] = 5.0
    assert game.view(game.tokens["host"])["timer"]["late_team"] == "white"
    assert game.post("take-back", game.tokens["host"]).status_code == 200
    assert game.view(game.tokens["host"])["timer"] is None
    game.announce("white")  # at t = 5: now Black is late
    now[0] = 15.0
    timer = game.view(game.tokens["spectator"])["timer"]
    assert timer["late_team"] == "black" and timer["remaining"] == 10


def test_a_poll_with_an_etag_follows_the_version_not_the_clock_as_documented(app, client):
    """docs/api.md: the ETag follows the version only; `up` shows on a request without If-None-Match."""
    now = [0.0]
    app.extensions["games"].clock = lambda: now[0]
    game = ApiGame(client, settings={"timer": 30})
    game.announce("white")
    headers = {"Authorization": f"Bearer {game.tokens['spectator']}"}
    first = client.get(f"/api/games/{game.id}", headers=headers)
    assert first.get_json()["timer"]["up"] is False
    now[0] = 31.0
    again = client.get(f"/api/games/{game.id}", headers={**headers, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    fresh = client.get(f"/api/games/{game.id}", headers=headers).get_json()["timer"]
    assert fresh["up"] is True and fresh["remaining"] == 0


def test_a_keyword_swap_without_javascript_takes_a_second_tap(app, client):
    """A team swaps one keyword once a match, for good: the first tap only asks again (the number it named
    still chosen), the second swaps it."""
    game = ApiGame(client)  # round 1, before the clues (with the whole word pack: words to swap in)
    ann = browser(app, game.id, game.seats["Ann"])
    page = html.unescape(ann.get(f"/play/{game.id}").get_data(as_text=True))
    assert 'data-confirm="Tap again to swap it: it can\'t be undone"' in page
    before, words = log(game), game.view(game.seats["Ann"])["teams"]["white"]["keywords"]
    swap = {"number": "3", "csrf_token": ann.csrf, **targets("swap-keyword", game.view(game.seats["Ann"]))}
    first = followed(ann, ann.post(f"/play/{game.id}/swap-keyword", data=swap))
    form = re.search(r'<form[^>]*action="/play/[^"]+/swap-keyword".*?</form>', first.get_data(as_text=True), re.S)
    assert first.status_code == 200 and log(game) == before  # nothing done yet
    assert 'name="confirmed" value="1"' in form.group(0) and 'value="3" required checked' in form.group(0)
    second = ann.post(f"/play/{game.id}/swap-keyword", data={**swap, "confirmed": "1"})
    assert second.status_code == 303 and len(log(game)) == len(before) + 1
    after = game.view(game.seats["Ann"])["teams"]["white"]["keywords"]
    assert after[2] != words[2] and after[:2] == words[:2]
