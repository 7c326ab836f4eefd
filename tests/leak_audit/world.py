"""The world: a game played through the Flask test client, every viewer the audit looks through, and the
audit itself."""

from __future__ import annotations

import html as html_lib
import itertools
import json
import random
import re
import secrets as secrets_lib
from collections import Counter
from pathlib import Path

from companion.rules import TEAMS
from tools.driver import Driver, targets

from ..oracle import team_of
from ..test_stream import Stream
from .checks import (
    COOKIE,
    SESSION_KEYS,
    WORDS,
    Resp,
    Truth,
    Viewer,
    body_of,
    check_html,
    check_plain_json,
    check_summary_json,
    check_view,
    session_payload,
    set_cookie_payloads,
)

_DEVICES = itertools.count(1)
MOVED_AWAY = "the table screen moved away"


# --- the world: a game, its viewers, and the audit ------------------------------------------------


class World(Driver):
    """A game played through the Flask test client, with every viewer the audit looks through."""

    def __init__(self, app, mode="standard", seed=11):
        self.app, self.service = app, app.extensions["games"]
        self.service.rng = random.Random(seed)  # the same deal every run
        self.service.code_rng = random.Random(seed)  # and the same join codes
        # A still clock: the sand timer shows its full length whatever the machine's speed (a countdown that
        # happened to read 43.2 looked like a code to the checks, on a slow day only).
        self.service.clock = lambda: 1_000_000.0
        self.store = self.service.store
        self.curl = app.test_client(use_cookies=False)  # a bearer-token client, like curl
        self.mode = mode
        body = {"words": ", ".join(WORDS)} | ({"mode": mode} if mode != "standard" else {})
        created = self.curl.post("/api/games", json=body)
        assert created.status_code == 201, created.get_json()
        data = created.get_json()
        self.id, self.tokens, self.urls = data["game_id"], data["tokens"], data["urls"]
        self.registry: dict[str, str] = {}  # every capability token ever issued -> what
        self.seats: dict[str, Viewer] = {}  # player name -> their phone
        self.handoffs: list[Viewer] = []
        self.expired: list[Viewer] = []
        self.static: list[tuple[Viewer, Resp]] = []
        self.problems: list[str] = []
        self.steps = self.requests = 0
        self.kinds: set[str] = set()  # viewer kinds audited
        self.seen: Counter = Counter()  # what reached those who may see it
        self._clues = 0
        self.etags: dict[tuple[str, str], str | None] = {}  # (viewer, polled path) -> its ETag at the last step
        self.streams: dict[tuple[str, str], Stream] = {}  # (viewer, page) -> the page's stream
        self.private_to: str | None = None  # the team whose private step is being audited
        self.side_channel: list[str] = []
        self.host = self.viewer("table screen", "host", self.tokens["host"])
        self.host.client.get(f"/table/{self.tokens['host']}")  # the API's urls.table: the host cookie
        self.spectator = self.viewer("spectator", "spectator", self.tokens["spectator"])
        self.joins = [self.viewer(f"{t} join link", "join", self.tokens[t]) for t in TEAMS]
        self.anonymous = self.viewer("anonymous", "anonymous", None)
        forged = secrets_lib.token_urlsafe(24)
        self.forged = self.viewer("forged token", "forged", forged, holding=forged)
        decoy = self.curl.post("/api/games", json={"words": ", ".join(WORDS)}).get_json()
        joined = self.curl.post(
            f"/api/games/{decoy['game_id']}/join",
            json={"name": "Dora"},
            headers={"Authorization": f"Bearer {decoy['tokens']['white']}"},
        ).get_json()
        self.registry.update({tok: f"another game's {kind} token" for kind, tok in decoy["tokens"].items()})
        self.registry[joined["token"]] = "another game's seat token"
        # Join codes open a team's join page: only the table screen shows them (and the API's create answer).
        self.codes = {code: f"{team}'s join code" for team, code in data["codes"].items()}
        self.registry.update({code: f"another game's {team} join code" for team, code in decoy["codes"].items()})
        self.registry.update(self.codes)
        self.wrong = self.viewer("another game's seat token", "wrong", joined["token"], holding=joined["token"])
        self.refresh_registry()

    # --- plumbing ------------------------------------------------------------------------------
    def device(self, cookies=True):
        """A client with its own address, as each phone or screen is its own device (rate limits are per
        address); a browser accepts compressed answers, as phones do (the audit reads them decompressed)."""
        client = self.app.test_client(use_cookies=cookies)
        n = next(_DEVICES)
        client.environ_base["REMOTE_ADDR"] = f"10.{n // 62500 % 250}.{n // 250 % 250}.{n % 250 + 1}"
        if cookies:
            client.environ_base["HTTP_ACCEPT_ENCODING"] = "gzip, deflate"
        return client

    def api_of(self, client):
        api = self.device(cookies=False)
        api.environ_base["REMOTE_ADDR"] = client.environ_base["REMOTE_ADDR"]
        return api

    def viewer(self, label, kind, token, browser=True, holding=None, **fields) -> Viewer:
        client = self.device() if browser else None
        if holding:
            with client.session_transaction() as session:
                session["seats"] = {self.id: holding}
        api = self.device(cookies=False)
        if client is not None:
            api.environ_base["REMOTE_ADDR"] = client.environ_base["REMOTE_ADDR"]
        return Viewer(label, kind, token, client, api=api, **fields)

    def refresh_registry(self):
        for c in self.store.capabilities_of(self.id):
            who = f" of seat {c.seat}" if c.seat else (f" ({c.team})" if c.team else "")
            self.registry.setdefault(c.token, f"{c.kind} token{who}")

    def redact(self, text: str) -> str:
        for token, what in self.registry.items():
            text = text.replace(token, f"<{what}>")
        return text.replace(self.forged.token, "<forged>")

    def allowed_tokens(self, v: Viewer) -> set[str]:
        if v.kind == "host":
            links = self.service.table_links(self.id)
            return (
                {self.tokens[k] for k in ("spectator", "white", "black")}  # never its own key
                | set(links.seat_links.values())
                | ({links.move} if links.move else set())
                | set(self.codes)
            )
        return {v.token} if v.token else set()

    def viewers(self) -> list[Viewer]:
        return [
            *self.seats.values(),
            self.host,
            self.spectator,
            *self.joins,
            *self.handoffs,
            self.anonymous,
            self.forged,
            self.wrong,
            *self.expired,
        ]

    def fetch(self, client, method, path, kind, game_resource=True, **kw) -> Resp:
        answer = client.open(path, method=method, **kw)
        self.requests += 1
        resp = Resp(
            f"{method} {self.redact(path)}",
            answer.status_code,
            list(answer.headers.items()),
            body_of(answer),
            kind,
            answer.content_type or "",
            game_resource,
        )
        answer.close()
        return resp

    def pushed(self, v: Viewer, client, path: str, etag: str) -> list[Resp]:
        """What the page's stream sent since the last step, up to the page's ETag now: each message as the page
        reads it (a live page's regions as HTML). A stream that ended (its token withdrawn) opens again."""
        stream = self.streams.get((v.label, path))
        if stream is None or stream.ended:
            stream = self.streams[(v.label, path)] = Stream(client, f"{path}/stream")
            assert stream.answer.status_code == 200, f"{v.label}'s stream of {path}: {stream.answer.status_code}"
            stream.etag, stream.ended = None, False
        said = []
        while stream.etag != etag and not stream.ended:
            message = stream.messages.get(timeout=20)
            if "end" in message or message.get("event") == "gone":
                stream.ended = True
            elif message.get("event") == "page":
                pushed = json.loads(message["data"])
                stream.etag = pushed["etag"]
                said.append(Resp(f"STREAM {path}", 200, [], pushed["body"].encode(), "page", "text/html"))
                self.seen["regions pushed down a stream"] += 1
            elif message.get("event") == "view":
                stream.etag = message["data"]
                said.append(Resp(f"STREAM {path}", 200, [], message["data"].encode(), "stream", "text/plain"))
        return said

    # --- what each viewer fetches ------------------------------------------------------------------
    def resources(self, v: Viewer, truth: Truth) -> list[Resp]:
        gid, out, b = self.id, [], v.client
        bearer = {"Authorization": f"Bearer {v.token}"} if v.token else None

        def get(client, path, kind, **kw):
            resp = self.fetch(client, "GET", path, kind, **kw)
            if kind == "page" and client is v.client:
                found = re.search(rb'name="csrf-token" content="([^"]+)"', resp.body)
                v.csrf = found.group(1).decode() if found else v.csrf
            out.append(resp)

        def poll(client, path, kind, headers=None):
            """A page or view, then again with its ETag, as the pages' script polls it. After a team's private
            step, first with the ETag of the step before: a viewer outside that team must get a 304, or its
            poll tells it that the team did something (the draft side channel, issue 12)."""
            before = self.etags.get((v.label, path))
            if before and self.private_to is not None and team_of(v) != self.private_to:
                unmoved = self.fetch(client, "GET", path, kind, headers={**(headers or {}), "If-None-Match": before})
                if unmoved.status != 304:
                    self.side_channel.append(
                        f"{v.label}'s poll of {path} answered {unmoved.status}, not 304, "
                        f"after {self.private_to}'s private step"
                    )
            get(client, path, kind, headers=headers or {})
            etag = dict(out[-1].headers).get("ETag")
            self.etags[(v.label, path)] = etag
            if etag:
                get(client, path, kind, headers={**(headers or {}), "If-None-Match": etag})
            if etag and kind == "page" and out[-2].status == 200:
                out.extend(self.pushed(v, client, path, etag))

        if b is not None and v.kind in ("seat", "anonymous", "forged", "wrong", "expired"):
            poll(b, f"/play/{gid}", "page")
            get(b, f"/play/{gid}/summary", "summary-page")
            get(b, f"/play/{gid}/summary.json", "summary-json")
            get(b, f"/api/games/{gid}", "view")
            get(b, f"/api/games/{gid}/summary", "summary-json")
            if v.kind == "seat" and truth.game.match > 1:
                get(b, f"/play/{gid}/summary?match=1", "summary-page")
        if v.kind == "host":
            poll(b, f"/table/{gid}", "page")
            get(b, f"/table/{gid}/summary", "summary-page")
            get(b, f"/table/{gid}/summary.json", "summary-json")
        elif v.kind == "spectator":
            poll(b, f"/watch/{v.token}", "page")
        elif v.kind == "join":
            get(b, f"/join/{v.token}", "page")
        elif v.kind == "handoff":
            get(b, f"/seat/{v.token}", "page")
            poll(b, f"/play/{gid}", "page")  # once it used its link: the page of a new phone waiting
        if v.kind == "spectator":
            get(b, f"/summary/{v.token}", "summary-page")
            get(b, f"/summary/{v.token}.json", "summary-json")
        if bearer:
            poll(v.api, f"/api/games/{gid}", "view", headers=bearer)
            get(v.api, f"/api/games/{gid}/summary", "summary-json", headers=bearer)
        out += self.refused_commands(v, truth)
        # Answers that can't depend on the game (a 404, a token refused before the game is loaded):
        # once per viewer in each phase of each match.
        phase = f"{truth.game.match}-{truth.game.phase}"
        if v.probed != phase:
            v.probed = phase
            if v.kind in ("anonymous", "forged", "wrong", "expired"):
                probe = v.token or gid
                for path in ("table", "watch", "join", "seat", "summary"):
                    get(b or v.api, f"/{path}/{probe}", "page")
                get(b or v.api, f"/summary/{probe}.json", "summary-json")
            if bearer:
                get(v.api, "/api/no-such-thing", "json", headers=bearer)
            get(b or v.api, f"/no-such-page-{self.steps}", "page")
        if b is not None and not v.statics_done:  # the same for everyone: once per browser
            v.statics_done = True
            root = Path(self.app.static_folder)
            for path in sorted(p for p in root.rglob("*") if p.is_file()):
                url = f"/static/{path.relative_to(root).as_posix()}"
                self.static.append((v, self.fetch(b, "GET", url, "static", False)))
            for path in ("/api/openapi.json", "/", "/healthz"):
                self.static.append((v, self.fetch(b, "GET", path, "static", False)))
        return out

    def posted_form(self, client, path: str, data: dict) -> list[Resp]:
        """A page form as a browser posts it: its answer, and the page its redirect leads to (post/redirect/get:
        a refusal is said there), both audited."""
        posted = self.fetch(client, "POST", path, "page", data=data)
        location = dict(posted.headers).get("Location")
        return [posted, self.fetch(client, "GET", location, "page")] if posted.status == 303 and location else [posted]

    def refused_commands(self, v: Viewer, truth: Truth) -> list[Resp]:
        """A command each viewer can send that is always refused: its answer (page or JSON) is audited too."""
        gid, out = self.id, []
        bearer = {"Authorization": f"Bearer {v.token}"} if v.token else {}
        if v.kind == "host":
            out += self.posted_form(
                v.client, f"/table/{gid}/correction", {"decryption": "nope", "csrf_token": v.csrf or ""}
            )
            out.append(
                self.fetch(
                    v.api, "POST", f"/api/games/{gid}/correction", "json", json={"decryption": "nope"}, headers=bearer
                )
            )
        elif v.kind == "join" and (self.steps % 2 or truth.game.phase == "lobby"):
            out += self.posted_form(v.client, f"/join/{v.token}", {"name": "", "csrf_token": v.csrf or ""})
        elif v.kind in ("seat", "expired", "forged", "wrong") and v.client is not None:
            out += self.posted_form(
                v.client, f"/play/{gid}/guess", {"code1": "9", "confirm": "1", "csrf_token": v.csrf or ""}
            )
        elif v.kind == "anonymous":
            out += self.posted_form(v.client, f"/play/{gid}/guess", {"code1": "9"})
        if v.kind != "host":
            out.append(
                self.fetch(
                    v.api,
                    "POST",
                    f"/api/games/{gid}/guess",
                    "json",
                    json={"code": "nope", "confirm": True},
                    headers=bearer,
                )
            )
        for resp in out:
            resp.where += " (a refused command)"
        return out

    # --- checking ----------------------------------------------------------------------------------
    def check(self, truth: Truth, v: Viewer, resp: Resp, words=None, tokens=None) -> list[str]:
        where = f"{resp.where} as {v.label} (HTTP {resp.status})"
        words = truth.hidden_words(v) if words is None else words
        tokens = self.forbidden_tokens(v) if tokens is None else tokens
        text = resp.body.decode("utf-8", "replace")
        cookies = set_cookie_payloads(self.app, resp.headers)
        # The cookies are checked on their own (check_session): the table screen's holds its own key.
        headers = [
            f"{k}: {x}" for k, x in resp.headers if not (k.lower() == "set-cookie" and x.startswith(COOKIE + "="))
        ]
        hay = "\n".join([text, *headers])
        if "&" in text:
            hay += "\n" + html_lib.unescape(text)
        out = [f"{what} in {where}" for token, what in tokens.items() if token in hay]
        low = hay.lower()
        out += [f"{what} in {where}" for word, what in words.items() if word.lower() in low]
        for payload in cookies:
            out += self.check_session(v, payload, f"the session cookie set by {where}")
        if resp.game_resource and v.kind in ("anonymous", "forged", "wrong", "expired") and resp.status < 400:
            out.append(f"a {v.kind} viewer was answered {resp.status} in {where}")
        if resp.status == 304:
            if resp.body:
                out.append(f"a body on a 304 in {where}")
            return out
        is_json = resp.content_type.startswith("application/json")
        if is_json and resp.kind != "static":
            doc = json.loads(text)
            if resp.kind == "view" and resp.status == 200:
                out += check_view(truth, v, doc, where)
            elif resp.kind == "summary-json" and resp.status == 200:
                out += check_summary_json(truth, doc, where)
            else:
                out += check_plain_json(doc, where)
        elif resp.content_type.startswith("text/html"):
            out += check_html(truth, v, text, where, summary=resp.kind == "summary-page" and resp.status == 200)
        return out

    def forbidden_tokens(self, v: Viewer) -> dict[str, str]:
        allowed = self.allowed_tokens(v)
        out = {t: f"a capability token ({what})" for t, what in self.registry.items() if t not in allowed}
        if v.kind != "forged":
            out[self.forged.token] = "the forged token"
        return out

    def check_session(self, v: Viewer, payload: dict, where: str) -> list[str]:
        out = [f"an unexpected session key {k!r} in {where}" for k in payload if k not in SESSION_KEYS]
        allowed = self.allowed_tokens(v)
        for game_id, token in (payload.get("seats") or {}).items():
            if token not in allowed:
                what = self.registry.get(token, "a token")
                out.append(f"the session cookie holds {what} for game {game_id} in {where}")
        # Only the table screen's own browser (or the device it moved away from, whose key is now refused).
        own_key = self.tokens["host"] if v.kind == "host" else v.token if v.label.endswith(MOVED_AWAY) else None
        for game_id, token in (payload.get("tables") or {}).items():
            if token != own_key or game_id != self.id:
                out.append(
                    f"the session cookie holds {self.registry.get(token, 'a token')} as a table screen's "
                    f"key for game {game_id} in {where}"
                )
        tokens = {t: what for t, what in self.forbidden_tokens(v).items() if t != own_key}
        blob = json.dumps(payload)
        out += [f"{what} inside {where}" for token, what in tokens.items() if token in blob]
        return out

    def audit(self, label: str, private_to: str | None = None) -> list[str]:
        """Every viewer, every resource, now: the list of problems (empty when nothing leaks). `private_to`:
        the step was that team's alone (a draft), so nobody else's poll may see anything move."""
        self.steps += 1
        self.private_to, self.side_channel = private_to, []
        self.refresh_registry()
        before = self.store.version(self.id)
        truth = Truth(self)
        problems = []
        for v in self.viewers():
            words, tokens = truth.hidden_words(v), self.forbidden_tokens(v)
            self.kinds.add(v.kind)
            for resp in self.resources(v, truth):
                problems += self.check(truth, v, resp, words, tokens)
                self.count_sightings(truth, v, resp)
            if v.client is not None:
                jar = v.client.get_cookie(COOKIE)
                if jar is not None:
                    problems += self.check_session(
                        v, session_payload(self.app, jar.value), f"{v.label}'s stored session cookie"
                    )
        if self.store.version(self.id) != before:
            problems.append("a refused command or a page view changed the game")
        problems += self.side_channel
        problems = [f"[{self.mode} #{self.steps} {label}] {self.redact(p)}" for p in problems]
        self.problems += problems
        return problems

    def count_sightings(self, truth: Truth, v: Viewer, resp: Resp):
        """The other half, counted: what a viewer must see does reach it (so the audit looks at real pages)."""
        if resp.status == 304:
            self.seen["304 Not Modified"] += 1
        if resp.status != 200:
            return
        body = resp.body.decode("utf-8", "replace")
        own = truth.game.keywords.get(v.team) if v.kind == "seat" else None
        if own and all(w in body for w in own):
            self.seen[f"own keywords ({resp.kind})"] += 1
        if resp.kind == "page" and truth.own_code(v) and '<p class="your-code">' in body:
            self.seen["the Encryptor's own code"] += 1
        if v.kind == "seat" and any(
            team == v.team and match == truth.game.match and text in body for match, team, text in truth.notes
        ):
            self.seen[f"the team's own notes ({resp.kind})"] += 1
        if resp.kind == "view" and v.kind == "seat":
            view = json.loads(body)
            if any(
                t["decryption"]["code"] and not t["resolved"]
                for r in view["rounds"]
                for t in r["transmissions"].values()
            ):
                self.seen["the team's own unrevealed guess"] += 1
        if v.kind == "host" and resp.kind == "page" and self.tokens["white"] in body:
            self.seen["join links on the table screen"] += 1
        if v.kind == "host" and resp.kind == "page" and 'class="notice waiting-phone"' in body:
            self.seen["a waiting phone on the table screen"] += 1
        if v.kind == "handoff" and resp.kind == "page" and 'class="by-itself-countdown"' in body:
            self.seen["a waiting phone's countdown"] += 1
        if resp.kind in ("summary-page", "summary-json"):
            self.seen["summaries"] += 1

    def audit_statics(self) -> list[str]:
        """Static files, the OpenAPI document, the home page: none holds any secret of the whole walk."""
        truth = Truth(self)
        everything = {w: f"the word {w}" for w in WORDS}
        for e in truth.events:
            if e["type"] == "clues_announced":
                everything.update({c: f"the clue {c}" for c in e["clues"]})
            elif e["type"] == "keyword_guesses_sealed":
                everything.update({x: f"the keyword guess {x}" for x in e["guesses"] if x})
        everything.update({text: f"{team}'s note {text}" for _, team, text in truth.notes})
        problems = []
        for v, resp in self.static:
            problems += self.check(truth, v, resp, everything, self.forbidden_tokens(v))
        problems = [f"[{self.mode} static] {self.redact(p)}" for p in problems]
        self.problems += problems
        return problems

    # --- playing -----------------------------------------------------------------------------------
    def state(self):
        return self.service.load(self.id)[1]

    def seat_of(self, seat: int) -> Viewer:
        return next(v for v in self.seats.values() if v.seat == seat)

    # who encrypts, who guesses, a code: the driver's (tools/driver.py), from what the viewers see
    def who(self, seat: int) -> Viewer:
        return self.seat_of(seat)

    def view(self, v: Viewer) -> dict:
        answer = v.api.get(f"/api/games/{self.id}", headers={"Authorization": f"Bearer {v.token}"})
        assert answer.status_code == 200, (v.label, answer.status_code)
        return answer.get_json()

    def clues(self, team) -> list[str]:
        self._clues += 1
        return [f"ZKCLUE{team[0].upper()}{self._clues:02d}{x}" for x in "ABC"]

    def answered(self, v: Viewer, answer, what: str):
        assert answer.status_code in (200, 303), (what, answer.status_code, body_of(answer)[:400])
        resp = Resp(
            f"{answer.request.method} {self.redact(answer.request.path)}",
            answer.status_code,
            list(answer.headers.items()),
            body_of(answer),
            "json",
            answer.content_type or "",
        )
        truth = Truth(self)
        problems = self.check(truth, v, resp)
        said = json.loads(resp.body) if resp.content_type.startswith("application/json") else None
        if isinstance(said, dict) and "version" in said and said["version"] != truth.version_seen(v):
            # A command's answer names its sender's version: the events it can see, nothing of the other team's.
            problems.append(f"version {said['version']} in the answer to {what}, not {truth.version_seen(v)}")
        self.problems += [f"[{self.mode} command {what}] {self.redact(p)}" for p in problems]
        return answer

    def do(self, v: Viewer, command: str, channel="bearer", **body):
        """A command through the API, with the targets of the view `v` sees now: with the viewer's bearer
        token, or from its browser (cookie + CSRF)."""
        return self.send(v, command, self.with_targets(v, command, body), channel)

    def send(self, v: Viewer, command: str, body: dict, channel="bearer"):
        path = f"/api/games/{self.id}/{command}"
        if channel == "bearer":
            answer = v.api.post(path, json=body, headers={"Authorization": f"Bearer {v.token}"})
        else:
            answer = v.client.post(path, json=body, headers={"X-CSRFToken": v.csrf})
        self.refresh_registry()
        return self.answered(v, answer, command)

    def form(self, v: Viewer, command: str, data: dict):
        """A command from the page's form, without JavaScript, with the targets its page holds."""
        path = f"/table/{self.id}/{command}" if v.kind == "host" else f"/play/{self.id}/{command}"
        seen = {field: str(value) for field, value in targets(command, self.view(v), data).items()}
        return self.answered(v, v.client.post(path, data={**seen, **data, "csrf_token": v.csrf}), command)

    def join(self, name, team, client=None) -> Viewer:
        client = client or self.device()
        path = f"/join/{self.tokens[team]}"
        page = client.get(path)
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', body_of(page).decode()).group(1)
        answer = client.post(path, data={"name": name, "csrf_token": csrf})
        token = session_payload(self.app, client.get_cookie(COOKIE).value)["seats"][self.id]
        self.refresh_registry()
        seat = self.service.resolve(token)[0].seat
        v = Viewer(
            f"{name}'s phone ({team}, seat {seat})", "seat", token, client, team, seat, csrf, api=self.api_of(client)
        )
        self.answered(v, answer, f"join as {name}")
        self.seats[name] = v
        return v

    def expire(self, v: Viewer, why: str, keep_client=True) -> Viewer:
        dead = Viewer(f"{v.label}: {why}", "expired", v.token, v.client if keep_client else None, api=v.api)
        self.expired.append(dead)
        return dead

    def move_table(self) -> None:
        """The table screen shows its move link and another device takes it: from then on that device is the
        table screen, with a new key, and the old one (audited as expired, with its cookie) is refused."""
        old = self.host
        self.answered(old, old.client.post(f"/table/{self.id}/move", data={"csrf_token": old.csrf}), "move")
        self.step("the table screen's move link shown")
        link = f"/move/{self.service.table_links(self.id).move}"
        device = self.device()
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', body_of(device.get(link)).decode()).group(1)
        moved = device.post(link, data={"csrf_token": csrf})
        assert moved.status_code == 303, moved.status_code
        self.tokens["host"] = self.service.shared_tokens(self.id)["host"]
        self.refresh_registry()
        self.host = self.viewer("table screen (moved here)", "host", self.tokens["host"], browser=False)
        self.host.client = device
        self.host.api.environ_base["REMOTE_ADDR"] = device.environ_base["REMOTE_ADDR"]
        self.expire(old, MOVED_AWAY)

    def issue_seat_link(self, name) -> Viewer:
        answer = self.do(self.host, "seat-link", seat=self.seats[name].seat).get_json()
        link = self.viewer(f"the seat link for {name}", "handoff", answer["seat_link"]["token"])
        self.handoffs.append(link)
        return link

    def claim(self, link: Viewer, name):
        """The new phone opened the seat link (it has been a viewer all along) and takes the seat."""
        page = link.client.get(f"/seat/{link.token}")
        link.csrf = re.search(r'name="csrf-token" content="([^"]+)"', body_of(page).decode()).group(1)
        answer = link.client.post(f"/seat/{link.token}", data={"csrf_token": link.csrf})
        old = self.seats[name]
        token = session_payload(self.app, link.client.get_cookie(COOKIE).value)["seats"][self.id]
        self.refresh_registry()
        if self.service.resolve(token)[0].kind == "waiting":  # a teammate's phone lets the new one in
            # Meanwhile every screen shows the phone waiting, and when it takes the seat by itself (the table
            # screen too): audited, the new phone with its waiting token (its page, its refused API calls).
            used, link.token = link.token, token
            self.step(f"a new phone waits for {name}'s seat")
            link.token = used
            teammate = next(v for v in self.seats.values() if v.team == old.team and v is not old)
            self.form(teammate, "let-in", {"seat": str(old.seat)})
        new = Viewer(
            f"{name}'s new phone ({old.team}, seat {old.seat})",
            "seat",
            token,
            link.client,
            old.team,
            old.seat,
            link.csrf,
            api=link.api,
        )
        self.answered(new, answer, f"claim {name}'s seat")
        self.handoffs.remove(link)
        self.expire(old, "its seat went to a new phone")
        self.expire(link, "a seat link already used", keep_client=False)
        self.seats[name] = new

    def seated_anew(self):
        """Players switched or were shuffled in the lobby: each phone now belongs to its seat's team."""
        for v in self.seats.values():
            v.team = self.state().player(v.seat).team

    def step(self, label, private_to: str | None = None):
        self.audit(label, private_to)
