"""Whole games, every viewer looking at every byte after every step."""

from __future__ import annotations

import time

import pytest

from .walks import play_standard, play_three, report
from .world import World


# The standard walk (a whole game, over 2000 requests audited) is the slowest service test: the full run has it,
# `scripts/test --fast` the three-player walk alone.
@pytest.mark.parametrize(
    "mode,walk",
    [pytest.param("standard", play_standard, marks=pytest.mark.slow), ("three_player", play_three)],
    ids=["standard", "three_player"],
)
def test_no_viewer_ever_sees_a_secret_it_may_not_know(app, mode, walk):
    world = World(app, mode)
    started = time.perf_counter()
    walk(world)
    world.audit_statics()
    assert world.problems == [], report(world.problems)
    # The walk did look: every viewer kind, at every step.
    assert world.steps >= 25 and world.requests > 2000, (world.steps, world.requests)
    assert world.kinds == {"seat", "host", "spectator", "join", "handoff", "anonymous", "forged", "wrong", "expired"}
    for sighting in (
        "own keywords (page)",
        "own keywords (view)",
        "the Encryptor's own code",
        "the team's own unrevealed guess",
        "join links on the table screen",
        "summaries",
        "304 Not Modified",
        "the team's own notes (page)",
        "the team's own notes (view)",
        "regions pushed down a stream",
    ):
        assert world.seen[sighting] > 0, (sighting, world.seen)
    if mode == "standard":  # its seat link waits for a teammate (the three-player walk cancels its own)
        for sighting in ("a waiting phone on the table screen", "a waiting phone's countdown"):
            assert world.seen[sighting] > 0, (sighting, world.seen)
    print(
        f"\n{mode}: {world.steps} steps, {world.requests} requests, {len(world.static)} static answers, "
        f"{time.perf_counter() - started:.1f}s; seen: {dict(world.seen)}"
    )
