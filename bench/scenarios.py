"""The throughput scenarios (wrk): what each request list holds."""

from __future__ import annotations

import random

from .games import Prepared
from .wrk import Request

PHONE = {"Accept": "text/html"}  # what live.js sends with each poll of its page (plus the cookie)


def bare() -> list[Request]:
    return [Request("GET", "/", {})]


def polls(games: list[Prepared], etag: bool) -> list[Request]:
    """Every seat of every game polling its page (/play/<id>) as live.js does, with the phone's cookie,
    with its current ETag (304) or without (200: the whole page, as a reload gets it)."""
    requests = []
    for g in games:
        for seat, cookie in g.cookies.items():
            if seat == "table":
                continue  # the phones only, as in every run before
            headers = {**PHONE, "Cookie": cookie}
            if etag:
                headers["If-None-Match"] = g.etag(seat)
            requests.append(Request("GET", f"/play/{g.game_id}", headers))
    return requests


def api_views(games: list[Prepared]) -> list[Request]:
    """Every seat's view as JSON (GET /api/games/<id>), as an API client polls it after a change."""
    return [
        Request("GET", f"/api/games/{g.game_id}", {"Accept": "application/json", "Cookie": cookie})
        for g in games
        for seat, cookie in g.cookies.items()
        if seat != "table"
    ]


def spread(requests: list[Request], threads: int, rng: random.Random) -> list[list[Request]]:
    """One shuffled list per wrk thread, each holding every request (so each thread cycles over all)."""
    out = []
    for _ in range(threads):
        copy = list(requests)
        rng.shuffle(copy)
        out.append(copy)
    return out


def actions(
    scripts: list[tuple[Prepared, list[tuple[str, str, dict]]]], threads: int, wave: int = 64
) -> list[list[Request]]:
    """Each game's moves ([(token, command, body)]) as API requests, split between the wrk threads.

    A thread plays `wave` games at a time, one move of each in turn: two moves of one game are `wave`
    requests apart, so the previous one has long been answered (the order of a game's moves matters:
    a refused move would show as a non-2xx answer)."""
    import json

    per_thread: list[list[tuple[Prepared, list]]] = [[] for _ in range(threads)]
    for n, (game, moves) in enumerate(scripts):
        per_thread[n % threads].append((game, moves))
    out = []
    for mine in per_thread:
        requests = []
        for start in range(0, len(mine), wave):
            group = mine[start : start + wave]
            for k in range(max(len(m) for _, m in group)):
                for game, moves in group:
                    if k < len(moves):
                        token, name, body = moves[k]
                        requests.append(
                            Request(
                                "POST",
                                f"/api/games/{game.game_id}/{name}",
                                {
                                    "Authorization": f"Bearer {token}",
                                    "Content-Type": "application/json",
                                    "Accept": "application/json",
                                },
                                json.dumps(body, separators=(",", ":")),
                            )
                        )
        out.append(requests)
    return out
