"""The table's ways to fix a game, in real Chromium: a correction confirmed (or rejected) by both teams, a seat
handed to a new phone by QR code, a rematch through the lobby, the sand timer (on fake clocks, without
waiting), an Encryptor who stepped away, and the careful host buttons that take a second tap."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.messages import REFUSALS, TASKS
from tools.driver import Driver, wrong

from .browser import TABLE, UPDATES_LOST_UNTIL_A_TAP, ApiSession, Phone, freeze, read_qr, refused, shot, shots

pytestmark = pytest.mark.browser

TEAM_OF = {"Ada": "white", "Alan": "white", "Grace": "black", "Linus": "black"}  # in join order
OTHER = {"white": "black", "black": "white"}


REFUSAL_SENTENCES = {code: refused.sentence for code, refused in REFUSALS.items()}


def sentence(live_server, sentences: dict, key: str) -> str:
    """One of messages.py's sentences, as the live app words it."""
    with live_server.server.app.test_request_context():
        return str(sentences[key])


def dashed(code) -> str:
    return "-".join(str(d) for d in code)


class Tabletop(Driver):
    """A game around a table: the table screen (1280×800) and four phones, seated in join order, started.
    The driver's moves go through each phone's own API calls (its cookie); a sender is a player's name,
    and the moves are read from Ada's phone (a seat's view shows who encrypts, as the table's does).

    `timer` ticks the home page's sand timer; `fake_clock` installs Playwright's clock in every browser."""

    host = "Ada"

    def __init__(
        self,
        browser,
        live_server,
        timer: int | None = None,
        fake_clock: bool = False,
        viewport: dict = TABLE,
        phone_viewport: dict | None = None,
        init_script: str | None = None,
        start: bool = True,
    ):
        """`init_script` runs in every page before its own; without `start`, the game waits in its lobby for
        the players not seated yet (the first of TEAM_OF's players: all of them but the last)."""
        self.live_server = live_server
        self.context = browser.new_context(viewport=viewport)
        if init_script:
            self.context.add_init_script(init_script)
        self.table = self.context.new_page()
        if fake_clock:
            self.table.clock.install()
        self.table.goto(live_server.url)
        if timer:
            self.table.locator('input[name="timer"]').check()
            self.table.locator('input[name="timer_seconds"]').fill(str(timer))
        self.table.get_by_role("button", name="New game").click()
        expect(self.table.locator("h1")).to_contain_text("Scan your team's code")
        self.join_links = {team: self.table.locator(f".team-{team} .link a").inner_text() for team in OTHER}
        self.phones: dict[str, Phone] = {}
        for name, team in list(TEAM_OF.items())[: None if start else -1]:
            phone = Phone(browser, name)
            if init_script:
                phone.context.add_init_script(init_script)
            if phone_viewport:
                phone.page.set_viewport_size(phone_viewport)
            if fake_clock:
                phone.page.clock.install()
            phone.join(self.join_links[team])
            self.phones[name] = phone
        if start:
            self.start()

    def start(self) -> None:
        self.table.get_by_role("button", name="Start the game").click()
        expect(self.table.locator(".round-title")).to_contain_text("Round 1 of 8")
        self.game_id = self.phones["Ada"].page.url.rsplit("/", 1)[1]
        self.api = {name: ApiSession(phone, self.live_server.url, self.game_id) for name, phone in self.phones.items()}

    # --- the driver's transport: each phone's own API calls ----------------------------------------
    def view(self, name: str) -> dict:
        return self.api[name].view()

    def send(self, name: str, command: str, body: dict) -> dict:
        return self.api[name].post(command, **body)

    def who(self, seat: int) -> str:
        return next(
            p["name"] for team in OTHER for p in self.view(self.host)["teams"][team]["players"] if p["seat"] == seat
        )

    def teammate(self, team: str) -> str:
        return self.guesser(team, team)

    def careful_click(self, name: str, confirm: str) -> None:
        """A careful host button: the first tap makes it name the player, the second one acts."""
        self.table.get_by_role("button", name=name).click()
        armed = self.table.get_by_role("button", name=confirm)
        expect(armed).to_have_class(re.compile(r"\barmed\b"))
        armed.click()

    def open_tools(self) -> None:
        """The table's "Fix a mistake" panel."""
        tools = self.table.locator("details.host-tools")
        if tools.get_attribute("open") is None:
            tools.locator("summary").click()
        expect(tools.locator(".seat-link-choice")).to_be_visible()

    def close(self) -> None:
        for phone in self.phones.values():
            phone.close()
        self.context.close()


