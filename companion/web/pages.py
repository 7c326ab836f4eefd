"""HTML pages: the home page, the table screen, joining, each phone, a seat's new link, the spectator.

Every page is rendered from `view_for(...)` only. Command forms post here: without JavaScript the answer
is a redirect back to the page (or the page with the refusal); the pages' script posts the same form asking
for JSON, and gets the JSON API's answer and refusals.
"""

from __future__ import annotations

from flask import (Blueprint, current_app, jsonify, make_response, redirect, render_template, request, session,
                   url_for)
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy.exc import DBAPIError

from ..addresses import public_base_url
from ..games import GAME_ID_LENGTH
from ..messages import refusal, team_name
from ..qr import qr_svg
from ..rules import LOBBY, OVER, TEAMS, Actor, RuleError
from ..rules.text import MIN_WORDS
from ..views import view_for
from . import speak
from .auth import Caller, api_caller, from_token, remember_seat, remember_table, seated_caller, service, table_caller
from .commands import commands_for, from_form
from .errors import Refused, status_of, wants_json
from .fragments import KEYS_HEADER, fill_csrf
from .stream import event_stream

pages = Blueprint("pages", __name__)

DEFAULT_TIMER = 30     # the rulebook's sand timer


def game_links(game_id: str) -> dict:
    """The game's shareable tokens and the addresses built on them (QR codes, links, the API's answer),
    and each team's join code."""
    tokens = service().shared_tokens(game_id)
    return {"tokens": tokens, "urls": _addresses(tokens), "codes": service().join_codes(game_id)}


def _addresses(tokens: dict[str, str]) -> dict[str, str]:
    """The addresses built on the game's shareable tokens (`GameService.shared_tokens`)."""
    base = base_url()
    urls = {"table": f"{base}table/{tokens['host']}"}
    if "spectator" in tokens:           # a try-out has no join links and no spectators
        urls.update(spectator=f"{base}watch/{tokens['spectator']}",
                    white=f"{base}join/{tokens['white']}", black=f"{base}join/{tokens['black']}")
    return urls


def base_url() -> str:
    return public_base_url(request.url_root, current_app.config["PUBLIC_URL"])


def seat_link_url(token: str) -> str:
    """The address a new phone opens (or scans) to take over a seat."""
    return f"{base_url()}seat/{token}"


def command_answer(outcome) -> dict:
    """A command's JSON answer, for the API and for a page's script alike."""
    answer = {"version": outcome.version, "events": [e.type for e in outcome.events]}
    if outcome.seat_link:      # for the host to pass on (the table screen shows it as a QR code)
        answer["seat_link"] = {"token": outcome.seat_link, "url": seat_link_url(outcome.seat_link)}
    if outcome.seat_token:
        answer["seat"] = outcome.seat
        answer["token"] = outcome.seat_token
    return answer


def _page_etag(caller: Caller, version: int, chosen: str | None = None) -> str:
    """A live page's ETag: the caller's view at `version`, in this phone's own language if it chose one
    (`chosen`: the page's HTML depends on nothing else that can change)."""
    return f"{caller.etag(version)}-{chosen}" if chosen else caller.etag(version)


def _stream(caller: Caller):
    """The page's stream (web/stream.py): its ETag as the page holds it, worked out again on every change."""
    chosen = session.get("language")
    return event_stream(caller, lambda c: f'W/"{_page_etag(c, c.state()[0], chosen)}"')


def unchanged(caller: Caller):
    """The page's poll: a 304 when the page the phone shows is still current, without rendering it."""
    etag = _page_etag(caller, caller.state()[0], session.get("language"))
    if request.if_none_match.contains_weak(etag):
        response = current_app.response_class(status=304)
        response.set_etag(etag, weak=True)
        return response
    return None


def render_view(template: str, caller: Caller, refused: RuleError | Refused | None = None, status: int = 200,
                **extra):
    """A game page from the caller's view; `refused` is a command's refusal, worded on the page."""
    version, game = caller.state()
    view = view_for(game, caller.viewer, now=service().clock())
    speak(view["mode"], view["language"])
    error = refusal(refused.code, **refused.params) if refused is not None else None
    etag = _page_etag(caller, version, session.get("language"))
    response = make_response(fill_csrf(render_template(
        template, view=view, game_id=caller.game_id, error=error,
        poll_interval=current_app.config["POLL_INTERVAL_MS"], stream_poll=current_app.config["STREAM_POLL_MS"],
        etag=f'W/"{etag}"',          # the script polls this page with it: 304 until the view changes
        try_out_bar=_try_out_bar(caller.game_id) if view["try_out"] else None, **extra)), status)
    response.set_etag(etag, weak=True)
    response.vary.add(KEYS_HEADER)     # what changed of the page, for its script; else the whole page
    return response


