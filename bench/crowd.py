"""Scenario 10: another game's reads while one client holds all the streams it may and drafts as fast as the
rate limits let it (issue 20).

The production gunicorn command (companion/serve.py's arguments, rate limits on as in production), one SQLite
file. One client (one address) opens streams of its own game, a game in its guessing phase, with its table
screen's and players' tokens, until the server refuses them (`STREAMS_PER_ADDRESS` per worker), and keeps
them open; one of its players then drafts the team's guess as fast as `RATE_LIMIT_COMMANDS` allows (a new
connection each, so each worker counts its own share). Every draft wakes every stream of that game. Measured
with the streams held and, in the same round, with the same drafts and no stream (and the bare Flask endpoint):

- the workers' CPU time per draft (the draft and the waking of its game's streams), drafting alone;
- another game's phone polling its page (304, nothing changed) without pause, alone beside the drafts: each
  answer's time (p50, p90, p99), as a player waits for it;
- wrk's 16 connections polling every seat of ten other games beside the drafts: the most polls a second,
  against the bare endpoint's.

"""

from __future__ import annotations

import asyncio
import http.client
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from companion.store import Store, make_engine

from . import games as G
from . import machine
from . import scenarios as S
from . import wrk
from .latency import Api
from .server import Server
from .streams import open_stream, read_messages
from .tables import percentile

CONNECTIONS = 16


def guessing_game(rng: random.Random) -> G.Prepared:
    """Eight players, round 1, both teams' clues announced: White's guessers can draft."""
    return G.Builder(rng).start().play_until(lambda g: all(t.clues for t in g.round.transmissions.values())).prepared()


async def open_streams(port: int, game: G.Prepared, attempts: int):
    """Ask for `attempts` streams of `game` (its tokens in turn); keep those answered 200 open and reading.
    Returns (the open streams' tasks and writers, how many were refused and with which statuses, a counter
    of the view messages they got)."""
    tokens = [game.token("host")] + [token for _, token in game.seats.values()]
    held, refused, views = [], {}, {"count": 0}

    def count(_at: float) -> None:
        views["count"] += 1

    for n in range(attempts):
        reader, writer = await open_stream(port, game, tokens[n % len(tokens)])
        status = int((await reader.readline()).split()[1])
        if status == 200:
            held.append((asyncio.create_task(read_messages(reader, count)), writer))
        else:
            refused[status] = refused.get(status, 0) + 1
            writer.close()
    return held, refused, views


class Drafter(threading.Thread):
    """White's guesser drafting, `per_second` drafts a second (two codes in turn), each on a new connection."""

    def __init__(self, port: int, game: G.Prepared, per_second: float):
        super().__init__(daemon=True)
        self.api, self.game, self.per_second = Api(port), game, per_second
        white = game.state.round.transmissions["white"]
        self.token = next(
            token for seat, (team, token) in game.seats.items() if team == "white" and seat != white.encryptor
        )
        code = list(white.code)
        self.codes = [[code[1], code[0], code[2]], [code[2], code[1], code[0]]]
        self.stopping = threading.Event()
        self.statuses: dict[int, int] = {}
        self.times: list[float] = []

    def run(self) -> None:
        n, started = 0, time.monotonic()
        while not self.stopping.is_set():
            sent = time.monotonic()
            path = f"/api/games/{self.game.game_id}/guess"
            status, _ = self.api.call("POST", path, self.token, {"code": self.codes[n % 2], "confirm": False})
            self.times.append(time.monotonic() - sent)
            self.statuses[status] = self.statuses.get(status, 0) + 1
            n += 1
            self.stopping.wait(max(0.0, started + n / self.per_second - time.monotonic()))


def probe(port: int, game: G.Prepared, seconds: float) -> list[float]:
    """One phone of `game` polling its page (304) without pause on one connection: each answer's time (s)."""
    seat = next(iter(game.seats))
    headers = {**S.PHONE, "Cookie": game.cookies[seat], "If-None-Match": game.etag(seat)}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times, ends = [], time.monotonic() + seconds
    try:
        while time.monotonic() < ends:
            sent = time.monotonic()
            connection.request("GET", f"/play/{game.game_id}", headers=headers)
            answer = connection.getresponse()
            answer.read()
            assert answer.status == 304, answer.status
            times.append(time.monotonic() - sent)
    finally:
        connection.close()
    return times


def drafts_per_second(limit: str, workers: int) -> float:
    """What `RATE_LIMIT_COMMANDS` ("600 per minute", counted per worker) lets one address send, in all."""
    count, _, unit = limit.split(";", maxsplit=1)[0].split()
    return int(count) / {"second": 1, "minute": 60, "hour": 3600}[unit] * workers


