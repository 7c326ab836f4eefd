"""Server-sent events (issue 13): each page's stream says "your view changed" with the page's new ETag, and
nothing else; only to the viewers whose view changed; it ends once its token is withdrawn."""

from __future__ import annotations

import json
import queue
import re
import socket
import threading
import time
import uuid
from itertools import pairwise
from datetime import datetime, timedelta, UTC

import pytest
from sqlalchemy import event

from companion import create_app
from companion.messages import REFUSALS
from companion.web.stream import BEAT_TURNS, HEARTBEAT, Courier
from tools.driver import ApiGame, wrong, wrong2

from .api import browser, table_path
from .conftest import database_url

WAIT = 20  # seconds a test waits for a message before it fails (never a sleep: messages end the wait)
READER = "stream-reader"  # the threads that read the streams (and, held by their request, run them)


def make_app(tmp_path, **config):
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-" + uuid.uuid4().hex,
            "RATE_LIMITS": "off",
            "DATABASE_URL": database_url(tmp_path),
            "STREAM_HEARTBEAT_SECONDS": 0.2,
            "PUSH_LOOK_SECONDS": 0.02,
            **config,
        }
    )


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path)


class Stream:
    """An open stream, read in a thread: its messages (dicts of their fields) come out of `next()`.
    `address`: the client's address, as the server sees it."""

    def __init__(self, client, path, headers=None, address="127.0.0.1"):
        self.answer = client.get(path, headers=headers or {}, buffered=False, environ_base={"REMOTE_ADDR": address})
        self.messages: queue.Queue = queue.Queue()
        self.closed = False
        if self.answer.status_code == 200:
            threading.Thread(target=self._read, daemon=True, name=READER).start()

    def _read(self):
        buffer = ""
        for chunk in self.answer.response:
            if self.closed:  # the generator is closed from this thread (the one running it)
                self.answer.close()
                return
            buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
            while "\n\n" in buffer:
                block, buffer = buffer.split("\n\n", 1)
                fields = dict(
                    line.split(": ", 1) if ": " in line else (line.rstrip(":"), "") for line in block.split("\n")
                )
                self.messages.put(fields)
        self.messages.put({"end": ""})

    def next(self, kind="view") -> dict:
        """The next message that isn't a heartbeat (nor `retry`); it must be a `kind` one. A live page's `page`
        message (its changed regions) is a "view" one too: its `data` is then its ETag, `body` its regions."""
        while True:
            message = self.messages.get(timeout=WAIT)
            if "" in message or "retry" in message:
                continue
            said = message.get("event", "end" if "end" in message else None)
            if said == "page" and kind in ("view", "page"):
                pushed = json.loads(message["data"])
                assert pushed["etag"] == message["id"], message
                return {**message, "data": pushed["etag"], "body": pushed["body"]}
            assert said == kind, message
            return message

    def heartbeats(self, count=2) -> None:
        """Wait for `count` heartbeats in a row: nothing else may come meanwhile."""
        for _ in range(count):
            message = self.messages.get(timeout=WAIT)
            if "retry" in message:
                message = self.messages.get(timeout=WAIT)
            assert "" in message, f"expected only heartbeats, got {message}"

    def close(self):
        """Hang up (at the next heartbeat)."""
        self.closed = True


def etag_of(client, path, headers=None) -> str:
    answer = client.get(path, headers=headers or {})
    assert answer.status_code == 200
    return answer.headers["ETag"]


def test_a_stream_starts_with_the_page_etag_and_says_each_change(app, client):
    game = ApiGame(client, start=False)
    bearer = {"Authorization": f"Bearer {game.host}"}
    stream = Stream(client, f"/api/games/{game.id}/stream", bearer)
    assert stream.answer.headers["Content-Type"].startswith("text/event-stream")
    assert stream.answer.headers["X-Accel-Buffering"] == "no"
    assert "Content-Encoding" not in stream.answer.headers  # compressed, it would be buffered
    first = stream.next()
    assert first["data"] == first["id"] == etag_of(client, f"/api/games/{game.id}", bearer)
    game.ok(game.command(game.host, "start"))
    second = stream.next()
    assert second["data"] != first["data"]
    assert second["data"] == etag_of(client, f"/api/games/{game.id}", bearer)
    stream.close()


