"""Every event of the game, one class each (rules/event.py says what a class holds), and `read`: an event from
its stored JSON, of any version.

Events are facts: everything random (keywords, codes, a shuffle) was decided before and is written into them,
so that folding them (rules/fold.py) needs no dice. A class's docstring says what happened; its `apply`, what
that does to the state; its `NOTICE`, the line it adds to the public log, if any (`apply` adds it). The order of
`EVENTS` is the order the API's documents list the types and notices in.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from collections.abc import Mapping
from typing import Any

from .access import Kind
from .audience import team_audience
from .queries import SandTimer, sand_timer
from .event import (
    ENTRY,
    FLAG,
    MOMENT,
    SEAT,
    TEAM,
    UPCASTERS,
    CapabilityChanges,
    Event,
    Grant,
    Notice,
    Replaceable,
    Shown,
    optional,
    upcaster,
)
from .state import (
    KEYWORD_GUESSING,
    KEYWORD_JUDGING,
    LOBBY,
    OVER,
    PLAYING,
    STANDARD,
    TEAMS,
    Correction,
    Game,
    Guess,
    Player,
    Result,
    Round,
    Settings,
    Tiebreak,
    Tokens,
    Transmission,
    no_notes,
    token_awards,
)


def _count_tokens(game: Game, team: str, intercepted: bool, miscommunicated: bool, sign: int) -> None:
    for owner, kind in token_awards(game, team, intercepted, miscommunicated):
        tokens = game.tokens[owner]
        setattr(tokens, kind, getattr(tokens, kind) + sign)


def _deal(game: Game, keywords: dict[str, tuple[str, ...]]) -> None:
    game.keywords = {team: tuple(words) for team, words in keywords.items()}
    game.dealt += [w for words in keywords.values() for w in words]


def _leaves(game: Game, seat: int) -> None:
    game.players = [p for p in game.players if p.seat != seat]
    game.seat_links.pop(seat, None)
    game.waiting_phones.discard(seat)
    game.unattended.pop(seat, None)
    game.last_encrypted.pop(seat, None)


# --- the lobby -------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class GameCreated(Event):
    """The host created the game with these settings."""

    TYPE = "game_created"
    VERSION = 2
    language: str
    mode: str
    timer: int | None
    words: tuple[str, ...] | None  # the host's own word list
    try_out: bool

    def apply(self, game: Game) -> None:
        game.settings = Settings(
            mode=self.mode, language=self.language, try_out=self.try_out, timer=self.timer, words=self.words or None
        )


@upcaster(GameCreated, 1)
def upcast_game_created_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Games created before their settings existed (d054968 and before) stored their language only: they were
    standard games, without a sand timer or a word list of their own, and no try-out."""
    return {"mode": STANDARD, "timer": None, "words": None, "try_out": False, **data}


@dataclass(frozen=True, kw_only=True)
class PlayerJoined(Event):
    """A phone took a seat on a team (or a try-out's seat was filled as it was created)."""

    TYPE = "player_joined"
    seat: int
    team: str
    name: str

    def apply(self, game: Game) -> None:
        game.players.append(Player(seat=self.seat, name=self.name, team=self.team))
        game.last_seat = max(game.last_seat, self.seat)

    def capabilities(self, game: Game) -> CapabilityChanges:
        return CapabilityChanges(grants=(Grant(Kind.SEAT, self.team, self.seat, in_use=True),))


@dataclass(frozen=True, kw_only=True)
class PlayerLeft(Event):
    """A player left their seat in the lobby: by leaving the game, or by joining the other team from its join
    link (a new seat follows)."""

    TYPE = "player_left"
    seat: int

    def apply(self, game: Game) -> None:
        _leaves(game, self.seat)

    def capabilities(self, game: Game) -> CapabilityChanges:
        return CapabilityChanges(revoked=((Kind.SEAT, self.seat), (Kind.HANDOFF, self.seat), (Kind.WAITING, self.seat)))


@dataclass(frozen=True, kw_only=True)
class PlayerRemoved(PlayerLeft):
    """The host removed a player in the lobby: the seat is freed, its tokens stop working."""

    TYPE = "player_removed"


