"""`decide(game, command, actor, rng) -> events`: what a command does, or the RuleError it breaks.

A command is a dict with a "type"; an actor says who sends it (host, a team's join link, a seat).
Nothing here mutates `game`; randomness comes only from `rng` and is written into the events.
"""

from __future__ import annotations

import random
import unicodedata
from collections import Counter
from dataclasses import dataclass

from . import round_end as end
from . import three_player
from .codes import draw_code, parse_guess
from .errors import RuleError
from .state import (KEYWORD_GUESSING, KEYWORD_JUDGING, LOBBY, MODES, OVER, PLAYING, STANDARD, TEAMS, Game,
                    apply, other, replay)
from .words import contains_word, distinct_words, normalize, same_word, words_of

NAME_LENGTH = (2, 20)
CLUE_MAX_LENGTH = 60
KEYWORD_GUESS_MAX_LENGTH = 40
WORD_MAX_LENGTH = 40
MIN_WORDS = 8                     # a custom list must hold at least this many distinct words
MAX_WORDS = 500                   # fits the request size limit with room to spare
TIMER_SECONDS = (10, 600)         # the sand timer's allowed lengths; 30 is the rulebook's
LANGUAGES = ("en", "fr", "ko")       # each has a keyword pack and a catalogue
_ZERO_WIDTH_JOINER = "\u200d"   # inside emoji like 👩‍🚀; every other invisible character is refused
# Letters that print as nothing (Hangul fillers, the blank braille pattern): they don't make a text visible.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


@dataclass(frozen=True)
class Actor:
    """Who sends a command; always derived from a capability token, never from the request body."""
    kind: str                 # "host", "join", "seat", "spectator"
    team: str | None = None   # for "join" and "seat"
    seat: int | None = None   # for "seat"; for "join", the seat this phone already holds, if any


HOST = Actor("host")


# What may still be done while a correction waits for both teams' answers.
_DURING_CORRECTION = ("answer_correction", "withdraw_correction", "issue_seat_link", "cancel_seat_link",
                      "claim_seat")


def decide(game: Game, command: dict, actor: Actor, rng: random.Random) -> list[dict]:
    handler = _HANDLERS.get(command.get("type"))
    if handler is None:
        raise RuleError("unknown_command")
    if game.correction is not None and command["type"] not in _DURING_CORRECTION:
        raise RuleError("correction_pending")
    return handler(game, command, actor, rng)


# --- helpers ------------------------------------------------------------------------------

def _clean_text(value, max_length: int, error: str) -> str:
    """Trimmed text with single spaces; refuses non-strings, control characters and overlong text."""
    if not isinstance(value, str):
        raise RuleError(error)
    text = " ".join(unicodedata.normalize("NFC", value).split())
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") and c != _ZERO_WIDTH_JOINER for c in text):
        raise RuleError("text_has_control_characters")
    if len(text) > max_length:
        raise RuleError("text_too_long", limit=max_length)
    return text if _visible(text) else ""      # a text nobody can see counts as empty


def _visible(text: str) -> bool:
    """At least one character that prints: a letter, digit, punctuation mark or symbol."""
    return any(unicodedata.category(c)[0] in "LNPS" and c not in _BLANK_LETTERS for c in text)


# The refusal for a command sent in the wrong phase, by the phase the game is in.
PHASE_REFUSALS = {LOBBY: "game_not_started", PLAYING: "game_in_progress", KEYWORD_GUESSING: "tiebreak_in_progress",
                  KEYWORD_JUDGING: "judging_in_progress", OVER: "game_over"}


def _require_phase(game: Game, *phases: str) -> None:
    if game.phase not in phases:
        raise RuleError(PHASE_REFUSALS[game.phase])


def _require_host(actor: Actor) -> None:
    if actor.kind != "host":
        raise RuleError("host_only")


def _seated_player(game: Game, actor: Actor):
    player = game.player(actor.seat) if actor.kind == "seat" else None
    if player is None:
        raise RuleError("players_only")
    return player


def _require_real_game(game: Game) -> None:
    """Seats of a try-out are fixed: it can never take in real players."""
    if game.settings.try_out:
        raise RuleError("try_out_fixed_seats")


def _player_at(game: Game, command: dict):
    seat = command.get("seat")
    player = game.player(seat) if isinstance(seat, int) and not isinstance(seat, bool) else None
    if player is None:
        raise RuleError("no_such_player")
    return player


