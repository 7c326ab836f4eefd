"""Sentences a player understands, for every reason the rules or the web layer refuse a command.

The rules raise `RuleError(code, **params)`; this is the one place that words them (through
Flask-Babel, so every sentence can be translated) and gives each its HTTP status (`REFUSALS`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any, NamedTuple

from babel import support
from babel.dates import format_time
from flask import g, has_request_context
from flask_babel import LazyString, get_locale, get_translations

from .rules import events


def catalogue() -> support.NullTranslations:
    """This request's translations: the catalogue `speak` chose for it if there is one (Flask-Babel finds
    the catalogue anew on every call: a sixth of a page's render, with ~50 messages)."""
    chosen: support.NullTranslations | None = g.get("catalogue") if has_request_context() else None
    return chosen or get_translations()


def translate(message: str) -> str:
    """`message` in this request's language."""
    return catalogue().ugettext(message)


def _l(message: str) -> LazyString:
    """`message`, translated each time it is shown, into the language of the request that shows it: through
    `catalogue`, where Flask-Babel's lazy_gettext looks the catalogue up again for every message (a third of
    a note sheet's render, for the three sentences that name its team)."""
    return LazyString(translate, message)


# French elides « de » and « que » before a word that starts with a vowel sound: « le lien d’Amélie », not
# « de Amélie ». Translators elide their own words; a name only arrives at run time, so its « de » is elided
# here (a vowel, a mute h, or a Y sounding as a vowel: « d’Yves », « de Yann »). No other language has these
# words before a placeholder.
_BEFORE_NAME = re.compile(r"\b([dD]|[qQ]u)e %\((\w+)\)s")
_VOWEL_SOUND = re.compile(r"[aeiouhàâäéèêëîïôöùûüœæ]|y[^aeiouàâéèêëîïôûù]", re.IGNORECASE)


def elided(text: str, params: Mapping[str, Any]) -> str:
    """`text` (a translated sentence with its placeholders) with « de » or « que » elided before each
    placeholder whose value starts with a vowel sound."""
    if "e %(" not in text:
        return text
    return _BEFORE_NAME.sub(
        lambda m: f"{m[1]}’%({m[2]})s" if _VOWEL_SOUND.match(str(params.get(m[2], ""))) else m[0], text
    )


def clock_time(at: float | None, locale: str | None = None) -> str:
    """The time of day `at` (seconds since the epoch, the service's clock) as `locale` (else this request's
    language) writes it, in the server's own time zone (the table's, for a server on its Wi-Fi; `TZ` sets it);
    "?" when unknown."""
    if at is None:
        return "?"
    return format_time(datetime.fromtimestamp(at).astimezone(), "short", locale=locale or get_locale())


def N_plural(singular: str, plural: str, count: str = "num") -> tuple[str, str, str]:
    """Marks a sentence with a count (the parameter named `count`) for extraction; its plural form is
    chosen where it is shown, in that language."""
    return singular, plural, count


TEAM_NAMES = {"white": _l("White"), "black": _l("Black")}
# The three-player game: the team plays behind the white screen against one Interceptor.
THREE_PLAYER_NAMES = {"white": _l("The team"), "black": _l("The Interceptor")}


class Refusal(NamedTuple):
    """A refusal code's HTTP status and sentence (a side's own, or a kind of link's, where it is a dict), and
    for a refusal that passes with time, when to try again (seconds, `Retry-After`)."""

    status: int
    sentence: object
    retry_after: int | None = None


def refused(status: int, sentence: object, retry_after: int | None = None) -> Refusal:
    return Refusal(status, sentence, retry_after)


