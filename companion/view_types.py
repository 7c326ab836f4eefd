"""The shapes of what the JSON API answers: the view (`views.view_for`), the summary, and the other answers.

Declared once, here, as TypedDicts: `views.py` names them in its annotations only (a TypedDict is a plain
dict at runtime, so nothing is built or checked while polling), and `web/openapi_views.py` turns them into
the OpenAPI document's component schemas when /api/openapi.json is first asked for. A field's description
is its `Field(description=...)`; a type's is its docstring. The enumerations come from the modules that
define them. Every object is closed and every field required (unless `NotRequired`, or the type is
`total=False`): a view that grows a field must be declared here first (tests/test_openapi.py checks real
answers against the document). The notices' types alone are made here from their events' declarations
(rules/events.py: `NOTICE`).

This module imports pydantic (for `Field`): only the OpenAPI document and the tests import it, never the
poll path (views.py imports it for type checkers only).
"""

from typing import TYPE_CHECKING, Annotated, Any, Generic, Literal, NotRequired, TypeAlias, TypeVar, Union

from pydantic import Field
from typing_extensions import TypeAliasType, TypedDict  # pydantic needs these on Python < 3.12

from .messages import CAUSES, REASONS, REFUSALS, TASKS
from .rules import OVER, TEAMS, three_player
from .rules.access import VIEWER_KINDS
from .rules.commands import START_PROBLEMS
from .rules.notes import KEYWORD_NOTE_MAX_LENGTH
from .rules.text import LANGUAGES, NOTE_LINE_MAX_LENGTH, TIMER_SECONDS
from .rules.events import BY_TYPE, EVENT_TYPES, NOTICES
from .rules.state import ENTRIES, MAX_ROUNDS, MAX_TEAM, MIN_TEAM, MODES, PHASES, STANDARD

ROLES = tuple(str(kind) for kind in VIEWER_KINDS)  # (plain strings: the OpenAPI enum's values)
TOKEN_KINDS = ("interceptions", "miscommunications")

T = TypeVar("T")


def described(description: str, **constraints: Any) -> Any:  # (pydantic's `Field` is typed Any)
    return Field(description=description, **constraints)


# --- the small pieces -----------------------------------------------------------------------

Digit = Annotated[int, Field(ge=1, le=4)]
Seat = Annotated[int, described("A player's seat number: 1 for the first player to join, and so on.", ge=1)]
RoundNumber = Annotated[int, Field(ge=1, le=MAX_ROUNDS)]
Count = Annotated[int, Field(ge=0)]
Flags = Annotated[list[bool], Field(min_length=4, max_length=4)]
TimerSeconds = Annotated[int, Field(ge=TIMER_SECONDS[0], le=TIMER_SECONDS[1])]
Moment = Annotated[float, described("Seconds since the Unix epoch, by the server's clock.")]

# The enumerations: `Literal[TUPLE]` is `Literal[*TUPLE]`, the values come from the tuple the code defines. A
# static checker reads no Literal of a variable: to it, each is its values' type (and a code or a list of words
# has no length); pydantic, and so the OpenAPI document, read the real ones.
if TYPE_CHECKING:
    TeamName: TypeAlias = str
    TokenKind: TypeAlias = str
    Role: TypeAlias = str
    Task: TypeAlias = str
    StartProblemCode: TypeAlias = str
    Cause: TypeAlias = str
    Reason: TypeAlias = str
    Entry: TypeAlias = str
    Language: TypeAlias = str
    Mode: TypeAlias = str
    MaxRounds: TypeAlias = int
    Phase: TypeAlias = str
    Over: TypeAlias = str
    RefusalCode: TypeAlias = str
    EventType: TypeAlias = str
    Code: TypeAlias = list[int]
    Clues: TypeAlias = list[str]
    Keywords: TypeAlias = list[str]
