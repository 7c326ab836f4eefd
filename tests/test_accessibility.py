"""Every page, in every phase, passes axe-core's WCAG 2.2 AA rules and its heading order, and has one `h1`, in
English and Korean.

A real game is played in Chromium (a table screen, four phones, a spectator); each page object is kept
across phases and audited after each step. Problems are gathered and reported together at the end, each
with axe's rule, impact and the elements it names, so one run says everything there is to fix.
"""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect
from tools.driver import ApiGame, wrong

from .browser import TABLE, ApiSession, Phone, refused

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# Best practices checked too: a screen reader's user skims a page by its headings, level by level.
EXTRA_RULES = {"heading-order": {"enabled": True}}
AXE = Axe()
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": WCAG_22_AA},
    "rules": EXTRA_RULES,
    "resultTypes": ["violations", "incomplete"],
}
RUN_AXE = "options => typeof axe === 'object' ? axe.run(document, options) : null"
LOAD_AND_RUN_AXE = "([script, options]) => { (0, eval)(script); return axe.run(document, options); }"


class Audit:
    """Checks each page it is shown; remembers what failed, by where it was seen."""

    def __init__(self):
        self.failures: dict[str, list[str]] = {}

    def __call__(self, page: Page, where: str) -> None:
        problems = []
        headings = page.locator("h1").count()
        if headings != 1:
            problems.append(f"{headings} h1 elements (a page has exactly one)")
        # axe goes into each document once (570 KB to parse: doing it again for every audit of a live page,
        # which keeps its document from phase to phase, took a third of this test's time).
        results = page.evaluate(RUN_AXE, AXE_OPTIONS) or page.evaluate(LOAD_AND_RUN_AXE, [AXE.axe_script, AXE_OPTIONS])
        # What axe could not decide counts too, but for contrast over a gradient (the try-out bar's
        # stripes), which it can't measure: those colours were checked by hand.
        undecided = [r for r in results["incomplete"] if r["id"] != "color-contrast"]
        for violation in results["violations"] + undecided:
            targets = [" ".join(node["target"]) for node in violation["nodes"]]
            problems.append(f"{violation['id']} ({violation['impact']}): {violation['help']}: {targets}")
        if problems:
            self.failures[where] = problems

    def report(self) -> str:
        return "\n".join(f"{where}:\n  " + "\n  ".join(problems) for where, problems in self.failures.items())


class Host:
    """The table screen's own API calls (its host token), to set up a correction or a seat link."""

    def __init__(self, table: Page, base_url: str, game_id: str, token: str):
        self.table, self.base, self.token = table, f"{base_url}/api/games/{game_id}", token

    def post(self, command: str, **body) -> dict:
        answer = self.table.context.request.post(
            f"{self.base}/{command}", data=body, headers={"Authorization": f"Bearer {self.token}"}
        )
        assert answer.ok, answer.json()
        return answer.json()


def still(page: Page) -> Page:
    """The reveal fades its steps in: axe measures the colours they end with, not a frame of the fade."""
    page.emulate_media(reduced_motion="reduce")
    return page


def doing(phone: Phone, task: str) -> None:
    expect(phone.page.locator("#task")).to_have_attribute("data-task", task)


# Through the pages, in any language.
def announce(phone: Phone, clues: list[str]) -> None:
    for i, clue in enumerate(clues, start=1):
        phone.page.locator(f"#clue{i}").fill(clue)
    phone.page.locator("#task form button.primary").click()


def guess(phone: Phone, code: list[int]) -> None:
    for i, digit in enumerate(code, start=1):
        phone.page.locator(f'input[name="code{i}"][value="{digit}"] + span').click()
    phone.page.locator('#task button[name="confirm"][value="1"]').click()


