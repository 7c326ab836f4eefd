"""The app creates and upgrades its own tables (SQLite file, or PostgreSQL by TEST_DATABASE_URL)."""

from sqlalchemy import inspect

from companion.store import MIGRATIONS, Store, make_engine, schema_version

from .conftest import database_url


def test_a_new_database_gets_every_migration_once(tmp_path):
    store = Store(make_engine(database_url(tmp_path)))
    store.create_schema()
    store.create_schema()                  # a second worker, or a restart: nothing to do
    assert store.schema_version() == MIGRATIONS[-1][0]
    assert {"games", "capabilities", "events", "schema_version"} <= set(inspect(store.engine).get_table_names())


def test_a_database_from_before_migrations_is_upgraded_in_place(tmp_path, client):
    """Databases created before the schema was versioned keep their games."""
    store = client.application.extensions["games"].store
    game_id = client.post("/api/games").get_json()["game_id"]
    with store.engine.begin() as conn:
        schema_version.drop(conn)          # as it was before versioning
    store.create_schema()
    assert store.schema_version() == MIGRATIONS[-1][0]
    assert store.events_after(game_id)[0][1]["type"] == "game_created"
