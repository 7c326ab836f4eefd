"""One capacity level of scenario 5, alone: `.venv/bin/python -m bench.step TABLES [--design stream|poll]
[--postgresql] [--windows N] [--measure S]`.

For comparing two commits in turns (run it from a checkout of each, one after the other, several times): the
same tables (a fixed seed) on a fresh database, production's server, then N measured windows one after the
other, each printed as the capacity run prints a level (p99s by kind, the workers' cores). A whole
`bench/run` differs by 100 tables from one run to the next on this machine; windows taken in turns show what a
change does (docs/performance.md, "The method").
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

from . import games as G
from . import tables as T
from .__main__ import Database
from .postgres import Postgres
from .server import Server

SEED = 7
WARMUP_SECONDS = 8  # as scenario 5: the window opens this long after the last screen follows its game
BOT_EVERY_SECONDS = 10.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.step", description=__doc__.split("\n\n")[1])
    parser.add_argument("tables", type=int)
    parser.add_argument("--design", choices=T.DESIGNS, default="stream")
    parser.add_argument("--postgresql", action="store_true", help="a throwaway PostgreSQL server (else SQLite)")
    parser.add_argument("--windows", type=int, default=2, help="measured windows, one after the other")
    parser.add_argument("--measure", type=float, default=20, help="seconds a window")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="bench-step."))
    postgres = Postgres().start() if args.postgresql else None
    try:
        url, store = Database("postgresql" if postgres else "sqlite", workdir, postgres).fresh("step")
        rng = random.Random(SEED)
        tables = [G.with_cookies(G.started_game(rng)) for _ in range(args.tables)]
        G.insert_games(store, tables)
        store.engine.dispose()
        with Server(workdir / "server.log", url) as server:
            for window in range(args.windows):
                step = T.run_step(
                    server.port,
                    tables,
                    WARMUP_SECONDS,
                    args.measure,
                    BOT_EVERY_SECONDS,
                    window,
                    server.workers(),
                    args.design,
                )
                print(step.brief(), flush=True)
    finally:
        if postgres is not None:
            postgres.stop()


if __name__ == "__main__":
    main()
