"""The OpenAPI 3.1 description of the JSON API, served at /api/openapi.json (the guide is docs/api.md).

The answers' schemas (the view, the summary, the others) are generated from their types in
companion/view_types.py (web/openapi_views.py). The operations are built here as plain data from a few
helpers. The enumerations (phases, modes, tasks, reasons, refusal codes, limits) and the list of commands
come from the modules that define them, so the document can't drift from the code on those points. Every
object schema lists all its fields as required (unless it says otherwise) and allows no others: a view or
answer that grows a field must be declared first (tests/test_openapi.py checks real answers against this).
"""

from __future__ import annotations

from typing import Any

from ..rules.access import Kind
from ..rules.command import Command, Field, OptionalField, Target
from ..rules.commands import COMMANDS, CREATE
from ..rules.guards import SENDER_REFUSALS
from ..rules.schema import Schema, described, enum, integer, obj, string
from .errors import status_of
from .openapi_views import answer_schemas

# Refusals any command can meet besides its own (stale: an If-Match naming another version).
COMMAND_REFUSALS = (
    "no_capability",
    "wrong_game",
    "not_seated",
    "seat_gone",
    "seat_waiting",
    "malformed_body",
    "csrf",
    "too_large",
    "busy",
    "rate_limited",
    "stale",
    "if_match_malformed",
    "cross_site",
    "game_too_long",
    "table_moved",
)
# The refusals of creating a game besides its own: it needs no token.
CREATE_REFUSALS = ("malformed_body", "too_large", "rate_limited", "cross_site")


# --- schema helpers -----------------------------------------------------------------------


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


# --- operations ---------------------------------------------------------------------------


def json_body(schema: Schema, example: object = None) -> Schema:
    content: Schema = {"schema": schema}
    if example:  # (a command without fields shows none)
        content["example"] = example
    return {"content": {"application/json": content}}


def refusals(*codes: str) -> Schema:
    """Error responses grouped by status, each allowing exactly the codes listed."""
    by_status: dict[str, list[str]] = {}
    for c in dict.fromkeys(codes):
        by_status.setdefault(str(status_of(c)), []).append(c)
    return {
        status: {
            "description": "Refused: " + ", ".join(f"`{c}`" for c in found) + ".",
            **json_body({"allOf": [ref("Error"), {"properties": {"code": enum(found)}}]}),
        }
        for status, found in sorted(by_status.items())
    }


BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
BEARER_OR_COOKIE: list[dict[str, list[str]]] = [{"bearerAuth": []}, {"seatCookie": [], "csrfHeader": []}]


def _field(f: Field[Any] | OptionalField[Any] | Target[Any]) -> Schema:
    schema = described(f.kind.schema(), f.doc)
    return {**schema, "default": f.default} if f.has_default else schema


def _body(declared: type[Command]) -> Schema:
    return {f.name: _field(f) for f in (*declared.fields, *declared.targets)}


def command(name: str) -> Schema:
    """The path item of the command `name`, from its declaration (rules.command). Request bodies are open:
    fields a command doesn't read are ignored."""
    declared = COMMANDS[name]
    codes = [SENDER_REFUSALS[declared.sender], *declared.refusals]
    if not declared.during_correction:
        codes.append("correction_pending")
    fields = (*declared.fields, *declared.targets)
    body = _body(declared)
    description = declared.description
    if declared.targets:
        description += (
            " Target fields (" + ", ".join(f"`{f.name}`" for f in declared.targets) + "): what the "
            "player's screen showed; a command whose target no longer matches, or that already took "
            "effect, is refused with 409 `stale` and changes nothing."
        )
    operation = {
        "tags": ["commands"],
        "operationId": declared.operation_id,
        "summary": declared.summary,
        "description": description,
        "security": BEARER_OR_COOKIE if declared.sender == Kind.SEAT else BEARER,
        "parameters": [IF_MATCH],
        "responses": {
            "200": {"description": "Done.", **json_body(ref(declared.answer))},
            **refusals(*COMMAND_REFUSALS, *codes),
        },
        "requestBody": {
            "required": any(f.required for f in fields),
            **json_body(
                {**obj(body, required=[f.name for f in fields if f.required]), "additionalProperties": True},
                declared.example,
            ),
        },
    }
    return {"parameters": [{"$ref": "#/components/parameters/GameId"}], "post": operation}


