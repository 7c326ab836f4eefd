"""CSRF for browser sessions, cross-site requests refused, and the response headers every answer carries."""

from __future__ import annotations

from functools import lru_cache
from typing import cast
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request, session
from flask_wtf.csrf import CSRFProtect, generate_csrf
from werkzeug.exceptions import RequestEntityTooLarge

from .errors import Refused

csrf = CSRFProtect()

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


def uses_bearer_token() -> bool:
    """An API call authenticated by its bearer token (pages only ever act with the seat cookie)."""
    return request.path.startswith("/api/") and request.headers.get("Authorization", "").startswith("Bearer ")


def cross_site() -> bool:
    """A browser sent this request from another site's page. The browser says so (`Sec-Fetch-Site`), or its
    `Origin` names another host. Our own pages' posts carry `Origin: null` (their `Referrer-Policy:
    no-referrer`) or ours; API clients (curl, programs) send neither header and are never refused."""
    if request.headers.get("Sec-Fetch-Site") in ("cross-site", "same-site"):
        return True
    origin = request.headers.get("Origin")
    if not origin or origin == "null":
        return False
    ours = {request.host.lower(), urlsplit(current_app.config["PUBLIC_URL"]).netloc.lower()}
    return urlsplit(origin).netloc.lower() not in ours


def csrf_token() -> str:
    """This phone's CSRF token (Flask-WTF's `generate_csrf`), kept per process: Flask-WTF signs it anew for every
    page (8 µs, 2 % of a teammate's shared update), and with no time limit (WTF_CSRF_TIME_LIMIT) one signature
    serves every page the phone gets."""
    raw = session.get("csrf_token")
    return _signed(current_app.config.get("WTF_CSRF_SECRET_KEY", current_app.secret_key), raw) if raw else _fresh()


@lru_cache(maxsize=4096)  # a phone each, as the seat cookies (web/auth.py)
def _signed(secret_key: str, raw: str) -> str:
    return _fresh()  # the session's `raw` signed with `secret_key`: the arguments are the cache's key


def _fresh() -> str:
    return cast(str, generate_csrf())  # (Flask-WTF has no types)


def init_security(app: Flask) -> None:
    csrf.init_app(app)
    # In place of Flask-WTF's generate_csrf, which it gives templates both ways.
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.context_processor(lambda: {"csrf_token": csrf_token})

    @app.before_request
    def _refuse_oversized_stream() -> None:
        # A chunked body (no Content-Length) is cut at MAX_CONTENT_LENGTH without a word: it would be read as
        # a malformed body (400). One that reaches the limit is too large (413), as one with a Content-Length.
        limit = request.max_content_length
        if (
            request.method == "POST"
            and request.content_length is None
            and limit
            and request.environ.get("wsgi.input_terminated")
            and len(request.get_data(cache=True)) >= limit
        ):
            raise RequestEntityTooLarge()

    @app.before_request
    def _refuse_cross_site() -> None:
        # Checked before CSRF: it also covers creating a game through the API, which needs no CSRF token.
        if request.method not in ("GET", "HEAD", "OPTIONS") and cross_site():
            raise Refused("cross_site")

    @app.before_request
    def _check_csrf() -> None:
        # Flask-WTF's way to check some requests only (WTF_CSRF_CHECK_DEFAULT off): a bearer token can't be sent
        # by another site's form, and without our cookie a JSON request carries no ambient authority (a
        # cross-site page can't send JSON without a preflight we never grant).
        if not current_app.config["WTF_CSRF_ENABLED"] or uses_bearer_token():
            return
        if request.is_json and current_app.config["SESSION_COOKIE_NAME"] not in request.cookies:
            return
        csrf.protect(apply_exemptions=True)  # also passes a 404 or 405, which says more than a CSRF refusal

    @app.after_request
    def _headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers["Referrer-Policy"] = "no-referrer"  # capability tokens travel in URLs
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        if not request.path.startswith("/static/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response
