"""Pieces of pages rendered once and reused, and pages that send only the pieces a phone doesn't show yet.

A page after a change is mostly what it was (the note sheets change at a reveal, the tokens at a reveal),
and much of it is what other screens of the table show too (the public sheet on the table screen, the
spectators' and the other team's phones, two teammates waiting for the same thing). So:

- `reuse(macro, *args)` renders a template macro once per distinct set of arguments, language and game mode,
  and hands out that HTML again;
- `live(tag, id, attributes, macro, *args)` is a page's live region, the reused `macro(*args)` in an element
  that carries its key (`data-key`). The page's script sends the keys of the regions it shows with each
  fetch of its page (`X-Live-Keys`), and the page leaves out each region whose key it sent: after a change
  the server renders, compresses and sends only what changed for that phone (static/live.js puts the rest
  back together). Without the header (a reload, no JavaScript) the page is whole.

Why this can't leak: a key is made of the arguments themselves, and a macro imported without context (how
the pages import them) reads nothing but its arguments and the environment's globals (the translations,
chosen by the language and mode in the key, and `url_for`, whose links start at the request's script root,
in the key too: a request naming another root only ever gets pieces made for that root). So a viewer gets back exactly the HTML its own view would have
rendered, and `view_for` stays the one place that decides what a viewer may see. A region's key is a digest
of what its viewer's own view put in it; a key sent in `X-Live-Keys` can only leave out a region of the
asking page. tests/test_fragments.py renders every page of whole games with and without reuse, and puts
pages together from their changed regions, and compares them byte for byte.

A reused macro writes nothing tied to the request or the time: its forms carry `CSRF_SLOT` where the CSRF
token goes (the token is signed for each phone's session), and `fill_csrf` writes each page's own token there
as the page is sent (web/pages/rendering.py `render_view`). The cache is per process, least recently used first out,
and bounded by the characters it holds.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict

from flask import current_app, g, request
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape

# Where a reused piece's form puts the CSRF token. Escaped text (a clue, a name) never holds a raw "<".
CSRF_SLOT = Markup("<csrf-token>")
KEYS_HEADER = "X-Live-Keys"           # the keys of the regions a page shows, space-separated
MAX_SHOWN_KEYS = 64     # the most regions a page has is about 20: more keys are a forged header, ignored
_LETTERS = str.maketrans("0123456789", "ghijklmnop")    # a key is letters only: never read as a code


def key_of(macro, args: tuple) -> bytes:
    """A digest of what `macro(*args)` renders depends on: the macro, the request's language and game mode, the
    root its links start from (`url_for`: a request's `SCRIPT_NAME`, which gunicorn takes from a trusted
    proxy's header, so a client behind it can name one), its arguments (128 bits: two different pieces never
    meet on one key)."""
    what = json.dumps([macro._func.__code__.co_filename, macro.name, str(get_locale()), g.get("mode"),
                       request.script_root, args], ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(what.encode(), digest_size=16).digest()


class Fragments:
    def __init__(self, max_chars: int):
        self.max_chars = max_chars
        self._held: OrderedDict[bytes, Markup] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def render(self, macro, args: tuple, key: bytes) -> Markup:
        with self._lock:
            html = self._held.get(key)
            if html is not None:
                self._held.move_to_end(key)
                self.hits += 1
                return html
        html = macro(*args)
        with self._lock:
            self.misses += 1
            if key not in self._held:
                self._held[key] = html
                self._chars += len(html)
                while self._chars > self.max_chars and self._held:
                    self._chars -= len(self._held.popitem(last=False)[1])
        return html


def _render(macro, args: tuple, key: bytes | None = None) -> Markup:
    fragments = current_app.extensions.get("fragments")
    if fragments is None:
        return macro(*args)
    return fragments.render(macro, args, key or key_of(macro, args))


def reuse(macro, *args) -> Markup:
    """`macro(*args)`, rendered once for everyone who asks with the same arguments (see above)."""
    return _render(macro, args)


def live(tag: str, element_id: str, attributes: dict, macro, *args) -> Markup:
    """A live region: `<tag id=element_id data-live data-key=... attributes>macro(*args)</tag>`, or nothing
    when the page's script said it shows this region as it is (see above). An attribute that is True is
    written without a value; one that is None or False is left out."""
    key = key_of(macro, (tag, element_id, attributes, args))
    short = key[:8].hex().translate(_LETTERS)
    if short in _shown():
        return Markup("")
    written = "".join(f" {name}" if value is True else f' {name}="{escape(value)}"'
                      for name, value in attributes.items() if value is not None and value is not False)
    return Markup(f'<{tag} id="{element_id}" data-live data-key="{short}"{written}>'
                  f'{_render(macro, args, key)}</{tag}>')


def _shown() -> frozenset[str]:
    """The region keys the page's script says it shows (read once per request)."""
    shown = g.get("live_keys")
    if shown is None:
        shown = g.live_keys = frozenset(request.headers.get(KEYS_HEADER, "").split()[:MAX_SHOWN_KEYS])
    return shown


