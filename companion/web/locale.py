"""Which language a request speaks, and the templates' translations in it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlencode

from babel import support
from flask import Flask, current_app, g, redirect, request, session
from flask_babel import Babel
from flask_babel import refresh as refresh_locale
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from werkzeug.wrappers import Response

from ..messages import catalogue, elided
from ..rules.text import LANGUAGES
from .auth import service

# Each language in its own words, for the language switch.
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "ko": "한국어"}
# The templates' gettext and ngettext (`gettext_callables`), as Jinja's i18n extension installs them.
Gettext = tuple[Callable[..., str], Callable[..., str]]


def _locale() -> str:
    """This phone's own choice, else the game's language, else the browser's, else English."""
    chosen: str | None = session.get("language")
    if chosen in LANGUAGES:
        return chosen
    game_language: str | None = g.get("game_language")
    return game_language or _game_language() or request.accept_languages.best_match(LANGUAGES) or "en"


def _game_language() -> str | None:
    """The language of the game this request is about (an API refusal speaks it too); read only when
    something is translated, so a poll answered 304 never loads the game."""
    game_id = g.get("game_id")
    if game_id is None:
        return None
    return service().load(game_id)[1].language


def speak(mode: str, language: str) -> str:
    """From here on this request speaks the game's language (unless this phone chose its own) and names
    its sides for the game's mode; its catalogue is looked up once, here, among those the app read once
    (Flask-Babel's own lookup parses a locale and finds its catalogue again: 5 % of a phone's update).
    Returns the language it speaks."""
    g.mode, g.game_language = mode, language
    refresh_locale()  # Flask-Babel works its locale out again when it is asked (a whole page's `lang`)
    speaking = _locale()
    g.catalogue = current_app.extensions["catalogues"](speaking)
    return speaking


def _formatted(context: Context, text: str, variables: dict[str, Any]) -> str:
    text = elided(text, variables)
    return (Markup(text) if context.eval_ctx.autoescape else text) % variables


def gettext_callables(translations: Callable[[], support.NullTranslations]) -> Gettext:
    """The templates' gettext and ngettext, reading `translations()`: formatting as Jinja's "newstyle" gettext
    does (the values escaped), with French elision before names (messages.elided)."""

    @pass_context
    def gettext(context: Context, string: str, **variables: Any) -> str:
        return _formatted(context, translations().ugettext(string), variables)

    @pass_context
    def ngettext(context: Context, singular: str, plural: str, num: int, **variables: Any) -> str:
        variables.setdefault("num", num)
        return _formatted(context, translations().ungettext(singular, plural, num), variables)

    return gettext, ngettext


def catalogue_of(app: Flask, language: str) -> support.Translations:
    """`language`'s catalogue, read from the app's translation directories (as Flask-Babel reads a request's)."""
    babel = app.extensions["babel"]
    translations = support.Translations()
    for directory in babel.translation_directories:
        found = support.Translations.load(directory, [language], babel.default_domain)
        if isinstance(found, support.Translations):  # else none there (merging a NullTranslations adds nothing)
            translations.merge(found)
        if hasattr(found, "plural"):  # merge() leaves the plural rule behind
            translations.plural = found.plural
    return translations


def template_words(app: Flask) -> Callable[[str], Gettext]:
    """For a language, the templates' gettext and ngettext in it (the pieces' environments, web/fragments.py:
    their words come from the language they are rendered in, never from a request)."""

    def words(language: str) -> Gettext:
        translations = catalogue_of(app, language)
        return gettext_callables(lambda: translations)

    return words


def init_locale(app: Flask) -> None:
    Babel(app, locale_selector=_locale)
    read: dict[str, support.Translations] = {}

    def catalogues(language: str) -> support.Translations:
        """`language`'s catalogue, read at its first use (a handful of languages)."""
        if language not in read:
            read[language] = catalogue_of(app, language)
        return read[language]

    app.extensions["catalogues"] = catalogues
    # Pages translate through this request's catalogue (see `speak`).
    # (jinja2.ext.i18n, which Flask-Babel loads, adds this method to the environment, unknown to mypy.)
    app.jinja_env.install_gettext_callables(*gettext_callables(catalogue), newstyle=False)  # type: ignore[attr-defined]

    @app.before_request
    def _language_from_link() -> Response | None:
        """`?lang=fr` on any page: this phone's interface language from now on (other phones keep theirs)."""
        if b"lang=" not in request.query_string:  # (most requests: their query is not even parsed)
            return None
        language = request.args.get("lang")
        if request.method == "GET" and language in LANGUAGES and request.url_rule is not None:  # (else a 404)
            session["language"] = language
            rest = {k: v for k, v in request.args.items() if k != "lang"}
            return redirect(
                same_site(request.script_root + request.path) + ("?" + urlencode(rest) if rest else ""), 303
            )
        return None


def same_site(path: str) -> str:
    """`path` as a redirect's address that stays on this site: one leading slash (a browser reads `//host` and
    `/\\host` as another site), every character outside a path's own percent-encoded (a tab, a newline)."""
    return "/" + quote(path.lstrip("/\\"), safe="/")
