"""`decide(game, command, actor, rng) -> events`: what a command does, or the RuleError it breaks.

A command is a dict with a "type"; an actor says who sends it (host, a team's join link, a seat).
Nothing here mutates `game`; randomness comes only from `rng` and is written into the events. Each
command's handler and facts are declared in `commands.py`, its events in `events.py`. A command that would
change nothing (a draft equal to the team's draft, a note as it stands) gives no event; a replaceable event
comes marked with its slot (audience.py).
"""

from __future__ import annotations

import random

from .commands import BY_TYPE
from .errors import RuleError
from .event import Event
from .fold import stamp
from .guards import SENDER_REFUSALS, Actor, CommandBody
from .state import Game


def decide(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    kind = command.get("type")
    declared = BY_TYPE.get(kind) if isinstance(kind, str) else None
    if declared is None:
        raise RuleError("unknown_command")
    if actor.kind != declared.sender:
        raise RuleError(SENDER_REFUSALS[declared.sender])
    if game.correction is not None and not declared.during_correction:
        raise RuleError("correction_pending")
    for check in declared.checks:  # a stale target: the game moved on since the player's screen
        problem = check(game, actor, command)
        if problem is not None:
            raise problem
    return stamp(game, declared.handler(game, command, actor, rng))
