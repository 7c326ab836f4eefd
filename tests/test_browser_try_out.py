"""The solo try-out in real Chromium: one device plays every seat, switching from the bar at the top."""

import re

import pytest
from playwright.sync_api import Page, expect

from companion.messages import REASONS
from tools.driver import wrong

from .browser import TABLE, ApiSession, Phone, shot

pytestmark = pytest.mark.browser

TEAMS = ("white", "black")


def labelled(page: Page) -> None:
    """Every screen of a try-out says so."""
    expect(page.locator(".try-out-bar .try-out-label")).to_contain_text("Try-out")
    expect(page.locator("body")).to_have_class(re.compile(r"\btry-out\b"))


def switch(page: Page, name: str) -> None:
    """Take `name`'s seat with the bar's button, as the player would."""
    page.locator(".try-out-bar .seat-switch").get_by_role("button", name=name, exact=True).click()
    expect(page.locator(".topbar .who")).to_contain_text(name)
    expect(page.locator(".seat-switch button.current")).to_have_text(name)
    labelled(page)


def to_table(page: Page) -> None:
    page.locator(".try-out-bar").get_by_role("link", name="Table screen").click()
    expect(page.locator(".seat-switch a.current")).to_have_text("Table screen")
    labelled(page)


def encryptors(page: Page, teams) -> dict[str, str]:
    """Who encrypts this round, read from the table screen's rosters (the Encryptor's badge)."""
    found = {}
    for team in teams:
        badged = page.locator(f".scoreboard .team-{team} .roster li").filter(has=page.locator(".badge"))
        expect(badged).to_have_count(1)
        found[team] = badged.inner_text().split()[0]
    return found


def open_try_out(page: Page, url: str, button: str, names: list[str]) -> None:
    page.goto(url)
    page.get_by_role("button", name=button).click()
    expect(page.locator("h1")).to_contain_text("Your try-out table: every seat is yours")
    labelled(page)
    expect(page.locator(".try-out-bar .seat-switch button")).to_have_text(names)
    expect(page.locator(".seat-switch a.current")).to_have_text("Table screen")
    # Nobody else can join: no QR code, no join link, no spectator link, no lock button.
    expect(page.locator(".qr")).to_have_count(0)
    expect(page.locator('a[href*="/join/"]')).to_have_count(0)
    assert "/join/" not in page.content() and "/watch/" not in page.content()
    expect(page.get_by_role("button", name="Lock joining")).to_have_count(0)
    expect(page.get_by_role("button", name="Start the game")).to_be_enabled()


