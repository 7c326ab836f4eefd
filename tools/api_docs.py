"""docs/api.md's lists of what the code declares, written from the declarations: each list stands between
`<!-- generated: NAME -->` and `<!-- end -->` (on one line, so it may fill a table's cell), and
`scripts/update-docs` writes them (tests/test_docs.py fails while the file differs from what it writes)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from companion.messages import REFUSALS, TASKS
from companion.rules.access import Kind
from companion.rules.commands import COMMANDS
from companion.rules.events import EVENT_TYPES

API_MD = Path(__file__).resolve().parent.parent / "docs" / "api.md"
_GENERATED = re.compile(r"(<!-- generated: ([\w-]+) -->)(.*?)(<!-- end -->)", re.S)


def _names(names: Iterable[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


def _refusals(status: int) -> Callable[[], str]:
    return lambda: _names(code for code, refusal in REFUSALS.items() if refusal.status == status)


LISTS: dict[str, Callable[[], str]] = {
    "event-types": lambda: _names(EVENT_TYPES),
    "tasks": lambda: _names(TASKS),
    "host-commands": lambda: _names(name for name, command in COMMANDS.items() if command.sender == Kind.HOST),
    **{f"refusals-{status}": _refusals(status) for status in sorted({r.status for r in REFUSALS.values()})},
}


def updated(text: str) -> str:
    """`text` with each generated list as the code declares it now; every list is placed once."""
    placed: list[str] = []

    def fill(found: re.Match[str]) -> str:
        start, name, _old, end = found.groups()
        if name not in LISTS:
            raise ValueError(f"no list named {name!r} (tools/api_docs.py: LISTS)")
        placed.append(name)
        return f"{start}{LISTS[name]()}{end}"

    text = _GENERATED.sub(fill, text)
    if sorted(placed) != sorted(LISTS):
        raise ValueError(f"each list once: placed {sorted(placed)}, declared {sorted(LISTS)}")
    return text


def main() -> None:
    API_MD.write_text(updated(API_MD.read_text(encoding="utf-8")), encoding="utf-8")


if __name__ == "__main__":
    main()
