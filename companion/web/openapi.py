"""The OpenAPI 3 description of the JSON API, served at /api/openapi.json (the guide is docs/api.md).

Built as plain data from a few helpers. The enumerations (phases, modes, tasks, reasons, refusal codes,
limits) and the list of commands come from the modules that define them, so the document can't drift from
the code on those points. Every object schema lists all its fields as required (unless it says otherwise)
and allows no others: a view or answer that grows a field must be described here first
(tests/test_openapi.py checks real answers against this).
"""

from __future__ import annotations

from ..messages import CAUSES, REASONS, REFUSALS, TASKS
from ..rules import KEYWORD_GUESSING, KEYWORD_JUDGING, LOBBY, OVER, PLAYING, TEAMS
from ..rules import three_player
from ..rules.commands import COMMANDS, START_PROBLEMS, TEXT_REFUSALS
from ..rules.guards import SENDER_REFUSALS
from ..rules.state import EVENT_TYPES, MAX_ROUNDS, MAX_TEAM, MIN_TEAM, MODES, STANDARD
from ..rules.text import LANGUAGES, MAX_WORDS, MIN_WORDS, TIMER_SECONDS, WORD_MAX_LENGTH
from .errors import status_of

PHASES = (LOBBY, PLAYING, KEYWORD_GUESSING, KEYWORD_JUDGING, OVER)
EVENTS = EVENT_TYPES
ROLES = ("seat", "host", "spectator", "join", "handoff")
TOKEN_KINDS = ("interceptions", "miscommunications")

# Refusals any command can meet besides its own (stale: an If-Match naming another version).
COMMAND_REFUSALS = ("no_capability", "wrong_game", "not_seated", "seat_gone", "malformed_body", "csrf", "too_large",
                    "busy", "rate_limited", "stale", "if_match_malformed")
GUESS_PATTERN = "^[-., /]*[1-4][-., /]*[1-4][-., /]*[1-4][-., /]*$"   # rules.codes.parse_guess, as a string


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


def number(description: str | None = None, minimum: float | None = None, maximum: float | None = None) -> dict:
    return {**integer(description, minimum, maximum), "type": "number"}


BOOLEAN = boolean()
TEAM = enum(TEAMS)
SEAT = integer("A player's seat number: 1 for the first player to join, and so on.", minimum=1)
DIGIT = integer(minimum=1, maximum=4)


def code(description: str) -> dict:
    return array(DIGIT, 3, description)


def words(count: int, description: str) -> dict:
    return array(string(), count, description)


def teams_list(description: str, most: int = len(TEAMS)) -> dict:
    return array(TEAM, description=description, maxItems=most, uniqueItems=True)


# A code as a command body may give it (rules.codes.parse_guess): a list of digits, or a string.
CODE_INPUT = {"description": "Three digits from 1 to 4, one per clue (a guess may repeat a digit; it is then "
                             "wrong): a list, or a string such as \"314\" or \"3-1-4\".",
              "oneOf": [array({"oneOf": [DIGIT, enum(["1", "2", "3", "4"])]}, 3),
                        {"type": "string", "pattern": GUESS_PATTERN}]}


# --- components ---------------------------------------------------------------------------

def _guess_properties() -> dict:
    return {
        "code": nullable(code("The guessed code (digits may repeat); null while it is hidden from this viewer "
                              "or nobody has entered one yet.")),
        "sealed": boolean("The team confirmed it: it can't change any more."),
        "started": boolean("Someone entered a code (for a viewer who can't see the guess yet, this is "
                           "only true once it is sealed)."),
    }


AWARD = obj({"team": described(TEAM, "The team that takes the token (in the three-player game, `black` is "
                                     "the Interceptor)."),
             "token": enum(TOKEN_KINDS, "The kind of token.")})


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
        "interception": nullable(obj(_guess_properties(), "The other team's guess (in the three-player game, "
                                                          "the Interceptor's); null in round 1, when nobody "
                                                          "intercepts.")),
        "intercepted": nullable(boolean("Once resolved: the other team guessed right.")),
        "miscommunicated": nullable(boolean("Once resolved: the own team guessed wrong.")),
        "awards": nullable(array(AWARD, description="Once resolved: the tokens its outcome gave, in order (an "
                                                    "Interception, then a Miscommunication; in the three-player "
                                                    "game both go to the Interceptor as Interception tokens); "
                                                    "empty if none. Null before.", maxItems=2)),
    }


