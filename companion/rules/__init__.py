"""The rules of Decrypto as pure data and functions: no Flask, no database.

- `state`: the game as data; `events`: every event, one class each (`event`: what they share);
  `fold`: `apply`/`replay` to fold events into the state.
- `commands`: every command declared once; `decide` runs one (handlers in `lobby`, `play`, `host`).
- `queries`: what is legal now, for the handlers and the views alike; `targets`: stale commands.
- `access`: who can be asking (the kinds of token) and what each may see and do.
- `text`: cleaning what players type; `guards`: the checks every handler shares (the sender, the phase).
- `round_end`: the end-of-round conditions and the tiebreak.
- `codes` and `words`: the code deck and how words are compared.
"""

from .codes import ALL_CODES, draw_code, parse_guess
from .decide import decide
from .errors import RuleError
from .access import HOST, SPECTATOR, Kind, Who
from .queries import proposed_verdicts, start_problem
from .fold import apply, replay
from .state import KEYWORD_GUESSING, KEYWORD_JUDGING, LOBBY, OVER, PLAYING, TEAMS, Game, other

__all__ = [
    "ALL_CODES",
    "Game",
    "HOST",
    "Kind",
    "KEYWORD_GUESSING",
    "KEYWORD_JUDGING",
    "LOBBY",
    "OVER",
    "PLAYING",
    "RuleError",
    "SPECTATOR",
    "TEAMS",
    "Who",
    "apply",
    "decide",
    "draw_code",
    "other",
    "parse_guess",
    "proposed_verdicts",
    "replay",
    "start_problem",
]
