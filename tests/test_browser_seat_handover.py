"""A seat link used by a new phone waits until a teammate's phone lets it in; the table log says who did
(issue 12, item 1). Played once, shot on both phones: artifacts/screenshots/handover-*.png (390×844, 320×700)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tools.driver import ApiGame, UrlClient

from .browser import TABLE, Phone, refused, shots

pytestmark = pytest.mark.browser


def test_a_new_phone_waits_until_a_teammate_lets_it_in(browser, live_server, page_errors):
    page_errors.allow(refused(403, "/play/[\\w-]+"), "Abe's old phone: its seat moved, its poll is refused")
    game = ApiGame(UrlClient(live_server.url), white=(), black=("Bea", "Bob"), start=False)
    phones = {name: Phone(browser, name) for name in ("Ann", "Abe")}
    for phone in phones.values():
        phone.join(game.urls["white"])
    game.ok(game.post("start", game.host))
    table = browser.new_context(viewport=TABLE).new_page()
    table.goto(game.urls["table"])
    abe = game.view(game.host)["teams"]["white"]["players"][1]
    assert abe["name"] == "Abe"
    link = game.ok(game.post("seat-link", game.host, seat=abe["seat"])).get_json()["seat_link"]["url"]

    new = Phone(browser, "Abe")
    new.page.goto(link)
    new.page.get_by_role("button", name="I am Abe: take the seat").click()
    expect(new.page.locator("main")).to_contain_text("A phone of your team must let this phone in")
    shots(new.page, "handover-waiting")

    ann = phones["Ann"].page
    let_in = ann.get_by_role("button", name="Let Abe's new phone in")
    expect(let_in).to_be_visible()  # Ann's page asks by itself (its poll)
    expect(phones["Abe"].page.get_by_role("button", name="Let Abe's new phone in")).to_have_count(0)
    shots(ann, "handover-prompt")
    let_in.click()
    expect(let_in).to_have_count(0)
    # The new phone opens the game by itself; the old one is told its seat is gone; the table's log says who.
    expect(new.page.locator(".topbar .who")).to_contain_text("Abe")
    expect(phones["Abe"].page.locator("body")).to_contain_text("no longer has its seat")
    expect(table.locator("body")).to_contain_text("Abe's seat moved to a new phone, let in by Ann.")
    shots(new.page, "handover-done")
