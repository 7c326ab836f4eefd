"""Scenario 5: simulated tables. Each table has eight phones and a table screen, which poll like the page
script without a stream (design "poll") or hold their stream (design "stream"; static/live.js), and a bot that
plays the game through the API; all in one asyncio process.

A phone keeps one keep-alive connection (as a browser does) and polls its page, GET /play/<id>, with its
seat cookie and its last ETag every 1.5 s after the previous poll came back, as live.js does: 304 while
nothing changed, else what changed of the page (it names the regions it shows, `X-Live-Keys`, read from
each answer as the script does). A screen first loads its whole page.
The bot reads the table screen's view, learns each round's codes from the Encryptors' views, and makes
one legal move every `action_every` seconds on average (clues, guesses, keyword guesses, verdicts, rematch).

A step starts every screen within 1.5 s, as a restart of the server would (every page reconnecting at once).
Its measured window opens `warmup` seconds after the last screen is following its game (its first poll
answered, or its stream's first message come): that start is play as it never is, and at 650 tables it took
longer than a fixed warm-up to absorb, so the window measured it (`StepResult.settled`: how long it took).
Screens and bots carry on `GRACE` seconds past the window, so the requests it counts don't meet the end of
thousands of streams at once.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import random
import re
import time
from dataclasses import dataclass, field

from . import machine
from .games import Prepared, plan

try:
    import uvloop
except ImportError:  # the plain event loop works too, at a higher cost per request
    uvloop = None

POLL_INTERVAL = 1.5  # seconds, as POLL_INTERVAL_MS
SAFETY_POLL = 30.0  # seconds, as STREAM_POLL_MS: a page with a stream still polls this often (a quarter
# either way, at random, as static/live.js)
DESIGNS = ("poll", "stream")
TIMEOUT = 10.0  # seconds; a request slower than this counts as an error
KEEP_ALIVE = 5.0  # seconds: the server closes a connection idle this long (gunicorn --keep-alive 5)
SETTLE_LIMIT = 60.0  # seconds: a step whose screens are not all following by then is measured anyway
# (and fails if some never follow)
GRACE = 3.0  # seconds screens and bots carry on past the measured window


class Http:
    """One HTTP/1.1 keep-alive connection: just enough of the protocol for this server."""

    def __init__(self, port: int):
        self.port = port
        self.reader = self.writer = None
        self.connects = 0
        self.used = 0.0  # when the connection last answered (monotonic)

    async def _connect(self):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.connects += 1

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(self, method: str, path: str, headers: str, body: bytes = b"") -> tuple[int, dict, bytes]:
        data = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n{headers}Content-Length: {len(body)}\r\n\r\n"
        ).encode() + body
        if self.writer is not None and time.monotonic() - self.used > KEEP_ALIVE - 0.5:
            self.close()  # the server has closed it by now, as a browser finds: a new one (and no fd held)
        for attempt in (1, 2):
            reused = self.writer is not None
            if not reused:
                await self._connect()
            try:
                self.writer.write(data)
                head = await self.reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError) as error:
                self.close()
                # A kept-alive connection the server closed meanwhile: a browser retries it on a new one.
                if (
                    reused
                    and attempt == 1
                    and (not isinstance(error, asyncio.IncompleteReadError) or not error.partial)
                ):
                    continue
                raise
            lines = head[:-4].split(b"\r\n")
            status = int(lines[0].split(b" ", 2)[1])
            fields = {}
            for line in lines[1:]:
                name, _, value = line.partition(b":")
                fields[name.strip().lower().decode()] = value.strip().decode()
            length = int(fields.get("content-length", 0))
            content = await self.reader.readexactly(length) if length else b""
            if fields.get("connection", "").lower() == "close":
                self.close()
            self.used = time.monotonic()
            return status, fields, content
        raise AssertionError("unreachable")


@dataclass
class Stats:
    start: float  # the measurement window, loop time (set once every screen follows its game)
    end: float
    stop: float = float("inf")  # when screens and bots stop (past the window)
    following: int = 0  # screens whose first poll was answered, or whose stream's first message came
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    first_errors: list[str] = field(default_factory=list)
    connects: int = 0
    acted: dict[str, float] = field(default_factory=dict)  # game id -> when its bot last sent a move

    def add(self, kind: str, started: float, seconds: float) -> None:
        if self.start <= started < self.end:
            self.latencies.setdefault(kind, []).append(seconds)

    def error(self, kind: str, started: float, what: str) -> None:
        if self.start <= started < self.end:
            self.errors[kind] = self.errors.get(kind, 0) + 1
            if len(self.first_errors) < 5:
                self.first_errors.append(f"{kind}: {what}")


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def _headers(**fields) -> str:
    return "".join(f"{k.replace('_', '-')}: {v}\r\n" for k, v in fields.items())


async def _timed(
    stats: Stats, kind: str, conn: Http, method: str, path: str, headers: str, body: bytes = b"", ok=(200,)
) -> tuple[int, dict, bytes] | None:
    loop = asyncio.get_running_loop()
    started = loop.time()
    try:
        answer = await asyncio.wait_for(conn.request(method, path, headers, body), TIMEOUT)
    except Exception as error:  # noqa: BLE001 - counted, and the phone carries on
        conn.close()
        stats.error(kind, started, repr(error))
        return None
    stats.add(kind, started, loop.time() - started)
    if answer[0] not in ok:
        stats.error(kind, started, f"{method} {path}: {answer[0]} {answer[2][:200]!r}")
        return None
    return answer


async def phone(port: int, screen: Screen, stats: Stats, delay: float) -> None:
    """The polling design: the page asks for itself every 1.5 s (as without a stream)."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(delay)
    conn = Http(port)
    following = False
    while loop.time() < stats.stop:
        await asyncio.sleep(POLL_INTERVAL)
        screen.take(await _timed(stats, "poll", conn, "GET", screen.path, screen.fetch_headers(), ok=(200, 304)))
        if not following:
            following, stats.following = True, stats.following + 1
    conn.close()
    stats.connects += conn.connects


