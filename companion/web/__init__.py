"""The web layer: thin blueprints over the game service, plus the security boundary of requests."""

from urllib.parse import urlencode

from flask import Flask, g, redirect, request, session
from flask_babel import Babel, get_locale, get_translations
from flask_babel import refresh as refresh_locale
from jinja2 import pass_context
from markupsafe import Markup

from ..rules import TEAMS, other, three_player
from ..rules.host import PHONE_IN_USE_SECONDS
from ..rules.state import TOKENS_TO_END
from ..rules.notes import KEYWORD_NOTE_MAX_LENGTH
from ..rules.text import CLUE_MAX_LENGTH, KEYWORD_GUESS_MAX_LENGTH, LANGUAGES, NAME_LENGTH, NOTE_LINE_MAX_LENGTH, TIMER_SECONDS

from ..messages import (CAUSES, catalogue, clock_time, elided, reason_text, refusal, side_text, task_text, team_name,
                        translate)
from ..views import TURN_TASKS
from .security import init_security


# Each language in its own words, for the language switch.
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "ko": "한국어"}

# The rules' facts the templates show or limit a field by: read from companion/rules, never written again there.
RULES_FOR_TEMPLATES = {
    "TEAMS": TEAMS, "TOKENS_TO_END": TOKENS_TO_END, "TIMER_SECONDS": TIMER_SECONDS,
    "NAME_LENGTH": NAME_LENGTH, "CLUE_MAX_LENGTH": CLUE_MAX_LENGTH, "KEYWORD_GUESS_MAX_LENGTH": KEYWORD_GUESS_MAX_LENGTH,
    "PHONE_IN_USE_MINUTES": PHONE_IN_USE_SECONDS // 60,
    "KEYWORD_NOTE_MAX_LENGTH": KEYWORD_NOTE_MAX_LENGTH, "NOTE_LINE_MAX_LENGTH": NOTE_LINE_MAX_LENGTH,
    "THREE_PLAYER": {"TEAM": three_player.TEAM, "INTERCEPTOR": three_player.INTERCEPTOR, "SIZES": three_player.SIZES,
                     "TOKENS_TO_WIN": three_player.TOKENS_TO_WIN},
}


def _locale():
    """This phone's own choice, else the game's language, else the browser's, else English."""
    chosen = session.get("language")
    if chosen in LANGUAGES:
        return chosen
    return g.get("game_language") or _game_language() or request.accept_languages.best_match(LANGUAGES) or "en"


def _game_language() -> str | None:
    """The language of the game this request is about (an API refusal speaks it too); read only when
    something is translated, so a poll answered 304 never loads the game."""
    game_id = g.get("game_id")
    if game_id is None:
        return None
    from .auth import service
    return service().load(game_id)[1].language


def speak(mode: str, language: str) -> None:
    """From here on this request speaks the game's language (unless this phone chose its own) and names
    its sides for the game's mode; its catalogue is looked up once, here."""
    g.mode, g.game_language = mode, language
    refresh_locale()
    g.catalogue = get_translations()


def _formatted(context, text: str, variables: dict) -> str:
    text = elided(text, variables)
    return (Markup(text) if context.eval_ctx.autoescape else text) % variables


@pass_context
def _gettext(context, string: str, **variables) -> str:
    return _formatted(context, translate(string), variables)


@pass_context
def _ngettext(context, singular: str, plural: str, num: int, **variables) -> str:
    variables.setdefault("num", num)
    return _formatted(context, catalogue().ungettext(singular, plural, num), variables)


def init_web(app: Flask) -> None:
    from .auth import SeatCookie
    app.session_interface = SeatCookie()
    Babel(app, locale_selector=_locale)
    # Templates translate through this request's catalogue (see `speak`), formatting as Jinja's "newstyle"
    # gettext does (the values escaped), with French elision before names (messages.elided).
    app.jinja_env.install_gettext_callables(gettext=_gettext, ngettext=_ngettext, newstyle=False)

    @app.before_request
    def _language_from_link():
        """`?lang=fr` on any page: this phone's interface language from now on (other phones keep theirs)."""
        language = request.args.get("lang")
        if request.method == "GET" and language in LANGUAGES:
            session["language"] = language
            rest = {k: v for k, v in request.args.items() if k != "lang"}
            return redirect(request.path + ("?" + urlencode(rest) if rest else ""), 303)
    init_security(app)
    app.jinja_env.globals.update(team_name=team_name, side_text=side_text, reason_text=reason_text, task_text=task_text, turn_tasks=TURN_TASKS, causes=CAUSES, refusal=refusal,
                                  get_locale=get_locale, language_names=LANGUAGE_NAMES, **RULES_FOR_TEMPLATES)
    app.jinja_env.filters["other"] = other          # the other team: `team|other`
    from .commands import CommandName
    app.url_map.converters["command"] = CommandName      # before the routes that use it
    app.jinja_env.filters["clock"] = clock_time     # a moment of the view as a time of day: `at|clock`
    from .api import api
    from .assets import init_assets
    from .errors import init_errors
    from .fragments import init_fragments
    from .limits import init_limits
    from .pages import pages
    from .summary import summary
    app.register_blueprint(pages)
    app.register_blueprint(summary)
    app.register_blueprint(api)
    init_errors(app)
    init_limits(app)
    init_assets(app)
    init_fragments(app)
