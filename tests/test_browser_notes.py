"""The team's notes in real Chromium (rules/notes.py): typed on one phone, shown live on every phone of that
team and nowhere else; a teammate's note never wipes what this player is typing, nor does the page's own
fetch answered before that note came by its stream; kept across a reload; without JavaScript, a Save button;
the tiebreak's keyword guesses start from them. Time moves on Playwright's clock where the test needs a note
not saved yet, never by sleeping."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .browser import Phone, shot, shots
from .test_browser_corrections import Tabletop
from .test_browser_secret_screen import freeze

pytestmark = pytest.mark.browser


def note(page, key: str):
    """A note's field on this phone: `keyword-2`, `line-1`..."""
    return page.locator(f'form.note[data-note="{key}"] input[name="text"]')


def test_a_note_reaches_every_teammate_live_and_never_wipes_what_another_is_typing(browser, live_server):
    game = Tabletop(browser, live_server, fake_clock=True)
    try:
        game.round()  # round 2: round 1's clues are on the sheets
        grace, linus = game.phones["Grace"].page, game.phones["Linus"].page  # Black, noting White's words
        ada = game.phones["Ada"].page
        for page in (grace, linus):
            expect(note(page, "line-1")).to_be_visible()
        expect(ada.locator("form.note")).to_have_count(4 + 1)  # White notes Black's sheet: its own forms
        expect(ada.locator(".sheet.team-edge-white form.note")).to_have_count(0)  # never on its own sheet
        expect(note(grace, "keyword-2")).to_have_attribute("placeholder", "our guess")
        expect(grace.locator("form.note button")).to_have_count(5)
        for button in grace.locator("form.note button").all():
            expect(button).to_be_hidden()  # saved as typed: no button with the script

        # Grace types a guess of White's keyword 2: it is saved after a pause, and Linus's phone shows it.
        note(grace, "keyword-2").press_sequentially("whale?")
        expect(note(linus, "keyword-2")).to_have_value("whale?")
        expect(grace.locator('form.note[data-note="keyword-2"]')).to_have_class("note saved")

        # Linus types a note his phone hasn't sent yet (his clock stands still) while Grace writes a line:
        # his phone shows her line at once, and keeps his text, his focus and his caret.
        freeze(linus)
        note(linus, "keyword-3").press_sequentially("cas")
        note(grace, "line-1").press_sequentially("all about the sea")
        expect(note(linus, "line-1")).to_have_value("all about the sea")
        expect(note(linus, "keyword-3")).to_have_value("cas")
        expect(note(linus, "keyword-3")).to_be_focused()
        linus.keyboard.type("tle")
        expect(note(linus, "keyword-3")).to_have_value("castle")
        expect(note(grace, "keyword-3")).to_have_value("")  # not sent yet
        linus.clock.run_for(1000)  # the pause: saved
        expect(note(grace, "keyword-3")).to_have_value("castle")
        expect(note(linus, "keyword-3")).to_have_value("castle")

        # Nobody else ever sees them: White's phones, the table screen, the API's other viewers.
        for page in (ada, game.phones["Alan"].page, game.table):
            page.reload()
            for text in ("whale?", "castle", "all about the sea"):
                assert text not in page.content(), text
        # Kept across a reload, for the whole match.
        grace.reload()
        expect(note(grace, "keyword-2")).to_have_value("whale?")
        expect(note(grace, "keyword-3")).to_have_value("castle")
        expect(note(grace, "line-1")).to_have_value("all about the sea")
        note(grace, "keyword-4").press_sequentially("moon")
        expect(note(linus, "keyword-4")).to_have_value("moon")
        expect(grace.locator('form.note[data-note="keyword-4"]')).to_have_class("note saved")
        note(grace, "keyword-4").blur()
        shots(grace, "notes-sheet", locator=grace.locator(".sheet.team-edge-white"))
    finally:
        game.close()


# Orderings a test forces on a page (`window.held`, once it sets it): while `held.messages` is a list, its
# stream's messages wait in it (the test hands them over); with `held.fetch`, its next fetch of itself
# answered with a change comes, but its body (`held.body`) reaches the page only at `held.release()`.
HELD = """(() => {
    const listen = EventSource.prototype.addEventListener;
    EventSource.prototype.addEventListener = function (type, listener, options) {
      return listen.call(this, type, function (event) {
        const held = window.held;
        if (held && held.messages) held.messages.push(() => listener.call(this, event));
        else listener.call(this, event);
      }, options);
    };
    const real = window.fetch;
    window.fetch = function (url, init) {
      const answer = real.call(window, url, init), held = window.held;
      if (!held || !held.fetch || !(init && init.headers && "X-Live-Keys" in init.headers)) return answer;
      held.fetch = false;
      const released = new Promise((done) => { held.release = done; });
      return answer.then((r) => r.text().then((body) => {
        held.body = body;
        return new Proxy(r, {get: (target, name) => name === "text" ? () => released.then(() => body)
                                                   : typeof target[name] === "function" ? target[name].bind(target)
                                                   : target[name]});
      }));
    };
})()"""


