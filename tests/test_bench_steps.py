"""How `bench/tables.py` judges a capacity step (docs/performance.md, "How a capacity level is judged")."""

from __future__ import annotations

from bench.tables import StepResult

LIMIT_MS = 100.0


def step(p99_ms: dict[str, float], unfollowed: int = 0, errors: dict | None = None) -> StepResult:
    return StepResult(
        tables=400,
        seconds=20.0,
        counts={kind: 100 for kind in p99_ms},
        p50_ms={kind: 5.0 for kind in [*p99_ms, "all"]},
        p99_ms={**p99_ms, "all": max(p99_ms.values())},
        errors=errors or {},
        first_errors=[],
        loop_lag_p99_ms=1.0,
        generator_cpu=0.1,
        server_cpu=0.5,
        connects=0,
        settled=60.0 if unfollowed else 3.0,
        unfollowed=unfollowed,
    )


def test_a_step_passes_when_every_screen_follows_and_every_kinds_p99_is_under_the_limit():
    assert step({"poll": 40.0, "push": 60.0, "action": 30.0}).passed(LIMIT_MS)
    assert not step({"poll": 40.0, "push": 60.0, "action": 130.0}).passed(LIMIT_MS)  # the few moves count alone
    assert not step({"poll": 40.0}, errors={"stream": 1}).passed(LIMIT_MS)


def test_a_step_whose_screens_never_followed_their_game_fails_though_its_requests_were_fast():
    """Seen through HAProxy: a step's streams never connected, so its screens made no request to time, and
    the moves and bot reads alone were fast: that step held nothing."""
    silent = step({"action": 51.0, "bot_read": 19.0}, unfollowed=3600)
    assert not silent.passed(LIMIT_MS)
    assert "3600 screens never following their game" in silent.brief()
    assert "all following after 3.0 s" in step({"poll": 40.0}).brief()
