"""The app as docs/operating.md runs it behind HTTPS: `scripts/serve`'s server, with Caddy (docs/Caddyfile: its own
certificate authority) or nginx (docs/nginx.conf) in front, each started and stopped by the tests.

The commands are docs/operating.md's, read from its HTTPS section (`guide_commands`), with this machine's
loopback address and free ports put in for the example's LAN address and ports.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import signal
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from .guide import guide_line, guide_lines
from .server import free_port

ROOT = Path(__file__).resolve().parent.parent
GUIDE_ADDRESS = "192.168.1.20"  # the LAN address in the operating guide's example
WAIT = 30  # seconds a server may take to answer (a busy two-core machine)


def guide_commands() -> list[str]:
    """The shell lines of the operating guide's HTTPS section (comments and blank lines left out)."""
    return guide_lines("HTTPS")


def guide_command(starting: str) -> list[str]:
    """The operating guide's HTTPS command that starts with `starting`, as words."""
    return guide_line(starting, "HTTPS").split()


def wait_until_answers(url: str, context: ssl.SSLContext | None = None, process=None) -> None:
    deadline = time.monotonic() + WAIT
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5, context=context) as answer:
                if answer.status == 200:
                    return
        except (OSError, urllib.error.URLError):
            if time.monotonic() > deadline:
                raise
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} stopped: {process.stderr.read().decode()[-2000:]}")
        time.sleep(0.1)


class ServedApp:
    """The app as `scripts/serve` starts it (`decrypto serve`: gunicorn's gevent workers), with the
    `settings` of a recipe's command line (`recipe_settings`), its `PUBLIC_URL` replaced by `public_url`."""

    def __init__(self, database_url: str, public_url: str, port: int, settings: dict[str, str]):
        self.port = port
        self.env = {
            **os.environ,
            **settings,
            "PUBLIC_URL": public_url,
            "PORT": str(port),
            "DATABASE_URL": database_url,
            "SECRET_KEY": "https-test",
            "WORKERS": "2",
        }
        self.process = None

    def __enter__(self):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve"],  # (scripts/serve's `decrypto serve`)
            cwd=ROOT,
            env=self.env,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        host = self.env.get("BIND", "127.0.0.1").replace("0.0.0.0", "127.0.0.1")
        wait_until_answers(f"http://{host}:{self.port}/healthz", process=self.process)
        return self

    def __exit__(self, *exc):
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=30)


def recipe_settings(command: str) -> dict[str, str]:
    """The settings a recipe's `NAME=value ... ./scripts/serve` line gives the app."""
    words = command.split()
    assert words[-1] == "./scripts/serve", command
    return dict(word.split("=", 1) for word in words[:-1])


class Caddy:
    """Caddy with docs/Caddyfile, as the operating guide's LAN recipe runs it (`ADDRESS=... caddy run --config
    docs/Caddyfile`), for this machine's loopback address, on free ports instead of 80 and 443 (set in the
    file's global options), in front of the app on `app_port`, with `folder` as its HOME (its certificate
    authority lives there)."""

    def __init__(self, folder: Path, app_port: int):
        self.port, self.http_port = free_port(), free_port()
        self.url = f"https://127.0.0.1:{self.port}"
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        # Caddy's data folder is ~/.local/share/caddy: a HOME of the test's own.
        self.env = {**{k: v for k, v in os.environ.items() if not k.startswith("XDG_")}, "HOME": str(folder)}
        words = guide_command("ADDRESS=")
        assert words[1:] == ["caddy", "run", "--config", "docs/Caddyfile"], words
        self.env["ADDRESS"] = words[0].split("=", 1)[1].replace(GUIDE_ADDRESS, "127.0.0.1")
        config = (ROOT / "docs" / "Caddyfile").read_text()
        assert config.count("127.0.0.1:8000") == 2 and config.startswith("#")
        config = config.replace("127.0.0.1:8000", f"127.0.0.1:{app_port}").replace(
            "\n{\n", f"\n{{\n\thttp_port {self.http_port}\n\thttps_port {self.port}\n", 1
        )
        (folder / "Caddyfile").write_text(config)
        self.command = ["caddy", "run", "--config", str(folder / "Caddyfile")]
        self.process = None

    @property
    def root_certificate(self) -> Path:
        """Where the operating guide says the root certificate is: ~/.local/share/caddy/pki/authorities/local/root.crt."""
        return self.folder / ".local" / "share" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    def app_settings(self) -> dict[str, str]:
        """The settings the operating guide's recipe starts the app with, its `~` this Caddy's HOME."""
        settings = recipe_settings(" ".join(guide_command("PUBLIC_URL=")))
        return {name: value.replace("~", str(self.folder)) for name, value in settings.items()}

    def trusting(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.root_certificate))

    def __enter__(self):
        """Caddy started and its certificate authority made (the app, which hands out its root, starts next)."""
        self.process = subprocess.Popen(
            self.command,
            env=self.env,
            cwd=self.folder,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + WAIT
            while not self.root_certificate.exists():
                assert time.monotonic() < deadline and self.process.poll() is None, "Caddy made no certificate"
                time.sleep(0.05)
        except BaseException:
            self.__exit__()
            raise
        return self

    def wait_for_app(self) -> None:
        wait_until_answers(f"{self.url}/healthz", self.trusting(), self.process)

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=30)
        if not self.root_certificate.exists():
            return
        # Run as root, Caddy adds its root to the system's trust store: take it out again.
        subprocess.run(
            ["caddy", "untrust", "--cert", str(self.root_certificate)],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )


def fetch(url: str) -> bytes:
    """What `url` answers, whatever its status (an error page's body too); b"" if nothing answers there."""
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # (a stranger trusts nothing either way)
    try:
        with urllib.request.urlopen(url, timeout=5, context=context) as answer:
            return answer.read()
    except urllib.error.HTTPError as error:
        return error.read()
    except (OSError, urllib.error.URLError):
        return b""


def listening_ports(pids: list[int]) -> set[tuple[str, int]]:
    """The TCP ports the processes of these process groups listen on, with their address (0.0.0.0 as
    127.0.0.1, :: as ::1: every address of this machine)."""
    inodes = set()
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.getpgid(int(pid)) not in pids:
                    continue
                for fd in os.listdir(f"/proc/{pid}/fd"):
                    target = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if target.startswith("socket:["):
                        inodes.add(target[8:-1])
            except OSError:
                continue  # gone meanwhile
    found = set()
    for table, wildcard in (("/proc/net/tcp", "127.0.0.1"), ("/proc/net/tcp6", "::1")):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # LISTEN
                address, port = fields[1].split(":")
                raw = bytes.fromhex(address)
                if len(raw) == 4:
                    host = ".".join(str(b) for b in reversed(raw))
                else:
                    words = [raw[i : i + 4][::-1] for i in range(0, 16, 4)]
                    host = str(ipaddress.IPv6Address(b"".join(words)))
                host = wildcard if host in ("0.0.0.0", "::") else host
                found.add((f"[{host}]" if ":" in host else host, int(port, 16)))
    return found


def chromium_home_trusting(certificate: Path, home: Path) -> Path:
    """A HOME whose NSS database (where Chromium on Linux looks for the roots a user added) trusts
    `certificate` to identify web sites, as a phone does once its owner installed the root."""
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True, exist_ok=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run(
        ["certutil", "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "proxy-root", "-i", str(certificate)], check=True
    )
    return home


class Nginx:
    """nginx in front of the app, configured by docs/nginx.conf (the operating guide's nginx example) with a
    certificate of its own, for `127.0.0.1:<port>`."""

    def __init__(self, folder: Path, app_port: int):
        self.port, self.folder = free_port(), folder
        self.url = f"https://127.0.0.1:{self.port}"
        self.certificate, key = folder / "cert.pem", folder / "key.pem"
        subprocess.run(
            [
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=127.0.0.1",
                "-addext",
                "subjectAltName=IP:127.0.0.1",
                "-keyout",
                str(key),
                "-out",
                str(self.certificate),
            ],
            check=True,
            capture_output=True,
        )
        server = (ROOT / "docs" / "nginx.conf").read_text()
        server = (
            server.replace("listen 443 ssl", f"listen 127.0.0.1:{self.port} ssl")
            .replace("127.0.0.1:8000", f"127.0.0.1:{app_port}")
            .replace("/etc/ssl/decrypto/fullchain.pem", str(self.certificate))
            .replace("/etc/ssl/decrypto/privkey.pem", str(key))
        )
        (folder / "nginx.conf").write_text(
            f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\nevents {{}}\n"
            f"http {{\n  access_log off;\n  client_body_temp_path {folder};\n  proxy_temp_path {folder};\n"
            f"{server}\n}}\n"
        )
        self.process = None

    def trusting(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.certificate))

    def __enter__(self):
        self.process = subprocess.Popen(
            [
                shutil.which("nginx") or "/usr/sbin/nginx",
                "-p",
                str(self.folder),
                "-c",
                str(self.folder / "nginx.conf"),
                "-g",
                "daemon off;",
            ],
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        wait_until_answers(f"{self.url}/healthz", self.trusting(), self.process)
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=30)
