"""The phone's page in the engines people hold besides Chromium: WebKit (WebKitGTK: every iPhone browser is
WebKit) and Firefox ESR. A phone joins, follows the game by its stream, shows its code for a tap or while
held (by mouse and by finger) and covers its keywords, keeps its clue drafts through a reload, enters a
guess, saves a team note as it is typed and shows a teammate's, and says why when it was behind the game. One phone per test plays in the engine; the other players
play through the JSON API (tests/engines.py). `docs/browsers.md` says what each engine lacks.

The app runs under gunicorn's gevent workers, as in production (its streams are handed to a courier that
writes them: the framing each engine must read), with polling slowed to once in ten minutes: every live
update a test waits for comes by the page's stream, or never in time."""

from __future__ import annotations

import pytest

from tools.driver import wrong

from .browser import UPDATES_LOST_UNTIL_A_TAP
from .conftest import database_url
from .engines import Firefox, Phone, WebKit, EngineGame, Xvfb, wait_until
from .server import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.engines]

TAP_TO_SHOW = "Tap to show your code (hide it from your neighbours)"
HELD = "Release to hide your code"
SUMMARY, CODE = "details.secret summary", ".your-code"
# A page without its stream would poll once in ten minutes: a live update shown in seconds came by the stream.
SLOW_POLLS = 'companion:create_app({"POLL_INTERVAL_MS": 600000})'


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    server = Server(database_url(tmp_path_factory.mktemp("engines")), workers=2, worker_class="gevent", app=SLOW_POLLS)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def display():
    xvfb = Xvfb()
    yield xvfb.display
    xvfb.stop()


@pytest.fixture(scope="session", params=["webkit", "firefox"])
def engine(request):
    """One browser per engine for the whole session (each takes seconds to start); every test starts from a
    phone that never saw the app (`Phone.fresh`)."""
    browser = WebKit(request.getfixturevalue("display")) if request.param == "webkit" else Firefox()
    yield browser
    browser.quit()


@pytest.fixture
def phone(engine, server):
    phone = Phone(engine, server.url)
    yield phone
    try:
        assert phone.errors() == [], f"the page's script failed in {engine.name}"
    finally:
        phone.lift()


def summary_says(phone: Phone, text: str, timeout: float | None = None) -> None:
    phone.see(text, SUMMARY, **({"timeout": timeout} if timeout else {}))


def dashed(code) -> str:
    return "-".join(str(d) for d in code)


# --- joining, and live updates by the stream -------------------------------------------------------


def test_a_phone_joins_and_follows_the_game_by_its_stream(phone, server):
    game = EngineGame(server.url, phone, "Ada", start=False)  # the others join after Ada's page loaded
    phone.see("Linus", "#task")
    phone.see("Alan", "#task")
    phone.shot("lobby")
    game.ok(game.command(game.host, "start"))
    phone.wait("document.querySelector('#task').dataset.task === 'write_clues'", what="Ada's first task")
    assert phone.js("return document.body.classList.contains('in-game')")
    assert phone.text(".topbar .round") == "Round 1/8"
    assert phone.js("return document.querySelectorAll('#keywords .secret-word').length") == 4
    assert not phone.visible(CODE)
    phone.shot("encryptor")
    game.announce("white")  # through the API, not this page's form: the stream tells it
    phone.wait("document.querySelector('#task').dataset.task === 'wait_for_clues'", what="Ada's clues shown announced")
    phone.see("Grace (Black): writing…", "#task")
    game.announce("black")  # both are ready: White's clues are read first
    phone.wait("document.querySelector('#task').dataset.task === 'encryptor_waits'", what="White's transmission")
    assert (
        phone.js("return [...document.querySelectorAll('#task .clues li')].map(li => li.innerText)")
        == game.view(game.host)["rounds"][-1]["transmissions"]["white"]["clues"]
    )


# --- the Encryptor's code: shown for a tap, or while held ----------------------------------------------


def test_a_click_shows_the_code_for_five_seconds_and_holding_the_button_shows_it_until_released(phone, server):
    game = EngineGame(server.url, phone, "Ada")
    summary_says(phone, TAP_TO_SHOW)
    assert not phone.visible(CODE)
    assert not phone.visible(".clue-form .peek")  # the clue labels don't name the keywords either
    assert phone.visible("#clue1")  # yet the clues can be typed with the code hidden

    phone.click(SUMMARY)  # WebDriver's click: a real press and release
    phone.see_shown(CODE)
    summary_says(phone, "Hiding in")
    digits = phone.js("return [...document.querySelectorAll('.your-code .digit')].map(d => d.innerText)")
    assert [int(d) for d in digits] == game.code("white")
    assert phone.visible(".clue-form .peek")
    phone.shot("code-shown")
    phone.fill("#clue1", "zqocean")  # the focus in the form: it still hides on time
    phone.wait(
        "/Hiding in [1-3] s/.test(document.querySelector(args[0]).innerText)"
        " && visible(document.querySelector(args[1]))",
        SUMMARY,
        CODE,
        what="the countdown with the code still shown",
    )
    phone.see_shown(CODE, False)
    summary_says(phone, TAP_TO_SHOW)
    assert phone.js("return document.querySelector('#clue1').value") == "zqocean"

    phone.click(SUMMARY)
    phone.see_shown(CODE)
    phone.click(SUMMARY)  # a second tap hides it at once
    phone.see_shown(CODE, False, timeout=2)

    phone.mouse("down", SUMMARY)  # held: shown as long as the button is down
    summary_says(phone, HELD)
    assert phone.visible(CODE)
    phone.mouse("up")
    phone.see_shown(CODE, False, timeout=2)
    summary_says(phone, TAP_TO_SHOW)


