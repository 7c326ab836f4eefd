"""The table screen pauses the sand timer (the doorbell, the pizza), in real Chromium, on fake clocks: every
phone shows it paused with its time left, frozen, and it goes on from that time once the table resumes it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .browser import TABLE, TABLE_SIZES, shots
from .test_browser_corrections import Tabletop

pytestmark = pytest.mark.browser

PHONES = {"390": {"width": 390, "height": 844}, "320": {"width": 320, "height": 568}}
TABLES = {"1280": TABLE, "1024": TABLE_SIZES["1024"]}


def box(locator) -> tuple[float, float, float, float]:
    found = locator.bounding_box()
    assert found is not None
    return found["x"], found["y"], found["width"], found["height"]


def test_the_table_pauses_the_sand_timer_and_every_phone_waits_with_it(browser, live_server):
    service = live_server.server.app.extensions["games"]
    now = [1_700_000_000.0]
    service.clock = lambda: now[0]  # the server's clock, which the test moves with the browsers' clocks
    game = Tabletop(browser, live_server, timer=30, fake_clock=True)
    table, phones = game.table, game.phones
    early, late, teammate = phones["Ada"], phones["Grace"], phones["Linus"]  # round 1's Encryptors: Ada, Grace
    screens = (table, early.page, late.page, teammate.page)
    expect(table.get_by_role("button", name="Pause")).to_have_count(0)  # no timer yet, nothing to pause

    early.reveal_code()
    early.announce(["orbit", "evergreen", "fortress"])
    for page in screens:
        expect(page.locator(".sand-timer [data-clock]")).to_have_text("0:30")
    now[0] += 12
    for page in screens:
        page.clock.run_for(12_000)
        expect(page.locator(".sand-timer [data-clock]")).to_have_text("0:18")

    # The doorbell: the table pauses. Pause gives its place to Resume, and nothing else of the round moves (the
    # table log below gets its line, as with every correction).
    pause = table.get_by_role("button", name="Pause")
    stage, hint = table.locator(".stage"), table.locator(".stage > .hint")
    slot, stage_at, hint_at = box(pause), box(stage), box(hint)
    pause.click()
    resume = table.get_by_role("button", name="Resume")
    expect(resume).to_be_visible()
    assert (box(resume), box(stage), box(hint)) == (slot, stage_at, hint_at)
    expect(table.locator(".sand-timer")).to_contain_text("Sand timer for Black's Encryptor, paused:")
    expect(late.page.locator(".sand-timer")).to_contain_text("Sand timer paused: you still have")
    expect(teammate.page.locator(".sand-timer")).to_contain_text("Sand timer for your Encryptor, paused:")
    expect(early.page.locator(".sand-timer")).to_contain_text("Sand timer for Black's Encryptor, paused:")
    for phone in (early, late, teammate):
        expect(phone.page.get_by_role("button", name="Pause")).to_have_count(0)  # phones only show it
        expect(phone.page.get_by_role("button", name="Resume")).to_have_count(0)

    # A minute at the door, on the server and in every browser: the time left stands still everywhere.
    now[0] += 60
    for page in screens:
        page.clock.run_for(60_000)
        expect(page.locator(".sand-timer.paused .clock")).to_have_text("0:18")
        expect(page.locator(".sand-timer")).not_to_contain_text("Time is up")
    for page in (table, late.page):
        expect(page.locator(".notices")).to_contain_text("The table paused the sand timer: 0:18 left.")
    late.page.reload()  # a fresh page says the same before any script runs
    expect(late.page.locator(".sand-timer.paused .clock")).to_have_text("0:18")
    for phone in (late, teammate):  # the phone's first tap, which it asks for to sound its cue
        phone.page.locator("[data-tap-card]").click()
        expect(phone.page.locator("[data-tap-card]")).to_be_hidden()
    shots(table, "60-table-timer-paused", TABLES)
    shots(late.page, "60-phone-timer-paused", PHONES)
    shots(teammate.page, "60-phone-timer-paused-teammate", PHONES)

    # Back at the table: Resume, and every countdown goes on from 0:18, not from 0:30.
    resume.click()
    expect(table.get_by_role("button", name="Pause")).to_be_visible()
    assert (box(table.get_by_role("button", name="Pause")), box(stage), box(hint)) == (slot, stage_at, hint_at)
    for page in screens:
        expect(page.locator(".sand-timer [data-clock]")).to_have_text("0:18")
    expect(late.page.locator(".sand-timer")).to_contain_text("Sand timer: you have")
    expect(late.page.locator(".notices")).to_contain_text("The table resumed the sand timer: 0:18 left.")
    now[0] += 5
    for page in screens:
        page.clock.run_for(5_000)
        expect(page.locator(".sand-timer [data-clock]")).to_have_text("0:13")
    shots(late.page, "60-phone-timer-resumed", {"390": PHONES["390"]})

    # It runs out 18 seconds after the resume: the table's Pause leaves its place empty, nothing to pause.
    for page in screens:
        page.clock.run_for(13_000)
    expect(late.page.locator(".sand-timer")).to_have_text("Time is up! Announce your clues now.")
    expect(table.locator(".sand-timer")).to_have_text("Time is up for Black's Encryptor.")
    spent = table.locator(".timer-control button").filter(has_text="Pause")  # (hidden: not found by its role)
    expect(spent).to_be_disabled()
    expect(spent).to_be_hidden()
    assert box(spent)[2:] == slot[2:]  # its place is kept, empty
    shots(table, "60-table-time-is-up-after-pause", {"1280": TABLE})
    game.close()
