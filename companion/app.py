"""The application factory: configuration from the environment, storage, extensions, blueprints."""

from __future__ import annotations

import os
import secrets
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask

from .games import MAX_EVENTS_PER_GAME, GameService
from .logs import mask_secrets_in_logs
from .proxies import LOCAL_PROXIES, BehindProxies
from .root_cert import NotACertificate, read_root_certificate
from .push import Hub
from .store import Store, make_engine
from .web import init_web
from .web.stream import init_streams

ROOT = Path(__file__).resolve().parent.parent
INSTANCE = ROOT / "instance"


def secret_key(instance_path: str) -> str:
    """SECRET_KEY from the environment, else one kept in instance/ so restarts keep phones signed in.

    The file appears whole or not at all (written aside, then linked into place): a process starting at the
    same moment reads the same key, never an empty file."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        private_folder(instance_path)
        fd, draft = tempfile.mkstemp(dir=instance_path, prefix=".secret_key.")  # mode 0600
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another process was first: its key is the key
        finally:
            os.unlink(draft)
    return path.read_text().strip()


def private_folder(path: str | Path) -> None:
    """A folder only this user can enter (instance/ holds the secret key and the database)."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    if Path(path).resolve() == INSTANCE.resolve():
        os.chmod(path, 0o700)  # an older instance/ was created 0755


