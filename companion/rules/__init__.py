"""The rules of Decrypto as pure data and functions: no Flask, no database.

- `state`: the game as data; `events`: every event, one class each (`event`: what they share);
  `fold`: `apply`/`replay` to fold events into the state.
- `commands`: every command declared once; `decide` runs one (handlers in `lobby`, `play`, `host`).
- `queries`: what is legal now, for the handlers and the views alike; `targets`: stale commands.
- `text`: cleaning what players type; `guards`: who sends a command, and the phase checks.
- `round_end`: the end-of-round conditions and the tiebreak.
- `codes` and `words`: the code deck and how words are compared.
"""

from .codes import ALL_CODES, draw_code, parse_guess
from .decide import decide
from .errors import RuleError
from .guards import HOST, Actor
from .queries import proposed_verdicts, start_problem
from .fold import apply, replay
from .state import KEYWORD_GUESSING, KEYWORD_JUDGING, LOBBY, OVER, PLAYING, TEAMS, Game, other

__all__ = [
    "ALL_CODES",
    "Actor",
    "Game",
    "HOST",
    "KEYWORD_GUESSING",
    "KEYWORD_JUDGING",
    "LOBBY",
    "OVER",
    "PLAYING",
    "RuleError",
    "TEAMS",
    "apply",
    "decide",
    "draw_code",
    "other",
    "parse_guess",
    "proposed_verdicts",
    "replay",
    "start_problem",
]
