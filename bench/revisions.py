"""`.venv/bin/python -m bench.revisions REV [REV ...]`: scenarios 2 to 4 (a poll answered 304, a changed page,
a move) for several revisions of the app in one run, each beside the bare endpoint, so that a change's figures
stand beside the ones before it whatever the machine does meanwhile (its speed changes several-fold from day
to day, and by a tenth within the hour).

Each revision is checked out into a git worktree in the work folder and served by production's gunicorn
command from there (bench/server.py, `root`), with this checkout's virtualenv; each has its own fresh database,
of the same kind. A round runs the bare endpoint once, then each revision's three scenarios; the rounds
interleave the revisions. A poll's run comes after a second of polls not measured (the round before played
more games than the state cache holds: what is measured is a poll of a game the worker holds). The figures
printed are the medians of the rounds, with every round's figure beside them: worker CPU per request, the
figure to compare (as in docs/performance.md's runs); a changed page's CPU leaves out its move's, at the same
revision's and round's cost per move. No thresholds.

Usage: `python -m bench.revisions [--rounds 5] [--duration 5] [--database sqlite|postgresql] REV [REV ...]`
(e.g. `86bd056 HEAD`).

With `--tables N [N ...]`, capacity steps instead (scenario 5, streams: N tables, a move every 10 s, 20 s
measured, pass when each kind's p99 < 100 ms), each level for each revision in every round, the revisions'
order turned round every other round; each step on a fresh database and a fresh server. The machine's speed
changes within minutes: a difference between revisions counts only when it holds in every round.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import tempfile
from pathlib import Path

from . import games as G
from . import pages as P
from . import scenarios as S
from . import tables as T
from .__main__ import CONNECTIONS, LATENCY_LIMIT_MS, SCREENS, Database, fresh_scripts, measure, page_cpu
from .postgres import Postgres
from .server import ROOT, Server

POLLED_GAMES = 200  # games whose seats are polled (scenario 2), as bench/run's throughput


def checkout(revision: str, workdir: Path) -> tuple[str, Path]:
    """`revision` in a worktree of its own: (its short hash, its folder)."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", revision], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    folder = workdir / f"rev-{commit}"
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(folder), commit], cwd=ROOT, check=True, capture_output=True
    )
    return commit, folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revisions", nargs="+", help="git revisions, oldest first (HEAD: the last commit)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--duration", type=float, default=5, help="seconds per scenario run")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--tables", type=int, nargs="+", help="capacity steps at these levels instead")
    args = parser.parse_args()
    rng = random.Random(4)
    workdir = Path(tempfile.mkdtemp(prefix="decrypto-bench-revisions."))
    postgres = Postgres().start() if args.database == "postgresql" else None
    servers: dict[str, Server] = {}
    folders: list[Path] = []
    try:
        database = Database(args.database, workdir, postgres)
        if args.tables:
            revisions = {}
            for revision in args.revisions:
                commit, folder = checkout(revision, workdir)
                folders.append(folder)
                revisions[commit] = folder
            capacity_steps(database, revisions, args.tables, args.rounds, workdir, rng)
            return
        stores, polls = {}, {}
        for n, revision in enumerate(args.revisions):
            commit, folder = checkout(revision, workdir)
            folders.append(folder)
            url, store = database.fresh(f"rev{n}")
            polled = [G.with_cookies(G.mid_game(rng)) for _ in range(POLLED_GAMES)]
            G.insert_games(store, polled)
            name = f"{n + 1}:{commit}"  # (one commit named twice is measured twice)
            servers[name] = Server(workdir / f"gunicorn-{name}.log", url, root=folder).start()
            stores[name], polls[name] = store, S.spread(S.polls(polled, etag=True), CONNECTIONS, rng)
        bare = Server(workdir / "gunicorn-bare.log", app="bench.bare_app:app").start()
        servers["bare"] = bare
        print(
            f"{database.label}, {args.rounds} rounds of {args.duration:g} s a scenario; worker CPU per request",
            flush=True,
        )
        cpu: dict[str, dict[str, list[float]]] = {name: {"304": [], "page": [], "move": []} for name in stores}
        bare_cpu: list[float] = []
        for _ in range(args.rounds):
            bare_cpu.append(measure(bare, S.spread(S.bare(), CONNECTIONS, rng), workdir, "bare", args.duration).cpu_ms)
            for name, store in stores.items():
                server = servers[name]
                # Not measured: the polled games read again, as the last round's moves pushed them out of the
                # state cache (512 games): what is measured is a poll of a game the worker holds.
                measure(server, polls[name], workdir, "warm-up", 1)
                cpu[name]["304"].append(measure(server, polls[name], workdir, "poll_304", args.duration).cpu_ms)
                moves = fresh_scripts(store, 1000, rng)  # (a move each, 10 to 12 a game: more than a run plays)
                move = measure(server, S.actions(moves, CONNECTIONS, wave=8), workdir, "actions", args.duration, "once")
                cpu[name]["move"].append(move.cpu_ms)
                tables = fresh_scripts(store, 250, rng)
                changed = P.run(server.port, tables, CONNECTIONS, args.duration, server.workers(), wave=1)
                cpu[name]["page"].append(page_cpu(changed, move.cpu_ms))
        base = statistics.median(bare_cpu)
        print(f"bare endpoint: {base:.3f} ms (rounds: {', '.join(f'{x:.3f}' for x in bare_cpu)})")
        for name, figures in cpu.items():
            print(f"{name}  errors: {len(servers[name].errors())}")
            for kind, label in (
                ("304", "poll answered 304"),
                ("page", f"changed page (of {SCREENS} a move)"),
                ("move", "move"),
            ):
                runs = figures[kind]
                median = statistics.median(runs)
                print(
                    f"  {label:30s} {median:6.3f} ms = {base / median:4.2f}x bare   "
                    f"(rounds: {', '.join(f'{x:.3f}' for x in runs)})",
                    flush=True,
                )
    finally:
        for server in servers.values():
            server.stop()
        for folder in folders:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT, capture_output=True, check=False
            )
        if postgres is not None:
            postgres.stop()


