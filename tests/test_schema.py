"""The app creates and upgrades its own tables (SQLite file, or PostgreSQL by TEST_DATABASE_URL)."""

import json
import multiprocessing
import os
from pathlib import Path
from datetime import datetime, UTC

import pytest
from sqlalchemy import func, insert, inspect, select, text

from companion.app import secret_key
from companion.store import MIGRATIONS, NewerSchema, Store, make_engine, schema_version

from .conftest import database_url, empty_postgresql


def test_a_new_database_gets_every_migration_once(tmp_path):
    store = Store(make_engine(database_url(tmp_path)))
    store.migrate()
    store.migrate()  # a second worker, or a restart: nothing to do
    assert store.schema_version() == MIGRATIONS[-1][0]
    assert {"games", "capabilities", "events", "schema_version"} <= set(inspect(store.engine).get_table_names())


def test_a_database_from_before_migrations_is_upgraded_in_place(tmp_path, client):
    """Databases created before the schema was versioned keep their games."""
    store = client.application.extensions["games"].store
    game_id = client.post("/api/games").get_json()["game_id"]
    with store.engine.begin() as conn:
        schema_version.drop(conn)  # as it was before versioning
    store.migrate()
    assert store.schema_version() == MIGRATIONS[-1][0]
    assert store.events_after(game_id)[0][1]["type"] == "game_created"


def _migrate_at_the_barrier(urls, barrier, answers):
    """A starting worker, once per url: its store made, it waits for the others, then migrates."""
    for url in urls:
        store = Store(make_engine(url))
        barrier.wait()
        try:
            answers.put(store.migrate())
        except Exception as error:  # noqa: BLE001 - the test reports what a starting worker would die of
            answers.put(repr(error))
        store.engine.dispose()


def _key_at_the_barrier(instances, barrier, answers):
    for instance in instances:
        barrier.wait()
        answers.put(secret_key(instance))


def _race(target, arguments: list, prepare=lambda argument: None, processes=6):
    """`processes` processes released at one instant, each calling target on each of `arguments` in turn
    (`prepare(argument)` runs before each release); their answers, a list per argument. The processes start
    once: a start imports the app, which took most of the time when each race had processes of its own."""
    context = multiprocessing.get_context("spawn")
    barrier, answers = context.Barrier(processes + 1), context.Queue()
    racers = [context.Process(target=target, args=(arguments, barrier, answers)) for _ in range(processes)]
    for racer in racers:
        racer.start()
    results = []
    for argument in arguments:
        prepare(argument)
        barrier.wait(timeout=120)  # the last to arrive releases them all
        results.append([answers.get(timeout=120) for _ in racers])
    for racer in racers:
        racer.join()
    return results


@pytest.mark.system
@pytest.mark.slow
def test_processes_migrating_one_fresh_database_at_once_take_turns(tmp_path):
    """Six processes released together on an empty database, five times: every one finishes with the latest
    schema (without the write lock, all but one died of 'table already exists' or 'database is locked')."""
    if os.environ.get("TEST_DATABASE_URL"):
        urls, prepare = [os.environ["TEST_DATABASE_URL"]] * 5, empty_postgresql
    else:
        urls, prepare = [f"sqlite:///{tmp_path / f'race-{attempt}.sqlite3'}" for attempt in range(5)], lambda url: None

    for attempt, answers in enumerate(_race(_migrate_at_the_barrier, urls, prepare)):
        assert answers == [MIGRATIONS[-1][0]] * 6, f"race {attempt + 1}: {answers}"
    for url in set(urls):  # (on PostgreSQL, the last race's database)
        with Store(make_engine(url)).engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(schema_version)).scalar_one() == len(MIGRATIONS)


