"""HTML pages: the home page, the table screen, the join form, each phone, the spectator.

Every page is rendered from `view_for(...)` only; forms post here when JavaScript is off, and the same
pages' script uses the JSON API when it is on.
"""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for

from ..addresses import public_base_url
from ..messages import refusal
from ..qr import qr_svg
from ..rules import TEAMS, Actor, RuleError
from ..views import view_for
from .auth import Caller, api_caller, from_token, remember_seat, seated_caller, service
from .commands import from_form
from .errors import Refused, status_of

pages = Blueprint("pages", __name__)

HOST_COMMANDS = ("start", "verdicts")
PLAYER_COMMANDS = ("clues", "guess", "keyword-guesses")


def game_links(game_id: str) -> dict:
    """The game's shareable tokens and the addresses built on them (QR codes, links, the API's answer)."""
    tokens = service().shared_tokens(game_id)
    base = public_base_url(request.url_root, current_app.config["PUBLIC_URL"])
    urls = {"table": f"{base}table/{tokens['host']}", "spectator": f"{base}watch/{tokens['spectator']}",
            "white": f"{base}join/{tokens['white']}", "black": f"{base}join/{tokens['black']}"}
    return {"tokens": tokens, "urls": urls}


def _render(template: str, caller: Caller, error: str | None = None, status: int = 200, **extra):
    version, game = service().load(caller.game_id, caller.version)
    view = view_for(game, caller.viewer, version)
    return render_template(template, view=view, game_id=caller.game_id, error=error,
                           poll_interval=current_app.config["POLL_INTERVAL_MS"], **extra), status


def _run(caller: Caller, command: dict, actor: Actor | None = None):
    """Run a command from a form: (outcome, None), or (None, (sentence, status)) to show on the page."""
    try:
        return service().execute(caller.game_id, actor or caller.actor, command), None
    except (RuleError, Refused) as error:
        return None, (refusal(error.code, **error.params), status_of(error.code))


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
    return redirect(url_for("pages.table", token=service().shared_tokens(game_id)["host"]), 303)


# --- the table screen (host) --------------------------------------------------------------

def _table_page(caller: Caller, error=None, status=200):
    urls = game_links(caller.game_id)["urls"]
    join = {team: urls[team] for team in TEAMS}
    return _render("pages/table.html", caller, error, status, join=join,
                   qr={team: qr_svg(url) for team, url in join.items()},
                   spectator_url=urls["spectator"], token=caller.capability.token)


@pages.get("/table/<token>")
def table(token):
    return _table_page(from_token(token, kinds=("host",)))


@pages.post("/table/<token>/<command>")
def table_command(token, command):
    if command not in HOST_COMMANDS:
        raise Refused("unknown_command")
    caller = from_token(token, kinds=("host",))
    _, error = _run(caller, from_form(command, request.form))
    if error:
        return _table_page(caller, *error)
    return redirect(url_for("pages.table", token=token), 303)


@pages.get("/watch/<token>")
def watch(token):
    caller = from_token(token, kinds=("spectator",))
    return _render("pages/watch.html", caller, token=token)


# --- joining ------------------------------------------------------------------------------

@pages.get("/join/<token>")
def join(token):
    caller = from_token(token, kinds=("join",))
    seated = seated_caller(caller.game_id)
    if seated and seated.capability.team == caller.capability.team:
        return redirect(url_for("pages.play", game_id=caller.game_id), 303)   # back in their seat
    return _render("pages/join.html", caller, seated_elsewhere=seated is not None)


@pages.post("/join/<token>")
def join_submit(token):
    caller = from_token(token, kinds=("join",))
    seated = seated_caller(caller.game_id)      # a phone with a seat on the other team switches
    actor = Actor("join", team=caller.capability.team, seat=seated.capability.seat if seated else None)
    outcome, error = _run(caller, from_form("join", request.form), actor)
    if error:
        return _render("pages/join.html", caller, *error, name=request.form.get("name", ""),
                       seated_elsewhere=seated is not None)
    remember_seat(caller.game_id, outcome.seat_token)
    return redirect(url_for("pages.play", game_id=caller.game_id), 303)


# --- a player's phone ---------------------------------------------------------------------

@pages.get("/play/<game_id>")
def play(game_id):
    return _render("pages/play.html", api_caller(game_id, cookie_only=True))


@pages.post("/play/<game_id>/<command>")
def play_command(game_id, command):
    if command not in PLAYER_COMMANDS:
        raise Refused("unknown_command")
    caller = api_caller(game_id, cookie_only=True)
    _, error = _run(caller, from_form(command, request.form))
    if error:
        return _render("pages/play.html", caller, *error)
    return redirect(url_for("pages.play", game_id=game_id), 303)