def _run(caller: Caller, command: dict, actor: Actor | None = None):
    """Run a command from a form: (outcome, None), or (None, (refusal, status)) to show on the page. A
    request asking for JSON gets the refusal as the API words it (the error handlers)."""
    try:
        return service().execute(caller.game_id, actor or caller.actor, command, caller.capability.token), None
    except (RuleError, Refused) as error:
        if wants_json():
            raise
        return None, (error, status_of(error.code))


def _done(outcome, page: str):
    """A form's command went through: its JSON answer to the page's script, else back to the page."""
    return jsonify(command_answer(outcome)) if wants_json() else redirect(page, 303)


@pages.get("/healthz")
def healthz():
    try:
        service().store.check_writable()    # the database answers, and takes writes
    except DBAPIError:
        return {"status": "database unavailable or read-only"}, 503
    return {"status": "ok"}


# --- creating a game ----------------------------------------------------------------------

def settings_from_form(form) -> dict:
    """The create command's settings from the home page's form."""
    settings = {"language": form.get("language", "en"), "mode": form.get("mode", "standard")}
    if form.get("timer") == "1":
        seconds = form.get("timer_seconds", "")
        settings["timer"] = int(seconds) if seconds.isascii() and seconds.isdigit() and len(seconds) < 5 else -1
    if form.get("words", "").strip():
        settings["words"] = form["words"]
    return settings


def _home(error=None, status=200, form=None, code_error=None):
    return render_template("pages/home.html", error=error, form=form or {}, default_timer=DEFAULT_TIMER,
                           min_words=MIN_WORDS, code_error=code_error, my_games=my_games()), status


def my_games() -> list[dict]:
    """The games this phone has a seat in that are still being played (or waiting to start), for
    "Back to your game": its seat cookie's tokens that still work, in games not over."""
    found = []
    for game_id in session.get("seats", {}):
        seated = seated_caller(game_id)
        if seated is None:
            continue
        game = service().load(game_id, seated.game_version)[1]
        player = game.player(seated.capability.seat)
        if game.phase != OVER and player is not None:
            found.append({"url": url_for("pages.play", game_id=game_id), "name": player.name,
                          "team": team_name(player.team, game.settings.mode), "round": game.round and game.round.number,
                          "try_out": game.settings.try_out})
    return found


@pages.get("/")
def home():
    return _home()


@pages.get("/rules")
def rules():
    """The rules (docs/rules.md in short) and the rulebook's FAQ, in this phone's language."""
    return render_template("pages/rules.html", my_games=my_games())


@pages.post("/join-code")
def join_by_code():
    """The home page's "Join with a code": the join page of the team whose code this is."""
    try:
        capability = service().join_by_code(request.form.get("code", ""))
    except RuleError as error:
        return _home(status=status_of(error.code), form=request.form,
                     code_error=refusal(error.code, **error.params))
    return redirect(url_for("pages.join", token=capability.token), 303)


@pages.post("/games")
def create_game():
    try:
        created = service().create(settings_from_form(request.form))
    except RuleError as error:
        return _home(refusal(error.code, **error.params), status_of(error.code), request.form)
    remember_table(created.game_id, service().shared_tokens(created.game_id)["host"])
    return redirect(url_for("pages.table", game_id=created.game_id), 303)


# --- the try-out: one device plays every seat -----------------------------------------------

def try_out_names(mode: str) -> dict[str, list[str]]:
    if mode == "three_player":
        return {"white": [_("Ann"), _("Ben")], "black": [_("Ivy")]}
    return {"white": [_("Ann"), _("Ben")], "black": [_("Cleo"), _("Dev")]}


@pages.post("/try")
def create_try_out():
    mode = request.form.get("mode", "standard")
    try:
        created = service().create({"language": str(get_locale()), "mode": mode, "try_out": True,
                                    "players": try_out_names(mode)})
    except RuleError as error:
        return _home(refusal(error.code, **error.params), status_of(error.code), request.form)
    tries = dict(session.get("try_out", {}))
    tries[created.game_id] = {"seats": {str(s): t for s, t in created.seat_tokens.items()}}
    session["try_out"] = tries
    remember_seat(created.game_id, created.seat_tokens[1])
    remember_table(created.game_id, service().shared_tokens(created.game_id)["host"])
    return redirect(url_for("pages.table", game_id=created.game_id), 303)


