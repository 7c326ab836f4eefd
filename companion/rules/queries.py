"""What is legal now: the questions both the command handlers and the views ask of a game.

A button the views show is a command the handlers accept, because both read these.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from . import three_player
from .errors import RuleError
from .state import (
    KEYWORD_GUESSING,
    KEYWORD_JUDGING,
    LOBBY,
    OVER,
    PLAYING,
    TEAMS,
    Game,
    Player,
    Round,
    Transmission,
    other,
)
from .words import same_word


class Entry(TypedDict):
    """An entry the table screen may take back (`last_entry`): the fields of its `entry_taken_back` event."""

    entry: str  # "guess" or "clues"
    round: int
    transmission: str  # whose transmission
    by: NotRequired[str]  # whose guess, for a guess


def spare_words(game: Game, words: Iterable[str]) -> list[str]:
    """The words not dealt yet in this game (a keyword swap draws from them)."""
    return [w for w in words if not any(same_word(w, d) for d in game.dealt)]


def start_problem(game: Game) -> RuleError | None:
    """Why the teams as seated can't start yet, or None.

    Standard game: 2-4 players a team, as even as possible. Three players: two in the team, one Interceptor."""
    sizes = {team: len(game.team_players(team)) for team in TEAMS}
    if game.three_player:
        if any(sizes[team] != three_player.SIZES[team] for team in TEAMS):
            return RuleError(
                "three_player_seats", players=sizes[three_player.TEAM], interceptors=sizes[three_player.INTERCEPTOR]
            )
        return None
    for team in TEAMS:
        least, most = game.team_sizes(team)
        if not least <= sizes[team] <= most:
            return RuleError("team_size", team=team, min=least, max=most)
    if abs(sizes["white"] - sizes["black"]) > 1:
        return RuleError("teams_uneven", team=max(TEAMS, key=lambda team: sizes[team]), **sizes)
    return None


def swap_problem(game: Game, team: str, words: Iterable[str] | None = None) -> str | None:
    """Why `team` can't swap a keyword now (a refusal code), or None. `words` is the list the swap draws
    from; by default the host's own list (the language's pack always has spare words)."""
    if game.phase != PLAYING or team not in game.keywords:
        return "no_keywords"
    if game.latest_round.number != 1 or game.latest_round.transmissions[team].clues is not None:
        return "swap_too_late"
    if team in game.swapped:
        return "already_swapped"
    words = words if words is not None else game.settings.words
    if words is not None and not spare_words(game, words):
        return "no_spare_words"
    return None


def skip_problem(game: Game, team: str) -> str | None:
    """Why the host can't skip `team`'s Encryptor now (a refusal code), or None."""
    if team not in game.latest_round.transmissions:
        return "no_such_team"
    if game.latest_round.transmissions[team].clues is not None:
        return "clues_already_announced"
    if len(game.team_players(team)) < 2:
        return "nobody_to_skip_to"
    return None


def skippable(game: Game) -> list[str]:
    """The teams whose Encryptor the host may skip now."""
    if game.phase != PLAYING or game.correction is not None:
        return []
    return [team for team in game.latest_round.transmissions if skip_problem(game, team) is None]


def last_entry(game: Game) -> Entry | None:
    """The last guess or clue entry not revealed yet, which the table screen may take back.

    A sealed guess of the transmission being guessed comes first; else the latest clues of a
    transmission not resolved yet."""
    if game.phase != PLAYING:
        return None
    number = game.latest_round.number
    current = game.latest_round.current
    if current is not None:
        for team in TEAMS:
            if current.guess_by(team).sealed:
                return {"entry": "guess", "round": number, "transmission": current.team, "by": team}
    for team in reversed(game.latest_round.announced):
        if not game.latest_round.transmissions[team].resolved:
            return {"entry": "clues", "round": number, "transmission": team}
    return None


@dataclass(frozen=True)
class SandTimer:
    """The sand timer, running or paused: the late Encryptor's time once the other one announced. A pacing aid:
    nothing waits on it, nothing is scored on time. Everything that asks how much time is left, or whether it
    is up, asks `left` (the views, the pause and its resume): the pauses never count."""

    seconds: int  # the game's setting
    started: Transmission  # announced first: its time started the timer, and it keeps the timer's pauses
    late: Transmission  # the Encryptor it runs for

    @property
    def paused(self) -> bool:
        return self.started.paused_at is not None

    @property
    def ends_at(self) -> float | None:
        """When the time is up, the pauses so far added on (None while paused: that depends on the resume)."""
        if self.paused:
            return None
        assert self.started.announced_at is not None  # `sand_timer` only times an announcement with a time
        return self.started.announced_at + self.seconds + self.started.added_seconds

    def left(self, now: float) -> float:
        """Seconds left at `now` (the service's clock): frozen while paused, never below 0 nor above the setting."""
        assert self.started.announced_at is not None
        ends_at = self.started.announced_at + self.seconds + self.started.added_seconds
        until = self.started.paused_at if self.started.paused_at is not None else now
        return min(float(self.seconds), max(0.0, ends_at - until))


def sand_timer(game: Game) -> SandTimer | None:
    """The sand timer now, in a game created with one, while exactly one of the round's two Encryptors has
    announced (never in the three-player game: one Encryptor a round); else None."""
    seconds = game.settings.timer
    if not seconds or game.phase != PLAYING or not game.rounds:
        return None
    transmissions = game.latest_round.transmissions.values()
    announced = [t for t in transmissions if t.clues is not None]
    if len(transmissions) < 2 or len(announced) != 1 or announced[0].announced_at is None:
        return None
    late = next(t for t in transmissions if t.clues is None)
    return SandTimer(seconds, announced[0], late)


def keywords_public(game: Game) -> bool:
    """Both teams' keywords are on every screen: from the tiebreak's judging on, and once the game is over."""
    return game.phase in (KEYWORD_JUDGING, OVER)


def correctable(game: Game) -> tuple[Round, Transmission] | None:
    """The last reveal, (round, transmission), while nothing but what followed it by itself came after it."""
    if game.phase not in (PLAYING, KEYWORD_GUESSING, OVER) or not game.rounds:
        return None
    for r in reversed(game.rounds):
        transmission = r.last_resolved
        if transmission is not None:
            break
        if any(t.clues is not None for t in r.transmissions.values()):
            return None  # a later round is under way
    else:
        return None
    if game.tiebreak and any(game.tiebreak.keyword_guesses.values()):
        return None
    return r, transmission


def proposed_verdicts(game: Game) -> dict[str, list[bool]]:
    """The app's proposal for the keyword tiebreak: a guess matches the keyword at its number
    when they are the same word but for case, accents or a plural ending."""
    assert game.tiebreak is not None  # asked in phase keyword_judging, which a tiebreak leads to
    guesses = game.tiebreak.keyword_guesses
    return {
        team: [
            bool(guesses[team]) and same_word(guess, keyword)
            for guess, keyword in zip(guesses[team] or ("",) * 4, game.keywords[other(team)], strict=True)
        ]
        for team in TEAMS
    }


def task(game: Game, me: Player) -> str:
    """What this player is asked to do now (the phone's task line; `TASKS` in messages.py words it)."""
    if game.correction is not None:
        return "wait_for_correction" if me.team in game.correction.confirmed else "answer_correction"
    if game.phase == LOBBY:
        return "wait_for_start"
    if game.phase == KEYWORD_GUESSING:
        assert game.tiebreak is not None  # the phase a tiebreak starts with
        return "keywords_sealed" if game.tiebreak.keyword_guesses[me.team] else "guess_keywords"
    if game.phase == KEYWORD_JUDGING:
        return "wait_for_judging"
    if game.phase == OVER:
        return "game_over"
    round_ = game.latest_round
    own = round_.transmissions.get(me.team)
    current = round_.current
    if current is None:
        if own is not None and own.encryptor == me.seat and own.clues is None:
            return "write_clues"
        return "wait_for_encryptor" if game.three_player else "wait_for_clues"
    if current.team == me.team and current.encryptor == me.seat:
        return "encryptor_waits"
    if current.team != me.team and not round_.interception_allowed:
        return "no_interception_yet"
    if current.guess_by(me.team).sealed:
        return "guess_sealed"
    if current.team == me.team:
        return "decrypt"
    return "intercept_alone" if game.three_player else "intercept"
