"""Commands of the rounds and the tiebreak: swapping a keyword, clues, guesses, keyword guesses, verdicts."""

from __future__ import annotations

import random

from . import fields, three_player
from . import round_end as end
from .command import TEXT_REFUSALS, Field, HostCommand, SeatCommand, Target, match_target, phase_refusals, round_target
from .errors import RuleError
from .access import Who
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
from .state import KEYWORD_GUESSING, KEYWORD_JUDGING, PLAYING, Game, Player
from .targets import stale
from .text import CLUE_MAX_LENGTH, KEYWORD_GUESS_MAX_LENGTH, clean_text
from .words import contains_word, same_word, words_of


class SwapKeyword(SeatCommand):
    """Before round 1 gets going, each team may swap one keyword for a fresh one, once."""

    phases = (PLAYING,)
    careful = "number"  # once a match
    summary = "Swap one of the team's keywords"
    description = (
        "By a player, in round 1 before the team's clues are announced, once a match (`view.you.can_swap`): the "
        "keyword at that number is replaced by a fresh word. Everybody learns that the team swapped, never which "
        "one. With a target, a repeat is refused as `stale`."
    )
    number = Field(fields.DIGIT, "The keyword's number (1 to 4).", "keyword_number")
    match = match_target()
    round = round_target()
    refusals = (
        *phase_refusals(PLAYING),
        "no_keywords",
        "swap_too_late",
        "already_swapped",
        "keyword_number",
        "no_spare_words",
    )
    example = {"number": 2, "match": 1, "round": 1}
    draws_words = True

    def stale(self, game: Game, actor: Who) -> RuleError | None:
        player = game.player(actor.seat)
        if player is not None and player.team in game.swapped and (self.round.named or self.match.named):
            return stale("keyword_swapped")
        return None

    def play(self, game: Game, player: Player, rng: random.Random) -> list[Event]:
        words = words_to_deal(game, self.pack)
        problem = swap_problem(game, player.team, words)
        if problem is not None and problem != "no_spare_words":
            raise RuleError(problem)
        number = self.number
        if problem is not None:
            raise RuleError(problem)
        fresh = spare_words(game, words)
        return [KeywordSwapped(team=player.team, number=number, word=rng.choice(fresh))]


class AnnounceClues(SeatCommand):
    url = "clues"
    phases = (PLAYING,)
    summary = "Announce the clues"
    description = (
        "By this round's Encryptor of the caller's team, once per round. A clue can't contain one of the team's "
        "keywords or one of the code's digits, repeat another clue of the three, or repeat a clue the team gave "
        "in an earlier round (ignoring case, accents and plural endings). With a target, a repeat is refused as "
        "`stale`."
    )
    clues = Field(
        fields.CLUES,
        f"One clue per digit of the code, in the code's order; each trimmed, 1 to {CLUE_MAX_LENGTH} characters.",
        "three_clues",
    )
    match = match_target()
    round = round_target()
    refusals = (
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
    )
    example = {"clues": ["orbit", "pine", "fortress"], "match": 1, "round": 1}
    timed = True

    def stale(self, game: Game, actor: Who) -> RuleError | None:
        player = game.player(actor.seat)  # its team now (a capability keeps the team it was issued for)
        own = game.latest_round.transmissions.get(player.team) if game.phase == PLAYING and player else None
        if own is not None and own.clues is not None and (self.round.named or self.match.named):
            return stale("clues_announced")
        return None

    def play(self, game: Game, player: Player, rng: random.Random) -> list[Event]:
        transmission = game.latest_round.transmissions.get(player.team)
        if transmission is None or transmission.encryptor != player.seat:
            raise RuleError("not_encryptor")
        if transmission.clues is not None:
            raise RuleError("clues_already_announced")
        clues = [clean_text(c, CLUE_MAX_LENGTH, "clue_empty") for c in self.clues]
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
        return [CluesAnnounced(team=player.team, clues=tuple(clues), at=self.at)]  # (`at`: the sand timer)


