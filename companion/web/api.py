"""The JSON API (for anyone with `curl` or a program of their own; see docs/api.md). The pages' script
posts their forms instead (web.pages), and reads the same answers."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from ..rules.access import Kind
from ..views import view_for
from .auth import api_caller, service
from .commands import COMMANDS, create_from_json, expected_version, from_json
from .errors import Refused
from .openapi import openapi_document
from .security import csrf
from .answers import command_answer, game_links
from .stream import event_stream

api = Blueprint("api", __name__, url_prefix="/api")


def _body() -> Any:
    """The request's JSON object ({} for no body); deeply nested JSON is malformed, not a crash."""
    try:
        body = request.get_json(silent=True) if request.get_data(cache=True) else {}
    except RecursionError:
        body = None
    if body is None:
        raise Refused("malformed_body")
    return body


@api.post("/games")
def create_game() -> tuple[Response, int]:
    created = service().create(create_from_json(_body()))  # (a try-out is for one browser: see /try)
    return jsonify(game_id=created.game_id, **game_links(created.game_id)), 201


csrf.exempt(create_game)  # it acts for nobody and reads no cookie (not a decorator: Flask-WTF has no types)


@api.get("/games/<game_id>")
def game_view(game_id: str) -> Response:
    caller = api_caller(game_id)
    version, game = caller.state()
    if request.if_none_match.contains_weak(caller.etag(version)):
        response = current_app.response_class(status=304)  # nothing this caller sees changed: nothing rendered
    else:
        response = jsonify(view_for(game, caller.viewer, now=service().clock(), waiting=caller.waiting))
    response.set_etag(caller.etag(version), weak=True)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@api.get("/games/<game_id>/stream")
def game_stream(game_id: str) -> Response:
    """Server-sent events: the view's new ETag whenever it changes (web/stream.py)."""
    return event_stream(api_caller(game_id), lambda caller: f'W/"{caller.etag(caller.state()[0])}"')


@api.post("/games/<game_id>/<command:command>")
def game_command(game_id: str, command: str) -> tuple[Response, int]:
    if command not in COMMANDS:
        raise Refused("unknown_command")
    caller = api_caller(game_id, (Kind(COMMANDS[command].sender),))
    outcome = service().execute(
        game_id, caller.actor, from_json(command, _body()), caller.capability.token, expected_version()
    )
    return jsonify(command_answer(outcome)), 200


@api.get("/openapi.json")
def openapi() -> Response:
    return jsonify(openapi_document())
