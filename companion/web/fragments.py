"""Pieces of pages rendered once and reused by every page that shows the same thing.

A page after a change is mostly what it was (the note sheets change at a reveal, the tokens at a reveal),
and much of it is what other screens of the table show too (the public sheet on the table screen, the
spectators' and the other team's phones). `reuse(macro, *args)` renders a template macro once per distinct
set of arguments, language and game mode, and hands out that HTML again.

Why this can't leak: the key is the arguments themselves, and a macro imported without context (how the
pages import them) reads nothing but its arguments and the environment's globals (the translations, chosen
by the language and mode in the key). So a viewer gets back exactly the HTML its own view would have rendered,
and `view_for` stays the one place that decides what a viewer may see. tests/test_fragments.py renders every
page of whole games with and without reuse and compares them byte for byte.

A reused macro must not write anything tied to the request (a CSRF token, the time): none of them has a form.
The cache is per process, least recently used first out, and bounded by the characters it holds.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict

from flask import current_app, g
from flask_babel import get_locale
from markupsafe import Markup


class Fragments:
    def __init__(self, max_chars: int):
        self.max_chars = max_chars
        self._held: OrderedDict[tuple, Markup] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def render(self, macro, args: tuple) -> Markup:
        key = (macro._func.__code__.co_filename, macro.name, str(get_locale()), g.get("mode"),
               json.dumps(args, ensure_ascii=False, separators=(",", ":")))
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
                self._chars += len(html) + len(key[-1])
                while self._chars > self.max_chars and self._held:
                    old_key, old = self._held.popitem(last=False)
                    self._chars -= len(old) + len(old_key[-1])
        return html

    def clear(self) -> None:
        with self._lock:
            self._held.clear()
            self._chars = 0


def reuse(macro, *args) -> Markup:
    """`macro(*args)`, rendered once for everyone who asks with the same arguments (see above)."""
    fragments = current_app.extensions.get("fragments")
    return fragments.render(macro, args) if fragments is not None else macro(*args)


def init_fragments(app) -> None:
    chars = app.config["FRAGMENT_CACHE_CHARS"]
    if chars:
        app.extensions["fragments"] = Fragments(chars)
    app.jinja_env.globals["reuse"] = reuse
    app.jinja_env.filters["sheet_rows"] = sheet_rows


def sheet_rows(rounds: list[dict], team: str) -> list[dict]:
    """What a team's note sheet shows of each round it gave clues in (the view's rounds, narrowed to what the
    sheet reads, so that its reused render is keyed by nothing else)."""
    rows = []
    for r in rounds:
        t = r["transmissions"].get(team)
        if t and t["clues"]:
            rows.append({"number": r["number"], "clues": t["clues"], "decryption": t["decryption"]["code"],
                         "interception": t["interception"]["code"] if t["interception"] else None,
                         "code": t["code"]})
    return rows
