"""A seat link used by a new phone waits until a teammate's phone lets it in; the table log says who did
(issue 12, item 1). A wait always ends (issue 39, item 2): the waiting phone counts down to the time it takes the
seat by itself, which the table screen and the team's phones show too, and takes it then if no phone of its team
was used; a second link for the seat replaces its claim, and its page says so. Shot on the phones (390×844,
320×568) and the table screen (1024×768, 1280×800): artifacts/screenshots/handover-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from tools.driver import ApiGame, UrlClient

from companion.messages import clock_time

from .browser import PHONE, TABLE, TABLE_SIZES, Phone, freeze, refused, shots

pytestmark = pytest.mark.browser

PHONES = {"390": PHONE, "320": {"width": 320, "height": 568}}
TABLES = {"1024": TABLE_SIZES["1024"], "1280": TABLE}


def seated(browser, live_server):
    """A started game: White's phones (Ann, Abe) in Chromium, Black through the API; and the table screen."""
    game = ApiGame(UrlClient(live_server.url), white=(), black=("Bea", "Bob"), start=False)
    phones = {name: Phone(browser, name) for name in ("Ann", "Abe")}
    for phone in phones.values():
        phone.join(game.urls["white"])
    game.ok(game.post("start", game.host))
    table = browser.new_context(viewport=TABLE).new_page()
    table.goto(game.urls["table"])
    abe = game.view(game.host)["teams"]["white"]["players"][1]
    assert abe["name"] == "Abe"
    return game, phones, table, abe["seat"]


def seat_link(game, seat) -> str:
    return game.ok(game.post("seat-link", game.host, seat=seat)).get_json()["seat_link"]["url"]


def claimed(browser, link) -> Phone:
    """A new phone opens the seat link and claims Abe's seat."""
    new = Phone(browser, "Abe")
    new.page.goto(link)
    new.page.get_by_role("button", name="I am Abe: take the seat").click()
    return new


def events(live_server, game) -> list[dict]:
    store = live_server.server.app.extensions["games"].store
    return [event for _, event, _ in store.events_after(game.id)]


def until_of(live_server, game, seat) -> tuple[float, str]:
    """When the new phone waiting for `seat` takes it by itself, and that time as the pages write it."""
    app = live_server.server.app
    service = app.extensions["games"]
    until = service.waiting_until(game.id, service.load(game.id)[1])[seat]
    with app.test_request_context("/"):
        return until, clock_time(until)


def test_a_new_phone_waits_until_a_teammate_lets_it_in(browser, live_server, page_errors):
    page_errors.allow(refused(403, "/play/[\\w-]+"), "Abe's old phone: its seat moved, its poll is refused")
    game, phones, table, seat = seated(browser, live_server)
    new = claimed(browser, seat_link(game, seat))
    expect(new.page.locator("main")).to_contain_text("A phone of your team must let this phone in")
    # Every screen that shows the waiting phone shows the one time it takes the seat by itself.
    _, time = until_of(live_server, game, seat)
    expect(new.page.locator(".by-itself")).to_contain_text(f"this phone takes the seat by itself at {time}")
    expect(new.page.locator(".by-itself-countdown [data-clock]")).to_have_text(re.compile(r"^[0-3]:\d\d$"))
    shots(new.page, "handover-waiting", PHONES)

    ann = phones["Ann"].page
    let_in = ann.get_by_role("button", name="Let Abe's new phone in")
    expect(let_in).to_be_visible()  # Ann's page asks by itself (its poll)
    expect(ann.locator(".let-in")).to_contain_text(f"If no phone of your team is used before {time}, the new phone")
    expect(phones["Abe"].page.get_by_role("button", name="Let Abe's new phone in")).to_have_count(0)
    expect(table.locator("#seat-links .waiting-phone")).to_have_text(
        f"A new phone waits for Abe's seat on White: a White phone lets it in, or, if none is used before {time}, "
        "it takes the seat by itself then."
    )
    shots(ann, "handover-prompt", PHONES)
    shots(table, "handover-table-waiting", TABLES)
    let_in.click()
    expect(let_in).to_have_count(0)
    # The new phone opens the game by itself; the old one is told its seat is gone; the table's log says who.
    expect(new.page.locator(".topbar .who")).to_contain_text("Abe")
    expect(phones["Abe"].page.locator("body")).to_contain_text("no longer has its seat")
    expect(table.locator("body")).to_contain_text("Abe's seat moved to a new phone, let in by Ann.")
    expect(table.locator("#seat-links .waiting-phone")).to_have_count(0)
    shots(new.page, "handover-done")


