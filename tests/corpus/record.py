"""Record the corpus of stored games (tests/corpus/*.json) that `tests/test_corpus.py` replays in every run.

    .venv/bin/python -m tests.corpus.record            # the games whose file is missing

Each game is played by `tools/driver.py` through the JSON API of an app on a fresh SQLite file, with seeded dice
and a clock the script moves, so that a file says what the code of its day stored. A file holds the event rows
as the store keeps them (`seq`, `type`, `slot` and `data`; a team's drafts and notes already replaced by their
latest) and what they fold into: each viewer's view at the end and the summary of each earlier match.

A file in the repository is a record of the code that wrote it: never record it again. A change that stores
events differently records a new game beside the old ones (a new name below), and the old files keep proving
that games stored before it still replay. `record_legacy.py` recorded the games of older code.

An event type, or a version of one, that no game holds gets its example (tests/examples.py) recorded instead:
a line of `examples.jsonl`, the events of the example's game as the rules stored them, added by the same
command. So a new event needs no game written here.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from sqlalchemy import select

from companion import create_app
from companion.store import events
from companion.rules.access import SPECTATOR, Who
from companion.views import summary_for, view_for
from tools.driver import ApiGame, wrong, wrong2

from companion.rules.events import EVENTS

from ..api import browser, csrf_of, table_path
from ..examples import play
from . import CORPUS, EXAMPLES, difference, patched, stored_events

START = 1_800_000_000.0  # the clock at each game's start (seconds)
PHONE_IN_USE_SECONDS = 120  # rules.host.PHONE_IN_USE_SECONDS when these games were recorded


class Recording:
    """An app on a fresh database whose service throws seeded dice and reads a clock moved by `tick`."""

    def __init__(self, folder: str, seed: int):
        self.app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "corpus",
                "RATE_LIMITS": "off",
                "DATABASE_URL": f"sqlite:///{folder}/corpus.sqlite3",
            }
        )
        self.service = self.app.extensions["games"]
        self.service.rng = random.Random(seed)
        self.service.code_rng = random.Random(seed + 1)
        self.now = START
        self.service.clock = lambda: self.now
        self.client = self.app.test_client()

    def tick(self, seconds: float = 7) -> None:
        self.now += seconds

    def rows(self, game_id: str) -> list[dict]:
        query = (
            select(events.c.seq, events.c.type, events.c.slot, events.c.data)
            .where(events.c.game_id == game_id)
            .order_by(events.c.seq)
        )
        with self.service.store.engine.connect() as conn:
            return [
                {"seq": r.seq, "type": r.type, "slot": r.slot, "data": json.loads(r.data)} for r in conn.execute(query)
            ]

    def outcome(self, game_id: str) -> dict:
        """What the log folds into: every viewer's view now (the spectator's, and what differs from it for the
        table screen and each seat), and the summary of every match before this one."""
        _, game = self.service.load(game_id)
        viewers = {
            "host": Who("host"),
            "spectator": SPECTATOR,
            **{f"seat:{p.seat}": Who("seat", seat=p.seat) for p in game.players},
        }
        matches = {str(m): summary_for(self.service.load_match(game_id, m)) for m in range(1, game.match)}
        views = {name: view_for(game, v, now=self.now) for name, v in viewers.items()}
        public = views.pop("spectator")
        others = {name: difference(public, view) for name, view in views.items()}
        assert all(patched(public, others[name]) == view for name, view in views.items())
        return {"now": self.now, "spectator": public, "others": others, "summaries": matches}


def played(game: ApiGame, recording: Recording, who, command: str, **body) -> dict:
    """`command` from `who` with the targets of its view, after a few seconds."""
    recording.tick()
    return game.ok(game.command(who, command, **body)).get_json()


# --- the games ---------------------------------------------------------------------------------------------


def standard(recording: Recording) -> tuple[ApiGame, str]:
    """A standard game from its lobby to a win by Interceptions: joining locked and reopened, a player moved,
    one removed, one switching teams from the other team's join link, the sand timer; a keyword swap, an
    Encryptor skipped, clues and a sealed guess taken back, drafts and notes written over (one row each
    left), a win by two Interceptions."""
    app, r = recording.app, recording
    game = ApiGame(
        recording.client,
        white=("Ann", "Abe"),
        black=("Bea", "Bob"),
        start=False,
        settings={"language": "en", "timer": 45},
    )
    r.tick()
    cid = game.join("white", "Cid")
    played(game, r, game.host, "lock-joining", locked=True)
    played(game, r, game.host, "lock-joining", locked=False)
    played(game, r, game.host, "move-player", seat=cid["seat"])
    dee = game.join("black", "Dee")
    played(game, r, game.host, "remove-player", seat=dee["seat"])
    # Cid's phone opens White's join link: it leaves Black and joins White as a new seat.
    phone = browser(app, game.id, cid["token"])
    join = f"/join/{game.tokens['white']}"
    phone.post(join, data={"name": "Cid", "csrf_token": csrf_of(phone.get(join))})
    with phone.session_transaction() as session:
        token = session["seats"][game.id]
    del game.seat_tokens[cid["seat"]]
    game.seats["Cid"] = game.seat_tokens[recording.service.store.capability(token)[0].seat] = token
    played(game, r, game.host, "set-timer", timer=30)
    played(game, r, game.host, "start")
    # Round 1.
    played(game, r, game.encryptor("white"), "swap-keyword", number=2)
    played(game, r, game.host, "skip-encryptor", team="white")
    abe = game.guesser("white", "white")
    for text in ("ca", "car", "cart"):
        played(game, r, abe, "note", keyword=1, text=text)
    played(game, r, abe, "note", line=1, text="slow start")
    played(game, r, abe, "note", line=1, text="")
    game.announce("white")
    r.tick()
    game.announce("black")
    played(game, r, game.host, "take-back")  # Black's clues
    game.announce("black")
    code = game.code("white")
    for draft in (wrong(code), [code[2], code[0], code[1]], wrong(code)):
        played(game, r, abe, "guess", code=draft, confirm=False)
    r.tick()
    game.transmission("white")
    game.transmission("black")
    # Round 2: White's sealed decryption taken back and sealed again; Black intercepts White.
    r.tick(40)
    game.announce("white")
    game.announce("black")
    code, abe = game.code("white"), game.guesser("white", "white")
    played(game, r, abe, "guess", code=code, confirm=True)
    played(game, r, game.host, "take-back")  # the sealed guess
    played(game, r, abe, "guess", code=code, confirm=True)
    played(game, r, game.guesser("black", "white"), "guess", code=code, confirm=True)
    game.transmission("black")
    # Round 3: Black intercepts White again and wins.
    r.tick(40)
    game.round(white=(True, True))
    return game, "A standard game from the lobby to a win by Interceptions, with every lobby step and take-backs."


def corrections(recording: Recording) -> tuple[ApiGame, str]:
    """Corrections of the last reveal: rejected, withdrawn, accepted mid-round, and accepted after the round
    ended (the round reopened and judged again)."""
    r = recording
    game = ApiGame(recording.client, white=("Ann", "Abe", "Al"), black=("Bea", "Bob", "Bo"))
    r.tick()
    game.round()
    r.tick()
    game.round(stop_before="black")
    white = game.view(game.host)["rounds"][-1]["transmissions"]["white"]
    fixed = {"decryption": white["code"], "interception": wrong2(white["code"])}
    played(game, r, game.host, "correction", decryption=wrong(white["code"]), interception=white["code"])
    played(game, r, game.seats["Bea"], "answer-correction", accept=False)
    played(game, r, game.host, "correction", **fixed)
    played(game, r, game.host, "withdraw-correction")
    played(game, r, game.host, "correction", decryption=wrong(white["code"]), interception=white["code"])
    played(game, r, game.seats["Ann"], "answer-correction", accept=True)
    played(game, r, game.seats["Bea"], "answer-correction", accept=True)
    r.tick()
    game.transmission("black")
    black = game.view(game.host)["rounds"][1]["transmissions"]["black"]  # round 2, ended
    played(game, r, game.host, "correction", decryption=wrong(black["code"]), interception=black["code"])
    played(game, r, game.seats["Abe"], "answer-correction", accept=True)
    played(game, r, game.seats["Bob"], "answer-correction", accept=True)
    r.tick()
    game.round()
    return game, "Corrections: rejected, withdrawn, accepted mid-round, accepted after its round ended."


def tiebreak_and_rematch(recording: Recording) -> tuple[ApiGame, str]:
    """Both teams intercept twice (a collision), the tiebreak's keyword guesses and verdicts; then a rematch
    in the lobby (a newcomer, the teams shuffled, the sand timer set) and the second match's first round."""
    r = recording
    game = ApiGame(recording.client)
    r.tick()
    game.round()
    for _ in range(2):
        r.tick()
        game.round(white=(True, True), black=(True, True))
    for team, player in (("white", "Abe"), ("black", "Bob")):
        if team == "white":
            played(game, r, game.seats[player], "note", keyword=3, text="river")
        played(game, r, game.seats[player], "keyword-guesses", guesses=["sun", "", "river", "gold"])
    played(
        game,
        r,
        game.host,
        "verdicts",
        verdicts={"white": [True, False, True, False], "black": [False, False, True, False]},
    )
    played(game, r, game.host, "rematch")
    r.tick()
    game.join("black", "Bo")
    game.join("white", "Al")
    played(game, r, game.host, "shuffle-teams")
    played(game, r, game.host, "set-timer", timer=None)
    played(game, r, game.host, "start")
    r.tick()
    game.round()
    return game, "A collision, the tiebreak (keyword guesses, verdicts), a rematch with newcomers and a shuffle."


def three_player(recording: Recording) -> tuple[ApiGame, str]:
    """The three-player game: the Interceptor wins in round 3; a rematch whose shuffle draws a new
    Interceptor, and the team surviving five rounds."""
    r = recording
    game = ApiGame(recording.client, white=("Ann", "Abe"), black=("Bea",), settings={"mode": "three_player"})
    r.tick()
    game.three_player_round()
    for _ in range(2):
        r.tick()
        game.three_player_round(decrypted=True, intercepted=True)
    played(game, r, game.host, "rematch")
    played(game, r, game.host, "shuffle-teams")
    played(game, r, game.host, "start")
    for decrypted in (True, False, True, True, True):
        r.tick()
        game.three_player_round(decrypted=decrypted)
    return game, "Three players: the Interceptor wins; a rematch after a shuffle, the team survives five rounds."


def try_out(recording: Recording) -> tuple[ApiGame, str]:
    """A try-out: one device, every seat filled at creation; a draft, a note, a round and a half."""
    r = recording
    created = recording.service.create(
        {"try_out": True, "language": "fr", "players": {"white": ["Ann", "Abe"], "black": ["Bea", "Bob"]}}
    )
    game = ApiGame.__new__(ApiGame)  # a try-out is made by the page /try, not the API: its tokens here
    game.client, game.id = recording.client, created.game_id
    game.host = recording.service.shared_tokens(game.id)["host"]
    game.seat_tokens, game.seats = dict(created.seat_tokens), {}
    played(game, r, game.host, "start")
    played(game, r, game.guesser("black", "black"), "note", keyword=2, text="lune")
    r.tick()
    game.round()
    game.announce("white")
    game.announce("black")
    played(game, r, game.guesser("white", "white"), "guess", code=wrong(game.code("white")), confirm=False)
    return game, "A try-out in French: every seat on one device, a round and a half, a draft and a note."