async def streaming_phone(port: int, screen: Screen, stats: Stats, delay: float) -> None:
    """The streaming design (static/live.js with EventSource): the page holds its stream open, which brings its
    changed regions (timed as "push": from the move its table's bot sent to their arrival), or an ETag it
    doesn't have (and the page fetches itself); and it polls every SAFETY_POLL seconds anyway."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(delay)
    conn = Http(port)
    page = screen.path
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError as error:
        stats.error("stream", loop.time(), repr(error))
        return
    writer.write(
        (
            f"GET {page}/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n{screen.cookie}\r\n"
        ).encode()
    )
    buffer, safety_at, following = b"", loop.time() + safety_delay(), False
    while loop.time() < stats.stop:
        try:
            chunk = await asyncio.wait_for(reader.read(4096), max(0.01, min(stats.stop, safety_at) - loop.time()))
        except TimeoutError:
            chunk = None
        if chunk == b"":
            stats.error("stream", loop.time(), "the stream ended")
            stats.following -= following  # it sees its game no more (HAProxy cut it, or the server went)
            break
        wanted = None
        if chunk:
            buffer += chunk
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                wanted = _heard(block, screen, stats, loop.time()) or wanted
            if wanted and not following:  # its first view message: it follows its game
                following, stats.following = True, stats.following + 1
        if (wanted and wanted != screen.etag) or loop.time() >= safety_at:
            kind = "fetch" if wanted and wanted != screen.etag else "poll"
            screen.take(await _timed(stats, kind, conn, "GET", page, screen.fetch_headers(), ok=(200, 304)))
            safety_at = loop.time() + safety_delay()
    writer.close()
    conn.close()
    stats.connects += conn.connects + 1


def _heard(block: bytes, screen: Screen, stats: Stats, now: float) -> str | None:
    """A stream's message: the ETag it brings (a live page's changed regions come with theirs), if any."""
    for line in block.split(b"\n"):
        if line.startswith(b"data: W/"):
            return line[len(b"data: ") :].decode()
        if line.startswith(b"data: {"):  # a live page's changed regions
            acted = stats.acted.get(screen.game_id)
            if acted is not None:
                stats.add("push", acted, now - acted)
            return screen.pushed(json.loads(line[len(b"data: ") :]))
    return None


def safety_delay() -> float:
    return SAFETY_POLL * random.uniform(0.75, 1.25)


REGION_KEY = re.compile(rb'<(?:div|p) id="([\w-]+)" data-live data-key="([a-p]+)"')


class Screen:
    """What a page's script knows of its page: its ETag, and the key of each live region it shows."""

    def __init__(self, game: Prepared, seat: int | str):
        self.path, self.game_id = game.page(seat), game.game_id
        self.etag = game.etag(seat)
        self.keys: dict[bytes, bytes] = {}
        self.cookie = _headers(Cookie=game.cookies[seat])
        self.headers = _headers(Accept="text/html", Accept_Encoding="gzip, deflate, br") + self.cookie

    def fetch_headers(self) -> str:
        """A fetch of the page by its script: with its ETag, and the regions it shows."""
        return (
            self.headers
            + f"If-None-Match: {self.etag}\r\n"
            + f"X-Live-Keys: {b' '.join(self.keys.values()).decode()}\r\n"
        )

    def take(self, answer) -> None:
        """A page or what changed of it came: its regions' keys, and its ETag."""
        if answer and answer[0] == 200:
            self.etag = answer[1].get("etag", self.etag)
            body = gzip.decompress(answer[2]) if answer[1].get("content-encoding") == "gzip" else answer[2]
            self.keys.update(REGION_KEY.findall(body))

    def pushed(self, message: dict[str, str]) -> str:
        """Its stream brought what changed of it: its regions' keys, and its ETag (returned)."""
        self.etag = message["etag"]
        self.keys.update(REGION_KEY.findall(message["body"].encode()))
        return self.etag

    async def load(self, stats: Stats, conn: Http) -> None:
        """The page loaded whole, as a phone opens it (its keys, as the script reads them)."""
        self.take(await _timed(stats, "load", conn, "GET", self.path, self.headers))


