"""The table screen's corrections (skip an Encryptor, take back an entry, correct a reveal), pausing the sand
timer, seat links and moving the table screen."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

from . import fields
from .codes import Code, draw_code
from .command import (
    ANY_PHASE,
    NO_BODY,
    Command,
    Field,
    HostCommand,
    OptionalField,
    SeatCommand,
    Seen,
    Target,
    match_target,
    phase_refusals,
    round_target,
    seat_field,
)
from .access import Kind, Who
from .errors import RuleError
from .guards import player_at
from .play import after_resolution
from .queries import correctable, keywords_public, last_entry, sand_timer, skip_problem
from .event import Event
from .events import (
    ClaimAcknowledged,
    CorrectionAnswered,
    CorrectionProposed,
    CorrectionWithdrawn,
    EncryptorSkipped,
    EntryTakenBack,
    RevealCorrected,
    RoundReopened,
    SeatClaimed,
    SeatClaimWaiting,
    SeatHanded,
    SeatLinkCancelled,
    SeatLinkIssued,
    TableMoveCancelled,
    TableMoved,
    TableMoveOffered,
    TimerPaused,
    TimerResumed,
)
from .fold import replay
from .state import OVER, PLAYING, TEAMS, Game, Player
from .targets import stale

# A phone is in use when it asked for its view (its page, a poll, its stream, a command) this recently; a claim
# of a seat whose team has no phone in use goes through at once (`claim_seat`). A phone whose screen sleeps
# stops asking (browsers suspend its page), so its team counts it as there for this long after it slept.
PHONE_IN_USE_SECONDS = 120
# The service writes when a phone asked at most once this often (games.py `saw`): a phone written at T may have
# asked again until just before T + SEEN_WRITE_SECONDS without it being written; any asking later is written.
SEEN_WRITE_SECONDS = 60
# A phone whose written time is still younger than PHONE_IN_USE_SECONDS - SEEN_KEPT_SECONDS has its new one
# written with the other phones' within this long (companion/seen.py): until then, the old one says it is in use.
SEEN_KEPT_SECONDS = 20


class SkipEncryptor(HostCommand):
    """The next teammate takes the round (with a fresh code: the one who stepped away may have seen it)."""

    phases = (PLAYING,)
    careful = "team"  # a stray tap would skip a player
    summary = "Skip a team's Encryptor"
    description = (
        "With the host token, while the team's clues of this round aren't announced: the next teammate in the "
        "rotation becomes the Encryptor, with a fresh code (`view.host.skippable` lists the teams this is "
        "possible for). Naming the skipped `encryptor` makes a repeat safe."
    )
    team = Field(fields.TEAM, "The team whose Encryptor is skipped.", "no_such_team")
    round = round_target()
    encryptor = Target(
        fields.SEAT,
        "The seat of the Encryptor being skipped, as the table screen showed it (`rounds[-1].transmissions.<team>"
        ".encryptor`).",
        "rounds.-1.transmissions.{team}.encryptor",
    )
    refusals = (*phase_refusals(PLAYING), "no_such_team", "clues_already_announced", "nobody_to_skip_to")
    example = {"team": "white", "round": 2, "encryptor": 3}

    def stale(self, game: Game, actor: Who) -> RuleError | None:
        team = SkipEncryptor.team.peek(self)
        transmission = game.latest_round.transmissions.get(team) if game.phase == PLAYING and team else None
        if transmission is not None and self.encryptor.differs(transmission.encryptor):
            return stale("encryptor_changed")
        return None

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        team = self.team
        problem = skip_problem(game, team)
        if problem is not None:
            raise RuleError(problem)
        return [EncryptorSkipped(team=team, code=draw_code(rng))]


class TakeBack(HostCommand):
    phases = (PLAYING,)
    summary = "Take back the last entry"
    description = (
        "With the host token, while playing: takes back the entry `view.host.take_back` names (a sealed guess "
        "becomes the team's draft again; taken-back clues drop the transmission's guesses too). Send back the "
        "entry as the view gave it, so that a tap made before another entry arrived takes back nothing."
    )
    round = round_target("host.take_back.round")
    entry = Target(fields.ENTRY, "`view.host.take_back.entry`: `guess` or `clues`.", "host.take_back.entry")
    transmission = Target(
        fields.TEAM, "`view.host.take_back.transmission`: whose transmission.", "host.take_back.transmission"
    )
    by = Target(fields.TEAM, "`view.host.take_back.by`: whose guess (for a guess entry).", "host.take_back.by")
    refusals = (*phase_refusals(PLAYING), "nothing_to_take_back")
    example = {"round": 2, "entry": "clues", "transmission": "white"}

    def stale(self, game: Game, actor: Who) -> RuleError | None:
        entry: Mapping[str, object] = last_entry(game) or {}
        seen = (self.entry, self.transmission, self.by)
        if any(s.differs(entry.get(f)) for s, f in zip(seen, ("entry", "transmission", "by"), strict=True)):
            return stale("entry_changed")
        return None

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        entry = last_entry(game)
        if entry is None:
            raise RuleError("nothing_to_take_back")
        return [EntryTakenBack(**entry)]


def _proposed(game: Game, decryption: Code, interception: Code | None) -> list[Event]:
    """A correction of the last reveal to these guesses, or the RuleError that refuses it."""
    found = correctable(game)
    assert found is not None  # the handler checked it
    r, transmission = found
    if decryption == transmission.decryption.code and interception == (
        transmission.interception.code if r.interception_allowed else None
    ):
        raise RuleError("correction_changes_nothing")
    # Once everyone has seen both teams' keywords, the result may change but play can't go on with them.
    # (A spare random source: these events are only looked at, and the game's own dice stay untouched.)
    if keywords_public(game) and _resumes_play(game, _corrected(game, decryption, interception, random.Random())):
        raise RuleError("correction_resumes_play")
    return [
        CorrectionProposed(
            round=r.number, team=transmission.team, decryption=decryption, interception=interception or None
        )
    ]


class ProposeCorrection(HostCommand):
    url = "correction"
    phases = ANY_PHASE  # whenever there is a reveal to correct
    summary = "Propose a correction of the last reveal"
    description = (
        "With the host token, for the reveal `view.host.correctable` names (the last one, until the next clues "
        "are announced or a keyword guess is sealed): the guesses as they should have been entered. Both sides "
        "then answer it (`answer-correction`); once both accepted, the reveal, the tokens and whatever the "
        "round's end led to are judged again. Once the game is over, both teams' keywords have been shown to "
        "everyone: a correction may change the result, but one that would resume play (a next round or the "
        "tiebreak) is refused."
    )
    decryption = Field(fields.CODE, "The corrected decryption.", "guess_malformed")
    interception = OptionalField(
        fields.OPTIONAL_CODE,
        "The corrected interception; required when the round has one, ignored (and may be null or left out) in "
        "round 1.",
        "guess_malformed",
    )
    round = Target(fields.ROUND, "`view.host.correctable.round`: the round of the reveal.", "host.correctable.round")
    transmission = Target(fields.TEAM, "`view.host.correctable.team`: whose transmission.", "host.correctable.team")
    refusals = ("nothing_to_correct", "guess_malformed", "correction_changes_nothing", "correction_resumes_play")
    example = {"decryption": [3, 1, 4], "interception": [3, 1, 2], "round": 2, "transmission": "white"}

    def stale(self, game: Game, actor: Who) -> RuleError | None:
        found = correctable(game)
        now = (found[0].number, found[1].team) if found else (None, None)
        if self.round.differs(now[0]) or self.transmission.differs(now[1]):
            return stale("reveal_changed")
        return None

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        found = correctable(game)
        if found is None:
            raise RuleError("nothing_to_correct")
        decryption = self.decryption
        interception = None
        if found[0].interception_allowed:
            interception = self.interception
            if interception is None:
                raise RuleError("guess_malformed")
        return _proposed(game, decryption, interception)


class AnswerCorrection(SeatCommand):
    """Each side at the table (both teams; the team and the Interceptor) confirms or rejects the correction."""

    phases = ANY_PHASE  # whenever a correction waits
    during_correction = True
    summary = "Accept or reject the proposed correction"
    description = (
        "By a player of a side that hasn't accepted it yet (`view.correction`): a rejection drops the "
        "correction; once both sides accepted, it applies (events `reveal_corrected` and, if the corrected "
        "reveal ended its round, `round_reopened` and what the round's end now leads to)."
    )
    accept = Field(fields.BOOLEAN, "True to accept, false to reject.", "accept_malformed")
    correction = Target(fields.CORRECTION, "`view.correction.id`: the proposal answered.", "correction.id")
    refusals = ("no_correction", "correction_already_confirmed", "accept_malformed", "correction_resumes_play")
    example = {"accept": True, "correction": 1}

    def stale(self, game: Game, actor: Who) -> RuleError | None:
        problem = _correction_changed(game, self.correction)
        player = game.player(actor.seat)
        correction = game.correction  # None: nothing to answer, which the handler says (no_correction)
        if problem is None and self.correction.named and correction and player and player.team in correction.confirmed:
            return stale("correction_accepted")
        return problem

    def play(self, game: Game, player: Player, rng: random.Random) -> list[Event]:
        correction = game.correction
        if correction is None:
            raise RuleError("no_correction")
        if player.team in correction.confirmed:
            raise RuleError("correction_already_confirmed")
        accept = self.accept
        events: list[Event] = [CorrectionAnswered(team=player.team, accept=accept)]
        if not accept or correction.confirmed | {player.team} != set(TEAMS):
            return events
        after = replay(events, game)
        corrected = _corrected(after, correction.decryption, correction.interception, rng)
        if keywords_public(game) and _resumes_play(after, corrected):
            raise RuleError("correction_resumes_play")  # proposed before such corrections were refused
        return events + corrected


def _resumes_play(game: Game, corrected: list[Event]) -> bool:
    """Whether a correction's events take a game that is over back into play (a next round, the tiebreak)."""
    return replay(corrected, game).phase != OVER


