"""The three-player game in real Chromium: a table screen, two phones in the team and the Interceptor's phone."""

import re

import pytest
from playwright.sync_api import Page, expect

from companion.messages import REASONS
from tools.driver import wrong

from .browser import TABLE, ApiSession, Phone, read_qr, shot

pytestmark = pytest.mark.browser

CLUES = ["glimmer", "tundra", "whisker", "lantern", "pebble", "ember", "quiver", "thistle", "fjord"]


def clues_for(keywords: list[str], start: int) -> list[str]:
    """Three clues from CLUES that name none of the team's keywords."""
    usable = [c for c in CLUES if not any(k.lower() in c or c in k.lower() for k in keywords)]
    return usable[start : start + 3]


def new_three_player_table(browser, live_server, screenshots: bool = False):
    table_context = browser.new_context(viewport=TABLE)
    table = table_context.new_page()
    table.goto(live_server.url)
    table.locator("label.choice", has_text="3 players").click()
    expect(table.locator('input[name="mode"][value="three_player"]')).to_be_checked()
    if screenshots:
        shot(table, "30-home-three-players-1280")
    table.get_by_role("button", name="New game").click()
    expect(table.locator("h1")).to_contain_text("Scan your team's code")
    return table_context, table


def seat_everyone(browser, table: Page, live_server, screenshots: bool = False) -> dict[str, list[Phone]]:
    """Read both QR codes from the lobby; Ann and Ben join the team, Ivy is the Interceptor."""
    expect(table.locator(".team-white h2")).to_contain_text("The team (2 players)")
    expect(table.locator(".team-black h2")).to_contain_text("The Interceptor (1 player)")
    urls = {team: read_qr(table, f'.qr[data-team="{team}"]') for team in ("white", "black")}
    for team, url in urls.items():
        assert url.startswith(live_server.url + "/join/")
        assert table.locator(f".team-{team} .link a").inner_text() == url
    if screenshots:
        shot(table, "30-table-lobby-three-players-1280")
    phones = {"white": [Phone(browser, "Ann"), Phone(browser, "Ben")], "black": [Phone(browser, "Ivy")]}
    for team, members in phones.items():
        for phone in members:
            phone.join(urls[team])
            expect(table.locator(f".team-{team} .roster")).to_contain_text(phone.name)
            if phone.name == "Ben":  # the team is complete, the Interceptor's seat is still empty
                expect(table.get_by_role("button", name="Start the game")).to_be_disabled()
                expect(table.locator(".start .hint")).to_contain_text("one Interceptor")
    expect(phones["black"][0].page.locator(".topbar .who")).to_contain_text("The Interceptor")
    expect(phones["white"][0].page.locator(".topbar .who")).to_contain_text("The team")
    table.get_by_role("button", name="Start the game").click()
    expect(table.locator(".round-title")).to_contain_text("Round 1 of 5")
    return phones


def assert_keeps_the_team_secrets(phone: Phone, keywords: list[str]) -> None:
    """The Interceptor's phone shows neither the team's keywords nor its code."""
    page = phone.page
    expect(page.locator("#keywords")).to_be_empty()
    expect(page.locator(".your-code")).to_have_count(0)
    expect(page.locator("details.secret")).to_have_count(0)
    text = page.locator("body").text_content()  # the DOM's text, before any CSS uppercasing
    for word in keywords:
        assert not re.search(rf"\b{re.escape(word)}\b", text), f"the Interceptor's phone shows {word}"


