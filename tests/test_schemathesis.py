"""Schemathesis fuzzes the JSON API from the app's own /api/openapi.json, with real tokens.

Games are set up in every phase (lobby, round 1 and 2, a pending correction, the keyword tiebreak and
its judging, over, a timer, a three-player rematch), and every generated request carries a game id
and a bearer token: mostly a real pair of the same game, sometimes a token of another game, a removed
seat's token, a forged token or a random game id. So the fuzzing gets past the capability checks into
the rules. For every answer: no 5xx, a documented status code, content type, headers and body
(schemathesis's own checks), and a refusal's `error` is the sentence messages.REFUSALS has for its `code`.

Positive data (what the document allows, with any extra fields) and negative data (what it doesn't:
wrong types, non-objects, bodies that aren't JSON). Each operation starts from a copy of the same
set-up database, so one operation's fuzzing can't change another's games.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from dataclasses import dataclass

import hypothesis
import pytest
import schemathesis
import schemathesis.checks
from schemathesis.specs.openapi.checks import allow_header_conformance
from hypothesis import HealthCheck, strategies as st
from schemathesis import GenerationMode
from sqlalchemy import text

from companion import create_app
from companion.messages import REFUSALS
from companion.web.commands import COMMANDS
from companion.web.openapi import openapi_document
from tools.driver import ApiGame, wrong

from .api import refusal_pattern

pytestmark = pytest.mark.slow

SCHEMA_PATH = "/api/openapi.json"
# Examples per operation (FUZZ_EXAMPLES=500 for a longer hunt); negative data gets half as many.
POSITIVE_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "50"))
NEGATIVE_EXAMPLES = max(POSITIVE_EXAMPLES // 2, 1)

# The WSGI transport sends requests' default `Accept-Encoding: gzip, deflate` but, unlike requests over HTTP,
# doesn't decompress the answer (the app gzips JSON over 500 bytes): ask for it uncompressed.
IDENTITY = {"Accept-Encoding": "identity"}

CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_schema_conformance,
    schemathesis.checks.response_headers_conformance,
]


def make_app(database_url: str):
    # RATE_LIMITS: the fuzzer creates far more games a minute than a person could (rate limits have
    # their own tests). TESTING stays off: an error becomes the 500 a player would get (schemathesis
    # re-raises its exception too, traceback and all).
    # STREAM_LIFETIME_SECONDS: a stream says the view's ETag and ends at once (else each would hold its
    # call for its 10 minutes).
    return create_app(
        {
            "SECRET_KEY": "fuzz-" + uuid.uuid4().hex,
            "DATABASE_URL": database_url,
            "RATE_LIMITS": "off",
            "STREAM_LIFETIME_SECONDS": 0,
        }
    )


# --- games in every phase ----------------------------------------------------------------------


def new_game(client, settings=None, **players) -> ApiGame:
    """A game through the API, with room for the other credentials it hands out (`extra`: a seat link,
    a removed seat's token)."""
    game = ApiGame(client, settings=settings, **players)
    game.extra: dict[str, str] = {}
    return game


def set_up_games(client) -> dict[str, ApiGame]:
    games = {}

    lobby = games["lobby"] = new_game(client, white=("Ann", "Abe", "Amy"), start=False)
    lobby.command(lobby.host, "remove-player", seat=lobby.seat_of("Amy"))
    lobby.extra["removed-seat"] = lobby.seats.pop("Amy")
    link = lobby.command(lobby.host, "seat-link", seat=lobby.seat_of("Abe")).get_json()
    lobby.extra["seat-link"] = link["seat_link"]["token"]

    locked = games["locked-lobby"] = new_game(client, white=("Ann",), black=(), start=False)
    locked.command(locked.host, "lock-joining", locked=True)

    games["round-1-writing"] = new_game(client)

    guessing = games["round-1-guessing"] = new_game(client)
    guessing.announce("white")
    guessing.announce("black")
    guessing.command(guessing.guesser("white", "white"), "guess", code="1-2-3")  # a draft

    second = games["round-2-guessing"] = new_game(client)
    second.round()
    second.announce("white")
    second.announce("black")
    second.command(second.seats["Bea"], "guess", code=[1, 1, 2], confirm=True)  # a sealed interception
    handed = second.command(second.host, "seat-link", seat=second.seat_of("Bob")).get_json()
    claimed = client.post(
        f"/api/games/{second.id}/claim-seat", headers={"Authorization": f"Bearer {handed['seat_link']['token']}"}
    ).get_json()
    second.extra["handed-over-seat"] = second.seats["Bob"]
    second.seats["Bob"] = claimed["token"]

    correction = games["correction-pending"] = new_game(client)
    correction.round()
    last = correction.view(correction.host)["last_reveal"]
    correction.command(correction.host, "correction", decryption=wrong(last["code"]))
    correction.command(correction.seats["Ann"], "answer-correction", accept=True)

    for name in ("keyword-guessing", "keyword-judging"):
        tiebreak = games[name] = new_game(client)
        tiebreak.round(white=(False, False), black=(False, False))
        tiebreak.round(white=(False, False), black=(False, False))  # both miscommunicate twice: a tie
        tiebreak.command(tiebreak.seats["Ann"], "keyword-guesses", guesses=["whale", "", "moon", "x"])
        if name == "keyword-judging":
            tiebreak.command(tiebreak.seats["Bea"], "keyword-guesses", guesses=["", "", "", ""])

    over = games["over"] = new_game(client)
    over.round(black=(False, False))
    over.round(black=(False, False))

    timer = games["timer-running"] = new_game(client, {"timer": 30})
    timer.announce("white")

    three = games["three-player-rematch"] = new_game(client, {"mode": "three_player"}, black=("Ivy",))
    three.three_player_round(decrypted=False)
    three.three_player_round(decrypted=False)  # the Interceptor's second token
    three.command(three.host, "rematch")
    three.command(three.host, "start")

    for name, game in games.items():
        assert game.view(game.host)["phase"] == {
            "lobby": "lobby",
            "locked-lobby": "lobby",
            "keyword-guessing": "keyword_guessing",
            "keyword-judging": "keyword_judging",
            "over": "over",
        }.get(name, "playing"), name
    return games


# --- who asks ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Credential:
    label: str  # shown when a case fails
    kind: str  # the capability kind, or "invalid"
    game_id: str | None  # None: schemathesis makes one up
    token: str | None  # None: no token of ours (schemathesis may make one up)


def credentials(games: dict[str, ApiGame]) -> list[Credential]:
    found = []
    for name, game in games.items():
        found += [
            Credential(f"{name}/host", "host", game.id, game.tokens["host"]),
            Credential(f"{name}/spectator", "spectator", game.id, game.tokens["spectator"]),
            *[Credential(f"{name}/join-{team}", "join", game.id, game.tokens[team]) for team in ("white", "black")],
            *[Credential(f"{name}/seat-{player}", "seat", game.id, token) for player, token in game.seats.items()],
        ]
        if "seat-link" in game.extra:
            found.append(Credential(f"{name}/seat-link", "handoff", game.id, game.extra["seat-link"]))
        for stale in ("removed-seat", "handed-over-seat"):
            if stale in game.extra:
                found.append(Credential(f"{name}/{stale}", "invalid", game.id, game.extra[stale]))
    lobby, over = games["lobby"], games["over"]
    found += [
        Credential("host-of-another-game", "invalid", lobby.id, over.tokens["host"]),
        Credential("seat-of-another-game", "invalid", over.id, lobby.seats["Ann"]),
        Credential("forged-token", "invalid", lobby.id, "forged-" + "A" * 32),
        Credential("unknown-game", "invalid", "no-such-game", over.tokens["host"]),
        Credential("no-token", "invalid", over.id, None),
        Credential("made-up-game-and-token", "invalid", None, None),
    ]
    return found


# --- the checks ----------------------------------------------------------------------------------


def sentence_patterns(app) -> dict[str, re.Pattern]:
    """Each refusal code's sentences, as a pattern (its %(params)s match anything)."""
    return {code: refusal_pattern(app, code) for code in REFUSALS}


def refusal_check(patterns):
    def refusal_has_its_sentence(ctx, response, case):
        """A 4xx answer is a JSON refusal whose `error` is the sentence for its `code`."""
        if response.status_code < 400:
            return None
        body = json.loads(response.content)
        assert body["code"] in patterns, f"unknown refusal code {body['code']!r}"
        assert patterns[body["code"]].match(body["error"]), (
            f"{body['error']!r} is not the sentence for {body['code']!r}"
        )
        return None

    return refusal_has_its_sentence


# --- the fuzzing ---------------------------------------------------------------------------------


def operations():
    for path, item in openapi_document()["paths"].items():
        for method in item:
            if method != "parameters" and path != SCHEMA_PATH:
                yield path, method.upper()


def sender(path: str) -> str | None:
    """The capability kind a command needs (None: any, or none)."""
    name = path.rsplit("/", 1)[1]
    return COMMANDS[name].sender if path.startswith("/api/games/{game_id}/") and name in COMMANDS else None


def integral_floats(value):
    """The same JSON with every integer written as a float (2 as 2.0): to JSON Schema, 2.0 *is* an integer,
    so the document allows it wherever it allows 2, and Python's json reads it as a float."""
    if isinstance(value, dict):
        return {k: integral_floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [integral_floats(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53:
        return float(value)
    return value


def has_negatable_input(operation) -> bool:
    """Negative data needs something to break besides the game id and token we set: a body or a query."""
    definition = operation.definition.raw
    return "requestBody" in definition or any(p.get("in") == "query" for p in definition.get("parameters", []))


@pytest.fixture(scope="module")
def set_up_database(tmp_path_factory):
    """The games, set up once; each test fuzzes a copy (SQLite), or the same database (TEST_DATABASE_URL)."""
    shared = os.environ.get("TEST_DATABASE_URL")
    path = tmp_path_factory.mktemp("fuzz") / "games.sqlite3"
    app = make_app(shared or f"sqlite:///{path}")
    games = set_up_games(app.test_client())
    app.extensions["games"].store.engine.dispose()
    return shared, path, credentials(games)


@pytest.fixture
def fuzzed_app(set_up_database, tmp_path):
    shared, path, found = set_up_database
    if shared:
        return make_app(shared), found
    copy = tmp_path / "games.sqlite3"
    app = make_app(f"sqlite:///{path}")
    with app.extensions["games"].store.engine.connect() as conn:
        conn.execute(text("VACUUM INTO :target"), {"target": str(copy)})
    app.extensions["games"].store.engine.dispose()
    return make_app(f"sqlite:///{copy}"), found


@pytest.mark.parametrize("path,method", list(operations()), ids=[f"{m} {p}" for p, m in operations()])
def test_the_api_answers_any_request_as_documented(fuzzed_app, path, method):
    app, found = fuzzed_app
    schema = schemathesis.openapi.from_wsgi(SCHEMA_PATH, app)
    operation = schema[path][method]
    checks = [*CHECKS, refusal_check(sentence_patterns(app))]
    needs_game = "{game_id}" in path
    wanted = sender(path)
    fitting = [c for c in found if c.kind == wanted] if wanted else [c for c in found if c.kind != "invalid"]
    strategies = {}

    def cases_for(credential, mode):
        """Cases for one caller (cached: building a strategy from the schema is the slow part)."""
        if (credential, mode) not in strategies:
            path_parameters = {"game_id": credential.game_id} if needs_game and credential.game_id else None
            headers = {"Authorization": f"Bearer {credential.token}"} if needs_game and credential.token else None
            strategies[credential, mode] = operation.as_strategy(mode, path_parameters=path_parameters, headers=headers)
        return strategies[credential, mode]

    def run(mode, examples):
        # Three cases in four come from a caller of the kind the operation needs, the rest from anyone.
        callers = (
            st.one_of(
                st.sampled_from(fitting), st.sampled_from(fitting), st.sampled_from(fitting), st.sampled_from(found)
            )
            if needs_game
            else st.just(found[0])
        )

        @hypothesis.settings(
            max_examples=examples,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
            print_blob=False,
        )
        @hypothesis.given(data=st.data())
        def fuzz(data):
            credential = data.draw(callers, label="caller")
            case = data.draw(cases_for(credential, mode), label="case")
            hypothesis.note(f"caller: {credential.label}")
            if isinstance(case.body, (dict, list)) and data.draw(st.booleans(), label="integers as 2.0"):
                case.body = integral_floats(case.body)
            case.call_and_validate(checks=checks, headers=IDENTITY)

        fuzz()

    run(GenerationMode.POSITIVE, POSITIVE_EXAMPLES)
    if has_negatable_input(operation):
        run(GenerationMode.NEGATIVE, NEGATIVE_EXAMPLES)


def test_every_operations_allow_header_lists_its_documented_methods(tmp_path):
    """schemathesis's ST205 (`allow_header_conformance`): an OPTIONS request's `Allow` lists exactly the
    methods the document declares at that path (the stream and the summary listed a POST they refuse)."""
    app = make_app(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    schema = schemathesis.openapi.from_wsgi(SCHEMA_PATH, app)
    game_id = ApiGame(app.test_client(), start=False).id
    checked = set()
    for path, method in operations():
        if path in checked:
            continue
        checked.add(path)
        case = schema[path][method].Case(path_parameters={"game_id": game_id} if "{game_id}" in path else None)
        case.method = "OPTIONS"
        case.validate_response(case.call(), checks=[allow_header_conformance])
    assert "/api/games/{game_id}/stream" in checked and "/api/games/{game_id}/summary" in checked
