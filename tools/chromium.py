"""How the tests and the benchmark start Debian's Chromium on a machine with no screen and a closed network."""

import os

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

# Headless, as root, and quiet on the network: without the background-networking flags Chromium keeps
# opening connections this machine's closed network refuses, many at a time.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