@dataclass(frozen=True, kw_only=True)
class PlayerMoved(Event):
    """A player changed team in the lobby (moved by the host, or switching themselves): last in join order."""

    TYPE = "player_moved"
    seat: int
    team: str

    def apply(self, game: Game) -> None:
        moved = game.seated(self.seat)
        game.players = [p for p in game.players if p is not moved] + [Player(moved.seat, moved.name, self.team)]


@dataclass(frozen=True, kw_only=True)
class JoiningLocked(Event):
    """The host locked joining (`locked`), or opened it again."""

    TYPE = "joining_locked"
    locked: bool

    def apply(self, game: Game) -> None:
        game.joining_locked = self.locked


@dataclass(frozen=True, kw_only=True)
class GameStarted(Event):
    """The host started the match: each team's four keywords, dealt. Each team's rotation starts from whoever
    has gone longest without encrypting."""

    TYPE = "game_started"
    keywords: dict[str, tuple[str, ...]]

    def apply(self, game: Game) -> None:
        game.phase = PLAYING
        game.rotation = {team: game.first_encryptor(team) for team in TEAMS}
        _deal(game, self.keywords)


@dataclass(frozen=True, kw_only=True)
class KeywordSwapped(Event):
    """A team swapped its keyword `number` for `word` (everyone learns that it swapped, never which)."""

    TYPE = "keyword_swapped"
    NOTICE = Notice(
        "A team swapped one of its keywords for a fresh one (which one stays secret).",
        sentence="keyword_swapped",
        team=TEAM,
    )
    team: str
    number: int
    word: str

    def apply(self, game: Game) -> None:
        words = list(game.keywords[self.team])
        words[self.number - 1] = self.word
        game.keywords[self.team] = tuple(words)
        game.dealt.append(self.word)
        game.swapped.add(self.team)
        self.add_notice(game)  # never which number, nor the word


# --- the rounds ------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RoundStarted(Event):
    """A round began: each transmitting team's code, drawn; its Encryptor is the rotation's."""

    TYPE = "round_started"
    round: int
    codes: dict[str, tuple[int, ...]]

    def apply(self, game: Game) -> None:
        game.rounds.append(
            Round(
                self.round,
                {
                    team: Transmission(
                        team=team, code=self.codes[team], encryptor=game.encryptor_for(team, self.round).seat
                    )
                    for team in game.transmitting
                },
                rotation=dict(game.rotation),
            )
        )


@dataclass(frozen=True, kw_only=True)
class EncryptorSkipped(Event):
    """The host skipped a team's Encryptor: the next teammate takes the round, with a fresh `code`."""

    TYPE = "encryptor_skipped"
    NOTICE = Notice(
        "The host skipped a team's Encryptor: the next teammate takes the round, with a fresh code.",
        sentence="encryptor_skipped",
        team=TEAM,
        seat=Shown("seat", "The skipped player."),
        by=Shown("seat", "The new Encryptor."),
    )
    team: str
    code: tuple[int, ...]

    def apply(self, game: Game) -> None:
        game.rotation[self.team] += 1
        transmission = game.latest_round.transmissions[self.team]
        skipped = transmission.encryptor
        transmission.encryptor = game.encryptor_for(self.team, game.latest_round.number).seat
        transmission.code = self.code
        self.add_notice(game, seat=skipped, by=transmission.encryptor)


@dataclass(frozen=True, kw_only=True)
class CluesAnnounced(Event):
    """A team's Encryptor announced its clues, `at` that time (the sand timer's start)."""

    TYPE = "clues_announced"
    VERSION = 2
    team: str
    clues: tuple[str, ...]
    at: float | None

    def apply(self, game: Game) -> None:
        transmission = game.latest_round.transmissions[self.team]
        transmission.clues = self.clues
        transmission.announced_at = self.at
        game.latest_round.announced.append(self.team)


