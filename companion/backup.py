"""Moving and backing up the games' database (`decrypto backup`, `restore`, and the checkpoint of a clean stop).

SQLite keeps recent writes in its write-ahead log beside the file (`-wal`) until a checkpoint copies them in:
the file alone is the database only after one. A clean stop checkpoints (gunicorn.conf.py `on_exit`); a backup
of a live server uses SQLite's online backup, a consistent copy while phones play. PostgreSQL's are its own
tools, `pg_dump` and `pg_restore`, run on the server's URL.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from sqlalchemy.engine import make_url


class OperationRefused(Exception):
    """An operation that would lose or mix games (the message says why, and what to do)."""


def sqlite_path(database_url: str) -> Path | None:
    """The file of a SQLite URL; None for another database."""
    url = make_url(database_url)
    return Path(url.database) if url.get_backend_name() == "sqlite" and url.database else None


def checkpoint(database_url: str) -> None:
    """Copy SQLite's write-ahead log into the file and empty it, so that the file alone holds every game
    (nothing to do on PostgreSQL)."""
    path = sqlite_path(database_url)
    if path is None or not path.exists():
        return
    with sqlite3.connect(path, timeout=30) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def backup(database_url: str, target: Path) -> None:
    """A copy of the database at `target`, taken while the server runs: every action acknowledged before it
    began is in it. SQLite: one file, written aside and then moved into place; PostgreSQL: `pg_dump`'s
    custom format, for `pg_restore`."""
    path = sqlite_path(database_url)
    if path is None:
        target.touch(mode=0o600)  # pg_dump keeps the mode of a file it overwrites: it holds secrets too
        target.chmod(0o600)
        _run(["pg_dump", "--format=custom", "--no-owner", f"--file={target}", _libpq(database_url)])
        return
    if not path.exists():
        raise OperationRefused(f"There is no database at {path}: nothing to back up.")
    fd, draft = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")  # (mode 0600: it holds secrets)
    os.close(fd)
    try:
        with sqlite3.connect(path, timeout=30) as source, sqlite3.connect(draft) as copy:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")  # one file, with no log beside it
        source.close()
        copy.close()
        os.replace(draft, target)
    finally:
        if os.path.exists(draft):
            os.unlink(draft)


def restore(database_url: str, source: Path) -> None:
    """The database becomes the backup at `source` (its games as they were then). SQLite: only while no
    server uses the file; PostgreSQL: `pg_restore` into the database, its games replacing those there."""
    if not source.exists():
        raise OperationRefused(f"There is no backup at {source}.")
    path = sqlite_path(database_url)
    if path is None:
        _run(["pg_restore", "--clean", "--if-exists", "--no-owner", f"--dbname={_libpq(database_url)}", str(source)])
        return
    with sqlite3.connect(source) as check:
        if check.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            raise OperationRefused(f"{source} is not a whole SQLite database.")
    check.close()
    if path.exists():
        _refuse_if_in_use(path)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, draft = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    os.close(fd)
    shutil.copyfile(source, draft)
    for log in (Path(f"{path}-wal"), Path(f"{path}-shm")):  # the old file's, which would mix into the new
        log.unlink(missing_ok=True)
    os.replace(draft, path)


def _refuse_if_in_use(path: Path) -> None:
    """A server that has the file open holds it in shared mode (WAL): an exclusive lock then fails at once."""
    conn = sqlite3.connect(path, timeout=0)
    try:
        conn.execute("PRAGMA locking_mode=EXCLUSIVE")
        conn.execute("BEGIN EXCLUSIVE")
        conn.rollback()
    except sqlite3.OperationalError:
        raise OperationRefused(f"A server is using {path}: stop it first, then restore.") from None
    finally:
        conn.close()


def _libpq(database_url: str) -> str:
    """A SQLAlchemy URL as PostgreSQL's own tools take it (postgresql://...)."""
    return make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)


def _run(command: list[str]) -> None:
    if shutil.which(command[0]) is None:
        raise OperationRefused(
            f"{command[0]} is not installed: it comes with PostgreSQL's client (Debian: postgresql-client)."
        )
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise OperationRefused(f"{command[0]} failed: {done.stderr.strip()}")
