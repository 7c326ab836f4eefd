"""`decide(game, command, actor, rng) -> events`: what a command does, or the RuleError it breaks.

A command is a declared class (rules.command), or its rules' form, a dict with a "type"; an actor says who
sends it (host, a team's join link, a seat). Nothing here mutates `game`; randomness comes only from `rng`
and is written into the events. Each command's checks and handler are declared with it, its events in
`events.py`. A command that would change nothing (a draft equal to the team's draft, a note as it stands)
gives no event; a replaceable event comes marked with its slot (audience.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from .command import Command
from .commands import read
from .event import Event
from .fold import stamp
from .access import Who
from .state import Game


def decide(game: Game, command: Command | Mapping[str, object], actor: Who, rng: random.Random) -> list[Event]:
    declared = command if isinstance(command, Command) else read(command)
    return stamp(game, declared.run(game, actor, rng))
