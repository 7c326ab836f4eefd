"""The very first start on a fresh database always succeeds (issue 10, item 1).

The production command (`decrypto serve`) is started on a database nobody has used yet, with
four workers, while other processes keep every core busy, three times in a row: every start answers
/healthz. Against PostgreSQL, two servers start at once on one fresh database, three times.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager

import pytest

from companion.store import MIGRATIONS, Store, make_engine

from .conftest import empty_postgresql
from .server import ROOT, free_port

pytestmark = [pytest.mark.system, pytest.mark.slow]
# A start takes ~7 s with every core busy; the races a start can lose have tests of their own: the migration
# race released five times, the secret key's once (tests/test_schema.py).
STARTS = 3


@contextmanager
def busy_cpu():
    """One spinning process per core: the workers' imports and schema checks interleave as on a busy laptop."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


class Production:
    """`decrypto serve` as scripts/serve runs it, on a port of its own."""

    def __init__(self, database_url: str, workers: int, **settings: str):
        self.port = free_port()
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "PORT": str(self.port),
            "WORKERS": str(workers),
            "SECRET_KEY": "first-start",
            "PUBLIC_URL": f"http://127.0.0.1:{self.port}/",
            **settings,
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve"],
            cwd=ROOT,
            env=env,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def answers_healthz(self, timeout: float = 60) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False  # gunicorn gave up: "Worker failed to boot"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=5) as answer:
                    if answer.status == 200:
                        return True
            except OSError:
                time.sleep(0.05)
        return False

    def stop(self) -> str:
        """Stops the server; returns what it wrote to stderr (why it died, if it did)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
        _, errors = self.process.communicate(timeout=30)
        return errors.decode(errors="replace")


@pytest.mark.alone
def test_the_first_start_on_a_fresh_sqlite_file_always_answers(tmp_path):
    if os.environ.get("TEST_DATABASE_URL"):
        pytest.skip("the SQLite first start is tried in the SQLite run; PostgreSQL has its own test below")
    with busy_cpu():
        for attempt in range(STARTS):
            url = f"sqlite:///{tmp_path / f'first-{attempt}.sqlite3'}"
            server = Production(url, workers=4)
            try:
                answered = server.answers_healthz()
            finally:
                errors = server.stop()
            assert answered, f"start {attempt + 1} of {STARTS} died:\n{errors[-3000:]}"
            assert Store(make_engine(url)).schema_version() == MIGRATIONS[-1][0]


def test_two_servers_on_one_machine_share_no_file_outside_their_database(tmp_path):
    """Two tables served from one laptop (or the app beside its own tests): gunicorn's control socket, one
    path per user by default, is off."""
    home = tmp_path / "home"
    home.mkdir()
    settings = {"HOME": str(home), "XDG_RUNTIME_DIR": str(home)}
    servers = [
        Production(os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp_path / f'{n}.sqlite3'}", 1, **settings)
        for n in range(2)
    ]
    try:
        assert all(server.answers_healthz() for server in servers)
        assert list(home.rglob("*")) == []
    finally:
        for server in servers:
            server.stop()


@pytest.mark.alone
def test_two_servers_starting_together_on_a_fresh_postgresql_database_both_answer():
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip("needs PostgreSQL: run under scripts/with-postgres (CI does)")
    with busy_cpu():
        for attempt in range(STARTS):
            empty_postgresql(url)
            servers = [Production(url, workers=2), Production(url, workers=2)]
            try:
                answered = [server.answers_healthz() for server in servers]
            finally:
                errors = [server.stop() for server in servers]
            assert all(answered), f"start {attempt + 1} of {STARTS} died:\n" + "\n".join(e[-2000:] for e in errors)
    store = Store(make_engine(url))
    assert store.schema_version() == MIGRATIONS[-1][0]
