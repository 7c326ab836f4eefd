"""The table screen keeps following the game while the host is in the middle of something, in real Chromium: a
careful button armed by one tap, a focused button or an open "Fix a mistake" panel never holds a region back.
An armed button stays armed through an update only where the same button comes back (the same command on the
same target, named the same way); gone or changed, it disarms, so the second tap never acts on something else.
The players act through the API; the table's clock is Playwright's, so an armed button waits for the test."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .browser import TABLE, freeze, shot
from .test_browser_awake import Host

pytestmark = pytest.mark.browser

ARMED = re.compile(r"\barmed\b")


def table_screen(browser, host: Host):
    """The table screen on its own browser, its clock stopped: time moves only when the test says."""
    table = browser.new_context(viewport=TABLE).new_page()
    table.clock.install()
    with table.expect_response(lambda response: response.url.endswith("/stream")):  # updates come by stream
        table.goto(host.urls["table"])
    freeze(table)
    return table


def seated(host: Host, names=(("white", "Ada"), ("white", "Alan"), ("black", "Grace"), ("black", "Linus"))):
    for team, name in names:
        host.join(team, name)


def test_the_lobby_follows_the_game_while_a_remove_button_is_armed(browser, playwright, live_server):
    host = Host(playwright, live_server.url)
    table = table_screen(browser, host)
    try:
        host.join("white", "Eve")
        white = table.locator(".lobby .team-white .roster")
        start = table.get_by_role("button", name="Start the game")
        expect(white).to_contain_text("Eve")
        white.get_by_role("button", name="Remove", exact=True).click()  # one tap: armed, and focused
        armed = white.get_by_role("button", name="Tap again to remove Eve")
        expect(armed).to_have_class(ARMED)
        expect(start).to_be_disabled()

        seated(host, (("white", "Frank"), ("black", "Grace"), ("black", "Linus")))
        expect(white).to_contain_text("Frank")  # the new players show
        expect(table.locator(".lobby .team-black .roster")).to_contain_text("Linus")
        expect(start).to_be_enabled()  # and Start follows them
        expect(armed).to_have_class(ARMED)  # Eve's button still asks
        expect(armed).to_be_focused()
        shot(table, "armed-remove-after-update-1280")

        table.clock.run_for(4000)  # and calms down by itself
        expect(white.get_by_role("button", name="Remove", exact=True).first).to_be_visible()
        expect(table.locator("button.armed")).to_have_count(0)
        expect(white).to_contain_text("Eve")  # nothing was removed
    finally:
        table.context.close()
        host.close()


def test_a_seat_link_card_goes_once_its_seat_moved_though_its_cancel_button_was_armed(browser, playwright, live_server):
    host = Host(playwright, live_server.url)
    seated(host)
    host.post("start")
    table = table_screen(browser, host)
    try:
        alan = next(p for p in host.view()["teams"]["white"]["players"] if p["name"] == "Alan")
        link = host.post("seat-link", seat=alan["seat"], name="Alan")["seat_link"]["token"]
        card = table.locator(".seat-link")
        expect(card).to_contain_text("A new seat link for Alan")
        card.get_by_role("button", name="Not needed: cancel this link").click()
        expect(card.get_by_role("button", name="Tap again to cancel Alan's link")).to_have_class(ARMED)
        shot(table, "armed-cancel-link-1280")

        host.post("claim-seat", link)  # Alan's new phone takes the seat: the link is spent
        expect(card).to_have_count(0)  # its card and QR code go at once
        expect(table.locator("button.armed")).to_have_count(0)
    finally:
        table.context.close()
        host.close()


def test_an_open_fix_a_mistake_panel_shows_current_options_and_an_armed_skip_never_skips_someone_else(
    browser, playwright, live_server
):
    host = Host(playwright, live_server.url)
    seated(host)
    host.post("start")
    table = table_screen(browser, host)
    try:
        panel = table.locator("details.host-tools")
        panel.locator("summary").click()  # open, and the focus on its summary
        skip_white = table.get_by_role("button", name=re.compile(r"stepped away: the next White player"))
        skip_black = table.get_by_role("button", name=re.compile(r"stepped away: the next Black player"))
        expect(skip_white).to_be_visible()
        expect(skip_black).to_be_visible()

        host.player("white", True).post("clues", clues=["whitex", "whitey", "whitez"])
        expect(skip_white).to_have_count(0)  # White announced: nobody to skip there any more
        expect(skip_black).to_be_visible()
        expect(panel).to_have_attribute("open", "")  # the panel the host opened stays open
        expect(panel.locator("summary")).to_be_focused()

        def black_encryptor() -> str:
            seat = host.view()["rounds"][-1]["transmissions"]["black"]["encryptor"]
            return next(p["name"] for p in host.view()["teams"]["black"]["players"] if p["seat"] == seat)

        first = black_encryptor()
        skip_black.click()  # one tap: armed, naming Black's Encryptor
        expect(table.get_by_role("button", name=f"Tap again to skip {first}")).to_have_class(ARMED)
        shot(table, "armed-skip-1280")
        host.post("skip-encryptor", team="black")  # meanwhile skipped from elsewhere: another target
        second = black_encryptor()
        assert second != first
        expect(skip_black).to_contain_text(f"{second} stepped away")
        expect(table.locator("button.armed")).to_have_count(0)  # so the next tap only arms it
        skip_black.click()
        expect(table.get_by_role("button", name=f"Tap again to skip {second}")).to_have_class(ARMED)
        assert black_encryptor() == second

        host.player("black", True).post("clues", clues=["blackx", "blacky", "blackz"])
        expect(skip_black).to_have_count(0)  # announced: gone, nothing armed
        expect(table.locator("button.armed")).to_have_count(0)
        expect(table.locator("#board")).to_contain_text("reads the clues")
    finally:
        table.context.close()
        host.close()
