"""Page weight on a phone: each page a player opens, with everything it loads, stays under 40 kB transferred.

Real Chromium at 390×844, a fresh cache for every page, in the heaviest states a game reaches (a full lobby,
round 8 of a standard game with seven rounds on the note sheets, the finished game and its summary, the
three-player Interceptor in the last round). Bytes are what Chromium's DevTools protocol reports as received
(`Network.loadingFinished.encodedDataLength`: response headers plus the body as sent, gzip-compressed),
as DevTools' "transferred" does. For each page also: nothing leaves the server's origin, the page reads the
same without JavaScript, and neither a second load nor a while of polling fetches a static file again.

Run with `-s` to see the table of bytes per page (also written to artifacts/page-weight.txt).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from companion.rules import TEAMS, other
from tools.driver import Driver

from .browser import PHONE, ApiSession, Phone

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BUDGET = 40_000  # bytes (kB as DevTools counts them), per page load with an empty cache
YEAR_IMMUTABLE = "public, max-age=31536000, immutable"
ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "static"
REPORT = ROOT / "artifacts" / "page-weight.txt"
POLL = re.compile(r"^/(play|table|watch)/[^/]+$")  # a live page's script polls the page itself
# What a page must show without JavaScript exactly as with it: its headings, task and who the phone is.
MAIN_TEXT = "h1, h2, h3, .task-text, legend, .topbar .who"

# Clues as players write them (real words compress worse than made-up ones), none reused by a team.
CLUE_WORDS = """
    orbit evergreen fortress ripple spire lunar needle moat surf rampart glimmer tundra whisker lantern pebble
    comet saddle thistle fjord velvet compass harbour meadow cinder falcon quiver marble tangerine blizzard
    canyon lullaby orchard periscope quarry riddle saffron tapestry umbrella vortex walrus yodel zephyr
    anchor biscuit cobweb dynamo ember fiddle gargoyle hammock igloo jigsaw kettle lagoon mosaic nutmeg
    oyster pretzel quartz rhubarb scarecrow trellis
""".split()  # noqa: SIM905 (lines of words read better than 62 lines of strings)


# --- what Chromium sends and receives ----------------------------------------------------------------


@dataclass
class Request:
    url: str
    method: str
    kind: str  # the DevTools resource type: Document, Stylesheet, Script, Fetch, Other...
    blocking: str | None  # render-blocking behaviour, as Chromium classified the request
    status: int | None = None
    headers: dict = field(default_factory=dict)
    from_cache: bool = False
    received: int = 0  # response headers + body as transferred
    decoded: int = 0  # the body once uncompressed
    done: bool = False
    failed: bool = False

    @property
    def path(self) -> str:
        return urlsplit(self.url).path

    @property
    def is_static(self) -> bool:
        return self.path.startswith("/static/")

    @property
    def is_poll(self) -> bool:
        return self.method == "GET" and self.kind == "Fetch" and bool(POLL.match(self.path))

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers.items() if k.lower() == name.lower()), None)


class Traffic:
    """Every request of one page, from the DevTools protocol's Network domain (bytes, cache hits)."""

    def __init__(self, page):
        self.page = page
        self.log: list[Request] = []
        self._open: dict[str, Request] = {}
        # Polls answered, counted from Playwright's own events, which a wait can hang on. (An unchanged
        # poll's 304 is reported "canceled": the script never reads its empty body. So: responses.)
        self.polls_answered = 0
        page.on("response", self._count_poll)
        self.cdp = page.context.new_cdp_session(page)
        for event in (
            "requestWillBeSent",
            "requestServedFromCache",
            "responseReceived",
            "dataReceived",
            "loadingFinished",
            "loadingFailed",
        ):
            self.cdp.on(f"Network.{event}", getattr(self, f"_{event}"))
        self.cdp.send("Network.enable")

    def _count_poll(self, response) -> None:
        request = response.request
        if request.method == "GET" and request.resource_type == "fetch" and POLL.match(urlsplit(response.url).path):
            self.polls_answered += 1

    def _requestWillBeSent(self, e):
        previous = self._open.get(e["requestId"])
        if previous and "redirectResponse" in e:  # a redirect reuses its request's id
            previous.status = e["redirectResponse"]["status"]
            previous.received, previous.done = e["redirectResponse"].get("encodedDataLength", 0), True
        request = Request(
            e["request"]["url"], e["request"]["method"], e.get("type", ""), e.get("renderBlockingBehavior")
        )
        self._open[e["requestId"]] = request
        self.log.append(request)

    def _requestServedFromCache(self, e):
        if e["requestId"] in self._open:
            self._open[e["requestId"]].from_cache = True

    def _responseReceived(self, e):
        request = self._open.get(e["requestId"])
        if request:
            response = e["response"]
            request.status, request.headers = response["status"], response.get("headers", {})
            request.received = response.get("encodedDataLength", 0)  # the headers, so far
            request.from_cache |= bool(
                response.get("fromDiskCache") or response.get("fromMemoryCache") or response.get("fromPrefetchCache")
            )

    def _dataReceived(self, e):
        if e["requestId"] in self._open:
            self._open[e["requestId"]].decoded += e["dataLength"]

    def _loadingFinished(self, e):
        request = self._open.pop(e["requestId"], None)
        if request:
            request.received, request.done = e["encodedDataLength"], True

    def _loadingFailed(self, e):
        request = self._open.pop(e["requestId"], None)
        if request:
            request.failed = request.done = True

    def flush(self) -> None:
        """A round trip on our session: the events Chromium emitted before it have all been handled."""
        self.cdp.send("Runtime.evaluate", {"expression": "0"})

    def wait_for_polls(self, count: int) -> None:
        """Until `count` more polls of the page's script have finished (polls are the page's own clock)."""
        target = self.polls_answered + count
        self.page.wait_for_event("response", timeout=10_000, predicate=lambda _: self.polls_answered >= target)
        self.flush()

    def load(self, url: str) -> list[Request]:
        """Open `url` and wait until it has loaded everything (a polling page: until its second poll).

        Returns the page load's requests: the document, what it loads and the script's first poll; the
        polls after it are the steady state, not the load.
        """
        mark, polls = len(self.log), self.polls_answered
        self.page.goto(url)
        if self.page.locator("body").get_attribute("data-poll"):
            self.page.wait_for_event("response", timeout=10_000, predicate=lambda _: self.polls_answered >= polls + 2)
        else:
            self.page.wait_for_load_state("networkidle")
        self.flush()
        requests, first_poll = [], True
        for request in self.log[mark:]:
            if request.kind == "EventSource":
                continue  # the page's stream stays open: a message of ~100 bytes per change
            if request.is_poll:
                if not first_poll:
                    continue
                first_poll = False
            requests.append(request)
        still_loading = [r.url for r in requests if not r.done]
        assert not still_loading, f"{url}: still loading after the page settled: {still_loading}"
        return requests