def seats_and_table(recording: Recording) -> tuple[ApiGame, str]:
    """Seat links and the table screen's move: a link cancelled by the table, one turned away by a teammate, a
    claim that waits and is let in, a claim while the team's phones are away (loud) and its acknowledgement;
    the move link shown, hidden, shown again and used."""
    r = recording
    game = ApiGame(recording.client)
    r.tick()
    game.round()
    seat = {name: game.seat_of(name) for name in ("Ann", "Abe", "Bea", "Bob")}
    played(game, r, game.host, "seat-link", seat=seat["Ann"])
    played(game, r, game.host, "cancel-seat-link", seat=seat["Ann"])
    played(game, r, game.host, "seat-link", seat=seat["Ann"])
    played(game, r, game.seats["Abe"], "reject-seat-link", seat=seat["Ann"])
    link = played(game, r, game.host, "seat-link", seat=seat["Ann"])["seat_link"]["token"]
    for name in game.seats:
        game.view(game.seats[name])  # every phone in use
    waiting = played(game, r, link, "claim-seat")
    played(game, r, game.seats["Abe"], "let-in", seat=seat["Ann"])
    game.seats["Ann"] = game.seat_tokens[seat["Ann"]] = waiting["token"]
    link = played(game, r, game.host, "seat-link", seat=seat["Bea"])["seat_link"]["token"]
    r.tick(PHONE_IN_USE_SECONDS + 61)  # Black's phones go quiet, White's stay in use
    for name in ("Ann", "Abe"):
        game.view(game.seats[name])
    claimed = played(game, r, link, "claim-seat")
    game.seats["Bea"] = game.seat_tokens[seat["Bea"]] = claimed["token"]
    played(game, r, game.seats["Bob"], "acknowledge-claim", seat=seat["Bea"])
    table = browser(r.app)  # the table screen's own page moves it (not the API)
    address = table_path(table, game.host)
    for cancel in ("0", "1", "0"):
        r.tick()
        assert table.post(f"{address}/move", data={"cancel": cancel, "csrf_token": table.csrf}).status_code == 303
    move = f"/move/{recording.service.table_links(game.id).move}"
    r.tick()
    device = browser(r.app)
    assert device.post(move, data={"csrf_token": csrf_of(device.get(move))}).status_code == 303
    game.host = recording.service.shared_tokens(game.id)["host"]
    r.tick()
    game.round()
    return game, "Seat links (cancelled, turned away, let in, claimed while the team was away) and a table move."


