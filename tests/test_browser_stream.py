"""Pages follow their game through a server-sent events stream (issue 13), under gunicorn's gevent workers
as in production: a change shows without waiting for a poll, an idle page makes almost no requests, a
killed worker's pages reconnect and catch up, and a browser without EventSource still follows by polling."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tools.driver import ApiGame, UrlClient

from .browser import TABLE
from .server import Server

pytestmark = [pytest.mark.browser, pytest.mark.across]


@pytest.fixture
def server(tmp_path):
    from .conftest import database_url

    server = Server(database_url(tmp_path), workers=2, worker_class="gevent")
    server.start()
    yield server
    server.stop()


def table_screen(browser, server, game, requests: list | None = None, no_event_source=False):
    page = browser.new_context(viewport=TABLE).new_page()
    if no_event_source:
        page.add_init_script("delete window.EventSource")
    if requests is not None:
        page.on("request", lambda request: requests.append(request.url))
    if no_event_source:
        page.goto(f"{server.url}/table/{game['tokens']['host']}")
    else:
        with page.expect_request(lambda request: request.url.endswith("/stream")):
            page.goto(f"{server.url}/table/{game['tokens']['host']}")
    expect(page.locator(".lobby")).to_be_visible()
    return page


def join(server, game, name):
    status, answer = server.request(
        "POST", f"/api/games/{game['game_id']}/join", {"name": name}, token=game["tokens"]["white"]
    )
    assert status == 200, answer


def new_game(server) -> dict:
    status, game = server.request("POST", "/api/games", {})
    assert status == 201, game
    return game


def test_an_idle_page_holds_its_stream_and_does_not_poll(browser, server):
    game, requests = new_game(server), []
    page = table_screen(browser, server, game, requests)
    stream = f"/table/{game['game_id']}/stream"
    join(server, game, "Ann")
    expect(page.locator(".lobby")).to_contain_text("Ann")
    seen = len(requests)
    join(server, game, "Abe")  # the next change: by then the page has been idle a while
    expect(page.locator(".lobby")).to_contain_text("Abe")
    polls = [url for url in requests[seen:] if url.endswith(f"/table/{game['game_id']}")]
    assert polls == [], requests[seen:]  # the stream brought the change: no fetch, and no polling between
    assert not any(url.endswith(stream) for url in requests[seen:])  # the same stream all along


def test_pages_reconnect_and_catch_up_after_their_worker_is_killed(browser, server):
    game = new_game(server)
    page = table_screen(browser, server, game)
    join(server, game, "Ann")
    expect(page.locator(".lobby")).to_contain_text("Ann")
    with page.expect_request(lambda request: request.url.endswith("/stream"), timeout=15000):
        killed = server.kill_workers()  # the page opens its stream again, by itself
    join(server, game, "Abe")  # answered by a new worker, while the page's stream is down
    expect(page.locator(".lobby")).to_contain_text("Abe", timeout=15000)
    assert not set(killed) & set(server.workers_pids())
    join(server, game, "Ada")  # and the page follows on its new stream
    expect(page.locator(".lobby")).to_contain_text("Ada", timeout=15000)


def test_without_event_source_a_page_follows_by_polling(browser, server):
    game, requests = new_game(server), []
    page = table_screen(browser, server, game, requests, no_event_source=True)
    join(server, game, "Ann")
    expect(page.locator(".lobby")).to_contain_text("Ann")
    assert not any(url.endswith("/stream") for url in requests)


def test_a_page_whose_stream_is_refused_follows_by_polling(browser, tmp_path, request):
    """Past its address's share of streams a page's stream is refused (429 `too_many_streams`): the page
    follows its game by polling, as without EventSource."""
    from .conftest import database_url

    # The browser logs the refused stream as a console error, which this test causes on purpose (where a
    # fixture fails browser tests on console errors: tests/conftest.py `page_errors`).
    if "page_errors" in request.fixturenames:
        request.getfixturevalue("page_errors").allow(
            r"/stream: Failed to load resource: the server responded with a status of 429\b", "the stream refused"
        )
    server = Server(database_url(tmp_path), workers=1, worker_class="gevent")
    server.env["STREAMS_PER_ADDRESS"] = "0"
    server.start()
    try:
        game, statuses = new_game(server), []
        page = browser.new_context(viewport=TABLE).new_page()
        page.on(
            "response", lambda response: statuses.append(response.status) if response.url.endswith("/stream") else None
        )
        with page.expect_response(lambda response: response.url.endswith("/stream")):
            page.goto(f"{server.url}/table/{game['tokens']['host']}")
        expect(page.locator(".lobby")).to_be_visible()
        join(server, game, "Ann")
        expect(page.locator(".lobby")).to_contain_text("Ann")
        join(server, game, "Abe")
        expect(page.locator(".lobby")).to_contain_text("Abe")
        assert statuses and set(statuses) == {429}, statuses
    finally:
        server.stop()


def test_a_page_open_across_an_upgrade_loads_itself_anew(browser, live_server, monkeypatch):
    """After an upgrade every ETag starts with the new release (companion/release.py): a page still open from
    before loads itself anew at its stream's first word, instead of patching in regions of another release."""
    from companion.web import auth

    game = ApiGame(UrlClient(live_server.url), start=False)
    # Playwright's wait below polls with a function made from text, which the page's CSP (no 'unsafe-eval')
    # can refuse when the page loads anew while it polls (seen once in CI): this context lets it.
    page = browser.new_page(bypass_csp=True)
    page.goto(f"{live_server.url}/watch/{game.tokens['spectator']}")
    page.evaluate("window.__before = true")
    monkeypatch.setattr(auth, "release", lambda: "0badcafe")  # the new release's code answers from now on
    assert game.post("lock-joining", game.host, locked=True).status_code == 200  # something to say
    page.wait_for_function("window.__before === undefined")  # loaded anew
    assert '0badcafe.' in page.locator("body").get_attribute("data-etag")
    page.close()