class ServerHits:
    """The paths the live server answered, seen from the server's side (what a cache hit never reaches)."""

    def __init__(self, live_server):
        self.paths: list[str] = []
        app = live_server.server.app
        app.config["POLL_INTERVAL_MS"] = 200  # the waits on polls go quicker (the same 3 digits in the HTML)
        app.config["STREAM_POLL_MS"] = 200  # and pages poll as often with their stream open

        def counting(environ, start_response):
            self.paths.append(environ.get("PATH_INFO", ""))
            return app(environ, start_response)

        live_server.server.app = counting  # werkzeug reads `server.app` for every request

    def static_since(self, mark: int) -> list[str]:
        return [p for p in self.paths[mark:] if p.startswith("/static/")]


# --- the measurements ------------------------------------------------------------------------------


@dataclass
class Row:
    page: str
    requests: list[Request]

    def bytes_of(self, *kinds: str) -> int:
        return sum(r.received for r in self.requests if category(r) in kinds)

    @property
    def total(self) -> int:
        return sum(r.received for r in self.requests)

    @property
    def html_decoded(self) -> int:
        return sum(r.decoded for r in self.requests if category(r) == "html")


RESULTS: list[Row] = []
IDLE_POLLS: list[int] = []  # bytes received by a poll when nothing changed (304 Not Modified)


def category(request: Request) -> str:
    if request.kind == "Document":
        return "html"
    if request.is_poll:
        return "poll"
    if request.is_static:
        return Path(request.path).suffix.lstrip(".") or "other"
    return "other"


def fingerprint(name: str) -> str:
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]


def main_text(page) -> list[str]:
    return [re.sub(r"\s+", " ", t).strip() for t in page.locator(MAIN_TEXT).all_inner_texts()]


def new_phone_context(browser, state=None, javascript=True):
    return browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, java_script_enabled=javascript, storage_state=state
    )


