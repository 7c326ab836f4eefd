"""The one kind of cache a process keeps: a map with a stated key and a bound, least recently used out first.

Every cache of game data or rendered pages is a `Cache` (the games' states, rendered pieces, shared answers,
the streams' looks and addresses); each says what its key is where it is made, and `every_cache` lists them
so that a test can fill each with keys a client chose and see the bound hold. (Memos of pure functions keep
`functools.lru_cache`, bounded too: tests/test_hardening.py checks both.)
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_EVERY: weakref.WeakSet[Cache[object, object]] = weakref.WeakSet()


def _one(key: object, value: object) -> int:
    return 1


class Cache(Generic[K, V]):
    """At most `limit` of weight (each entry weighs `weigh(key, value)`: 1 unless said), safe across threads."""

    def __init__(self, key: str, limit: int, weigh: Callable[[K, V], int] = _one) -> None:
        self.key, self.limit, self._weigh = key, limit, weigh
        self._items: OrderedDict[K, V] = OrderedDict()
        self.weight = 0
        self.hits = self.misses = 0
        self._lock = threading.Lock()
        _EVERY.add(self)  # type: ignore[arg-type]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[K]:
        """Its keys now (a copy: iterating never holds the lock)."""
        with self._lock:
            return iter(list(self._items))

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def made(self, key: K, make: Callable[[], V]) -> V:
        """The value kept for `key`, else `make()`'s, kept (made outside the lock: two callers may both make
        it, and the first one's is kept)."""
        value = self.get(key)
        if value is not None:
            self.hits += 1
            return value
        self.misses += 1
        value = make()
        return self.update(key, lambda kept: value if kept is None else kept)

    def update(self, key: K, keep: Callable[[V | None], V]) -> V:
        """Keeps `keep(the value kept for key, or None)` for `key`, under the lock; returns it."""
        with self._lock:
            old = self._items.get(key)
            value = keep(old)
            if value is not old:
                if old is not None:
                    self.weight -= self._weigh(key, old)
                self._items[key] = value
                self.weight += self._weigh(key, value)
            self._items.move_to_end(key)
            while self.weight > self.limit and self._items:
                out_key, out = self._items.popitem(last=False)
                self.weight -= self._weigh(out_key, out)
            return value

    def put(self, key: K, value: V) -> V:
        return self.update(key, lambda old: value)

    def forget(self, keys: Iterable[K]) -> None:
        with self._lock:
            for key in keys:
                if key in self._items:
                    self.weight -= self._weigh(key, self._items.pop(key))


def every_cache() -> Iterator[Cache[object, object]]:
    """Every cache this process has made and still holds."""
    return iter(list(_EVERY))
