"""Who sends a command, and the checks commands share (the sender, the phase, the seat, a real game)."""

from __future__ import annotations

from .access import Kind, Who
from .errors import RuleError
from .state import KEYWORD_GUESSING, KEYWORD_JUDGING, LOBBY, OVER, PLAYING, Game, Player


# The refusal for a command sent by the wrong kind of capability, by the kind it needs.
SENDER_REFUSALS: dict[Kind, str] = {
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


def seated_player(game: Game, actor: Who) -> Player:
    player = game.player(actor.seat) if actor.kind == Kind.SEAT else None
    if player is None:
        raise RuleError("players_only")
    return player


def require_real_game(game: Game) -> None:
    """Seats of a try-out are fixed: it can never take in real players."""
    if game.settings.try_out:
        raise RuleError("try_out_fixed_seats")


def player_at(game: Game, seat: int) -> Player:
    """The player a command names by `seat`."""
    player = game.player(seat)
    if player is None:
        raise RuleError("no_such_player")
    return player
