"""`scripts/cluster N`: N app servers on one PostgreSQL database, with HAProxy in front (docs/operating.md, "More machines").

On this machine: PostgreSQL (scripts/postgres; or the server DATABASE_URL names), N servers as scripts/serve
starts them (`decrypto serve`) on ports PORT+1 ... PORT+N, and HAProxy on PORT, configured by
docs/haproxy.cfg, the file a deployment on separate machines uses, with this machine's addresses put in.
The tests (tests/test_cluster.py) and the benchmark (bench/cluster.py) run the same through `Cluster`.

While it runs, a server that stops is started again; SIGHUP restarts the servers one by one (each drained in
HAProxy, stopped gracefully, started, and put back once HAProxy counts it up: players notice nothing);
Ctrl+C or SIGTERM stops everything.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from companion import haproxy

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "docs" / "haproxy.cfg"
BACKEND = haproxy.BACKEND
WAIT = 60  # seconds a server or HAProxy may take to come up (a busy two-core machine)


def haproxy_config(
    bind: str, servers: dict[str, str], admin_socket: Path, request_log: bool = False, maxconn: int | None = None
) -> str:
    """docs/haproxy.cfg with the frontend bound to `bind`, `servers` (name -> host:port) in place of its
    example servers, and its admin socket at `admin_socket`; with `request_log`, every request is logged on
    HAProxy's stderr too (its server, timings and how it ended: what a proxy's own 502 says); `maxconn`, if
    more than its own, in its place (the tables it is for); nothing else changes."""
    lines, found = [], set()
    for line in CONFIG.read_text().splitlines():
        words = line.split()
        if request_log and words[:1] in (["global"], ["defaults"]):
            lines += [
                line,
                "    log stderr format raw local0" if words == ["global"] else "    log global\n    option httplog",
            ]
            continue
        if words[:1] == ["server"]:
            if "server" not in found:
                lines += [f"    server {name} {address}" for name, address in servers.items()]
                found.add("server")
        elif words[:1] == ["maxconn"] and maxconn:
            lines.append(line.replace(words[1], str(max(int(words[1]), maxconn))))
        elif words[:1] == ["bind"]:
            lines.append(line.replace(words[1], bind))
            found.add("bind")
        elif words[:2] == ["stats", "socket"]:
            lines.append(line.replace(words[2], str(admin_socket)))
            found.add("socket")
        else:
            lines.append(line)
    assert found == {"bind", "socket", "server"}, f"{CONFIG} lost a line scripts/cluster fills in: {found}"
    return "\n".join(lines) + "\n"


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status == 200
    except OSError:
        return False


DRAIN_SETTLE_SECONDS = 0.5  # between taking a server out of HAProxy and looking at its queue (Cluster.restart)


def waiting_connections(port: int) -> int | None:
    """Connections the kernel completed on the listening socket of `port` that no worker has taken in yet
    (a listening socket's rx_queue in /proc/net/tcp and tcp6: `ss -ltn`'s Recv-Q); None when nothing listens."""
    waiting = None
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                waiting = (waiting or 0) + int(fields[4].split(":")[1], 16)
    return waiting


def _gone(pid: int) -> bool:
    """The process has exited (a zombie has closed its connections too)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


class AppServer:
    """One app server as scripts/serve starts it, in a process group of its own (gunicorn's master and its
    workers)."""

    def __init__(self, name: str, port: int, env: dict[str, str], log: Path | None = None):
        self.name, self.port, self.env, self.log = name, port, {**env, "PORT": str(port)}, log
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        # stdout holds only companion.serve's banner (the cluster says where to go); errors go to the log.
        with open(self.log, "ab") if self.log else contextlib.nullcontext() as errors:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "companion.cli", "serve"],
                cwd=ROOT,
                env=self.env,
                start_new_session=True,
                stdout=subprocess.DEVNULL,
                stderr=errors,
            )

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def wait_until_answers(self) -> None:
        deadline = time.monotonic() + WAIT
        while not answers(f"http://127.0.0.1:{self.port}/healthz"):
            if not self.running:
                raise RuntimeError(
                    f"{self.name} stopped (exit code {self.process.returncode})"
                    + (f": see {self.log}" if self.log else "")
                )
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name} did not answer on port {self.port}")
            time.sleep(0.1)

    def wait_until_taken_in(self) -> None:
        """Every connection waiting on its listening socket taken in by a worker (which then answers it, even
        when told to stop)."""
        deadline = time.monotonic() + WAIT
        while waiting_connections(self.port):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name} has not taken in the connections waiting on port {self.port}")
            time.sleep(0.05)

    def workers(self) -> list[int]:
        try:
            return [
                int(pid)
                for pid in Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
            ]
        except (OSError, AttributeError):
            return []

    def stop(self) -> None:
        """Gracefully (SIGTERM): requests under way are answered, streams end at once (gunicorn.conf.py)."""
        if self.running:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                self.kill()

    def kill(self) -> None:
        """SIGKILL to the master and every worker at once, like a power cut; returns once they are gone."""
        if self.process is None:
            return
        workers = self.workers()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        while not all(_gone(pid) for pid in workers):
            time.sleep(0.01)


