"""The rarer screens in real Chromium: switching teams, the spectator, eight rounds, the keyword tiebreak."""

import itertools

import pytest
from playwright.sync_api import expect
from tools.driver import ApiGame

from .browser import SHOTS, TABLE, ApiSession, Phone, shot

pytestmark = pytest.mark.browser


def test_eight_quiet_rounds_end_in_the_keyword_tiebreak_judged_on_the_table_screen(browser, live_server):
    table_context = browser.new_context(viewport=TABLE)
    table = table_context.new_page()
    table.goto(live_server.url)
    table.get_by_role("button", name="New game").click()
    links = {team: table.locator(f".team-{team} .link a").inner_text() for team in ("white", "black")}
    spectator_url = table.locator("footer a").inner_text()

    # Three join White, one Black: the table can't start until someone switches.
    names = {"white": ["Ada", "Alan", "Grace"], "black": ["Linus"]}
    phones = {name: Phone(browser, name) for name in names["white"] + names["black"]}
    for team, members in names.items():
        for name in members:
            phones[name].join(links[team])
    expect(table.get_by_role("button", name="Start the game")).to_be_disabled()
    expect(table.locator(".start .hint")).to_contain_text("(Black does not)")
    shot(table, "20-table-cannot-start-1280")
    grace = phones["Grace"]
    grace.page.goto(links["black"])
    expect(grace.page.locator(".notice")).to_contain_text("moves you to this team")
    shot(grace.page, "21-join-switch-390")
    grace.page.get_by_label("Your name").fill("Grace")
    grace.page.get_by_role("button", name="Take my seat").click()
    expect(grace.page.locator(".topbar")).to_contain_text("Black")
    expect(table.locator(".team-white .roster")).not_to_contain_text("Grace")
    table.get_by_role("button", name="Start the game").click()
    expect(table.locator(".round-title")).to_contain_text("Round 1 of 8")

    # The table screen may itself be a phone: it must hold up at phone size too.
    small_table = Phone(browser, "Host")
    small_table.context.add_cookies(table_context.cookies())  # the table screen's key is its cookie
    small_table.page.goto(table.url)
    expect(small_table.page.locator(".round-title")).to_contain_text("Round 1 of 8")
    shot(small_table.page, "22-table-on-a-phone-390")
    small_table.close()

    spectator = Phone(browser, "Spectator")
    spectator.page.goto(spectator_url)
    expect(spectator.page.locator(".round-title")).to_contain_text("Round 1 of 8")
    shot(spectator.page, "22-spectator-390")

    # Eight rounds in which everyone decrypts and nobody intercepts, through each phone's own API calls.
    game_id = grace.page.url.rsplit("/", 1)[1]
    api = {name: ApiSession(phone, live_server.url, game_id) for name, phone in phones.items()}
    team_of = {"Ada": "white", "Alan": "white", "Grace": "black", "Linus": "black"}
    clue_numbers = itertools.count()
    for round_number in range(1, 9):
        views = {name: session.view() for name, session in api.items()}
        encryptors = {team_of[n]: n for n, v in views.items() if v["you"]["encryptor"]}
        codes = {team: views[name]["you"]["code"] for team, name in encryptors.items()}
        for name in encryptors.values():
            api[name].post("clues", clues=[f"zq{next(clue_numbers)}" for _ in range(3)])
        for team in ("white", "black"):
            other = "black" if team == "white" else "white"
            decoder = next(n for n in api if team_of[n] == team and n != encryptors[team])
            if round_number > 1:
                interceptor = next(n for n in api if team_of[n] == other)
                api[interceptor].post("guess", code=list(reversed(codes[team])), confirm=True)
            api[decoder].post("guess", code=codes[team], confirm=True)
    expect(table.locator(".stage")).to_contain_text("Tiebreak")
    shot(table, "23-table-tiebreak-1280")

    black_words = api["Linus"].view()["teams"]["black"]["keywords"]
    white_words = api["Ada"].view()["teams"]["white"]["keywords"]
    ada = phones["Ada"]
    ada.see("guess the other team's four keywords")
    shot(ada.page, "24-phone-keyword-guesses-390")
    for number, guess in enumerate([black_words[0].lower(), "nonsense", black_words[2] + "s", ""], start=1):
        ada.page.locator(f"#kw{number}").fill(guess)
    ada.page.get_by_role("button", name="Seal our four guesses").click()
    phones["Alan"].see("Your keyword guesses are sealed")
    shot(phones["Alan"].page, "25-phone-keywords-sealed-390")
    # White's guesses stay hidden from Black until both teams sealed theirs ("nonsense" is on no page, while
    # a keyword in lower case can be part of any word there, as "file" is of "filed").
    assert "nonsense" not in phones["Linus"].page.content()
    linus = phones["Linus"]
    linus.see("guess the other team's four keywords")
    for number, guess in enumerate(["x1", white_words[1], "x3", "x4"], start=1):
        linus.page.locator(f"#kw{number}").fill(guess)
    linus.page.get_by_role("button", name="Seal our four guesses").click()

    # The table screen proposes matches; the table accepts one more as a synonym and confirms.
    expect(table.locator(".judging")).to_be_visible()
    proposals = table.locator('input[name="verdicts.white"]')
    assert [proposals.nth(i).is_checked() for i in range(4)] == [True, False, True, False]
    assert table.locator('input[name="verdicts.black"]:checked').count() == 1
    shot(table, "26-table-judging-1280")
    phones["Grace"].see("The table screen compares the keyword guesses")
    table.locator('input[name="verdicts.black"]').nth(0).check()
    table.get_by_role("button", name="Confirm and finish the game").click()
    expect(table.locator(".result")).to_contain_text("Shared victory!")
    expect(table.locator(".result")).to_contain_text("Eight rounds passed without a winner")
    shot(table, "27-table-shared-victory-1280")
    spectator.see("Shared victory!")
    for phone in phones.values():
        phone.see("Shared victory!")
    shot(phones["Grace"].page, "28-phone-shared-victory-390")
    table_context.close()


