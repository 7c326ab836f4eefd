"""Phones stay awake during a game, and call their player when it's their turn (real Chromium).

What the browser would do is recorded by scripts that run before the page's own: `navigator.wakeLock`
removed (a plain-http LAN address has none) or replaced by a recorder, the page's visibility under the
test's control, and `navigator.vibrate` and Web Audio's oscillators counted.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect
from tools.driver import wrong

from .browser import PHONE, TABLE, ApiSession, Phone, shot, shots

pytestmark = pytest.mark.browser

# The page's visibility, switched by the test: `__setHidden(true)` is the phone put away.
VISIBILITY = """
(() => {
  let hidden = false;
  Object.defineProperty(Document.prototype, "hidden", {configurable: true, get: () => hidden});
  Object.defineProperty(Document.prototype, "visibilityState", {configurable: true,
                                                               get: () => hidden ? "hidden" : "visible"});
  window.__setHidden = (value) => { hidden = value; document.dispatchEvent(new Event("visibilitychange")); };
})();
"""
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"
# A Wake Lock that records what the page asks of it, and lets go when the page is hidden, as browsers do.
WAKE_LOCK = """
(() => {
  const log = window.__wakeLock = {requests: 0, releases: 0, held: 0}, lapses = [];
  // before the page hears of it (a listener on the way down to the document)
  window.addEventListener("visibilitychange", () => { if (document.hidden) lapses.forEach((f) => f()); }, true);
  const wakeLock = {request(type) {
    log.requests++;
    const sentinel = new EventTarget();
    sentinel.type = type;
    sentinel.released = false;
    const lapse = () => {
      if (sentinel.released) return;
      sentinel.released = true;
      log.held--;
      sentinel.dispatchEvent(new Event("release"));
    };
    sentinel.release = () => { if (!sentinel.released) log.releases++; lapse(); return Promise.resolve(); };
    lapses.push(lapse);
    log.held++;
    return Promise.resolve(sentinel);
  }};
  Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true, get: () => wakeLock});
})();
"""
# Each cue: one vibration and two notes.
CUES = """
(() => {
  const cues = window.__cues = {vibrations: 0, notes: 0};
  Navigator.prototype.vibrate = function () { cues.vibrations++; return true; };
  const createOscillator = BaseAudioContext.prototype.createOscillator;
  BaseAudioContext.prototype.createOscillator = function () {
    const oscillator = createOscillator.call(this);
    const start = oscillator.start;
    oscillator.start = function (...args) { cues.notes++; return start.apply(this, args); };
    return oscillator;
  };
})();
"""
PLAYING = """() => { const v = document.querySelector("video.awake");
  return !!v && !v.paused && v.muted && v.loop && v.playsInline && v.currentTime > 0; }"""
PAUSED = """() => { const v = document.querySelector("video.awake"); return !!v && v.paused; }"""


class Host:
    """The table's side through the JSON API, and how each player acts (a phone's cookie, or a bearer token)."""

    def __init__(self, playwright, base: str, **settings):
        self.request, self.base = playwright.request.new_context(), base
        created = self.request.post(f"{base}/api/games", data=settings)
        assert created.ok, created.text()
        created = created.json()
        self.id, self.tokens, self.urls = created["game_id"], created["tokens"], created["urls"]
        self.players: dict[str, ApiSession | Seat] = {}

    def post(self, command: str, token: str | None = None, **body) -> dict:
        answer = self.request.post(
            f"{self.base}/api/games/{self.id}/{command}",
            data=body,
            headers={"Authorization": f"Bearer {token or self.tokens['host']}"},
        )
        assert answer.ok, answer.text()
        return answer.json()

    def view(self, token: str | None = None) -> dict:
        return self.request.get(
            f"{self.base}/api/games/{self.id}", headers={"Authorization": f"Bearer {token or self.tokens['host']}"}
        ).json()

    def join(self, team: str, name: str) -> None:
        """A player without a browser: seated through the API."""
        self.players[name] = Seat(self, self.post("join", self.tokens[team], name=name)["token"])

    def seat(self, phone: Phone) -> None:
        """A player on a phone, seated by its join link: acts through the API with the phone's cookie."""
        self.players[phone.name] = ApiSession(phone, self.base, self.id)

    def player(self, team: str, encryptor: bool):
        """This round's Encryptor of `team`, or a teammate of theirs."""
        players = self.view()["teams"][team]["players"]
        return next(self.players[p["name"]] for p in players if p["encryptor"] == encryptor)

    def announce(self) -> None:
        number = self.view()["round"]
        for team in ("white", "black"):
            self.player(team, True).post("clues", clues=[f"{team}{number}{c}" for c in "xyz"])

    def misread_round(self) -> None:
        """A round in which White misreads its own Encryptor and Black decrypts (no interception)."""
        self.announce()
        for team in ("white", "black"):
            code = self.player(team, True).view()["you"]["code"]
            if self.view()["round"] > 1:
                other = "black" if team == "white" else "white"
                self.player(other, False).post("guess", code=wrong(code), confirm=True)
            self.player(team, False).post("guess", code=wrong(code) if team == "white" else code, confirm=True)

    def close(self) -> None:
        self.request.dispose()


