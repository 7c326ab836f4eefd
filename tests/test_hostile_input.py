"""Hostile input, value by value: every bad value is refused with a 4xx and the sentence messages.REFUSALS has
for its code (a JSON `error`, or a page saying it), and leaves the game's event log as it was. Odd but valid
text (markup, right-to-left script, emoji) is accepted as plain text, shown intact, and never becomes live HTML.

The refusals of each command by role and phase are in test_web.py and test_web_corrections.py; this file adds
the hostile *values*, and the whole matrices of wrong phases and wrong roles.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from markupsafe import escape
from sqlalchemy import func, select

from companion.rules.command import ANY_PHASE
from companion.rules.text import CLUE_MAX_LENGTH, KEYWORD_GUESS_MAX_LENGTH, MAX_WORDS, NAME_LENGTH, WORD_MAX_LENGTH
from companion.store import games as games_table
from companion.web.commands import COMMANDS
from tools.driver import ApiGame, wrong

from .api import browser, csrf_of, expected, followed, refusal_pattern, table_path

TWELVE_WORDS = "apple\npear\nplum\nkiwi\nfig\nlime\nlemon\nmelon\npeach\ngrape\nmango\ncherry"


# --- helpers ------------------------------------------------------------------------------------


def log(app, game_id):
    return app.extensions["games"].store.events_after(game_id)


def count_games(app) -> int:
    with app.extensions["games"].store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(games_table)).scalar_one()


def assert_refused(app, answer, status, code, params=None):
    """A 4xx answering with the sentence for `code`: the JSON `error`, or on the page."""
    sentence = expected(app, code, **(params or {}))
    assert answer.status_code == status, answer.get_data(as_text=True)[:400]
    if answer.mimetype == "application/json":
        assert answer.get_json() == {"error": sentence, "code": code}
    else:
        assert answer.mimetype == "text/html"
        assert sentence in html.unescape(answer.get_data(as_text=True)), sentence


def bearer(token):
    return {"Authorization": f"Bearer {token}"} if token else {}


def seal_keyword_guesses(game):
    for name in ("Ann", "Bea"):
        answer = game.post("keyword-guesses", game.seats[name], guesses=["", "", "", ""])
        assert answer.status_code == 200, answer.get_json()


def in_state(client, name) -> ApiGame:
    """A standard game (White Ann, Abe; Black Bea, Bob) in a named state (see PHASE_OF)."""
    game = _set_up(client, name)
    assert game.view(game.tokens["host"])["phase"] == PHASE_OF[name], name
    return game


def _set_up(client, name) -> ApiGame:
    if name == "lobby":
        return ApiGame(client, start=False)
    if name == "lobby-with-room":
        return ApiGame(client, white=("Ann",), black=("Bea",), start=False)
    game = ApiGame(client)
    if name == "writing":  # round 1, nobody announced
        return game
    if name == "round-1-guessing":  # round 1, White's transmission open
        game.announce("white")
        game.announce("black")
        return game
    if name in ("round-1-revealed", "correction-pending"):  # round 1 over, its last reveal correctable
        game.round()
        if name == "correction-pending":
            last = game.view(game.tokens["host"])["last_reveal"]
            assert game.post("correction", game.tokens["host"], decryption=wrong(last["code"])).status_code == 200
        return game
    if name == "round-2-guessing":  # round 2, White's transmission open
        game.round()
        game.announce("white")
        game.announce("black")
        return game
    if name in ("keyword_guessing", "keyword_judging"):
        game.round(white=(False, False), black=(False, False))
        game.round(white=(False, False), black=(False, False))  # two Miscommunications each: a tie
        if name == "keyword_judging":
            seal_keyword_guesses(game)
        return game
    if name == "over":
        game.round(black=(False, False))
        game.round(black=(False, False))
        return game
    raise ValueError(name)


PHASE_OF = {
    "lobby": "lobby",
    "lobby-with-room": "lobby",
    "writing": "playing",
    "round-1-guessing": "playing",
    "round-1-revealed": "playing",
    "correction-pending": "playing",
    "round-2-guessing": "playing",
    "keyword_guessing": "keyword_guessing",
    "keyword_judging": "keyword_judging",
    "over": "over",
}


def token_of(game, role):
    if role in ("host", "spectator"):
        return game.tokens[role]
    if role in ("white_join", "black_join"):
        return game.tokens[role.split("_")[0]]
    if role == "player":  # any seated player: Ann (White)
        return game.seats["Ann"]
    if role == "white_encryptor":
        return game.encryptor("white")
    if role == "white_guesser":
        return game.teammate("white")
    if role == "black_player":
        return game.seats["Bea"]
    if role == "handoff":  # a seat link for Abe's seat
        seat = game.view(game.seats["Abe"])["viewer"]["seat"]
        assert game.post("seat-link", game.tokens["host"], seat=seat).status_code == 200
        return game.client.application.extensions["games"].seat_links(game.id)[seat]
    raise ValueError(role)


# --- the catalogue of hostile values -----------------------------------------------------------------


@dataclass(frozen=True)
class Bad:
    id: str
    state: str
    command: str
    role: str
    body: object
    status: int
    code: str
    params: dict = field(default_factory=dict)


def names(value, status, code, **params):
    return ("lobby-with-room", "join", "white_join", {"name": value}, status, code, params)


def clue(value, status, code, **params):
    """`value` as the first of three clues, by White's Encryptor in round 1."""
    return ("writing", "clues", "white_encryptor", {"clues": [value, "zz0b", "zz0c"]}, status, code, params)


def keyword_guess(value, status, code, **params):
    return ("keyword_guessing", "keyword-guesses", "player", {"guesses": [value, "", "", ""]}, status, code, params)


def guess(value, status=400, code="guess_malformed", **params):
    """A guess of White's transmission by a White player who isn't its Encryptor (round 1)."""
    return ("round-1-guessing", "guess", "white_guesser", {"code": value, "confirm": True}, status, code, params)


TOO_LONG = "text_too_long"
CONTROL = "text_has_control_characters"
NAME = {"min": NAME_LENGTH[0], "max": NAME_LENGTH[1]}

