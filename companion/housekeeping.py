"""Housekeeping on its own, whether or not anyone uses the server (gunicorn.conf.py starts it): each worker
deletes the games nobody has played for GAME_EXPIRY_HOURS as it starts, then every EXPIRY_CHECK_SECONDS
(workers and servers doing it at once take turns on the database's lock: store.py `delete_idle_games`); and
writes the phones' marks it kept (companion/seen.py) twice every SEEN_KEPT_SECONDS."""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable

from .games import GameService
from .rules.host import SEEN_KEPT_SECONDS

log = logging.getLogger(__name__)


def expire_while(
    service: GameService, interval: float, alive: Callable[[], bool], wait: Callable[[float], object] | None = None
) -> None:
    """Expire idle games now, then every `interval` seconds (a tenth either way, so that a cluster's workers
    don't all look at the same instant) while `alive()`. `wait(seconds)`: how to wait (a test's own)."""
    wait = wait or threading.Event().wait
    while alive():
        try:
            deleted = service.expire_idle_games()
        except Exception:  # noqa: BLE001 - a database down for a moment: the next turn tries again
            log.exception("expiring idle games failed; trying again in %s s", interval)
        else:
            if deleted:
                log.info("deleted %d idle game(s)", len(deleted))
        wait(interval * random.uniform(0.9, 1.1))


def write_seen_while(
    service: GameService, alive: Callable[[], bool], wait: Callable[[float], object] | None = None
) -> None:
    """Write the phones' kept marks twice every SEEN_KEPT_SECONDS while `alive()`, so that no request has to
    (the worker writes them once more as it stops: gunicorn.conf.py `worker_exit`)."""
    wait = wait or threading.Event().wait
    while alive():
        wait(SEEN_KEPT_SECONDS / 2)
        service.write_seen()