class HAProxy:
    """HAProxy (Debian's package) in the foreground, configured by `config`, with its admin socket."""

    def __init__(self, config: str, folder: Path, admin_socket: Path, log: Path | None = None):
        self.file, self.admin_socket, self.log = folder / "haproxy.cfg", admin_socket, log
        self.file.write_text(config)
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
        with open(self.log, "ab") if self.log else contextlib.nullcontext() as errors:
            self.process = subprocess.Popen(
                [haproxy, "-db", "-f", str(self.file)], start_new_session=True, stdout=subprocess.DEVNULL, stderr=errors
            )
        deadline = time.monotonic() + WAIT
        while not self.admin_socket.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("HAProxy did not start" + (f": see {self.log}" if self.log else ""))
            time.sleep(0.05)

    def command(self, line: str) -> str:
        """One command on the admin socket (HAProxy's management guide), and its answer."""
        return haproxy.command(str(self.admin_socket), line)

    def servers(self) -> dict[str, dict[str, str]]:
        """Each server of the backend, as `show stat` has it: its "status" (UP, DOWN, MAINT, "UP 1/2"
        while going down...), "scur" (connections now), "stot" (in all)..."""
        rows = csv.DictReader(self.command("show stat").lstrip("# ").splitlines())
        return {
            row["svname"]: row
            for row in rows
            if row["pxname"] == BACKEND and row["svname"] not in ("FRONTEND", "BACKEND")
        }

    def set_state(self, server: str, state: str) -> None:
        """ "drain": no new connection goes there, and those under way carry on (where "maint" would mark
        it down, which cuts them: `on-marked-down shutdown-sessions`); "ready": back in once its checks
        pass."""
        haproxy.set_state(str(self.admin_socket), server, state)

    def wait_until_up(self, server: str) -> None:
        deadline = time.monotonic() + WAIT
        while self.servers()[server]["status"] != "UP":
            if time.monotonic() > deadline:
                raise TimeoutError(f"HAProxy does not count {server} up: {self.servers()[server]['status']}")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=WAIT)