def _corrected(
    game: Game, decryption: tuple[int, ...], interception: tuple[int, ...] | None, rng: random.Random
) -> list[Event]:
    """The events of the last reveal corrected to these guesses, and what its round's end now leads to."""
    found = correctable(game)
    assert found is not None  # the correction proposed is of the last reveal, which still is
    r, transmission = found
    code = transmission.code
    corrected = RevealCorrected(
        round=r.number,
        team=transmission.team,
        decryption=decryption,
        interception=interception or None,
        intercepted=interception == code,
        miscommunicated=decryption != code,
    )
    if not r.finished:
        return [corrected]
    # The corrected reveal ended its round: judge that round's end again.
    reopened = RoundReopened(round=r.number)
    after = replay([reopened, corrected], game)
    return [reopened, corrected] + after_resolution(after, rng)


def _correction_changed(game: Game, seen: Seen[int]) -> RuleError | None:
    """The proposal the player's screen showed (`correction`) is not the one waiting now."""
    if seen.differs(game.correction.id if game.correction else None):
        return stale("correction_changed")
    return None


class WithdrawCorrection(HostCommand):
    phases = ANY_PHASE  # whenever a correction waits
    during_correction = True
    summary = "Withdraw the proposed correction"
    description = "With the host token, while a correction waits for answers."
    correction = Target(fields.CORRECTION, "`view.correction.id`: the proposal withdrawn.", "correction.id")
    refusals = ("no_correction",)
    example = {"correction": 1}

    def stale(self, game: Game, actor: Who) -> RuleError | None:
        return _correction_changed(game, self.correction)

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        if game.correction is None:
            raise RuleError("no_correction")
        return [CorrectionWithdrawn()]