# --- 1. a correction of the last reveal ----------------------------------------------------------


def test_a_correction_confirmed_by_both_teams_then_one_rejected(browser, live_server):
    game = Tabletop(browser, live_server)
    table, phones = game.table, game.phones
    game.round()
    # Round 2: White's decoder taps the wrong code by mistake; Black's transmission comes next.
    game.announce("white")
    game.announce("black")
    white_code = game.code("white")
    game.transmission("white", decrypted=False)
    black_code = game.code("black")
    expect(table.locator(".team-white .token.miscommunication")).to_contain_text("1 Miscommunication")
    expect(table.locator(".reveal")).to_contain_text("+1 Miscommunication for White")

    game.open_tools()
    form = table.locator("form.correction-form")
    expect(form).to_contain_text(f"round 2, White's code {dashed(white_code)}")
    decryption = form.locator('input[name="decryption"]')
    expect(decryption).to_have_value(dashed(wrong(white_code)))
    decryption.fill(dashed(white_code))
    shot(table, "50-table-fix-a-mistake-1280")
    # While the table is typing, White seals its interception of Black's code: what the table typed stays.
    game.api["Ada"].post("guess", code=wrong(black_code), confirm=True)
    expect(table.locator(".stage")).to_contain_text("White's interception: sealed")  # the same refresh
    # the table's half-typed correction survives a live update
    expect(table.locator('form.correction-form input[name="decryption"]')).to_have_value(dashed(white_code))
    table.locator('form.correction-form input[name="decryption"]').fill(dashed(white_code))
    table.get_by_role("button", name="Ask both sides to confirm").click()
    expect(table.locator(".stage .correction")).to_contain_text("Correct round 2: White's transmission")
    expect(table.locator(".stage .correction")).to_contain_text("nobody yet")
    shot(table, "50-table-correction-waiting-1280")

    answer = sentence(live_server, TASKS, "answer_correction")
    for phone in phones.values():
        phone.see(answer)
        expect(phone.page.locator("#task .correction")).to_contain_text("Becomes")
    grace = phones["Grace"]
    expect(grace.page.get_by_role("button", name="Confirm for my team")).to_be_visible()
    expect(grace.page.get_by_role("button", name="Reject")).to_be_visible()
    shot(grace.page, "50-phone-correction-390")

    grace.page.get_by_role("button", name="Confirm for my team").click()
    phones["Linus"].see(sentence(live_server, TASKS, "wait_for_correction"))
    expect(table.locator(".stage .correction")).to_contain_text("Confirmed by: Black")
    phones["Ada"].see(answer)  # White has not answered yet
    phones["Alan"].page.get_by_role("button", name="Confirm for my team").click()

    expect(table.locator(".team-white .token.miscommunication")).to_contain_text("0 Miscommunications")
    notices = table.locator(".notices")
    expect(notices).to_contain_text(f"Corrected: White's transmission now reads decryption {dashed(white_code)}.")
    expect(notices).to_contain_text("Black confirmed the correction.")
    expect(notices).to_contain_text("White confirmed the correction.")
    expect(table.locator(".reveal")).to_contain_text("No token")
    # The round goes on with Black's transmission, White's sealed interception still in place.
    expect(table.locator(".round-title")).to_contain_text("Round 2 of 8")
    expect(table.locator(".stage")).to_contain_text("Black's transmission")
    expect(table.locator(".stage")).to_contain_text("White's interception: sealed")
    for phone in phones.values():
        expect(phone.page.locator("#status .team-edge-white .token.miscommunication")).to_contain_text(
            "0 Miscommunications"
        )
        expect(phone.page.locator("#notices")).to_contain_text("Corrected: White's transmission")
    shot(table, "50-table-corrected-1280")
    shot(phones["Ada"].page, "50-phone-corrected-390")

    # Black decrypts; now its reveal is the last one, and White rejects a correction of it.
    game.api[game.teammate("black")].post("guess", code=black_code, confirm=True)
    expect(table.locator(".round-title")).to_contain_text("Round 3 of 8")
    expect(table.locator("details.host-tools[open]")).to_have_count(0)  # the panel closed after its action
    game.open_tools()
    form = table.locator("form.correction-form")
    expect(form).to_contain_text(f"round 2, Black's code {dashed(black_code)}")
    form.locator('input[name="decryption"]').fill(dashed(wrong(black_code)))
    form.get_by_role("button", name="Ask both sides to confirm").click()
    phones["Ada"].see(answer)
    phones["Ada"].page.get_by_role("button", name="Reject").click()
    expect(table.locator(".notices")).to_contain_text("White rejected the correction: nothing changed.")
    expect(table.locator(".stage .correction")).to_have_count(0)
    expect(table.locator(".round-title")).to_contain_text("Round 3 of 8")
    for team in OTHER:
        expect(table.locator(f".team-{team} .token.miscommunication")).to_contain_text("0 Miscommunications")
        expect(table.locator(f".team-{team} .token.interception")).to_contain_text("0 Interceptions")
    for phone in phones.values():
        expect(phone.page.locator("#task")).to_have_attribute("data-task", re.compile("^(write|wait_for)_clues$"))
    assert game.api["Grace"].view()["correction"] is None
    game.close()


