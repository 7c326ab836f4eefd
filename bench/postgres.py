"""A throwaway PostgreSQL server on loopback, started by scripts/postgres as scripts/with-postgres starts one,
but with PostgreSQL's default durability (fsync on, like a production server, where scripts/with-postgres
turns it off)."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "postgres"


class Postgres:
    def __init__(self, *settings: str):
        """`settings`: NAME=VALUE, each given to the server as `postgres -c NAME=VALUE`."""
        self.settings = settings
        self.dir = Path(tempfile.mkdtemp(prefix="decrypto-bench-pg."))
        self.port: int | None = None

    def start(self) -> Postgres:
        url = subprocess.run(
            [str(SCRIPT), "start", str(self.dir), *self.settings], check=True, capture_output=True, text=True
        ).stdout.strip()
        self.port = urlsplit(url).port
        return self

    def sql(self, statement: str, database: str = "postgres") -> str:
        """Run `statement` as the superuser; what psql printed (unaligned, tuples only)."""
        return subprocess.run(
            ["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", database, "-qAtc", statement],
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    def database(self, name: str) -> str:
        """An empty database of this name (dropped first if it exists); its URL."""
        self.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        self.sql(f"CREATE DATABASE {name} OWNER decrypto")
        return f"postgresql://decrypto:decrypto@127.0.0.1:{self.port}/{name}"

    def pid(self) -> int:
        """The postmaster's process id."""
        return int((self.dir / "data" / "postmaster.pid").read_text().split()[0])

    def stop(self) -> None:
        subprocess.run([str(SCRIPT), "stop", str(self.dir)], check=False)
        self.port = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
