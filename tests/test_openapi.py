"""The OpenAPI document (companion/web/openapi.py): valid OpenAPI 3.1, describing every API route, and
true to what the API really answers in real games (every answer is checked against its documented schema).
The answers' schemas are generated from companion/view_types.py (web/openapi_views.py)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from companion.messages import REASONS, TASKS
from companion.rules.host import PHONE_IN_USE_SECONDS
from companion.rules.events import BY_TYPE, EVENTS, NOTICES
from companion.rules.access import HOST, SPECTATOR, Who
from companion.views import view_for
from companion.web.commands import COMMANDS
from companion.rules.guards import SENDER_REFUSALS
from companion.web.openapi import openapi_document

from .api import browser, table_path
from .examples import play

ROOT = Path(__file__).resolve().parent.parent
DOC = openapi_document()
SAMPLE = {"game_id": "someGame", "command": "start"}


# --- OpenAPI 3.1 schemas as JSON Schema -------------------------------------------------------


def json_schema(schema):
    """An OpenAPI 3.1 schema object as a standalone JSON Schema 2020-12: component references point into
    $defs (OpenAPI's `discriminator` is an annotation a JSON Schema validator ignores)."""
    if isinstance(schema, list):
        return [json_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        key: value.replace("#/components/schemas/", "#/$defs/") if key == "$ref" else json_schema(value)
        for key, value in schema.items()
    }


DEFS = {name: json_schema(s) for name, s in DOC["components"]["schemas"].items()}


def check(instance, schema) -> None:
    """Fail with every error if `instance` doesn't match the (OpenAPI) `schema`."""
    validator = Draft202012Validator({**json_schema(schema), "$defs": DEFS})
    errors = [
        f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in validator.iter_errors(instance)
    ]
    assert not errors, "\n".join(errors[:20])


def operation(path: str, method: str) -> dict:
    """The documented operation answering `method path` (path templates match one segment each)."""
    path = path.split("?", maxsplit=1)[0]
    for template, item in DOC["paths"].items():
        if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", template), path) and method in item:
            return item[method]
    raise AssertionError(f"{method.upper()} {path} is not documented")


def openapi_path(rule: str) -> str:
    return re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule)


# --- the document itself --------------------------------------------------------------------


def test_the_document_is_valid_openapi_3():
    validate(DOC)
    assert DOC["openapi"] == "3.1.0"


def test_every_answer_object_is_closed_and_its_fields_required():
    """Generated from companion/view_types.py: no object allows fields it doesn't declare, and only the
    documented ones (a take-back's `by`, a transmission of Black's, a start problem's details) are optional."""
    optional = set()

    def walk(schema, where):
        if isinstance(schema, list):
            for s in schema:
                walk(s, where)
        elif isinstance(schema, dict):
            if schema.get("type") == "object":
                assert schema.get("additionalProperties") is False, where
                optional.update(f"{where}.{f}" for f in set(schema["properties"]) - set(schema.get("required", ())))
            for key, value in schema.items():
                walk(value, f"{where}.{key}" if key not in ("properties", "anyOf", "oneOf", "items") else where)

    for name, schema in DOC["components"]["schemas"].items():
        walk(schema, name)
    assert optional == {
        "TakeBack.by",
        "Transmissions.black",
        *(f"StartProblemParams.{f}" for f in ("team", "min", "max", "white", "black", "players", "interceptors")),
    }