BAD = [
    Bad(id_, *row)
    for id_, row in [
        # names
        ("name-empty", names("", 400, "name_required")),
        ("name-whitespace-only", names(" \t\n\u00a0\u3000 ", 400, "name_required")),
        ("name-one-letter-in-spaces", names("   A   ", 400, "name_length", **NAME)),
        ("name-overlong", names("x" * (NAME_LENGTH[1] + 1), 400, TOO_LONG, limit=NAME_LENGTH[1])),
        ("name-overlong-after-nfc", names("e\u0301" * 11 + "x" * 10, 400, TOO_LONG, limit=NAME_LENGTH[1])),
        ("name-null", names(None, 400, "name_required")),
        ("name-number", names(42, 400, "name_required")),
        ("name-boolean", names(True, 400, "name_required")),
        ("name-list", names(["Ann"], 400, "name_required")),
        ("name-object", names({"first": "Ann"}, 400, "name_required")),
        ("name-nul", names("Ann\x00", 400, CONTROL)),
        ("name-escape-sequence", names("\x1b[31mAnn", 400, CONTROL)),
        ("name-zero-width-space", names("An\u200bn", 400, CONTROL)),
        ("name-right-to-left-override", names("\u202eAnn", 400, CONTROL)),
        ("name-lone-surrogate", names("Ann\ud800", 400, CONTROL)),
        ("name-private-use", names("Ann\ue000", 400, CONTROL)),
        ("name-taken-other-case-and-accent", names("ÁNN", 409, "name_taken", name="ÁNN")),
        # clues
        ("clue-empty", clue("", 400, "clue_empty")),
        ("clue-whitespace-only", clue(" \t\u00a0 ", 400, "clue_empty")),
        ("clue-overlong", clue("y" * (CLUE_MAX_LENGTH + 1), 400, TOO_LONG, limit=CLUE_MAX_LENGTH)),
        ("clue-number", clue(7, 400, "clue_empty")),
        ("clue-list", clue(["orbit"], 400, "clue_empty")),
        ("clue-object", clue({"clue": "orbit"}, 400, "clue_empty")),
        ("clue-escape-sequence", clue("\x1b[2Jorbit", 400, CONTROL)),
        ("clue-zero-width-space", clue("or\u200bbit", 400, CONTROL)),
        ("clue-right-to-left-override", clue("\u202etibro", 400, CONTROL)),
        ("clue-bell-and-backspace", clue("orbit\x07\x08", 400, CONTROL)),
        (
            "clues-four",
            ("writing", "clues", "white_encryptor", {"clues": ["a1", "b1", "c1", "d1"]}, 400, "three_clues", {}),
        ),
        (
            "clues-object",
            (
                "writing",
                "clues",
                "white_encryptor",
                {"clues": {"1": "a1", "2": "b1", "3": "c1"}},
                400,
                "three_clues",
                {},
            ),
        ),
        ("clues-null", ("writing", "clues", "white_encryptor", {"clues": None}, 400, "three_clues", {})),
        (
            "clues-same-word-twice",
            (
                "writing",
                "clues",
                "white_encryptor",
                {"clues": ["Orbit", "orbits", "pine"]},
                400,
                "clue_repeated",
                {"clue": "orbits"},
            ),
        ),
        # keyword guesses (a blank is allowed: see the accepted values)
        (
            "keyword-guess-overlong",
            keyword_guess("z" * (KEYWORD_GUESS_MAX_LENGTH + 1), 400, TOO_LONG, limit=KEYWORD_GUESS_MAX_LENGTH),
        ),
        ("keyword-guess-nul", keyword_guess("moon\x00", 400, CONTROL)),
        ("keyword-guess-zero-width-space", keyword_guess("mo\u200bon", 400, CONTROL)),
        ("keyword-guess-right-to-left-override", keyword_guess("\u202enoom", 400, CONTROL)),
        ("keyword-guess-null", keyword_guess(None, 400, "four_keyword_guesses")),
        ("keyword-guess-number", keyword_guess(3, 400, "four_keyword_guesses")),
        ("keyword-guess-nested-list", keyword_guess(["moon"], 400, "four_keyword_guesses")),
        (
            "keyword-guesses-three",
            (
                "keyword_guessing",
                "keyword-guesses",
                "player",
                {"guesses": ["a", "b", "c"]},
                400,
                "four_keyword_guesses",
                {},
            ),
        ),
        (
            "keyword-guesses-five",
            ("keyword_guessing", "keyword-guesses", "player", {"guesses": ["a"] * 5}, 400, "four_keyword_guesses", {}),
        ),
        (
            "keyword-guesses-string",
            ("keyword_guessing", "keyword-guesses", "player", {"guesses": "abcd"}, 400, "four_keyword_guesses", {}),
        ),
        (
            "keyword-guesses-object",
            (
                "keyword_guessing",
                "keyword-guesses",
                "player",
                {"guesses": {"1": "a", "2": "b", "3": "c", "4": "d"}},
                400,
                "four_keyword_guesses",
                {},
            ),
        ),
        # codes (parse_guess: three digits 1-4, as numbers, one-digit strings, or one string)
        ("code-four-digits", guess([1, 2, 3, 4])),
        ("code-four-digit-string", guess("1234")),
        ("code-two-digits", guess([2, 3])),
        ("code-empty-list", guess([])),
        ("code-empty-string", guess("")),
        ("code-zero", guess([0, 1, 2])),
        ("code-five-six-nine", guess([5, 6, 9])),
        ("code-negative", guess([-1, 2, 3])),
        ("code-booleans", guess([True, 2, 3])),
        ("code-boolean", guess(True)),
        ("code-integral-floats", guess([1.0, 2.0, 3.0])),
        ("code-number", guess(123)),
        ("code-null-digit", guess([1, 2, None])),
        ("code-nested-lists", guess([[1], [2], [3]])),
        ("code-two-digit-strings", guess(["12", "3", "4"])),
        ("code-letters", guess("abc")),
        ("code-arabic-indic-digits", guess("\u0661\u0662\u0663")),
        ("code-fullwidth-digits", guess("\uff11\uff12\uff13")),
        ("code-superscript-digits", guess("\u00b9\u00b2\u00b3")),
        ("code-object", guess({"1": 1, "2": 2, "3": 3})),
        (
            "confirm-string",
            (
                "round-1-guessing",
                "guess",
                "white_guesser",
                {"code": [1, 2, 3], "confirm": "yes"},
                400,
                "guess_malformed",
                {},
            ),
        ),
        (
            "confirm-number",
            (
                "round-1-guessing",
                "guess",
                "white_guesser",
                {"code": [1, 2, 3], "confirm": 1},
                400,
                "guess_malformed",
                {},
            ),
        ),
        (
            "confirm-null",
            (
                "round-1-guessing",
                "guess",
                "white_guesser",
                {"code": [1, 2, 3], "confirm": None},
                400,
                "guess_malformed",
                {},
            ),
        ),
        (
            "correction-four-digits",
            ("round-1-revealed", "correction", "host", {"decryption": [1, 2, 3, 4]}, 400, "guess_malformed", {}),
        ),
        (
            "correction-booleans",
            ("round-1-revealed", "correction", "host", {"decryption": [True, False, True]}, 400, "guess_malformed", {}),
        ),
        # numbers, booleans and names of things where the rules expect them
        ("seat-zero", ("lobby", "remove-player", "host", {"seat": 0}, 400, "no_such_player", {})),
        ("seat-negative", ("lobby", "remove-player", "host", {"seat": -1}, 400, "no_such_player", {})),
        ("seat-integral-float", ("lobby", "remove-player", "host", {"seat": 1.0}, 400, "no_such_player", {})),
        ("seat-huge", ("lobby", "remove-player", "host", {"seat": 10**30}, 400, "no_such_player", {})),
        ("seat-null", ("lobby", "move-player", "host", {"seat": None}, 400, "no_such_player", {})),
        ("seat-list", ("lobby", "move-player", "host", {"seat": [1]}, 400, "no_such_player", {})),
        ("seat-object", ("writing", "seat-link", "host", {"seat": {"seat": 1}}, 400, "no_such_player", {})),
        ("keyword-number-zero", ("writing", "swap-keyword", "player", {"number": 0}, 400, "keyword_number", {})),
        ("keyword-number-fraction", ("writing", "swap-keyword", "player", {"number": 1.5}, 400, "keyword_number", {})),
        ("keyword-number-null", ("writing", "swap-keyword", "player", {"number": None}, 400, "keyword_number", {})),
        ("keyword-number-list", ("writing", "swap-keyword", "player", {"number": [2]}, 400, "keyword_number", {})),
        ("keyword-number-word", ("writing", "swap-keyword", "player", {"number": "two"}, 400, "keyword_number", {})),
        ("locked-string-true", ("lobby", "lock-joining", "host", {"locked": "true"}, 400, "locked_malformed", {})),
        ("locked-one", ("lobby", "lock-joining", "host", {"locked": 1}, 400, "locked_malformed", {})),
        ("locked-null", ("lobby", "lock-joining", "host", {"locked": None}, 400, "locked_malformed", {})),
        ("team-capitalised", ("writing", "skip-encryptor", "host", {"team": "White"}, 400, "no_such_team", {})),
        ("team-padded", ("writing", "skip-encryptor", "host", {"team": " white"}, 400, "no_such_team", {})),
        ("team-number", ("writing", "skip-encryptor", "host", {"team": 1}, 400, "no_such_team", {})),
        ("team-list", ("writing", "skip-encryptor", "host", {"team": ["white"]}, 400, "no_such_team", {})),
        ("team-object", ("writing", "skip-encryptor", "host", {"team": {"white": True}}, 400, "no_such_team", {})),
        (
            "verdicts-numbers",
            (
                "keyword_judging",
                "verdicts",
                "host",
                {"verdicts": {"white": [1, 0, 0, 1], "black": [0, 0, 0, 0]}},
                400,
                "verdicts_malformed",
                {},
            ),
        ),
        (
            "verdicts-strings",
            (
                "keyword_judging",
                "verdicts",
                "host",
                {"verdicts": {"white": ["true"] * 4, "black": ["false"] * 4}},
                400,
                "verdicts_malformed",
                {},
            ),
        ),
        (
            "verdicts-three",
            (
                "keyword_judging",
                "verdicts",
                "host",
                {"verdicts": {"white": [True] * 3, "black": [False] * 4}},
                400,
                "verdicts_malformed",
                {},
            ),
        ),
        (
            "verdicts-missing-team",
            ("keyword_judging", "verdicts", "host", {"verdicts": {"white": [True] * 4}}, 400, "verdicts_malformed", {}),
        ),
        (
            "verdicts-extra-team",
            (
                "keyword_judging",
                "verdicts",
                "host",
                {"verdicts": {"white": [True] * 4, "black": [False] * 4, "green": [True] * 4}},
                400,
                "verdicts_malformed",
                {},
            ),
        ),
        (
            "verdicts-list",
            (
                "keyword_judging",
                "verdicts",
                "host",
                {"verdicts": [[True] * 4, [False] * 4]},
                400,
                "verdicts_malformed",
                {},
            ),
        ),
        ("verdicts-null", ("keyword_judging", "verdicts", "host", {"verdicts": None}, 400, "verdicts_malformed", {})),
        (
            "accept-string-true",
            (
                "correction-pending",
                "answer-correction",
                "black_player",
                {"accept": "true"},
                400,
                "accept_malformed",
                {},
            ),
        ),
        (
            "accept-one",
            ("correction-pending", "answer-correction", "black_player", {"accept": 1}, 400, "accept_malformed", {}),
        ),
        (
            "accept-null",
            ("correction-pending", "answer-correction", "black_player", {"accept": None}, 400, "accept_malformed", {}),
        ),
    ]
]


