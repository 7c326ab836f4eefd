"""A command, declared once as a class: who sends it, the phases it is legal in, its typed fields and targets,
its refusals and documentation, its stale checks and its handler. The registry (rules.commands), `decide`, the
web layer's parsers and the OpenAPI document all read these declarations.

A field is read by its kind (rules.fields) when the handler first reads it, and refused then with its own
refusal: the handler's checks keep their order (a join in a started game is refused for the phase, not for its
name). A target is what the player's screen showed (`Seen`); each target's path says where a page's form finds
it in the sender's view (`rules.commands.targets_for`).
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar, cast, overload

from . import fields
from .access import Kind, Who
from .errors import RuleError
from .event import Event
from .guards import PHASE_REFUSALS, SENDER_REFUSALS, require_real_game, seated_player
from .state import LOBBY, PHASES, Game, Player
from .targets import stale

T = TypeVar("T")

ANY_PHASE = PHASES  # a command that answers by what is pending (a reveal, a correction, a seat link), not the phase
NO_BODY: Mapping[str, object] = {}  # the example of a command without fields


class _Declared(Generic[T]):
    """What a field and a target share: the name it is declared under, its kind, its documentation."""

    required = True
    path: str | None = None  # a target's place in the sender's view (rules.targets.find)

    def __init__(self, kind: fields.Kind[T], doc: str, key: str | None = None) -> None:
        self.kind, self.doc = kind, doc
        self.name = key or ""  # its name in the body: `key`, or the attribute's

    def __set_name__(self, owner: type[Any], name: str) -> None:
        self.name = self.name or name

    def peek(self, command: Command) -> T | None:
        """The value sent, if it is of the field's kind; else None, never a refusal (a stale check looks
        before the handler reads it)."""
        value = command.sent.get(self.name)
        return cast(T, value) if self.kind.accepts(value) else None

    @property
    def has_default(self) -> bool:
        return False

    @property
    def default(self) -> object:
        return None


class _Missing:
    """No default: the field is required."""


_MISSING = _Missing()


class Field(_Declared[T]):
    """A field of the body: required, unless it has a `default`; a value not of its kind is refused with
    `refusal` (and `params`) when the handler reads it."""

    def __init__(
        self,
        kind: fields.Kind[T],
        doc: str,
        refusal: str,
        default: T | _Missing = _MISSING,
        params: Mapping[str, object] | None = None,
        key: str | None = None,
    ) -> None:
        super().__init__(kind, doc, key)
        self.refusal, self.params, self._default = refusal, dict(params or {}), default
        self.required = isinstance(default, _Missing)

    @property
    def has_default(self) -> bool:
        return not self.required

    @property
    def default(self) -> object:
        return None if isinstance(self._default, _Missing) else self._default

    @overload
    def __get__(self, command: None, owner: type[Any]) -> Field[T]: ...
    @overload
    def __get__(self, command: Command, owner: type[Any]) -> T: ...
    def __get__(self, command: Command | None, owner: type[Any]) -> Field[T] | T:
        if command is None:
            return self
        if self.name in command.sent:
            return self.kind.parse(command.sent[self.name], self.refusal, **self.params)
        if isinstance(self._default, _Missing):
            raise RuleError(self.refusal, **self.params)
        return self._default


class OptionalField(_Declared[T]):
    """A field that may be left out, or null: None then; any other value not of its kind is refused with
    `refusal` when the handler reads it."""

    required = False

    def __init__(self, kind: fields.Kind[T], doc: str, refusal: str) -> None:
        super().__init__(kind, doc)
        self.refusal = refusal

    @overload
    def __get__(self, command: None, owner: type[Any]) -> OptionalField[T]: ...
    @overload
    def __get__(self, command: Command, owner: type[Any]) -> T | None: ...
    def __get__(self, command: Command | None, owner: type[Any]) -> OptionalField[T] | T | None:
        if command is None:
            return self
        value = command.sent.get(self.name)
        return None if value is None else self.kind.parse(value, self.refusal)


@dataclass(frozen=True)
class Seen(Generic[T]):
    """A target as a command names it: what its player's screen showed (`named`: false when left out)."""

    named: bool = False
    sent: object = None  # as sent
    value: T | None = None  # `sent`, when it is of the target's kind

    def differs(self, now: object) -> bool:
        """Named, and not `now` (a value of another type never matches: True is not 1)."""
        return self.named and (type(self.sent) is not type(now) or self.sent != now)


# A target's own stale check (the match and round every command may name): the refusal, or None.
SeenCheck = Callable[[Game, "Seen[Any]"], RuleError | None]


