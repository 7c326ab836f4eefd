"""Back, Forward and reload after every kind of form, in Chromium, WebKit and Firefox: no form is ever posted
again (no "Confirm Form Resubmission"), no page leaves a phone stranded, and what shows is the game as it is
now. Every page form answers with a redirect (web/pages/after_form.py), a seated phone's old addresses lead
to its seat, and a page the browser restores from its back-forward cache brings itself up to date (live.js).

One phone per test plays in the engine (tests/engines.py); the other players play through the JSON API."""

from __future__ import annotations

import pytest

from tools.driver import wrong

from .conftest import database_url
from .engines import Chromium, EngineGame, Firefox, Phone, WebKit, Xvfb, wait_until
from .server import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.engines]
SETTLE = 30  # seconds a page may take to come back from history and bring itself up to date (a loaded CI)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(database_url(tmp_path_factory.mktemp("history")), workers=2, worker_class="gevent")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def display():
    xvfb = Xvfb()
    yield xvfb.display
    xvfb.stop()


@pytest.fixture(scope="module", params=["chromium", "webkit", "firefox"])
def engine(request):
    if request.param == "chromium":
        browser = Chromium(request.getfixturevalue("browser"))
    elif request.param == "webkit":
        browser = WebKit(request.getfixturevalue("display"))
    else:
        browser = Firefox()
    yield browser
    browser.quit()


@pytest.fixture
def phone(engine, server):
    phone = Phone(engine, server.url)
    yield phone
    assert phone.errors() == [], f"the page's script failed in {engine.name}"


def shows(phone: Phone, path: str, *texts: str, elsewhere: tuple[str, ...] = ()) -> None:
    """The phone shows the page at `path` (its own address, not an error page or a prompt) with `texts` in it,
    once it settled: a page back from history may load again or redirect meanwhile. `elsewhere`: another page
    (its path and texts) that will do as well."""
    pages = [(path, texts)] + ([(elsewhere[0], elsewhere[1:])] if elsewhere else [])

    def there() -> bool:
        try:
            where, text = phone.js("return [location.pathname, document.body ? document.body.innerText : '']")
        except Exception:  # noqa: BLE001 - a page changing under the script (navigating): look again
            return False
        return any(where == p and all(t in text for t in ts) for p, ts in pages)

    try:
        wait_until(there, SETTLE, f"{pages} on {phone.engine}")
    except AssertionError as timed_out:
        where, text = phone.js("return [location.href, document.body ? document.body.innerText : '']")
        raise AssertionError(f"{timed_out}; it shows {where}: {text[:600]!r}") from None
    phone.loaded()


def through_history(phone: Phone, path: str, *texts: str, before: tuple[str, ...] = (), or_: tuple = ()) -> None:
    """Back, Forward and reload, each ending on a page as the game is now: Back on the page before (`before`:
    its path and what it shows now; by default the same page, where a form's post added no page to the
    history or its page leads back here; `or_`: another that will do), Forward and reload on the page at
    `path`, showing `texts`."""
    phone.browser.back()
    shows(phone, *(before or (path, *texts)), elsewhere=or_)
    phone.browser.forward()
    shows(phone, path, *texts)
    phone.browser.reload()
    shows(phone, path, *texts)


def submit(phone: Phone, form: str | None = None) -> None:
    """Press the submit button of the form whose action ends with `form` (None: the page's own form, which
    posts to the page's address: joining, a seat link)."""
    phone.click(f'form[action$="{form}"] button[type=submit]' if form else "form[method=post]:not([action]) button")


def test_joining_with_and_without_a_refusal_survives_back_forward_and_reload(phone, server):
    game = EngineGame(server.url, phone, "Alan", start=False)  # (the phone joins last: Ada is White's)
    play = f"/play/{game.id}"
    shows(phone, play, "Alan")
    phone.fresh()  # a second phone, for the same seat's team: its first name is taken
    join = game.urls["white"].split(server.url, 1)[1]
    phone.go(server.url + join)
    phone.fill("#name", "ADA")
    submit(phone)
    shows(phone, join, "already called ADA")
    assert phone.js("return document.querySelector('#name').value") == "ADA"  # what was typed, to correct
    # The join page again each time (its refusal said once); Back may skip its two loads (Firefox merges a
    # redirect to the page it was on into one history entry): the home page, from where the phone came.
    through_history(phone, join, "Join White", or_=("/", "Join with a code"))
    phone.fill("#name", "Ann")
    submit(phone)
    shows(phone, play, "Ann")
    through_history(phone, play, "Ann")  # Back reaches the join page, which leads a seated phone to its seat
    game.ok(game.command(game.host, "start"))
    shows(phone, play, "Your team's keywords")
    phone.browser.back()
    shows(phone, play, "Your team's keywords")  # never "the game has already started"
    phone.browser.go(server.url + join)
    shows(phone, play, "Your team's keywords")  # the join link itself leads back to the seat


