"""Who can see what an event changes, and which events replace one another (docs/security.md "Per-viewer
versions").

Each event has one audience: everyone, one team, or one seat. A viewer's version counts the events it could
see, those of the audiences it belonged to when they happened (rules/state.py `Game.version_seen_by`): +1
for each, nothing for the others. So a team's private step (a draft guess, a note: rules/notes.py) moves the
version, the ETag and the stream of that team's phones only: the other team and the table screen see nothing
move, and learn neither that nor how often a team drafts or takes notes.

An event for fewer than everyone is *replaceable*: it has a slot (a draft's: its match, round, transmission
and team; a note's: its match, team and which note), and the latest event of a slot replaces the earlier ones
in the stored log (store.py `append`).
So a team's private steps can neither grow the log nor bring the game to its event limit, which counts the
events everyone sees. Since the replaced events are gone from the log, a replaceable event carries its
`ordinal`, its number among its audience's events, and the fold takes it instead of counting.

What a slot must hold for the log without the replaced events to replay to the same state:
- an event of the slot sets everything that an earlier one of the slot set (a draft: its guess's code, seal
  and author; a note: its text), and no event in between reads it;
- nobody joins, leaves or changes team between the first and the last event of a slot (its audience's
  members stay the same), so counting a replaced event late counts it for the same viewers (teams change
  only in a lobby, and drafts and notes are written only once a match started: a slot names its match).
tests/test_rules_state_machine.py replays the log without the replaced events after every command.

Each event says its audience and slot itself (rules/events.py: `audience`, `slot_in`); `fold.stamp` marks a
replaceable one with its slot and ordinal, and the fold counts every event for its audience (rules/fold.py).

An audience too narrow would leave a screen behind: the same machine checks, after every command, that a
viewer whose version did not move sees exactly the same view.
"""

EVERYONE = "everyone"


def team_audience(team: str) -> str:
    return f"team:{team}"


def seat_audience(seat: int) -> str:
    return f"seat:{seat}"
