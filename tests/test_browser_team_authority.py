"""Issue 20 in Chromium: a seat link shows at once on its team's phones, which can turn it away; a seat a new phone
took while none of its team's phones was in use is said loudly on every screen, also on a phone coming back; the
table screen moved to another device says so on the old device and in the table log. Each scene is played
once and shot on every screen: artifacts/screenshots/authority-*.png (phones 390×844 and 320×700; table screens
1280×800, 1024×768, 1920×1080)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion.rules.host import PHONE_IN_USE_SECONDS
from tools.driver import ApiGame, UrlClient

from .browser import TABLE, TABLE_SIZES, Phone, read_qr, refused, shot, shots

pytestmark = pytest.mark.browser


def seated(browser, live_server, names=("Ann", "Abe")):
    """A started game: White's phones in Chromium, Black through the API; and the table screen."""
    game = ApiGame(UrlClient(live_server.url), white=(), black=("Bea", "Bob"), start=False)
    phones = {}
    for name in names:
        phones[name] = Phone(browser, name)
        phones[name].join(game.urls["white"])
    game.ok(game.post("start", game.host))
    table = browser.new_context(viewport=TABLE).new_page()
    table.goto(game.urls["table"])
    return game, phones, table


def test_a_teams_phones_show_a_seat_link_at_once_and_turn_it_away(browser, live_server):
    game, phones, table = seated(browser, live_server)
    table.locator("#fix-a-mistake summary").click()
    table.get_by_role("button", name="Ann (White)").click()  # the table screen's seat-link button
    expect(table.locator("#seat-links .seat-link .qr svg")).to_be_visible()

    abe, ann = phones["Abe"].page, phones["Ann"].page
    card = abe.locator(".seat-alert")
    expect(card).to_contain_text("the table screen made a new link to Ann's seat")  # by itself: its stream
    expect(ann.locator(".seat-alert")).to_contain_text("made a new link to your seat")
    shots(abe, "authority-seat-link")
    shots(ann, "authority-own-seat-link")
    card.get_by_role("button", name="Not Ann's: cancel this link").click()
    expect(card).to_have_count(0)
    expect(ann.locator(".seat-alert")).to_have_count(0)
    expect(table.locator("#seat-links .seat-link")).to_have_count(0)  # the QR code is gone from the table
    expect(table.locator(".notices")).to_contain_text("Abe turned away the new seat link for Ann.")


def test_a_seat_taken_while_its_team_was_away_is_said_loudly_also_to_a_phone_coming_back(
    browser, live_server, page_errors
):
    page_errors.allow("ERR_INTERNET_DISCONNECTED", "a sleeping phone's fetch fails: it is offline on purpose")
    service = live_server.server.app.extensions["games"]
    now = [service.clock()]
    service.clock = lambda: now[0]
    game, phones, table = seated(browser, live_server)
    ann = next(p["seat"] for p in game.view(game.host)["teams"]["white"]["players"] if p["name"] == "Ann")
    link = game.ok(game.post("seat-link", game.host, seat=ann)).get_json()["seat_link"]["url"]
    for phone in phones.values():  # White's phones sleep: a view they fetch after the clock moves would use them
        phone.sleep()
    now[0] += PHONE_IN_USE_SECONDS + 1

    new = Phone(browser, "Ann")
    new.page.goto(link)
    new.page.get_by_role("button", name="I am Ann: take the seat").click()
    expect(new.page.locator(".seat-alert.unattended")).to_contain_text("This phone took your seat at")
    banner = table.locator("#seat-links .unattended")
    expect(banner).to_contain_text("a new phone took Ann's seat on White while no White phone was in use")
    shot(table, "authority-unattended-table-1280")

    abe = phones["Abe"].wake(f"{live_server.url}/play/{game.id}")
    card = abe.locator(".seat-alert.unattended")
    expect(card).to_contain_text("a new phone took Ann's seat while no phone of your team was in use")
    shots(abe, "authority-unattended-phone")
    card.get_by_role("button", name="It is Ann: all right").click()
    expect(card).to_have_count(0)
    expect(banner).to_have_count(0)
    expect(table.locator(".notices")).to_contain_text("Abe confirmed that Ann's new phone is theirs.")


def test_the_table_screen_moves_and_the_old_one_says_where_it_went(browser, live_server, page_errors):
    page_errors.allow(refused(403, r"/table/[\w-]+"), "the old device is no table screen any more: refused, it reloads")
    game = ApiGame(UrlClient(live_server.url))
    table = browser.new_context(viewport=TABLE).new_page()
    table.goto(game.urls["table"])
    table.get_by_role("button", name="Move the table screen to another device").click()
    link = read_qr(table, ".table-move .qr")
    expect(table.locator(".notices")).to_contain_text("the table screen showed a link that moves it")

    other = browser.new_context(viewport=TABLE).new_page()
    other.goto(link)
    other.get_by_role("button", name="Show the table screen here").click()
    expect(other.locator(".notices")).to_contain_text("The table screen moved to another device at")
    # The old device learns it by itself (its page is refused and reloads), saying where the table screen went.
    expect(table.locator("main")).to_contain_text("The table screen moved to another device at")
    expect(table.locator(".notices")).to_have_count(0)
    shots(table, "authority-moved-old", TABLE_SIZES)
    shots(other, "authority-moved-new", TABLE_SIZES)
    assert game.view(game.seats["Bea"])["notices"][-1]["kind"] == "table_moved"
