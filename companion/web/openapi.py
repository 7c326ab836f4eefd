"""The OpenAPI 3.1 description of the JSON API, served at /api/openapi.json (the guide is docs/api.md).

The answers' schemas (the view, the summary, the others) are generated from their types in
companion/view_types.py (web/openapi_views.py). The operations are built here as plain data from a few
helpers. The enumerations (phases, modes, tasks, reasons, refusal codes, limits) and the list of commands
come from the modules that define them, so the document can't drift from the code on those points. Every
object schema lists all its fields as required (unless it says otherwise) and allows no others: a view or
answer that grows a field must be declared first (tests/test_openapi.py checks real answers against this).
"""

from __future__ import annotations

from ..rules import KEYWORD_GUESSING, KEYWORD_JUDGING, LOBBY, OVER, PLAYING, TEAMS
from ..rules import three_player
from ..rules.decide import (_DURING_CORRECTION, CLUE_MAX_LENGTH, KEYWORD_GUESS_MAX_LENGTH, LANGUAGES, MAX_WORDS,
                            MIN_WORDS, NAME_LENGTH, PHASE_REFUSALS, START_PROBLEMS, TIMER_SECONDS, WORD_MAX_LENGTH)
from ..rules.state import MAX_TEAM, MIN_TEAM, MODES, STANDARD
from .commands import COMMANDS
from .errors import status_of
from .openapi_views import answer_schemas

# Refusals any command can meet before the rules see it.
COMMAND_REFUSALS = ("no_capability", "wrong_game", "not_seated", "seat_gone", "malformed_body", "csrf", "too_large",
                    "busy", "rate_limited")
# The refusal for a token of the wrong kind, by the kind a command needs (web.auth.from_token).
SENDER_REFUSALS = {"host": "host_only", "seat": "players_only", "join": "join_link_only",
                   "handoff": "seat_link_only"}
TEXT_REFUSALS = ("text_too_long", "text_has_control_characters")
GUESS_PATTERN = "^[-., /]*[1-4][-., /]*[1-4][-., /]*[1-4][-., /]*$"   # rules.codes.parse_guess, as a string


def phase_refusals(allowed: str) -> list[str]:
    """The refusals of a command allowed only in phase `allowed`."""
    return list(dict.fromkeys(code for phase, code in PHASE_REFUSALS.items() if phase != allowed))


# --- schema helpers -----------------------------------------------------------------------

def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def described(schema: dict, description: str | None) -> dict:
    return {**schema, "description": description} if description else schema


def nullable(schema: dict) -> dict:
    """The schema, or null (written as pydantic writes it for the answers)."""
    schema = dict(schema)
    description = schema.pop("description", None)
    return described({"anyOf": [schema, {"type": "null"}]}, description)


def obj(properties: dict, description: str | None = None, required=None, closed: bool = True) -> dict:
    """An object with these properties: all required unless `required` names some; no others if `closed`."""
    schema = {"type": "object", "properties": properties}
    if closed:
        schema["additionalProperties"] = False
    required = list(properties) if required is None else list(required)
    if required:
        schema["required"] = required
    return described(schema, description)


def array(items: dict, length: int | None = None, description: str | None = None, **extra) -> dict:
    schema = {"type": "array", "items": items, **extra}
    if length is not None:
        schema["minItems"] = schema["maxItems"] = length
    return described(schema, description)


def per_team(schema: dict, description: str | None = None) -> dict:
    return obj({team: schema for team in TEAMS}, description)


def enum(values, description: str | None = None) -> dict:
    return described({"type": "string", "enum": list(values)}, description)


def integer(description: str | None = None, minimum: int | None = None, maximum: int | None = None) -> dict:
    schema = {"type": "integer"}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return described(schema, description)


def string(description: str | None = None) -> dict:
    return described({"type": "string"}, description)


def boolean(description: str | None = None) -> dict:
    return described({"type": "boolean"}, description)


BOOLEAN = boolean()
TEAM = enum(TEAMS)
SEAT = integer("A player's seat number: 1 for the first player to join, and so on.", minimum=1)
DIGIT = integer(minimum=1, maximum=4)


def words(count: int, description: str) -> dict:
    return array(string(), count, description)