def test_a_draft_wakes_the_drafting_team_only(app, client):
    game = ApiGame(client)
    game.announce("white")
    game.announce("black")
    drafter = game.guesser("white", "white")
    white_mate, black_player = game.encryptor("white"), game.guesser("black", "black")
    table, white, black = (
        Stream(client, f"/api/games/{game.id}/stream", {"Authorization": f"Bearer {t}"})
        for t in (game.host, white_mate, black_player)
    )
    for stream in (table, white, black):
        stream.next()  # the ETag of now
    game.guess("white", "white", wrong(game.code("white")), confirm=False)
    assert white.next()["data"] == etag_of(client, f"/api/games/{game.id}", {"Authorization": f"Bearer {white_mate}"})
    table.heartbeats()
    black.heartbeats()
    game.guess("white", "white", game.code("white"), confirm=True)  # everyone sees this one
    for stream, token in ((table, game.host), (white, white_mate), (black, black_player)):
        assert stream.next()["data"] == etag_of(client, f"/api/games/{game.id}", {"Authorization": f"Bearer {token}"})
        stream.close()
    assert drafter


@pytest.mark.parametrize("page", ["play", "table", "watch"])
def test_each_page_stream_follows_its_page_etag(app, client, page):
    game = ApiGame(client, start=False)
    if page == "play":
        phone = browser(app, game.id, game.seats["Ann"])
        path = f"/play/{game.id}"
    elif page == "table":
        phone = browser(app)
        path = table_path(phone, game.host)
    else:
        phone = browser(app)
        path = f"/watch/{game.tokens['spectator']}"
    stream = Stream(phone, f"{path}/stream")
    assert stream.next()["data"] == etag_of(phone, path)
    game.ok(game.command(game.host, "start"))
    assert stream.next()["data"] == etag_of(phone, path)
    stream.close()


def test_the_table_stream_follows_its_move_link_and_ends_once_the_table_screen_moved(app, client):
    """Showing the move link is a line of the table log: the table's stream says so. Once another device used it,
    the old table screen's stream, and an API client's with the old host token, say `gone` (issue 20)."""
    game = ApiGame(client, start=False)
    table = browser(app)
    path = table_path(table, game.host)
    stream = Stream(table, f"{path}/stream")
    api = Stream(client, f"/api/games/{game.id}/stream", {"Authorization": f"Bearer {game.host}"})
    stream.next()
    api.next()
    assert table.post(f"{path}/move", data={"csrf_token": table.csrf}).status_code == 303
    assert stream.next()["data"] == etag_of(table, path)
    api.next()
    link = re.search(r'href="https?://[^/"]+(/move/[\w-]+)"', table.get(path).get_data(as_text=True)).group(1)
    other = browser(app)
    assert other.post(link, data={"csrf_token": other.csrf}).status_code == 303
    for gone in (stream, api):
        gone.next("gone")
        gone.next("end")


def test_a_stream_ends_when_its_seat_goes_to_another_phone(app, client):
    game = ApiGame(client, start=False)
    phone = browser(app, game.id, game.seats["Ann"])
    stream = Stream(phone, f"/play/{game.id}/stream")
    stream.next()
    game.ok(game.command(game.host, "remove-player", seat=game.seat_of("Ann")))
    stream.next("gone")
    stream.next("end")


@pytest.mark.parametrize(
    "path", ["/play/{id}/stream", "/table/{id}/stream", "/api/games/{id}/stream", "/watch/{spectator}x/stream"]
)
def test_a_stream_is_authorised_like_its_page(app, client, path):
    game = ApiGame(client, start=False)
    stranger = browser(app)
    answer = stranger.get(path.format(id=game.id, spectator=game.tokens["spectator"]))
    assert answer.status_code in (401, 403)
    assert b"event:" not in answer.data and answer.data  # a refusal (the page's or the API's), no stream


def test_a_change_made_by_another_process_wakes_the_stream(app, client, tmp_path):
    """Two workers share only the database: the other's command reaches this one's stream (SQLite: the
    watcher; PostgreSQL: LISTEN/NOTIFY)."""
    game = ApiGame(client, start=False)
    other = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": app.config["SECRET_KEY"],
            "RATE_LIMITS": "off",
            "DATABASE_URL": app.config["DATABASE_URL"],
        }
    )
    bearer = {"Authorization": f"Bearer {game.host}"}
    stream = Stream(client, f"/api/games/{game.id}/stream", bearer)
    first = stream.next()
    started = other.test_client().post(f"/api/games/{game.id}/start", json={}, headers=bearer)
    assert started.status_code == 200, started.get_json()
    assert other.extensions["push"].streams() == 0 and app.extensions["push"].streams() == 1
    assert stream.next()["data"] != first["data"]
    stream.close()


