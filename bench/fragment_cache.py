"""`.venv/bin/python -m bench.fragment_cache`: what the rendered-piece cache (web/fragments.py, bounded by
FRAGMENT_CACHE_CHARS) saves at each size, to size it by what it saves (issue 23, item 5: a worker's memory).

In-process, as bench/page_profile.py plays them: `--tables` fresh games, a move of each in turn (so a table's
pieces meet every other table's between two of its moves, as at a busy server), each move followed by its
table's 9 screens fetching what changed. For each size: the pieces found and rendered, the characters and
memory the cache holds at the end (its strings, as `sys.getsizeof` counts them), and the time a changed page
took. One app per size, the same games (the same seed). No thresholds.

Usage: `python -m bench.fragment_cache [--tables 200] [--sizes 0 100000 ...]`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from companion import create_app
from companion.store import Store, make_engine

from .page_profile import changed_pages
from .server import SECRET_KEY

SIZES = (0, 50_000, 200_000, 1_000_000, 4_000_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--sizes", type=int, nargs="+", default=SIZES, help="FRAGMENT_CACHE_CHARS values")
    args = parser.parse_args()
    print(f"{args.tables} tables, two rounds each, a move of each table in turn, then its 9 screens' fetches")
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite:///{Path(folder) / 'bench.db'}"
            Store(make_engine(url)).migrate()
            app = create_app(
                {"SECRET_KEY": SECRET_KEY, "DATABASE_URL": url, "RATE_LIMITS": "off", "FRAGMENT_CACHE_CHARS": size}
            )
            pages, seconds = changed_pages(app, args.tables, None)
            cache = app.extensions.get("fragments")
            if cache is None:
                print(f"{size:>10,} chars (off): {1000 * seconds / pages:.3f} ms a changed page ({pages} pages)")
                continue
            held = list(cache._held.values())
            memory = sum(sys.getsizeof(str(html)) for html in held)
            found = cache.hits / max(1, cache.hits + cache.misses)
            print(
                f"{size:>10,} chars: {1000 * seconds / pages:.3f} ms a changed page; pieces found {found:.0%} "
                f"({cache.hits:,} found, {cache.misses:,} rendered); holds {len(held):,} pieces, "
                f"{sum(map(len, held)):,} chars, {memory / 2**20:.1f} MB",
                flush=True,
            )


if __name__ == "__main__":
    main()
