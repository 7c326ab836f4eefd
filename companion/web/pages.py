"""HTML pages: the home page, the table screen, the join form, each phone, the spectator.

Every page is rendered from `view_for(...)` only; forms post here when JavaScript is off, and the same
pages' script uses the JSON API when it is on.
"""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for

from ..addresses import public_base_url
from ..messages import refusal
from ..qr import qr_svg
from ..rules import Actor, RuleError
from ..views import view_for
from .auth import Caller, from_token, remember_seat, seat_token, service
from .commands import from_form
from .errors import Refused, status_of

pages = Blueprint("pages", __name__)

HOST_COMMANDS = ("start", "verdicts")
PLAYER_COMMANDS = ("clues", "guess", "keyword-guesses")


def base_url() -> str:
    return public_base_url(request.url_root, current_app.config["PUBLIC_URL"])


def _render(template: str, caller: Caller, error: str | None = None, status: int = 200, **extra):
    version, game = service().load(caller.game_id, caller.version)
    view = view_for(game, caller.viewer, version)
    return render_template(template, view=view, game_id=caller.game_id, error=error,
                           poll_interval=current_app.config["POLL_INTERVAL_MS"], **extra), status


def _run(caller: Caller, command: dict) -> str | None:
    """Run a command; returns None on success, else the refusal to show (and its status)."""
    try:
        service().execute(caller.game_id, caller.actor, command)
    except (RuleError, Refused) as error:
        return error
    return None


@pages.get("/healthz")
def healthz():
    service().store.version("healthz")   # the database answers
    return {"status": "ok"}


@pages.get("/")
def home():
    return render_template("pages/home.html")


@pages.post("/games")
def create_game():
    game_id = service().create()
    return redirect(url_for("pages.table", token=service().links(game_id)["host"]), 303)


# --- the table screen (host) --------------------------------------------------------------

def _table_page(caller: Caller, error=None, status=200):
    links = service().links(caller.game_id)
    base = base_url()
    join = {team: f"{base}join/{links['join_' + team]}" for team in ("white", "black")}
    return _render("pages/table.html", caller, error, status, join=join,
                   qr={team: qr_svg(url) for team, url in join.items()},
                   spectator_url=f"{base}watch/{links['spectator']}",
                   table_url=f"{base}table/{links['host']}", token=caller.capability.token)


@pages.get("/table/<token>")
def table(token):
    return _table_page(from_token(token, kinds=("host",)))


@pages.post("/table/<token>/<command>")
def table_command(token, command):
    if command not in HOST_COMMANDS:
        raise Refused("unknown_command")
    caller = from_token(token, kinds=("host",))
    error = _run(caller, from_form(command, request.form))
    if error:
        return _table_page(caller, refusal(error.code, **error.params), status_of(error.code))
    return redirect(url_for("pages.table", token=token), 303)


@pages.get("/watch/<token>")
def watch(token):
    caller = from_token(token, kinds=("spectator",))
    return _render("pages/watch.html", caller, token=token)


# --- joining ------------------------------------------------------------------------------

def _seated_in(game_id: str) -> Caller | None:
    token = seat_token(game_id)
    if token:
        found = service().resolve(token)
        if found and found[0].game_id == game_id:
            return Caller(*found)
    return None


@pages.get("/join/<token>")
def join(token):
    caller = from_token(token, kinds=("join",))
    seated = _seated_in(caller.game_id)
    if seated and seated.capability.team == caller.capability.team:
        return redirect(url_for("pages.play", game_id=caller.game_id), 303)   # back in their seat
    return _render("pages/join.html", caller, seated_elsewhere=seated is not None)


@pages.post("/join/<token>")
def join_submit(token):
    caller = from_token(token, kinds=("join",))
    seated = _seated_in(caller.game_id)      # a phone with a seat on the other team switches
    actor = Actor("join", team=caller.capability.team, seat=seated.capability.seat if seated else None)
    try:
        outcome = service().execute(caller.game_id, actor, from_form("join", request.form))
    except (RuleError, Refused) as error:
        return _render("pages/join.html", caller, refusal(error.code, **error.params), status_of(error.code),
                       name=request.form.get("name", ""), seated_elsewhere=False)
    remember_seat(caller.game_id, outcome.seat_token)
    return redirect(url_for("pages.play", game_id=caller.game_id), 303)


# --- a player's phone ---------------------------------------------------------------------

def _player(game_id: str) -> Caller:
    caller = _seated_in(game_id)
    if caller is None:
        raise Refused("not_seated")
    return caller


@pages.get("/play/<game_id>")
def play(game_id):
    return _render("pages/play.html", _player(game_id))


@pages.post("/play/<game_id>/<command>")
def play_command(game_id, command):
    if command not in PLAYER_COMMANDS:
        raise Refused("unknown_command")
    caller = _player(game_id)
    error = _run(caller, from_form(command, request.form))
    if error:
        return _render("pages/play.html", caller, refusal(error.code, **error.params), status_of(error.code))
    return redirect(url_for("pages.play", game_id=game_id), 303)
