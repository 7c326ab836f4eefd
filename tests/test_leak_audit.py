"""Leak audit: whole games played through the API, every viewer looking at every byte after every step.

A standard game (with a removed player, keyword swaps, take-backs, a correction, a seat link handed to a
new phone, a tiebreak and a rematch) and a three-player game (a team switch, a skipped Encryptor, a
cancelled seat link, a correction, a rematch) are played command by command. After each command, every
viewer (each seated phone, by cookie and by bearer token; the table screen; a spectator; both join
links; an open seat link; anonymous; a forged token; a token of another game; expired tokens: a removed
player, a phone whose seat went to a new phone, a seat left by switching teams, a used or cancelled seat
link) fetches every page, API answer (with and without If-None-Match) and summary it can address, and a
refused command; once per phase the answers that can't depend on the game (404s, pages addressed by a
refused token); once per browser every static file, the OpenAPI document and the home page. Every body
(decompressed when the app gzips it), every header and every session cookie (decoded) is checked for
what that viewer may not know yet (see `companion/views.py`):

- another team's keywords, including the word it swapped out and the one it got (by value: the game uses
  its own word list of unmistakable words, matched case-insensitively in any byte);
- a clue before its transmission opens, and a clue the table took back (by value);
- a code before its reveal, except to its Encryptor, and another team's guess (draft or sealed) before
  the reveal (by place: in JSON a code-like value may only stand where a code goes, and there it must be
  empty unless this viewer may know it; in HTML the `.code`/`.digit` spans, the note-sheet and summary
  columns, checked radios, `1-2-3` text and attribute values, and any spelling such as `314` of a code
  this viewer may not know);
- a tiebreak keyword guess before both teams sealed theirs (by value);
- any capability token but the ones this viewer holds (by value, also inside the session cookie, whose
  `seats` may hold this phone's own seat token only).

`audit()` returns the list of problems: empty for the real app, and not empty once a leak is planted
(see `test_a_planted_leak_is_caught`). A small Chromium part plays round 1 with one real phone per team
and checks every response those pages load (polls included) and their final DOM.
"""

from __future__ import annotations

import gzip
import html as html_lib
import itertools
import json
import random
import re
import secrets as secrets_lib
import time
import zlib
from collections import Counter
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
from itsdangerous import BadSignature

from companion.rules import KEYWORD_GUESSING, KEYWORD_JUDGING, OVER, PLAYING, TEAMS, other, replay

NATO = ("ALPHA BRAVO CHARLIE DELTA ECHO FOXTROT GOLF HOTEL INDIA JULIETT KILO LIMA MIKE NOVEMBER OSCAR "
        "PAPA QUEBEC ROMEO SIERRA TANGO").split()
WORDS = [f"QZX{w}QZ" for w in NATO]          # no word is part of another, nor of anything the app prints
COOKIE = "decrypto"
_DEVICES = itertools.count(1)
SESSION_KEYS = {"seats", "csrf_token", "_permanent"}
CORRECTION_NOTICES = ("correction_proposed", "reveal_corrected")
DASHED = re.compile(r"(?<![\w-])([1-4])-([1-4])-([1-4])(?![\w-])")
SVG = re.compile(r"<svg.*?</svg>", re.S)
DATA_ATTRIBUTE = re.compile(r"\s(data-[\w-]+)=\"([^\"]*)\"")
MARKERS = ('class="code', "digit", 'class="sheet', "guess-form", "summary-transmission", "your-code")
CODE_STRING = re.compile(r"^\s*\[?\s*[1-4]\s*[-,./ ]?\s*[1-4]\s*[-,./ ]?\s*[1-4]\s*\]?\s*$")


def wrong(code) -> list[int]:
    return [code[1], code[0], code[2]]


def wrong2(code) -> list[int]:
    return [code[2], code[1], code[0]]


def dashed(code) -> str:
    return "-".join(map(str, code))


def code_str(code) -> str:
    return "".join(map(str, code)) if code else ""


# --- a light DOM (the standard library's parser) -------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    __slots__ = ("tag", "attrs", "children", "parent")

    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.children, self.parent = tag, attrs, [], parent

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def iter(self):
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def within(self, cls=None, tag=None) -> bool:
        node = self.parent
        while node is not None:
            if (cls and cls in node.classes) or (tag and node.tag == tag):
                return True
            node = node.parent
        return False

    def kids(self, tag):
        return [c for c in self.children if isinstance(c, Node) and c.tag == tag]


class _Tree(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.cur = Node("#document", {}, None)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs}, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, {k: v or "" for k, v in attrs}, self.cur))

    def handle_endtag(self, tag):
        node = self.cur
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.cur = node.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def parse_html(text: str) -> _Tree:
    tree = _Tree()
    tree.feed(text)
    tree.close()
    return tree


# --- what is true, and what each viewer may know ---------------------------------------------------

@dataclass(eq=False)
class Viewer:
    label: str
    kind: str                       # seat host spectator join handoff anonymous forged wrong expired
    token: str | None = None        # the token it holds (sent as a bearer token)
    client: object = None           # its browser (a test client keeping its cookies), if it has one
    team: str | None = None         # a live seat's team
    seat: int | None = None         # a live seat's number
    csrf: str | None = None
    api: object = None              # the same device's cookie-less client, for bearer-token calls
    probed: str | None = None       # the phase its game-independent answers were last fetched in
    statics_done: bool = False