class Seat:
    """A player's own API calls with their seat's bearer token."""

    def __init__(self, host: Host, token: str):
        self.host, self.token = host, token

    def post(self, command: str, **body) -> dict:
        return self.host.post(command, self.token, **body)

    def view(self) -> dict:
        return self.host.view(self.token)


def phone_with(browser, name: str, *scripts: str) -> Phone:
    phone = Phone(browser, name)
    for script in scripts:
        phone.context.add_init_script(script)
    return phone


def awake_files(phone: Phone) -> list:
    """Every answer for a /static/awake.* file this phone received so far."""
    return [response for response in phone.responses if "/static/awake." in response.url]


def seated(browser, host: Host, *scripts: str) -> Phone:
    """Ada on White, on a phone of her own, and three players who act through the API."""
    phone = phone_with(browser, "Ada", *scripts)
    phone.responses = []
    # A lambda, not the list's bound method: Playwright marks its handler with an attribute (a builtin takes none).
    phone.page.on("response", lambda response: phone.responses.append(response))  # noqa: PLW0108
    phone.join(host.urls["white"])
    host.seat(phone)
    host.join("white", "Alan")
    host.join("black", "Grace")
    host.join("black", "Linus")
    phone.page.evaluate("window.__samePage = true")  # gone if the page ever reloads
    return phone


def in_game(phone: Phone) -> None:
    expect(phone.page.locator("body")).to_have_class(re.compile(r"\bin-game\b"))


def game_over(phone: Phone) -> None:
    expect(phone.page.locator("#task")).to_have_attribute("data-task", "game_over", timeout=10_000)
    expect(phone.page.locator("body")).not_to_have_class(re.compile(r"\bin-game\b"))
    assert phone.page.evaluate("window.__samePage") is True, "the page reloaded"


def test_without_a_wake_lock_a_muted_looping_video_keeps_the_phone_awake(browser, playwright, live_server):
    host = Host(playwright, live_server.url)
    phone = seated(browser, host, VISIBILITY, NO_WAKE_LOCK)
    page = phone.page
    assert page.evaluate("'wakeLock' in navigator") is False

    host.post("start")
    in_game(phone)
    # Nothing is loaded before the player's first tap, and nothing plays.
    assert page.locator("video").count() == 0 and not awake_files(phone)

    page.locator(".topbar .who").tap()
    page.wait_for_function(PLAYING, timeout=10_000)
    files = awake_files(phone)
    assert {urlsplit(r.url).path for r in files} == {"/static/awake.webm"}, files
    assert {r.headers["cache-control"] for r in files} == {"public, max-age=31536000, immutable"}
    video = page.locator("video.awake")
    assert video.get_attribute("aria-hidden") == "true" and video.get_attribute("playsinline") is not None
    # Chrome keeps the screen on for a muted video only while it fills enough of the screen.
    box = video.bounding_box()
    assert box["width"] * box["height"] >= 0.9 * page.viewport_size["width"] * page.viewport_size["height"]

    page.evaluate("__setHidden(true)")  # the phone put away: let it sleep
    page.wait_for_function(PAUSED)
    page.evaluate("__setHidden(false)")  # and taken out again
    page.wait_for_function(PLAYING, timeout=10_000)

    host.misread_round()
    host.misread_round()  # White misread twice: Black wins
    game_over(phone)
    page.wait_for_function(PAUSED)
    assert page.locator("video").count() == 1
    assert {urlsplit(r.url).path for r in awake_files(phone)} == {"/static/awake.webm"}

    host.post("rematch")  # back to the lobby, then a new game on the same page:
    host.post("start")  # no tap needed
    in_game(phone)
    page.wait_for_function(PLAYING, timeout=10_000)
    assert page.locator("video").count() == 1  # the same video again
    phone.close()
    host.close()


