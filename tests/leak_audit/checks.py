"""What is true, and the checks on each answer the audit fetches: by value (the secret strings, the
tokens) and by place (where a code may stand in JSON and in a page)."""

from __future__ import annotations

import gzip
import html as html_lib
import re
import zlib
from dataclasses import dataclass

from itsdangerous import BadSignature

from companion.rules import OVER, PLAYING, TEAMS, other, replay

from ..oracle import Oracle, code_like, sees, team_of, transmission, walk
from .dom import parse_html

NATO = (  # noqa: SIM905 (two lines of words read better than 26 lines of strings)
    "ALPHA BRAVO CHARLIE DELTA ECHO FOXTROT GOLF HOTEL INDIA JULIETT KILO LIMA MIKE NOVEMBER OSCAR "
    "PAPA QUEBEC ROMEO SIERRA TANGO UNIFORM VICTOR WHISKEY XRAY YANKEE ZULU"
).split()
# No word is part of another, nor of anything the app prints; enough of them that a rematch deals words no
# match showed yet (a rematch with fewer than 12 unseen words deals from the whole list again, by the rules).
WORDS = [f"QZX{w}QZ" for w in NATO]
COOKIE = "decrypto"
# tables: the table screen's host key; links: digests of the one-time links this browser used (web/auth.py)
SESSION_KEYS = {"seats", "tables", "links", "csrf_token", "_permanent"}
CORRECTION_NOTICES = ("correction_proposed", "reveal_corrected")
DASHED = re.compile(r"(?<![\w-])([1-4])-([1-4])-([1-4])(?![\w-])")
SVG = re.compile(r"<svg.*?</svg>", re.S)
DATA_ATTRIBUTE = re.compile(r"\s(data-[\w-]+)=\"([^\"]*)\"")
MARKERS = ('class="code', "digit", 'class="sheet', "guess-form", "summary-transmission", "your-code")


def dashed(code) -> str:
    return "-".join(map(str, code))


def code_str(code) -> str:
    return "".join(map(str, code)) if code else ""


# --- what is true, and what each viewer may know ---------------------------------------------------


@dataclass(eq=False)
class Viewer:
    label: str
    kind: str  # seat host spectator join handoff anonymous forged wrong expired
    token: str | None = None  # the token it holds (sent as a bearer token)
    client: object = None  # its browser (a test client keeping its cookies), if it has one
    team: str | None = None  # a live seat's team
    seat: int | None = None  # a live seat's number
    csrf: str | None = None
    api: object = None  # the same device's cookie-less client, for bearer-token calls
    probed: str | None = None  # the phase its game-independent answers were last fetched in
    statics_done: bool = False


class Truth(Oracle):
    """The game as stored at `version`, the log's own sequence number (the latest by default), replayed from
    its event log; what each viewer may know is the oracle's (with the version each viewer's view shows)."""

    def __init__(self, world, version=None):
        rows = world.store.events_after(world.id)
        if version is not None:
            rows = [row for row in rows if row[0] <= version]
        super().__init__([e for _, e, _ in rows])
        self.version = rows[-1][0] if rows else 0
        self._matches: dict[int, object] = {}

    @property
    def finished(self) -> list[int]:
        return list(range(1, self.game.match + (self.game.phase == OVER)))

    def match_game(self, match: int):
        if match == self.game.match:
            return self.game
        if match not in self._matches:
            starts = [i for i, e in enumerate(self.events) if e["type"] == "rematch_started"]
            self._matches[match] = replay(self.events[: starts[match - 1]]) if 1 <= match <= len(starts) else None
        return self._matches[match]

    transmission = staticmethod(transmission)

    def codes(self) -> set[tuple]:
        """Every code and guess of the match under way."""
        return {
            c
            for r in self.game.rounds
            for t in r.transmissions.values()
            for c in (t.code, t.decryption.code, t.interception.code)
            if c
        }


# --- responses and the checks on them ------------------------------------------------------------


@dataclass
class Resp:
    where: str
    status: int
    headers: list[tuple[str, str]]
    body: bytes
    kind: str  # page, summary-page, view, summary-json, json, static
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


def allowed_code_place(path, doc) -> bool:
    """Only these fields may hold a code or a guess (and each is checked against the rules below)."""
    n = len(path)
    if path[:1] == ("rounds",) and n >= 5 and path[2] == "transmissions":
        return path[4:] in (("code",), ("decryption", "code"), ("interception", "code"))
    if path[:1] == ("last_reveal",):
        return path[1:] in (("code",), ("decryption", "code"), ("interception", "code"))
    if path in (("you", "code"), ("correction", "code")):
        return True
    if path[:1] == ("correction",) and n == 3:
        return path[1] in ("before", "after") and path[2] in ("decryption", "interception")
    if path[:1] == ("notices",) and n == 3 and path[2] in ("decryption", "interception"):
        return doc["notices"][path[1]].get("kind") in CORRECTION_NOTICES
    return False


def as_code(value):
    return tuple(value) if value is not None else None


def check_rounds(truth, game, rounds: list, v, where: str) -> list[str]:
    """Each transmission of these rounds (a view's or a summary's) against the game's own."""
    out = []
    for rv in rounds:
        for team, tv in rv["transmissions"].items():
            t = truth.transmission(game, rv["number"], team)
            if t is None:
                out.append(f"round {rv['number']} {team}: a transmission the game doesn't have in {where}")
            else:
                out += check_transmission(t, tv, v, f"round {rv['number']} of {where}")
    return out