else:
    TeamName = Literal[TEAMS]
    TokenKind = Literal[TOKEN_KINDS]
    Role = Literal[ROLES]
    Task = Literal[tuple(TASKS)]
    StartProblemCode = Literal[START_PROBLEMS]
    Cause = Literal[tuple(CAUSES)]
    Reason = Literal[tuple(REASONS)]
    Entry = Literal[ENTRIES]
    Language = Literal[LANGUAGES]
    Mode = Literal[MODES]
    MaxRounds = Literal[MAX_ROUNDS, three_player.MAX_ROUNDS]
    Phase = Literal[PHASES]
    Over = Literal[OVER]
    RefusalCode = Literal[tuple(sorted(REFUSALS))]
    EventType = Literal[EVENT_TYPES]
    Code = Annotated[list[Digit], Field(min_length=3, max_length=3)]
    Clues = Annotated[list[str], Field(min_length=3, max_length=3)]
    Keywords = Annotated[list[str], Field(min_length=4, max_length=4)]


class PerTeam(TypedDict, Generic[T]):
    white: T
    black: T


# --- the view -------------------------------------------------------------------------------


class Player(TypedDict):
    seat: Seat
    name: str
    encryptor: Annotated[
        bool, described("This player is the team's Encryptor in the current round (only while the phase is `playing`).")
    ]


class TeamTokens(TypedDict):
    interceptions: Count
    miscommunications: Count


class NoteSheetClue(TypedDict):
    clue: str
    round: Annotated[int, Field(ge=1)]


class Team(TypedDict):
    players: Annotated[list[Player], described("In join order (the Encryptor rotation follows it).")]
    tokens: TeamTokens
    score: Annotated[int, described("Interceptions minus Miscommunications.")]
    keywords: Annotated[
        Keywords | None,
        described(
            "The team's keywords, numbered 1 to 4 in order: shown to the team's own players, and to everybody in "
            "phases `keyword_judging` and `over`. Null otherwise, and always for the Interceptor (`black`) in the "
            "three-player game."
        ),
    ]
    columns: Annotated[
        list[list[NoteSheetClue]],
        described(
            "The note sheet: every revealed clue of this team, under its keyword number (column 0 is keyword 1).",
            min_length=4,
            max_length=4,
        ),
    ]


class Guess(TypedDict):
    """A team's guess of a transmission's code."""

    code: Annotated[
        Code | None,
        described(
            "The guessed code (digits may repeat); null while it is hidden "
            "from this viewer or nobody has entered one yet."
        ),
    ]
    sealed: Annotated[bool, described("The team confirmed it: it can't change any more.")]
    started: Annotated[
        bool,
        described(
            "Someone entered a code (for a viewer who can't see the guess yet, this is only true once it is sealed)."
        ),
    ]


class Award(TypedDict):
    team: Annotated[
        TeamName, described("The team that takes the token (in the three-player game, `black` is the Interceptor).")
    ]
    token: Annotated[TokenKind, described("The kind of token.")]


class Transmission(TypedDict):
    """One team's transmission in one round."""

    team: TeamName
    encryptor: Annotated[Seat, described("Seat of this transmission's Encryptor.")]
    announced: Annotated[bool, described("The Encryptor has announced the clues.")]
    clues: Annotated[
        Clues | None,
        described(
            "The clues, once open to everybody; the Encryptor sees them as soon as they are announced. Null otherwise."
        ),
    ]
    open: Annotated[bool, described("This transmission is the one being guessed now.")]
    resolved: Annotated[bool, described("Every needed guess is sealed: the code is revealed.")]
    code: Annotated[
        Code | None, described("The true code, once resolved (the Encryptor reads it earlier from `you.code`).")
    ]
    decryption: Guess
    interception: Annotated[
        Guess | None,
        described(
            "The other team's guess (in the three-player game, the "
            "Interceptor's); null in round 1, when nobody intercepts."
        ),
    ]
    intercepted: Annotated[bool | None, described("Once resolved: the other team guessed right.")]
    miscommunicated: Annotated[bool | None, described("Once resolved: the own team guessed wrong.")]
    awards: Annotated[
        Annotated[list[Award], Field(max_length=2)] | None,
        described(
            "Once resolved: the tokens its outcome gave, in order (an Interception, then a Miscommunication; in the "
            "three-player game both go to the Interceptor as Interception tokens); empty if none. Null before."
        ),
    ]