def test_the_sqlite_watcher_reads_the_games_changed_since_its_last_look_and_misses_none(app, client):
    """What SQLite's push watcher asks (`Store.games_changed_since`): only games with new events, and
    "any may have changed" when the rows it counted from were deleted (SQLite then numbers new rows again)."""
    store = app.extensions["games"].store
    first = ApiGame(client, start=False)
    changed, after = store.games_changed_since(None)
    assert changed is None and after > 0  # the first look: every watched game rings
    second = ApiGame(client, start=False)
    changed, after = store.games_changed_since(after)
    assert changed == {second.id}
    assert store.games_changed_since(after) == (set(), after)  # nothing new
    first.ok(first.command(first.host, "start"))
    changed, after = store.games_changed_since(after)
    assert changed == {first.id}
    store.delete_idle_games(datetime.now(UTC) + timedelta(days=1))  # every game, the newest rows too
    third = ApiGame(client, start=False)
    changed, _ = store.games_changed_since(after)
    assert changed is None or changed == {third.id}  # SQLite: None (row numbers given again); never a miss


class QuietStream:
    """What the courier needs of a stream whose view never changes (its heartbeats are under test)."""

    game_id = "quiet"
    ends = float("inf")

    def news(self) -> str:
        return ""

    def release(self) -> None:
        pass


def test_handed_over_streams_beat_in_turns_even_when_they_came_together(app):
    """A worker's courier beats its streams a turn at a time (`BEAT_TURNS`), streams joining the turns in
    rotation: fifteen streams taken at once (pages reconnecting after a restart) beat spread over the whole
    heartbeat, where they used to beat in one burst; each beats once a heartbeat."""
    heartbeat = 1.5
    courier = Courier(app.extensions["push"], heartbeat)
    pairs = []
    taken = time.monotonic()
    for _ in range(BEAT_TURNS):
        ours, theirs = socket.socketpair()
        theirs.settimeout(0)
        pairs.append(theirs)
        courier.take(QuietStream(), ours)
    beats: list[list[float]] = [[] for _ in pairs]
    deadline = time.monotonic() + 2 * heartbeat + 0.3
    while time.monotonic() < deadline:
        for n, theirs in enumerate(pairs):
            try:
                if theirs.recv(100) == HEARTBEAT.encode():
                    beats[n].append(time.monotonic())
            except BlockingIOError:
                pass
        time.sleep(0.005)
    app.extensions["push"].close()  # the worker stops: the courier ends its streams, and its thread
    firsts = sorted(found[0] for found in beats if found)
    assert len(firsts) == len(pairs), beats  # each beat within its first heartbeat (and a bit)
    assert firsts[-1] - taken <= heartbeat + 0.5
    assert firsts[-1] - firsts[0] >= heartbeat / 2  # spread over the heartbeat, not in one burst
    for found in beats:
        assert all(heartbeat - 0.4 <= later - earlier <= heartbeat + 0.4 for earlier, later in pairwise(found))


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def refused(stream: Stream, status: int, code: str) -> None:
    """The stream was refused with `code`'s sentence, to try again later; no stream began."""
    answer = stream.answer
    assert answer.status_code == status, answer.data[:200]
    assert answer.get_json() == {"code": code, "error": str(REFUSALS[code].sentence)}
    assert int(answer.headers["Retry-After"]) > 0


def until(condition) -> None:
    """Wait until `condition()` holds (a stream hung up ends at its next heartbeat)."""
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, "still not so"
        time.sleep(0.01)


def test_one_client_past_its_share_of_streams_is_refused_with_a_sentence(tmp_path):
    app = make_app(tmp_path, STREAMS_PER_ADDRESS=3)
    client = app.test_client()
    game = ApiGame(client, start=False)
    path = f"/api/games/{game.id}/stream"
    mine = [Stream(client, path, bearer(token)) for token in (game.host, game.seats["Ann"], game.seats["Abe"])]
    for stream in mine:
        stream.next()
    refused(Stream(client, path, bearer(game.seats["Bea"])), 429, "too_many_streams")
    # Another client is counted apart (an IPv6 client by its /64: two addresses of one /64 are one client).
    other = [Stream(client, path, bearer(game.seats["Bea"]), address=f"2001:db8:0:7::{n}") for n in (1, 2, 3)]
    for stream in other:
        stream.next()
    refused(Stream(client, path, bearer(game.seats["Bob"]), address="2001:db8:0:7:ffff::9"), 429, "too_many_streams")
    Stream(client, path, bearer(game.seats["Bob"]), address="2001:db8:0:8::1").next()
    # A stream that ends gives its place back.
    mine[0].close()
    until(lambda: app.extensions["stream_budget"].open() == 6)
    Stream(client, path, bearer(game.seats["Bea"])).next()


