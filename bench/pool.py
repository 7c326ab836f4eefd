"""`.venv/bin/python -m bench.pool`: PostgreSQL's moves with the connections a worker keeps before and now.

Scenario 5's capacity step (tables of 8 phones and a table screen each holding its stream, a bot, a move every
10 s a table) on the production gunicorn command on PostgreSQL with its default durability, at a few levels,
with each worker keeping SQLAlchemy's default 5 connections (the code before) and `companion.store.POOL_SIZE`
(now), in turns: before, now, before, now... on the same database and machine, so that both meet the same
background load. Beside each step: the PostgreSQL sessions opened a second (each a new server process and a
password exchange) and the workers' CPU a table, in bare requests (the bare Flask endpoint measured in the same
run, `bench/bare_app.py`). Usage: `python -m bench.pool [--levels 100 200 300] [--tries 2] [--measure 20]
[--smoke]`. No thresholds: the figures go into docs/performance.md.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

import psycopg

from companion.store import POOL_OVERFLOW, POOL_SIZE

from . import games as G
from . import scenarios as S
from . import tables as T
from .__main__ import CONNECTIONS, LATENCY_LIMIT_MS, Database, measure
from .postgres import Postgres
from .server import Server

# name -> (connections kept, more for a moment): SQLAlchemy's defaults, what the code had before, and now
POOLS = {"before": (5, 10), "now": (POOL_SIZE, POOL_OVERFLOW)}


def say(text: str = "") -> None:
    print(text, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[100, 200, 300])
    parser.add_argument("--tries", type=int, default=2, help="turns of before and now at each level")
    parser.add_argument("--measure", type=float, default=20, help="seconds measured a step")
    parser.add_argument("--smoke", action="store_true", help="one short turn at 10 tables")
    args = parser.parse_args()
    if args.smoke:
        args.levels, args.tries, args.measure = [10], 1, 3
    rng = random.Random(12)
    workdir = Path(tempfile.mkdtemp(prefix="decrypto-bench-pool."))
    with Postgres() as postgres:
        database = Database("postgresql", workdir, postgres)
        url, store = database.fresh("pool")
        tables = [G.with_cookies(G.started_game(rng)) for _ in range(max(args.levels))]
        G.insert_games(store, tables)
        store.engine.dispose()
        admin = psycopg.connect(f"host=127.0.0.1 port={postgres.port} user=postgres dbname=postgres", autocommit=True)
        sessions = lambda: admin.execute("SELECT sessions FROM pg_stat_database WHERE datname = 'pool'").fetchone()[0]
        with Server(workdir / "bare.log", app="bench.bare_app:app") as bare:
            bare_cpu = measure(bare, S.spread(S.bare(), CONNECTIONS, rng), workdir, "bare", 5).cpu_ms
        say(f"bare Flask endpoint: {bare_cpu:.3f} ms of worker CPU a request")
        say(
            f"{'pool':>7} {'tables':>6}  {'held':4}  {'p99 ms: all / fetch / move / bot read':38} "
            f"{'sessions/s':>10}  {'CPU a table':>11}  other cores"
        )
        for level in args.levels:
            for turn in range(args.tries):
                for name, (size, overflow) in POOLS.items():
                    env = {"BENCH_POOL_SIZE": str(size), "BENCH_POOL_OVERFLOW": str(overflow)}
                    log = workdir / f"gunicorn-{name}.log"
                    with Server(log, url, app="bench.pool_app:app", env=env) as server:
                        step = T.run_step(
                            server.port, tables[:level], 5, args.measure, 10, turn, server.workers(), "stream",
                            {"sessions": sessions},
                        )  # fmt: skip
                        errors = server.errors()
                    p99 = step.p99_ms
                    table_cpu = 1000 * step.server_cpu / level  # ms of worker CPU a second, a table
                    say(
                        f"{name:>7} {level:6d}  {'yes' if step.passed(LATENCY_LIMIT_MS) else 'no':4}  "
                        f"{p99['all']:6.0f} / {p99.get('fetch', 0):5.0f} / {p99.get('action', 0):5.0f} / "
                        f"{p99.get('bot_read', 0):5.0f}{'':12} {step.rates['sessions']:10.1f}  "
                        f"{table_cpu / bare_cpu:6.1f} bare  {step.other_cpu:.2f}"
                        + (f"  ERRORS {errors[:2]}" if errors else "")
                    )
        admin.close()


if __name__ == "__main__":
    main()