@upcaster(CluesAnnounced, 1)
def upcast_clues_announced_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Clues announced before the sand timer (d054968 and before) have no time."""
    return {"at": None, **data}


@dataclass(frozen=True, kw_only=True)
class GuessSaved(Replaceable):
    """Team `by` entered its guess of `transmission`'s code: sealed, or its draft (which the team alone sees,
    and its next draft replaces). `seat`: the player who entered it."""

    TYPE = "guess_saved"
    VERSION = 2
    transmission: str
    by: str
    code: tuple[int, ...]
    sealed: bool
    seat: int | None

    def audience(self) -> str:
        return super().audience() if self.sealed else team_audience(self.by)

    def slot_in(self, game: Game) -> str | None:
        return None if self.sealed else f"draft:{game.match}:{game.latest_round.number}:{self.transmission}:{self.by}"

    def apply(self, game: Game) -> None:
        guess = game.latest_round.transmissions[self.transmission].guess_by(self.by)
        guess.code, guess.sealed, guess.entered_by = self.code, self.sealed, self.seat


@upcaster(GuessSaved, 1)
def upcast_guess_saved_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Guesses saved before their author was kept (d8446d1 and before) have none."""
    return {"seat": None, **data}


@dataclass(frozen=True, kw_only=True)
class NoteWritten(Replaceable):
    """A player wrote the team's note on the other team: the guess above keyword column `keyword`, or the free
    line of round `line` (one of the two). The team alone sees it; its next text replaces it."""

    TYPE = "note_written"
    team: str
    keyword: int | None = optional()
    line: int | None = optional()
    text: str

    def audience(self) -> str:
        return team_audience(self.team)

    def slot_in(self, game: Game) -> str | None:
        which = f"keyword:{self.keyword}" if self.keyword is not None else f"line:{self.line}"
        return f"note:{game.match}:{self.team}:{which}"

    def apply(self, game: Game) -> None:
        notes = game.notes[self.team]
        if self.keyword is not None:
            notes.keywords[self.keyword - 1] = self.text
            return
        assert self.line is not None  # a note is on a keyword or on a round's line (rules/notes.py)
        if self.text:
            notes.lines[self.line] = self.text
        else:
            notes.lines.pop(self.line, None)


@dataclass(frozen=True, kw_only=True)
class EntryTakenBack(Event):
    """The host took back the last entry: a sealed guess (`by` that team) becomes its draft again, or a
    team's clues go, with the guesses of that transmission."""

    TYPE = "entry_taken_back"
    VERSION = 2
    NOTICE = Notice(
        "The host took back an entry not revealed yet: a team's sealed guess (kept as its draft), or an "
        "Encryptor's clues (with the guesses of that transmission).",
        sentence="entry_taken_back",
        entry=ENTRY,
        team=Shown("team", "Whose transmission."),
        by=Shown("team", "For a guess, the team whose guess it was; null for clues.", nullable=True),
    )
    entry: str  # one of state.ENTRIES
    round: int | None  # the round under way (unknown in games stored before it was kept)
    transmission: str
    by: str | None = optional()

    def apply(self, game: Game) -> None:
        transmission = game.latest_round.transmissions[self.transmission]
        if self.entry == "guess":
            assert self.by is not None  # a guess entry says whose guess it is
            transmission.guess_by(self.by).sealed = False  # kept as the team's draft
        else:
            transmission.taken_back = transmission.clues
            transmission.clues, transmission.announced_at = None, None
            transmission.paused_at, transmission.added_seconds = None, 0.0  # its sand timer goes with it
            transmission.decryption, transmission.interception = Guess(), Guess()
            game.latest_round.announced.remove(transmission.team)
        self.add_notice(game, team=self.transmission)


@upcaster(EntryTakenBack, 1)
def upcast_entry_taken_back_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Entries taken back before commands named their targets (d8446d1 and before) did not say their round,
    always the round under way."""
    return {"round": None, **data}


@dataclass(frozen=True, kw_only=True)
class TransmissionResolved(Event):
    """Both guesses of a transmission were sealed: whether it was intercepted, and misread by its own team."""

    TYPE = "transmission_resolved"
    team: str
    code: tuple[int, ...]
    intercepted: bool
    miscommunicated: bool

    def apply(self, game: Game) -> None:
        transmission = game.latest_round.transmissions[self.team]
        transmission.resolved = True
        transmission.intercepted = self.intercepted
        transmission.miscommunicated = self.miscommunicated
        _count_tokens(game, transmission.team, self.intercepted, self.miscommunicated, +1)


# --- the sand timer, paused by the table screen (a doorbell, the pizza) -------------------------------------


def _timer(game: Game) -> SandTimer:
    timer = sand_timer(game)
    assert timer is not None  # paused or resumed while the timer is on (rules/host.py)
    return timer


@dataclass(frozen=True, kw_only=True)
class TimerPaused(Event):
    """The table screen paused the round's sand timer `at` that time: its time left stays as it was."""

    TYPE = "timer_paused"
    NOTICE = Notice(
        "The table screen paused the sand timer (`pause-timer`).",
        sentence="timer_paused",
        remaining=Shown("seconds", "The seconds it had left, kept while paused (one decimal)."),
        at=MOMENT,
    )
    at: float

    def apply(self, game: Game) -> None:
        timer = _timer(game)
        left = timer.left(self.at)
        timer.started.paused_at = self.at
        self.add_notice(game, remaining=round(left, 1))