def test_the_wake_lock_is_held_from_the_start_to_the_end_of_the_game(browser, playwright, live_server):
    host = Host(playwright, live_server.url)
    phone = seated(browser, host, VISIBILITY, WAKE_LOCK)
    page = phone.page

    def lock():
        return page.evaluate("({...window.__wakeLock})")

    assert lock() == {"requests": 0, "releases": 0, "held": 0}  # not in the lobby
    host.post("start")
    in_game(phone)
    page.wait_for_function("() => window.__wakeLock.held === 1")
    assert lock() == {"requests": 1, "releases": 0, "held": 1}  # without a tap

    page.evaluate("__setHidden(true)")  # the browser lets go of it
    assert lock()["held"] == 0
    page.evaluate("__setHidden(false)")  # asked for again
    page.wait_for_function("() => window.__wakeLock.held === 1")
    assert lock() == {"requests": 2, "releases": 0, "held": 1}

    host.misread_round()
    host.misread_round()
    game_over(phone)
    page.wait_for_function("() => window.__wakeLock.held === 0")
    assert lock() == {"requests": 2, "releases": 1, "held": 0}
    host.post("rematch")
    host.post("start")
    in_game(phone)
    page.wait_for_function("() => window.__wakeLock.held === 1")
    assert lock() == {"requests": 3, "releases": 1, "held": 1}
    assert page.locator("video").count() == 0 and not awake_files(phone)
    assert page.evaluate("window.__samePage") is True
    phone.close()
    host.close()


def cues(page) -> dict:
    return page.evaluate("({...window.__cues})")