def test_a_tap_shows_the_code_for_five_seconds_and_a_finger_held_shows_it_until_lifted(phone, server):
    """A finger: WebDriver touch actions in Firefox; in WebKit, whose WebDriver has no touch, the events a
    touch screen sends, dispatched from script (tests/engines.py `Phone.finger`). The finger lifts where it
    went down: the code box, once the button has shrunk to show it."""
    EngineGame(server.url, phone, "Ada")
    summary_says(phone, TAP_TO_SHOW)
    phone.finger("down", SUMMARY)
    phone.finger("up")
    phone.see_shown(CODE)
    phone.see_shown(CODE, False)  # by itself, five seconds after the tap
    summary_says(phone, TAP_TO_SHOW)

    phone.finger("down", SUMMARY)
    summary_says(phone, HELD)
    assert phone.visible(CODE)
    phone.finger("up")
    phone.see_shown(CODE, False, timeout=2)
    summary_says(phone, TAP_TO_SHOW)


# --- "Cover my screen" ---------------------------------------------------------------------------------

COVERED = "document.querySelector('[data-cover]').getAttribute('aria-pressed') === 'true'"
WORDS = "[...document.querySelectorAll('#keywords .secret-word')]"
WORDS_HIDDEN, WORDS_SHOWN = f"{WORDS}.every(w => !visible(w))", f"{WORDS}.every(visible)"


def test_cover_my_screen_holds_through_live_updates_and_a_reload(phone, server):
    game = EngineGame(server.url, phone, "Alan")
    phone.wait(WORDS_SHOWN, what="the keywords shown")
    phone.click("[data-cover]")
    phone.wait(f"{COVERED} && {WORDS_HIDDEN}", what="the keywords covered")
    assert phone.visible("#keywords .when-covered")
    phone.shot("covered")
    assert phone.visible("#swap-keyword")
    game.announce("white")  # the swap offer goes: the keywords' region is replaced
    phone.wait("!document.getElementById('swap-keyword')", what="the live update of the keywords")
    phone.wait(f"{COVERED} && {WORDS_HIDDEN}", timeout=0, what="the new keywords covered")
    phone.reload()  # a reload of the player's own: as they chose, covered
    phone.wait(f"{COVERED} && {WORDS_HIDDEN}", what="the keywords covered after the reload")
    phone.click("[data-cover]")
    phone.wait(f"!({COVERED}) && {WORDS_SHOWN}", what="the keywords uncovered")


# The keys of a page's live regions but the one holding `pressed`, in one string.
OTHER_REGIONS_KEYS = (
    "[...document.querySelectorAll('[data-live]')].filter(r => !r.querySelector('{pressed}'))"
    ".map(r => r.id + ':' + r.dataset.key).join(' ')"
)


def test_a_live_update_waits_while_the_player_presses_in_its_region(phone, server):
    """A press in a region holds that region's update until the release (static/live.js): a button replaced
    under the finger would get no click. White's announce changes other regions of Alan's phone and takes
    the keyword swap away; pressed on the swap's summary, the others follow at once and the swap goes once
    the press ends."""
    game = EngineGame(server.url, phone, "Alan")
    phone.wait("document.getElementById('swap-keyword')", what="the keyword swap offered")
    others = OTHER_REGIONS_KEYS.format(pressed="#swap-keyword")
    before = phone.js(f"return {others}")
    phone.mouse("down", "#swap-keyword summary")
    game.announce("white")
    phone.wait(f"{others} !== args[0]", before, what="the other regions' live update")
    assert phone.js("return !!document.getElementById('swap-keyword')"), "the pressed region was replaced"
    phone.mouse("up")
    phone.wait("!document.getElementById('swap-keyword')", what="the held-back region after the release")


def test_the_encryptor_covers_the_screen_reloads_and_the_page_still_works(phone, server):
    game = EngineGame(server.url, phone, "Ada")
    phone.click("[data-cover]")
    phone.wait(f"{COVERED} && {WORDS_HIDDEN}", what="the keywords covered")
    phone.reload()
    phone.wait(
        f"{COVERED} && {WORDS_HIDDEN} && !document.querySelector('[data-cover]').hidden",
        what="the page loaded covered, with its Cover switch",
    )
    phone.click("[data-cover]")
    phone.wait(f"!({COVERED}) && {WORDS_SHOWN}", what="the keywords uncovered")
    phone.click(SUMMARY)
    phone.see_shown(CODE)
    game.announce("white")  # and the page still follows the game
    phone.wait("document.querySelector('#task').dataset.task === 'wait_for_clues'", what="the live update")