@dataclass(frozen=True, kw_only=True)
class TimerResumed(Event):
    """The table screen resumed the paused sand timer `at` that time: it goes on from the time it had left."""

    TYPE = "timer_resumed"
    NOTICE = Notice(
        "The table screen resumed the paused sand timer (`resume-timer`).",
        sentence="timer_resumed",
        remaining=Shown("seconds", "The seconds it had left, from which it goes on (one decimal)."),
        at=MOMENT,
    )
    at: float

    def apply(self, game: Game) -> None:
        timer = _timer(game)
        started = timer.started
        assert started.paused_at is not None  # resumed while paused (rules/host.py)
        started.added_seconds += max(0.0, self.at - started.paused_at)  # (a clock set back counts no pause)
        started.paused_at = None
        self.add_notice(game, remaining=round(timer.left(self.at), 1))


# --- corrections -----------------------------------------------------------------------------------------

# What the log shows of a correction, proposed or applied (its round is the corrected one).
_CORRECTED = {
    "team": Shown("team", "Whose transmission."),
    "decryption": Shown("code", "The corrected decryption."),
    "interception": Shown("code", "The corrected interception; null when that round had none.", nullable=True),
}


@dataclass(frozen=True, kw_only=True)
class CorrectionProposed(Event):
    """The host proposed to correct the last reveal (round `round`, `team`'s transmission) to these guesses;
    both sides confirm it."""

    TYPE = "correction_proposed"
    NOTICE = Notice(
        "The host proposed to correct the last reveal (see `correction`).",
        sentence="correction_proposed",
        **_CORRECTED,
    )
    round: int
    team: str
    decryption: tuple[int, ...]
    interception: tuple[int, ...] | None

    def apply(self, game: Game) -> None:
        game.corrections_proposed += 1
        game.correction = Correction(
            round=self.round,
            team=self.team,
            decryption=self.decryption,
            interception=self.interception or None,
            id=game.corrections_proposed,
        )
        self.add_notice(game, round=self.round)


@dataclass(frozen=True, kw_only=True)
class CorrectionAnswered(Event):
    """A side of the table accepted the proposed correction, or rejected it (which drops it)."""

    TYPE = "correction_answered"
    NOTICE = Notice(
        "A side answered the proposed correction (a rejection drops it).",
        sentence="correction_answered",
        team=TEAM,
        accept=FLAG,
    )
    team: str
    accept: bool

    def apply(self, game: Game) -> None:
        if self.accept:
            assert game.correction is not None  # answered while one is proposed
            game.correction.confirmed.add(self.team)
        else:
            game.correction = None
        self.add_notice(game)


@dataclass(frozen=True, kw_only=True)
class CorrectionWithdrawn(Event):
    """The host withdrew the proposed correction."""

    TYPE = "correction_withdrawn"
    NOTICE = Notice("The host withdrew the proposed correction.", sentence="correction_withdrawn")

    def apply(self, game: Game) -> None:
        game.correction = None
        self.add_notice(game)


@dataclass(frozen=True, kw_only=True)
class RoundReopened(Event):
    """A corrected reveal ended round `round`: its end is judged again, so whatever followed it by itself is
    undone (the rounds after it, a skip of an Encryptor in a round that now never happened, a tiebreak or a
    result)."""

    TYPE = "round_reopened"
    round: int

    def apply(self, game: Game) -> None:
        undone = [r for r in game.rounds if r.number > self.round]
        if undone:
            game.rotation = dict(undone[0].rotation)
        game.rounds = [r for r in game.rounds if r.number <= self.round]
        game.phase, game.tiebreak, game.result = PLAYING, None, None


