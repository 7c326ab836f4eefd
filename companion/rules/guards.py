"""Who sends a command, and the checks every handler shares (the phase, the seat, a real game)."""

from __future__ import annotations

from typing import Any

from .access import Kind, Who
from .errors import RuleError
from .fields import SEAT
from .state import KEYWORD_GUESSING, KEYWORD_JUDGING, LOBBY, OVER, PLAYING, Game, Player

# A command as the rules get it: its "type", the fields of the request's body as sent (JSON, or a form read by
# the fields' kinds), and what the service adds (`at`, `in_use`, `words`). The handlers check every field.
CommandBody = dict[str, Any]


Actor = Who  # who sends a command (rules.access)

# The refusal for a command sent by the wrong kind of capability, by the kind it needs.
SENDER_REFUSALS: dict[str, str] = {  # (by str: a command declares its sender as one)
    Kind.HOST: "host_only",
    Kind.SEAT: "players_only",
    Kind.JOIN: "join_link_only",
    Kind.HANDOFF: "seat_link_only",
    Kind.TABLE_MOVE: "move_link_only",
}

# The refusal for a command sent in the wrong phase, by the phase the game is in.
PHASE_REFUSALS = {
    LOBBY: "game_not_started",
    PLAYING: "game_in_progress",
    KEYWORD_GUESSING: "tiebreak_in_progress",
    KEYWORD_JUDGING: "judging_in_progress",
    OVER: "game_over",
}


def require_phase(game: Game, *phases: str) -> None:
    if game.phase not in phases:
        raise RuleError(PHASE_REFUSALS[game.phase])


def seated_player(game: Game, actor: Actor) -> Player:
    player = game.player(actor.seat) if actor.kind == Kind.SEAT else None
    if player is None:
        raise RuleError("players_only")
    return player


def require_real_game(game: Game) -> None:
    """Seats of a try-out are fixed: it can never take in real players."""
    if game.settings.try_out:
        raise RuleError("try_out_fixed_seats")


def player_at(game: Game, command: CommandBody) -> Player:
    seat = command.get("seat")
    player = game.player(seat) if SEAT.accepts(seat) else None
    if player is None:
        raise RuleError("no_such_player")
    return player
