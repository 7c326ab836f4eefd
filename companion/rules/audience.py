"""Who can see what an event changes: everyone, one team, or one seat (docs/security.md "Per-viewer versions").

A viewer's version is the number of the last event of an audience it belongs to. So a team's private step
(a draft guess) moves the version, the ETag and the stream of that team's phones only: the other team and the
table screen see nothing move, and learn neither that nor how often a team drafts.

An audience too narrow would leave a screen behind: tests/test_rules_state_machine.py checks, after every
command, that a viewer whose version did not move sees exactly the same view.
"""

from __future__ import annotations

EVERYONE = "everyone"


def team_audience(team: str) -> str:
    return f"team:{team}"


def seat_audience(seat: int) -> str:
    return f"seat:{seat}"


def audience(event: dict) -> str:
    """The audience of an event: EVERYONE, `team_audience(team)` or `seat_audience(seat)`."""
    if event["type"] == "guess_saved" and not event["sealed"]:
        return team_audience(event["by"])      # a draft: only the team that guesses sees it
    return EVERYONE
