"""The web layer: thin blueprints over the game service, plus the security boundary of requests.

(The blueprints are imported under names of their own: a module's attribute `pages` stays the package.)"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import Flask
from flask_babel import get_locale

from ..messages import (
    CAUSES,
    TASKS,
    clock_time,
    minutes,
    reason_text,
    refusal,
    side_text,
    task_text,
    team_name,
    worded_notice,
)
from ..rules import TEAMS, three_player
from ..rules.commands import COMMANDS, targets_for
from ..rules.events import NOTICES
from ..rules.host import PHONE_IN_USE_SECONDS
from ..rules.notes import KEYWORD_NOTE_MAX_LENGTH
from ..rules.state import MODES, PHASES, TOKENS_TO_END, guess_of
from ..rules.text import CLUE_MAX_LENGTH, KEYWORD_GUESS_MAX_LENGTH, NAME_LENGTH, NOTE_LINE_MAX_LENGTH, TIMER_SECONDS
from ..views import TURN_TASKS
from .api import api as api_routes
from .assets import init_assets
from .pages.after_form import init_after_form
from .auth import SeatCookie
from .commands import CommandName
from .errors import init_errors
from .fragments import init_fragments
from .limits import init_limits
from .locale import LANGUAGE_NAMES, init_locale, template_words
from .pages import pages as page_routes
from .security import init_security
from .summary import summary as summary_routes


class Names:
    """A set of names a template compares with, as attributes (`PHASE.lobby`): a misspelt name fails the page
    instead of quietly matching nothing."""

    def __init__(self, names: Iterable[str]) -> None:
        self._names = frozenset(names)

    def __getattr__(self, name: str) -> str:
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self._names:
            raise LookupError(f"no such name: {name}")  # not AttributeError: Jinja would make it undefined
        return name


def guess_by(transmission: dict[str, Any], team: str) -> Any:
    """`team`'s guess of a view's transmission (rules.state.Transmission.guess_by, on the view)."""
    return transmission[guess_of(transmission["team"], team)]


# The rules' facts the templates show or limit a field by: read from companion/rules, never written again there.
RULES_FOR_TEMPLATES = {
    "PHASE": Names(PHASES),
    "MODE": Names(MODES),
    "TASK": Names(TASKS),
    "guess_by": guess_by,
    "TEAMS": TEAMS,
    "TOKENS_TO_END": TOKENS_TO_END,
    "TIMER_SECONDS": TIMER_SECONDS,
    "NAME_LENGTH": NAME_LENGTH,
    "CLUE_MAX_LENGTH": CLUE_MAX_LENGTH,
    "KEYWORD_GUESS_MAX_LENGTH": KEYWORD_GUESS_MAX_LENGTH,
    "PHONE_IN_USE_SECONDS": PHONE_IN_USE_SECONDS,
    "KEYWORD_NOTE_MAX_LENGTH": KEYWORD_NOTE_MAX_LENGTH,
    "NOTE_LINE_MAX_LENGTH": NOTE_LINE_MAX_LENGTH,
    "THREE_PLAYER": {
        "TEAM": three_player.TEAM,
        "INTERCEPTOR": three_player.INTERCEPTOR,
        "SIZES": three_player.SIZES,
        "TOKENS_TO_WIN": three_player.TOKENS_TO_WIN,
    },
    "targets_for": targets_for,  # a command form's target fields (game.html `targets`)
    "COMMANDS": COMMANDS,  # each command's class: what it declares (a button's label may read its facts)
    # each notice's sentence, by its kind: a macro of partials/notices.html unless `worded_notice` words it
    # (game.html `notice_text`)
    "NOTICE_SENTENCES": {kind: notice.sentence for kind, notice in NOTICES.items()},
    "worded_notice": worded_notice,
    "minutes": minutes,
}


# What pages and their reused pieces (web/fragments.py) alike may read: the rules' facts, and words that
# depend on nothing but the request's language.
SHARED_GLOBALS = {
    **RULES_FOR_TEMPLATES,
    "turn_tasks": TURN_TASKS,
    "causes": CAUSES,
    "reason_text": reason_text,
    "refusal": refusal,
}


def init_web(app: Flask) -> None:
    app.session_interface = SeatCookie()
    init_locale(app)
    init_security(app)
    app.jinja_env.globals.update(
        SHARED_GLOBALS,
        team_name=team_name,
        side_text=side_text,
        task_text=task_text,
        get_locale=get_locale,
        language_names=LANGUAGE_NAMES,
    )
    app.jinja_env.filters["clock"] = clock_time  # a moment of the view as a time of day: `at|clock`
    app.url_map.converters["command"] = CommandName  # before the routes that use it
    app.register_blueprint(page_routes)
    app.register_blueprint(summary_routes)
    app.register_blueprint(api_routes)
    init_errors(app)
    init_limits(app)
    init_assets(app)
    init_after_form(app)
    init_fragments(app, template_words(app), SHARED_GLOBALS)
