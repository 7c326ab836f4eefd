"""The phone read during a round, in real Chromium at 390×844 and 320×640: what the player needs for the task
at hand is in view or one tap away. Intercepting, that is this round's clues and the other team's sheet (the
clues it gave so far, filed under its keyword numbers): a link beside the clues, and the sheet right after the
task, before the reveal, the keywords and the tokens."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tools.driver import wrong

from .browser import PHONE, SHOTS, shot
from .test_browser_awake import Host, seated

pytestmark = pytest.mark.browser

SIZES = {"390": PHONE, "320": {"width": 320, "height": 640}}


def test_an_interceptor_has_this_rounds_clues_in_view_and_the_other_teams_sheet_one_tap_away(
    browser, playwright, live_server
):
    host = Host(playwright, live_server.url)
    phone = seated(browser, host)  # Ada, White's Encryptor in round 1, on her phone
    page = phone.page
    host.post("start")
    host.misread_round()
    host.announce()  # round 2: White's transmission first
    code = host.player("white", True).view()["you"]["code"]
    host.player("black", False).post("guess", code=wrong(code), confirm=True)
    host.player("white", False).post("guess", code=code, confirm=True)
    expect(page.locator("#task")).to_have_attribute("data-task", "intercept")  # Black's, read aloud now
    clues = page.locator("#task .clues")
    link = page.get_by_role("link", name="Black's transmissions ↓")
    sheet = page.locator("#sheets .sheet.team-edge-black")
    for label, size in SIZES.items():
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, f"phone-intercept-{label}")
        for what, locator in (("this round's clues", clues), ("the link to Black's sheet", link)):
            box = locator.bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], f"{what} out of view at {label}: {box}"
        task, first = page.locator("section.task").bounding_box(), sheet.bounding_box()
        assert 0 <= first["y"] - (task["y"] + task["height"]) <= 16, (
            f"Black's sheet is not next after the task: {first}"
        )
        link.tap()  # one tap: Black's sheet, below the top bar
        expect(sheet).to_be_in_viewport()
        top, bar = sheet.bounding_box()["y"], page.locator(".topbar").bounding_box()
        assert bar["y"] + bar["height"] <= top <= size["height"] / 3, f"Black's sheet at {top}px after the tap"
        page.screenshot(path=str(SHOTS / f"phone-intercept-sheet-{label}.png"))
    phone.close()
    host.close()
