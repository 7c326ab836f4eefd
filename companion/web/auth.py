"""Who is asking: the viewer and actor come from a capability token or this phone's seat cookie only,
never from a field of the request."""

from __future__ import annotations

import copy
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, TypeVar

from flask import Flask, Request, current_app, g, request, session
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature, URLSafeTimedSerializer

from ..games import GameService
from ..messages import clock_time
from ..rules import Game
from ..rules.access import Kind, Who
from ..rules.guards import SENDER_REFUSALS
from ..release import release
from ..store import Capability, Marks
from ..views import version_for
from .errors import Refused
from .security import uses_bearer_token

T = TypeVar("T")


class SeatCookie(SecureCookieSessionInterface):
    """Flask's signed cookie session (it holds the phone's seats), with its serializer made once per app
    instead of on every request (a tenth of what a poll answered 304 costs), and each cookie's signature
    checked once per process: a phone sends the same cookie with every poll, and checking it again was another
    tenth. A cookie is known by its exact text (signature included), so a changed one is checked anew; its
    age is checked on every request."""

    clock = staticmethod(time.time)  # (the tests move it past the cookie's lifetime)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        serializer: URLSafeTimedSerializer | None = app.extensions.get("seat_cookie_serializer")
        if serializer is None:
            serializer = app.extensions["seat_cookie_serializer"] = super().get_signing_serializer(app)
        return serializer

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession:
        text = request.cookies.get(self.get_cookie_name(app))
        signed = _signed_content(self.get_signing_serializer(app), text) if text else None
        if signed is None or self.clock() - signed[1] > app.permanent_session_lifetime.total_seconds():
            return self.session_class()
        return self.session_class(copy.deepcopy(signed[0]))  # (a request may change its session's dicts)


@lru_cache(maxsize=4096)  # a phone each: 200 tables' 1,800 screens, spread over the workers, fit
def _signed_content(serializer: URLSafeTimedSerializer, text: str) -> tuple[dict[str, Any], float] | None:
    """A seat cookie's content and when it was signed, or None if its signature is not ours."""
    try:
        content, signed_at = serializer.loads(text, return_timestamp=True)
    except BadSignature:
        return None
    return content, signed_at.timestamp()


def service() -> GameService:
    games: GameService = current_app.extensions["games"]
    return games


@dataclass(frozen=True)
class Caller:
    capability: Capability
    marks: Marks  # where the game stood as the capability was looked up (in the same query): the cache's key
    # only, never shown (a viewer's version is `state()`'s)

    @property
    def game_id(self) -> str:
        return self.capability.game_id

    @property
    def game_version(self) -> int:
        """The log's latest sequence number as the capability was looked up."""
        return self.marks.latest

    @property
    def viewer(self) -> Who:
        return self.capability.who.as_viewer

    def state(self) -> tuple[int, Game]:
        """(the version of this caller's view, the game): the version moves only with the events this caller
        can see (rules/audience.py). From the process's cache when it holds every event this caller can see."""
        game = self.game()
        return version_for(game, self.viewer), game

    def game(self) -> Game:
        """The game as this caller stands to see it (games.py `load_for`)."""
        return service().load_for(self.game_id, self.marks, self.capability.who.player_seat)[1]

    @cached_property
    def waiting(self) -> dict[int, float]:
        """When each new phone waiting for a seat takes it by itself (seat -> seconds; games.py `waiting_until`):
        what the view shows of it, and its ETag names."""
        return service().waiting_until(self.game_id, self.game())

    def etag(self, version: int) -> str:
        """The poll's ETag for this caller's view at `version` (weak: it names the view, not its bytes), and while
        a new phone waits for a seat, when it takes the seat by itself: a time that moves without an event, each
        time a phone of its team is used (every screen shows it, the same). It starts with this release of the
        app (release.py): after an upgrade no ETag of before is answered 304."""
        c = self.capability
        waits = "".join(f"-w{seat}.{until:.0f}" for seat, until in self.waiting.items())
        return f"{release()}.v{version}-{c.kind}-{c.team or ''}-{c.seat or ''}{waits}"

    @property
    def actor(self) -> Who:
        return self.capability.who


# A page's kind of link -> how its refusal says the link no longer works (messages.REFUSALS "no_capability").
DEAD_LINKS = {Kind.HANDOFF: "seat", Kind.TABLE_MOVE: "move", Kind.SPECTATOR: "watch"}