def send(app, client, state, command, role, body):
    """One command with a bearer token: (game, answer, event log before, event log after)."""
    game = in_state(client, state)
    token = token_of(game, role)
    before = log(app, game.id)
    answer = client.post(f"/api/games/{game.id}/{command}", json=body, headers=bearer(token))
    return game, answer, before, log(app, game.id)


@pytest.mark.parametrize("bad", BAD, ids=[b.id for b in BAD])
def test_a_hostile_value_is_refused_with_its_sentence_and_nothing_written(app, client, bad):
    _, answer, before, after = send(app, client, bad.state, bad.command, bad.role, bad.body)
    assert_refused(app, answer, bad.status, bad.code, bad.params)
    assert after == before, "a refused command changed the event log"


def assert_some_refusal(app, answer):
    """A 4xx JSON refusal whose `error` is the sentence for its `code` (whichever code a fix picks)."""
    assert 400 <= answer.status_code < 500, answer.get_data(as_text=True)[:300]
    body = answer.get_json()
    assert refusal_pattern(app, body["code"]).match(body["error"]), body


# Values that hit an app bug (reported): each should be refused like the catalogue above.
BUGS = [
    pytest.param(*names("\u200d\u200d", 400, None), id="name-zero-width-joiners-only"),
    pytest.param(*names("\u3164\u3164", 400, None), id="name-hangul-fillers-only"),
    pytest.param(*clue("\u200d", 400, None), id="clue-zero-width-joiner-only"),
    pytest.param(
        "writing",
        "swap-keyword",
        "player",
        {"number": 2.0},
        400,
        "keyword_number",
        {},
        id="keyword-number-integral-float",
    ),
]


@pytest.mark.parametrize("state,command,role,body,status,code,params", BUGS)
def test_a_hostile_value_that_hits_a_bug_is_refused(app, client, state, command, role, body, status, code, params):
    app.testing = False  # an exception becomes the 500 a player would get
    game, answer, before, after = send(app, client, state, command, role, body)
    if code:
        assert_refused(app, answer, status, code, params)
    else:
        assert_some_refusal(app, answer)
    assert after == before, "a refused command changed the event log"
    assert client.get(f"/api/games/{game.id}", headers=bearer(game.tokens["host"])).status_code == 200


def test_whose_transmission_is_guessed_comes_from_the_game_not_the_body(app, client):
    """Round 2, White's transmission open: Black's guess is an interception of White's, whatever the body
    says (`team` and `by` are ignored; a `transmission` naming Black's is a stale target, refused); once
    sealed, Black can't use it to decrypt its own transmission before that opens."""
    game = in_state(client, "round-2-guessing")
    bea = game.seats["Bea"]
    body = {"code": [1, 2, 3], "confirm": True, "transmission": "black", "team": "black", "by": "white"}
    before = log(app, game.id)
    assert_refused(
        app,
        client.post(f"/api/games/{game.id}/guess", json=body, headers=bearer(bea)),
        409,
        "stale",
        {"change": "transmission_not_open", "team": "black"},
    )
    assert log(app, game.id) == before
    del body["transmission"]
    answer = client.post(f"/api/games/{game.id}/guess", json=body, headers=bearer(bea))
    assert answer.status_code == 200, answer.get_json()
    saved = log(app, game.id)[-1][1]
    assert (saved["type"], saved["transmission"], saved["by"]) == ("guess_saved", "white", "black")
    before = log(app, game.id)
    answer = client.post(f"/api/games/{game.id}/guess", json=body, headers=bearer(bea))
    assert_refused(app, answer, 409, "guess_sealed")
    assert log(app, game.id) == before


# --- odd but valid values: accepted as plain text, kept intact ------------------------------------


def new_event(after, before):
    added = after[len(before) :]
    assert len(added) >= 1 and after[: len(before)] == before
    return added[0][1]