# A code as a command body may give it (rules.codes.parse_guess): a list of digits, or a string.
CODE_INPUT = {"description": "Three digits from 1 to 4, one per clue (a guess may repeat a digit; it is then "
                             "wrong): a list, or a string such as \"314\" or \"3-1-4\".",
              "oneOf": [array({"oneOf": [DIGIT, enum(["1", "2", "3", "4"])]}, 3),
                        {"type": "string", "pattern": GUESS_PATTERN}]}


# --- operations ---------------------------------------------------------------------------

def json_body(schema: dict, example=None) -> dict:
    content = {"schema": schema}
    if example is not None:
        content["example"] = example
    return {"content": {"application/json": content}}


def refusals(*codes: str) -> dict:
    """Error responses grouped by status, each allowing exactly the codes listed."""
    by_status: dict[str, list[str]] = {}
    for c in dict.fromkeys(codes):
        by_status.setdefault(str(status_of(c)), []).append(c)
    return {status: {"description": "Refused: " + ", ".join(f"`{c}`" for c in found) + ".",
                     **json_body({"allOf": [ref("Error"), {"properties": {"code": enum(found)}}]})}
            for status, found in sorted(by_status.items())}


BEARER = [{"bearerAuth": []}]
BEARER_OR_COOKIE = [{"bearerAuth": []}, {"seatCookie": [], "csrfHeader": []}]
NAMES = f"{NAME_LENGTH[0]} to {NAME_LENGTH[1]} characters"
LOBBY_ONLY = ("try_out_fixed_seats", *phase_refusals(LOBBY))
SEAT_IN_BODY = {"seat": described(SEAT, "The player's seat (see `teams.<team>.players`).")}


