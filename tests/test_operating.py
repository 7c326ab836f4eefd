"""An operator's day (docs/operating.md): a clean stop leaves the database in one file, a backup taken while
phones play keeps every acknowledged action and restores into a fresh server, idle games go on an idle server,
and `decrypto` does each by itself. Every server here is `decrypto serve`, as production runs it."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tools.driver import ApiGame, UrlClient

from .server import ROOT, free_port

pytestmark = pytest.mark.system
WAIT = 30  # seconds a server may take to start or stop on a busy two-core machine


class Served:
    """`decrypto serve` on a SQLite file (its settings otherwise production's), in a process group of its own."""

    def __init__(self, database: Path, **settings: str):
        self.database, self.port = database, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{database}",
            "PORT": str(self.port),
            "BIND": "127.0.0.1",
            "PUBLIC_URL": self.url,
            "SECRET_KEY": "operating",
            "RATE_LIMITS": "off",
            **settings,
        }
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Served:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve"],
            cwd=ROOT,
            env=self.env,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + WAIT
        while not self._answers():
            assert self.process.poll() is None, self.process.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, "the server did not answer /healthz"
            time.sleep(0.05)
        return self

    def _answers(self) -> bool:
        try:
            return UrlClient(self.url).get("/healthz").status_code == 200
        except OSError:
            return False

    def stop(self, how: signal.Signals = signal.SIGTERM, group: bool = False) -> None:
        """Stop it as an operator does: SIGTERM to gunicorn (systemd, `kill`), or Ctrl+C in its terminal
        (SIGINT to the whole process group)."""
        os.killpg(self.process.pid, how) if group else os.kill(self.process.pid, how)
        self.process.wait(timeout=WAIT)

    def __exit__(self, *exc) -> None:
        if self.process.poll() is None:
            self.stop()