# Every refusal, declared once (web/errors.py answers with it, tests/test_refusals.py checks it). Statuses:
# 400 the request itself is malformed; 401 no credential at all; 403 this token or seat may not do that;
# 404, 405, 413 as in HTTP; 409 not possible in the game's current state (or the caller's screen was
# behind it); 429 too much from this client; 503 the server is full for now.
REFUSALS = {
    # joining and starting
    "join_link_only": refused(403, _l("Only a team's join link can seat a player.")),
    "name_required": refused(400, _l("Type your name to take a seat.")),
    "name_length": refused(
        400, N_plural("A name has %(min)s to %(max)s character.", "A name has %(min)s to %(max)s characters.", "max")
    ),
    "name_taken": refused(
        409, _l("Someone on this team is already called %(name)s. Add an initial or pick a nickname.")
    ),
    "team_full": refused(
        409,
        N_plural(
            "This team already has %(max)s player. Join the other team, or watch.",
            "This team already has %(max)s players. Join the other team, or watch.",
            "max",
        ),
    ),
    "team_size": refused(
        409,
        {
            "white": N_plural(
                "Each team needs %(min)s to %(max)s player before the game can start (White does not).",
                "Each team needs %(min)s to %(max)s players before the game can start (White does not).",
                "max",
            ),
            "black": N_plural(
                "Each team needs %(min)s to %(max)s player before the game can start (Black does not).",
                "Each team needs %(min)s to %(max)s players before the game can start (Black does not).",
                "max",
            ),
        },
    ),
    "three_player_seats": refused(
        409,
        N_plural(
            "The three-player game needs two players in the team and one Interceptor (so far: %(players)s in the team, %(interceptors)s Interceptor).",
            "The three-player game needs two players in the team and one Interceptor (so far: %(players)s in the team, %(interceptors)s Interceptors).",
            "interceptors",
        ),
    ),
    "teams_uneven": refused(
        409,
        {
            "white": _l(
                "Teams must be as even as possible (White %(white)s, Black %(black)s): someone from White can tap “Switch to Black” on their phone."
            ),
            "black": _l(
                "Teams must be as even as possible (White %(white)s, Black %(black)s): someone from Black can tap “Switch to White” on their phone."
            ),
        },
    ),
    "already_seated": refused(409, _l("This phone already has a seat on this team.")),
    "not_enough_words": refused(
        409,
        N_plural(
            "The word list has fewer than %(min)s distinct word: a team could tell the other team's keywords by elimination.",
            "The word list has fewer than %(min)s distinct words: a team could tell the other team's keywords by elimination.",
            "min",
        ),
    ),
    "host_only": refused(403, _l("Only the table screen can do that.")),
    "players_only": refused(403, _l("Only a seated player can do that. Scan your team's QR code to take a seat.")),
    "game_exists": refused(409, _l("This game has already been created.")),
    "unknown_language": refused(400, _l("That language is not available.")),
    "unknown_mode": refused(400, _l("Choose the standard game or the three-player game.")),
    "timer_length": refused(
        400,
        N_plural(
            "The sand timer runs %(min)s to %(max)s second.", "The sand timer runs %(min)s to %(max)s seconds.", "max"
        ),
    ),
    "words_malformed": refused(
        400, _l("Write your words one per line (or separated by commas), at most 40 characters each.")
    ),
    "too_many_words": refused(
        400,
        N_plural(
            "That list is too long: at most %(max)s word.", "That list is too long: at most %(max)s words.", "max"
        ),
    ),
    "too_few_words": refused(
        400,
        N_plural(
            "Your list has %(count)s different word; it needs at least %(min)s. Repeated or plural forms of one word count once (%(repeated)s).",
            "Your list has %(count)s different words; it needs at least %(min)s. Repeated or plural forms of one word count once (%(repeated)s).",
            "count",
        ),
    ),
    # One refusal for every code that opens nothing (unknown, or its game started, over, locked): no oracle.
    "no_such_join_code": refused(
        404,
        _l(
            "No game is taking players with this code. Check it on the table screen: codes show there only while joining is open."
        ),
    ),
    "try_out_fixed_seats": refused(
        403, _l("A try-out keeps its own seats: create a new game to play with other people.")
    ),
    # host corrections
    "joining_locked": refused(409, _l("Joining is locked. Ask the table screen to reopen it.")),
    "locked_malformed": refused(400, _l("Say whether joining is locked or open.")),
    "already_locked": refused(409, _l("Joining is already locked.")),
    "already_open": refused(409, _l("Joining is already open.")),
    "too_few_to_shuffle": refused(409, _l("Seat at least two players before shuffling the teams.")),
    "no_such_player": refused(400, _l("There is no such player in this game.")),
    "no_such_team": refused(400, _l("There is no such team in this round.")),
    "nobody_to_skip_to": refused(409, _l("Nobody else on that team can take the round.")),
    "nothing_to_take_back": refused(
        409, _l("There is nothing to take back: every entry of this round is revealed, or none was made.")
    ),
    "nothing_to_correct": refused(
        409, _l("Only the last reveal can be corrected, and only before the next clues are announced.")
    ),
    "correction_changes_nothing": refused(
        409, _l("That correction changes nothing: enter the guesses as they should have been.")
    ),
    "correction_resumes_play": refused(
        409, _l("That correction would resume a game whose keywords everyone has seen. Start a rematch instead.")
    ),
    "timer_not_running": refused(
        409, _l("The sand timer isn't running (or its time is up): there is nothing to pause.")
    ),
    "timer_not_paused": refused(409, _l("The sand timer isn't paused: there is nothing to resume.")),
    "correction_pending": refused(
        409, _l("A correction of the last reveal is waiting: both teams must first answer it on their phones.")
    ),
    "no_correction": refused(409, _l("There is no correction to answer.")),
    "correction_already_confirmed": refused(409, _l("Your team has already confirmed this correction.")),
    "accept_malformed": refused(400, _l("Confirm or reject the correction.")),
    "no_seat_link": refused(409, _l("That player has no new seat link waiting.")),
    "seat_link_only": refused(403, _l("Only a seat link from the table screen can do that.")),
    "seat_waiting": refused(
        403,
        _l(
            "This phone is waiting for a phone of its team to let it in. If none of them is used before %(time)s, it takes the seat by itself then."
        ),
    ),
    "claim_replaced": refused(
        403,
        _l(
            "Another seat link replaced this phone's claim: the table screen made a new link for this seat, and only the phone that uses it can take the seat now. If the seat is yours, scan that link on the table screen."
        ),
    ),
    "teammates_let_in": refused(403, _l("Only a phone of that player's team can let their new phone in.")),
    "no_waiting_phone": refused(409, _l("No new phone is waiting to take that seat.")),
    "not_your_team": refused(
        403, _l("That player is on the other team: only their own team decides about their seat.")
    ),
    "teammates_acknowledge": refused(403, _l("Only a teammate of that player can say that the new phone is theirs.")),
    "no_unattended_claim": refused(
        409, _l("That seat was not taken while its team was away: there is nothing to acknowledge.")
    ),
    "move_link_only": refused(403, _l("Only a move link from the table screen can do that.")),
    "no_table_move": refused(409, _l("There is no link to move the table screen: it was used or cancelled.")),
    "summary_not_ready": refused(409, _l("The summary is ready once the game is over.")),
    # the keyword swap
    "no_keywords": refused(409, _l("You have no keywords to swap.")),
    "swap_too_late": refused(
        409, _l("Keywords can only be swapped in round 1, before your team's clues are announced.")
    ),
    "already_swapped": refused(409, _l("Your team has already swapped a keyword.")),
    "keyword_number": refused(400, _l("Choose which keyword to swap: 1, 2, 3 or 4.")),
    "no_spare_words": refused(409, _l("There is no spare word left in this game's word list.")),
    # phases
    "game_not_started": refused(409, _l("The game has not started yet.")),
    "game_in_progress": refused(409, _l("The game is under way: that isn't possible at this point of the game.")),
    "too_late_to_join": refused(409, _l("The game has already started: new players can't join now.")),
    "judging_in_progress": refused(409, _l("Both teams' keyword guesses are in: the table screen is comparing them.")),
    "tiebreak_in_progress": refused(409, _l("The rounds are over: the game is in its tiebreak.")),
    "game_over": refused(409, _l("The game is over.")),
    # clues
    "not_encryptor": refused(403, _l("Only this round's Encryptor announces the clues.")),
    "clues_already_announced": refused(409, _l("The clues are announced: they can't be changed any more.")),
    "three_clues": refused(400, _l("Announce exactly three clues, one for each digit of the code.")),
    "clue_empty": refused(400, _l("Every clue needs at least one letter.")),
    "clue_is_keyword": refused(400, _l("“%(clue)s” uses your keyword %(keyword)s. Pick another clue.")),
    "clue_is_code_digit": refused(
        400, _l("“%(clue)s” gives a digit of your code: the code's digits are never a clue. Pick another clue.")
    ),
    "clue_reused": refused(400, _l("Your team already gave the clue “%(clue)s” in this game.")),
    "clue_repeated": refused(400, _l("“%(clue)s” appears twice: give three different clues.")),
    # guesses
    "clues_not_announced": refused(409, _l("Wait until both Encryptors have announced their clues.")),
    "encryptor_cannot_guess": refused(
        403, _l("You are this transmission's Encryptor: let your team guess on its own.")
    ),
    "no_interception_round_one": refused(409, _l("Nobody intercepts in round 1: listen and take notes for later.")),
    "guess_sealed": refused(409, _l("Your team's guess is sealed: it can't be changed any more.")),
    "guess_malformed": refused(400, _l("A guess is three digits from 1 to 4, one for each clue.")),
    # tiebreak
    "keyword_guesses_sealed": refused(409, _l("Your team's keyword guesses are already sealed.")),
    "four_keyword_guesses": refused(
        400, _l("Write one guess for each of the other team's four keywords (a blank is allowed).")
    ),
    "verdicts_malformed": refused(400, _l("Mark each of the eight keyword guesses as right or wrong.")),
    # the team's notes
    "nothing_to_note": refused(403, _l("The Interceptor has no keywords: your team has nothing to take notes on.")),
    "note_malformed": refused(
        400, _l("A note is text about one of the other team's keywords (1 to 4) or one round played so far.")
    ),
    # text
    "text_too_long": refused(
        400,
        N_plural(
            "That is too long: at most %(limit)s character.", "That is too long: at most %(limit)s characters.", "limit"
        ),
    ),
    "text_has_control_characters": refused(400, _l("That text contains invisible control characters.")),
    "unknown_command": refused(400, _l("That is not something the app knows how to do.")),
    "busy": refused(503, _l("The game is very busy right now. Please try again.")),
    # web layer
    # keyed by the kind of link that no longer works (`link`): each says what to do instead
    "no_capability": refused(
        403,
        {
            "any": _l("This link is not valid. Ask the table screen for your team's QR code."),
            "seat": _l(
                "This seat link no longer works: it was used, cancelled or replaced by a newer one. Ask the table screen for a new seat link."
            ),
            "move": _l(
                "This link no longer moves the table screen: it was used or cancelled. On the table screen, tap “Move the table screen to another device” again."
            ),
            "watch": _l(
                "This link to watch the game no longer works: the game is over and was deleted, or the link was mistyped."
            ),
        },
    ),
    "wrong_game": refused(403, _l("That link belongs to another game.")),
    "not_table_screen": refused(
        403,
        _l(
            "This device is not this game's table screen. To move the table screen here, use "
            "“Move the table screen to another device” on the table screen."
        ),
    ),
    "not_seated": refused(401, _l("This phone has no seat in this game. Scan your team's QR code to join.")),
    "table_moved": refused(
        403,
        _l(
            "The table screen moved to another device at %(time)s: this device is no longer the table "
            "screen. Carry on there; if nobody here moved it, start a new game from the home page."
        ),
    ),
    "seat_gone": refused(
        403,
        _l(
            "This phone no longer has its seat: its player left the game, the seat moved to another phone, or the table screen removed it. To play here, scan your team's code before the game starts, or ask the table screen for a new seat link."
        ),
    ),
    "malformed_body": refused(400, _l("The request could not be read: send a JSON object.")),
    "csrf": refused(400, _l("This page was open too long or came from elsewhere. Reload it and try again.")),
    "cross_site": refused(
        403, _l("This request came from another web site. Open Decrypto Companion itself and try again there.")
    ),
    "game_too_long": refused(
        409,
        N_plural(
            "This game has reached its limit of %(limit)s action. Start a new game from the home page.",
            "This game has reached its limit of %(limit)s actions. Start a new game from the home page.",
            "limit",
        ),
    ),
    "not_found": refused(404, _l("There is nothing here. Check the link, or scan the QR code again.")),
    "too_large": refused(413, _l("That request is too large.")),
    "rate_limited": refused(
        429, _l("Too many attempts from this device in a short time. Wait a minute, then try again.")
    ),
    "server_error": refused(
        500, _l("Something went wrong on the server. Nothing was lost: reload the page in a moment.")
    ),
    "method_not_allowed": refused(405, _l("That action can't be done from here.")),
    # a page's stream (web/stream_budget.py); its page then checks for changes by itself
    "too_many_streams": refused(
        429,
        _l(
            "Too many screens follow games from this device or network at once: this one will "
            "check for changes every few seconds instead."
        ),
        retry_after=30,
    ),
    "streams_full": refused(
        503,
        _l(
            "The server is keeping as many screens up to date as it can: this one will check for "
            "changes every few seconds instead."
        ),
        retry_after=30,
    ),
    "if_match_malformed": refused(400, _l("If-Match must hold the version you saw: the view's version or its ETag.")),
    # a tap made on a screen that was behind the game (rules.targets); `change` says what changed
    "stale": refused(
        409,
        _l(
            "Your screen was behind the game: %(change)s Nothing was changed, and your screen now shows the game as it is."
        ),
    ),
}