# Each command of web.commands.COMMANDS: its operation id, summary, description, body fields (exactly
# the command's fields), which of them are required, the refusals of the rules, an example, its answer.
# The refusal for a token of the wrong kind, and `correction_pending`, are added from the command itself.
COMMAND_DOCS = {
    "join": dict(
        operation_id="join", summary="Take a seat",
        description=f"With a team's join token, in the lobby, unless the host locked joining: seats a new "
                    f"player on that team ({MIN_TEAM} to {MAX_TEAM} players a team; in the three-player game "
                    f"{three_player.SIZES[three_player.TEAM]} in the team and "
                    f"{three_player.SIZES[three_player.INTERCEPTOR]} Interceptor). Answers the player's seat "
                    "number and seat token.",
        body={"name": string(f"Trimmed, inner spaces collapsed; then {NAMES}, unique in the team (ignoring "
                             "case and accents).")},
        codes=(*LOBBY_ONLY, "joining_locked", "name_required", "name_length", "team_full", "name_taken",
               *TEXT_REFUSALS),
        ok=ref("JoinResult"), example={"name": "Ann"}),
    "lock-joining": dict(
        operation_id="lockJoining", summary="Lock or reopen joining",
        description="With the host token, in the lobby: while joining is locked, join tokens are refused "
                    "(`view.joining_locked`).",
        body={"locked": boolean("True to lock joining, false to reopen it.")},
        codes=(*LOBBY_ONLY, "locked_malformed", "already_locked", "already_open"),
        example={"locked": True}),
    "move-player": dict(
        operation_id="movePlayer", summary="Move a player to the other team",
        description="With the host token, in the lobby: the player keeps their seat number and token, and "
                    "joins the other team last.",
        body=SEAT_IN_BODY, codes=(*LOBBY_ONLY, "no_such_player", "team_full", "name_taken"),
        example={"seat": 3}),
    "remove-player": dict(
        operation_id="removePlayer", summary="Remove a player",
        description="With the host token, in the lobby: frees the seat; its token stops working.",
        body=SEAT_IN_BODY, codes=(*LOBBY_ONLY, "no_such_player"), example={"seat": 3}),
    "shuffle-teams": dict(
        operation_id="shuffleTeams", summary="Shuffle the teams",
        description="With the host token, in the lobby: the seated players are split at random, as evenly "
                    "as possible (the odd player out goes to either team), two players of the same name on "
                    "different teams; in the three-player game one player drawn at random becomes the "
                    "Interceptor and the others form the team. Every phone keeps its seat and token; the "
                    "new order is each team's join order (event `teams_shuffled`). No body is needed.",
        codes=(*LOBBY_ONLY, "too_few_to_shuffle")),
    "set-timer": dict(
        operation_id="setTimer", summary="Change the sand timer",
        description="With the host token, in the lobby (a new game or a rematch): the sand timer for the "
                    "matches to come (`view.timer_seconds`; event `timer_set`).",
        body={"timer": nullable(integer("The sand timer in seconds; null for none.",
                                        minimum=TIMER_SECONDS[0], maximum=TIMER_SECONDS[1]))},
        required=["timer"], codes=(*phase_refusals(LOBBY), "timer_length"), example={"timer": 45}),
    "start": dict(
        operation_id="start", summary="Start the game",
        description=f"With the host token, in the lobby, once each team has {MIN_TEAM} to {MAX_TEAM} players "
                    "and the teams differ by at most one player (in the three-player game: "
                    f"{three_player.SIZES[three_player.TEAM]} in the team, "
                    f"{three_player.SIZES[three_player.INTERCEPTOR]} Interceptor; `view.start_problem` says "
                    "what stands in the way): deals the keywords and starts round 1 (events `game_started`, "
                    "`round_started`). No body is needed; a JSON object is accepted and ignored.",
        codes=(*phase_refusals(LOBBY), *START_PROBLEMS, "not_enough_words")),
    "skip-encryptor": dict(
        operation_id="skipEncryptor", summary="Skip a team's Encryptor",
        description="With the host token, while the team's clues of this round aren't announced: the next "
                    "teammate in the rotation becomes the Encryptor, with a fresh code "
                    "(`view.host.skippable` lists the teams this is possible for).",
        body={"team": described(TEAM, "The team whose Encryptor is skipped.")},
        codes=(*phase_refusals(PLAYING), "no_such_team", "clues_already_announced", "nobody_to_skip_to"),
        example={"team": "white"}),
    "take-back": dict(
        operation_id="takeBack", summary="Take back the last entry",
        description="With the host token, while playing: takes back the entry `view.host.take_back` names "
                    "(a sealed guess becomes the team's draft again; taken-back clues drop the "
                    "transmission's guesses too). No body is needed.",
        codes=(*phase_refusals(PLAYING), "nothing_to_take_back")),
    "correction": dict(
        operation_id="proposeCorrection", summary="Propose a correction of the last reveal",
        description="With the host token, for the reveal `view.host.correctable` names (the last one, until "
                    "the next clues are announced or a keyword guess is sealed): the guesses as they should "
                    "have been entered. Both sides then answer it (`answer-correction`); once both accepted, "
                    "the reveal, the tokens and whatever the round's end led to are judged again.",
        body={"decryption": described(CODE_INPUT, "The corrected decryption."),
              "interception": nullable(described(CODE_INPUT, "The corrected interception; required when the "
                                                             "round has one, ignored (and may be null or "
                                                             "left out) in round 1."))},
        required=["decryption"],
        codes=("nothing_to_correct", "guess_malformed", "correction_changes_nothing"),
        example={"decryption": [3, 1, 4], "interception": [3, 1, 2]}),
    "withdraw-correction": dict(
        operation_id="withdrawCorrection", summary="Withdraw the proposed correction",
        description="With the host token, while a correction waits for answers. No body is needed.",
        codes=("no_correction",)),
    "seat-link": dict(
        operation_id="issueSeatLink", summary="Issue a new link to a player's seat",
        description="With the host token: a fresh link for a player whose phone died (any earlier link to "
                    "that seat stops working). The answer holds the link, which the table screen also shows "
                    "as a QR code. The new phone claims the seat with it (`claim-seat`); "
                    "`cancel-seat-link` withdraws it.",
        body=SEAT_IN_BODY, codes=("no_such_player",), example={"seat": 2}, ok=ref("SeatLinkResult")),
    "cancel-seat-link": dict(
        operation_id="cancelSeatLink", summary="Cancel a seat link not claimed yet",
        description="With the host token: the seat's waiting link (from `seat-link`) stops working, e.g. "
                    "when the player's old phone came back. The seat's current token keeps working.",
        body=SEAT_IN_BODY, codes=("no_such_player", "no_seat_link"), example={"seat": 2}),
    "verdicts": dict(
        operation_id="judgeKeywords", summary="Judge the keyword guesses (tiebreak)",
        description="With the host token, in phase `keyword_judging` (`view.tiebreak.proposal` holds the "
                    "app's proposal): which of each team's guesses were right. Ends the game (events "
                    "`keywords_judged`, `game_ended`).",
        body={"verdicts": per_team(array(BOOLEAN, 4), "For each team, whether each of its four guesses named "
                                                      "the other team's keyword.")},
        codes=(*phase_refusals(KEYWORD_JUDGING), "verdicts_malformed"),
        example={"verdicts": {"white": [True, False, False, True], "black": [False, False, False, False]}}),
    "rematch": dict(
        operation_id="rematch", summary="Start a rematch",
        description="With the host token, once the game is over: a new match, back in the lobby with the "
                    "same seats and settings (event `rematch_started`). Phones keep their seats; joining is "
                    "open again, players may switch teams, the host may shuffle them and change the sand "
                    "timer, then starts as for a new game (fresh keywords). The finished match stays "
                    "readable as a summary. No body is needed.",
        codes=phase_refusals(OVER)),
    "clues": dict(
        operation_id="announceClues", summary="Announce the clues",
        description="By this round's Encryptor of the caller's team, once per round. A clue can't contain "
                    "one of the team's keywords, repeat another clue of the three, or repeat a clue the team "
                    "gave in an earlier round (ignoring case, accents and plural endings).",
        body={"clues": words(3, "One clue per digit of the code, in the code's order; each trimmed, 1 to "
                                f"{CLUE_MAX_LENGTH} characters.")},
        codes=(*phase_refusals(PLAYING), "not_encryptor", "clues_already_announced", "three_clues",
               "clue_empty", "clue_is_keyword", "clue_is_code_digit", "clue_reused", "clue_repeated", *TEXT_REFUSALS),
        example={"clues": ["orbit", "pine", "fortress"]}),
    "guess": dict(
        operation_id="guess", summary="Guess the open transmission's code",
        description="By a player of either side, for the transmission in `view.transmission` (White's, then "
                    "Black's, once both Encryptors announced; only White's in the three-player game): the "
                    "own team decrypts (never its Encryptor), the other side intercepts (from round 2). "
                    "`confirm: false` saves a draft any teammate can still replace; `confirm: true` seals "
                    "the team's guess. When every needed guess is sealed the transmission resolves, and "
                    "after the round's last one the round ends: events `guess_saved`, then possibly "
                    "`transmission_resolved`, then `round_started`, `game_ended` or `tiebreak_started`.",
        body={"code": CODE_INPUT, "confirm": {**boolean("Seal the guess."), "default": False}},
        required=["code"],
        codes=(*phase_refusals(PLAYING), "clues_not_announced", "encryptor_cannot_guess",
               "no_interception_round_one", "guess_sealed", "guess_malformed"),
        example={"code": [3, 1, 4], "confirm": True}),
    "switch-team": dict(
        operation_id="switchTeam", summary="Switch to the other team",
        description="By a seated player, in the lobby, while joining is open: the player moves to the other "
                    "team, keeping their seat number and token, last in its join order (event "
                    "`player_moved`). No body is needed.",
        codes=(*LOBBY_ONLY, "joining_locked", "team_full", "name_taken")),
    "swap-keyword": dict(
        operation_id="swapKeyword", summary="Swap one of the team's keywords",
        description="By a player, in round 1 before the team's clues are announced, once a match "
                    "(`view.you.can_swap`): the keyword at that number is replaced by a fresh word. Everybody "
                    "learns that the team swapped, never which one.",
        body={"number": described(DIGIT, "The keyword's number (1 to 4).")},
        codes=(*phase_refusals(PLAYING), "no_keywords", "swap_too_late", "already_swapped", "keyword_number",
               "no_spare_words"),
        example={"number": 2}),
    "answer-correction": dict(
        operation_id="answerCorrection", summary="Accept or reject the proposed correction",
        description="By a player of a side that hasn't accepted it yet (`view.correction`): a rejection "
                    "drops the correction; once both sides accepted, it applies (events `reveal_corrected` "
                    "and, if the corrected reveal ended its round, `round_reopened` and what the round's end "
                    "now leads to).",
        body={"accept": boolean("True to accept, false to reject.")},
        codes=("no_correction", "correction_already_confirmed", "accept_malformed"),
        example={"accept": True}),
    "keyword-guesses": dict(
        operation_id="sealKeywordGuesses", summary="Seal the team's keyword guesses (tiebreak)",
        description="In phase `keyword_guessing`, once per team: the team's guesses of the other team's "
                    "four keywords, in their order. Once both teams sealed, the phase becomes "
                    "`keyword_judging`.",
        body={"guesses": words(4, f"Each trimmed, 0 to {KEYWORD_GUESS_MAX_LENGTH} characters (a blank is "
                                  "allowed).")},
        codes=(*phase_refusals(KEYWORD_GUESSING), "keyword_guesses_sealed", "four_keyword_guesses",
               *TEXT_REFUSALS),
        example={"guesses": ["WHALE", "", "CASTLE", "MOON"]}),
    "claim-seat": dict(
        operation_id="claimSeat", summary="Claim a seat with its new link",
        description="With a seat link's token (from `seat-link`): this caller becomes the seat's player. "
                    "Answers the seat and its new token; the old token and the link stop working. No body "
                    "is needed.",
        codes=(), ok=ref("ClaimResult")),
}


