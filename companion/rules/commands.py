"""Every command, declared once: its name, who sends it, its fields and target, when it is allowed, its
handler, and its documentation. The rules (`decide`), the service, the web layer (parsing, rate limits) and
the OpenAPI document all read this.

Adding a command: write its handler (and its events in events.py), then one `Command` below. Its fields'
kinds (rules.fields) parse them, from JSON and from forms, and write their schema; each target's `path` says
where a page's form and the test driver find it in the sender's view (`targets_for`). Then its refusals'
sentences (messages.REFUSALS), docs/api.md, and its button in a template.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from . import fields, host, lobby, notes, play, targets, three_player
from .errors import RuleError
from .event import Event
from .guards import PHASE_REFUSALS, Actor, CommandBody
from .state import KEYWORD_GUESSING, KEYWORD_JUDGING, LOBBY, MAX_TEAM, MIN_TEAM, OVER, PLAYING, Game
from .text import CLUE_MAX_LENGTH, KEYWORD_GUESS_MAX_LENGTH, NAME_LENGTH, NOTE_LINE_MAX_LENGTH

_NO_DEFAULT = object()

# A command's handler: its events, or the RuleError it raises (rules.decide runs it).
Handler = Callable[[Game, CommandBody, Actor, random.Random], list[Event]]
# A stale-target check (rules.targets): the RuleError `stale` when the game moved on, else None.
Check = Callable[[Game, Actor, CommandBody], RuleError | None]


@dataclass(frozen=True)
class Field:
    """A field of a command's body."""

    name: str
    kind: fields.Kind[object]  # parses it and writes its schema (rules.fields)
    doc: str
    required: bool = True
    default: object = _NO_DEFAULT
    path: str | None = None  # a target's place in the sender's view (rules.targets.find)

    @property
    def has_default(self) -> bool:
        return self.default is not _NO_DEFAULT


@dataclass(frozen=True)
class Command:
    name: str  # in the URL: /api/games/<game_id>/<name>
    type: str  # the rules' name, in `decide(game, {"type": ...})`
    handler: Handler
    sender: str  # the capability that sends it: host, seat, join, handoff
    operation_id: str
    summary: str
    description: str
    fields: tuple[Field, ...] = ()
    targets: tuple[Field, ...] = ()  # what the player saw; always optional (see rules.targets)
    checks: tuple[Check, ...] = ()  # the stale-target checks
    refusals: tuple[str, ...] = ()  # the rules' refusals besides the sender's and correction_pending
    example: dict[str, Any] | None = None
    answer: str = "CommandResult"  # the OpenAPI schema of its answer
    during_correction: bool = False  # allowed while a correction waits for both sides
    draws_words: bool = False  # the service passes the language's word pack
    timed: bool = False  # the service passes its clock (`at`: the sand timer, the log's times)
    phones_in_use: bool = False  # the service passes the seats whose phone is in use (`in_use`)
    seats_a_phone: bool = False  # counts against the join rate limit


def phase_refusals(*allowed: str) -> tuple[str, ...]:
    """The refusals of a command allowed only in the phases `allowed`."""
    return tuple(dict.fromkeys(code for phase, code in PHASE_REFUSALS.items() if phase not in allowed))


TEXT_REFUSALS = ("text_too_long", "text_has_control_characters")
LOBBY_ONLY = ("try_out_fixed_seats", *phase_refusals(LOBBY))
START_PROBLEMS = ("team_size", "teams_uneven", "three_player_seats")  # rules.queries.start_problem
NAMES = f"{NAME_LENGTH[0]} to {NAME_LENGTH[1]} characters"

# Targets: each names what the player's screen showed (the view's field in brackets).
MATCH = Field("match", fields.MATCH, "The match the player saw (`view.match`).", required=False, path="match")
ROUND = Field("round", fields.ROUND, "The round the player saw (`view.round`).", required=False, path="round")
SEAT = Field("seat", fields.SEAT, "The player's seat (see `teams.<team>.players`).")
TIMER_TEAM = Field(
    "team",
    fields.TEAM,
    "`view.timer.late_team`: the team whose Encryptor the sand timer ran for, as the table screen showed it.",
    required=False,
    path="timer.late_team",
)


