"""The OpenAPI document (companion/web/openapi.py): valid OpenAPI 3.0, describing every API route, and
true to what the API really answers in real games (every answer is checked against its documented schema)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from companion.web.commands import COMMANDS
from companion.web.openapi import openapi_document

ROOT = Path(__file__).resolve().parent.parent
DOC = openapi_document()
SAMPLE = {"game_id": "someGame", "command": "start"}


# --- OpenAPI 3.0 schemas as JSON Schema -------------------------------------------------------

def json_schema(schema):
    """An OpenAPI 3.0 schema object as JSON Schema 2020-12: `nullable` becomes a "null" type (enums
    already list null), component references point into $defs, annotations without meaning go."""
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key in ("nullable", "example"):
            continue
        if key == "$ref":
            out[key] = value.replace("#/components/schemas/", "#/$defs/")
        elif key == "properties":
            out[key] = {name: json_schema(s) for name, s in value.items()}
        elif key in ("items", "additionalProperties", "not"):
            out[key] = json_schema(value)
        elif key in ("allOf", "oneOf", "anyOf"):
            out[key] = [json_schema(s) for s in value]
        else:
            out[key] = value
    if schema.get("nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


DEFS = {name: json_schema(s) for name, s in DOC["components"]["schemas"].items()}


def check(instance, schema) -> None:
    """Fail with every error if `instance` doesn't match the (OpenAPI) `schema`."""
    validator = Draft202012Validator({**json_schema(schema), "$defs": DEFS})
    errors = [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
              for e in validator.iter_errors(instance)]
    assert not errors, "\n".join(errors[:20])


def operation(path: str, method: str) -> dict:
    """The documented operation answering `method path` (path templates match one segment each)."""
    for template, item in DOC["paths"].items():
        if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", template), path) and method in item:
            return item[method]
    raise AssertionError(f"{method.upper()} {path} is not documented")


def openapi_path(rule: str) -> str:
    return re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule)


# --- the document itself --------------------------------------------------------------------

def test_the_document_is_valid_openapi_3():
    validate(DOC)
    assert DOC["openapi"] == "3.0.3"


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
    for template, item in DOC["paths"].items():
        for method, op in item.items():
            if method == "parameters":
                continue
            content = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            if "example" in content:
                check(content["example"], content["schema"])


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
        assert status in op["responses"], f"{method.upper()} {path} answered an undocumented {status}: " \
                                          f"{response.get_data(as_text=True)}"
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
        response = self._check("post", path, self.client.post(path, json=body, headers=headers),
                               body if valid_body else None)
        assert response.status_code == expect, response.get_json()
        return response.get_json()

    def refused(self, path, token, body, status, code):
        answer = self.post(path, token, body, expect=status, valid_body=False)
        assert answer["code"] == code
        return answer


class Game:
    """A game with four players, played through the API; every viewer's view is checked after each move."""

    def __init__(self, api: Api):
        self.api = api
        created = api.post("/api/games", body={"language": "en"}, expect=201)
        self.id = created["game_id"]
        self.path = f"/api/games/{self.id}"
        self.host = created["tokens"]["host"]
        self.tokens = created["tokens"]
        self.seats: dict[int, str] = {}

    def join_all(self):
        for team, name in (("white", "Ann"), ("black", "Bea"), ("white", "Abe"), ("black", "Bob")):
            joined = self.api.post(f"{self.path}/join", self.tokens[team], {"name": name})
            self.seats[joined["seat"]] = joined["token"]
            self.views()

    def views(self) -> dict:
        """Every viewer's view (host, spectator, join tokens, seats), checked; returns the host's."""
        for token in [*self.tokens.values(), *self.seats.values()]:
            assert self.api.get(self.path, token).status_code == 200
        return self.view(self.host)

    def view(self, token) -> dict:
        return self.api.get(self.path, token).get_json()

    def do(self, command, token, body=None) -> dict:
        answer = self.api.post(f"{self.path}/{command}", token, body)
        self.views()
        return answer

    def encryptor(self, team) -> str:
        return self.seats[self.view(self.host)["rounds"][-1]["transmissions"][team]["encryptor"]]

    def guesser(self, team) -> str:
        players = self.view(self.host)["teams"][team]["players"]
        return self.seats[next(p["seat"] for p in players if not p["encryptor"])]

    def announce(self, round_number):
        for team in ("white", "black"):
            self.do("clues", self.encryptor(team), {"clues": [f"{team[0]}{round_number}{c}" for c in "abc"]})

    def guess(self, team, code, confirm=True) -> dict:
        return self.do("guess", self.guesser(team), {"code": code, "confirm": confirm})