def partial() -> bool:
    """This request is the page's script fetching its page: it shows the page already, and wants only what
    changed (base.html then leaves out what never changes on a live page: its head and the language links)."""
    return KEYS_HEADER in request.headers


def fill_csrf(html: str) -> str:
    """A page with its own CSRF token in every slot its reused pieces left."""
    return html.replace(CSRF_SLOT, generate_csrf()) if CSRF_SLOT in html else html


def init_fragments(app) -> None:
    chars = app.config["FRAGMENT_CACHE_CHARS"]
    if chars:
        app.extensions["fragments"] = Fragments(chars)
    app.jinja_env.globals.update(reuse=reuse, live=live, partial=partial, csrf_slot=CSRF_SLOT)
    app.jinja_env.filters.update(sheet_rows=sheet_rows, sheets_of=sheets_of, writers=writers, names=names)


# --- the view, narrowed to what a reused piece shows (so that its key holds nothing else) -----------------

def sheet_rows(rounds: list[dict], team: str) -> list[dict]:
    """What a team's note sheet shows of each round it gave clues in."""
    rows = []
    for r in rounds:
        t = r["transmissions"].get(team)
        if t and t["clues"]:
            rows.append({"number": r["number"], "clues": t["clues"], "decryption": t["decryption"]["code"],
                         "interception": t["interception"]["code"] if t["interception"] else None,
                         "code": t["code"]})
    return rows


def sheets_of(view: dict, *teams: str, game_id: str | None = None) -> list[list]:
    """The arguments of `sheet` for each of `teams` that transmits, in that order (none before round 1). On a
    phone (`game_id`), the other team's sheet carries the phone's team's notes (`you.notes`): its own key."""
    if not view["rounds"]:
        return []
    you = view["you"] or {}
    sheets = []
    for team in teams:
        if team in view["transmitting"]:
            sheet = [team, view["teams"][team]["keywords"], view["teams"][team]["columns"],
                     sheet_rows(view["rounds"], team)]
            if game_id and you.get("notes") and team != you["team"]:
                sheet.append({**you["notes"], "game_id": game_id, "match": view["match"]})
            sheets.append(sheet)
    return sheets


def names(view: dict) -> dict[int, str]:
    """Every seated player's name, by seat."""
    return {p["seat"]: p["name"] for team in view["teams"].values() for p in team["players"]}


def writers(view: dict) -> list[dict]:
    """Who writes this round's clues and whether they announced them (what `writing_status` shows)."""
    seated = names(view)
    transmissions = view["rounds"][-1]["transmissions"]
    return [{"team": team, "name": seated.get(transmissions[team]["encryptor"], ""),
             "announced": transmissions[team]["announced"]} for team in view["transmitting"]]