@pytest.mark.system
def test_the_poll_path_never_loads_pydantic(tmp_path):
    """The view's types are annotations only: building views and serving polls imports no pydantic (it
    is loaded, once, when the OpenAPI document is first asked for)."""
    script = (
        "import sys\n"
        "from companion import create_app\n"
        "from companion.views import SPECTATOR, view_for\n"
        "from tools.driver import Table\n"
        "app = create_app({'DATABASE_URL': sys.argv[1], 'SECRET_KEY': 'x'})\n"
        "client = app.test_client()\n"
        "game = client.post('/api/games', json={}).get_json()\n"
        "assert client.get('/api/games/' + game['game_id'], headers={'Authorization': 'Bearer '\n"
        "                  + game['tokens']['host']}).status_code == 200\n"
        "view_for(Table().game, SPECTATOR)\n"
        "assert 'pydantic' not in sys.modules, 'pydantic loaded before the document was asked for'\n"
        "assert client.get('/api/openapi.json').status_code == 200\n"
        "assert 'pydantic' in sys.modules\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script, f"sqlite:///{tmp_path / 'game.sqlite3'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]


def test_the_document_is_served(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    assert response.get_json() == DOC


def test_every_api_route_is_documented(app):
    documented = set()
    for rule in app.url_map.iter_rules():
        if not (rule.rule.startswith("/api/") or rule.rule == "/healthz"):
            continue
        path = openapi_path(rule.rule)
        paths = [path.replace("{command}", name) for name in COMMANDS] if "{command}" in path else [path]
        for p in paths:
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                assert method.lower() in DOC["paths"].get(p, {}), f"{method} {p} is not documented"
                documented.add((p, method.lower()))
    described = {(p, m) for p, item in DOC["paths"].items() for m in item if m != "parameters"}
    assert described == documented, "documented operations that the app doesn't have"


def test_every_documented_path_reaches_its_route(app):
    adapter = app.url_map.bind("localhost")
    for template, item in DOC["paths"].items():
        path = re.sub(r"\{([^}]+)\}", lambda m: SAMPLE[m.group(1)], template)
        for method in (m for m in item if m != "parameters"):
            endpoint, args = adapter.match(path, method.upper())
            if "command" in args:
                assert args["command"] in COMMANDS


def test_examples_match_their_schemas():
    for item in DOC["paths"].values():
        for method, op in item.items():
            if method == "parameters":
                continue
            content = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            if "example" in content:
                check(content["example"], content["schema"])


def test_every_command_is_described_from_its_definition():
    """Each command's body has exactly its fields; the wrong kind of token, and a pending correction
    where the rules check it, are documented refusals."""
    for name, declared in COMMANDS.items():
        op = DOC["paths"][f"/api/games/{{game_id}}/{name}"]["post"]
        body = op["requestBody"]["content"]["application/json"]["schema"]
        assert set(body["properties"]) == {f.name for f in (*declared.fields, *declared.targets)}, name
        assert set(body.get("required", ())) == {f.name for f in declared.fields if f.required}, name
        assert not any(f.required for f in declared.targets), name  # targets are always optional
        codes = {
            c
            for status, r in op["responses"].items()
            if status != "200"
            for c in r["content"]["application/json"]["schema"]["allOf"][1]["properties"]["code"]["enum"]
        }
        assert SENDER_REFUSALS[declared.sender] in codes, name
        assert ("correction_pending" in codes) == (not declared.during_correction), name
        assert "stale" in codes, name


def test_enumerations_come_from_the_code():
    schemas = DOC["components"]["schemas"]
    assert schemas["You"]["properties"]["task"]["enum"] == list(TASKS)
    assert schemas["Result"]["properties"]["reason"]["enum"] == list(REASONS)
    documented = {
        schemas[name]["properties"]["kind"]["const"]: (name, schemas[name]["required"])
        for name in (notice["$ref"].split("/")[-1] for notice in schemas["Notice"]["oneOf"])
    }
    assert documented == {
        kind: (BY_TYPE[kind].__name__, ["round", "kind", *notice.fields]) for kind, notice in NOTICES.items()
    }
    operation_ids = [op["operationId"] for item in DOC["paths"].values() for m, op in item.items() if m != "parameters"]
    assert len(operation_ids) == len(set(operation_ids))


@pytest.mark.parametrize("event", [e for e in EVENTS if e.NOTICE], ids=lambda e: e.TYPE)
def test_every_notice_matches_the_document(event):
    """Each event's example (tests/examples.py), as every screen's view shows its line of the log."""
    table = play(event)
    viewers = [HOST, SPECTATOR, *(Who("seat", team=p.team, seat=p.seat) for p in table.game.players)]
    for viewer in viewers:
        view = json.loads(json.dumps(view_for(table.game, viewer, now=0.0)))
        assert event.TYPE in {n["kind"] for n in view["notices"]}
        check(view, DOC["components"]["schemas"]["View"])


# --- real answers ---------------------------------------------------------------------------


class Api:
    """The test client, checking every request body and answer against the document."""

    def __init__(self, client):
        self.client = client

    def _check(self, method, path, response, body=None):
        op = operation(path, method)
        if body is not None:
            check(body, op["requestBody"]["content"]["application/json"]["schema"])
        status = str(response.status_code)
        assert status in op["responses"], (
            f"{method.upper()} {path} answered an undocumented {status}: {response.get_data(as_text=True)}"
        )
        documented = op["responses"][status]
        if "content" in documented:
            check(response.get_json(), documented["content"]["application/json"]["schema"])
        else:
            assert not response.data
        return response

    def get(self, path, token=None, **headers):
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self._check("get", path, self.client.get(path, headers=headers))

    def post(self, path, token=None, body=None, expect=200, valid_body=True):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self._check(
            "post", path, self.client.post(path, json=body, headers=headers), body if valid_body else None
        )
        assert response.status_code == expect, response.get_json()
        return response.get_json()

    def refused(self, path, token, body, status, code):
        answer = self.post(path, token, body, expect=status, valid_body=False)
        assert answer["code"] == code
        return answer


STANDARD_PLAYERS = (("white", "Ann"), ("black", "Bea"), ("white", "Abe"), ("black", "Bob"))
THREE_PLAYERS = (("white", "Ann"), ("white", "Abe"), ("black", "Ivy"))


class Game:
    """A game played through the API; every viewer's view is checked after each move."""

    def __init__(self, api: Api, body=None):
        self.api = api
        created = api.post("/api/games", body={"language": "en"} if body is None else body, expect=201)
        self.id = created["game_id"]
        self.path = f"/api/games/{self.id}"
        self.host = created["tokens"]["host"]
        self.tokens = created["tokens"]
        self.seats: dict[int, str] = {}
        self.others: list[str] = []  # more tokens whose views are checked too (seat links)

    def join(self, team, name) -> int:
        joined = self.api.post(f"{self.path}/join", self.tokens[team], {"name": name})
        self.seats[joined["seat"]] = joined["token"]
        self.views()
        return joined["seat"]

    def join_all(self, players=STANDARD_PLAYERS):
        for team, name in players:
            self.join(team, name)

    def views(self) -> dict:
        """Every viewer's view (host, spectator, join tokens, seats...), checked; returns the host's."""
        for token in [*self.tokens.values(), *self.seats.values(), *self.others]:
            assert self.api.get(self.path, token).status_code == 200
        return self.view(self.host)

    def view(self, token) -> dict:
        return self.api.get(self.path, token).get_json()

    def do(self, command, token, body=None) -> dict:
        answer = self.api.post(f"{self.path}/{command}", token, body)
        self.views()
        return answer

    def summary(self, token=None, match=None, expect=200) -> dict:
        path = f"{self.path}/summary" + (f"?match={match}" if match is not None else "")
        response = self.api.get(path, token or self.host)
        assert response.status_code == expect, response.get_json()
        return response.get_json()

    def encryptor(self, team) -> str:
        return self.seats[self.view(self.host)["rounds"][-1]["transmissions"][team]["encryptor"]]

    def guesser(self, team) -> str:
        players = self.view(self.host)["teams"][team]["players"]
        return self.seats[next(p["seat"] for p in players if not p["encryptor"])]

    def code(self, team) -> list[int]:
        return self.view(self.encryptor(team))["you"]["code"]

    def announce(self, round_number, teams=None):
        for team in teams or self.view(self.host)["transmitting"]:
            self.do("clues", self.encryptor(team), {"clues": [f"{team[0]}{round_number}{c}" for c in "abc"]})

    def guess(self, team, code, confirm=True) -> dict:
        return self.do("guess", self.guesser(team), {"code": code, "confirm": confirm})


WRONG = [1, 1, 1]  # never a code: codes have three different digits


def test_a_game_to_its_end_matches_the_document(client):
    api = Api(client)
    game = Game(api)
    api.refused(f"{game.path}/start", game.host, None, 409, "team_size")
    game.join_all()
    api.refused(f"{game.path}/join", game.tokens["white"], {"name": "Ann"}, 409, "name_taken")
    api.refused(f"{game.path}/start", game.seats[1], None, 403, "host_only")
    assert game.do("start", game.host)["events"] == ["game_started", "round_started"]
    api.refused(f"{game.path}/join", game.tokens["white"], {"name": "Cy"}, 409, "too_late_to_join")

    for round_number in (1, 2):
        white_code = game.view(game.encryptor("white"))["you"]["code"]
        api.refused(f"{game.path}/clues", game.encryptor("white"), {"clues": ["x"]}, 400, "three_clues")
        api.refused(f"{game.path}/guess", game.guesser("white"), {"code": WRONG}, 409, "clues_not_announced")
        game.announce(round_number)
        api.refused(f"{game.path}/guess", game.encryptor("white"), {"code": WRONG}, 403, "encryptor_cannot_guess")
        api.refused(f"{game.path}/guess", game.guesser("white"), {"code": [5, 1, 2]}, 400, "guess_malformed")
        if round_number == 1:
            api.refused(f"{game.path}/guess", game.guesser("black"), {"code": WRONG}, 409, "no_interception_round_one")
            game.guess("white", "1-2-3", confirm=False)
        else:
            game.guess("black", WRONG)  # Black fails to intercept White
        game.guess("white", white_code)  # White decrypts
        if round_number == 2:
            game.guess("white", WRONG)  # White fails to intercept Black
        last = game.guess("black", WRONG)  # Black misreads its own Encryptor
    assert last["events"] == ["guess_saved", "transmission_resolved", "game_ended"]

    final = game.views()
    assert final["phase"] == "over"
    assert final["result"]["winners"] == ["white"] and final["result"]["reason"] == "miscommunications"
    api.refused(f"{game.path}/clues", game.seats[1], {"clues": ["a", "b", "c"]}, 409, "game_over")


def test_a_tiebreak_matches_the_document(client):
    api = Api(client)
    game = Game(api)
    game.join_all()
    game.do("start", game.host)
    for round_number in (1, 2):
        game.announce(round_number)
        if round_number == 2:
            game.guess("black", WRONG)
        game.guess("white", WRONG)
        if round_number == 2:
            game.guess("white", WRONG)
        last = game.guess("black", WRONG)
    assert last["events"][-1] == "tiebreak_started"
    api.refused(f"{game.path}/verdicts", game.host, {"verdicts": {}}, 409, "tiebreak_in_progress")
    api.refused(f"{game.path}/keyword-guesses", game.seats[1], {"guesses": ["a"]}, 400, "four_keyword_guesses")

    black_keywords = game.view(game.seats[2])["teams"]["black"]["keywords"]
    game.do("keyword-guesses", game.seats[1], {"guesses": black_keywords})
    api.refused(
        f"{game.path}/keyword-guesses", game.seats[3], {"guesses": ["", "", "", ""]}, 409, "keyword_guesses_sealed"
    )
    game.do("keyword-guesses", game.seats[2], {"guesses": ["", "", "", ""]})

    proposal = game.views()["tiebreak"]["proposal"]
    api.refused(f"{game.path}/verdicts", game.host, {"verdicts": {"white": [True]}}, 400, "verdicts_malformed")
    api.refused(f"{game.path}/verdicts", game.seats[1], {"verdicts": proposal}, 403, "host_only")
    assert game.do("verdicts", game.host, {"verdicts": proposal})["events"] == ["keywords_judged", "game_ended"]
    result = game.views()["result"]
    assert result["winners"] == ["white"] and result["reason"] == "keywords" and result["cause"] == "collision"


def test_polling_and_refusals_match_the_document(client):
    api = Api(client)
    game = Game(api)
    other = Game(api)

    first = api.get(game.path, game.host)
    etag = first.headers["ETag"]
    assert etag.startswith('W/"')
    unchanged = api.get(game.path, game.host, **{"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.headers["ETag"] == etag
    game.join_all()
    assert api.get(game.path, game.host, **{"If-None-Match": etag}).status_code == 200

    assert api.get(game.path).get_json()["code"] == "not_seated"
    assert api.get(game.path, "not-a-token").get_json()["code"] == "no_capability"
    assert api.get(game.path, other.host).get_json()["code"] == "wrong_game"
    api.refused(f"{game.path}/join", game.host, {"name": "Cy"}, 403, "join_link_only")
    api.refused(f"{game.path}/clues", game.host, {"clues": ["a", "b", "c"]}, 403, "players_only")
    api.refused(f"{game.path}/start", game.host, ["not", "an", "object"], 400, "malformed_body")
    api.refused(f"{other.path}/clues", other.tokens["white"], None, 403, "players_only")

    response = client.post(
        f"{game.path}/start",
        data="{",
        content_type="application/json",
        headers={"Authorization": f"Bearer {game.host}"},
    )
    api._check("post", f"{game.path}/start", response)
    assert response.status_code == 400 and response.get_json()["code"] == "malformed_body"

    assert api.get("/healthz").get_json() == {"status": "ok"}


def test_a_lobby_that_cant_start_matches_the_document(client):
    api = Api(client)
    game = Game(api)
    for team, name in (
        ("white", "Ann"),
        ("white", "Abe"),
        ("white", "Amy"),
        ("white", "Al"),
        ("black", "Bea"),
        ("black", "Bob"),
    ):
        game.do("join", game.tokens[team], {"name": name})
    api.refused(f"{game.path}/join", game.tokens["white"], {"name": "Ava"}, 409, "team_full")
    api.refused(f"{game.path}/join", game.tokens["black"], {"name": "B"}, 400, "name_length")
    api.refused(f"{game.path}/start", game.host, None, 409, "teams_uneven")


@pytest.mark.parametrize("body", [None, {}, {"language": "en"}])
def test_creating_a_game_matches_the_document(client, body):
    Api(client).post("/api/games", body=body, expect=201)


@pytest.mark.parametrize(
    "body",
    [
        {"language": "en", "mode": "standard", "timer": None},
        {"mode": "three_player", "timer": 30},
        {"timer": 600, "words": "apple, pear\nplum\ncherry\nlemon, lime\nfig\ndate\nkiwi\npeach, grape, mango"},
    ],
)
def test_creating_a_game_with_settings_matches_the_document(client, body):
    api = Api(client)
    game = Game(api, body)
    view = game.view(game.host)
    assert view["mode"] == body.get("mode", "standard")
    assert view["max_rounds"] == (5 if view["mode"] == "three_player" else 8)
    assert view["transmitting"] == (["white"] if view["mode"] == "three_player" else ["white", "black"])


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"language": "xx"}, 400, "unknown_language"),
        ({"mode": "solo"}, 400, "unknown_mode"),
        ({"timer": 5}, 400, "timer_length"),
        ({"timer": True}, 400, "timer_length"),
        ({"words": 42}, 400, "words_malformed"),
        ({"words": "apple, pear, apples"}, 400, "too_few_words"),
        ({"words": "apple\npear\u0007"}, 400, "text_has_control_characters"),
    ],
)
def test_refused_settings_match_the_document(client, body, status, code):
    Api(client).refused("/api/games", None, body, status, code)