def test_one_token_past_its_share_of_streams_is_refused_from_any_address(tmp_path):
    app = make_app(tmp_path, STREAMS_PER_TOKEN=2)
    client = app.test_client()
    game = ApiGame(client, start=False)
    path = f"/api/games/{game.id}/stream"
    for address in ("192.0.2.1", "192.0.2.2"):
        Stream(client, path, bearer(game.host), address=address).next()
    refused(Stream(client, path, bearer(game.host), address="192.0.2.3"), 429, "too_many_streams")
    phone = browser(app, game.id, game.seats["Ann"])  # a page's stream is counted alike
    Stream(phone, f"/play/{game.id}/stream").next()
    Stream(phone, f"/play/{game.id}/stream").next()
    answer = Stream(phone, f"/play/{game.id}/stream").answer
    assert answer.status_code == 429 and str(REFUSALS["too_many_streams"].sentence) in answer.get_data(as_text=True)


def test_behind_a_trusted_proxy_each_client_has_its_own_share_of_streams(tmp_path):
    app = make_app(tmp_path, STREAMS_PER_ADDRESS=1, TRUSTED_PROXIES=1)
    client = app.test_client()
    game = ApiGame(client, start=False)
    path = f"/api/games/{game.id}/stream"
    forwarded = lambda client_address, token: {**bearer(token), "X-Forwarded-For": client_address}  # noqa: E731
    Stream(client, path, forwarded("198.51.100.1", game.host)).next()
    Stream(client, path, forwarded("198.51.100.2", game.seats["Ann"])).next()
    # What the client itself wrote further left is no other client.
    refused(Stream(client, path, forwarded("203.0.113.9, 198.51.100.1", game.seats["Abe"])), 429, "too_many_streams")


def test_a_stream_past_the_workers_capacity_is_refused_with_503_and_retry_after(tmp_path):
    app = make_app(tmp_path, STREAMS=2)
    client = app.test_client()
    game = ApiGame(client, start=False)
    path = f"/api/games/{game.id}/stream"
    first = Stream(client, path, bearer(game.host), address="192.0.2.1")
    first.next()
    Stream(client, path, bearer(game.seats["Ann"]), address="192.0.2.2").next()
    refused(Stream(client, path, bearer(game.seats["Abe"]), address="192.0.2.3"), 503, "streams_full")
    first.close()
    until(lambda: app.extensions["stream_budget"].open() == 1)
    Stream(client, path, bearer(game.seats["Abe"]), address="192.0.2.3").next()


def test_a_held_streams_heartbeats_keep_their_schedule_while_the_other_team_drafts(tmp_path):
    """Held by its request, a stream woken by a draft of the other team (no change of its page) used to wait a
    whole heartbeat again from then: a draft faster than the heartbeat silenced it, and its heartbeats came
    a beat after each draft, telling when the other team drafted."""
    app = make_app(tmp_path, STREAM_HEARTBEAT_SECONDS=0.5)
    client = app.test_client()
    game = ApiGame(client)
    game.announce("white")
    game.announce("black")
    black = Stream(client, f"/api/games/{game.id}/stream", bearer(game.guesser("black", "black")))
    black.next()
    code, beats, drafts = game.code("white"), 0, 0
    deadline = time.monotonic() + WAIT
    while beats < 3:  # White drafts without a pause, all along
        assert time.monotonic() < deadline, f"{beats} heartbeat(s) in {drafts} drafts of the other team"
        game.guess("white", "white", (wrong, wrong2)[drafts % 2](code), confirm=False)
        drafts += 1
        while not black.messages.empty():
            message = black.messages.get()
            assert "" in message, f"only heartbeats may come, not {message}"
            beats += 1
    black.close()


class Rings:
    """A listener of the hub that counts the rings of its game."""

    def __init__(self):
        self.count, self._lock = 0, threading.Lock()

    def set(self) -> None:  # from the command's thread and the watcher's
        with self._lock:
            self.count += 1


def test_a_change_costs_one_look_at_the_game_for_all_of_its_streams(app, client):
    """Woken, no stream looks its token or its game up by itself: the game's new events say whether its token
    was withdrawn, and one look serves every stream of the game (there were two queries a stream): a look
    per ring of the game's bell, whatever the number of its streams."""
    game = ApiGame(client)
    rings = Rings()
    app.extensions["push"].subscribe(game.id, rings)  # before any stream: it hears every ring they do
    streams = [
        Stream(client, f"/api/games/{game.id}/stream", bearer(token))
        for token in (game.host, game.tokens["spectator"], *game.seats.values())
    ]
    for stream in streams:
        stream.next()
    queries = []

    def count(conn, cursor, statement, *args):
        if threading.current_thread().name == READER:
            queries.append(statement)

    engine = app.extensions["games"].store.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        game.announce("white")  # everyone sees it: every stream says so
        for stream in streams:
            stream.next()
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert not [q for q in queries if "capabilities" in q], queries
    # The rings: the command's own, the watcher's (SQLite) or the notification's (PostgreSQL), and on SQLite
    # the watcher's first look at the game when it comes after the streams opened (seen once in CI: 3 rings).
    assert len(queries) <= rings.count < len(streams), (rings.count, queries)
    for stream in streams:
        stream.close()
    app.extensions["push"].unsubscribe(game.id, rings)


