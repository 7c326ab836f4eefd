"""The table screen (the host's), moving it to another device, and the spectators' page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response as WerkzeugResponse

from ...games import GAME_ID_LENGTH
from ...games import TableLinks as GameTokens
from ...messages import refusal
from ...qr import qr_svg
from ...rules import LOBBY, TEAMS
from ...rules.access import Kind
from ...rules.host import CancelTableMove, OfferTableMove, TakeTable
from ..answers import addresses, base_url, root_certificate_url, seat_link_url
from ..auth import Caller, from_token, remember_table, service, table_caller, used_link
from ..commands import commands_for, from_form
from ..errors import Refused, status_of
from . import pages
from .after_form import as_typed, back_to, outcome
from .rendering import Build, done, first_tap, page_stream, render_view, run, unchanged
from .screens import Screen, TableLinks, table_screen, watch_screen


def _table_page(caller: Caller) -> Response:
    """The table screen (a form's refusal, or a careful command waiting for its second tap: after_form.py)."""
    return render_view("pages/table.html", caller, build=_table, trust=_trust())


def _table_of(tokens: Callable[[str], GameTokens]) -> Build:
    """The table screen's model, with the game's tokens as `tokens(game_id)` gives them."""

    def build(caller: Caller, view: Any, armed: tuple[str, ...] | None, kept: dict[str, Any]) -> Screen:
        links = _links(caller.game_id, tokens(caller.game_id), view["phase"] == LOBBY)
        return table_screen(view, caller.game_id, links, armed)

    return build


def _read_tokens(game_id: str) -> GameTokens:
    return service().table_links(game_id)


def _kept_tokens(game_id: str) -> GameTokens:
    """Those its worker keeps with its look at the game, read again only after an event changed them
    (web/stream.py `Looks.table_links`), not at every move."""
    links: GameTokens = current_app.extensions["stream_looks"].table_links(game_id)
    return links


_table = _table_of(_read_tokens)  # a fetch
_streamed_table = _table_of(_kept_tokens)  # its stream


def _links(game_id: str, links: GameTokens, in_lobby: bool) -> TableLinks:
    """What the table screen shows of the game's tokens (`links`): the join links and codes only in the lobby."""
    urls = addresses(links.shared)
    join = {team: urls[team] for team in TEAMS if team in urls} if in_lobby else {}
    seat_links = {seat: seat_link_url(token) for seat, token in links.seat_links.items()}
    return TableLinks(
        join=join,
        qr={team: qr_svg(url) for team, url in join.items()},
        codes=service().join_codes(game_id) if in_lobby else {},
        home_url=base_url(),
        seat_links={seat: {"url": url, "qr": qr_svg(url)} for seat, url in seat_links.items()},
        move=_move_link(links.move),
        spectator_url=urls.get("spectator"),
    )


def _trust() -> dict[str, Any] | None:
    """The root certificate's QR code and fingerprint, when the app hands one out (root_cert.py)."""
    certificate = current_app.extensions.get("root_certificate")
    if certificate is None:
        return None
    url = root_certificate_url()
    return {"url": url, "qr": qr_svg(url), "name": certificate.name, "fingerprint": certificate.fingerprint}


def _move_link(token: str | None) -> dict[str, Any] | None:
    """The table screen's pending move link (its token), shown as a QR code until it is used or cancelled."""
    if token is None:
        return None
    url = f"{base_url()}move/{token}"
    return {"url": url, "qr": qr_svg(url)}


@pages.get("/table/<game_id>")
def table(game_id: str) -> WerkzeugResponse:
    if len(game_id) > GAME_ID_LENGTH:
        return _old_table_address(game_id)
    caller = table_caller(game_id)
    return unchanged(caller) or _table_page(caller)


@pages.get("/table/<game_id>/stream")
def table_stream(game_id: str) -> Response:
    return page_stream(table_caller(game_id), build=_streamed_table, shared=False)  # its links are its own


def _old_table_address(token: str) -> WerkzeugResponse:
    """`/table/<host token>` (the API's `urls.table`, and bookmarks from before): makes this browser the
    table screen and sends it to the address that names only the game, so the token leaves the address bar."""
    caller = from_token(token, kinds=(Kind.HOST,))
    remember_table(caller.game_id, token)
    return redirect(url_for("pages.table", game_id=caller.game_id), 303)


@pages.post("/table/<game_id>/move")
def table_move_issue(game_id: str) -> WerkzeugResponse:
    """Show a one-time link (as a QR code) that moves the table screen to another device, or cancel it; either
    way a line of the public log."""
    caller = table_caller(game_id)
    command = CancelTableMove() if request.form.get("cancel") == "1" else OfferTableMove()
    outcome, error = run(caller, command)
    if outcome is None:
        return back_to(url_for("pages.table", game_id=game_id), error)
    return done(outcome, url_for("pages.table", game_id=game_id))


@pages.get("/move/<token>")
def table_move(token: str) -> ResponseReturnValue:
    """A move link, opened on the new device: one button, so a link preview or a QR scanner's peek at the
    address doesn't use it up."""
    if (game_id := used_link(token)) is not None:  # this device moved the table screen here with it
        return redirect(url_for("pages.table", game_id=game_id), 303)
    caller = from_token(token, kinds=(Kind.TABLE_MOVE,))
    said = outcome()
    if not said.get("refused"):
        return render_template("pages/move.html", game_id=caller.game_id)
    code, params = said["refused"]
    return render_template("pages/move.html", game_id=caller.game_id, error=refusal(code, **params)), status_of(code)


@pages.post("/move/<token>")
def table_move_use(token: str) -> WerkzeugResponse:
    """This device becomes the table screen with a new key; the old device's key stops working at once."""
    if (game_id := used_link(token)) is not None:  # posted again (Back, then "resubmit"): it is here already
        return redirect(url_for("pages.table", game_id=game_id), 303)
    caller = from_token(token, kinds=(Kind.TABLE_MOVE,))
    outcome, error = run(caller, TakeTable())
    if outcome is None:
        return back_to(url_for("pages.table_move", token=token), error)
    assert outcome.host_token is not None  # taking the table gives its new key
    remember_table(caller.game_id, outcome.host_token, link=token)
    return redirect(url_for("pages.table", game_id=caller.game_id), 303)


@pages.post("/table/<game_id>/<command:command>")
def table_command(game_id: str, command: str) -> WerkzeugResponse:
    if command not in commands_for(Kind.HOST):
        raise Refused("unknown_command")
    caller = table_caller(game_id)
    page = url_for("pages.table", game_id=game_id)
    first = first_tap(caller, command, page)
    if first is not None:
        return first
    outcome, error = run(caller, from_form(command, request.form))
    if outcome is None:
        return back_to(page, error, kept=as_typed(request.form))
    return done(outcome, page)


@pages.get("/watch/<token>")
def watch(token: str) -> Response:
    caller = from_token(token, kinds=(Kind.SPECTATOR,))
    return unchanged(caller) or render_view("pages/watch.html", caller, build=_watch, token=token)


@pages.get("/watch/<token>/stream")
def watch_stream(token: str) -> Response:
    return page_stream(from_token(token, kinds=(Kind.SPECTATOR,)), build=_watch)


def _watch(caller: Caller, view: Any, armed: tuple[str, ...] | None, kept: dict[str, Any]) -> Screen:
    return watch_screen(view)
