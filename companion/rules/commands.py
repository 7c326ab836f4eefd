"""Every command, by its names: each is declared once, as a class beside its handler (rules.command says
how; rules/lobby.py, play.py, host.py, notes.py hold them). The rules (`decide`), the service, the web layer
(parsing, rate limits) and the OpenAPI document read this registry.

Adding a command: one class in the module of its part of the game (its fields, targets, phases, refusals,
documentation, example and handler; its events in events.py), its refusals' sentences (messages.REFUSALS),
and its button in a template.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import host, lobby, notes, play, targets
from .access import Kind
from .command import DECLARED, Command
from .errors import RuleError

# (The modules above declare the commands: importing them fills DECLARED.)
_MODULES = (lobby, play, host, notes)

# The rules' name -> its declaration (`decide` dispatches on it).
BY_TYPE: dict[str, type[Command]] = dict(DECLARED)
# The API's commands by URL name: /api/games/<game_id>/<name> (creating a game and moving the table screen
# are the pages' own).
COMMANDS: dict[str, type[Command]] = {c.name: c for c in BY_TYPE.values() if c.in_api}
CREATE = lobby.Create
START_PROBLEMS = lobby.START_PROBLEMS  # (the view's `start_problem` reads them here)
TABLE_MOVES = (host.OfferTableMove, host.CancelTableMove, host.TakeTable)


def read(command: Mapping[str, object]) -> Command:
    """A command from the rules' own form, `{"type": ..., its fields..., what the service adds...}` (the tests
    and the recorded games write commands so), or the RuleError `unknown_command`."""
    kind = command.get("type")
    declared = BY_TYPE.get(kind) if isinstance(kind, str) else None
    if declared is None:
        raise RuleError("unknown_command")
    return declared.read(command)


def commands_for(sender: Kind) -> tuple[str, ...]:
    """The URL names of the commands a capability of this kind may send."""
    return tuple(name for name, c in COMMANDS.items() if c.sender == sender)


def targets_for(command: str, view: Mapping[str, Any], body: Mapping[str, object] | None = None) -> dict[str, object]:
    """The target fields of `command` as the sender's `view` shows them (each at its declared path; `body`
    names the item a path depends on, e.g. `seat`). A target the view doesn't hold is left out: a page's
    forms and the test driver send exactly this."""
    declared = COMMANDS[command].targets  # each with its path
    found = {t.name: targets.find(view, t.path, body or {}) for t in declared if t.path is not None}
    return {name: value for name, value in found.items() if value is not None}