def capacity_steps(
    database: Database, revisions: dict[str, Path], levels: list[int], rounds: int, workdir: Path, rng
) -> None:
    """Capacity steps (streams) of each revision (commit -> its worktree) at each of `levels`, alternately."""
    print(f"{database.label}, capacity steps (streams, a move every 10 s), {rounds} rounds", flush=True)
    results: dict[tuple[int, str], list[T.StepResult]] = {}
    for round_number in range(rounds):
        order = list(revisions.items())
        for tables in levels:
            for commit, folder in order if round_number % 2 == 0 else order[::-1]:
                url, store = database.fresh(f"r{round_number}_{tables}_{commit}")
                games = [G.with_cookies(G.started_game(rng)) for _ in range(tables)]
                G.insert_games(store, games)
                store.engine.dispose()
                log = workdir / f"gunicorn-{commit}-{round_number}-{tables}.log"
                with Server(log, url, root=folder) as server:
                    step = T.run_step(server.port, games, 5, 20, 10.0, round_number, server.workers(), "stream")
                results.setdefault((tables, commit), []).append(step)
                verdict = "pass" if step.passed(LATENCY_LIMIT_MS) else "FAIL"
                print(f"round {round_number + 1} {commit} {verdict} {step.brief()}", flush=True)
    print("\neach round: the p99 of every request / of the moves, the workers' cores, pass or FAIL")
    for (tables, commit), steps in sorted(results.items()):
        print(
            f"{tables} tables {commit}: "
            + "; ".join(
                f"{s.p99_all_ms:.0f} / {s.p99_ms.get('action', 0):.0f} ms {s.server_cpu:.2f} cores "
                + ("pass" if s.passed(LATENCY_LIMIT_MS) else "FAIL")
                for s in steps
            )
        )


if __name__ == "__main__":
    main()
