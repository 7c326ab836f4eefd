"""A worker gives the memory it freed back (companion/heap.py): the trim hands back freed heap that malloc
would otherwise keep, and its loop stops with the worker."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.heap import malloc_trim, trim_while

CHUNK = 32 * 1024  # under malloc's mmap threshold: from the heap, kept by malloc once freed


def resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_a_trim_gives_back_freed_heap_that_malloc_kept():
    trim = malloc_trim()
    if trim is None:
        pytest.skip("this C library has no malloc_trim (not glibc)")
    trim(0)
    chunks = [bytearray(CHUNK) for _ in range(2000)]  # 64 MB, touched (zeroed)
    # Free all but every 16th and the last: what is freed lies between live chunks, so malloc keeps it.
    chunks = [c for i, c in enumerate(chunks) if i % 16 == 0 or i == len(chunks) - 1]
    kept = resident_mb()
    trim(0)
    assert kept - resident_mb() > 30  # most of the 60 MB freed goes back
    assert len(chunks) == 126


def test_the_trimmer_stops_with_its_worker():
    answers = iter([True, True, False])
    trim_while(lambda: next(answers), every=0)
    assert next(answers, "none left") == "none left"  # it asked until told the worker stopped
