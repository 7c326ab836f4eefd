"""Requests to rule commands, read from each command's declaration (rules.commands): one parser for JSON
bodies, one for forms (the pages' forms, with or without the page script)."""

from __future__ import annotations

import re

from flask import request
from werkzeug.routing import BaseConverter

from ..rules import TEAMS
from ..rules.commands import COMMANDS, commands_for  # noqa: F401  (the web layer's view of the registry)
from .errors import Refused



class CommandName(BaseConverter):
    """A command's name, the last segment of a command's address (`<command:command>`): any segment but the
    names of a game's other addresses there, read with GET (its stream and its summary), so that a POST to
    one of those is refused 405 with their own `Allow`, not taken for an unknown command."""
    regex = r"(?!(?:stream|summary|summary\.json)$)[^/]+"


# How a form's text fields become the JSON types the rules expect (booleans are "1", numbers digits).
_NUMBERS = ("seat", "digit", "match", "round", "line", "correction")


def from_json(name: str, body) -> dict:
    if not isinstance(body, dict):
        raise Refused("malformed_body")
    declared = COMMANDS[name]
    return {"type": declared.type,
            **{f.name: body[f.name] for f in (*declared.fields, *declared.targets) if f.name in body}}


def _number(value: str):
    return int(value) if value.isascii() and value.isdigit() and len(value) < 6 else value


def _form_value(kind: str, name: str, form):
    """The field `name` of kind `kind` from a form, or KeyError when the form doesn't have it."""
    if kind in ("clues", "keyword_guesses"):
        return form.getlist(name)
    if kind == "verdicts":
        return {team: [str(n) in form.getlist(f"{name}.{team}") for n in range(1, 5)] for team in TEAMS}
    if kind in ("code", "code_or_null") and name not in form:
        digits = [form.get(f"{name}{position}") for position in (1, 2, 3)]    # one radio group per clue
        if any(d is not None for d in digits):
            return [d or "" for d in digits]
    value = form[name]
    if kind == "boolean":
        return value == "1"
    if kind == "timer":
        return None if not value.strip() else _number(value)       # blank: no sand timer
    if kind in _NUMBERS:
        return _number(value)
    return value


def from_form(name: str, form) -> dict:
    """The same commands from an HTML form (lists are repeated fields; a missing field is left out)."""
    declared = COMMANDS[name]
    command = {"type": declared.type}
    for f in (*declared.fields, *declared.targets):
        try:
            command[f.name] = _form_value(f.kind, f.name, form)
        except KeyError:
            if f.has_default:
                command[f.name] = f.default
    return command


_VERSION = re.compile(r'\s*(?:W/)?"?v?(\d{1,12})\b')


def expected_version() -> int | None:
    """The version a strict client saw, from `If-Match` (the view's version, or the poll's ETag)."""
    header = request.headers.get("If-Match")
    if header is None:
        return None
    found = _VERSION.match(header)
    if found is None:
        raise Refused("if_match_malformed")
    return int(found.group(1))