@pytest.mark.system
def test_processes_starting_at_once_share_one_secret_key(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    [keys] = _race(_key_at_the_barrier, [str(tmp_path / "instance")])
    assert len(set(keys)) == 1 and len(keys[0]) == 64
    assert (tmp_path / "instance" / "secret_key").stat().st_mode & 0o077 == 0  # only the server reads it
    assert [p.name for p in (tmp_path / "instance").iterdir()] == ["secret_key"]


def newer_database(path: Path) -> Store:
    """A database a later release upgraded: its schema version is one past this code's."""
    store = Store(make_engine(f"sqlite:///{path}"))
    store.migrate()
    with store.engine.begin() as conn:
        conn.execute(
            insert(schema_version).values(
                version=MIGRATIONS[-1][0] + 1, description="from the future", applied_at=datetime.now(UTC)
            )
        )
    return store


def test_neither_a_worker_nor_a_migration_touches_a_database_newer_than_its_code(tmp_path):
    store = newer_database(tmp_path / "newer.sqlite3")
    for attempt in (store.check_schema, store.migrate):
        with pytest.raises(NewerSchema, match="newer than this release's"):
            attempt()
    assert store.schema_version() == MIGRATIONS[-1][0] + 1


def test_a_database_from_before_phones_in_use_gets_its_column_and_plays_on(tmp_path, client):
    """A migration adds `capabilities.seen_at` to a database that has none; its phones count as not in use until
    they ask for their view again (a claim then waits for them as soon as they do)."""
    from tools.driver import ApiGame

    store = client.application.extensions["games"].store
    game = ApiGame(client)
    step = next(version for version, description, _ in MIGRATIONS if "in use" in description)
    with store.engine.begin() as conn:  # as the database was before that step
        conn.execute(text("ALTER TABLE capabilities DROP COLUMN seen_at"))
        conn.execute(schema_version.delete().where(schema_version.c.version >= step))
    assert store.schema_version() == step - 1
    store.migrate()
    assert store.schema_version() == MIGRATIONS[-1][0]
    assert "seen_at" in {c["name"] for c in inspect(store.engine).get_columns("capabilities")}
    assert store.capability(game.seats["Ann"])[0].seen_at is None
    assert game.view(game.seats["Ann"])["viewer"]["name"] == "Ann"  # and now it is in use
    assert store.capability(game.seats["Ann"])[0].seen_at is not None


def test_a_database_from_before_audiences_gets_each_events_audience_and_plays_on(tmp_path, client):
    """Migration 6 writes down the audience of every event stored before it (the rules read it off each
    event), so that a reader's look-up finds the latest event it can see (store.py `Marks`)."""
    from tools.driver import ApiGame, wrong

    store = client.application.extensions["games"].store
    game = ApiGame(client)
    game.announce("white")
    game.announce("black")
    game.guess("white", "white", wrong(game.code("white")), confirm=False)  # a draft White alone sees
    game.post("note", game.guesser("black", "black"), keyword=2, text="sea", match=1)  # a note of Black's
    step = next(version for version, description, _ in MIGRATIONS if "audience" in description)
    with store.engine.begin() as conn:  # as the database was before that step
        conn.execute(text("ALTER TABLE events DROP COLUMN audience"))
        conn.execute(schema_version.delete().where(schema_version.c.version >= step))
    store.migrate()
    with store.engine.connect() as conn:
        audiences = dict(
            conn.execute(text("SELECT type, audience FROM events WHERE type IN ('guess_saved', 'note_written')")).all()
        )
        everyone = set(conn.execute(text("SELECT DISTINCT audience FROM events WHERE slot IS NULL")).scalars())
    assert audiences == {"guess_saved": "team:white", "note_written": "team:black"} and everyone == {"everyone"}
    marks = store.capability(game.host)[1]  # (White drafted, then Black noted: the latest event)
    assert (marks.shared, marks.seen_by("white"), marks.seen_by("black")) == (
        marks.latest - 2,
        marks.latest - 1,
        marks.latest,
    )
    assert game.view(game.encryptor("white"))["phase"] == "playing"


@pytest.mark.parametrize("recorded", sorted((Path(__file__).parent / "corpus").glob("*.json")), ids=lambda p: p.stem)
def test_after_an_upgrade_no_etag_of_before_is_answered_304(tmp_path, recorded):
    """A game stored by older code (each recorded corpus file, in a database of the schema before the latest
    step), upgraded: a page or program that kept its ETag from before the upgrade (the old form, without the
    release) is answered the view, never 304 (the version may have been counted otherwise, the page drawn
    otherwise); the new ETag then works as ever."""
    from companion import create_app
    from companion.store import capabilities

    from .corpus import stored_game

    url = database_url(tmp_path)
    if url.startswith("postgresql"):
        empty_postgresql(url)
    store = Store(make_engine(url))
    store.migrate()
    with store.engine.begin() as conn:  # as the database was before the latest step
        conn.execute(text("ALTER TABLE events DROP COLUMN audience"))
        conn.execute(schema_version.delete().where(schema_version.c.version >= MIGRATIONS[-1][0]))
    game_id = stored_game(store, json.loads(recorded.read_text())["rows"])
    with store.engine.begin() as conn:
        conn.execute(insert(capabilities).values(token="t" * 32, game_id=game_id, kind="host"))
    app = create_app({"TESTING": True, "SECRET_KEY": "upgrade", "DATABASE_URL": url})  # (it migrates)
    client = app.test_client()
    bearer = {"Authorization": f"Bearer {'t' * 32}"}
    view = client.get(f"/api/games/{game_id}", headers=bearer)
    before = f'W/"v{view.get_json()["version"]}-host--"'  # what the code of before answered, the same version
    assert client.get(f"/api/games/{game_id}", headers={**bearer, "If-None-Match": before}).status_code == 200
    now = client.get(f"/api/games/{game_id}", headers={**bearer, "If-None-Match": view.headers["ETag"]})
    assert now.status_code == 304