@dataclass(frozen=True, kw_only=True)
class RevealCorrected(Event):
    """Both sides confirmed the correction: the reveal with these guesses, and its tokens counted again."""

    TYPE = "reveal_corrected"
    NOTICE = Notice(
        "Both sides accepted the correction: the reveal now reads so (tokens follow).",
        sentence="reveal_corrected",
        **_CORRECTED,
        intercepted=FLAG,
        miscommunicated=FLAG,
    )
    round: int
    team: str
    decryption: tuple[int, ...]
    interception: tuple[int, ...] | None
    intercepted: bool
    miscommunicated: bool

    def apply(self, game: Game) -> None:
        transmission = next(r for r in game.rounds if r.number == self.round).transmissions[self.team]
        _count_tokens(game, transmission.team, transmission.intercepted, transmission.miscommunicated, -1)
        transmission.decryption.code = self.decryption
        if self.interception:
            transmission.interception.code = self.interception
        transmission.intercepted = self.intercepted
        transmission.miscommunicated = self.miscommunicated
        _count_tokens(game, transmission.team, self.intercepted, self.miscommunicated, +1)
        game.correction = None
        self.add_notice(game, round=self.round)


# --- the tiebreak and the end ----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TiebreakStarted(Event):
    """The game ended level (`cause`: "collision" or "round_limit"): each team guesses the other's keywords."""

    TYPE = "tiebreak_started"
    cause: str

    def apply(self, game: Game) -> None:
        game.phase = KEYWORD_GUESSING
        game.tiebreak = Tiebreak(cause=self.cause)


@dataclass(frozen=True, kw_only=True)
class KeywordGuessesSealed(Event):
    """A team sealed its guesses of the other team's four keywords; once both did, the table judges them."""

    TYPE = "keyword_guesses_sealed"
    team: str
    guesses: tuple[str, ...]

    def apply(self, game: Game) -> None:
        assert game.tiebreak is not None  # sealed in phase keyword_guessing, which a tiebreak starts
        game.tiebreak.keyword_guesses[self.team] = self.guesses
        if all(game.tiebreak.keyword_guesses.values()):
            game.phase = KEYWORD_JUDGING


@dataclass(frozen=True, kw_only=True)
class KeywordsJudged(Event):
    """The host judged each team's keyword guesses: which of the four named the other team's keyword."""

    TYPE = "keywords_judged"
    verdicts: dict[str, tuple[bool, ...]]

    def apply(self, game: Game) -> None:
        assert game.tiebreak is not None  # judged in phase keyword_judging, which a tiebreak leads to
        game.tiebreak.verdicts = dict(self.verdicts)


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    """The match is over: its winners (both for a shared victory), why, and what made a tiebreak needed."""

    TYPE = "game_ended"
    winners: tuple[str, ...]
    reason: str
    cause: str | None = optional()

    def apply(self, game: Game) -> None:
        game.phase = OVER
        game.result = Result(winners=self.winners, reason=self.reason, cause=self.cause)


# --- seats: a team decides who takes them (rules/host.py) ------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class SeatLinkIssued(Event):
    """The table screen made a new link to a seat, for a new phone, `at` that time: it replaces the seat's
    earlier link, and any new phone waiting with it (whose token becomes `replaced`: refused, saying so)."""

    TYPE = "seat_link_issued"
    VERSION = 2
    NOTICE = Notice(
        "The host issued a new link to a player's seat (for a new phone).", sentence="seat_link_issued", seat=SEAT
    )
    seat: int
    at: float | None

    def apply(self, game: Game) -> None:
        game.seat_links[self.seat] = self.at
        game.waiting_phones.discard(self.seat)
        self.add_notice(game)

    def capabilities(self, game: Game) -> CapabilityChanges:
        return CapabilityChanges(
            grants=(Grant(Kind.HANDOFF, seat=self.seat),),
            revoked=((Kind.HANDOFF, self.seat),),
            promoted=((Kind.WAITING, Kind.REPLACED, self.seat),),
        )


