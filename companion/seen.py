"""When each phone last asked for its view, kept until written: a phone's routine mark is written with the
others of its process in one transaction (games.py `saw`), instead of one transaction, one log flush, each.

Only marks that no decision is waiting for are kept here: a phone whose written mark is still younger than
PHONE_IN_USE_SECONDS - SEEN_KEPT_SECONDS (rules/host.py). Until its new mark is written, the old one already
says it is in use to every worker and server; this process's own decisions read the kept marks too. A mark
lost with its process (a crash) is a phone's next asking written again, so none of this is a player's action.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

MAX_KEPT = 10_000  # marks: past it, the process writes them at once


class Mark(NamedTuple):
    token: str
    seat: int | None
    at: float  # seconds on the service's clock


class UnwrittenSeen:
    """The marks not yet written, by game; the oldest one's time says when they are due (`due`)."""

    def __init__(self, limit: int = MAX_KEPT) -> None:
        self.limit = limit
        self._by_game: dict[str, dict[str, Mark]] = {}
        self._count = 0
        self._since: float | None = None
        self._lock = threading.Lock()

    def keep(self, game_id: str, token: str, seat: int | None, at: float) -> None:
        with self._lock:
            marks = self._by_game.setdefault(game_id, {})
            self._count += token not in marks
            marks[token] = Mark(token, seat, at)
            self._since = at if self._since is None else min(self._since, at)

    def forget(self, game_id: str, token: str) -> None:
        """`token`'s mark is written now anyway (a later one)."""
        with self._lock:
            marks = self._by_game.get(game_id)
            if marks is not None and marks.pop(token, None) is not None:
                self._count -= 1

    def due(self, now: float, every: float) -> bool:
        """Whether the marks should be written now: the oldest was kept `every` seconds ago, or there are
        `limit` of them."""
        return self._count >= self.limit or (self._since is not None and now - self._since >= every)

    def take(self) -> list[Mark]:
        """Every kept mark, now forgotten here (its writer's to write)."""
        with self._lock:
            marks = [mark for game in self._by_game.values() for mark in game.values()]
            self._by_game, self._count, self._since = {}, 0, None
        return marks

    def of_game(self, game_id: str) -> dict[int, float]:
        """The game's kept marks: seat -> when its phone asked."""
        with self._lock:
            marks = list(self._by_game.get(game_id, {}).values())
        latest: dict[int, float] = {}
        for mark in marks:  # a seat's old and new phone may both have asked: the later says when it was in use
            if mark.seat is not None and mark.at > latest.get(mark.seat, float("-inf")):
                latest[mark.seat] = mark.at
        return latest