def test_the_table_screens_stream_reads_the_games_tokens_again_only_after_an_event_changed_them(app, client):
    """The table screen shows the seat links it issued: its stream reads the game's tokens with its first look,
    then again only after an event granted, withdrew or changed one (it read them at every move)."""
    game = ApiGame(client)
    table = browser(app)
    path = table_path(table, game.host)
    stream = Stream(table, f"{path}/stream")
    stream.next()
    reads = []

    def count(conn, cursor, statement, *args):
        if threading.current_thread().name == READER and "FROM capabilities" in statement:
            reads.append(statement)

    engine = app.extensions["games"].store.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        game.announce("white")
        assert "/seat/" not in stream.next()["body"]
        assert reads == []
        game.ok(game.post("seat-link", game.host, seat=game.seat_of("Abe")))
        pushed = re.findall(r"/seat/[\w-]+", stream.next()["body"])
        assert pushed and set(pushed) == set(re.findall(r"/seat/[\w-]+", table.get(path).get_data(as_text=True)))
        assert len(reads) == 1
        game.announce("black")
        stream.next()
        assert len(reads) == 1
    finally:
        event.remove(engine, "before_cursor_execute", count)
    stream.close()


def test_a_guess_before_its_reveal_sends_the_table_screen_its_board_but_not_its_note_sheets(app, client):
    """The note sheets are a region of their own: the board changes with every move, the sheets only when clues
    are filed, so most moves neither render them nor send them again (they were part of the board)."""
    game = ApiGame(client)
    game.round()
    game.announce("white")
    game.announce("black")
    table = browser(app)
    path = table_path(table, game.host)
    stream = Stream(table, f"{path}/stream")
    stream.next()
    code = game.code("white")
    game.guess("black", "white", wrong(code))  # sealed: the board says so, the sheets wait for the reveal
    sealed = stream.next()["body"]
    assert 'id="board"' in sealed and 'id="sheets"' not in sealed
    game.guess("white", "white", code)  # the reveal files White's clues
    assert 'id="sheets"' in stream.next()["body"]
    stream.close()


def test_a_games_look_is_forgotten_once_its_last_stream_here_ends(app, client):
    """A look holds its game's state: a worker that served many tables keeps none of those nobody watches."""
    game = ApiGame(client)
    looks, hub = app.extensions["stream_looks"], app.extensions["push"]
    streams = [
        Stream(client, f"/api/games/{game.id}/stream", bearer(token)) for token in (game.host, game.seats["Abe"])
    ]
    for stream in streams:
        stream.next()
    left, unsubscribe = threading.Event(), hub.unsubscribe

    def unsubscribed(game_id, listener):
        unsubscribe(game_id, listener)
        left.set()

    hub.unsubscribe = unsubscribed  # (this app's hub only)
    streams[0].close()
    assert left.wait(WAIT) and looks._games.get(game.id) is not None  # one stream still watches it
    left.clear()
    streams[1].close()
    assert left.wait(WAIT) and looks._games.get(game.id) is None


def test_a_process_holds_one_state_of_a_game_for_its_pages_and_its_streams(app, client):
    """The streams' look at a game and the pages' fetches share this process's state of it, whichever folds a
    move first: they held a copy each, two states a table in every worker (issue 23, item 5)."""
    game = ApiGame(client)
    looks, service = app.extensions["stream_looks"], app.extensions["games"]
    other = create_app(
        {"TESTING": True, "SECRET_KEY": app.config["SECRET_KEY"], "DATABASE_URL": app.config["DATABASE_URL"]}
    )
    looks.latest(game.id, 0)
    game.client = other.test_client()
    game.announce("white")  # a move made by another worker
    game.client = client
    version, fetched = service.load(game.id)  # a page here folds it first, then the streams look
    assert looks.latest(game.id, version).game is fetched
    game.announce("black")  # a move made here
    version, kept = service.load(game.id)
    assert looks.latest(game.id, version).game is kept
