"""Requests to rule commands, read from each command's declaration (rules.command): one parser for JSON
bodies, one for forms (the pages' forms, with or without the page script)."""

from __future__ import annotations

import re
from contextlib import suppress

from flask import request
from werkzeug.datastructures import MultiDict
from werkzeug.routing import BaseConverter

from ..release import release

from ..rules.command import Command

# The web layer's view of the registry: re-exported, by name (`X as X`: mypy's strict no_implicit_reexport).
from ..rules.commands import COMMANDS as COMMANDS, commands_for as commands_for  # noqa: PLC0414
from ..rules.lobby import Create
from .errors import Refused


class CommandName(BaseConverter):
    """A command's name, the last segment of a command's address (`<command:command>`): any segment but the
    names of a game's other addresses there, read with GET (its stream and its summary), so that a POST to
    one of those is refused 405 with their own `Allow`, not taken for an unknown command."""

    regex = r"(?!(?:stream|summary|summary\.json)$)[^/]+"


def from_json(name: str, body: object) -> Command:
    """The command `name` from a JSON body: its declared fields and targets as sent (the others are ignored),
    each read by its kind when the rules read it."""
    if not isinstance(body, dict):
        raise Refused("malformed_body")
    return COMMANDS[name](body)


def create_from_json(body: object) -> Create:
    """Creating a game (`POST /api/games`), read as the commands are."""
    if not isinstance(body, dict):
        raise Refused("malformed_body")
    return Create(body)


def from_form(name: str, form: MultiDict[str, str]) -> Command:
    """The same commands from an HTML form, each field read by its kind (rules.fields); a missing field is
    left out (then it takes its default)."""
    declared = COMMANDS[name]
    sent: dict[str, object] = {}
    for f in (*declared.fields, *declared.targets):
        with suppress(KeyError):
            sent[f.name] = f.kind.from_form(f.name, form.getlist)
    return declared(sent)


_VERSION = re.compile(r'\s*(?:W/)?"?(?:([0-9a-f]{8})\.)?v?(\d{1,12})\b')


def expected_version() -> int | None:
    """The version a strict client saw, from `If-Match` (the view's version, or the poll's ETag)."""
    header = request.headers.get("If-Match")
    if header is None:
        return None
    found = _VERSION.match(header)
    if found is None:
        raise Refused("if_match_malformed")
    if found.group(1) not in (None, release()):
        return -1  # an ETag of another release of the app names a view as it counted it then: stale now
    return int(found.group(2))