def measure(
    browser, live_server, hits: ServerHits, page_name: str, url: str, shows: str, state=None, change=None
) -> Row:
    """Load `url` on a phone with an empty cache (and this phone's seat cookie, `state`) and check it all.

    `change`, if given, changes the game while the page polls: its refresh must fetch no static file either.
    """
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(live_server.url))
    context = new_phone_context(browser, state)
    try:
        page = context.new_page()
        traffic = Traffic(page)
        requests = traffic.load(url)
        expect(page.locator("main")).to_contain_text(shows)
        row = Row(page_name, requests)
        RESULTS.append(row)

        # Nothing leaves the server's origin, nothing fails, and no script holds up the first render.
        elsewhere = [
            r.url
            for r in traffic.log
            if urlsplit(r.url).scheme in ("http", "https", "ws", "wss") and not r.url.startswith(origin + "/")
        ]
        assert not elsewhere, f"{page_name}: requests to another origin: {elsewhere}"
        # (A poll answered 304 shows as canceled: the script never reads its empty body.)
        assert not [r.url for r in requests if r.failed and not (r.is_poll and r.status == 304)], (
            f"{page_name}: failed requests"
        )
        assert [r for r in requests if r.kind == "Document" and r.status == 200], f"{page_name}: no page"
        blocking_scripts = [r.url for r in requests if r.kind == "Script" and r.blocking == "Blocking"]
        assert not blocking_scripts, f"{page_name}: scripts block the first render: {blocking_scripts}"

        # Static files: fingerprinted with their content's hash, cached for a year, compressed.
        statics = [r for r in requests if r.is_static]
        assert {Path(r.path).name for r in statics} >= {"app.css", "live.js"}, f"{page_name}: {statics}"
        for r in statics:
            name = Path(r.path).name
            assert parse_qs(urlsplit(r.url).query).get("v") == [fingerprint(name)], f"{r.url}: no fingerprint"
            assert r.status == 200 and not r.from_cache, f"{r.url}: not a fresh download"
            assert r.header("Cache-Control") == YEAR_IMMUTABLE, f"{r.url}: {r.header('Cache-Control')}"
            assert r.header("Content-Encoding") == "gzip", f"{r.url}: sent uncompressed"

        # A second load: the HTML again (it is never cached), every static file from Chromium's cache.
        page.goto("about:blank")  # the first load's script stops polling
        server_mark = len(hits.paths)
        again = traffic.load(url)
        expect(page.locator("main")).to_contain_text(shows)
        static_again = [r for r in again if r.is_static]
        assert {r.url for r in static_again} == {r.url for r in statics}, f"{page_name}: other static files"
        downloaded = [(r.url, r.received) for r in static_again if not r.from_cache or r.received]
        assert not downloaded, f"{page_name}: the second load downloaded static files again: {downloaded}"
        assert not hits.static_since(server_mark), f"{page_name}: the server served {hits.static_since(server_mark)}"

        # Polling a while (and refreshing after a change): no static file is fetched at all.
        if page.locator("body").get_attribute("data-poll"):
            log_mark, server_mark = len(traffic.log), len(hits.paths)
            if change:
                keys = "Array.from(document.querySelectorAll('[data-live]'), (e) => e.dataset.key).join(' ')"
                before = page.evaluate(keys)
                change()  # its stream brings the regions that changed, which the page swaps in
                page.wait_for_function(f"(before) => {keys} !== before", arg=before, timeout=10_000)
            traffic.wait_for_polls(2)
            polled = traffic.log[log_mark:]
            assert [r for r in polled if r.is_poll], f"{page_name}: the page stopped polling"
            IDLE_POLLS.extend(r.received for r in polled if r.is_poll and r.status == 304)
            assert not [r.url for r in polled if r.is_static], f"{page_name}: polling fetched static files"
            assert not hits.static_since(server_mark), f"{page_name}: the server served static files to a poll"

        # The first render needs no JavaScript: the same headings and task, from the HTML alone.
        with_script = main_text(page)
        assert with_script, f"{page_name}: nothing to compare"
        plain = new_phone_context(browser, state, javascript=False)
        try:
            no_js = plain.new_page()
            no_js.goto(url)
            expect(no_js.locator("main")).to_contain_text(shows)
            assert main_text(no_js) == with_script, f"{page_name}: reads differently without JavaScript"
        finally:
            plain.close()
        return row
    finally:
        context.close()


def kb(n: int) -> str:
    return f"{n / 1000:.1f}"


