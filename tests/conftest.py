"""Fixtures: an app on a real temporary database, a live server for the browser, Chromium from Debian."""

from __future__ import annotations

import logging
import os
import re
import shutil
import threading
import time
import uuid

import pytest
from sqlalchemy import create_engine, make_url, text
from werkzeug.serving import make_server

from companion import create_app
from companion.store import Store, make_engine
from tools.chromium import CHROMIUM_ARGS, TEST_CHROMIUM

from .browser import path_of

logging.getLogger("werkzeug").setLevel(logging.WARNING)  # the live server stays quiet


def pytest_configure(config):
    """On PostgreSQL under xdist, each worker gets a database of its own: some tests drop the schema or count
    every game. Made by the server's superuser, which `scripts/postgres` lets in from loopback."""
    url, worker = os.environ.get("TEST_DATABASE_URL"), os.environ.get("PYTEST_XDIST_WORKER")
    if not (url and worker):
        return
    shared = make_url(url)
    own = shared.set(database=f"{shared.database}_{worker}")
    engine = create_engine(shared.set(username="postgres", password=None), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{own.database}"'))
        conn.execute(text(f'CREATE DATABASE "{own.database}" OWNER "{shared.username}"'))
    engine.dispose()
    os.environ["TEST_DATABASE_URL"] = own.render_as_string(hide_password=False)


# --- levels (README "Tests"): each test gets one marker, from what it needs --------------------------------


def level(item) -> str:
    """`system`: a real server, another process or a browser (marked `system` or `browser`); `service`: the
    app in-process on a real database (the `app`/`client` fixtures, or its module builds apps); `unit`: neither."""
    if item.get_closest_marker("system") or item.get_closest_marker("browser"):
        return "system"
    if {"app", "client"} & set(item.fixturenames) or hasattr(item.module, "create_app"):
        return "service"
    return "unit"


def pytest_collection_modifyitems(config, items):
    for item in items:
        found = level(item)
        if found != "system" and "live_server" in item.fixturenames:
            raise pytest.UsageError(f"{item.nodeid} starts a live server: mark it `system` (or `browser`)")
        item.add_marker(found)
    # The slow tests first: on every core (pytest-xdist hands out whole files in this order), a long file
    # handed out last would keep one process busy while the other has nothing left.
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_report_collectionfinish(config, items):
    counts = {name: sum(1 for item in items if item.get_closest_marker(name)) for name in ("unit", "service", "system")}
    return "levels: " + ", ".join(f"{n} {name}" for name, n in counts.items())


def database_url(tmp_path) -> str:
    """A fresh SQLite file per test, or the PostgreSQL database named by TEST_DATABASE_URL."""
    return os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'decrypto.sqlite3'}"


def empty_postgresql(url: str) -> None:
    """The PostgreSQL database at `url` as a new user has it: no tables at all."""
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory):
    """An SQLite file with every migration applied, made once per run (per worker under xdist)."""
    path = tmp_path_factory.mktemp("migrated") / "decrypto.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    Store(engine).migrate()
    engine.dispose()  # the last connection closing folds the WAL into the file
    return path


@pytest.fixture
def migrated_database_url(tmp_path, request) -> str:
    """database_url(tmp_path), its tables already made: on SQLite a copy of `migrated_sqlite`, cheaper than
    migrating a fresh file. The migrations themselves are tested from empty files (tests/test_schema.py)."""
    url = database_url(tmp_path)
    if url.startswith("sqlite"):
        shutil.copyfile(request.getfixturevalue("migrated_sqlite"), tmp_path / "decrypto.sqlite3")
    return url


