"""`.venv/bin/python -m bench.listeners`: do gunicorn's workers share a step's load evenly, and would a
listening socket of each worker's own (`SO_REUSEPORT`) share it better?

Scenario 5's capacity step (tables of 8 phones and a table screen holding their streams, a bot, a move every
10 s a table) on the production gunicorn command, in turns on the same database and machine:

- `shared`: as production runs, every worker accepting from the master's one listening socket;
- `also`: gunicorn's `--reuse-port`, and each worker also listens on a socket of its own on the same port, so
  the kernel hands each new connection to one of the sockets by a hash of its address (the master's
  socket keeps its share, accepted by whichever worker wakes first).

A worker listening on its own socket only is what spreading connections exactly evenly would need, and it
can't work so: the master's socket keeps its share of the connections and nobody accepts them (tried: a
third of the screens never connected, and this tool's own wait for `/healthz` hung on one).

The variants' own sockets are made by a gunicorn config written to the work folder, which runs the project's
`gunicorn.conf.py` and adds them: the product's config is not changed. Beside each step: each worker's
cores (CPU seconds a second) and the connections it holds as the step ends. No thresholds: the figures go
into docs/performance.md. Usage: `python -m bench.listeners [--database postgresql] [--tables 200]
[--variants shared also] [--tries 2] [--measure 15]`.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
from pathlib import Path

from . import games as G
from . import tables as T
from .__main__ import Database
from .machine import TICK
from .postgres import Postgres
from .server import ROOT, Server

VARIANTS = ("shared", "also")
OWN_SOCKET = f'''
exec(open({str(ROOT / "gunicorn.conf.py")!r}).read())
_production_post_worker_init = post_worker_init


def post_worker_init(worker):
    from gunicorn.sock import TCPSocket

    own = TCPSocket(worker.sockets[0].getsockname(), worker.cfg, worker.log)  # SO_REUSEPORT: cfg.reuse_port
    worker.sockets.append(own)
    _production_post_worker_init(worker)
'''


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def sockets_held(pid: int) -> int:
    folder = Path(f"/proc/{pid}/fd")
    return sum(1 for fd in folder.iterdir() if os.readlink(fd).startswith("socket:"))


def server_for(variant: str, workdir: Path, url: str) -> Server:
    server = Server(workdir / f"gunicorn-{variant}.log", url)
    if variant != "shared":
        config = workdir / f"{variant}.conf.py"
        config.write_text(OWN_SOCKET)
        at = server.argv.index("--config")
        server.argv[at + 1] = str(config)
        server.argv.insert(1, "--reuse-port")
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="postgresql")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    parser.add_argument("--tries", type=int, default=2, help="turns of the variants")
    parser.add_argument("--measure", type=float, default=15, help="seconds measured a step")
    args = parser.parse_args()
    rng = random.Random(3)
    workdir = Path(tempfile.mkdtemp(prefix="decrypto-bench-listeners."))
    postgres = Postgres().start() if args.database == "postgresql" else None
    try:
        url, store = Database(args.database, workdir, postgres).fresh("listeners")
        tables = [G.with_cookies(G.started_game(rng)) for _ in range(args.tables)]
        G.insert_games(store, tables)
        store.engine.dispose()
        print(f"{args.database}, {args.tables} tables, streams, a move every 10 s a table", flush=True)
        for turn in range(args.tries):
            for variant in args.variants:
                with server_for(variant, workdir, url) as server:
                    pids = server.workers()
                    probes = {f"worker {i}": (lambda pid=pid: cpu_seconds(pid)) for i, pid in enumerate(pids)}
                    step = T.run_step(server.port, tables, 5, args.measure, 10, turn, pids, "stream", probes)
                    held = [sockets_held(pid) for pid in pids]
                    errors = server.errors()
                p99 = step.p99_ms
                cores = " / ".join(f"{step.rates[name]:.2f}" for name in probes)
                print(
                    f"{variant:>6}  p99 ms: all {p99['all']:5.0f}, fetch {p99.get('fetch', 0):5.0f}, move "
                    f"{p99.get('action', 0):5.0f}   worker cores {cores}   sockets held {held}"
                    + (f"   ERRORS {errors[:2]}" if errors else ""),
                    flush=True,
                )
    finally:
        if postgres is not None:
            postgres.stop()


if __name__ == "__main__":
    main()
