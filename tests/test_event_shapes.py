"""Each event class (companion/rules/events.py) reads and writes exactly the shape the corpus stored for its
version, and every older version it ever had is upgraded by an upcaster the corpus exercises.

So changing an event's fields without a new `VERSION` and its upcaster fails here: the corpus rows at the
class's version no longer read back as they were stored (a field added, gone or renamed), and a new `VERSION`
without a recorded game at it, or without an upcaster from the old one, fails too (rules/event.py says how
to change a shape)."""

from __future__ import annotations

import pytest

from companion.rules.event import UPCASTERS
from companion.rules.events import EVENTS, RETIRED, read

from .corpus import stored_events

ROWS = stored_events()


def stored(kind: str, version: int) -> list[dict]:
    """The corpus's stored events of type `kind` at `version` (rows without "v" are version 1)."""
    return [data for data in ROWS if data["type"] == kind and data.get("v", 1) == version]


@pytest.mark.parametrize("event", EVENTS, ids=[e.TYPE for e in EVENTS])
def test_an_event_reads_and_writes_the_shape_stored_at_its_version(event):
    rows = stored(event.TYPE, event.VERSION)
    assert rows, f"no {event.TYPE} v{event.VERSION} in tests/corpus: record its example (python -m tests.corpus.record)"
    for data in rows:
        assert read(data).to_json() == data, (
            f"{event.TYPE} v{event.VERSION} changed shape: give it a new VERSION "
            "and an upcaster from this one (rules/event.py)"
        )


@pytest.mark.parametrize("event", EVENTS + RETIRED, ids=[e.TYPE for e in EVENTS + RETIRED])
def test_every_older_version_of_an_event_has_its_upcaster_and_a_stored_game(event):
    for version in range(1, event.VERSION):
        assert (event.TYPE, version) in UPCASTERS, f"{event.TYPE} v{version} has no upcaster to v{version + 1}"
        assert stored(event.TYPE, version), f"no {event.TYPE} v{version} in tests/corpus to upgrade"


def test_an_upgraded_event_is_one_of_today_and_writes_today_s_shape():
    for kind, version in UPCASTERS:
        for data in stored(kind, version):
            event = read(data)  # raises on a field the upgraded shape doesn't have
            assert read(event.to_json()) == event, (kind, version, data)


def test_an_event_from_newer_code_or_of_an_unknown_type_is_refused_not_guessed():
    with pytest.raises(ValueError, match="newer"):
        read({"type": "timer_set", "v": 2, "timer": None})
    with pytest.raises(ValueError, match="unknown event type"):
        read({"type": "no_such_event"})
    with pytest.raises(ValueError, match="no field"):
        read({"type": "timer_set", "timer": None, "sand": 3})
