"""The kinds of a command's fields, one object each: what JSON value it accepts (the handlers' checks), how
a page's form gives it, and its JSON Schema in the OpenAPI document. A command declares its fields with
these (rules.commands); the rules parse with them, the web layer reads forms with them (web.commands).

A form is read through its `getlist(name) -> list[str]` (a Werkzeug MultiDict's, or any such callable), so
the rules need no web framework. `from_form` raises KeyError when the form doesn't give the field.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeGuard, TypeVar, cast

from . import codes
from .codes import GUESS_TEXT, parse_guess
from .errors import RuleError
from .schema import Schema, array, boolean, enum, integer, nullable, obj, string
from .state import ENTRIES, MAX_ROUNDS, MODES, TEAMS
from .text import LANGUAGES, TIMER_SECONDS

GetList = Callable[[str], list[str]]
Kept_co = TypeVar("Kept_co", covariant=True)  # what the rules keep of a field of a kind


def _first(getlist: GetList, name: str) -> str:
    found = getlist(name)
    if not found:
        raise KeyError(name)
    return found[0]


def _number(value: str) -> int | str:
    """Digits become a number; anything else stays text for the rules to refuse."""
    return int(value) if value.isascii() and value.isdigit() and len(value) < 6 else value


class Kind(Generic[Kept_co]):
    """A kind of field, which the rules keep as a `Kept_co`. Subclasses say what JSON they accept, convert and
    describe."""

    def accepts(self, value: object) -> bool:
        return True

    def convert(self, value: Any) -> Kept_co:
        """An accepted value as the rules keep it: as it came, unless the kind converts it."""
        return cast(Kept_co, value)  # of the kept type: `accepts` checked it

    def parse(self, value: object, refusal: str, **params: object) -> Kept_co:
        """`value` as the rules keep it, or the RuleError `refusal` when it is not of this kind."""
        if not self.accepts(value):
            raise RuleError(refusal, **params)
        return self.convert(value)

    def from_form(self, name: str, getlist: GetList) -> object:
        return _first(getlist, name)

    def schema(self) -> Schema:
        raise NotImplementedError


class Text(Kind[str]):
    def accepts(self, value: object) -> TypeGuard[str]:
        return isinstance(value, str)

    def schema(self) -> Schema:
        return string()


class NullableText(Kind[str | None]):
    """A text, or null."""

    def accepts(self, value: object) -> bool:
        return value is None or isinstance(value, str)

    def schema(self) -> Schema:
        return nullable(string())


class Team(Text):
    def schema(self) -> Schema:
        return enum(TEAMS)


class Choice(Text):
    def __init__(self, *values: str):
        self.values = values

    def accepts(self, value: object) -> TypeGuard[str]:
        return value in self.values

    def schema(self) -> Schema:
        return enum(self.values)


class Boolean(Kind[bool]):
    """A form gives true as "1"."""

    def accepts(self, value: object) -> bool:
        return isinstance(value, bool)

    def from_form(self, name: str, getlist: GetList) -> bool:
        return _first(getlist, name) == "1"

    def schema(self) -> Schema:
        return boolean()


class Number(Kind[int]):
    """A whole number in a range (not True, not 2.0)."""

    def __init__(self, minimum: int, maximum: int | None = None, description: str | None = None):
        self.minimum, self.maximum, self.description = minimum, maximum, description

    def accepts(self, value: object) -> TypeGuard[int]:
        return type(value) is int and value >= self.minimum and (self.maximum is None or value <= self.maximum)

    def from_form(self, name: str, getlist: GetList) -> int | str:
        return _number(_first(getlist, name))

    def schema(self) -> Schema:
        return integer(self.description, minimum=self.minimum, maximum=self.maximum)


class Timer(Kind[int | None]):
    """The sand timer in seconds, or None for none (a form's blank field)."""

    SECONDS = Number(*TIMER_SECONDS)

    def accepts(self, value: object) -> bool:
        return value is None or self.SECONDS.accepts(value)

    def from_form(self, name: str, getlist: GetList) -> int | str | None:
        value = _first(getlist, name)
        return None if not value.strip() else _number(value)

    def schema(self) -> Schema:
        return nullable(self.SECONDS.schema())


class Code(Kind[codes.Code]):
    """A code: three digits from 1 to 4, as a list or a string (rules.codes.parse_guess). A form gives it as
    one field, or as one radio group per clue (`<name>1` to `<name>3`)."""

    DIGIT = Number(1, 4)

    def __init__(self, optional: bool = False):
        self.optional = optional  # the schema allows null (the handler decides when it is needed)

    def accepts(self, value: object) -> bool:
        return parse_guess(value) is not None

    def parse(self, value: object, refusal: str, **params: object) -> codes.Code:
        code = parse_guess(value)
        if code is None:
            raise RuleError(refusal, **params)
        return code

    def from_form(self, name: str, getlist: GetList) -> object:
        if not getlist(name):
            digits = [next(iter(getlist(f"{name}{position}")), None) for position in (1, 2, 3)]
            if any(d is not None for d in digits):
                return [d or "" for d in digits]
        return _first(getlist, name)

    def schema(self) -> Schema:
        code: Schema = {
            "description": "Three digits from 1 to 4, one per clue (a guess may repeat a digit; it is then "
            "wrong): a list, or a string such as \"314\" or \"3-1-4\".",
            "oneOf": [
                array({"oneOf": [self.DIGIT.schema(), enum(["1", "2", "3", "4"])]}, 3),
                {"type": "string", "pattern": GUESS_TEXT.pattern},
            ],
        }
        return nullable(code) if self.optional else code


class Words(Kind[Sequence[object]]):
    """A fixed number of texts (each cleaned by the handler); a form repeats the field."""

    def __init__(self, count: int):
        self.count = count

    def accepts(self, value: object) -> bool:
        return isinstance(value, (list, tuple)) and len(value) == self.count

    def from_form(self, name: str, getlist: GetList) -> list[str]:
        return getlist(name)

    def schema(self) -> Schema:
        return array(string(), self.count)


class Verdicts(Kind[dict[str, tuple[bool, ...]]]):
    """For each team, four booleans; a form gives the numbers (1 to 4) checked as `<name>.<team>`."""

    def accepts(self, value: object) -> bool:
        return (
            isinstance(value, dict)
            and set(value) == set(TEAMS)
            and all(
                isinstance(value[t], (list, tuple))
                and len(value[t]) == 4
                and all(isinstance(v, bool) for v in value[t])
                for t in TEAMS
            )
        )

    def convert(self, value: Any) -> dict[str, tuple[bool, ...]]:
        return {team: tuple(value[team]) for team in TEAMS}

    def from_form(self, name: str, getlist: GetList) -> dict[str, list[bool]]:
        return {team: [str(n) in getlist(f"{name}.{team}") for n in range(1, 5)] for team in TEAMS}

    def schema(self) -> Schema:
        return obj({team: array(boolean(), 4) for team in TEAMS})


TEXT = Text()
TEAM = Team()
BOOLEAN = Boolean()
SEAT = Number(1, description="A player's seat number: 1 for the first player to join, and so on.")
DIGIT = Code.DIGIT  # a keyword's number
MATCH = Number(1)
ROUND = Number(0, MAX_ROUNDS)  # 0: before round 1
LINE = Number(1, MAX_ROUNDS)  # a round's free line in the notes
CORRECTION = Number(1)
TIMER = Timer()
CODE = Code()
OPTIONAL_CODE = Code(optional=True)
CLUES = Words(3)
KEYWORD_GUESSES = Words(4)
VERDICTS = Verdicts()
ENTRY = Choice(*ENTRIES)
LANGUAGE = Choice(*LANGUAGES)
MODE = Choice(*MODES)
WORD_LIST = NullableText()  # the host's own keywords, as typed (rules.text.custom_words reads them)
