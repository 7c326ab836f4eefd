"""A whole game in real Chromium: the table screen and four phones (one of them without JavaScript)."""

from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect
from tools.driver import wrong

from .browser import TABLE, Phone, read_qr, refused, shot

pytestmark = pytest.mark.browser


def test_a_full_game_from_new_game_to_the_winner(browser, live_server, page_errors):
    page_errors.allow(refused(401, "/play/not-a-game"), "a phone opens a game that doesn't exist")
    table_context = browser.new_context(viewport=TABLE)
    table = table_context.new_page()
    sent = []  # the commands the pages' script posts

    def record(request):
        if request.method == "POST" and request.resource_type == "fetch":
            sent.append(request)

    table.on("request", record)
    table.goto(live_server.url)
    shot(table, "01-home-1280")
    home_on_phone = Phone(browser, "Visitor")
    home_on_phone.page.goto(live_server.url)
    shot(home_on_phone.page, "01-home-390")
    home_on_phone.page.goto(live_server.url + "/play/not-a-game")
    expect(home_on_phone.page.locator(".error")).to_contain_text("Scan your team's QR code")
    shot(home_on_phone.page, "01-error-390")
    home_on_phone.close()
    table.get_by_role("button", name="New game").click()
    expect(table.locator("h1")).to_contain_text("Scan your team's code")

    # The QR codes, read back from pixels, are the links the players follow.
    urls = {team: read_qr(table, f'.qr[data-team="{team}"]') for team in ("white", "black")}
    for team, url in urls.items():
        assert url.startswith(live_server.url + "/join/")
        assert table.locator(f'.team-{team} .link a').inner_text() == url
    shot(table, "02-table-lobby-1280")

    phones = {
        "white": [Phone(browser, "Ada"), Phone(browser, "Alan", javascript=False)],
        "black": [Phone(browser, "Grace"), Phone(browser, "Linus")],
    }
    for phone in (phones["white"][0], *phones["black"]):
        phone.page.on("request", record)
    phones["white"][0].page.goto(urls["white"])
    shot(phones["white"][0].page, "03-join-390")
    for team, members in phones.items():
        for phone in members:
            phone.join(urls[team])
            expect(table.locator(f".team-{team} .roster")).to_contain_text(phone.name)  # live roster
    shot(phones["black"][1].page, "04-phone-lobby-390")

    table.get_by_role("button", name="Start the game").click()
    expect(table.locator(".round-title")).to_contain_text("Round 1 of 8")
    shot(table, "05-table-round1-1280")

    everyone = [p for members in phones.values() for p in members]
    for phone in everyone:
        phone.see("Your team's keywords")
    white_words = phones["white"][0].page.locator("#keywords li").all_inner_texts()
    black_words = phones["black"][0].page.locator("#keywords li").all_inner_texts()
    assert len(white_words) == len(black_words) == 4 and not set(white_words) & set(black_words)
    assert phones["white"][1].page.locator("#keywords li").all_inner_texts() == white_words

    def encryptor(team):
        found = [p for p in phones[team] if (p.task() and p.is_encryptor())]
        assert len(found) == 1, f"{team} should have exactly one Encryptor"
        return found[0]

    def guesser(team, enc):
        return next(p for p in phones[team] if p is not enc)

    # Round 1: White misreads its Encryptor; nobody intercepts.
    enc = {team: encryptor(team) for team in phones}
    expect(enc["white"].page.locator(".your-code")).to_be_hidden()  # hidden until pressed
    shot(enc["white"].page, "06-encryptor-code-hidden-390")
    codes = {team: enc[team].reveal_code() for team in phones}
    shot(enc["white"].page, "06-encryptor-code-390")
    enc["white"].announce(["orbit", "evergreen", "fortress"])
    enc["black"].announce(["ripple", "fin", "spire"])
    expect(table.locator(".big-clues")).to_contain_text("orbit")
    shot(table, "07-table-white-transmission-1280")
    guesser("black", enc["black"]).see("No interception in round 1")
    shot(guesser("black", enc["black"]).page, "07-phone-no-interception-390")
    enc["white"].see("Your team is guessing your code")
    decoder = guesser("white", enc["white"])
    decoder.see("orbit")
    shot(decoder.page, "08-phone-decrypt-390")
    decoder.guess(wrong(codes["white"]))
    expect(table.locator(".reveal")).to_contain_text("The code was")
    shot(table, "09-table-reveal-1280")
    guesser("black", enc["black"]).see("ripple")
    guesser("black", enc["black"]).guess(codes["black"])
    expect(table.locator(".round-title")).to_contain_text("Round 2 of 8")
    expect(table.locator(".team-white .token.miscommunication")).to_contain_text("1 Miscommunication")

    # Round 2: Black intercepts White, and White misreads again: Black wins at the end of the round.
    enc = {team: encryptor(team) for team in phones}
    codes = {team: enc[team].reveal_code() for team in phones}
    enc["white"].announce(["lunar", "needle", "moat"])
    enc["black"].announce(["harbour", "jaws", "rampart"])
    interceptor = guesser("black", enc["black"])
    interceptor.see("lunar")
    shot(interceptor.page, "10-phone-intercept-390")
    interceptor.guess(codes["white"], seal=False)
    interceptor.guess(codes["white"])
    interceptor.see("Your team's guess is sealed")
    shot(interceptor.page, "10-phone-sealed-390")
    guesser("white", enc["white"]).see("lunar")
    enc["white"].see("Your team is guessing your code")  # this phone has no JavaScript: it reloads
    shot(enc["white"].page, "11-encryptor-waits-nojs-390")
    guesser("white", enc["white"]).guess(wrong(codes["white"]))
    expect(table.locator(".reveal")).to_contain_text("+1 Interception for Black")
    # Black's transmission still happens before the game ends.
    expect(table.locator(".round-title")).to_contain_text("Round 2 of 8")
    guesser("white", enc["white"]).see("harbour")
    guesser("white", enc["white"]).guess(wrong(codes["black"]))
    guesser("black", enc["black"]).guess(codes["black"])

    expect(table.locator(".result")).to_contain_text("Black wins!")
    expect(table.locator(".result")).to_contain_text("White misread its own Encryptor twice")
    for word in white_words + black_words:
        expect(table.locator(".result")).to_contain_text(word)
    shot(table, "12-table-over-1280")
    for phone in everyone:
        phone.see("Black wins!")
        for word in white_words + black_words:
            expect(phone.page.locator(".result")).to_contain_text(word)
    shot(phones["white"][0].page, "13-phone-over-390")

    # The script posted each command as its form would without it (its fields, urlencoded, to its own
    # address, with its CSRF token and target), asking for the JSON answer: never to the API.
    commands = {urlparse(r.url).path.rsplit("/", 1)[1] for r in sent}
    assert {"start", "clues", "guess"} <= commands, commands
    for request in sent:
        assert urlparse(request.url).path.startswith(("/table/", "/play/")), request.url
        assert request.headers["content-type"].startswith("application/x-www-form-urlencoded")
        assert request.headers["accept"] == "application/json"
        fields = parse_qs(request.post_data)
        assert fields["csrf_token"] and fields["match"] == ["1"], (request.url, fields)
    for phone in everyone:
        phone.close()
    table_context.close()