def test_a_three_player_game_matches_the_document(client):
    api = Api(client)
    game = Game(api, {"mode": "three_player"})
    api.refused(f"{game.path}/start", game.host, None, 409, "three_player_seats")
    game.join_all(THREE_PLAYERS[:2])
    assert game.view(game.host)["start_problem"] == {
        "code": "three_player_seats",
        "params": {"players": 2, "interceptors": 0},
    }
    game.join(*THREE_PLAYERS[2])
    assert game.view(game.host)["start_problem"] is None
    api.refused(f"{game.path}/join", game.tokens["black"], {"name": "Bo"}, 409, "team_full")
    game.do("start", game.host)
    interceptor = game.seats[3]

    for round_number in range(1, 6):
        view = game.view(game.host)
        assert view["round"] == round_number and view["timer"] is None
        assert view["host"]["skippable"] == ["white"]
        game.announce(round_number)
        if round_number > 1:
            game.do("guess", interceptor, {"code": WRONG, "confirm": True})
        last = game.guess("white", game.code("white"))
        reveal = game.view(interceptor)["last_reveal"]
        assert reveal["round"] == round_number and reveal["awards"] == []
    assert last["events"][-1] == "game_ended"

    for token in [game.host, *game.seats.values()]:
        view = game.view(token)
        assert view["phase"] == "over" and view["max_rounds"] == 5
        assert view["teams"]["black"]["keywords"] is None
        assert all(set(r["transmissions"]) == {"white"} for r in view["rounds"])
    assert view["result"]["winners"] == ["white"] and view["result"]["reason"] == "team_survived"
    summary = game.summary(interceptor)
    assert summary["mode"] == "three_player" and summary["match"] == 1