class Transmissions(TypedDict):
    """Each transmitting team's transmission (see `transmitting`): only `white` in the three-player game."""

    white: Transmission
    black: NotRequired[Transmission]


class Round(TypedDict):
    number: RoundNumber
    interception_allowed: Annotated[bool, described("False in round 1.")]
    transmissions: Transmissions


class Reveal(Transmission):
    """The most recently resolved transmission and its round; null before the first."""

    round: RoundNumber


class Viewer(TypedDict):
    role: Annotated[
        Role,
        described(
            "What the token is: a seated player, the table (host), a spectator, a team's join token (before "
            "joining), or a seat link not claimed yet."
        ),
    ]
    team: Annotated[TeamName | None, described("The player's team, or the join token's team; else null.")]
    seat: Seat | None
    name: Annotated[str | None, described("The player's name; null unless `role` is `seat`.")]


class SeatLinkMade(TypedDict):
    seat: Seat
    at: Annotated[Moment | None, described("When the table screen made it (null in logs from before times were kept).")]


class Unattended(TypedDict):
    """A seat a new phone took while no phone of its team was in use, so that nobody of the team let it in:
    shown on every screen until a teammate acknowledges it (`acknowledge-claim`) or the match ends."""

    seat: Seat
    team: TeamName
    at: Annotated[Moment | None, described("When the new phone took the seat.")]


class Notes(TypedDict):
    """The team's notes on the other team (command `note`): its own players' alone, never anyone else's."""

    keywords: Annotated[
        list[Annotated[str, Field(max_length=KEYWORD_NOTE_MAX_LENGTH)]],
        described(
            "What the team thinks each of the other team's four keywords is, in their order (empty: no note); the "
            "tiebreak's keyword guesses start from them.",
            min_length=4,
            max_length=4,
        ),
    ]
    lines: Annotated[
        list[Annotated[str, Field(max_length=NOTE_LINE_MAX_LENGTH)]],
        described("The team's free line on each round so far, round 1 first (empty: no note).", max_length=MAX_ROUNDS),
    ]
    editable: Annotated[
        bool,
        described(
            "The notes can still be written: phases `playing` and `keyword_guessing` "
            "(afterwards they stay readable until a rematch)."
        ),
    ]


class Waiting(TypedDict):
    """A new phone that used its seat link while a phone of the seat's team was in use, and waits for one of
    them to let it in (`let-in`) or turn it away (`reject-seat-link`)."""

    seat: Seat
    team: TeamName
    until: Annotated[
        Moment | None,
        described(
            "When it takes the seat by itself (`seat_claimed` with `unattended`, the next time it asks for its view) "
            "unless a phone of the seat's team is used before then: 2 minutes after the last moment one of them may "
            "have been in use, as the service saw them (their last asking, written at most once a minute, + 1 "
            "minute), to the whole minute. It moves later each time one of them is used, and the view's ETag with "
            "it. Null only where the service's times are not at hand (a summary)."
        ),
    ]


class You(TypedDict):
    """Only for a seated player (null for every other viewer)."""

    team: TeamName
    encryptor: Annotated[bool, described("You are your team's Encryptor this round.")]
    code: Annotated[
        Code | None,
        described("Your code to encrypt: only while you are the Encryptor and your transmission is unresolved."),
    ]
    clues_taken_back: Annotated[
        list[Annotated[str, described("A clue.")]] | None,
        described(
            "Your clues of this round that the table screen took back (`take-back`), to edit and announce again: "
            "only while you are the Encryptor writing them."
        ),
    ]
    task: Annotated[Task, described("What this player should do now.")]
    can_swap: Annotated[
        bool,
        described(
            "Your team may still swap one keyword (`swap-keyword`): in round 1, "
            "before its clues are announced, once a match."
        ),
    ]
    seat_links: Annotated[
        list[SeatLinkMade],
        described(
            "The seat links the table screen made for seats of your team (yours included) that no phone used yet: "
            "if one is not yours, turn it away (`reject-seat-link`)."
        ),
    ]
    waiting_phones: Annotated[
        list[Seat],
        described(
            "Seats of your team (yours included) whose new phone used its seat link and waits for a phone of the "
            "team to let it in (`let-in`) or turn it away (`reject-seat-link`)."
        ),
    ]
    notes: Annotated[
        Notes | None,
        described(
            "Your team's notes on the other team, for this match: null in the lobby, "
            "and for the three-player game's team (the Interceptor has no "
            "keywords)."
        ),
    ]


