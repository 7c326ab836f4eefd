"""The table screen's corrections (skip an Encryptor, take back an entry, correct a reveal), pausing the sand
timer, seat links and moving the table screen."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

from .codes import draw_code
from .errors import RuleError
from .fields import BOOLEAN, CODE, TEAM
from .guards import Actor, CommandBody, player_at, require_phase, require_real_game, seated_player
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

# A phone is in use when it asked for its view (its page, a poll, its stream, a command) this recently; a claim
# of a seat whose team has no phone in use goes through at once (`claim_seat`). A phone whose screen sleeps
# stops asking (browsers suspend its page), so its team counts it as there for this long after it slept.
PHONE_IN_USE_SECONDS = 120
# The service writes when a phone asked at most once this often (games.py `saw`): a phone written at T may have
# asked again until just before T + SEEN_WRITE_SECONDS without it being written; any asking later is written.
SEEN_WRITE_SECONDS = 60


def skip_encryptor(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """The next teammate takes the round (with a fresh code: the one who stepped away may have seen it)."""
    require_phase(game, PLAYING)
    team = command.get("team")
    if not TEAM.accepts(team):
        raise RuleError("no_such_team")
    problem = skip_problem(game, team)
    if problem is not None:
        raise RuleError(problem)
    return [EncryptorSkipped(team=team, code=draw_code(rng))]


def take_back(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    require_phase(game, PLAYING)
    entry = last_entry(game)
    if entry is None:
        raise RuleError("nothing_to_take_back")
    return [EntryTakenBack(**entry)]


def propose_correction(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    found = correctable(game)
    if found is None:
        raise RuleError("nothing_to_correct")
    r, transmission = found
    decryption = CODE.parse(command.get("decryption"), "guess_malformed")
    interception = CODE.parse(command.get("interception"), "guess_malformed") if r.interception_allowed else None
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


def answer_correction(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """Each side at the table (both teams; the team and the Interceptor) confirms or rejects the correction."""
    player = seated_player(game, actor)
    correction = game.correction
    if correction is None:
        raise RuleError("no_correction")
    if player.team in correction.confirmed:
        raise RuleError("correction_already_confirmed")
    accept = BOOLEAN.parse(command.get("accept"), "accept_malformed")
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


def withdraw_correction(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    if game.correction is None:
        raise RuleError("no_correction")
    return [CorrectionWithdrawn()]


def pause_timer(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """Someone at the table is called away (the doorbell, the pizza): the sand timer stops, keeping its time
    left, until the table resumes it. Only a timer that runs and has time left: one whose time is up has
    nothing left to keep."""
    require_phase(game, PLAYING)
    at, timer = _now(command), sand_timer(game)
    if timer is None or timer.paused or at is None or timer.left(at) <= 0:
        raise RuleError("timer_not_running")
    return [TimerPaused(at=at)]


def resume_timer(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """The paused sand timer goes on from the time it had left."""
    require_phase(game, PLAYING)
    at, timer = _now(command), sand_timer(game)
    if timer is None or not timer.paused or at is None:
        raise RuleError("timer_not_paused")
    return [TimerResumed(at=at)]


def _now(command: CommandBody) -> float | None:
    """The service's clock, which it passes to a `timed` command (`at`), never a request's; None without it
    (then there is no sand timer to run, as in a view without a clock)."""
    at = command.get("at")
    return float(at) if isinstance(at, (int, float)) and not isinstance(at, bool) else None


def issue_seat_link(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """A fresh link to a player's seat, for a new phone (the service mints the token); never in a try-out,
    whose seats are all on the one device that made it. The seat's team sees it at once on its phones."""
    require_real_game(game)
    return [SeatLinkIssued(seat=player_at(game, command).seat, at=command.get("at"))]


def cancel_seat_link(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """The player's old phone came back, or the link was shown by mistake: the link stops working."""
    seat = player_at(game, command).seat
    if seat not in game.seat_links:
        raise RuleError("no_seat_link")
    return [SeatLinkCancelled(seat=seat)]


def claim_seat(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """A new phone takes a seat with its link. While any phone of the seat's team is in use (the seat's own old
    phone included) it waits until one of them lets it in (`let_in`), so a link someone else made or scanned
    on the table screen gets them nothing. Only when none is does it take the seat at once, and everyone is
    told (`unattended`). `in_use`: the seats whose phone asked for its view lately, as the service saw them
    (without it, every phone counts as in use)."""
    require_real_game(game)  # a link issued before try-outs refused them
    seat = actor.seat
    if seat is None or seat not in game.seat_links:
        raise RuleError("seat_link_only")
    in_use = command.get("in_use")
    team = game.seated(seat).team
    if in_use is None or any(p.seat in in_use for p in game.team_players(team)):
        return [SeatClaimWaiting(seat=seat)]
    return [SeatClaimed(seat=seat, unattended=True, at=command.get("at"))]


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


def _team_seat(game: Game, command: CommandBody, actor: Actor, refusal: str) -> tuple[Player, Player]:
    """(the sender, the player at the command's seat), refused with `refusal` unless both are on one team."""
    me = seated_player(game, actor)
    seat = player_at(game, command)
    if seat.team != me.team:
        raise RuleError(refusal)
    return me, seat


def let_in(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """A phone of the seat's team (its own old phone too) lets the seat's waiting new phone in: the seat moves
    to it, the old phone is signed out."""
    me, seat = _team_seat(game, command, actor, "teammates_let_in")
    if seat.seat not in game.waiting_phones:
        raise RuleError("no_waiting_phone")
    return [SeatHanded(seat=seat.seat, by=me.seat)]


def reject_seat_link(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """A phone of the seat's team says "that's not us": the seat's link stops working, and a new phone that
    used it and waits is sent away."""
    me, seat = _team_seat(game, command, actor, "not_your_team")
    if seat.seat not in game.seat_links and seat.seat not in game.waiting_phones:
        raise RuleError("no_seat_link")
    return [SeatLinkCancelled(seat=seat.seat, by=me.seat)]


def acknowledge_claim(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """A teammate saw that the seat went to a new phone while none of the team's phones was in use: the loud
    notice goes. Never the seat itself, which can't vouch for its own new phone."""
    me, seat = _team_seat(game, command, actor, "not_your_team")
    if seat.seat == me.seat:
        raise RuleError("teammates_acknowledge")
    if seat.seat not in game.unattended:
        raise RuleError("no_unattended_claim")
    return [ClaimAcknowledged(seat=seat.seat, by=me.seat)]


# --- moving the table screen: in the public log, and a move, not a copy (the service replaces the host
# token when the link is used: `TableMoved.capabilities`)


def offer_table_move(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """A one-time link that makes another device the table screen (replacing any earlier one)."""
    return [TableMoveOffered(at=command.get("at"))]


def cancel_table_move(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    if not game.move_offered:
        raise RuleError("no_table_move")
    return [TableMoveCancelled()]


def take_table(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """The move link, used on the new device: it becomes the table screen, and the old one stops being it."""
    if not game.move_offered:
        raise RuleError("no_table_move")
    return [TableMoved(at=command.get("at"))]