class Truth:
    """The game as stored at `version` (the latest by default), replayed from its event log."""

    def __init__(self, world, version=None):
        rows = world.store.events_after(world.id)
        if version is not None:
            rows = [row for row in rows if row[0] <= version]
        self.events = [e for _, e, _ in rows]
        self.version = rows[-1][0] if rows else 0
        self.game = replay(self.events)
        self.dealt: dict[str, list[str]] = {}          # this match: every word each team held
        for e in self.events:
            if e["type"] == "rematch_started":
                self.dealt = {}                        # a rematch deals when it starts
            elif e["type"] == "game_started":
                self.dealt = {t: list(w) for t, w in e["keywords"].items()}
            elif e["type"] == "keyword_swapped":
                self.dealt[e["team"]].append(e["word"])
        self.withdrawn: dict[str, int] = {}            # a clue taken back -> the Encryptor who wrote it
        for i, e in enumerate(self.events):
            if e["type"] == "entry_taken_back" and e["entry"] == "clues":
                t = replay(self.events[:i]).round.transmissions[e["transmission"]]
                self.withdrawn.update({clue: t.encryptor for clue in t.clues})
        self._matches: dict[int, object] = {}

    @property
    def public_keywords(self) -> bool:
        return self.game.phase in (KEYWORD_JUDGING, OVER)

    @property
    def finished(self) -> list[int]:
        return list(range(1, self.game.match + (self.game.phase == OVER)))

    def match_game(self, match: int):
        if match == self.game.match:
            return self.game
        if match not in self._matches:
            starts = [i for i, e in enumerate(self.events) if e["type"] == "rematch_started"]
            self._matches[match] = replay(self.events[:starts[match - 1]]) if 1 <= match <= len(starts) else None
        return self._matches[match]

    @staticmethod
    def transmission(game, number, team):
        r = next((r for r in game.rounds if r.number == number), None)
        return r.transmissions.get(team) if r else None

    def secret_words(self, v: Viewer) -> dict[str, str]:
        """Strings (matched case-insensitively) this viewer may not know: keywords, clues, keyword guesses."""
        g, team = self.game, v.team if v.kind == "seat" else None
        hidden = {}
        if not self.public_keywords:
            for t, words in self.dealt.items():
                if t != team:
                    now = g.keywords.get(t, ())
                    hidden.update({w: f"{t}'s {'keyword' if w in now else 'swapped-out keyword'} {w}" for w in words})
        for r in g.rounds:
            for t in r.transmissions.values():
                visible = t.resolved or (g.phase == PLAYING and r.current is t) or (
                    v.kind == "seat" and v.seat == t.encryptor)
                if t.clues and not visible:
                    hidden.update({c: f"{t.team}'s unopened clue {c}" for c in t.clues})
        announced = {c for r in g.rounds for t in r.transmissions.values() for c in t.clues or ()}
        for clue, seat in self.withdrawn.items():
            if clue not in announced and not (v.kind == "seat" and v.seat == seat):
                hidden[clue] = f"a clue the table took back ({clue})"
        if g.phase == KEYWORD_GUESSING:
            for t, guesses in g.tiebreak.keyword_guesses.items():
                if guesses and t != team:
                    hidden.update({x: f"{t}'s sealed keyword guess {x}" for x in guesses if x})
        return hidden

    def allowed_codes(self, v: Viewer) -> set[tuple]:
        """Every code or guess this viewer may see anywhere (the value check behind the place checks)."""
        g, team = self.game, v.team if v.kind == "seat" else None
        out = set()
        for r in g.rounds:
            for t in r.transmissions.values():
                if t.resolved:
                    out |= {t.code, t.decryption.code, t.interception.code}
                    continue
                if team == t.team:
                    out.add(t.decryption.code)
                if team == other(t.team):
                    out.add(t.interception.code)
                if v.kind == "seat" and v.seat == t.encryptor:
                    out.add(t.code)
        if g.correction:
            out |= {g.correction.decryption, g.correction.interception}
        for n in g.notices:
            out |= {tuple(n[k]) for k in ("decryption", "interception") if n.get(k)}
        out.discard(None)
        return {tuple(c) for c in out}

    def codes(self) -> set[tuple]:
        """Every code and guess of the match under way."""
        return {c for r in self.game.rounds for t in r.transmissions.values()
                for c in (t.code, t.decryption.code, t.interception.code) if c}

    def own_code(self, v: Viewer):
        """The code this viewer is encrypting right now, if any."""
        g = self.game
        if v.kind != "seat" or g.phase != PLAYING or g.round is None:
            return None
        own = g.round.transmissions.get(v.team)
        return own.code if own and own.encryptor == v.seat and not own.resolved else None


# --- responses and the checks on them ------------------------------------------------------------

@dataclass
class Resp:
    where: str
    status: int
    headers: list[tuple[str, str]]
    body: bytes
    kind: str          # page, summary-page, view, summary-json, json, static
    content_type: str = ""
    game_resource: bool = True


def body_of(answer) -> bytes:
    """A response's bytes as the client reads them (decompressed if the server compressed them)."""
    data = answer.get_data()
    encoding = answer.headers.get("Content-Encoding", "").lower()
    if encoding == "gzip":
        return gzip.decompress(data)
    if encoding == "deflate":
        return zlib.decompress(data)
    assert encoding in ("", "identity"), f"a Content-Encoding the audit can't read: {encoding}"
    return data


def session_payload(app, value: str):
    if not value:
        return {}
    try:
        return app.session_interface.get_signing_serializer(app).loads(value)
    except BadSignature:
        return {"<unreadable session cookie>": value}


def set_cookie_payloads(app, headers) -> list[dict]:
    out = []
    for name, value in headers:
        if name.lower() == "set-cookie" and value.startswith(COOKIE + "="):
            out.append(session_payload(app, value.split(";", 1)[0].split("=", 1)[1].strip('"')))
    return out


def code_like(value) -> bool:
    if isinstance(value, list) and len(value) == 3:
        return all((isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 4)
                   or (isinstance(x, str) and x.strip() in ("1", "2", "3", "4")) for x in value)
    return isinstance(value, str) and bool(CODE_STRING.match(value))


def walk(value, path=()):
    """(path, value) of every code-like value in a JSON document."""
    if code_like(value):
        yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, path + (index,))


def allowed_code_place(path, doc) -> bool:
    """Only these fields may hold a code or a guess (and each is checked against the rules below)."""
    n = len(path)
    if path[:1] == ("rounds",) and n >= 5 and path[2] == "transmissions":
        return path[4:] in (("code",), ("decryption", "code"), ("interception", "code"))
    if path[:1] == ("last_reveal",):
        return path[1:] in (("code",), ("decryption", "code"), ("interception", "code"))
    if path == ("you", "code") or path == ("correction", "code"):
        return True
    if path[:1] == ("correction",) and n == 3:
        return path[1] in ("before", "after") and path[2] in ("decryption", "interception")
    if path[:1] == ("notices",) and n == 3 and path[2] in ("decryption", "interception"):
        return doc["notices"][path[1]].get("kind") in CORRECTION_NOTICES
    return False


def as_code(value):
    return tuple(value) if value is not None else None


def check_transmission(t, tv: dict, my_team, where: str) -> list[str]:
    """One transmission of a view against the stored one: each code empty until this viewer may know it."""
    out, name = [], f"round's {t.team} transmission"
    if tv.get("code") is not None and not (t.resolved and as_code(tv["code"]) == t.code):
        out.append(f"{name}: its code {tv['code']} before its reveal in {where}")
    dec = (tv.get("decryption") or {}).get("code")
    if dec is not None and not ((t.resolved or my_team == t.team) and as_code(dec) == t.decryption.code):
        out.append(f"{name}: {t.team}'s decryption {dec} in {where}")
    icp = (tv.get("interception") or {}).get("code")
    if icp is not None and not ((t.resolved or my_team == other(t.team)) and as_code(icp) == t.interception.code):
        out.append(f"{name}: {other(t.team)}'s interception {icp} in {where}")
    return out


