"""Scenario 9: one worker holding thousands of open streams.

The production gunicorn command with one worker (gevent). Each of the streams asked for (5,000) opens a
game's stream (server-sent events) as a phone's page does, spread over a ninth as many games (a table screen
and 8 phones each), and reads its first message. Then, with all of them open and idle:

- the worker's memory (VmRSS), against the same worker before any stream;
- a move's latency (the API's answer), many times: idle streams must not delay an action;
- the fan-out: after a move in one game, how long until that game's 9 streams have their message.

"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.store import Store, make_engine

from . import games as G
from .latency import Api, Table
from .server import Server
from .tables import percentile


async def open_stream(port: int, game: G.Prepared, token: str):
    """A connection with the game's stream asked for, as `token`'s page would (HTTP/1.1, kept open)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        (
            f"GET /api/games/{game.game_id}/stream HTTP/1.1\r\nHost: bench\r\n"
            f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n"
        ).encode()
    )
    await writer.drain()
    return reader, writer


async def read_messages(reader, on_message):
    """Call `on_message(time)` for each `view` message, until the stream ends."""
    buffer = b""
    while True:
        chunk = await reader.read(4096)
        if not chunk:
            return
        buffer += chunk
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            if b"event: view" in block:
                on_message(time.monotonic())


async def hold(port: int, games: list[G.Prepared], count: int):
    """Open `count` streams over `games` (host + seats, round robin); wait until each said its first view."""
    opened = asyncio.Event()
    counts = {"first": 0}  # streams that said their first view
    arrivals: dict[int, list[float]] = {}
    tasks, writers = [], []

    def on_message(n):
        def seen(at):
            arrivals.setdefault(n, []).append(at)
            if len(arrivals[n]) == 1:
                counts["first"] += 1
                if counts["first"] == count:
                    opened.set()

        return seen

    owners = []
    for n in range(count):
        game = games[n % len(games)]
        tokens = [game.token("host")] + [token for _, token in game.seats.values()]
        token = tokens[(n // len(games)) % len(tokens)]
        reader, writer = await open_stream(port, game, token)
        writers.append(writer)
        owners.append(game.game_id)
        tasks.append(asyncio.create_task(read_messages(reader, on_message(n))))
        if n % 200 == 199:
            await asyncio.sleep(0)
    await asyncio.wait_for(opened.wait(), timeout=120)
    return tasks, writers, arrivals, owners


async def run(server: Server, games: list[G.Prepared], count: int, moves: int, rng: random.Random) -> dict:
    api = Api(server.port)
    [before] = server.rss_mb()  # (its one worker)
    # A move before any stream: the worker has loaded what it needs, the figure is the streams' own.
    unheld = await asyncio.to_thread(timed_moves, api, games[-1], 5, rng)
    tasks, writers, arrivals, owners = await hold(server.port, games[:-1], count)
    [held] = server.rss_mb()
    actions = await asyncio.to_thread(timed_moves, api, games[-1], moves, rng)
    fanouts = []
    for k in range(min(moves, 20)):
        game = games[k % (len(games) - 1)]
        streams = [n for n, owner in enumerate(owners) if owner == game.game_id]
        marks = {n: len(arrivals.get(n, [])) for n in streams}
        started = time.monotonic()
        await asyncio.to_thread(Table(api, game, rng).move)
        deadline = time.monotonic() + 30
        while any(len(arrivals.get(n, [])) <= marks[n] for n in streams) and time.monotonic() < deadline:
            await asyncio.sleep(0.002)
        fanouts += [arrivals[n][marks[n]] - started for n in streams if len(arrivals.get(n, [])) > marks[n]]
    for writer in writers:
        writer.close()
    for task in tasks:
        task.cancel()
    return {"rss_before": before, "rss_held": held, "unheld": unheld, "actions": actions, "fanout": fanouts}


def timed_moves(api: Api, game: G.Prepared, count: int, rng: random.Random) -> list[float]:
    table, times = Table(api, game, rng), []
    for _ in range(count):
        started = time.monotonic()
        table.move()
        times.append(time.monotonic() - started)
    return times


def measure(count: int, moves: int) -> dict:
    """`count` streams held by one worker: its memory before and with them, moves' answer times (s) without
    and with them, and each move's fan-out to its game's streams (s)."""
    rng = random.Random(17)
    with tempfile.TemporaryDirectory(prefix="decrypto-streams-") as folder:
        work = Path(folder)
        url = f"sqlite:///{work / 'streams.sqlite3'}"
        store = Store(make_engine(url))
        store.migrate()
        games = [G.with_cookies(G.started_game(rng)) for _ in range(count // 9 + 2)]
        G.insert_games(store, games)
        with Server(work / "gunicorn.log", url, workers=1) as server:
            result = asyncio.run(run(server, games, count, moves, rng))
            errors = server.errors()
    if errors:
        raise RuntimeError(f"the server logged errors: {errors[:5]}")
    return {"count": count, **result}


def lines(result: dict) -> list[str]:
    ms = lambda values: [1000 * v for v in values]  # noqa: E731
    count = result["count"]
    out = [
        f"{count} open streams on one worker: VmRSS {result['rss_before']:.0f} MB before, "
        f"{result['rss_held']:.0f} MB with them ({1024 * (result['rss_held'] - result['rss_before']) / count:.1f} KB "
        f"per stream)"
    ]
    for name in ("unheld", "actions"):
        values = ms(result[name])
        out.append(
            f"a move's answer, {'no stream open' if name == 'unheld' else f'{count} streams open'}: "
            f"p50 {statistics.median(values):.1f} ms, p99 {percentile(values, 99):.1f} ms ({len(values)} moves)"
        )
    fan = ms(result["fanout"])
    out.append(
        f"a move -> its game's 9 streams have the message: p50 {statistics.median(fan):.1f} ms, "
        f"p99 {percentile(fan, 99):.1f} ms, max {max(fan):.1f} ms ({len(fan)} messages)"
    )
    return out
