"""Scenario 11: tables held by 1 and by 2 app servers on this machine behind HAProxy (scripts/cluster), on
PostgreSQL, and what each table costs each part.

Scenario 5's capacity search (bench/tables.py, every page holding its stream), through HAProxy to one app
server, then to two (one worker each: a server stands for a machine), on one PostgreSQL server with its
default durability. At each level: the cores each server's worker, PostgreSQL (all its processes) and
HAProxy used, and what PostgreSQL ran (pg_stat_statements: every statement is one round trip between an app
server and the database; pg_stat_wal: how often it flushed its log to disk, which a commit waits for). What
HAProxy's health checks cost when nothing else happens is measured first and taken off. docs/performance.md
works out from these figures how many tables N machines hold, and where PostgreSQL becomes the limit.
"""

from __future__ import annotations

import random
import re
import resource
import time
from dataclasses import dataclass
from pathlib import Path

from companion.store import Store, make_engine
from scripts.cluster import Cluster

from . import games as G
from . import machine
from . import scenarios as S
from . import tables as T
from . import wrk
from .postgres import Postgres
from .server import SECRET_KEY, Server, free_port

LATENCY_LIMIT_MS = 100
CONNECTIONS_PER_TABLE = 20
LEVELS = (25, 50, 100, 150, 200, 300, 400, 500, 600, 700)  # tables tried in turn, up to the first not held
IDLE_SECONDS = 5


@dataclass
class Settings:
    layouts: tuple[int, ...]  # app servers behind HAProxy, one layout after the other
    levels: tuple[int, ...]  # tables tried, in order
    tries: int  # times a level is tried before it counts as not held
    warmup: float
    measure: float
    action_every: float
    bare_seconds: float
    idle_seconds: float


SMOKE = Settings((2,), (4,), 1, 1.5, 2, 2.5, 1, 1)
FULL = Settings((1, 2), LEVELS, 3, 8, 20, 10.0, 5, IDLE_SECONDS)


class Database:
    """PostgreSQL's own counts, read by the superuser: statements run (pg_stat_statements, this database's,
    less these reads themselves) and log flushes (pg_stat_wal, which each process publishes about once a
    second: a window of a few seconds is off by that much, one of 20 s hardly)."""

    def __init__(self, postgres: Postgres, name: str):
        import psycopg

        self.name = name
        postgres.sql("CREATE EXTENSION IF NOT EXISTS pg_stat_statements", name)
        self.connection = psycopg.connect(
            host="127.0.0.1", port=postgres.port, user="postgres", dbname=name, autocommit=True
        )

    def _one(self, query: str) -> float:
        return float(self.connection.execute(query).fetchone()[0] or 0)

    def statements(self) -> float:
        return self._one(
            "SELECT sum(calls) FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat%' "
            f"AND dbid = (SELECT oid FROM pg_database WHERE datname = '{self.name}')"
        )

    def wal_syncs(self) -> float:
        return self._one("SELECT wal_sync FROM pg_stat_wal")

    def top(self, count: int) -> list[tuple[int, str]]:
        """The statements run most often since the last reset: (calls, the statement, shortened: a SELECT's
        columns left out)."""
        rows = self.connection.execute(
            "SELECT calls, regexp_replace(query, '\\s+', ' ', 'g') FROM pg_stat_statements WHERE query NOT LIKE %s "
            "AND dbid = (SELECT oid FROM pg_database WHERE datname = %s) ORDER BY calls DESC LIMIT %s",
            ("%pg_stat%", self.name, count),
        ).fetchall()
        shown = [(calls, re.sub(r"^SELECT (.+?) FROM", "SELECT … FROM", query)) for calls, query in rows]
        return [(calls, query if len(query) < 110 else query[:107] + "...") for calls, query in shown]

    def reset(self) -> None:
        self.connection.execute("SELECT pg_stat_statements_reset()")

    def close(self) -> None:
        self.connection.close()


