"""Pieces of pages rendered once and reused, and pages that send only the pieces a screen doesn't show yet.

A page after a change is mostly what it was (the note sheets change at a reveal, the tokens at a reveal),
and much of it is what other screens of the table show too (the public sheet on the table screen, the
spectators' and the other team's phones, two teammates waiting for the same thing). So every live page
(a phone's, the table screen, the spectators') is made of pieces: macros of the templates under partials/,
named `pieces("partials/phone.html").topbar` (a `Piece`: its template and its name).

- `reuse(piece, *args)` renders a piece once per distinct set of arguments and `Speech` (the language, the
  game's mode, the root its links start from), and hands out that HTML again;
- `live(region)` is a page's live region (a `Region`: web/pages/screens.py), the reused `piece(*args)` in an
  element that carries its key (`data-key`). The page's script sends the keys of the regions it shows with each
  fetch of its page (`X-Live-Keys`), and the page leaves out each region whose key it sent: after a change
  the server renders, compresses and sends only what changed for that screen (static/live.js puts the rest
  back together). Without the header (a reload, no JavaScript) the page is whole.

Why this can't leak: a piece renders in an environment of its own (`PieceEnvironments`), one per language and
mode, that has no `request`, `session` or `g`: its globals are the rules' constants, the words of its language
and mode (bound here, not read from the request) and `url_for`, whose links start at the request's root, which
is in the key. A name that is none of these nor an argument is an error (`Unknown`). So a piece reads nothing
but its arguments and its key's `Speech`, a viewer gets back exactly the HTML its own view would have
rendered, and `view_for` stays the one place that decides what a viewer may see. A region's key is a digest
of what its viewer's own view put in it; a key sent in `X-Live-Keys` can only leave out a region of the asking
page. tests/test_fragments.py renders every page of whole games with and without reuse, and puts pages
together from their changed regions, and compares them byte for byte.

A piece writes nothing tied to the request or the time: its forms carry `CSRF_SLOT` where the CSRF token goes
(the token is signed for each screen's session), and `fill_csrf` writes each page's own token there as the
page is sent (web/pages/rendering.py `render_view`). The cache is per process, least recently used first out,
and bounded by the characters it holds.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from functools import partial as bound
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import orjson
from flask import current_app, request, url_for
from jinja2 import BaseLoader, Environment, Undefined, UndefinedError
from jinja2.exceptions import TemplateRuntimeError
from jinja2.runtime import Macro
from jinja2.utils import missing
from markupsafe import Markup, escape

from ..cache import Cache
from ..messages import clock_time, side_text, task_text, team_name
from ..rules import PLAYING, other
from .security import csrf_token

if TYPE_CHECKING:
    from flask import Flask

    from .locale import Gettext

# Where a reused piece's form puts the CSRF token. Escaped text (a clue, a name) never holds a raw "<".
CSRF_SLOT = Markup("<csrf-token>")
KEYS_HEADER = "X-Live-Keys"  # the keys of the regions a page shows, space-separated
MAX_SHOWN_KEYS = 64  # the most regions a page has is about 20: more keys are a forged header, ignored
_LETTERS = str.maketrans("0123456789", "ghijklmnop")  # a key is letters only: never read as a code


class Piece(NamedTuple):
    """A reused macro, by name: `pieces(template).name`."""

    template: str
    name: str


class Region(NamedTuple):
    """A page's live region: `piece(*args)` in `<tag id=id data-live data-key=... attributes>`
    (web/pages/screens.py says each page's)."""

    tag: str
    id: str
    attributes: dict[str, Any]
    piece: Piece
    args: tuple[Any, ...]


class Pieces:
    """The pieces of one template: `pieces("partials/phone.html").topbar` names its macro `topbar`."""

    def __init__(self, template: str):
        self.template = template

    def __getattr__(self, name: str) -> Piece:
        if name.startswith("_"):
            raise AttributeError(name)
        return Piece(self.template, name)


class Speech(NamedTuple):
    """What a piece renders for besides its arguments: the language and the game's mode (its words), and the
    root its links start from (`url_for`: a request's `SCRIPT_NAME`, which gunicorn takes from a trusted
    proxy's header, so a client behind it can name one)."""

    language: str
    mode: str
    root: str


def speech_of(language: str, mode: str) -> Speech:
    """The `Speech` of this request's page, in `language` for a game of `mode`."""
    return Speech(language, mode, request.script_root)


def key_of(piece: Piece, speech: Speech, args: tuple[Any, ...]) -> bytes:
    """A digest of everything `piece(*args)` renders from (128 bits: two different pieces never meet on one
    key). orjson writes the arguments four times as fast as the standard library's json (5 % of a page)."""
    what = orjson.dumps([piece.template, piece.name, *speech, args], option=orjson.OPT_NON_STR_KEYS)
    return hashlib.blake2b(what, digest_size=16).digest()


def region_key(speech: Speech, region: Region) -> bytes:
    """A region's key: its piece's, over its element and its arguments."""
    return key_of(region.piece, speech, (region.tag, region.id, region.attributes, region.args))


def short_key(key: bytes) -> str:
    """A region's key as its page holds it (`data-key`, and `X-Live-Keys`): 64 bits, in letters."""
    return key[:8].hex().translate(_LETTERS)


class Unknown(Undefined):
    """In a piece, a name that is neither an argument nor a global of its environment (`request`, `session`,
    `g`...) fails the page, where Jinja would write nothing. A key an argument lacks stays Jinja's lenient
    undefined (a view leaves out what its viewer may not see, a page's dict its empty entries)."""

    def __init__(
        self,
        hint: str | None = None,
        obj: Any = missing,
        name: str | None = None,
        exc: type[TemplateRuntimeError] = UndefinedError,
    ) -> None:
        super().__init__(hint, obj, name, exc)
        if obj is missing and hint is None:
            raise UndefinedError(f"a reused piece reads only its arguments and its environment's globals, not {name!r}")


class PieceEnvironments:
    """The pieces' own Jinja environments, one per language and mode (a handful: the languages we ship, two
    modes): the app's templates (`loader`), and globals that hold no request: `globals_` (what every
    template may read), the words of their language (`words(language)`: its gettext and ngettext) and mode,
    `url_for`, and `reuse`. Only `url_for` and `reuse` look at the request, for its root, which is in the key."""

    def __init__(
        self,
        loader: BaseLoader | None,
        words: Callable[[str], Gettext],
        globals_: dict[str, Any],
        filters: dict[str, Callable[..., Any]],
        auto_reload: bool,
    ) -> None:
        self._loader, self._words, self._globals, self._filters = loader, words, globals_, filters
        self._auto_reload = auto_reload
        self._made: dict[tuple[str, str], Environment] = {}
        self._lock = threading.Lock()

    def __call__(self, language: str, mode: str) -> Environment:
        environment = self._made.get((language, mode))
        if environment is None:
            with self._lock:
                environment = self._made.get((language, mode)) or self._make(language, mode)
                self._made[language, mode] = environment
        return environment

    def _make(self, language: str, mode: str) -> Environment:
        environment = Environment(
            loader=self._loader,
            autoescape=True,
            undefined=Unknown,
            extensions=["jinja2.ext.i18n"],
            auto_reload=self._auto_reload,
        )
        # (The i18n extension adds this method to the environment, unknown to mypy.)
        environment.install_gettext_callables(*self._words(language), newstyle=False)  # type: ignore[attr-defined]
        environment.filters.update(self._filters, clock=bound(clock_time, locale=language))
        environment.globals.update(
            self._globals,
            url_for=url_for,
            csrf_slot=CSRF_SLOT,
            pieces=Pieces,
            team_name=bound(team_name, mode=mode),
            side_text=bound(side_text, mode=mode),
            task_text=bound(task_text, mode=mode),
            # a piece's pieces, reused in the same language and mode
            reuse=lambda piece, *args: _render(Speech(language, mode, request.script_root), piece, args),
        )
        return environment

    def macro(self, speech: Speech, piece: Piece) -> Macro:
        found = getattr(self(speech.language, speech.mode).get_template(piece.template).module, piece.name)
        if not isinstance(found, Macro):
            raise LookupError(f"{piece.template} has no macro {piece.name}")
        return found


def rendered_cache(chars: int, key: str) -> Cache[bytes, Markup]:
    """Rendered HTML by `key` (bytes), at most `chars` characters of keys and HTML (a key holds the request's
    root, which a client chooses: counted too)."""
    return Cache(key, chars, weigh=lambda key, html: len(key) + len(html))


def _render(speech: Speech, piece: Piece, args: tuple[Any, ...], key: bytes | None = None) -> Markup:
    def render() -> Markup:
        pieces: PieceEnvironments = current_app.extensions["pieces"]
        return cast(Markup, pieces.macro(speech, piece)(*args))  # (an autoescaping environment's macro: Markup)

    fragments: Cache[bytes, Markup] | None = current_app.extensions.get("fragments")
    if fragments is None:
        return render()
    return fragments.made(key or key_of(piece, speech, args), render)


def shown_keys() -> frozenset[str]:
    """The keys of the regions this request's script says its page shows (`X-Live-Keys`)."""
    return frozenset(request.headers.get(KEYS_HEADER, "").split()[:MAX_SHOWN_KEYS])


def page_pieces(speech: Speech, shown: frozenset[str]) -> dict[str, Any]:
    """What a page's template reuses pieces with: its `speech`, and `live` and `reuse` bound to it and to the
    keys of the regions the page shows already (`shown_keys`). (Plain callables, not `pass_context`: Jinja
    derives a new context for each such call made in a block that sets variables, 5 % of a page.)"""
    return {"speech": speech, "live": bound(live, speech, shown), "reuse": bound(reuse, speech)}


def reuse(speech: Speech, piece: Piece, *args: Any) -> Markup:
    """`piece(*args)`, rendered once for everyone who asks with the same arguments and `speech` (the page's)."""
    return _render(speech, piece, args)


def live(speech: Speech, shown: frozenset[str], region: Region, key: bytes | None = None) -> Markup:
    """A live region's element with its piece in it, or nothing when the page's script said it shows this
    region as it is (`shown`, see above). An attribute that is True is written without a value; one that is
    None or False is left out. The page's `speech` says for whom; `key`, the region's, if worked out already."""
    key = key or region_key(speech, region)
    short = short_key(key)
    if short in shown:
        return Markup("")
    written = "".join(
        f" {name}" if value is True else f' {name}="{escape(value)}"'
        for name, value in region.attributes.items()
        if value is not None and value is not False
    )
    html = _render(speech, region.piece, region.args, key)
    return Markup(f'<{region.tag} id="{region.id}" data-live data-key="{short}"{written}>{html}</{region.tag}>')


def partial() -> bool:
    """This request is the page's script fetching its page: it shows the page already, and wants only what
    changed (base.html then leaves out what never changes on a live page: its head and the language links)."""
    return KEYS_HEADER in request.headers


def fill_csrf(html: str, token: str | None = None) -> str:
    """A page with its own CSRF token (`token`, else this request's) in every slot its reused pieces left."""
    return html.replace(CSRF_SLOT, token or csrf_token()) if CSRF_SLOT in html else html


def init_fragments(app: Flask, words: Callable[[str], Gettext], shared_globals: dict[str, Any]) -> None:
    """`words(language)`: a language's template gettext and ngettext; `shared_globals`: what pages and pieces
    alike may read (the rules' facts, words that need no mode)."""
    chars = app.config["FRAGMENT_CACHE_CHARS"]
    if chars:
        app.extensions["fragments"] = rendered_cache(chars, "a piece, its language, mode and root, its arguments")
    if app.config["SHARED_ANSWER_CHARS"]:  # web/pages/rendering.py `render_view`
        app.extensions["shared_answers"] = rendered_cache(
            app.config["SHARED_ANSWER_CHARS"], "a phone's update: its screen's regions, language and root"
        )
    if app.config["SHARED_SCREENS"]:  # web/pages/rendering.py `Pusher`
        app.extensions["shared_screens"] = Cache(
            "a page, its game, version, language, mode and root, and its viewer's view_key",
            app.config["SHARED_SCREENS"],
        )
    filters: dict[str, Callable[..., Any]] = {
        "other": other,
        "sheet_rows": sheet_rows,
        "sheets_of": sheets_of,
        "writers": writers,
        "names": names,
        "host_tools_of": host_tools_of,
        "news_of": news_of,
        "last_reveal": last_reveal,
        "timer_slot": timer_slot,
    }
    app.extensions["pieces"] = PieceEnvironments(
        app.jinja_env.loader, words, shared_globals, filters, app.jinja_env.auto_reload
    )
    # (`live` and `reuse` come with each page's own context: `page_pieces`.)
    app.jinja_env.globals.update(partial=partial, pieces=Pieces, csrf_slot=CSRF_SLOT)
    app.jinja_env.filters.update(filters)


# --- the view, narrowed to what a reused piece shows (so that its key holds nothing else) -----------------


def last_reveal(view: dict[str, Any]) -> dict[str, Any] | None:
    """The last reveal while a match is played, with its match (a reveal is known by its match, round and team:
    live.js plays it once)."""
    if view["phase"] != PLAYING or not view["last_reveal"]:
        return None
    return {**view["last_reveal"], "match": view["match"]}


def sheet_rows(rounds: list[dict[str, Any]], team: str) -> list[dict[str, Any]]:
    """What a team's note sheet shows of each round it gave clues in."""
    rows = []
    for r in rounds:
        t = r["transmissions"].get(team)
        if t and t["clues"]:
            rows.append(
                {
                    "number": r["number"],
                    "clues": t["clues"],
                    "decryption": t["decryption"]["code"],
                    "interception": t["interception"]["code"] if t["interception"] else None,
                    "code": t["code"],
                }
            )
    return rows


def sheets_of(view: dict[str, Any], *teams: str, game_id: str | None = None) -> list[list[Any]]:
    """The arguments of `sheet` for each of `teams` that transmits, in that order (none before round 1). On a
    phone (`game_id`), the other team's sheet carries the phone's team's notes (`you.notes`): its own key."""
    if not view["rounds"]:
        return []
    you = view["you"] or {}
    sheets = []
    for team in teams:
        if team in view["transmitting"]:
            sheet = [
                team,
                view["teams"][team]["keywords"],
                view["teams"][team]["columns"],
                sheet_rows(view["rounds"], team),
            ]
            if game_id and you.get("notes") and team != you["team"]:
                sheet.append({**you["notes"], "game_id": game_id, "match": view["match"]})
            sheets.append(sheet)
    return sheets


def names(view: dict[str, Any]) -> dict[int, str]:
    """Every seated player's name, by seat."""
    return {p["seat"]: p["name"] for team in view["teams"].values() for p in team["players"]}


def timer_slot(view: dict[str, Any]) -> int | None:
    """The sand timer's seconds while its line has a place on the screen: through a timed round's clue writing,
    from the round's start (the line appearing with the first clues then moves nothing); else None."""
    writing = view["phase"] == PLAYING and not view["transmission"] and not view["correction"]
    return view["timer_seconds"] if writing and len(view["transmitting"]) == 2 else None


def writers(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Who writes this round's clues and whether they announced them (what `writing_status` shows)."""
    seated = names(view)
    transmissions = view["rounds"][-1]["transmissions"]
    return [
        {
            "team": team,
            "name": seated.get(transmissions[team]["encryptor"], ""),
            "announced": transmissions[team]["announced"],
        }
        for team in view["transmitting"]
    ]


def host_tools_of(view: dict[str, Any]) -> dict[str, Any] | None:
    """The table view as its "Fix a mistake" panel reads it (none in the lobby): the current round's
    Encryptors, the reveal it can correct, the seated players."""
    if view["phase"] == "lobby":
        return None
    host, rounds = view["host"], {}
    if view["rounds"]:
        current = view["rounds"][-1]
        rounds[current["number"]] = {
            team: {"encryptor": t["encryptor"]} for team, t in current["transmissions"].items()
        }
    fix = host["correctable"]
    if fix:
        fixed = next(r for r in view["rounds"] if r["number"] == fix["round"])["transmissions"][fix["team"]]
        shown = rounds.setdefault(fix["round"], {}).setdefault(fix["team"], {})
        shown.update(code=fixed["code"], interception=fixed["interception"], decryption=fixed["decryption"])
    return {
        "phase": view["phase"],
        "try_out": view["try_out"],
        "correction": view["correction"],
        "host": host,
        "round": view["round"],
        "rounds": [{"number": number, "transmissions": rounds[number]} for number in sorted(rounds)],
        "teams": {
            team: {"players": [{"seat": p["seat"], "name": p["name"]} for p in players["players"]]}
            for team, players in view["teams"].items()
        },
    }


def news_of(view: dict[str, Any]) -> dict[str, Any]:
    """What the table's spoken news (`news` in partials/board.html) reads of the view."""
    return {name: view[name] for name in ("phase", "result", "last_reveal", "round", "max_rounds")}
