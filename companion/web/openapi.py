"""The OpenAPI 3 description of the JSON API, served at /api/openapi.json (the guide is docs/api.md).

Built as plain data from a few helpers. The enumerations (phases, tasks, reasons, refusal codes, limits)
come from the modules that define them, so the document can't drift from the code on those points.
Every object schema lists all its fields as required and allows no others: a view or answer that grows
a field must be described here first (tests/test_openapi.py checks real answers against this).
"""

from __future__ import annotations

from ..messages import CAUSES, REFUSALS, TASKS
from ..rules import KEYWORD_GUESSING, KEYWORD_JUDGING, LOBBY, OVER, PLAYING, TEAMS
from ..rules.decide import CLUE_MAX_LENGTH, KEYWORD_GUESS_MAX_LENGTH, LANGUAGES, NAME_LENGTH, PHASE_REFUSALS
from ..rules.round_end import BOTH, INTERCEPTIONS, KEYWORDS, MISCOMMUNICATIONS, SCORE, SHARED
from ..rules.state import EVENT_TYPES, MAX_ROUNDS, MAX_TEAM, MIN_TEAM
from .errors import status_of

PHASES = (LOBBY, PLAYING, KEYWORD_GUESSING, KEYWORD_JUDGING, OVER)
REASONS = (INTERCEPTIONS, MISCOMMUNICATIONS, BOTH, SCORE, KEYWORDS, SHARED)
EVENTS = EVENT_TYPES
ROLES = ("seat", "host", "spectator", "join")

# Refusals any command can meet before the rules see it.
COMMAND_REFUSALS = ("no_capability", "wrong_game", "not_seated", "malformed_body", "csrf", "too_large", "busy")
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
    """The schema, or null (an enum lists null too, as OpenAPI 3.0.3 asks)."""
    schema = {**schema, "nullable": True}
    if "enum" in schema:
        schema["enum"] = [*schema["enum"], None]
    return schema


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


def code(description: str) -> dict:
    return array(DIGIT, 3, description)


def words(count: int, description: str) -> dict:
    return array(string(), count, description)


# --- components ---------------------------------------------------------------------------

def _guess_properties() -> dict:
    return {
        "code": nullable(code("The guessed code (digits may repeat); null while it is hidden from this viewer "
                              "or nobody has entered one yet.")),
        "sealed": boolean("The team confirmed it: it can't change any more."),
        "started": boolean("Someone entered a code (for a viewer who can't see the guess yet, this is "
                           "only true once it is sealed)."),
    }


def _transmission_properties() -> dict:
    return {
        "team": TEAM,
        "encryptor": described(SEAT, "Seat of this transmission's Encryptor."),
        "announced": boolean("The Encryptor has announced the clues."),
        "clues": nullable(words(3, "The clues, once open to everybody; the Encryptor sees them as soon "
                                   "as they are announced. Null otherwise.")),
        "open": boolean("This transmission is the one being guessed now."),
        "resolved": boolean("Every needed guess is sealed: the code is revealed."),
        "code": nullable(code("The true code, once resolved (the Encryptor reads it earlier from `you.code`).")),
        "decryption": ref("Guess"),
        "interception": nullable(obj(_guess_properties(), "The other team's guess; null in round 1, when "
                                                          "nobody intercepts.")),
        "intercepted": nullable(boolean("Once resolved: the other team guessed right.")),
        "miscommunicated": nullable(boolean("Once resolved: the own team guessed wrong.")),
    }


def _standing() -> dict:
    return obj({"interceptions": integer(minimum=0), "miscommunications": integer(minimum=0),
                "score": integer("Interceptions minus Miscommunications.")})