@pytest.fixture
def app(migrated_database_url):
    return create_app(
        {"TESTING": True, "SECRET_KEY": "test-" + uuid.uuid4().hex, "DATABASE_URL": migrated_database_url}
    )


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
def live_server(migrated_database_url):
    app = create_app(
        {"SECRET_KEY": "live-" + uuid.uuid4().hex, "DATABASE_URL": migrated_database_url, "POLL_INTERVAL_MS": 400}
    )
    with LiveServer(app) as server:
        yield server


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # Playwright can't download its own browser here: use Debian's Chromium.
    return {**browser_type_launch_args, "executable_path": TEST_CHROMIUM, "args": CHROMIUM_ARGS}


class PageErrors:
    """Every uncaught error and console error of the pages a browser test opens. Any of them fails the test
    (where it starts, not three steps later), unless the test allows it by name (`allow`): only an error the
    test itself causes on purpose, such as a refused request's status or a server it stops.

    It also keeps the pages' requests as they went (`timeline`): a failing browser test's report shows them, so
    a failure seen once (on CI) says which request was sent, answered, refused or never answered."""

    def __init__(self):
        self.seen: list[str] = []
        self.allowed: list[tuple[re.Pattern, str]] = []
        self.watched: list[tuple[object, str, object]] = []
        self.started = time.monotonic()
        self.timeline: list[str] = []

    def _log(self, what: str, request) -> None:
        path = path_of(request.url)
        self.timeline.append(f"{time.monotonic() - self.started:7.3f} s  {what:<9} {request.method} {path}")

    def allow(self, pattern: str, why: str) -> None:
        """Let errors matching `pattern` (a regular expression searched in "kind on url: text") through."""
        self.allowed.append((re.compile(pattern), why))

    def watch(self, context) -> None:
        def uncaught(error):
            where = error.page.url if error.page else "?"
            self.seen.append(f"uncaught error on {where}: {error.error.stack or error.error.message}")

        def console(message):
            if message.type == "error":
                where = message.location.get("url") or (message.page.url if message.page else "?")
                self.seen.append(f"console error on {where}: {message.text}")

        def answered(response):
            self._log(str(response.status), response.request)

        listeners = (
            ("weberror", uncaught),
            ("console", console),
            ("request", lambda request: self._log("sent", request)),
            ("response", answered),  # its head: a stream's, as soon as it opens
            ("requestfailed", lambda request: self._log("failed", request)),
        )
        for event, listener in listeners:
            context.on(event, listener)
            self.watched.append((context, event, listener))

    def stop(self) -> list[str]:
        """Stop listening (a context left open may still log once its server is gone); the errors not allowed."""
        for context, event, listener in self.watched:
            context.remove_listener(event, listener)
        return [seen for seen in self.seen if not any(pattern.search(seen) for pattern, _ in self.allowed)]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing browser test's report ends with its pages' requests (PageErrors.timeline)."""
    report = yield
    errors = item.funcargs.get("page_errors") if hasattr(item, "funcargs") else None
    if report.failed and isinstance(errors, PageErrors) and errors.timeline:
        report.sections.append(("the pages' requests (seconds since the test started)", "\n".join(errors.timeline)))
    return report


@pytest.fixture(autouse=True)
def page_errors(request, monkeypatch):
    """Watches every browser context a test opens (browser.new_context and browser.new_page), each of its
    pages included, and fails the test on any page error it did not allow."""
    errors = PageErrors()
    if "browser" not in request.fixturenames:
        yield errors
        return
    browser = request.getfixturevalue("browser")
    new_context, new_page = browser.new_context, browser.new_page

    def watched_context(*args, **kwargs):
        context = new_context(*args, **kwargs)
        errors.watch(context)
        return context

    def watched_page(*args, **kwargs):
        page = new_page(*args, **kwargs)
        errors.watch(page.context)
        return page

    monkeypatch.setattr(browser, "new_context", watched_context)
    monkeypatch.setattr(browser, "new_page", watched_page)
    yield errors
    unexpected = errors.stop()
    if unexpected:
        pytest.fail("the pages logged errors:\n  " + "\n  ".join(unexpected), pytrace=False)