# The heading of a refusal's page, where "Not possible" would say too little.
REFUSAL_HEADINGS = {
    "table_moved": _l("This is no longer the table screen"),
    "claim_replaced": _l("Another link replaced this phone's claim"),
}

# What changed since a stale command's screen (rules.targets); those naming a transmission are SIDE_SENTENCES.
STALE_CHANGES = {
    "version": _l("someone else acted first."),
    "match_over": _l("that match is over."),
    "round_moved": _l("the game is now in round %(now)s."),
    "clues_announced": _l("your clues for this round are already announced."),
    "keyword_swapped": _l("your team has already swapped a keyword."),
    "keyword_guesses_sealed": _l("your team's keyword guesses are already sealed."),
    "entry_changed": _l("the entry to take back is no longer the one shown."),
    "reveal_changed": _l("the last reveal is no longer the one you were correcting."),
    "correction_changed": _l("that correction was already answered or withdrawn."),
    "correction_accepted": _l("your side has already accepted this correction."),
    "encryptor_changed": _l("that Encryptor was already replaced."),
    "timer_stopped": _l("that sand timer has stopped."),
    "timer_paused": _l("the sand timer is already paused."),
    "timer_running": _l("the sand timer is already running again."),
    "player_moved": _l("%(name)s is already on the other team."),
    "you_switched": _l("you have already switched teams."),
    "seat_holder_changed": _l("seat %(seat)s belongs to another player now."),
}


