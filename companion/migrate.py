"""`python -m companion.migrate`: create or upgrade the games' database (DATABASE_URL) and the secret key.

gunicorn runs this once in its master process before it starts any worker (`on_starting` in
gunicorn.conf.py), so workers that start together never race to create the same tables; they only check
the schema version. Several servers sharing one PostgreSQL take turns on a lock (`Store.migrate`).
"""

from __future__ import annotations

import os
import sys

from .app import INSTANCE, database_url, secret_key
from .store import NewerSchema, Store, make_engine


def migrate() -> int:
    """Prepares everything the workers share; returns the schema version now in the database."""
    secret_key(str(INSTANCE))
    engine = make_engine(database_url(os.environ.get("DATABASE_URL", "")))
    try:
        return Store(engine).migrate()
    finally:
        engine.dispose()  # no connection crosses the fork into the workers


def main() -> None:
    try:
        print(f"The database is at schema version {migrate()}.")
    except NewerSchema as refusal:
        sys.exit(f"Not starting: {refusal}.")


if __name__ == "__main__":
    main()
