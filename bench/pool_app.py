"""The app as `app.py` makes it, with the PostgreSQL connections a worker keeps set by the benchmark
(BENCH_POOL_SIZE, BENCH_POOL_OVERFLOW): `gunicorn bench.pool_app:app` (bench/pool.py)."""

import os

from companion import store

store.POOL_SIZE = int(os.environ["BENCH_POOL_SIZE"])  # read by store.make_engine, which create_app calls
store.POOL_OVERFLOW = int(os.environ["BENCH_POOL_OVERFLOW"])

from app import app  # noqa: E402 (after the pool is set)

__all__ = ["app"]