def _standing() -> dict:
    return obj({"interceptions": integer(minimum=0), "miscommunications": integer(minimum=0),
                "score": integer("Interceptions minus Miscommunications.")})


ROUND_NUMBER = integer(minimum=1, maximum=MAX_ROUNDS)

# The public log (views._notice): each kind with its fields besides `kind` and `round` (rules.state).
NOTICES = {
    "keyword_swapped": ("A team swapped one of its keywords for a fresh one (which one stays secret).",
                        {"team": TEAM}),
    "encryptor_skipped": ("The host skipped a team's Encryptor: the next teammate takes the round, with a "
                          "fresh code.",
                          {"team": TEAM, "seat": described(SEAT, "The skipped player."),
                           "by": described(SEAT, "The new Encryptor.")}),
    "entry_taken_back": ("The host took back an entry not revealed yet: a team's sealed guess (kept as its "
                         "draft), or an Encryptor's clues (with the guesses of that transmission).",
                         {"entry": enum(["guess", "clues"]),
                          "team": described(TEAM, "Whose transmission."),
                          "by": nullable(enum(TEAMS, "For a guess, the team whose guess it was; null for "
                                                     "clues."))}),
    "correction_proposed": ("The host proposed to correct the last reveal (see `correction`).",
                            {"team": described(TEAM, "Whose transmission."),
                             "decryption": code("The corrected decryption."),
                             "interception": nullable(code("The corrected interception; null when that "
                                                           "round had none."))}),
    "correction_answered": ("A side answered the proposed correction (a rejection drops it).",
                            {"team": TEAM, "accept": BOOLEAN}),
    "correction_withdrawn": ("The host withdrew the proposed correction.", {}),
    "reveal_corrected": ("Both sides accepted the correction: the reveal now reads so (tokens follow).",
                         {"team": described(TEAM, "Whose transmission."),
                          "decryption": code("The corrected decryption."),
                          "interception": nullable(code("The corrected interception; null when that round "
                                                        "had none.")),
                          "intercepted": BOOLEAN, "miscommunicated": BOOLEAN}),
    "seat_link_issued": ("The host issued a new link to a player's seat (for a new phone).", {"seat": SEAT}),
    "seat_link_cancelled": ("The host cancelled a seat link that no phone had claimed.", {"seat": SEAT}),
    "seat_claimed": ("A new phone took over a seat through its link (the old phone is signed out).",
                     {"seat": SEAT}),
}


def _notice(kind: str) -> dict:
    description, fields = NOTICES[kind]
    return obj({"kind": enum([kind]),
                "round": integer("The round it is about: the round under way when it happened (0 in the lobby), "
                                 "or the corrected round for a correction.", minimum=0,
                                 maximum=MAX_ROUNDS),
                **fields}, description)


def _outcome() -> dict:
    return obj({"decryption": code("The own team's guess."),
                "interception": nullable(code("The other side's guess; null in round 1."))})


