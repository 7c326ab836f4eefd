"""Helpers for driving the app in real Chromium: a table screen and phones, as people would."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import zxingcpp
from PIL import Image
from playwright.sync_api import Page, expect

PHONE = {"width": 390, "height": 844}
TABLE = {"width": 1280, "height": 800}
# The screens every page is looked at on: two phones, three table screens (labels name the screenshots).
PHONE_SIZES = {"390": PHONE, "320": {"width": 320, "height": 700}}
TABLE_SIZES = {"1280": TABLE, "1024": {"width": 1024, "height": 768}, "1920": {"width": 1920, "height": 1080}}
SHOTS = Path(os.environ.get("SCREENSHOT_DIR", Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"))


def shot(page: Page, name: str) -> None:
    """Keep a full-page screenshot to look at (artifacts/screenshots/), after checking nothing overflows."""
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{name}: the page is {overflow}px wider than the screen"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True, animations="disabled")


def shots(page: Page, name: str, sizes: dict = PHONE_SIZES, locator=None) -> None:
    """A `shot` at each of `sizes` (`name`-label.png), scrolled to `locator` if given; the page is left at the
    first size. One scene, several screens: the scene is played once."""
    for label, size in sizes.items():
        page.set_viewport_size(size)
        if locator is not None:
            locator.scroll_into_view_if_needed()
        shot(page, f"{name}-{label}")
    page.set_viewport_size(next(iter(sizes.values())))


def freeze(page: Page) -> None:
    """Stop the page's clock (`page.clock.install()` first) a second ahead of its own now: time then moves only
    when the test says (`clock.run_for`). Playwright for Python takes Unix time in seconds, where the page's
    `Date.now()` counts milliseconds: given those, it jumped 56,000 years ahead, and every timer of the page
    fired at once, the stream's 10-second "never spoke" timer among them when its first message was late."""
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)


# Run in a page: its updates stop getting through (its stream's messages say nothing, its fetches of itself
# fail) until its player's tap goes through (a POST), as on a phone whose network dropped for a moment.
UPDATES_LOST_UNTIL_A_TAP = """(() => {
    const real = window.fetch; let behind = true;
    const data = Object.getOwnPropertyDescriptor(MessageEvent.prototype, "data");
    Object.defineProperty(MessageEvent.prototype, "data", {configurable: true, get() {
      if (!behind) return data.get.call(this);
      return JSON.stringify({etag: null, body: '<body class="' + document.body.className + '"></body>'});
    }});
    window.fetch = function (url, init) {
      if (init && init.method === "POST") behind = false;
      return behind ? Promise.reject(new TypeError("lost")) : real.call(window, url, init);
    };
})()"""


def path_of(url: str) -> str:
    """A page's request address without its scheme and host, as the tests' logs and checks name it."""
    return re.sub(r"^https?://[^/]+", "", url)


def refused(status: int | str, path: str = r"\S+") -> str:
    """The console error a browser logs for an answer with this status (a number, or a pattern) at an address
    ending with `path`, for a test that causes that refusal to allow it (conftest.py: page_errors.allow)."""
    return rf"{path}: Failed to load resource: the server responded with a status of {status}\b"


def read_qr(page: Page, selector: str) -> str:
    """Decode the QR code drawn in `selector` from a real screenshot of it."""
    png = page.locator(selector).screenshot()
    image = Image.open(io.BytesIO(png)).convert("RGB")  # flattened onto white by the page
    results = zxingcpp.read_barcodes(image)
    assert results, f"no QR code could be read in {selector}"
    return results[0].text


class Phone:
    def __init__(self, browser, name: str, javascript: bool = True):
        self.name = name
        self.javascript = javascript
        self.context = browser.new_context(
            viewport=PHONE, java_script_enabled=javascript, is_mobile=True, has_touch=True
        )
        self.page = self.context.new_page()
        # Its requests the server may still be handling (a stream stays open: not counted), for `sleep`.
        self.in_flight: set = set()

        def sent(request):
            if request.resource_type != "eventsource":
                self.in_flight.add(request)

        def over(request):
            self.in_flight.discard(request)

        self.context.on("request", sent)
        self.context.on("requestfinished", over)
        self.context.on("requestfailed", over)

    def sleep(self) -> None:
        """The phone goes to sleep: from now on none of its requests reaches the server (a fetch it was still
        making is answered first), and its page is closed. `wake` brings it back."""
        self.context.set_offline(True)
        while self.in_flight:
            self.page.wait_for_timeout(20)  # lets Playwright deliver the answers' events
        self.page.close()

    def wake(self, url: str):
        """The phone opens `url` again: a new page of the same browser (its cookies, its seat)."""
        self.context.set_offline(False)
        self.page = self.context.new_page()
        self.page.goto(url)
        return self.page

    def join(self, url: str) -> None:
        self.page.goto(url)
        self.page.get_by_label("Your name").fill(self.name)
        self.page.get_by_role("button", name="Take my seat").click()
        expect(self.page.locator(".topbar .who")).to_contain_text(self.name)

    def see(self, text: str, timeout: float = 5000) -> None:
        """Wait until the phone shows `text`; a phone without JavaScript reloads, as its player would."""
        if self.javascript:
            expect(self.page.locator("main")).to_contain_text(text, timeout=timeout)
        else:
            self.page.reload()
            expect(self.page.locator("main")).to_contain_text(text, timeout=1)

    def task(self) -> str:
        if not self.javascript:
            self.page.reload()
        return self.page.locator("#task-line").inner_text()

    def is_encryptor(self) -> bool:
        return self.page.locator("details.secret").count() > 0

    def reveal_code(self) -> list[int]:
        self.page.locator("details.secret summary").click()
        digits = self.page.locator(".your-code .digit").all_inner_texts()
        return [int(d) for d in digits]

    def announce(self, clues: list[str]) -> None:
        for i, clue in enumerate(clues, start=1):
            self.page.locator(f"#clue{i}").fill(clue)
        self.page.get_by_role("button", name="Announce these clues").click()

    def guess(self, code: list[int], seal: bool = True) -> None:
        for i, digit in enumerate(code, start=1):
            self.page.locator(f'input[name="code{i}"][value="{digit}"] + span').click()
        self.page.get_by_role("button", name="Seal our guess" if seal else "Save for my team").click()

    def close(self) -> None:
        self.context.close()


def text_of(page: Page, selector: str) -> str:
    return re.sub(r"\s+", " ", page.locator(selector).inner_text())


class ApiSession:
    """A phone's own JSON API calls (its cookie and CSRF token), to fast-forward rounds in a test."""

    def __init__(self, phone: Phone, base_url: str, game_id: str):
        self.phone, self.base = phone, f"{base_url}/api/games/{game_id}"

    def _csrf(self) -> str:
        return self.phone.page.locator('meta[name="csrf-token"]').get_attribute("content")

    def view(self) -> dict:
        return self.phone.context.request.get(self.base).json()

    def post(self, command: str, **body) -> dict:
        answer = self.phone.context.request.post(
            f"{self.base}/{command}", data=body, headers={"X-CSRFToken": self._csrf()}
        )
        assert answer.ok, answer.json()
        return answer.json()
