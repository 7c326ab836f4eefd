"""A real browser: one phone per team, every response it loads."""

from __future__ import annotations

import json
import re
import time

import pytest

from companion.rules import TEAMS
from tools.driver import wrong, wrong2

from .checks import COOKIE, Resp, Truth, Viewer, session_payload
from .walks import report
from .world import World


# Run in each page before its script: keep every message its stream brings (its pushed regions), to be audited
# like the page's fetches.
KEEP_PUSHED = """(() => {
  window.__pushed = [];
  const Source = window.EventSource;
  window.EventSource = function (url) {
    const source = new Source(url);
    source.addEventListener("page", (e) => window.__pushed.push(e.data));
    return source;
  };
  window.EventSource.prototype = Source.prototype;
  Object.assign(window.EventSource, {CONNECTING: 0, OPEN: 1, CLOSED: 2});
})();"""


def _pushed(page, stream_url):
    """The messages the page's stream brought since the last call, as captured responses."""
    kept = []
    for data in page.evaluate("window.__pushed.splice(0)"):
        message = json.loads(data)
        found = re.search(r"v(\d+)-", message["etag"])
        headers = [("content-type", "text/html; charset=utf-8"), ("etag", message["etag"])]
        kept.append(("GET", stream_url, 200, headers, message["body"].encode(), int(found.group(1)) if found else -1))
    return kept


def _capture(world, into):
    def on_response(response):
        try:
            body = response.body()
        except Exception:  # a redirect, or a 304: no body to read
            body = b""
        try:
            headers = list(response.headers_array())
            headers = [(h["name"], h["value"]) for h in headers]
        except Exception:
            headers = list(response.headers.items())
        etag = next((x for k, x in headers if k.lower() == "etag"), "")
        found = re.search(r"v(\d+)-", etag)
        into.append(
            (
                response.request.method,
                response.url,
                response.status,
                headers,
                body,
                int(found.group(1)) if found else -1,
            )
        )

    return on_response