class _SandTimerCommand(HostCommand, abstract=True):
    """A command on the sand timer the table screen showed (`team`: the Encryptor it ran for)."""

    phases = (PLAYING,)
    timed = True
    match = match_target()
    round = round_target()
    team = Target(
        fields.TEAM,
        "`view.timer.late_team`: the team whose Encryptor the sand timer ran for, as the table screen showed it.",
        "timer.late_team",
    )
    example = {"match": 1, "round": 2, "team": "black"}
    pausing: bool | None = None  # a pause, a resume, or (None) a command the timer's pause doesn't stop

    def stale(self, game: Game, actor: Who) -> RuleError | None:
        """Running for a pause and paused for a resume: it stopped since (the late clues came, or the first were
        taken back), or a second tap finds it already paused, or already running again."""
        if not self.team.named:
            return None
        timer = sand_timer(game)
        if timer is None or self.team.differs(timer.late.team):
            return stale("timer_stopped")
        if self.pausing is not None and timer.paused == self.pausing:
            return stale("timer_paused" if timer.paused else "timer_running")
        return None


class PauseTimer(_SandTimerCommand):
    """Someone at the table is called away (the doorbell, the pizza): the sand timer stops, keeping its time
    left, until the table resumes it. Only a timer that runs and has time left: one whose time is up has
    nothing left to keep."""

    summary = "Pause the sand timer"
    description = (
        "With the host token, while the sand timer runs and has time left (`view.timer`, not `paused`): the "
        "table is interrupted, so the timer stops and keeps its time left until `resume-timer` (event "
        "`timer_paused`, in the public log). Every screen shows it paused, its `remaining` frozen. Naming "
        "the timer the table screen showed (`team`, its `late_team`) makes a repeat safe."
    )
    refusals = (*phase_refusals(PLAYING), "timer_not_running")
    pausing = True

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        at, timer = self.at, sand_timer(game)  # without the service's clock there is no sand timer to run
        if timer is None or timer.paused or at is None or timer.left(at) <= 0:
            raise RuleError("timer_not_running")
        return [TimerPaused(at=float(at))]


