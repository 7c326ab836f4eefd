"""Commands before the first round: creating a game, taking seats, arranging teams, starting, a rematch."""

from __future__ import annotations

import random
from itertools import combinations

from .codes import draw_code
from .errors import RuleError
from .fields import BOOLEAN, TIMER
from .event import Event
from .guards import Actor, CommandBody, player_at, require_phase, require_real_game, seated_player
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
from .state import LOBBY, MODES, OVER, STANDARD, TEAMS, Game, other
from .text import LANGUAGES, NAME_LENGTH, TIMER_SECONDS, UNDEALT_WORDS, clean_text, custom_words
from .words import distinct_words, normalize


def create(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """A new game. A try-out (`try_out`) comes with its seats filled by the names in `players`."""
    if game.players or game.phase != LOBBY:
        raise RuleError("game_exists")
    language = command.get("language", "en")
    if language not in LANGUAGES:
        raise RuleError("unknown_language")
    mode = command.get("mode", STANDARD)
    if mode not in MODES:
        raise RuleError("unknown_mode")
    timer = timer_setting(command)
    words = command.get("words")
    created = GameCreated(
        language=language,
        mode=mode,
        timer=timer,
        words=tuple(custom_words(words)) if words is not None else None,
        try_out=command.get("try_out") is True,
    )
    events: list[Event] = [created]
    if created.try_out:
        after = apply(game, created)
        names = command.get("players") or {}
        for team in TEAMS:
            for name in names.get(team, ())[: after.team_sizes(team)[1]]:
                events.append(PlayerJoined(seat=len(events), team=team, name=name))
    return events


def join(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    if game.phase != LOBBY:
        raise RuleError("game_over" if game.phase == OVER else "too_late_to_join")
    require_real_game(game)
    if game.joining_locked:
        raise RuleError("joining_locked")
    name = clean_text(command.get("name"), NAME_LENGTH[1], "name_required")
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


def lock_joining(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    require_phase(game, LOBBY)
    require_real_game(game)
    locked = BOOLEAN.parse(command.get("locked"), "locked_malformed")
    if locked == game.joining_locked:
        raise RuleError("already_locked" if locked else "already_open")
    return [JoiningLocked(locked=locked)]


def move_player(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    require_phase(game, LOBBY)
    require_real_game(game)
    player = player_at(game, command)
    check_room(game, other(player.team), player.name)
    return [PlayerMoved(seat=player.seat, team=other(player.team))]


def switch_team(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """A seated player moves to the other team themselves (before the start, while joining is open)."""
    player = seated_player(game, actor)
    require_phase(game, LOBBY)
    require_real_game(game)
    if game.joining_locked:
        raise RuleError("joining_locked")
    check_room(game, other(player.team), player.name)
    return [PlayerMoved(seat=player.seat, team=other(player.team))]


def leave(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """A seated player leaves before the start (a phone that joined by mistake, or someone sitting this match
    out): the seat is freed, and the phone's token stops working."""
    player = seated_player(game, actor)
    require_phase(game, LOBBY)
    require_real_game(game)
    return [PlayerLeft(seat=player.seat)]


def shuffle_teams(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """The seated players split at random, as evenly as possible, into two teams other than today's (when
    another split exists: a shuffle that gives back the same teams, or only swaps their colours, looks
    broken); two players of the same name stay apart.

    Three players: the Interceptor is drawn at random among the others, who form the team."""
    require_phase(game, LOBBY)
    require_real_game(game)
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


def set_timer(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """The host changes the sand timer (seconds, or null for none) before the start."""
    require_phase(game, LOBBY)
    if "timer" not in command:  # null turns the timer off; a missing field says nothing
        raise RuleError("timer_length", min=TIMER_SECONDS[0], max=TIMER_SECONDS[1])
    return [TimerSet(timer=timer_setting(command))]


def remove_player(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    require_phase(game, LOBBY)
    require_real_game(game)
    return [PlayerRemoved(seat=player_at(game, command).seat)]


def start(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    require_phase(game, LOBBY)
    problem = start_problem(game)
    if problem:
        raise problem
    started = GameStarted(keywords=_deal(game, command, rng))
    return [started, round_started(apply(game, started), 1, rng)]


def rematch(game: Game, command: CommandBody, actor: Actor, rng: random.Random) -> list[Event]:
    """A new match: back to the lobby with the same seats and settings; the host starts it as a new game."""
    require_phase(game, OVER)
    return [RematchStarted()]


def round_started(game: Game, number: int, rng: random.Random) -> RoundStarted:
    return RoundStarted(round=number, codes={team: draw_code(rng) for team in game.transmitting})


def words_to_deal(game: Game, command: CommandBody) -> list[str]:
    """The words to deal from: the host's own list, else the language's pack the service passed in."""
    return distinct_words(game.settings.words or command.get("words") or ())


def _deal(game: Game, command: CommandBody, rng: random.Random) -> dict[str, tuple[str, ...]]:
    """Four distinct keywords for each team that has a screen; no word is on two screens, and at least
    UNDEALT_WORDS words of the pool stay undealt, so no team can tell the other's keywords by elimination.

    A rematch prefers words not dealt before in this game (everyone saw the last match's keywords), when
    enough remain for that; else it deals from the whole list again."""
    distinct = words_to_deal(game, command)
    fresh = spare_words(game, distinct)
    teams = game.transmitting
    needed = 4 * len(teams) + UNDEALT_WORDS
    pool = fresh if len(fresh) >= needed else distinct
    if len(pool) < needed:
        raise RuleError("not_enough_words", min=needed)
    dealt = rng.sample(pool, 4 * len(teams))  # without replacement from distinct words
    return {team: tuple(dealt[4 * i : 4 * i + 4]) for i, team in enumerate(teams)}


def timer_setting(command: CommandBody) -> int | None:
    """The sand timer's seconds from a command (None: no timer), or the RuleError saying what is allowed."""
    return TIMER.parse(command.get("timer"), "timer_length", min=TIMER_SECONDS[0], max=TIMER_SECONDS[1])