def three_player_try_out(solo: Phone, url: str, audit: Audit) -> None:
    """One phone plays the team (two seats) and the Interceptor, switching from the try-out bar."""
    page = solo.page
    page.goto(url)
    page.locator('.try-out-intro button[value="three_player"]').click()
    expect(page.locator(".try-out-bar")).to_be_visible()
    audit(page, "try-out, three players: table lobby (phone)")
    page.locator("form.start button.primary").click()
    expect(page.locator(".round-title")).to_be_visible()
    audit(page, "try-out, three players: table, round 1 (phone)")
    seats = page.locator(".seat-switch button")

    def sit(i: int) -> None:
        seats.nth(i).click()
        expect(seats.nth(i)).to_have_class(re.compile(r"\bcurrent\b"))

    def encryptor() -> int:
        for i in (0, 1):
            sit(i)
            if api.view()["you"]["encryptor"]:
                return i
        raise AssertionError("the team has no Encryptor")

    sit(0)
    api = ApiSession(solo, url, page.url.rsplit("/", 1)[1])
    for number in range(1, 6):  # the team decrypts every code and is never intercepted: it wins
        encryptor_seat = encryptor()
        code = api.view()["you"]["code"]
        decoder = 1 - encryptor_seat
        if number <= 2:
            page.locator("details.secret summary").click()
            audit(page, f"try-out, three players: round {number}, the Encryptor")
        api.post("clues", clues=[f"zq{number}x{i}" for i in range(3)])
        if number > 1:
            sit(2)
            if number == 2:
                doing(solo, "intercept_alone")
                audit(page, "try-out, three players: the Interceptor intercepts alone")
            api.post("guess", code=wrong(code), confirm=True)
        sit(decoder)
        if number == 1:
            doing(solo, "decrypt")
            audit(page, "try-out, three players: the team decrypts")
        api.post("guess", code=code, confirm=True)
    doing(solo, "game_over")
    audit(page, "try-out, three players: game over, a seat")
    page.locator(".seat-switch a.button").click()
    expect(page.locator(".result")).to_be_visible()
    audit(page, "try-out, three players: game over, table screen (phone)")
    page.locator(".result a.button").click()
    expect(page.locator(".summary")).to_be_visible()
    audit(page, "try-out, three players: summary")


