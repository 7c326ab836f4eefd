"""Commands of the rounds and the tiebreak: swapping a keyword, clues, guesses, keyword guesses, verdicts."""

from __future__ import annotations

import random

from . import round_end as end
from . import three_player
from .errors import RuleError
from .fields import BOOLEAN, CLUES, CODE, DIGIT, KEYWORD_GUESSES, VERDICTS
from .guards import Actor, CommandBody, require_phase, seated_player
from .lobby import round_started, words_to_deal
from .queries import spare_words, swap_problem
from .event import Event
from .events import (
    CluesAnnounced,
    GameEnded,
    GuessSaved,
    KeywordGuessesSealed,
    KeywordsJudged,
    KeywordSwapped,
    TiebreakStarted,
    TransmissionResolved,
)
from .fold import apply, replay
from .state import KEYWORD_GUESSING, KEYWORD_JUDGING, PLAYING, Game
from .text import CLUE_MAX_LENGTH, KEYWORD_GUESS_MAX_LENGTH, clean_text
from .words import contains_word, same_word, words_of


def swap_keyword(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """Before round 1 gets going, each team may swap one keyword for a fresh one, once."""
    player = seated_player(game, actor)
    require_phase(game, PLAYING)
    words = words_to_deal(game, command)
    problem = swap_problem(game, player.team, words)
    if problem is not None and problem != "no_spare_words":
        raise RuleError(problem)
    number = DIGIT.parse(command.get("number"), "keyword_number")
    if problem is not None:
        raise RuleError(problem)
    fresh = spare_words(game, words)
    return [KeywordSwapped(team=player.team, number=number, word=rng.choice(fresh))]


def announce_clues(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    player = seated_player(game, actor)
    require_phase(game, PLAYING)
    transmission = game.latest_round.transmissions.get(player.team)
    if transmission is None or transmission.encryptor != player.seat:
        raise RuleError("not_encryptor")
    if transmission.clues is not None:
        raise RuleError("clues_already_announced")
    raw = CLUES.parse(command.get("clues"), "three_clues")
    clues = [clean_text(c, CLUE_MAX_LENGTH, "clue_empty") for c in raw]
    for position, clue in enumerate(clues, start=1):
        if not clue:
            raise RuleError("clue_empty", position=position)
        keyword = next((k for k in game.keywords[player.team] if contains_word(clue, k)), None)
        if keyword is not None:
            raise RuleError("clue_is_keyword", clue=clue, keyword=keyword)
        if any(str(digit) in words_of(clue) for digit in transmission.code):
            raise RuleError("clue_is_code_digit", clue=clue)  # the Korean rulebook: never the code's digits
        if any(same_word(clue, used) for used in game.clues_used(player.team)):
            raise RuleError("clue_reused", clue=clue)
        if any(same_word(clue, earlier) for earlier in clues[: position - 1]):
            raise RuleError("clue_repeated", clue=clue)
    at = command.get("at")  # the service's clock, for the sand timer; never from a request
    return [CluesAnnounced(team=player.team, clues=tuple(clues), at=at if isinstance(at, (int, float)) else None)]


def guess(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    player = seated_player(game, actor)
    require_phase(game, PLAYING)
    transmission = game.latest_round.current
    if transmission is None:
        raise RuleError("clues_not_announced")
    own = player.team == transmission.team
    if own and transmission.encryptor == player.seat:
        raise RuleError("encryptor_cannot_guess")
    if not own and not game.latest_round.interception_allowed:
        raise RuleError("no_interception_round_one")
    mine = transmission.guess_by(player.team)
    if mine.sealed:
        raise RuleError("guess_sealed")
    code = CODE.parse(command.get("code"), "guess_malformed")
    confirm = BOOLEAN.parse(command.get("confirm", False), "guess_malformed")
    if not confirm and mine.code == code:
        return []  # the team's draft already: saving it again changes nothing, and writes nothing
    events: list[Event] = [
        GuessSaved(transmission=transmission.team, by=player.team, code=code, sealed=confirm, seat=player.seat)
    ]
    after = replay(events, game)
    current = after.latest_round.transmissions[transmission.team]  # as the guess left it
    needed = [current.decryption] + ([current.interception] if after.latest_round.interception_allowed else [])
    if all(g.sealed for g in needed):
        resolved = TransmissionResolved(
            team=current.team,
            code=current.code,
            intercepted=after.latest_round.interception_allowed and current.interception.code == current.code,
            miscommunicated=current.decryption.code != current.code,
        )
        events.append(resolved)
        after = apply(after, resolved)
        if after.latest_round.current is None:  # every transmission of the round is resolved
            events += after_resolution(after, rng)
    return events


def after_resolution(game: Game, rng: random.Random) -> list[Event]:
    """Once every transmission of the round is resolved: a result, a tiebreak or the next round."""
    if game.three_player:
        ended = three_player.round_end(game.tokens[three_player.INTERCEPTOR].interceptions, game.latest_round.number)
        if ended is None:
            return [round_started(game, game.latest_round.number + 1, rng)]
        winner, reason = ended
        return [GameEnded(winners=(winner,), reason=reason)]
    outcome = end.round_end(game.tokens, game.latest_round.number)
    if outcome is None:
        return [round_started(game, game.latest_round.number + 1, rng)]
    if outcome[0] == "win":
        winner, reason = outcome[1]
        return [GameEnded(winners=(winner,), reason=reason)]
    cause = outcome[1]  # a tiebreak's
    leader = end.score_winner(game.tokens)
    if leader is not None:
        return [GameEnded(winners=(leader,), reason=end.SCORE, cause=cause)]
    return [TiebreakStarted(cause=cause)]


def keyword_guesses(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    player = seated_player(game, actor)
    require_phase(game, KEYWORD_GUESSING)
    assert game.tiebreak is not None  # the phase a tiebreak starts with
    if game.tiebreak.keyword_guesses[player.team] is not None:
        raise RuleError("keyword_guesses_sealed")
    raw = KEYWORD_GUESSES.parse(command.get("guesses"), "four_keyword_guesses")
    guesses = [clean_text(g, KEYWORD_GUESS_MAX_LENGTH, "four_keyword_guesses") for g in raw]
    return [KeywordGuessesSealed(team=player.team, guesses=tuple(guesses))]


def judge_keywords(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    require_phase(game, KEYWORD_JUDGING)
    assert game.tiebreak is not None  # the phase a tiebreak leads to
    verdicts = VERDICTS.parse(command.get("verdicts"), "verdicts_malformed")
    winners, reason = end.keyword_result(verdicts)
    return [KeywordsJudged(verdicts=verdicts), GameEnded(winners=winners, reason=reason, cause=game.tiebreak.cause)]
