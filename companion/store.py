"""Tables and transactions (SQLAlchemy Core): games, their capability tokens and the event log.

The event log is the only game state: `events(game_id, seq)` is UNIQUE, so two writers that both
read version N can't both append event N+1; the loser gets `Conflict` and decides again. (A version here is
the log's sequence number, which no viewer is shown: a viewer's version counts the events it can see.)

An event with a `slot` (a team's draft or note: rules/audience.py) replaces the stored events of its game with the
same slot, in the same transaction, so a team's private steps keep one row per slot however often they are
taken.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, TypeVar, cast
from datetime import datetime, UTC

from sqlalchemy import (
    Column,
    ColumnElement,
    Connection,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    literal_column,
    or_,
    Select,
    select,
    text,
    union_all,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import ConnectionPoolEntry

from .rules.access import TOMBSTONES, Kind, Who
from .rules.audience import team_audience
from .rules.state import TEAM_AUDIENCES

T = TypeVar("T")

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

capabilities = Table(
    "capabilities",
    metadata,
    Column("token", String(64), primary_key=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False, index=True),
    Column("kind", String(16), nullable=False),  # a rules.access.Kind
    Column("team", String(8)),
    Column("seat", Integer),
    # When its holder last asked for its view (the service's clock, seconds), written at most once a minute:
    # whether a phone is in use (rules.host.PHONE_IN_USE_SECONDS).
    Column("seen_at", Float),
)

events = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("type", String(40), nullable=False),
    Column("data", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("slot", String(120)),  # a replaceable event's slot (rules/audience.py), else null
    # Who can see it (rules/audience.py): a reader's look-up finds the latest event it can see, so another
    # team's private steps make no reader's work differ (`Marks`).
    Column("audience", String(40)),
    UniqueConstraint("game_id", "seq", name="uq_events_game_seq"),
)
# A team's join link as a few letters to type, for a phone without a camera: unique among stored games.
join_codes = Table(
    "join_codes",
    metadata,
    Column("code", String(8), primary_key=True),
    Column("token", String(64), ForeignKey("capabilities.token"), nullable=False, index=True),
)

# The idle-game expiry looks only at events older than its cutoff (not at every stored event).
events_by_time = Index("ix_events_created_at", events.c.created_at)
# An event with a slot finds the earlier ones it replaces.
events_by_slot = Index("ix_events_slot", events.c.game_id, events.c.slot)


schema_version = Table(
    "schema_version",
    metadata,
    Column("version", Integer, primary_key=True),
    Column("description", String(200), nullable=False),
    Column("applied_at", DateTime(timezone=True), nullable=False),
)


def _add_column(conn: Connection, table: Table, column: Column[Any]) -> None:
    """Add `column` to a table created before it was declared (a table created since already has it)."""
    if column.name not in {c["name"] for c in inspect(conn).get_columns(table.name)}:
        kind = column.type.compile(dialect=conn.dialect)
        conn.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}"))


def _add_slots(conn: Connection) -> None:
    _add_column(conn, events, events.c.slot)
    events_by_slot.create(conn, checkfirst=True)


def _add_audiences(conn: Connection) -> None:
    """Each stored event's audience, as the rules say it (an event's class and fields decide it)."""
    from .rules.events import read  # (the rules alone know an event's audience; they import nothing of ours)

    _add_column(conn, events, events.c.audience)
    rows = conn.execute(select(events.c.id, events.c.data).where(events.c.audience.is_(None))).all()
    for chunk in _chunks(rows, 500):
        conn.execute(
            update(events).where(events.c.id == bindparam("row")).values(audience=bindparam("seen_by")),
            [{"row": row.id, "seen_by": read(json.loads(row.data)).audience()} for row in chunk],
        )


# The schema's history: (version, what it does, upgrade(connection)). Append; never edit a step that shipped.
# PostgreSQL: the advisory locks that let one server at a time migrate, and expire idle games (any numbers no
# other app uses)
MIGRATION_LOCK, EXPIRY_LOCK = 727465, 727466

MIGRATIONS: list[tuple[int, str, Callable[[Connection], object]]] = [
    (
        1,
        "games, capabilities and the event log",
        lambda conn: metadata.create_all(conn, tables=[games, capabilities, events], checkfirst=True),
    ),
    (
        2,
        "an index on the events' time, for the idle-game expiry",
        lambda conn: events_by_time.create(conn, checkfirst=True),
    ),
    (
        3,
        "join codes: each team's join link as a short code to type",
        lambda conn: join_codes.create(conn, checkfirst=True),
    ),
    (4, "slots: a team's latest draft replaces its earlier ones in the log", _add_slots),
    (
        5,
        "when each token's holder was last seen: whether a phone is in use",
        lambda conn: _add_column(conn, capabilities, capabilities.c.seen_at),
    ),
    (6, "each event's audience: a reader's look-up finds the latest event it can see", _add_audiences),
]
LATEST_SCHEMA = MIGRATIONS[-1][0]


_SCHEMA_VERSION = select(func.coalesce(func.max(schema_version.c.version), 0))


# The statements of the hot paths, built once: building a select() and its cache key on every call cost
# more than running it (docs/performance.md). Values are bound per call.
_CURRENT_VERSION = select(func.coalesce(func.max(events.c.seq), 0)).where(events.c.game_id == bindparam("game_id"))


def _latest_seen_without(hidden: tuple[str, ...]) -> ColumnElement[Any]:
    """The latest event of the capability's game whose audience is none of `hidden`: from the top of the log
    down (its unique index), past the few private events a slot keeps (rules/audience.py). Its constants are
    written in the statement (DriverQuery binds one value; SQLite's compiler binds an offset unless given)."""
    return func.coalesce(
        select(events.c.seq)
        .where(
            events.c.game_id == capabilities.c.game_id,
            # (an event without its audience, which no migrated database holds, counts as everyone's: seen by all)
            func.coalesce(events.c.audience, literal_column("'everyone'")).not_in(
                [literal_column(f"'{audience}'") for audience in hidden]
            ),
        )
        .order_by(events.c.seq.desc())
        .limit(literal_column("1"))
        .offset(literal_column("0"))
        .scalar_subquery(),
        literal_column("0"),
    )


_CAPABILITY_WITH_MARKS = select(
    capabilities,
    _latest_seen_without(TEAM_AUDIENCES).label("shared"),
    *(_latest_seen_without(tuple(a for a in TEAM_AUDIENCES if a != mine)).label(mine) for mine in TEAM_AUDIENCES),
).where(capabilities.c.token == bindparam("token"))
_EVENTS_AFTER = (
    select(events.c.seq, events.c.data, events.c.created_at)
    .where(events.c.game_id == bindparam("game_id"), events.c.seq > bindparam("seq"))
    .order_by(events.c.seq)
)
_REVOKE = delete(capabilities).where(
    capabilities.c.game_id == bindparam("game_id"),
    capabilities.c.kind == bindparam("kind"),
    capabilities.c.seat.is_not_distinct_from(bindparam("seat")),
)
_JOIN_CODE = (
    select(capabilities)
    .join(join_codes, join_codes.c.token == capabilities.c.token)
    .where(join_codes.c.code == bindparam("code"))
)
_TOKEN_EXISTS = select(capabilities.c.token).where(
    capabilities.c.token == bindparam("token"), capabilities.c.kind.not_in(TOMBSTONES)
)
# Never back in time: a process's kept marks (seen.py) may be written after a later one of the same phone.
_SEEN = (
    update(capabilities)
    .where(
        capabilities.c.token == bindparam("seen_token"),
        or_(capabilities.c.seen_at.is_(None), capabilities.c.seen_at < bindparam("now")),
    )
    .values(seen_at=bindparam("now"))
)
_SEEN_SEATS = select(capabilities.c.seat).where(
    capabilities.c.game_id == bindparam("game_id"),
    capabilities.c.kind == Kind.SEAT,
    capabilities.c.seen_at >= bindparam("since"),
)
_LAST_SEEN = select(capabilities.c.seat, capabilities.c.seen_at).where(
    capabilities.c.game_id == bindparam("game_id"),
    capabilities.c.kind == Kind.SEAT,
    capabilities.c.seen_at.is_not(None),
)
_INSERT_EVENTS = insert(events)
_REPLACE = delete(events).where(
    events.c.game_id == bindparam("game_id"), events.c.slot == bindparam("in_slot"), events.c.seq < bindparam("before")
)
_INSERT_CAPABILITIES = insert(capabilities)


# PostgreSQL: every append NOTIFYs this channel with its game's id (companion/push.py listens).
NOTIFY_CHANNEL = "decrypto_events"
_NOTIFY = text(f"SELECT pg_notify('{NOTIFY_CHANNEL}', :game_id)")
# The games with events after a row, and the newest row of all, in one statement (one snapshot).
_EVENTS_SINCE = union_all(
    select(events.c.id, events.c.game_id).where(events.c.id > bindparam("after")),
    select(func.max(events.c.id), literal_column("NULL")),
)


class NewEvent(NamedTuple):
    data: dict[str, Any]  # the event as it is stored (rules/event.py `to_json`)
    audience: str  # who can see it (rules/audience.py)


class Notifications(Protocol):
    """`payloads(timeout)`: the payloads of a LISTENing connection's notifications that come within `timeout`
    seconds, as they come (`Store.listen`)."""

    def __call__(self, timeout: float) -> Iterator[str]: ...


class Conflict(Exception):
    """Another writer appended at the same position first (or a new game's id or join code was taken)."""


class Withdrawn(Exception):
    """The capability a command came with was withdrawn before its events could be appended."""


class Marks(NamedTuple):
    """Where a reader's game stands, looked up with its capability: the latest event the game's readers outside
    any team can see (`shared`), and the latest a member of each team can see (`by_team`, in TEAM_AUDIENCES'
    order: every event but the other teams' private ones). A state that holds the events a reader can see is
    current for it, whatever other teams did since (games.py `load_for`)."""

    shared: int
    by_team: tuple[int, ...]

    @classmethod
    def at(cls, version: int) -> Marks:
        """Marks of a game known to stand at `version` (every reader's latest event)."""
        return cls(version, (version,) * len(TEAM_AUDIENCES))

    @property
    def latest(self) -> int:
        """The log's latest sequence number (an event is private to one team, or none)."""
        return max(self.by_team)

    def seen_by(self, team: str | None) -> int:
        """The latest event a member of `team` (None: of no team) can see."""
        return self.shared if team is None else self.by_team[TEAM_AUDIENCES.index(team_audience(team))]


@dataclass(frozen=True)
class Capability:
    token: str
    game_id: str
    kind: Kind
    team: str | None = None
    seat: int | None = None
    seen_at: float | None = None  # when its holder last asked for its view (written at most once a minute)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", Kind(self.kind))  # (a row holds its plain string)

    @property
    def who(self) -> Who:
        """Who its holder is, to the rules and the views."""
        return Who(self.kind, team=self.team, seat=self.seat)


def _now() -> datetime:
    return datetime.now(UTC)


def _use_wal(cursor: sqlite3.Cursor, patience: float = 30) -> None:
    """Put the SQLite file in WAL mode (it stays so). Switching takes an exclusive lock for which SQLite does
    not wait: processes opening a fresh file together are told "database is locked", so retry until it is."""
    deadline = time.monotonic() + patience
    while cursor.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _private_sqlite_file(url: str) -> None:
    """The SQLite file (and its -wal and -shm, which SQLite creates with the file's mode) readable by this
    user only: it holds every token, keyword and code. Created 0600 before SQLite opens it; an older one is
    tightened."""
    path = make_url(url).database
    if not path or path == ":memory:" or path.startswith("file:") or not os.path.isdir(os.path.dirname(path) or "."):
        return  # nothing to protect (SQLite reports a missing folder itself)
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    for name in (path, path + "-wal", path + "-shm"):
        if os.path.exists(name):
            os.chmod(name, 0o600)


# PostgreSQL connections a worker keeps, and how many more it may open for a moment. A gevent worker serves
# a move and the nine pages it makes fetch at once, each query holding a connection while it waits: with
# SQLAlchemy's 5 kept, 6 to 8 connections a second were opened and closed again at 200 tables, each a new
# PostgreSQL process and a password exchange (docs/performance.md, "PostgreSQL's moves").
POOL_SIZE, POOL_OVERFLOW = 20, 10


def make_engine(url: str) -> Engine:
    # hide_parameters: an error's message (logged with its traceback) never shows the statement's values,
    # which are tokens, keywords, codes and guesses.
    if url.startswith("sqlite"):
        _private_sqlite_file(url)
        engine = create_engine(url, connect_args={"timeout": 30}, hide_parameters=True)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: sqlite3.Connection, _record: ConnectionPoolEntry) -> None:
            cursor = dbapi_connection.cursor()
            _use_wal(cursor)  # readers never wait for the writer
            cursor.execute("PRAGMA synchronous=FULL")  # an acknowledged action survives power loss
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()
    else:
        # No pre-ping (a round trip on every request): a connection the server dropped fails one request,
        # which SQLAlchemy answers by discarding the pool; phones poll again, an action was not acknowledged.
        engine = create_engine(
            url, pool_recycle=1800, hide_parameters=True, pool_size=POOL_SIZE, max_overflow=POOL_OVERFLOW
        )
    return engine