@dataclass
class Level:
    servers: int
    step: T.StepResult

    @property
    def passed(self) -> bool:
        return self.step.passed(LATENCY_LIMIT_MS)

    @property
    def moves(self) -> float:
        """Moves a second in the window."""
        return self.step.counts.get("action", 0) / self.step.seconds

    def cores(self, part: str) -> float:
        return self.step.rates.get(f"cpu {part}", 0.0)

    @property
    def app_cores(self) -> float:
        return sum(v for k, v in self.step.rates.items() if k.startswith("cpu app"))

    def brief(self, idle: dict[str, float]) -> str:
        apps = ", ".join(f"{k[4:]} {v:.2f}" for k, v in self.step.rates.items() if k.startswith("cpu app"))
        statements = self.step.rates["statements"] - idle["statements"]
        syncs = self.step.rates["wal syncs"] - idle["wal syncs"]
        moves = max(self.moves, 1e-9)
        return (
            f"{'pass' if self.passed else 'FAIL'} {self.step.brief()}\n"
            f"            cores: {apps}, postgres {self.cores('postgres'):.2f}, "
            f"haproxy {self.cores('haproxy'):.2f}; {self.moves:.1f} moves/s, {statements:.0f} statements/s "
            f"({statements / moves:.1f} a move), {syncs:.1f} WAL flushes/s ({syncs / moves:.2f} a move)"
        )


def bare_cpu_ms(workdir: Path, seconds: float) -> float:
    """Worker CPU per request of the bare Flask endpoint (bench/bare_app.py) on one worker, under wrk: this
    run's yardstick (the machine's speed varies several-fold from run to run)."""
    with Server(workdir / "gunicorn-bare.log", app="bench.bare_app:app", workers=1) as bare:
        pids = bare.workers()
        before = machine.cpu_seconds(pids)
        result = wrk.run(bare.url, S.spread(S.bare(), 16, random.Random(1)), workdir, "bare", seconds, 16)
        return 1000 * (machine.cpu_seconds(pids) - before) / max(1, result.requests)


def probes(cluster: Cluster, postgres: Postgres, database: Database) -> dict:
    """Running counts read as each step's window opens and closes (bench/tables.py: run_step)."""
    found = {
        f"cpu {server.name}": (lambda server=server: machine.cpu_seconds(server.workers()))
        for server in cluster.servers
    }
    found["cpu postgres"] = lambda: machine._tree_jiffies(postgres.pid(), True) / machine.TICK
    found["cpu haproxy"] = lambda: machine.cpu_seconds([cluster.proxy.process.pid])
    found["statements"] = database.statements
    found["wal syncs"] = database.wal_syncs
    return found


def idle_rates(found: dict, seconds: float) -> dict[str, float]:
    """What the cluster costs with nobody playing: HAProxy's health checks (one a second per server)."""
    before, started = {k: probe() for k, probe in found.items()}, time.monotonic()
    time.sleep(seconds)
    elapsed = time.monotonic() - started
    return {k: (probe() - before[k]) / elapsed for k, probe in found.items()}


def run(settings: Settings, workdir: Path, rng: random.Random) -> dict:
    """Both layouts, one after the other, on one PostgreSQL server; each on tables of its own."""
    result = {"bare_ms": bare_cpu_ms(workdir, settings.bare_seconds), "layouts": {}}
    with Postgres("shared_preload_libraries=pg_stat_statements") as postgres:
        machine.extra_roots[:] = [postgres.pid()]
        try:
            url = postgres.database("cluster")
            store = Store(make_engine("postgresql+psycopg://" + url[len("postgresql://") :]))
            store.migrate()
            database = Database(postgres, "cluster")
            for count in settings.layouts:
                tables = [G.with_cookies(G.started_game(rng)) for _ in range(max(settings.levels))]
                G.insert_games(store, tables)
                result["layouts"][count] = layout(count, url, tables, settings, workdir, postgres, database)
            store.engine.dispose()
            database.close()
        finally:
            machine.extra_roots[:] = []
    return result


