"""No camera, and back to the game, in real Chromium: joining by typing the team's code on the home page, the
join page that says at once when joining is locked, "Back to your game" on the home page, the rules beside
the game, and the Encryptor's clues kept on the phone across a reload until they are announced."""

import re

import pytest
from playwright.sync_api import expect

from .browser import TABLE, TABLE_SIZES, Phone, refused, shot, shots
from .test_browser_corrections import Tabletop

pytestmark = pytest.mark.browser


def test_a_phone_without_a_camera_joins_by_typing_its_teams_code(browser, live_server, page_errors):
    page_errors.allow(refused(r"4\d\d", "/join-code"), "a locked game's code is refused")
    page_errors.allow(refused(r"4\d\d", r":\d+/"), "the home page it goes back to says why, with the refusal's status")
    context = browser.new_context(viewport=TABLE)
    table = context.new_page()
    table.goto(live_server.url)
    table.get_by_role("button", name="New game").click()
    codes = {team: table.locator(f'.join-code[data-team="{team}"]').inner_text() for team in ("white", "black")}
    assert all(re.fullmatch(r"[34679ACDEFGHJKMNPRTWXY]{5}", code) for code in codes.values()), codes
    for label, size in TABLE_SIZES.items():
        table.set_viewport_size(size)
        for team in codes:  # legible across the table: large, and on screen without scrolling
            code = table.locator(f'.join-code[data-team="{team}"]')
            assert float(code.evaluate("el => getComputedStyle(el).fontSize").rstrip("px")) >= 40
            box = code.bounding_box()
            assert box["y"] + box["height"] <= size["height"], f"{team}'s code is below the fold at {label}"
        shot(table, f"join-code-table-lobby-{label}")
    table.set_viewport_size(TABLE)

    # Grace types Black's code on the home page, in lower case with a dash: no QR code scanned.
    grace = Phone(browser, "Grace")
    grace.page.goto(live_server.url)
    shots(grace.page, "join-code-home")
    grace.page.get_by_label("Join with a code").fill(codes["black"][:2].lower() + "-" + codes["black"][2:].lower())
    grace.page.get_by_role("button", name="Join", exact=True).click()
    expect(grace.page.locator("h1")).to_contain_text("Join Black")
    shots(grace.page, "join-code-join-open")
    grace.page.get_by_label("Your name").fill("Grace")
    grace.page.get_by_role("button", name="Take my seat").click()
    expect(grace.page.locator(".topbar .who")).to_contain_text("Grace")
    expect(table.locator(".team-black .roster")).to_contain_text("Grace")

    # Back on the home page, her phone offers her game first.
    grace.page.goto(live_server.url)
    back = grace.page.get_by_role("link", name="Back to your game")
    expect(back).to_be_visible()
    expect(grace.page.locator(".back-to-game")).to_contain_text("Grace · Black")
    shots(grace.page, "join-code-home-back-to-game")
    back.click()
    expect(grace.page.locator(".topbar .who")).to_contain_text("Grace")
    # The rules open in a tab of their own: the game stays where it was.
    with grace.context.expect_page() as opened:
        grace.page.get_by_role("link", name=re.compile("^Rules")).click()
    rules = opened.value
    expect(rules.locator("h1")).to_have_text("Rules")
    expect(rules.get_by_role("link", name="Back to your game").first).to_be_visible()
    rules.close()
    expect(grace.page.locator(".topbar .who")).to_contain_text("Grace")

    # Locked: the code is refused on the home page as any code that opens nothing is (a stranger can't tell
    # it exists), and the join page, which only a link holder reaches, says so before anyone types a name.
    table.get_by_role("button", name="Lock joining").click()
    expect(table.locator("h1")).to_contain_text("Joining is locked")
    expect(table.locator(".join-code")).to_have_count(0)
    ada = Phone(browser, "Ada")
    ada.page.goto(live_server.url)
    ada.page.get_by_label("Join with a code").fill(codes["white"])
    ada.page.get_by_role("button", name="Join", exact=True).click()
    expect(ada.page.locator(".code-form .form-error")).to_contain_text("No game is taking players with this code")
    shots(ada.page, "join-code-home-refused")
    join_url = (
        live_server.url
        + "/join/"
        + live_server.server.app.extensions["games"].shared_tokens(grace.page.url.rsplit("/", 1)[1])["white"]
    )
    ada.page.goto(join_url)
    expect(ada.page.locator("main .notice")).to_contain_text("Joining is locked")
    expect(ada.page.get_by_label("Your name")).to_have_count(0)
    shots(ada.page, "join-code-join-locked")

    # Reopened: the same code works again.
    table.get_by_role("button", name="Reopen joining").click()
    expect(table.locator('.join-code[data-team="white"]')).to_have_text(codes["white"])
    ada.page.goto(live_server.url)
    ada.page.get_by_label("Join with a code").fill(codes["white"])
    ada.page.get_by_role("button", name="Join", exact=True).click()
    expect(ada.page.locator("h1")).to_contain_text("Join White")
    for phone in (grace, ada):
        phone.close()
    context.close()


def draft_keys(phone) -> list[str]:
    return phone.page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('decrypto-clues:'))")


def test_clues_typed_but_not_announced_survive_a_reload_and_go_once_announced(browser, live_server):
    game = Tabletop(browser, live_server)
    try:
        name = game.encryptor("white")
        phone = game.phones[name]
        phone.page.locator("details.secret summary").click()
        # Clues no keyword pack holds: a dealt keyword would refuse a clue (the deal is random).
        phone.page.locator("#clue1").fill("zqocean")
        phone.page.locator("#clue2").fill("zqcrown")
        assert len(draft_keys(phone)) == 1
        phone.page.reload()
        phone.page.locator("details.secret summary").click()
        expect(phone.page.locator("#clue1")).to_have_value("zqocean")
        expect(phone.page.locator("#clue2")).to_have_value("zqcrown")
        expect(phone.page.locator("#clue3")).to_have_value("")
        shot(phone.page, "join-code-clue-draft-restored-390")
        # Only this phone keeps them: a teammate's phone and the table screen have none.
        teammate = game.phones[game.teammate("white")]
        assert draft_keys(teammate) == []
        assert game.table.evaluate("Object.keys(localStorage).length") == 0

        phone.page.locator("#clue3").fill("zqlantern")
        phone.page.get_by_role("button", name="Announce these clues").click()
        expect(phone.page.locator("#task")).not_to_contain_text("Tap to show your code")
        assert draft_keys(phone) == []
        phone.page.reload()
        assert draft_keys(phone) == []

        # A draft whose form went away without being announced (the table skipped this Encryptor) goes too.
        black = game.phones[game.encryptor("black")]
        black.page.locator("details.secret summary").click()
        black.page.locator("#clue1").fill("meadow")
        assert len(draft_keys(black)) == 1
        game.open_tools()
        game.table.get_by_role("button", name=re.compile("stepped away: the next Black player")).click()
        game.table.get_by_role("button", name=re.compile("Tap again to skip")).click()  # a careful button
        expect(black.page.locator("details.secret")).to_have_count(0)
        assert draft_keys(black) == []
    finally:
        game.close()