def refusal(code: str, **params: Any) -> str:
    """The translated sentence for a refusal code (a side's own sentence when it names one). Every code has
    one (tests/test_refusals.py): an unknown code is a bug, not a reason to say something else."""
    message = REFUSALS[code].sentence
    if code == "stale":
        return worded(message, {"change": stale_change(**params)})
    if isinstance(message, dict):  # a side's own sentence, or a kind of link's
        message = message[params["team"]] if "team" in params else message[params.get("link", "any")]
    return worded(message, params)


def stale_change(change: str, **params: Any) -> str:
    """What changed since a stale command's screen, as the middle of the `stale` sentence."""
    if change in STALE_CHANGES:
        return worded(STALE_CHANGES[change], params)
    return side_text(f"stale_{change}", params.pop("team"), **params)


def worded(message: object, params: dict[str, Any]) -> str:
    """A message (lazy, or `N_plural` with its count among `params`) in this request's language."""
    if isinstance(message, tuple):
        singular, plural, count = message
        text = catalogue().ungettext(singular, plural, params[count])
    else:
        text = str(message)  # translated now, in the request's language
    return elided(text, params) % params if params else text


# The table log's sentences that only put a line's fields into words. A placeholder is the field's name, worded
# as what it holds: a seat as its player's name, seconds as m:ss, a moment as the time of day. A notice names
# its sentence (rules/events.py `NOTICE`): here, or a macro of templates/partials/notices.html when the
# sentence chooses between wordings or names a side.
NOTICE_SENTENCES = {
    "timer_paused": _l("The table paused the sand timer: %(remaining)s left."),
    "timer_resumed": _l("The table resumed the sand timer: %(remaining)s left."),
    "correction_withdrawn": _l("The table withdrew the correction: nothing changed."),
    "seat_link_issued": _l("The table made a new seat link for %(seat)s."),
    "seat_handed": _l("%(seat)s's seat moved to a new phone, let in by %(by)s."),
    "claim_acknowledged": _l("%(by)s confirmed that %(seat)s's new phone is theirs."),
    "table_move_offered": _l("At %(at)s the table screen showed a link that moves it to another device."),
    "table_move_cancelled": _l("The table screen cancelled its move link."),
    "table_moved": _l("The table screen moved to another device at %(at)s."),
}


