"""The table screen moves to another device by a one-time QR code shown on request; its address never holds
its key (issue 12, item 1), and the old device stops being the table screen (issue 20). Screenshots:
artifacts/screenshots/table-move-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .browser import TABLE, read_qr, refused, shot

pytestmark = pytest.mark.browser

TABLET = {"width": 1024, "height": 768}


def new_table(browser, live_server, viewport=TABLE):
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(live_server.url)
    page.locator("form.create button.primary").click()
    expect(page.locator(".lobby")).to_be_visible()
    return page


def test_the_table_screen_moves_to_another_device_with_a_one_time_qr_code(browser, live_server, page_errors):
    page_errors.allow(refused(403, "/move/\\S+"), "the used link is opened again")
    page_errors.allow(refused(403, "/table/[\\w-]+"), "a third device opens the table's address")
    table = new_table(browser, live_server)
    game_id = re.fullmatch(r".*/table/([\w-]+)", table.url).group(1)
    host = live_server.server.app.extensions["games"].shared_tokens(game_id)["host"]
    assert host not in table.url and host not in table.content()
    expect(table.locator(".table-move")).to_have_count(0)  # shown only on request

    table.get_by_role("button", name="Move the table screen to another device").click()
    expect(table.locator(".table-move .qr svg")).to_be_visible()
    link = read_qr(table, ".table-move .qr")
    assert re.fullmatch(re.escape(live_server.url) + r"/move/[\w-]{32}", link)
    assert host not in table.content()
    shot(table, "table-move-1280x800")
    table.set_viewport_size(TABLET)
    shot(table, "table-move-1024x768")

    other = browser.new_context(viewport=TABLET).new_page()
    other.goto(link)
    other.get_by_role("button", name="Show the table screen here").click()
    expect(other.locator(".lobby")).to_be_visible()
    assert other.url == f"{live_server.url}/table/{game_id}"
    # Used: a move, not a copy (issue 20): the first screen says by itself that the table screen went elsewhere,
    # the new one shows no QR code, and the link works no more.
    expect(table.locator("main")).to_contain_text("The table screen moved to another device at")
    expect(other.locator(".table-move")).to_have_count(0)
    expect(other.get_by_role("button", name="Move the table screen to another device")).to_be_visible()
    third = browser.new_context(viewport=TABLET).new_page()
    third.goto(link)
    expect(third.locator("body")).to_contain_text("This link no longer moves the table screen")
    third.goto(f"{live_server.url}/table/{game_id}")
    expect(third.locator("body")).to_contain_text("not this game's table screen")


def test_a_move_qr_code_can_be_hidden_and_its_link_then_works_no_more(browser, live_server, page_errors):
    page_errors.allow(refused(403, "/move/\\S+"), "the cancelled link is opened")
    table = new_table(browser, live_server, TABLET)
    table.get_by_role("button", name="Move the table screen to another device").click()
    link = read_qr(table, ".table-move .qr")
    table.get_by_role("button", name="Hide this code: cancel the link").click()
    expect(table.locator(".table-move")).to_have_count(0)
    other = browser.new_context(viewport=TABLET).new_page()
    other.goto(link)
    expect(other.locator("body")).to_contain_text("This link no longer moves the table screen")
