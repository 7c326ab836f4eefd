"""A team's private steps (its draft guesses, its notes) in storage and in version numbers (issue 20, items 2
and 3; issue 21, the team's notes).

- No player can end or stall a game: a draft equal to the team's draft (a note as it stands) writes nothing,
  and a team's drafts (each of its notes) replace one another in the log (one stored per slot:
  rules/audience.py), so they never bring the game to its event limit, which counts the events everyone sees.
- Versions reveal only what the viewer sees: each viewer's version counts the events it can see (+1 for
  each), so nothing another team's viewer receives (view, ETag, stream, command answer) moves with a draft.
"""

from __future__ import annotations

import json
import re
import uuid
from functools import partial

from sqlalchemy import func, select, text

from companion import create_app
from companion.rules import Who
from companion.store import LATEST_SCHEMA, events as events_table
from companion.store import schema_version
from tools.driver import ApiGame, targets, wrong, wrong2

from .conftest import database_url
from .test_stream import Stream, etag_of


def make_app(tmp_path, **config):
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t-" + uuid.uuid4().hex,
            "RATE_LIMITS": "off",
            "DATABASE_URL": database_url(tmp_path),
            "STREAM_HEARTBEAT_SECONDS": 0.2,
            "PUSH_LOOK_SECONDS": 0.02,
            **config,
        }
    )


def stored_rows(app, game_id) -> int:
    with app.extensions["games"].store.engine.connect() as conn:
        return conn.execute(
            select(func.count()).select_from(events_table).where(events_table.c.game_id == game_id)
        ).scalar_one()


def bearer(token) -> dict:
    return {"Authorization": f"Bearer {token}"}


def version_of(etag: str) -> int:
    return int(re.search(r"v(\d+)-", etag).group(1))


DRAFTS = 600  # ten times the public events a round 2 game holds: were a draft one of them, the first would fail


def test_one_player_drafting_again_and_again_neither_ends_nor_grows_the_game(tmp_path):
    """The finding: 5,000 drafts filled a game's log (the event limit), and then White's seal and the host's
    take-back were refused (`game_too_long`). Drafts now replace one another: with the limit at the events
    everyone has seen, drafting goes on; then the seal and the take-back go through, and the stored log holds
    one draft."""
    app = make_app(tmp_path)
    game = ApiGame(app.test_client())
    game.round()  # round 2: White's seal waits for Black's interception
    game.announce("white")
    game.announce("black")
    service = app.extensions["games"]
    drafter = game.guesser("white", "white")
    seat = next(s for s, t in game.seat_tokens.items() if t == drafter)
    actor = Who("seat", "white", seat)
    seen = targets("guess", game.view(drafter))
    code = game.code("white")
    public = game.view(game.host)["version"]  # the events everyone saw
    service.max_events = public  # no room for one more event everyone sees... yet
    for n in range(DRAFTS):
        service.execute(
            game.id,
            actor,
            {"type": "guess", "code": wrong(code) if n % 2 else wrong2(code), "confirm": False, **seen},
            drafter,
        )
    assert stored_rows(app, game.id) == public + 1  # and the latest draft only
    assert game.view(drafter)["version"] == public + DRAFTS
    service.max_events = 5000
    sealed = game.guess("white", "white", code)
    assert sealed.status_code == 200, sealed.get_json()
    game.ok(game.command(game.host, "take-back"))  # the seal: a draft again
    assert game.view(drafter)["rounds"][-1]["transmissions"]["white"]["decryption"] == {
        "code": code,
        "sealed": False,
        "started": True,
    }
    game.guess("white", "white", wrong(code), confirm=False)  # replaces the draft before the seal
    assert game.view(game.host)["version"] == public + 2
    assert game.view(drafter)["version"] == public + DRAFTS + 3
    assert stored_rows(app, game.id) == public + 2 + 1
    game.guess("white", "white", code)
    assert game.view(drafter)["rounds"][-1]["transmissions"]["white"]["decryption"]["sealed"]
    folded = service.load(game.id)[1]  # command by command, in this process's cache
    service.cache.forget([game.id])
    assert service.load(game.id)[1] == folded  # the same from the stored log, without the replaced drafts


