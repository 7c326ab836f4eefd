"""A throwaway PostgreSQL server on loopback, as scripts/with-postgres starts one (but with PostgreSQL's
default durability: fsync on, like a production server, where scripts/with-postgres turns it off)."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
from pathlib import Path


def _bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
    if not found:
        raise RuntimeError("PostgreSQL is not installed: run bench/install")
    return found[-1]


class Postgres:
    def __init__(self):
        self.bin = _bin()
        self.dir = Path(tempfile.mkdtemp(prefix="decrypto-bench-pg."))
        self.port = 20000 + random.randrange(20000)
        self.started = False

    def _as_postgres(self, *argv: str) -> None:
        command = list(argv)
        if os.getuid() == 0:
            command = ["runuser", "-u", "postgres", "--"] + command
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self) -> "Postgres":
        self.dir.chmod(0o755)
        if os.getuid() == 0:
            shutil.chown(self.dir, "postgres")
        self._as_postgres(str(self.bin / "initdb"), "-D", str(self.dir / "data"), "-A", "trust", "-U", "postgres")
        self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-l", str(self.dir / "log"), "-w",
                          "-o", f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir}", "start")
        self.started = True
        subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-qc",
                        "CREATE ROLE decrypto LOGIN PASSWORD 'decrypto'"], check=True, stdout=subprocess.DEVNULL)
        return self

    def database(self, name: str) -> str:
        """An empty database of this name (dropped first if it exists); its URL."""
        for sql in (f"DROP DATABASE IF EXISTS {name} WITH (FORCE)", f"CREATE DATABASE {name} OWNER decrypto"):
            subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-qc", sql],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return f"postgresql://decrypto:decrypto@127.0.0.1:{self.port}/{name}"

    def pid(self) -> int:
        """The postmaster's process id."""
        return int((self.dir / "data" / "postmaster.pid").read_text().split()[0])

    def stop(self) -> None:
        if self.started:
            try:
                self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "fast", "stop")
            except subprocess.CalledProcessError:
                pass
            self.started = False
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
