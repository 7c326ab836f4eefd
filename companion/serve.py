"""`python -m companion.serve`: print the address phones should open, then run gunicorn.

Listens on every interface so phones on the same Wi-Fi reach the laptop, or on BIND alone (behind a proxy on
this machine: 127.0.0.1, so that nothing else reaches the port); PORT (default 8000),
WORKERS (default 2), STREAMS (the streams a worker holds and the requests it serves at once, default 10,000,
fewer if its open files are too few: web/stream_budget.py) and PUBLIC_URL (behind a proxy) come from the
environment. ACCESS_LOG (a file, or
- for the terminal) turns gunicorn's access log on: it is off by default, since it costs a tenth of a poll's
CPU (the tokens in its request paths are masked: companion/logs.py).
"""

import os
import sys

from .addresses import lan_address
from .proxies import LOCAL_PROXIES
from .root_cert import NotACertificate, read_root_certificate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> None:
    if os.environ.get("ROOT_CERT"):  # refused at once, in one sentence, rather than by every worker
        try:
            read_root_certificate(os.environ["ROOT_CERT"])
        except NotACertificate as refusal:
            sys.exit(f"Not starting: {refusal}")
    port = os.environ.get("PORT", "8000")
    bind = os.environ.get("BIND", "0.0.0.0")
    workers = os.environ.get("WORKERS", "2")
    url = os.environ.get("PUBLIC_URL") or f"http://{lan_address() or '127.0.0.1'}:{port}/"
    print(
        f"\n  Decrypto Companion is starting.\n  Open {url} on the table screen"
        " (phones must be on the same Wi-Fi).\n  Stop with Ctrl+C.\n",
        flush=True,
    )
    gunicorn = os.path.join(os.path.dirname(sys.executable), "gunicorn")
    access_log = ["--access-logfile", os.environ["ACCESS_LOG"]] if os.environ.get("ACCESS_LOG") else []
    # Fewer malloc arenas: 5-9 MB less per worker, no measurable cost (docs/performance.md).
    os.environ.setdefault("MALLOC_ARENA_MAX", "2")
    os.execv(
        gunicorn,
        [
            gunicorn,
            "--bind",
            f"[{bind}]:{port}" if ":" in bind else f"{bind}:{port}",  # (an IPv6 address in brackets)
            "--workers",
            workers,
            # gevent: each page holds a stream open (web/stream.py), where a thread per stream
            # would cap a worker at its threads; STREAMS bounds the requests served at once and,
            # apart, the streams handed over to the worker's courier (about 4 KB each), both
            # within the worker's open files (gunicorn.conf.py shares them out)
            "--worker-class",
            "gevent",
            "--worker-connections",
            os.environ.get("STREAMS", "10000"),
            # a fallback poll reuses its connection (1.5 s apart, so more than gunicorn's 2 s)
            "--keep-alive",
            "5",
            # Room for every page reconnecting at once (a restart; 6,300 streams at 700 tables): past
            # gunicorn's 2,048 waiting connections the kernel drops the rest, and each comes back a
            # second or more later. The kernel caps it at net.core.somaxconn (4,096 since Linux 5.4).
            "--backlog",
            "4096",
            *access_log,
            # migrates the database once, before any worker starts
            "--config",
            os.path.join(ROOT, "gunicorn.conf.py"),
            "--forwarded-allow-ips",
            os.environ.get("FORWARDED_ALLOW_IPS", LOCAL_PROXIES),
            "app:app",
        ],
    )


if __name__ == "__main__":
    main()