def command(name: str) -> dict:
    """The path item of the command `name` of web.commands.COMMANDS. Request bodies are open: fields a
    command doesn't read are ignored."""
    if name not in COMMAND_DOCS:
        raise KeyError(f"the command {name!r} of web.commands.COMMANDS is not described in web/openapi.py")
    doc = COMMAND_DOCS[name]
    rules_command, _, sender = COMMANDS[name]
    codes = [SENDER_REFUSALS[sender], *doc["codes"]]
    if rules_command not in _DURING_CORRECTION:
        codes.append("correction_pending")
    body = doc.get("body", {})
    operation = {
        "tags": ["commands"],
        "operationId": doc["operation_id"],
        "summary": doc["summary"],
        "description": doc["description"],
        "security": BEARER_OR_COOKIE if sender == "seat" else BEARER,
        "responses": {"200": {"description": "Done.", **json_body(doc.get("ok", ref("CommandResult")))},
                      **refusals(*COMMAND_REFUSALS, *codes)},
        "requestBody": {"required": bool(body),
                        **json_body({**obj(body, required=doc.get("required")), "additionalProperties": True},
                                    doc.get("example"))},
    }
    return {"parameters": [{"$ref": "#/components/parameters/GameId"}], "post": operation}


def paths() -> dict:
    return {
        "/api/games": {"post": {
            "tags": ["games"],
            "operationId": "createGame",
            "summary": "Create a game",
            "description": "Needs no token (and no CSRF token). Answers the game's capability tokens: keep "
                           "the host token for the table, hand each team its join token.",
            "security": [],
            "requestBody": {"required": False, **json_body(obj({
                "language": {**enum(LANGUAGES, "The game's language (words and sentences)."), "default": "en"},
                "mode": {**enum(MODES, f"`{STANDARD}`: two teams; `three_player`: a team of two against one "
                                       "Interceptor."), "default": STANDARD},
                "timer": {**nullable(integer("The sand timer, in seconds: once one Encryptor announced, the "
                                             "other one's time (see `view.timer`); null for none.",
                                             minimum=TIMER_SECONDS[0], maximum=TIMER_SECONDS[1])),
                          "default": None},
                "words": string(f"The host's own keyword list instead of the language's: one word per line or "
                                f"separated by commas, each at most {WORD_MAX_LENGTH} characters; at least "
                                f"{MIN_WORDS} and at most {MAX_WORDS} distinct words (plural forms count once)."),
            }, "Optional; a body, if sent, must be a JSON object. Other fields are ignored.", required=(),
                closed=False), {"language": "en", "mode": "standard", "timer": 30})},
            "responses": {"201": {"description": "Created.", **json_body(ref("CreatedGame"))},
                          **refusals("malformed_body", "too_large", "rate_limited", "unknown_language", "unknown_mode",
                                     "timer_length", "words_malformed", "too_many_words", "too_few_words",
                                     *TEXT_REFUSALS)},
        }},
        "/api/games/{game_id}": {
            "parameters": [{"$ref": "#/components/parameters/GameId"}],
            "get": {
                "tags": ["games"],
                "operationId": "getView",
                "summary": "The game as this caller may see it",
                "description": "Any capability of this game works: host, spectator, a join token, a seat "
                               "token (or a browser's seat cookie), a seat link. Poll it with `If-None-Match` "
                               "set to the last `ETag`: a 304 means nothing changed.",
                "security": [{"bearerAuth": []}, {"seatCookie": []}],
                "parameters": [{"name": "If-None-Match", "in": "header", "required": False,
                                "schema": string(), "description": "The `ETag` of the last view received."}],
                "responses": {
                    "200": {"description": "The viewer's view.",
                            "headers": {"ETag": {"$ref": "#/components/headers/ETag"},
                                        "Cache-Control": {"schema": enum(["private, no-cache"])}},
                            **json_body(ref("View"))},
                    "304": {"description": "Not modified since the `If-None-Match` ETag (no body).",
                            "headers": {"ETag": {"$ref": "#/components/headers/ETag"}}},
                    **refusals("no_capability", "wrong_game", "not_seated"),
                },
            },
        },
        "/api/games/{game_id}/summary": {
            "parameters": [{"$ref": "#/components/parameters/GameId"}],
            "get": {
                "tags": ["games"],
                "operationId": "getSummary",
                "summary": "A finished match, whole",
                "description": "Any capability of this game works. Everything in a finished match is public, "
                               "so every caller gets the same summary. Refused with `summary_not_ready` "
                               "until a match is over.",
                "security": [{"bearerAuth": []}, {"seatCookie": []}],
                "parameters": [{"name": "match", "in": "query", "required": False,
                                "schema": integer(minimum=1),
                                "description": "Which match (see `view.match`); by default the latest "
                                               "finished one."}],
                "responses": {
                    "200": {"description": "The match's summary.", **json_body(ref("Summary"))},
                    **refusals("no_capability", "wrong_game", "not_seated", "summary_not_ready"),
                },
            },
        },
        **{f"/api/games/{{game_id}}/{name}": command(name) for name in COMMANDS},
        "/api/openapi.json": {"get": {
            "tags": ["meta"], "operationId": "openapi", "summary": "This document", "security": [],
            "responses": {"200": {"description": "The OpenAPI document.", **json_body({"type": "object"})}},
        }},
        "/healthz": {"get": {
            "tags": ["meta"], "operationId": "health", "summary": "Health check", "security": [],
            "description": "200 when the app and its database answer; anything else means unhealthy.",
            "responses": {"200": {"description": "Healthy.", **json_body(obj({"status": enum(["ok"])}))}},
        }},
    }