def _parse_code(value):
    code = parse_guess(value)
    if code is None:
        raise RuleError("guess_malformed")
    return code


def _after_resolution(game: Game, rng: random.Random) -> list[dict]:
    """Once every transmission of the round is resolved: a result, a tiebreak or the next round."""
    if game.three_player:
        outcome = three_player.round_end(game.tokens[three_player.INTERCEPTOR].interceptions, game.round.number)
        if outcome is None:
            return [_round_started(game, game.round.number + 1, rng)]
        winner, reason = outcome
        return [{"type": "game_ended", "winners": [winner], "reason": reason}]
    outcome = end.round_end(game.tokens, game.round.number)
    if outcome is None:
        return [_round_started(game, game.round.number + 1, rng)]
    kind, detail = outcome
    if kind == "win":
        winner, reason = detail
        return [{"type": "game_ended", "winners": [winner], "reason": reason}]
    leader = end.score_winner(game.tokens)
    if leader is not None:
        return [{"type": "game_ended", "winners": [leader], "reason": end.SCORE, "cause": detail}]
    return [{"type": "tiebreak_started", "cause": detail}]


def _round_started(game: Game, number: int, rng: random.Random) -> dict:
    return {"type": "round_started", "round": number,
            "codes": {team: list(draw_code(rng)) for team in game.transmitting}}


def _words(game: Game, command: dict) -> list[str]:
    """The words to deal from: the host's own list, else the language's pack the service passed in."""
    return distinct_words(game.settings.words or command.get("words") or ())


def _deal(game: Game, command: dict, rng: random.Random) -> dict[str, list[str]]:
    """Four distinct keywords for each team that has a screen; no word is on two screens.

    A rematch prefers words not dealt before in this game, when enough remain."""
    distinct = _words(game, command)
    fresh = spare_words(game, distinct)
    teams = game.transmitting
    pool = fresh if len(fresh) >= 4 * len(teams) else distinct
    if len(pool) < 4 * len(teams):
        raise RuleError("not_enough_words")
    dealt = rng.sample(pool, 4 * len(teams))     # without replacement from distinct words
    return {team: dealt[4 * i:4 * i + 4] for i, team in enumerate(teams)}


def spare_words(game: Game, words) -> list[str]:
    """The words not dealt yet in this game (a keyword swap draws from them)."""
    return [w for w in words if not any(same_word(w, d) for d in game.dealt)]


def custom_words(text) -> list[str]:
    """The host's own word list (one per line, or separated by commas), or the RuleError saying what is wrong."""
    if not isinstance(text, str):
        raise RuleError("words_malformed")
    words = [_clean_text(w, WORD_MAX_LENGTH, "words_malformed")
             for line in text.splitlines() for w in line.split(",")]
    words = [w for w in words if w]
    if len(words) > MAX_WORDS:
        raise RuleError("too_many_words", max=MAX_WORDS)
    distinct = distinct_words(words)
    if len(distinct) < MIN_WORDS:
        repeated = sorted(Counter(words) - Counter(distinct))     # every copy after a word's first
        raise RuleError("too_few_words", count=len(distinct), min=MIN_WORDS,
                        repeated=", ".join(repeated) if repeated else "-")
    return distinct


# --- commands -----------------------------------------------------------------------------

def _create(game, command, actor, rng):
    """A new game. A try-out (`try_out`) comes with its seats filled by the names in `players`."""
    if game.players or game.phase != LOBBY:
        raise RuleError("game_exists")
    language = command.get("language", "en")
    if language not in LANGUAGES:
        raise RuleError("unknown_language")
    mode = command.get("mode", STANDARD)
    if mode not in MODES:
        raise RuleError("unknown_mode")
    timer = _timer(command)
    words = command.get("words")
    created = {"type": "game_created", "language": language, "mode": mode, "timer": timer,
               "words": custom_words(words) if words is not None else None,
               "try_out": command.get("try_out") is True}
    events = [created]
    if created["try_out"]:
        after = apply(game, created)
        names = command.get("players") or {}
        for team in TEAMS:
            for name in names.get(team, ())[:after.team_sizes(team)[1]]:
                events.append({"type": "player_joined", "seat": len(events), "team": team, "name": name})
    return events