def from_token(
    token: str | None, game_id: str | None = None, kinds: tuple[Kind, ...] | None = None, waiting: bool = False
) -> Caller:
    """The caller `token` names, refused unless it is of one of `kinds` (any, if None) in `game_id`; a new
    phone's token still waiting to be let in only with `waiting`."""
    found = service().lookup(token)
    if found is None:  # said for the kind of link the page expected
        raise Refused("no_capability", link=DEAD_LINKS.get(kinds[0], "any") if kinds else "any")
    capability, marks = found
    g.game_id = capability.game_id  # the game's language words any refusal (web.__init__._locale)
    if game_id is not None and capability.game_id != game_id:
        raise Refused("wrong_game")
    if capability.kind == Kind.MOVED:  # the table screen's old key: say where the table screen went
        moved_at = Caller(capability, marks).game().moved_at
        raise Refused("table_moved", time=clock_time(moved_at))
    if capability.kind == Kind.REPLACED:  # a waiting new phone whose seat got a newer link
        raise Refused("claim_replaced")
    if capability.kind == Kind.WAITING and service().take_seat_by_itself(capability):
        found = service().lookup(token)  # its wait ended (it took the seat by itself): looked up as it is now
        if found is None:
            raise Refused("no_capability", link="any")
        capability, marks = found
    if capability.kind == Kind.TABLE_MOVE and Kind.TABLE_MOVE not in (kinds or ()):
        raise Refused("no_capability")  # a move link only moves the table screen (pages.table_move)
    if capability.kind == Kind.WAITING and not waiting:  # a new phone's token, until a teammate lets it in
        until = Caller(capability, marks).waiting.get(capability.seat or 0)  # (a waiting phone's token has a seat)
        raise Refused("seat_waiting", time=clock_time(until))
    if kinds is not None and capability.kind not in kinds:
        raise Refused(SENDER_REFUSALS.get(kinds[0], "no_capability"))
    if capability.kind in (Kind.SEAT, Kind.WAITING):
        service().saw(capability)  # this phone is in use (rules.host.claim_seat)
    return Caller(capability, marks)


def seat_token(game_id: str) -> str | None:
    seats: dict[str, str] = session.get("seats", {})
    return seats.get(game_id)


# Browsers drop a cookie over 4 KB: the seat cookie keeps this phone's latest seats and try-outs (about 2 KB).
MAX_SEATS, MAX_TRY_OUTS, MAX_TABLES, MAX_LINKS = 20, 3, 5, 3


def _latest(entries: dict[str, T], game_id: str, limit: int, live: Callable[[T], bool]) -> dict[str, T]:
    """`entries` (game id -> what this phone keeps of it) of games that still exist, `game_id`'s last, at most
    `limit` (the oldest dropped)."""
    kept = {g: entry for g, entry in entries.items() if g != game_id and live(entry)}
    if game_id in entries:
        kept[game_id] = entries[game_id]
    return dict(list(kept.items())[-limit:])


def remember_seat(game_id: str, token: str, link: str | None = None) -> None:
    """This phone's seat in the game is `token`'s (`link`: the seat link it took the seat with)."""
    # (expired games and withdrawn seats fail)
    live: Callable[[str], bool] = lambda t: service().resolve(t) is not None  # noqa: E731
    session["seats"] = _latest({**session.get("seats", {}), game_id: token}, game_id, MAX_SEATS, live)
    _remember_link(link, game_id)
    if session.get("try_out"):
        session["try_out"] = _latest(
            session["try_out"], game_id, MAX_TRY_OUTS, lambda t: any(live(token) for token in t["seats"].values())
        )
    session.permanent = True


def remember_table(game_id: str, host_token: str, link: str | None = None) -> None:
    """Make this browser the game's table screen: the host token lives in its HttpOnly cookie only, never in
    the page or its address (the screen everyone looks at). `link`: the move link it came with."""
    # (an expired game's table is gone)
    live: Callable[[str], bool] = lambda t: service().resolve(t) is not None  # noqa: E731
    session["tables"] = _latest({**session.get("tables", {}), game_id: host_token}, game_id, MAX_TABLES, live)
    session.permanent = True
    _remember_link(link, game_id)


def _remember_link(link: str | None, game_id: str) -> None:
    """A one-time link this browser used (a seat link, a move link): its address, opened again from the
    history, then leads to where the link took it (`used_link`). The latest few, each by a digest of its
    token (the cookie holds no token it need not)."""
    if link is not None:
        links = {**session.get("links", {}), _digest(link): game_id}
        session["links"] = dict(list(links.items())[-MAX_LINKS:])


def used_link(token: str) -> str | None:
    """The game a one-time link this browser used took it to, if it did."""
    links: dict[str, str] = session.get("links", {})
    return links.get(_digest(token))


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:24]


def table_caller(game_id: str) -> Caller:
    """The table screen of the game: this browser's host cookie for it."""
    token = session.get("tables", {}).get(game_id)
    if token is None:
        raise Refused("not_table_screen")
    try:
        return from_token(token, game_id, kinds=(Kind.HOST,))
    except Refused as refused:
        if refused.code == "table_moved":
            raise
        raise Refused("not_table_screen") from None


def bearer() -> str | None:
    return request.headers["Authorization"][len("Bearer ") :].strip() if uses_bearer_token() else None


def seated_caller(game_id: str) -> Caller | None:
    """This browser's seat in the game (from its cookie), if it has one that is still valid."""
    token = seat_token(game_id)
    found = service().resolve(token) if token else None
    if found and found[0].game_id == game_id:
        return Caller(*found)
    return None


def api_caller(
    game_id: str, kinds: tuple[Kind, ...] | None = None, cookie_only: bool = False, waiting: bool = False
) -> Caller:
    """A caller in a game: a bearer token (API only), else this browser's seat in the game (with `waiting`,
    also a new phone's seat still waiting to be let in)."""
    token = None if cookie_only else bearer()
    if token is not None:
        return from_token(token, game_id, kinds)
    token = seat_token(game_id)
    if token is None:
        raise Refused("not_seated")
    try:
        return from_token(token, game_id, kinds, waiting)
    except Refused as refused:
        if refused.code == "no_capability":  # removed by the host, or taken over by a new phone
            raise Refused("seat_gone") from None
        raise