def test_one_phone_plays_every_seat_of_a_four_player_try_out(browser, live_server):
    solo = Phone(browser, "Solo")
    page = solo.page
    open_try_out(page, live_server.url, "Try a 4-player game", ["Ann", "Ben", "Cleo", "Dev"])
    shot(page, "40-try-out-lobby-390")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".round-title")).to_contain_text("Round 1 of 8")
    labelled(page)
    game_id = page.locator(".seat-switch form").first.get_attribute("action").split("/")[2]  # /try/<id>/seat/1
    team_of = {"Ann": "white", "Ben": "white", "Cleo": "black", "Dev": "black"}

    # Round 1 from this one phone: both Encryptors announce, then both teams decrypt.
    enc = encryptors(page, TEAMS)
    clues = {"white": ["orbit", "evergreen", "fortress"], "black": ["ripple", "fin", "spire"]}
    codes = {}
    for team in TEAMS:
        switch(page, enc[team])
        solo.see("You are the Encryptor")
        codes[team] = solo.reveal_code()
        if team == "white":
            shot(page, "40-try-out-encryptor-390")
        solo.announce(clues[team])
        expect(page.locator("#task")).not_to_have_attribute("data-task", "write_clues")
    to_table(page)
    expect(page.locator(".big-clues")).to_be_visible()
    shot(page, "40-try-out-table-round1-390")
    first = "white" if "White's transmission" in page.locator(".stage h2").inner_text() else "black"
    for team in (first, "black" if first == "white" else "white"):
        decoder = next(n for n, t in team_of.items() if t == team and n != enc[team])
        switch(page, decoder)
        solo.see(clues[team][0])
        if team == first:
            shot(page, "40-try-out-decrypt-390")
        solo.guess(codes[team])
        expect(page.locator("#reveal")).to_contain_text("The code was")
    expect(page.locator(".topbar .round")).to_contain_text("Round 2/8")
    to_table(page)
    expect(page.locator(".round-title")).to_contain_text("Round 2 of 8")
    expect(page.locator(".reveal")).to_contain_text("No token")

    # The API answers for the seat this device sits in, and switching goes through POST /try/....
    # The home page doesn't poll: no live update can race the seat switches made below.
    page.goto(live_server.url)
    api = ApiSession(solo, live_server.url, game_id)
    view = api.view()
    assert view["try_out"] is True and view["viewer"]["role"] == "seat"
    seats = {p["name"]: p["seat"] for team in TEAMS for p in view["teams"][team]["players"]}
    assert sorted(seats) == ["Ann", "Ben", "Cleo", "Dev"]

    def sit(name: str) -> dict:
        csrf = page.locator('meta[name="csrf-token"]').get_attribute("content")
        answer = solo.context.request.post(
            f"{live_server.url}/try/{game_id}/seat/{seats[name]}", form={"csrf_token": csrf}
        )
        assert answer.ok and answer.url.endswith(f"/play/{game_id}")
        seen = api.view()
        assert seen["try_out"] is True and seen["viewer"]["name"] == name
        return seen

    csrf = page.locator('meta[name="csrf-token"]').get_attribute("content")
    refused = solo.context.request.post(f"{live_server.url}/try/{game_id}/seat/99", form={"csrf_token": csrf})
    assert refused.status == 401  # `not_seated`: no seat 99 in this cookie
    stranger = Phone(browser, "Stranger")  # another device can't take a try-out's seat
    stranger.page.goto(live_server.url)
    csrf = stranger.page.locator('meta[name="csrf-token"]').get_attribute("content")
    refused = stranger.context.request.post(f"{live_server.url}/try/{game_id}/seat/1", form={"csrf_token": csrf})
    assert refused.status == 401
    assert stranger.context.request.get(f"{live_server.url}/api/games/{game_id}").status == 401
    stranger.close()

    # Rounds 2 and 3 fast: White intercepts Black both times and wins.
    for round_number in (2, 3):
        seen = sit("Ann")
        assert seen["round"] == round_number
        enc = {team: next(p["name"] for p in seen["teams"][team]["players"] if p["encryptor"]) for team in TEAMS}
        for team in TEAMS:
            codes[team] = sit(enc[team])["you"]["code"]
            api.post("clues", clues=[f"zq{round_number}{team}{i}" for i in range(3)])
        for team in TEAMS:
            other = "black" if team == "white" else "white"
            sit(next(n for n, t in team_of.items() if t == other))
            api.post("guess", code=codes[team] if team == "black" else wrong(codes[team]), confirm=True)
            sit(next(n for n, t in team_of.items() if t == team and n != enc[team]))
            api.post("guess", code=codes[team], confirm=True)

    winner, reason = "White wins!", str(REASONS["interceptions"]["white"])
    page.goto(f"{live_server.url}/play/{game_id}")  # a phone screen again: the last seat taken
    labelled(page)
    expect(page.locator(".result")).to_contain_text(winner)
    to_table(page)
    expect(page.locator(".result")).to_contain_text(winner)
    expect(page.locator(".result")).to_contain_text(reason)
    shot(page, "40-try-out-table-over-390")
    switch(page, "Cleo")
    expect(page.locator(".result")).to_contain_text(winner)
    shot(page, "40-try-out-phone-over-390")
    page.get_by_role("link", name="See the whole game").click()
    expect(page.locator(".summary-head")).to_contain_text(winner)
    expect(page.locator(".try-out-label")).to_contain_text("Try-out")
    shot(page, "40-try-out-summary-390")
    solo.close()


def test_a_three_player_try_out_on_a_table_sized_screen(browser, live_server):
    context = browser.new_context(viewport=TABLE)
    page = context.new_page()
    open_try_out(page, live_server.url, "Try a 3-player game", ["Ann", "Ben", "Ivy"])
    expect(page.locator(".team-white h2")).to_contain_text("The team (2 players)")
    expect(page.locator(".team-black h2")).to_contain_text("The Interceptor (1 player)")
    shot(page, "40-try-out-lobby-1280")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".round-title")).to_contain_text("Round 1 of 5")

    enc = encryptors(page, ("white",))["white"]
    decoder = "Ben" if enc == "Ann" else "Ann"
    switch(page, enc)
    page.locator("details.secret summary").click()
    code = [int(d) for d in page.locator(".your-code .digit").all_inner_texts()]
    for i, clue in enumerate(["glimmer", "tundra", "whisker"], start=1):
        page.locator(f"#clue{i}").fill(clue)
    page.get_by_role("button", name="Announce these clues").click()
    expect(page.locator("#task-line")).to_contain_text("Your team is guessing your code")
    switch(page, "Ivy")
    expect(page.locator("#task-line")).to_contain_text("No interception in round 1")
    expect(page.locator("#keywords")).to_be_empty()
    shot(page, "40-try-out-interceptor-1280")
    to_table(page)
    expect(page.locator(".big-clues")).to_contain_text("glimmer")
    shot(page, "40-try-out-table-round1-1280")
    switch(page, decoder)
    for i, digit in enumerate(code, start=1):
        page.locator(f'input[name="code{i}"][value="{digit}"] + span').click()
    page.get_by_role("button", name="Seal our guess").click()
    expect(page.locator(".topbar .round")).to_contain_text("Round 2/5")
    to_table(page)
    expect(page.locator(".round-title")).to_contain_text("Round 2 of 5")
    shot(page, "40-try-out-table-round2-1280")
    context.close()
