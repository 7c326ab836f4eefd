"""The web layer: thin blueprints over the game service, plus the security boundary of requests."""

from flask import Flask
from flask_babel import Babel, get_locale

from ..messages import CAUSES, TASKS, reason_text, refusal, team_name
from .security import init_security


def _locale():
    return "en"   # English is the only catalogue for now


def init_web(app: Flask) -> None:
    Babel(app, locale_selector=_locale)
    init_security(app)
    app.jinja_env.globals.update(team_name=team_name, reason_text=reason_text, tasks=TASKS, causes=CAUSES, refusal=refusal,
                                  get_locale=get_locale)
    from .api import api
    from .assets import init_assets
    from .errors import init_errors
    from .limits import init_limits
    from .pages import pages
    from .summary import summary
    app.register_blueprint(pages)
    app.register_blueprint(summary)
    app.register_blueprint(api)
    init_errors(app)
    init_limits(app)
    init_assets(app)
