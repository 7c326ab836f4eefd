"""Small screens: what a player must reach is in view, and nothing covers it.

A phone at 320×568 asks for its first tap without hiding the task, and a new round brings its player's task
into view even when the phone was scrolled down to the sheets. On the table screen at 1024×768 and 1280×800,
the home page's New game, every row of a lobby of eight and the game over's Rematch are in view, none under
the lobby's sticky Start bar."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tools.driver import UrlClient

from .browser import TABLE_SIZES, shot

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 320, "height": 568}
TABLES = {label: TABLE_SIZES[label] for label in ("1024", "1280")}

# Whether an element is wholly inside the window and the topmost thing at its middle (nothing covers it).
IN_VIEW = """(el) => {
  const r = el.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  const top = document.elementFromPoint(x, y);
  return inside && !!top && (el === top || el.contains(top));
}"""


def in_view(locator) -> bool:
    return locator.evaluate(IN_VIEW)


def new_table(browser, live_server, size):
    context = browser.new_context(viewport=size)
    table = context.new_page()
    table.goto(live_server.url)
    return context, table


@pytest.mark.parametrize("label", TABLES)
def test_the_table_screen_shows_new_game_a_lobby_of_eight_and_the_rematch_in_view(browser, live_server, label):
    context, table = new_table(browser, live_server, TABLES[label])
    assert in_view(table.get_by_role("button", name="New game")), "New game is below the fold"
    shot(table, f"small-home-{label}")
    table.get_by_role("button", name="New game").click()
    expect(table.locator("h1")).to_contain_text("Scan your team's code")
    tokens = {
        team: table.locator(f".team-{team} .link a").inner_text().rsplit("/", 1)[1] for team in ("white", "black")
    }
    client, game_id = UrlClient(live_server.url), table.url.rsplit("/", 1)[1]
    for team, names in (("white", ("Ada", "Alan", "Ari", "Abe")), ("black", ("Grace", "Gus", "Gil", "Gwen"))):
        for name in names:
            joined = client.post(
                f"/api/games/{game_id}/join", {"name": name}, {"Authorization": f"Bearer {tokens[team]}"}
            )
            assert joined.status_code == 200, joined.get_json()
    expect(table.locator(".team-black .host-roster li")).to_have_count(4)
    shot(table, f"small-lobby-of-eight-{label}")
    for row in table.locator(".host-roster li").all():
        assert in_view(row), f"{row.inner_text()!r} is out of view or under the Start bar at {label}"
    context.close()


@pytest.mark.parametrize("label", TABLES)
def test_the_game_over_shows_its_rematch_in_view(browser, live_server, label):
    from .test_browser_corrections import Tabletop

    game = Tabletop(browser, live_server, viewport=TABLES[label])
    while game.view("Ada")["phase"] != "over":
        game.round(white=(False, False), black=(True, False))
    rematch = game.table.get_by_role("button", name="Rematch: back to the lobby, same seats")
    expect(rematch).to_be_visible()
    assert in_view(rematch), f"Rematch is out of view at {label}"
    shot(game.table, f"small-game-over-{label}")
    game.close()


def test_a_small_phone_asks_for_its_first_tap_without_hiding_its_task(browser, live_server):
    from .test_browser_corrections import Tabletop

    game = Tabletop(browser, live_server, phone_viewport=SMALL_PHONE)
    phone = game.phones["Ada"].page  # round 1's Encryptor for White
    card = phone.locator("[data-tap-card]")
    expect(card).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth"), "the card is wider than the phone"
    assert in_view(card) and in_view(phone.locator("details.secret summary")), "the card hides the task"
    shot(phone, "small-first-tap-320")

    # Scrolled down to the sheets, the phone is brought back to its task when the next round asks something.
    phone.locator("#sheets").scroll_into_view_if_needed()
    ben = game.phones["Alan"].page  # round 2's Encryptor for White
    ben.locator("#sheets").scroll_into_view_if_needed()
    game.round()
    expect(ben.locator("details.secret summary")).to_be_visible()
    ben.wait_for_function(IN_VIEW, arg=ben.locator("details.secret summary").element_handle())
    shot(ben, "small-new-round-320")
    game.close()
