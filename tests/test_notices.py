"""The public log: each event adds the line its declaration says (companion/rules/events.py: `NOTICE`). The
lines come from each event's example (tests/examples.py)."""

from __future__ import annotations

import pytest

from companion.rules import Game, replay
from companion.rules.events import EVENTS, read

from .examples import play


@pytest.mark.parametrize("event", EVENTS, ids=[event.TYPE for event in EVENTS])
def test_an_event_adds_the_line_it_declares_and_only_it(event):
    """Folded one at a time, each event of the example adds one line of its kind with exactly its declared fields
    if it declares a notice, and none if it doesn't (a rematch empties the log)."""
    game = Game()
    for stored in play(event).events:
        folded = read(stored)
        before = list(game.notices)
        game = replay([folded], game)
        if folded.NOTICE is None:
            assert len(game.notices) <= len(before) and game.notices == before[: len(game.notices)], folded.TYPE
            continue
        assert game.notices[:-1] == before, folded.TYPE
        line = game.notices[-1]
        assert list(line) == ["kind", "round", *folded.NOTICE.fields]
        assert line["kind"] == folded.TYPE