def _timer(command: dict) -> int | None:
    """The sand timer's seconds from a command (None: no timer), or the RuleError saying what is allowed."""
    timer = command.get("timer")
    if timer is not None and (type(timer) is not int or not TIMER_SECONDS[0] <= timer <= TIMER_SECONDS[1]):
        raise RuleError("timer_length", min=TIMER_SECONDS[0], max=TIMER_SECONDS[1])
    return timer


def _join(game, command, actor, rng):
    if actor.kind != "join":
        raise RuleError("join_link_only")
    _require_phase(game, LOBBY)
    _require_real_game(game)
    if game.joining_locked:
        raise RuleError("joining_locked")
    name = _clean_text(command.get("name"), NAME_LENGTH[1], "name_required")
    if not name:
        raise RuleError("name_required")
    if len(name) < NAME_LENGTH[0]:
        raise RuleError("name_length", min=NAME_LENGTH[0], max=NAME_LENGTH[1])
    _check_room(game, actor.team, name)
    seat = max((p.seat for p in game.players), default=0) + 1
    joined = {"type": "player_joined", "seat": seat, "team": actor.team, "name": name}
    # A phone already seated in this game (its seat comes from its cookie) switches teams.
    current = game.player(actor.seat) if actor.seat is not None else None
    if current is not None:
        if current.team == actor.team:
            raise RuleError("already_seated")
        return [{"type": "player_left", "seat": current.seat}, joined]
    return [joined]


def _check_room(game: Game, team: str, name: str) -> None:
    """A player called `name` may sit on `team`: it is not full and nobody there has that name."""
    players = game.team_players(team)
    most = game.team_sizes(team)[1]
    if len(players) >= most:
        raise RuleError("team_full", max=most)
    if any(normalize(p.name) == normalize(name) for p in players):
        raise RuleError("name_taken", name=name)


START_PROBLEMS = ("team_size", "teams_uneven", "three_player_seats")    # the codes start_problem answers


def start_problem(game: Game) -> RuleError | None:
    """Why the teams as seated can't start yet, or None.

    Standard game: 2-4 players a team, as even as possible. Three players: two in the team, one Interceptor."""
    sizes = {team: len(game.team_players(team)) for team in TEAMS}
    if game.three_player:
        if any(sizes[team] != three_player.SIZES[team] for team in TEAMS):
            return RuleError("three_player_seats", players=sizes[three_player.TEAM],
                             interceptors=sizes[three_player.INTERCEPTOR])
        return None
    for team in TEAMS:
        least, most = game.team_sizes(team)
        if not least <= sizes[team] <= most:
            return RuleError("team_size", team=team, min=least, max=most)
    if abs(sizes["white"] - sizes["black"]) > 1:
        return RuleError("teams_uneven", team=max(TEAMS, key=sizes.get), **sizes)
    return None


def _start(game, command, actor, rng):
    _require_host(actor)
    _require_phase(game, LOBBY)
    problem = start_problem(game)
    if problem:
        raise problem
    started = {"type": "game_started", "keywords": _deal(game, command, rng)}
    return [started, _round_started(apply(game, started), 1, rng)]


def _rematch(game, command, actor, rng):
    """A new match: back to the lobby with the same seats and settings; the host starts it as a new game."""
    _require_host(actor)
    _require_phase(game, OVER)
    return [{"type": "rematch_started"}]


# --- host corrections ---------------------------------------------------------------------

def _lock_joining(game, command, actor, rng):
    _require_host(actor)
    _require_phase(game, LOBBY)
    _require_real_game(game)
    locked = command.get("locked")
    if not isinstance(locked, bool):
        raise RuleError("locked_malformed")
    if locked == game.joining_locked:
        raise RuleError("already_locked" if locked else "already_open")
    return [{"type": "joining_locked", "locked": locked}]


def _move_player(game, command, actor, rng):
    _require_host(actor)
    _require_phase(game, LOBBY)
    _require_real_game(game)
    player = _player_at(game, command)
    _check_room(game, other(player.team), player.name)
    return [{"type": "player_moved", "seat": player.seat, "team": other(player.team)}]


def _switch_team(game, command, actor, rng):
    """A seated player moves to the other team themselves (before the start, while joining is open)."""
    player = _seated_player(game, actor)
    _require_phase(game, LOBBY)
    _require_real_game(game)
    if game.joining_locked:
        raise RuleError("joining_locked")
    _check_room(game, other(player.team), player.name)
    return [{"type": "player_moved", "seat": player.seat, "team": other(player.team)}]