def minutes(seconds: float) -> str:
    """Seconds as the sand timer shows them, m:ss, counting a started second as whole."""
    whole_minutes, rest = divmod(math.ceil(seconds), 60)
    return f"{whole_minutes}:{rest:02d}"


def worded_notice(line: Mapping[str, Any], names: Mapping[int, str]) -> str | None:
    """A line of the table log in words, if its sentence is one of NOTICE_SENTENCES (else None: its macro
    words it); `names`: the players' names by seat."""
    sentence = NOTICE_SENTENCES.get(events.NOTICES[line["kind"]].sentence)
    if sentence is None:
        return None
    shown = {"seat": lambda seat: names[seat], "seconds": minutes, "moment": clock_time}
    fields = events.NOTICES[line["kind"]].fields
    return worded(sentence, {name: shown.get(field.holds, str)(line[name]) for name, field in fields.items()})


# What a player's phone asks of them now (views.py `you.task`).
TASKS = {
    "wait_for_start": _l("You're seated. The game starts from the table screen once both teams have 2 to 4 players."),
    "write_clues": _l("You are the Encryptor. Reveal your code, then write one clue for each digit."),
    "wait_for_clues": _l("The Encryptors are writing their clues."),
    "wait_for_encryptor": _l("The Encryptor is writing the clues."),
    "encryptor_waits": _l("Your team is guessing your code. Say nothing, keep a straight face."),
    "no_interception_yet": _l("No interception in round 1: listen, and note the clues."),
    "decrypt": _l("Agree with your team on the code, then enter it."),
    "intercept": _l("Intercept: agree with your team on their code, then enter it."),
    "intercept_alone": _l("Intercept: work out the team's code from its clues, then enter it."),
    "guess_sealed": _l("Your team's guess is sealed. Waiting for the other team."),
    "guess_keywords": _l("Tiebreak: guess the other team's four keywords, one per number."),
    "keywords_sealed": _l("Your keyword guesses are sealed. Waiting for the other team."),
    "wait_for_judging": _l("The table screen compares the keyword guesses."),
    "answer_correction": _l(
        "The table screen asks to correct the last reveal. Check it with your team, then confirm or reject it."
    ),
    "wait_for_correction": _l("Your team confirmed the correction. Waiting for the other side."),
    "game_over": _l("The game is over."),
    "wait": _l("Waiting…"),
}

# The three-player game's own wording of a task, where the standard game's would be wrong.
THREE_PLAYER_TASKS = {
    "wait_for_start": _l(
        "You're seated. The game starts from the table screen once the team has its two players and the Interceptor has joined."
    ),
}


def task_text(task: str, mode: str | None = None) -> str:
    """What a phone asks of its player now (`you.task`), in a game of `mode` (else this request's game's)."""
    three = (mode or _request_mode()) == "three_player"
    return str(THREE_PLAYER_TASKS[task] if three and task in THREE_PLAYER_TASKS else TASKS[task])