def _try_out_bar(game_id: str) -> dict | None:
    """This device's seats in its try-out, for the bar that switches between them."""
    mine = session.get("try_out", {}).get(game_id)
    if mine is None:
        return None
    _, game = service().load(game_id)
    current = seated_caller(game_id)
    return {"game_id": game_id, "table": url_for("pages.table", game_id=game_id),
            "seats": [{"seat": p.seat, "name": p.name, "team": p.team} for p in game.players],
            "current": current.capability.seat if current and request.endpoint != "pages.table" else None}


@pages.post("/try/<game_id>/seat/<int:seat>")
def try_out_switch(game_id, seat):
    token = session.get("try_out", {}).get(game_id, {}).get("seats", {}).get(str(seat))
    if token is None:
        raise Refused("not_seated")
    remember_seat(game_id, token)
    return redirect(url_for("pages.play", game_id=game_id), 303)


# --- the table screen (host) --------------------------------------------------------------

def _table_page(caller: Caller, error=None, status=200, armed: tuple[str, str] | None = None):
    """The table screen; `armed` is a careful command's (name, value) waiting for its second tap."""
    links = service().table_links(caller.game_id)
    urls = _addresses(links.shared)
    in_lobby = caller.state()[1].phase == LOBBY      # only the lobby shows the join links and codes
    join = {team: urls[team] for team in TEAMS if team in urls} if in_lobby else {}
    codes = service().join_codes(caller.game_id) if in_lobby else {}
    seat_links = {seat: seat_link_url(token) for seat, token in links.seat_links.items()}
    move = _move_link(links.move)
    return render_view("pages/table.html", caller, error, status, join=join,
                       qr={team: qr_svg(url) for team, url in join.items()}, codes=codes,
                       home_url=base_url(),
                       seat_links={seat: {"url": url, "qr": qr_svg(url)} for seat, url in seat_links.items()},
                       spectator_url=urls.get("spectator"), armed=armed, default_timer=DEFAULT_TIMER, move=move)


def _move_link(token: str | None) -> dict | None:
    """The table screen's pending move link (its token), shown as a QR code until it is used or cancelled."""
    if token is None:
        return None
    url = f"{base_url()}move/{token}"
    return {"url": url, "qr": qr_svg(url)}


@pages.get("/table/<game_id>")
def table(game_id):
    if len(game_id) > GAME_ID_LENGTH:
        return _old_table_address(game_id)
    caller = table_caller(game_id)
    return unchanged(caller) or _table_page(caller)


@pages.get("/table/<game_id>/stream")
def table_stream(game_id):
    return _stream(table_caller(game_id))


def _old_table_address(token: str):
    """`/table/<host token>` (the API's `urls.table`, and bookmarks from before): makes this browser the
    table screen and sends it to the address that names only the game, so the token leaves the address bar."""
    caller = from_token(token, kinds=("host",))
    remember_table(caller.game_id, token)
    return redirect(url_for("pages.table", game_id=caller.game_id), 303)


@pages.post("/table/<game_id>/move")
def table_move_issue(game_id):
    """Show a one-time link (as a QR code) that moves the table screen to another device, or cancel it; either
    way a line of the public log."""
    caller = table_caller(game_id)
    command = "cancel_table_move" if request.form.get("cancel") == "1" else "offer_table_move"
    outcome, error = _run(caller, {"type": command})
    if error:
        return _table_page(caller, *error)
    return _done(outcome, url_for("pages.table", game_id=game_id))


@pages.get("/move/<token>")
def table_move(token):
    """A move link, opened on the new device: one button, so a link preview or a QR scanner's peek at the
    address doesn't use it up."""
    caller = from_token(token, kinds=("table_move",))
    return render_template("pages/move.html", game_id=caller.game_id)


@pages.post("/move/<token>")
def table_move_use(token):
    """This device becomes the table screen with a new key; the old device's key stops working at once."""
    caller = from_token(token, kinds=("table_move",))
    outcome, error = _run(caller, {"type": "take_table"})
    if error:
        return render_template("pages/move.html", game_id=caller.game_id,
                               error=refusal(error[0].code, **error[0].params)), error[1]
    remember_table(caller.game_id, outcome.host_token)
    return redirect(url_for("pages.table", game_id=caller.game_id), 303)