def create() -> Schema:
    """Creating a game (`POST /api/games`), from its declaration: needs no token, and its body is optional."""
    return {
        "tags": ["games"],
        "operationId": CREATE.operation_id,
        "summary": CREATE.summary,
        "description": CREATE.description,
        "security": [],
        "requestBody": {
            "required": False,
            **json_body(
                obj(
                    _body(CREATE),
                    "Optional; a body, if sent, must be a JSON object. Other fields are ignored.",
                    required=(),
                    closed=False,
                ),
                CREATE.example,
            ),
        },
        "responses": {
            "201": {"description": "Created.", **json_body(ref(CREATE.answer))},
            **refusals(*CREATE_REFUSALS, *CREATE.refusals),
        },
    }


IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": False,
    "schema": string(),
    "description": "Optional: the version of the view the caller saw (`view.version`, or the view's "
    "`ETag`). If the caller's view is at another version now, the command is refused with "
    "409 `stale`.",
}


def paths() -> Schema:
    return {
        "/api/games": {"post": create()},
        "/api/games/{game_id}": {
            "parameters": [{"$ref": "#/components/parameters/GameId"}],
            "get": {
                "tags": ["games"],
                "operationId": "getView",
                "summary": "The game as this caller may see it",
                "description": "Any capability of this game works: host, spectator, a join token, a seat "
                "token (or a browser's seat cookie), a seat link. Poll it with `If-None-Match` "
                "set to the last `ETag`: a 304 means nothing changed.",
                "security": [{"bearerAuth": []}, {"seatCookie": []}],
                "parameters": [
                    {
                        "name": "If-None-Match",
                        "in": "header",
                        "required": False,
                        "schema": string(),
                        "description": "The `ETag` of the last view received.",
                    }
                ],
                "responses": {
                    "200": {
                        "description": "The viewer's view.",
                        "headers": {
                            "ETag": {"$ref": "#/components/headers/ETag"},
                            "Cache-Control": {"schema": enum(["private, no-cache"])},
                        },
                        **json_body(ref("View")),
                    },
                    "304": {
                        "description": "Not modified since the `If-None-Match` ETag (no body).",
                        "headers": {"ETag": {"$ref": "#/components/headers/ETag"}},
                    },
                    **refusals("no_capability", "wrong_game", "not_seated", "seat_waiting", "table_moved"),
                },
            },
        },
        "/api/games/{game_id}/stream": {
            "parameters": [{"$ref": "#/components/parameters/GameId"}],
            "get": {
                "tags": ["games"],
                "operationId": "streamView",
                "summary": "When this caller's view changes (server-sent events)",
                "description": "The same capabilities as the view. A `text/event-stream` that stays open: an "
                "`event: view` message whose `data` (and `id`) is the view's ETag, at once and "
                "then each time this caller's view changes (never the view itself: fetch it "
                "with `If-None-Match`); `event: gone` once the token is withdrawn (the stream "
                "then ends); a comment line every 15 s. It ends after 10 minutes: reconnect. "
                "Refused past this token's or this address's share of a server worker's streams "
                "(`too_many_streams`) or past the worker's capacity (`streams_full`), both with "
                "`Retry-After`: poll the view meanwhile.",
                "security": [{"bearerAuth": []}, {"seatCookie": []}],
                "responses": {
                    "200": {
                        "description": "The stream (it never ends by itself before its 10 minutes).",
                        "content": {
                            "text/event-stream": {
                                "schema": {
                                    "type": "object",
                                    "description": "One message of the stream.",
                                    "properties": {
                                        "event": enum(["view", "gone"]),
                                        "data": string(description="`view`: the view's ETag now; `gone`: `gone`."),
                                        "id": string(description="The view's ETag (`view` only)."),
                                        "retry": integer(minimum=0),
                                    },
                                    "required": ["event", "data"],
                                }
                            }
                        },
                    },
                    **refusals(
                        "no_capability",
                        "wrong_game",
                        "not_seated",
                        "seat_waiting",
                        "table_moved",
                        "too_many_streams",
                        "streams_full",
                    ),
                },
            },
        },
        "/api/games/{game_id}/summary": {
            "parameters": [{"$ref": "#/components/parameters/GameId"}],
            "get": {
                "tags": ["games"],
                "operationId": "getSummary",
                "summary": "A finished match, whole",
                "description": "Any capability of this game works. Everything in a finished match is public, "
                "so every caller gets the same summary. Refused with `summary_not_ready` "
                "until a match is over.",
                "security": [{"bearerAuth": []}, {"seatCookie": []}],
                "parameters": [
                    {
                        "name": "match",
                        "in": "query",
                        "required": False,
                        "schema": integer(minimum=1),
                        "description": "Which match (see `view.match`); by default the latest finished one.",
                    }
                ],
                "responses": {
                    "200": {"description": "The match's summary.", **json_body(ref("Summary"))},
                    **refusals(
                        "no_capability", "wrong_game", "not_seated", "seat_waiting", "table_moved", "summary_not_ready"
                    ),
                },
            },
        },
        **{f"/api/games/{{game_id}}/{name}": command(name) for name in COMMANDS},
        "/api/openapi.json": {
            "get": {
                "tags": ["meta"],
                "operationId": "openapi",
                "summary": "This document",
                "security": [],
                "responses": {"200": {"description": "The OpenAPI document.", **json_body({"type": "object"})}},
            }
        },
        "/healthz": {
            "get": {
                "tags": ["meta"],
                "operationId": "health",
                "summary": "Health check",
                "security": [],
                "description": "200 when the app and its database answer; anything else means unhealthy.",
                "responses": {"200": {"description": "Healthy.", **json_body(obj({"status": enum(["ok"])}))}},
            }
        },
    }


