"""Starting the app (or the bare app) under gunicorn exactly as production does, and reading its workers.

The arguments are captured from `companion.serve.main()` itself (its `os.execv` is intercepted), so the
benchmark runs the same worker class, worker count and threads as `scripts/serve`; only the address
(loopback) and, for the ceiling, the application module differ.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
SECRET_KEY = "bench-secret-key"
# The servers run from what production installs (scripts/serve), not from the benchmark's own environment
# with the test tools: qrcode imports Pillow when it is installed, 4 MB of a worker (bench/install).
SERVE_ENV = ROOT / ".venv-serve"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def production_command(port: int, workers: int) -> tuple[list[str], dict[str, str]]:
    """The gunicorn command line `python -m companion.serve` runs (WORKERS and PORT as given), and the
    environment variables it sets for gunicorn."""
    from companion import serve

    captured = {}
    before = dict(os.environ)

    def execv(path, argv):
        captured["argv"] = list(argv)
        captured["env"] = {k: v for k, v in os.environ.items() if k not in before}
        raise SystemExit(0)

    env = {"PORT": str(port), "PUBLIC_URL": f"http://127.0.0.1:{port}/", "WORKERS": str(workers)}
    with (
        mock.patch.dict(os.environ, env),
        mock.patch("os.execv", execv),
        mock.patch("builtins.print", lambda *a, **k: None),
        contextlib.suppress(SystemExit),
    ):
        serve.main()
    return captured["argv"], captured["env"]


class Server:
    """gunicorn in its own process group; stdout (the access log) and stderr go to `log`."""

    def __init__(
        self,
        log: Path,
        database_url: str | None = None,
        app: str = "app:app",
        workers: int = 2,
    ):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.app = app
        # Every simulated phone and bot comes from loopback: no per-address limits, no per-address share of
        # streams (bench/crowd.py puts production's back).
        self.env = {
            **os.environ,
            "SECRET_KEY": SECRET_KEY,
            "PUBLIC_URL": self.url + "/",
            "RATE_LIMITS": "off",
            "STREAMS_PER_ADDRESS": "1000000",
            "WORKERS": str(workers),
        }
        if database_url:
            self.env["DATABASE_URL"] = database_url
        self.argv, production_env = production_command(self.port, workers)
        self.production_env = {k: v for k, v in production_env.items() if k not in ("PORT", "PUBLIC_URL", "WORKERS")}
        self.env.update(self.production_env)
        self.argv = [a.replace(f"0.0.0.0:{self.port}", f"127.0.0.1:{self.port}") for a in self.argv]
        self.argv[0] = str(SERVE_ENV / "bin" / "gunicorn")
        if not os.path.exists(self.argv[0]):
            raise RuntimeError(f"no {self.argv[0]}: run bench/install first")
        self.argv[-1] = app
        self.process: subprocess.Popen | None = None

    def describe(self) -> str:
        return " ".join([f"{k}={v}" for k, v in self.production_env.items()] + ["gunicorn"] + self.argv[1:])

    def start(self, timeout: float = 60) -> Server:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                self.argv, cwd=ROOT, env=self.env, start_new_session=True, stdout=log, stderr=log
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited:\n{self.log.read_text()[-3000:]}")
            try:
                if self.get("/healthz")[0] == 200 and len(self.workers()) == int(self.env["WORKERS"]):
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        raise TimeoutError("the server did not answer /healthz")

    def get(self, path: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request("GET", path, headers=headers or {})
            answer = connection.getresponse()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
        finally:
            connection.close()

    def workers(self) -> list[int]:
        """The worker processes' ids (the master's children)."""
        if self.process is None:
            return []
        try:
            children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        except OSError:
            return []
        return [int(pid) for pid in children]

    def rss_mb(self) -> list[float]:
        """Each worker's resident set size (VmRSS), in MB (MiB)."""
        sizes = []
        for pid in self.workers():
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    sizes.append(int(line.split()[1]) / 1024)
        return sizes

    def errors(self) -> list[str]:
        return [
            line
            for line in self.log.read_text(errors="replace").splitlines()
            if "Traceback" in line or "[ERROR]" in line or "CRITICAL" in line
        ]

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