def sand_timer_paused(recording: Recording) -> tuple[ApiGame, str]:
    """The sand timer paused by the table screen and resumed (round 1), then paused again and left paused at
    the end of the log (round 2): the views hold a paused timer and its time left."""
    r = recording
    game = ApiGame(recording.client, settings={"language": "en", "timer": 30})
    r.tick()
    game.announce("white")
    r.tick(12)
    played(game, r, game.host, "pause-timer")
    r.tick(90)
    played(game, r, game.host, "resume-timer")
    r.tick(5)
    game.announce("black")
    r.tick()
    game.transmission("white")
    game.transmission("black")
    r.tick()
    game.announce("black")
    r.tick(4)
    played(game, r, game.host, "pause-timer")
    r.tick(30)
    return game, "The sand timer paused and resumed in round 1, and paused again at the end of the log in round 2."


GAMES = {
    "standard": standard,
    "corrections": corrections,
    "tiebreak_and_rematch": tiebreak_and_rematch,
    "three_player": three_player,
    "try_out": try_out,
    "seats_and_table": seats_and_table,
    # Again once events were stored with their schema version (rules/event.py): every type at version 2.
    "standard_versioned": standard,
    "seats_and_table_versioned": seats_and_table,
    "tiebreak_and_rematch_versioned": tiebreak_and_rematch,
    # Once the table screen could pause the sand timer (`timer_paused`, `timer_resumed`).
    "sand_timer_paused": sand_timer_paused,
}


def code_version() -> str:
    return subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=CORPUS, check=False
    ).stdout.strip()


def write(name: str, about: str, recorded_with: str, rows: list[dict], outcome: dict) -> Path:
    """One corpus file: compact, one row a line, so that a diff shows which rows changed."""
    path = CORPUS / f"{name}.json"
    head = {"about": about, "recorded_with": recorded_with}
    lines = ["{" + json.dumps(head, ensure_ascii=False)[1:-1] + ',\n "rows": [']
    lines.append(",\n".join("  " + json.dumps(row, ensure_ascii=False) for row in rows))
    lines.append(' ],\n "expected": ' + json.dumps(outcome, ensure_ascii=False, sort_keys=True) + "\n}\n")
    path.write_text("\n".join(lines))
    json.loads(path.read_text())  # still JSON
    return path


def record(name: str, seed: int) -> Path:
    with tempfile.TemporaryDirectory() as folder:
        recording = Recording(folder, seed)
        game, about = GAMES[name](recording)
        return write(
            name,
            about,
            f"tests/corpus/record.py at {code_version()}",
            recording.rows(game.id),
            recording.outcome(game.id),
        )


def stored_shapes() -> set[tuple[str, int]]:
    """Each event type and version the corpus holds, in its games or its examples."""
    return {(data["type"], data.get("v", 1)) for data in stored_events()}


def record_examples() -> list[str]:
    """A line of `EXAMPLES` for each event type and version the corpus doesn't hold yet: its example's events."""
    recorded = stored_shapes()
    lines = [
        {"event": event.TYPE, "v": event.VERSION, "recorded_with": code_version(), "rows": play(event).events}
        for event in EVENTS
        if (event.TYPE, event.VERSION) not in recorded
    ]
    if lines:
        with EXAMPLES.open("a") as file:
            file.writelines(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    return [f"{line['event']} v{line['v']}" for line in lines]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="the games to record (default: those without a file)")
    options = parser.parse_args(argv)
    for seed, name in enumerate(GAMES, start=1):
        if name in (options.games or [n for n in GAMES if not (CORPUS / f"{n}.json").exists()]):
            path = record(name, seed)
            print(f"{path.relative_to(CORPUS.parent.parent)}: {path.stat().st_size} bytes", file=sys.stderr)
    if not options.games:
        for recorded in record_examples():
            print(f"{EXAMPLES.relative_to(CORPUS.parent.parent)}: {recorded}", file=sys.stderr)


if __name__ == "__main__":
    main()
