"""After the game: a summary page for everyone (reads on a phone, prints on paper) and its JSON download.

Once a match is over nothing in it is secret any more, so its summary is the spectator's view of the
finished match; every earlier match of a game (before each rematch) stays available.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request, url_for

from ..rules.access import Kind
from ..views import summary_for
from .locale import speak
from .auth import Caller, api_caller, from_token, service, table_caller
from .errors import Refused

summary = Blueprint("summary", __name__)


def _finished(caller: Caller) -> tuple[dict[str, Any], list[int]]:
    """The summary of the asked-for match (the latest by default) and the numbers of all finished matches."""
    _, current = service().load(caller.game_id)
    finished = list(range(1, current.match + (current.phase == "over")))
    match = request.args.get("match", type=int) or (finished[-1] if finished else current.match)
    game = service().load_match(caller.game_id, match) if match in finished else None
    if game is None:
        raise Refused("summary_not_ready")
    return {**summary_for(game), "match": match}, finished


def _page(caller: Caller, json_url: str, back_url: str) -> str:
    view, finished = _finished(caller)
    speak(view["mode"], view["language"])
    return render_template(
        "pages/summary.html",
        view=view,
        finished=finished,
        back_url=back_url,
        json_url=f"{json_url}?match={view['match']}",
    )


def _download(caller: Caller) -> Response:
    view, _ = _finished(caller)
    response = jsonify(view)
    response.headers["Content-Disposition"] = (
        f'attachment; filename="decrypto-{caller.game_id}-game-{view["match"]}.json"'
    )
    return response


@summary.get("/summary/<token>")
def by_token(token: str) -> str:
    """For spectators: their link's token (the table screen's is `for_table`: its page shows no token)."""
    caller = from_token(token, kinds=(Kind.SPECTATOR,))
    return _page(caller, url_for("summary.by_token_json", token=token), url_for("pages.watch", token=token))


@summary.get("/summary/<token>.json")
def by_token_json(token: str) -> Response:
    return _download(from_token(token, kinds=(Kind.SPECTATOR,)))


@summary.get("/table/<game_id>/summary")
def for_table(game_id: str) -> str:
    """For the table screen: its host cookie (the page's links carry no token)."""
    return _page(
        table_caller(game_id),
        url_for("summary.for_table_json", game_id=game_id),
        url_for("pages.table", game_id=game_id),
    )


@summary.get("/table/<game_id>/summary.json")
def for_table_json(game_id: str) -> Response:
    return _download(table_caller(game_id))


@summary.get("/play/<game_id>/summary")
def for_player(game_id: str) -> str:
    return _page(
        api_caller(game_id, cookie_only=True),
        url_for("summary.for_player_json", game_id=game_id),
        url_for("pages.play", game_id=game_id),
    )


@summary.get("/play/<game_id>/summary.json")
def for_player_json(game_id: str) -> Response:
    return _download(api_caller(game_id, cookie_only=True))


@summary.get("/api/games/<game_id>/summary")
def api_summary(game_id: str) -> Response:
    view, _ = _finished(api_caller(game_id))
    return jsonify(view)