# --- 2. a seat handed to a new phone ----------------------------------------------------------


def test_a_seat_moves_to_a_new_phone_by_qr_code(browser, live_server, page_errors):
    page_errors.allow(refused(403, "/play/[\\w-]+"), "the old phone's seat moved: its poll is refused, it reloads")
    page_errors.allow(refused(403, "/seat/\\S+"), "the spent seat link is opened again")
    game = Tabletop(browser, live_server)
    table, old = game.table, game.phones["Alan"]
    expect(old.page.locator("#keywords li")).to_have_count(4)
    keywords = old.page.locator("#keywords li").all_inner_texts()
    game.announce("white")

    game.open_tools()
    table.get_by_role("group", name="A phone died?").get_by_role("button", name="Alan (White)").click()
    card = table.locator(".seat-link")
    expect(card).to_contain_text("A new seat link for Alan")
    url = read_qr(table, ".seat-link .qr")
    assert url.startswith(live_server.url + "/seat/")
    assert card.locator(".link a").inner_text() == url
    expect(table.locator(".notices")).to_contain_text("The table made a new seat link for Alan.")
    shot(table, "50-table-seat-link-1280")

    new = Phone(browser, "Alan")
    new.page.goto(url)
    expect(new.page.locator("h1")).to_contain_text("Take Alan's seat")
    shot(new.page, "50-seat-page-390")
    new.page.get_by_role("button", name="I am Alan: take the seat").click()
    expect(new.page.locator("main")).to_contain_text("A phone of your team must let this phone in")  # Ada's phone says
    expect(table.locator(".seat-link")).to_have_count(0)  # used: the link is spent
    game.phones["Ada"].page.get_by_role("button", name="Let Alan's new phone in").click()
    expect(new.page.locator(".topbar .who")).to_contain_text("Alan")
    expect(new.page.locator(".topbar .who")).to_contain_text("White")
    expect(new.page.locator("#keywords li")).to_have_text(keywords)
    shot(new.page, "50-new-phone-seat-390")

    expect(table.locator(".notices")).to_contain_text("Alan's seat moved to a new phone, let in by Ada.")
    new.page.goto(url)  # opened again on the phone that used it, it leads to the seat
    expect(new.page.locator(".topbar .who")).to_contain_text("Alan")
    stranger = Phone(browser, "Eve")
    stranger.page.goto(url)  # and nobody can use it a second time
    expect(stranger.page.locator(".error")).to_be_visible()
    stranger.close()

    # The old phone finds out by itself: its next poll is refused and it reloads (reloading it from
    # the test as well would race that navigation).
    expect(old.page.locator(".error")).to_be_visible()
    expect(old.page.locator(".topbar")).to_have_count(0)
    expect(old.page.locator("#keywords")).to_have_count(0)
    expect(old.page.locator(".error")).to_be_visible()
    # the old phone says it has no seat any more
    expect(old.page.locator(".error")).to_contain_text(sentence(live_server, REFUSAL_SENTENCES, "seat_gone"))
    shot(old.page, "50-old-phone-after-handoff-390")

    # The new phone plays the seat: Alan decrypts White's round-1 code.
    new.page.goto(f"{live_server.url}/play/{game.game_id}")
    game.announce("black")
    code = game.code("white")
    new.see("Agree with your team on the code")
    new.guess(code)
    expect(table.locator(".reveal")).to_contain_text("No token")
    new.close()
    game.close()