def test_a_fetch_answered_before_a_teammates_note_never_puts_back_the_sheet_without_it(browser, live_server):
    """Linus's note saved, his page fetches itself (static/live.js `saveNote`); Grace's note comes by his stream
    before that fetch's body does: the sheet it brings, older, does not replace the one with her note (else it
    stayed gone until the next safety poll, 30 s on)."""
    game = Tabletop(browser, live_server, init_script=HELD)
    try:
        game.round()
        grace, linus = game.phones["Grace"].page, game.phones["Linus"].page
        linus.evaluate("window.held = {messages: [], fetch: true}")  # his stream slow: the fetch answers first
        note(linus, "keyword-3").press_sequentially("castle")
        linus.wait_for_function("() => window.held.body !== undefined")
        assert "castle" in linus.evaluate("window.held.body")  # the sheet with his note
        linus.evaluate("window.held.messages.splice(0).forEach((deliver) => deliver()); window.held.messages = null")
        note(grace, "keyword-2").press_sequentially("whale")
        expect(note(linus, "keyword-2")).to_have_value("whale")  # by the stream
        # The fetch's body handed over: the page does all it will with it before this next task runs.
        shown = linus.evaluate(
            """() => { window.held.release();
                       return new Promise((done) => setTimeout(() => done([...document.querySelectorAll(
                         'form.note input[name=text]')].map((input) => input.value)), 0)); }"""
        )
        assert "whale" in shown and "castle" in shown
    finally:
        game.close()


def test_without_javascript_a_note_is_saved_with_its_button(browser, live_server):
    game = Tabletop(browser, live_server)
    try:
        game.round()
        plain = Phone(browser, "Grace", javascript=False)
        plain.context.add_cookies(game.phones["Grace"].context.cookies())
        page = plain.page
        page.goto(game.phones["Grace"].page.url)
        form = page.locator('form.note[data-note="keyword-1"]')
        form.locator('input[name="text"]').fill("anchor")
        form.get_by_role("button", name="Save").click()
        expect(note(page, "keyword-1")).to_have_value("anchor")  # the page again, with the note
        expect(note(game.phones["Linus"].page, "keyword-1")).to_have_value("anchor")
        shot(page, "notes-sheet-without-javascript-390")
        plain.close()
    finally:
        game.close()


def test_the_tiebreaks_keyword_guesses_start_from_the_teams_notes(browser, live_server):
    game = Tabletop(browser, live_server)
    try:
        game.round()
        grace, linus = game.phones["Grace"].page, game.phones["Linus"].page
        note(grace, "keyword-1").press_sequentially("anchor")
        expect(note(linus, "keyword-1")).to_have_value("anchor")
        note(grace, "keyword-3").press_sequentially("castle")
        expect(note(linus, "keyword-3")).to_have_value("castle")
        game.quiet_rounds(7)  # round 8 ends: the keyword tiebreak
        game.phones["Linus"].see("guess the other team's four keywords")
        expect(linus.locator("#kw1")).to_have_value("anchor")
        expect(linus.locator("#kw2")).to_have_value("")
        expect(linus.locator("#kw3")).to_have_value("castle")
        expect(linus.locator("form.stack .hint").first).to_contain_text("Filled in from your team's notes")
        shots(linus, "notes-tiebreak-prefilled", locator=linus.locator("#kw1"))
        # A note written now is offered to a teammate whose form is untouched...
        note(grace, "keyword-2").press_sequentially("whale")
        expect(linus.locator("#kw2")).to_have_value("whale")
        # ... and the player still has the last word.
        linus.locator("#kw1").fill("ship")
        linus.get_by_role("button", name="Seal our four guesses").click()
        game.phones["Grace"].see("Your keyword guesses are sealed")
        assert game.view("Grace")["tiebreak"]["guesses"]["black"] == ["ship", "whale", "castle", ""]
        assert game.view("Ada")["tiebreak"]["guesses"]["black"] is None
    finally:
        game.close()
