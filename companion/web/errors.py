"""Refusals: every one a 4xx with a sentence a player understands, as JSON for the API, a page otherwise."""

from flask import Flask, jsonify, make_response, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ..messages import REFUSAL_HEADINGS, refusal
from ..rules import RuleError

# HTTP status per refusal code: every code of messages.REFUSALS has one (tests/test_refusals.py).
_STATUS = {
    # 409: not possible in the game's current state (or the caller's screen was behind it)
    **dict.fromkeys(("already_locked", "already_open", "already_seated", "already_swapped", "clues_already_announced",
                     "clues_not_announced", "correction_already_confirmed", "correction_changes_nothing",
                     "correction_pending", "correction_resumes_play", "game_exists", "game_too_long", "game_in_progress", "game_not_started", "game_over",
                     "guess_sealed", "joining_locked", "judging_in_progress", "keyword_guesses_sealed", "name_taken",
                     "no_correction", "no_interception_round_one", "no_keywords", "no_seat_link", "no_waiting_phone", "no_spare_words",
                     "no_unattended_claim", "no_table_move",
                     "nobody_to_skip_to", "not_enough_words", "nothing_to_correct", "nothing_to_take_back", "stale",
                     "summary_not_ready", "swap_too_late", "team_full", "team_size", "teams_uneven",
                     "three_player_seats", "tiebreak_in_progress", "too_few_to_shuffle", "too_late_to_join"), 409),
    **dict.fromkeys(("host_only", "players_only", "join_link_only", "not_encryptor", "encryptor_cannot_guess",
                     "no_capability", "wrong_game", "seat_gone", "cross_site", "seat_link_only", "try_out_fixed_seats", "not_table_screen",
                     "seat_waiting", "teammates_let_in", "not_your_team", "teammates_acknowledge", "move_link_only",
                     "table_moved", "nothing_to_note"), 403),
    **dict.fromkeys(("name_required", "name_length", "three_clues", "clue_empty", "text_too_long",
                     "text_has_control_characters", "guess_malformed", "four_keyword_guesses",
                     "verdicts_malformed", "malformed_body", "unknown_language", "clue_is_keyword", "clue_is_code_digit",
                     "clue_reused", "clue_repeated", "unknown_command", "csrf", "unknown_mode", "timer_length",
                     "words_malformed", "too_many_words", "too_few_words", "locked_malformed", "no_such_player",
                     "no_such_team", "accept_malformed", "keyword_number", "if_match_malformed", "note_malformed"), 400),
    "not_seated": 401,                # no credential at all: neither a bearer token nor a seat cookie
    "not_found": 404, "no_such_join_code": 404, "method_not_allowed": 405, "too_large": 413, "rate_limited": 429, "busy": 503,
    "too_many_streams": 429, "streams_full": 503,
    "server_error": 500,
}
# Refusals that pass with time, and when to try again (seconds, `Retry-After`): a stream refused for now
# (web/stream_budget.py), whose page polls meanwhile.
_RETRY_AFTER = {"too_many_streams": 30, "streams_full": 30}
_HTTP_CODES = {401: "no_capability", 403: "no_capability", 404: "not_found", 405: "method_not_allowed",
               413: "too_large", 429: "rate_limited"}


class Refused(Exception):
    """A request refused by the web layer itself (bad token, malformed body...)."""

    def __init__(self, code: str, **params):
        super().__init__(code)
        self.code, self.params = code, params


def status_of(code: str) -> int:
    return _STATUS[code]


def wants_json() -> bool:
    """The request asks for JSON rather than a page (the pages' script posting a form does)."""
    return request.accept_mimetypes.best == "application/json"


def refusal_response(code: str, params: dict | None = None, status: int | None = None):
    message = refusal(code, **(params or {}))
    status = status or status_of(code)
    if request.path.startswith("/api/") or wants_json():
        response = make_response(jsonify(error=message, code=code), status)
    else:
        response = make_response(render_template("pages/error.html", message=message, status=status,
                                                 heading=REFUSAL_HEADINGS.get(code)), status)
    if status == 401:      # no credential: say which kind is accepted (a seat cookie also does, in browsers)
        response.headers["WWW-Authenticate"] = "Bearer"
    if code in _RETRY_AFTER:
        response.headers["Retry-After"] = str(_RETRY_AFTER[code])
    return response


def init_errors(app: Flask) -> None:
    @app.errorhandler(RuleError)
    @app.errorhandler(Refused)
    def _refused(error):
        return refusal_response(error.code, error.params)

    @app.errorhandler(CSRFError)
    def _csrf(error):
        return refusal_response("csrf", status=400)

    @app.errorhandler(HTTPException)
    def _http(error):
        default = "server_error" if error.code >= 500 else "malformed_body"
        response = refusal_response(_HTTP_CODES.get(error.code, default), status=error.code)
        # keep the exception's own headers: a 405's Allow, a 429's Retry-After and X-RateLimit-*
        response.headers.extend((name, value) for name, value in error.get_headers() if name != "Content-Type")
        return response