class Guess(SeatCommand):
    phases = (PLAYING,)
    summary = "Guess the open transmission's code"
    description = (
        "By a player of either side, for the transmission in `view.transmission` (White's, then Black's, once "
        "both Encryptors announced; only White's in the three-player game): the own team decrypts (never its "
        "Encryptor), the other side intercepts (from round 2). `confirm: false` saves a draft any teammate can "
        "still replace (the team's draft again changes nothing: no event); `confirm: true` seals the team's "
        "guess. When every needed guess is sealed the transmission resolves, and after the round's last one "
        "the round ends: events `guess_saved`, then possibly `transmission_resolved`, then `round_started`, "
        "`game_ended` or `tiebreak_started`. Name the "
        "`transmission` (and round and match) the player saw: a guess meant for one transmission never lands "
        "on the next, and a repeat of a sealed guess is refused as `stale`."
    )
    code = Field(fields.CODE, "The guessed code.", "guess_malformed")
    confirm = Field(fields.BOOLEAN, "Seal the guess.", "guess_malformed", False)
    match = match_target()
    round = round_target()
    transmission = Target(fields.TEAM, "`view.transmission`: whose transmission the guess is for.", "transmission")
    refusals = (
        *phase_refusals(PLAYING),
        "clues_not_announced",
        "encryptor_cannot_guess",
        "no_interception_round_one",
        "guess_sealed",
        "guess_malformed",
        "no_such_team",
    )
    example = {"code": [3, 1, 4], "confirm": True, "match": 1, "round": 2, "transmission": "white"}

    def stale(self, game: Game, actor: Who) -> RuleError | None:
        seen = self.transmission
        player = game.player(actor.seat)
        if not seen.named or game.phase != PLAYING or player is None:
            return None
        transmission = game.latest_round.transmissions.get(seen.value) if seen.value is not None else None
        if transmission is None:
            return RuleError("no_such_team")
        mine = transmission.guess_by(player.team)
        if mine.sealed:
            by = game.player(mine.entered_by) if mine.entered_by is not None else None
            return (
                stale("guess_sealed_by", team=seen.value, name=by.name)
                if by
                else stale("guess_sealed", team=seen.value)
            )
        if transmission.resolved:
            return stale("transmission_revealed", team=seen.value)
        if game.latest_round.current is not transmission:
            return stale("transmission_not_open", team=seen.value)
        return None

    def play(self, game: Game, player: Player, rng: random.Random) -> list[Event]:
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
        code, confirm = self.code, self.confirm
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


class KeywordGuesses(SeatCommand):
    operation = "sealKeywordGuesses"
    phases = (KEYWORD_GUESSING,)
    summary = "Seal the team's keyword guesses (tiebreak)"
    description = (
        "In phase `keyword_guessing`, once per team: the team's guesses of the other team's four keywords, in "
        "their order. Once both teams sealed, the phase becomes `keyword_judging`. With a target, a repeat is "
        "refused as `stale`."
    )
    guesses = Field(
        fields.KEYWORD_GUESSES,
        f"Each trimmed, 0 to {KEYWORD_GUESS_MAX_LENGTH} characters (a blank is allowed).",
        "four_keyword_guesses",
    )
    match = match_target()
    refusals = (
        *phase_refusals(KEYWORD_GUESSING),
        "keyword_guesses_sealed",
        "four_keyword_guesses",
        *TEXT_REFUSALS,
    )
    example = {"guesses": ["WHALE", "", "CASTLE", "MOON"], "match": 1}

    def stale(self, game: Game, actor: Who) -> RuleError | None:
        player = game.player(actor.seat)
        if (
            player is not None
            and game.tiebreak is not None
            and self.match.named
            and game.tiebreak.keyword_guesses[player.team] is not None
        ):
            return stale("keyword_guesses_sealed")
        return None

    def play(self, game: Game, player: Player, rng: random.Random) -> list[Event]:
        assert game.tiebreak is not None  # the phase a tiebreak starts with
        if game.tiebreak.keyword_guesses[player.team] is not None:
            raise RuleError("keyword_guesses_sealed")
        guesses = [clean_text(g, KEYWORD_GUESS_MAX_LENGTH, "four_keyword_guesses") for g in self.guesses]
        return [KeywordGuessesSealed(team=player.team, guesses=tuple(guesses))]


class JudgeKeywords(HostCommand):
    url = "verdicts"
    phases = (KEYWORD_JUDGING,)
    summary = "Judge the keyword guesses (tiebreak)"
    description = (
        "With the host token, in phase `keyword_judging` (`view.tiebreak.proposal` holds the app's proposal): "
        "which of each team's guesses were right. Ends the game (events `keywords_judged`, `game_ended`)."
    )
    verdicts = Field(
        fields.VERDICTS,
        "For each team, whether each of its four guesses named the other team's keyword.",
        "verdicts_malformed",
    )
    match = match_target()
    refusals = (*phase_refusals(KEYWORD_JUDGING), "verdicts_malformed")
    example = {
        "verdicts": {"white": [True, False, False, True], "black": [False, False, False, False]},
        "match": 1,
    }

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        assert game.tiebreak is not None  # the phase a tiebreak leads to
        winners, reason = end.keyword_result(self.verdicts)
        return [
            KeywordsJudged(verdicts=self.verdicts),
            GameEnded(winners=winners, reason=reason, cause=game.tiebreak.cause),
        ]
