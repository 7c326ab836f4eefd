"""A game played through the pages over HTTPS, as docs/operating.md deploys it: `scripts/serve`'s server behind
Caddy's TLS proxy (`--internal-certs`), in Chromium that trusts Caddy's root certificate as a phone whose
owner installed it.

Over plain http Flask-WTF's strict Referer check never runs; behind HTTPS it refused every form our pages
post (they send no Referer). This test is what caught it: every step here is a form.
"""

from __future__ import annotations

import hashlib
import os
import re
import socket
import ssl
import urllib.request

import pytest
from playwright.sync_api import expect
from tools.chromium import CHROMIUM, CHROMIUM_ARGS
from tools.driver import wrong

from .browser import TABLE, Phone, read_qr, shot
from companion.addresses import lan_address

from .conftest import database_url
from .proxies import (
    ROOT,
    Caddy,
    ServedApp,
    chromium_home_trusting,
    fetch,
    listening_ports,
    guide_command,
    recipe_settings,
)
from .server import free_port

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Run before the page's own script: count the stream's messages, and record what the real Wake Lock says.
WATCH = """
(() => {
  window.__stream = {opened: 0, messages: 0};
  const Source = window.EventSource;
  window.EventSource = function (url) {
    const source = new Source(url);
    window.__stream.opened++;
    for (const kind of ["view", "page"]) source.addEventListener(kind, () => window.__stream.messages++);
    return source;
  };
  window.EventSource.prototype = Source.prototype;
  Object.assign(window.EventSource, {CONNECTING: 0, OPEN: 1, CLOSED: 2});
  window.__wakeLock = "never asked";
  if (window.WakeLock) {
    const request = WakeLock.prototype.request;
    WakeLock.prototype.request = function (type) {
      return request.call(this, type).then((sentinel) => { window.__wakeLock = "taken"; return sentinel; },
                                           (error) => { window.__wakeLock = "refused: " + error; throw error; });
    };
  }
})();
"""


@pytest.fixture(scope="module")  # the app and Caddy start once for the file's tests (10 s a start)
def proxied(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("proxied")
    app_port = free_port()
    with (
        Caddy(tmp_path / "caddy", app_port) as caddy,  # first: the app hands out the root it makes
        ServedApp(database_url(tmp_path), f"{caddy.url}/", app_port, caddy.app_settings()) as app,
    ):
        caddy.wait_for_app()
        caddy.app = app
        yield caddy


@pytest.fixture
def trusting_browser(browser_type, proxied, tmp_path):
    home = chromium_home_trusting(proxied.root_certificate, tmp_path / "chromium-home")
    # The whole browser, as a phone runs it: the headless shell the other tests use has no screen Wake Lock,
    # which a page served over HTTPS takes.
    browser = browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, env={**os.environ, "HOME": str(home)})
    yield browser
    browser.close()


def test_the_readme_recipe_is_what_the_tests_run():
    """The HTTPS section's commands: Caddy with docs/Caddyfile, which the proxy fixture runs, the settings the
    served app gets, and `scripts/serve`, which ends in the command the fixture starts."""
    assert guide_command("sudo apt install") == ["sudo", "apt", "install", "caddy"]
    assert "caddy" in (ROOT / "scripts" / "install-test-tools").read_text()
    assert guide_command("ADDRESS=")[1:] == ["caddy", "run", "--config", "docs/Caddyfile"]
    settings = recipe_settings(" ".join(guide_command("PUBLIC_URL=")))
    assert settings["BIND"] == "127.0.0.1" and settings["ROOT_CERT"].endswith("/pki/authorities/local/root.crt")
    assert (ROOT / "scripts" / "serve").read_text().rstrip().endswith("exec .venv/bin/decrypto serve")
    for document in (ROOT / "README.md", ROOT / "docs" / "operating.md"):  # no folder of the authority served
        assert not re.search(r"file-server|pki/authorities/local\s*$", document.read_text(), re.M)


def test_a_phone_on_the_wifi_gets_the_root_certificate_and_never_a_key(proxied):
    """Followed as written, the recipe hands a phone the root certificate over plain http (the one file it
    needs before it trusts the table) and no private key from any port Caddy or the app listens on, by any
    path; the app itself listens on loopback alone."""
    certificate = proxied.root_certificate.read_bytes()
    with urllib.request.urlopen(f"http://127.0.0.1:{proxied.http_port}/root.crt", timeout=10) as answer:
        assert answer.read().strip() == certificate.strip()
        assert answer.headers["Content-Type"] == "application/x-x509-ca-cert"
    keys = [path.name for path in proxied.root_certificate.parent.iterdir() if path.suffix == ".key"]
    assert sorted(keys) == ["intermediate.key", "root.key"]  # what lies beside the certificate
    ports = listening_ports([proxied.process.pid, proxied.app.process.pid])
    assert {proxied.port, proxied.http_port, proxied.app.port} <= {port for _, port in ports}
    paths = [f"/{name}" for name in keys] + [
        "/root.crt/../root.key",
        "/%2e%2e/root.key",
        "/pki/authorities/local/root.key",
        "/.local/share/caddy/pki/authorities/local/root.key",
        "/static/../instance/secret_key",
    ]
    fetched = {}
    for address, port in ports:
        for scheme in ("http", "https"):
            for path in paths:
                fetched[f"{scheme}://{address}:{port}{path}"] = fetch(f"{scheme}://{address}:{port}{path}")
    leaked = {url: body[:60] for url, body in fetched.items() if b"PRIVATE KEY" in body}
    assert not leaked and len(fetched) >= 2 * len(paths) * 3
    assert all(address in ("127.0.0.1", "[::1]") for address, port in ports if port == proxied.app.port), ports
    lan = lan_address() or "127.0.0.2"  # another address of this machine: the app's port is closed there
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection((lan, proxied.app.port), timeout=5).close()


