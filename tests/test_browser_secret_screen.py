"""The secrets on a phone lying on the table, in real Chromium: the Encryptor's code shows only while it is
looked at (held down, or a few seconds after a tap, the label counting down) and "Cover my screen" blanks the
keywords; both are covered whenever the page is hidden. Time moves on Playwright's clock, never by sleeping."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .browser import Phone, freeze, shots
from .test_browser_corrections import Tabletop

pytestmark = pytest.mark.browser

TAP_TO_SHOW = "Tap to show your code (hide it from your neighbours)"


def hide_page(page, hidden: bool) -> None:
    """What the browser does when the phone is locked or another app comes up (and back)."""
    page.evaluate(
        """hidden => {
        Object.defineProperty(document, "hidden", {value: hidden, configurable: true});
        Object.defineProperty(document, "visibilityState", {value: hidden ? "hidden" : "visible", configurable: true});
        document.dispatchEvent(new Event("visibilitychange"));
    }""",
        hidden,
    )


def test_the_code_hides_by_itself_a_few_seconds_after_a_tap_wherever_the_focus_is(browser, live_server):
    game = Tabletop(browser, live_server, fake_clock=True)
    try:
        phone = game.phones[game.encryptor("white")]
        page = phone.page
        details, summary = page.locator("details.secret"), page.locator("details.secret summary")
        code, peek = page.locator(".your-code"), page.locator(".clue-form .peek")
        expect(summary).to_have_text(TAP_TO_SHOW, use_inner_text=True)
        expect(code).to_be_hidden()
        expect(peek).to_have_count(3)
        for label in peek.all():
            expect(label).to_be_hidden()  # the clue labels don't name the keywords either
        expect(page.get_by_label("Clue 1")).to_be_visible()  # yet the clues can be typed with the code hidden
        shots(page, "secret-code-hidden")

        form_top = page.locator(".clue-form").bounding_box()["y"]
        freeze(page)
        summary.click()
        expect(code).to_be_visible()
        expect(summary).to_have_text("Hiding in 5 s…", use_inner_text=True)
        assert page.locator(".clue-form").bounding_box()["y"] == form_top  # nothing jumps as it shows or hides
        expect(details).to_have_attribute("open", "")
        for label in peek.all():
            expect(label).to_be_visible()
        shots(page, "secret-code-shown")
        # The player types a clue: the focus sits in the form, and the code still hides on time.
        page.locator("#clue1").fill("tide")
        expect(page.locator("#clue1")).to_be_focused()
        page.clock.run_for(2000)
        expect(summary).to_have_text("Hiding in 3 s…", use_inner_text=True)
        expect(code).to_be_visible()
        page.clock.run_for(3000)
        expect(code).to_be_hidden()
        expect(summary).to_have_text(TAP_TO_SHOW, use_inner_text=True)
        for label in peek.all():
            expect(label).to_be_hidden()
        expect(page.locator("#clue1")).to_have_value("tide")

        # A second tap hides it at once; Enter on the summary shows it as a tap does.
        summary.click()
        expect(code).to_be_visible()
        summary.click()
        expect(code).to_be_hidden()
        summary.focus()
        page.keyboard.press("Enter")
        expect(summary).to_have_text("Hiding in 5 s…", use_inner_text=True)
        page.clock.run_for(5000)
        expect(code).to_be_hidden()

        # Held down, it shows as long as the finger stays, and hides when it lifts.
        box = summary.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        expect(code).to_be_visible()
        page.clock.run_for(30_000)
        expect(code).to_be_visible()
        expect(summary).to_have_text("Release to hide your code", use_inner_text=True)
        page.mouse.up()
        expect(code).to_be_hidden()
        expect(summary).to_have_text(TAP_TO_SHOW, use_inner_text=True)
    finally:
        game.close()


def test_the_code_hides_when_the_page_is_hidden_and_when_the_clues_are_announced(browser, live_server):
    game = Tabletop(browser, live_server, fake_clock=True)
    try:
        page = game.phones[game.encryptor("white")].page
        summary, code = page.locator("details.secret summary"), page.locator(".your-code")
        freeze(page)
        summary.click()
        expect(code).to_be_visible()
        hide_page(page, True)  # the phone is locked with the code on screen
        expect(code).to_be_hidden()
        hide_page(page, False)
        expect(code).to_be_hidden()  # and it comes back hidden (and covered)
        expect(page.locator("html")).to_have_class(re.compile(r"\bcovered\b"))
        page.get_by_role("button", name="Cover my screen").click()  # uncovered again

        # Announcing hides it at once, as the clues are sent (not once the page has heard back).
        summary.click()
        for i, clue in enumerate(("tide", "velvet", "lantern"), start=1):
            page.locator(f"#clue{i}").fill(clue)
        expect(code).to_be_visible()
        assert page.evaluate("""() => {
            document.querySelector(".clue-form").requestSubmit();
            return !document.querySelector("details.secret").open;
        }""")
        expect(page.locator("#task")).not_to_contain_text(TAP_TO_SHOW)
    finally:
        game.close()


def test_cover_my_screen_blanks_the_keywords_through_live_updates_and_when_the_page_is_hidden(browser, live_server):
    game = Tabletop(browser, live_server)
    try:
        teammate = game.phones[game.teammate("white")]
        page = teammate.page
        words = page.locator("#keywords .secret-word")
        sheet_words = page.locator("#sheets .secret-word")
        cover = page.get_by_role("button", name="Cover my screen")
        expect(words).to_have_count(4)
        expect(sheet_words).to_have_count(4)  # the note sheet's columns are headed by them too
        expect(cover).to_have_attribute("aria-pressed", "false")
        for word in words.all() + sheet_words.all():
            expect(word).to_be_visible()

        cover.click()
        expect(cover).to_have_attribute("aria-pressed", "true")
        for word in words.all() + sheet_words.all():
            expect(word).to_be_hidden()
        expect(page.locator("#keywords .when-covered")).to_be_visible()
        shots(page, "secret-covered")

        # A live update replaces the keywords' region (the swap offer goes once the clues are announced):
        # the fresh keywords come in covered.
        expect(page.locator("#swap-keyword")).to_have_count(1)
        game.announce("white")
        expect(page.locator("#swap-keyword")).to_have_count(0)
        expect(words).to_have_count(4)
        for word in words.all() + sheet_words.all():
            expect(word).to_be_hidden()
        expect(cover).to_have_attribute("aria-pressed", "true")

        cover.click()  # one tap uncovers
        expect(cover).to_have_attribute("aria-pressed", "false")
        for word in words.all():
            expect(word).to_be_visible()
        expect(page.locator("#keywords .when-covered")).to_be_hidden()

        # Locked or put away: covered by itself, and a page the phone discarded meanwhile loads covered.
        hide_page(page, True)
        assert page.evaluate("sessionStorage.getItem('decrypto-covered')") == "1"
        hide_page(page, False)
        expect(cover).to_have_attribute("aria-pressed", "true")
        for word in words.all():
            expect(word).to_be_hidden()
        # A reload of the player's own shows what they chose: uncovered here; covered once they cover it.
        page.reload()
        expect(cover).to_have_attribute("aria-pressed", "false")
        expect(words.first).to_be_visible()
        cover.click()
        page.reload()
        expect(cover).to_have_attribute("aria-pressed", "true")
        for word in words.all():
            expect(word).to_be_hidden()
    finally:
        game.close()


def test_without_javascript_the_code_is_a_panel_the_player_opens_and_closes(browser, live_server):
    game = Tabletop(browser, live_server)
    try:
        name = game.encryptor("black")
        code = game.code("black")
        plain = Phone(browser, name + " (no script)", javascript=False)
        plain.context.add_cookies(game.phones[name].context.cookies())
        page = plain.page
        page.goto(game.phones[name].page.url)
        summary = page.locator("details.secret summary")
        expect(summary).to_have_text(TAP_TO_SHOW, use_inner_text=True)
        expect(page.locator(".your-code")).to_be_hidden()
        expect(page.locator(".clue-form .peek").first).to_be_hidden()
        expect(page.locator("[data-cover]")).to_be_hidden()  # the cover needs the script: not offered
        summary.click()
        expect(page.locator(".your-code .digit")).to_have_text([str(d) for d in code])
        expect(summary).to_have_text("Tap to hide your code", use_inner_text=True)
        expect(page.locator(".clue-form .peek .digit")).to_have_text([str(d) for d in code])
        summary.click()
        expect(page.locator(".your-code")).to_be_hidden()
        plain.close()
    finally:
        game.close()


def test_a_covered_page_that_loads_again_still_hides_its_code_and_follows_the_game(browser, live_server):
    """Covered, then reloaded (or discarded while hidden and loaded again): the page's script runs whole, so
    the cover and sound switches are there, the code hides by itself, and live updates keep coming."""
    game = Tabletop(browser, live_server, timer=30, fake_clock=True)
    try:
        page = game.phones[game.encryptor("white")].page
        summary, code = page.locator("details.secret summary"), page.locator(".your-code")
        cover = page.get_by_role("button", name="Cover my screen")
        cover.click()
        page.reload()
        expect(cover).to_be_visible()
        expect(cover).to_have_attribute("aria-pressed", "true")
        expect(page.locator(".sound-switch")).to_be_visible()
        for word in page.locator("#keywords .secret-word").all():
            expect(word).to_be_hidden()
        freeze(page)
        summary.click()
        expect(code).to_be_visible()
        page.clock.run_for(5000)
        expect(code).to_be_hidden()
        shots(page, "secret-covered-reloaded")

        game.announce("black")  # a live update: the sand timer starts for White
        expect(page.locator(".sand-timer")).to_contain_text("Sand timer: you have")
        cover.click()
        for word in page.locator("#keywords .secret-word").all():
            expect(word).to_be_visible()
    finally:
        game.close()


def press(page, x: float, y: float, ms: int) -> None:
    """A finger on the screen for `ms` (on the page's clock), through Chromium's own touch input."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.clock.run_for(ms)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_touch_tap_shows_the_code_for_five_seconds_wherever_the_finger_lifts(browser, live_server):
    """The box shrinks as the code shows, so a finger that lands low on it lifts over the code: that is still a
    tap (5 s, then hidden by itself); a finger held down shows it until it lifts."""
    game = Tabletop(browser, live_server, fake_clock=True)
    try:
        page = game.phones[game.encryptor("white")].page
        summary, code = page.locator("details.secret summary"), page.locator(".your-code")
        freeze(page)
        box = summary.bounding_box()
        for height in (0.5, 0.75):
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * height
            for tap in (lambda x=x, y=y: page.touchscreen.tap(x, y), lambda x=x, y=y: press(page, x, y, 90)):
                tap()
                expect(code).to_be_visible()
                expect(summary).to_have_text("Hiding in 5 s…", use_inner_text=True)
                page.clock.run_for(4900)
                expect(code).to_be_visible()
                page.clock.run_for(200)
                expect(code).to_be_hidden()
                expect(summary).to_have_text(TAP_TO_SHOW, use_inner_text=True)
                page.clock.run_for(30_000)
                expect(code).to_be_hidden()

        # A second tap, wherever it lifts, hides it at once.
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.75
        page.touchscreen.tap(x, y)
        expect(code).to_be_visible()
        page.touchscreen.tap(x, box["y"] + 10)
        expect(code).to_be_hidden()

        # Held: shown while the finger stays, hidden as it lifts.
        cdp = page.context.new_cdp_session(page)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        page.clock.run_for(30_000)
        expect(code).to_be_visible()
        expect(summary).to_have_text("Release to hide your code", use_inner_text=True)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        expect(code).to_be_hidden()
    finally:
        game.close()