# --- 3. a rematch ---------------------------------------------------------------------------


def test_a_rematch_through_the_lobby(browser, live_server):
    """A rematch goes back to the lobby: phones follow, a player switches team, the host shuffles the teams
    and sets the sand timer, then starts; fresh keywords, and the Encryptors who waited longest go first."""
    game = Tabletop(browser, live_server)
    table, phones = game.table, game.phones
    first_keywords = {
        team: game.api[name].view()["teams"][team]["keywords"] for name, team in (("Ada", "white"), ("Grace", "black"))
    }
    game.open_tools()  # Ada stepped away: White's rotation moves on
    game.careful_click("Ada stepped away: the next White player takes the round", "Tap again to skip Ada")
    expect(table.locator(".notices")).to_contain_text("Ada stepped away")
    game.round(white=(False, False))  # White misreads...
    game.round()
    assert {team: game.encryptor(team) for team in OTHER} == {"white": "Alan", "black": "Grace"}  # round 3
    game.round(white=(False, False))  # ...twice: Black wins after round 3
    expect(table.locator(".result")).to_contain_text("Black wins!")
    for phone in phones.values():
        phone.see("Black wins!")
    last_turn = {"Alan": 3, "Grace": 3, "Ada": 2, "Linus": 2}  # the round each last encrypted

    table.get_by_role("button", name="Rematch: back to the lobby, same seats").click()
    expect(table.locator(".rematch-intro")).to_contain_text("Rematch: everyone keeps their seat.")
    expect(table.locator(".lobby .qr")).to_have_count(2)  # newcomers can join
    for phone in phones.values():  # no phone navigates: they follow by polling
        phone.see("Rematch: you keep your seat.")
        expect(phone.page.locator("#keywords li")).to_have_count(0)
    linus = phones["Linus"].page
    expect(linus.get_by_role("button", name="Switch to White")).to_be_visible()
    shots(linus, "51-phone-rematch-lobby")
    linus.get_by_role("button", name="Switch to White").click()  # a stray tap moves nobody:
    armed = linus.get_by_role("button", name="Tap again to switch to White")
    expect(armed).to_have_class(re.compile(r"\barmed\b"))
    expect(linus.locator(".topbar .who")).to_contain_text("Black")
    armed.click()  # the second does
    expect(linus.locator(".topbar .who")).to_contain_text("White")
    expect(table.locator(".lobby .team-white .roster li")).to_have_count(3)
    expect(table.get_by_role("button", name="Start the game")).to_be_disabled()  # 3 against 1
    for size, viewport in (
        ("1280", TABLE),
        ("1024", {"width": 1024, "height": 768}),
        ("1920", {"width": 1920, "height": 1080}),
    ):
        table.set_viewport_size(viewport)
        shot(table, f"51-table-rematch-lobby-{size}")
    table.set_viewport_size(TABLE)

    table.get_by_role("button", name="Shuffle teams").click()
    for team in OTHER:  # whoever lands where, 2 and 2
        expect(table.locator(f".lobby .team-{team} .roster li")).to_have_count(2)
    expect(table.get_by_role("button", name="Start the game")).to_be_enabled()
    table.locator("#timer-seconds").fill("45")
    table.get_by_role("button", name="Turn on").click()
    expect(table.locator(".sand-timer-setting")).to_contain_text("Now: 45 seconds")
    phones["Ada"].see("Sand timer: 45 seconds.")
    shot(table, "51-table-rematch-lobby-shuffled-1280")

    table.get_by_role("button", name="Start the game").click()
    expect(table.locator(".round-title")).to_contain_text("Round 1 of 8")
    expect(table.locator(".team-white .token.miscommunication")).to_contain_text("0 Miscommunications")
    expect(table.locator(".notices")).to_have_count(0)  # a fresh log for the new game
    view = game.api["Ada"].view()
    assert view["match"] == 2 and view["timer_seconds"] == 45
    teams = {p["name"]: team for team in OTHER for p in view["teams"][team]["players"]}
    team_names = {"white": "White", "black": "Black"}
    for team in OTHER:  # the longest wait first, then join order
        members = [p["name"] for p in view["teams"][team]["players"]]
        assert game.encryptor(team) == min(members, key=last_turn.get), (team, members)
    for name, phone in phones.items():
        expect(phone.page.locator(".topbar .round")).to_contain_text("Round 1/8")
        expect(phone.page.locator(".topbar .who")).to_contain_text(team_names[teams[name]])
        expect(phone.page.locator("#keywords li")).to_have_count(4)
        words = phone.page.locator("#keywords li").all_inner_texts()
        assert not set(words) & set(first_keywords["white"] + first_keywords["black"]), words
        encryptor = name == game.encryptor(teams[name])
        expect(phone.page.locator("details.secret")).to_have_count(1 if encryptor else 0)
    shot(table, "51-table-rematch-started-1280")
    shot(phones["Ada"].page, "51-phone-rematch-started-390")

    # Game 1's summary stays reachable.
    alan = phones["Alan"]
    alan.page.goto(f"{live_server.url}/play/{game.game_id}/summary?match=1")
    expect(alan.page.locator("h1")).to_contain_text("game 1")
    expect(alan.page.locator(".summary-head")).to_contain_text("Black wins!")
    for word in first_keywords["white"] + first_keywords["black"]:
        expect(alan.page.locator(".summary-teams")).to_contain_text(word)
    expect(alan.page.locator(".summary-round")).to_have_count(3)
    log = alan.page.locator(".summary-log")
    expect(log).to_contain_text("Ada stepped away; Alan is White's Encryptor this round.")
    # the summary's log names each round once
    expect(log).not_to_contain_text("Round 1: Round 1:")
    shot(alan.page, "50-summary-game1-390")
    game.close()