def test_a_phone_calls_its_player_when_their_turn_comes_and_the_table_only_if_asked(browser, playwright, live_server):
    host = Host(playwright, live_server.url)
    table_context = browser.new_context(viewport=TABLE)
    table_context.add_init_script(CUES)
    table = table_context.new_page()
    table.goto(host.urls["table"])
    phones = {}
    for team, name in (("white", "Ada"), ("white", "Alan"), ("black", "Grace"), ("black", "Linus")):
        phones[name] = phone_with(browser, name, CUES)
        phones[name].join(host.urls[team])
        host.seat(phones[name])
        expect(table.locator(f".team-{team} .roster")).to_contain_text(name)
    for phone in phones.values():
        phone.page.locator(".topbar .who").tap()  # a player's first tap lets the page play sound
        assert phone.page.get_by_role("switch", name="Sound and vibration when it's your turn").is_checked()
        assert cues(phone.page) == {"vibrations": 0, "notes": 0}
    table_switch = table.get_by_role("switch", name="Play a sound at each new step of the game")
    assert not table_switch.is_checked()  # the table screen is silent unless asked
    plain = browser.new_context(
        viewport=PHONE, java_script_enabled=False, storage_state=phones["Ada"].context.storage_state()
    )
    no_script = plain.new_page()
    no_script.goto(phones["Ada"].page.url)
    expect(no_script.locator(".topbar .who")).to_contain_text("Ada")
    expect(no_script.locator(".sound-switch")).to_be_hidden()  # it needs the script
    plain.close()

    def task(name: str) -> str:
        return host.players[name].view()["you"]["task"]

    def shows(name: str, task_name: str) -> None:
        expect(phones[name].page.locator("#task")).to_have_attribute("data-task", task_name)

    def called(name: str, times: int) -> None:
        assert cues(phones[name].page) == {"vibrations": times, "notes": 2 * times}, name

    table.get_by_role("button", name="Start the game").click()
    expect(table.locator(".round-title")).to_contain_text("Round 1")
    encryptors = {
        team: next(n for n in phones if host.players[n] is host.player(team, True)) for team in ("white", "black")
    }
    guessers = {
        team: next(n for n in phones if host.players[n] is host.player(team, False)) for team in ("white", "black")
    }
    # Round 1 begins: each Encryptor's phone calls, once; the others wait, silently.
    for name in phones:
        shows(name, task(name))
    for team in ("white", "black"):
        assert task(encryptors[team]) == "write_clues" and task(guessers[team]) == "wait_for_clues"
        called(encryptors[team], 1)
        called(guessers[team], 0)
    assert cues(table) == {"vibrations": 0, "notes": 0}
    shots(phones[encryptors["white"]].page, "awake-phone-sound-switch")
    shot(table, "awake-table-sound-switch-1280")

    # Black's guesser mutes this phone (remembered there, across a reload); the host turns the table's on.
    muted = phones[guessers["black"]].page
    muted.get_by_role("switch").uncheck()
    muted.reload()
    expect(muted.get_by_role("switch")).not_to_be_checked()
    muted.locator(".topbar .who").tap()
    table_switch.check()
    table.reload()
    expect(table_switch).to_be_checked()

    host.announce()
    # White's transmission opens: White's guesser decrypts (a call), Black listens (no call in round 1).
    shows(guessers["white"], "decrypt")
    called(guessers["white"], 1)
    shows(encryptors["white"], "encryptor_waits")
    shows(guessers["black"], "no_interception_yet")
    expect(table.locator(".big-clues")).to_contain_text("white1x")
    assert cues(table) == {"vibrations": 1, "notes": 2}

    # A draft saved for the team changes that phone's task card, but it is the same task: no new call.
    code = host.player("white", True).view()["you"]["code"]
    host.player("white", False).post("guess", code=wrong(code), confirm=False)
    expect(phones[guessers["white"]].page.locator("#task")).to_contain_text("Saved for your team")
    called(guessers["white"], 1)
    host.player("white", False).post("guess", code=code, confirm=True)
    # Black's transmission: its guesser's phone is muted.
    shows(guessers["black"], "decrypt")
    assert cues(muted) == {"vibrations": 0, "notes": 0}
    expect(table.locator(".big-clues")).to_contain_text("black1x")
    assert cues(table) == {"vibrations": 2, "notes": 4}
    for team in ("white", "black"):
        called(encryptors[team], 1)
    called(guessers["white"], 1)
    for phone in phones.values():
        phone.close()
    table_context.close()
    host.close()


