"""The corpus of stored games (record.py writes them, tests/test_corpus.py replays them), and of stored event
examples (`EXAMPLES`: a line for each event type and version no game holds).

A file's expected views are stored as the spectator's view and, for every other viewer, what differs from it
(`difference`), which `patched` puts back: a list as `{"#index": difference}` of the items that differ."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from datetime import datetime, UTC

from sqlalchemy import insert

from companion.store import events, games

CORPUS = Path(__file__).resolve().parent
GAMES = sorted(CORPUS.glob("*.json"))
EXAMPLES = CORPUS / "examples.jsonl"


def examples() -> list[dict]:
    """Each recorded example: its event's `event` type and `v`ersion, and the `rows` of its game (stored data)."""
    return [json.loads(line) for line in EXAMPLES.read_text().splitlines()] if EXAMPLES.exists() else []


def stored_events() -> list[dict]:
    """Every stored event of the corpus (its data), games and examples alike."""
    games_rows = [row["data"] for path in GAMES for row in json.loads(path.read_text())["rows"]]
    return games_rows + [data for example in examples() for data in example["rows"]]


def difference(base, other):
    """What `other` changes of `base`, for `patched(base, difference(base, other)) == other`."""
    if isinstance(base, dict) and isinstance(other, dict) and set(base) <= set(other):
        return {
            key: difference(base.get(key), value)
            for key, value in other.items()
            if key not in base or base[key] != value
        }
    if isinstance(base, list) and isinstance(other, list) and len(base) == len(other) and base:
        return {f"#{i}": difference(b, o) for i, (b, o) in enumerate(zip(base, other, strict=True)) if b != o}
    return other


def patched(base, change):
    """`base` with `change` (a `difference`) applied."""
    if isinstance(change, dict) and isinstance(base, list):
        items = list(base)
        for key, item in change.items():
            items[int(key[1:])] = patched(items[int(key[1:])], item)
        return items
    if isinstance(change, dict) and isinstance(base, dict):
        return {**base, **{key: patched(base.get(key), item) for key, item in change.items()}}
    return change


def stored_game(store, rows: list[dict]) -> str:
    """A game whose event log is `rows` (a corpus file's), written into `store` as its store would have: its
    id. Straight into the tables, so that nothing of today's code comes between the rows and the database."""
    game_id = "corpus-" + uuid.uuid4().hex[:12]
    now = datetime.now(UTC)
    with store.engine.begin() as conn:
        conn.execute(insert(games).values(id=game_id, created_at=now))
        conn.execute(
            insert(events),
            [
                {
                    "game_id": game_id,
                    "seq": row["seq"],
                    "type": row["type"],
                    "slot": row["slot"],
                    "data": json.dumps(row["data"], ensure_ascii=False),
                    "created_at": now,
                }
                for row in rows
            ],
        )
    return game_id
