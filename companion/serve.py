"""`python -m companion.serve`: print the address phones should open, then run gunicorn.

Listens on every interface so phones on the same Wi-Fi reach the laptop; PORT (default 8000),
WORKERS (default 2) and PUBLIC_URL (behind a proxy) come from the environment.
"""

import os
import sys

from .addresses import lan_address


def main() -> None:
    port = os.environ.get("PORT", "8000")
    workers = os.environ.get("WORKERS", "2")
    url = os.environ.get("PUBLIC_URL") or f"http://{lan_address() or '127.0.0.1'}:{port}/"
    print(f"\n  Decrypto Companion is starting.\n  Open {url} on the table screen"
          " (phones must be on the same Wi-Fi).\n  Stop with Ctrl+C.\n", flush=True)
    gunicorn = os.path.join(os.path.dirname(sys.executable), "gunicorn")
    os.execv(gunicorn, [gunicorn, "--bind", f"0.0.0.0:{port}", "--workers", workers, "--threads", "4",
                        "--access-logfile", "-", "--forwarded-allow-ips", os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
                        "app:app"])


if __name__ == "__main__":
    main()