ACCEPTED = [
    # (id, request as in the catalogue, the field of the first new event, its expected value)
    ("name-right-to-left-script", names("نور", 200, None), "name", "نور"),
    ("name-emoji-with-zero-width-joiner", names("👩\u200d🚀 Zoe", 200, None), "name", "👩\u200d🚀 Zoe"),
    ("name-markup", names("<script>x</script>", 200, None), "name", "<script>x</script>"),
    ("name-inner-whitespace-collapsed", names("  Ann \t\u00a0 Lee  ", 200, None), "name", "Ann Lee"),
    ("name-longest", names("x" * NAME_LENGTH[1], 200, None), "name", "x" * NAME_LENGTH[1]),
    ("name-decomposed-accent-composed", names("Zoe\u0301", 200, None), "name", "Zo\u00e9"),
    ("clue-longest", clue("y" * CLUE_MAX_LENGTH, 200, None), "clues", ["y" * CLUE_MAX_LENGTH, "zz0b", "zz0c"]),
    (
        "clue-markup",
        clue('"><img src=x onerror=alert(q)>', 200, None),
        "clues",
        ['"><img src=x onerror=alert(q)>', "zz0b", "zz0c"],
    ),
    ("clue-right-to-left-and-emoji", clue("שלום 🚀", 200, None), "clues", ["שלום 🚀", "zz0b", "zz0c"]),
    ("keyword-guess-blank", keyword_guess("", 200, None), "guesses", ["", "", "", ""]),
    ("keyword-guess-whitespace-is-blank", keyword_guess(" \t ", 200, None), "guesses", ["", "", "", ""]),
    (
        "keyword-guess-longest",
        keyword_guess("z" * KEYWORD_GUESS_MAX_LENGTH, 200, None),
        "guesses",
        ["z" * KEYWORD_GUESS_MAX_LENGTH, "", "", ""],
    ),
    ("keyword-guess-markup", keyword_guess("<b>moon</b>", 200, None), "guesses", ["<b>moon</b>", "", "", ""]),
    ("code-repeated-digits-is-a-wrong-guess", guess([1, 1, 2]), "code", [1, 1, 2]),
    ("code-digit-strings", guess(["3", "1", "4"]), "code", [3, 1, 4]),
    ("code-mixed-numbers-and-strings", guess([3, "1", 4]), "code", [3, 1, 4]),
    ("code-compact-string", guess("314"), "code", [3, 1, 4]),
    ("code-dashed-string", guess("3-1-4"), "code", [3, 1, 4]),
    ("code-spaced-and-dotted-string", guess(" 3 .1/ 4 "), "code", [3, 1, 4]),
    (
        "guess-without-confirm-is-a-draft",
        ("round-1-guessing", "guess", "white_guesser", {"code": [1, 2, 3]}),
        "sealed",
        False,
    ),
    (
        "guess-body-naming-another-team-is-ignored",
        ("round-1-guessing", "guess", "white_guesser", {"code": [1, 2, 3], "team": "black", "by": "black", "seat": 3}),
        "by",
        "white",
    ),
]


@pytest.mark.parametrize("request_,field_name,value", [row[1:] for row in ACCEPTED], ids=[row[0] for row in ACCEPTED])
def test_an_odd_but_valid_value_is_accepted_intact(app, client, request_, field_name, value):
    state, command, role, body = request_[:4]
    game, answer, before, after = send(app, client, state, command, role, body)
    assert answer.status_code == 200, answer.get_json()
    assert new_event(after, before)[field_name] == value
    if command == "join":
        view = client.get(f"/api/games/{game.id}", headers=bearer(answer.get_json()["token"])).get_json()
        assert view["viewer"]["name"] == value


# --- markup is text on every page ------------------------------------------------------------------