@upcaster(SeatLinkIssued, 1)
def upcast_seat_link_issued_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Seat links made before their time was kept (d8446d1 and before) have none."""
    return {"at": None, **data}


@dataclass(frozen=True, kw_only=True)
class SeatLinkCancelled(Event):
    """A seat's link stopped working, with any new phone waiting with it: cancelled by the table screen, or
    turned away by a phone of the seat's team (`by`)."""

    TYPE = "seat_link_cancelled"
    NOTICE = Notice(
        "A seat link that no phone had claimed was cancelled, or the new phone waiting with it sent away: by the "
        "host, or by a phone of the seat's team (`by`).",
        sentence="seat_link_cancelled",
        seat=SEAT,
        by=Shown(
            "seat", "The player of the seat's team who turned it away; null when the host cancelled it.", nullable=True
        ),
    )
    seat: int
    by: int | None = optional()

    def apply(self, game: Game) -> None:
        game.seat_links.pop(self.seat, None)
        game.waiting_phones.discard(self.seat)
        self.add_notice(game)

    def capabilities(self, game: Game) -> CapabilityChanges:
        return CapabilityChanges(revoked=((Kind.HANDOFF, self.seat), (Kind.WAITING, self.seat)))


@dataclass(frozen=True, kw_only=True)
class SeatClaimed(Event):
    """A new phone took a seat, `at` that time: with its link, or, having waited with it, by itself (rules/host.py
    `take_seat_by_itself`); `unattended`: while no phone of its team was in use, which everyone is told until a
    teammate acknowledges it. The seat's old phone is signed out."""

    TYPE = "seat_claimed"
    VERSION = 2
    NOTICE = Notice(
        "A new phone took over a seat through its link (the old phone is signed out).",
        sentence="seat_claimed",
        seat=SEAT,
        unattended=Shown(
            "flag",
            "It took the seat at once because no phone of the team was in use, so nobody of the team let it in "
            "(false in logs from before).",
        ),
        at=Shown("moment", "When (null in logs from before times were kept).", nullable=True),
    )
    seat: int
    unattended: bool
    at: float | None

    def apply(self, game: Game) -> None:
        game.seat_links.pop(self.seat, None)
        game.waiting_phones.discard(self.seat)
        if self.unattended:
            game.unattended[self.seat] = self.at
        self.add_notice(game)

    def capabilities(self, game: Game) -> CapabilityChanges:
        if self.seat in game.waiting_phones:  # the new phone that waited: its token becomes the seat's
            return CapabilityChanges(
                revoked=((Kind.SEAT, self.seat),), promoted=((Kind.WAITING, Kind.SEAT, self.seat),)
            )
        return CapabilityChanges(
            grants=(Grant(Kind.SEAT, game.seated(self.seat).team, self.seat, in_use=True),),
            revoked=((Kind.SEAT, self.seat), (Kind.HANDOFF, self.seat)),
        )


@upcaster(SeatClaimed, 1)
def upcast_seat_claimed_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Before a team decided who takes its seats (d8446d1 and before), a claim took the seat at once and
    quietly, and its time was not kept: not an unattended claim, which would be shown in red."""
    return {"unattended": False, "at": None, **data}


@dataclass(frozen=True, kw_only=True)
class SeatClaimWaiting(Event):
    """A new phone used a seat's link while a phone of the seat's team was in use: the link is used up, and the
    new phone waits for a phone of the team to let it in (the seat stays with its old phone meanwhile)."""

    TYPE = "seat_claim_waiting"
    seat: int

    def apply(self, game: Game) -> None:
        game.seat_links.pop(self.seat, None)
        game.waiting_phones.add(self.seat)

    def capabilities(self, game: Game) -> CapabilityChanges:
        return CapabilityChanges(
            grants=(Grant(Kind.WAITING, game.seated(self.seat).team, self.seat, in_use=True),),
            revoked=((Kind.HANDOFF, self.seat), (Kind.WAITING, self.seat)),
        )


@dataclass(frozen=True, kw_only=True)
class SeatHanded(Event):
    """A phone of the seat's team (`by`) let the seat's waiting new phone in: its token becomes the seat's, the
    old phone's stops working."""

    TYPE = "seat_handed"
    NOTICE = Notice(
        "A teammate (`by`) let a seat's new phone in (the old phone is signed out).",
        sentence="seat_handed",
        seat=SEAT,
        by=Shown("seat", "The teammate who let the new phone in."),
    )
    seat: int
    by: int

    def apply(self, game: Game) -> None:
        game.waiting_phones.discard(self.seat)
        game.unattended.pop(self.seat, None)  # the team let this seat's phone in itself
        self.add_notice(game)

    def capabilities(self, game: Game) -> CapabilityChanges:
        return CapabilityChanges(revoked=((Kind.SEAT, self.seat),), promoted=((Kind.WAITING, Kind.SEAT, self.seat),))