def _shuffle_teams(game, command, actor, rng):
    """The seated players split at random, as evenly as possible; two players of the same name stay apart.

    Three players: the Interceptor is drawn at random, the others form the team."""
    _require_host(actor)
    _require_phase(game, LOBBY)
    _require_real_game(game)
    if len(game.players) < 2:
        raise RuleError("too_few_to_shuffle")
    # Same-name pairs (one a team at most) go next to each other, so alternating teams splits them.
    groups: dict[str, list[int]] = {}
    for p in game.players:
        groups.setdefault(normalize(p.name), []).append(p.seat)
    groups = list(groups.values())
    rng.shuffle(groups)
    for group in groups:
        rng.shuffle(group)
    seats = [seat for group in groups for seat in group]
    teams = list(TEAMS)
    if not game.three_player:        # the team that gets an odd player out; White holds the three-player team
        rng.shuffle(teams)
    dealt = {team: seats[i::2] for i, team in enumerate(teams)}
    return [{"type": "teams_shuffled", **dealt}]


def _set_timer(game, command, actor, rng):
    """The host changes the sand timer (seconds, or null for none) before the start."""
    _require_host(actor)
    _require_phase(game, LOBBY)
    if "timer" not in command:          # null turns the timer off; a missing field says nothing
        raise RuleError("timer_length", min=TIMER_SECONDS[0], max=TIMER_SECONDS[1])
    return [{"type": "timer_set", "timer": _timer(command)}]


def _remove_player(game, command, actor, rng):
    _require_host(actor)
    _require_phase(game, LOBBY)
    _require_real_game(game)
    return [{"type": "player_removed", "seat": _player_at(game, command).seat}]


def _skip_encryptor(game, command, actor, rng):
    """The next teammate takes the round (with a fresh code: the one who stepped away may have seen it)."""
    _require_host(actor)
    _require_phase(game, PLAYING)
    team = command.get("team")
    if not isinstance(team, str) or team not in game.round.transmissions:
        raise RuleError("no_such_team")
    if game.round.transmissions[team].clues is not None:
        raise RuleError("clues_already_announced")
    if len(game.team_players(team)) < 2:
        raise RuleError("nobody_to_skip_to")
    return [{"type": "encryptor_skipped", "team": team, "code": list(draw_code(rng))}]


def last_entry(game: Game) -> dict | None:
    """The last guess or clue entry not revealed yet, which the table screen may take back.

    A sealed guess of the transmission being guessed comes first; else the latest clues of a
    transmission not resolved yet."""
    if game.phase != PLAYING:
        return None
    number = game.round.number
    current = game.round.current
    if current is not None:
        for team in TEAMS:
            if current.guess_by(team).sealed:
                return {"entry": "guess", "round": number, "transmission": current.team, "by": team}
    for team in reversed(game.round.announced):
        if not game.round.transmissions[team].resolved:
            return {"entry": "clues", "round": number, "transmission": team}
    return None


def _take_back(game, command, actor, rng):
    _require_host(actor)
    _require_phase(game, PLAYING)
    entry = last_entry(game)
    if entry is None:
        raise RuleError("nothing_to_take_back")
    return [{"type": "entry_taken_back", **entry}]


def correctable(game: Game):
    """The last reveal, (round, transmission), while nothing but what followed it by itself came after it."""
    if game.phase not in (PLAYING, KEYWORD_GUESSING, OVER) or not game.rounds:
        return None
    for r in reversed(game.rounds):
        transmission = r.last_resolved
        if transmission is not None:
            break
        if any(t.clues is not None for t in r.transmissions.values()):
            return None          # a later round is under way
    else:
        return None
    if game.tiebreak and any(game.tiebreak.keyword_guesses.values()):
        return None
    return r, transmission


def _propose_correction(game, command, actor, rng):
    _require_host(actor)
    found = correctable(game)
    if found is None:
        raise RuleError("nothing_to_correct")
    r, transmission = found
    decryption = _parse_code(command.get("decryption"))
    interception = _parse_code(command.get("interception")) if r.interception_allowed else None
    if decryption == transmission.decryption.code and interception == (
            transmission.interception.code if r.interception_allowed else None):
        raise RuleError("correction_changes_nothing")
    return [{"type": "correction_proposed", "round": r.number, "team": transmission.team,
             "decryption": list(decryption), "interception": list(interception) if interception else None}]


