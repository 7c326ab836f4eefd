"""Joining a team, a seat's new link, and a player's phone."""

from __future__ import annotations

from flask import redirect, request, url_for

from ...rules import Actor
from ..auth import Caller, api_caller, from_token, remember_seat, seated_caller
from ..commands import commands_for, from_form
from ..errors import Refused
from . import pages
from .rendering import done, first_tap, page_stream, render_view, run, unchanged


@pages.get("/join/<token>")
def join(token):
    caller = from_token(token, kinds=("join",))
    seated = _seat_in_game(caller.game_id)
    if seated and seated.team == caller.capability.team:
        return redirect(url_for("pages.play", game_id=caller.game_id), 303)  # back in their seat
    return render_view("pages/join.html", caller, seated_elsewhere=seated is not None)


def _seat_in_game(game_id: str):
    """The player this phone is seated as in the game, if any."""
    seated = seated_caller(game_id)
    if seated is None:
        return None
    return seated.game().player(seated.capability.seat)


@pages.post("/join/<token>")
def join_submit(token):
    caller = from_token(token, kinds=("join",))
    seated = _seat_in_game(caller.game_id)  # a phone with a seat on the other team switches
    actor = Actor("join", team=caller.capability.team, seat=seated.seat if seated else None)
    outcome, error = run(caller, from_form("join", request.form), actor)
    if error:
        return render_view(
            "pages/join.html", caller, *error, name=request.form.get("name", ""), seated_elsewhere=seated is not None
        )
    remember_seat(caller.game_id, outcome.seat_token)
    return redirect(url_for("pages.play", game_id=caller.game_id), 303)


@pages.get("/seat/<token>")
def seat_link(token):
    caller = from_token(token, kinds=("handoff",))
    return render_view("pages/seat.html", caller, seat=caller.capability.seat)


@pages.post("/seat/<token>")
def seat_link_claim(token):
    caller = from_token(token, kinds=("handoff",))
    outcome, error = run(caller, from_form("claim-seat", request.form))
    if error:
        return render_view("pages/seat.html", caller, *error, seat=caller.capability.seat)
    remember_seat(caller.game_id, outcome.seat_token)
    return redirect(url_for("pages.play", game_id=caller.game_id), 303)


# --- a player's phone ---------------------------------------------------------------------


@pages.get("/play/<game_id>")
def play(game_id):
    caller = _phone(game_id)
    if caller.capability.kind == "waiting":  # the seat link was used here: it waits for a teammate to let it in
        return unchanged(caller) or render_view("pages/seat.html", caller, seat=caller.capability.seat, waiting=True)
    return unchanged(caller) or render_view("pages/play.html", caller)


@pages.get("/play/<game_id>/stream")
def play_stream(game_id):
    return page_stream(_phone(game_id))


def _phone(game_id: str) -> Caller:
    """This phone's seat in the game, or the new phone's token its seat cookie holds while it waits to be
    let in (one lookup: this is every poll's path)."""
    return api_caller(game_id, cookie_only=True, waiting=True)


@pages.post("/play/<game_id>/<command:command>")
def play_command(game_id, command):
    if command not in commands_for("seat"):
        raise Refused("unknown_command")
    caller = api_caller(game_id, cookie_only=True)
    first = first_tap(
        caller, command, lambda *refused, **armed: render_view("pages/play.html", caller, *refused, **armed)
    )
    if first is not None:
        return first
    outcome, error = run(caller, from_form(command, request.form))
    if error:
        return render_view("pages/play.html", caller, *error)
    return done(outcome, url_for("pages.play", game_id=game_id))
