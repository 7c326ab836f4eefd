"""How many streams a process holds: a cap per token and per client, and a capacity sized from the files it
may open (each stream holds its connection, one file descriptor, for up to ten minutes).

A stream past a cap is refused at once with a sentence (429 `too_many_streams`), and one past the capacity
too (503 `streams_full`), both with `Retry-After`: never held open by its request, where it would take a
place among the requests the worker serves at once. A page whose stream is refused follows its game by
polling (static/live.js), as without `EventSource`.

The counts are this process's own (a worker's), like the rate limits' default `memory://` counts.
"""

from __future__ import annotations

import resource
import sys
import threading
from collections import Counter
from typing import TYPE_CHECKING, cast

from .errors import Refused

if TYPE_CHECKING:
    from flask import Flask
    from gunicorn.workers.base import Worker

# A worker's own open files besides its connections: the listening socket, pipes, logs, the database's
# connections (SQLAlchemy's pool: 15 at most, each with the SQLite file, its -wal and -shm) and LISTEN.
SPARE_FILES = 100


def raise_open_files() -> int:
    """This process's limit on open files raised to the most it may have (its hard limit, which processes it
    starts inherit): the limit now. A common default of 1,024 would cut a worker off at about a thousand
    streams, its `accept()` and `dup()` then failing with EMFILE."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):  # macOS: an unlimited hard limit is no limit a process may set
            pass
    return sys.maxsize if soft == resource.RLIM_INFINITY else soft


def share(files: int, connections: int, streams: int) -> tuple[int, int]:
    """(requests served at once, streams held) for a worker that may open `files` files, configured for
    `connections` requests at once and `streams` streams: as configured when the files are enough; else,
    after the spare files, the requests get a quarter of the rest at most and the streams what is left (most
    of a busy worker's connections are idle streams)."""
    usable = max(0, files - SPARE_FILES)
    if connections + streams <= usable:
        return connections, streams
    connections = max(1, min(connections, usable // 4))
    return connections, max(0, min(streams, usable - connections))


def fit_worker(worker: Worker) -> None:
    """gunicorn (gunicorn.conf.py, before the worker serves): its connections and its app's streams shared
    out of the files it may open, so that neither accepting a request nor handing a stream over ever fails
    for want of a descriptor."""
    app = cast("Flask", worker.wsgi)  # ours if it has a budget (else a wrapped or other app: left alone)
    budget = getattr(app, "extensions", {}).get("stream_budget")
    if budget is None:
        return
    serving = getattr(worker, "worker_connections", 1)  # a sync worker serves one request at a time
    serving, budget.capacity = share(raise_open_files(), serving, app.config["STREAMS"])
    if hasattr(worker, "worker_connections"):
        worker.worker_connections = serving


class Budget:
    """The streams open in this process, counted by token and by client (web/limits.py `client_key`, as the
    rate limits count them): each admitted as it opens, or refused, and let go when it ends."""

    def __init__(self, capacity: int, per_token: int, per_client: int):
        self.capacity, self.per_token, self.per_client = capacity, per_token, per_client
        self._lock = threading.Lock()
        self._open = 0
        self._tokens: Counter[str] = Counter()
        self._clients: Counter[str] = Counter()

    def admit(self, token: str, client: str) -> Ticket:
        """Count in a stream of `token` from `client`, or refuse it (`Refused`, nothing counted)."""
        with self._lock:
            if self._tokens[token] >= self.per_token or self._clients[client] >= self.per_client:
                raise Refused("too_many_streams")
            if self._open >= self.capacity:
                raise Refused("streams_full")
            self._open += 1
            self._tokens[token] += 1
            self._clients[client] += 1
        return Ticket(self, token, client)

    def _release(self, ticket: Ticket) -> None:
        with self._lock:
            if not ticket.held:
                return
            ticket.held = False
            self._open -= 1
            for counts, key in ((self._tokens, ticket.token), (self._clients, ticket.client)):
                counts[key] -= 1
                if counts[key] <= 0:
                    del counts[key]

    def open(self) -> int:
        with self._lock:
            return self._open


class Ticket:
    """An admitted stream's place in its budget, until `release()` (which does nothing the second time)."""

    __slots__ = ("budget", "token", "client", "held")

    def __init__(self, budget: Budget, token: str, client: str):
        self.budget, self.token, self.client, self.held = budget, token, client, True

    def release(self) -> None:
        self.budget._release(self)
