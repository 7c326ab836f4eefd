"""`.venv/bin/python -m bench.page_profile`: where a page fetch's time goes, in-process, by function.

The two requests issue 23 item 2 is about, as scenarios 2 and 3 send them, through Flask's test client on a
SQLite file (no server, no sockets: what is left is the app's own work):
  - a changed page: a move, then its table's 9 screens (8 phones and the table screen) each fetch their page
    with their ETag and the keys of the regions they show (bench/tables.py `Screen`), as static/live.js does;
  - a phone's poll when nothing changed (304).
Each is timed, then profiled (cProfile, which roughly doubles the time: compare shares, not milliseconds);
the functions with the largest inclusive share are printed, grouped as the layers of a request. Usage:
`python -m bench.page_profile [--tables 10] [--polls 3000] [--top 25]`. No thresholds.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from companion import create_app
from companion.store import Store, make_engine
from companion.web.fragments import KEYS_HEADER

from .games import action_script, insert_games, started_game, with_cookies
from .server import SECRET_KEY
from .tables import Screen as Page

COOKIE = "decrypto"
ROOT = f"{Path(__file__).resolve().parent.parent}/"  # the project's folder, left out of file names
# Flask's steps of a request, printed first: the whole, its session and context, the view, the after-request.
LAYERS = {"wsgi_app", "push", "full_dispatch_request", "preprocess_request", "dispatch_request", "finalize_request"}


class Screen(Page):
    """A page as its script knows it (bench/tables.py `Screen`), fetched through the test client."""

    def __init__(self, client, game, seat):
        super().__init__(game, seat)
        self.client, self.cookie_value = client, game.cookies[seat].split("=", 1)[1]

    def fetch(self, whole: bool = False) -> int:
        self.client.set_cookie(COOKIE, self.cookie_value)
        headers = {"Accept": "text/html", "Accept-Encoding": "gzip"}
        if not whole:
            headers |= {"If-None-Match": self.etag, KEYS_HEADER: b" ".join(self.keys.values()).decode()}
        answer = self.client.get(self.path, headers=headers)
        self.take((answer.status_code, {name.lower(): value for name, value in answer.headers.items()}, answer.data))
        return answer.status_code


def changed_pages(app, tables: int, profile: cProfile.Profile | None) -> tuple[int, float]:
    """Plays two rounds of `tables` fresh games, move by move in turn; after each move its 9 screens fetch
    what changed. Returns (pages fetched, seconds spent fetching)."""
    rng = random.Random(1)
    games = [with_cookies(started_game(rng)) for _ in range(tables)]
    insert_games(app.extensions["games"].store, games)
    client = app.test_client()
    played = []
    for game in games:
        screens = [Screen(client, game, seat) for seat in [*game.seats, "table"]]
        for screen in screens:
            screen.fetch(whole=True)  # the page as it loaded: not counted
        played.append((game.game_id, screens, action_script(game, rng, rounds=2)))
    pages, seconds = 0, 0.0
    for step in range(max(len(script) for _, _, script in played)):
        for game_id, screens, script in played:
            if step >= len(script):
                continue
            token, command, body = script[step]
            client.delete_cookie(COOKIE)
            moved = client.post(
                f"/api/games/{game_id}/{command}", json=body, headers={"Authorization": f"Bearer {token}"}
            )
            assert moved.status_code == 200, (command, moved.get_json())
            start = time.perf_counter()
            if profile:
                profile.enable()
            for screen in screens:
                assert screen.fetch() == 200
            if profile:
                profile.disable()
            seconds += time.perf_counter() - start
            pages += len(screens)
    return pages, seconds


def unchanged_polls(app, polls: int, profile: cProfile.Profile | None) -> float:
    """A phone's page polled `polls` times with its current ETag (each a 304). Returns the seconds."""
    game = with_cookies(started_game(random.Random(2)))
    insert_games(app.extensions["games"].store, [game])
    screen = Screen(app.test_client(), game, next(iter(game.seats)))
    screen.fetch(whole=True)
    start = time.perf_counter()
    if profile:
        profile.enable()
    for _ in range(polls):
        assert screen.fetch() == 304
    if profile:
        profile.disable()
    return time.perf_counter() - start


class Row(NamedTuple):
    """One function of a profile, its times in seconds over all fetches."""

    inclusive: float
    own: float
    calls: int
    name: str  # "function (file:line)"
    apps: bool  # the app's own code (companion/, templates/)


def top(profile: cProfile.Profile, fetches: int, count: int) -> str:
    """Per fetch: the app's own functions (companion/, templates/) with the largest inclusive time, then every
    function with the largest time of its own (libraries included), the test client's left out."""
    rows = []
    for (path, line, name), (_, calls, own, inclusive, _) in pstats.Stats(profile).stats.items():  # type: ignore[attr-defined]
        if path.endswith(("werkzeug/test.py", "flask/testing.py")) or "/bench/" in path:
            continue
        where = path.split("site-packages/")[-1].split(ROOT)[-1]
        rows.append(
            Row(inclusive, own, calls, f"{name} ({where}:{line})", where.startswith(("companion/", "templates/")))
        )

    def listed(chosen, key) -> str:
        return "\n".join(
            f"  {1000 * key(row) / fetches:6.3f} ms  {row.calls / fetches:6.1f} calls  {row.name}"
            for row in sorted(chosen, key=key, reverse=True)[:count]
        )

    layers = [r for r in rows if r.name.split(" ", 1)[0] in LAYERS and r.name.split("(", 1)[1].startswith("flask/")]
    return (
        "the request's layers (Flask), inclusive:\n"
        + listed(layers, lambda r: r.inclusive)
        + "\nthe app's functions, inclusive:\n"
        + listed([r for r in rows if r.apps], lambda r: r.inclusive)
        + "\nall functions, own time:\n"
        + listed(rows, lambda r: r.own)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10, help="games played for the changed pages")
    parser.add_argument("--polls", type=int, default=3000, help="unchanged polls (304)")
    parser.add_argument("--top", type=int, default=25, help="functions listed per request")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        Store(make_engine(url)).migrate()
        app = create_app({"SECRET_KEY": SECRET_KEY, "DATABASE_URL": url, "RATE_LIMITS": "off"})
        pages, seconds = changed_pages(app, args.tables, None)
        print(f"a changed page: {1000 * seconds / pages:.2f} ms a fetch ({pages} fetches after moves)")
        polled = unchanged_polls(app, args.polls, None)
        print(f"an unchanged poll (304): {1000 * polled / args.polls:.2f} ms a fetch ({args.polls} polls)")
        for title, run in (
            ("a changed page", lambda p: changed_pages(app, args.tables, p)[0]),
            ("an unchanged poll (304)", lambda p: (unchanged_polls(app, args.polls, p), args.polls)[1]),
        ):
            profile = cProfile.Profile()
            fetches = run(profile)
            print(f"\n{title}, profiled: inclusive time and calls per fetch (cProfile's own cost included)")
            print(top(profile, fetches, args.top))


if __name__ == "__main__":
    main()
