"""A worker gives the memory it freed back to the system, every ten seconds.

glibc's malloc keeps what a process frees for its own next allocations: after a busy minute (thousands of
streams open at once, and as many page fetches) a worker stayed at its peak although much of that memory was
free (docs/performance.md, issue 23 item 5). `malloc_trim(0)` hands the free pages back, from the top of each
heap and from inside it: about 2 ms for a worker's heap, 20 ms just after tens of MB were freed, while a
gevent worker serves nothing (a tap's p99 is 166 ms; 0.02 % of a core).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import time
from collections.abc import Callable

TRIM_SECONDS = 10.0
log = logging.getLogger(__name__)


def malloc_trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`, or None where there is none (musl, macOS)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    return getattr(libc, "malloc_trim", None)


def trim_while(alive: Callable[[], bool], every: float = TRIM_SECONDS) -> None:
    """Give freed memory back every `every` seconds while `alive()` (a worker's own thread: a greenlet under
    gevent)."""
    trim = malloc_trim()
    if trim is None:
        log.info("no malloc_trim here: a worker keeps the memory it freed")
        return
    while alive():
        time.sleep(every)
        trim(0)