def check_transmission(t, tv: dict, v: Viewer | None, where: str) -> list[str]:
    """One transmission of a view against the stored one: each code empty until this viewer may know it
    (`v` None: a summary, which anyone may read)."""
    out, name, shown = [], f"round's {t.team} transmission", sees(v, t)
    if tv.get("code") is not None and not (shown["code"] and as_code(tv["code"]) == t.code):
        out.append(f"{name}: its code {tv['code']} before its reveal in {where}")
    dec = (tv.get("decryption") or {}).get("code")
    if dec is not None and not (shown["decryption"] and as_code(dec) == t.decryption.code):
        out.append(f"{name}: {t.team}'s decryption {dec} in {where}")
    icp = (tv.get("interception") or {}).get("code")
    if icp is not None and not (shown["interception"] and as_code(icp) == t.interception.code):
        out.append(f"{name}: {other(t.team)}'s interception {icp} in {where}")
    return out


def check_view(truth: Truth, v: Viewer, view: dict, where: str) -> list[str]:
    """A `GET /api/games/<id>` body, by place, against the stored game."""
    g, my_team, out = truth.game, team_of(v), []
    for path, value in walk(view):
        if not allowed_code_place(path, view):
            out.append(f"a code-like value {value!r} at {'.'.join(map(str, path))} in {where}")
    if view.get("match") != g.match or view.get("version") != truth.version_seen(v):
        out.append(f"a view of another state (match {view.get('match')}, version {view.get('version')}) in {where}")
        return out
    for team in TEAMS:
        kw = view["teams"][team]["keywords"]
        if kw is not None and not (truth.public_keywords or my_team == team):
            out.append(f"{team}'s keywords (by place) in {where}")
    out += check_rounds(truth, g, view["rounds"], v, where)
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
            out += check_transmission(t, last, v, f"last_reveal of {where}")
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
    out += check_rounds(truth, game, summary["rounds"], None, f"match {match} of {where}")
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
        allowed = {
            c
            for r in game.rounds
            for t in r.transmissions.values()
            for c in (t.code, t.decryption.code, t.interception.code)
            if c
        }
        allowed |= {tuple(n[k]) for n in game.notices for k in ("decryption", "interception") if n.get(k)}
    else:
        allowed = truth.visible_codes(v)
    plain = SVG.sub("", text)  # a QR code's drawing is no text
    # A code this viewer may not know, written any other way in text or attributes (314, 3 1 4, 3, 1, 4).
    for code in truth.codes() - allowed:
        if re.search(r"(?<![\w.-]){}[\s,.·/-]*{}[\s,.·/-]*{}(?![\w.-])".format(*code), plain):
            out.append(f"a code {dashed(code)} this viewer may not know, spelled out in {where}")
    for m in DASHED.finditer(plain):  # in text and in attribute values alike
        code = tuple(int(d) for d in m.groups())
        if code not in allowed:
            out.append(f"a code {m.group(0)} written out in {where}")
    for name, value in DATA_ATTRIBUTE.findall(plain):
        if code_like(html_lib.unescape(value)):
            out.append(f"a code-like data attribute {name}={value!r} in {where}")
    if not any(marker in plain for marker in MARKERS):
        return out  # no element that can hold a code: nothing more to look at
    root = parse_html(plain).root
    my_team = team_of(v)
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
            team = next((c[len("team-edge-") :] for c in cls if c.startswith("team-edge-")), None)
            out += _check_sheet(truth, node, team, v, where)
        elif "summary-transmission" in cls:
            out += _check_summary_table(game if summary else None, node, where)
        elif node.tag == "form" and "guess-form" in cls:
            checked = {
                i.attrs.get("name"): i.attrs.get("value")
                for i in node.iter()
                if i.tag == "input" and i.attrs.get("type") == "radio" and "checked" in i.attrs
            }
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


def _check_sheet(truth: Truth, section, team, v: Viewer, where) -> list[str]:
    out = []
    for number, row in _rows(section, {"dec": 1, "int": 2, "truth": 3}).items():
        t = truth.transmission(truth.game, number, team)
        if t is None:
            out.append(f"a note-sheet row for a round the game doesn't have in {where}")
            continue
        shown = sees(v, t)
        if row["truth"] and not (shown["code"] and row["truth"] == code_str(t.code)):
            out.append(f"{team}'s round {number} code {row['truth']} in the note sheet before its reveal in {where}")
        if row["dec"] and not (shown["decryption"] and row["dec"] == code_str(t.decryption.code)):
            out.append(f"{team}'s round {number} decryption {row['dec']} in the note sheet in {where}")
        if row["int"] and not (shown["interception"] and row["int"] == code_str(t.interception.code)):
            out.append(f"{other(team)}'s round {number} interception {row['int']} in the note sheet in {where}")
    return out


def _check_summary_table(game, div, where) -> list[str]:
    if game is None:
        return [f"a summary table outside a summary page in {where}"]
    team = next((c[len("team-edge-") :] for c in div.classes if c.startswith("team-edge-")), None)
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