def _answer_correction(game, command, actor, rng):
    """Each side at the table (both teams; the team and the Interceptor) confirms or rejects the correction."""
    player = _seated_player(game, actor)
    correction = game.correction
    if correction is None:
        raise RuleError("no_correction")
    if player.team in correction.confirmed:
        raise RuleError("correction_already_confirmed")
    accept = command.get("accept")
    if not isinstance(accept, bool):
        raise RuleError("accept_malformed")
    events = [{"type": "correction_answered", "team": player.team, "accept": accept}]
    if not accept or correction.confirmed | {player.team} != set(TEAMS):
        return events
    r, transmission = correctable(game)
    code = transmission.code
    corrected = {"type": "reveal_corrected", "round": r.number, "team": transmission.team,
                 "decryption": list(correction.decryption),
                 "interception": list(correction.interception) if correction.interception else None,
                 "intercepted": correction.interception == code, "miscommunicated": correction.decryption != code}
    if not r.finished:
        return events + [corrected]
    # The corrected reveal ended its round: judge that round's end again.
    reopened = {"type": "round_reopened", "round": r.number}
    after = replay(events + [reopened, corrected], game)
    return events + [reopened, corrected] + _after_resolution(after, rng)


def _withdraw_correction(game, command, actor, rng):
    _require_host(actor)
    if game.correction is None:
        raise RuleError("no_correction")
    return [{"type": "correction_withdrawn"}]


def _swap_keyword(game, command, actor, rng):
    """Before round 1 gets going, each team may swap one keyword for a fresh one, once."""
    player = _seated_player(game, actor)
    _require_phase(game, PLAYING)
    if player.team not in game.keywords:
        raise RuleError("no_keywords")
    if game.round.number != 1 or game.round.transmissions[player.team].clues is not None:
        raise RuleError("swap_too_late")
    if player.team in game.swapped:
        raise RuleError("already_swapped")
    number = command.get("number")
    if type(number) is not int or number not in (1, 2, 3, 4):     # not True, not 2.0
        raise RuleError("keyword_number")
    fresh = spare_words(game, _words(game, command))
    if not fresh:
        raise RuleError("no_spare_words")
    return [{"type": "keyword_swapped", "team": player.team, "number": number, "word": rng.choice(fresh)}]


# --- seats --------------------------------------------------------------------------------

def _issue_seat_link(game, command, actor, rng):
    """A fresh link to a player's seat, for a new phone (the service mints the token)."""
    _require_host(actor)
    return [{"type": "seat_link_issued", "seat": _player_at(game, command).seat}]


def _cancel_seat_link(game, command, actor, rng):
    """The player's old phone came back, or the link was shown by mistake: the link stops working."""
    _require_host(actor)
    seat = _player_at(game, command).seat
    if seat not in game.seat_links:
        raise RuleError("no_seat_link")
    return [{"type": "seat_link_cancelled", "seat": seat}]


def _claim_seat(game, command, actor, rng):
    if actor.kind != "handoff" or actor.seat not in game.seat_links:
        raise RuleError("seat_link_only")
    return [{"type": "seat_claimed", "seat": actor.seat}]


def _announce_clues(game, command, actor, rng):
    player = _seated_player(game, actor)
    _require_phase(game, PLAYING)
    transmission = game.round.transmissions.get(player.team)
    if transmission is None or transmission.encryptor != player.seat:
        raise RuleError("not_encryptor")
    if transmission.clues is not None:
        raise RuleError("clues_already_announced")
    raw = command.get("clues")
    if not isinstance(raw, (list, tuple)) or len(raw) != 3:
        raise RuleError("three_clues")
    clues = [_clean_text(c, CLUE_MAX_LENGTH, "clue_empty") for c in raw]
    for position, clue in enumerate(clues, start=1):
        if not clue:
            raise RuleError("clue_empty", position=position)
        keyword = next((k for k in game.keywords[player.team] if contains_word(clue, k)), None)
        if keyword is not None:
            raise RuleError("clue_is_keyword", clue=clue, keyword=keyword)
        if any(str(digit) in words_of(clue) for digit in transmission.code):
            raise RuleError("clue_is_code_digit", clue=clue)     # the Korean rulebook: never the code's digits
        if any(same_word(clue, used) for used in game.clues_used(player.team)):
            raise RuleError("clue_reused", clue=clue)
        if any(same_word(clue, earlier) for earlier in clues[:position - 1]):
            raise RuleError("clue_repeated", clue=clue)
    at = command.get("at")      # the service's clock, for the sand timer; never from a request
    return [{"type": "clues_announced", "team": player.team, "clues": clues,
             "at": at if isinstance(at, (int, float)) else None}]


