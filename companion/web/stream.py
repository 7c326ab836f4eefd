"""Server-sent events: a page's stream says "your view changed" (its new ETag), never what changed.

The page then fetches itself with its ETag, as its poll does, so `view_for` stays the only way game state
leaves the server. A stream is authorised like its page, and again on every change: once its token is
withdrawn (a seat taken over by a new phone, a removed player, an expired game) it says `gone` and ends.

Messages (text/event-stream):
- `event: view`, `id` and `data`: the page's current ETag. Sent at once on connecting (so a page that missed
  a change while reconnecting catches up), then each time the ETag changes.
- `event: gone`: the token no longer works; the page reloads to say why. The stream ends.
- a comment line every `STREAM_HEARTBEAT_SECONDS`, so proxies and NATs keep an idle stream open.
- `retry`: how long the browser waits before reconnecting (with `Last-Event-ID`, by itself).
The stream ends after `STREAM_LIFETIME_SECONDS`; the browser reconnects, so a worker restarting gracefully
never waits for its streams.
"""

from __future__ import annotations

import time
from typing import Callable

from flask import Response, current_app

from .auth import Caller

RETRY_MS = 1000


def event_stream(caller: Caller, etag_of: Callable[[Caller], str]) -> Response:
    """The stream of `caller`'s page; `etag_of(caller)` is that page's ETag, as its poll answers it (it may
    not read the request: it runs after the request has been answered)."""
    app = current_app._get_current_object()
    hub, service = app.extensions["push"], app.extensions["games"]
    token, game_id = caller.capability.token, caller.game_id
    heartbeat, lifetime = app.config["STREAM_HEARTBEAT_SECONDS"], app.config["STREAM_LIFETIME_SECONDS"]

    def current() -> str | None:
        """The page's ETag now; None once the token is withdrawn."""
        found = service.resolve(token)
        if found is None:
            return None
        with app.app_context():
            return etag_of(Caller(*found))

    def messages():
        ends = time.monotonic() + lifetime
        with hub.listening(game_id) as bell:       # before the first look: no change can slip in between
            yield f"retry: {RETRY_MS}\n\n"
            sent, etag = None, current()
            while True:
                if etag is None:
                    yield "event: gone\ndata: gone\n\n"
                    return
                if etag != sent:
                    yield f"event: view\nid: {etag}\ndata: {etag}\n\n"
                    sent = etag
                rung = bell.wait(max(0.0, min(heartbeat, ends - time.monotonic())))
                if time.monotonic() >= ends or hub.closing:
                    return
                if rung:
                    bell.clear()
                    etag = current()
                else:
                    yield ": still here\n\n"

    return Response(messages(), mimetype="text/event-stream", headers={
        "Cache-Control": "no-cache, no-transform",
        "X-Accel-Buffering": "no",              # nginx: pass each message on at once
    })