def schemas() -> dict:
    return {
        "Error": obj({
            "error": string("A sentence for a player, in the game's language."),
            "code": enum(sorted(REFUSALS), "Machine-readable reason: branch on this, not on the sentence."),
        }, "A refused request (always with a 4xx status, or 503 for `busy`)."),
        "CreatedGame": obj({
            "game_id": string("The game's identifier, used in every other path."),
            "tokens": obj({
                "host": string("The table screen's token: starts the game and judges the tiebreak. "
                               "Also reads the table's view (no secrets)."),
                "spectator": string("Read-only token: the public view."),
                "white": string("White's join token: seats a player on White."),
                "black": string("Black's join token: seats a player on Black."),
            }, "Capability tokens, to send as `Authorization: Bearer <token>`. Keep them secret."),
            "urls": obj({
                "table": string("The table screen page (host)."),
                "spectator": string("The spectator page."),
                "white": string("White's join page (what White's QR code holds)."),
                "black": string("Black's join page (what Black's QR code holds)."),
            }, "The same capabilities as pages for browsers, on the server's public address."),
        }),
        "CommandResult": obj({
            "version": integer("The game's version after this command (the number of events so far).",
                               minimum=1),
            "events": array(enum(EVENTS), description="The types of the events this command caused, in "
                                                      "order.", minItems=1),
        }),
        "JoinResult": obj({
            "version": integer("The game's version after joining.", minimum=1),
            "events": array(enum(["player_joined"]), 1),
            "seat": SEAT,
            "token": string("The new player's seat token: send it as `Authorization: Bearer <token>` for "
                            "this player's view and commands. It is shown only this once."),
        }),
        "Player": obj({"seat": SEAT, "name": string(),
                       "encryptor": boolean("This player is the team's Encryptor in the current round "
                                            "(only while the phase is `playing`).")}),
        "Team": obj({
            "players": array(ref("Player"), description="In join order (the Encryptor rotation follows it)."),
            "tokens": obj({"interceptions": integer(minimum=0), "miscommunications": integer(minimum=0)}),
            "score": integer("Interceptions minus Miscommunications."),
            "keywords": nullable(words(4, "The team's keywords, numbered 1 to 4 in order: shown to the "
                                          "team's own players, and to everybody in phases `keyword_judging` "
                                          "and `over`. Null otherwise.")),
            "columns": array(array(obj({"clue": string(), "round": integer(minimum=1)})), 4,
                             "The note sheet: every revealed clue of this team, under its keyword number "
                             "(column 0 is keyword 1)."),
        }),
        "Guess": obj(_guess_properties(), "A team's guess of a transmission's code."),
        "Transmission": obj(_transmission_properties(), "One team's transmission in one round."),
        "Round": obj({
            "number": integer(minimum=1, maximum=MAX_ROUNDS),
            "interception_allowed": boolean("False in round 1."),
            "transmissions": per_team(ref("Transmission")),
        }),
        "Reveal": nullable(obj({"round": integer(minimum=1), **_transmission_properties()},
                               "The most recently resolved transmission and its round; null before the first.")),
        "Viewer": obj({
            "role": enum(ROLES, "What the token is: a seated player, the table (host), a spectator, or a "
                                "team's join token (before joining)."),
            "team": nullable(enum(TEAMS, "The player's team, or the join token's team; else null.")),
            "seat": nullable(SEAT),
            "name": nullable(string("The player's name; null unless `role` is `seat`.")),
        }),
        "You": nullable(obj({
            "team": TEAM,
            "encryptor": boolean("You are your team's Encryptor this round."),
            "code": nullable(code("Your code to encrypt: only while you are the Encryptor and your "
                                  "transmission is unresolved.")),
            "task": enum(TASKS, "What this player should do now."),
        }, "Only for a seated player (null for every other viewer).")),
        "Tiebreak": nullable(obj({
            "cause": enum(CAUSES, "`collision`: both teams met an end condition in the same round; "
                                  "`round_limit`: eight rounds passed."),
            "sealed": per_team(BOOLEAN, "Which teams sealed their keyword guesses."),
            "guesses": per_team(nullable(words(4, "A team's guesses of the other team's keywords: visible "
                                                  "to the team, and to everybody once both are sealed."))),
            "proposal": nullable(per_team(array(BOOLEAN, 4), "The app's proposed verdicts while the host "
                                                             "judges (phase `keyword_judging`).")),
            "verdicts": nullable(per_team(array(BOOLEAN, 4), "The host's verdicts, once judged.")),
        }, "The keyword tiebreak; null unless the game reached it.")),
        "Result": nullable(obj({
            "winners": array(TEAM, description="One team, or both for a shared victory.", minItems=1,
                             maxItems=2, uniqueItems=True),
            "reason": enum(REASONS),
            "shared": BOOLEAN,
            "cause": nullable(enum(CAUSES, "Why a keyword tiebreak was played, for results reached through "
                                           "one; else null.")),
            "standings": per_team(_standing()),
        }, "How the game ended; null until it is over.")),
        "View": obj({
            "version": integer("The game's version this view shows.", minimum=1),
            "phase": enum(PHASES),
            "language": enum(LANGUAGES),
            "round": integer("The current round number; 0 before the game starts.", minimum=0,
                             maximum=MAX_ROUNDS),
            "max_rounds": integer(minimum=MAX_ROUNDS, maximum=MAX_ROUNDS),
            "team_size": obj({"min": integer(minimum=MIN_TEAM, maximum=MIN_TEAM),
                              "max": integer(minimum=MAX_TEAM, maximum=MAX_TEAM)}),
            "start_problem": nullable(obj({
                "code": enum(["team_size", "teams_uneven"], "A refusal code (see `Error`)."),
                "params": obj({"team": described(TEAM, "The team at fault (the bigger one if uneven)."),
                               "min": integer(), "max": integer(), "white": integer(), "black": integer()},
                              "The refusal's details: `min` and `max` for `team_size`, each team's "
                              "number of players (`white`, `black`) for `teams_uneven`.", required=["team"]),
            }, "In the lobby, why the host can't start the game yet; null when it can, and once it has "
               "started.")),
            "viewer": ref("Viewer"),
            "teams": per_team(ref("Team")),
            "rounds": array(ref("Round"), description="Every round so far, oldest first."),
            "transmission": nullable(enum(TEAMS, "Whose transmission is being guessed now (White's, then "
                                                 "Black's, once both Encryptors announced); else null.")),
            "tiebreak": ref("Tiebreak"),
            "result": ref("Result"),
            "last_reveal": ref("Reveal"),
            "you": ref("You"),
        }, "Everything this viewer may see of the game, and nothing more."),
    }


