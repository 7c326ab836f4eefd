"""CSRF for browser sessions, and the response headers every page and API answer carries."""

from flask import Flask, current_app, request
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()

CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                           "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


def uses_bearer_token() -> bool:
    """An API call authenticated by its bearer token (pages only ever act with the seat cookie)."""
    return request.path.startswith("/api/") and request.headers.get("Authorization", "").startswith("Bearer ")


def init_security(app: Flask) -> None:
    csrf.init_app(app)

    @app.before_request
    def _check_csrf():
        # A bearer token can't be sent by another site's form, so only cookie sessions need the check.
        # Creating a game through the API acts for nobody and reads no cookie, so it needs no token.
        if request.endpoint == "api.create_game":
            return
        if (request.method in ("GET", "HEAD", "OPTIONS") or uses_bearer_token()
                or request.routing_exception is not None    # a 404 or 405 says more than a CSRF refusal
                or not current_app.config.get("WTF_CSRF_ENABLED", True)):
            return
        # Without our cookie a JSON request carries no ambient authority (and a cross-site page can't
        # send JSON without a preflight we never grant): it can only fail to authenticate.
        if request.is_json and current_app.config["SESSION_COOKIE_NAME"] not in request.cookies:
            return
        csrf.protect()

    @app.after_request
    def _headers(response):
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers["Referrer-Policy"] = "no-referrer"          # capability tokens travel in URLs
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        if not request.path.startswith("/static/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response