def test_the_late_encryptors_phone_calls_when_the_sand_timer_runs_out(browser, playwright, live_server):
    host = Host(playwright, live_server.url, timer=10)
    table_context = browser.new_context(viewport=TABLE)
    table_context.add_init_script(CUES)
    table = table_context.new_page()
    table.goto(host.urls["table"])
    table.get_by_role("switch").check()  # the host wants the table's sounds
    phones = {}
    for name in ("Ada", "Alan"):
        phones[name] = phone_with(browser, name, CUES)
        phones[name].join(host.urls["white"])
        host.seat(phones[name])
        phones[name].page.locator(".topbar .who").tap()
    host.join("black", "Grace")
    host.join("black", "Linus")
    host.post("start")
    late = next(name for name in phones if host.players[name] is host.player("white", True))
    teammate = next(name for name in phones if name != late)
    expect(phones[late].page.locator("#task")).to_have_attribute("data-task", "write_clues")
    assert cues(phones[late].page) == {"vibrations": 1, "notes": 2}  # the round begins
    expect(table.locator(".round-title")).to_contain_text("Round 1")
    assert cues(table) == {"vibrations": 1, "notes": 2}

    host.player("black", True).post("clues", clues=["ripple", "fin", "spire"])
    expect(phones[late].page.locator(".sand-timer")).to_contain_text("Sand timer: you have")
    expect(phones[teammate].page.locator(".sand-timer")).to_contain_text("Sand timer for your Encryptor")
    expect(phones[late].page.locator(".sand-timer")).to_contain_text(
        "Time is up! Announce your clues now.", timeout=25_000
    )
    assert cues(phones[late].page) == {"vibrations": 2, "notes": 4}
    expect(phones[teammate].page.locator(".sand-timer")).to_contain_text("Time is up for White's Encryptor.")
    assert cues(phones[teammate].page) == {"vibrations": 0, "notes": 0}
    expect(table.locator(".sand-timer")).to_contain_text("Time is up for White's Encryptor.")
    assert cues(table) == {"vibrations": 2, "notes": 4}
    for phone in phones.values():
        phone.close()
    table_context.close()
    host.close()


MUTED = "localStorage.setItem('decrypto-sound-phone', 'off');"  # muted on this phone earlier
ASKS = {
    "awake and sound": "Tap here to keep this screen awake and hear your turn",
    "awake": "Tap here to keep this screen awake",
    "sound": "Tap here to hear your turn",
}


@pytest.mark.parametrize(
    "case,scripts,tapped_in_lobby,asks",
    [
        ("no-wake-lock", (NO_WAKE_LOCK,), False, ASKS["awake and sound"]),
        ("no-wake-lock-muted", (NO_WAKE_LOCK, MUTED), False, ASKS["awake"]),
        ("wake-lock", (WAKE_LOCK,), False, ASKS["sound"]),
        ("wake-lock-muted", (WAKE_LOCK, MUTED), False, None),
        ("no-wake-lock-tapped", (NO_WAKE_LOCK,), True, None),
        ("wake-lock-tapped", (WAKE_LOCK,), True, None),
    ],
)
def test_a_phone_asks_for_its_first_tap_when_the_game_starts_only_where_it_needs_one(
    browser, playwright, live_server, case, scripts, tapped_in_lobby, asks
):
    """Without the Wake Lock (plain http) the phone stays awake only after a tap, and no phone sounds its cue
    before one: when the game starts, a card across the phone asks for that tap, saying what for, and the
    first tap takes it away. A phone that needs nothing (a Wake Lock and no sound, or a tap already) shows none."""
    host = Host(playwright, live_server.url)
    phone = seated(browser, host, VISIBILITY, *scripts)
    page = phone.page
    card = page.locator(".tap-card")
    if tapped_in_lobby:
        page.locator(".topbar .who").tap()
    expect(card).to_be_hidden()  # not in the lobby
    host.post("start")
    in_game(phone)
    if asks is None:
        expect(page.locator("#task")).to_have_attribute("data-task", re.compile("write_clues|wait_for_clues"))
        expect(card).to_be_hidden()
    else:
        expect(card).to_have_text(asks)
        for size, label in ((PHONE, "390"), ({"width": 320, "height": 640}, "320")):
            page.set_viewport_size(size)
            box, main = card.bounding_box(), page.locator("main").bounding_box()
            assert box["y"] + box["height"] <= size["height"], f"below the fold at {label}: {box}"
            assert box["width"] >= main["width"] - 2 * 16, f"not across the phone at {label}: {box} in {main}"
            shot(page, f"awake-tap-card-{case}-{label}")
        page.set_viewport_size(PHONE)
        card.tap()
        expect(card).to_be_hidden()
        if NO_WAKE_LOCK in scripts:
            page.wait_for_function(PLAYING, timeout=10_000)  # the tap did what it asked for
    host.misread_round()
    expect(page.locator(".round .round, .topbar .round")).to_contain_text("Round 2")
    expect(card).to_be_hidden()  # asked once
    phone.close()
    host.close()
