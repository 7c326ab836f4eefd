"""How events fold into the game's state: `apply` one, `replay` many, each counted for its audience.

The current state of a game is the fold of its events (`replay`); each event says what it changes
(`Event.apply`, rules/events.py). An event may also come as its stored JSON, which is read (and upgraded from
an older shape) first.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from .audience import EVERYONE, seat_audience, team_audience
from .event import Event, Replaceable
from .events import read
from .state import Game


def _count(game: Game, event: Event) -> None:
    """Count `event` for its audience and for the seats in it (before it changes who is where)."""
    who = event.audience()
    had = game.counts.get(who, 0)
    # A replaceable event says its number among its audience's events, as those it replaced are gone (one
    # stored before slots existed, or that replaced none, has none: it is the next).
    ordinal = event.ordinal if isinstance(event, Replaceable) else None
    game.counts[who] = had + 1 if ordinal is None else ordinal
    if who != EVERYONE:
        for p in game.players:
            if who in (team_audience(p.team), seat_audience(p.seat)):
                game.private_seen[p.seat] = game.private_seen.get(p.seat, 0) + game.counts[who] - had


def fold(game: Game, event: Event | Mapping[str, Any]) -> None:
    """Fold one event into `game` itself (`apply` and `replay` work on a copy)."""
    event = event if isinstance(event, Event) else read(event)
    _count(game, event)
    event.apply(game)


def _copy(game: Game) -> Game:
    """A deep copy. The state is plain data, so a pickle round trip does it, 4x faster than
    copy.deepcopy (which was a fifth of a command's CPU: docs/performance.md)."""
    copy: Game = pickle.loads(pickle.dumps(game, pickle.HIGHEST_PROTOCOL))
    return copy


def apply(game: Game, event: Event | Mapping[str, Any]) -> Game:
    """The state after `event`; `game` itself is left as it was."""
    after = _copy(game)
    fold(after, event)
    return after


def replay(events: Iterable[Event | Mapping[str, Any]], game: Game | None = None) -> Game:
    """Fold events (or their stored JSON) into a state: from scratch, or onward from a copy of `game`."""
    state = Game() if game is None else _copy(game)
    for event in events:
        fold(state, event)
    return state


def stamp(game: Game, events: list[Event]) -> list[Event]:
    """`events`, decided on `game`, with each replaceable one marked with its slot and its ordinal."""
    counts, stamped = dict(game.counts), []
    for event in events:
        who = event.audience()
        counts[who] = counts.get(who, 0) + 1
        where = event.slot_in(game)  # only a replaceable event has a slot
        stamped.append(
            replace(event, slot=where, ordinal=counts[who]) if isinstance(event, Replaceable) and where else event
        )
    return stamped
