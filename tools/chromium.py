"""How the tests and the benchmark start Debian's Chromium on a machine with no screen and a closed network."""

import os

# The whole browser, as phones run it: what the benchmark's latency run measures, and the HTTPS test's (it
# takes the screen Wake Lock, which the headless shell below does not have).
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# The browser tests': Chromium's headless shell (Debian's chromium-headless-shell, what Playwright runs
# headless by default), the same engine (Blink, V8, one version with Chromium) without the browser around it.
# The system tests are bound by the machine's two cores, and it takes half the CPU: they run in half the time.
TEST_CHROMIUM = os.environ.get("CHROMIUM", "/usr/lib/chromium/chromium-headless-shell")

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
