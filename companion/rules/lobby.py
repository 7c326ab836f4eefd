"""Commands before the first round: creating a game, taking seats, arranging teams, starting, a rematch."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from itertools import combinations
from typing import Any, Self

from . import fields, three_player
from .codes import draw_code
from .command import (
    ANY_PHASE,
    LOBBY_ONLY,
    NO_BODY,
    TEXT_REFUSALS,
    Command,
    Field,
    HostCommand,
    SeatCommand,
    Target,
    match_target,
    phase_refusals,
    seat_field,
)
from .access import Kind, Who
from .errors import RuleError
from .event import Event
from .guards import player_at
from .queries import spare_words, start_problem
from .events import (
    GameCreated,
    GameStarted,
    JoiningLocked,
    PlayerJoined,
    PlayerLeft,
    PlayerMoved,
    PlayerRemoved,
    RematchStarted,
    RoundStarted,
    TeamsShuffled,
    TimerSet,
)
from .fold import apply
from .state import LOBBY, MAX_TEAM, MIN_TEAM, OVER, STANDARD, TEAMS, Game, Player, other
from .targets import stale
from .text import (
    MAX_WORDS,
    MIN_WORDS,
    NAME_LENGTH,
    TIMER_SECONDS,
    UNDEALT_WORDS,
    WORD_MAX_LENGTH,
    clean_text,
    custom_words,
)
from .words import distinct_words, normalize

NAMES = f"{NAME_LENGTH[0]} to {NAME_LENGTH[1]} characters"
TIMER_LIMITS = {"min": TIMER_SECONDS[0], "max": TIMER_SECONDS[1]}
START_PROBLEMS = ("team_size", "teams_uneven", "three_player_seats")  # rules.queries.start_problem


class Create(HostCommand):
    """A new game. A try-out (`try_out`) comes with its seats filled by the names in `players` (what the try-out
    page gives, never a request's body)."""

    in_api = False  # POST /api/games
    operation = "createGame"
    phases = ANY_PHASE  # (only ever on no game: `game_exists`)
    summary = "Create a game"
    description = (
        "Needs no token (and no CSRF token). Answers the game's capability tokens: keep the host token for the "
        "table, hand each team its join token."
    )
    example = {"language": "en", "mode": "standard", "timer": 30}
    refusals = (
        "unknown_language",
        "unknown_mode",
        "timer_length",
        "words_malformed",
        "too_many_words",
        "too_few_words",
        *TEXT_REFUSALS,
    )
    answer = "CreatedGame"
    language = Field(fields.LANGUAGE, "The game's language (words and sentences).", "unknown_language", "en")
    mode = Field(
        fields.MODE,
        f"`{STANDARD}`: two teams; `three_player`: a team of two against one Interceptor.",
        "unknown_mode",
        STANDARD,
    )
    timer = Field(
        fields.TIMER,
        "The sand timer, in seconds: once one Encryptor announced, the other one's time (see `view.timer`); null "
        "for none.",
        "timer_length",
        None,
        TIMER_LIMITS,
    )
    words = Field(
        fields.WORD_LIST,
        f"The host's own keyword list instead of the language's: one word per line or separated by commas, each at "
        f"most {WORD_MAX_LENGTH} characters; at least {MIN_WORDS} and at most {MAX_WORDS} distinct words (plural "
        "forms count once); null for the language's list.",
        "words_malformed",
        None,
    )

    def __init__(
        self,
        sent: Mapping[str, object] | None = None,
        pack: Sequence[str] = (),
        at: float | None = None,
        in_use: Collection[int] | None = None,
        try_out: bool = False,
        players: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        super().__init__(sent, pack, at, in_use)
        self.try_out, self.players = try_out, dict(players or {})

    @classmethod
    def read(cls, command: Mapping[str, object]) -> Self:
        created = super().read(command)
        players: Any = command.get("players")
        created.try_out = command.get("try_out") is True
        created.players = dict(players) if isinstance(players, dict) else {}
        return created

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        if game.players or game.phase != LOBBY:
            raise RuleError("game_exists")
        language, mode, timer, words = self.language, self.mode, self.timer, self.words
        created = GameCreated(
            language=language,
            mode=mode,
            timer=timer,
            words=tuple(custom_words(words)) if words is not None else None,
            try_out=self.try_out,
        )
        events: list[Event] = [created]
        if created.try_out:
            after = apply(game, created)
            for team in TEAMS:
                for name in self.players.get(team, ())[: after.team_sizes(team)[1]]:
                    events.append(PlayerJoined(seat=len(events), team=team, name=name))
        return events


class Join(Command):
    sender = Kind.JOIN
    phases = (LOBBY,)
    real_game_only = True
    summary = "Take a seat"
    description = (
        f"With a team's join token, in the lobby, unless the host locked joining: seats a new player on that "
        f"team ({MIN_TEAM} to {MAX_TEAM} players a team; in the three-player game "
        f"{three_player.SIZES[three_player.TEAM]} in the team and {three_player.SIZES[three_player.INTERCEPTOR]} "
        "Interceptor). Answers the player's seat number and seat token."
    )
    player_name = Field(
        fields.TEXT,
        f"Trimmed, inner spaces collapsed; then {NAMES}, unique in the team "
        "(ignoring case, accents, invisible characters and look-alike letters).",
        "name_required",
        key="name",
    )
    refusals = (
        "too_late_to_join",
        "game_over",
        "try_out_fixed_seats",
        "joining_locked",
        "name_required",
        "name_length",
        "team_full",
        "name_taken",
        *TEXT_REFUSALS,
    )
    example = {"name": "Ann"}
    answer = "JoinResult"
    seats_a_phone = True

    def phase_problem(self, game: Game) -> str:
        return "game_over" if game.phase == OVER else "too_late_to_join"

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        if game.joining_locked:
            raise RuleError("joining_locked")
        name = clean_text(self.player_name, NAME_LENGTH[1], "name_required")
        if not name:
            raise RuleError("name_required")
        if len(name) < NAME_LENGTH[0]:
            raise RuleError("name_length", min=NAME_LENGTH[0], max=NAME_LENGTH[1])
        assert actor.team is not None  # a join link is a team's
        check_room(game, actor.team, name)
        seat = game.last_seat + 1
        joined = PlayerJoined(seat=seat, team=actor.team, name=name)
        # A phone already seated in this game (its seat comes from its cookie) switches teams.
        current = game.player(actor.seat) if actor.seat is not None else None
        if current is not None:
            if current.team == actor.team:
                raise RuleError("already_seated")
            return [PlayerLeft(seat=current.seat), joined]
        return [joined]


def check_room(game: Game, team: str, name: str) -> None:
    """A player called `name` may sit on `team`: it is not full and nobody there has that name."""
    players = game.team_players(team)
    most = game.team_sizes(team)[1]
    if len(players) >= most:
        raise RuleError("team_full", max=most)
    if any(normalize(p.name) == normalize(name) for p in players):
        raise RuleError("name_taken", name=name)


class LockJoining(HostCommand):
    phases = (LOBBY,)
    real_game_only = True
    summary = "Lock or reopen joining"
    description = (
        "With the host token, in the lobby: while joining is locked, join tokens are refused (`view.joining_locked`)."
    )
    locked = Field(fields.BOOLEAN, "True to lock joining, false to reopen it.", "locked_malformed")
    refusals = (*LOBBY_ONLY, "locked_malformed", "already_locked", "already_open")
    example = {"locked": True}

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        locked = self.locked
        if locked == game.joining_locked:
            raise RuleError("already_locked" if locked else "already_open")
        return [JoiningLocked(locked=locked)]


class MovePlayer(HostCommand):
    phases = (LOBBY,)
    real_game_only = True
    summary = "Move a player to the other team"
    description = (
        "With the host token, in the lobby: the player keeps their seat number and token, and joins the other "
        "team last. Naming the player's current `team` makes a repeat safe (a second tap would move them back)."
    )
    seat = seat_field()
    team = Target(
        fields.TEAM,
        "The team the player is on now, as the table screen showed it.",
        "teams.<*>.players.[seat={seat}]",
    )
    refusals = (*LOBBY_ONLY, "no_such_player", "team_full", "name_taken")
    example = {"seat": 3, "team": "white"}

    def stale(self, game: Game, actor: Who) -> RuleError | None:
        seat = MovePlayer.seat.peek(self)
        player = game.player(seat) if seat is not None else None
        if player is not None and self.team.differs(player.team):
            return stale("player_moved", name=player.name)
        return None

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        player = player_at(game, self.seat)
        check_room(game, other(player.team), player.name)
        return [PlayerMoved(seat=player.seat, team=other(player.team))]


class SwitchTeam(SeatCommand):
    """A seated player moves to the other team themselves (before the start, while joining is open)."""

    phases = (LOBBY,)
    real_game_only = True
    careful = "team"  # a stray tap would switch teams
    summary = "Switch to the other team"
    description = (
        "By a seated player, in the lobby, while joining is open: the player moves to the other team, keeping "
        "their seat number and token, last in its join order (event `player_moved`). Naming the `team` the "
        "player is on makes a repeat safe (a second tap would switch back)."
    )
    team = Target(fields.TEAM, "The team this phone is on now (`view.you.team`).", "you.team")
    refusals = (*LOBBY_ONLY, "joining_locked", "team_full", "name_taken")
    example = {"team": "white"}

    def stale(self, game: Game, actor: Who) -> RuleError | None:
        player = game.player(actor.seat)
        if player is not None and self.team.differs(player.team):
            return stale("you_switched")
        return None

    def play(self, game: Game, player: Player, rng: random.Random) -> list[Event]:
        if game.joining_locked:
            raise RuleError("joining_locked")
        check_room(game, other(player.team), player.name)
        return [PlayerMoved(seat=player.seat, team=other(player.team))]


class Leave(SeatCommand):
    """A seated player leaves before the start (a phone that joined by mistake, or someone sitting this match
    out): the seat is freed, and the phone's token stops working."""

    operation = "leaveGame"
    phases = (LOBBY,)
    real_game_only = True
    summary = "Leave the game"
    description = (
        "By a seated player, in the lobby (a new game or a rematch): the player leaves; the seat is freed and "
        "this token stops working (event `player_left`). To play after all, join again from the team's link. "
        "No body is needed."
    )
    refusals = LOBBY_ONLY
    example = NO_BODY

    def play(self, game: Game, player: Player, rng: random.Random) -> list[Event]:
        return [PlayerLeft(seat=player.seat)]


class ShuffleTeams(HostCommand):
    """The seated players split at random, as evenly as possible, into two teams other than today's (when
    another split exists: a shuffle that gives back the same teams, or only swaps their colours, looks
    broken); two players of the same name stay apart.

    Three players: the Interceptor is drawn at random among the others, who form the team."""

    phases = (LOBBY,)
    real_game_only = True
    summary = "Shuffle the teams"
    description = (
        "With the host token, in the lobby: the seated players are split at random, as evenly as possible (the "
        "odd player out goes to either team), two players of the same name on different teams; in the "
        "three-player game one player drawn at random becomes the Interceptor and the others form the team. "
        "Every phone keeps its seat and token; the new order is each team's join order (event "
        "`teams_shuffled`). No body is needed."
    )
    refusals = (*LOBBY_ONLY, "too_few_to_shuffle")
    example = NO_BODY

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        if len(game.players) < 2:
            raise RuleError("too_few_to_shuffle")
        today = frozenset(frozenset(p.seat for p in game.team_players(team)) for team in TEAMS)
        fresh = [split for split in _fair_splits(game) if split != today]
        split = sorted(rng.choice(fresh or [today]), key=lambda side: (len(side), sorted(side)))
        if game.three_player:  # White is the team of two, Black the Interceptor (three_player.SIZES)
            teams = [TEAMS[1], TEAMS[0]]
        else:  # either colour may get the odd player out
            teams = list(TEAMS)
            rng.shuffle(teams)
        seats = {team: list(side) for team, side in zip(teams, split, strict=True)}
        for side in seats.values():
            rng.shuffle(side)  # the order within a team is its Encryptor rotation
        return [TeamsShuffled(white=tuple(seats["white"]), black=tuple(seats["black"]))]


def _fair_splits(game: Game) -> list[frozenset[frozenset[int]]]:
    """Every split (the two teams' seats, whatever their colours) into two teams as even as possible (three players: one alone) that keeps as many
    same-name players apart as can be: at most 8 players, so at most 70 to look at."""
    seats = [p.seat for p in game.players]
    names = {p.seat: normalize(p.name) for p in game.players}
    size = 1 if game.three_player else len(seats) // 2
    splits: list[frozenset[frozenset[int]]] = []
    best: int | None = None  # the fewest same-name players together so far
    for side in combinations(seats, size):
        rest = [seat for seat in seats if seat not in side]
        together = sum(len(team) - len({names[s] for s in team}) for team in (side, rest))
        split = frozenset((frozenset(side), frozenset(rest)))
        if best is None or together < best:
            splits, best = [split], together
        elif together == best and split not in splits:
            splits.append(split)
    return splits


class SetTimer(HostCommand):
    """The host changes the sand timer (seconds, or null for none) before the start."""

    phases = (LOBBY,)
    summary = "Change the sand timer"
    description = (
        "With the host token, in the lobby (a new game or a rematch): the sand timer for the matches to come "
        "(`view.timer_seconds`; event `timer_set`)."
    )
    timer = Field(fields.TIMER, "The sand timer in seconds; null for none.", "timer_length", params=TIMER_LIMITS)
    refusals = (*phase_refusals(LOBBY), "timer_length")
    example = {"timer": 45}

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        return [TimerSet(timer=self.timer)]  # null turns the timer off; a missing field says nothing


class RemovePlayer(HostCommand):
    phases = (LOBBY,)
    real_game_only = True
    careful = "seat"  # a stray tap would remove a player
    summary = "Remove a player"
    description = (
        "With the host token, in the lobby: frees the seat; its token stops working. Seat numbers are never "
        "reused, so the seat names the player."
    )
    seat = seat_field()
    refusals = (*LOBBY_ONLY, "no_such_player")
    example = {"seat": 3}

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        return [PlayerRemoved(seat=player_at(game, self.seat).seat)]


class Start(HostCommand):
    phases = (LOBBY,)
    summary = "Start the game"
    description = (
        f"With the host token, in the lobby, once each team has {MIN_TEAM} to {MAX_TEAM} players and the teams "
        f"differ by at most one player (in the three-player game: {three_player.SIZES[three_player.TEAM]} in "
        f"the team, {three_player.SIZES[three_player.INTERCEPTOR]} Interceptor; `view.start_problem` says what "
        "stands in the way): deals the keywords and starts round 1 (events `game_started`, `round_started`)."
    )
    match = match_target()
    refusals = (*phase_refusals(LOBBY), *START_PROBLEMS, "not_enough_words")
    example = {"match": 1}
    draws_words = True

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        problem = start_problem(game)
        if problem:
            raise problem
        started = GameStarted(keywords=_deal(game, words_to_deal(game, self.pack), rng))
        return [started, round_started(apply(game, started), 1, rng)]


class Rematch(HostCommand):
    """A new match: back to the lobby with the same seats and settings; the host starts it as a new game."""

    phases = (OVER,)
    summary = "Start a rematch"
    description = (
        "With the host token, once the game is over: a new match, back in the lobby with the same seats and "
        "settings (event `rematch_started`). Phones keep their seats; joining is open again, players may switch "
        "teams, the host may shuffle them and change the sand timer, then starts as for a new game (fresh "
        "keywords). The finished match stays readable as a summary."
    )
    match = match_target()
    refusals = phase_refusals(OVER)
    example = {"match": 1}

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        return [RematchStarted()]


def round_started(game: Game, number: int, rng: random.Random) -> RoundStarted:
    return RoundStarted(round=number, codes={team: draw_code(rng) for team in game.transmitting})


def words_to_deal(game: Game, pack: Sequence[str]) -> list[str]:
    """The words to deal from: the host's own list, else the language's pack the service passed in."""
    return distinct_words(game.settings.words or pack)


def _deal(game: Game, distinct: list[str], rng: random.Random) -> dict[str, tuple[str, ...]]:
    """Four distinct keywords for each team that has a screen, from the `distinct` words; no word is on two
    screens, and at least UNDEALT_WORDS words of the pool stay undealt, so no team can tell the other's keywords
    by elimination.

    A rematch prefers words not dealt before in this game (everyone saw the last match's keywords), when
    enough remain for that; else it deals from the whole list again."""
    fresh = spare_words(game, distinct)
    teams = game.transmitting
    needed = 4 * len(teams) + UNDEALT_WORDS
    pool = fresh if len(fresh) >= needed else distinct
    if len(pool) < needed:
        raise RuleError("not_enough_words", min=needed)
    dealt = rng.sample(pool, 4 * len(teams))  # without replacement from distinct words
    return {team: tuple(dealt[4 * i : 4 * i + 4]) for i, team in enumerate(teams)}