class Target(_Declared[T]):
    """A target: always optional; `path` is its place in the sender's view; `check`, the stale check that
    comes with it wherever it is declared."""

    required = False

    def __init__(
        self, kind: fields.Kind[T], doc: str, path: str, check: SeenCheck | None = None, key: str | None = None
    ) -> None:
        super().__init__(kind, doc, key)
        self.path, self.check = path, check

    @overload
    def __get__(self, command: None, owner: type[Any]) -> Target[T]: ...
    @overload
    def __get__(self, command: Command, owner: type[Any]) -> Seen[T]: ...
    def __get__(self, command: Command | None, owner: type[Any]) -> Target[T] | Seen[T]:
        if command is None:
            return self
        if self.name not in command.sent:
            return Seen()
        sent = command.sent[self.name]
        return Seen(True, sent, cast(T, sent) if self.kind.accepts(sent) else None)


def _round_number(game: Game) -> int:
    return game.round.number if game.round else 0


def _match_over(game: Game, seen: Seen[Any]) -> RuleError | None:
    return stale("match_over") if seen.differs(game.match) else None


def _round_moved(game: Game, seen: Seen[Any]) -> RuleError | None:
    return stale("round_moved", now=_round_number(game)) if seen.differs(_round_number(game)) else None


def match_target() -> Target[int]:
    return Target(fields.MATCH, "The match the player saw (`view.match`).", "match", _match_over)


def round_target(path: str = "round") -> Target[int]:
    return Target(fields.ROUND, "The round the player saw (`view.round`).", path, _round_moved)


def _words(value: object) -> tuple[str, ...]:
    return tuple(w for w in value if isinstance(w, str)) if isinstance(value, (list, tuple)) else ()


def _moment(value: object) -> float | None:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _seats(value: object) -> Collection[int] | None:
    return tuple(s for s in value if isinstance(s, int)) if isinstance(value, (list, tuple, set, frozenset)) else None


def phase_refusals(*allowed: str) -> tuple[str, ...]:
    """The refusals of a command allowed only in the phases `allowed`."""
    return tuple(dict.fromkeys(code for phase, code in PHASE_REFUSALS.items() if phase not in allowed))


TEXT_REFUSALS = ("text_too_long", "text_has_control_characters")
LOBBY_ONLY = ("try_out_fixed_seats", *phase_refusals(LOBBY))  # a lobby command refused in a try-out


def seat_field(doc: str = "The player's seat (see `teams.<team>.players`).") -> Field[int]:
    return Field(fields.SEAT, doc, "no_such_player")


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


_REQUIRED = ("sender", "phases", "summary", "description", "example")
_FieldLike = Field[Any] | OptionalField[Any]


class Command:
    """One command. A subclass declares, as class attributes: `sender` (the `Kind` of capability that sends it:
    HOST, SEAT, JOIN, HANDOFF, TABLE_MOVE), `phases` (the phases it is legal in, checked here before its handler;
    ANY_PHASE for a command that answers by what is pending), `summary` and `description` (the documentation),
    `example` (a body, shown in the OpenAPI document; {} for a command without fields), its fields (`Field`,
    `OptionalField`) and targets (`Target`), and `refusals` (the rules' refusals besides the sender's and
    correction_pending). Its handler is `decide`; `stale` is its own stale check, if any.

    Its names come from the class's: `PauseTimer` is `pause-timer` in the URL, `pause_timer` to the rules
    and `pauseTimer` in the OpenAPI document (`url` and `operation` keep the names clients knew before)."""

    sender: ClassVar[Kind]
    phases: ClassVar[tuple[str, ...]]
    summary: ClassVar[str]
    description: ClassVar[str]
    example: ClassVar[Mapping[str, object]]
    refusals: ClassVar[tuple[str, ...]] = ()
    answer: ClassVar[str] = "CommandResult"  # the OpenAPI schema of its answer
    url: ClassVar[str | None] = None  # the URL name, where it isn't the class's
    operation: ClassVar[str | None] = None  # the operationId, where it isn't the class's
    in_api: ClassVar[bool] = True  # false: sent by the pages only (creating a game, moving the table screen)
    during_correction: ClassVar[bool] = False  # allowed while a correction waits for both sides
    real_game_only: ClassVar[bool] = False  # refused in a try-out (its seats are fixed): after the phase
    draws_words: ClassVar[bool] = False  # the service passes the language's word pack (`pack`)
    timed: ClassVar[bool] = False  # the service passes its clock (`at`: the sand timer, the log's times)
    phones_in_use: ClassVar[bool] = False  # the service passes the seats whose phone is in use (`in_use`)
    seats_a_phone: ClassVar[bool] = False  # counts against the join rate limit
    careful: ClassVar[str | None] = None  # its button takes a second tap: the field naming what it acts on

    # Worked out from the declaration (__init_subclass__).
    name: ClassVar[str]  # in the URL: /api/games/<game_id>/<name>
    type: ClassVar[str]  # the rules' name, in `decide(game, {"type": ...})`
    operation_id: ClassVar[str]
    fields: ClassVar[tuple[_FieldLike, ...]] = ()
    targets: ClassVar[tuple[Target[Any], ...]] = ()

    def __init_subclass__(cls, abstract: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if abstract:
            return
        missing = [name for name in _REQUIRED if not hasattr(cls, name)]
        if missing:
            raise TypeError(f"{cls.__name__} declares no {', '.join(missing)}")
        cls.type = _snake(cls.__name__)
        cls.name = cls.url or cls.type.replace("_", "-")
        first, *rest = cls.type.split("_")
        cls.operation_id = cls.operation or first + "".join(word.title() for word in rest)
        declared = [v for klass in reversed(cls.__mro__) for v in vars(klass).values()]
        cls.fields = tuple(dict.fromkeys(v for v in declared if isinstance(v, (Field, OptionalField))))
        cls.targets = tuple(dict.fromkeys(v for v in declared if isinstance(v, Target)))
        if cls.type in DECLARED:
            raise TypeError(f"two commands named {cls.type}")
        DECLARED[cls.type] = cls

    def __init__(
        self,
        sent: Mapping[str, object] | None = None,
        pack: Sequence[str] = (),
        at: float | None = None,
        in_use: Collection[int] | None = None,
    ) -> None:
        """`sent`: the body's fields and targets as sent (JSON values; others are left out). What the service
        adds, never read from a request: `pack`, the language's words; `at`, its clock; `in_use`, the seats
        whose phone is in use (None: every phone counts as in use)."""
        names = {f.name for f in (*self.fields, *self.targets)}
        self.sent: dict[str, object] = {k: v for k, v in (sent or {}).items() if k in names}
        self.pack, self.at, self.in_use = tuple(pack), at, in_use

    @classmethod
    def read(cls, command: Mapping[str, object]) -> Self:
        """The command from the rules' own form: `{"type": ..., its fields..., what the service adds...}` (the
        pack as `words`)."""
        return cls(command, _words(command.get("words")), _moment(command.get("at")), _seats(command.get("in_use")))

    def given(
        self,
        pack: Sequence[str] | None = None,
        at: float | None = None,
        in_use: Collection[int] | None = None,
    ) -> Self:
        """This command with what the service adds to it."""
        command = copy.copy(self)
        if pack is not None:
            command.pack = tuple(pack)
        if at is not None:
            command.at = at
        if in_use is not None:
            command.in_use = in_use
        return command

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.sent!r})"

    # --- what the rules run -------------------------------------------------------------------

    def run(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        """The command's events, after the checks every command shares, in this order: who sends it, a pending
        correction, its stale targets, a seat's player, the phase, a real game."""
        if actor.kind != self.sender:
            raise RuleError(SENDER_REFUSALS[self.sender])
        if game.correction is not None and not self.during_correction:
            raise RuleError("correction_pending")
        for target in self.targets:  # the match and round the player saw, then the command's own
            problem = target.check(game, target.__get__(self, type(self))) if target.check else None
            if problem is not None:
                raise problem
        problem = self.stale(game, actor)
        if problem is not None:
            raise problem
        if self.sender == Kind.SEAT:
            seated_player(game, actor)
        if game.phase not in self.phases:
            raise RuleError(self.phase_problem(game))
        if self.real_game_only:
            require_real_game(game)
        return self.decide(game, actor, rng)

    def stale(self, game: Game, actor: Who) -> RuleError | None:
        """The refusal `stale` when the game moved on since the player's screen (rules.targets), else None."""
        return None

    def phase_problem(self, game: Game) -> str:
        """The refusal of this command in a phase not its own."""
        return PHASE_REFUSALS[game.phase]

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        """The handler: the command's events, or the RuleError it breaks. It never changes `game`."""
        raise NotImplementedError


DECLARED: dict[str, type[Command]] = {}  # every command by its rules' name, as declared (rules.commands)


class HostCommand(Command, abstract=True):
    sender = Kind.HOST


class SeatCommand(Command, abstract=True):
    """A command a seated player sends: its handler is `play`, given that player."""

    sender = Kind.SEAT

    def decide(self, game: Game, actor: Who, rng: random.Random) -> list[Event]:
        return self.play(game, seated_player(game, actor), rng)

    def play(self, game: Game, player: Player, rng: random.Random) -> list[Event]:
        raise NotImplementedError
