"""The home page (creating a game, joining with a code, "Back to your game"), the try-out, the rules, and
the health check."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy.exc import DBAPIError
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response as WerkzeugResponse

from ...messages import refusal, team_name
from ...rules import OVER, RuleError
from ...rules.access import Kind
from ...rules.lobby import Create
from ...rules.text import DEFAULT_TIMER, MIN_WORDS
from ..auth import remember_seat, remember_table, seated_caller, service
from ..errors import Refused, status_of
from .after_form import as_typed, back_to, outcome
from . import pages


@pages.get("/root.crt")
def root_certificate() -> Response:
    """The root certificate phones install to trust the table (`ROOT_CERT`; 404 without one)."""
    certificate = current_app.extensions.get("root_certificate")
    if certificate is None:
        raise Refused("not_found")
    response = current_app.response_class(certificate.pem, mimetype="application/x-x509-ca-cert")
    response.headers["Cache-Control"] = "no-cache"
    return response


@pages.get("/healthz")
def healthz() -> ResponseReturnValue:
    try:
        service().store.check_writable()  # the database answers, and takes writes
    except DBAPIError:
        return {"status": "database unavailable or read-only"}, 503
    return {"status": "ok"}


# --- creating a game ----------------------------------------------------------------------


def create_from_form(form: MultiDict[str, str]) -> Create:
    """The create command from the home page's form (a box to tick for the sand timer, then its seconds)."""
    settings: dict[str, object] = {"language": form.get("language", "en"), "mode": form.get("mode", "standard")}
    if form.get("timer") == "1":
        seconds = form.get("timer_seconds", "")
        settings["timer"] = int(seconds) if seconds.isascii() and seconds.isdigit() and len(seconds) < 5 else -1
    if form.get("words", "").strip():
        settings["words"] = form["words"]
    return Create(settings)


def _home() -> tuple[str, int]:
    """The home page, with the refusal of the form last posted from it and what was typed there."""
    said = outcome()
    error = refusal(said["refused"][0], **said["refused"][1]) if said.get("refused") else None
    status = status_of(said["refused"][0]) if error else 200
    code_error, error = (error, None) if said.get("form") == "join-code" else (None, error)
    form = {name: values[0] for name, values in said.get("kept", {}).items() if values}
    return render_template(
        "pages/home.html",
        error=error,
        form=form,
        default_timer=DEFAULT_TIMER,
        min_words=MIN_WORDS,
        code_error=code_error,
        my_games=my_games(),
    ), status


def my_games() -> list[dict[str, Any]]:
    """The games this phone has a seat in that are still being played (or waiting to start), for
    "Back to your game": its seat cookie's tokens that still work, in games not over."""
    found = []
    for game_id in session.get("seats", {}):
        seated = seated_caller(game_id)
        if seated is None:
            continue
        game = seated.game()
        player = game.player(seated.capability.seat)
        if game.phase != OVER and player is not None:
            found.append(
                {
                    "url": url_for("pages.play", game_id=game_id),
                    "name": player.name,
                    "team": team_name(player.team, game.settings.mode),
                    "round": game.round and game.round.number,
                    "try_out": game.settings.try_out,
                }
            )
    return found


@pages.get("/")
def home() -> tuple[str, int]:
    return _home()


@pages.get("/rules")
def rules() -> str:
    """The rules (docs/rules.md in short) and the rulebook's FAQ, in this phone's language."""
    return render_template("pages/rules.html", my_games=my_games())


@pages.post("/join-code")
def join_by_code() -> WerkzeugResponse:
    """The home page's "Join with a code": the join page of the team whose code this is."""
    try:
        capability = service().join_by_code(request.form.get("code", ""))
    except RuleError as error:
        return back_to(url_for("pages.home"), error, kept=as_typed(request.form), form="join-code")
    return redirect(url_for("pages.join", token=capability.token), 303)


@pages.post("/games")
def create_game() -> WerkzeugResponse:
    try:
        created = service().create(create_from_form(request.form))
    except RuleError as error:
        return back_to(url_for("pages.home"), error, kept=as_typed(request.form))
    remember_table(created.game_id, service().shared_tokens(created.game_id)[Kind.HOST])
    return redirect(url_for("pages.table", game_id=created.game_id), 303)


# --- the try-out: one device plays every seat -----------------------------------------------


def try_out_names(mode: str) -> dict[str, list[str]]:
    if mode == "three_player":
        return {"white": [_("Ann"), _("Ben")], "black": [_("Ivy")]}
    return {"white": [_("Ann"), _("Ben")], "black": [_("Cleo"), _("Dev")]}


@pages.post("/try")
def create_try_out() -> WerkzeugResponse:
    mode = request.form.get("mode", "standard")
    try:
        created = service().create(
            Create({"language": str(get_locale()), "mode": mode}, try_out=True, players=try_out_names(mode))
        )
    except RuleError as error:
        return back_to(url_for("pages.home"), error, kept=as_typed(request.form))
    tries = dict(session.get("try_out", {}))
    tries[created.game_id] = {"seats": {str(s): t for s, t in created.seat_tokens.items()}}
    session["try_out"] = tries
    remember_seat(created.game_id, created.seat_tokens[1])
    remember_table(created.game_id, service().shared_tokens(created.game_id)[Kind.HOST])
    return redirect(url_for("pages.table", game_id=created.game_id), 303)


@pages.post("/try/<game_id>/seat/<int:seat>")
def try_out_switch(game_id: str, seat: int) -> WerkzeugResponse:
    token = session.get("try_out", {}).get(game_id, {}).get("seats", {}).get(str(seat))
    if token is None:
        raise Refused("not_seated")
    remember_seat(game_id, token)
    return redirect(url_for("pages.play", game_id=game_id), 303)
