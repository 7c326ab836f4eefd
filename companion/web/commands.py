"""Requests to rule commands: the one mapping shared by the JSON API and the no-JavaScript forms."""

from __future__ import annotations

from ..rules import TEAMS
from .errors import Refused

# name in the URL -> (rules command, fields of the body, who may send it)
COMMANDS = {
    "join": ("join", ("name",), "join"),
    "lock-joining": ("lock_joining", ("locked",), "host"),
    "move-player": ("move_player", ("seat",), "host"),
    "remove-player": ("remove_player", ("seat",), "host"),
    "shuffle-teams": ("shuffle_teams", (), "host"),
    "set-timer": ("set_timer", ("timer",), "host"),
    "start": ("start", (), "host"),
    "skip-encryptor": ("skip_encryptor", ("team",), "host"),
    "take-back": ("take_back", (), "host"),
    "correction": ("propose_correction", ("decryption", "interception"), "host"),
    "withdraw-correction": ("withdraw_correction", (), "host"),
    "seat-link": ("issue_seat_link", ("seat",), "host"),
    "cancel-seat-link": ("cancel_seat_link", ("seat",), "host"),
    "verdicts": ("judge_keywords", ("verdicts",), "host"),
    "rematch": ("rematch", (), "host"),
    "clues": ("announce_clues", ("clues",), "seat"),
    "guess": ("guess", ("code", "confirm"), "seat"),
    "switch-team": ("switch_team", (), "seat"),
    "swap-keyword": ("swap_keyword", ("number",), "seat"),
    "answer-correction": ("answer_correction", ("accept",), "seat"),
    "keyword-guesses": ("keyword_guesses", ("guesses",), "seat"),
    "claim-seat": ("claim_seat", (), "handoff"),
}


def commands_for(kind: str) -> tuple[str, ...]:
    """The URL names of the commands a capability of this kind may send."""
    return tuple(name for name, (_, _, sender) in COMMANDS.items() if sender == kind)


def from_json(name: str, body) -> dict:
    if not isinstance(body, dict):
        raise Refused("malformed_body")
    kind, fields, _ = COMMANDS[name]
    return {"type": kind, **{f: body[f] for f in fields if f in body}}


# How a form's text fields become the JSON types the rules expect (booleans are "1", numbers digits).
_FORM_BOOLEANS = ("locked", "accept", "confirm")
_FORM_NUMBERS = ("seat", "number", "timer")


def _form_value(field: str, value: str):
    if field == "timer" and not value.strip():
        return None                     # no sand timer
    if field in _FORM_BOOLEANS:
        return value == "1"
    if field in _FORM_NUMBERS:
        return int(value) if value.isascii() and value.isdigit() and len(value) < 6 else value
    return value


def from_form(name: str, form) -> dict:
    """The same commands from an HTML form (lists are repeated fields)."""
    kind, fields, _ = COMMANDS[name]
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
    return {"type": kind, **{f: _form_value(f, form[f]) for f in fields if f in form}}