class StartProblemParams(TypedDict, total=False):
    """The refusal's details: `team`, `min` and `max` for `team_size`; `team` and each team's number of players
    (`white`, `black`) for `teams_uneven`; `players` and `interceptors` for `three_player_seats`."""

    team: Annotated[TeamName, described("The team at fault (the bigger one if uneven).")]
    min: Count
    max: Count
    white: Count
    black: Count
    players: Annotated[int, described("Players in the team (`white`).", ge=0)]
    interceptors: Annotated[int, described("Players on the Interceptor's side (`black`).", ge=0)]


class StartProblem(TypedDict):
    """In the lobby, why the host can't start the game yet; null when it can, and once it has started."""

    code: Annotated[StartProblemCode, described("A refusal code (see `Error`).")]
    params: StartProblemParams


class Tiebreak(TypedDict):
    """The keyword tiebreak; null unless the game reached it (never in the three-player game)."""

    cause: Annotated[
        Cause,
        described(
            f"`collision`: both teams met an end condition in the same round; `round_limit`: {MAX_ROUNDS} rounds "
            "passed."
        ),
    ]
    sealed: Annotated[PerTeam[bool], described("Which teams sealed their keyword guesses.")]
    guesses: PerTeam[
        Annotated[
            Keywords | None,
            described(
                "A team's guesses of the other team's keywords: visible to the team, and to everybody once both are "
                "sealed."
            ),
        ]
    ]
    proposal: Annotated[
        PerTeam[Flags] | None, described("The app's proposed verdicts while the host judges (phase `keyword_judging`).")
    ]
    verdicts: Annotated[PerTeam[Flags] | None, described("The host's verdicts, once judged.")]


class Standing(TypedDict):
    interceptions: Count
    miscommunications: Count
    score: Annotated[int, described("Interceptions minus Miscommunications.")]


class Result(TypedDict):
    """How the game ended; null until it is over."""

    winners: Annotated[
        list[TeamName],
        described(
            "One team, or both for a shared victory.",
            min_length=1,
            max_length=2,
            json_schema_extra={"uniqueItems": True},
        ),
    ]
    reason: Annotated[
        Reason,
        described(
            f"Why it ended; `{three_player.INTERCEPTOR_TOKENS}` and `{three_player.TEAM_SURVIVED}` end three-player "
            "games."
        ),
    ]
    shared: bool
    cause: Annotated[
        Cause | None,
        described("Why a keyword tiebreak was played, for results reached through one; else null."),
    ]
    standings: PerTeam[Standing]


class Timer(TypedDict):
    """The sand timer, in a game created with one, while one Encryptor has announced and the other hasn't
    (never in the three-player game); else null."""

    seconds: Annotated[TimerSeconds, described("The game's sand timer.")]
    late_team: Annotated[TeamName, described("The team whose Encryptor hasn't announced yet.")]
    late_seat: Annotated[Seat, described("That team's Encryptor.")]
    remaining: Annotated[
        float,
        described(
            "Seconds left when this view was made (one decimal), the pauses not counted; while paused, the time "
            "left when it was paused, frozen.",
            ge=0,
            le=TIMER_SECONDS[1],
        ),
    ]
    ends_at: Annotated[
        float | None,
        described(
            "When the time is up, in seconds since the Unix epoch by the server's clock, the pauses so far added "
            "on (`remaining` and `up` are as of this answer; a 304 doesn't refresh them); null while paused."
        ),
    ]
    paused: Annotated[
        bool,
        described(
            "The table screen paused it (`pause-timer`): it doesn't run until resumed (`resume-timer`), and then "
            "goes on from `remaining`."
        ),
    ]
    up: Annotated[bool, described("The time is up (a pacing aid only: nothing is refused).")]