def table() -> str:
    header = ("page", "req", "html", "css", "js", "poll", "other", "total kB", "budget", "html raw")
    rows = [
        (
            r.page,
            str(len(r.requests)),
            kb(r.bytes_of("html")),
            kb(r.bytes_of("css")),
            kb(r.bytes_of("js")),
            kb(r.bytes_of("poll")),
            kb(r.bytes_of("other")),
            kb(r.total),
            f"{100 * r.total / BUDGET:.0f}%",
            kb(r.html_decoded),
        )
        for r in RESULTS
    ]
    widths = [max(len(line[i]) for line in [header, *rows]) for i in range(len(header))]

    def line(cells):
        padded = [c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))]
        return "| " + " | ".join(padded) + " |"

    out = [
        line(header),
        "|"
        + "|".join(("-" if i == 0 else "") + "-" * (w + 1) + ("" if i == 0 else ":") for i, w in enumerate(widths))
        + "|",
    ]
    out += [line(r) for r in rows]
    out.append(
        f"\nkB = 1000 bytes received (response headers + compressed bodies), first visit with an empty "
        f"cache, Chromium at 390×844; budget {BUDGET // 1000} kB. 'html raw' is the page's HTML "
        f"uncompressed. 'poll' is the script's first poll of the page itself (a 304); 'other' is /favicon.ico, "
        f"a 404 (Chromium asks for it on the first page of its session only)."
    )
    if IDLE_POLLS:
        out.append(
            f"While nothing changes, each poll (304 Not Modified, headers only) receives "
            f"{min(IDLE_POLLS)}-{max(IDLE_POLLS)} bytes."
        )
    return "\n".join(out)


@pytest.fixture(scope="module", autouse=True)
def report():
    RESULTS.clear()
    IDLE_POLLS.clear()
    yield
    if RESULTS:
        text = table()
        print("\n\nPage weight on a phone\n\n" + text)
        REPORT.parent.mkdir(parents=True, exist_ok=True)
        REPORT.write_text(text + "\n")


@pytest.fixture
def hits(live_server):
    return ServerHits(live_server)


# --- driving games to their heaviest pages ------------------------------------------------------------


class Players(Driver):
    """A game's players, each on a phone of their own (without JavaScript: they act through the API, with
    their phone's cookie); the table screen's side acts with the host's bearer token. A sender is a
    player's name, or "host"."""

    host = "host"

    def __init__(self, browser, playwright, live_server, mode: str):
        self.browser, self.live_server = browser, live_server
        self.request, self.base = playwright.request.new_context(), live_server.url
        created = self.request.post(f"{self.base}/api/games", data={"mode": mode})
        assert created.ok, created.text()
        created = created.json()
        self.id, self.tokens, self.urls = created["game_id"], created["tokens"], created["urls"]
        self.auth = {"Authorization": f"Bearer {self.tokens['host']}"}
        self.phones: dict[str, Phone] = {}
        self.api: dict[str, ApiSession] = {}
        self.team_of: dict[str, str] = {}
        self.used: set[str] = set()

    def join(self, team: str, name: str) -> None:
        phone = Phone(self.browser, name, javascript=False)
        phone.join(self.urls[team])
        self.phones[name], self.team_of[name] = phone, team
        self.api[name] = ApiSession(phone, self.live_server.url, self.id)

    # --- the driver's transport ------------------------------------------------------------------
    def view(self, name: str) -> dict:
        if name == "host":
            return self.request.get(f"{self.base}/api/games/{self.id}", headers=self.auth).json()
        return self.api[name].view()

    def send(self, name: str, command: str, body: dict) -> None:
        if name == "host":
            answer = self.request.post(f"{self.base}/api/games/{self.id}/{command}", data=body, headers=self.auth)
            assert answer.ok, answer.text()
        else:
            self.api[name].post(command, **body)

    def who(self, seat: int) -> str:
        return next(p["name"] for t in TEAMS for p in self.view("host")["teams"][t]["players"] if p["seat"] == seat)

    # --- what the tests look at ----------------------------------------------------------------------
    def state(self, name: str):
        return self.phones[name].context.storage_state()

    def play_url(self) -> str:
        return f"{self.live_server.url}/play/{self.id}"

    def clues(self) -> dict[str, list[str]]:
        """Three clue words for each team transmitting, none of them near one of its keywords."""
        out = {}
        for team in self.view("host")["transmitting"]:
            keywords = [k.lower() for k in self.view(self.encryptor(team))["teams"][team]["keywords"]]
            fresh = [w for w in CLUE_WORDS if w not in self.used and not any(k in w or w in k for k in keywords)]
            self.used.update(fresh[:3])
            out[team] = fresh[:3]
        return out

    def close(self) -> None:
        for phone in self.phones.values():
            phone.close()
        self.request.dispose()