def test_a_waiting_phone_takes_the_seat_by_itself_once_no_phone_of_its_team_is_used(browser, live_server, page_errors):
    """Issue 39's handover that waited forever: White's phones were put away half a minute before Abe's new phone
    used its link. It waits, counts down, and when its countdown ends (both clocks past the time it showed: the
    server's, which decides, and the page's, which only counts) it takes the seat by itself; every screen says so."""
    page_errors.allow("ERR_INTERNET_DISCONNECTED", "a sleeping phone's fetch fails: it is offline on purpose")
    service = live_server.server.app.extensions["games"]
    now = [float(int(service.clock()))]
    service.clock = lambda: now[0]
    game, phones, table, seat = seated(browser, live_server)
    link = seat_link(game, seat)
    now[0] += 30
    for phone in phones.values():  # Abe's old phone died, Ann put hers away: in use until a while ago
        phone.sleep()

    new = Phone(browser, "Abe")
    new.page.clock.install()
    new.page.goto(link)
    new.page.get_by_role("button", name="I am Abe: take the seat").click()
    countdown = new.page.locator(".by-itself-countdown")
    expect(countdown).to_contain_text("Time left before this phone takes the seat by itself:")
    freeze(new.page)
    until, time = until_of(live_server, game, seat)
    left = until - now[0]
    assert 150 <= left <= 210  # 2 minutes after White's phones' last minute of use, to the whole minute
    expect(table.locator("#seat-links .waiting-phone")).to_contain_text(f"if none is used before {time}")

    # The page's clock runs on to a second before the end (freeze took one), not the server's: still waiting.
    new.page.clock.run_for(int((left - 2) * 1000))
    expect(countdown.locator("[data-clock]")).to_have_text(re.compile(r"^0:0[01]$"))
    expect(new.page.locator("h1")).to_have_text("Almost there, Abe")
    assert events(live_server, game)[-1]["type"] == "seat_claim_waiting"

    # No phone of White used until then: at its countdown's end the page asks for itself (not its next poll, up to
    # 30 s later), and that asking takes the seat.
    now[0] = until
    new.page.clock.run_for(1500)
    expect(new.page.locator(".topbar .who")).to_contain_text("Abe")
    assert events(live_server, game)[-1] == {
        "type": "seat_claimed",
        "v": 2,
        "seat": seat,
        "unattended": True,
        "at": until,
    }
    expect(new.page.locator(".seat-alert.unattended")).to_contain_text(f"This phone took your seat at {time}")
    banner = table.locator("#seat-links .unattended")
    expect(banner).to_contain_text(f"At {time} a new phone took Abe's seat on White while no White phone was in use")
    expect(table.locator("#seat-links .waiting-phone")).to_have_count(0)
    shots(table, "handover-by-itself-table", TABLES)


def test_a_second_link_replaces_a_waiting_phones_claim_and_its_page_says_so(browser, live_server, page_errors):
    page_errors.allow(refused(403, "/play/[\\w-]+"), "the first new phone: another link replaced its claim")
    game, phones, table, seat = seated(browser, live_server)
    first = claimed(browser, seat_link(game, seat))
    expect(first.page.locator("h1")).to_have_text("Almost there, Abe")

    second = claimed(browser, seat_link(game, seat))  # the table screen made another link, used by another phone
    expect(second.page.locator("h1")).to_have_text("Almost there, Abe")  # it waits too: White's phones are in use
    expect(first.page.locator("h1")).to_have_text("Another link replaced this phone's claim")  # by itself
    expect(first.page.locator("main")).to_contain_text("only the phone that uses it can take the seat now")
    expect(first.page.locator("main")).not_to_contain_text("no longer has its seat")
    shots(first.page, "handover-replaced", PHONES)
    expect(phones["Ann"].page.get_by_role("button", name="Let Abe's new phone in")).to_have_count(1)