# --- 4. the sand timer, on fake clocks -----------------------------------------------------------


def test_the_sand_timer_counts_down_on_every_screen_without_waiting(browser, live_server):
    service = live_server.server.app.extensions["games"]
    now = [1_700_000_000.0]
    service.clock = lambda: now[0]  # the server's clock, which the test moves
    game = Tabletop(browser, live_server, timer=30, fake_clock=True)
    table, phones = game.table, game.phones
    early, late, teammate = phones["Ada"], phones["Grace"], phones["Linus"]  # round 1's Encryptors: Ada, Grace
    expect(late.page.locator("details.secret")).to_have_count(1)
    expect(table.locator(".sand-timer")).to_have_count(0)  # nobody announced yet

    early.reveal_code()
    early.announce(["orbit", "evergreen", "fortress"])
    early.see("Your clues, ready to read aloud")
    for page in (late.page, table, teammate.page, early.page):
        expect(page.locator(".sand-timer [data-clock]")).to_have_text("0:30")
    expect(late.page.locator(".sand-timer")).to_contain_text("Sand timer: you have")
    expect(table.locator(".sand-timer")).to_contain_text("Sand timer for Black's Encryptor:")
    expect(teammate.page.locator(".sand-timer")).to_contain_text("Sand timer for your Encryptor:")

    # Ten seconds pass in the browsers (not on the server): the countdowns move on by themselves.
    for page in (late.page, table, teammate.page):
        page.clock.run_for(10_000)
        expect(page.locator(".sand-timer [data-clock]")).to_have_text("0:20")
    shot(late.page, "50-phone-sand-timer-390")
    shot(table, "50-table-sand-timer-1280")
    shot(teammate.page, "50-phone-sand-timer-teammate-390")

    for page in (late.page, table, teammate.page):
        page.clock.fast_forward(21_000)
    expect(late.page.locator(".sand-timer")).to_have_text("Time is up! Announce your clues now.")
    expect(table.locator(".sand-timer")).to_have_text("Time is up for Black's Encryptor.")
    expect(teammate.page.locator(".sand-timer")).to_have_text("Time is up for Black's Encryptor.")
    shot(late.page, "50-phone-time-is-up-390")
    shot(table, "50-table-time-is-up-1280")

    # The server's clock passes the deadline too: a fresh page already says so, before any script runs.
    now[0] += 31
    html = late.context.request.get(late.page.url).text()
    assert re.search(r'<p class="sand-timer big up"[^>]*>\s*Time is up! Announce your clues now\.', html), html
    late.page.reload()
    expect(late.page.locator(".sand-timer")).to_have_text("Time is up! Announce your clues now.")
    table.reload()
    expect(table.locator(".sand-timer")).to_have_text("Time is up for Black's Encryptor.")

    # Nothing is scored on time: the late Encryptor still announces, and the round goes on.
    late.reveal_code()
    late.announce(["ripple", "fin", "spire"])
    expect(table.locator(".big-clues")).to_contain_text("orbit")
    expect(table.locator(".sand-timer")).to_have_count(0)
    for team in OTHER:
        expect(table.locator(f".team-{team} .token.miscommunication")).to_contain_text("0 Miscommunications")
    teammate.see("No interception in round 1")

    # Round 2, as Encryptors really do it: both look at their codes at once, then one announces first.
    game.transmission("white")
    game.transmission("black")
    expect(table.locator(".round-title")).to_contain_text("Round 2 of 8")
    late = phones[game.encryptor("black")]
    expect(late.page.locator("details.secret")).to_have_count(1)
    late.reveal_code()
    game.announce("white")
    expect(table.locator(".sand-timer [data-clock]")).to_have_text("0:30")
    # the late Encryptor who is looking at the code sees the sand timer
    expect(late.page.locator(".sand-timer")).to_contain_text("Sand timer: you have")
    game.close()


