"""Running wrk with request lists (bench/requests.lua) and reading its figures."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

LUA = Path(__file__).resolve().parent / "requests.lua"
ACCEPT_ENCODING = "gzip, deflate, br"  # what a phone's browser sends


@dataclass
class Request:
    method: str
    path: str
    headers: dict
    body: str = ""

    def line(self) -> str:
        headers = "\x1f".join(f"{k}: {v}" for k, v in {"Accept-Encoding": ACCEPT_ENCODING, **self.headers}.items())
        assert "\t" not in self.body and "\n" not in self.body
        return f"{self.method}\t{self.path}\t{headers}\t{self.body}"


@dataclass
class Result:
    rps: float
    requests: int
    duration: float
    errors: int  # connection errors and timeouts
    non_2xx_3xx: int  # answers other than 2xx/3xx (a refused action would show here)
    p50_ms: float
    p99_ms: float
    exhausted: int

    @property
    def valid(self) -> bool:
        return self.errors == 0 and self.non_2xx_3xx == 0 and self.exhausted == 0

    def brief(self) -> str:
        note = (
            ""
            if self.valid
            else (
                f"  [INVALID: {self.errors} errors, {self.non_2xx_3xx} non-2xx/3xx, "
                f"{self.exhausted} past the prepared requests]"
            )
        )
        return (
            f"{self.rps:8.0f} req/s  (p50 {self.p50_ms:.1f} ms, p99 {self.p99_ms:.1f} ms, "
            f"{self.requests} requests in {self.duration:.1f} s){note}"
        )


def wrk_binary() -> str:
    path = shutil.which("wrk")
    if path is None:
        raise RuntimeError("wrk is not installed: run bench/install")
    return path


def run(
    url: str,
    per_thread: list[list[Request]],
    workdir: Path,
    name: str,
    duration: float,
    connections: int,
    mode: str = "cycle",
    timeout: float = 5,
) -> Result:
    """wrk with one thread per request list, `connections` connections in all, for `duration` seconds."""
    prefix = workdir / f"wrk-{name}"
    for n, requests in enumerate(per_thread, start=1):
        Path(f"{prefix}.{n}").write_text("\n".join(r.line() for r in requests) + "\n")
    threads = len(per_thread)
    command = [
        wrk_binary(),
        "-t",
        str(threads),
        "-c",
        str(connections),
        "-d",
        f"{max(1, round(duration))}s",
        "--timeout",
        f"{timeout:g}s",
        "-s",
        str(LUA),
        url,
        "--",
        str(prefix),
        mode,
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"wrk failed ({done.returncode}): {done.stderr or done.stdout}")
    out = done.stdout
    figures = json.loads(next(line for line in out.splitlines() if line.startswith("{")))
    non = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    seconds = figures["duration_us"] / 1e6
    return Result(
        rps=figures["requests"] / seconds,
        requests=figures["requests"],
        duration=seconds,
        errors=figures["connect"] + figures["read"] + figures["write"] + figures["timeout"],
        non_2xx_3xx=int(non.group(1)) if non else 0,
        p50_ms=figures["p50_us"] / 1000,
        p99_ms=figures["p99_us"] / 1000,
        exhausted=figures["exhausted"],
    )