class ResumeTimer(_SandTimerCommand):
    """The paused sand timer goes on from the time it had left."""

    summary = "Resume the sand timer"
    description = (
        "With the host token, while the sand timer is paused (`view.timer.paused`): it goes on from the time "
        "it had left (event `timer_resumed`, in the public log). Naming the timer the table screen showed "
        "(`team`, its `late_team`) makes a repeat safe."
    )
    refusals = (*phase_refusals(PLAYING), "timer_not_paused")
    pausing = False

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        at, timer = self.at, sand_timer(game)
        if timer is None or not timer.paused or at is None:
            raise RuleError("timer_not_paused")
        return [TimerResumed(at=float(at))]


class IssueSeatLink(HostCommand):
    """A fresh link to a player's seat, for a new phone (the service mints the token); never in a try-out,
    whose seats are all on the one device that made it. The seat's team sees it at once on its phones."""

    url = "seat-link"
    phases = ANY_PHASE  # a phone can die in any phase
    real_game_only = True
    during_correction = True
    timed = True
    summary = "Issue a new link to a player's seat"
    description = (
        "With the host token, in a real game (a try-out's seats stay on its one device): a fresh link for a "
        "player whose phone died (any earlier link to that seat stops working). The answer holds the link, "
        "which the table screen also shows as a QR code; the phones of the seat's team show at once that it "
        "was made, and when (`view.you.seat_links`), and can cancel it (`reject-seat-link`). The new phone "
        "claims the seat with it (`claim-seat`); `cancel-seat-link` withdraws it."
    )
    seat = seat_field()
    holder = Target(
        fields.TEXT,
        "The seat holder's name, as the table screen showed it.",
        "teams.*.players.[seat={seat}].name",
        key="name",
    )
    refusals = ("no_such_player", "try_out_fixed_seats")
    example = {"seat": 2, "name": "Ann"}
    answer = "SeatLinkResult"

    def stale(self, game: Game, actor: Who) -> RuleError | None:
        seat = IssueSeatLink.seat.peek(self)
        player = game.player(seat) if seat is not None else None
        if player is not None and self.holder.differs(player.name):
            return stale("seat_holder_changed", seat=seat)
        return None

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        return [SeatLinkIssued(seat=player_at(game, self.seat).seat, at=self.at)]


class CancelSeatLink(HostCommand):
    """The player's old phone came back, or the link was shown by mistake: the link stops working."""

    phases = ANY_PHASE
    during_correction = True
    careful = "seat"
    summary = "Cancel a seat link not claimed yet"
    description = (
        "With the host token: the seat's waiting link (from `seat-link`) stops working, e.g. when the player's "
        "old phone came back. The seat's current token keeps working."
    )
    seat = seat_field()
    refusals = ("no_such_player", "no_seat_link")
    example = {"seat": 2}

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        seat = player_at(game, self.seat).seat
        if seat not in game.seat_links:
            raise RuleError("no_seat_link")
        return [SeatLinkCancelled(seat=seat)]


class ClaimSeat(Command):
    """A new phone takes a seat with its link. While any phone of the seat's team is in use (the seat's own old
    phone included) it waits until one of them lets it in (`LetIn`), so a link someone else made or scanned
    on the table screen gets them nothing. Only when none is does it take the seat at once, and everyone is
    told (`unattended`). `in_use`: the seats whose phone asked for its view lately, as the service saw them
    (without it, every phone counts as in use)."""

    sender = Kind.HANDOFF
    phases = ANY_PHASE
    real_game_only = True  # a link issued before try-outs refused them
    during_correction = True
    seats_a_phone = True
    timed = True
    phones_in_use = True
    summary = "Claim a seat with its new link"
    description = (
        f"With a seat link's token (from `seat-link`): this caller becomes the seat's player once a phone of the "
        f"seat's team lets it in. While any phone of that team is in use (it asked for its view, polled or held "
        f"its stream in the last {PHONE_IN_USE_SECONDS // 60} minutes; the seat's own old phone counts too), "
        "the claim waits (event `seat_claim_waiting`, `view.waiting`) until one of them lets the new phone in "
        "(`let-in`) or turns it away (`reject-seat-link`), or, once none of them has been in use for that long "
        "(`view.waiting[].until`), takes the seat by itself at the new token's next asking. When none is in use "
        "to begin with, it takes the seat at once. Taken without a teammate either way (event `seat_claimed` "
        "with `unattended`), every screen says so (`view.unattended`) until a teammate acknowledges it. The "
        "answer holds the seat and its new token, and the link stops working; the old token stops working once "
        "the seat is taken. While it waits, the new token is refused (`seat_waiting`, 403, saying until when), "
        "or `claim_replaced` once a newer link for the seat replaced it."
    )
    refusals = ("try_out_fixed_seats",)
    example = NO_BODY
    answer = "ClaimResult"

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        seat = actor.seat
        if seat is None or seat not in game.seat_links:
            raise RuleError("seat_link_only")
        team = game.seated(seat).team
        if self.in_use is None or any(p.seat in self.in_use for p in game.team_players(team)):
            return [SeatClaimWaiting(seat=seat)]
        return [SeatClaimed(seat=seat, unattended=True, at=self.at)]


def waiting_until(game: Game, seat: int, seen: Mapping[int, float]) -> float:
    """When the new phone waiting for `seat` takes it by itself (`take_seat_by_itself`) unless a phone of the
    seat's team is used before then: PHONE_IN_USE_SECONDS after the last moment any of them may have asked for
    its view (the seat's own old phone included). `seen`: when the service last wrote that each seat's phone
    asked (seat -> seconds on its clock).

    Counted conservatively, for a waiting phone is let in with nobody there to say no: a phone written at T may
    have asked until just before T + SEEN_WRITE_SECONDS unwritten, so the team's phones are surely unused since
    its latest time + SEEN_WRITE_SECONDS (any later asking is written, and moves this time on). Then rounded up to
    the whole minute: the screens say it to the minute ("at 12:34"), and it happens then, never before."""
    team = game.seated(seat).team
    last = max((seen[p.seat] for p in game.team_players(team) if p.seat in seen), default=0.0)  # 0: none seen
    return float(math.ceil((last + SEEN_WRITE_SECONDS + PHONE_IN_USE_SECONDS) / 60) * 60)


def take_seat_by_itself(game: Game, seat: int, seen: Mapping[int, float], now: float) -> list[Event]:
    """The new phone waiting for `seat` asked for its view (the service's own step, not a command anyone sends):
    once none of its team's phones has been in use for PHONE_IN_USE_SECONDS (`waiting_until`), nobody is there
    to let it in, and it takes the seat as a claim would have then (`claim_seat`): at once and loudly
    (`unattended`, until a teammate acknowledges it). Before then, or with no phone waiting there, nothing."""
    if seat not in game.waiting_phones or now < waiting_until(game, seat, seen):
        return []
    return [SeatClaimed(seat=seat, unattended=True, at=now)]


class _TeamSeatCommand(SeatCommand, abstract=True):
    """A player answers for a seat of the own team (`seat`); refused with `not_teammates` otherwise."""

    phases = ANY_PHASE
    during_correction = True
    seat = seat_field()
    example = {"seat": 2}
    not_teammates: str

    def play(self, game: Game, player: Player, rng: random.Random) -> list[Event]:
        seat = player_at(game, self.seat)
        if seat.team != player.team:
            raise RuleError(self.not_teammates)
        return self.answer_for(game, player, seat)

    def answer_for(self, game: Game, me: Player, seat: Player) -> list[Event]:
        raise NotImplementedError


class LetIn(_TeamSeatCommand):
    """A phone of the seat's team (its own old phone too) lets the seat's waiting new phone in: the seat moves
    to it, the old phone is signed out."""

    summary = "Let a seat's new phone in"
    description = (
        "By a player of the seat's team (the seat's own old phone too), when that seat's new phone claimed its "
        "link and waits (`view.you.waiting_phones`): the seat moves to the new phone and its old phone is signed "
        "out (event `seat_handed`, in the public log with who let it in)."
    )
    refusals = ("no_such_player", "teammates_let_in", "no_waiting_phone")
    not_teammates = "teammates_let_in"

    def answer_for(self, game: Game, me: Player, seat: Player) -> list[Event]:
        if seat.seat not in game.waiting_phones:
            raise RuleError("no_waiting_phone")
        return [SeatHanded(seat=seat.seat, by=me.seat)]


class RejectSeatLink(_TeamSeatCommand):
    """A phone of the seat's team says "that's not us": the seat's link stops working, and a new phone that
    used it and waits is sent away."""

    summary = "Turn away a seat link of the team"
    description = (
        "By a player of the seat's team (the seat's own phone too), while that seat has a link not claimed yet "
        "(`view.you.seat_links`) or a new phone waiting (`view.you.waiting_phones`): \"that's not us\". The link "
        "stops working and the waiting phone is sent away (event `seat_link_cancelled` with `by`, in the public "
        "log)."
    )
    refusals = ("no_such_player", "not_your_team", "no_seat_link")
    not_teammates = "not_your_team"

    def answer_for(self, game: Game, me: Player, seat: Player) -> list[Event]:
        if seat.seat not in game.seat_links and seat.seat not in game.waiting_phones:
            raise RuleError("no_seat_link")
        return [SeatLinkCancelled(seat=seat.seat, by=me.seat)]


class AcknowledgeClaim(_TeamSeatCommand):
    """A teammate saw that the seat went to a new phone while none of the team's phones was in use: the loud
    notice goes. Never the seat itself, which can't vouch for its own new phone."""

    summary = "Acknowledge a seat taken while the team was away"
    description = (
        "By a player of the seat's team other than the seat itself, for a seat in `view.unattended` (taken by a "
        "new phone while no phone of the team was in use): the team has seen it, and every screen stops saying "
        "so (event `claim_acknowledged`, in the public log with who). If the new phone is not the player's, ask "
        "the table screen for a new seat link instead: its claim then waits for one of you."
    )
    refusals = ("no_such_player", "not_your_team", "teammates_acknowledge", "no_unattended_claim")
    not_teammates = "not_your_team"

    def answer_for(self, game: Game, me: Player, seat: Player) -> list[Event]:
        if seat.seat == me.seat:
            raise RuleError("teammates_acknowledge")
        if seat.seat not in game.unattended:
            raise RuleError("no_unattended_claim")
        return [ClaimAcknowledged(seat=seat.seat, by=me.seat)]


# --- moving the table screen: in the public log, and a move, not a copy (the service replaces the host
# token when the link is used: `TableMoved.capabilities`). The table screen's own page sends these, never the API.


class OfferTableMove(HostCommand):
    """A one-time link that makes another device the table screen (replacing any earlier one)."""

    url = "move-table"
    in_api = False
    phases = ANY_PHASE
    during_correction = True
    timed = True
    summary = "Show a link to move the table screen"
    description = ""
    example = NO_BODY

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        return [TableMoveOffered(at=self.at)]


class CancelTableMove(HostCommand):
    in_api = False
    phases = ANY_PHASE
    during_correction = True
    summary = "Cancel the move link"
    description = ""
    refusals = ("no_table_move",)
    example = NO_BODY

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        if not game.move_offered:
            raise RuleError("no_table_move")
        return [TableMoveCancelled()]


class TakeTable(Command):
    """The move link, used on the new device: it becomes the table screen, and the old one stops being it."""

    sender = Kind.TABLE_MOVE
    in_api = False
    phases = ANY_PHASE
    during_correction = True
    timed = True
    summary = "Make this device the table screen"
    description = ""
    refusals = ("no_table_move",)
    example = NO_BODY

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        if not game.move_offered:
            raise RuleError("no_table_move")
        return [TableMoved(at=self.at)]