WRONG = [1, 1, 1]      # never a code: codes have three different digits


def test_a_game_to_its_end_matches_the_document(client):
    api = Api(client)
    game = Game(api)
    api.refused(f"{game.path}/start", game.host, None, 409, "team_size")
    game.join_all()
    api.refused(f"{game.path}/join", game.tokens["white"], {"name": "Ann"}, 409, "name_taken")
    api.refused(f"{game.path}/start", game.seats[1], None, 403, "host_only")
    assert game.do("start", game.host)["events"] == ["game_started", "round_started"]
    api.refused(f"{game.path}/join", game.tokens["white"], {"name": "Cy"}, 409, "game_in_progress")

    for round_number in (1, 2):
        white_code = game.view(game.encryptor("white"))["you"]["code"]
        api.refused(f"{game.path}/clues", game.encryptor("white"), {"clues": ["x"]}, 400, "three_clues")
        api.refused(f"{game.path}/guess", game.guesser("white"), {"code": WRONG}, 409, "clues_not_announced")
        game.announce(round_number)
        api.refused(f"{game.path}/guess", game.encryptor("white"), {"code": WRONG}, 403, "encryptor_cannot_guess")
        api.refused(f"{game.path}/guess", game.guesser("white"), {"code": [5, 1, 2]}, 400, "guess_malformed")
        if round_number == 1:
            api.refused(f"{game.path}/guess", game.guesser("black"), {"code": WRONG}, 409,
                        "no_interception_round_one")
            game.guess("white", "1-2-3", confirm=False)
        else:
            game.guess("black", WRONG)                       # Black fails to intercept White
        game.guess("white", white_code)                      # White decrypts
        if round_number == 2:
            game.guess("white", WRONG)                       # White fails to intercept Black
        last = game.guess("black", WRONG)                    # Black misreads its own Encryptor
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
    api.refused(f"{game.path}/keyword-guesses", game.seats[3], {"guesses": ["", "", "", ""]}, 409,
                "keyword_guesses_sealed")
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

    response = client.post(f"{game.path}/start", data="{", content_type="application/json",
                           headers={"Authorization": f"Bearer {game.host}"})
    api._check("post", f"{game.path}/start", response)
    assert response.status_code == 400 and response.get_json()["code"] == "malformed_body"

    assert api.get("/healthz").get_json() == {"status": "ok"}


def test_a_lobby_that_cant_start_matches_the_document(client):
    api = Api(client)
    game = Game(api)
    for team, name in (("white", "Ann"), ("white", "Abe"), ("white", "Amy"), ("white", "Al"),
                       ("black", "Bea"), ("black", "Bob")):
        game.do("join", game.tokens[team], {"name": name})
    api.refused(f"{game.path}/join", game.tokens["white"], {"name": "Ava"}, 409, "team_full")
    api.refused(f"{game.path}/join", game.tokens["black"], {"name": "B"}, 400, "name_length")
    api.refused(f"{game.path}/start", game.host, None, 409, "teams_uneven")


@pytest.mark.parametrize("body", [None, {}, {"language": "en"}])
def test_creating_a_game_matches_the_document(client, body):
    Api(client).post("/api/games", body=body, expect=201)


@pytest.mark.slow
def test_the_curl_walkthrough_plays_to_the_end(live_server):
    """docs/api-walkthrough.sh (the game docs/api.md shows) still plays against a real server."""
    run = subprocess.run(["bash", str(ROOT / "docs" / "api-walkthrough.sh"), live_server.url],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert run.stdout.rstrip().endswith("Walkthrough complete.")