def decrypto(*arguments: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def games_as_stored(database: Path) -> dict[str, list[tuple]]:
    """Each game's event log, as the file holds it: (seq, type, audience, data)."""
    with sqlite3.connect(database) as conn:
        rows = conn.execute("SELECT game_id, seq, type, audience, data FROM events ORDER BY game_id, seq").fetchall()
    conn.close()
    games: dict[str, list[tuple]] = {}
    for game_id, *event in rows:
        games.setdefault(game_id, []).append(tuple(event))
    return games


@pytest.mark.parametrize("how,group", [(signal.SIGTERM, False), (signal.SIGINT, True)], ids=["SIGTERM", "Ctrl+C"])
def test_after_a_clean_stop_the_file_alone_serves_every_game(tmp_path, how, group):
    database = tmp_path / "live" / "decrypto.sqlite3"
    database.parent.mkdir()
    with Served(database) as server:
        games = [ApiGame(UrlClient(server.url)) for _ in range(6)]
        for game in games:
            game.round()
        views = {game.id: game.view(game.host) for game in games}
        server.stop(how, group)
        said = server.process.stderr.read().decode()
    assert "Traceback" not in said and "Shutting down" in said, said  # a stop is no error
    wal = Path(f"{database}-wal")
    assert not wal.exists() or wal.stat().st_size == 0, "the write-ahead log still holds games"
    moved = tmp_path / "moved" / "decrypto.sqlite3"
    moved.parent.mkdir()
    shutil.copyfile(database, moved)  # the one file, as `cp` or a USB stick moves it
    with Served(moved) as server:
        for game in games:
            game.client = UrlClient(server.url)
            assert game.view(game.host) == views[game.id]


def test_a_clean_stop_writes_the_phones_marks_the_workers_kept(tmp_path):
    """A phone's routine "in use" mark waits to be written with others (companion/seen.py); a stop writes it."""
    database = tmp_path / "decrypto.sqlite3"
    with Served(database) as server:
        game = ApiGame(UrlClient(server.url))
        token = game.seats["Abe"]
        with sqlite3.connect(database) as conn:  # Abe's phone last written 70 s ago: its next mark is kept
            conn.execute("UPDATE capabilities SET seen_at = seen_at - 70 WHERE token = ?", (token,))
        conn.close()
        asked = time.time()
        game.view(token)
        server.stop()
    with sqlite3.connect(database) as conn:
        [(seen_at,)] = conn.execute("SELECT seen_at FROM capabilities WHERE token = ?", (token,)).fetchall()
    conn.close()
    assert seen_at >= asked


def test_a_backup_taken_while_phones_play_keeps_every_acknowledged_action_and_restores(tmp_path):
    database = tmp_path / "live" / "decrypto.sqlite3"
    database.parent.mkdir()
    copy = tmp_path / "backup.sqlite3"
    with Served(database) as server:
        games = [ApiGame(UrlClient(server.url)) for _ in range(4)]
        acknowledged: list[tuple[float, str, int]] = []  # (when the answer came, game, the table's version then)
        playing = threading.Event()
        playing.set()

        def play(game: ApiGame) -> None:
            while playing.is_set() and game.view(game.host)["phase"] != "over":
                game.round(white=(False, False), black=(True, False))
                acknowledged.append((time.monotonic(), game.id, game.view(game.host)["version"]))

        players = [threading.Thread(target=play, args=(game,)) for game in games]
        for player in players:
            player.start()
        while len(acknowledged) < 2:  # phones are playing
            time.sleep(0.05)
        began = time.monotonic()
        done = decrypto("backup", str(copy), env=server.env)
        assert done.returncode == 0, done.stderr
        playing.clear()
        for player in players:
            player.join(timeout=WAIT)
        live = games_as_stored(database)
    backed_up = games_as_stored(copy)
    seen_by_all = {game_id: sum(e[2] == "everyone" for e in events) for game_id, events in backed_up.items()}
    for when, game_id, version in acknowledged:
        if when < began:  # acknowledged before the backup began: in it (a version counts the events all see)
            assert seen_by_all[game_id] >= version, (game_id, seen_by_all[game_id], version)
    for game_id, events in backed_up.items():
        assert events == live[game_id][: len(events)]  # each game as it stood at one moment
    assert oct(copy.stat().st_mode & 0o777) == "0o600"

    fresh = tmp_path / "fresh" / "decrypto.sqlite3"
    settings = {**server.env, "DATABASE_URL": f"sqlite:///{fresh}"}
    done = decrypto("restore", str(copy), env=settings)
    assert done.returncode == 0, done.stderr
    with Served(fresh) as restored:
        for game in games:
            game.client = UrlClient(restored.url)
            assert game.view(game.host)["version"] == seen_by_all[game.id]


def test_a_restore_refuses_a_database_a_server_is_using(tmp_path):
    database = tmp_path / "live" / "decrypto.sqlite3"
    database.parent.mkdir()
    copy = tmp_path / "backup.sqlite3"
    with Served(database) as server:
        ApiGame(UrlClient(server.url))
        assert decrypto("backup", str(copy), env=server.env).returncode == 0
        before = games_as_stored(database)
        refused = decrypto("restore", str(copy), env=server.env)
        assert refused.returncode == 1 and "stop it first" in refused.stderr
        assert games_as_stored(database) == before
    missing = decrypto("restore", str(tmp_path / "none.sqlite3"), env=server.env)
    assert missing.returncode == 1 and "There is no backup" in missing.stderr


def test_an_idle_server_deletes_an_expired_game_and_nothing_else(tmp_path):
    database = tmp_path / "live" / "decrypto.sqlite3"
    database.parent.mkdir()
    with Served(database, GAME_EXPIRY_HOURS="1", EXPIRY_CHECK_SECONDS="0.2") as server:
        old, kept = ApiGame(UrlClient(server.url)), ApiGame(UrlClient(server.url))
        with sqlite3.connect(database) as conn:  # nobody played `old` for two hours
            conn.execute("UPDATE events SET created_at = datetime('now', '-2 hours') WHERE game_id = ?", (old.id,))
        conn.close()
        deadline = time.monotonic() + WAIT
        while old.id in games_as_stored(database):  # nobody asks the server anything meanwhile
            assert time.monotonic() < deadline, "the idle game is still there"
            time.sleep(0.1)
        assert kept.id in games_as_stored(database)
        assert kept.view(kept.host)["phase"] == "playing"


def test_a_database_a_newer_release_upgraded_is_neither_migrated_nor_served(tmp_path):
    """An operator who went back to an older checkout after an upgrade gets one sentence, not a traceback
    from every worker, and the database is left as the newer release wrote it."""
    from .test_schema import newer_database

    database = tmp_path / "decrypto.sqlite3"
    newer_database(database).engine.dispose()
    before = database.read_bytes()
    env = Served(database).env
    for command in ("migrate", "serve"):
        refused = subprocess.run(
            [sys.executable, "-m", "companion.cli", command],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=WAIT,
            check=False,
        )
        assert refused.returncode != 0, refused.stdout
        assert "newer than this release's" in refused.stderr and "Traceback" not in refused.stderr, refused.stderr
    assert database.read_bytes() == before


@pytest.mark.skipif(
    not os.environ.get("TEST_DATABASE_URL"), reason="on PostgreSQL only: the PostgreSQL pass of .ci/run runs it"
)
def test_on_postgresql_a_backup_is_private_and_restores_the_games_as_they_were(tmp_path):
    """`decrypto backup` runs pg_dump and `decrypto restore` pg_restore: the games come back as they stood at
    the backup, and the file, which holds every secret, is the operator's alone even where one was already."""
    from sqlalchemy import text

    from companion.store import make_engine

    from .conftest import empty_postgresql

    url = os.environ["TEST_DATABASE_URL"]
    empty_postgresql(url)
    copy = tmp_path / "backup.dump"
    copy.write_bytes(b"last week's")
    copy.chmod(0o644)

    def stored() -> list[tuple]:
        engine = make_engine(url)
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT game_id, seq, type, data FROM events ORDER BY game_id, seq")).all()
        engine.dispose()
        return [tuple(row) for row in rows]

    with Served(tmp_path / "unused.sqlite3", DATABASE_URL=url) as server:
        games = [ApiGame(UrlClient(server.url)) for _ in range(2)]
        games[0].round(white=(False, False), black=(True, False))
        done = decrypto("backup", str(copy), env=server.env)
        assert done.returncode == 0, done.stderr
        at_backup, versions = stored(), [game.view(game.host)["version"] for game in games]
        games[1].round(white=(False, False), black=(True, False))  # after the backup: gone once restored
        assert stored() != at_backup
    assert oct(copy.stat().st_mode & 0o777) == "0o600"
    done = decrypto("restore", str(copy), env=server.env)
    assert done.returncode == 0, done.stderr
    assert stored() == at_backup
    with Served(tmp_path / "unused.sqlite3", DATABASE_URL=url) as restored:
        for game in games:
            game.client = UrlClient(restored.url)
        assert [game.view(game.host)["version"] for game in games] == versions


def test_a_restart_needs_no_package_registry():
    """`scripts/serve` and `scripts/test` install with pip only when pyproject.toml changed since pip last
    succeeded: a laptop restarting the app at a table without internet starts it (a pip that ran here would
    fail on the constraints file that does not exist)."""
    venv = ["bash", "-c", 'source scripts/venv.sh "[test,postgres]"']
    assert (
        subprocess.run(venv, cwd=ROOT, capture_output=True, check=False).returncode == 0
    )  # (pip, if nothing stamped yet)
    offline = {**os.environ, "PIP_CONSTRAINT": "/nonexistent/constraints.txt", "PIP_NO_INDEX": "1"}
    again = subprocess.run(venv, cwd=ROOT, env=offline, capture_output=True, text=True, timeout=WAIT, check=False)
    assert again.returncode == 0, again.stderr
