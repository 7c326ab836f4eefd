"""Every stored game stays readable: the corpus of event logs recorded from the code of their day
(tests/corpus/, written by its `record.py` and `record_legacy.py`) replays through today's store, service and
views to what it folded into when it was recorded.

What is compared: each viewer's view at the end of the log (the table screen's, a spectator's, every seat's) and
the summary of every earlier match: every field recorded, with its value. A field added to the views since is
not looked at (it did not exist then); a recorded field that changes or goes fails. So a change to how an
event folds, whom it counts for, or what an old shape means fails here, and a new view field doesn't."""

from __future__ import annotations

import json

import pytest

from companion.rules.events import EVENT_TYPES
from companion.rules.access import SPECTATOR, Who
from companion.views import summary_for, view_for

from .corpus import GAMES as FILES
from .corpus import examples, patched, stored_events, stored_game


def viewer(name: str) -> Who:
    if name == "spectator":
        return SPECTATOR
    if name == "host":
        return Who("host")
    return Who("seat", seat=int(name.removeprefix("seat:")))


def assert_holds(actual, recorded, where: str) -> None:
    """`actual` holds every field of `recorded` with the same value (lists item by item)."""
    if isinstance(recorded, dict):
        assert isinstance(actual, dict), f"{where}: {actual!r} where {recorded!r} was recorded"
        for key, value in recorded.items():
            assert key in actual, f"{where}.{key} is gone (recorded: {value!r})"
            assert_holds(actual[key], value, f"{where}.{key}")
    elif isinstance(recorded, list):
        assert isinstance(actual, list) and len(actual) == len(recorded), f"{where}: {actual!r} != {recorded!r}"
        for i, (a, r) in enumerate(zip(actual, recorded, strict=True)):
            assert_holds(a, r, f"{where}[{i}]")
    else:
        assert (
            actual == recorded
            and type(actual) is type(recorded)
            or (
                isinstance(actual, (int, float))
                and not isinstance(actual, bool)
                and type(recorded) in (int, float)
                and actual == recorded
            )
        ), f"{where}: {actual!r} != {recorded!r}"


def plain(value):
    """As a JSON body carries it (the API's answer)."""
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_a_stored_game_reads_as_it_did_when_it_was_recorded(app, path):
    recorded = json.loads(path.read_text())
    expected = recorded["expected"]
    service = app.extensions["games"]
    game_id = stored_game(service.store, recorded["rows"])
    _, game = service.load(game_id)
    views = {
        "spectator": expected["spectator"],
        **{name: patched(expected["spectator"], change) for name, change in expected["others"].items()},
    }
    seats = {f"seat:{p.seat}" for p in game.players}
    assert set(views) == {"spectator", "host", *seats}, "the players seated differ from the recording"
    for name, view in views.items():
        assert_holds(plain(view_for(game, viewer(name), now=expected["now"])), view, f"{path.stem} {name}'s view")
    for match, summary in expected["summaries"].items():
        assert_holds(
            plain(summary_for(service.load_match(game_id, int(match)))), summary, f"{path.stem} match {match}'s summary"
        )


def test_the_corpus_holds_every_event_type():
    stored = {data["type"] for data in stored_events()}
    assert set(EVENT_TYPES) <= stored, (
        f"record the examples of {set(EVENT_TYPES) - stored}: python -m tests.corpus.record"
    )


EXAMPLES = examples()


NONE_YET = pytest.param(None, marks=pytest.mark.skip(reason="no example recorded yet: every event is in a game"))


@pytest.mark.parametrize("example", [pytest.param(e, id=f"{e['event']} v{e['v']}") for e in EXAMPLES] or [NONE_YET])
def test_a_stored_example_still_folds_for_every_viewer(app, example):
    """An event's recorded example (tests/corpus/examples.jsonl) reads and folds through today's store and
    service, and every viewer's view of it can be made."""
    service = app.extensions["games"]
    rows = [
        {"seq": seq, "type": data["type"], "slot": None, "data": data} for seq, data in enumerate(example["rows"], 1)
    ]
    game_id = stored_game(service.store, rows)
    version, game = service.load(game_id)
    assert version == len(rows)
    for who in (SPECTATOR, Who("host"), *(Who("seat", seat=p.seat) for p in game.players)):
        assert view_for(game, who)["phase"] == game.phase


def test_the_recorded_views_are_what_the_records_say(tmp_path):
    """The corpus's own bookkeeping: `patched` undoes `difference`."""
    from .corpus import difference

    base = {"a": [1, {"b": 2, "c": [3]}], "d": None}
    other = {"a": [1, {"b": 5, "c": [3]}], "d": {"e": 1}, "f": True}
    assert patched(base, difference(base, other)) == other