def proxy_connections(tables: int) -> int:
    """HAProxy's `maxconn` for `tables`: an open page holds one or two connections, 9 pages a table, so
    docs/haproxy.cfg's 8,000 is some 450 tables. HAProxy needs two descriptors a connection: the machine's
    limit of open files caps it (20,000 here: about 9,900 connections, some 520 tables)."""
    files = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    wanted = CONNECTIONS_PER_TABLE * tables
    return wanted if files == resource.RLIM_INFINITY else min(wanted, (files - 100) // 2)


def layout(
    count: int, url: str, tables: list, settings: Settings, workdir: Path, postgres: Postgres, database: Database
) -> dict:
    folder = workdir / f"cluster-{count}"
    folder.mkdir()
    cluster = Cluster(
        count,
        folder,
        free_port(),
        [free_port() for _ in range(count)],
        database_url=url,
        # Every simulated phone and bot comes from loopback: no per-address limits, nor share of
        # streams (as bench/server.py)
        env={"SECRET_KEY": SECRET_KEY, "RATE_LIMITS": "off", "STREAMS_PER_ADDRESS": "1000000", "WORKERS": "1"},
        bind_host="127.0.0.1",
        logs=True,
        maxconn=proxy_connections(max(settings.levels)),
    )
    levels: list[Level] = []
    with cluster:
        found = probes(cluster, postgres, database)
        idle = idle_rates(found, settings.idle_seconds)
        print(
            f"  {count} server(s), idle: {idle['statements']:.1f} statements/s, postgres {idle['cpu postgres']:.3f} "
            f"cores (HAProxy's health checks)",
            flush=True,
        )
        database.reset()

        def trial(n: int) -> bool:
            """`n` tables held, in one of `tries` tries (the machine may be shared)."""
            for _ in range(settings.tries):
                workers = [pid for server in cluster.servers for pid in server.workers()]
                step = T.run_step(
                    cluster.proxy_port,
                    tables[:n],
                    settings.warmup,
                    settings.measure,
                    settings.action_every,
                    len(levels),
                    workers,
                    "stream",
                    found,
                )
                levels.append(Level(count, step))
                print(f"    {levels[-1].brief(idle)}", flush=True)
                if levels[-1].passed:
                    return True
            return False

        # Up the ladder until a level is not held, then once halfway back to the last one held.
        good = 0
        for n in settings.levels:
            if not trial(n):
                middle = (good + n) // 2
                if good and middle - good > good // 8 and trial(middle):
                    good = middle
                break
            good = n
        top = database.top(12)
        errors = [
            line
            for log in folder.glob("app*.log")
            for line in log.read_text(errors="replace").splitlines()
            if "Traceback" in line or "[ERROR]" in line
        ]
    return {"levels": levels, "idle": idle, "held": good, "top": top, "errors": errors}


def per_table(level: Level, idle: dict[str, float], bare_ms: float) -> dict[str, float]:
    """What one table costs, in ms of CPU a second (and in bare requests a second: the same CPU), and what
    PostgreSQL runs per move."""
    n, moves = level.step.tables, max(level.moves, 1e-9)
    cpu = {
        "app servers": level.app_cores,
        "postgres": level.cores("postgres") - idle["cpu postgres"],
        "haproxy": level.cores("haproxy") - idle["cpu haproxy"],
    }
    out = {f"{part} ms": 1000 * cores / n for part, cores in cpu.items()}
    out.update({f"{part} bare": 1000 * cores / n / bare_ms for part, cores in cpu.items()})
    out["statements a move"] = (level.step.rates["statements"] - idle["statements"]) / moves
    out["wal flushes a move"] = (level.step.rates["wal syncs"] - idle["wal syncs"]) / moves
    out["moves a table"] = level.moves / n
    return out


def lines(result: dict) -> list[str]:
    """The report, for bench/__main__.py's summary and this module's own."""
    bare = result["bare_ms"]
    out = [
        f"bare Flask endpoint, one worker: {bare:.2f} ms worker CPU a request (the yardstick: CPU below is "
        f"also given in bare requests a second)"
    ]
    for count, found in result["layouts"].items():
        out.append(
            f"{count} app server(s), one worker each: {found['held']} tables with p99 < {LATENCY_LIMIT_MS} ms"
            f"; idle (health checks): {found['idle']['statements']:.1f} statements/s"
        )
        out += [f"  {level.brief(found['idle'])}" for level in found["levels"]]
        biggest = max(
            (level for level in found["levels"] if level.passed),
            key=lambda level: level.step.tables,
            default=found["levels"][-1],
        )
        cost = per_table(biggest, found["idle"], bare)
        out.append(
            f"  a table, at {biggest.step.tables} tables ({cost['moves a table'] * 60:.1f} moves a minute): "
            + ", ".join(
                f"{part} {cost[part + ' ms']:.2f} ms CPU/s ({cost[part + ' bare']:.1f} bare req/s)"
                for part in ("app servers", "postgres", "haproxy")
            )
            + f"; a move: {cost['statements a move']:.1f} statements, "
            f"{cost['wal flushes a move']:.2f} WAL flushes"
        )
        total = sum(calls for calls, _ in found["top"]) or 1
        out.append(
            "  statements run most often (share of the top ones): "
            + "; ".join(f"{calls / total:.0%} {query}" for calls, query in found["top"])
        )
        if found["errors"]:
            out.append(f"  server log errors: {len(found['errors'])} (first: {found['errors'][0]})")
    return out
