"""Fixtures: an app on a real temporary database, a live server for the browser, Chromium from Debian."""

from __future__ import annotations

import logging
import os
import threading
import uuid

import pytest
from werkzeug.serving import make_server

from companion import create_app

logging.getLogger("werkzeug").setLevel(logging.WARNING)   # the live server stays quiet

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def database_url(tmp_path) -> str:
    """A fresh SQLite file per test, or the PostgreSQL database named by TEST_DATABASE_URL."""
    return os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'decrypto.sqlite3'}"


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "test-" + uuid.uuid4().hex,
                       "DATABASE_URL": database_url(tmp_path)})


@pytest.fixture
def client(app):
    return app.test_client()


class LiveServer:
    def __init__(self, app):
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        app.config["PUBLIC_URL"] = self.url
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.thread.join()


@pytest.fixture
def live_server(tmp_path):
    app = create_app({"SECRET_KEY": "live-" + uuid.uuid4().hex, "DATABASE_URL": database_url(tmp_path),
                      "POLL_INTERVAL_MS": 400})
    with LiveServer(app) as server:
        yield server


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # Playwright can't download its own browser here: use Debian's Chromium.
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}