def check_view(truth: Truth, v: Viewer, view: dict, where: str) -> list[str]:
    """A `GET /api/games/<id>` body, by place, against the stored game."""
    g, my_team, out = truth.game, (v.team if v.kind == "seat" else None), []
    for path, value in walk(view):
        if not allowed_code_place(path, view):
            out.append(f"a code-like value {value!r} at {'.'.join(map(str, path))} in {where}")
    if view.get("match") != g.match or view.get("version") != truth.version:
        out.append(f"a view of another state (match {view.get('match')}, version {view.get('version')}) in {where}")
        return out
    for team in TEAMS:
        kw = view["teams"][team]["keywords"]
        if kw is not None and not (truth.public_keywords or my_team == team):
            out.append(f"{team}'s keywords (by place) in {where}")
    for rv in view["rounds"]:
        for team, tv in rv["transmissions"].items():
            t = truth.transmission(g, rv["number"], team)
            if t is None:
                out.append(f"round {rv['number']} {team}: a transmission the game doesn't have in {where}")
            else:
                out += check_transmission(t, tv, my_team, f"round {rv['number']} of {where}")
    you = view.get("you")
    if you and you.get("code") is not None and as_code(you["code"]) != truth.own_code(v):
        out.append(f"you.code {you['code']} for someone not encrypting it in {where}")
    if you is not None and v.kind != "seat":
        out.append(f"a player's private section for a {v.kind} in {where}")
    last = view.get("last_reveal")
    if last:
        t = truth.transmission(g, last["round"], last["team"])
        if t is None or not t.resolved or not last.get("resolved"):
            out.append(f"last_reveal of an unrevealed transmission in {where}")
        else:
            out += check_transmission(t, last, my_team, f"last_reveal of {where}")
    c = view.get("correction")
    if c:
        t = truth.transmission(g, c["round"], c["team"])
        if t is None or not t.resolved or as_code(c["code"]) != t.code:
            out.append(f"a correction about an unrevealed transmission in {where}")
    for n in view.get("notices", ()):
        if n.get("decryption") or n.get("interception"):
            t = truth.transmission(g, n.get("round"), n.get("team"))
            if t is None or not t.resolved:
                out.append(f"a notice with codes of an unrevealed transmission in {where}")
    tb = view.get("tiebreak")
    if tb:
        for team, guesses in (tb.get("guesses") or {}).items():
            if guesses is not None and not (truth.public_keywords or my_team == team):
                out.append(f"{team}'s keyword guesses (by place) in {where}")
    if view.get("host") is not None and v.kind != "host":
        out.append(f"the table's host section for a {v.kind} in {where}")
    if v.kind == "seat" and view["viewer"]["seat"] != v.seat:
        out.append(f"another seat's view ({view['viewer']}) in {where}")
    return out


def check_summary_json(truth: Truth, summary: dict, where: str) -> list[str]:
    out, match = [], summary.get("match")
    if match not in truth.finished or summary.get("phase") != OVER:
        return [f"a summary of an unfinished match ({match}) in {where}"]
    game = truth.match_game(match)
    for path, value in walk(summary):
        if not allowed_code_place(path, summary) or path == ("you", "code"):
            out.append(f"a code-like value {value!r} at {'.'.join(map(str, path))} in {where}")
    for rv in summary["rounds"]:
        for team, tv in rv["transmissions"].items():
            t = truth.transmission(game, rv["number"], team)
            if t is None:
                out.append(f"a summary round the match doesn't have in {where}")
            else:
                out += check_transmission(t, tv, None, f"match {match} round {rv['number']} of {where}")
    return out


def check_html(truth: Truth, v: Viewer, text: str, where: str, summary: bool = False) -> list[str]:
    """A page, by place: code spans, note-sheet and summary columns, checked radios, `1-2-3` anywhere."""
    out, game = [], truth.game
    if summary:
        found = re.search(r"<h1>[^<]*game (\d+)", text)
        match = int(found.group(1)) if found else None
        if match not in truth.finished:
            return [f"a summary page of an unfinished match ({match}) in {where}"]
        game = truth.match_game(match)
        allowed = {c for r in game.rounds for t in r.transmissions.values()
                   for c in (t.code, t.decryption.code, t.interception.code) if c}
        allowed |= {tuple(n[k]) for n in game.notices for k in ("decryption", "interception") if n.get(k)}
    else:
        allowed = truth.allowed_codes(v)
    plain = SVG.sub("", text)            # a QR code's drawing is no text
    # A code this viewer may not know, written any other way in text or attributes (314, 3 1 4, 3, 1, 4).
    for code in truth.codes() - allowed:
        if re.search(r"(?<![\w.-])%s[\s,.·/-]*%s[\s,.·/-]*%s(?![\w.-])" % code, plain):
            out.append(f"a code {dashed(code)} this viewer may not know, spelled out in {where}")
    for m in DASHED.finditer(plain):     # in text and in attribute values alike
        code = tuple(int(d) for d in m.groups())
        if code not in allowed:
            out.append(f"a code {m.group(0)} written out in {where}")
    for name, value in DATA_ATTRIBUTE.findall(plain):
        if code_like(html_lib.unescape(value)):
            out.append(f"a code-like data attribute {name}={value!r} in {where}")
    if not any(marker in plain for marker in MARKERS):
        return out                       # no element that can hold a code: nothing more to look at
    root = parse_html(plain).root
    my_team = v.team if v.kind == "seat" else None
    own = truth.own_code(v)
    label_digits = []
    for node in root.iter():
        cls = node.classes
        if "code" in cls:
            digits = [d.text().strip() for d in node.iter() if "digit" in d.classes]
            if not digits:
                continue
            code = tuple(int(d) if d.isdigit() else d for d in digits)
            if code not in allowed:
                out.append(f"a code {dashed(code)} in a .code element ({' '.join(cls)}) in {where}")
            if node.within("your-code") and (summary or code != own):
                out.append(f"an Encryptor's code {dashed(code)} for someone not encrypting it in {where}")
        elif "digit" in cls and not node.within("code"):
            label_digits.append(node.text().strip())
        elif node.tag == "section" and "sheet" in cls and not summary:
            team = next((c[len("team-edge-"):] for c in cls if c.startswith("team-edge-")), None)
            out += _check_sheet(truth, node, team, my_team, where)
        elif "summary-transmission" in cls:
            out += _check_summary_table(game if summary else None, node, where)
        elif node.tag == "form" and "guess-form" in cls:
            checked = {i.attrs.get("name"): i.attrs.get("value") for i in node.iter()
                       if i.tag == "input" and i.attrs.get("type") == "radio" and "checked" in i.attrs}
            if checked:
                current = game.round.current if game.phase == PLAYING and game.round else None
                mine = current.guess_by(my_team).code if current and my_team else None
                draft = tuple(int(checked.get(f"code{i}", 0) or 0) for i in (1, 2, 3))
                if draft != mine:
                    out.append(f"a guess {draft} pre-filled that isn't this team's own in {where}")
    if label_digits:
        code = tuple(int(d) if d.isdigit() else d for d in label_digits)
        if code != own:
            out.append(f"code digits {label_digits} outside a .code for someone not encrypting them in {where}")
    return out


