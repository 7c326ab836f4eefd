"""Running the real server (gunicorn, several workers) in its own process group, for crash tests."""

from __future__ import annotations

import contextlib
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_ports_in_a_row(count: int) -> int:
    """The first of `count` consecutive free ports, for a command that takes one port and counts on from it
    (scripts/cluster: PORT, PORT+1...). Below the kernel's ephemeral range, which free_port() and every
    outgoing connection draw from: a port after a free_port() one could be taken by any of them meanwhile."""
    lowest = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    for first in random.sample(range(10000, lowest - count), 200):
        try:
            with contextlib.ExitStack() as held:
                for port in range(first, first + count):
                    held.enter_context(socket.socket()).bind(("0.0.0.0", port))
            return first
        except OSError:
            continue
    raise RuntimeError(f"no {count} free ports in a row below {lowest}")


class Server:
    def __init__(self, database_url: str, workers: int = 2, worker_class: str = "sync", app: str = "app:app"):
        """`app`: what gunicorn serves, e.g. `companion:create_app({...})` for settings of a test's own."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # The bots of the load and crash tests all play from 127.0.0.1: no per-address rate limits.
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "SECRET_KEY": "crash-test",
            "PUBLIC_URL": self.url,
            "RATE_LIMITS": "off",
        }
        self.workers, self.worker_class = workers, worker_class  # "gevent" as in production, for streams
        self.app = app
        self.process = None
        self.open_files: int | None = None  # the server's limit on open files, soft and hard (`ulimit -n`)

    def start(self, timeout: float = 30, access_log: bool = False) -> None:
        """`access_log`: gunicorn's access log on, in `self.process.stderr` with its error log."""
        gunicorn = Path(sys.executable).parent / "gunicorn"
        self.process = subprocess.Popen(
            [
                str(gunicorn),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(self.workers),
                "--worker-class",
                self.worker_class,
                *(["--access-logfile", "/dev/stderr"] if access_log else []),
                "--chdir",
                str(ROOT),
                self.app,
            ],
            env=self.env,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            # setrlimit alone between fork and exec: it takes no lock a thread of the parent could hold
            preexec_fn=self._limit_open_files if self.open_files else None,  # noqa: PLW1509
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:  # wait until it answers, not a fixed time
            try:
                if self.request("GET", "/healthz")[0] == 200:
                    return
            except OSError:
                pass
            if self.process.poll() is not None:
                raise RuntimeError(self.process.stderr.read().decode())
            time.sleep(0.05)
        raise TimeoutError("the server did not answer /healthz")

    def _limit_open_files(self) -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))

    def workers_pids(self) -> list[int]:
        with open(f"/proc/{self.process.pid}/task/{self.process.pid}/children") as children:
            return [int(pid) for pid in children.read().split()]

    def kill_workers(self) -> list[int]:
        """SIGKILL every worker (the master starts new ones): their open streams drop at once."""
        pids = self.workers_pids()
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        return pids

    def kill(self) -> None:
        """SIGKILL the master and every worker at once: no clean shutdown, like a power cut."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=10)

    def request(self, method: str, path: str, body=None, token: str | None = None, raw: bool = False):
        """(status, the JSON answer), or with `raw` (status, its bytes)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, answer.read() if raw else json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, error.read() if raw else json.loads(error.read() or b"null")


def at_once(calls):
    """Run the calls in threads released together; return their (status, body) answers."""
    barrier = threading.Barrier(len(calls))
    answers = [None] * len(calls)

    def run(i, call):
        barrier.wait()
        answers[i] = call()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers
