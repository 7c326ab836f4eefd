"""A page form's answer: always a redirect to a page (post/redirect/get), its refusal included, so that
Back, Forward and reload never post a form again (no "Confirm Form Resubmission") and every page in a
phone's history can be fetched again. A refused form's page answers with the refusal's status (4xx) and
sentence; fetched again, it is the page as it is.

What the page must say after the redirect (the refusal, a careful button's first tap, what the player had
typed) travels in a signed cookie of its own, read once by the page it was meant for (`outcome`). The pages'
script posts the same forms asking for JSON and gets the API's answers instead (rendering.py `run`).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app, g, redirect, request
from flask.json.tag import TaggedJSONSerializer
from itsdangerous import BadSignature, URLSafeSerializer
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response as WerkzeugResponse

COOKIE = "decrypto-form"
MOST_BYTES = 3800  # under the 4 KB a browser keeps of one cookie: what the player typed is cut to fit


def back_to(
    path: str,
    refused: Any = None,
    armed: tuple[str, str] | None = None,
    kept: dict[str, list[str]] | None = None,
    form: str = "",
) -> WerkzeugResponse:
    """A redirect to the page at `path` that will show `refused` (a RuleError or Refused; `form`: which of the
    page's forms it answers, when it has several), `armed` (a careful command and the value it names, waiting
    for its second tap) and `kept` (form fields as typed, csrf_token left out), once."""
    said: dict[str, Any] = {"path": path, "form": form}
    if refused is not None:
        said["refused"] = [refused.code, refused.params]
        g.form_refused = True  # (what a limit on refusals counts: web/limits.py)
    if armed is not None:
        said["armed"] = list(armed)
    fields = {name: value for name, value in (kept or {}).items() if name != "csrf_token"}
    text = _serializer().dumps({**said, "kept": fields})
    while len(text) > MOST_BYTES and fields:  # the longest field goes first: the refusal always fits
        fields.pop(max(fields, key=lambda name: len(str(fields[name]))))
        text = _serializer().dumps({**said, "kept": fields})
    response = redirect(path, 303)
    response.set_cookie(COOKIE, text, path=path, httponly=True, samesite="Lax", secure=_secure())
    return response


def outcome() -> dict[str, Any]:
    """What the form posted to this page has to say ({} if nothing): "refused" (code, params), "armed"
    (command, value), "kept" (fields). Read once: the answer that shows it deletes the cookie."""
    known: dict[str, Any]
    if "after_form" in g:
        known = g.after_form
        return known
    text = request.cookies.get(COOKIE)
    said: dict[str, Any] = {}
    if text:
        try:
            said = _serializer().loads(text)
        except BadSignature:
            said = {}
        g.after_form_read = True  # (read, or forged: gone either way)
    here = request.script_root + request.path
    g.after_form = known = said if isinstance(said, dict) and said.get("path") == here else {}
    return known


def typed() -> dict[str, list[str]]:
    """What the player had typed in the refused form (each field's values, as `MultiDict.to_dict(flat=False)`)."""
    kept: dict[str, list[str]] = outcome().get("kept", {})
    return kept


def as_typed(form: MultiDict[str, str]) -> dict[str, list[str]]:
    """A posted form's fields as `back_to` keeps them."""
    return form.to_dict(flat=False)


def pending() -> bool:
    """A form's outcome waits for this page (so its poll must not answer 304)."""
    return bool(outcome())


def init_after_form(app: Flask) -> None:
    @app.after_request
    def _forget(response: Response) -> Response:
        if g.get("after_form_read") and request.cookies.get(COOKIE):
            response.delete_cookie(
                COOKIE, path=request.script_root + request.path, httponly=True, samesite="Lax", secure=_secure()
            )
        return response


def _serializer() -> URLSafeSerializer:
    secret: str = current_app.config["SECRET_KEY"]
    return URLSafeSerializer(secret, salt="after-form", serializer=TaggedJSONSerializer())


def _secure() -> bool:
    return bool(current_app.config["SESSION_COOKIE_SECURE"])