def _rows(node, columns: dict[str, int]) -> dict[int, dict[str, str]]:
    rows, current = {}, None
    for tr in (n for n in node.iter() if n.tag == "tr" and n.within(tag="tbody")):
        ths = tr.kids("th")
        if ths:
            current = int(ths[0].text().strip())
        tds = tr.kids("td")
        if current is None or len(tds) < max(columns.values()) + 1:
            continue
        row = rows.setdefault(current, {k: "" for k in columns})
        for key, index in columns.items():
            row[key] += tds[index].text().strip().replace("–", "")
    return rows


def _check_sheet(truth: Truth, section, team, my_team, where) -> list[str]:
    out = []
    for number, row in _rows(section, {"dec": 1, "int": 2, "truth": 3}).items():
        t = truth.transmission(truth.game, number, team)
        if t is None:
            out.append(f"a note-sheet row for a round the game doesn't have in {where}")
            continue
        if row["truth"] and not (t.resolved and row["truth"] == code_str(t.code)):
            out.append(f"{team}'s round {number} code {row['truth']} in the note sheet before its reveal in {where}")
        if row["dec"] and not ((t.resolved or my_team == team) and row["dec"] == code_str(t.decryption.code)):
            out.append(f"{team}'s round {number} decryption {row['dec']} in the note sheet in {where}")
        if row["int"] and not ((t.resolved or my_team == other(team)) and row["int"] == code_str(t.interception.code)):
            out.append(f"{other(team)}'s round {number} interception {row['int']} in the note sheet in {where}")
    return out


def _check_summary_table(game, div, where) -> list[str]:
    if game is None:
        return [f"a summary table outside a summary page in {where}"]
    team = next((c[len("team-edge-"):] for c in div.classes if c.startswith("team-edge-")), None)
    article = div.parent
    heading = next((n.text() for n in article.iter() if n.tag == "h3"), "")
    number = int(re.search(r"(\d+)", heading).group(1))
    t = Truth.transmission(game, number, team)
    rows = {}
    for tr in (n for n in div.iter() if n.tag == "tr" and n.within(tag="tbody")):
        tds = tr.kids("td")
        for key, index in {"dec": 1, "int": 2, "truth": 3}.items():
            rows[key] = rows.get(key, "") + tds[index].text().strip().replace("–", "")
    if t is None:
        return [f"a summary row for a round the match doesn't have in {where}"] if rows else []
    out = []
    for key, code in (("truth", t.code), ("dec", t.decryption.code), ("int", t.interception.code)):
        if rows.get(key) and rows[key] != code_str(code):
            out.append(f"summary round {number} {team} {key} {rows[key]} is not the match's in {where}")
    return out


def check_plain_json(doc, where) -> list[str]:
    """Command answers and refusals: no code-like value anywhere."""
    return [f"a code-like value {value!r} at {'.'.join(map(str, path))} in {where}" for path, value in walk(doc)]


# --- the world: a game, its viewers, and the audit ------------------------------------------------