def outcomes(number: int, intercepts=(), misreads=()) -> dict[str, tuple[bool, bool]]:
    """(decrypted, intercepted) of each team's transmission in round `number`, from the (round, team)
    pairs of the teams that intercept and of those that misread."""
    return {team: ((number, team) not in misreads, (number, other(team)) in intercepts) for team in TEAMS}


# --- the tests ---------------------------------------------------------------------------------------------

WHITE = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra"]
BLACK = ["Linus Torvalds", "Margaret Hamilton", "Donald Knuth", "Barbara Liskov"]


def test_every_phone_page_of_a_standard_game_stays_under_the_budget(browser, playwright, live_server, hits):
    base, since = live_server.url, len(RESULTS)
    measure(browser, live_server, hits, "home", base + "/", "New game")
    game = Players(browser, playwright, live_server, "standard")
    for name in BLACK:
        game.join("black", name)
    for name in WHITE[:3]:
        game.join("white", name)
    measure(browser, live_server, hits, "join (7 seated)", game.urls["white"], "Already on White")
    game.join("white", WHITE[3])

    ada = game.state(WHITE[0])
    measure(
        browser,
        live_server,
        hits,
        "phone in the lobby (8 players)",
        game.play_url(),
        "Keep this page open",
        ada,
        change=lambda: game.command("host", "lock-joining", locked=True),
    )
    game.command("host", "start")

    # Seven rounds: White intercepts in round 3, Black misreads in round 5 and intercepts in round 6.
    intercepts, misreads = {(3, "white"), (6, "black"), (8, "white")}, {(5, "black")}
    for number in range(1, 8):
        game.round(**outcomes(number, intercepts, misreads), clues=game.clues())
    view = game.view("host")
    assert (view["phase"], view["round"]) == ("playing", 8), view["result"]

    # Round 8, seven rounds on the note sheets: the Encryptor writes; then a decoder and an interceptor.
    measure(
        browser,
        live_server,
        hits,
        "Encryptor writing clues, round 8",
        game.play_url(),
        "Tap to show your code",
        game.state(game.encryptor("white")),
    )
    game.round(**outcomes(8, intercepts, misreads), clues=game.clues(), stop_before="white")
    view = game.view("host")
    team = view["transmission"]
    first_clue = view["rounds"][-1]["transmissions"][team]["clues"][0]
    decoder, interceptor = game.guesser(team, team), game.guesser(other(team), team)
    assert game.api[decoder].view()["you"]["task"] == "decrypt"
    assert game.api[interceptor].view()["you"]["task"] == "intercept"
    measure(browser, live_server, hits, "decrypting, round 8", game.play_url(), first_clue, game.state(decoder))
    measure(browser, live_server, hits, "intercepting, round 8", game.play_url(), first_clue, game.state(interceptor))

    for team, outcome in outcomes(8, intercepts, misreads).items():
        game.transmission(team, *outcome)
    result = game.view("host")["result"]
    assert result["winners"] == ["white"], result
    measure(
        browser, live_server, hits, "game over, after 8 rounds", game.play_url(), "White wins!", game.state(decoder)
    )
    measure(
        browser,
        live_server,
        hits,
        "summary on a phone, 8 rounds",
        game.play_url() + "/summary",
        "Round by round",
        game.state(decoder),
    )
    game.close()
    assert_within_budget(since)


def test_the_three_player_interceptors_phone_stays_under_the_budget(browser, playwright, live_server, hits):
    since = len(RESULTS)
    game = Players(browser, playwright, live_server, "three_player")
    for team, name in (("white", "Annika Berg"), ("white", "Benedikt Ohm"), ("black", "Ivy Castellanos")):
        game.join(team, name)
    game.command("host", "start")
    for _ in range(1, 5):  # the team decrypts, the Interceptor misses
        game.round(clues=game.clues())
    game.announce("white", game.clues()["white"])
    view = game.view("host")
    assert (view["round"], view["max_rounds"]) == (5, 5)
    assert game.api["Ivy Castellanos"].view()["you"]["task"] == "intercept_alone"
    first_clue = view["rounds"][-1]["transmissions"]["white"]["clues"][0]
    measure(
        browser,
        live_server,
        hits,
        "3 players: Interceptor, round 5",
        game.play_url(),
        first_clue,
        game.state("Ivy Castellanos"),
    )
    game.close()
    assert_within_budget(since)


def assert_within_budget(since: int) -> None:
    heavy = [f"{r.page}: {r.total} bytes" for r in RESULTS[since:] if r.total >= BUDGET]
    assert not heavy, f"over the {BUDGET}-byte budget: {heavy}\n{table()}"