class Tags(HTMLParser):
    """The elements of a page, as a browser's parser would build them."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


MARKUP_NAMES = {"white": ["<script>x</script>", "نور"], "black": ['"><svg onload=a>', "👩\u200d🚀 Zoe"]}
MARKUP_WORDS = [
    '<script>alert("w")</script>',
    "<img src=x onerror=alert(2)>",
    "'><svg onload=alert(3)>",
    "a&amp;b",
    "ZEBRA",
    "OTTER",
    "LLAMA",
    "BISON",
    "<i>italic</i>",
    '"quoted"',
    "&#60;b&#62;",
    "<style>*{}</style>",
]  # 12, the least a list may hold: 8 are dealt
MARKUP_CLUES = {
    "white": ["<script>alert(p)</script>", '"><img src=y onerror=alert(q)>', "שלום 🚀"],
    "black": ["<b>bold</b>", "&lt;i&gt; pre-escaped", "👩\u200d🚀 launch"],
}
MARKUP_GUESSES = {
    "white": ['<script>alert("g")</script>', "", "", ""],
    "black": ['"><img src=z onerror=alert(4)>', "نور", "", ""],
}


def assert_inert(page: str, where: str, texts=()):
    """No markup typed by a player became an element or attribute, and each text is shown (escaped)."""
    tags = Tags(page).tags
    scripts = [attrs.get("src", "") for tag, attrs in tags if tag == "script"]
    assert all(urlsplit(src).path == "/static/live.js" for src in scripts), (where, scripts)
    handlers = [(tag, name) for tag, attrs in tags for name in attrs if name.startswith("on")]
    assert not handlers, (where, handlers)
    assert not [attrs for tag, attrs in tags if tag == "img" and attrs.get("src") in ("x", "y", "z")], where
    for text in texts:
        if "<" in text:
            assert text not in page, (where, text)
        assert str(escape(text)) in page, (where, text)


def test_markup_typed_by_players_is_shown_as_text_on_every_page(app, client):
    game = ApiGame(
        client,
        white=MARKUP_NAMES["white"],
        black=MARKUP_NAMES["black"],
        start=False,
        settings={"words": "\n".join(MARKUP_WORDS)},
    )
    game_id, tokens = game.id, game.tokens
    players = dict(game.seats)
    game.seats.update(Ann=players["<script>x</script>"], Bea=players['"><svg onload=a>'])  # a player of each team
    lobby_pages = {
        f"join page of {team}": (client.get(f"/join/{tokens[team]}"), MARKUP_NAMES[team]) for team in ("white", "black")
    }
    lobby_pages["table in the lobby"] = (client.get(table_path(client, tokens['host'])), sum(MARKUP_NAMES.values(), []))
    for where, (answer, texts) in lobby_pages.items():
        assert answer.status_code == 200, where
        assert_inert(answer.get_data(as_text=True), where, texts)
    assert game.post("start", tokens["host"]).status_code == 200
    for team in ("white", "black"):
        game.announce(team, MARKUP_CLUES[team])
    for team in ("white", "black"):
        game.guess(team, team, wrong(game.code(team)))
    game.round(white=(False, False), black=(False, False))  # a tie: the keyword tiebreak
    for team, name in (("white", "Ann"), ("black", "Bea")):
        assert game.post("keyword-guesses", game.seats[name], guesses=MARKUP_GUESSES[team]).status_code == 200
    seat = game.view(game.seats["Ann"])["viewer"]["seat"]
    link = game.post("seat-link", tokens["host"], seat=seat).get_json()["seat_link"]["url"]

    names_, clues_ = sum(MARKUP_NAMES.values(), []), sum(MARKUP_CLUES.values(), [])
    dealt = [w for team in ("white", "black") for w in game.view(tokens["host"])["teams"][team]["keywords"]]
    assert len(dealt) == 8 and set(dealt) <= set(MARKUP_WORDS)  # shown to all while judging
    everything = [*names_, *dealt, *clues_, *[g for guesses in MARKUP_GUESSES.values() for g in guesses if g]]
    pages = {
        "table": client.get(table_path(client, tokens['host'])),
        "spectator": client.get(f"/watch/{tokens['spectator']}"),
        "join": client.get(f"/join/{tokens['white']}"),
        "seat link": client.get("/" + link.split("/", 3)[3]),
    }
    for name, token in players.items():
        pages[f"phone of {name}"] = browser(app, game_id, token).get(f"/play/{game_id}")
    shown = {"table": everything, "spectator": names_ + dealt + clues_, "join": (), "seat link": ["<script>x</script>"]}
    for where, answer in pages.items():
        assert answer.status_code == 200, where
        own_name = where.removeprefix("phone of ")
        assert_inert(answer.get_data(as_text=True), where, shown.get(where, [own_name] + dealt + clues_))

    proposal = game.view(tokens["host"])["tiebreak"]["proposal"]
    assert game.post("verdicts", tokens["host"], verdicts=proposal).status_code == 200
    phone = browser(app, game_id, game.seats["Ann"])
    summaries = {
        "summary (table)": client.get(f"{table_path(client, tokens['host'])}/summary"),
        "summary (spectator)": client.get(f"/summary/{tokens['spectator']}"),
        "summary (phone)": phone.get(f"/play/{game_id}/summary"),
    }
    for where, answer in summaries.items():
        assert answer.status_code == 200, where
        assert_inert(answer.get_data(as_text=True), where, everything)
    download = client.get(f"{table_path(client, tokens['host'])}/summary.json")
    assert download.mimetype == "application/json" and download.headers["X-Content-Type-Options"] == "nosniff"
    assert download.get_json()["teams"]["white"]["players"][0]["name"] == "<script>x</script>"


def test_markup_in_a_refusal_sentence_is_shown_as_text(app, client):
    """Sentences that quote what a player typed (a taken name, a repeated clue, a short word list)."""
    game = in_state(client, "lobby-with-room")
    assert game.post("join", game.tokens["white"], name="<i>Ivy</i>").status_code == 200
    phone = browser(app)
    path = f"/join/{game.tokens['white']}"
    before = log(app, game.id)
    answer = followed(phone, phone.post(path, data={"name": "<I>ivy</I>", "csrf_token": csrf_of(phone.get(path))}))
    assert_refused(app, answer, 409, "name_taken", {"name": "<I>ivy</I>"})
    assert_inert(answer.get_data(as_text=True), "join page", ["<I>ivy</I>"])
    assert log(app, game.id) == before

    game = in_state(client, "writing")
    phone = browser(app, game.id, game.encryptor("white"))
    before = log(app, game.id)
    clues = ["<b>x</b>", "<b>x</b>", "zz9c"]
    answer = followed(phone, phone.post(f"/play/{game.id}/clues", data={"clues": clues, "csrf_token": phone.csrf}))
    assert_refused(app, answer, 400, "clue_repeated", {"clue": "<b>x</b>"})
    assert_inert(answer.get_data(as_text=True), "phone", ["<b>x</b>"])
    assert log(app, game.id) == before

    home = browser(app)
    games_before = count_games(app)
    answer = home.post("/games", data={"words": "<svg onload=a>\n<svg onload=a>s\npear", "csrf_token": home.csrf})
    answer = followed(home, answer)
    assert answer.status_code == 400
    assert_inert(answer.get_data(as_text=True), "home page", ["<svg onload=a>s"])
    assert count_games(app) == games_before


# --- bodies that aren't a JSON object ---------------------------------------------------------------

SENDER_ROLE = {"host": "host", "seat": "player", "join": "white_join", "handoff": "handoff"}
NOT_OBJECTS = {"number": "42", "null": "null", "true": "true", "string": '"clues"', "list": "[]"}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_json_that_is_not_an_object_is_refused_by_every_command(app, client, command):
    game = in_state(client, "writing")
    token = token_of(game, SENDER_ROLE[COMMANDS[command].sender])
    before = log(app, game.id)
    for kind, text in NOT_OBJECTS.items():
        answer = client.post(
            f"/api/games/{game.id}/{command}", data=text, content_type="application/json", headers=bearer(token)
        )
        assert answer.status_code == 400, (kind, answer.get_json())
        assert_refused(app, answer, 400, "malformed_body")
    assert log(app, game.id) == before


@pytest.mark.parametrize("text", list(NOT_OBJECTS.values()), ids=list(NOT_OBJECTS))
def test_json_that_is_not_an_object_creates_no_game(app, client, text):
    before = count_games(app)
    assert_refused(app, client.post("/api/games", data=text, content_type="application/json"), 400, "malformed_body")
    assert count_games(app) == before


# --- bodies that aren't JSON, or not read as JSON -------------------------------------------------------


def raw(data, content_type="application/json"):
    return {"data": data, "content_type": content_type}


UNREADABLE = {
    "unclosed-object": raw('{"code": [1, 2, 3]'),
    "single-quotes": raw("{'code': [1, 2, 3]}"),
    "trailing-comma": raw('{"code": [1, 2, 3],}'),
    "trailing-garbage": raw('{"code": [1, 2, 3]} and more'),
    "two-objects": raw('{"code": [1, 2, 3]}{"confirm": true}'),
    "not-utf-8": raw(b'{"code": "\xff\xfe"}'),
    "integer-of-5000-digits": raw('{"code": ' + "9" * 5000 + "}"),
    "json-as-text-plain": raw('{"code": [1, 2, 3]}', "text/plain"),
    "json-as-form-urlencoded": raw('{"code": [1, 2, 3]}', "application/x-www-form-urlencoded"),
    "form-fields": raw({"code": "123", "confirm": "1"}, "application/x-www-form-urlencoded"),
    "multipart": raw({"code": "123"}, "multipart/form-data"),
    "xml": raw("<guess><code>123</code></guess>", "application/xml"),
}


@pytest.mark.parametrize("request_", list(UNREADABLE.values()), ids=list(UNREADABLE))
def test_a_body_that_cant_be_read_as_a_json_object_is_refused(app, client, request_):
    game = in_state(client, "round-1-guessing")
    token = token_of(game, "white_guesser")
    before = log(app, game.id)
    answer = client.post(f"/api/games/{game.id}/guess", headers=bearer(token), **request_)
    assert_refused(app, answer, 400, "malformed_body")
    assert log(app, game.id) == before
    games_before = count_games(app)
    assert_refused(app, client.post("/api/games", **request_), 400, "malformed_body")
    assert count_games(app) == games_before


def test_an_empty_body_is_no_fields_and_nan_is_no_number(app, client):
    """An empty body reads as no fields (the rules then say what is missing); NaN and Infinity, which Python's
    json reads though JSON has neither, never pass as a digit."""
    game = in_state(client, "round-1-guessing")
    token = token_of(game, "white_guesser")
    before = log(app, game.id)
    for data in ("", '{"code": [NaN, 1, 2], "confirm": true}', '{"code": [Infinity, 1, 2]}', '{"code": -Infinity}'):
        answer = client.post(
            f"/api/games/{game.id}/guess", data=data, content_type="application/json", headers=bearer(token)
        )
        assert_refused(app, answer, 400, "guess_malformed")
    assert log(app, game.id) == before


DEEP = 3000  # far below the 16 KB limit


@pytest.mark.parametrize("where", ["create", "command"])
def test_deeply_nested_json_is_refused(app, client, where):
    app.testing = False
    game = in_state(client, "round-1-guessing")
    before, games_before = log(app, game.id), count_games(app)
    data = '{"code": ' + "[" * DEEP + "]" * DEEP + "}"
    if where == "create":
        answer = client.post("/api/games", data=data, content_type="application/json")
    else:
        answer = client.post(
            f"/api/games/{game.id}/guess",
            data=data,
            content_type="application/json",
            headers=bearer(token_of(game, "white_guesser")),
        )
    assert_refused(app, answer, 400, "malformed_body")
    assert log(app, game.id) == before and count_games(app) == games_before


# --- the 16 KB limit ---------------------------------------------------------------------------------


def test_a_body_over_the_size_limit_is_refused_before_anything_is_read(app, client):
    limit = app.config["MAX_CONTENT_LENGTH"]
    games_before = count_games(app)
    words = "\n".join(f"word{n}" for n in range(limit // 5))
    assert_refused(app, client.post("/api/games", json={"words": words}), 413, "too_large")
    assert count_games(app) == games_before

    game = in_state(client, "lobby-with-room")
    before = log(app, game.id)
    phone = browser(app)
    path = f"/join/{game.tokens['white']}"
    answer = phone.post(path, data={"name": "x" * (limit + 1), "csrf_token": csrf_of(phone.get(path))})
    assert_refused(app, answer, 413, "too_large")  # a page, for the form
    answer = client.post(
        f"/api/games/{game.id}/join", json={"name": "Zed", "pad": "x" * limit}, headers=bearer(game.tokens["white"])
    )  # even in a field nobody reads
    assert_refused(app, answer, 413, "too_large")
    assert log(app, game.id) == before


def test_a_body_just_under_the_size_limit_reaches_the_rules(app, client):
    limit = app.config["MAX_CONTENT_LENGTH"]
    games_before = count_games(app)
    word = "w" * (WORD_MAX_LENGTH + 1)
    words = ((word + ",") * limit)[: limit - 20 - len('{"words": ""}')]
    assert len(json.dumps({"words": words})) == limit - 20
    assert_refused(app, client.post("/api/games", json={"words": words}), 400, TOO_LONG, {"limit": WORD_MAX_LENGTH})
    many = "\n".join(f"w{n}" for n in range(MAX_WORDS + 1))
    assert_refused(app, client.post("/api/games", json={"words": many}), 400, "too_many_words", {"max": MAX_WORDS})
    assert count_games(app) == games_before


# --- game settings ---------------------------------------------------------------------------------

BAD_SETTINGS = {
    "words-empty": ({"words": ""}, "too_few_words", {"count": 0, "min": 12, "repeated": "-"}),
    "words-only-separators": ({"words": " \n,, \n\t,"}, "too_few_words", {"count": 0, "min": 12, "repeated": "-"}),
    "words-nul": ({"words": "ap\x00ple\n" + TWELVE_WORDS}, CONTROL, {}),
    "words-right-to-left-override": ({"words": "\u202eelppa\n" + TWELVE_WORDS}, CONTROL, {}),
    "words-zero-width-space": ({"words": "ap\u200bple\n" + TWELVE_WORDS}, CONTROL, {}),
    "words-number": ({"words": 8}, "words_malformed", {}),
    "words-object": ({"words": {"apple": 1}}, "words_malformed", {}),
    "words-too-many": (
        {"words": ",".join(f"w{n}" for n in range(MAX_WORDS + 1))},
        "too_many_words",
        {"max": MAX_WORDS},
    ),
    "timer-nan": (None, "timer_length", {"min": 10, "max": 600}),
    "timer-zero": ({"timer": 0}, "timer_length", {"min": 10, "max": 600}),
    "timer-list": ({"timer": [30]}, "timer_length", {"min": 10, "max": 600}),
    "mode-capitalised": ({"mode": "Standard"}, "unknown_mode", {}),
    "mode-object": ({"mode": {"standard": True}}, "unknown_mode", {}),
    "language-capitalised": ({"language": "EN"}, "unknown_language", {}),
    "language-list": ({"language": ["en"]}, "unknown_language", {}),
}


@pytest.mark.parametrize("body,code,params", list(BAD_SETTINGS.values()), ids=list(BAD_SETTINGS))
def test_a_hostile_game_setting_is_refused_and_no_game_is_created(app, client, body, code, params):
    games_before = count_games(app)
    if body is None:
        answer = client.post("/api/games", data='{"timer": NaN}', content_type="application/json")
    else:
        answer = client.post("/api/games", json=body)
    assert_refused(app, answer, 400, code, params)
    assert count_games(app) == games_before


# --- the same values through the no-JavaScript forms -----------------------------------------------------

FORMS = {
    # id: (state, route, who, command, fields, status, code, params)
    "join-name-escape-sequence": ("lobby-with-room", "join", None, "join", {"name": "\x1b[31mZed"}, 400, CONTROL, {}),
    "join-name-empty": ("lobby-with-room", "join", None, "join", {"name": ""}, 400, "name_required", {}),
    "join-name-overlong": (
        "lobby-with-room",
        "join",
        None,
        "join",
        {"name": "z" * 21},
        400,
        TOO_LONG,
        {"limit": NAME_LENGTH[1]},
    ),
    "join-name-missing": ("lobby-with-room", "join", None, "join", {}, 400, "name_required", {}),
    "clues-two-fields": (
        "writing",
        "play",
        "white_encryptor",
        "clues",
        {"clues": ["a1", "b1"]},
        400,
        "three_clues",
        {},
    ),
    "clues-overlong": (
        "writing",
        "play",
        "white_encryptor",
        "clues",
        {"clues": ["y" * (CLUE_MAX_LENGTH + 1), "b1", "c1"]},
        400,
        TOO_LONG,
        {"limit": CLUE_MAX_LENGTH},
    ),
    "clues-right-to-left-override": (
        "writing",
        "play",
        "white_encryptor",
        "clues",
        {"clues": ["\u202eorbit", "b1", "c1"]},
        400,
        CONTROL,
        {},
    ),
    "guess-digit-five": (
        "round-1-guessing",
        "play",
        "white_guesser",
        "guess",
        {"code1": "5", "code2": "1", "code3": "2", "confirm": "1"},
        400,
        "guess_malformed",
        {},
    ),
    "guess-missing-digit": (
        "round-1-guessing",
        "play",
        "white_guesser",
        "guess",
        {"code1": "3", "code2": "1"},
        400,
        "guess_malformed",
        {},
    ),
    "keyword-guesses-three-fields": (
        "keyword_guessing",
        "play",
        "player",
        "keyword-guesses",
        {"guesses": ["a", "b", "c"]},
        400,
        "four_keyword_guesses",
        {},
    ),
    "keyword-guesses-nul": (
        "keyword_guessing",
        "play",
        "player",
        "keyword-guesses",
        {"guesses": ["a\x00", "b", "c", "d"]},
        400,
        CONTROL,
        {},
    ),
    "swap-keyword-letter": ("writing", "play", "player", "swap-keyword", {"number": "x"}, 400, "keyword_number", {}),
    "swap-keyword-six-digits": (
        "writing",
        "play",
        "player",
        "swap-keyword",
        {"number": "000001"},
        400,
        "keyword_number",
        {},
    ),
    "remove-player-negative": ("lobby", "table", "host", "remove-player", {"seat": "-1"}, 400, "no_such_player", {}),
    "remove-player-missing": ("lobby", "table", "host", "remove-player", {}, 400, "no_such_player", {}),
    "correction-letters": (
        "round-1-revealed",
        "table",
        "host",
        "correction",
        {"decryption": "abc"},
        400,
        "guess_malformed",
        {},
    ),
    "correction-four-digits": (
        "round-1-revealed",
        "table",
        "host",
        "correction",
        {"decryption": "1-2-3-4"},
        400,
        "guess_malformed",
        {},
    ),
}
FORM_BUGS = {
    "remove-player-superscript-two": pytest.param(
        "lobby", "table", "host", "remove-player", {"seat": "\u00b2"}, 400, "no_such_player", {}
    ),
    "swap-keyword-superscript-two": pytest.param(
        "writing", "play", "player", "swap-keyword", {"number": "\u00b2"}, 400, "keyword_number", {}
    ),
}


def post_form(app, client, state, route, role, command, fields):
    game = in_state(client, state)
    token = token_of(game, role) if role else None
    phone = browser(app, game.id, token if route == "play" else None)
    path = {
        "join": f"/join/{game.tokens['white']}",
        "play": f"/play/{game.id}/{command}",
        "table": f"{table_path(phone, token)}/{command}" if route == "table" else None,
    }[route]
    before = log(app, game.id)
    answer = followed(phone, phone.post(path, data={**fields, "csrf_token": phone.csrf}))  # (post/redirect/get)
    return game, answer, before


@pytest.mark.parametrize(
    "state,route,role,command,fields,status,code,params",
    [*FORMS.values(), *FORM_BUGS.values()],
    ids=[*FORMS, *FORM_BUGS],
)
def test_a_hostile_form_value_is_refused_with_a_page_that_says_why(
    app, client, state, route, role, command, fields, status, code, params
):
    app.testing = False
    game, answer, before = post_form(app, client, state, route, role, command, fields)
    assert answer.mimetype == "text/html"
    assert_refused(app, answer, status, code, params)
    assert log(app, game.id) == before


TIMER = {"min": 10, "max": 600}
HOME = [
    pytest.param({"timer": "1", "timer_seconds": "-30"}, "timer_length", TIMER, id="timer-negative"),
    pytest.param({"timer": "1", "timer_seconds": "99999"}, "timer_length", TIMER, id="timer-huge"),
    pytest.param({"timer": "1", "timer_seconds": "thirty"}, "timer_length", TIMER, id="timer-word"),
    pytest.param({"mode": "<script>x</script>"}, "unknown_mode", {}, id="mode-markup"),
    pytest.param({"words": "ap\x00ple\n" + TWELVE_WORDS}, CONTROL, {}, id="words-nul"),
    pytest.param(
        {"words": "apple, pear"}, "too_few_words", {"count": 2, "min": 12, "repeated": "-"}, id="words-too-few"
    ),
    pytest.param({"timer": "1", "timer_seconds": "\u00b2"}, "timer_length", TIMER, id="timer-superscript-two"),
]


@pytest.mark.parametrize("fields,code,params", HOME)
def test_the_home_page_refuses_hostile_settings_and_creates_no_game(app, fields, code, params):
    app.testing = False
    home = browser(app)
    games_before = count_games(app)
    answer = followed(home, home.post("/games", data={"mode": "standard", **fields, "csrf_token": home.csrf}))
    assert_refused(app, answer, 400, code, params)
    assert 'class="brand"' in answer.get_data(as_text=True)  # the home page again, with the sentence
    assert_inert(answer.get_data(as_text=True), "home page")
    assert count_games(app) == games_before


# --- every command out of its phase, and by every wrong kind of token -----------------------------------


def fields_of(command: str) -> dict:
    """A body of `command` that would otherwise be fine: its declared example's fields, without its targets."""
    declared = COMMANDS[command]
    return {k: v for k, v in declared.example.items() if k not in {t.name for t in declared.targets}}


