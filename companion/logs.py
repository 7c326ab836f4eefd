"""Log lines without secrets: capability tokens in request paths and `Authorization`/`Cookie` headers are
masked in every line the app, Werkzeug's development server or gunicorn writes (SQL parameters, which hold
keywords and codes, are hidden at the source: `store.make_engine`)."""

from __future__ import annotations

import logging
import re
import traceback

MASK = "…"
# A path segment after one of these holds a capability token (seat links, join links, the table, spectators),
# wherever a path shows up: the request line, a query string's `next=`, percent-encoded, with a doubled slash
# or other letter case (which the routes refuse, but whose token may be a real one mistyped).
TOKEN_PATHS = ("table", "join", "seat", "watch", "move", "summary")
_SLASH = r"(?:/|%2F)+"
_TOKEN_IN_PATH = re.compile(rf"({_SLASH}(?:{'|'.join(TOKEN_PATHS)}){_SLASH})[A-Za-z0-9_-]+", re.IGNORECASE)
_CREDENTIAL = re.compile(r"((?:Bearer|Basic)\s+)\S+", re.IGNORECASE)
# gunicorn's access-log atoms that are whole header values no log should print
_SECRET_HEADERS = ("{authorization}i", "{cookie}i", "{x-csrftoken}i")


def mask(text: str) -> str:
    return _CREDENTIAL.sub(r"\1" + MASK, _TOKEN_IN_PATH.sub(r"\1" + MASK, text))


class MaskSecrets(logging.Filter):
    """Rewrites a record's message (and its traceback) with the secrets masked."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, dict):  # gunicorn's access log: a format over named atoms
            for key, value in record.args.items():  # in place: gunicorn's atoms answer "-" for a missing one
                if isinstance(value, str):
                    record.args[key] = MASK if key in _SECRET_HEADERS else mask(value)
        record.msg, record.args = mask(record.getMessage()), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = mask("".join(traceback.format_exception(*record.exc_info)).rstrip("\n"))
        return True


def mask_secrets_in_logs(*logger_names: str) -> None:
    """Install the filter once on each named logger (records logged at these loggers pass through it)."""
    for name in ("gunicorn.error", "gunicorn.access", "werkzeug", *logger_names):
        logger = logging.getLogger(name)
        if not any(isinstance(f, MaskSecrets) for f in logger.filters):
            logger.addFilter(MaskSecrets())
