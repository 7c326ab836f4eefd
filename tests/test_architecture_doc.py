"""docs/architecture.md names only what exists: every file, every `file: name`, every class or function it
names in backquotes (or a template macro), every refusal code or page class, and every page address it shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.messages import REFUSALS
from companion.rules.commands import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
NAMED = sorted(set(re.findall(r"`([^`\n]+)`", DOC)))
# Where a short path is read from: the doc says `web/auth.py` or `rendering.py` where the section makes it clear.
FOLDERS = ["", "companion", "companion/web", "companion/web/pages", "companion/rules", "static", "tests"]
FILE = re.compile(r"^[\w./-]+(\.(py|js|md|toml|html|cfg)|/)$|^scripts/[\w-]+$")
IN_FILE = re.compile(r"^(?P<file>[\w./-]+\.py): (?P<name>[\w.]+)$")
CODE_NAME = re.compile(r"^(?P<name>[A-Za-z_][\w]*(\.[\w]+)?)(\(.*\))?$")
# Backquoted words that are not names of this code: SQL, HTTP, typing, event names, marks and words of a table.
NOT_OURS = {
    "NOTIFY",
    "Any",
    "UNIQUE(game_id, seq)",
    "If-Match",
    "event: page",
    "event: view",
    "raise",
    "alone",
    "system",
    "apply",
    "capabilities",
    "refusals",
    "companion",
    "tools",
    "live(regions[...])",
}


def resolve(path: str) -> Path | None:
    for folder in FOLDERS:
        candidate = ROOT / folder / path
        if candidate.exists():
            return candidate
    return None


def defines(source: str, name: str) -> bool:
    last = name.rsplit(".", maxsplit=1)[-1]
    pattern = rf"^\s*(def|class|async def) {re.escape(last)}\b|^\s*{re.escape(last)}\s*(:[^=]*)?="
    return re.search(pattern, source, re.M) is not None


CSS = (ROOT / "static" / "app.css").read_text(encoding="utf-8")
SOURCES = {path: path.read_text(encoding="utf-8") for path in (ROOT / "companion").rglob("*.py")}
MACROS = {
    found
    for path in (ROOT / "templates").rglob("*.html")
    for found in re.findall(r"\{%-? macro (\w+)\(", path.read_text(encoding="utf-8"))
}


@pytest.mark.parametrize("named", NAMED)
def test_every_name_in_the_architecture_exists(named):
    if named in NOT_OURS:
        return
    if named in REFUSALS or re.search(rf"\.{re.escape(named)}\b", CSS):  # a refusal's code, a page's class
        return
    if named.startswith("python -m "):  # a module run as a command
        assert resolve(named.removeprefix("python -m ").replace(".", "/") + ".py"), f"no module for {named}"
    elif named.startswith("/"):  # a page's address: a route of the app
        from werkzeug.exceptions import NotFound

        from companion.app import create_app

        urls = create_app().url_map.bind("localhost")
        address = re.sub(r"<[^>]+>", "x", named)
        try:
            _, arguments = urls.match(address, method="POST")
        except NotFound:
            pytest.fail(f"no page answers {named}")
        assert arguments.get("command", "guess") in COMMANDS, f"no command {arguments['command']}"
    elif found := IN_FILE.match(named):
        path = resolve(found["file"])
        assert path, f"no file {found['file']}"
        assert defines(path.read_text(encoding="utf-8"), found["name"]), f"{found['file']} defines no {found['name']}"
    elif FILE.match(named):
        assert resolve(named), f"no file {named}"
    elif found := CODE_NAME.match(named):
        defined = found["name"] in MACROS or any(defines(source, found["name"]) for source in SOURCES.values())
        assert defined, f"nothing defines {named}"
    else:
        pytest.fail(f"{named!r}: neither a file, a name nor an address; list it in NOT_OURS if it is a word")