def _guess(game, command, actor, rng):
    player = _seated_player(game, actor)
    _require_phase(game, PLAYING)
    transmission = game.round.current
    if transmission is None:
        raise RuleError("clues_not_announced")
    own = player.team == transmission.team
    if own and transmission.encryptor == player.seat:
        raise RuleError("encryptor_cannot_guess")
    if not own and not game.round.interception_allowed:
        raise RuleError("no_interception_round_one")
    guess = transmission.guess_by(player.team)
    if guess.sealed:
        raise RuleError("guess_sealed")
    code = _parse_code(command.get("code"))
    confirm = command.get("confirm", False)
    if not isinstance(confirm, bool):
        raise RuleError("guess_malformed")
    events = [{"type": "guess_saved", "transmission": transmission.team, "by": player.team,
               "code": list(code), "sealed": confirm}]
    after = replay(events, game)
    current = after.round.current
    needed = [current.decryption] + ([current.interception] if after.round.interception_allowed else [])
    if all(g.sealed for g in needed):
        resolved = {
            "type": "transmission_resolved", "team": current.team, "code": list(current.code),
            "intercepted": after.round.interception_allowed and current.interception.code == current.code,
            "miscommunicated": current.decryption.code != current.code}
        events.append(resolved)
        after = apply(after, resolved)
        if after.round.current is None:   # every transmission of the round is resolved
            events += _after_resolution(after, rng)
    return events


def _keyword_guesses(game, command, actor, rng):
    player = _seated_player(game, actor)
    _require_phase(game, KEYWORD_GUESSING)
    if game.tiebreak.keyword_guesses[player.team] is not None:
        raise RuleError("keyword_guesses_sealed")
    raw = command.get("guesses")
    if not isinstance(raw, (list, tuple)) or len(raw) != 4:
        raise RuleError("four_keyword_guesses")
    guesses = [_clean_text(g, KEYWORD_GUESS_MAX_LENGTH, "four_keyword_guesses") for g in raw]
    return [{"type": "keyword_guesses_sealed", "team": player.team, "guesses": guesses}]


def _judge_keywords(game, command, actor, rng):
    _require_host(actor)
    _require_phase(game, KEYWORD_JUDGING)
    raw = command.get("verdicts")
    if not isinstance(raw, dict) or set(raw) != set(TEAMS) or not all(
            isinstance(raw[t], (list, tuple)) and len(raw[t]) == 4
            and all(isinstance(v, bool) for v in raw[t]) for t in TEAMS):
        raise RuleError("verdicts_malformed")
    verdicts = {team: list(raw[team]) for team in TEAMS}
    winners, reason = end.keyword_result(verdicts)
    return [{"type": "keywords_judged", "verdicts": verdicts},
            {"type": "game_ended", "winners": list(winners), "reason": reason,
             "cause": game.tiebreak.cause}]


def proposed_verdicts(game: Game) -> dict[str, list[bool]]:
    """The app's proposal for the keyword tiebreak: a guess matches the keyword at its number
    when they are the same word but for case, accents or a plural ending."""
    guesses = game.tiebreak.keyword_guesses
    return {team: [bool(guesses[team]) and same_word(guess, keyword)
                   for guess, keyword in zip(guesses[team] or ("",) * 4, game.keywords[other(team)])]
            for team in TEAMS}


_HANDLERS = {
    "create": _create,
    "join": _join,
    "lock_joining": _lock_joining,
    "move_player": _move_player,
    "switch_team": _switch_team,
    "shuffle_teams": _shuffle_teams,
    "set_timer": _set_timer,
    "remove_player": _remove_player,
    "start": _start,
    "swap_keyword": _swap_keyword,
    "skip_encryptor": _skip_encryptor,
    "take_back": _take_back,
    "propose_correction": _propose_correction,
    "answer_correction": _answer_correction,
    "withdraw_correction": _withdraw_correction,
    "issue_seat_link": _issue_seat_link,
    "cancel_seat_link": _cancel_seat_link,
    "claim_seat": _claim_seat,
    "rematch": _rematch,
    "announce_clues": _announce_clues,
    "guess": _guess,
    "keyword_guesses": _keyword_guesses,
    "judge_keywords": _judge_keywords,
}
