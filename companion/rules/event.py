"""What an event is: a frozen dataclass of typed fields, stored as JSON under a schema version.

Each type of event is one subclass of `Event` (rules/events.py holds them all), which says, once:
- its fields, and `TYPE`, its name in the log;
- its audience (rules/audience.py) and, when that is fewer than everyone, its slot (`Replaceable`);
- how it folds into the game's state (`apply`, which rules/fold.py calls);
- what it does to the game's capability tokens (`capabilities`: the service grants and withdraws them);
- its line in the public log, if it adds one (`NOTICE`: what the line shows, and the sentence that words it).

Stored (store.py `events.data`), an event is its JSON (`to_json`): `{"type": TYPE, "v": VERSION, ...fields}`,
with "v" left out at version 1 and an `optional()` field left out when it is None. `VERSION` numbers the shape
of the fields. Rows stored before versions existed are version 1, whatever code wrote them; a class whose
version-1 rows came in older shapes too is at version 2, and reads them through its upcaster.

Changing a shape: bump the class's `VERSION`, and register beside it the upcaster from the old version, a
small function from the old JSON to the new (`@upcaster(TheEvent, 2) def upcast_the_event_v2_v3(data)`);
`rules.events.read` chains them. tests/test_event_shapes.py fails on a shape changed without both, and
tests/test_corpus.py replays games stored by older code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from .access import Kind
from .audience import EVERYONE

if TYPE_CHECKING:
    from .state import Game

_OPTIONAL = "optional"
STAMP = ("slot", "ordinal")  # what `fold.stamp` adds to a replaceable event; written after its fields


def optional() -> Any:  # a dataclass field, which type checkers take for its default (None)
    """A field that may be None, and is then left out of the stored JSON (as the code before versions did)."""
    return field(default=None, metadata={_OPTIONAL: True})


@dataclass(frozen=True)
class Grant:
    """A capability token an event has the service mint: its kind, team and seat; `in_use`: its phone counts
    as in use from now on (a phone just seated is)."""

    kind: Kind
    team: str | None = None
    seat: int | None = None
    in_use: bool = False


@dataclass(frozen=True)
class CapabilityChanges:
    """What an event does to the game's tokens, in this order: `revoked` (kind, seat) are withdrawn (seat None:
    the game's own token of that kind), `promoted` (kind, new kind, seat) change kind, `grants` are minted."""

    grants: tuple[Grant, ...] = ()
    revoked: tuple[tuple[Kind, int | None], ...] = ()
    promoted: tuple[tuple[Kind, Kind, int | None], ...] = ()


NO_CHANGES = CapabilityChanges()


@dataclass(frozen=True)
class Shown:
    """A field of a notice: what it holds (one of the kinds the API's document types: view_types.NOTICE_VALUES),
    what it means to a client where its kind alone doesn't say, and whether it may be null."""

    holds: str
    doc: str | None = None
    nullable: bool = False


TEAM, SEAT, ENTRY, FLAG, MOMENT = Shown("team"), Shown("seat"), Shown("entry"), Shown("flag"), Shown("moment")


class Notice:
    """The line an event adds to the public log (`game.notices`, every view's `notices`), declared once.

    Its kind is the event's TYPE and its round the round under way (a fold may name another: a correction's).
    `fields`, in order, are all else it shows (never a keyword, an unrevealed code or a sealed guess): each is
    the event's field of that name unless the fold gives its value (`Event.add_notice`). `sentence` names what
    words it on the pages (companion/messages.py `NOTICE_SENTENCES`, or a macro of partials/notices.html);
    `doc` says what it is to an API client. views.py, the OpenAPI document (view_types.py) and docs/api.md read these declarations."""

    def __init__(self, doc: str, sentence: str, **fields: Shown) -> None:
        self.doc, self.sentence, self.fields = doc, sentence, fields


