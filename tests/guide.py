"""The operating guide's commands (docs/operating.md), as the tests that run them read them: every line of its
`sh` blocks, its comment left out. tests/test_operating_guide.py checks that each is run by some test."""

from __future__ import annotations

import re
from pathlib import Path

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "operating.md"


def guide_lines(section: str | None = None) -> list[str]:
    """The shell lines of the guide (of its `## section` alone, if given), without comments or blank lines."""
    text = GUIDE.read_text()
    if section is not None:
        text = re.search(rf"^## {re.escape(section)}\n(.*?)(?=^## |\Z)", text, re.S | re.M).group(1)
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        lines += [
            line.split(" #")[0].strip() for line in block.splitlines() if line.strip() and not line.startswith("#")
        ]
    return lines


def guide_line(starting: str, section: str | None = None) -> str:
    """The one line of the guide (or of `section`) that starts with `starting`."""
    found = [line for line in guide_lines(section) if line.startswith(starting)]
    assert len(found) == 1, f"docs/operating.md should have one `{starting}` line: {guide_lines(section)}"
    return found[0]
