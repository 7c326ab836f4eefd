"""Summing up a py-spy raw (collapsed) profile: where a worker spends its time.

`.venv/bin/python -m bench.profile FILE [N]` prints the N functions with the largest inclusive share of
the samples (time in the function and what it calls) and the largest self share. `bench/run --profile DIR`
records one such file per worker and scenario.
"""

from __future__ import annotations

import re
import sys
from collections import Counter

_LINE = re.compile(r"\s*\(([^)]*?)(?::\d+)?\)$")


def _name(frame: str) -> str:
    """`func (path/file.py:12)` -> `func (path/file.py)`: one entry per function, not per line."""
    match = _LINE.search(frame)
    return f"{frame[: match.start()]} ({match.group(1)})" if match else frame


def summarize(path: str, top: int = 25) -> str:
    inclusive, own, total = Counter(), Counter(), 0
    with open(path) as folded:
        for line in folded:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack:
                continue
            count = int(count)
            frames = [_name(f) for f in stack.split(";")]
            if any(
                "EpollSelector.select" in f
                or (f == "_worker (concurrent/futures/thread.py)" and frames[-1].startswith("Queue.get"))
                for f in frames[-1:]
            ):
                continue  # an idle thread waiting for work
            total += count
            for f in set(frames):
                inclusive[f] += count
            own[frames[-1]] += count
    lines = [f"{total} busy samples", "inclusive:"]
    lines += [f"  {100 * c / total:5.1f}%  {f}" for f, c in inclusive.most_common(top)]
    lines += ["self:"]
    lines += [f"  {100 * c / total:5.1f}%  {f}" for f, c in own.most_common(top)]
    return "\n".join(lines)


if __name__ == "__main__":
    print(summarize(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 25))