class World:
    """A game played through the Flask test client, with every viewer the audit looks through."""

    def __init__(self, app, mode="standard", seed=11):
        self.app, self.service = app, app.extensions["games"]
        self.service.rng = random.Random(seed)               # the same deal every run
        self.service.code_rng = random.Random(seed)          # and the same join codes
        self.store = self.service.store
        self.curl = app.test_client(use_cookies=False)       # a bearer-token client, like curl
        self.mode = mode
        body = {"words": ", ".join(WORDS)} | ({"mode": mode} if mode != "standard" else {})
        created = self.curl.post("/api/games", json=body)
        assert created.status_code == 201, created.get_json()
        data = created.get_json()
        self.id, self.tokens, self.urls = data["game_id"], data["tokens"], data["urls"]
        self.registry: dict[str, str] = {}                   # every capability token ever issued -> what
        self.seats: dict[str, Viewer] = {}                   # player name -> their phone
        self.handoffs: list[Viewer] = []
        self.expired: list[Viewer] = []
        self.static: list[tuple[Viewer, Resp]] = []
        self.problems: list[str] = []
        self.steps = self.requests = 0
        self.kinds: set[str] = set()                         # viewer kinds audited
        self.seen: Counter = Counter()                       # what reached those who may see it
        self._clues = 0
        self.host = self.viewer("table screen", "host", self.tokens["host"])
        self.spectator = self.viewer("spectator", "spectator", self.tokens["spectator"])
        self.joins = [self.viewer(f"{t} join link", "join", self.tokens[t]) for t in TEAMS]
        self.anonymous = self.viewer("anonymous", "anonymous", None)
        forged = secrets_lib.token_urlsafe(24)
        self.forged = self.viewer("forged token", "forged", forged, holding=forged)
        decoy = self.curl.post("/api/games", json={"words": ", ".join(WORDS)}).get_json()
        joined = self.curl.post(f"/api/games/{decoy['game_id']}/join", json={"name": "Dora"},
                                headers={"Authorization": f"Bearer {decoy['tokens']['white']}"}).get_json()
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
            return ({self.tokens[k] for k in ("host", "spectator", "white", "black")}
                    | set(self.service.seat_links(self.id).values()) | set(self.codes))
        return {v.token} if v.token else set()

    def viewers(self) -> list[Viewer]:
        return ([*self.seats.values(), self.host, self.spectator, *self.joins, *self.handoffs, self.anonymous,
                 self.forged, self.wrong, *self.expired])

    def fetch(self, client, method, path, kind, game_resource=True, **kw) -> Resp:
        answer = client.open(path, method=method, **kw)
        self.requests += 1
        resp = Resp(f"{method} {self.redact(path)}", answer.status_code, list(answer.headers.items()),
                    body_of(answer), kind, answer.content_type or "", game_resource)
        answer.close()
        return resp

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
            """A page or view, then again with its ETag, as the pages' script polls it."""
            get(client, path, kind, headers=headers or {})
            etag = dict(out[-1].headers).get("ETag")
            if etag:
                get(client, path, kind, headers={**(headers or {}), "If-None-Match": etag})

        if b is not None and v.kind in ("seat", "anonymous", "forged", "wrong", "expired"):
            poll(b, f"/play/{gid}", "page")
            get(b, f"/play/{gid}/summary", "summary-page")
            get(b, f"/play/{gid}/summary.json", "summary-json")
            get(b, f"/api/games/{gid}", "view")
            get(b, f"/api/games/{gid}/summary", "summary-json")
            if v.kind == "seat" and truth.game.match > 1:
                get(b, f"/play/{gid}/summary?match=1", "summary-page")
        if v.kind == "host":
            poll(b, f"/table/{v.token}", "page")
        elif v.kind == "spectator":
            poll(b, f"/watch/{v.token}", "page")
        elif v.kind == "join":
            get(b, f"/join/{v.token}", "page")
        elif v.kind == "handoff":
            get(b, f"/seat/{v.token}", "page")
        if v.kind in ("host", "spectator"):
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
        if b is not None and not v.statics_done:      # the same for everyone: once per browser
            v.statics_done = True
            root = Path(self.app.static_folder)
            for path in sorted(p for p in root.rglob("*") if p.is_file()):
                url = f"/static/{path.relative_to(root).as_posix()}"
                self.static.append((v, self.fetch(b, "GET", url, "static", False)))
            for path in ("/api/openapi.json", "/", "/healthz"):
                self.static.append((v, self.fetch(b, "GET", path, "static", False)))
        return out

    def refused_commands(self, v: Viewer, truth: Truth) -> list[Resp]:
        """A command each viewer can send that is always refused: its answer (page or JSON) is audited too."""
        gid, out = self.id, []
        bearer = {"Authorization": f"Bearer {v.token}"} if v.token else {}
        if v.kind == "host":
            out.append(self.fetch(v.client, "POST", f"/table/{v.token}/correction", "page",
                                  data={"decryption": "nope", "csrf_token": v.csrf or ""}))
            out.append(self.fetch(v.api, "POST", f"/api/games/{gid}/correction", "json",
                                  json={"decryption": "nope"}, headers=bearer))
        elif v.kind == "join" and (self.steps % 2 or truth.game.phase == "lobby"):
            out.append(self.fetch(v.client, "POST", f"/join/{v.token}", "page",
                                  data={"name": "", "csrf_token": v.csrf or ""}))
        elif v.kind in ("seat", "expired", "forged", "wrong") and v.client is not None:
            out.append(self.fetch(v.client, "POST", f"/play/{gid}/guess", "page",
                                  data={"code1": "9", "confirm": "1", "csrf_token": v.csrf or ""}))
        elif v.kind == "anonymous":
            out.append(self.fetch(v.client, "POST", f"/play/{gid}/guess", "page", data={"code1": "9"}))
        if v.kind != "host":
            out.append(self.fetch(v.api, "POST", f"/api/games/{gid}/guess", "json",
                                  json={"code": "nope", "confirm": True}, headers=bearer))
        for resp in out:
            resp.where += " (a refused command)"
        return out

    # --- checking ----------------------------------------------------------------------------------
    def check(self, truth: Truth, v: Viewer, resp: Resp, words=None, tokens=None) -> list[str]:
        where = f"{resp.where} as {v.label} (HTTP {resp.status})"
        words = truth.secret_words(v) if words is None else words
        tokens = self.forbidden_tokens(v) if tokens is None else tokens
        text = resp.body.decode("utf-8", "replace")
        cookies = set_cookie_payloads(self.app, resp.headers)
        hay = "\n".join([text, "\n".join(f"{k}: {x}" for k, x in resp.headers), json.dumps(cookies)])
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
        tokens = self.forbidden_tokens(v)
        blob = json.dumps(payload)
        out += [f"{what} inside {where}" for token, what in tokens.items() if token in blob]
        return out

    def audit(self, label: str) -> list[str]:
        """Every viewer, every resource, now: the list of problems (empty when nothing leaks)."""
        self.steps += 1
        self.refresh_registry()
        before = self.store.version(self.id)
        truth = Truth(self)
        problems = []
        for v in self.viewers():
            words, tokens = truth.secret_words(v), self.forbidden_tokens(v)
            self.kinds.add(v.kind)
            for resp in self.resources(v, truth):
                problems += self.check(truth, v, resp, words, tokens)
                self.count_sightings(truth, v, resp)
            if v.client is not None:
                jar = v.client.get_cookie(COOKIE)
                if jar is not None:
                    problems += self.check_session(v, session_payload(self.app, jar.value),
                                                   f"{v.label}'s stored session cookie")
        if self.store.version(self.id) != before:
            problems.append("a refused command or a page view changed the game")
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
        if resp.kind == "view" and v.kind == "seat":
            view = json.loads(body)
            if any(t["decryption"]["code"] and not t["resolved"] for r in view["rounds"]
                   for t in r["transmissions"].values()):
                self.seen["the team's own unrevealed guess"] += 1
        if v.kind == "host" and resp.kind == "page" and self.tokens["white"] in body:
            self.seen["join links on the table screen"] += 1
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

    def encryptor(self, team) -> Viewer:
        return self.seat_of(self.state().round.transmissions[team].encryptor)

    def guesser(self, by, transmission) -> Viewer:
        game = self.state()
        encryptor = game.round.transmissions[transmission].encryptor
        return next(self.seat_of(p.seat) for p in game.team_players(by) if p.seat != encryptor)

    def code(self, team) -> list[int]:
        return list(self.state().round.transmissions[team].code)

    def clues(self, team) -> list[str]:
        self._clues += 1
        return [f"ZKCLUE{team[0].upper()}{self._clues:02d}{x}" for x in "ABC"]

    def answered(self, v: Viewer, answer, what: str):
        assert answer.status_code in (200, 303), (what, answer.status_code, body_of(answer)[:400])
        resp = Resp(f"{answer.request.method} {self.redact(answer.request.path)}", answer.status_code,
                    list(answer.headers.items()), body_of(answer), "json", answer.content_type or "")
        truth = Truth(self)
        self.problems += [f"[{self.mode} command {what}] {self.redact(p)}" for p in self.check(truth, v, resp)]
        return answer

    def do(self, v: Viewer, command: str, channel="bearer", **body):
        """A command through the API: with the viewer's bearer token, or from its browser (cookie + CSRF)."""
        path = f"/api/games/{self.id}/{command}"
        if channel == "bearer":
            answer = v.api.post(path, json=body, headers={"Authorization": f"Bearer {v.token}"})
        else:
            answer = v.client.post(path, json=body, headers={"X-CSRFToken": v.csrf})
        self.refresh_registry()
        return self.answered(v, answer, command)

    def form(self, v: Viewer, command: str, data: dict):
        """A command from the page's form, without JavaScript."""
        path = f"/table/{v.token}/{command}" if v.kind == "host" else f"/play/{self.id}/{command}"
        return self.answered(v, v.client.post(path, data={**data, "csrf_token": v.csrf}), command)

    def join(self, name, team, client=None) -> Viewer:
        client = client or self.device()
        path = f"/join/{self.tokens[team]}"
        page = client.get(path)
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', body_of(page).decode()).group(1)
        answer = client.post(path, data={"name": name, "csrf_token": csrf})
        token = session_payload(self.app, client.get_cookie(COOKIE).value)["seats"][self.id]
        self.refresh_registry()
        seat = self.service.resolve(token)[0].seat
        v = Viewer(f"{name}'s phone ({team}, seat {seat})", "seat", token, client, team, seat, csrf,
                   api=self.api_of(client))
        self.answered(v, answer, f"join as {name}")
        self.seats[name] = v
        return v

    def expire(self, v: Viewer, why: str, keep_client=True) -> Viewer:
        dead = Viewer(f"{v.label}: {why}", "expired", v.token, v.client if keep_client else None, api=v.api)
        self.expired.append(dead)
        return dead

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
        new = Viewer(f"{name}'s new phone ({old.team}, seat {old.seat})", "seat", token, link.client, old.team,
                     old.seat, link.csrf, api=link.api)
        self.answered(new, answer, f"claim {name}'s seat")
        self.handoffs.remove(link)
        self.expire(old, "its seat went to a new phone")
        self.expire(link, "a seat link already used", keep_client=False)
        self.seats[name] = new

    def seated_anew(self):
        """Players switched or were shuffled in the lobby: each phone now belongs to its seat's team."""
        for v in self.seats.values():
            v.team = self.state().player(v.seat).team

    def step(self, label):
        self.audit(label)