# The contrast of an element's text on its own background (WCAG's formula), as the page paints it now.
CONTRAST = """el => {
  const rgb = value => value.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = c.map(v => { v /= 255; return v <= .03928 ? v / 12.92 : ((v + .055) / 1.055) ** 2.4; });
                     return .2126 * r + .7152 * g + .0722 * b; };
  let back = el;
  while (back && getComputedStyle(back).backgroundColor.replace(/\\s/g, '').match(/^rgba\\(.*,0\\)$|transparent/))
    back = back.parentElement;
  const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(rgb(back ? getComputedStyle(back).backgroundColor : 'rgb(255,255,255)'))];
  return (Math.max(a, b) + .05) / (Math.min(a, b) + .05);
}"""


def test_the_summary_prints_without_its_buttons_and_with_readable_tiebreak_marks(browser, live_server):
    game = ApiGame(live_server.server.app.test_client())
    game.quiet_rounds(8)  # a tie: the keyword guesses decide
    for team in ("white", "black"):
        game.command(game.guesser(team, team), "keyword-guesses", guesses=["gondola", "pepper", "lantern", "meadow"])
    game.command(game.host, "verdicts", verdicts={"white": [True, False, True, False], "black": [False] * 4})
    page = browser.new_context(viewport=TABLE).new_page()
    page.goto(game.urls["spectator"].replace("/watch/", "/summary/"))
    marks = page.locator(".summary-tiebreak .verdict-mark")
    expect(marks).to_have_count(8)
    expect(page.locator(".summary .actions")).to_be_visible()
    page.emulate_media(media="print")
    shot(page, "29-summary-print")
    page.pdf(path=str(SHOTS / "29-summary-print.pdf"))
    for hidden in (".summary .actions", ".language-switch"):
        expect(page.locator(hidden)).to_be_hidden()
    for i in range(marks.count()):
        ratio = marks.nth(i).evaluate(CONTRAST)
        assert ratio >= 4.5, f"“{marks.nth(i).inner_text()}” prints at a contrast of {ratio:.1f}:1"
    # And every other text on the paper: headings, the tables' heads, the true codes, "No token".
    faint = page.evaluate(f"""() => Array.from(document.querySelectorAll('.summary *'))
        .filter(el => el.checkVisibility() && Array.from(el.childNodes).some(n => n.nodeType === 3 && n.data.trim()))
        .map(el => [el.tagName.toLowerCase() + '.' + el.className + ' “' + el.innerText.trim().slice(0, 20) + '”',
                    ({CONTRAST})(el)])
        .filter(([, ratio]) => ratio < 4.5)""")
    assert not faint, f"faint on paper: {faint[:8]}"
    page.context.close()
