"""Record games as older code stored them (tests/corpus/legacy_*.json): events of shapes today's code no longer
writes, which the app must read forever.

    .venv/bin/python -m tests.corpus.record_legacy      # the games whose file is missing

Each game is played by that commit's own rules (`git archive` of its `companion/rules`, run in a child
process), through `decide` and `replay` as its service did; its service stored each event as `json.dumps` of the
dict, one row each, without slots. What the rows fold into (`expected`) is what *today's* code makes of them,
through the store and the service as `record.py` reads it: the file proves that this stays so.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

from . import stored_game
from .record import CORPUS, START, Recording, write

# The moves of a table, as a script the old code runs: `do`, the seats, clues never given before.
PLAYER = '''
import json, random
from companion.rules import HOST, Who, Game, decide, replay
rng, game, log, said = random.Random(SEED), Game(), [], [0]
WORDS = [f"kw{i:02d}x" for i in range(40)]

def do(command, actor=HOST):
    global game
    events = decide(game, command, actor, rng)
    game = replay(events, game)
    log.extend(events)
    return events

def seat(number):
    return Who("seat", game.player(number).team, number)

def encryptor(team):
    return seat(game.round.transmissions[team].encryptor)

def guesser(by, team):
    encrypting = game.round.transmissions[team].encryptor
    return seat(next(p.seat for p in game.players if p.team == by and p.seat != encrypting))

def announce(team, at=None):
    said[0] += 1
    do({"type": "announce_clues", "clues": [f"zq{said[0]}{c}" for c in "abc"], "at": at}, encryptor(team))

def wrong(code):
    return [code[1], code[0], code[2]]

def transmission(team, decrypted=True, intercepted=False, draft=False):
    code = list(game.round.transmissions[team].code)
    other = "black" if team == "white" else "white"
    if draft:
        do({"type": "guess", "code": wrong(code), "confirm": False}, guesser(team, team))
    if game.round.number > 1:
        do({"type": "guess", "code": code if intercepted else wrong(code), "confirm": True}, guesser(other, team))
    do({"type": "guess", "code": code if decrypted else wrong(code), "confirm": True}, guesser(team, team))

def play_round(white=(True, False), black=(True, False), at=None, draft=False):
    for team in ("white", "black"):
        announce(team, at)
    transmission("white", *white, draft=draft)
    transmission("black", *black, draft=draft)
'''

# Before the game's settings (mode, timer, custom words, try-out): `game_created` has its language only, the
# clues no time, a guess no author; drafts were stored one row each. A switch of team in the lobby, a
# collision and the tiebreak.
BEFORE_SETTINGS = '''
do({"type": "create", "language": "en"})
for team, names in (("white", ("Ann", "Abe")), ("black", ("Bea", "Bob", "Cid"))):
    for name in names:
        do({"type": "join", "name": name}, Who("join", team))
do({"type": "join", "name": "Cid"}, Who("join", "white", 5))
do({"type": "start", "words": WORDS})
play_round(draft=True)
play_round(white=(True, True), black=(True, True), draft=True)
play_round(white=(True, True), black=(True, True))
do({"type": "keyword_guesses", "guesses": ["sun", "", "river", "gold"]}, seat(1))
do({"type": "keyword_guesses", "guesses": ["moon", "kw03x", "", ""]}, seat(3))
do({"type": "judge_keywords", "verdicts": {"white": [True, False, False, False], "black": [False, True, False, False]}})
'''

# Before the rematch lobby and the team's authority over its seats: a rematch deals at once, its Encryptor
# rotation going on from the last round played (`rematch_started` with `keywords`); a seat link has no time, a
# claim takes the seat at once and quietly; a guess has no author, drafts are one row each. Corrections, an
# Encryptor skipped (which the next match's rotation follows), a keyword swap, a take-back.
BEFORE_REMATCH_LOBBY = '''
do({"type": "create", "language": "en", "mode": "standard", "timer": 30})
for team, names in (("white", ("Ann", "Abe", "Al")), ("black", ("Bea", "Bob"))):
    for name in names:
        do({"type": "join", "name": name}, Who("join", team))
do({"type": "lock_joining", "locked": True})
do({"type": "start", "words": WORDS})
do({"type": "swap_keyword", "number": 3, "words": WORDS}, seat(2))
do({"type": "skip_encryptor", "team": "white"})
play_round(at=START, draft=True)
do({"type": "issue_seat_link", "seat": 2})
do({"type": "cancel_seat_link", "seat": 2})
do({"type": "issue_seat_link", "seat": 4})
do({"type": "claim_seat"}, Who("handoff", seat=4))
announce("white", START + 60)
do({"type": "take_back"})
announce("white", START + 90)
announce("black", START + 100)
transmission("white", draft=True)
code = list(game.round.transmissions["black"].code)
do({"type": "guess", "code": code, "confirm": True}, guesser("white", "black"))
do({"type": "guess", "code": wrong(code), "confirm": True}, guesser("black", "black"))
do({"type": "propose_correction", "decryption": code, "interception": code})
do({"type": "answer_correction", "accept": True}, seat(1))
do({"type": "answer_correction", "accept": True}, seat(4))
play_round(white=(True, False), black=(True, True), at=START + 200)
do({"type": "rematch", "words": WORDS})
play_round(at=START + 400, draft=True)
'''

GAMES = {
    "legacy_before_settings": (
        "d054968",
        BEFORE_SETTINGS,
        "Before the game's settings (d054968): "
        "game_created with its language only, clues without a time, guesses without an "
        "author, every draft a row; a switch of team, a collision and the tiebreak.",
    ),
    "legacy_before_rematch_lobby": (
        "d8446d1",
        BEFORE_REMATCH_LOBBY,
        "Before the rematch lobby (d8446d1): a "
        "rematch that deals at once (rematch_started with keywords), seat links "
        "without a time, a quiet claim, guesses without an author, every draft a row; "
        "corrections, a skip, a swap, a take-back.",
    ),
}


def old_events(commit: str, moves: str, seed: int) -> list[dict]:
    """The events `moves` cause, played by the rules of `commit`."""
    archive = subprocess.run(
        ["git", "archive", commit, "companion/rules"], capture_output=True, check=True, cwd=CORPUS.parent.parent
    ).stdout
    with tempfile.TemporaryDirectory() as folder:
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
        (Path(folder) / "companion" / "__init__.py").write_text("")  # the rules alone, without Flask
        script = f"SEED = {seed}\nSTART = {START}\n{PLAYER}\n{moves}\nprint(json.dumps(log, ensure_ascii=False))\n"
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=folder, check=True)
    return json.loads(done.stdout)


def record(name: str, seed: int) -> Path:
    commit, moves, about = GAMES[name]
    rows = [
        {"seq": seq, "type": e["type"], "slot": None, "data": e}
        for seq, e in enumerate(old_events(commit, moves, seed), start=1)
    ]
    with tempfile.TemporaryDirectory() as folder:
        recording = Recording(folder, seed)
        game_id = stored_game(recording.service.store, rows)
        recording.now = START + 1000
        return write(
            name, about, f"tests/corpus/record_legacy.py: the rules of {commit}", rows, recording.outcome(game_id)
        )


def main() -> None:
    for seed, name in enumerate(GAMES, start=100):
        if not (CORPUS / f"{name}.json").exists():
            path = record(name, seed)
            print(f"{path.relative_to(CORPUS.parent.parent)}: {path.stat().st_size} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