def _target(name: str, kind: fields.Kind[object], doc: str, path: str) -> Field:
    return Field(name, kind, doc, required=False, path=path)


COMMANDS = {
    c.name: c
    for c in (
        Command(
            "join",
            "join",
            lobby.join,
            "join",
            "join",
            "Take a seat",
            f"With a team's join token, in the lobby, unless the host locked joining: seats a new player on that "
            f"team ({MIN_TEAM} to {MAX_TEAM} players a team; in the three-player game "
            f"{three_player.SIZES[three_player.TEAM]} in the team and {three_player.SIZES[three_player.INTERCEPTOR]} "
            "Interceptor). Answers the player's seat number and seat token.",
            fields=(
                Field(
                    "name",
                    fields.TEXT,
                    f"Trimmed, inner spaces collapsed; then {NAMES}, unique in the team "
                    "(ignoring case, accents, invisible characters and look-alike letters).",
                ),
            ),
            refusals=(
                "too_late_to_join",
                "game_over",
                "try_out_fixed_seats",
                "joining_locked",
                "name_required",
                "name_length",
                "team_full",
                "name_taken",
                *TEXT_REFUSALS,
            ),
            example={"name": "Ann"},
            answer="JoinResult",
            seats_a_phone=True,
        ),
        Command(
            "lock-joining",
            "lock_joining",
            lobby.lock_joining,
            "host",
            "lockJoining",
            "Lock or reopen joining",
            "With the host token, in the lobby: while joining is locked, join tokens are refused "
            "(`view.joining_locked`).",
            fields=(Field("locked", fields.BOOLEAN, "True to lock joining, false to reopen it."),),
            refusals=(*LOBBY_ONLY, "locked_malformed", "already_locked", "already_open"),
            example={"locked": True},
        ),
        Command(
            "move-player",
            "move_player",
            lobby.move_player,
            "host",
            "movePlayer",
            "Move a player to the other team",
            "With the host token, in the lobby: the player keeps their seat number and token, and joins the other "
            "team last. Naming the player's current `team` makes a repeat safe (a second tap would move them back).",
            fields=(SEAT,),
            targets=(
                _target(
                    "team",
                    fields.TEAM,
                    "The team the player is on now, as the table screen showed it.",
                    "teams.<*>.players.[seat={seat}]",
                ),
            ),
            checks=(targets.move_player,),
            refusals=(*LOBBY_ONLY, "no_such_player", "team_full", "name_taken"),
            example={"seat": 3, "team": "white"},
        ),
        Command(
            "remove-player",
            "remove_player",
            lobby.remove_player,
            "host",
            "removePlayer",
            "Remove a player",
            "With the host token, in the lobby: frees the seat; its token stops working. Seat numbers are never "
            "reused, so the seat names the player.",
            fields=(SEAT,),
            refusals=(*LOBBY_ONLY, "no_such_player"),
            example={"seat": 3},
        ),
        Command(
            "shuffle-teams",
            "shuffle_teams",
            lobby.shuffle_teams,
            "host",
            "shuffleTeams",
            "Shuffle the teams",
            "With the host token, in the lobby: the seated players are split at random, as evenly as possible (the "
            "odd player out goes to either team), two players of the same name on different teams; in the "
            "three-player game one player drawn at random becomes the Interceptor and the others form the team. "
            "Every phone keeps its seat and token; the new order is each team's join order (event "
            "`teams_shuffled`). No body is needed.",
            refusals=(*LOBBY_ONLY, "too_few_to_shuffle"),
        ),
        Command(
            "set-timer",
            "set_timer",
            lobby.set_timer,
            "host",
            "setTimer",
            "Change the sand timer",
            "With the host token, in the lobby (a new game or a rematch): the sand timer for the matches to come "
            "(`view.timer_seconds`; event `timer_set`).",
            fields=(Field("timer", fields.TIMER, "The sand timer in seconds; null for none."),),
            refusals=(*phase_refusals(LOBBY), "timer_length"),
            example={"timer": 45},
        ),
        Command(
            "start",
            "start",
            lobby.start,
            "host",
            "start",
            "Start the game",
            f"With the host token, in the lobby, once each team has {MIN_TEAM} to {MAX_TEAM} players and the teams "
            f"differ by at most one player (in the three-player game: {three_player.SIZES[three_player.TEAM]} in "
            f"the team, {three_player.SIZES[three_player.INTERCEPTOR]} Interceptor; `view.start_problem` says what "
            "stands in the way): deals the keywords and starts round 1 (events `game_started`, `round_started`).",
            targets=(MATCH,),
            checks=(targets.moved_on,),
            refusals=(*phase_refusals(LOBBY), *START_PROBLEMS, "not_enough_words"),
            example={"match": 1},
            draws_words=True,
        ),
        Command(
            "swap-keyword",
            "swap_keyword",
            play.swap_keyword,
            "seat",
            "swapKeyword",
            "Swap one of the team's keywords",
            "By a player, in round 1 before the team's clues are announced, once a match (`view.you.can_swap`): the "
            "keyword at that number is replaced by a fresh word. Everybody learns that the team swapped, never which "
            "one. With a target, a repeat is refused as `stale`.",
            fields=(Field("number", fields.DIGIT, "The keyword's number (1 to 4)."),),
            targets=(MATCH, ROUND),
            checks=(targets.moved_on, targets.swap_keyword),
            refusals=(
                *phase_refusals(PLAYING),
                "no_keywords",
                "swap_too_late",
                "already_swapped",
                "keyword_number",
                "no_spare_words",
            ),
            example={"number": 2, "match": 1, "round": 1},
            draws_words=True,
        ),
        Command(
            "skip-encryptor",
            "skip_encryptor",
            host.skip_encryptor,
            "host",
            "skipEncryptor",
            "Skip a team's Encryptor",
            "With the host token, while the team's clues of this round aren't announced: the next teammate in the "
            "rotation becomes the Encryptor, with a fresh code (`view.host.skippable` lists the teams this is "
            "possible for). Naming the skipped `encryptor` makes a repeat safe.",
            fields=(Field("team", fields.TEAM, "The team whose Encryptor is skipped."),),
            targets=(
                ROUND,
                _target(
                    "encryptor",
                    fields.SEAT,
                    "The seat of the Encryptor being skipped, as the table "
                    "screen showed it (`rounds[-1].transmissions.<team>"
                    ".encryptor`).",
                    "rounds.-1.transmissions.{team}.encryptor",
                ),
            ),
            checks=(targets.moved_on, targets.skip_encryptor),
            refusals=(*phase_refusals(PLAYING), "no_such_team", "clues_already_announced", "nobody_to_skip_to"),
            example={"team": "white", "round": 2, "encryptor": 3},
        ),
        Command(
            "take-back",
            "take_back",
            host.take_back,
            "host",
            "takeBack",
            "Take back the last entry",
            "With the host token, while playing: takes back the entry `view.host.take_back` names (a sealed guess "
            "becomes the team's draft again; taken-back clues drop the transmission's guesses too). Send back the "
            "entry as the view gave it, so that a tap made before another entry arrived takes back nothing.",
            targets=(
                replace(ROUND, path="host.take_back.round"),
                _target(
                    "entry", fields.ENTRY, "`view.host.take_back.entry`: `guess` or `clues`.", "host.take_back.entry"
                ),
                _target(
                    "transmission",
                    fields.TEAM,
                    "`view.host.take_back.transmission`: whose transmission.",
                    "host.take_back.transmission",
                ),
                _target(
                    "by", fields.TEAM, "`view.host.take_back.by`: whose guess (for a guess entry).", "host.take_back.by"
                ),
            ),
            checks=(targets.moved_on, targets.take_back),
            refusals=(*phase_refusals(PLAYING), "nothing_to_take_back"),
            example={"round": 2, "entry": "clues", "transmission": "white"},
        ),
        Command(
            "pause-timer",
            "pause_timer",
            host.pause_timer,
            "host",
            "pauseTimer",
            "Pause the sand timer",
            "With the host token, while the sand timer runs and has time left (`view.timer`, not `paused`): the "
            "table is interrupted, so the timer stops and keeps its time left until `resume-timer` (event "
            "`timer_paused`, in the public log). Every screen shows it paused, its `remaining` frozen. Naming "
            "the timer the table screen showed (`team`, its `late_team`) makes a repeat safe.",
            targets=(MATCH, ROUND, TIMER_TEAM),
            checks=(targets.moved_on, targets.pause_timer),
            refusals=(*phase_refusals(PLAYING), "timer_not_running"),
            example={"match": 1, "round": 2, "team": "black"},
            timed=True,
        ),
        Command(
            "resume-timer",
            "resume_timer",
            host.resume_timer,
            "host",
            "resumeTimer",
            "Resume the sand timer",
            "With the host token, while the sand timer is paused (`view.timer.paused`): it goes on from the time "
            "it had left (event `timer_resumed`, in the public log). Naming the timer the table screen showed "
            "(`team`, its `late_team`) makes a repeat safe.",
            targets=(MATCH, ROUND, TIMER_TEAM),
            checks=(targets.moved_on, targets.resume_timer),
            refusals=(*phase_refusals(PLAYING), "timer_not_paused"),
            example={"match": 1, "round": 2, "team": "black"},
            timed=True,
        ),
        Command(
            "correction",
            "propose_correction",
            host.propose_correction,
            "host",
            "proposeCorrection",
            "Propose a correction of the last reveal",
            "With the host token, for the reveal `view.host.correctable` names (the last one, until the next clues "
            "are announced or a keyword guess is sealed): the guesses as they should have been entered. Both sides "
            "then answer it (`answer-correction`); once both accepted, the reveal, the tokens and whatever the "
            "round's end led to are judged again. Once the game is over, both teams' keywords have been shown to "
            "everyone: a correction may change the result, but one that would resume play (a next round or the "
            "tiebreak) is refused.",
            fields=(
                Field("decryption", fields.CODE, "The corrected decryption."),
                Field(
                    "interception",
                    fields.OPTIONAL_CODE,
                    "The corrected interception; required when the round has "
                    "one, ignored (and may be null or left out) in round 1.",
                    required=False,
                ),
            ),
            targets=(
                _target(
                    "round",
                    fields.ROUND,
                    "`view.host.correctable.round`: the round of the reveal.",
                    "host.correctable.round",
                ),
                _target(
                    "transmission",
                    fields.TEAM,
                    "`view.host.correctable.team`: whose transmission.",
                    "host.correctable.team",
                ),
            ),
            checks=(targets.correction,),
            refusals=("nothing_to_correct", "guess_malformed", "correction_changes_nothing", "correction_resumes_play"),
            example={"decryption": [3, 1, 4], "interception": [3, 1, 2], "round": 2, "transmission": "white"},
        ),
        Command(
            "answer-correction",
            "answer_correction",
            host.answer_correction,
            "seat",
            "answerCorrection",
            "Accept or reject the proposed correction",
            "By a player of a side that hasn't accepted it yet (`view.correction`): a rejection drops the "
            "correction; once both sides accepted, it applies (events `reveal_corrected` and, if the corrected "
            "reveal ended its round, `round_reopened` and what the round's end now leads to).",
            fields=(Field("accept", fields.BOOLEAN, "True to accept, false to reject."),),
            targets=(
                _target(
                    "correction", fields.CORRECTION, "`view.correction.id`: the proposal answered.", "correction.id"
                ),
            ),
            checks=(targets.answer_correction,),
            refusals=("no_correction", "correction_already_confirmed", "accept_malformed", "correction_resumes_play"),
            example={"accept": True, "correction": 1},
            during_correction=True,
        ),
        Command(
            "withdraw-correction",
            "withdraw_correction",
            host.withdraw_correction,
            "host",
            "withdrawCorrection",
            "Withdraw the proposed correction",
            "With the host token, while a correction waits for answers.",
            targets=(
                _target(
                    "correction", fields.CORRECTION, "`view.correction.id`: the proposal withdrawn.", "correction.id"
                ),
            ),
            checks=(targets.correction_named,),
            refusals=("no_correction",),
            example={"correction": 1},
            during_correction=True,
        ),
        Command(
            "seat-link",
            "issue_seat_link",
            host.issue_seat_link,
            "host",
            "issueSeatLink",
            "Issue a new link to a player's seat",
            "With the host token, in a real game (a try-out's seats stay on its one device): a fresh link for a "
            "player whose phone died (any earlier link to that seat stops working). The answer holds the link, "
            "which the table screen also shows as a QR code; the phones of the seat's team show at once that it "
            "was made, and when (`view.you.seat_links`), and can cancel it (`reject-seat-link`). The new phone "
            "claims the seat with it (`claim-seat`); `cancel-seat-link` withdraws it.",
            fields=(SEAT,),
            targets=(
                _target(
                    "name",
                    fields.TEXT,
                    "The seat holder's name, as the table screen showed it.",
                    "teams.*.players.[seat={seat}].name",
                ),
            ),
            checks=(targets.issue_seat_link,),
            refusals=("no_such_player", "try_out_fixed_seats"),
            example={"seat": 2, "name": "Ann"},
            answer="SeatLinkResult",
            during_correction=True,
            timed=True,
        ),
        Command(
            "cancel-seat-link",
            "cancel_seat_link",
            host.cancel_seat_link,
            "host",
            "cancelSeatLink",
            "Cancel a seat link not claimed yet",
            "With the host token: the seat's waiting link (from `seat-link`) stops working, e.g. when the player's "
            "old phone came back. The seat's current token keeps working.",
            fields=(SEAT,),
            refusals=("no_such_player", "no_seat_link"),
            example={"seat": 2},
            during_correction=True,
        ),
        Command(
            "claim-seat",
            "claim_seat",
            host.claim_seat,
            "handoff",
            "claimSeat",
            "Claim a seat with its new link",
            f"With a seat link's token (from `seat-link`): this caller becomes the seat's player once a phone of the "
            f"seat's team lets it in. While any phone of that team is in use (it asked for its view, polled or held "
            f"its stream in the last {host.PHONE_IN_USE_SECONDS // 60} minutes; the seat's own old phone counts too), "
            "the claim waits (event `seat_claim_waiting`, `view.waiting`) until one of them lets the new phone in "
            "(`let-in`) or turns it away (`reject-seat-link`), or, once none of them has been in use for that long "
            "(`view.waiting[].until`), takes the seat by itself at the new token's next asking. When none is in use "
            "to begin with, it takes the seat at once. Taken without a teammate either way (event `seat_claimed` "
            "with `unattended`), every screen says so (`view.unattended`) until a teammate acknowledges it. The "
            "answer holds the seat and its new token, and the link stops working; the old token stops working once "
            "the seat is taken. While it waits, the new token is refused (`seat_waiting`, 403, saying until when), "
            "or `claim_replaced` once a newer link for the seat replaced it.",
            refusals=("try_out_fixed_seats",),
            answer="ClaimResult",
            during_correction=True,
            seats_a_phone=True,
            timed=True,
            phones_in_use=True,
        ),
        Command(
            "let-in",
            "let_in",
            host.let_in,
            "seat",
            "letIn",
            "Let a seat's new phone in",
            "By a player of the seat's team (the seat's own old phone too), when that seat's new phone claimed its "
            "link and waits (`view.you.waiting_phones`): the seat moves to the new phone and its old phone is signed "
            "out (event `seat_handed`, in the public log with who let it in).",
            fields=(SEAT,),
            refusals=("no_such_player", "teammates_let_in", "no_waiting_phone"),
            example={"seat": 2},
            during_correction=True,
        ),
        Command(
            "reject-seat-link",
            "reject_seat_link",
            host.reject_seat_link,
            "seat",
            "rejectSeatLink",
            "Turn away a seat link of the team",
            "By a player of the seat's team (the seat's own phone too), while that seat has a link not claimed yet "
            "(`view.you.seat_links`) or a new phone waiting (`view.you.waiting_phones`): \"that's not us\". The link "
            "stops working and the waiting phone is sent away (event `seat_link_cancelled` with `by`, in the public "
            "log).",
            fields=(SEAT,),
            refusals=("no_such_player", "not_your_team", "no_seat_link"),
            example={"seat": 2},
            during_correction=True,
        ),
        Command(
            "acknowledge-claim",
            "acknowledge_claim",
            host.acknowledge_claim,
            "seat",
            "acknowledgeClaim",
            "Acknowledge a seat taken while the team was away",
            "By a player of the seat's team other than the seat itself, for a seat in `view.unattended` (taken by a "
            "new phone while no phone of the team was in use): the team has seen it, and every screen stops saying "
            "so (event `claim_acknowledged`, in the public log with who). If the new phone is not the player's, ask "
            "the table screen for a new seat link instead: its claim then waits for one of you.",
            fields=(SEAT,),
            refusals=("no_such_player", "not_your_team", "teammates_acknowledge", "no_unattended_claim"),
            example={"seat": 2},
            during_correction=True,
        ),
        Command(
            "verdicts",
            "judge_keywords",
            play.judge_keywords,
            "host",
            "judgeKeywords",
            "Judge the keyword guesses (tiebreak)",
            "With the host token, in phase `keyword_judging` (`view.tiebreak.proposal` holds the app's proposal): "
            "which of each team's guesses were right. Ends the game (events `keywords_judged`, `game_ended`).",
            fields=(
                Field(
                    "verdicts",
                    fields.VERDICTS,
                    "For each team, whether each of its four guesses named the other team's keyword.",
                ),
            ),
            targets=(MATCH,),
            checks=(targets.moved_on,),
            refusals=(*phase_refusals(KEYWORD_JUDGING), "verdicts_malformed"),
            example={
                "verdicts": {"white": [True, False, False, True], "black": [False, False, False, False]},
                "match": 1,
            },
        ),
        Command(
            "rematch",
            "rematch",
            lobby.rematch,
            "host",
            "rematch",
            "Start a rematch",
            "With the host token, once the game is over: a new match, back in the lobby with the same seats and "
            "settings (event `rematch_started`). Phones keep their seats; joining is open again, players may switch "
            "teams, the host may shuffle them and change the sand timer, then starts as for a new game (fresh "
            "keywords). The finished match stays readable as a summary.",
            targets=(MATCH,),
            checks=(targets.moved_on,),
            refusals=phase_refusals(OVER),
            example={"match": 1},
        ),
        Command(
            "clues",
            "announce_clues",
            play.announce_clues,
            "seat",
            "announceClues",
            "Announce the clues",
            "By this round's Encryptor of the caller's team, once per round. A clue can't contain one of the team's "
            "keywords or one of the code's digits, repeat another clue of the three, or repeat a clue the team gave "
            "in an earlier round (ignoring case, accents and plural endings). With a target, a repeat is refused as "
            "`stale`.",
            fields=(
                Field(
                    "clues",
                    fields.CLUES,
                    f"One clue per digit of the code, in the code's order; each trimmed, 1 "
                    f"to {CLUE_MAX_LENGTH} characters.",
                ),
            ),
            targets=(MATCH, ROUND),
            checks=(targets.moved_on, targets.clues),
            refusals=(
                *phase_refusals(PLAYING),
                "not_encryptor",
                "clues_already_announced",
                "three_clues",
                "clue_empty",
                "clue_is_keyword",
                "clue_is_code_digit",
                "clue_reused",
                "clue_repeated",
                *TEXT_REFUSALS,
            ),
            example={"clues": ["orbit", "pine", "fortress"], "match": 1, "round": 1},
            timed=True,
        ),
        Command(
            "guess",
            "guess",
            play.guess,
            "seat",
            "guess",
            "Guess the open transmission's code",
            "By a player of either side, for the transmission in `view.transmission` (White's, then Black's, once "
            "both Encryptors announced; only White's in the three-player game): the own team decrypts (never its "
            "Encryptor), the other side intercepts (from round 2). `confirm: false` saves a draft any teammate can "
            "still replace (the team's draft again changes nothing: no event); `confirm: true` seals the team's "
            "guess. When every needed guess is sealed the transmission resolves, and after the round's last one "
            "the round ends: events `guess_saved`, then possibly `transmission_resolved`, then `round_started`, "
            "`game_ended` or `tiebreak_started`. Name the "
            "`transmission` (and round and match) the player saw: a guess meant for one transmission never lands "
            "on the next, and a repeat of a sealed guess is refused as `stale`.",
            fields=(
                Field("code", fields.CODE, "The guessed code."),
                Field("confirm", fields.BOOLEAN, "Seal the guess.", required=False, default=False),
            ),
            targets=(
                MATCH,
                ROUND,
                _target(
                    "transmission",
                    fields.TEAM,
                    "`view.transmission`: whose transmission the guess is for.",
                    "transmission",
                ),
            ),
            checks=(targets.moved_on, targets.guess),
            refusals=(
                *phase_refusals(PLAYING),
                "clues_not_announced",
                "encryptor_cannot_guess",
                "no_interception_round_one",
                "guess_sealed",
                "guess_malformed",
                "no_such_team",
            ),
            example={"code": [3, 1, 4], "confirm": True, "match": 1, "round": 2, "transmission": "white"},
        ),
        Command(
            "switch-team",
            "switch_team",
            lobby.switch_team,
            "seat",
            "switchTeam",
            "Switch to the other team",
            "By a seated player, in the lobby, while joining is open: the player moves to the other team, keeping "
            "their seat number and token, last in its join order (event `player_moved`). Naming the `team` the "
            "player is on makes a repeat safe (a second tap would switch back).",
            targets=(_target("team", fields.TEAM, "The team this phone is on now (`view.you.team`).", "you.team"),),
            checks=(targets.switch_team,),
            refusals=(*LOBBY_ONLY, "joining_locked", "team_full", "name_taken"),
            example={"team": "white"},
        ),
        Command(
            "leave",
            "leave",
            lobby.leave,
            "seat",
            "leaveGame",
            "Leave the game",
            "By a seated player, in the lobby (a new game or a rematch): the player leaves; the seat is freed and "
            "this token stops working (event `player_left`). To play after all, join again from the team's link. "
            "No body is needed.",
            refusals=LOBBY_ONLY,
        ),
        Command(
            "keyword-guesses",
            "keyword_guesses",
            play.keyword_guesses,
            "seat",
            "sealKeywordGuesses",
            "Seal the team's keyword guesses (tiebreak)",
            "In phase `keyword_guessing`, once per team: the team's guesses of the other team's four keywords, in "
            "their order. Once both teams sealed, the phase becomes `keyword_judging`. With a target, a repeat is "
            "refused as `stale`.",
            fields=(
                Field(
                    "guesses",
                    fields.KEYWORD_GUESSES,
                    f"Each trimmed, 0 to {KEYWORD_GUESS_MAX_LENGTH} characters (a blank is allowed).",
                ),
            ),
            targets=(MATCH,),
            checks=(targets.moved_on, targets.keyword_guesses),
            refusals=(
                *phase_refusals(KEYWORD_GUESSING),
                "keyword_guesses_sealed",
                "four_keyword_guesses",
                *TEXT_REFUSALS,
            ),
            example={"guesses": ["WHALE", "", "CASTLE", "MOON"], "match": 1},
        ),
        Command(
            "note",
            "write_note",
            notes.write_note,
            "seat",
            "writeNote",
            "Write one of the team's notes",
            "By a player whose other side has keywords (not the three-player game's team), from the start of the "
            "match until both teams sealed their keyword guesses (phases `playing` and `keyword_guessing`; also "
            "while a correction waits): one note of the team's note sheet about the other team (`view.you.notes`), "
            "name either `keyword` or `line`. Every teammate's phone shows it; no other viewer ever does, not even "
            "once the game is over (event `note_written`, seen by the team only: it moves only the team's "
            "versions). Writing the note as it stands changes nothing (no event); a note replaces the team's "
            "earlier text of that note in the log. A rematch starts with blank notes. The tiebreak's form starts "
            "from the keyword notes.",
            fields=(
                Field("keyword", fields.DIGIT, "The other team's keyword (1 to 4) this note guesses.", required=False),
                Field("line", fields.LINE, "The round (1 to the current one) whose free line this is.", required=False),
                Field(
                    "text",
                    fields.TEXT,
                    f"Trimmed, inner spaces collapsed; at most {notes.KEYWORD_NOTE_MAX_LENGTH} "
                    f"characters for a keyword, {NOTE_LINE_MAX_LENGTH} for a line. Empty clears "
                    "the note.",
                ),
            ),
            targets=(MATCH,),
            checks=(targets.moved_on,),
            refusals=(*phase_refusals(PLAYING, KEYWORD_GUESSING), "nothing_to_note", "note_malformed", *TEXT_REFUSALS),
            example={"keyword": 2, "text": "whale?", "match": 1},
            during_correction=True,
        ),
    )
}