def guess_form(code, confirm) -> dict:
    return {"code1": str(code[0]), "code2": str(code[1]), "code3": str(code[2]), "confirm": "1" if confirm else "0"}


# --- the walks ---------------------------------------------------------------------------------------

def play_standard(w: World):
    w.step("lobby")
    for name, team in (("Wanda", "white"), ("Bella", "black"), ("Walt", "white"), ("Xena", "white")):
        w.join(name, team)
        w.step(f"{name} joined")
    xena = w.seats.pop("Xena")
    w.do(w.host, "remove-player", seat=xena.seat)
    w.expire(xena, "removed by the table")
    w.step("Xena removed")
    w.join("Boris", "black")
    w.step("Boris joined")
    w.form(w.host, "start", {})
    w.step("started")

    # round 1: swaps, a take-back of clues, drafts, no interception
    w.do(w.guesser("white", "white"), "swap-keyword", channel="browser", number=2)
    w.step("white swapped keyword 2")
    w.do(w.guesser("black", "black"), "swap-keyword", number=4)
    w.step("black swapped keyword 4")
    w.do(w.encryptor("white"), "clues", clues=w.clues("white"))
    w.step("white announced")
    w.do(w.host, "take-back")
    w.step("white's clues taken back")
    w.form(w.encryptor("white"), "clues", {"clues": w.clues("white")})
    w.step("white announced again")
    w.do(w.encryptor("black"), "clues", channel="browser", clues=w.clues("black"))
    w.step("black announced")
    code = w.code("white")
    w.do(w.guesser("white", "white"), "guess", channel="browser", code=wrong(code), confirm=False)
    w.step("white's draft decryption")
    w.do(w.guesser("white", "white"), "guess", code=wrong(code), confirm=True)
    w.step("white's transmission revealed")
    code = w.code("black")
    w.form(w.guesser("black", "black"), "guess", guess_form(wrong2(code), confirm=False))
    w.step("black's draft decryption")
    w.do(w.guesser("black", "black"), "guess", code=wrong(code), confirm=True)
    w.step("round 1 over")

    # a correction of the last reveal, confirmed by both teams (it stays a miscommunication)
    w.form(w.host, "correction", {"decryption": dashed(wrong2(code))})
    w.step("correction proposed")
    w.do(w.seats["Wanda"], "answer-correction", accept=True)
    w.step("white confirmed")
    w.do(w.seats["Bella"], "answer-correction", channel="browser", accept=True)
    w.step("black confirmed: corrected")

    # a seat link for Bella, claimed by a new phone
    link = w.issue_seat_link("Bella")
    w.step("seat link issued")
    w.claim(link, "Bella")
    w.step("seat link claimed")

    # round 2: interceptions, a take-back of a sealed guess, both teams miscommunicate: a collision
    w.do(w.encryptor("white"), "clues", clues=w.clues("white"))
    w.step("white announced")
    w.form(w.encryptor("black"), "clues", {"clues": w.clues("black")})
    w.step("black announced")
    code = w.code("white")
    w.do(w.guesser("black", "white"), "guess", channel="browser", code=wrong(code), confirm=False)
    w.step("black's draft interception")
    w.do(w.guesser("black", "white"), "guess", code=wrong(code), confirm=True)
    w.step("black's interception sealed")
    w.form(w.host, "take-back", {})
    w.step("black's interception taken back")
    w.form(w.guesser("black", "white"), "guess", guess_form(wrong2(code), confirm=True))
    w.step("black's interception sealed again")
    w.do(w.guesser("white", "white"), "guess", code=wrong(code), confirm=False)
    w.step("white's draft decryption")
    w.do(w.guesser("white", "white"), "guess", channel="browser", code=wrong(code), confirm=True)
    w.step("white's transmission revealed")
    code = w.code("black")
    w.do(w.guesser("white", "black"), "guess", code=wrong2(code), confirm=True)
    w.step("white's interception sealed")
    w.do(w.guesser("black", "black"), "guess", code=wrong(code), confirm=False)
    w.step("black's draft decryption")
    w.do(w.guesser("black", "black"), "guess", code=wrong(code), confirm=True)
    w.step("collision: tiebreak")

    # the tiebreak
    w.do(w.seats["Walt"], "keyword-guesses", guesses=["ZKGUESSWA", "ZKGUESSWB", "", "ZKGUESSWD"])
    w.step("white sealed its keyword guesses")
    w.form(w.seats["Boris"], "keyword-guesses", {"guesses": ["ZKGUESSBA", "ZKGUESSBB", "ZKGUESSBC", "ZKGUESSBD"]})
    w.step("black sealed: judging")
    w.do(w.host, "verdicts", verdicts={"white": [True, False, False, False], "black": [False] * 4})
    w.step("over")

    # a rematch, through the lobby, played to a win
    w.do(w.host, "rematch")
    w.step("rematch: the lobby")
    w.do(w.seats["Walt"], "switch-team", channel="browser")
    w.seated_anew()
    w.step("rematch: Walt switched team")
    w.form(w.host, "shuffle-teams", {})
    w.seated_anew()
    w.step("rematch: teams shuffled")
    w.do(w.host, "set-timer", timer=45)
    w.step("rematch: the sand timer changed")
    w.do(w.host, "start")
    w.step("rematch: started")
    for team in TEAMS:
        w.do(w.encryptor(team), "clues", clues=w.clues(team))
        w.step(f"rematch: {team} announced")
    w.do(w.guesser("white", "white"), "guess", code=w.code("white"), confirm=True)
    w.step("rematch: white decrypted")
    w.do(w.guesser("black", "black"), "guess", channel="browser", code=wrong(w.code("black")), confirm=True)
    w.step("rematch: round 1 over")
    for team in TEAMS:
        w.do(w.encryptor(team), "clues", clues=w.clues(team))
        w.step(f"rematch round 2: {team} announced")
    for team in TEAMS:
        code = w.code(team)
        w.do(w.guesser(other(team), team), "guess", code=wrong(code), confirm=True)
        w.step(f"rematch round 2: {other(team)} intercepted")
        w.do(w.guesser(team, team), "guess", code=code if team == "white" else wrong(code), confirm=True)
        w.step(f"rematch round 2: {team} decrypted")
    assert w.state().phase == OVER and w.state().result.winners == ("white",)