# Why a game ended (rules.round_end reasons), worded for the winning side.
REASONS = {
    "interceptions": {"white": _l("White intercepted two codes."), "black": _l("Black intercepted two codes.")},
    "miscommunications": {
        "white": _l("Black misread its own Encryptor twice."),
        "black": _l("White misread its own Encryptor twice."),
    },
    "interceptions_and_miscommunications": {
        "white": _l("White intercepted two codes, and Black misread its own Encryptor twice."),
        "black": _l("Black intercepted two codes, and White misread its own Encryptor twice."),
    },
    "score": {
        "white": _l("Tiebreak: White has the better score (Interceptions minus Miscommunications)."),
        "black": _l("Tiebreak: Black has the better score (Interceptions minus Miscommunications)."),
    },
    "keywords": {
        "white": _l("Tiebreak: White guessed more of Black's keywords."),
        "black": _l("Tiebreak: Black guessed more of White's keywords."),
    },
    "shared": _l("Tiebreak: still tied after guessing keywords, so both teams share the victory."),
    "interceptor_tokens": _l("The Interceptor earned two tokens."),
    "team_survived": _l("The team kept its codes safe for five rounds."),
}

CAUSES = {
    "collision": _l("The end-of-round conditions collided."),
    "round_limit": _l("Eight rounds passed without a winner."),
}


def team_name(team: str, mode: str | None = None) -> str:
    """A side's name on its own (a heading, a chip): White or Black, or in the three-player game the team
    and the Interceptor (of this request's game, unless `mode` names another game's). Inside a sentence use
    `side_text`: each language words each side itself."""
    three = (mode or _request_mode()) == "three_player"
    return str((THREE_PLAYER_NAMES if three else TEAM_NAMES).get(team, team))


def _request_mode() -> str | None:
    """The mode of the game this request is about (web/locale.py `speak`), if any."""
    return g.get("mode") if has_request_context() else None


def side_of(team: str, mode: str | None = None) -> str:
    """Which of the four sides `team` is in a game of `mode` (else this request's game's): white or black, or
    in the three-player game the team (white) or the Interceptor (black)."""
    if (mode or _request_mode()) == "three_player":
        return {"white": "team", "black": "interceptor"}.get(team, team)
    return team


def side_text(key: str, team: str, mode: str | None = None, **params: Any) -> str:
    """The sentence `key` worded for `team`'s side (SIDE_SENTENCES) in a game of `mode` (else this request's
    game's), in this request's language."""
    return worded(SIDE_SENTENCES[key][side_of(team, mode)], params)


def reason_text(result: Mapping[str, Any]) -> str:
    reason = REASONS[result["reason"]]
    return worded(reason[result["winners"][0]] if isinstance(reason, dict) else reason, {})