def test_three_players_the_interceptor_wins_with_two_tokens_from_one_transmission(browser, live_server):
    table_context, table = new_three_player_table(browser, live_server, screenshots=True)
    phones = seat_everyone(browser, table, live_server, screenshots=True)
    team, ivy = phones["white"], phones["black"][0]
    everyone = team + [ivy]
    game_id = ivy.page.url.rsplit("/", 1)[1]

    for phone in team:
        phone.see("Your team's keywords")
    keywords = team[0].page.locator("#keywords li").all_inner_texts()
    assert len(keywords) == 4 and team[1].page.locator("#keywords li").all_inner_texts() == keywords
    ivy.see("writing")
    assert_keeps_the_team_secrets(ivy, keywords)
    ivy_api = ApiSession(ivy, live_server.url, game_id)
    seen = ivy_api.view()
    assert seen["transmitting"] == ["white"] and seen["teams"]["white"]["keywords"] is None
    assert seen["you"]["code"] is None and seen["teams"]["black"]["keywords"] is None

    def encryptor() -> Phone:
        found = [p for p in team if p.task() and p.is_encryptor()]
        assert len(found) == 1, "the team should have exactly one Encryptor"
        return found[0]

    # Round 1: the team decrypts; the Interceptor may only listen and take notes.
    enc = encryptor()
    decoder = next(p for p in team if p is not enc)
    code = enc.reveal_code()
    clues = clues_for(keywords, 0)
    for i in range(3):
        enc.page.locator(f"#clue{i + 1}").fill(clues[i])
    shot(enc.page, "30-phone-team-encryptor-writes-390")
    enc.page.get_by_role("button", name="Announce these clues").click()
    expect(table.locator(".big-clues")).to_contain_text(clues[0])
    expect(table.locator(".stage h2")).to_contain_text(f"The team's transmission: {enc.name} reads the clues")
    expect(table.locator(".stage")).not_to_contain_text("Interceptor's interception")  # round 1
    shot(table, "30-table-round1-1280")
    ivy.see("No interception in round 1")
    expect(ivy.page.locator("#task form")).to_have_count(0)  # nothing to enter
    expect(ivy.page.locator("#sheets .sheet")).to_contain_text("The team's transmissions")
    expect(ivy.page.locator("#sheets .sheet")).to_contain_text(clues[0])
    assert_keeps_the_team_secrets(ivy, keywords)
    shot(ivy.page, "30-phone-interceptor-round1-390")
    enc.see("Your team is guessing your code")
    decoder.see(clues[0])
    for i, digit in enumerate(code, start=1):
        decoder.page.locator(f'input[name="code{i}"][value="{digit}"] + span').click()
    shot(decoder.page, "30-phone-team-decryptor-guesses-390")
    decoder.page.get_by_role("button", name="Seal our guess").click()
    expect(table.locator(".round-title")).to_contain_text("Round 2 of 5")
    expect(table.locator(".reveal")).to_contain_text("No token")
    # The Interceptor's note sheet now files each clue under its keyword's number, still without the keyword.
    expect(ivy.page.locator("#sheets .columns")).to_contain_text(clues[0])
    assert_keeps_the_team_secrets(ivy, keywords)

    # Round 2: the other player encrypts; the Interceptor intercepts and the team misreads: two tokens at once.
    enc2 = encryptor()
    assert enc2 is decoder, "the team's two players take turns as Encryptor"
    decoder = enc
    code = enc2.reveal_code()
    clues = clues_for(keywords, 3)
    enc2.announce(clues)
    ivy.see("Intercept")
    ivy.see(clues[0])
    assert_keeps_the_team_secrets(ivy, keywords)
    for i, digit in enumerate(code, start=1):
        ivy.page.locator(f'input[name="code{i}"][value="{digit}"] + span').click()
    shot(ivy.page, "30-phone-interceptor-intercepts-390")
    ivy.page.get_by_role("button", name="Seal my guess").click()
    ivy.see("Your team's guess is sealed")
    expect(table.locator(".guess-status")).to_contain_text("The Interceptor's interception: sealed")
    decoder.see(clues[0])
    decoder.guess(wrong(code))

    winner, reason = "The Interceptor wins!", str(REASONS["interceptor_tokens"])
    expect(table.locator(".result")).to_contain_text(winner)
    expect(table.locator(".result")).to_contain_text(reason)
    for word in keywords:  # over: the keywords are public
        expect(table.locator(".result")).to_contain_text(word)
    expect(table.locator(".team-black .token.interception")).to_contain_text("2 tokens of 2")
    expect(table.locator(".stage")).not_to_contain_text("Round 3")
    shot(table, "30-table-over-1280")
    for phone in everyone:
        phone.see(winner)
        expect(phone.page.locator(".result")).to_contain_text(reason)
    shot(decoder.page, "30-phone-team-over-390")
    shot(ivy.page, "30-phone-interceptor-over-390")

    # The summary, from a phone and from the table screen.
    ivy.page.get_by_role("link", name="See the whole game").click()
    expect(ivy.page.locator(".summary-head")).to_contain_text(winner)
    expect(ivy.page.locator(".summary-head")).to_contain_text(reason)
    expect(ivy.page.locator(".summary-round")).to_have_count(2)
    expect(ivy.page.locator(".summary-teams .team-black")).to_contain_text("2 tokens")
    expect(ivy.page.locator(".summary-rounds")).to_contain_text("+1 token for the Interceptor: intercepted")
    expect(ivy.page.locator(".summary-rounds")).to_contain_text("+1 token for the Interceptor: the team misread")
    shot(ivy.page, "30-summary-390")
    table.get_by_role("link", name="See the whole game").click()
    expect(table.locator(".summary-head")).to_contain_text(winner)
    for word in keywords:
        expect(table.locator(".summary-teams")).to_contain_text(word)
    shot(table, "30-summary-1280")
    for phone in everyone:
        phone.close()
    table_context.close()


def test_three_players_the_team_wins_after_five_rounds(browser, live_server):
    table_context, table = new_three_player_table(browser, live_server)
    phones = seat_everyone(browser, table, live_server)
    ivy = phones["black"][0]
    game_id = ivy.page.url.rsplit("/", 1)[1]
    api = {p.name: ApiSession(p, live_server.url, game_id) for p in phones["white"] + [ivy]}

    # Five rounds through each phone's own API calls: the team always decrypts, Ivy always misses.
    for round_number in range(1, 6):
        views = {name: session.view() for name, session in api.items()}
        assert all(v["round"] == round_number for v in views.values())
        enc = next(name for name in ("Ann", "Ben") if views[name]["you"]["encryptor"])
        decoder = "Ben" if enc == "Ann" else "Ann"
        code = views[enc]["you"]["code"]
        api[enc].post("clues", clues=[f"zq{round_number}{i}" for i in range(3)])
        if round_number > 1:
            api["Ivy"].post("guess", code=wrong(code), confirm=True)
        api[decoder].post("guess", code=code, confirm=True)
        if round_number == 4:
            expect(table.locator(".round-title")).to_contain_text("Round 5 of 5")

    winner, reason = "The team wins!", str(REASONS["team_survived"])
    expect(table.locator(".result")).to_contain_text(winner)
    expect(table.locator(".result")).to_contain_text(reason)
    expect(table.locator(".team-black .token.interception")).to_contain_text("0 tokens of 2")
    shot(table, "30-table-team-wins-1280")
    for phone in phones["white"] + [ivy]:
        phone.see(winner)
    shot(ivy.page, "30-phone-interceptor-loses-390")
    result = api["Ivy"].view()["result"]
    assert (result["winners"], result["reason"]) == (["white"], "team_survived")
    for phone in phones["white"] + [ivy]:
        phone.close()
    table_context.close()
