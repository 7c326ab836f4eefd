"""Every command of the operating guide (docs/operating.md) is run by a test as written: the tests read each
line from the guide (tests/guide.py) and run it with this machine's addresses, ports and folders put in.
This file says which test runs which, and runs the backup, restore and expiry lines itself."""

from __future__ import annotations

import importlib
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tools.driver import ApiGame, UrlClient

from .guide import guide_line, guide_lines
from .server import ROOT
from .test_operating import Served, games_as_stored

HTTPS = "tests/test_browser_https.py::test_a_phone_on_the_wifi_gets_the_root_certificate_and_never_a_key"
BACKUP = "tests/test_operating_guide.py::test_the_guides_backup_restore_and_expiry_lines_as_written"
RUN_BY = {  # how a line begins -> the test that runs it
    "ADDRESS=": HTTPS,
    "PUBLIC_URL=https://192.168.1.20/": HTTPS,
    "./scripts/cluster ": "tests/test_cluster.py::test_scripts_cluster_starts_postgresql_the_servers_and_haproxy_and_stops_them_all",
    ".venv/bin/decrypto drain ": "tests/test_cluster_script.py::test_decrypto_drain_takes_a_server_out_of_haproxy_and_back",
    ".venv/bin/decrypto backup ": BACKUP,
    ".venv/bin/decrypto restore ": BACKUP,
    ".venv/bin/decrypto expire": BACKUP,
}
# Lines that install a Debian package: scripts/install-test-tools installs the same for the tests, which check
# the line (tests/test_browser_https.py: test_the_readme_recipe_is_what_the_tests_run).
INSTALLS = ("sudo apt install caddy",)


def test_every_command_of_the_guide_is_run_by_a_test():
    lines = guide_lines()
    assert lines, "the guide has no commands?"
    for line in lines:
        if line in INSTALLS:
            continue
        runners = [test for beginning, test in RUN_BY.items() if line.startswith(beginning)]
        assert len(runners) == 1, f"no test (or more than one) runs this line of docs/operating.md: {line!r}"
        path, name = runners[0].split("::")
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        assert callable(getattr(module, name, None)), f"{runners[0]} (for {line!r}) is no test"
    for beginning in RUN_BY:  # and no runner for a line the guide no longer has
        assert any(line.startswith(beginning) for line in lines), beginning


@pytest.mark.system
def test_the_guides_backup_restore_and_expiry_lines_as_written(tmp_path):
    """In a folder of the operator's (with the app's .venv), on a server's SQLite database: `backup` (into the
    operator's home) while the server runs, `restore` into another database once it is stopped, `expire` with
    nothing old enough."""
    folder = tmp_path / "operator"
    folder.mkdir()
    (folder / ".venv").symlink_to(ROOT / ".venv")
    database = tmp_path / "live" / "decrypto.sqlite3"
    database.parent.mkdir()

    home = tmp_path / "home"  # `~` in the guide's lines
    home.mkdir()

    def run(line: str, database: Path) -> subprocess.CompletedProcess:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "operating", "HOME": str(home)}
        return subprocess.run(["bash", "-c", line], cwd=folder, env=env, capture_output=True, text=True, check=False)

    with Served(database) as server:
        games = [ApiGame(UrlClient(server.url)) for _ in range(2)]
        games[0].round()
        done = run(guide_line(".venv/bin/decrypto backup "), database)
        assert done.returncode == 0, done.stderr
        expired = run(guide_line(".venv/bin/decrypto expire"), database)
        assert expired.returncode == 0 and "Deleted 0 game(s)" in expired.stdout, expired.stderr
    copy = home / guide_line(".venv/bin/decrypto backup ").split()[2].removeprefix("~/")
    assert games_as_stored(copy) == games_as_stored(database)  # (nothing was played after the backup)
    moved = tmp_path / "moved" / "decrypto.sqlite3"
    done = run(guide_line(".venv/bin/decrypto restore "), moved)
    assert done.returncode == 0, done.stderr
    assert games_as_stored(moved) == games_as_stored(database)
    with sqlite3.connect(moved) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