def test_the_interceptor_winning_matches_the_document(client):
    api = Api(client)
    game = Game(api, {"mode": "three_player"})
    game.join_all(THREE_PLAYERS)
    game.do("start", game.host)
    interceptor = game.seats[3]
    assert game.view(interceptor)["you"]["task"] == "wait_for_encryptor"

    game.announce(1)
    assert game.view(interceptor)["you"]["task"] == "no_interception_yet"
    game.guess("white", WRONG)  # a miscommunication: a token for the Interceptor
    reveal = game.view(game.host)["last_reveal"]
    assert reveal["awards"] == [{"team": "black", "token": "interceptions"}]

    game.announce(2)
    code = game.code("white")
    game.do("guess", interceptor, {"code": code, "confirm": True})
    last = game.guess("white", code)
    assert last["events"][-1] == "game_ended"
    result = game.views()["result"]
    assert result["winners"] == ["black"] and result["reason"] == "interceptor_tokens"
    assert result["standings"]["black"]["interceptions"] == 2


def test_a_timer_game_matches_the_document(client):
    clock = [1000.0]
    client.application.extensions["games"].clock = lambda: clock[0]
    api = Api(client)
    game = Game(api, {"timer": 30})
    game.join_all()
    game.do("start", game.host)
    assert game.view(game.host)["timer"] is None

    game.announce(1, ["white"])
    black_encryptor = game.view(game.host)["rounds"][0]["transmissions"]["black"]["encryptor"]
    expected = {
        "seconds": 30,
        "late_team": "black",
        "late_seat": black_encryptor,
        "remaining": 30,
        "ends_at": 1030.0,
        "paused": False,
        "up": False,
    }
    for token in [game.host, game.tokens["spectator"], *game.seats.values()]:
        assert game.view(token)["timer"] == expected
    clock[0] = 1012.5
    assert game.view(game.host)["timer"]["remaining"] == 17.5

    # Paused at 1012.5 for 20 seconds: frozen meanwhile, then it ends 20 seconds later than it would have.
    target = {"match": 1, "round": 1, "team": "black"}
    assert game.do("pause-timer", game.host, target)["events"] == ["timer_paused"]
    clock[0] = 1032.5
    paused = {**expected, "remaining": 17.5, "ends_at": None, "paused": True}
    for token in [game.host, game.tokens["spectator"], *game.seats.values()]:
        assert game.view(token)["timer"] == paused
    api.refused(f"{game.path}/pause-timer", game.host, {}, 409, "timer_not_running")
    api.refused(f"{game.path}/pause-timer", game.host, target, 409, "stale")
    assert game.do("resume-timer", game.host, target)["events"] == ["timer_resumed"]
    api.refused(f"{game.path}/resume-timer", game.host, {}, 409, "timer_not_paused")
    api.refused(f"{game.path}/resume-timer", game.seats[1], target, 403, "host_only")
    assert game.view(game.host)["timer"] == {**expected, "remaining": 17.5, "ends_at": 1050.0}
    assert [(n["kind"], n["remaining"], n["at"]) for n in game.views()["notices"]] == [
        ("timer_paused", 17.5, 1012.5),
        ("timer_resumed", 17.5, 1032.5),
    ]
    clock[0] = 1100
    game.views()
    assert game.view(game.host)["timer"] == {**expected, "ends_at": 1050.0, "remaining": 0, "up": True}
    api.refused(f"{game.path}/pause-timer", game.host, target, 409, "timer_not_running")
    game.announce(1, ["black"])
    assert game.views()["timer"] is None


