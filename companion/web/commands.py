"""Requests to rule commands: the one mapping shared by the JSON API and the no-JavaScript forms."""

from __future__ import annotations

from ..rules import TEAMS
from .errors import Refused

# name in the URL -> (rules command, fields of the body)
COMMANDS = {
    "join": ("join", ("name",)),
    "start": ("start", ()),
    "clues": ("announce_clues", ("clues",)),
    "guess": ("guess", ("code", "confirm")),
    "keyword-guesses": ("keyword_guesses", ("guesses",)),
    "verdicts": ("judge_keywords", ("verdicts",)),
}


def from_json(name: str, body) -> dict:
    if not isinstance(body, dict):
        raise Refused("malformed_body")
    kind, fields = COMMANDS[name]
    return {"type": kind, **{f: body[f] for f in fields if f in body}}


def from_form(name: str, form) -> dict:
    """The same commands from an HTML form (lists are repeated fields, booleans are '1')."""
    kind, _ = COMMANDS[name]
    if name == "join":
        return {"type": kind, "name": form.get("name", "")}
    if name == "clues":
        return {"type": kind, "clues": form.getlist("clues")}
    if name == "guess":
        code = [form.get(f"code{position}", "") for position in (1, 2, 3)]   # one radio group per clue
        return {"type": kind, "code": code, "confirm": form.get("confirm") == "1"}
    if name == "keyword-guesses":
        return {"type": kind, "guesses": form.getlist("guesses")}
    if name == "verdicts":
        return {"type": kind, "verdicts": {team: [str(n) in form.getlist(f"verdicts.{team}") for n in range(1, 5)]
                                           for team in TEAMS}}
    return {"type": kind}