def _view_properties() -> dict:
    return {
        "version": integer("The game's version this view shows.", minimum=1),
        "phase": enum(PHASES),
        "language": enum(LANGUAGES),
        "mode": enum(MODES, f"`{STANDARD}`: two teams of {MIN_TEAM} to {MAX_TEAM}; `{three_player.TEAM}` is "
                            f"then the team of two behind the white screen, and `{three_player.INTERCEPTOR}` "
                            "the Interceptor (who transmits nothing and has no keywords)."),
        "try_out": boolean("A try-out: one device plays every seat; nothing is secret from it."),
        "match": integer("Which match of this game: 1, then 2 after the first rematch, and so on.", minimum=1),
        "round": integer("The current round number; 0 before the game starts.", minimum=0, maximum=MAX_ROUNDS),
        "max_rounds": {"type": "integer", "enum": [MAX_ROUNDS, three_player.MAX_ROUNDS],
                       "description": f"{MAX_ROUNDS}, or {three_player.MAX_ROUNDS} in the three-player game."},
        "transmitting": array(TEAM, description="The teams that transmit each round, in the order their "
                                                "transmissions are guessed: both, or only `white` in the "
                                                "three-player game.", minItems=1, maxItems=len(TEAMS),
                              uniqueItems=True),
        "joining_locked": boolean("The host locked joining: join tokens are refused (`joining_locked`)."),
        "timer_seconds": nullable(integer("The sand timer's setting, in seconds (null: no timer); the host "
                                          "changes it in the lobby (`set-timer`).",
                                          minimum=TIMER_SECONDS[0], maximum=TIMER_SECONDS[1])),
        "start_problem": nullable(obj({
            "code": enum(START_PROBLEMS, "A refusal code (see `Error`)."),
            "params": obj({"team": described(TEAM, "The team at fault (the bigger one if uneven)."),
                           "min": integer(minimum=0), "max": integer(minimum=0),
                           "white": integer(minimum=0), "black": integer(minimum=0),
                           "players": integer("Players in the team (`white`).", minimum=0),
                           "interceptors": integer("Players on the Interceptor's side (`black`).", minimum=0)},
                          "The refusal's details: `team`, `min` and `max` for `team_size`; `team` and each "
                          "team's number of players (`white`, `black`) for `teams_uneven`; `players` and "
                          "`interceptors` for `three_player_seats`.", required=()),
        }, "In the lobby, why the host can't start the game yet; null when it can, and once it has "
           "started.")),
        "viewer": ref("Viewer"),
        "teams": per_team(ref("Team")),
        "rounds": array(ref("Round"), description="Every round of this match so far, oldest first."),
        "transmission": nullable(enum(TEAMS, "Whose transmission is being guessed now (White's, then "
                                             "Black's, once both Encryptors announced); else null.")),
        "tiebreak": ref("Tiebreak"),
        "result": ref("Result"),
        "timer": ref("Timer"),
        "correction": ref("Correction"),
        "notices": array(ref("Notice"), description="The public log of this match's host actions and "
                                                    "corrections, oldest first."),
        "last_reveal": ref("Reveal"),
        "you": ref("You"),
        "host": ref("Host"),
    }