# --- operations ---------------------------------------------------------------------------

def json_body(schema: dict, example=None) -> dict:
    content = {"schema": schema}
    if example is not None:
        content["example"] = example
    return {"content": {"application/json": content}}


def refusals(*codes: str) -> dict:
    """Error responses grouped by status, each allowing exactly the codes listed."""
    by_status: dict[str, list[str]] = {}
    for c in codes:
        by_status.setdefault(str(status_of(c)), []).append(c)
    return {status: {"description": "Refused: " + ", ".join(f"`{c}`" for c in found) + ".",
                     **json_body({"allOf": [ref("Error"), {"properties": {"code": enum(found)}}]})}
            for status, found in sorted(by_status.items())}


def command(operation_id: str, summary: str, description: str, body: dict, security: list,
            codes: tuple[str, ...], ok: dict | None = None, example=None, body_required: bool = True) -> dict:
    """A command's path item. Request bodies are open: fields a command doesn't read are ignored."""
    operation = {
        "tags": ["commands"],
        "operationId": operation_id,
        "summary": summary,
        "description": description,
        "security": security,
        "responses": {"200": {"description": "Done.", **json_body(ok or ref("CommandResult"))},
                      **refusals(*COMMAND_REFUSALS, *codes)},
    }
    operation["requestBody"] = {"required": body_required, **json_body({**body, "additionalProperties": True},
                                                                       example)}
    return {"parameters": [{"$ref": "#/components/parameters/GameId"}], "post": operation}


BEARER = [{"bearerAuth": []}]
BEARER_OR_COOKIE = [{"bearerAuth": []}, {"seatCookie": [], "csrfHeader": []}]