def test_host_corrections_match_the_document(client):
    api = Api(client)
    game = Game(api)
    game.join_all()
    host = game.host
    assert game.view(host)["host"] == {"take_back": None, "skippable": [], "correctable": None}
    assert game.view(game.tokens["spectator"])["host"] is None

    # The lobby: locking joining, moving and removing a player.
    game.do("lock-joining", host, {"locked": True})
    assert game.view(host)["joining_locked"] is True
    api.refused(f"{game.path}/join", game.tokens["white"], {"name": "Cy"}, 409, "joining_locked")
    api.refused(f"{game.path}/lock-joining", host, {"locked": True}, 409, "already_locked")
    api.refused(f"{game.path}/lock-joining", host, {"locked": "yes"}, 400, "locked_malformed")
    api.refused(f"{game.path}/lock-joining", game.seats[1], {"locked": False}, 403, "host_only")
    game.do("lock-joining", host, {"locked": False})
    cy = game.join("white", "Cy")
    game.do("move-player", host, {"seat": cy})
    assert [p["name"] for p in game.view(host)["teams"]["black"]["players"]] == ["Bea", "Bob", "Cy"]
    api.refused(f"{game.path}/move-player", host, {"seat": 99}, 400, "no_such_player")
    api.post(f"{game.path}/remove-player", host, {"seat": cy})
    api.refused(f"{game.path}/clues", game.seats.pop(cy), {"clues": ["a", "b", "c"]}, 403, "no_capability")
    game.views()

    # A new phone for seat 1, through a seat link.
    game.do("seat-link", host, {"seat": 1})
    link = client.application.extensions["games"].seat_links(game.id)[1]
    assert game.view(link)["viewer"] == {"role": "handoff", "team": None, "seat": None, "name": None}
    api.refused(f"{game.path}/claim-seat", host, None, 403, "seat_link_only")
    claimed = api.post(f"{game.path}/claim-seat", link)
    assert claimed["seat"] == 1 and claimed["events"] == ["seat_claim_waiting"]  # a teammate lets it in
    assert api.get(game.path, claimed["token"]).get_json()["code"] == "seat_waiting"
    white = [p["seat"] for p in game.view(host)["teams"]["white"]["players"]]
    teammate = next(s for s in white if s != 1)
    assert game.view(game.seats[teammate])["you"]["waiting_phones"] == [1]
    assert api.post(f"{game.path}/let-in", game.seats[teammate], {"seat": 1})["events"] == ["seat_handed"]
    old, game.seats[1] = game.seats[1], claimed["token"]
    game.views()
    assert api.get(game.path, old).get_json()["code"] == "no_capability"
    api.refused(f"{game.path}/claim-seat", link, None, 403, "no_capability")
    game.do("seat-link", host, {"seat": 2})
    link = client.application.extensions["games"].seat_links(game.id)[2]
    game.do("cancel-seat-link", host, {"seat": 2})
    assert api.get(game.path, link).get_json()["code"] == "no_capability"
    api.refused(f"{game.path}/cancel-seat-link", host, {"seat": 2}, 409, "no_seat_link")
    api.refused(f"{game.path}/cancel-seat-link", host, {"seat": 99}, 400, "no_such_player")
    game.summary(expect=409)

    # Round 1: a keyword swap, a skipped Encryptor, clues taken back.
    game.do("start", host)
    assert game.view(host)["host"] == {"take_back": None, "skippable": ["white", "black"], "correctable": None}
    assert game.view(game.seats[1])["you"]["can_swap"] is True
    api.refused(f"{game.path}/swap-keyword", game.seats[1], {"number": 5}, 400, "keyword_number")
    game.do("swap-keyword", game.seats[1], {"number": 2})
    assert game.view(game.seats[3])["you"]["can_swap"] is False
    api.refused(f"{game.path}/swap-keyword", game.seats[3], {"number": 1}, 409, "already_swapped")
    api.refused(f"{game.path}/skip-encryptor", host, {"team": "green"}, 400, "no_such_team")
    skipped = game.view(host)["rounds"][0]["transmissions"]["white"]["encryptor"]
    game.do("skip-encryptor", host, {"team": "white"})
    assert game.view(host)["rounds"][0]["transmissions"]["white"]["encryptor"] != skipped
    api.refused(f"{game.path}/take-back", host, None, 409, "nothing_to_take_back")
    game.announce(1)
    assert game.view(host)["host"]["take_back"] == {"entry": "clues", "round": 1, "transmission": "black"}
    assert game.do("take-back", host)["events"] == ["entry_taken_back"]
    game.do("clues", game.encryptor("black"), {"clues": ["x1", "y1", "z1"]})
    api.refused(f"{game.path}/correction", host, {"decryption": WRONG}, 409, "nothing_to_correct")
    white_code = game.code("white")
    game.guess("white", white_code)

    # A correction of White's reveal: rejected, withdrawn, then accepted by both sides.
    assert game.view(host)["host"]["correctable"] == {"round": 1, "team": "white"}
    api.refused(f"{game.path}/correction", host, {"decryption": white_code}, 409, "correction_changes_nothing")
    api.refused(f"{game.path}/correction", host, {"decryption": "12"}, 400, "guess_malformed")
    game.do("correction", host, {"decryption": WRONG, "interception": None})
    view = game.view(host)
    assert view["correction"] == {
        "id": 1,
        "round": 1,
        "team": "white",
        "code": white_code,
        "before": {"decryption": white_code, "interception": None},
        "after": {"decryption": WRONG, "interception": None},
        "confirmed": [],
    }
    assert view["host"] == {"take_back": None, "skippable": [], "correctable": None}
    assert game.view(game.seats[2])["you"]["task"] == "answer_correction"
    api.refused(f"{game.path}/guess", game.guesser("black"), {"code": WRONG}, 409, "correction_pending")
    api.refused(f"{game.path}/answer-correction", game.seats[1], {"accept": "maybe"}, 400, "accept_malformed")
    game.do("answer-correction", game.seats[1], {"accept": True})
    assert game.view(game.seats[3])["you"]["task"] == "wait_for_correction"
    assert game.view(host)["correction"]["confirmed"] == ["white"]
    api.refused(f"{game.path}/answer-correction", game.seats[3], {"accept": True}, 409, "correction_already_confirmed")
    game.do("answer-correction", game.seats[2], {"accept": False})
    api.refused(f"{game.path}/answer-correction", game.seats[2], {"accept": True}, 409, "no_correction")
    api.refused(f"{game.path}/withdraw-correction", host, None, 409, "no_correction")
    game.do("correction", host, {"decryption": WRONG})
    game.do("withdraw-correction", host)
    game.do("correction", host, {"decryption": WRONG})
    assert game.view(host)["correction"]["id"] == 3
    game.do("answer-correction", game.seats[2], {"accept": True})
    assert game.do("answer-correction", game.seats[1], {"accept": True})["events"] == [
        "correction_answered",
        "reveal_corrected",
    ]
    view = game.view(host)
    assert view["correction"] is None and view["teams"]["white"]["tokens"]["miscommunications"] == 1
    assert view["last_reveal"]["awards"] == [{"team": "white", "token": "miscommunications"}]
    game.guess("black", game.code("black"))

    # Round 2: a sealed interception taken back; White misreads a second time and loses.
    game.announce(2)
    game.guess("black", WRONG)
    assert game.view(host)["host"]["take_back"] == {
        "entry": "guess",
        "round": 2,
        "transmission": "white",
        "by": "black",
    }
    game.do("take-back", host)
    game.guess("black", WRONG)
    game.guess("white", WRONG)
    game.guess("white", WRONG)
    assert game.guess("black", game.code("black"))["events"][-1] == "game_ended"
    over = game.views()
    assert over["result"]["winners"] == ["black"] and over["result"]["reason"] == "miscommunications"

    # A correction after the end: the round's end is judged again.
    assert over["host"]["correctable"] == {"round": 2, "team": "black"}
    game.do("correction", host, {"decryption": WRONG, "interception": "4-4-4"})
    game.do("answer-correction", game.seats[1], {"accept": True})
    assert game.do("answer-correction", game.seats[2], {"accept": True})["events"] == [
        "correction_answered",
        "round_reopened",
        "reveal_corrected",
        "game_ended",
    ]
    over = game.views()
    # A seat claimed at once: no phone of its team was in use for a while, so nobody was there to let it in; a
    # teammate acknowledges it. Then the table screen moves to another device (through its page).
    service = client.application.extensions["games"]
    now = [service.clock()]
    service.clock = lambda: now[0]
    lone = Game(api)
    seat, mate = lone.join("white", "Ann"), lone.join("white", "Abe")
    lone.do("seat-link", lone.host, {"seat": seat})
    assert lone.view(lone.seats[mate])["you"]["seat_links"] == [{"seat": seat, "at": now[0]}]
    now[0] += PHONE_IN_USE_SECONDS + 1
    claimed = api.post(f"{lone.path}/claim-seat", service.seat_links(lone.id)[seat])
    assert claimed["events"] == ["seat_claimed"]
    lone.seats[seat] = claimed["token"]
    assert lone.views()["unattended"] == [{"seat": seat, "team": "white", "at": now[0]}]
    api.refused(f"{lone.path}/acknowledge-claim", lone.seats[seat], {"seat": seat}, 403, "teammates_acknowledge")
    lone.do("acknowledge-claim", lone.seats[mate], {"seat": seat})
    lone.do("seat-link", lone.host, {"seat": mate})
    lone.do("reject-seat-link", lone.seats[mate], {"seat": mate})
    table = browser(client.application)
    address = table_path(table, lone.host)
    for form in ({}, {"cancel": "1"}, {}):
        assert table.post(f"{address}/move", data={**form, "csrf_token": table.csrf}).status_code == 303
    move = re.search(r'href="https?://[^/"]+(/move/[\w-]+)"', table.get(address).get_data(as_text=True)).group(1)
    other = browser(client.application)
    assert other.post(move, data={"csrf_token": other.csrf}).status_code == 303
    assert api.get(lone.path, lone.host).get_json()["code"] == "table_moved"
    api.refused(f"{lone.path}/lock-joining", lone.host, {"locked": True}, 403, "table_moved")
    lone.host = lone.tokens["host"] = service.shared_tokens(lone.id)["host"]
    assert over["result"]["standings"]["black"]["miscommunications"] == 1

    # Summaries, and a rematch.
    for token in (host, game.tokens["spectator"], game.tokens["white"], game.seats[4]):
        summary = game.summary(token)
        assert summary["match"] == 1 and summary["viewer"]["role"] == "spectator"
        assert summary["teams"]["white"]["keywords"] and summary["teams"]["black"]["keywords"]
    assert game.summary(match=1) == summary
    game.summary(match=2, expect=409)
    assert game.do("rematch", host)["events"] == ["rematch_started"]
    view = game.view(host)
    assert view["match"] == 2 and view["notices"] == [] and view["phase"] == "lobby"
    assert game.summary()["match"] == 1
    game.summary(match=2, expect=409)
    api.refused(f"{game.path}/rematch", host, None, 409, "game_not_started")

    # The rematch's lobby: a player switches team, the host shuffles and sets the sand timer, then starts.
    assert game.do("switch-team", game.seats[1])["events"] == ["player_moved"]
    api.refused(f"{game.path}/switch-team", host, None, 403, "players_only")
    assert game.do("shuffle-teams", host)["events"] == ["teams_shuffled"]
    api.refused(f"{game.path}/shuffle-teams", game.seats[1], None, 403, "host_only")
    assert game.do("set-timer", host, {"timer": 45})["events"] == ["timer_set"]
    assert game.view(host)["timer_seconds"] == 45
    game.do("set-timer", host, {"timer": None})
    api.refused(f"{game.path}/set-timer", host, {"timer": 9}, 400, "timer_length")
    assert game.do("start", host)["events"] == ["game_started", "round_started"]
    api.refused(f"{game.path}/rematch", host, None, 409, "game_in_progress")
    api.refused(f"{game.path}/switch-team", game.seats[1], None, 409, "game_in_progress")


@pytest.mark.system
@pytest.mark.slow
def test_the_curl_walkthrough_plays_to_the_end(live_server):
    """docs/api-walkthrough.sh (the game docs/api.md shows) still plays against a real server."""
    run = subprocess.run(
        ["bash", str(ROOT / "docs" / "api-walkthrough.sh"), live_server.url],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert run.stdout.rstrip().endswith("Walkthrough complete.")


def test_create_game_takes_null_words_as_the_server_does(client):
    """`words: null` means the language's list: the server takes it, so the document must too."""
    schema = openapi_document()["paths"]["/api/games"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    Draft202012Validator(schema["properties"]["words"]).validate(None)
    assert client.post("/api/games", json={"words": None}).status_code == 201
