"""The table screen's corrections (skip an Encryptor, take back an entry, correct a reveal) and seat links."""

from __future__ import annotations

import random

from .codes import draw_code
from .errors import RuleError
from .guards import player_at, require_phase, require_real_game, seated_player
from .play import after_resolution
from .queries import correctable, keywords_public, last_entry, skip_problem
from .state import OVER, PLAYING, TEAMS, replay
from .text import parse_code


def skip_encryptor(game, command, actor, rng):
    """The next teammate takes the round (with a fresh code: the one who stepped away may have seen it)."""
    require_phase(game, PLAYING)
    team = command.get("team")
    problem = skip_problem(game, team) if isinstance(team, str) else "no_such_team"
    if problem is not None:
        raise RuleError(problem)
    return [{"type": "encryptor_skipped", "team": team, "code": list(draw_code(rng))}]


def take_back(game, command, actor, rng):
    require_phase(game, PLAYING)
    entry = last_entry(game)
    if entry is None:
        raise RuleError("nothing_to_take_back")
    return [{"type": "entry_taken_back", **entry}]


def propose_correction(game, command, actor, rng):
    found = correctable(game)
    if found is None:
        raise RuleError("nothing_to_correct")
    r, transmission = found
    decryption = parse_code(command.get("decryption"))
    interception = parse_code(command.get("interception")) if r.interception_allowed else None
    if decryption == transmission.decryption.code and interception == (
            transmission.interception.code if r.interception_allowed else None):
        raise RuleError("correction_changes_nothing")
    # Once everyone has seen both teams' keywords, the result may change but play can't go on with them.
    # (A spare random source: these events are only looked at, and the game's own dice stay untouched.)
    if keywords_public(game) and _resumes_play(game, _corrected(game, decryption, interception, random.Random())):
        raise RuleError("correction_resumes_play")
    return [{"type": "correction_proposed", "round": r.number, "team": transmission.team,
             "decryption": list(decryption), "interception": list(interception) if interception else None}]


def answer_correction(game, command, actor, rng):
    """Each side at the table (both teams; the team and the Interceptor) confirms or rejects the correction."""
    player = seated_player(game, actor)
    correction = game.correction
    if correction is None:
        raise RuleError("no_correction")
    if player.team in correction.confirmed:
        raise RuleError("correction_already_confirmed")
    accept = command.get("accept")
    if not isinstance(accept, bool):
        raise RuleError("accept_malformed")
    events = [{"type": "correction_answered", "team": player.team, "accept": accept}]
    if not accept or correction.confirmed | {player.team} != set(TEAMS):
        return events
    after = replay(events, game)
    corrected = _corrected(after, correction.decryption, correction.interception, rng)
    if keywords_public(game) and _resumes_play(after, corrected):
        raise RuleError("correction_resumes_play")      # proposed before such corrections were refused
    return events + corrected


def _resumes_play(game, corrected: list[dict]) -> bool:
    """Whether a correction's events take a game that is over back into play (a next round, the tiebreak)."""
    return replay(corrected, game).phase != OVER


def _corrected(game, decryption, interception, rng) -> list[dict]:
    """The events of the last reveal corrected to these guesses, and what its round's end now leads to."""
    r, transmission = correctable(game)
    code = transmission.code
    corrected = {"type": "reveal_corrected", "round": r.number, "team": transmission.team,
                 "decryption": list(decryption), "interception": list(interception) if interception else None,
                 "intercepted": interception == code, "miscommunicated": decryption != code}
    if not r.finished:
        return [corrected]
    # The corrected reveal ended its round: judge that round's end again.
    reopened = {"type": "round_reopened", "round": r.number}
    after = replay([reopened, corrected], game)
    return [reopened, corrected] + after_resolution(after, rng)


def withdraw_correction(game, command, actor, rng):
    if game.correction is None:
        raise RuleError("no_correction")
    return [{"type": "correction_withdrawn"}]


def issue_seat_link(game, command, actor, rng):
    """A fresh link to a player's seat, for a new phone (the service mints the token); never in a try-out,
    whose seats are all on the one device that made it."""
    require_real_game(game)
    return [{"type": "seat_link_issued", "seat": player_at(game, command).seat}]


def cancel_seat_link(game, command, actor, rng):
    """The player's old phone came back, or the link was shown by mistake: the link stops working."""
    seat = player_at(game, command).seat
    if seat not in game.seat_links:
        raise RuleError("no_seat_link")
    return [{"type": "seat_link_cancelled", "seat": seat}]


def claim_seat(game, command, actor, rng):
    """A new phone takes a seat with its link: it waits until a teammate lets it in (`let_in`), so a link
    someone else scanned off the table screen gets them nothing; at once if no teammate has a working phone
    to ask (none, or each one's phone died too: a seat link or a new phone waits for them as well)."""
    require_real_game(game)         # a link issued before try-outs refused them
    if actor.seat not in game.seat_links:
        raise RuleError("seat_link_only")
    team = game.player(actor.seat).team
    if any(p.team == team and p.seat != actor.seat and p.seat not in game.seat_links | game.waiting_phones
           for p in game.players):
        return [{"type": "seat_claim_waiting", "seat": actor.seat}]
    return [{"type": "seat_claimed", "seat": actor.seat}]


def let_in(game, command, actor, rng):
    """A teammate lets a seat's waiting new phone in: the seat moves to it, the old phone is signed out."""
    me = seated_player(game, actor)
    seat = player_at(game, command)
    if seat.team != me.team or seat.seat == me.seat:
        raise RuleError("teammates_let_in")
    if seat.seat not in game.waiting_phones:
        raise RuleError("no_waiting_phone")
    return [{"type": "seat_handed", "seat": seat.seat, "by": me.seat}]