def play_three(w: World):
    w.step("lobby")
    ivan = w.join("Ivan", "white")
    w.step("Ivan joined the team")
    w.join("Tess", "white")
    w.step("Tess joined")
    # Ivan's phone switches to the Interceptor's seat: its old seat token is withdrawn
    w.seats.pop("Ivan")
    w.join("Ivan", "black", client=ivan.client)
    w.expire(ivan, "left by switching teams", keep_client=False)
    w.step("Ivan switched to the Interceptor")
    w.join("Theo", "white")
    w.step("Theo joined")
    w.do(w.host, "start")
    w.step("started")
    w.do(w.seats["Theo"], "swap-keyword", channel="browser", number=1)
    w.step("the team swapped keyword 1")
    w.form(w.host, "skip-encryptor", {"team": "white"})               # the first tap only asks again
    w.form(w.host, "skip-encryptor", {"team": "white", "confirmed": "1"})
    w.step("the Encryptor was skipped")
    link = w.issue_seat_link("Ivan")
    w.step("seat link issued")
    w.do(w.host, "cancel-seat-link", seat=w.seats["Ivan"].seat)
    w.handoffs.remove(link)
    w.expire(link, "a cancelled seat link")
    w.step("seat link cancelled")

    w.form(w.encryptor("white"), "clues", {"clues": w.clues("white")})
    w.step("round 1 announced")
    code = w.code("white")
    w.do(w.guesser("white", "white"), "guess", code=wrong(code), confirm=False)
    w.step("the team's draft")
    w.do(w.guesser("white", "white"), "guess", channel="browser", code=code, confirm=True)
    w.step("round 1 over")

    w.do(w.encryptor("white"), "clues", clues=w.clues("white"))
    w.step("round 2 announced")
    code = w.code("white")
    w.do(w.seats["Ivan"], "guess", channel="browser", code=wrong2(code), confirm=False)
    w.step("the Interceptor's draft")
    w.do(w.seats["Ivan"], "guess", code=wrong(code), confirm=True)
    w.step("the Interceptor sealed")
    w.do(w.host, "take-back")
    w.step("the Interceptor's guess taken back")
    w.form(w.seats["Ivan"], "guess", guess_form(wrong(code), confirm=True))
    w.step("the Interceptor sealed again")
    w.do(w.guesser("white", "white"), "guess", code=wrong2(code), confirm=False)
    w.step("the team's draft")
    w.do(w.guesser("white", "white"), "guess", code=wrong2(code), confirm=True)
    w.step("round 2 over: a token for the Interceptor")

    w.do(w.host, "correction", decryption=code, interception=wrong(code))
    w.step("correction proposed")
    w.form(w.seats["Tess"], "answer-correction", {"accept": "1"})
    w.step("the team confirmed")
    w.do(w.seats["Ivan"], "answer-correction", accept=True)
    w.step("the Interceptor confirmed: corrected")

    w.do(w.encryptor("white"), "clues", channel="browser", clues=w.clues("white"))
    w.step("round 3 announced")
    code = w.code("white")
    w.do(w.seats["Ivan"], "guess", code=code, confirm=True)
    w.step("the Interceptor sealed")
    w.do(w.guesser("white", "white"), "guess", code=wrong(code), confirm=True)
    w.step("over: the Interceptor wins")
    assert w.state().phase == OVER and w.state().result.winners == ("black",)
    w.do(w.host, "rematch")
    w.step("rematch")
    w.do(w.host, "shuffle-teams")
    w.seated_anew()
    w.step("rematch: a new Interceptor drawn")
    w.do(w.host, "start")
    w.step("rematch: started")
    w.do(w.encryptor("white"), "clues", clues=w.clues("white"))
    w.step("rematch: announced")


def report(problems: list[str], limit=25) -> str:
    return f"{len(problems)} leak(s):\n" + "\n".join(problems[:limit])


@pytest.mark.parametrize("mode,walk", [("standard", play_standard), ("three_player", play_three)],
                         ids=["standard", "three_player"])
def test_no_viewer_ever_sees_a_secret_it_may_not_know(app, mode, walk):
    world = World(app, mode)
    started = time.perf_counter()
    walk(world)
    world.audit_statics()
    assert world.problems == [], report(world.problems)
    # The walk did look: every viewer kind, at every step.
    assert world.steps >= 25 and world.requests > 2000, (world.steps, world.requests)
    assert world.kinds == {"seat", "host", "spectator", "join", "handoff", "anonymous", "forged", "wrong", "expired"}
    for sighting in ("own keywords (page)", "own keywords (view)", "the Encryptor's own code",
                     "the team's own unrevealed guess", "join links on the table screen", "summaries",
                     "304 Not Modified"):
        assert world.seen[sighting] > 0, (sighting, world.seen)
    print(f"\n{mode}: {world.steps} steps, {world.requests} requests, {len(world.static)} static answers, "
          f"{time.perf_counter() - started:.1f}s; seen: {dict(world.seen)}")


# --- the audit catches a planted leak ---------------------------------------------------------------

def round_two_in_play(app) -> World:
    """Round 2, both announced; Black's interception of White's code sealed, White's decryption a draft."""
    w = World(app)
    for name, team in (("Wanda", "white"), ("Bella", "black"), ("Walt", "white"), ("Boris", "black")):
        w.join(name, team)
    w.do(w.host, "start")
    for round_number in (1, 2):
        for team in TEAMS:
            w.do(w.encryptor(team), "clues", clues=w.clues(team))
        if round_number == 1:
            for team in TEAMS:
                w.do(w.guesser(team, team), "guess", code=w.code(team), confirm=True)
    code = w.code("white")
    w.do(w.guesser("black", "white"), "guess", code=wrong(code), confirm=True)
    w.do(w.guesser("white", "white"), "guess", code=wrong2(code), confirm=False)
    return w


