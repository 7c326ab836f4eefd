"""A team's notes: what a team scribbles on its paper note sheet about the other team, kept by the app (an
option of this app, not in the rulebook). Above each of the other team's four keyword columns, a guess of
that keyword; beside each round's clues, a free line.

Any player of the team writes them, during the match (from its start until the keywords are out); they are
the team's alone (rules/audience.py: each note is a replaceable event of its team, one stored per note), kept
for the match, and a rematch starts blank. The tiebreak's keyword guesses start from the keyword notes.
"""

from __future__ import annotations

import random

from . import fields
from .command import TEXT_REFUSALS, Field, OptionalField, SeatCommand, match_target, phase_refusals
from .errors import RuleError
from .event import Event
from .events import NoteWritten
from .state import KEYWORD_GUESSING, PLAYING, Game, Player, other
from .text import KEYWORD_GUESS_MAX_LENGTH, NOTE_LINE_MAX_LENGTH, clean_text

KEYWORD_NOTE_MAX_LENGTH = KEYWORD_GUESS_MAX_LENGTH  # a keyword note is what the tiebreak form starts from


def takes_notes(game: Game, team: str) -> bool:
    """The other side of `team` has keywords and clues to take notes on (not the three-player game's team:
    the Interceptor has none)."""
    return other(team) in game.transmitting


class WriteNote(SeatCommand):
    url = "note"
    phases = (PLAYING, KEYWORD_GUESSING)
    during_correction = True
    summary = "Write one of the team's notes"
    description = (
        "By a player whose other side has keywords (not the three-player game's team), from the start of the "
        "match until both teams sealed their keyword guesses (phases `playing` and `keyword_guessing`; also "
        "while a correction waits): one note of the team's note sheet about the other team (`view.you.notes`), "
        "name either `keyword` or `line`. Every teammate's phone shows it; no other viewer ever does, not even "
        "once the game is over (event `note_written`, seen by the team only: it moves only the team's "
        "versions). Writing the note as it stands changes nothing (no event); a note replaces the team's "
        "earlier text of that note in the log. A rematch starts with blank notes. The tiebreak's form starts "
        "from the keyword notes."
    )
    keyword = OptionalField(fields.DIGIT, "The other team's keyword (1 to 4) this note guesses.", "note_malformed")
    line = OptionalField(fields.LINE, "The round (1 to the current one) whose free line this is.", "note_malformed")
    text = Field(
        fields.TEXT,
        f"Trimmed, inner spaces collapsed; at most {KEYWORD_NOTE_MAX_LENGTH} "
        f"characters for a keyword, {NOTE_LINE_MAX_LENGTH} for a line. Empty clears "
        "the note.",
        "note_malformed",
    )
    match = match_target()
    refusals = (*phase_refusals(PLAYING, KEYWORD_GUESSING), "nothing_to_note", "note_malformed", *TEXT_REFUSALS)
    example = {"keyword": 2, "text": "whale?", "match": 1}

    def _note(self, game: Game) -> tuple[str, int, int]:
        """Which note it writes: ("keyword", 1 to 4) or ("line", a round so far), with its length limit."""
        keyword, line = self.keyword, self.line
        if line is None and keyword is not None:
            return "keyword", keyword, KEYWORD_NOTE_MAX_LENGTH
        if keyword is None and line is not None and line <= game.latest_round.number:
            return "line", line, NOTE_LINE_MAX_LENGTH
        raise RuleError("note_malformed")

    def play(self, game: Game, player: Player, rng: random.Random) -> list[Event]:
        if not takes_notes(game, player.team):
            raise RuleError("nothing_to_note")
        kind, number, limit = self._note(game)
        text = clean_text(self.text, limit, "note_malformed")
        notes = game.notes[player.team]
        now = notes.keywords[number - 1] if kind == "keyword" else notes.lines.get(number, "")
        if text == now:
            return []  # the team's note already: writing it again changes nothing, and writes nothing
        keyword, line = (number, None) if kind == "keyword" else (None, number)
        return [NoteWritten(team=player.team, keyword=keyword, line=line, text=text)]