class Outcome(TypedDict):
    decryption: Annotated[Code, described("The own team's guess.")]
    interception: Annotated[Code | None, described("The other side's guess; null in round 1.")]


class Correction(TypedDict):
    """A correction of the last reveal proposed by the host, waiting for both sides to accept it on their
    phones (`answer-correction`; until then most commands are refused with `correction_pending`); else null."""

    id: Annotated[
        int,
        described(
            "The proposal's number in this game (1 for the first correction proposed, and "
            "so on); answer-correction and withdraw-correction name it.",
            ge=1,
        ),
    ]
    round: RoundNumber
    team: Annotated[TeamName, described("Whose transmission is corrected.")]
    code: Annotated[Code, described("That transmission's true code.")]
    before: Annotated[Outcome, described("The guesses as revealed.")]
    after: Annotated[Outcome, described("The guesses as the host proposes to correct them.")]
    confirmed: Annotated[
        list[TeamName],
        described(
            "The sides that accepted it so far (it applies once both have).",
            max_length=1,
            json_schema_extra={"uniqueItems": True},
        ),
    ]


# The public log (views._notice): one type per event that adds a line to it, made from the event's declaration
# (rules/events.py: its `NOTICE` names the fields, what each holds and says, and what the line is). The
# component is named after the event's class; `round` and `kind` come first, then the declared fields.

NoticeRound = Annotated[
    int,
    described(
        "The round it is about: the round under way when it happened (0 in the lobby), or the corrected round "
        "for a correction.",
        ge=0,
        le=MAX_ROUNDS,
    ),
]
# What a notice's field holds (`rules.event.Shown.holds`), as the document types it.
NOTICE_VALUES: dict[str, Any] = {
    "team": TeamName,
    "seat": Seat,
    "entry": Entry,
    "code": Code,
    "flag": bool,
    "moment": Moment,
    "seconds": Annotated[float, Field(ge=0, le=TIMER_SECONDS[1])],
}


def _notice_type(kind: str) -> Any:
    """The TypedDict of the notices of `kind`, from its event's declaration."""
    notice = NOTICES[kind]
    fields: dict[str, Any] = {"round": NoticeRound, "kind": Literal[kind]}
    for name, shown in notice.fields.items():
        value = NOTICE_VALUES[shown.holds]
        value = value | None if shown.nullable else value
        fields[name] = Annotated[value, described(shown.doc)] if shown.doc else value
    made: Any = TypedDict(BY_TYPE[kind].__name__, fields)  # type: ignore[misc]  # (mypy reads written-out ones only)
    made.__doc__ = notice.doc
    return made


if TYPE_CHECKING:
    Notice: TypeAlias = dict[str, Any]  # one of the types made above, by its `kind`
else:
    Notice = TypeAliasType(
        "Notice",
        Annotated[
            Union[tuple(_notice_type(kind) for kind in NOTICES)],  # noqa: UP007  (of types made at run time)
            described("A line of the public log, by `kind`.", discriminator="kind"),
        ],
    )


class TakeBack(TypedDict):
    """The entry `take-back` would take back: a sealed guess of the open transmission, else the latest clues of a
    transmission not resolved yet; null if none."""

    entry: Entry
    round: Annotated[RoundNumber, described("The round of that entry: always the current round.")]
    transmission: Annotated[TeamName, described("Whose transmission the entry belongs to.")]
    by: NotRequired[Annotated[TeamName, described("For a guess only: whose guess.")]]


