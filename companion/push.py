"""Which open streams to wake when a game may have changed.

Each worker process has one `Hub`: the streams open on it, by game. Woken, a stream works out its viewer's
ETag through the same per-viewer view as a page's fetch and, only when that changed, sends its page the
regions that changed (web/stream.py). What wakes the hub:

- this process's own commands, at once (`GameService.changed`);
- PostgreSQL: a `NOTIFY` sent in the same transaction as the events (delivered on commit), which one
  `LISTEN`ing connection per worker hears, whichever worker or server appended: the database the deployment
  already has is the fan-out, no new service;
- SQLite (one machine): one watcher per worker reads which games got events since its last look, every
  `interval` seconds, in one query.

A lost signal costs no update: a stream reconnecting starts with the viewer's current ETag, and pages poll
now and then even while their stream is open.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

from .store import NOTIFY_CHANNEL, Store

log = logging.getLogger(__name__)


class Listener(Protocol):
    """What a stream listens with: `set()` wakes it (a `threading.Event`, or web/stream.py's `Handed`)."""

    def set(self) -> None: ...


class Hub:
    """The streams open in this process, by game: each is a listener with a `set()` method, called whenever
    its game may have changed (a `threading.Event` for a stream held by its request, web/stream.py's
    `Handed` for one handed over to the process's courier)."""

    def __init__(self, store: Store, interval: float = 0.025):
        self.store = store
        self.interval = interval  # SQLite: how often the watcher looks (seconds)
        self._lock = threading.Lock()
        self._listeners: dict[str, set[Listener]] = defaultdict(set)
        # Each watched game's latest ring, numbered across the process: a look at the game taken after a
        # ring is current until the game's number moves (web/stream.py `Looks`).
        self._rings = itertools.count()
        self._rung: dict[str, int] = {}
        self._watcher: threading.Thread | None = None
        self.closing = False  # the worker is stopping: streams end (gunicorn.conf.py)
        # Called with a game's id once its last stream here ended (web/stream.py `Looks` forgets its look).
        self.quiet: Callable[[str], None] = lambda game_id: None

    def subscribe(self, game_id: str, listener: Listener) -> None:
        with self._lock:
            if game_id not in self._rung:
                self._rung[game_id] = next(self._rings)
            self._listeners[game_id].add(listener)
            if self._watcher is None:  # started by the first stream: in the worker, after the fork
                self._watcher = threading.Thread(target=self._watch, name="push-watcher", daemon=True)
                self._watcher.start()

    def unsubscribe(self, game_id: str, listener: Listener) -> None:
        with self._lock:
            listeners = self._listeners.get(game_id)
            if listeners is None:
                return
            listeners.discard(listener)
            if listeners:
                return
            del self._listeners[game_id]
            del self._rung[game_id]
        self.quiet(game_id)

    @contextmanager
    def listening(self, game_id: str) -> Iterator[threading.Event]:
        """A bell that rings whenever `game_id` may have changed, for as long as the `with` lasts."""
        bell = threading.Event()
        self.subscribe(game_id, bell)
        try:
            yield bell
        finally:
            self.unsubscribe(game_id, bell)

    def ring(self, game_id: str) -> None:
        with self._lock:
            listeners = list(self._listeners.get(game_id, ()))
            if listeners:
                self._rung[game_id] = next(self._rings)
        for listener in listeners:
            listener.set()

    def ring_all(self) -> None:
        with self._lock:
            listeners = [listener for game in self._listeners.values() for listener in game]
            for game_id in self._rung:
                self._rung[game_id] = next(self._rings)
        for listener in listeners:
            listener.set()

    def rung(self, game_id: str) -> int | None:
        """The number of the game's latest ring (None: no stream listens to it here)."""
        with self._lock:
            return self._rung.get(game_id)

    def close(self) -> None:
        """End every stream of this process (each page reconnects, to another worker)."""
        self.closing = True
        self.ring_all()

    def streams(self) -> int:
        with self._lock:
            return sum(len(listeners) for listeners in self._listeners.values())

    def _games(self) -> list[str]:
        with self._lock:
            return list(self._listeners)

    def _watch(self) -> None:
        """Watch for as long as there are streams; then stop (a LISTENing connection is closed), until the
        next stream starts a new watcher."""
        watch = self._listen if self.store.engine.dialect.name == "postgresql" else self._look
        while True:
            try:
                watch()
            except Exception:  # the database went away: try again, and catch up
                log.warning("push: lost the database; streams will catch up", exc_info=True)
                time.sleep(1)
                self.ring_all()
            with self._lock:
                if not self._listeners:
                    self._watcher = None
                    return

    def _listen(self) -> None:
        """PostgreSQL: one connection LISTENing; each notification names a game."""
        with self.store.listen(NOTIFY_CHANNEL) as notifications:
            self.ring_all()  # anything appended before LISTEN took effect
            while self._games():
                for game_id in notifications(timeout=1.0):
                    self.ring(game_id)

    def _look(self) -> None:
        """SQLite: the games with new events since the last look (`Store.games_changed_since`: the changes
        alone are read, however many games have streams here); those with a stream ring."""
        watched: set[str] = set()
        after: int | None = None
        while True:
            time.sleep(self.interval)
            games = self._games()
            if not games:
                return
            changed, after = self.store.games_changed_since(after)
            for game_id in games:
                # A game seen for the first time rings too: its new stream may have read its ETag just
                # before an event this look is the first to see.
                if changed is None or game_id in changed or game_id not in watched:
                    self.ring(game_id)
            watched = set(games)