@dataclass(frozen=True, kw_only=True)
class ClaimAcknowledged(Event):
    """A teammate (`by`) confirmed that the phone which took the seat while the team was away is theirs."""

    TYPE = "claim_acknowledged"
    NOTICE = Notice(
        "A teammate (`by`) acknowledged a seat taken while no phone of the team was in use.",
        sentence="claim_acknowledged",
        seat=SEAT,
        by=Shown("seat", "The teammate who acknowledged it."),
    )
    seat: int
    by: int

    def apply(self, game: Game) -> None:
        game.unattended.pop(self.seat, None)
        self.add_notice(game)


# --- moving the table screen: public, and a move, not a copy ---------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TableMoveOffered(Event):
    """The table screen showed a one-time link that moves it to another device (replacing an earlier one)."""

    TYPE = "table_move_offered"
    NOTICE = Notice(
        "The table screen showed a one-time link that moves it to another device.",
        sentence="table_move_offered",
        at=MOMENT,
    )
    at: float | None

    def apply(self, game: Game) -> None:
        game.move_offered = True
        self.add_notice(game)

    def capabilities(self, game: Game) -> CapabilityChanges:
        return CapabilityChanges(grants=(Grant(Kind.TABLE_MOVE),), revoked=((Kind.TABLE_MOVE, None),))


@dataclass(frozen=True, kw_only=True)
class TableMoveCancelled(Event):
    """The table screen hid its move link: it stops working."""

    TYPE = "table_move_cancelled"
    NOTICE = Notice("The table screen cancelled its move link.", sentence="table_move_cancelled")

    def apply(self, game: Game) -> None:
        game.move_offered = False
        self.add_notice(game)

    def capabilities(self, game: Game) -> CapabilityChanges:
        return CapabilityChanges(revoked=((Kind.TABLE_MOVE, None),))


@dataclass(frozen=True, kw_only=True)
class TableMoved(Event):
    """The move link was used `at` that time: the new device is the table screen, with a new host token; the
    old one's token becomes `moved` (refused, saying when)."""

    TYPE = "table_moved"
    NOTICE = Notice(
        "The table screen moved to another device: the one it was on is no longer the table screen, and the host "
        "token it held is refused (`table_moved`).",
        sentence="table_moved",
        at=MOMENT,
    )
    at: float | None

    def apply(self, game: Game) -> None:
        game.move_offered, game.moved_at = False, self.at
        self.add_notice(game)

    def capabilities(self, game: Game) -> CapabilityChanges:
        return CapabilityChanges(
            grants=(Grant(Kind.HOST),), revoked=((Kind.TABLE_MOVE, None),), promoted=((Kind.HOST, Kind.MOVED, None),)
        )


# --- after a match ---------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RematchStarted(Event):
    """The host started a new match: back in the lobby with the same seats and settings (players may switch
    team, newcomers join); tokens, keywords, notes and the log start over."""

    TYPE = "rematch_started"
    VERSION = 2

    def apply(self, game: Game) -> None:
        for r in game.rounds:  # in order, so each seat keeps its latest turn
            for transmission in r.transmissions.values():
                game.last_encrypted[transmission.encryptor] = (game.match, r.number)
        game.match += 1
        game.phase, game.joining_locked = LOBBY, False
        game.rounds, game.tiebreak, game.result, game.correction = [], None, None, None
        game.tokens = {t: Tokens() for t in TEAMS}
        game.keywords, game.swapped, game.notices, game.notes = {}, set(), [], no_notes()
        game.unattended = {}  # shown until a teammate acknowledges it, or the match ends