def _chunks(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class DriverQuery:
    """A read of one statement and one bound value, on the pool's DBAPI connection itself, for the poll path
    (every page fetch and every 304 looks up its token): SQLAlchemy's `Connection` around a statement cost four
    times SQLite's own work (100 of 125 µs, docs/performance.md). The statement is still built with SQLAlchemy,
    compiled once for the database's driver; on PostgreSQL it runs outside a transaction (one round trip, and
    nothing to roll back when the connection goes back to the pool). When the driver fails (a connection the
    server dropped), that connection is discarded and the read runs again through SQLAlchemy, which raises its
    `DBAPIError` and handles a dropped connection as it does everywhere else."""

    def __init__(self, reader: Engine, statement: Select[Any], name: str) -> None:
        """`reader`: `Store.reader`, whose options say whether reads run outside a transaction."""
        compiled = statement.compile(dialect=reader.dialect)
        if list(compiled.binds) != [name]:
            raise ValueError(f"a DriverQuery binds one value, {name}: {list(compiled.binds)}")
        self.reader, self.statement, self.name = reader, statement, name
        self.sql, self.positional = compiled.string, compiled.positional
        self.autocommit = reader.get_execution_options().get("isolation_level") == "AUTOCOMMIT"

    def first(self, value: object) -> tuple[Any, ...] | None:
        connection = self.reader.raw_connection()
        driver: Any = connection.dbapi_connection  # the driver's own connection, just checked out
        try:
            if self.autocommit:
                driver.autocommit = True
            cursor = driver.cursor()
            cursor.execute(self.sql, (value,) if self.positional else {self.name: value})
            row = cursor.fetchone()
            cursor.close()
            if self.autocommit:
                driver.autocommit = False
        except self.reader.dialect.loaded_dbapi.Error as error:
            connection.invalidate(error)
            row = _FAILED
        except BaseException:  # interrupted mid-query (a worker stopping): its state is unknown
            connection.invalidate()
            raise
        finally:
            connection.close()  # back to the pool, or away if invalidated
        if row is not _FAILED:
            return cast("tuple[Any, ...] | None", row)  # (the driver's row)
        with self.reader.connect() as conn:
            found = conn.execute(self.statement, {self.name: value}).first()
        return None if found is None else tuple(found)


_FAILED = object()


class NewerSchema(Exception):
    """The database was upgraded by a newer release: this code would misread it, so it neither serves nor
    migrates it (a downgrade is a restore of the backup taken before the upgrade: docs/operating.md)."""

    def __init__(self, version: int):
        super().__init__(
            f"the database has schema version {version}, newer than this release's {LATEST_SCHEMA}: "
            "run the release that upgraded it, or restore the backup taken before that upgrade"
        )


class Store:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # Reads are one statement each: on PostgreSQL, without a transaction around them they take one round
        # trip instead of three (BEGIN, the query, ROLLBACK when the connection goes back to the pool).
        self.reader = (
            engine.execution_options(isolation_level="AUTOCOMMIT") if engine.dialect.name == "postgresql" else engine
        )
        self._capability = DriverQuery(self.reader, _CAPABILITY_WITH_MARKS, "token")

    def migrate(self) -> int:
        """Create or upgrade the tables: every migration this database has not had yet, in order, while
        holding the database's write lock, so that servers or processes starting together take turns and the
        later ones find nothing left to do. Returns the schema version."""
        with self._exclusive() as conn:
            schema_version.create(conn, checkfirst=True)
            done = conn.execute(_SCHEMA_VERSION).scalar_one()
            if done > LATEST_SCHEMA:
                raise NewerSchema(done)
            for version, description, upgrade in MIGRATIONS:
                if version > done:
                    upgrade(conn)
                    conn.execute(
                        insert(schema_version).values(version=version, description=description, applied_at=_now())
                    )
        return LATEST_SCHEMA

    def check_schema(self) -> None:
        """What a worker does at start: the schema must be the one this code was written for. A database
        that is behind is migrated (under the lock) when nobody did it first, as in tests or `flask run`;
        `gunicorn.conf.py` migrates before any worker starts, so there workers only read the version."""
        version = self.schema_version()
        if version > LATEST_SCHEMA:
            raise NewerSchema(version)
        if version < LATEST_SCHEMA:
            self.migrate()

    def schema_version(self) -> int:
        """The database's schema version; 0 for a database without tables."""
        with self.reader.connect() as conn:
            if not inspect(conn).has_table(schema_version.name):
                return 0
            version: int = conn.execute(_SCHEMA_VERSION).scalar_one()
            return version

    @contextmanager
    def _exclusive(self, lock: int = MIGRATION_LOCK) -> Iterator[Connection]:
        """A transaction that holds the database's write lock from its first statement.

        SQLite: BEGIN IMMEDIATE (the driver's own BEGIN is deferred and skips DDL, so two processes could both
        see a table missing and both create it). PostgreSQL: the advisory lock `lock`, held until the commit."""
        if self.engine.dialect.name == "sqlite":
            with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.exec_driver_sql("BEGIN IMMEDIATE")
                try:
                    yield conn
                except BaseException:
                    conn.exec_driver_sql("ROLLBACK")
                    raise
                conn.exec_driver_sql("COMMIT")
        else:
            with self.engine.begin() as conn:
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": lock})
                yield conn

    def create_game(
        self, game_id: str, first_events: list[NewEvent], caps: list[Capability], codes: dict[str, str] | None = None
    ) -> None:
        """A new game with its capabilities and `codes` (join code -> join token); raises Conflict if its
        id or one of its codes is already taken (nothing is written then)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(games).values(id=game_id, created_at=_now()))
                self._insert_capabilities(conn, caps)
                if codes:
                    conn.execute(insert(join_codes), [{"code": c, "token": t} for c, t in codes.items()])
                self._insert_events(conn, game_id, 0, first_events)
        except IntegrityError as error:
            raise Conflict(game_id) from error

    def append(
        self,
        game_id: str,
        version: int,
        new_events: list[NewEvent],
        caps: Sequence[Capability] = (),
        revoked: Sequence[tuple[Kind, int | None]] = (),
        token: str | None = None,
        promoted: Sequence[tuple[Kind, Kind, int | None]] = (),
    ) -> int:
        """Append events after `version` in one transaction; raises Conflict if someone was first.

        `token`, the capability acting, must still exist (else Withdrawn): checked after the events are
        inserted, when this transaction holds the write (SQLite) or the next sequence number (PostgreSQL), so
        no withdrawal can slip in between (a host token the table screen moved away from counts as withdrawn). In
        the same transaction, the tokens of `revoked` (kind, seat; None for the game's own, such as its move
        link) are withdrawn, those of `promoted` (kind, new kind, seat) change kind, then `caps` are granted."""
        try:
            with self.engine.begin() as conn:
                self._insert_events(conn, game_id, version, new_events)
                if token is not None and conn.execute(_TOKEN_EXISTS, {"token": token}).first() is None:
                    raise Withdrawn(token)
                if revoked:
                    conn.execute(_REVOKE, [{"game_id": game_id, "kind": kind, "seat": seat} for kind, seat in revoked])
                for old, new, seat in promoted:  # a waiting phone's token becomes the seat's
                    conn.execute(
                        update(capabilities)
                        .where(
                            capabilities.c.game_id == game_id, capabilities.c.kind == old, capabilities.c.seat == seat
                        )
                        .values(kind=new)
                    )
                self._insert_capabilities(conn, caps)
                self._signal(conn, game_id)
        except IntegrityError as error:
            raise Conflict(game_id) from error
        return version + len(new_events)

    def _signal(self, conn: Connection, game_id: str) -> None:
        """PostgreSQL: tell every listening worker that the game changed, when (and only if) this commits."""
        if self.engine.dialect.name == "postgresql":
            conn.execute(_NOTIFY, {"game_id": game_id})

    def games_changed_since(self, after: int | None) -> tuple[set[str] | None, int]:
        """The games that got events since the event row `after` (None: since ever), and the newest row now:
        what the SQLite push watcher asks 40 times a second, at the cost of the changes alone, however
        many games it watches. None instead of the games when `after` is None or the newest rows were deleted
        since (row numbers may then be given again): any game may have changed."""
        with self.reader.connect() as conn:
            if after is None:
                return None, conn.execute(select(func.max(events.c.id))).scalar() or 0
            rows = conn.execute(_EVENTS_SINCE, {"after": after}).all()
        newest = next(row.id for row in rows if row.game_id is None) or 0
        if newest < after:
            return None, newest
        return {row.game_id for row in rows if row.game_id is not None}, newest

    @contextmanager
    def listen(self, channel: str) -> Iterator[Notifications]:
        """PostgreSQL: a connection of its own LISTENing on `channel`, closed after the `with`. Yields
        `payloads(timeout)`: the payloads that come within `timeout` seconds, as they come."""
        import psycopg  # only with PostgreSQL (the optional dependency)

        url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"LISTEN {channel}")
            yield lambda timeout: (notification.payload for notification in conn.notifies(timeout=timeout))

    def check_writable(self) -> None:
        """Raise the database's error if it can't be written to now (read-only file or server, full lock
        table...): a write that changes nothing, rolled back."""
        with self.engine.connect() as conn, conn.begin() as transaction:
            conn.execute(delete(games).where(games.c.id == ""))
            transaction.rollback()

    def version(self, game_id: str) -> int:
        with self.reader.connect() as conn:
            version: int = conn.execute(_CURRENT_VERSION, {"game_id": game_id}).scalar_one()
            return version

    def events_after(self, game_id: str, seq: int = 0) -> list[tuple[int, dict[str, Any], datetime]]:
        with self.reader.connect() as conn:
            rows = conn.execute(_EVENTS_AFTER, {"game_id": game_id, "seq": seq}).all()
        return [(row.seq, json.loads(row.data), row.created_at) for row in rows]

    def capability(self, token: str) -> tuple[Capability, Marks] | None:
        """The capability a token grants and where its game stands, in one query (the poll path)."""
        row = self._capability.first(token)
        if row is None:
            return None
        # the capabilities table's columns, in Capability's order, then the marks
        *granted, shared = row[: -len(TEAM_AUDIENCES)]
        return Capability(*granted), Marks(shared, tuple(row[-len(TEAM_AUDIENCES) :]))

    def seen(self, token: str, now: float, signal: str | None = None) -> None:
        """Its holder asked for its view now (see `capabilities.seen_at`). `signal`: its game's id, to wake that
        game's streams on every server as an append does (PostgreSQL; SQLite's watcher sees appends only)."""
        with self.engine.begin() as conn:
            conn.execute(_SEEN, {"seen_token": token, "now": now})
            if signal is not None:
                self._signal(conn, signal)

    def seen_together(self, marks: Sequence[tuple[str, float]]) -> None:
        """Their holders asked for their views: (token, when), in one transaction. In the tokens' order: two
        workers' batches share phones (a phone's requests go to either), and rows locked in two orders were a
        deadlock on PostgreSQL (its detection takes a second, in which every write of those phones waited)."""
        if marks:
            with self.engine.begin() as conn:
                conn.execute(_SEEN, [{"seen_token": token, "now": at} for token, at in sorted(marks)])

    def seats_last_seen(self, game_id: str) -> dict[int, float]:
        """When each of the game's seats' phone last asked for its view, as written (seat -> seconds)."""
        with self.reader.connect() as conn:
            seen: dict[int, float] = {}
            for seat, at in conn.execute(_LAST_SEEN, {"game_id": game_id}):
                seen[seat] = max(at, seen.get(seat, at))
            return seen

    def seats_seen_since(self, game_id: str, since: float) -> set[int]:
        """The game's seats whose phone asked for its view at `since` or later."""
        with self.reader.connect() as conn:
            return set(conn.execute(_SEEN_SEATS, {"game_id": game_id, "since": since}).scalars())

    def join_code(self, code: str) -> Capability | None:
        """The join capability a join code stands for."""
        with self.reader.connect() as conn:
            row = conn.execute(_JOIN_CODE, {"code": code}).first()
        return Capability(row.token, row.game_id, row.kind, row.team, row.seat) if row else None

    def join_codes_of(self, game_id: str) -> dict[str, str]:
        """The game's join codes by team."""
        query = (
            select(capabilities.c.team, join_codes.c.code)
            .join(join_codes, join_codes.c.token == capabilities.c.token)
            .where(capabilities.c.game_id == game_id)
        )
        with self.reader.connect() as conn:
            return {row.team: row.code for row in conn.execute(query)}

    def delete_idle_games(self, idle_since: datetime) -> list[str]:
        """Delete every game with no event since `idle_since` (finished or abandoned); returns their ids.

        Only games with an event older than the cutoff are looked at (by the index on the events' time),
        so the cost follows the games aged since the last sweep, not the games stored. Servers and workers
        doing it at once take turns (the later ones find nothing left)."""
        with self._exclusive(EXPIRY_LOCK) as conn:
            # Two index range reads (a single DISTINCT query made SQLite scan every event in game order).
            aged = {
                row.game_id for row in conn.execute(select(events.c.game_id).where(events.c.created_at < idle_since))
            }
            still_played: set[str] = set()
            for chunk in _chunks(sorted(aged), 500):
                still_played.update(
                    conn.execute(
                        select(events.c.game_id)
                        .distinct()
                        .where(events.c.game_id.in_(chunk), events.c.created_at >= idle_since)
                    ).scalars()
                )
            idle = sorted(aged - still_played)
            for chunk in _chunks(idle, 500):
                conn.execute(
                    delete(join_codes).where(
                        join_codes.c.token.in_(select(capabilities.c.token).where(capabilities.c.game_id.in_(chunk)))
                    )
                )
                for table in (events, capabilities):
                    conn.execute(delete(table).where(table.c.game_id.in_(chunk)))
                conn.execute(delete(games).where(games.c.id.in_(chunk)))
        return idle

    def capabilities_of(self, game_id: str, kind: Kind | None = None) -> list[Capability]:
        query = select(capabilities).where(capabilities.c.game_id == game_id)
        if kind:
            query = query.where(capabilities.c.kind == kind)
        with self.reader.connect() as conn:
            return [Capability(r.token, r.game_id, r.kind, r.team, r.seat) for r in conn.execute(query)]

    @staticmethod
    def _insert_events(conn: Connection, game_id: str, version: int, new_events: list[NewEvent]) -> None:
        """Insert the events after `version`, then delete the earlier ones their slots replace (after: a
        writer that was not first fails on the insert and deletes nothing)."""
        now = _now()
        rows = [
            {
                "game_id": game_id,
                "seq": version + i,
                "type": e.data["type"],
                "slot": e.data.get("slot"),
                "audience": e.audience,
                "data": json.dumps(e.data, ensure_ascii=False),
                "created_at": now,
            }
            for i, e in enumerate(new_events, start=1)
        ]
        if rows:
            conn.execute(_INSERT_EVENTS, rows)
        latest = {row["slot"]: row["seq"] for row in rows if row["slot"] is not None}
        if latest:
            conn.execute(
                _REPLACE, [{"game_id": game_id, "in_slot": slot, "before": seq} for slot, seq in latest.items()]
            )

    @staticmethod
    def _insert_capabilities(conn: Connection, caps: Iterable[Capability]) -> None:
        rows = [
            {
                "token": c.token,
                "game_id": c.game_id,
                "kind": c.kind,
                "team": c.team,
                "seat": c.seat,
                "seen_at": c.seen_at,
            }
            for c in caps
        ]
        if rows:
            conn.execute(_INSERT_CAPABILITIES, rows)