class Cluster:
    """PostgreSQL (unless `database_url` names one), `count` app servers and HAProxy in front.

    `proxy_port` and `server_ports`: HAProxy listens on `bind_host`:proxy_port (every interface by default),
    the servers on their own ports (proxy_port+1 ... by default); `env`: the servers' settings (docs/operating.md,
    "Running it"); `folder`: HAProxy's configuration and admin socket, and the logs when `logs` (else errors
    go to stderr); `maxconn`: HAProxy's, if more than docs/haproxy.cfg's."""

    def __init__(
        self,
        count: int,
        folder: Path,
        proxy_port: int = 8000,
        server_ports: list[int] | None = None,
        database_url: str | None = None,
        env: dict[str, str] | None = None,
        bind_host: str = "",
        logs: bool = False,
        maxconn: int | None = None,
    ):
        self.folder, self.proxy_port = folder, proxy_port
        self.url = f"http://127.0.0.1:{proxy_port}"
        self.database_url, self.postgres = database_url, None
        env = {**os.environ, **(env or {})}
        if not env.get("PUBLIC_URL"):  # as scripts/serve: phones open the LAN address (HAProxy's)
            from companion.addresses import lan_address

            env["PUBLIC_URL"] = f"http://{bind_host or lan_address() or '127.0.0.1'}:{proxy_port}/"
        # One proxy in front (HAProxy, on this machine): the client is the address it saw.
        env.setdefault("TRUSTED_PROXIES", "1")
        env.setdefault("FORWARDED_ALLOW_IPS", "127.0.0.1")
        env.setdefault("BIND", "127.0.0.1")  # players reach the servers through HAProxy only
        self.env = env
        ports = server_ports or [proxy_port + n for n in range(1, count + 1)]
        self.servers = [
            AppServer(f"app{n}", port, env, folder / f"app{n}.log" if logs else None)
            for n, port in enumerate(ports, start=1)
        ]
        admin_socket = folder / "haproxy.sock"
        config = haproxy_config(
            f"{bind_host}:{proxy_port}",
            {s.name: f"127.0.0.1:{s.port}" for s in self.servers},
            admin_socket,
            logs,
            maxconn,
        )
        self.proxy = HAProxy(config, folder, admin_socket, folder / "haproxy.log" if logs else None)

    def connections(self) -> int:
        """What PostgreSQL must accept: each worker's pool at its fullest and its listening connection, and a
        few for psql and the health checks' spare."""
        from companion.store import POOL_OVERFLOW, POOL_SIZE

        workers = len(self.servers) * int(self.env.get("WORKERS", "2"))
        return workers * (POOL_SIZE + POOL_OVERFLOW + 1) + 10

    @property
    def public_url(self) -> str:
        return self.env["PUBLIC_URL"]

    def start(self) -> Cluster:
        try:
            if not self.database_url:
                self.postgres = Path(tempfile.mkdtemp(prefix="decrypto-pg."))
                self.database_url = subprocess.run(
                    [
                        str(ROOT / "scripts" / "postgres"),
                        "start",
                        str(self.postgres),
                        f"max_connections={self.connections()}",
                    ],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout.strip()
            for server in self.servers:
                server.env["DATABASE_URL"] = self.database_url
                server.start()  # all at once: migrations take turns (gunicorn.conf.py)
            for server in self.servers:
                server.wait_until_answers()
            self.proxy.start()
            for server in self.servers:
                self.proxy.wait_until_up(server.name)
        except BaseException:
            self.stop()
            raise
        return self

    def restart(self, server: AppServer) -> None:
        """Drained in HAProxy (new requests go to the others), stopped gracefully (requests under way are
        answered; its streams end, and their pages reconnect through HAProxy to another server), started,
        and back in once HAProxy counts it up."""
        self.proxy.set_state(server.name, "drain")
        # What HAProxy sent it just before may still wait in the kernel's queue of connections no worker has
        # taken in: a stopping server closes that queue, and HAProxy answers such a request 502 (seen twice
        # in CI, with a fixed second's wait: a busy worker had not taken them in yet). Once drained, only
        # HAProxy's checks still come.
        time.sleep(DRAIN_SETTLE_SECONDS)
        server.wait_until_taken_in()
        server.stop()
        self.revive(server)

    def revive(self, server: AppServer) -> None:
        """A stopped server started again, and back in HAProxy once it counts it up."""
        server.start()
        server.wait_until_answers()
        self.proxy.set_state(server.name, "ready")
        self.proxy.wait_until_up(server.name)

    def rolling_restart(self) -> None:
        """Every server restarted, one after the other (a new version of the app, say)."""
        for server in self.servers:
            self.restart(server)

    def stop(self) -> None:
        self.proxy.stop()
        for server in self.servers:  # all at once, then wait for each
            if server.running:
                os.killpg(server.process.pid, signal.SIGTERM)
        for server in self.servers:
            server.stop()
        if self.postgres is not None:
            subprocess.run([str(ROOT / "scripts" / "postgres"), "stop", str(self.postgres)], check=False)
            self.postgres = self.database_url = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/cluster", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("servers", type=int, nargs="?", default=2, help="how many app servers (default 2)")
    args = parser.parse_args(argv)
    port = int(os.environ.get("PORT", "8000"))
    folder = Path(tempfile.mkdtemp(prefix="decrypto-cluster."))
    wanted: list[str] = []
    for signum, what in ((signal.SIGHUP, "restart"), (signal.SIGTERM, "stop"), (signal.SIGINT, "stop")):
        signal.signal(signum, lambda *_, what=what: wanted.append(what))
    cluster = Cluster(args.servers, folder, port, database_url=os.environ.get("DATABASE_URL"))
    started: dict[str, float] = {}
    try:
        print(
            f"Starting {'' if cluster.database_url else 'PostgreSQL, '}{args.servers} app servers and HAProxy...",
            flush=True,
        )
        cluster.start()
        print(
            f"\n  Decrypto Companion: {args.servers} servers (ports "
            f"{', '.join(str(s.port) for s in cluster.servers)}) behind HAProxy (port {port}), on PostgreSQL "
            f"at {cluster.database_url.split('@')[-1]}.\n"
            f"  Open {cluster.public_url} on the table screen (phones must be on the same Wi-Fi).\n"
            f"  Rolling restart: kill -HUP {os.getpid()}.  Stop with Ctrl+C.\n"
            f"  HAProxy's admin socket: {cluster.proxy.admin_socket}"
            f" (.venv/bin/decrypto drain app1 --socket {cluster.proxy.admin_socket})\n",
            flush=True,
        )
        while "stop" not in wanted:
            try:
                if "restart" in wanted:
                    wanted.remove("restart")
                    print("Restarting the servers one by one...", flush=True)
                    cluster.rolling_restart()
                    print("Every server restarted.", flush=True)
                for server in cluster.servers:  # one that stopped is started again, at most every 10 s
                    if not server.running and time.monotonic() - started.get(server.name, float("-inf")) >= 10:
                        print(
                            f"{server.name} stopped (exit code {server.process.returncode}): starting it again",
                            flush=True,
                        )
                        started[server.name] = time.monotonic()
                        cluster.revive(server)
            except (RuntimeError, TimeoutError) as error:  # it stays out of HAProxy; the others serve
                print(error, flush=True)
            time.sleep(0.2)
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