# The commands bound to phases (rules.command `phases`; the others answer by what is pending: a reveal, a
# correction, a seat link or claim).
PHASE_BOUND = {name: c.phases for name, c in COMMANDS.items() if c.phases != ANY_PHASE}
PHASE_REFUSAL = {
    "lobby": "game_not_started",
    "playing": "game_in_progress",
    "keyword_guessing": "tiebreak_in_progress",
    "keyword_judging": "judging_in_progress",
    "over": "game_over",
}


@pytest.mark.parametrize("state", ["lobby", "writing", "keyword_guessing", "keyword_judging", "over"])
def test_every_command_out_of_its_phase_is_refused_by_the_phase(app, client, state):
    game = in_state(client, state)
    phase = PHASE_OF[state]
    before = log(app, game.id)
    wrong_answers = []
    for command, allowed in PHASE_BOUND.items():
        if phase in allowed:
            continue
        token = token_of(game, SENDER_ROLE[COMMANDS[command].sender])
        answer = client.post(f"/api/games/{game.id}/{command}", json=fields_of(command), headers=bearer(token))
        # Joining once the game is under way says so (the phase's own sentence is about any command).
        code = "too_late_to_join" if command == "join" and phase not in ("lobby", "over") else PHASE_REFUSAL[phase]
        if answer.status_code != 409 or answer.get_json() != {"error": expected(app, code), "code": code}:
            wrong_answers.append((command, answer.status_code, answer.get_json()))
    assert not wrong_answers, f"in phase {phase}, expected {PHASE_REFUSAL[phase]}: {wrong_answers}"
    assert "join" not in expected(app, PHASE_REFUSAL[phase])  # the sentence fits every command it refuses
    assert log(app, game.id) == before


