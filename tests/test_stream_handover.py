"""Streams under gunicorn's gevent worker, as in production: each is handed over to the worker's courier
(web/stream.py), which says each change, beats, and ends it when its token is withdrawn or its worker
stops. Read off the wire with a plain socket, as a browser's EventSource reads it."""

from __future__ import annotations

import json
import resource
import socket
import time
import urllib.request

import pytest

from companion.messages import REFUSALS

from .conftest import database_url
from .server import Server

pytestmark = pytest.mark.system  # gunicorn's gevent worker, as in production

WAIT = 20  # seconds a read waits before the test fails (a message ends the wait)


@pytest.fixture
def server(tmp_path):
    server = Server(database_url(tmp_path), workers=1, worker_class="gevent")
    server.env["STREAM_HEARTBEAT_SECONDS"] = "0.3"
    server.start()
    yield server
    server.stop()


class Wire:
    """A stream read off its connection: the answer's head, then its messages one by one."""

    def __init__(self, server: Server, path: str, token: str):
        self.connection = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
        self.connection.sendall(
            f"GET {path} HTTP/1.1\r\nHost: table\r\nAuthorization: Bearer {token}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        self.buffer = b""
        head = self._until(b"\r\n\r\n")
        self.status_line, *lines = head.decode("latin-1").split("\r\n")
        self.headers = {name.lower(): value for name, value in (line.split(": ", 1) for line in lines)}

    def _until(self, end: bytes) -> bytes:
        while end not in self.buffer:
            chunk = self.connection.recv(4096)
            if not chunk:
                raise EOFError(self.buffer)
            self.buffer += chunk
        block, self.buffer = self.buffer.split(end, 1)
        return block

    def body(self) -> bytes:
        """The answer's body, when it is no stream (a refusal)."""
        length = int(self.headers["content-length"])
        while len(self.buffer) < length:
            self.buffer += self.connection.recv(4096)
        return self.buffer[:length]

    def message(self) -> dict:
        """The next block: its fields (a heartbeat is {"": "still here"})."""
        block = self._until(b"\n\n").decode()
        return dict(line.split(": ", 1) if ": " in line else (line.rstrip(":"), "") for line in block.split("\n"))

    def next(self, kind="view") -> dict:
        """The next message that is no heartbeat nor `retry`: it must be a `kind` one."""
        while True:
            fields = self.message()
            if "" in fields or "retry" in fields:
                continue
            assert fields.get("event") == kind, fields
            return fields

    def ended(self) -> bool:
        """The server closed the stream (heartbeats until then)."""
        try:
            while True:
                self.message()
        except EOFError:
            return True


def etag(server: Server, path: str, token: str) -> str:
    request = urllib.request.Request(server.url + path, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.headers["ETag"]


def new_game(server: Server) -> dict:
    status, game = server.request("POST", "/api/games", {})
    assert status == 201, game
    return game


def test_a_handed_over_stream_says_each_change_and_beats(server):
    game = new_game(server)
    view, host = f"/api/games/{game['game_id']}", game["tokens"]["host"]
    wire = Wire(server, f"{view}/stream", host)
    assert wire.status_line == "HTTP/1.1 200 OK"
    assert wire.headers["content-type"].startswith("text/event-stream")
    # Handed over: the connection is the stream's alone, its end the end of the body (no chunks).
    assert wire.headers["connection"] == "close" and "transfer-encoding" not in wire.headers
    assert wire.headers["x-accel-buffering"] == "no" and "content-length" not in wire.headers
    assert wire.message() == {"retry": "1000"}
    assert wire.next()["data"] == etag(server, view, host)
    status, _ = server.request("POST", f"{view}/join", {"name": "Ann"}, token=game["tokens"]["white"])
    assert status == 200
    assert wire.next()["data"] == etag(server, view, host)
    assert "" in wire.message() and "" in wire.message()  # idle again: heartbeats, nothing else


def test_a_handed_over_stream_ends_when_its_token_is_withdrawn(server):
    game = new_game(server)
    view = f"/api/games/{game['game_id']}"
    status, seat = server.request("POST", f"{view}/join", {"name": "Ann"}, token=game["tokens"]["white"])
    assert status == 200, seat
    wire = Wire(server, f"{view}/stream", seat["token"])
    wire.next()
    status, answer = server.request(
        "POST", f"{view}/remove-player", {"seat": seat["seat"]}, token=game["tokens"]["host"]
    )
    assert status == 200, answer
    wire.next("gone")
    assert wire.ended()


def test_a_stopping_worker_ends_its_handed_over_streams_at_once(server):
    game = new_game(server)
    wires = [Wire(server, f"/api/games/{game['game_id']}/stream", game["tokens"]["host"]) for _ in range(3)]
    for wire in wires:
        wire.next()
    started = time.monotonic()
    server.stop()  # SIGTERM: the worker stops gracefully
    assert all(wire.ended() for wire in wires)
    assert time.monotonic() - started < 10  # not the graceful timeout (30 s): streams hold no request


@pytest.mark.slow
def test_with_1024_open_files_the_streams_past_capacity_are_refused_and_nothing_fails(tmp_path):
    """A worker may open 1,024 files (`ulimit -n 1024`, a common default): its streams must stop short of
    them. Past its capacity a stream is refused with 503 `streams_full`, and the worker goes on serving: it
    used to hand streams over until `dup()` failed (EMFILE), cutting them after their head, a traceback each."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))  # this test's own sockets
    log = tmp_path / "gunicorn.log"
    server = Server(database_url(tmp_path), workers=1, worker_class="gevent")
    server.open_files = 1024
    server.env.update(
        STREAMS_PER_TOKEN="100000",
        STREAMS_PER_ADDRESS="100000",  # the capacity alone
        GUNICORN_CMD_ARGS=f"--error-logfile {log}",
    )
    server.start()
    try:
        game = new_game(server)
        view, host = f"/api/games/{game['game_id']}", game["tokens"]["host"]
        held, refused = [], 0
        for _ in range(1200):
            wire = Wire(server, f"{view}/stream", host)
            if wire.status_line == "HTTP/1.1 200 OK":
                held.append(wire)
                continue
            assert wire.status_line.startswith("HTTP/1.1 503"), wire.status_line
            assert int(wire.headers["retry-after"]) > 0
            assert json.loads(wire.body()) == {"code": "streams_full", "error": str(REFUSALS["streams_full"].sentence)}
            wire.connection.close()
            refused += 1
        assert held and refused, (len(held), refused)
        # Every stream held says the next change; the worker still answers everything else.
        status, _ = server.request("POST", f"{view}/join", {"name": "Ann"}, token=game["tokens"]["white"])
        assert status == 200
        latest = etag(server, view, host)
        for wire in held:
            if wire.next()["data"] != latest:  # its first look may have come after the change
                assert wire.next()["data"] == latest
        for wire in held:
            wire.connection.close()
    finally:
        server.stop()
    assert not [line for line in log.read_text().splitlines() if "Traceback" in line or "ERROR" in line]