def schemas() -> dict:
    return {
        "Error": obj({
            "error": string("A sentence for a player, in the game's language."),
            "code": enum(sorted(REFUSALS), "Machine-readable reason: branch on this, not on the sentence."),
        }, "A refused request (always with a 4xx status, or 503 for `busy`)."),
        "CreatedGame": obj({
            "game_id": string("The game's identifier, used in every other path."),
            "tokens": obj({
                "host": string("The table screen's token: starts the game, corrects it and judges the "
                               "tiebreak. Also reads the table's view (no secrets)."),
                "spectator": string("Read-only token: the public view."),
                "white": string("White's join token: seats a player on White (in the three-player game, "
                                "the team)."),
                "black": string("Black's join token: seats a player on Black (in the three-player game, "
                                "the Interceptor)."),
            }, "Capability tokens, to send as `Authorization: Bearer <token>`. Keep them secret."),
            "urls": obj({
                "table": string("The table screen page (host)."),
                "spectator": string("The spectator page."),
                "white": string("White's join page (what White's QR code holds)."),
                "black": string("Black's join page (what Black's QR code holds)."),
            }, "The same capabilities as pages for browsers, on the server's public address."),
            "codes": obj({
                "white": string("White's join code: typed under \"Join with a code\" on the home page, it "
                                "opens White's join page while the game is in its lobby and joining is open."),
                "black": string("Black's join code, likewise."),
            }, "Each team's join link as a short code for a phone without a camera (five characters; no "
               "two look alike). Keep them for the table, like the join links."),
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
        "ClaimResult": obj({
            "version": integer("The game's version after claiming the seat.", minimum=1),
            "events": array(enum(["seat_claimed"]), 1),
            "seat": described(SEAT, "The seat taken over."),
            "token": string("The seat's new token (the seat's old token and the seat link stop working). "
                            "It is shown only this once."),
        }),
        "SeatLinkResult": obj({
            "version": integer("The game's version after issuing the link.", minimum=1),
            "events": array(enum(["seat_link_issued"]), 1),
            "seat_link": obj({
                "token": string("The link's token: the new phone sends it as a bearer token to `claim-seat`."),
                "url": string("The page a new phone opens to take the seat (what the table screen's QR "
                              "code holds)."),
            }),
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
                                          "and `over`. Null otherwise, and always for the Interceptor "
                                          "(`black`) in the three-player game.")),
            "columns": array(array(obj({"clue": string(), "round": integer(minimum=1)})), 4,
                             "The note sheet: every revealed clue of this team, under its keyword number "
                             "(column 0 is keyword 1)."),
        }),
        "Guess": obj(_guess_properties(), "A team's guess of a transmission's code."),
        "Transmission": obj(_transmission_properties(), "One team's transmission in one round."),
        "Round": obj({
            "number": ROUND_NUMBER,
            "interception_allowed": boolean("False in round 1."),
            "transmissions": obj({team: ref("Transmission") for team in TEAMS},
                                 "Each transmitting team's transmission (see `transmitting`): only `white` in "
                                 "the three-player game.", required=[three_player.TEAM]),
        }),
        "Reveal": nullable(obj({"round": ROUND_NUMBER, **_transmission_properties()},
                               "The most recently resolved transmission and its round; null before the first.")),
        "Viewer": obj({
            "role": enum(ROLES, "What the token is: a seated player, the table (host), a spectator, a "
                                "team's join token (before joining), or a seat link not claimed yet."),
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
            "can_swap": boolean("Your team may still swap one keyword (`swap-keyword`): in round 1, before "
                                "its clues are announced, once a match."),
        }, "Only for a seated player (null for every other viewer).")),
        "Tiebreak": nullable(obj({
            "cause": enum(CAUSES, "`collision`: both teams met an end condition in the same round; "
                                  f"`round_limit`: {MAX_ROUNDS} rounds passed."),
            "sealed": per_team(BOOLEAN, "Which teams sealed their keyword guesses."),
            "guesses": per_team(nullable(words(4, "A team's guesses of the other team's keywords: visible "
                                                  "to the team, and to everybody once both are sealed."))),
            "proposal": nullable(per_team(array(BOOLEAN, 4), "The app's proposed verdicts while the host "
                                                             "judges (phase `keyword_judging`).")),
            "verdicts": nullable(per_team(array(BOOLEAN, 4), "The host's verdicts, once judged.")),
        }, "The keyword tiebreak; null unless the game reached it (never in the three-player game).")),
        "Result": nullable(obj({
            "winners": array(TEAM, description="One team, or both for a shared victory.", minItems=1,
                             maxItems=2, uniqueItems=True),
            "reason": enum(REASONS, f"Why it ended; `{three_player.INTERCEPTOR_TOKENS}` and "
                                    f"`{three_player.TEAM_SURVIVED}` end three-player games."),
            "shared": BOOLEAN,
            "cause": nullable(enum(CAUSES, "Why a keyword tiebreak was played, for results reached through "
                                           "one; else null.")),
            "standings": per_team(_standing()),
        }, "How the game ended; null until it is over.")),
        "Timer": nullable(obj({
            "seconds": integer("The game's sand timer.", minimum=TIMER_SECONDS[0], maximum=TIMER_SECONDS[1]),
            "late_team": described(TEAM, "The team whose Encryptor hasn't announced yet."),
            "late_seat": described(SEAT, "That team's Encryptor."),
            "remaining": number("Seconds left when this view was made (one decimal).", minimum=0,
                                maximum=TIMER_SECONDS[1]),
            "ends_at": number("When the time is up, in seconds since the Unix epoch by the server's clock "
                              "(`remaining` and `up` are as of this answer; a 304 doesn't refresh them)."),
            "up": boolean("The time is up (a pacing aid only: nothing is refused)."),
        }, "The sand timer, in a game created with one, while one Encryptor has announced and the other "
           "hasn't (never in the three-player game); else null.")),
        "Correction": nullable(obj({
            "id": integer("The proposal's number in this game (1 for the first correction proposed, and so "
                          "on); `answer-correction` and `withdraw-correction` name it.", minimum=1),
            "round": ROUND_NUMBER,
            "team": described(TEAM, "Whose transmission is corrected."),
            "code": code("That transmission's true code."),
            "before": described(_outcome(), "The guesses as revealed."),
            "after": described(_outcome(), "The guesses as the host proposes to correct them."),
            "confirmed": teams_list("The sides that accepted it so far (it applies once both have).", 1),
        }, "A correction of the last reveal proposed by the host, waiting for both sides to accept it on "
           "their phones (`answer-correction`; until then most commands are refused with "
           "`correction_pending`); else null.")),
        "Notice": {"oneOf": [_notice(kind) for kind in NOTICES],
                   "description": "A line of the public log, by `kind`."},
        "Host": nullable(obj({
            "take_back": nullable(obj({
                "entry": enum(["guess", "clues"]),
                "round": described(ROUND_NUMBER, "The round of the entry (the current one)."),
                "transmission": described(TEAM, "Whose transmission the entry belongs to."),
                "by": described(TEAM, "For a guess only: whose guess."),
            }, "The entry `take-back` would take back: a sealed guess of the open transmission, else the "
               "latest clues of a transmission not resolved yet; null if none. `take-back` names it back.",
                required=["entry", "round", "transmission"])),
            "skippable": teams_list("The teams whose Encryptor `skip-encryptor` may skip now (clues not "
                                    "announced, and a teammate to take over)."),
            "correctable": nullable(obj({"round": ROUND_NUMBER, "team": described(TEAM, "Whose transmission.")},
                                        "The reveal `correction` would correct: the last one, until the next "
                                        "clues or keyword guesses; null if none.")),
        }, "What the table screen may correct now: only for the host (null for every other viewer); while a "
           "correction is pending, nothing.")),
        "View": obj(_view_properties(), "Everything this viewer may see of the game, and nothing more."),
        "Summary": obj({**_view_properties(),
                        "version": integer("Always 0: a summary is no version of the live game.", minimum=0,
                                           maximum=0),
                        "phase": enum([OVER])},
                       "A finished match, whole: the spectator's view of it once it was over (keywords, codes "
                       "and guesses are all public by then). `match` says which match it is."),
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
    for c in dict.fromkeys(codes):
        by_status.setdefault(str(status_of(c)), []).append(c)
    return {status: {"description": "Refused: " + ", ".join(f"`{c}`" for c in found) + ".",
                     **json_body({"allOf": [ref("Error"), {"properties": {"code": enum(found)}}]})}
            for status, found in sorted(by_status.items())}