# --- 5. an Encryptor who stepped away ------------------------------------------------------------


def test_the_table_skips_an_encryptor_who_stepped_away(browser, live_server):
    game = Tabletop(browser, live_server)
    table, ada, alan = game.table, game.phones["Ada"], game.phones["Alan"]
    expect(ada.page.locator("details.secret")).to_have_count(1)
    expect(alan.page.locator("details.secret")).to_have_count(0)
    game.open_tools()
    game.careful_click("Ada stepped away: the next White player takes the round", "Tap again to skip Ada")
    expect(table.locator(".notices")).to_contain_text("Ada stepped away; Alan is White's Encryptor this round.")
    expect(table.locator(".team-white .roster li", has_text="Alan").locator(".badge")).to_have_text("Encryptor")
    expect(alan.page.locator("details.secret")).to_have_count(1)
    alan.see(sentence(live_server, TASKS, "write_clues"))
    code = alan.reveal_code()
    assert len(code) == 3 and set(code) <= {1, 2, 3, 4}
    expect(ada.page.locator("details.secret")).to_have_count(0)
    ada.see(sentence(live_server, TASKS, "wait_for_clues"))
    expect(ada.page.locator("#notices")).to_contain_text("Ada stepped away; Alan is White's Encryptor this round.")
    shot(alan.page, "50-phone-skipped-to-390")
    shot(table, "50-table-skipped-1280")
    # The skip button goes once the new Encryptor has announced.
    alan.announce(["orbit", "evergreen", "fortress"])
    expect(table.locator(".guess-status")).to_contain_text("Alan (White): clues ready")
    expect(table.get_by_role("button", name=re.compile("stepped away: the next White"))).to_have_count(0)
    game.close()


def test_a_live_update_between_a_tap_and_its_release_waits_for_the_release(browser, live_server):
    """The host presses "Fix a mistake" just as White announces, which changes that panel (White's Encryptor
    can no longer be skipped). The update waits until the finger lifts: a summary replaced under the finger
    would get no click at all, and the tap would do nothing. The rest of the page follows at once, and the
    panel as it now is comes right after the release."""
    game = Tabletop(browser, live_server)
    table = game.table
    skip_white = table.locator("#host-tools button", has_text="stepped away: the next White")  # in the closed panel
    expect(skip_white).to_have_count(1)
    table.locator("#fix-a-mistake summary").hover()
    table.mouse.down()
    game.announce("white")
    expect(table.locator(".guess-status")).to_contain_text("(White): clues ready")  # this fetch is applied
    expect(skip_white).to_have_count(1)  # held back while pressed
    table.mouse.up()
    expect(table.locator("#fix-a-mistake")).to_have_attribute("open", "")
    expect(skip_white).to_have_count(0)
    expect(table.locator(".seat-link-choice")).to_be_visible()
    game.close()