def test_a_draft_equal_to_the_teams_draft_writes_nothing(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    game = ApiGame(client)
    game.announce("white")
    game.announce("black")
    code = game.code("white")
    first = game.guess("white", "white", wrong(code), confirm=False).get_json()
    rows, etag = stored_rows(app, game.id), etag_of(client, f"/api/games/{game.id}", bearer(game.host))
    again = game.guess("white", "white", wrong(code), confirm=False)
    assert again.status_code == 200
    assert again.get_json() == {"version": first["version"], "events": []}
    assert stored_rows(app, game.id) == rows
    assert etag_of(client, f"/api/games/{game.id}", bearer(game.host)) == etag
    other = game.guess("white", "white", wrong2(code), confirm=False).get_json()  # another code: a draft
    assert other == {"version": first["version"] + 1, "events": ["guess_saved"]}
    assert stored_rows(app, game.id) == rows  # which replaced the first one


def test_the_event_limit_counts_what_everyone_sees_so_drafts_go_on_at_the_limit(tmp_path):
    app = make_app(tmp_path)
    game = ApiGame(app.test_client())
    game.announce("white")
    game.announce("black")
    code = game.code("white")
    app.extensions["games"].max_events = game.view(game.host)["version"]  # the public events so far
    for guess in (wrong(code), wrong2(code), wrong(code)):
        game.guess("white", "white", guess, confirm=False)  # drafts: nobody else sees them
    refused = game.post(
        "guess", game.guesser("white", "white"), code=code, confirm=True, **targets("guess", game.view(game.host))
    )
    assert refused.status_code == 409 and refused.get_json()["code"] == "game_too_long"


def test_a_teams_numbers_do_not_move_with_the_other_teams_drafts(tmp_path):
    """The finding: Black drafts (version 17), White drafts three times, Black drafts again (version 21), so
    Black learnt that White drafted three times; the spectator's version jumped 16 -> 22 at White's seal.
    Now every viewer's version counts only the events it sees: views, ETags, streams and command answers."""
    app = make_app(tmp_path)
    client = app.test_client()
    game = ApiGame(client)
    game.round()  # round 2: Black may intercept
    game.announce("white")
    game.announce("black")
    code = game.code("white")
    black = game.guesser("black", "white")
    view_path = f"/api/games/{game.id}"
    spectator = game.tokens["spectator"]
    first = game.guess("black", "white", wrong(code), confirm=False).get_json()["version"]
    before = {who: etag_of(client, view_path, bearer(who)) for who in (black, game.host, spectator)}
    assert version_of(before[black]) == first == game.view(black)["version"]
    public = game.view(spectator)["version"]
    streams = {who: Stream(client, f"{view_path}/stream", bearer(who)) for who in (black, spectator)}
    for who, stream in streams.items():
        assert stream.next()["id"] == before[who]
    for guess in (wrong2(code), code, wrong(code)):  # White drafts three times
        game.guess("white", "white", guess, confirm=False)
    for who, etag in before.items():
        unmoved = client.get(view_path, headers={**bearer(who), "If-None-Match": etag})
        assert unmoved.status_code == 304, who
    for stream in streams.values():
        stream.heartbeats()  # nothing to say
    assert game.view(black)["version"] == first
    # Black's next draft answers +1, not +4; If-Match is compared with the same count.
    answer = game.post("guess", black, code=wrong2(code), confirm=False, **targets("guess", game.view(black)))
    assert answer.get_json()["version"] == first + 1
    assert streams[black].next()["id"] == etag_of(client, view_path, bearer(black))
    body = {"code": wrong(code), "confirm": False, **targets("guess", game.view(black))}
    stale = client.post(f"{view_path}/guess", headers={**bearer(black), "If-Match": str(first)}, json=body)
    assert stale.status_code == 409  # its own draft did move its version
    fresh = client.post(f"{view_path}/guess", headers={**bearer(black), "If-Match": str(first + 1)}, json=body)
    assert fresh.status_code == 200 and fresh.get_json()["version"] == first + 2
    game.guess("white", "white", code)  # White seals: everyone sees it
    assert game.view(spectator)["version"] == public + 1
    assert streams[spectator].next()["id"] == etag_of(client, view_path, bearer(spectator))
    assert version_of(etag_of(client, view_path, bearer(spectator))) == public + 1
    assert game.view(black)["version"] == first + 3
    for stream in streams.values():
        stream.close()


def test_a_game_stored_before_draft_slots_loads_and_plays_on(tmp_path):
    """A log written before migration 4 (no `slot` column, drafts without a slot) loads after the upgrade
    with the same state and dense versions, and its new drafts replace one another."""
    app = make_app(tmp_path)
    client = app.test_client()
    game = ApiGame(client)
    game.announce("white")
    game.announce("black")
    code = game.code("white")
    service = app.extensions["games"]
    store = service.store
    drafter = game.guesser("white", "white")
    public = stored_rows(app, game.id)
    old_drafts = [
        {
            "type": "guess_saved",
            "transmission": "white",
            "by": "white",
            "code": c,
            "sealed": False,
            "seat": game.view(drafter)["viewer"]["seat"],
        }
        for c in (wrong(code), wrong2(code), wrong(code))
    ]
    with store.engine.begin() as conn:  # the log and the schema as they were at schema version 3
        conn.execute(text("DROP INDEX ix_events_slot"))
        conn.execute(text("ALTER TABLE events DROP COLUMN slot"))
        conn.execute(schema_version.delete().where(schema_version.c.version >= 4))
        last = conn.execute(text("SELECT max(seq) FROM events WHERE game_id = :g"), {"g": game.id}).scalar_one()
        for n, draft in enumerate(old_drafts, start=1):
            conn.execute(
                text(
                    "INSERT INTO events (game_id, seq, type, data, created_at) "
                    "VALUES (:g, :s, 'guess_saved', :d, CURRENT_TIMESTAMP)"
                ),
                {"g": game.id, "s": last + n, "d": json.dumps(draft)},
            )
    assert store.schema_version() == 3
    store.migrate()
    assert store.schema_version() == LATEST_SCHEMA
    service.cache.forget([game.id])
    view = game.view(drafter)
    assert view["version"] == game.view(game.host)["version"] + 3 and game.view(game.host)["version"] == public
    assert view["rounds"][-1]["transmissions"]["white"]["decryption"]["code"] == wrong(code)
    for guess in (wrong2(code), wrong(code), wrong2(code)):
        game.guess("white", "white", guess, confirm=False)
    assert game.view(drafter)["version"] == public + 6
    assert stored_rows(app, game.id) == public + 3 + 1  # the old drafts, and one new one
    sealed = game.guess("white", "white", code)  # the seal and the reveal
    assert sealed.status_code == 200 and game.view(game.host)["version"] == public + 2


# --- a team's notes (rules/notes.py): private steps like its drafts ------------------------------------


def test_one_player_rewriting_notes_again_and_again_neither_ends_nor_grows_the_game(tmp_path):
    """Every note a team keeps is one slot: however often its players rewrite them, the stored log holds one
    event per note written, the other viewers' versions stay where they were, and the game plays on to the
    next round even with the event limit at the public events."""
    app = make_app(tmp_path)
    game = ApiGame(app.test_client())
    game.round()  # round 2: a line per round so far, and four keywords
    service = app.extensions["games"]
    writer = game.guesser("white", "white")
    seat = next(s for s, t in game.seat_tokens.items() if t == writer)
    actor = Who("seat", "white", seat)
    public = game.view(game.host)["version"]
    other = game.view(game.guesser("black", "black"))["version"]
    service.max_events = public  # no room for one more event everyone sees... yet
    notes = [{"keyword": n} for n in (1, 2, 3, 4)] + [{"line": n} for n in (1, 2)]
    for n in range(DRAFTS):
        which = notes[n % len(notes)]
        service.execute(game.id, actor, {"type": "write_note", **which, "text": f"guess {n}", "match": 1}, writer)
    assert stored_rows(app, game.id) == public + len(notes)  # one event per note
    assert game.view(game.host)["version"] == public
    assert game.view(game.guesser("black", "black"))["version"] == other
    assert game.view(writer)["version"] == game.view(game.encryptor("white"))["version"]
    last = [max(n for n in range(DRAFTS) if n % len(notes) == i) for i in range(4)]  # each keyword's last text
    assert game.view(writer)["you"]["notes"]["keywords"] == [f"guess {n}" for n in last]
    service.max_events = 5000
    game.round()  # the game plays on
    assert game.view(game.host)["round"] == 3
    folded = service.load(game.id)[1]
    service.cache.forget([game.id])
    assert service.load(game.id)[1] == folded  # the same from the stored log, without the replaced notes


def test_a_note_as_it_stands_writes_nothing_and_moves_nobody_elses_numbers(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    game = ApiGame(client)
    writer = game.guesser("white", "white")
    view_path = f"/api/games/{game.id}"
    others = (game.host, game.tokens["spectator"], game.guesser("black", "black"))
    before = {who: etag_of(client, view_path, bearer(who)) for who in others}
    spectator = Stream(client, f"{view_path}/stream", bearer(game.tokens["spectator"]))
    assert spectator.next()["id"] == before[game.tokens["spectator"]]
    first = game.post("note", writer, keyword=3, text="castle", match=1).get_json()
    assert first["events"] == ["note_written"]
    rows = stored_rows(app, game.id)
    again = game.post("note", game.encryptor("white"), keyword=3, text="castle ", match=1)
    assert again.status_code == 200 and again.get_json() == {"version": first["version"], "events": []}
    assert stored_rows(app, game.id) == rows
    game.post("note", writer, keyword=3, text="castles", match=1)
    assert stored_rows(app, game.id) == rows  # it replaced the first one
    for who, etag in before.items():
        unmoved = client.get(view_path, headers={**bearer(who), "If-None-Match": etag})
        assert unmoved.status_code == 304, who
    spectator.heartbeats()  # nothing to say
    spectator.close()
    assert game.view(game.encryptor("white"))["you"]["notes"]["keywords"][2] == "castles"


def test_a_fetch_costs_the_same_whether_or_not_the_other_team_just_drafted_or_noted(tmp_path):
    """The finding: with two workers, the first fetch after the other team's draft (taken by the other
    worker) read and folded the draft, a millisecond's difference a classifier told apart 56-60 % of the time.
    Now a reader's look-up finds the latest event *it* can see, so the work of its fetch (the log reads and the
    events folded: counted here, not timed) is the same after another team's private step as after none; its
    own team's steps still reach it at once across workers."""
    here = make_app(tmp_path)  # the worker the readers reach
    there = create_app({**here.config, "TESTING": True})  # another worker on the same database
    client = here.test_client()
    game = ApiGame(there.test_client())
    game.round()  # round 2: both teams draft guesses of both transmissions, and write notes
    game.announce("white")
    game.announce("black")
    code = game.code("white")
    white = game.guesser("white", "white")
    steps = {
        "nothing": lambda n: None,
        "draft": lambda n: game.guess("white", "white", (wrong, wrong2)[n % 2](code), confirm=False),
        "note": lambda n: game.post("note", white, keyword=1, text=f"word {n}", match=1),
    }
    reads: list[int] = []
    store = here.extensions["games"].store
    events_after = store.events_after
    store.events_after = lambda *args: reads.append(len(found := events_after(*args))) or found  # counted

    def fetch_after(step, who) -> tuple:
        path = f"/api/games/{game.id}"
        etag = etag_of(client, path, bearer(who))  # the reader's page, and this worker's copy of the game
        reads.clear()
        step()
        answer = client.get(path, headers={**bearer(who), "If-None-Match": etag})
        return answer.status_code, tuple(reads)  # (each log read: how many events it folded)

    for who in (game.guesser("black", "white"), game.encryptor("black"), game.host, game.tokens["spectator"]):
        work = {name: [fetch_after(partial(step, n), who) for n in range(4)] for name, step in steps.items()}
        assert work["draft"] == work["note"] == work["nothing"] == [(304, ())] * 4, who
    teammate = game.encryptor("white")
    for n in range(2):  # across workers, a team's own step reaches its phones
        assert fetch_after(partial(steps["draft"], n), teammate)[0] == 200
        assert fetch_after(partial(steps["note"], n), teammate)[0] == 200
