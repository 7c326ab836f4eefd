"""Refusals: every one a 4xx with a sentence a player understands, as JSON for the API, a page otherwise."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, make_response, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ..messages import REFUSAL_HEADINGS, REFUSALS, refusal
from ..rules import RuleError

_HTTP_CODES = {
    401: "no_capability",
    403: "no_capability",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    429: "rate_limited",
}


class Refused(Exception):
    """A request refused by the web layer itself (bad token, malformed body...)."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code, self.params = code, params


def status_of(code: str) -> int:
    return REFUSALS[code].status


def wants_json() -> bool:
    """The request asks for JSON rather than a page (the pages' script posting a form does)."""
    return request.accept_mimetypes.best == "application/json"


def refusal_response(code: str, params: dict[str, Any] | None = None, status: int | None = None) -> Response:
    message = refusal(code, **(params or {}))
    status = status or status_of(code)
    if request.path.startswith("/api/") or wants_json():
        response = make_response(jsonify(error=message, code=code), status)
    else:
        response = make_response(
            render_template("pages/error.html", message=message, status=status, heading=REFUSAL_HEADINGS.get(code)),
            status,
        )
    if status == 401:  # no credential: say which kind is accepted (a seat cookie also does, in browsers)
        response.headers["WWW-Authenticate"] = "Bearer"
    if REFUSALS[code].retry_after is not None:
        response.headers["Retry-After"] = str(REFUSALS[code].retry_after)
    return response


def init_errors(app: Flask) -> None:
    @app.errorhandler(RuleError)
    @app.errorhandler(Refused)
    def _refused(error: RuleError | Refused) -> Response:
        return refusal_response(error.code, error.params)

    @app.errorhandler(CSRFError)
    def _csrf(error: CSRFError) -> Response:
        return refusal_response("csrf", status=400)

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException) -> Response:
        assert error.code is not None  # Flask hands an HTTPException without a code to no handler
        default = "server_error" if error.code >= 500 else "malformed_body"
        response = refusal_response(_HTTP_CODES.get(error.code, default), status=error.code)
        # keep the exception's own headers: a 405's Allow, a 429's Retry-After and X-RateLimit-*
        response.headers.extend((name, value) for name, value in error.get_headers() if name != "Content-Type")
        return response
