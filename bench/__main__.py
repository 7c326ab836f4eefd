"""`bench/run` (or `.venv/bin/python -m bench`): the performance benchmark. See docs/performance.md.

In one run, on the production gunicorn setup (companion/serve.py's arguments), with wrk and an asyncio
load generator on loopback:
  1. a bare Flask endpoint (bench/bare_app.py): the ceiling;
  2. a phone's poll when nothing changed (304);
  3. a changed page: moves, each followed by its table's 9 screens fetching their page (CPU per page);
  4. game actions through the API (clues, guesses);
  5. capacity: tables of 8 phones, a table screen and a bot, the most tables with p99 < 100 ms (of all
     requests, and of each kind: fetches, polls, bot reads, moves), with the
     pages polling every 1.5 s (the design before streams) and holding their stream (now);
  6. poll throughput with 10 vs 10,000 stored games;   7. a worker's memory after the capacity run;
  8. a tap -> every other screen, in Chromium (bench/latency.py), with streams and with polling, and the
     requests an idle page makes;   9. one worker holding 5,000 open streams (bench/streams.py);
 10. another game's reads while one client holds all the streams it may and drafts as fast as the rate
     limits let it (bench/crowd.py).
 11. tables held by 1 and by 2 app servers behind HAProxy on PostgreSQL (bench/cluster.py: scripts/cluster),
     and the CPU of each part and PostgreSQL's round trips per move.
Throughput runs are interleaved (bare, 304, 200, actions, bare, ...) and their medians compared, so a
change in the machine's background load hits every scenario alike.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.heap import TRIM_SECONDS
from companion.store import Store, make_engine

from . import cluster as CL
from . import crowd as C
from . import games as G
from . import latency as L
from . import machine
from . import pages as P
from . import streams as ST
from . import scenarios as S
from . import tables as T
from . import wrk
from .postgres import Postgres
from .server import Server

CONNECTIONS = 16  # wrk: 16 threads of one connection each (a game's moves stay in order)
TARGETS = {"poll_304": 0.5, "changed": 0.25, "actions": 0.1}
SCREENS = 9  # a table's screens: 8 phones and the table screen
LATENCY_LIMIT_MS = 100
TARGET_TABLES = 1000  # with streams (issue 13)
TARGET_TABLE_RATIO = 3.0  # ... and this many times what polling holds in the same run
TARGET_RSS_MB = 80
TARGET_P90_MS, TARGET_P99_MS = 250, 500  # a tap -> every other screen, with streams
TARGET_IDLE_REQUESTS = 3  # an idle page's requests a minute
TARGET_STREAM_RSS_MB = 100  # a worker holding 5,000 streams


@dataclass
class Settings:
    smoke: bool
    duration: float  # seconds per throughput run
    rounds: int  # interleaved rounds of the throughput runs
    polled_games: int  # games whose seats are polled (8 seats each)
    stored_games: int  # scenario 6's large store
    memory_games: int  # finished games stored for the capacity run / memory figure
    warmup: float  # capacity step: seconds before measuring
    measure: float  # capacity step: seconds measured
    action_every: float  # seconds between a bot's moves (on average)
    first_tables: int
    max_tables: int
    resolution: int  # capacity search stops when pass and fail are this close
    databases: tuple[str, ...]
    profile: Path | None
    taps: int  # scenario 8: taps measured per design
    idle: float  # ... seconds each design's pages are left idle
    streams: int  # scenario 9: streams held by one worker


def say(text: str = "") -> None:
    print(text, flush=True)


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "?"


# --- databases --------------------------------------------------------------------------------------


class Database:
    """Fresh databases: a new SQLite file each, or a new database on the throwaway PostgreSQL server."""

    def __init__(self, kind: str, workdir: Path, postgres: Postgres | None):
        self.kind, self.workdir, self.postgres = kind, workdir, postgres

    def fresh(self, name: str) -> tuple[str, Store]:
        if self.kind == "sqlite":
            url = f"sqlite:///{self.workdir / f'{name}.sqlite3'}"
            engine_url = url
        else:
            url = self.postgres.database(name)
            engine_url = "postgresql+psycopg://" + url[len("postgresql://") :]
        store = Store(make_engine(engine_url))
        store.migrate()
        return url, store

    @property
    def label(self) -> str:
        return "SQLite" if self.kind == "sqlite" else "PostgreSQL"


# --- throughput (scenarios 1-4) -------------------------------------------------------------------


@dataclass
class Measured:
    result: wrk.Result
    cpu_ms: float  # worker CPU time per request
    other: float  # cores used by other processes on the machine meanwhile


def measure(
    server: Server,
    per_thread,
    workdir: Path,
    name: str,
    duration: float,
    mode: str = "cycle",
    profile: Path | None = None,
) -> Measured:
    pids = server.workers()
    spies = []
    if profile is not None:  # py-spy's raw stacks of each worker meanwhile (--profile)
        profile.mkdir(parents=True, exist_ok=True)
        spy = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
        spies = [
            subprocess.Popen(
                [spy, "record", "--gil", "--nonblocking", "-r", "200", "-f", "raw", "-d", str(int(duration))]
                + ["-p", str(pid), "-o", str(profile / f"{name}-{pid}.txt")],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for pid in pids
        ]
    before, m0 = machine.cpu_seconds(pids), machine.snapshot()
    result = wrk.run(server.url, per_thread, workdir, name, duration, CONNECTIONS, mode)
    used, m1 = machine.cpu_seconds(pids) - before, machine.snapshot()
    for spy in spies:
        spy.wait()
    return Measured(result, 1000 * used / max(1, result.requests), machine.other_cores(m0, m1))


def median_rps(runs: list[Measured]) -> float:
    return statistics.median(m.result.rps for m in runs)


def median_cpu(runs: list[Measured]) -> float:
    return statistics.median(m.cpu_ms for m in runs)


def throughput(db: Database, bare: Server, settings: Settings, workdir: Path, rng: random.Random) -> dict:
    url, store = db.fresh("throughput")
    polled = [G.with_cookies(G.mid_game(rng)) for _ in range(settings.polled_games)]
    G.insert_games(store, polled)
    runs: dict[str, list[Measured]] = {k: [] for k in ("bare", "poll_304", "changed", "poll_200", "api_200", "actions")}
    threads = CONNECTIONS
    with Server(workdir / f"gunicorn-{db.kind}-throughput.log", url) as server:
        # The lists are checked once: a 304 is a 304, a changed page or view a 200.
        game = polled[0]
        status_304 = server.get(f"/play/{game.game_id}", {"Cookie": game.cookies[1], "If-None-Match": game.etag(1)})[0]
        status_200 = server.get(f"/play/{game.game_id}", {"Cookie": game.cookies[1]})[0]
        assert (status_304, status_200) == (304, 200), (status_304, status_200)
        assert server.get(f"/api/games/{game.game_id}", {"Cookie": game.cookies[1]})[0] == 200
        poll_304 = S.spread(S.polls(polled, etag=True), threads, rng)
        poll_200 = S.spread(S.polls(polled, etag=False), threads, rng)
        api_200 = S.spread(S.api_views(polled), threads, rng)
        profile = settings.profile and settings.profile / db.kind
        for n in range(settings.rounds):
            for name, target, requests in (
                ("bare", bare, S.spread(S.bare(), threads, rng)),
                ("poll_304", server, poll_304),
                ("poll_200", server, poll_200),
                ("api_200", server, api_200),
            ):
                runs[name].append(measure(target, requests, workdir, name, settings.duration, profile=profile))
            # Fresh games for the moves (each move happens once): as many as the last bare rate could use.
            ceiling = max(m.result.rps for m in runs["bare"])
            scripts = fresh_scripts(store, int(ceiling * 0.5 * settings.duration / 10) + 2 * threads, rng)
            runs["actions"].append(
                measure(
                    server,
                    S.actions(scripts, threads, wave=8),
                    workdir,
                    "actions",
                    settings.duration,
                    mode="once",
                    profile=profile,
                )
            )
            # A table after each move: the move, then each of its screens fetching what changed of its page.
            scripts = fresh_scripts(store, int(ceiling * 0.3 * settings.duration / SCREENS / 10) + 2 * threads, rng)
            runs["changed"].append(P.run(server.port, scripts, threads, settings.duration, server.workers(), wave=1))
            say(
                f"  round {n + 1}: "
                + ", ".join(f"{k} {v[-1].result.rps:.0f}/s" for k, v in runs.items() if k != "changed")
                + f", changed pages {runs['changed'][-1].pages / runs['changed'][-1].seconds:.0f}/s"
                + f"  (other processes {statistics.mean(v[-1].other for k, v in runs.items() if k != 'changed'):.2f} cores)"
            )
        errors = server.errors()
    store.engine.dispose()
    return {"runs": runs, "errors": errors}


def fresh_scripts(store: Store, count: int, rng: random.Random) -> list[tuple[G.Prepared, list]]:
    """`count` games just started, stored, each with the moves of its first two rounds."""
    started = [G.with_cookies(G.started_game(rng)) for _ in range(count)]
    G.insert_games(store, started)
    return [(g, G.action_script(g, rng)) for g in started]


def page_cpu(changed: P.Result, action_cpu_ms: float) -> float:
    """Worker CPU per page (ms) in a run of moves each followed by its table's page fetches: the run's CPU
    less its moves' (at the actions' cost per move measured in the same round), per page."""
    return (1000 * changed.cpu - changed.moves * action_cpu_ms) / max(1, changed.pages)


# --- scenario 6: stored games -----------------------------------------------------------------------


def stored_games(db: Database, settings: Settings, workdir: Path, rng: random.Random) -> dict:
    """The same ten games polled on two servers at once: one whose database holds just them, one whose
    database also holds `stored_games` finished games. Runs alternate between the two."""
    polled = [G.with_cookies(G.mid_game(rng)) for _ in range(10)]
    templates = [G.finished_game(rng) for _ in range(50)]
    requests = S.spread(S.polls(polled, etag=True), CONNECTIONS, rng)
    result = {"small": [], "large": []}
    small_url, small_store = db.fresh("stored_10")
    large_url, large_store = db.fresh("stored_large")
    G.insert_games(small_store, polled)
    G.insert_games(large_store, polled)
    extra = [G.clone(templates[n % len(templates)]) for n in range(settings.stored_games)]
    started = time.monotonic()
    G.insert_games(large_store, extra, batch=1000)
    result["insert_seconds"] = time.monotonic() - started
    result["events"] = sum(len(g.events) for g in extra)
    # What creating a game costs now and then (every 10 minutes per worker): the idle-game scan.
    started = time.monotonic()
    large_store.delete_idle_games(dt.datetime.now(dt.UTC) - dt.timedelta(hours=72))
    result["expiry_scan_ms"] = 1000 * (time.monotonic() - started)
    with (
        Server(workdir / f"gunicorn-{db.kind}-stored-10.log", small_url) as small,
        Server(workdir / f"gunicorn-{db.kind}-stored-large.log", large_url) as large,
    ):
        for _ in range(settings.rounds):
            result["small"].append(measure(small, requests, workdir, "stored_10", settings.duration))
            result["large"].append(measure(large, requests, workdir, "stored_large", settings.duration))
        result["errors"] = small.errors() + large.errors()
    small_store.engine.dispose()
    large_store.engine.dispose()
    return result


# --- scenario 5 and 7: capacity, memory -------------------------------------------------------------


def capacity(db: Database, settings: Settings, workdir: Path, rng: random.Random, design: str = "stream") -> dict:
    """The most tables (8 phones, a table screen, a bot) held with p99 < LATENCY_LIMIT_MS, every screen
    following its game by `design` (tables.DESIGNS: its stream, or polling every 1.5 s)."""
    url, store = db.fresh(f"capacity_{design}")
    finished = [
        G.clone(t) for t in [G.finished_game(rng) for _ in range(50)] for _ in range(settings.memory_games // 50)
    ]
    G.insert_games(store, finished, batch=1000)
    tables: list[G.Prepared] = []

    def ensure(n):
        if len(tables) < n:
            more = [G.with_cookies(G.started_game(rng)) for _ in range(n - len(tables))]
            G.insert_games(store, more)
            tables.extend(more)

    steps: list[T.StepResult] = []
    with Server(workdir / f"gunicorn-{db.kind}-capacity-{design}.log", url) as server:
        rss_idle = server.rss_mb()

        def trial(n):
            ensure(n)
            for _ in (1, 2):  # a level that fails is tried once more (the machine may be shared)
                result = T.run_step(
                    server.port,
                    tables[:n],
                    settings.warmup,
                    settings.measure,
                    settings.action_every,
                    len(steps),
                    server.workers(),
                    design,
                )
                steps.append(result)
                say(f"  {'pass' if result.passed(LATENCY_LIMIT_MS) else 'FAIL'} {result.brief()}")
                if result.passed(LATENCY_LIMIT_MS):
                    return True
            return False

        good, bad = _most_tables(trial, settings)
        rss_after = server.rss_mb()
        time.sleep(TRIM_SECONDS + 2)  # the workers give back what they freed (companion/heap.py) by then
        rss_settled = server.rss_mb()
        # Every stored game read once by a worker (its state folded and cached, up to the cache's size).
        host_tokens = [g.token("host") for g in finished]
        for g, token in zip(finished, host_tokens, strict=True):
            server.get(f"/api/games/{g.game_id}", {"Authorization": f"Bearer {token}"})
            server.get(f"/api/games/{g.game_id}", {"Authorization": f"Bearer {token}"})
        rss_read = server.rss_mb()
        errors = server.errors()
    store.engine.dispose()
    return {
        "steps": steps,
        "tables": good,
        "first_fail": bad,
        "rss_idle": rss_idle,
        "rss_after": rss_after,
        "rss_settled": rss_settled,
        "rss_read": rss_read,
        "stored": len(finished) + len(tables),
        "errors": errors,
    }


def _most_tables(trial: Callable[[int], bool], settings: Settings) -> tuple[int, int]:
    """The most tables a `trial` passed with, and the fewest it failed with (past `max_tables` if none)."""
    good, bad = 0, None
    n = settings.first_tables
    # Up in steps until a level fails, then halve the gap between the best pass and the first failure.
    while n <= settings.max_tables:
        if trial(n):
            good = n
            n = n * 2 if n < 200 else n + 100
        else:
            bad = n
            break
    if bad is None:
        bad = settings.max_tables + 1
    while bad - good > max(settings.resolution, good // 10):
        n = (good + bad) // 2
        if n <= good:
            break
        if trial(n):
            good = n
        else:
            bad = n
    return good, bad


# --- the report -------------------------------------------------------------------------------------


def verdict(ok: bool, smoke: bool) -> str:
    if smoke:
        return ""
    return "  met" if ok else "  MISSED"


def report(settings: Settings, results: dict, extra: dict, started: float, header: list[str]) -> None:
    say()
    say("=" * 100)
    for line in header:
        say(line)
    others = [
        m.other
        for r in results.values()
        for key in ("throughput", "stored")
        for runs in (
            [v for k, v in r[key]["runs"].items() if k != "changed"]
            if key == "throughput"
            else (r[key]["small"], r[key]["large"])
        )
        for m in runs
    ] + [step.other_cpu for r in results.values() for key in ("capacity", "capacity_poll") for step in r[key]["steps"]]
    say(f"wall time {time.monotonic() - started:.0f} s; load average at the end {load_average()}")
    if others:
        say(
            f"other processes on the machine used {statistics.mean(others):.2f} cores on average during the "
            f"measurements (at most {max(others):.2f}): the machine was "
            + ("shared, so absolute figures are pessimistic" if max(others) > 0.1 else "quiet")
        )
    say("=" * 100)
    for kind, r in results.items():
        label = "SQLite" if kind == "sqlite" else "PostgreSQL"
        tp = r["throughput"]["runs"]
        bare_rps, bare_cpu = median_rps(tp["bare"]), median_cpu(tp["bare"])
        say(
            f"\n[{label}] throughput: median of {settings.rounds} interleaved run(s) of {settings.duration:g} s, "
            f"wrk {CONNECTIONS} connections"
        )
        say(
            f"  1. bare Flask endpoint (ceiling)     {bare_rps:8.0f} req/s   1.00x           "
            f"{bare_cpu:.2f} ms worker CPU/req"
        )

        def invalid_note(key, tp=tp):
            if key == "changed":
                invalid = [c for c in tp[key] if not c.valid]
                return f"  [{len(invalid)} run(s) invalid: {invalid[0].first_errors[:2]}]" if invalid else ""
            invalid = [m for m in tp[key] if not m.result.valid]
            return f"  [{len(invalid)} run(s) invalid: {invalid[0].result.brief()}]" if invalid else ""

        names = {"poll_304": "2. poll, nothing changed (304)", "actions": "4. game actions (clues, guesses)"}
        for key, name in names.items():
            rps, cpu = median_rps(tp[key]), median_cpu(tp[key])
            ratio = rps / bare_rps
            say(
                f"  {name:36s} {rps:8.0f} req/s   {ratio:4.2f}x (>= {TARGETS[key]}x){verdict(ratio >= TARGETS[key], settings.smoke):9s}"
                f"{cpu:.2f} ms worker CPU/req (CPU ratio {bare_cpu / cpu:.2f}x){invalid_note(key)}"
            )
            if key == "poll_304":
                pages = [page_cpu(c, a.cpu_ms) for c, a in zip(tp["changed"], tp["actions"], strict=True)]
                cpu = statistics.median(pages)
                say(
                    f"  {'3. a changed page, every screen':36s} {'':8s}         {bare_cpu / cpu:4.2f}x (>= {TARGETS['changed']}x)"
                    f"{verdict(bare_cpu / cpu >= TARGETS['changed'], settings.smoke):9s}{cpu:.2f} ms worker CPU/page "
                    f"(by CPU: a move, then its table's {SCREENS} screens fetch what changed){invalid_note('changed')}"
                )
                say(
                    "     pages per run: "
                    + ", ".join(
                        f"{p:.2f} ms ({c.pages / c.seconds:.0f}/s)" for p, c in zip(pages, tp["changed"], strict=True)
                    )
                    + " worker CPU"
                )
                for key2, text in (
                    ("poll_200", "a phone's whole page, as a reload or a page without JavaScript gets it"),
                    ("api_200", "the API's JSON view, as an API client polls it after a change"),
                ):
                    rps, cpu = median_rps(tp[key2]), median_cpu(tp[key2])
                    say(f"     ({text}: {rps:.0f} req/s, {rps / bare_rps:.2f}x, {cpu:.2f} ms worker CPU/req)")
        for key in ("bare", "poll_304", "poll_200", "api_200", "actions"):
            say(
                f"     {key:9s} runs: "
                + ", ".join(f"{m.result.rps:.0f}" for m in tp[key])
                + " req/s; p99 "
                + ", ".join(f"{m.result.p99_ms:.0f}" for m in tp[key])
                + " ms; other processes "
                + ", ".join(f"{m.other:.2f}" for m in tp[key])
                + " cores"
            )
        st = r["stored"]
        small, large = median_rps(st["small"]), median_rps(st["large"])
        small_cpu, large_cpu = median_cpu(st["small"]), median_cpu(st["large"])
        change, cpu_change = large / small - 1, large_cpu / small_cpu - 1
        say(
            f"  6. poll 304, 10 games stored         {small:8.0f} req/s   {small / bare_rps:4.2f}x   "
            f"{small_cpu:.2f} ms worker CPU/req; runs {', '.join(f'{m.result.rps:.0f}' for m in st['small'])}"
        )
        say(
            f"     ... 10 + {settings.stored_games:,} finished games   {large:8.0f} req/s   {large / bare_rps:4.2f}x   "
            f"{large_cpu:.2f} ms worker CPU/req; runs {', '.join(f'{m.result.rps:.0f}' for m in st['large'])}"
        )
        say(
            f"     throughput {change:+.1%}, CPU per request {cpu_change:+.1%} (within 10%)"
            f"{verdict(abs(change) <= 0.10, settings.smoke)}"
        )
        say(
            f"     ({st['events']:,} events written in {st['insert_seconds']:.1f} s; the idle-game expiry scan, "
            f"which creating a game runs every 10 min per worker, took {st['expiry_scan_ms']:.0f} ms on them)"
        )
        polled, cap = r["capacity_poll"], r["capacity"]
        for name, c in (("pages polling every 1.5 s", polled), ("pages holding their stream", cap)):
            failed = (
                f"first failure at {c['first_fail']}"
                if c["first_fail"] <= settings.max_tables
                else f"no failure up to {settings.max_tables}"
            )
            say(f"  5. capacity, {name}: {c['tables']} tables with p99 < {LATENCY_LIMIT_MS} ms ({failed})")
            for step in sorted(c["steps"], key=lambda s: s.tables):
                say(f"     {'pass' if step.passed(LATENCY_LIMIT_MS) else 'fail'} {step.brief()}")
        ratio = cap["tables"] / max(1, polled["tables"])
        say(
            f"     streams hold {ratio:.1f}x the tables polling holds (target >= {TARGET_TABLE_RATIO}x and >= "
            f"{TARGET_TABLES} tables){verdict(ratio >= TARGET_TABLE_RATIO and cap['tables'] >= TARGET_TABLES, settings.smoke)}"
        )
        worst = max(cap["rss_after"] + cap["rss_read"])
        say(
            "  7. worker RSS: idle after start "
            + ", ".join(f"{x:.1f}" for x in cap["rss_idle"])
            + f" MB; after the capacity run ({cap['stored']:,} games stored): "
            + ", ".join(f"{x:.1f}" for x in cap["rss_after"])
            + f" MB, {TRIM_SECONDS + 2:.0f} s later: "
            + ", ".join(f"{x:.1f}" for x in cap["rss_settled"])
            + " MB; after every stored game was read once: "
            + ", ".join(f"{x:.1f}" for x in cap["rss_read"])
            + f" MB (target < {TARGET_RSS_MB} MB)"
            + verdict(worst < TARGET_RSS_MB, settings.smoke)
        )
        errors = r["throughput"]["errors"] + st["errors"] + cap["errors"] + polled["errors"]
        say(f"  server log errors: {len(errors)}" + (f" (first: {errors[0]})" if errors else ""))
    if "latency" in extra:
        say(
            f"\n[SQLite] 8. a tap -> every other screen (Chromium: the table screen and 8 phones, loopback; "
            f"{settings.taps} taps per design)"
        )
        for name, d in extra["latency"].items():
            say(f"  {name:7} {d.brief()}")
        d = extra["latency"]["stream"]
        say(
            f"     streams: p90 <= {TARGET_P90_MS} ms and p99 <= {TARGET_P99_MS} ms"
            f"{verdict(d.p(90) <= TARGET_P90_MS and d.p(99) <= TARGET_P99_MS, settings.smoke)}"
            + (
                f"; an idle page <= {TARGET_IDLE_REQUESTS} requests a minute"
                f"{verdict(d.idle_per_minute <= TARGET_IDLE_REQUESTS, settings.smoke)}"
                if d.idle_per_minute is not None
                else ""
            )
        )
    if "streams" in extra:
        result = extra["streams"]
        say("\n[SQLite] 9. open streams on one worker")
        for line in ST.lines(result):
            say(f"  {line}")
        say(
            f"     worker memory with them <= {TARGET_STREAM_RSS_MB} MB"
            f"{verdict(result['rss_held'] <= TARGET_STREAM_RSS_MB, settings.smoke)}"
        )
    if "crowd" in extra:
        say("\n[SQLite] 10. one client at its share of streams, drafting as fast as allowed")
        for line in C.lines(extra["crowd"]):
            say(f"  {line}")
    if "cluster" in extra:
        say("\n[PostgreSQL] 11. tables held by 1 and by 2 app servers behind HAProxy (scripts/cluster)")
        for line in CL.lines(extra["cluster"]):
            say(f"  {line}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="bench/run", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--smoke", action="store_true", help="every part very briefly, SQLite only, no thresholds")
    parser.add_argument("--sqlite-only", action="store_true", help="skip PostgreSQL")
    parser.add_argument("--postgresql-only", action="store_true", help="PostgreSQL's scenarios 1-7 alone")
    parser.add_argument("--cluster-only", action="store_true", help="scenario 11 alone (1 and 2 servers)")
    parser.add_argument("--duration", type=float, help="seconds per throughput run (default 10)")
    parser.add_argument("--rounds", type=int, help="interleaved rounds of throughput runs (default 3)")
    parser.add_argument("--measure", type=float, help="seconds measured per capacity step (default 20)")
    parser.add_argument(
        "--action-every", type=float, default=10.0, help="seconds between a table's moves, on average (default 10)"
    )
    parser.add_argument("--profile", type=Path, help="record py-spy profiles of the workers into this folder")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (databases, logs)")
    args = parser.parse_args(argv)
    if args.smoke:
        settings = Settings(
            True,
            args.duration or 1,
            args.rounds or 1,
            10,
            300,
            100,
            1.5,
            args.measure or 2,
            args.action_every / 4,
            4,
            4,  # one capacity step per design
            4,
            () if args.cluster_only else ("sqlite",),
            args.profile,
            3,
            0,
            90,
        )
    else:
        settings = Settings(
            False,
            args.duration or 10,
            args.rounds or 3,
            100,
            10_000,
            1_000,
            8,
            args.measure or 20,
            args.action_every,
            50,
            2400,
            5,
            ()
            if args.cluster_only
            else ("sqlite",)
            if args.sqlite_only
            else ("postgresql",)
            if args.postgresql_only
            else ("sqlite", "postgresql"),
            args.profile,
            60,
            60,
            5000,
        )
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="decrypto-bench."))
    rng = random.Random(20261129)
    bare = Server(workdir / "gunicorn-bare.log", app="bench.bare_app:app")
    header = [
        f"Decrypto Companion benchmark{' (smoke)' if settings.smoke else ''}, "
        f"{dt.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}",
        f"machine: {os.cpu_count()} cores ({cpu_model()}), {platform.platform()}, Python {platform.python_version()}",
        f"server: {bare.describe().replace('bench.bare_app:app', 'app:app')} (the arguments of companion/serve.py)",
        f"load: wrk {CONNECTIONS} connections (scenarios 1, 2, 4, 6); asyncio clients, phones and bots "
        f"({'uvloop' if T.uvloop else 'asyncio'}) for 3 and 5; Chromium for 8; all on loopback, sharing the "
        f"machine's cores",
        f"load average at the start {load_average()}",
    ]
    for line in header:
        say(line)
    say(f"work folder {workdir}")
    postgres = None
    results, extra = {}, {}
    try:
        bare.start()
        for kind in settings.databases:
            if kind == "postgresql":
                postgres = Postgres().start()
                machine.extra_roots[:] = [postgres.pid()]
            db = Database(kind, workdir, postgres)
            say(f"\n[{db.label}] throughput (scenarios 1-4)")
            results[kind] = {"throughput": throughput(db, bare, settings, workdir, rng)}
            say(f"[{db.label}] stored games (scenario 6)")
            results[kind]["stored"] = stored_games(db, settings, workdir, rng)
            say(f"[{db.label}] capacity, pages polling every 1.5 s (scenario 5, the design before streams)")
            results[kind]["capacity_poll"] = capacity(db, settings, workdir, rng, "poll")
            say(f"[{db.label}] capacity, pages holding their stream (scenarios 5, 7)")
            results[kind]["capacity"] = capacity(db, settings, workdir, rng, "stream")
            if postgres is not None:
                postgres.stop()
                postgres = None
                machine.extra_roots[:] = []
        if "sqlite" in settings.databases:
            say("\n[SQLite] a tap -> every other screen, in Chromium (scenario 8)")
            extra["latency"] = L.run(settings.taps, settings.idle)
            say(f"[SQLite] {settings.streams:,} streams on one worker (scenario 9)")
            extra["streams"] = ST.measure(settings.streams, settings.taps)
            say("[SQLite] one client at its share of streams, drafting (scenario 10)")
            extra["crowd"] = C.measure(settings.rounds, settings.duration, bare)
        if settings.smoke or settings.databases in (("sqlite", "postgresql"), ()):
            say("[PostgreSQL] tables held by 1 and by 2 app servers behind HAProxy (scenario 11)")
            extra["cluster"] = CL.run(CL.SMOKE if settings.smoke else CL.FULL, workdir, rng)
    finally:
        bare.stop()
        if postgres is not None:
            postgres.stop()
    report(settings, results, extra, started, header)
    if args.keep:
        say(f"\nwork folder kept: {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