def _plant(monkeypatch, app, world, leak):
    import companion.views as views
    import companion.web.api as api
    import companion.web.pages as pages
    from flask import session

    if leak == "keywords":           # one team's keywords in everyone's view
        real = views._team

        def _team(game, team, my_team):
            view = real(game, team, my_team)
            view["keywords"] = list(game.keywords.get(team, ())) or None
            return view
        monkeypatch.setattr(views, "_team", _team)
    elif leak == "code":             # the current codes under a new field of the view
        real_view = views.view_for

        def view_for(game, viewer, *args, **kwargs):
            view = real_view(game, viewer, *args, **kwargs)
            view["next_codes"] = {t: list(x.code) for t, x in game.round.transmissions.items()}
            return view
        monkeypatch.setattr(api, "view_for", view_for)
        monkeypatch.setattr(pages, "view_for", view_for)
    elif leak == "sealed guess":     # every guess shown to everyone before the reveal
        real_guess = views._guess
        monkeypatch.setattr(views, "_guess", lambda guess, visible: real_guess(guess, True))
    elif leak == "page code":        # the pages (not the API) show every code in the note sheet
        real_view = views.view_for

        def page_view(game, viewer, *args, **kwargs):
            view = real_view(game, viewer, *args, **kwargs)
            for rv, r in zip(view["rounds"], game.rounds):
                for team, tv in rv["transmissions"].items():
                    tv["code"] = list(r.transmissions[team].code)
            return view
        monkeypatch.setattr(pages, "view_for", page_view)
    elif leak == "spelled-out code":  # the pages write White's current code as plain digits
        real_render = pages.render_template
        code = world.code("white")

        def render_template(*args, **kwargs):
            return real_render(*args, **kwargs).replace("</main>", f"<p>{code[0]} {code[1]} {code[2]}</p></main>")
        monkeypatch.setattr(pages, "render_template", render_template)
    elif leak == "header":           # the host token in a response header
        def header(response):
            response.headers["X-Debug"] = world.tokens["host"]
            return response
        app.after_request_funcs.setdefault(None, []).append(header)
    elif leak == "cookie":           # another token kept in every browser's session cookie
        def remember():
            session["spectating"] = world.tokens["spectator"]
        app.before_request_funcs.setdefault(None, []).append(remember)


PLANTS = {     # the leak -> a piece of the problem the audit must report
    "keywords": "'s keyword QZX",
    "code": "a code-like value",
    "sealed guess": "interception",
    "page code": "in the note sheet before its reveal",
    "spelled-out code": "spelled out",
    "header": "host token",
    "cookie": "session",
}


def test_a_planted_leak_is_caught(app, monkeypatch):
    """The same audit as the walks goes red as soon as one forbidden field reaches one viewer."""
    world = round_two_in_play(app)
    assert world.audit("baseline") == [], report(world.problems)
    hooks = (list(app.before_request_funcs.get(None, [])), list(app.after_request_funcs.get(None, [])))
    for leak, expected in PLANTS.items():
        with monkeypatch.context() as patch:
            _plant(patch, app, world, leak)
            problems = world.audit(f"planted: {leak}")
        app.before_request_funcs[None], app.after_request_funcs[None] = list(hooks[0]), list(hooks[1])
        assert problems, f"the audit missed a planted leak of {leak}"
        assert any(expected in p for p in problems), report(problems, 5)


# --- a real browser: one phone per team, every response it loads -------------------------------------

def _capture(world, into):
    def on_response(response):
        try:
            body = response.body()
        except Exception:            # a redirect, or a 304: no body to read
            body = b""
        try:
            headers = list(response.headers_array())
            headers = [(h["name"], h["value"]) for h in headers]
        except Exception:
            headers = list(response.headers.items())
        etag = next((x for k, x in headers if k.lower() == "etag"), "")
        found = re.search(r"v(\d+)-", etag)
        into.append((response.request.method, response.url, response.status, headers, body,
                     int(found.group(1)) if found else -1))
    return on_response


@pytest.mark.browser
def test_round_one_in_chromium_leaks_nothing_to_either_phone(browser, live_server):
    from playwright.sync_api import expect

    from .browser import Phone

    app = live_server.server.app
    w = World(app)
    last = {"version": w.store.version(w.id)}    # responses are checked against the states since then
    phones = {}
    for name, team in (("Wanda", "white"), ("Bella", "black")):
        phone = Phone(browser, name)
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
    checked = {"responses": 0, "polls": 0, "bodies": 0}
    problems = []

    def checkpoint(label):
        """Let both pages catch up, then check what they loaded since the last checkpoint and their DOM."""
        now = w.store.version(w.id)
        deadline = time.monotonic() + 5
        for phone, _, captured in phones.values():
            while time.monotonic() < deadline and not any(
                    url.endswith(f"/play/{w.id}") and version >= now
                    for _, url, status, _, _, version in captured):
                phone.page.wait_for_timeout(100)
        truths = [Truth(w, version) for version in range(last["version"], now + 1)]
        for phone, viewer, captured in phones.values():
            for method, url, status, headers, body, version in captured:
                path = url[len(live_server.url):]
                kind = ("view" if path.startswith(f"/api/games/{w.id}") and method == "GET" else
                        "static" if path.startswith("/static/") else "json" if path.startswith("/api/") else "page")
                checked["polls"] += path == f"/play/{w.id}" and method == "GET" and status in (200, 304)
                checked["bodies"] += bool(body)
                content_type = dict((k.lower(), x) for k, x in headers).get("content-type", "")
                resp = Resp(f"{method} {w.redact(path)}", status, headers, body, kind, content_type, False)
                if kind == "view" and status == 200:
                    candidates = [Truth(w, json.loads(body)["version"])]
                elif kind == "page" and status == 200 and version >= 0:    # the version its ETag names
                    candidates = [Truth(w, version)]
                else:
                    candidates = truths
                found = [w.check(t, viewer, resp) for t in candidates]
                if all(found):
                    problems.extend(f"[chromium {label}] {p}" for p in found[-1])
                checked["responses"] += 1
            captured.clear()
            dom = Resp(f"DOM of {w.redact(phone.page.url)}", 200, [], phone.page.content().encode(), "page",
                       "text/html", False)
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
        expect(phone.page.locator("details.secret")).to_have_count(1, timeout=5000)   # round 1's Encryptors
        codes[team] = phone.reveal_code()
        assert codes[team] == w.code(team)
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
    assert checked["responses"] > 40 and checked["polls"] > 10 and checked["bodies"] > 20, checked