def test_the_phase_matrix_covers_every_phase_and_the_commands_of_each():
    """The states above reach every phase, and every phase has commands it refuses and commands it takes."""
    assert set(PHASE_OF.values()) == set(PHASE_REFUSAL) == set(ANY_PHASE)
    for phase in ANY_PHASE:
        assert any(phase in allowed for allowed in PHASE_BOUND.values()), phase
        assert any(phase not in allowed for allowed in PHASE_BOUND.values()), phase


KIND_ROLES = {"host": "host", "spectator": "spectator", "join": "white_join", "seat": "player", "handoff": "handoff"}
SENDER_REFUSAL = {"host": "host_only", "seat": "players_only", "join": "join_link_only", "handoff": "seat_link_only"}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_by_every_wrong_kind_of_token_is_refused(app, client, command):
    game = in_state(client, "writing")
    sender = COMMANDS[command].sender
    tokens = {kind: token_of(game, role) for kind, role in KIND_ROLES.items() if kind != sender}
    body = fields_of(command)
    before = log(app, game.id)
    for kind, token in tokens.items():
        answer = client.post(f"/api/games/{game.id}/{command}", json=body, headers=bearer(token))
        assert answer.status_code == 403, (kind, answer.get_json())
        assert_refused(app, answer, 403, SENDER_REFUSAL[sender])
    assert log(app, game.id) == before


# --- tokens of another game, and tokens that stopped working -----------------------------------------------

CROSS_GAME = {
    # id: (method, path after /api/games/<B>, the kind of A's token, body)
    "join-token-joins-another-game": ("post", "/join", "white_join", {"name": "Zed"}),
    "seat-link-claims-in-another-game": ("post", "/claim-seat", "handoff", {}),
    "seat-guesses-in-another-game": ("post", "/guess", "player", {"code": [1, 2, 3]}),
    "host-starts-another-game": ("post", "/start", "host", {}),
    "spectator-reads-another-game": ("get", "", "spectator", None),
    "host-reads-another-games-summary": ("get", "/summary", "host", None),
}


@pytest.mark.parametrize("method,path,role,body", list(CROSS_GAME.values()), ids=list(CROSS_GAME))
def test_a_token_of_game_a_on_game_bs_url_is_refused(app, client, method, path, role, body):
    game_a = in_state(client, "writing")
    game_b = in_state(client, "lobby")
    token = token_of(game_a, role)
    before_a, before_b = log(app, game_a.id), log(app, game_b.id)
    if method == "get":
        answer = client.get(f"/api/games/{game_b.id}{path}", headers=bearer(token))
    else:
        answer = client.post(f"/api/games/{game_b.id}{path}", json=body, headers=bearer(token))
    assert_refused(app, answer, 403, "wrong_game")
    assert (log(app, game_a.id), log(app, game_b.id)) == (before_a, before_b)


