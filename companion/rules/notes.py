"""A team's notes: what a team scribbles on its paper note sheet about the other team, kept by the app (an
option of this app, not in the rulebook). Above each of the other team's four keyword columns, a guess of
that keyword; beside each round's clues, a free line.

Any player of the team writes them, during the match (from its start until the keywords are out); they are
the team's alone (rules/audience.py: each note is a replaceable event of its team, one stored per note), kept
for the match, and a rematch starts blank. The tiebreak's keyword guesses start from the keyword notes.
"""

from __future__ import annotations

import random

from .errors import RuleError
from .fields import DIGIT, LINE
from .event import Event
from .guards import Actor, CommandBody, require_phase, seated_player
from .events import NoteWritten
from .state import KEYWORD_GUESSING, PLAYING, Game, other
from .text import KEYWORD_GUESS_MAX_LENGTH, NOTE_LINE_MAX_LENGTH, clean_text

KEYWORD_NOTE_MAX_LENGTH = KEYWORD_GUESS_MAX_LENGTH  # a keyword note is what the tiebreak form starts from


def takes_notes(game: Game, team: str) -> bool:
    """The other side of `team` has keywords and clues to take notes on (not the three-player game's team:
    the Interceptor has none)."""
    return other(team) in game.transmitting


def _note(game: Game, command: CommandBody) -> tuple[str, int, int]:
    """Which note the command writes: ("keyword", 1 to 4) or ("line", a round so far), with its length limit."""
    keyword, line = command.get("keyword"), command.get("line")
    if line is None and DIGIT.accepts(keyword):
        return "keyword", keyword, KEYWORD_NOTE_MAX_LENGTH
    if keyword is None and LINE.accepts(line) and line <= game.latest_round.number:
        return "line", line, NOTE_LINE_MAX_LENGTH
    raise RuleError("note_malformed")


def write_note(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    player = seated_player(game, actor)
    require_phase(game, PLAYING, KEYWORD_GUESSING)
    if not takes_notes(game, player.team):
        raise RuleError("nothing_to_note")
    kind, number, limit = _note(game, command)
    text = clean_text(command.get("text"), limit, "note_malformed")
    notes = game.notes[player.team]
    now = notes.keywords[number - 1] if kind == "keyword" else notes.lines.get(number, "")
    if text == now:
        return []  # the team's note already: writing it again changes nothing, and writes nothing
    keyword, line = (number, None) if kind == "keyword" else (None, number)
    return [NoteWritten(team=player.team, keyword=keyword, line=line, text=text)]
