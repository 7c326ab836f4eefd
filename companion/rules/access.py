"""Who can be asking: each kind of capability token, what its holder may see and do, and `Who` is asking.

A request learns it from its token or the phone's seat cookie (web/auth.py: a stored `Capability`, then its
`who`), never from a field of the request; a stream asks again on every change, following what each event did
to the tokens (web/stream.py); a command is decided for the `Who` that sent it (rules/decide.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum


class Kind(StrEnum):
    """A capability's kind, as stored (store.py `capabilities.kind`): each member is its own string."""

    HOST = "host"  # the table screen: sees the public game and the host's panel; runs the game
    JOIN = "join"  # a team's join link: sees the public game as that team's; joins it (a seat)
    SEAT = "seat"  # a player's phone: sees its team's secrets and, as Encryptor, its code; plays
    SPECTATOR = "spectator"  # the watch link: sees the public game; does nothing
    HANDOFF = "handoff"  # a seat's new link from the table screen: sees the public game; claims that seat
    WAITING = "waiting"  # a new phone that used a seat link, until let in: sees what its seat link showed
    TABLE_MOVE = "table_move"  # a one-time link: sees no game; makes its device the table screen
    MOVED = "moved"  # the old host token of a table screen that moved: grants nothing; told where it went
    REPLACED = "replaced"  # a waiting phone's, after its seat got a newer link: grants nothing; told so


# Kept only so that their holder is told why they grant nothing any more (web/auth.py).
TOMBSTONES = (Kind.MOVED, Kind.REPLACED)

# The kinds a view is shown to (its `viewer.role`), in the order the OpenAPI document lists them.
VIEWER_KINDS = (Kind.SEAT, Kind.HOST, Kind.SPECTATOR, Kind.JOIN, Kind.HANDOFF)


@dataclass(frozen=True)
class Who:
    """Who is asking, or sending a command: always from a capability token, never from the request's body."""

    kind: Kind
    team: str | None = None  # for JOIN and SEAT
    seat: int | None = None  # for SEAT, HANDOFF and WAITING; for JOIN, the seat this phone already holds, if any

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", Kind(self.kind))  # (an unknown kind fails here, not in a view)

    @property
    def player_seat(self) -> int | None:
        """The seat whose team's private events this one sees: a player's own; None for every other kind (a
        waiting phone has not taken its seat yet)."""
        return self.seat if self.kind == Kind.SEAT else None

    @property
    def as_viewer(self) -> Who:
        """Who this one sees the game as: a new phone waiting to be let in sees what its seat link showed
        (web/pages/phone.py `play`), nothing more."""
        return replace(self, kind=Kind.HANDOFF) if self.kind == Kind.WAITING else self


HOST = Who(Kind.HOST)
SPECTATOR = Who(Kind.SPECTATOR)