def test_a_clients_script_name_through_caddy_changes_nothing(proxied):
    """Caddy passes a client's headers on: a `SCRIPT_NAME` header must neither root the page elsewhere nor
    fail it (gunicorn believes no forwarder header)."""
    request = urllib.request.Request(f"{proxied.url}/", headers={"SCRIPT_NAME": "/evil", "Script-Name": "/evil"})
    with urllib.request.urlopen(request, context=proxied.trusting(), timeout=10) as answer:
        page = answer.read().decode()
    assert answer.status == 200 and "/evil" not in page and 'href="/static/' in page


def test_the_table_screen_offers_the_root_certificate_as_a_qr_code(trusting_browser, proxied):
    table = trusting_browser.new_page(viewport=TABLE)
    table.goto(proxied.url)
    table.get_by_role("button", name="New game").click()
    trust = table.locator("details.trust")
    trust.locator("summary").click()
    assert read_qr(table, "details.trust .qr") == "http://127.0.0.1/root.crt"  # port 80, where Caddy offers it
    fingerprint = hashlib.sha256(ssl.PEM_cert_to_DER_cert(proxied.root_certificate.read_text())).hexdigest()
    expect(trust.locator(".fingerprint")).to_contain_text(fingerprint.upper()[:2] + ":" + fingerprint.upper()[2:4])
    shot(table, "https-table-trust-1280")
    table.close()


def test_a_game_through_the_pages_behind_caddy(trusting_browser, proxied):
    table_context = trusting_browser.new_context(viewport=TABLE)
    table_context.add_init_script(WATCH)
    table = table_context.new_page()
    table.goto(proxied.url)
    assert table.evaluate("isSecureContext") is True
    table.get_by_role("button", name="New game").click()  # a form: refused before over HTTPS
    expect(table.locator("h1")).to_contain_text("Scan your team's code")
    urls = {team: read_qr(table, f'.qr[data-team="{team}"]') for team in ("white", "black")}
    assert all(url.startswith(proxied.url + "/join/") for url in urls.values()), urls

    phones = {
        "white": [Phone(trusting_browser, "Ada"), Phone(trusting_browser, "Alan")],
        "black": [Phone(trusting_browser, "Grace"), Phone(trusting_browser, "Linus")],
    }
    everyone = [phone for members in phones.values() for phone in members]
    for team, members in phones.items():
        for phone in members:
            phone.context.add_init_script(WATCH)
            phone.join(urls[team])  # the name form
            expect(table.locator(f".team-{team} .roster")).to_contain_text(phone.name)
    # The table screen heard of each player by its stream, through the proxy, message by message.
    assert table.evaluate("window.__stream.messages") >= 1 + len(everyone), table.evaluate("window.__stream")
    seat_cookie = next(c for c in phones["white"][0].context.cookies() if c["name"] == "decrypto")
    assert seat_cookie["secure"] and seat_cookie["httpOnly"]
    shot(phones["white"][0].page, "https-phone-lobby-390")

    table.get_by_role("button", name="Start the game").click()
    expect(table.locator(".round-title")).to_contain_text("Round 1 of 8")
    for phone in everyone:
        phone.see("Your team's keywords")
        assert phone.page.evaluate("isSecureContext") is True
        phone.page.wait_for_function("window.__wakeLock !== 'never asked'")
        assert phone.page.evaluate("window.__wakeLock") == "taken"
    encryptors = {team: next(p for p in members if p.is_encryptor()) for team, members in phones.items()}
    codes = {team: encryptors[team].reveal_code() for team in phones}
    encryptors["white"].announce(["orbit", "evergreen", "fortress"])  # the clue form
    encryptors["black"].announce(["ripple", "fin", "spire"])
    expect(table.locator(".big-clues")).to_contain_text("orbit")
    white_guesser = next(p for p in phones["white"] if p is not encryptors["white"])
    white_guesser.see("orbit")
    white_guesser.guess(wrong(codes["white"]))  # the guess form, sealed
    expect(table.locator(".reveal")).to_contain_text("The code was")  # the reveal, on the table screen
    shot(table, "https-table-reveal-1280")
    black_guesser = next(p for p in phones["black"] if p is not encryptors["black"])
    black_guesser.see("ripple")
    black_guesser.guess(codes["black"])
    expect(table.locator(".round-title")).to_contain_text("Round 2 of 8")
    expect(table.locator(".team-white .token.miscommunication")).to_contain_text("1 Miscommunication")
    for phone in everyone:
        phone.close()
    table_context.close()
