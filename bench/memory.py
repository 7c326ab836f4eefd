"""`.venv/bin/python -m bench.memory REV [REV ...]`: a worker's memory through the capacity run's climb, for
several revisions of the app in one run (issue 23, item 5: at most 80 MB a worker after the capacity run).

For each revision in turn (a git worktree in the work folder, served by production's gunicorn command from
there, as bench/revisions.py does), on a fresh database of the same kind: `--stored` finished games, then
capacity steps at each of `--steps` tables (8 phones holding their streams, a table screen, a bot; a move
every 10 s a table; the tables of one step are kept for the next, as the capacity search climbs), then every
stored game read once (the state cache fills). Printed for each worker: its resident memory idle after start,
after each step, 12 s after the last (its memory trimmed), after the reads, and its peak (VmHWM). No thresholds: the figures go into
docs/performance.md.

Usage: `python -m bench.memory REV [REV ...] [--steps 50 100 200 300] [--stored 1000] [--database sqlite]`.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import tempfile
import time
from pathlib import Path

from companion.heap import TRIM_SECONDS

from . import games as G
from . import tables as T
from .__main__ import Database
from .postgres import Postgres
from .revisions import checkout
from .server import ROOT, Server


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def mb(sizes) -> str:
    return " / ".join(f"{x:5.1f}" for x in sizes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revisions", nargs="+", help="git revisions (HEAD: the last commit)")
    parser.add_argument("--steps", type=int, nargs="+", default=[50, 100, 200, 300], help="tables a step")
    parser.add_argument("--stored", type=int, default=1000, help="finished games stored, read once at the end")
    parser.add_argument("--measure", type=float, default=10, help="seconds measured a step (after 5 s of warm-up)")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="decrypto-bench-memory."))
    postgres = Postgres().start() if args.database == "postgresql" else None
    try:
        database = Database(args.database, workdir, postgres)
        print(f"{database.label}; each worker's resident memory, MB", flush=True)
        for n, revision in enumerate(args.revisions):
            rng = random.Random(5)  # the same games for every revision
            commit, folder = checkout(revision, workdir)
            url, store = database.fresh(f"memory{n}")
            finished = [G.clone(t) for t in [G.finished_game(rng) for _ in range(50)] for _ in range(args.stored // 50)]
            G.insert_games(store, finished, batch=1000)
            tables = [G.with_cookies(G.started_game(rng)) for _ in range(max(args.steps))]
            G.insert_games(store, tables)
            try:
                with Server(workdir / f"gunicorn-{commit}.log", url, root=folder) as server:
                    print(f"{commit}: idle after start {mb(server.rss_mb())}", flush=True)
                    for step, count in enumerate(args.steps):
                        result = T.run_step(
                            server.port, tables[:count], 5, args.measure, 10, step, server.workers(), "stream"
                        )
                        print(f"  after {count:4d} tables {mb(server.rss_mb())}   ({result.brief()})", flush=True)
                    time.sleep(TRIM_SECONDS + 2)  # the workers give back what they freed (companion/heap.py)
                    print(f"  {TRIM_SECONDS + 2:.0f} s later {mb(server.rss_mb())}", flush=True)
                    for game in finished:
                        server.get(f"/api/games/{game.game_id}", {"Authorization": f"Bearer {game.token('host')}"})
                    print(f"  after {len(finished)} stored games read {mb(server.rss_mb())}", flush=True)
                    print(
                        f"  peak {mb(peak_mb(pid) for pid in server.workers())}   errors: {len(server.errors())}",
                        flush=True,
                    )
            finally:
                store.engine.dispose()
                subprocess.run(
                    ["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT, capture_output=True, check=False
                )
    finally:
        if postgres is not None:
            postgres.stop()


if __name__ == "__main__":
    main()