@pytest.mark.parametrize("language", ["en", "ko"])
def test_every_page_in_every_phase_passes_axe_wcag_22_aa(browser, live_server, language, page_errors):
    page_errors.allow(refused(401, "/play/not-a-game"), "the error page is audited too")
    audit = Audit()
    url = live_server.url

    # Pages outside a game, on a phone.
    visitor = Phone(browser, "Visitor")
    still(visitor.page)
    visitor.page.goto(f"{url}/?lang={language}")
    visitor.page.locator(".own-words summary").click()
    audit(visitor.page, "home, own words open (phone)")
    visitor.page.goto(f"{url}/rules")
    audit(visitor.page, "rules (phone)")
    visitor.page.goto(f"{url}/play/not-a-game")
    audit(visitor.page, "error page (phone)")

    # The table screen creates a game in this language.
    table_context = browser.new_context(viewport=TABLE)
    table = still(table_context.new_page())
    table.goto(f"{url}/?lang={language}")
    audit(table, "home (table)")
    table.locator("#language").select_option(language)
    table.locator('input[name="timer"]').check()
    table.locator("form.create button.primary").click()
    expect(table.locator(".lobby")).to_be_visible()
    audit(table, "table: lobby, nobody seated")
    links = {team: table.locator(f".team-{team} .link a").inner_text() for team in ("white", "black")}
    spectator = Phone(browser, "Spectator")
    still(spectator.page)
    spectator.page.goto(table.locator("footer a").inner_text())
    audit(spectator.page, "watch: lobby")

    names = {"white": ["Ada", "Alan"], "black": ["Grace", "Linus"]}
    team_of = {name: team for team, members in names.items() for name in members}
    phones = {name: Phone(browser, name) for name in team_of}
    for phone in phones.values():
        still(phone.page)
    phones["Ada"].page.goto(links["white"])
    audit(phones["Ada"].page, "join")
    for name, phone in phones.items():
        phone.page.goto(links[team_of[name]])
        phone.page.locator("#name").fill(name)
        phone.page.locator("form.stack button.primary").click()
        expect(phone.page.locator(".topbar .who")).to_contain_text(name)
    doing(phones["Ada"], "wait_for_start")
    audit(phones["Ada"].page, "play: lobby")
    expect(table.locator(".team-black .host-roster li")).to_have_count(2)
    audit(table, "table: lobby, teams seated")

    table.locator("form.start button.primary").click()
    expect(table.locator(".round-title")).to_be_visible()
    game_id = phones["Ada"].page.url.rsplit("/", 1)[1]
    api = {name: ApiSession(phone, url, game_id) for name, phone in phones.items()}
    # The table's page and address carry no token (its key is in its cookie): the API's host token from the app.
    host = Host(table, url, game_id, live_server.server.app.extensions["games"].shared_tokens(game_id)["host"])

    def roles():
        views = {name: session.view() for name, session in api.items()}
        encryptor = {team_of[n]: n for n, v in views.items() if v["you"]["encryptor"]}
        guesser = {team: next(n for n in names[team] if n != encryptor[team]) for team in names}
        return encryptor, guesser, {team: views[n]["you"]["code"] for team, n in encryptor.items()}

    # Round 1: the Encryptors write; their teammates wait.
    enc, dec, codes = roles()
    audit(table, "table: round 1, Encryptors writing")
    expect(spectator.page.locator(".round-title")).to_be_visible()
    audit(spectator.page, "watch: round 1")
    doing(phones[enc["white"]], "write_clues")
    phones[enc["white"]].page.locator("details.secret summary").click()
    audit(phones[enc["white"]].page, "play: Encryptor, code shown")
    doing(phones[dec["white"]], "wait_for_clues")
    phones[dec["white"]].page.locator("#swap-keyword summary").click()
    audit(phones[dec["white"]].page, "play: teammate waits for the clues")
    cover = phones[dec["white"]].page.locator("button[data-cover]")
    cover.click()
    expect(cover).to_have_attribute("aria-pressed", "true")
    audit(phones[dec["white"]].page, "play: teammate, screen covered")
    cover.click()
    expect(cover).to_have_attribute("aria-pressed", "false")

    # The task line is one aria-live element: a change of task changes its text, never the element.
    waiting = phones[dec["white"]].page
    line = waiting.locator("#task-line")
    expect(line).to_have_attribute("aria-live", "polite")
    before = line.inner_text()
    waiting.evaluate("window.taskLine = document.getElementById('task-line')")

    announce(phones[enc["white"]], ["orbit", "needle", "moat"])
    expect(phones[enc["black"]].page.locator(".sand-timer.big")).to_be_visible()
    audit(phones[enc["black"]].page, "play: Encryptor under the sand timer")
    expect(table.locator(".sand-timer.big")).to_be_visible()
    audit(table, "table: sand timer")
    api[enc["black"]].post("clues", clues=["ripple", "fin", "spire"])
    doing(phones[dec["white"]], "decrypt")
    expect(line).not_to_have_text(before)
    assert waiting.evaluate("document.getElementById('task-line') === window.taskLine"), (
        "live.js replaced the aria-live task line: screen readers would not announce the new task"
    )

    audit(phones[dec["white"]].page, "play: decrypt")
    doing(phones[enc["white"]], "encryptor_waits")
    audit(phones[enc["white"]].page, "play: Encryptor waits")
    doing(phones[dec["black"]], "no_interception_yet")
    audit(phones[dec["black"]].page, "play: no interception in round 1")
    expect(table.locator(".big-clues li")).to_have_count(3)
    audit(table, "table: White's transmission")

    guess(phones[dec["white"]], codes["white"])
    expect(table.locator(".reveal")).to_be_visible()
    audit(table, "table: reveal")
    doing(phones[enc["white"]], "no_interception_yet")
    expect(phones[enc["white"]].page.locator("#reveal .reveal")).to_be_visible()
    audit(phones[enc["white"]].page, "play: reveal")
    expect(spectator.page.locator(".reveal")).to_be_visible()
    audit(spectator.page, "watch: reveal")

    # A correction waits for both teams; the host opens the table's tools.
    host.post("correction", decryption=wrong(codes["white"]))
    doing(phones["Ada"], "answer_correction")
    audit(phones["Ada"].page, "play: answer a correction")
    api["Grace"].post("answer-correction", accept=True)
    doing(phones["Linus"], "wait_for_correction")
    audit(phones["Linus"].page, "play: correction confirmed, waiting")
    table.locator("#fix-a-mistake summary").click()  # its heading says a correction can be withdrawn there
    expect(table.locator("#fix-a-mistake")).to_have_attribute("open", "")
    audit(table, "table: correction pending, tools open")
    host.post("withdraw-correction")

    # A new seat link: on the table screen, and the page it opens on the new phone.
    seat = api["Alan"].view()["viewer"]["seat"]
    link = host.post("seat-link", seat=seat)["seat_link"]["token"]
    expect(table.locator("#seat-links .seat-link")).to_be_visible()
    audit(table, "table: seat link shown")
    expect(phones["Ada"].page.locator(".seat-alert")).to_be_visible()  # Alan's team sees it at once
    audit(phones["Ada"].page, "play: a seat link of the team")
    new_phone = Phone(browser, "Alan")
    still(new_phone.page)
    new_phone.page.goto(f"{url}/seat/{link}")
    audit(new_phone.page, "seat link page")
    new_phone.page.locator("form.stack button.primary").click()  # it waits for White
    expect(phones["Ada"].page.locator(".let-in")).to_be_visible()
    audit(new_phone.page, "seat link page: waiting")
    audit(phones["Ada"].page, "play: a new phone waits for the team")
    new_phone.close()
    phones["Ada"].page.locator(".let-in form").nth(1).locator("button").click()  # not Alan's: sent away
    expect(phones["Ada"].page.locator(".let-in")).to_have_count(0)

    api[dec["black"]].post("guess", code=codes["black"], confirm=True)

    # Round 2: Black seals its interception first, then waits; White decrypts.
    enc, dec, codes = roles()
    for team in ("white", "black"):
        api[enc[team]].post("clues", clues=[f"zq{team}{i}" for i in range(3)])
    doing(phones[dec["black"]], "intercept")
    audit(phones[dec["black"]].page, "play: intercept")
    api[dec["black"]].post("guess", code=wrong(codes["white"]), confirm=True)
    doing(phones[dec["black"]], "guess_sealed")
    audit(phones[dec["black"]].page, "play: guess sealed")
    api[dec["white"]].post("guess", code=codes["white"], confirm=True)
    api[dec["white"]].post("guess", code=wrong(codes["black"]), confirm=True)
    api[dec["black"]].post("guess", code=codes["black"], confirm=True)

    # Rounds 3 to 8 without a token: the scores stay tied, so the tiebreak comes.
    for round_number in range(3, 9):
        enc, dec, codes = roles()
        for team in ("white", "black"):
            api[enc[team]].post("clues", clues=[f"zq{round_number}{team}{i}" for i in range(3)])
        for team, other in (("white", "black"), ("black", "white")):
            api[dec[other]].post("guess", code=wrong(codes[team]), confirm=True)
            api[dec[team]].post("guess", code=codes[team], confirm=True)

    doing(phones["Ada"], "guess_keywords")
    audit(phones["Ada"].page, "play: tiebreak, guess the keywords")
    expect(table.locator(".stage .guess-status")).to_be_visible()
    audit(table, "table: tiebreak, teams guessing")
    api["Ada"].post("keyword-guesses", guesses=["a", "b", "c", "d"])
    doing(phones["Alan"], "keywords_sealed")
    audit(phones["Alan"].page, "play: keyword guesses sealed")
    api["Grace"].post("keyword-guesses", guesses=["a", "b", "c", "d"])
    expect(table.locator("#judging .judging")).to_be_visible()
    audit(table, "table: judging the keyword guesses")
    doing(phones["Linus"], "wait_for_judging")
    audit(phones["Linus"].page, "play: waiting for the judging")

    table.locator("#judging button.primary").click()
    expect(table.locator(".result")).to_be_visible()
    audit(table, "table: game over")
    doing(phones["Ada"], "game_over")
    audit(phones["Ada"].page, "play: game over")
    expect(spectator.page.locator(".result")).to_be_visible()
    audit(spectator.page, "watch: game over")
    phones["Ada"].page.locator(".result a.button").click()
    expect(phones["Ada"].page.locator(".summary")).to_be_visible()
    audit(phones["Ada"].page, "summary (phone)")

    # The three-player game, as a try-out on the phone: the try-out bar and the Interceptor's screens.
    three_player_try_out(visitor, url, audit)
    for phone in [visitor, spectator, *phones.values()]:
        phone.close()
    table_context.close()

    assert not audit.failures, "Accessibility problems (axe rule, impact, elements):\n" + audit.report()