BEARER = [{"bearerAuth": []}]
BEARER_OR_COOKIE = [{"bearerAuth": []}, {"seatCookie": [], "csrfHeader": []}]


# How each kind of command field (rules.commands.Field.kind) is described.
FIELD_SCHEMAS = {
    "seat": SEAT, "team": TEAM, "boolean": BOOLEAN, "digit": DIGIT, "text": string(),
    "code": CODE_INPUT, "code_or_null": nullable(CODE_INPUT),
    "timer": nullable(integer(minimum=TIMER_SECONDS[0], maximum=TIMER_SECONDS[1])),
    "clues": words(3, None), "keyword_guesses": words(4, None), "verdicts": per_team(array(BOOLEAN, 4)),
    "match": integer(minimum=1), "round": integer(minimum=0, maximum=MAX_ROUNDS),
    "entry": enum(["guess", "clues"]), "correction": integer(minimum=1),
}


def _field(f) -> dict:
    schema = described(FIELD_SCHEMAS[f.kind], f.doc)
    return {**schema, "default": f.default} if f.has_default else schema


def command(name: str) -> dict:
    """The path item of the command `name`, from its declaration (rules.commands). Request bodies are open:
    fields a command doesn't read are ignored."""
    declared = COMMANDS[name]
    codes = [SENDER_REFUSALS[declared.sender], *declared.refusals]
    if not declared.during_correction:
        codes.append("correction_pending")
    fields = (*declared.fields, *declared.targets)
    body = {f.name: _field(f) for f in fields}
    description = declared.description
    if declared.targets:
        description += (" Target fields (" + ", ".join(f"`{f.name}`" for f in declared.targets) + "): what the "
                        "player's screen showed; a command whose target no longer matches, or that already took "
                        "effect, is refused with 409 `stale` and changes nothing.")
    operation = {
        "tags": ["commands"],
        "operationId": declared.operation_id,
        "summary": declared.summary,
        "description": description,
        "security": BEARER_OR_COOKIE if declared.sender == "seat" else BEARER,
        "parameters": [IF_MATCH],
        "responses": {"200": {"description": "Done.", **json_body(ref(declared.answer))},
                      **refusals(*COMMAND_REFUSALS, *codes)},
        "requestBody": {"required": any(f.required for f in fields),
                        **json_body({**obj(body, required=[f.name for f in fields if f.required]),
                                     "additionalProperties": True}, declared.example)},
    }
    return {"parameters": [{"$ref": "#/components/parameters/GameId"}], "post": operation}


IF_MATCH = {"name": "If-Match", "in": "header", "required": False, "schema": string(),
            "description": "Optional: the version the caller saw (`view.version`, or the view's `ETag`). If "
                           "the game is at another version now, the command is refused with 409 `stale`."}


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