def openapi_document() -> dict:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Decrypto Companion API",
            "version": "1",
            "description": "Play Decrypto around a table with phones. Callers act through capability tokens "
                           "sent as `Authorization: Bearer <token>`; a refusal is a JSON "
                           "`{\"error\": sentence, \"code\": machine_code}` with a 4xx status (503 for "
                           "`busy`). See docs/api.md for a guide and a complete game played with curl.",
        },
        "tags": [{"name": "games", "description": "Creating and reading games."},
                 {"name": "commands", "description": "Moves in a game. Each answers the new version and "
                                                     "the event types it caused."},
                 {"name": "meta", "description": "This document, and the health check."}],
        "paths": paths(),
        "components": {
            "schemas": answer_schemas(),
            "parameters": {"GameId": {"name": "game_id", "in": "path", "required": True, "schema": string(),
                                      "description": "The game's identifier (from creating it)."}},
            "headers": {"ETag": {"schema": string(), "description": "A weak validator of this viewer's view, "
                                                                   "e.g. `W/\"v7-seat-white-1\"`."}},
            "securitySchemes": {
                "bearerAuth": {"type": "http", "scheme": "bearer",
                               "description": "A capability token: host, spectator, a team's join token, or "
                                              "a player's seat token (answered by join). What it may do "
                                              "depends on its kind; the token is all the authentication."},
                "seatCookie": {"type": "apiKey", "in": "cookie", "name": "decrypto",
                               "description": "Browsers: the signed session cookie that remembers this "
                                              "phone's seat (set when joining through the join page)."},
                "csrfHeader": {"type": "apiKey", "in": "header", "name": "X-CSRFToken",
                               "description": "Browsers: the page's CSRF token (`<meta name=\"csrf-token\">`), "
                                              "required with the cookie on every POST."},
            },
        },
    }