def test_a_command_refused_as_stale_shows_what_is_current_and_says_why_for_a_while(browser, live_server, page_errors):
    """The table screen's updates don't get through for a moment, so it still offers to take back White's clues
    after Black announced. The server refuses that tap as `stale`; the page shows the current panel with the
    server's sentence, which goes by itself once the host has had time to read it."""
    page_errors.allow(refused(409), "the stale tap is refused")
    game = Tabletop(browser, live_server, fake_clock=True)
    table = game.table
    game.announce("white")
    expect(table.locator(".guess-status")).to_contain_text("(White): clues ready")
    game.open_tools()
    take_back = table.get_by_role("button", name="Take back White's clues")
    expect(take_back).to_be_visible()
    table.evaluate(UPDATES_LOST_UNTIL_A_TAP)
    game.announce("black")  # the last entry is now Black's clues
    freeze(table)  # time moves when the test says
    store = live_server.server.app.extensions["games"].store
    before = store.events_after(game.game_id)
    take_back.click()  # the form names White's clues: the server refuses it as stale
    tools = table.locator("#host-tools")
    said = tools.locator(".form-error:not(:empty)")
    expect(tools.get_by_role("button", name="Take back Black's clues")).to_be_visible()
    expect(said).to_have_text(
        "Your screen was behind the game: the entry to take back is no longer the one shown. Nothing was "
        "changed, and your screen now shows the game as it is."
    )
    assert store.events_after(game.game_id) == before, "the stale tap took back Black's clues"
    shot(table, "52-table-stale-refusal-1280")
    table.clock.run_for(9000)
    expect(said).to_have_count(1)  # time to read it
    table.clock.run_for(1000)
    expect(said).to_have_count(0)  # then it goes: the screen is up to date
    expect(tools.get_by_role("button", name="Take back Black's clues")).to_be_visible()
    game.close()


def test_a_phone_one_poll_behind_can_not_seal_over_its_teammates_guess(browser, live_server, page_errors):
    """Round 2: Grace seals Black's interception of White's code on her phone; Linus's phone, whose polls
    don't get through, still shows the interception form and he seals too. The server refuses it as stale
    (naming Grace), nothing is written, and his phone shows the sentence and the game as it is."""
    game = Tabletop(browser, live_server)
    game.round()
    game.announce("white")
    game.announce("black")
    code = game.code("white")
    grace, linus = game.phones["Grace"].page, game.phones["Linus"].page
    for page in (grace, linus):  # both phones show round 2's interception form, not round 1's
        expect(page.locator(".topbar .round")).to_contain_text("Round 2")
        expect(page.locator("#task-line")).to_contain_text("Intercept:")
        expect(page.get_by_role("button", name="Seal our guess")).to_be_visible()
    page_errors.allow(refused(409), "his stale seal is refused")
    linus.evaluate(UPDATES_LOST_UNTIL_A_TAP)
    game.phones["Grace"].guess(wrong(code))
    expect(grace.locator("#task-line")).to_contain_text("sealed")
    store = live_server.server.app.extensions["games"].store
    before = store.events_after(game.game_id)
    expect(linus.get_by_role("button", name="Seal our guess")).to_be_visible()  # still the old form
    game.phones["Linus"].guess(code)
    expect(linus.locator("main")).to_contain_text(
        "Your screen was behind the game: the guess for White's code was already sealed by Grace."
    )
    expect(linus.locator("#task-line")).to_contain_text("sealed")
    assert store.events_after(game.game_id) == before, "the stale seal was written"
    shot(linus, "53-phone-stale-seal-390")
    game.close()


# --- 6. careful host buttons ---------------------------------------------------------------------


