"""The game as plain data, and `apply`: how each event changes it.

The current state of a game is the fold of its events (`replay`). Events are JSON-ready dicts with a
"type"; everything random (keywords, codes) was decided before and is written into them.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

TEAMS = ("white", "black")
MIN_TEAM, MAX_TEAM = 2, 4
MAX_ROUNDS = 8
TOKENS_TO_END = 2

# Phases of a game. Inside PLAYING, what happens next is derived from the current round.
LOBBY, PLAYING, KEYWORD_GUESSING, KEYWORD_JUDGING, OVER = (
    "lobby", "playing", "keyword_guessing", "keyword_judging", "over")


def other(team: str) -> str:
    return "black" if team == "white" else "white"


@dataclass
class Player:
    seat: int
    name: str
    team: str


@dataclass
class Guess:
    code: tuple | None = None
    sealed: bool = False


@dataclass
class Transmission:
    """One team's transmission in one round: its code, clues, the two guesses and the outcome."""
    team: str
    encryptor: int
    code: tuple
    clues: tuple | None = None
    decryption: Guess = field(default_factory=Guess)
    interception: Guess = field(default_factory=Guess)
    resolved: bool = False
    intercepted: bool = False
    miscommunicated: bool = False

    def guess_by(self, team: str) -> Guess:
        return self.decryption if team == self.team else self.interception


@dataclass
class Round:
    number: int
    transmissions: dict[str, Transmission]

    @property
    def interception_allowed(self) -> bool:
        return self.number > 1

    @property
    def all_announced(self) -> bool:
        return all(t.clues is not None for t in self.transmissions.values())

    @property
    def current(self) -> Transmission | None:
        """The transmission being guessed: White's, then Black's, once both Encryptors announced."""
        if not self.all_announced:
            return None
        for team in TEAMS:
            if not self.transmissions[team].resolved:
                return self.transmissions[team]
        return None


@dataclass
class Tokens:
    interceptions: int = 0
    miscommunications: int = 0

    @property
    def score(self) -> int:
        return self.interceptions - self.miscommunications


@dataclass
class Tiebreak:
    cause: str                                   # "collision" or "round_limit"
    keyword_guesses: dict[str, tuple | None] = field(
        default_factory=lambda: {t: None for t in TEAMS})   # team -> its guesses of the other's words
    verdicts: dict[str, tuple] | None = None     # team -> which of its guesses the table accepted


@dataclass
class Result:
    winners: tuple          # one team, or both for a shared victory
    reason: str             # see rules.round_end for the reasons
    cause: str | None = None  # why a tiebreak was needed, when one was


@dataclass
class Game:
    language: str = "en"
    phase: str = LOBBY
    players: list[Player] = field(default_factory=list)
    keywords: dict[str, tuple] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    tokens: dict[str, Tokens] = field(default_factory=lambda: {t: Tokens() for t in TEAMS})
    tiebreak: Tiebreak | None = None
    result: Result | None = None

    def team_players(self, team: str) -> list[Player]:
        """A team's players in join order (the Encryptor rotation follows it)."""
        return [p for p in self.players if p.team == team]

    def player(self, seat: int) -> Player | None:
        return next((p for p in self.players if p.seat == seat), None)

    @property
    def round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def encryptor_for(self, team: str, round_number: int) -> Player:
        members = self.team_players(team)
        return members[(round_number - 1) % len(members)]

    def clues_used(self, team: str) -> list[str]:
        return [c for r in self.rounds for c in (r.transmissions[team].clues or ())]


EVENT_TYPES = ("game_created", "player_joined", "player_left", "game_started", "round_started",
               "clues_announced", "guess_saved", "transmission_resolved", "tiebreak_started",
               "keyword_guesses_sealed", "keywords_judged", "game_ended")


def _apply_in_place(game: Game, event: dict) -> None:
    kind = event["type"]
    if kind == "game_created":
        game.language = event["language"]
    elif kind == "player_joined":
        game.players.append(Player(seat=event["seat"], name=event["name"], team=event["team"]))
    elif kind == "player_left":
        game.players = [p for p in game.players if p.seat != event["seat"]]
    elif kind == "game_started":
        game.phase = PLAYING
        game.keywords = {team: tuple(words) for team, words in event["keywords"].items()}
    elif kind == "round_started":
        number = event["round"]
        game.rounds.append(Round(number, {
            team: Transmission(team=team, code=tuple(event["codes"][team]),
                               encryptor=game.encryptor_for(team, number).seat)
            for team in TEAMS}))
    elif kind == "clues_announced":
        game.round.transmissions[event["team"]].clues = tuple(event["clues"])
    elif kind == "guess_saved":
        guess = game.round.transmissions[event["transmission"]].guess_by(event["by"])
        guess.code, guess.sealed = tuple(event["code"]), event["sealed"]
    elif kind == "transmission_resolved":
        transmission = game.round.transmissions[event["team"]]
        transmission.resolved = True
        transmission.intercepted = event["intercepted"]
        transmission.miscommunicated = event["miscommunicated"]
        if transmission.intercepted:
            game.tokens[other(transmission.team)].interceptions += 1
        if transmission.miscommunicated:
            game.tokens[transmission.team].miscommunications += 1
    elif kind == "tiebreak_started":
        game.phase = KEYWORD_GUESSING
        game.tiebreak = Tiebreak(cause=event["cause"])
    elif kind == "keyword_guesses_sealed":
        game.tiebreak.keyword_guesses[event["team"]] = tuple(event["guesses"])
        if all(game.tiebreak.keyword_guesses.values()):
            game.phase = KEYWORD_JUDGING
    elif kind == "keywords_judged":
        game.tiebreak.verdicts = {team: tuple(v) for team, v in event["verdicts"].items()}
    elif kind == "game_ended":
        game.phase = OVER
        game.result = Result(winners=tuple(event["winners"]), reason=event["reason"], cause=event.get("cause"))
    else:
        raise ValueError(f"unknown event type {kind!r}")


def apply(game: Game, event: dict) -> Game:
    """The state after `event`; `game` itself is left as it was."""
    after = copy.deepcopy(game)
    _apply_in_place(after, event)
    return after


def replay(events, game: Game | None = None) -> Game:
    """Fold events into a state (from scratch, or onward from a copy of `game`)."""
    state = Game() if game is None else copy.deepcopy(game)
    for event in events:
        _apply_in_place(state, event)
    return state
