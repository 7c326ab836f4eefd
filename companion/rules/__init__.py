"""The rules of Decrypto as pure data and functions: no Flask, no database.

- `state`: the game as data, `apply`/`replay` to fold events into it.
- `decide`: commands to events, or a `RuleError`.
- `round_end`: the end-of-round conditions and the tiebreak.
- `codes` and `words`: the code deck and how words are compared.
"""

from .codes import ALL_CODES, draw_code, parse_guess
from .decide import HOST, Actor, decide, proposed_verdicts, start_problem
from .errors import RuleError
from .state import (KEYWORD_GUESSING, KEYWORD_JUDGING, LOBBY, OVER, PLAYING, TEAMS, Game, apply,
                    other, replay)

__all__ = ["ALL_CODES", "Actor", "Game", "HOST", "KEYWORD_GUESSING", "KEYWORD_JUDGING", "LOBBY",
           "OVER", "PLAYING", "RuleError", "TEAMS", "apply", "decide", "draw_code", "other",
           "parse_guess", "proposed_verdicts", "replay", "start_problem"]