async def load_all(port: int, screens: list[Screen], connections: int = 16) -> None:
    """Every screen's page loaded whole, a few at a time, before the step starts: phones open their page
    when their player sits down, long before a busy minute."""
    queue = list(screens)

    async def loader():
        conn = Http(port)
        while queue:
            await queue.pop().load(Stats(0, 0), conn)
        conn.close()

    await asyncio.gather(*[loader() for _ in range(connections)])


def _json(answer) -> dict:
    body = answer[2]
    if answer[1].get("content-encoding") == "gzip":
        body = gzip.decompress(body)
    return json.loads(body)


async def bot(port: int, game: Prepared, stats: Stats, every: float, rng: random.Random) -> None:
    """Plays the table's game through the API with bearer tokens, one move every `every` s on average."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(rng.uniform(0, every))
    conn, codes, codes_of = Http(port), {}, None
    api = f"/api/games/{game.game_id}"
    host = game.token("host")

    def bearer(token):
        return _headers(Accept="application/json", Authorization=f"Bearer {token}")

    while loop.time() < stats.stop:
        answer = await _timed(stats, "bot_read", conn, "GET", api, bearer(host))
        if answer is None:
            await asyncio.sleep(every)
            continue
        view = _json(answer)
        if view["phase"] == "playing" and codes_of != (view["match"], view["round"]):
            codes = {}
            for team in view["transmitting"]:  # each code is on its Encryptor's phone only
                encryptor = view["rounds"][-1]["transmissions"][team]["encryptor"]
                mine = await _timed(stats, "bot_read", conn, "GET", api, bearer(game.seats[encryptor][1]))
                if mine:
                    codes[team] = _json(mine)["you"]["code"]
            codes_of = (view["match"], view["round"])
        if view["phase"] != "playing" or len(codes) == len(view["transmitting"]):
            who, name, body = plan(view, codes, rng)
            token = host if who == "host" else game.seats[who][1]
            data = json.dumps(body).encode()
            stats.acted[game.game_id] = loop.time()
            await _timed(
                stats,
                "action",
                conn,
                "POST",
                f"{api}/{name}",
                bearer(token) + "Content-Type: application/json\r\n",
                data,
            )
        await asyncio.sleep(rng.uniform(0.5, 1.5) * every)
    conn.close()
    stats.connects += conn.connects


@dataclass
class StepResult:
    tables: int
    seconds: float
    counts: dict[str, int]
    p50_ms: dict[str, float]
    p99_ms: dict[str, float]
    errors: dict[str, int]
    first_errors: list[str]
    loop_lag_p99_ms: float
    generator_cpu: float  # share of one core the load generator used
    server_cpu: float  # cores the gunicorn workers used
    connects: int
    other_cpu: float = 0.0  # cores used by other processes on the machine meanwhile
    rates: dict[str, float] = field(default_factory=dict)  # each probe's growth per second in the window
    settled: float = 0.0  # seconds from the start until every screen was following its game
    unfollowed: int = 0  # screens not following their game when the step ended: never, or their stream ended

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def p99_all_ms(self) -> float:
        return self.p99_ms["all"]

    def passed(self, limit_ms: float) -> bool:
        """Every screen following its game, every request's p99 under the limit, and each kind's on its own:
        the few moves must not hide in the many fetches (idle streams must never delay an action). A screen
        whose stream never answered makes no request to count, so its silence is a failure of its own."""
        return (
            not self.unfollowed
            and self.p99_all_ms < limit_ms
            and all(p99 < limit_ms for p99 in self.p99_ms.values())
            and not self.errors
        )

    def brief(self) -> str:
        kinds = ", ".join(
            f"{k} {self.counts[k] / self.seconds:.0f}/s p99 {self.p99_ms[k]:.0f} ms"
            for k in ("poll", "fetch", "push", "action", "bot_read", "load")
            if k in self.counts
        )
        errors = f"; ERRORS {self.errors} {self.first_errors[:2]}" if self.errors else ""
        following = (
            f"{self.unfollowed} screens never following their game"
            if self.unfollowed
            else f"all following after {self.settled:.1f} s"
        )
        return (
            f"{self.tables:4d} tables: p99 {self.p99_all_ms:6.1f} ms (p50 {self.p50_ms['all']:.1f} ms), "
            f"{self.total / self.seconds:.0f} req/s [{kinds}]; loop lag p99 {self.loop_lag_p99_ms:.0f} ms, "
            f"generator {self.generator_cpu:.0%} of a core, workers {self.server_cpu:.2f} cores, "
            f"other processes {self.other_cpu:.2f} cores; {following}{errors}"
        )


async def _step(
    port: int,
    tables: list[Prepared],
    warmup: float,
    measure: float,
    every: float,
    seed: int,
    worker_pids: list[int],
    design: str,
    probes: dict,
) -> StepResult:
    loop = asyncio.get_running_loop()
    screens = {(n, seat): Screen(game, seat) for n, game in enumerate(tables) for seat in game.cookies}
    await load_all(port, list(screens.values()))
    stats = Stats(float("inf"), float("inf"))
    rng = random.Random(seed)
    tasks = []
    follow = phone if design == "poll" else streaming_phone
    began = loop.time()
    for n, game in enumerate(tables):
        for seat in game.cookies:  # 8 phones and the table screen
            tasks.append(asyncio.create_task(follow(port, screens[n, seat], stats, rng.uniform(0, POLL_INTERVAL))))
        tasks.append(asyncio.create_task(bot(port, game, stats, every, random.Random(f"{seed}/{n}"))))
    while stats.following < len(screens) and loop.time() < began + SETTLE_LIMIT:
        await asyncio.sleep(0.05)
    settled = loop.time() - began
    start = loop.time() + warmup
    end = start + measure
    stats.start, stats.end, stats.stop = start, end, end + GRACE
    lags = []

    async def ticker():
        while loop.time() < end:
            before = loop.time()
            await asyncio.sleep(0.05)
            if before >= start:
                lags.append(loop.time() - before - 0.05)

    tick = asyncio.create_task(ticker())
    await asyncio.sleep(max(0.0, start - loop.time()))
    cpu0, server0, wall0, m0 = (
        time.process_time(),
        machine.cpu_seconds(worker_pids),
        time.monotonic(),
        machine.snapshot(),
    )
    probed0 = {name: probe() for name, probe in probes.items()}
    await asyncio.sleep(max(0.0, end - loop.time()))
    cpu1, server1, wall1, m1 = (
        time.process_time(),
        machine.cpu_seconds(worker_pids),
        time.monotonic(),
        machine.snapshot(),
    )
    probed1 = {name: probe() for name, probe in probes.items()}
    await asyncio.gather(*tasks, tick)
    everything = [x for values in stats.latencies.values() for x in values]
    counts = {k: len(v) for k, v in stats.latencies.items()}
    counts_all = {**counts}
    p50 = {k: percentile(v, 50) * 1000 for k, v in stats.latencies.items()}
    p99 = {k: percentile(v, 99) * 1000 for k, v in stats.latencies.items()}
    p50["all"], p99["all"] = percentile(everything, 50) * 1000, percentile(everything, 99) * 1000
    return StepResult(
        len(tables),
        measure,
        counts_all,
        p50,
        p99,
        stats.errors,
        stats.first_errors,
        percentile(lags, 99) * 1000,
        (cpu1 - cpu0) / (wall1 - wall0),
        (server1 - server0) / (wall1 - wall0),
        stats.connects,
        machine.other_cores(m0, m1),
        {name: (probed1[name] - probed0[name]) / (wall1 - wall0) for name in probes},
        settled,
        len(screens) - stats.following,
    )


def run_step(
    port: int,
    tables: list[Prepared],
    warmup: float,
    measure: float,
    every: float,
    seed: int,
    worker_pids: list[int],
    design: str = "poll",
    probes: dict | None = None,
) -> StepResult:
    """`design`: "poll" (every screen polls its page every 1.5 s) or "stream" (it holds its stream).
    `probes`: name -> a function returning a running count (CPU seconds of some processes, statements the
    database ran...), read as the measured window opens and closes: the result's `rates`, per second."""
    step = _step(port, tables, warmup, measure, every, seed, worker_pids, design, probes or {})
    return uvloop.run(step) if uvloop is not None else asyncio.run(step)