class Correctable(TypedDict):
    """The reveal `correction` would correct: the last one, until the next clues or keyword guesses; null if
    none."""

    round: RoundNumber
    team: Annotated[TeamName, described("Whose transmission.")]


class Host(TypedDict):
    """What the table screen may correct now: only for the host (null for every other viewer); while a
    correction is pending, nothing."""

    take_back: TakeBack | None
    skippable: Annotated[
        list[TeamName],
        described(
            "The teams whose Encryptor `skip-encryptor` may skip now (clues not announced, and a teammate to take "
            "over).",
            max_length=len(TEAMS),
            json_schema_extra={"uniqueItems": True},
        ),
    ]
    correctable: Correctable | None


class _Game(TypedDict):
    """What a view and a summary share (each adds `version` and `phase`)."""

    language: Language
    mode: Annotated[
        Mode,
        described(
            f"`{STANDARD}`: two teams of {MIN_TEAM} to {MAX_TEAM}; `{three_player.TEAM}` is then the team of two "
            f"behind the white screen, and `{three_player.INTERCEPTOR}` the Interceptor (who transmits nothing and "
            "has no keywords)."
        ),
    ]
    try_out: Annotated[bool, described("A try-out: one device plays every seat; nothing is secret from it.")]
    match: Annotated[int, described("Which match of this game: 1, then 2 after the first rematch, and so on.", ge=1)]
    round: Annotated[int, described("The current round number; 0 before the game starts.", ge=0, le=MAX_ROUNDS)]
    max_rounds: Annotated[
        MaxRounds,
        described(f"{MAX_ROUNDS}, or {three_player.MAX_ROUNDS} in the three-player game."),
    ]
    transmitting: Annotated[
        list[TeamName],
        described(
            "The teams that transmit each round, in the order their transmissions are guessed: both, or only "
            "`white` in the three-player game.",
            min_length=1,
            max_length=len(TEAMS),
            json_schema_extra={"uniqueItems": True},
        ),
    ]
    joining_locked: Annotated[bool, described("The host locked joining: join tokens are refused (`joining_locked`).")]
    timer_seconds: Annotated[
        TimerSeconds | None,
        described(
            "The sand timer's setting, in seconds (null: no timer); the host changes it in the lobby (`set-timer`)."
        ),
    ]
    start_problem: StartProblem | None
    viewer: Viewer
    teams: PerTeam[Team]
    rounds: Annotated[list[Round], described("Every round of this match so far, oldest first.")]
    transmission: Annotated[
        TeamName | None,
        described(
            "Whose transmission is being guessed now (White's, then Black's, once both Encryptors announced); else "
            "null."
        ),
    ]
    tiebreak: Tiebreak | None
    result: Result | None
    timer: Timer | None
    correction: Correction | None
    notices: Annotated[
        list[Notice], described("The public log of this match's host actions and corrections, oldest first.")
    ]
    unattended: Annotated[
        list[Unattended],
        described(
            "Seats a new phone took while no phone of their team was in use (nobody of the team let it in), by seat."
        ),
    ]
    waiting: Annotated[
        list[Waiting],
        described("New phones waiting for a phone of their seat's team to let them in, by seat."),
    ]
    last_reveal: Reveal | None
    you: You | None
    host: Host | None


class View(_Game):
    """Everything this viewer may see of the game, and nothing more."""

    version: Annotated[
        int,
        described(
            "This view's version: how many events this viewer could see, +1 for each. A team's "
            "draft guess or note moves only that team's players' versions; every other event moves "
            "everyone's. Two viewers' versions differ: compare only versions of one view.",
            ge=1,
        ),
    ]
    phase: Phase


class Summary(_Game):
    """A finished match, whole: the spectator's view of it once it was over (keywords, codes and guesses are all
    public by then). `match` says which match it is."""

    version: Annotated[int, described("Always 0: a summary is no version of the live game.", ge=0, le=0)]
    phase: Over


# --- the other answers ----------------------------------------------------------------------