def test_careful_host_buttons_take_a_second_tap_naming_the_player(browser, live_server, page_errors):
    """Remove, skip and cancel a seat link: the first tap names the player (for a few seconds), the second
    acts; the "Fix a mistake" panel then closes and the table screen shows the round again."""
    page_errors.allow(refused(403, "/play/[\\w-]+"), "Eve is removed: her phone's poll is refused, it reloads")
    context = browser.new_context(viewport=TABLE)
    table = context.new_page()
    table.goto(live_server.url)
    table.get_by_role("button", name="New game").click()
    link = table.locator(".team-white .link a").inner_text()
    eve = Phone(browser, "Eve")
    eve.join(link)
    roster = table.locator(".lobby .team-white .roster")
    expect(roster).to_contain_text("Eve")
    roster.get_by_role("button", name="Remove", exact=True).click()
    armed = roster.get_by_role("button", name="Tap again to remove Eve")
    expect(armed).to_be_visible()
    shot(table, "51-table-confirm-remove-1280")
    remove = roster.get_by_role("button", name="Remove", exact=True)
    expect(remove).to_be_visible(timeout=8000)  # it calms down by itself
    expect(roster).to_contain_text("Eve")  # nothing was done
    remove.click()
    roster.get_by_role("button", name="Tap again to remove Eve").click()
    expect(roster).to_contain_text("Nobody yet")
    # Eve's phone reloads by itself to say so; closing it in the middle of that reload can hang Chromium.
    expect(eve.page.locator(".error")).to_contain_text(sentence(live_server, REFUSAL_SENTENCES, "seat_gone"))
    eve.close()
    context.close()

    game = Tabletop(browser, live_server)
    table = game.table
    game.open_tools()
    table.get_by_role("group", name="A phone died?").get_by_role("button", name="Alan (White)").click()
    expect(table.locator("details.host-tools[open]")).to_have_count(0)  # the panel closed after its action
    card = table.locator(".seat-link")
    card.get_by_role("button", name="Not needed: cancel this link").click()
    expect(card.get_by_role("button", name="Tap again to cancel Alan's link")).to_be_visible()
    shot(table, "51-table-confirm-cancel-link-1280")
    card.get_by_role("button", name="Tap again to cancel Alan's link").click()
    expect(table.locator(".seat-link")).to_have_count(0)

    game.round()  # a longer page: the round is far above the panel
    expect(table.locator(".round-title")).to_contain_text("Round 2 of 8")
    game.open_tools()
    table.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the host scrolls down to the panel
    skip = "Ada stepped away: the next White player takes the round"
    if game.encryptor("white") != "Ada":
        skip = "Alan stepped away: the next White player takes the round"
    named = skip.split(" stepped away")[0]
    table.get_by_role("button", name=skip).click()
    expect(table.get_by_role("button", name=f"Tap again to skip {named}")).to_be_visible()
    shot(table, "51-table-confirm-skip-1280")
    board_top = "document.getElementById('board').getBoundingClientRect().top"
    assert table.evaluate(board_top) < -50  # the panel is in view, the round is not
    table.get_by_role("button", name=f"Tap again to skip {named}").click()
    expect(table.locator(".notices")).to_contain_text(f"{named} stepped away")
    expect(table.locator("details.host-tools[open]")).to_have_count(0)
    assert abs(table.evaluate(board_top)) < 2  # scrolled back to the round
    game.close()


def test_the_fix_a_mistake_panel_closes_even_when_the_table_updated_before_the_answer(browser, live_server):
    """The table screen's own update (its stream, woken by the command) can replace the panel's region before
    the command's answer comes back: the panel that closes is then the one the page shows. The answer is
    held here until that update is in (CI once saw the panel stay open this way)."""
    game = Tabletop(browser, live_server)
    table = game.table
    game.open_tools()
    held = []
    table.route("**/skip-encryptor", lambda route: held.append((route, route.fetch())))  # done; answer held
    named = game.encryptor("white")
    table.get_by_role("button", name=f"{named} stepped away: the next White player takes the round").click()
    table.get_by_role("button", name=f"Tap again to skip {named}").click()
    expect(table.locator(".notices")).to_contain_text(f"{named} stepped away")  # the update, before the answer
    expect(table.locator("details.host-tools[open]")).to_have_count(1)  # kept open across it, as the host left it
    route, answer = held[0]
    route.fulfill(response=answer)
    expect(table.locator("details.host-tools[open]")).to_have_count(0)
    game.close()


def test_careful_host_buttons_work_without_javascript(browser, live_server, page_errors):
    """Without JavaScript the first tap posts and the table page comes back with that button asking again
    (focused, so it is in view); the second tap acts."""
    page_errors.allow(refused(403, "/play/[\\w-]+"), "Eve is removed: her phone's poll is refused, it reloads")
    context = browser.new_context(viewport=TABLE, java_script_enabled=False)
    table = context.new_page()
    table.goto(live_server.url)
    table.get_by_role("button", name="New game").click()
    eve = Phone(browser, "Eve")
    eve.join(table.locator(".team-black .link a").inner_text())
    table.reload()
    roster = table.locator(".lobby .team-black .roster")
    roster.get_by_role("button", name="Remove", exact=True).click()
    armed = roster.get_by_role("button", name="Tap again to remove Eve")
    expect(armed).to_be_focused()
    expect(roster).to_contain_text("Eve")
    shot(table, "51-table-confirm-remove-nojs-1280")
    armed.click()
    expect(roster).to_contain_text("Nobody yet")
    # Eve's phone reloads by itself to say so; closing it in the middle of that reload can hang Chromium.
    expect(eve.page.locator(".error")).to_contain_text(sentence(live_server, REFUSAL_SENTENCES, "seat_gone"))
    eve.close()
    context.close()