def database_url(configured: str) -> str:
    """The SQLAlchemy URL of the games' database: DATABASE_URL as configured, else a SQLite file in instance/."""
    url = configured or f"sqlite:///{INSTANCE / 'decrypto.sqlite3'}"
    for plain in ("postgres://", "postgresql://"):
        if url.startswith(plain):
            url = "postgresql+psycopg://" + url[len(plain) :]
    if url.startswith("sqlite:///"):
        private_folder(Path(url[len("sqlite:///") :]).parent)
    return url


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_path=str(INSTANCE),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.from_mapping(
        DATABASE_URL=os.environ.get("DATABASE_URL", ""),
        PUBLIC_URL=os.environ.get("PUBLIC_URL", ""),
        MAX_CONTENT_LENGTH=16 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_NAME="decrypto",
        SESSION_REFRESH_EACH_REQUEST=False,  # a poll in flight must not write back an older seat cookie
        PERMANENT_SESSION_LIFETIME=timedelta(days=7),
        WTF_CSRF_CHECK_DEFAULT=False,  # checked in web.security, which lets bearer-token API calls through
        WTF_CSRF_TIME_LIMIT=None,  # a phone stays on one page for a whole game
        # Flask-WTF's HTTPS-only check wants a same-origin Referer, which our pages never send (no-referrer:
        # tokens travel in addresses), nor do API clients with the seat cookie. Cross-site posts are refused by
        # web.security.cross_site instead (Sec-Fetch-Site also refuses a post from the same host's plain HTTP).
        WTF_CSRF_SSL_STRICT=False,
        BABEL_DEFAULT_LOCALE="en",
        BABEL_TRANSLATION_DIRECTORIES=str(ROOT / "translations"),
        # Rendered page pieces reused across viewers and versions (0: off). Their reuse is within a move (a
        # table's screens fetch at once): 50,000 did as well as 4 million, in-process.
        FRAGMENT_CACHE_CHARS=200_000,
        # A phone's update after a move, shared by its teammates showing the same regions (0: off). Each is
        # needed for the moment a table's phones fetch at once: a few hundred tables' moves fit.
        SHARED_ANSWER_CHARS=200_000,
        # Live screens as their streams send them, each worked out once for the viewers who see the same (0:
        # off): each is needed while a change's streams are told, a few milliseconds (a screen and its view).
        SHARED_SCREENS=128,
        POLL_INTERVAL_MS=1500,  # pages without a stream (no EventSource, a buffering proxy)
        STREAM_POLL_MS=30_000,  # pages with a stream still poll this often, in case a signal was lost
        # a comment on an idle stream, so proxies and NATs keep it open
        STREAM_HEARTBEAT_SECONDS=float(os.environ.get("STREAM_HEARTBEAT_SECONDS", "15")),
        STREAM_LIFETIME_SECONDS=600,  # then the page reconnects: a restarting worker never waits on it
        # A worker's streams (fewer if its open files are too few), and each token's and client's share of
        # them (web/stream_budget.py): a table's 9 screens behind one address, reloads and all, are far below.
        STREAMS=int(os.environ.get("STREAMS", "10000")),
        STREAMS_PER_TOKEN=int(os.environ.get("STREAMS_PER_TOKEN", "20")),
        STREAMS_PER_ADDRESS=int(os.environ.get("STREAMS_PER_ADDRESS", "100")),
        PUSH_LOOK_SECONDS=0.025,  # SQLite: how often each worker looks for new events of its streams (a tap
        # waits half of it on average to reach the screens another worker holds)
        RATE_LIMITS=os.environ.get("RATE_LIMITS", "on"),
        RATE_LIMIT_STORAGE=os.environ.get("RATE_LIMIT_STORAGE", "memory://"),
        RATE_LIMIT_CREATE=os.environ.get("RATE_LIMIT_CREATE", "20 per minute; 200 per day"),
        RATE_LIMIT_JOIN=os.environ.get("RATE_LIMIT_JOIN", "60 per minute"),
        RATE_LIMIT_COMMANDS=os.environ.get("RATE_LIMIT_COMMANDS", "600 per minute"),
        RATE_LIMIT_JOIN_CODE=os.environ.get("RATE_LIMIT_JOIN_CODE", "10 per minute; 60 per hour"),  # wrong codes
        TRUSTED_PROXIES=int(os.environ.get("TRUSTED_PROXIES", "0")),  # reverse proxies in front: X-Forwarded-For
        FORWARDED_ALLOW_IPS=os.environ.get("FORWARDED_ALLOW_IPS", LOCAL_PROXIES),  # ...believed from these alone
        GAME_EXPIRY_HOURS=float(os.environ.get("GAME_EXPIRY_HOURS", "72")),  # since a game's last action
        EXPIRY_CHECK_SECONDS=float(os.environ.get("EXPIRY_CHECK_SECONDS", "600")),  # how often a worker looks
        ROOT_CERT=os.environ.get("ROOT_CERT", ""),  # a certificate authority's root the app hands out (root_cert.py)
    )
    if test_config:
        app.config.update(test_config)
    # Behind HTTPS the seat cookie is only ever sent encrypted.
    if "SESSION_COOKIE_SECURE" not in (test_config or {}):
        app.config["SESSION_COOKIE_SECURE"] = app.config["PUBLIC_URL"].startswith("https://")
    mask_secrets_in_logs(app.logger.name)
    if app.config["TRUSTED_PROXIES"]:
        # The client's own address (rate limits count per address) is the one the nearest trusted proxy saw.
        # (Flask's documented way to wrap its WSGI app, which mypy takes for a method.)
        app.wsgi_app = BehindProxies(  # type: ignore[method-assign]
            app.wsgi_app, app.config["TRUSTED_PROXIES"], app.config["FORWARDED_ALLOW_IPS"]
        )
    if app.config["ROOT_CERT"]:
        try:
            app.extensions["root_certificate"] = read_root_certificate(app.config["ROOT_CERT"])
        except NotACertificate as refusal:
            raise RuntimeError(str(refusal)) from None
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(app.instance_path)
    store = Store(make_engine(database_url(app.config["DATABASE_URL"])))
    store.check_schema()
    service = app.extensions["games"] = GameService(
        store,
        expiry_hours=app.config["GAME_EXPIRY_HOURS"],
        max_events=app.config.get("MAX_EVENTS_PER_GAME", MAX_EVENTS_PER_GAME),
    )
    hub = app.extensions["push"] = Hub(store, interval=app.config["PUSH_LOOK_SECONDS"])
    service.changed = hub.ring

    init_streams(app)
    init_web(app)
    return app