def measure(rounds: int, duration: float, bare: Server) -> dict:
    """Each round: the bare endpoint, then the drafts without streams and with three times the client's share."""
    rng = random.Random(20261202)
    with tempfile.TemporaryDirectory(prefix="decrypto-crowd-") as folder:
        work = Path(folder)
        url = f"sqlite:///{work / 'crowd.sqlite3'}"
        store = Store(make_engine(url))
        store.migrate()
        crowded = G.with_cookies(guessing_game(rng))
        others = [G.with_cookies(G.mid_game(rng)) for _ in range(10)]
        G.insert_games(store, [crowded, *others])
        polls = S.spread(S.polls(others, etag=True), CONNECTIONS, rng)
        server = Server(work / "gunicorn.log", url)
        server.env["RATE_LIMITS"] = "on"  # as in production: the drafts are held to the limit
        del server.env["STREAMS_PER_ADDRESS"]  # and the client to its share of streams
        result = {
            "bare": [],
            "held": [],
            "refused": {},
            "views": 0,
            "drafts": {},
            "draft_times": [],
            **{f"{phase}_{what}": [] for phase in ("quiet", "crowd") for what in ("wrk", "times", "cpu")},
        }
        with server:
            from companion.app import create_app  # the limits as the server reads them

            config = create_app({"DATABASE_URL": url, "SECRET_KEY": "x"}).config
            workers = int(server.env["WORKERS"])
            per_second = drafts_per_second(config["RATE_LIMIT_COMMANDS"], workers)
            per_address = config["STREAMS_PER_ADDRESS"]
            attempts = 3 * per_address * workers
            result.update(per_address=per_address, per_second=per_second, attempts=attempts)
            for _ in range(rounds):
                result["bare"].append(
                    wrk.run(bare.url, S.spread(S.bare(), CONNECTIONS, rng), work, "bare", duration, CONNECTIONS)
                )
                asyncio.run(phase(server, crowded, others[0], polls, work, duration, 0, per_second, result, "quiet"))
                asyncio.run(
                    phase(server, crowded, others[0], polls, work, duration, attempts, per_second, result, "crowd")
                )
            result["errors"] = server.errors()
    return result


async def phase(
    server: Server,
    game: G.Prepared,
    other: G.Prepared,
    polls,
    work: Path,
    duration: float,
    attempts: int,
    per_second: float,
    result: dict,
    name: str,
) -> None:
    """With `attempts` streams asked for (0: none), `game` drafting: the workers' CPU per draft alone, then
    another game's phone polling alone, then wrk's polls."""
    held, refused, views = await open_streams(server.port, game, attempts)
    drafter = Drafter(server.port, game, per_second)
    pids = server.workers()
    before, drafts = machine.cpu_seconds(pids), len(drafter.times)
    drafter.start()
    try:
        await asyncio.sleep(duration)
        result[f"{name}_cpu"].append((machine.cpu_seconds(pids) - before) / max(1, len(drafter.times) - drafts))
        result[f"{name}_times"] += await asyncio.to_thread(probe, server.port, other, duration)
        result[f"{name}_wrk"].append(
            await asyncio.to_thread(wrk.run, server.url, polls, work, name, duration, CONNECTIONS)
        )
    finally:
        drafter.stopping.set()
        await asyncio.to_thread(drafter.join)
        for task, writer in held:
            writer.close()
            task.cancel()
    if name == "crowd":
        result["held"].append(len(held))
        for status, count in refused.items():
            result["refused"][status] = result["refused"].get(status, 0) + count
        result["views"] += views["count"]
        for status, count in drafter.statuses.items():
            result["drafts"][status] = result["drafts"].get(status, 0) + count
        result["draft_times"] += drafter.times


def lines(result: dict) -> list[str]:
    ms = lambda values: [1000 * v for v in values]  # noqa: E731
    bare = statistics.median(r.rps for r in result["bare"])
    drafts = result["drafts"]
    out = [
        f"one client holds {statistics.median(result['held']):.0f} streams of its game ({result['attempts']} asked "
        f"for in each round, refused: "
        + (", ".join(f"{n} with {s}" for s, n in sorted(result["refused"].items())) or "none")
        + f"; STREAMS_PER_ADDRESS {result['per_address']} per worker) and drafts up to "
        f"{result['per_second']:g} a second ("
        + ", ".join(f"{n} answered {s}" for s, n in sorted(drafts.items()))
        + f", p50 {statistics.median(ms(result['draft_times'])):.1f} ms); its streams got {result['views']} "
        f"view messages"
    ]
    for name in ("quiet", "crowd"):
        times, runs = ms(result[f"{name}_times"]), result[f"{name}_wrk"]
        rps = statistics.median(r.rps for r in runs)
        what = "drafting, no stream open" if name == "quiet" else "drafting, its streams open"
        out.append(
            f"{what}: worker CPU {1000 * statistics.median(result[f'{name}_cpu']):.1f} ms a draft; another "
            f"game's poll (304): one phone alone p50 {statistics.median(times):.1f} ms, p90 "
            f"{percentile(times, 90):.1f} ms, p99 {percentile(times, 99):.1f} ms ({len(times)} polls); wrk "
            f"{rps:.0f} req/s = {rps / bare:.2f}x bare ({bare:.0f} req/s), p50 "
            f"{statistics.median(r.p50_ms for r in runs):.1f} ms, p99 "
            f"{statistics.median(r.p99_ms for r in runs):.1f} ms"
            + ("" if all(r.valid for r in runs) else "  [INVALID runs]")
        )
    out.append(
        f"server log errors: {len(result['errors'])}" + (f" (first: {result['errors'][0]})" if result["errors"] else "")
    )
    return out