@pytest.mark.browser
def test_round_one_in_chromium_leaks_nothing_to_either_phone(browser, live_server):
    from playwright.sync_api import expect

    from ..browser import Phone

    app = live_server.server.app
    w = World(app)
    last = {"version": w.store.version(w.id)}  # responses are checked against the states since then
    phones = {}
    for name, team in (("Wanda", "white"), ("Bella", "black")):
        phone = Phone(browser, name)
        phone.context.add_init_script(KEEP_PUSHED)
        captured = []
        phone.page.on("response", _capture(w, captured))
        phone.join(f"{live_server.url}/join/{w.tokens[team]}")
        value = next(c["value"] for c in phone.context.cookies() if c["name"] == COOKIE)
        token = session_payload(app, value)["seats"][w.id]
        w.refresh_registry()
        seat = w.service.resolve(token)[0].seat
        phones[name] = (phone, Viewer(f"{name}'s Chromium phone", "seat", token, None, team, seat), captured)
    w.join("Walt", "white")
    w.join("Boris", "black")
    checked = {"responses": 0, "polls": 0, "pushed": 0, "bodies": 0}
    stream_url = f"{live_server.url}/play/{w.id}/stream"
    problems = []

    def checkpoint(label):
        """Let both pages catch up, then check what they loaded since the last checkpoint and their DOM."""
        now = w.store.version(w.id)
        truths = [Truth(w, version) for version in range(last["version"], now + 1)]
        deadline = time.monotonic() + 5
        for phone, viewer, captured in phones.values():
            while True:
                captured.extend(_pushed(phone.page, stream_url))
                if time.monotonic() >= deadline or any(
                    url.endswith((f"/play/{w.id}", "/stream")) and version >= truths[-1].version_seen(viewer)
                    for _, url, status, _, _, version in captured
                ):
                    break
                phone.page.wait_for_timeout(100)
        for phone, viewer, captured in phones.values():
            for method, url, status, headers, body, version in captured:
                path = url[len(live_server.url) :]
                kind = (
                    "view"
                    if path.startswith(f"/api/games/{w.id}") and method == "GET"
                    else "static"
                    if path.startswith("/static/")
                    else "json"
                    if path.startswith("/api/")
                    else "page"
                )
                checked["polls"] += path == f"/play/{w.id}" and method == "GET" and status in (200, 304)
                checked["pushed"] += path == f"/play/{w.id}/stream" and bool(body)
                checked["bodies"] += bool(body)
                content_type = dict((k.lower(), x) for k, x in headers).get("content-type", "")
                resp = Resp(f"{method} {w.redact(path)}", status, headers, body, kind, content_type, False)
                candidates = truths
                if status == 200 and (kind == "view" or kind == "page" and version >= 0):
                    # The states since the last checkpoint where this phone's view had the version the view
                    # (or the page's ETag) names: the events it could see, counted (the other team's drafts not).
                    shown = json.loads(body)["version"] if kind == "view" else version
                    candidates = [t for t in truths if t.version_seen(viewer) == shown]
                    if not candidates:
                        problems.append(
                            f"[chromium {label}] {resp.where} at version {shown}, which no state "
                            f"since the last checkpoint had for {viewer.label}"
                        )
                        continue
                found = [w.check(t, viewer, resp) for t in candidates]
                if all(found):
                    problems.extend(f"[chromium {label}] {p}" for p in found[-1])
                checked["responses"] += 1
            captured.clear()
            dom = Resp(
                f"DOM of {w.redact(phone.page.url)}", 200, [], phone.page.content().encode(), "page", "text/html", False
            )
            found = [w.check(t, viewer, dom) for t in truths]
            if all(found):
                problems.extend(f"[chromium {label}] {p}" for p in found[-1])
            for c in phone.context.cookies():
                if c["name"] == COOKIE:
                    payload = session_payload(app, c["value"])
                    problems.extend(w.check_session(viewer, payload, f"{viewer.label}'s cookie"))
        last["version"] = now

    checkpoint("seated")
    w.do(w.host, "start")
    checkpoint("started")
    codes = {}
    for name, team in (("Wanda", "white"), ("Bella", "black")):
        phone = phones[name][0]
        expect(phone.page.locator("details.secret")).to_have_count(1, timeout=5000)  # round 1's Encryptors
        codes[team] = phone.reveal_code()
        assert tuple(codes[team]) == Truth(w).own_code(phones[name][1])  # what the oracle says it holds
        phone.announce(w.clues(team))
        expect(phone.page.locator("#task")).not_to_have_attribute("data-task", "write_clues", timeout=5000)
        checkpoint(f"{name} announced")
    for team, teammate in (("white", "Walt"), ("black", "Boris")):
        w.do(w.seats[teammate], "guess", code=wrong(codes[team]), confirm=False)
        checkpoint(f"{teammate}'s draft")
        w.do(w.seats[teammate], "guess", code=wrong(codes[team]), confirm=True)
        checkpoint(f"{team}'s transmission revealed")
    # round 2: the API players encrypt; Bella intercepts in the page, Wanda saves a draft in the page
    for team in TEAMS:
        w.do(w.encryptor(team), "clues", clues=w.clues(team))
    checkpoint("round 2 announced")
    white_code = w.code("white")
    bella, wanda = phones["Bella"][0], phones["Wanda"][0]
    expect(bella.page.locator("form.guess-form")).to_have_count(1, timeout=5000)
    bella.guess(wrong(white_code), seal=True)
    expect(bella.page.locator("#task")).to_have_attribute("data-task", "guess_sealed", timeout=5000)
    checkpoint("Bella sealed her interception")
    expect(wanda.page.locator("form.guess-form")).to_have_count(1, timeout=5000)
    wanda.guess(wrong2(white_code), seal=False)
    expect(wanda.page.locator("#task")).to_contain_text("Saved for your team", timeout=5000)
    checkpoint("Wanda saved a draft")
    # The bytes are real: Wanda's page, if Bella's phone had loaded it, would have leaked White's secrets.
    truth, wanda_dom = Truth(w), wanda.page.content()
    as_bella = Resp("Wanda's DOM", 200, [], wanda_dom.encode(), "page", "text/html")
    crossed = w.check(truth, phones["Bella"][1], as_bella)
    assert any("white's keyword" in p for p in crossed), crossed
    assert any("white's round 2 decryption" in p for p in crossed), crossed
    assert all(word in wanda_dom for word in truth.game.keywords["white"])
    for phone, _, _ in phones.values():
        phone.close()
    assert problems == [], report(problems)
    assert checked["responses"] > 30 and checked["pushed"] > 10 and checked["bodies"] > 20, checked
