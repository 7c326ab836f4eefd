"""Server-sent events: a page's stream brings its page's changes; an API client's, its view's new ETag.

A stream is authorised like its page, and again on every change: once its token is withdrawn (a seat taken
over by a new phone, a removed player) it says `gone` and ends. What it sends is what a fetch by the same
viewer would answer (`view_for` stays the only way game state leaves the server).

Messages (text/event-stream):
- `event: view`, `id` and `data`: the ETag. Sent at once on connecting (a page then fetches itself, so one
  that missed a change while reconnecting catches up); for an API stream, again each time the ETag changes.
- `event: page`, `id` the ETag, `data` JSON {etag, body}: a live page's regions whose key changed, as its
  fetch naming the regions it shows would answer them (web/pages/rendering.py).
- `event: gone`: the token no longer works; the page reloads to say why. The stream ends.
- a comment line every `STREAM_HEARTBEAT_SECONDS`, so proxies and NATs keep an idle stream open: on a fixed
  schedule, which no change moves (a heartbeat that came a beat after each wake would tell when the other
  team drafts, which is no change of this page).
- `retry`: how long the browser waits before reconnecting (with `Last-Event-ID`, by itself).
The stream ends after `STREAM_LIFETIME_SECONDS`; the browser reconnects, so a worker restarting gracefully
never waits for its streams.

What a stream says is worked out in one place (`ViewStream`), and it is carried in one of two ways:
- **handed over** (gunicorn's gevent worker, as in production): the answer's head is written straight to the
  connection, which then goes to the process's one `Courier`, and the request is done. The courier writes
  every handed-over stream's messages and heartbeats, so an idle stream costs a socket and two small
  records, where a request held open for it cost a greenlet with its stack, the request's parser and
  buffers and its WSGI environ (27 KB a stream: docs/performance.md);
- **held** by its request (any other WSGI server, and the test client): the answer's body is a generator
  that waits for its game's bell.

Each stream is counted in the process's budget as it opens (web/stream_budget.py: caps per token and per
client, a capacity sized from the open files): past them it is refused with a sentence, never held. A change
of a game costs one look at it for all of its streams here (`Looks`): the game's new events say which tokens
they withdrew (games.py `capability_changes`), so no stream looks its token up again.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import orjson
from flask import Flask, Request, Response, current_app, request
from werkzeug.http import http_date
from werkzeug.test import create_environ

from ..cache import Cache
from ..games import GameService, TableLinks
from ..push import Hub
from ..rules import Game
from ..rules.access import TOMBSTONES, Kind
from ..store import Marks
from .auth import Caller
from .limits import client_key
from .stream_budget import Budget, Ticket, raise_open_files, share

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

log = logging.getLogger(__name__)

RETRY_MS = 1000
HEARTBEAT = ": still here\n\n"
HEARTBEATS_BETWEEN_YIELDS = 200  # a worker with thousands of streams lets requests in between
# A worker's handed-over streams beat in turns, a fifteenth of them at a time: all at once, 3,000 streams'
# beats were a burst that held up the requests behind it every 15 s (docs/performance.md). Streams join the
# turns in rotation, so that thousands reconnecting together (a restart) are spread too.
BEAT_TURNS = 15
GONE = "event: gone\ndata: gone\n\n"
MAX_UNSENT = 256 * 1024  # bytes a stream's connection may hold back (a few pages' regions)
FLUSH_SECONDS = 0.05  # how soon the courier tries again to write what a connection held back


# What an event did to a game's tokens: (its number, [(kind, seat) withdrawn], [(kind, new kind, seat)]).
TokenChange = tuple[int, list[tuple[Kind, int | None]], list[tuple[Kind, Kind, int | None]]]


class Sight(NamedTuple):
    """One look at a game: its version and state then, and its events since `since` that withdrew or changed
    tokens: (event number, [(kind, seat) withdrawn], [(kind, new kind, seat)])."""

    version: int
    game: Game
    since: int
    changes: tuple[TokenChange, ...]
    rung: int | None  # the hub's ring number the look was taken after
    # The latest event known to have granted, withdrawn or changed a token (the first look's version: the
    # events before it are not known here). A game's tokens change with its events alone (store.py `append`).
    tokens_at: int


class Looks:
    """The latest look at each game with streams in this process, shared by its streams: taken again only
    after the game rang (its hub's ring number moved) or when a stream knows of a later version. A look is
    forgotten (it holds its game's state) once the game's last stream here ends, or when it is the least
    recently used past `size`; a look forgotten costs its streams one token lookup each. The table screen's
    tokens are kept with it (`table_links`)."""

    def __init__(self, service: GameService, hub: Hub, size: int = 10_000):
        self.service, self.hub = service, hub
        # game id -> [its lock, its Sight or None, its table screen's tokens (read at version, TableLinks) or None]
        self._games: Cache[str, list[Any]] = Cache("a game's id: its latest look", size)
        hub.quiet = lambda game_id: self._games.forget([game_id])

    def latest(self, game_id: str, at_least: int) -> Sight:
        entry = self._games.get(game_id)
        if entry is None:
            entry = self._games.update(game_id, lambda kept: kept or [threading.Lock(), None, None])
        with entry[0]:  # one look at a time per game: the others then share it
            sight: Sight | None
            sight, rung = entry[1], self.hub.rung(game_id)  # the ring number first: a ring during the look
            if sight is None:  # leaves it out of date
                version, game = self.service.load(game_id)
                sight = Sight(version, game, version, (), rung, version)
            elif rung is None or rung != sight.rung or sight.version < at_least:
                version, game, changes = self.service.catch_up(game_id, sight.version, sight.game)
                changed = tuple((seq, c.revoked, c.promoted) for seq, c in changes if c.revoked or c.promoted)
                tokens_at = max((seq for seq, c in changes if c.grants or c.revoked or c.promoted), default=0)
                sight = Sight(
                    version, game, sight.since, sight.changes + changed, rung, max(sight.tokens_at, tokens_at)
                )
            entry[1] = sight
        return sight

    def table_links(self, game_id: str) -> TableLinks:
        """The game's tokens as its table screen shows them: read once for its streams here, and again only
        after an event changed them (not at every move)."""
        entry = self._games.get(game_id)
        sight = entry[1] if entry is not None else None
        if entry is None or sight is None:
            return self.service.table_links(game_id)
        read = entry[2]
        if read is None or read[0] < sight.tokens_at:
            read = entry[2] = (sight.version, self.service.table_links(game_id))  # (as of this version or later)
        links: TableLinks = read[1]
        return links


class Pusher(Protocol):
    """A live page's regions as its fetch would answer them (web/pages/rendering.py), run in a request context
    with the page's address (`Addresses`)."""

    def keys(self, caller: Caller) -> frozenset[str]: ...

    def update(self, caller: Caller, shown: frozenset[str]) -> tuple[str, frozenset[str]]: ...


class Addresses:
    """The WSGI environ each stream renders its page's links in: its scheme, host and root, as its request
    came. One for each such address, shared by the streams that came that way (a handful; at most `size`,
    since a client names its own Host)."""

    def __init__(self, size: int = 64):
        self._made: Cache[tuple[str, str, str], dict[str, Any]] = Cache("a scheme, host and root", size)

    def of(self, request: Request) -> tuple[str, str, str]:
        return request.scheme, request.host, request.script_root

    def environ(self, address: tuple[str, str, str]) -> dict[str, Any]:
        scheme, host, root = address
        return dict(self._made.made(address, lambda: create_environ("/", f"{scheme}://{host}{root}/")))


class ViewStream:
    """What one page's stream has said, and what it says next, however it is carried."""

    __slots__ = (
        "app",
        "looks",
        "capability",
        "checked",
        "etag_of",
        "sent",
        "ends",
        "ticket",
        "pusher",
        "shown",
        "address",
    )

    def __init__(
        self,
        app: Flask,
        caller: Caller,
        etag_of: Callable[[Caller], str],
        ticket: Ticket,
        pusher: Pusher | None = None,
        address: tuple[str, str, str] | None = None,
    ):
        """`ticket`: its place in the process's budget, let go when it ends (`release`); `pusher`: a live page's
        regions, rendered at its `address` (else the stream tells the page its ETag, and the page fetches)."""
        self.app, self.etag_of, self.ticket = app, etag_of, ticket
        self.looks: Looks = app.extensions["stream_looks"]
        self.capability, self.checked = caller.capability, caller.game_version  # valid at that version
        self.sent: str | None = None
        self.ends = time.monotonic() + app.config["STREAM_LIFETIME_SECONDS"]
        self.pusher, self.address = pusher, address
        self.shown: frozenset[str] | None = None  # the keys of the regions its page shows, once known

    @property
    def game_id(self) -> str:
        return self.capability.game_id

    def release(self) -> None:
        self.ticket.release()

    def news(self) -> str:
        """The message its page needs now: its ETag if that changed since the last one sent, GONE once the
        token is withdrawn, else nothing ("")."""
        sight = self.looks.latest(self.game_id, self.checked)
        if self.checked < sight.since:  # checked before this process's first look at the game: once more
            found = self.looks.service.resolve(self.capability.token)
            if found is None:
                return GONE
            self.capability, self.checked = found[0], found[1].latest
        kind, seat = self.capability.kind, self.capability.seat
        for number, withdrawn, promoted in sight.changes:
            if number <= self.checked:
                continue
            if (kind, seat) in withdrawn:
                return GONE
            kind = next((new for was, new, at in promoted if (was, at) == (kind, seat)), kind)
        if kind in TOMBSTONES:  # the table screen moved to another device; a waiting phone's claim replaced
            return GONE
        if kind != self.capability.kind:  # a new phone let in: its token is now the seat's (its page reloads)
            self.capability, self.pusher = replace(self.capability, kind=kind), None
        self.checked = max(self.checked, sight.version)
        caller = Caller(self.capability, Marks.at(sight.version))
        with self.app.app_context():
            etag = self.etag_of(caller)
        if etag == self.sent:
            return ""
        first, self.sent = self.sent is None, etag
        if self.pusher is None or self.address is None:
            return f"event: view\nid: {etag}\ndata: {etag}\n\n"
        with self.app.request_context(self.app.extensions["stream_addresses"].environ(self.address)):
            if first or self.shown is None:  # the page shows this version, or fetches it now: its regions
                self.shown = self.pusher.keys(caller)
                return f"event: view\nid: {etag}\ndata: {etag}\n\n"
            body, self.shown = self.pusher.update(caller, self.shown)
        return f"event: page\nid: {etag}\ndata: {orjson.dumps({'etag': etag, 'body': body}).decode()}\n\n"


def event_stream(caller: Caller, etag_of: Callable[[Caller], str], pusher: Pusher | None = None) -> Response:
    """The stream of `caller`'s page; `etag_of(caller)` is that page's ETag, as its poll answers it (it may
    not read the request: it runs after the request has been answered); `pusher`, a live page's changed
    regions. Refused (`Refused`) past the process's budget."""
    # (current_app is a proxy, which Flask's types call the app itself: mypy doesn't know the proxy's method.)
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    ticket = app.extensions["stream_budget"].admit(caller.capability.token, client_key())
    address = app.extensions["stream_addresses"].of(request) if pusher is not None else None
    stream = ViewStream(app, caller, etag_of, ticket, pusher, address)
    response = StreamResponse(
        _held(stream, app.extensions["push"], app.config["STREAM_HEARTBEAT_SECONDS"]),
        mimetype="text/event-stream",
        headers={
            "Cache-Control": "no-cache, no-transform",
            "X-Accel-Buffering": "no",  # nginx: pass each message on at once
        },
    )
    response.view_stream = stream
    response.call_on_close(stream.release)  # held: when its server closes it (a HEAD: at once)
    return response


def _held(stream: ViewStream, hub: Hub, heartbeat: float) -> Iterator[str]:
    """The stream as the body of its own answer, for as long as it lasts. It beats every `heartbeat` seconds
    from its start, whatever wakes it in between."""
    try:
        with hub.listening(stream.game_id) as bell:  # before the first look: no change can slip in between
            yield f"retry: {RETRY_MS}\n\n"
            beat = time.monotonic() + heartbeat
            while True:
                message = stream.news()
                if message:
                    yield message
                if message == GONE:
                    return
                while True:
                    now = time.monotonic()
                    if now >= stream.ends or hub.closing:
                        return
                    if now >= beat:
                        yield HEARTBEAT
                        beat += heartbeat
                        if beat <= now:  # it fell behind (its reader was slow): from now on
                            beat = now + heartbeat
                    elif bell.wait(min(beat, stream.ends) - now):
                        bell.clear()
                        break
    finally:
        stream.release()


class StreamResponse(Response):
    view_stream: ViewStream

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        connection = _connection(environ)
        if connection is None:
            return super().__call__(environ, start_response)
        # The head, as the server would write it; then the body runs until the connection closes.
        head = [f"HTTP/1.1 {self.status}", f"Date: {http_date()}", "Connection: close"]
        head += [
            f"{name}: {value}"
            for name, value in self.get_wsgi_headers(environ)
            if name.lower() not in ("connection", "date")
        ]
        stream = self.view_stream
        try:
            connection.sendall(("\r\n".join(head) + "\r\n\r\n" + f"retry: {RETRY_MS}\n\n").encode("latin-1"))
            copy = connection.dup()
        except OSError as error:  # the client left already (or, beyond the budget, no descriptor left)
            stream.release()
            log.info("stream: not handed over (%s)", error)
        else:
            current_app.extensions["courier"].take(stream, copy)
        # The server's copy reads no further request from it (and closes its copy at once).
        with contextlib.suppress(OSError):
            connection.shutdown(socket.SHUT_RD)
        from gunicorn.workers.base_async import ALREADY_HANDLED

        return ALREADY_HANDLED  # type: ignore[return-value]  # gunicorn's marker, no body: it writes nothing more


def _connection(environ: WSGIEnvironment) -> socket.socket | None:
    """The client's socket, when the server lets an answer take its connection over: gunicorn's gevent
    worker over HTTP/1 (its async workers return at once from an answer that says ALREADY_HANDLED), for a
    GET (a HEAD gets its head only, as from any server)."""
    connection: socket.socket | None = environ.get("gunicorn.socket")
    if (
        connection is None
        or environ.get("SERVER_PROTOCOL") not in ("HTTP/1.0", "HTTP/1.1")
        or environ.get("REQUEST_METHOD") != "GET"
    ):
        return None
    monkey = sys.modules.get("gevent.monkey")
    return connection if monkey is not None and monkey.is_module_patched("socket") else None


class Handed:
    """A stream handed over to the courier: its connection, a listener of its game, its turn to beat, and what
    its connection has not taken yet."""

    __slots__ = ("courier", "stream", "connection", "turn", "unsent")

    def __init__(self, courier: Courier, stream: ViewStream, connection: socket.socket, turn: int):
        self.courier, self.stream, self.connection, self.turn = courier, stream, connection, turn
        self.unsent = b""

    def set(self) -> None:  # the hub: its game may have changed
        self.courier.due(self)

    def send(self, message: str) -> bool:
        """Write without waiting: what the connection's buffer can't take now waits, in order, for the courier's
        next round (a page's regions can be more than an idle connection takes at once). A connection that
        still holds `MAX_UNSENT` bytes back is gone or stuck, and is closed (an `EventSource` reconnects and
        catches up)."""
        self.unsent += message.encode()
        return self.flush()

    def flush(self) -> bool:
        try:
            sent = self.connection.send(self.unsent)
        except BlockingIOError:
            sent = 0
        except OSError:
            sent = -1
        if sent >= 0:
            self.unsent = self.unsent[sent:]
            if len(self.unsent) <= MAX_UNSENT:
                if self.unsent:
                    self.courier.later(self)
                return True
        self.courier.drop(self)
        return False


class Courier:
    """Writes every handed-over stream of this process, from one thread (a greenlet in the gevent worker):
    a look at each stream whose game may have changed, heartbeats, and the end of streams whose lifetime is
    over or whose worker is stopping. Its heartbeats keep their own schedule, which no change moves: the
    streams take turns (`BEAT_TURNS`, one every `heartbeat / BEAT_TURNS` seconds), each joining the next turn
    in rotation, so a stream beats every `heartbeat` seconds, the first time within `heartbeat`."""

    def __init__(self, hub: Hub, heartbeat: float):
        self.hub, self.heartbeat = hub, heartbeat
        self._lock = threading.Lock()
        self._streams: set[Handed] = set()
        self._turns: list[set[Handed]] = [set() for _ in range(BEAT_TURNS)]
        self._turn = 0  # the turn that beat last
        self._joined = 0  # the turn the last stream joined
        self._due: set[Handed] = set()
        self._unsent: set[Handed] = set()  # streams whose connection held bytes back
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def take(self, stream: ViewStream, connection: socket.socket) -> None:
        connection.setblocking(False)
        with self._lock:
            self._joined = (self._joined + 1) % BEAT_TURNS
            handed = Handed(self, stream, connection, self._joined)
        self.hub.subscribe(stream.game_id, handed)  # before its first look: no change slips in between
        with self._lock:
            self._streams.add(handed)
            self._turns[handed.turn].add(handed)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="stream-courier", daemon=True)
                self._thread.start()
        self.due(handed)

    def due(self, handed: Handed) -> None:
        with self._lock:
            self._due.add(handed)
        self._wake.set()

    def later(self, handed: Handed) -> None:
        with self._lock:
            self._unsent.add(handed)

    def drop(self, handed: Handed) -> None:
        with self._lock:
            self._streams.discard(handed)
            self._turns[handed.turn].discard(handed)
            self._due.discard(handed)
            self._unsent.discard(handed)
        self.hub.unsubscribe(handed.stream.game_id, handed)
        handed.stream.release()
        with contextlib.suppress(OSError):
            handed.connection.close()

    def streams(self) -> int:
        with self._lock:
            return len(self._streams)

    def _run(self) -> None:
        every = self.heartbeat / BEAT_TURNS
        beat = time.monotonic() + every
        while True:
            wait = max(0.0, beat - time.monotonic())
            self._wake.wait(min(wait, FLUSH_SECONDS) if self._unsent else wait)
            self._wake.clear()
            with self._lock:
                due, self._due = self._due, set()
                unsent, self._unsent = self._unsent, set()
            for handed in unsent:
                handed.flush()
            if self.hub.closing:
                due = set()
                self._end_all()
            for handed in due:
                self._tell(handed)
            now = time.monotonic()
            if now >= beat:
                beat += every  # on its own clock: no wake moves it
                if beat <= now:
                    beat = now + every
                self._beat(now)
            with self._lock:
                if not self._streams and not self._due:
                    self._thread = None
                    return

    def _tell(self, handed: Handed) -> None:
        """What the stream's page needs now, if anything."""
        try:
            message = handed.stream.news()
        except Exception:  # the database went away: the page reconnects and catches up
            log.warning("stream: could not look at its game", exc_info=True)
            self.drop(handed)
            return
        if message and handed.send(message) and message == GONE:
            self.drop(handed)

    def _beat(self, now: float) -> None:
        """The next turn's heartbeats, and the end of the streams whose lifetime is over."""
        with self._lock:
            self._turn = (self._turn + 1) % BEAT_TURNS
            streams = list(self._turns[self._turn])
        for count, handed in enumerate(streams, 1):
            if now >= handed.stream.ends:  # its lifetime is over: its page reconnects
                self.drop(handed)
            else:
                handed.send(HEARTBEAT)
            if count % HEARTBEATS_BETWEEN_YIELDS == 0:
                time.sleep(0)

    def _end_all(self) -> None:
        with self._lock:
            streams = list(self._streams)
        for handed in streams:
            self.drop(handed)


def init_streams(app: Flask) -> None:
    # As many streams as STREAMS, and as the process's open files allow beside its requests
    # (gunicorn.conf.py shares them out again with gunicorn's own count of requests at once).
    _, capacity = share(raise_open_files(), app.config["STREAMS"], app.config["STREAMS"])
    app.extensions["stream_budget"] = Budget(
        capacity, app.config["STREAMS_PER_TOKEN"], app.config["STREAMS_PER_ADDRESS"]
    )
    app.extensions["stream_looks"] = Looks(app.extensions["games"], app.extensions["push"])
    app.extensions["stream_addresses"] = Addresses()
    app.extensions["courier"] = Courier(app.extensions["push"], app.config["STREAM_HEARTBEAT_SECONDS"])