def openapi_document() -> Schema:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Decrypto Companion API",
            "version": "1",
            "description": "Play Decrypto around a table with phones. Callers act through capability tokens "
            "sent as `Authorization: Bearer <token>`; a refusal is a JSON "
            "`{\"error\": sentence, \"code\": machine_code}` with a 4xx status (503 for "
            "`busy`). See docs/api.md for a guide and a complete game played with curl.",
        },
        "tags": [
            {"name": "games", "description": "Creating and reading games."},
            {
                "name": "commands",
                "description": "Moves in a game. Each answers the new version and the event types it caused.",
            },
            {"name": "meta", "description": "This document, and the health check."},
        ],
        "paths": paths(),
        "components": {
            "schemas": answer_schemas(),
            "parameters": {
                "GameId": {
                    "name": "game_id",
                    "in": "path",
                    "required": True,
                    "schema": string(),
                    "description": "The game's identifier (from creating it).",
                }
            },
            "headers": {
                "ETag": {
                    "schema": string(),
                    "description": "A weak validator of this viewer's view, e.g. `W/\"v7-seat-white-1\"`.",
                }
            },
            "securitySchemes": {
                "bearerAuth": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A capability token: host, spectator, a team's join token, or "
                    "a player's seat token (answered by join). What it may do "
                    "depends on its kind; the token is all the authentication.",
                },
                "seatCookie": {
                    "type": "apiKey",
                    "in": "cookie",
                    "name": "decrypto",
                    "description": "Browsers: the signed session cookie that remembers this "
                    "phone's seat (set when joining through the join page).",
                },
                "csrfHeader": {
                    "type": "apiKey",
                    "in": "header",
                    "name": "X-CSRFToken",
                    "description": "Browsers: the page's CSRF token (`<meta name=\"csrf-token\">`), "
                    "required with the cookie on every POST.",
                },
            },
        },
    }