# Host commands that take a second tap naming the player (the field that names them).
CAREFUL = {"remove-player": "seat", "skip-encryptor": "team", "cancel-seat-link": "seat"}


@pages.post("/table/<game_id>/<command:command>")
def table_command(game_id, command):
    if command not in commands_for("host"):
        raise Refused("unknown_command")
    caller = table_caller(game_id)
    if command in CAREFUL and request.form.get("confirmed") != "1":
        # The first tap without JavaScript: the same page, that button now asking to be tapped again
        # (or saying at once why it can't be done).
        try:
            service().check(caller.game_id, caller.actor, from_form(command, request.form))
        except RuleError as error:
            if wants_json():
                raise
            return _table_page(caller, error, status_of(error.code))
        return _table_page(caller, armed=(command, request.form.get(CAREFUL[command], "")))
    outcome, error = _run(caller, from_form(command, request.form))
    if error:
        return _table_page(caller, *error)
    return _done(outcome, url_for("pages.table", game_id=game_id))


@pages.get("/watch/<token>")
def watch(token):
    caller = from_token(token, kinds=("spectator",))
    return unchanged(caller) or render_view("pages/watch.html", caller, token=token)


@pages.get("/watch/<token>/stream")
def watch_stream(token):
    return _stream(from_token(token, kinds=("spectator",)))


# --- joining, and a seat's new link ---------------------------------------------------------

@pages.get("/join/<token>")
def join(token):
    caller = from_token(token, kinds=("join",))
    seated = _seat_in_game(caller.game_id)
    if seated and seated.team == caller.capability.team:
        return redirect(url_for("pages.play", game_id=caller.game_id), 303)   # back in their seat
    return render_view("pages/join.html", caller, seated_elsewhere=seated is not None)


def _seat_in_game(game_id: str):
    """The player this phone is seated as in the game, if any."""
    seated = seated_caller(game_id)
    if seated is None:
        return None
    return service().load(game_id, seated.game_version)[1].player(seated.capability.seat)


@pages.post("/join/<token>")
def join_submit(token):
    caller = from_token(token, kinds=("join",))
    seated = _seat_in_game(caller.game_id)      # a phone with a seat on the other team switches
    actor = Actor("join", team=caller.capability.team, seat=seated.seat if seated else None)
    outcome, error = _run(caller, from_form("join", request.form), actor)
    if error:
        return render_view("pages/join.html", caller, *error, name=request.form.get("name", ""),
                           seated_elsewhere=seated is not None)
    remember_seat(caller.game_id, outcome.seat_token)
    return redirect(url_for("pages.play", game_id=caller.game_id), 303)


@pages.get("/seat/<token>")
def seat_link(token):
    caller = from_token(token, kinds=("handoff",))
    return render_view("pages/seat.html", caller, seat=caller.capability.seat)


@pages.post("/seat/<token>")
def seat_link_claim(token):
    caller = from_token(token, kinds=("handoff",))
    outcome, error = _run(caller, from_form("claim-seat", request.form))
    if error:
        return render_view("pages/seat.html", caller, *error, seat=caller.capability.seat)
    remember_seat(caller.game_id, outcome.seat_token)
    return redirect(url_for("pages.play", game_id=caller.game_id), 303)


# --- a player's phone ---------------------------------------------------------------------

@pages.get("/play/<game_id>")
def play(game_id):
    caller = _phone(game_id)
    if caller.capability.kind == "waiting":   # the seat link was used here: it waits for a teammate to let it in
        return unchanged(caller) or render_view("pages/seat.html", caller, seat=caller.capability.seat,
                                                waiting=True)
    return unchanged(caller) or render_view("pages/play.html", caller)


@pages.get("/play/<game_id>/stream")
def play_stream(game_id):
    return _stream(_phone(game_id))


def _phone(game_id: str) -> Caller:
    """This phone's seat in the game, or the new phone's token its seat cookie holds while it waits to be
    let in (one lookup: this is every poll's path)."""
    return api_caller(game_id, cookie_only=True, waiting=True)


@pages.post("/play/<game_id>/<command:command>")
def play_command(game_id, command):
    if command not in commands_for("seat"):
        raise Refused("unknown_command")
    caller = api_caller(game_id, cookie_only=True)
    outcome, error = _run(caller, from_form(command, request.form))
    if error:
        return render_view("pages/play.html", caller, *error)
    return _done(outcome, url_for("pages.play", game_id=game_id))
