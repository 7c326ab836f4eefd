"""Scenario 3: a changed page, as a table's screens fetch it after a move.

`connections` clients (asyncio, one keep-alive connection each) play fresh games, a game's moves in order and
`wave` games in turn, as scenario 4 does; after each move, the table's 9 screens (8 phones and the table
screen) each fetch their page as their script does when the stream says it changed: with the ETag and the
keys of the regions they show (bench/tables.py `Screen`), so each gets what changed for it. Each screen first
loads its whole page (not counted). The workers' CPU for the moves (at scenario 4's cost per move, measured
in the same round) is taken out: what is left, per page, is what a changed page costs.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass

from .games import Prepared
from . import machine
from .tables import Http, Screen, Stats, _headers, _timed, load_all, uvloop


@dataclass
class Result:
    pages: int
    moves: int
    seconds: float
    cpu: float  # worker CPU seconds in the window
    errors: int
    first_errors: list[str]

    @property
    def valid(self) -> bool:
        return self.errors == 0


async def _client(
    port: int, mine: list[tuple[Prepared, list]], wave: int, stats: Stats, window: dict, counts: dict
) -> None:
    conn = Http(port)
    screens = {game.game_id: [Screen(game, seat) for seat in game.cookies] for game, _ in mine}
    await load_all(port, [s for group in screens.values() for s in group], connections=1)  # not measured
    counts["ready"] += 1
    await window["open"].wait()
    for start in range(0, len(mine), wave):
        group = mine[start : start + wave]
        for k in range(max(len(moves) for _, moves in group)):
            for game, moves in group:
                if k >= len(moves):
                    continue
                if time.monotonic() >= window["stop"]:
                    conn.close()
                    return
                token, name, body = moves[k]
                headers = _headers(Accept="application/json", Authorization=f"Bearer {token}")
                await _timed(
                    stats,
                    "move",
                    conn,
                    "POST",
                    f"/api/games/{game.game_id}/{name}",
                    headers + "Content-Type: application/json\r\n",
                    json.dumps(body).encode(),
                )
                counts["moves"] += 1
                for screen in screens[game.game_id]:
                    screen.take(await _timed(stats, "page", conn, "GET", screen.path, screen.fetch_headers()))
                    counts["pages"] += 1
    conn.close()


async def _run(
    port: int,
    scripts: list[tuple[Prepared, list]],
    connections: int,
    duration: float,
    worker_pids: list[int],
    wave: int,
) -> Result:
    per_connection: list[list] = [[] for _ in range(connections)]
    for n, script in enumerate(scripts):
        per_connection[n % connections].append(script)
    counts = {"moves": 0, "pages": 0, "ready": 0}
    window = {"open": asyncio.Event(), "stop": float("inf")}
    stats = Stats(0, float("inf"))
    tasks = [asyncio.create_task(_client(port, mine, wave, stats, window, counts)) for mine in per_connection]
    while counts["ready"] < connections:
        await asyncio.sleep(0.01)
    cpu0, t0 = machine.cpu_seconds(worker_pids), time.monotonic()
    window["stop"] = t0 + duration
    window["open"].set()
    await asyncio.gather(*tasks)
    cpu1, t1 = machine.cpu_seconds(worker_pids), time.monotonic()
    return Result(
        counts["pages"], counts["moves"], t1 - t0, cpu1 - cpu0, sum(stats.errors.values()), stats.first_errors
    )


def run(
    port: int,
    scripts: list[tuple[Prepared, list]],
    connections: int,
    duration: float,
    worker_pids: list[int],
    wave: int = 8,
) -> Result:
    runner = uvloop.run if uvloop is not None else asyncio.run
    return runner(_run(port, scripts, connections, duration, worker_pids, wave))
