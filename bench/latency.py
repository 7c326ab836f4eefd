"""Scenario 8: how long a tap takes to show on every other screen, in Chromium.

One game on the production gunicorn command (companion/serve.py's arguments: gevent workers), a table screen
and 8 phones, each in its own headless Chromium context, as at a real table. Moves are sent through the API
as the players' taps would be (the planner of bench/games.py: clues, guesses, the tiebreak, rematches), and
each other screen's time to have the new page is read off that page: an init script stamps `Date.now()`
(the same clock as this process's) when a fetch of the page answers 200. Both designs, in one run, on the
same server and game:

- **stream**: the pages as they are, each holding its server-sent events stream;
- **poll**: the same pages without `EventSource` (deleted before the page's script runs), so they poll
  every 1.5 s as every page did before the streams (and as a page behind a buffering proxy still does).

Then each page is left idle and its requests counted, per minute.
"""

from __future__ import annotations

import http.client
import json
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import sync_playwright

from companion.store import Store, make_engine
from tools.chromium import CHROMIUM, CHROMIUM_ARGS

from . import games as G
from .server import Server
from .tables import percentile

PHONE = {"width": 390, "height": 844}
TABLE = {"width": 1280, "height": 800}

# Stamps each 200 answer to a GET the page's script makes (its own page, after a poll or a stream message),
# and each change pushed down its stream once applied.
STAMP = """(() => {
  const fetch = window.fetch;
  window.__seen = [];
  window.fetch = function (url, options) {
    return fetch.apply(this, arguments).then((answer) => {
      if (answer.status === 200 && !(options && options.method && options.method !== "GET")) window.__seen.push(Date.now());
      return answer;
    });
  };
  // A change pushed down the stream: stamped once the page's own handler has applied it.
  const Source = window.EventSource;
  if (Source) {
    window.EventSource = function (url) {
      const source = new Source(url);
      source.addEventListener("page", () => setTimeout(() => window.__seen.push(Date.now()), 0));
      return source;
    };
    window.EventSource.prototype = Source.prototype;
    Object.assign(window.EventSource, {CONNECTING: 0, OPEN: 1, CLOSED: 2});
  }
})();"""
NO_EVENT_SOURCE = "delete window.EventSource;"


class Api:
    def __init__(self, port: int):
        self.port = port

    def call(self, method: str, path: str, token: str, body: dict | None = None) -> tuple[int, dict]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            headers = {"Authorization": f"Bearer {token}"}
            data = None
            if body is not None:
                data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
            connection.request(method, path, body=data, headers=headers)
            answer = connection.getresponse()
            return answer.status, json.loads(answer.read() or b"null")
        finally:
            connection.close()


class Table:
    """The game, seen from the server: the planner's next move, sent as its player's tap."""

    def __init__(self, api: Api, game: G.Prepared, rng: random.Random):
        self.api, self.game, self.rng = api, game, rng
        self.host = game.token("host")

    def view(self, token: str) -> dict:
        status, view = self.api.call("GET", f"/api/games/{self.game.game_id}", token)
        assert status == 200, view
        return view

    def next_move(self) -> tuple[int | str, str, dict]:
        """The planner's next move: (who, command, body), "host" or a seat."""
        view = self.view(self.host)
        codes = {}
        if view["phase"] == "playing":
            for team, t in view["rounds"][-1]["transmissions"].items():
                codes[team] = self.view(self.game.seats[t["encryptor"]][1])["you"]["code"]
        return G.plan(view, codes, self.rng)

    def send(self, who: int | str, command: str, body: dict) -> None:
        token = self.host if who == "host" else self.game.seats[who][1]
        status, answer = self.api.call("POST", f"/api/games/{self.game.game_id}/{command}", token, body)
        assert status == 200, (command, body, answer)

    def move(self) -> int | str:
        """Send the next move; returns who made it ("host" or a seat)."""
        who, command, body = self.next_move()
        self.send(who, command, body)
        return who


