"""`view_for(game, viewer)`: the one place that decides what each viewer may see.

Every page and every JSON body is rendered from this view only. It is built by *copying* what the
viewer may know (an allow-list); nothing is ever deleted from the raw state, so a field added to the
rules tomorrow stays private until someone decides here that it may be shown.

Secrets and when they open up:
- a team's keywords: its own players; everyone once both teams sealed their keyword guesses in the
  tiebreak (the screens are turned around for judging) or the game is over;
- a code: its Encryptor; everyone once its transmission is resolved;
- a team's guess (draft or sealed): that team; everyone once the transmission is resolved;
- clues: their Encryptor once announced; everyone once their transmission opens;
- keyword guesses in the tiebreak: their team; everyone once both teams sealed them;
- which keyword a team swapped: that team only (everyone sees *that* it swapped);
- a team's notes (rules/notes.py): that team, for the match; nobody else ever (not even once it is over).

The public log (`notices`), a pending correction, the seats taken while their team was away (`unattended`) and
the new phones waiting for a seat (`waiting`: when each takes it by itself, as the table screen shows it) only
ever hold what is already public; a team's phones also see the seat links made for its seats.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from .rules import KEYWORD_GUESSING, KEYWORD_JUDGING, LOBBY, OVER, PLAYING, Game, other
from .rules.access import SPECTATOR, Kind, Who
from .rules.events import NOTICES
from .rules.notes import takes_notes
from .rules.queries import (
    correctable,
    keywords_public,
    last_entry,
    proposed_verdicts,
    sand_timer,
    skippable,
    start_problem,
    swap_problem,
    task,
)
from .rules.round_end import standings
from .rules.state import Guess, Player, Round, Transmission, token_awards

if TYPE_CHECKING:  # the view's shapes are declared there, for type checkers and the OpenAPI document only
    from . import view_types


T = TypeVar("T")

# The tasks that ask a player to act now: a phone calls its player when one of them arrives.
TURN_TASKS = frozenset(
    {"write_clues", "decrypt", "intercept", "intercept_alone", "guess_keywords", "answer_correction"}
)


def version_for(game: Game, viewer: Who) -> int:
    """The version of `viewer`'s view: the number of events it could see (rules/audience.py). A team's draft
    or note moves only that team's versions, so nobody else's poll, ETag, stream or command answer learns of it."""
    return game.version_seen_by(viewer.player_seat)


def view_for(
    game: Game, viewer: Who, now: float | None = None, waiting: Mapping[int, float] | None = None
) -> view_types.View:
    """What `viewer` may see of `game`; `now` (seconds, the service's clock) runs the sand timer; `waiting`: when
    each new phone waiting for a seat takes it by itself, as the service worked it out (games.py `waiting_until`:
    from when it saw the team's phones), else unknown."""
    me = game.player(viewer.player_seat)
    my_team = me.team if me else None
    round_ = game.round
    rounds = [_round(game, r, viewer, my_team) for r in game.rounds]
    return {
        "version": version_for(game, viewer),
        "phase": game.phase,
        "language": game.language,
        "mode": game.settings.mode,
        "try_out": game.settings.try_out,
        "match": game.match,
        "round": round_.number if round_ else 0,
        "max_rounds": game.max_rounds,
        "transmitting": list(game.transmitting),
        "joining_locked": game.joining_locked,
        "timer_seconds": game.settings.timer,
        "start_problem": _start_problem(game),
        "viewer": {
            "role": viewer.kind,
            "team": my_team or (viewer.team if viewer.kind == Kind.JOIN else None),
            "seat": me.seat if me else None,
            "name": me.name if me else None,
        },
        "teams": _per_team(lambda team: _team(game, team, my_team)),
        "rounds": rounds,
        "transmission": round_.current.team if game.phase == PLAYING and round_ and round_.current else None,
        "tiebreak": _tiebreak(game, my_team),
        "result": _result(game),
        "timer": _timer(game, now),
        "correction": _correction(game),
        "notices": [_notice(n) for n in game.notices],
        "unattended": [
            {"seat": seat, "team": game.seated(seat).team, "at": at} for seat, at in sorted(game.unattended.items())
        ],
        "waiting": [
            {"seat": seat, "team": game.seated(seat).team, "until": (waiting or {}).get(seat)}
            for seat in sorted(game.waiting_phones)
        ],
        "last_reveal": _last_reveal(rounds),
        "you": _you(game, me) if me else None,
        "host": _host(game) if viewer.kind == Kind.HOST else None,
    }


def view_key(game: Game, viewer: Who) -> tuple[Any, ...]:
    """All that `viewer`'s view of `game` reads of its viewer but its own seat and name: viewers with equal keys
    (a team's guessers, the spectators) see the same view but for those two fields (`as_seen_by`), so a page's
    stream works it out once for them all (web/pages/rendering.py). The rules' state machine checks the claim
    after every step of its random games (tests/test_rules_state_machine.py)."""
    me = game.player(viewer.player_seat)
    if me is None:
        return (viewer.kind, viewer.team if viewer.kind == Kind.JOIN else None, version_for(game, viewer))
    # The transmissions it encrypts this round: it sees their clues, and its code, before anyone else.
    latest = game.rounds[-1].transmissions.values() if game.rounds else ()
    encrypts = tuple(t.team for t in latest if t.encryptor == me.seat)
    return (viewer.kind, me.team, version_for(game, viewer), task(game, me), encrypts)


def as_seen_by(view: view_types.View, game: Game, viewer: Who) -> view_types.View:
    """`view`, worked out for a viewer with the same `view_key`, as `viewer`'s own."""
    me = game.player(viewer.player_seat)
    return {**view, "viewer": {**view["viewer"], "seat": me.seat if me else None, "name": me.name if me else None}}


def without_own(view: view_types.View) -> dict[str, Any]:
    """`view` less its viewer's own seat and name: the same for all viewers with the same `view_key`."""
    return {**view, "viewer": {**view["viewer"], "seat": None, "name": None}}


def _per_team(value: Callable[[str], T]) -> view_types.PerTeam[T]:
    """Each team's value (in the order of TEAMS, which PerTeam names)."""
    return {"white": value("white"), "black": value("black")}


def summary_for(game: Game) -> view_types.Summary:
    """A finished game, whole: everything is public once it is over (keywords, codes, guesses)."""
    if game.phase != OVER:
        raise ValueError("a summary is only for a finished game")
    return {**view_for(game, SPECTATOR), "version": 0}


def _start_problem(game: Game) -> view_types.StartProblem | None:
    """In the lobby, why the game can't start yet (None when it can, or once it has started)."""
    if game.phase != LOBBY:
        return None
    problem = start_problem(game)
    if problem is None:
        return None
    # The params of a start problem's refusal are the ones StartProblemParams lists (rules.queries.start_problem).
    return {"code": problem.code, "params": cast("view_types.StartProblemParams", problem.params)}


def _team(game: Game, team: str, my_team: str | None) -> view_types.Team:
    round_ = game.round
    transmission = round_.transmissions.get(team) if round_ and game.phase == PLAYING else None
    encryptor = transmission.encryptor if transmission else None
    show_keywords = team in game.keywords and (team == my_team or keywords_public(game))
    tokens = standings(game)[team]
    return {
        "players": [
            {"seat": p.seat, "name": p.name, "encryptor": p.seat == encryptor} for p in game.team_players(team)
        ],
        "tokens": {"interceptions": tokens["interceptions"], "miscommunications": tokens["miscommunications"]},
        "score": tokens["score"],
        "keywords": list(game.keywords[team]) if show_keywords else None,
        "columns": _columns(game, team),
    }


def _columns(game: Game, team: str) -> list[list[view_types.NoteSheetClue]]:
    """The bottom of the note sheet: every revealed clue under its true keyword number."""
    columns: list[list[view_types.NoteSheetClue]] = [[] for _ in range(4)]
    for r in game.rounds:
        t = r.transmissions.get(team)
        if t and t.resolved and t.clues is not None:  # a resolved transmission's clues were announced
            for clue, number in zip(t.clues, t.code, strict=True):
                columns[number - 1].append({"clue": clue, "round": r.number})
    return columns


def _guess(guess: Guess, visible: bool) -> view_types.Guess:
    return {
        "code": list(guess.code) if visible and guess.code else None,
        "sealed": guess.sealed,
        "started": guess.code is not None if visible else guess.sealed,
    }


def _transmission(
    game: Game, t: Transmission, r: Round, viewer: Who, my_team: str | None, is_open: bool
) -> view_types.Transmission:
    mine_as_encryptor = viewer.player_seat == t.encryptor
    return {
        "team": t.team,
        "encryptor": t.encryptor,
        "announced": t.clues is not None,
        "clues": list(t.clues) if t.clues is not None and (is_open or t.resolved or mine_as_encryptor) else None,
        "open": is_open,
        "resolved": t.resolved,
        "code": list(t.code) if t.resolved else None,
        "decryption": _guess(t.decryption, t.resolved or my_team == t.team),
        "interception": (
            _guess(t.interception, t.resolved or my_team == other(t.team)) if r.interception_allowed else None
        ),
        "intercepted": t.intercepted if t.resolved else None,
        "miscommunicated": t.miscommunicated if t.resolved else None,
        "awards": (
            [
                {"team": team, "token": kind}
                for team, kind in token_awards(game, t.team, t.intercepted, t.miscommunicated)
            ]
            if t.resolved
            else None
        ),
    }


def _round(game: Game, r: Round, viewer: Who, my_team: str | None) -> view_types.Round:
    current = r.current
    shown = {
        team: _transmission(game, t, r, viewer, my_team, current is t and game.phase == PLAYING)
        for team, t in r.transmissions.items()
    }
    transmissions: view_types.Transmissions = {"white": shown["white"]}  # White always transmits
    if "black" in shown:
        transmissions["black"] = shown["black"]
    return {"number": r.number, "interception_allowed": r.interception_allowed, "transmissions": transmissions}


def _last_reveal(rounds: list[view_types.Round]) -> view_types.Reveal | None:
    """The most recently resolved transmission, shown in the rulebook's order (White's, then Black's)."""
    for r in reversed(rounds):
        shown: view_types.Transmissions = r["transmissions"]  # mypy: `reversed` gives Any here
        for t in (shown.get("black"), shown["white"]):  # the latest first; no Black in the three-player game
            if t is not None and t["resolved"]:
                return {"round": r["number"], **t}
    return None


def _you(game: Game, me: Player) -> view_types.You:
    """What this player may do now, and their private view of the current transmission."""
    own = game.latest_round.transmissions.get(me.team) if game.phase == PLAYING else None
    encrypting = own if own is not None and own.encryptor == me.seat else None
    return {
        "team": me.team,
        "encryptor": encrypting is not None,
        "code": list(encrypting.code) if encrypting is not None and not encrypting.resolved else None,
        "clues_taken_back": (
            list(encrypting.taken_back)
            if encrypting is not None and encrypting.clues is None and encrypting.taken_back
            else None
        ),
        "task": task(game, me),
        "can_swap": game.phase == PLAYING and game.correction is None and swap_problem(game, me.team) is None,
        "seat_links": [
            {"seat": seat, "at": at}
            for seat, at in sorted(game.seat_links.items())
            if game.seated(seat).team == me.team
        ],
        "waiting_phones": sorted(s for s in game.waiting_phones if game.seated(s).team == me.team),
        "notes": _notes(game, me.team),
    }


def _notes(game: Game, team: str) -> view_types.Notes | None:
    """The team's notes on the other team, from the start of the match to its end (none in a lobby)."""
    if game.phase == LOBBY or not takes_notes(game, team):
        return None
    notes = game.notes[team]
    return {
        "keywords": list(notes.keywords),
        "lines": [notes.lines.get(number, "") for number in range(1, game.latest_round.number + 1)],
        "editable": game.phase in (PLAYING, KEYWORD_GUESSING),
    }


def _tiebreak(game: Game, my_team: str | None) -> view_types.Tiebreak | None:
    tiebreak = game.tiebreak
    if tiebreak is None:
        return None
    everyone_knows = game.phase in (KEYWORD_JUDGING, OVER)
    guesses, verdicts = tiebreak.keyword_guesses, tiebreak.verdicts
    proposal = proposed_verdicts(game) if game.phase == KEYWORD_JUDGING else None
    return {
        "cause": tiebreak.cause,
        "sealed": _per_team(lambda team: guesses[team] is not None),
        "guesses": _per_team(
            lambda team: list(found) if (found := guesses[team]) and (everyone_knows or team == my_team) else None
        ),
        "proposal": _per_team(lambda team: proposal[team]) if proposal is not None else None,
        "verdicts": _per_team(lambda team: list(verdicts[team])) if verdicts else None,
    }


def _timer(game: Game, now: float | None) -> view_types.Timer | None:
    """The sand timer: once the first Encryptor announced, the other one's time left, less any pause (a pacing
    aid only). Every viewer sees the same."""
    timer = sand_timer(game)
    if timer is None or now is None:
        return None
    remaining = timer.left(now)
    return {
        "seconds": timer.seconds,
        "late_team": timer.late.team,
        "late_seat": timer.late.encryptor,
        "remaining": round(remaining, 1),
        "ends_at": timer.ends_at,
        "paused": timer.paused,
        "up": remaining == 0,
    }


def _correction(game: Game) -> view_types.Correction | None:
    """A correction of the last reveal waiting for both sides: what it changes (all of it already public)."""
    c = game.correction
    if c is None:
        return None
    t = next(r for r in game.rounds if r.number == c.round).transmissions[c.team]
    return {
        "id": c.id,
        "round": c.round,
        "team": c.team,
        "code": list(t.code),
        "before": {
            "decryption": _sealed(t.decryption.code),
            "interception": _sealed(t.interception.code) if c.interception else None,
        },
        "after": {"decryption": list(c.decryption), "interception": list(c.interception) if c.interception else None},
        "confirmed": sorted(c.confirmed),
    }


def _sealed(code: tuple[int, ...] | None) -> list[int]:
    """A revealed guess's code (a guess is revealed once sealed, so it has one)."""
    assert code is not None
    return list(code)


# Each notice's fields, by its kind: what its event declares public (rules/events.py: NOTICES).
_NOTICE_FIELDS = {kind: ("kind", "round", *notice.fields) for kind, notice in NOTICES.items()}


def _notice(notice: dict[str, Any]) -> view_types.Notice:
    # One of the Notice types, by its `kind`: the rules record it as a plain dict (tests/test_openapi.py checks it).
    return cast("view_types.Notice", {k: notice[k] for k in _NOTICE_FIELDS[notice["kind"]]})


def _host(game: Game) -> view_types.Host:
    """What the table screen may correct now (none of it names a secret)."""
    found = correctable(game) if game.correction is None else None
    return {
        "take_back": last_entry(game) if game.correction is None else None,
        "skippable": skippable(game),
        "correctable": {"round": found[0].number, "team": found[1].team} if found else None,
    }


def _result(game: Game) -> view_types.Result | None:
    if game.result is None:
        return None
    return {
        "winners": list(game.result.winners),
        "reason": game.result.reason,
        "shared": len(game.result.winners) == 2,
        "cause": game.result.cause,
        "standings": _per_team(standings(game).__getitem__),
    }