def test_a_browser_seat_of_game_a_filed_under_game_b_is_refused(app, client):
    """The seat cookie maps a game to a token; a token of another game under B's id opens nothing of B."""
    game_a, game_b = in_state(client, "writing"), in_state(client, "writing")
    phone = browser(app, game_b.id, game_a.seats["Ann"])
    before = log(app, game_b.id)
    assert_refused(app, phone.get(f"/play/{game_b.id}"), 403, "wrong_game")
    answer = phone.post(f"/api/games/{game_b.id}/swap-keyword", json={"number": 1}, headers={"X-CSRFToken": phone.csrf})
    assert_refused(app, answer, 403, "wrong_game")
    answer = phone.post(f"/play/{game_b.id}/swap-keyword", data={"number": "1", "csrf_token": phone.csrf})
    assert_refused(app, answer, 403, "wrong_game")
    assert log(app, game_b.id) == before


def stale_seat(client, how):
    """A game and a seat token that stopped working: its player was removed, or the seat moved to a new phone."""
    if how == "removed":
        game = in_state(client, "lobby")
        old = game.seats["Abe"]
        seat = game.view(old)["viewer"]["seat"]
        assert game.post("remove-player", game.tokens["host"], seat=seat).status_code == 200
        return game, old
    game = in_state(client, "writing")
    old = game.seats["Abe"]
    handoff = token_of(game, "handoff")
    claimed = game.post("claim-seat", handoff)
    assert claimed.status_code == 200
    assert game.post("let-in", game.seats["Ann"], seat=claimed.get_json()["seat"]).status_code == 200
    return game, old


@pytest.mark.parametrize("how", ["removed", "handed-over"])
def test_a_replayed_seat_token_is_refused(app, client, how):
    game, old = stale_seat(client, how)
    before = log(app, game.id)
    for command, body in (
        ("swap-keyword", {"number": 1}),
        ("guess", {"code": [1, 2, 3]}),
        ("answer-correction", {"accept": True}),
        ("join", {"name": "Abe"}),
    ):
        answer = client.post(f"/api/games/{game.id}/{command}", json=body, headers=bearer(old))
        assert_refused(app, answer, 403, "no_capability")
    assert_refused(app, client.get(f"/api/games/{game.id}/summary", headers=bearer(old)), 403, "no_capability")
    assert log(app, game.id) == before


@pytest.mark.parametrize("how", ["removed", "handed-over"])
def test_the_old_phone_of_a_seat_is_told_its_seat_is_gone(app, client, how):
    game, old = stale_seat(client, how)
    phone = browser(app, game.id, old)
    before = log(app, game.id)
    assert_refused(app, phone.get(f"/play/{game.id}"), 403, "seat_gone")
    assert_refused(app, phone.get(f"/api/games/{game.id}"), 403, "seat_gone")
    answer = phone.post(f"/play/{game.id}/swap-keyword", data={"number": "1", "csrf_token": phone.csrf})
    assert_refused(app, answer, 403, "seat_gone")
    answer = phone.post(f"/api/games/{game.id}/swap-keyword", json={"number": 1}, headers={"X-CSRFToken": phone.csrf})
    assert_refused(app, answer, 403, "seat_gone")
    assert log(app, game.id) == before


# --- browser sessions without their CSRF token ------------------------------------------------------------

# id: (state, what is posted, where (from the game; evaluated before the log is read), the form fields or JSON
#      body, the phone's seat, the X-CSRFToken header sent, the content type)
CSRF = {
    "join-form": ("lobby-with-room", "form", lambda g: f"/join/{g.tokens['white']}", {"name": "Zed"}, None),
    "seat-link-claim-form": ("writing", "form", lambda g: f"/seat/{token_of(g, 'handoff')}", {}, None),
    "create-game-form": ("lobby", "form", lambda g: "/games", {"mode": "standard"}, None),
    "try-out-form": ("lobby", "form", lambda g: "/try", {"mode": "standard"}, None),
    "table-form-start": ("lobby", "form", lambda g: f"/table/{g.id}/start", {}, None),
    "phone-form-swap-keyword": ("writing", "form", lambda g: f"/play/{g.id}/swap-keyword", {"number": "1"}, "player"),
    "phone-form-guess": (
        "round-1-guessing",
        "form",
        lambda g: f"/play/{g.id}/guess",
        {"code1": "1", "code2": "2", "code3": "3", "confirm": "1"},
        "white_guesser",
    ),
    "api-swap-keyword": ("writing", "json", lambda g: f"/api/games/{g.id}/swap-keyword", {"number": 1}, "player"),
    "api-guess": (
        "round-1-guessing",
        "json",
        lambda g: f"/api/games/{g.id}/guess",
        {"code": [1, 2, 3], "confirm": True},
        "white_guesser",
    ),
    "api-keyword-guesses": (
        "keyword_guessing",
        "json",
        lambda g: f"/api/games/{g.id}/keyword-guesses",
        {"guesses": ["a", "b", "c", "d"]},
        "player",
    ),
    "api-with-another-sessions-token": (
        "writing",
        "json+other-token",
        lambda g: f"/api/games/{g.id}/swap-keyword",
        {"number": 1},
        "player",
    ),
    "api-with-a-forged-token": (
        "writing",
        "json+forged-token",
        lambda g: f"/api/games/{g.id}/swap-keyword",
        {"number": 1},
        "player",
    ),
    "api-json-sent-as-text-plain": (
        "writing",
        "text",
        lambda g: f"/api/games/{g.id}/swap-keyword",
        {"number": 1},
        "player",
    ),
}


CSRF_BUGS = [
    pytest.param(
        "writing",
        "form+bearer",
        lambda g: f"/play/{g.id}/swap-keyword",
        {"number": "1"},
        "player",
        id="phone-form-with-a-stray-bearer-header",
    )
]


@pytest.mark.parametrize(
    "state,how,where,payload,seat_role",
    [*(pytest.param(*attempt, id=name) for name, attempt in CSRF.items()), *CSRF_BUGS],
)
def test_a_browser_post_without_its_csrf_token_is_refused_and_changes_nothing(
    app, client, state, how, where, payload, seat_role
):
    game = in_state(client, state)
    path = where(game)
    phone = browser(app, game.id, token_of(game, seat_role) if seat_role else None)  # holds its CSRF secret
    before, games_before = log(app, game.id), count_games(app)
    if how == "form":
        answer = phone.post(path, data=payload)
    elif how == "form+bearer":
        answer = phone.post(path, data=payload, headers=bearer("whatever"))
    elif how == "text":
        answer = phone.post(path, data=json.dumps(payload), content_type="text/plain")
    else:
        header = {
            "json+other-token": {"X-CSRFToken": browser(app).csrf},
            "json+forged-token": {"X-CSRFToken": "forged-" + phone.csrf[::-1]},
        }.get(how, {})
        answer = phone.post(path, json=payload, headers=header)
    assert_refused(app, answer, 400, "csrf")
    assert log(app, game.id) == before and count_games(app) == games_before


def test_the_same_browser_post_with_its_csrf_token_goes_through(app, client):
    """The control for the test above: the refusals come from the missing token, nothing else."""
    game = in_state(client, "writing")
    phone = browser(app, game.id, game.seats["Ann"])
    answer = phone.post(f"/api/games/{game.id}/swap-keyword", json={"number": 1}, headers={"X-CSRFToken": phone.csrf})
    assert answer.status_code == 200, answer.get_json()
    phone = browser(app, game.id, game.seats["Bea"])
    swap = {
        "number": "1",
        "confirmed": "1",
        "csrf_token": phone.csrf,
    }  # (its second tap: web/pages/rendering.py CAREFUL)
    answer = phone.post(f"/play/{game.id}/swap-keyword", data=swap)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:300]
    assert [e["type"] for _, e, _ in log(app, game.id)[-2:]] == ["keyword_swapped", "keyword_swapped"]