def screens(browser, server: Server, game: G.Prepared, streams: bool) -> dict[str | int, object]:
    """The table screen and each seat's phone, loaded: who -> page."""
    pages = {}
    for who in ["host", *sorted(game.seats)]:
        context = browser.new_context(viewport=TABLE if who == "host" else PHONE, is_mobile=who != "host")
        context.add_init_script(STAMP + ("" if streams else NO_EVENT_SOURCE))
        page = context.new_page()
        page.requests = []
        page.on("request", lambda request, page=page: page.requests.append(time.time()))
        if who == "host":
            page.goto(f"{server.url}/table/{game.token('host')}")
        else:
            name, value = game.cookies[who].split("=", 1)
            context.add_cookies([{"name": name, "value": value, "url": server.url}])
            page.goto(f"{server.url}/play/{game.game_id}")
        pages[who] = page
    for page in pages.values():
        page.wait_for_load_state("load")
    return pages


def measure(table: Table, pages: dict, moves: int, rng: random.Random) -> list[float]:
    """Seconds from each tap to each other screen's new page."""
    delays = []
    for _ in range(moves):
        time.sleep(rng.uniform(0.3, 0.8))  # people take a moment between taps
        who, command, body = table.next_move()  # (what the bot reads to plan is not part of the delay)
        sent = time.time() * 1000
        table.send(who, command, body)
        others = [page for key, page in pages.items() if key != who]
        seen: dict[int, float] = {}
        deadline = time.monotonic() + 10
        while len(seen) < len(others) and time.monotonic() < deadline:
            for n, page in enumerate(others):
                if n not in seen:
                    stamps = [s for s in page.evaluate("window.__seen") if s >= sent]
                    if stamps:
                        seen[n] = (stamps[0] - sent) / 1000
            time.sleep(0.005)
        if len(seen) < len(others):
            raise RuntimeError(f"{len(others) - len(seen)} screen(s) never showed a move")
        delays += seen.values()
    return delays


def idle_requests(pages: dict, seconds: float) -> float:
    """Requests per minute per screen while nothing happens."""
    marks = {key: len(page.requests) for key, page in pages.items()}
    started = time.time()
    while time.time() - started < seconds:
        for page in pages.values():
            page.evaluate("0")  # let Playwright hand over the pages' events
        time.sleep(0.5)
    counts = [len(page.requests) - marks[key] for key, page in pages.items()]
    return statistics.mean(counts) * 60 / seconds


def close(pages: dict) -> None:
    for page in pages.values():
        page.context.close()


@dataclass
class Delays:
    """How one design did: each other screen's delay after each tap (ms), and an idle page's requests."""

    ms: list[float]
    idle_per_minute: float | None

    def p(self, q: float) -> float:
        return percentile(self.ms, q)

    def brief(self) -> str:
        line = (
            f"{len(self.ms):4} screens shown: p50 {self.p(50):6.0f} ms, p90 {self.p(90):6.0f} ms, "
            f"p99 {self.p(99):6.0f} ms, max {max(self.ms):6.0f} ms"
        )
        if self.idle_per_minute is not None:
            line += f"; idle: {self.idle_per_minute:.1f} requests per screen per minute"
        return line


def run(moves: int, idle: float) -> dict[str, Delays]:
    """Both designs on one server and game: "stream" and "poll"."""
    rng = random.Random(13)
    with tempfile.TemporaryDirectory(prefix="decrypto-latency-") as folder:
        work = Path(folder)
        url = f"sqlite:///{work / 'latency.sqlite3'}"
        store = Store(make_engine(url))
        store.migrate()
        game = G.with_cookies(G.started_game(rng))
        G.insert_games(store, [game])
        with Server(work / "gunicorn.log", url) as server, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            table = Table(Api(server.port), game, rng)
            results = {}
            for name, streams in (("stream", True), ("poll", False)):
                pages = screens(browser, server, game, streams)
                delays = measure(table, pages, moves, rng)
                results[name] = Delays([1000 * d for d in delays], idle_requests(pages, idle) if idle else None)
                print(f"  {name:7} {results[name].brief()}", flush=True)
                close(pages)
            browser.close()
            errors = server.errors()
    if errors:
        raise RuntimeError(f"the server logged errors: {errors[:5]}")
    return results
