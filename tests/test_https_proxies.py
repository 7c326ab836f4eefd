"""The operating guide's nginx recipe (docs/nginx.conf) run as written, in front of `scripts/serve`'s server: forms
work over HTTPS, the seat cookie is Secure, and a stream reaches its client message by message."""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import re
import urllib.parse
import urllib.request

import pytest

from .conftest import database_url
from .proxies import ROOT, Nginx, ServedApp, recipe_settings
from .server import free_port

pytestmark = [pytest.mark.system, pytest.mark.slow]
WAIT = 20  # seconds a stream read may wait before the test fails (a message ends the wait)


@pytest.fixture(scope="module")  # the app and nginx start once for the file's tests (10 to 25 s a start)
def nginx(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("nginx")
    app_port = free_port()
    proxy = Nginx(tmp_path, app_port)
    command = re.search(r"`(PUBLIC_URL=.*?)`", (ROOT / "docs" / "nginx.conf").read_text()).group(1)
    with ServedApp(database_url(tmp_path), f"{proxy.url}/", app_port, recipe_settings(command)), proxy:
        yield proxy


def test_a_form_posted_over_https_through_nginx_seats_a_player_with_a_secure_cookie(nginx):
    cookies = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(
        urllib.request.HTTPSHandler(context=nginx.trusting()), urllib.request.HTTPCookieProcessor(cookies)
    )
    home = browser.open(f"{nginx.url}/", timeout=WAIT).read().decode()
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', home).group(1)
    form = urllib.parse.urlencode({"mode": "standard", "language": "en", "csrf_token": csrf}).encode()
    # What our pages send under Referrer-Policy: no-referrer: Origin null, no Referer.
    created = browser.open(
        urllib.request.Request(
            f"{nginx.url}/games", data=form, headers={"Origin": "null", "Sec-Fetch-Site": "same-origin"}
        ),
        timeout=WAIT,
    )
    assert created.status == 200 and re.search(r"/table/[\w-]+$", created.url), created.url
    assert "Scan your team" in created.read().decode()
    assert all(cookie.secure for cookie in cookies) and len(cookies) > 0


def _post(nginx, path: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(f"{nginx.url}{path}", data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request, context=nginx.trusting(), timeout=WAIT) as answer:
        return json.loads(answer.read())


def test_a_stream_through_nginx_arrives_message_by_message(nginx):
    game = _post(nginx, "/api/games", {})
    connection = http.client.HTTPSConnection("127.0.0.1", nginx.port, context=nginx.trusting(), timeout=WAIT)
    connection.request(
        "GET",
        f"/api/games/{game['game_id']}/stream",
        headers={"Authorization": f"Bearer {game['tokens']['host']}", "Accept": "text/event-stream"},
    )
    stream = connection.getresponse()
    assert stream.status == 200 and stream.getheader("Content-Type").startswith("text/event-stream")

    def next_view() -> str:
        """The next `view` message's data (heartbeats and `retry` skipped); a buffering proxy times out here."""
        fields = {}
        while True:
            line = stream.readline().decode().rstrip("\n")
            if line:
                name, _, value = line.partition(": ")
                fields[name] = value
            elif fields.get("event") == "view":
                return fields["data"]
            else:
                fields = {}

    first = next_view()
    _post(nginx, f"/api/games/{game['game_id']}/join", {"name": "Ann"}, game["tokens"]["white"])
    assert next_view() != first  # the join, told at once: nothing held it in a buffer
    connection.close()
