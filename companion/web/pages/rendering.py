"""What every game page shares: rendered from the caller's view, its 304 poll and its stream, a posted
command run and answered, and the careful buttons' first tap."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from flask import Response, current_app, jsonify, make_response, redirect, render_template, request, session, url_for
from markupsafe import escape
from werkzeug.wrappers import Response as WerkzeugResponse

from ...messages import refusal
from ...games import Outcome
from ...rules import RuleError, Who
from ...rules.command import Command
from ...cache import Cache
from ...rules.queries import sand_timer
from ...views import as_seen_by, view_for, view_key
from ..answers import command_answer
from ..auth import Caller, seated_caller, service
from ..commands import COMMANDS, from_form
from ..errors import Refused, status_of, wants_json
from ..fragments import (
    KEYS_HEADER,
    Region,
    Speech,
    fill_csrf,
    live,
    page_pieces,
    partial,
    region_key,
    short_key,
    shown_keys,
    speech_of,
)
from ..security import csrf_token
from ..locale import speak
from ..stream import event_stream
from .after_form import back_to, outcome, pending
from .screens import Screen, answer_key, phone_screen

PHONE_PAGE = "pages/play.html"


def phone(caller: Caller, view: Any, armed: tuple[str, ...] | None, kept: dict[str, Any]) -> Screen:
    return phone_screen(view, caller.game_id, armed, kept)


def page_etag(caller: Caller, version: int, chosen: str | None = None) -> str:
    """A live page's ETag: the caller's view at `version`, in this phone's own language if it chose one
    (`chosen`: the page's HTML depends on nothing else that can change)."""
    return f"{caller.etag(version)}-{chosen}" if chosen else caller.etag(version)


def page_stream(caller: Caller, build: Build | None = None, own: Own | None = None, shared: bool = True) -> Response:
    """The page's stream (web/stream.py): its ETag as the page holds it, worked out again on every change; for
    a live page (`build`), the regions of its screen that changed, as its fetch would answer them. `own`: the
    regions that read the viewer's own seat or name; the rest of the screen is worked out once for all viewers
    with the same `views.view_key`, unless it reads more than the view (`shared` False: the table screen's
    links)."""
    chosen = session.get("language")
    pusher = Pusher(build, own, shared, chosen, csrf_token()) if build is not None else None
    return event_stream(caller, lambda c: f'W/"{page_etag(c, c.state()[0], chosen)}"', pusher)


# A screen's regions that read its viewer's own seat or name (screens.py `phone_own`), from its view and game id.
Own = Callable[[Any, str], list[Region]]


class Seen(NamedTuple):
    """A live screen as its stream sends it, worked out once for the viewers with the same `views.view_key`:
    their view (as the first of them saw it), the body's classes, the regions' ids in the page's order, and
    each region with its key, but those that read the viewer's own seat (`Own`)."""

    view: Any
    body_class: str
    order: tuple[str, ...]
    shared: dict[str, tuple[Region, bytes]]


class Pusher:
    """A live page's regions, worked out for its stream (in a request context of its own, with the page's
    address but not its cookies: the page's language and CSRF token are kept from when it opened). The same
    screen and the same `live` as the page's fetch, from the same view: a stream sends nothing its viewer's
    fetch would not answer (tests/test_fragments.py compares them, the leak audit reads them). After a change,
    the first stream of the viewers with the same `views.view_key` (a team's guessers, the spectators) works out
    their view and screen (`Seen`); the others take them, with their own seat and name and the regions that
    read them."""

    __slots__ = ("build", "own", "shared", "chosen", "csrf")

    def __init__(self, build: Build, own: Own | None, shared: bool, chosen: str | None, csrf: str):
        self.build, self.own, self.shared, self.chosen, self.csrf = build, own, shared, chosen, csrf

    def _seen(self, caller: Caller) -> tuple[Seen, dict[str, tuple[Region, bytes]], Speech]:
        """The screen as its viewers see it, this viewer's own regions with their keys, and its speech."""
        if self.chosen:
            session["language"] = self.chosen  # (this context's session is never saved)
        version, game = caller.state()
        now, waiting = service().clock(), caller.waiting
        speech = speech_of(speak(game.settings.mode, game.language), game.settings.mode)

        def seen(view: Any, own: frozenset[str]) -> Seen:
            screen = self.build(caller, view, None, {})
            shared = {
                id_: (region, region_key(speech, region)) for id_, region in screen.regions.items() if id_ not in own
            }
            return Seen(view, screen.body_class, tuple(screen.regions), shared)

        def own_regions(view: Any) -> dict[str, tuple[Region, bytes]]:
            regions = self.own(view, caller.game_id) if self.own else []
            return {region.id: (region, region_key(speech, region)) for region in regions}

        screens: Cache[tuple[Any, ...], Seen] | None = current_app.extensions.get("shared_screens")
        if not self.shared or screens is None:
            view = view_for(game, caller.viewer, now=now, waiting=waiting)
            return seen(view, frozenset()), {}, speech
        key = (
            self.build,
            caller.game_id,
            version,
            view_key(game, caller.viewer),
            round(now, 1) if sand_timer(game) else None,  # the sand timer's time left
            tuple(waiting.items()),
            speech,
        )

        def first() -> Seen:
            view = view_for(game, caller.viewer, now=now, waiting=waiting)
            return seen(view, frozenset(own_regions(view)))

        shared = screens.made(key, first)
        return shared, own_regions(as_seen_by(shared.view, game, caller.viewer)), speech

    def keys(self, caller: Caller) -> frozenset[str]:
        """The keys of the regions the caller's page shows now."""
        shared, own, _ = self._seen(caller)
        return frozenset(short_key(key) for _, key in (*shared.shared.values(), *own.values()))

    def update(self, caller: Caller, shown: frozenset[str]) -> tuple[str, frozenset[str]]:
        """What the page's fetch would answer it, showing the regions `shown`: its body with the regions that
        changed; and the keys of all its regions now."""
        shared, own, speech = self._seen(caller)
        keyed = [own[id_] if id_ in own else shared.shared[id_] for id_ in shared.order]
        regions = "".join(live(speech, shown, region, key) for region, key in keyed)
        body = f'<body class="{escape(shared.body_class)}">{regions}</body>'
        return fill_csrf(body, self.csrf), frozenset(short_key(key) for _, key in keyed)


def unchanged(caller: Caller) -> Response | None:
    """The page's poll: a 304 when the page the phone shows is still current, without rendering it."""
    etag = page_etag(caller, caller.state()[0], session.get("language"))
    if request.if_none_match.contains_weak(etag) and not pending():  # (a form's refusal is still to be shown)
        response = current_app.response_class(status=304)
        response.set_etag(etag, weak=True)
        return response
    return None


# A live page's model (screens.py) from its caller's view, with the careful button tapped once (`armed`) and
# the fields of a refused form as typed (`kept`: after_form.py).
Build = Callable[[Caller, Any, tuple[str, ...] | None, dict[str, Any]], Screen]


def render_view(
    template: str,
    caller: Caller,
    refused: RuleError | Refused | None = None,
    status: int = 200,
    build: Build | None = None,
    **extra: Any,
) -> Response:
    """A game page from the caller's view, a live one (`build`) from its screen; `refused` is a command's
    refusal, worded on the page (by default, that of the form last posted to it: after_form.py)."""
    said = outcome()
    if refused is None and said.get("refused"):  # its page says why, with the refusal's status
        refused = Refused(said["refused"][0], **said["refused"][1])
        status = status_of(refused.code)
    if extra.get("armed") is None:
        extra["armed"] = tuple(said["armed"]) if said.get("armed") else None
    extra.setdefault("kept", said.get("kept", {}))
    version, game = caller.state()
    view = view_for(game, caller.viewer, now=service().clock(), waiting=caller.waiting)
    speech = speech_of(speak(view["mode"], view["language"]), view["mode"])  # its pieces, in its language
    error = refusal(refused.code, **refused.params) if refused is not None else None
    etag = page_etag(caller, version, session.get("language"))
    shown = shown_keys()
    screen = build(caller, view, extra["armed"], extra["kept"]) if build is not None else None
    if screen is not None:
        extra |= {"screen": screen, "regions": screen.regions}

    def render() -> str:
        return render_template(
            template,
            view=view,
            game_id=caller.game_id,
            error=error,
            **page_pieces(speech, shown),
            poll_interval=current_app.config["POLL_INTERVAL_MS"],
            stream_poll=current_app.config["STREAM_POLL_MS"],
            etag=f'W/"{etag}"',  # the script polls this page with it: 304 until the view changes
            try_out_bar=try_out_bar(caller.game_id) if view["try_out"] else None,
            **extra,
        )

    shared = current_app.extensions.get("shared_answers")
    if shared is not None and template == PHONE_PAGE and screen and partial() and not error and not extra["armed"]:
        # A phone's update: its teammates that show the same regions get the same HTML (screens.py).
        html = shared.made(answer_key(template, screen, speech, shown), render)
    else:
        html = render()
    response = make_response(fill_csrf(html), status)
    response.set_etag(etag, weak=True)
    response.vary.add(KEYS_HEADER)  # what changed of the page, for its script; else the whole page
    return response


def run(
    caller: Caller, command: Command, actor: Who | None = None
) -> tuple[Outcome, None] | tuple[None, RuleError | Refused]:
    """Run a command from a form: (outcome, None), or (None, refusal) to show on the page (`back_to`). A
    request asking for JSON gets the refusal as the API words it (the error handlers)."""
    try:
        return service().execute(caller.game_id, actor or caller.actor, command, caller.capability.token), None
    except (RuleError, Refused) as error:
        if wants_json():
            raise
        return None, error


def done(outcome: Outcome, page: str) -> WerkzeugResponse:
    """A form's command went through: its JSON answer to the page's script, else back to the page."""
    return jsonify(command_answer(outcome)) if wants_json() else redirect(page, 303)


def try_out_bar(game_id: str) -> dict[str, Any] | None:
    """This device's seats in its try-out, for the bar that switches between them."""
    mine = session.get("try_out", {}).get(game_id)
    if mine is None:
        return None
    _, game = service().load(game_id)
    current = seated_caller(game_id)
    return {
        "game_id": game_id,
        "table": url_for("pages.table", game_id=game_id),
        "seats": [{"seat": p.seat, "name": p.name, "team": p.team} for p in game.players],
        "current": current.capability.seat if current and request.endpoint != "pages.table" else None,
    }


# Commands whose button takes a second tap, by the field that names what it acts on (`careful`, declared
# with each command).
CAREFUL = {name: c.careful for name, c in COMMANDS.items() if c.careful}


def first_tap(caller: Caller, command: str, page: str) -> WerkzeugResponse | None:
    """A careful command's first tap, which comes without JavaScript (the script asks for the second tap
    itself): back to the `page` with that button now asking to be tapped again, or saying at once why it can't
    be done. None for any other post."""
    if command not in CAREFUL or request.form.get("confirmed") == "1":
        return None
    try:
        service().check(caller.game_id, caller.actor, from_form(command, request.form))
    except RuleError as error:
        if wants_json():
            raise
        return back_to(page, error)
    return back_to(page, armed=(command, request.form.get(CAREFUL[command], "")))
