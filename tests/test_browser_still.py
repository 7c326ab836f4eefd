"""Screens that stay still: nothing that appears on a screen moves a control a finger may be on its way to.

While a teammate joins, the sand timer starts and runs out, a draft arrives and a reveal lands, each screen
records the browser's own layout shifts (`layout-shift` entries, with the nodes they moved) that no input of
its own caused; none may move a button, a field, a panel's summary or a link drawn as a button. On a phone at 390×844 and
320×568, on the table screen at 1024×768 and 1280×800. The entries are Chromium's (WebKit and Firefox don't
report layout shifts), and Playwright's clock runs the sand timer in every browser."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tools.driver import wrong

from .browser import TABLE_SIZES, Phone, shot
from .test_browser_corrections import Tabletop

pytestmark = pytest.mark.browser

# Every shift of a node that is or holds a control that was on the screen before (`__mark`: a control a
# finger may be on its way to; a region redrawn with a new task brings new controls), with how far it went.
WATCH_SHIFTS = """
const CONTROLS = "button, input:not([type=hidden]), select, textarea, summary, a.button";  // (not a link in running text)
window.__shifts = [];
window.__mark = () => { window.__seen = new WeakSet(document.querySelectorAll(CONTROLS)); };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) continue;                        // this screen's own tap moved it
    for (const source of entry.sources || []) {
      const node = source.node;
      if (!node || node.nodeType !== 1 || !window.__seen) continue;
      const held = [node, ...node.querySelectorAll(CONTROLS)].filter((c) => window.__seen.has(c));
      if (!held.length) continue;
      window.__shifts.push({node: node.outerHTML.slice(0, 100), control: held[0].outerHTML.slice(0, 80),
                            from: Math.round(source.previousRect.y), to: Math.round(source.currentRect.y)});
    }
  }
}).observe({type: "layout-shift"});
"""
SIZES = [("1024", {"width": 320, "height": 568}), ("1280", {"width": 390, "height": 844})]


def shifts(page) -> list[dict]:
    found = page.evaluate("window.__shifts.splice(0)")
    return found


@pytest.mark.parametrize("table_size,phone_size", SIZES, ids=["1024-320", "1280-390"])
def test_nothing_that_appears_moves_a_control(browser, live_server, table_size, phone_size):
    game = Tabletop(browser, live_server, timer=30, fake_clock=True, viewport=TABLE_SIZES[table_size],
                    phone_viewport=phone_size, init_script=WATCH_SHIFTS, start=False)  # fmt: skip
    screens = {"table": game.table, **{name: phone.page for name, phone in game.phones.items()}}
    moved: dict[str, list] = {}

    def settled(step: str, record: bool = True) -> None:
        """The shifts each screen recorded since the last step (`record`: kept, else let go: a step where
        every screen's task changes moves what it must)."""
        for name, page in screens.items():
            page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
            found = shifts(page)
            if found and record:
                moved[f"{step} on {name}"] = found
            page.evaluate("window.__mark()")

    settled("the lobby opens", record=False)

    # A teammate joins the lobby.
    late = Phone(browser, "Linus")
    late.context.add_init_script(WATCH_SHIFTS)
    late.page.clock.install()
    late.page.set_viewport_size(phone_size)
    late.join(game.join_links["black"])
    expect(game.table.locator(".team-black .roster")).to_contain_text("Linus")
    game.phones["Linus"], screens["Linus"] = late, late.page
    settled("a player joins")
    game.start()
    settled("the game starts", record=False)

    # The sand timer starts (Ada announces), then runs out; a draft arrives; a reveal lands.
    game.phones["Ada"].reveal_code()
    game.phones["Ada"].announce(["orbit", "evergreen", "fortress"])
    for page in screens.values():
        expect(page.locator(".sand-timer [data-clock]")).to_have_text("0:30")
    settled("the sand timer starts")
    shot(game.phones["Grace"].page, f"still-timer-late-encryptor-{phone_size['width']}")
    shot(game.phones["Linus"].page, f"still-timer-teammate-{phone_size['width']}")
    for page in screens.values():
        page.clock.run_for(31_000)
        expect(page.locator(".sand-timer.up")).to_have_count(1)
    settled("the sand timer runs out")
    shot(game.phones["Grace"].page, f"still-time-up-late-encryptor-{phone_size['width']}")
    game.announce("black")  # (the round moves on to its reading: every screen's task changes)
    expect(game.table.locator(".big-clues")).to_contain_text("orbit")
    settled("the reading starts", record=False)
    game.guess("white", "white", wrong(game.code("white")))  # White's decryption: nobody intercepts in round 1
    for page in screens.values():
        expect(page.locator(".reveal").first).to_be_visible()
        page.clock.run_for(3_000)  # the reveal's steps
    settled("a reveal lands")
    shot(game.table, f"still-table-reveal-{table_size}")
    game.transmission("black")
    game.announce("white")
    game.announce("black")
    expect(game.phones["Grace"].page.locator(".guess-form")).to_have_count(1)
    settled("round 2's clues come", record=False)

    # Round 2: Black intercepts White's code; Linus's draft arrives on Grace's phone.
    game.guess("black", "white", wrong(game.code("white")), confirm=False)
    expect(game.phones["Grace"].page.locator("#task")).to_contain_text("Saved for your team")
    settled("a draft arrives")
    assert moved == {}, "\n".join(f"{step}: {found}" for step, found in moved.items())


def test_a_reveal_plays_once_and_its_tokens_light_up_with_its_last_step(browser, live_server):
    """The table screen's board is drawn again at every step of the game: the last reveal's steps played anew
    each time (2.2 s), and the header's tokens lit up before the reveal that earned them."""
    game = Tabletop(browser, live_server, fake_clock=True)
    table = game.table
    game.announce("white")
    game.announce("black")
    game.transmission("white", decrypted=False)  # White's Miscommunication
    reveal = table.locator(".last-reveal .reveal")
    expect(reveal).to_be_visible()
    steps = "document.querySelectorAll('.last-reveal .step')"
    played = table.evaluate(f"[...{steps}].map((s) => s.getAnimations().length)")
    assert played == [1, 1, 1, 1]  # the reveal plays as it lands...
    pip = table.locator(".team-white .token.miscommunication .pip.earned")
    delay = pip.evaluate("(el) => el.getAnimations()[0].effect.getTiming().delay")
    last_step = table.locator(".last-reveal .step-4").evaluate("(el) => el.getAnimations()[0].effect.getTiming().delay")
    assert delay >= last_step  # ...and the token it earned lights up with its last step, not before
    table.clock.run_for(3_000)
    game.transmission("black")  # the next round: the board is drawn again, the same reveal still on it
    expect(table.locator(".round-title")).to_contain_text("Round 2")
    game.announce("white")
    expect(reveal).to_have_class(re.compile(r"\bstill\b"))
    assert table.evaluate(f"[...{steps}].map((s) => s.getAnimations().length)") == [0, 0, 0, 0]  # never again
    game.close()