@dataclass(frozen=True, kw_only=True)
class RematchDealt(RematchStarted):
    """A rematch as games stored before the rematch lobby (d8446d1 and before) have it: it dealt these keywords
    at once and went on playing, each team's rotation going on from the last round played. Never written
    today: `upcast_rematch_started_v1_v2` reads it from those games."""

    TYPE = "rematch_dealt"
    VERSION = 1
    keywords: dict[str, tuple[str, ...]]

    def apply(self, game: Game) -> None:
        last_round = game.latest_round.number if game.round else 0
        super().apply(game)
        game.phase = PLAYING
        game.rotation = {team: game.rotation[team] + last_round for team in TEAMS}
        _deal(game, self.keywords)


@upcaster(RematchStarted, 1)
def upcast_rematch_started_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
    """A rematch stored with its keywords is one from before the rematch lobby, which dealt at once."""
    if "keywords" in data:
        return {"type": RematchDealt.TYPE, "keywords": data["keywords"]}
    return data


@dataclass(frozen=True, kw_only=True)
class TeamsShuffled(Event):
    """The host shuffled the teams in the lobby: each team's seats, in their new join order (the rotation's)."""

    TYPE = "teams_shuffled"
    white: tuple[int, ...]
    black: tuple[int, ...]

    def apply(self, game: Game) -> None:
        by_seat = {p.seat: p for p in game.players}
        game.players = [
            Player(seat, by_seat[seat].name, team)
            for team, seats in (("white", self.white), ("black", self.black))
            for seat in seats
        ]


@dataclass(frozen=True, kw_only=True)
class TimerSet(Event):
    """The host set the sand timer in the lobby (seconds, or None for none) for the matches to come."""

    TYPE = "timer_set"
    timer: int | None

    def apply(self, game: Game) -> None:
        game.settings = replace(game.settings, timer=self.timer)


# Every event the rules write, in the order the API's documents list their types.
EVENTS: tuple[type[Event], ...] = (
    GameCreated,
    PlayerJoined,
    PlayerLeft,
    PlayerRemoved,
    PlayerMoved,
    JoiningLocked,
    GameStarted,
    KeywordSwapped,
    RoundStarted,
    EncryptorSkipped,
    CluesAnnounced,
    GuessSaved,
    EntryTakenBack,
    TransmissionResolved,
    TimerPaused,
    TimerResumed,
    CorrectionProposed,
    CorrectionAnswered,
    CorrectionWithdrawn,
    RoundReopened,
    RevealCorrected,
    TiebreakStarted,
    KeywordGuessesSealed,
    KeywordsJudged,
    GameEnded,
    SeatLinkIssued,
    SeatLinkCancelled,
    SeatClaimed,
    SeatClaimWaiting,
    SeatHanded,
    ClaimAcknowledged,
    TableMoveOffered,
    TableMoveCancelled,
    TableMoved,
    RematchStarted,
    TeamsShuffled,
    TimerSet,
    NoteWritten,
)
EVENT_TYPES = tuple(event.TYPE for event in EVENTS)
# The public log's line of each event that adds one, by its kind (the event's TYPE), in the order of `EVENTS`.
NOTICES: dict[str, Notice] = {event.TYPE: event.NOTICE for event in EVENTS if event.NOTICE is not None}
# Events only games stored by older code hold, made by an upcaster; no command writes them any more.
RETIRED: tuple[type[Event], ...] = (RematchDealt,)
BY_TYPE: dict[str, type[Event]] = {event.TYPE: event for event in (*EVENTS, *RETIRED)}


def read(data: Mapping[str, Any]) -> Event:
    """The event stored as `data` (its JSON), of any version, upgraded to today's shape by its upcasters."""
    data = dict(data)
    while True:
        kind, version = data.get("type"), data.pop("v", 1)
        event = BY_TYPE.get(kind) if isinstance(kind, str) else None
        if event is None:
            raise ValueError(f"unknown event type {kind!r}")
        if version == event.VERSION:
            return event.from_json(data)
        if version > event.VERSION:
            raise ValueError(f"{kind} v{version} is newer than this code's v{event.VERSION}: update the app")
        upgraded = UPCASTERS[event.TYPE, version](data)
        data = {**upgraded, "v": version + 1} if upgraded["type"] == kind else upgraded
