"""The game as plain data: what the fold of its events (rules/fold.py) holds.

Each event says what it changes (rules/events.py); nothing here knows the events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import three_player
from .audience import EVERYONE, team_audience

TEAMS = ("white", "black")
TEAM_AUDIENCES = tuple(team_audience(team) for team in TEAMS)
MIN_TEAM, MAX_TEAM = 2, 4
MAX_ROUNDS = 8
TOKENS_TO_END = 2

# Kinds of game, chosen at creation.
STANDARD, THREE_PLAYER = "standard", "three_player"
MODES = (STANDARD, THREE_PLAYER)

# Phases of a game. Inside PLAYING, what happens next is derived from the current round.
LOBBY, PLAYING, KEYWORD_GUESSING, KEYWORD_JUDGING, OVER = (
    "lobby",
    "playing",
    "keyword_guessing",
    "keyword_judging",
    "over",
)
PHASES = (LOBBY, PLAYING, KEYWORD_GUESSING, KEYWORD_JUDGING, OVER)

ENTRIES = ("guess", "clues")  # what the host can take back: a sealed guess, announced clues (queries.last_entry)


def guess_of(transmission: str, team: str) -> str:
    """Which guess of `transmission`'s (a team's) is `team`'s: its own team decrypts, the other side intercepts
    (the state's and the view's field name)."""
    return "decryption" if team == transmission else "interception"


def other(team: str) -> str:
    return "black" if team == "white" else "white"


@dataclass(frozen=True, slots=True)
class Settings:
    """What the host chose when creating the game; kept by its rematches (the timer can change in a lobby)."""

    mode: str = STANDARD
    language: str = "en"
    try_out: bool = False  # one device plays every seat; nothing is secret
    timer: int | None = None  # seconds the late Encryptor gets once the first one announced
    words: tuple[str, ...] | None = None  # the host's own word list, instead of the language's pack


@dataclass(slots=True)
class Player:
    seat: int
    name: str
    team: str


@dataclass(slots=True)
class Guess:
    code: tuple[int, ...] | None = None
    sealed: bool = False
    entered_by: int | None = None  # the seat that entered it last (unknown in logs written before)


@dataclass(slots=True)
class Transmission:
    """One team's transmission in one round: its code, clues, the two guesses and the outcome."""

    team: str
    encryptor: int
    code: tuple[int, ...]
    clues: tuple[str, ...] | None = None
    announced_at: float | None = None  # announced first, this starts the sand timer (rules.queries.sand_timer)
    paused_at: float | None = None  # the sand timer it started is paused since then (the table's `pause-timer`)
    added_seconds: float = 0.0  # everything that moved the sand timer's end since it started (seconds)
    taken_back: tuple[str, ...] | None = None  # the clues the host took back: for their Encryptor to edit
    decryption: Guess = field(default_factory=Guess)
    interception: Guess = field(default_factory=Guess)
    resolved: bool = False
    intercepted: bool = False
    miscommunicated: bool = False

    def guess_by(self, team: str) -> Guess:
        """`team`'s guess of this transmission: its decryption if the transmission is its own (`guess_of`)."""
        return self.decryption if team == self.team else self.interception


@dataclass(slots=True)
class Round:
    number: int
    transmissions: dict[str, Transmission]  # the teams that transmit, in the order they are guessed
    announced: list[str] = field(default_factory=list)  # teams in the order their clues came
    rotation: dict[str, int] = field(default_factory=dict)  # the Encryptor rotation as the round began

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
        return next((t for t in self.transmissions.values() if not t.resolved), None)

    @property
    def finished(self) -> bool:
        return all(t.resolved for t in self.transmissions.values())

    @property
    def last_resolved(self) -> Transmission | None:
        resolved = [t for t in self.transmissions.values() if t.resolved]
        return resolved[-1] if resolved else None


@dataclass(slots=True)
class Tokens:
    interceptions: int = 0
    miscommunications: int = 0

    @property
    def score(self) -> int:
        return self.interceptions - self.miscommunications


@dataclass(slots=True)
class Tiebreak:
    cause: str  # "collision" or "round_limit"
    keyword_guesses: dict[str, tuple[str, ...] | None] = field(
        default_factory=lambda: {t: None for t in TEAMS}
    )  # team -> its guesses of the other's words
    verdicts: dict[str, tuple[bool, ...]] | None = None  # team -> which of its guesses the table accepted


@dataclass(slots=True)
class Result:
    winners: tuple[str, ...]  # one team, or both for a shared victory
    reason: str  # see rules.round_end and rules.three_player for the reasons
    cause: str | None = None  # why a tiebreak was needed, when one was


@dataclass(slots=True)
class Notes:
    """What a team wrote on its note sheet about the other team (rules/notes.py): a guess above each of its
    four keyword columns, and a free line on each round (round number -> its line). Blank notes are left out."""

    keywords: list[str] = field(default_factory=lambda: [""] * 4)
    lines: dict[int, str] = field(default_factory=dict)


def no_notes() -> dict[str, Notes]:
    return {t: Notes() for t in TEAMS}


@dataclass(slots=True)
class Correction:
    """A proposed correction of the last reveal, waiting for both teams to confirm it on their phones."""

    round: int
    team: str  # whose transmission
    decryption: tuple[int, ...]
    interception: tuple[int, ...] | None
    id: int = 1  # the proposal's number in this game: answers name it
    confirmed: set[str] = field(default_factory=set)  # teams that confirmed


