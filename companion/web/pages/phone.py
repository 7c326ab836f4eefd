"""Joining a team, a seat's new link, and a player's phone."""

from __future__ import annotations

from flask import Response, redirect, request, url_for
from werkzeug.wrappers import Response as WerkzeugResponse

from ...rules import LOBBY
from ...rules.access import Kind, Who
from ...rules.state import Player
from ..auth import Caller, api_caller, from_token, remember_seat, seated_caller, service, used_link
from ..commands import commands_for, from_form
from ..errors import Refused
from . import pages
from .after_form import as_typed, back_to
from .rendering import done, first_tap, page_stream, phone, render_view, run, unchanged
from .screens import phone_own


@pages.get("/join/<token>")
def join(token: str) -> WerkzeugResponse:
    caller = from_token(token, kinds=(Kind.JOIN,))
    seated = _seat_in_game(caller)
    if seated is not None and (seated.team == caller.capability.team or caller.game().phase != LOBBY):
        return _to_seat(caller.game_id)  # back in their seat (switching team is for the lobby)
    return render_view("pages/join.html", caller, seated_elsewhere=seated is not None)


def _seat_in_game(caller: Caller) -> Player | None:
    """The player this phone is seated as in the caller's game, if any."""
    seated = seated_caller(caller.game_id)
    if seated is None:
        return None
    return seated.game().player(seated.capability.seat)


def _to_seat(game_id: str) -> WerkzeugResponse:
    return redirect(url_for("pages.play", game_id=game_id), 303)


@pages.post("/join/<token>")
def join_submit(token: str) -> WerkzeugResponse:
    caller = from_token(token, kinds=(Kind.JOIN,))
    seated = _seat_in_game(caller)  # a phone with a seat on the other team switches
    actor = Who(Kind.JOIN, team=caller.capability.team, seat=seated.seat if seated else None)
    outcome, error = run(caller, from_form("join", request.form), actor)
    if error and seated is not None and caller.game().phase != LOBBY:
        return _to_seat(caller.game_id)  # a join posted again (Back, then "resubmit"): the seat is there
    if outcome is None:
        return back_to(url_for("pages.join", token=token), error, kept=as_typed(request.form))
    assert outcome.seat_token is not None  # joining seats the caller
    remember_seat(caller.game_id, outcome.seat_token)
    return _to_seat(caller.game_id)


@pages.get("/seat/<token>")
def seat_link(token: str) -> WerkzeugResponse:
    if (game_id := used_link(token)) is not None and seated_caller(game_id) is not None:
        return _to_seat(game_id)  # this phone took its seat with this link: its seat is the place to be
    caller = from_token(token, kinds=(Kind.HANDOFF,))
    return render_view("pages/seat.html", caller, seat=caller.capability.seat)


@pages.post("/seat/<token>")
def seat_link_claim(token: str) -> WerkzeugResponse:
    if (game_id := used_link(token)) is not None and seated_caller(game_id) is not None:
        return _to_seat(game_id)  # posted again (Back, then "resubmit"): the seat is there
    caller = from_token(token, kinds=(Kind.HANDOFF,))
    outcome, error = run(caller, from_form("claim-seat", request.form))
    if outcome is None:
        return back_to(url_for("pages.seat_link", token=token), error)
    assert outcome.seat_token is not None  # claiming a seat link gives the seat's new token
    remember_seat(caller.game_id, outcome.seat_token, link=token)
    return _to_seat(caller.game_id)


# --- a player's phone ---------------------------------------------------------------------


@pages.get("/play/<game_id>")
def play(game_id: str) -> Response:
    caller = _phone(game_id)
    if caller.capability.kind == Kind.WAITING:  # the seat link was used here: it waits for a teammate to let it in
        return unchanged(caller) or render_view(
            "pages/seat.html", caller, seat=caller.capability.seat, waiting=True, now=service().clock()
        )
    return unchanged(caller) or render_view("pages/play.html", caller, build=phone)


@pages.get("/play/<game_id>/stream")
def play_stream(game_id: str) -> Response:
    caller = _phone(game_id)
    return page_stream(caller, build=phone if caller.capability.kind == Kind.SEAT else None, own=phone_own)


def _phone(game_id: str) -> Caller:
    """This phone's seat in the game, or the new phone's token its seat cookie holds while it waits to be
    let in (one lookup: this is every poll's path)."""
    return api_caller(game_id, cookie_only=True, waiting=True)


@pages.post("/play/<game_id>/<command:command>")
def play_command(game_id: str, command: str) -> WerkzeugResponse:
    if command not in commands_for(Kind.SEAT):
        raise Refused("unknown_command")
    caller = api_caller(game_id, cookie_only=True)
    page = url_for("pages.play", game_id=game_id)
    first = first_tap(caller, command, page)
    if first is not None:
        return first
    outcome, error = run(caller, from_form(command, request.form))
    if outcome is None:
        return back_to(page, error, kept=as_typed(request.form))
    return done(outcome, page)
