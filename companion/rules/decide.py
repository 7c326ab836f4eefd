"""`decide(game, command, actor, rng) -> events`: what a command does, or the RuleError it breaks.

A command is a dict with a "type"; an actor says who sends it (host, a team's join link, a seat).
Nothing here mutates `game`; randomness comes only from `rng` and is written into the events.
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass

from . import round_end as end
from .codes import draw_code, parse_guess
from .errors import RuleError
from .state import (KEYWORD_GUESSING, KEYWORD_JUDGING, LOBBY, MAX_TEAM, MIN_TEAM, OVER, PLAYING, TEAMS,
                    Game, apply, other, replay)
from .words import contains_word, distinct_words, normalize, same_word

NAME_LENGTH = (2, 20)
CLUE_MAX_LENGTH = 60
KEYWORD_GUESS_MAX_LENGTH = 40
LANGUAGES = ("en",)
_ZERO_WIDTH_JOINER = "\u200d"   # inside emoji like 👩‍🚀; every other invisible character is refused


@dataclass(frozen=True)
class Actor:
    """Who sends a command; always derived from a capability token, never from the request body."""
    kind: str                 # "host", "join", "seat", "spectator"
    team: str | None = None   # for "join" and "seat"
    seat: int | None = None   # for "seat"; for "join", the seat this phone already holds, if any


HOST = Actor("host")


def decide(game: Game, command: dict, actor: Actor, rng: random.Random) -> list[dict]:
    handler = _HANDLERS.get(command.get("type"))
    if handler is None:
        raise RuleError("unknown_command")
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
    return text


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


def _after_resolution(game: Game, rng: random.Random) -> list[dict]:
    """Once both transmissions are resolved: a result, a tiebreak or the next round."""
    outcome = end.round_end(game.tokens, game.round.number)
    if outcome is None:
        return [_round_started(game.round.number + 1, rng)]
    kind, detail = outcome
    if kind == "win":
        winner, reason = detail
        return [{"type": "game_ended", "winners": [winner], "reason": reason}]
    leader = end.score_winner(game.tokens)
    if leader is not None:
        return [{"type": "game_ended", "winners": [leader], "reason": end.SCORE, "cause": detail}]
    return [{"type": "tiebreak_started", "cause": detail}]


def _round_started(number: int, rng: random.Random) -> dict:
    return {"type": "round_started", "round": number,
            "codes": {team: list(draw_code(rng)) for team in TEAMS}}


# --- commands -----------------------------------------------------------------------------

def _create(game, command, actor, rng):
    if game.players or game.phase != LOBBY:
        raise RuleError("game_exists")
    language = command.get("language", "en")
    if language not in LANGUAGES:
        raise RuleError("unknown_language")
    return [{"type": "game_created", "language": language}]


def _join(game, command, actor, rng):
    if actor.kind != "join":
        raise RuleError("join_link_only")
    _require_phase(game, LOBBY)
    name = _clean_text(command.get("name"), NAME_LENGTH[1], "name_required")
    if len(name) < NAME_LENGTH[0]:
        raise RuleError("name_length", min=NAME_LENGTH[0], max=NAME_LENGTH[1])
    team = game.team_players(actor.team)
    if len(team) >= MAX_TEAM:
        raise RuleError("team_full", max=MAX_TEAM)
    if any(normalize(p.name) == normalize(name) for p in team):
        raise RuleError("name_taken", name=name)
    seat = max((p.seat for p in game.players), default=0) + 1
    joined = {"type": "player_joined", "seat": seat, "team": actor.team, "name": name}
    # A phone already seated in this game (its seat comes from its cookie) switches teams.
    current = game.player(actor.seat) if actor.seat is not None else None
    if current is not None:
        if current.team == actor.team:
            raise RuleError("already_seated")
        return [{"type": "player_left", "seat": current.seat}, joined]
    return [joined]


def start_problem(game: Game) -> RuleError | None:
    """Why the teams as seated can't start yet (2-4 players each, as even as possible), or None."""
    sizes = {team: len(game.team_players(team)) for team in TEAMS}
    for team in TEAMS:
        if not MIN_TEAM <= sizes[team] <= MAX_TEAM:
            return RuleError("team_size", team=team, min=MIN_TEAM, max=MAX_TEAM)
    if abs(sizes["white"] - sizes["black"]) > 1:
        return RuleError("teams_uneven", team=max(TEAMS, key=sizes.get), **sizes)
    return None


def _start(game, command, actor, rng):
    _require_host(actor)
    _require_phase(game, LOBBY)
    problem = start_problem(game)
    if problem:
        raise problem
    distinct = distinct_words(command.get("words") or ())
    if len(distinct) < 8:
        raise RuleError("not_enough_words")
    # Sampling without replacement from distinct words: no word is on both screens.
    dealt = rng.sample(distinct, 8)
    keywords = {"white": dealt[:4], "black": dealt[4:]}
    return [{"type": "game_started", "keywords": keywords}, _round_started(1, rng)]


def _announce_clues(game, command, actor, rng):
    player = _seated_player(game, actor)
    _require_phase(game, PLAYING)
    transmission = game.round.transmissions[player.team]
    if transmission.encryptor != player.seat:
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
        if any(same_word(clue, used) for used in game.clues_used(player.team)):
            raise RuleError("clue_reused", clue=clue)
        if any(same_word(clue, earlier) for earlier in clues[:position - 1]):
            raise RuleError("clue_repeated", clue=clue)
    return [{"type": "clues_announced", "team": player.team, "clues": clues}]


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
    code = parse_guess(command.get("code"))
    if code is None:
        raise RuleError("guess_malformed")
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
        if after.round.current is None:   # both transmissions of the round are resolved
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
    "start": _start,
    "announce_clues": _announce_clues,
    "guess": _guess,
    "keyword_guesses": _keyword_guesses,
    "judge_keywords": _judge_keywords,
}