# Every sentence that names a side, written whole for each side it can name, so that each language can
# inflect it (French: « l'équipe blanche », « de l'équipe » after a preposition; Korean particles).
# Sides: white, black (the standard game); team, interceptor (the three-player game). A sentence lists only
# the sides it can be said of (the Interceptor never transmits; the three-player game has no tiebreak).
# Sentences about a transmission are keyed by the transmitting side.
SIDE_SENTENCES = {
    # joining (keyed by the side joined)
    "join": {
        "white": _l("Join White"),
        "black": _l("Join Black"),
        "team": _l("Join the team"),
        "interceptor": _l("Join as the Interceptor"),
    },
    "already_on": {
        "white": _l("Already on White: %(names)s."),
        "black": _l("Already on Black: %(names)s."),
        "team": _l("Already in the team: %(names)s."),
        "interceptor": _l("Already the Interceptor: %(names)s."),
    },
    "first_on": {
        "white": _l("You are the first on White."),
        "black": _l("You are the first on Black."),
        "team": _l("You are the first in the team."),
        "interceptor": _l("Nobody is the Interceptor yet."),
    },
    "move_to": {
        "white": _l("Move to White"),
        "black": _l("Move to Black"),
        "team": _l("Move to the team"),
        "interceptor": _l("Make them the Interceptor"),
    },
    "switch_to": {
        "white": _l("Switch to White"),
        "black": _l("Switch to Black"),
        "team": _l("Switch to the team"),
        "interceptor": _l("Become the Interceptor"),
    },
    "switch_to_confirm": {
        "white": _l("Tap again to switch to White"),
        "black": _l("Tap again to switch to Black"),
        "team": _l("Tap again to switch to the team"),
        "interceptor": _l("Tap again to become the Interceptor"),
    },
    # a transmission (keyed by the transmitting side)
    "transmission": {
        "white": _l("White's transmission"),
        "black": _l("Black's transmission"),
        "team": _l("The team's transmission"),
    },
    "transmissions": {
        "white": _l("White's transmissions"),
        "black": _l("Black's transmissions"),
        "team": _l("The team's transmissions"),
    },
    "reads_the_clues": {
        "white": _l("White's transmission: %(name)s reads the clues"),
        "black": _l("Black's transmission: %(name)s reads the clues"),
        "team": _l("The team's transmission: %(name)s reads the clues"),
    },
    "round_transmission": {
        "white": _l("Round %(round)s · White's transmission"),
        "black": _l("Round %(round)s · Black's transmission"),
        "team": _l("Round %(round)s · the team's transmission"),
    },
    "clues": {"white": _l("White's clues"), "black": _l("Black's clues"), "team": _l("The team's clues")},
    "keywords": {"white": _l("White's keywords"), "black": _l("Black's keywords"), "team": _l("The team's keywords")},
    "decryption": {
        "white": _l("White's decryption"),
        "black": _l("Black's decryption"),
        "team": _l("The team's decryption"),
    },
    "decrypts": {"white": _l("White decrypts"), "black": _l("Black decrypts"), "team": _l("The team decrypts")},
    "interception_of": {
        "white": _l("Black's interception"),
        "black": _l("White's interception"),
        "team": _l("The Interceptor's interception"),
    },
    "intercepts": {
        "white": _l("Black intercepts"),
        "black": _l("White intercepts"),
        "team": _l("The Interceptor intercepts"),
    },
    # a token a transmission gave (keyed by the side that takes it: view `awards`)
    "interception_award": {
        "white": _l("+1 Interception for White"),
        "black": _l("+1 Interception for Black"),
        "interceptor": _l("+1 token for the Interceptor: intercepted"),
    },
    "miscommunication_award": {
        "white": _l("+1 Miscommunication for White"),
        "black": _l("+1 Miscommunication for Black"),
        "interceptor": _l("+1 token for the Interceptor: the team misread its code"),
    },
    "next_encryptor": {
        "white": _l("%(name)s stepped away: the next White player takes the round"),
        "black": _l("%(name)s stepped away: the next Black player takes the round"),
        "team": _l("%(name)s stepped away: the team's other player takes the round"),
    },
    "take_back_clues": {
        "white": _l("Take back White's clues (the Encryptor enters them again)"),
        "black": _l("Take back Black's clues (the Encryptor enters them again)"),
        "team": _l("Take back the team's clues (the Encryptor enters them again)"),
    },
    "take_back_decryption": {
        "white": _l("Take back White's sealed guess on its own code"),
        "black": _l("Take back Black's sealed guess on its own code"),
        "team": _l("Take back the team's sealed guess on its own code"),
    },
    "take_back_interception": {
        "white": _l("Take back Black's sealed guess on White's code"),
        "black": _l("Take back White's sealed guess on Black's code"),
        "team": _l("Take back the Interceptor's sealed guess on the team's code"),
    },
    "correct_last_reveal": {
        "white": _l("Correct the last reveal (round %(round)s, White's code %(code)s):"),
        "black": _l("Correct the last reveal (round %(round)s, Black's code %(code)s):"),
        "team": _l("Correct the last reveal (round %(round)s, the team's code %(code)s):"),
    },
    "correction_heading": {
        "white": _l("Correct round %(round)s: White's transmission"),
        "black": _l("Correct round %(round)s: Black's transmission"),
        "team": _l("Correct round %(round)s: the team's transmission"),
    },
    "time_is_up": {
        "white": _l("Time is up for White's Encryptor."),
        "black": _l("Time is up for Black's Encryptor."),
        "team": _l("Time is up for the team's Encryptor."),
    },
    "sand_timer_for": {
        "white": _l("Sand timer for White's Encryptor:"),
        "black": _l("Sand timer for Black's Encryptor:"),
        "team": _l("Sand timer for the team's Encryptor:"),
    },
    "sand_timer_paused_for": {
        "white": _l("Sand timer for White's Encryptor, paused:"),
        "black": _l("Sand timer for Black's Encryptor, paused:"),
        "team": _l("Sand timer for the team's Encryptor, paused:"),
    },
    # what a stale guess missed (keyed by the transmitting side; rules.targets.guess)
    "stale_guess_sealed_by": {
        "white": _l("the guess for White's code was already sealed by %(name)s."),
        "black": _l("the guess for Black's code was already sealed by %(name)s."),
        "team": _l("the guess for the team's code was already sealed by %(name)s."),
    },
    "stale_guess_sealed": {
        "white": _l("the guess for White's code was already sealed."),
        "black": _l("the guess for Black's code was already sealed."),
        "team": _l("the guess for the team's code was already sealed."),
    },
    "stale_transmission_revealed": {
        "white": _l("White's code has already been revealed."),
        "black": _l("Black's code has already been revealed."),
        "team": _l("the team's code has already been revealed."),
    },
    "stale_transmission_not_open": {
        "white": _l("White's code is not the one being guessed now."),
        "black": _l("Black's code is not the one being guessed now."),
        "team": _l("the team's code is not the one being guessed now."),
    },
    # a new phone waiting for a seat, on the table screen: when it takes the seat by itself (keyed by its side)
    "waiting_phone": {
        "white": _l(
            "A new phone waits for %(name)s's seat on White: a White phone lets it in, or, if none is used before %(time)s, it takes the seat by itself then."
        ),
        "black": _l(
            "A new phone waits for %(name)s's seat on Black: a Black phone lets it in, or, if none is used before %(time)s, it takes the seat by itself then."
        ),
        "team": _l(
            "A new phone waits for %(name)s's seat in the team: a phone of the team lets it in, or, if none is used before %(time)s, it takes the seat by itself then."
        ),
        "interceptor": _l(
            "A new phone waits for the Interceptor's seat (%(name)s): the Interceptor's phone lets it in, or, if it is not used before %(time)s, the new phone takes the seat by itself then."
        ),
    },
    # a seat a new phone took while no phone of its team was in use (keyed by the seat's side)
    "unattended_claim": {
        "white": _l(
            "At %(time)s a new phone took %(name)s's seat on White while no White phone was in use: nobody of White let it in."
        ),
        "black": _l(
            "At %(time)s a new phone took %(name)s's seat on Black while no Black phone was in use: nobody of Black let it in."
        ),
        "team": _l(
            "At %(time)s a new phone took %(name)s's seat in the team while no phone of the team was in use: nobody of the team let it in."
        ),
        "interceptor": _l(
            "At %(time)s a new phone took the Interceptor's seat (%(name)s) while the Interceptor's phone was not in use: nobody let it in."
        ),
    },
    # the table log
    "notice_swapped": {
        "white": _l("White swapped one of its keywords."),
        "black": _l("Black swapped one of its keywords."),
        "team": _l("The team swapped one of its keywords."),
    },
    "notice_skipped": {
        "white": _l("%(name)s stepped away; %(next)s is White's Encryptor this round."),
        "black": _l("%(name)s stepped away; %(next)s is Black's Encryptor this round."),
        "team": _l("%(name)s stepped away; %(next)s is the team's Encryptor this round."),
    },
    "notice_clues_taken_back": {
        "white": _l("The table took back White's clues: the Encryptor enters them again."),
        "black": _l("The table took back Black's clues: the Encryptor enters them again."),
        "team": _l("The table took back the team's clues: the Encryptor enters them again."),
    },
    "notice_decryption_taken_back": {
        "white": _l("The table took back White's sealed guess on its own code."),
        "black": _l("The table took back Black's sealed guess on its own code."),
        "team": _l("The table took back the team's sealed guess on its own code."),
    },
    "notice_interception_taken_back": {
        "white": _l("The table took back Black's sealed guess on White's code."),
        "black": _l("The table took back White's sealed guess on Black's code."),
        "team": _l("The table took back the Interceptor's sealed guess on the team's code."),
    },
    "notice_correction_proposed": {
        "white": _l("The table asks to correct round %(round)s's reveal of White's code."),
        "black": _l("The table asks to correct round %(round)s's reveal of Black's code."),
        "team": _l("The table asks to correct round %(round)s's reveal of the team's code."),
    },
    "notice_corrected": {
        "white": _l("Corrected: White's transmission now reads decryption %(decryption)s."),
        "black": _l("Corrected: Black's transmission now reads decryption %(decryption)s."),
        "team": _l("Corrected: the team's transmission now reads decryption %(decryption)s."),
    },
    # keyed by the side that answers
    "notice_confirmed": {
        "white": _l("White confirmed the correction."),
        "black": _l("Black confirmed the correction."),
        "team": _l("The team confirmed the correction."),
        "interceptor": _l("The Interceptor confirmed the correction."),
    },
    "notice_rejected": {
        "white": _l("White rejected the correction: nothing changed."),
        "black": _l("Black rejected the correction: nothing changed."),
        "team": _l("The team rejected the correction: nothing changed."),
        "interceptor": _l("The Interceptor rejected the correction: nothing changed."),
    },
    # tokens and the end (keyed by the side that holds them, or wins)
    "tokens_of": {
        "white": _l("White's tokens"),
        "black": _l("Black's tokens"),
        "interceptor": _l("The Interceptor's tokens"),
    },
    "wins": {
        "white": _l("White wins!"),
        "black": _l("Black wins!"),
        "team": _l("The team wins!"),
        "interceptor": _l("The Interceptor wins!"),
    },
    # the tiebreak (standard game only; keyed by the guessing side)
    "guessed_keywords_of": {
        "white": _l("White's guesses at Black's keywords"),
        "black": _l("Black's guesses at White's keywords"),
    },
    "guessed_right": {
        "white": N_plural(
            "White guessed %(num)s of Black's 4 keywords:", "White guessed %(num)s of Black's 4 keywords:"
        ),
        "black": N_plural(
            "Black guessed %(num)s of White's 4 keywords:", "Black guessed %(num)s of White's 4 keywords:"
        ),
    },
    "guessed": {"white": _l("White guessed:"), "black": _l("Black guessed:")},
    "keyword_of": {"white": _l("White's keyword %(number)s"), "black": _l("Black's keyword %(number)s")},
}