def paths() -> dict:
    names = f"{NAME_LENGTH[0]} to {NAME_LENGTH[1]} characters"
    return {
        "/api/games": {"post": {
            "tags": ["games"],
            "operationId": "createGame",
            "summary": "Create a game",
            "description": "Needs no token (and no CSRF token). Answers the game's capability tokens: keep "
                           "the host token for the table, hand each team its join token.",
            "security": [],
            "requestBody": {"required": False, **json_body(obj(
                {"language": {**enum(LANGUAGES), "default": "en",
                              "description": "The game's language. Accepted but currently ignored: every "
                                            "game is created in English."}},
                "Optional; a body, if sent, must be a JSON object.", required=(), closed=False),
                {"language": "en"})},
            "responses": {"201": {"description": "Created.", **json_body(ref("CreatedGame"))},
                          **refusals("malformed_body", "too_large")},
        }},
        "/api/games/{game_id}": {
            "parameters": [{"$ref": "#/components/parameters/GameId"}],
            "get": {
                "tags": ["games"],
                "operationId": "getView",
                "summary": "The game as this caller may see it",
                "description": "Any capability of this game works: host, spectator, a join token, a seat "
                               "token (or a browser's seat cookie). Poll it with `If-None-Match` set to the "
                               "last `ETag`: a 304 means nothing changed.",
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
        "/api/games/{game_id}/join": command(
            "join", "Take a seat",
            f"With a team's join token, in the lobby: seats a new player on that team ({MIN_TEAM} to "
            f"{MAX_TEAM} players a team). Answers the player's seat number and seat token.",
            obj({"name": string(f"Trimmed, inner spaces collapsed; then {names}, unique in the team "
                                "(ignoring case and accents).")}),
            BEARER,
            ("join_link_only", *phase_refusals(LOBBY), "name_required", "name_length", "team_full",
             "name_taken", *TEXT_REFUSALS),
            ok=ref("JoinResult"), example={"name": "Ann"}),
        "/api/games/{game_id}/start": command(
            "start", "Start the game",
            f"With the host token, in the lobby, once each team has {MIN_TEAM} to {MAX_TEAM} players and "
            "the teams differ by at most one player: deals the keywords and starts round 1 (events "
            "`game_started`, `round_started`). No body is needed; a JSON object is accepted and ignored.",
            obj({}),
            BEARER,
            ("host_only", *phase_refusals(LOBBY), "team_size", "teams_uneven", "not_enough_words"),
            body_required=False),
        "/api/games/{game_id}/clues": command(
            "announceClues", "Announce the clues",
            "By this round's Encryptor of the caller's team, once per round. A clue can't contain one of "
            "the team's keywords, repeat another clue of the three, or repeat a clue the team gave in an "
            "earlier round (ignoring case, accents and plural endings).",
            obj({"clues": words(3, "One clue per digit of the code, in the code's order; each trimmed, 1 to "
                                   f"{CLUE_MAX_LENGTH} characters.")}),
            BEARER_OR_COOKIE,
            ("players_only", *phase_refusals(PLAYING), "not_encryptor", "clues_already_announced",
             "three_clues", "clue_empty", "clue_is_keyword", "clue_reused", "clue_repeated", *TEXT_REFUSALS),
            example={"clues": ["orbit", "pine", "fortress"]}),
        "/api/games/{game_id}/guess": command(
            "guess", "Guess the open transmission's code",
            "By a player of either team, for the transmission in `view.transmission` (White's, then "
            "Black's, once both Encryptors announced): the own team decrypts (never its Encryptor), the "
            "other team intercepts (from round 2). `confirm: false` saves a draft any teammate can still "
            "replace; `confirm: true` seals the team's guess. When every needed guess is sealed the "
            "transmission resolves, and after Black's the round ends: events `guess_saved`, then possibly "
            "`transmission_resolved`, then `round_started`, `game_ended` or `tiebreak_started`.",
            obj({"code": {"description": "Three digits from 1 to 4, one per clue (a guess may repeat a "
                                         "digit; it is then wrong): a list, or a string such as \"314\" or "
                                         "\"3-1-4\".",
                          "oneOf": [array({"oneOf": [DIGIT, enum(["1", "2", "3", "4"])]}, 3),
                                    {"type": "string", "pattern": GUESS_PATTERN}]},
                 "confirm": {**boolean("Seal the guess."), "default": False}},
                required=["code"]),
            BEARER_OR_COOKIE,
            ("players_only", *phase_refusals(PLAYING), "clues_not_announced", "encryptor_cannot_guess",
             "no_interception_round_one", "guess_sealed", "guess_malformed"),
            example={"code": [3, 1, 4], "confirm": True}),
        "/api/games/{game_id}/keyword-guesses": command(
            "sealKeywordGuesses", "Seal the team's keyword guesses (tiebreak)",
            "In phase `keyword_guessing`, once per team: the team's guesses of the other team's four "
            "keywords, in their order. Once both teams sealed, the phase becomes `keyword_judging`.",
            obj({"guesses": words(4, f"Each trimmed, 0 to {KEYWORD_GUESS_MAX_LENGTH} characters (a blank "
                                     "is allowed).")}),
            BEARER_OR_COOKIE,
            ("players_only", *phase_refusals(KEYWORD_GUESSING), "keyword_guesses_sealed",
             "four_keyword_guesses", *TEXT_REFUSALS),
            example={"guesses": ["WHALE", "", "CASTLE", "MOON"]}),
        "/api/games/{game_id}/verdicts": command(
            "judgeKeywords", "Judge the keyword guesses (tiebreak)",
            "With the host token, in phase `keyword_judging` (`view.tiebreak.proposal` holds the app's "
            "proposal): which of each team's guesses were right. Ends the game (events "
            "`keywords_judged`, `game_ended`).",
            obj({"verdicts": per_team(array(BOOLEAN, 4), "For each team, whether each of its four guesses "
                                                         "named the other team's keyword.")}),
            BEARER,
            ("host_only", *phase_refusals(KEYWORD_JUDGING), "verdicts_malformed"),
            example={"verdicts": {"white": [True, False, False, True], "black": [False, False, False, False]}}),
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
        "openapi": "3.0.3",
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
            "schemas": schemas(),
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