# Every text the table's live region takes after the page loads, in order (a screen reader says each once).
NEWS = """() => {
  const news = window.__news = document.getElementById('news'), said = window.__said = [];
  new MutationObserver(() => said.push(news.textContent.replace(/\\s+/g, ' ').trim()))
    .observe(news, {childList: true, subtree: true, characterData: true});
}"""


def test_the_table_screen_announces_each_round_and_each_reveal_once(browser, live_server):
    """A screen reader beside the table hears, politely, the round as it starts and each reveal as it comes,
    and nothing again when the screen updates for anything else (clues announced, a guess sealed)."""
    game = ApiGame(live_server.server.app.test_client())
    table = browser.new_context(viewport=TABLE).new_page()
    table.goto(game.urls["table"])
    news = table.locator("#news")
    expect(news).to_have_attribute("aria-live", "polite")
    expect(news).to_have_text("Round 1 of 8")
    table.evaluate(NEWS)

    def said() -> list[str]:
        return table.evaluate("window.__said")

    for team in ("white", "black"):
        game.announce(team)
    expect(table.locator(".big-clues li")).to_have_count(3)  # the screen changed; the news did not
    assert said() == []
    game.transmission("white", decrypted=False)
    expect(table.locator(".last-reveal")).to_contain_text("White's transmission")
    game.transmission("black")
    expect(table.locator(".round-title")).to_contain_text("Round 2 of 8")
    for team in ("white", "black"):
        game.announce(team)
    game.guess("black", "white", wrong(game.code("white")))  # Black's interception, sealed
    expect(table.locator(".stage .guess-status")).to_contain_text("sealed")
    texts = said()
    assert len(texts) == 2, texts
    assert texts[0].startswith("Round 1 · White's transmission. White decrypts") and texts[0].endswith(
        "+1 Miscommunication for White"
    ), texts[0]
    assert texts[1].startswith("Round 1 · Black's transmission.") and texts[1].endswith("No token Round 2 of 8"), texts[
        1
    ]
    game.guess("white", "white", game.code("white"))  # White's decryption: the reveal
    expect(news).to_contain_text("Round 2 · White's transmission. Black intercepts")
    assert len(said()) == 3
    assert table.evaluate("document.getElementById('news') === window.__news"), "the live region was replaced"
    table.context.close()