# The rules' own name -> its declaration (`decide` dispatches on it); `create` has no URL of its own.
CREATE = Command("create", "create", lobby.create, "host", "createGame", "Create a game", "See POST /api/games.")
# Moving the table screen: the table screen's own page sends these (web.pages), never the API.
TABLE_MOVES = (
    Command(
        "move-table",
        "offer_table_move",
        host.offer_table_move,
        "host",
        "offerTableMove",
        "Show a link to move the table screen",
        "",
        during_correction=True,
        timed=True,
    ),
    Command(
        "cancel-table-move",
        "cancel_table_move",
        host.cancel_table_move,
        "host",
        "cancelTableMove",
        "Cancel the move link",
        "",
        refusals=("no_table_move",),
        during_correction=True,
    ),
    Command(
        "take-table",
        "take_table",
        host.take_table,
        "table_move",
        "takeTable",
        "Make this device the table screen",
        "",
        refusals=("no_table_move",),
        during_correction=True,
        timed=True,
    ),
)
BY_TYPE = {c.type: c for c in (*COMMANDS.values(), CREATE, *TABLE_MOVES)}


def commands_for(sender: str) -> tuple[str, ...]:
    """The URL names of the commands a capability of this kind may send."""
    return tuple(name for name, c in COMMANDS.items() if c.sender == sender)


def targets_for(command: str, view: Mapping[str, Any], body: CommandBody | None = None) -> dict[str, object]:
    """The target fields of `command` as the sender's `view` shows them (each at its declared path; `body`
    names the item a path depends on, e.g. `seat`). A target the view doesn't hold is left out: a page's
    forms and the test driver send exactly this."""
    declared = COMMANDS[command].targets  # each with its path (tests/test_declarations.py)
    found = {f.name: targets.find(view, f.path, body or {}) for f in declared if f.path is not None}
    return {name: value for name, value in found.items() if value is not None}