class Error(TypedDict):
    """A refused request (always with a 4xx status, or 503 for `busy`)."""

    error: Annotated[str, described("A sentence for a player, in the game's language.")]
    code: Annotated[RefusalCode, described("Machine-readable reason: branch on this, not on the sentence.")]


class CreatedTokens(TypedDict):
    """Capability tokens, to send as `Authorization: Bearer <token>`. Keep them secret."""

    host: Annotated[
        str,
        described(
            "The table screen's token: starts the game, corrects it and judges the "
            "tiebreak. Also reads the table's view (no secrets)."
        ),
    ]
    spectator: Annotated[str, described("Read-only token: the public view.")]
    white: Annotated[
        str, described("White's join token: seats a player on White (in the three-player game, the team).")
    ]
    black: Annotated[
        str, described("Black's join token: seats a player on Black (in the three-player game, the Interceptor).")
    ]


class CreatedUrls(TypedDict):
    """The same capabilities as pages for browsers, on the server's public address."""

    table: Annotated[str, described("The table screen page (host).")]
    spectator: Annotated[str, described("The spectator page.")]
    white: Annotated[str, described("White's join page (what White's QR code holds).")]
    black: Annotated[str, described("Black's join page (what Black's QR code holds).")]


class JoinCodes(TypedDict):
    """Each team's join link as a short code for a phone without a camera (five characters; no two look
    alike). Keep them for the table, like the join links."""

    white: Annotated[
        str,
        described(
            "White's join code: typed under \"Join with a code\" on the home page, it "
            "opens White's join page while the game is in its lobby and joining is "
            "open."
        ),
    ]
    black: Annotated[str, described("Black's join code, likewise.")]


class CreatedGame(TypedDict):
    game_id: Annotated[str, described("The game's identifier, used in every other path.")]
    tokens: CreatedTokens
    urls: CreatedUrls
    codes: JoinCodes


class CommandResult(TypedDict):
    version: Annotated[
        int, described("The version of the caller's view after this command (what `If-Match` expects next).", ge=1)
    ]
    events: Annotated[
        list[EventType],
        described(
            "The types of the events this command caused, in "
            "order; none when it changed nothing (a draft equal "
            "to the team's draft, a note as it stands)."
        ),
    ]


class JoinResult(TypedDict):
    version: Annotated[int, described("The version of the new player's view after joining.", ge=1)]
    events: Annotated[list[Literal["player_joined"]], Field(min_length=1, max_length=1)]
    seat: Seat
    token: Annotated[
        str,
        described(
            "The new player's seat token: send it as `Authorization: Bearer <token>` for "
            "this player's view and commands. It is shown only this once."
        ),
    ]


class ClaimResult(TypedDict):
    version: Annotated[int, described("The version of the seat's view after claiming it.", ge=1)]
    events: Annotated[list[Literal["seat_claimed", "seat_claim_waiting"]], Field(min_length=1, max_length=1)]
    seat: Annotated[Seat, described("The seat taken over.")]
    token: Annotated[
        str,
        described(
            "The seat's new token (the seat link stops working; the seat's old token "
            "too, at once after `seat_claimed`, after `seat_claim_waiting` once a "
            "teammate lets the new phone in: until then this token is refused with "
            "`seat_waiting`). It is shown only this once."
        ),
    ]


class SeatLink(TypedDict):
    token: Annotated[str, described("The link's token: the new phone sends it as a bearer token to `claim-seat`.")]
    url: Annotated[
        str, described("The page a new phone opens to take the seat (what the table screen's QR code holds).")
    ]


class SeatLinkResult(TypedDict):
    version: Annotated[int, described("The version of the table's view after issuing the link.", ge=1)]
    events: Annotated[list[Literal["seat_link_issued"]], Field(min_length=1, max_length=1)]
    seat_link: SeatLink


# The answers the document names, by component name (each pulls in the types it uses).
ANSWERS = (Error, CreatedGame, CommandResult, JoinResult, ClaimResult, SeatLinkResult, View, Summary)