@dataclass(frozen=True, kw_only=True)
class Event:
    TYPE: ClassVar[str]
    VERSION: ClassVar[int] = 1
    NOTICE: ClassVar[Notice | None] = None

    def __post_init__(self) -> None:
        # Lists read from JSON become tuples: an event never changes. (`_names` is cached, and mypy doesn't take
        # a class for hashable: python/mypy#11470.)
        for name in _names(type(self)):  # type: ignore[arg-type]
            value = getattr(self, name)
            if isinstance(value, (list, tuple, dict)):
                object.__setattr__(self, name, _frozen(value))

    @property
    def type(self) -> str:
        return self.TYPE

    def audience(self) -> str:
        """Who sees what this event changes: `EVERYONE`, a team or a seat (rules/audience.py)."""
        return EVERYONE

    def slot_in(self, game: Game) -> str | None:
        """The slot of a replaceable event decided on `game` (rules/audience.py); None for the others."""
        return None

    def apply(self, game: Game) -> None:
        """Fold this event into `game`, in place (rules/fold.py copies first)."""
        raise NotImplementedError(self.TYPE)

    def capabilities(self, game: Game) -> CapabilityChanges:
        """What this event does to the game's tokens; `game` is the state it was decided on."""
        return NO_CHANGES

    def add_notice(self, game: Game, **given: object) -> None:
        """Add this event's line to the public log, as its `NOTICE` declares it: each field the value `given`
        here, else this event's field of that name (`round`, if given, names the round it is about)."""
        notice = self.NOTICE
        assert notice is not None, f"{self.TYPE} declares no notice"
        line = {"kind": self.TYPE, "round": given.pop("round", game.latest_round.number if game.round else 0)}
        for name in notice.fields:
            line[name] = _plain(given.pop(name) if name in given else getattr(self, name))
        assert not given, f"the notice of {self.TYPE} declares no {', '.join(given)}"
        game.notices.append(line)

    def to_json(self) -> dict[str, Any]:
        """The event as it is stored (and as the API's documents name its fields)."""
        data: dict[str, Any] = {"type": self.TYPE, **({"v": self.VERSION} if self.VERSION > 1 else {})}
        for f in sorted(fields(self), key=lambda f: f.name in STAMP):
            value = getattr(self, f.name)
            if value is not None or not f.metadata.get(_OPTIONAL):
                data[f.name] = _plain(value)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        """The event from its JSON at this class's version (`rules.events.read` upgrades older ones first)."""
        given = {key: value for key, value in data.items() if key != "type"}
        unknown = given.keys() - _names(cls)  # type: ignore[arg-type]  # as above: python/mypy#11470
        if unknown:
            raise ValueError(
                f"{cls.TYPE} v{cls.VERSION} has no field {', '.join(sorted(unknown))}: an upcaster "
                "is missing (rules/event.py)"
            )
        return cls(**given)


@dataclass(frozen=True, kw_only=True)
class Replaceable(Event):
    """An event its audience alone sees, which the next event of its slot replaces in the stored log
    (rules/audience.py). `fold.stamp` marks it with its slot and its ordinal, its number among its
    audience's events (the events it replaced are gone, so the fold can't count them)."""

    slot: str | None = optional()
    ordinal: int | None = optional()


# An upcaster: an event's stored JSON at one version -> its JSON at the next.
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
# (event type, version) -> the function that turns that version's JSON into the next version's.
UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def upcaster(event: type[Event], version: int) -> Callable[[Upcaster], Upcaster]:
    """Register the decorated function as the upgrade of `event`'s stored JSON from `version` to the next. It
    returns the next version's JSON, or the JSON of the event an old shape means today (another type)."""

    def register(function: Upcaster) -> Upcaster:
        UPCASTERS[event.TYPE, version] = function
        return function

    return register


@cache
def _names(event: type[Event]) -> frozenset[str]:
    """The names of an event class's fields (read once: a game's load reads every event it stored)."""
    return frozenset(f.name for f in fields(event))


def _frozen(value: object) -> object:
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value


def _plain(value: object) -> object:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