@dataclass(slots=True)
class Game:
    settings: Settings = field(default_factory=Settings)
    phase: str = LOBBY
    match: int = 1  # 2 after the first rematch, and so on
    joining_locked: bool = False
    players: list[Player] = field(default_factory=list)
    last_seat: int = 0  # the highest seat number given: a seat number names one player for good
    rotation: dict[str, int] = field(default_factory=lambda: {t: 0 for t in TEAMS})
    keywords: dict[str, tuple[str, ...]] = field(default_factory=dict)
    dealt: list[str] = field(default_factory=list)  # every keyword dealt in this game, all matches
    swapped: set[str] = field(default_factory=set)  # teams that swapped a keyword this match
    rounds: list[Round] = field(default_factory=list)
    tokens: dict[str, Tokens] = field(default_factory=lambda: {t: Tokens() for t in TEAMS})
    tiebreak: Tiebreak | None = None
    result: Result | None = None
    correction: Correction | None = None
    seat_links: dict[int, float | None] = field(
        default_factory=dict
    )  # seat -> when the host issued its new link, not yet taken
    waiting_phones: set[int] = field(default_factory=set)  # seats whose new phone used its link and waits for a
    # phone of its team to let it in (`let-in`)
    unattended: dict[int, float | None] = field(
        default_factory=dict
    )  # seat -> when a new phone took it while no phone of its
    # team was in use, until a teammate acknowledges it
    move_offered: bool = False  # the table screen's move link is showing
    moved_at: float | None = None  # when the table screen last moved to another device
    last_encrypted: dict[int, tuple[int, int]] = field(
        default_factory=dict
    )  # seat -> (match, round) of its last turn as Encryptor
    notices: list[dict[str, Any]] = field(default_factory=list)  # corrections and host actions, for everyone
    notes: dict[str, Notes] = field(default_factory=no_notes)  # each team's, this match; its team's only
    corrections_proposed: int = 0  # in this game, all matches
    # Per-viewer versions (rules/audience.py): how many events each audience had, and how many of the events
    # for fewer than everyone each seat saw (kept when its player leaves: a newcomer there goes on from it).
    counts: dict[str, int] = field(default_factory=dict)
    private_seen: dict[int, int] = field(default_factory=dict)

    # --- the kind of game --------------------------------------------------------------------
    @property
    def language(self) -> str:
        return self.settings.language

    @property
    def three_player(self) -> bool:
        return self.settings.mode == THREE_PLAYER

    @property
    def transmitting(self) -> tuple[str, ...]:
        """The teams that transmit each round, in the order their transmissions are guessed."""
        return (three_player.TEAM,) if self.three_player else TEAMS

    @property
    def max_rounds(self) -> int:
        return three_player.MAX_ROUNDS if self.three_player else MAX_ROUNDS

    def team_sizes(self, team: str) -> tuple[int, int]:
        if self.three_player:
            return three_player.SIZES[team], three_player.SIZES[team]
        return MIN_TEAM, MAX_TEAM

    # --- who -----------------------------------------------------------------------------------
    def team_players(self, team: str) -> list[Player]:
        """A team's players in join order (the Encryptor rotation follows it)."""
        return [p for p in self.players if p.team == team]

    def player(self, seat: int | None) -> Player | None:
        """The player in `seat`, or None (None: a viewer or sender without a seat)."""
        return next((p for p in self.players if p.seat == seat), None)

    def seated(self, seat: int) -> Player:
        """The player in `seat`, for code that knows the seat is taken (an event decided on this game names it)."""
        player = self.player(seat)
        assert player is not None, f"no player in seat {seat}"
        return player

    @property
    def round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def latest_round(self) -> Round:
        """The round under way, or the last one played: `round` for code that knows the game is past its lobby
        (the event that ends a lobby is followed by round 1's)."""
        return self.rounds[-1]

    def encryptor_for(self, team: str, round_number: int) -> Player:
        """The rotation: one new Encryptor per round in join order, moved on by skips; each match starts it
        from the player who has gone longest without encrypting (`first_encryptor`)."""
        members = self.team_players(team)
        return members[(self.rotation[team] + round_number - 1) % len(members)]

    def first_encryptor(self, team: str) -> int:
        """Where a match's rotation starts: the player who has gone longest without encrypting (never, for a
        newcomer or in the first match), the earliest in join order among equals."""
        members = self.team_players(team)
        if not members:
            return 0
        waited = [self.last_encrypted.get(p.seat, (0, 0)) for p in members]
        return waited.index(min(waited))

    def version_seen_by(self, seat: int | None) -> int:
        """The version of what the player in `seat` sees (None: a viewer without a seat, who sees only what
        everyone sees): the number of events it could see (rules/audience.py), +1 for each, whatever the
        other team does meanwhile."""
        public = self.counts.get(EVERYONE, 0)
        if seat is None or self.player(seat) is None:
            return public
        return public + self.private_seen.get(seat, 0)

    def clues_used(self, team: str) -> list[str]:
        return [c for r in self.rounds if team in r.transmissions for c in (r.transmissions[team].clues or ())]


def token_awards(game: Game, team: str, intercepted: bool, miscommunicated: bool) -> list[tuple[str, str]]:
    """(team, kind of token) earned by the outcome of `team`'s transmission."""
    awards: list[tuple[str, str]] = []
    if intercepted:
        awards.append((other(team), "interceptions"))
    if miscommunicated:
        # Three players: the Interceptor takes a token instead of the team's Miscommunication.
        awards.append((three_player.INTERCEPTOR, "interceptions") if game.three_player else (team, "miscommunications"))
    return awards
