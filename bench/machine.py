"""How busy the machine was, and how much of that was not the benchmark (the machine may be shared).

"Ours" is this process (the asyncio load generator) with its waited-for children (wrk), every live
descendant (gunicorn masters and workers), and the throwaway PostgreSQL server's processes; "other" is
whatever else ran on the machine meanwhile, in cores.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")
extra_roots: list[int] = []  # e.g. the PostgreSQL postmaster's pid


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _children(pid: int) -> list[int]:
    out = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            out += [int(x) for x in (task / "children").read_text().split()]
    except OSError:
        pass
    return out


def _tree_jiffies(root: int, with_waited: bool) -> int:
    total, stack, seen = 0, [root], set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        fields = _stat(pid)
        if fields is None:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
        if with_waited and pid in (root, *extra_roots):
            total += int(fields[13]) + int(fields[14])  # cutime, cstime: children already waited for
        stack += _children(pid)
    return total


def cpu_seconds(pids: list[int]) -> float:
    """CPU seconds (user and system) the processes have used so far; a process gone counts nothing."""
    return sum(int(f[11]) + int(f[12]) for f in map(_stat, pids) if f is not None) / TICK


def snapshot() -> tuple[float, int, int]:
    """(monotonic time, jiffies the whole machine was busy, jiffies of the benchmark's processes)."""
    values = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = (values + [0] * 8)[:8]
    busy = user + nice + system + irq + softirq + steal
    ours = _tree_jiffies(os.getpid(), True) + sum(_tree_jiffies(pid, True) for pid in extra_roots)
    return time.monotonic(), busy, ours


def other_cores(before, after) -> float:
    """Cores used by processes other than the benchmark's between two snapshots."""
    seconds = after[0] - before[0]
    return max(0.0, ((after[1] - before[1]) - (after[2] - before[2])) / TICK / seconds) if seconds > 0 else 0.0
