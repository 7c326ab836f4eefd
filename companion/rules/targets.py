"""Stale taps: a command names what its player saw (its target); when the game has moved on since, or the
command already took effect, it is refused with `stale` and what changed, so a retry is always safe.

Each check compares only the target fields the command carries (an API client may leave them out). Where a
sender finds each target in its view is declared with the command (rules.commands, `Field.path`; `find`)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from .errors import RuleError
from .guards import Actor, CommandBody
from .queries import correctable, last_entry, sand_timer
from .state import PLAYING, Game


_WHERE = re.compile(r"\[(\w+)=\{(\w+)\}\]")


def find(view: object, path: str, body: CommandBody) -> object:
    """The value at `path` in a view (a JSON dict), or None. A path's steps, separated by dots: a key; `-1`,
    a list's last item; `{field}`, the key `body[field]`; `[key={field}]`, the list item whose `key` is
    `body[field]`; `*`, any key of a dict (the first under which the rest of the path is found); `<*>`, the
    same, the path's value being that key."""
    return _find(view, path.split("."), body)


def _find(node: object, steps: list[str], body: CommandBody) -> object:
    if not steps or node is None:
        return node
    step, rest = steps[0], steps[1:]
    if step in ("*", "<*>"):
        for key, value in node.items() if isinstance(node, dict) else ():
            found = _find(value, rest, body)
            if found is not None:
                return key if step == "<*>" else found
        return None
    where = _WHERE.fullmatch(step)
    if where:
        wanted = body.get(where.group(2))
        items = node if isinstance(node, list) else ()
        return _find(next((i for i in items if i.get(where.group(1)) == wanted), None), rest, body)
    if step == "-1":
        return _find(node[-1] if isinstance(node, list) and node else None, rest, body)
    key = body.get(step[1:-1]) if step.startswith("{") else step
    return _find(node.get(key) if isinstance(node, dict) and isinstance(key, str) else None, rest, body)


def stale(change: str, **params: object) -> RuleError:
    """The refusal of a stale command; `change` names what changed (messages.STALE_CHANGES words it)."""
    return RuleError("stale", change=change, **params)


def differs(command: CommandBody, field: str, now: object) -> bool:
    """The command names `field` and it is not `now` (a value of another type never matches: True is not 1)."""
    if field not in command:
        return False
    seen = command[field]
    return type(seen) is not type(now) or seen != now


def _round_number(game: Game) -> int:
    return game.round.number if game.round else 0


def moved_on(game: Game, actor: Actor, command: CommandBody) -> RuleError | None:
    """The match and round every command may name."""
    if differs(command, "match", game.match):
        return stale("match_over")
    if differs(command, "round", _round_number(game)):
        return stale("round_moved", now=_round_number(game))
    return None


def guess(game: Game, actor: Actor, command: CommandBody) -> RuleError | None:
    seen = command.get("transmission")
    player = game.player(actor.seat)
    if "transmission" not in command or game.phase != PLAYING or player is None:
        return None
    transmission = game.latest_round.transmissions.get(seen) if isinstance(seen, str) else None
    if transmission is None:
        return RuleError("no_such_team")
    mine = transmission.guess_by(player.team)
    if mine.sealed:
        by = game.player(mine.entered_by) if mine.entered_by is not None else None
        return stale("guess_sealed_by", team=seen, name=by.name) if by else stale("guess_sealed", team=seen)
    if transmission.resolved:
        return stale("transmission_revealed", team=seen)
    if game.latest_round.current is not transmission:
        return stale("transmission_not_open", team=seen)
    return None


def clues(game: Game, actor: Actor, command: CommandBody) -> RuleError | None:
    player = game.player(actor.seat)  # its team now (a capability keeps the team it was issued for)
    own = game.latest_round.transmissions.get(player.team) if game.phase == PLAYING and player else None
    if own is not None and own.clues is not None and ("round" in command or "match" in command):
        return stale("clues_announced")
    return None


def swap_keyword(game: Game, actor: Actor, command: CommandBody) -> RuleError | None:
    player = game.player(actor.seat)
    if player is not None and player.team in game.swapped and ("round" in command or "match" in command):
        return stale("keyword_swapped")
    return None


def keyword_guesses(game: Game, actor: Actor, command: CommandBody) -> RuleError | None:
    player = game.player(actor.seat)
    if (
        player is not None
        and game.tiebreak is not None
        and "match" in command
        and game.tiebreak.keyword_guesses[player.team] is not None
    ):
        return stale("keyword_guesses_sealed")
    return None


def take_back(game: Game, actor: Actor, command: CommandBody) -> RuleError | None:
    entry: Mapping[str, object] = last_entry(game) or {}
    if any(differs(command, field, entry.get(field)) for field in ("entry", "transmission", "by")):
        return stale("entry_changed")
    return None


def pause_timer(game: Game, actor: Actor, command: CommandBody) -> RuleError | None:
    return _sand_timer(game, command, paused=False)


def resume_timer(game: Game, actor: Actor, command: CommandBody) -> RuleError | None:
    return _sand_timer(game, command, paused=True)


def _sand_timer(game: Game, command: CommandBody, paused: bool) -> RuleError | None:
    """The sand timer the table screen showed (`team`: the Encryptor it ran for), running for a pause and
    paused for a resume: it stopped since (the late clues came, or the first were taken back), or a second
    tap finds it already paused, or already running again."""
    if "team" not in command:
        return None
    timer = sand_timer(game)
    if timer is None or differs(command, "team", timer.late.team):
        return stale("timer_stopped")
    if timer.paused != paused:
        return stale("timer_paused" if timer.paused else "timer_running")
    return None


def correction(game: Game, actor: Actor, command: CommandBody) -> RuleError | None:
    found = correctable(game)
    now = (found[0].number, found[1].team) if found else (None, None)
    if differs(command, "round", now[0]) or differs(command, "transmission", now[1]):
        return stale("reveal_changed")
    return None


def answer_correction(game: Game, actor: Actor, command: CommandBody) -> RuleError | None:
    problem = correction_named(game, actor, command)
    player = game.player(actor.seat)
    correction = game.correction  # None: nothing to answer, which the handler says (no_correction)
    if problem is None and "correction" in command and correction and player and player.team in correction.confirmed:
        return stale("correction_accepted")
    return problem


def correction_named(game: Game, actor: Actor, command: CommandBody) -> RuleError | None:
    if differs(command, "correction", game.correction.id if game.correction else None):
        return stale("correction_changed")
    return None


def skip_encryptor(game: Game, actor: Actor, command: CommandBody) -> RuleError | None:
    team = command.get("team")
    transmission = (
        game.latest_round.transmissions.get(team) if game.phase == PLAYING and isinstance(team, str) else None
    )
    if transmission is not None and differs(command, "encryptor", transmission.encryptor):
        return stale("encryptor_changed")
    return None


def move_player(game: Game, actor: Actor, command: CommandBody) -> RuleError | None:
    seat = command.get("seat")
    player = game.player(seat) if type(seat) is int else None
    if player is not None and differs(command, "team", player.team):
        return stale("player_moved", name=player.name)
    return None


def switch_team(game: Game, actor: Actor, command: CommandBody) -> RuleError | None:
    player = game.player(actor.seat)
    if player is not None and differs(command, "team", player.team):
        return stale("you_switched")
    return None


def issue_seat_link(game: Game, actor: Actor, command: CommandBody) -> RuleError | None:
    seat = command.get("seat")
    player = game.player(seat) if type(seat) is int else None
    if player is not None and differs(command, "name", player.name):
        return stale("seat_holder_changed", seat=seat)
    return None