# --- the forms: clues (and their drafts), guesses, and a stale tap ------------------------------------

DRAFTS = "Object.keys(localStorage).filter(k => k.startsWith('decrypto-clues:'))"


def test_clue_drafts_survive_a_reload_and_the_clues_are_announced(phone, server):
    game = EngineGame(server.url, phone, "Ada")
    phone.type_clues(["zqocean", "zqcrown", None])
    assert len(phone.js(f"return {DRAFTS}")) == 1
    phone.reload()
    values = "[1, 2, 3].map(i => document.getElementById('clue' + i).value)"
    assert phone.js(f"return {values}") == ["zqocean", "zqcrown", ""]
    phone.shot("clue-drafts-restored")
    phone.fill("#clue3", "zqlantern")
    phone.click(".clue-form button[type=submit]")
    phone.see("Your clues, ready to read aloud", "#task")
    assert phone.js("return [...document.querySelectorAll('#task .clues li')].map(li => li.innerText)") == [
        "zqocean",
        "zqcrown",
        "zqlantern",
    ]
    assert phone.js(f"return {DRAFTS}") == []
    white = game.view(game.phone)["rounds"][-1]["transmissions"]["white"]
    assert white["clues"] == ["zqocean", "zqcrown", "zqlantern"]


def test_a_guess_is_saved_for_the_team_then_sealed(phone, server):
    game = EngineGame(server.url, phone, "Alan")  # White's decoder: Ada encrypts in round 1
    said = game.round(stop_before="white")
    code = said["codes"]["white"]
    phone.wait("document.querySelector('#task').dataset.task === 'decrypt'", what="the decryption form")
    for clue in said["clues"]["white"]:
        phone.see(clue, "#task")
    phone.pick(wrong(code))
    phone.click('.guess-form button[name="confirm"][value="0"]')  # "Save for my team"
    phone.see(f"Saved for your team: {dashed(wrong(code))}.", "#task")
    assert game.view(game.player("Ada"))["rounds"][-1]["transmissions"]["white"]["decryption"]["code"] == wrong(code)
    phone.shot("guess-saved")
    phone.pick(code)
    phone.click('.guess-form button[name="confirm"][value="1"]')  # "Seal our guess"
    phone.wait(
        "[...document.querySelectorAll('#reveal .step-3 .digit')].map(d => d.innerText).join('-') === args[0]",
        dashed(code),
        what="the reveal of White's code",
    )
    phone.shot("revealed")
    assert game.view(game.host)["rounds"][-1]["transmissions"]["white"]["decryption"]["code"] == code


def test_a_note_is_saved_as_it_is_typed_and_a_teammates_note_comes_by_the_stream(phone, server):
    game = EngineGame(server.url, phone, "Linus")  # Black: notes on White's sheet
    game.round()
    note = "form.note[data-note='{}'] input[name=text]"
    phone.wait("!!document.querySelector(args[0])", note.format("line-1"), what="the notes on White's sheet")
    assert not phone.visible("form.note button")  # saved as typed: no button
    phone.fill(note.format("keyword-3"), "zqcastle")
    grace = game.player("Grace")
    wait_until(lambda: game.view(grace)["you"]["notes"]["keywords"][2] == "zqcastle", 10, "the note saved")
    game.command(grace, "note", keyword=2, text="zqwhale")
    phone.wait("document.querySelector(args[0]).value === 'zqwhale'", note.format("keyword-2"), what="Grace's note")
    assert phone.js("return document.querySelector(arguments[0]).value", note.format("keyword-3")) == "zqcastle"
    phone.shot("notes")


def test_a_phone_behind_the_game_is_told_why_its_seal_was_refused(phone, server):
    """Round 2: Grace seals Black's interception on her phone; Linus's page, whose updates don't get through
    (neither its stream's messages nor its fetches of itself), still shows the form and he seals too. The server
    refuses it as stale, naming Grace; his page says so and shows the game as it is."""
    game = EngineGame(server.url, phone, "Linus")
    game.round()
    game.announce("white")
    game.announce("black")
    code = game.code("white")
    phone.wait("document.querySelector('#task').dataset.task === 'intercept'", what="the interception form")
    # The stream's messages and the page's own fetches of itself are lost until the player's tap goes through
    # (a POST).
    phone.js(UPDATES_LOST_UNTIL_A_TAP)
    game.command(game.player("Grace"), "guess", code=wrong(code), confirm=True)
    assert phone.js("return document.querySelector('#task').dataset.task") == "intercept"  # still the form
    phone.pick(code)
    phone.click('.guess-form button[name="confirm"][value="1"]')
    phone.see("Your screen was behind the game: the guess for White's code was already sealed by Grace.")
    phone.wait("document.querySelector('#task').dataset.task === 'guess_sealed'", what="the sealed guess")
    phone.shot("stale-seal")
    interception = game.view(game.player("Grace"))["rounds"][-1]["transmissions"]["white"]["interception"]
    assert interception == {"code": wrong(code), "sealed": True, "started": True}