def test_the_game_forms_survive_back_forward_and_reload(phone, server):
    game = EngineGame(server.url, phone, "Alan")  # Alan guesses White's code in round 1, encrypts in round 2
    play, table = f"/play/{game.id}", f"/table/{game.id}"
    game.ok(game.announce("white"))
    game.ok(game.announce("black"))
    phone.reload()
    phone.pick(wrong(game.code("white")))
    phone.click('.guess-form button[name="confirm"][value="1"]')  # "Seal our guess"
    shows(phone, play, "The code was")
    through_history(phone, play, "The code was", "Alan")
    game.transmission("black")  # round 2: Alan encrypts for White
    phone.wait("!!document.querySelector('#clue1')", what="the clue form")
    phone.type_clues(["qwharb", "qwlant", "qwviol"])
    submit(phone, "/clues")
    shows(phone, play, "qwharb")
    through_history(phone, play, "qwharb", "Alan")

    # The table screen on this device too: it takes back Alan's clues, from its "Fix a mistake" panel.
    phone.go(f"{server.url}/table/{game.tokens['host']}")
    shows(phone, table, "Alan (White): clues ready")
    phone.click("#fix-a-mistake > summary")
    submit(phone, "/take-back")
    shows(phone, table, "took back")
    through_history(phone, table, "took back", before=(play, "Alan"))
    phone.go(server.url + play)
    submit(phone, "/clues")  # the clues taken back are there to announce again
    shows(phone, play, "qwharb")

    # A new phone for Ada's seat waits (Alan's phone is in use) until Alan's phone lets it in.
    ada = game.seat_of("Ada")
    link = game.ok(game.post("seat-link", game.host, seat=ada)).get_json()["seat_link"]["token"]
    waiting = game.ok(game.post("claim-seat", link)).get_json()["token"]
    phone.reload()
    submit(phone, "/let-in")
    shows(phone, play, "let in by Alan")
    game.seats["Ada"] = game.seat_tokens[ada] = waiting  # (the new phone's token is the seat's now)
    through_history(phone, play, "let in by Alan", before=(table, "let in by Alan"))

    # To the end, a rematch from the table screen, and Alan leaves its lobby.
    game.ok(game.announce("black"))
    game.transmission("white")
    game.transmission("black")
    while game.view(game.host)["phase"] != "over":
        game.round(white=(False, False), black=(True, False))
    phone.go(server.url + table)
    submit(phone, "/rematch")
    shows(phone, table, "Rematch")
    through_history(phone, table, "Rematch", before=(play, "Rematch"))
    phone.go(server.url + play)
    phone.click("#leave-game > summary")
    submit(phone, "/leave")
    shows(phone, play, "no longer has its seat")
    through_history(phone, play, "no longer has its seat", before=(table, "Rematch"))


def test_a_seat_taken_with_a_link_survives_back_forward_and_reload(phone, server):
    game = EngineGame(server.url, phone, "Linus")
    alan = game.seat_of("Alan")
    token = game.ok(game.post("seat-link", game.host, seat=alan)).get_json()["seat_link"]["token"]
    phone.fresh()  # Alan's new phone (Ada's is in use: a phone of the team lets it in)
    seat, play = f"/seat/{token}", f"/play/{game.id}"
    phone.go(server.url + seat)
    submit(phone)
    shows(phone, play, "must let this phone in")
    through_history(phone, play, "must let this phone in")
    game.ok(game.post("let-in", game.seats["Ada"], seat=alan))
    shows(phone, play, "Your team's keywords")
    through_history(phone, play, "Your team's keywords")
    phone.go(server.url + seat)  # the used link, opened again: it leads to the seat
    shows(phone, play, "Your team's keywords")
