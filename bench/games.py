"""Games made in-process, written straight into the store: tables ready to play, games in the middle of
a round, finished games; and the one planner the bots use to pick a legal next move.

Every event comes from `companion.rules.decide` through the tests' driver (tools/driver.py, as the service
would write it), so every stored log replays; only the HTTP round trips are skipped, which makes thousands of
games cheap to set up.
"""

from __future__ import annotations

import functools
import json
import random
import secrets
from dataclasses import dataclass, field
from datetime import datetime, UTC

from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from sqlalchemy import insert

from companion.games import GAME_ID_BYTES, capability_changes, new_token
from companion.keywords import load_pack
from companion.release import release
from companion.rules import ALL_CODES, HOST, OVER, PLAYING, TEAMS, Who, Game, other
from companion.rules.events import read
from companion.store import Capability, Store, capabilities, events, games
from tools.driver import Table

from .server import SECRET_KEY

NAMES = {"white": ("Ann", "Abe", "Ada", "Amy"), "black": ("Bea", "Bob", "Ben", "Bo")}
WORDS = list(load_pack("en"))


@dataclass
class Prepared:
    """A game as the bots and phones know it: its id, tokens, seats, and (in-process) its state."""

    game_id: str
    events: list[dict]
    caps: list[Capability]
    state: Game
    seats: dict[int, tuple[str, str]] = field(default_factory=dict)  # seat -> (team, seat token)
    cookies: dict[int, str] = field(default_factory=dict)  # seat -> the phone's session cookie

    def token(self, kind: str, team: str | None = None) -> str:
        return next(c.token for c in self.caps if c.kind == kind and (team is None or c.team == team))

    def etag(self, seat: int | str) -> str:
        """The weak ETag of a seat's page and view at this version (companion/web/pages/rendering.py, api.py), for a
        phone that has not chosen a language of its own; of the table screen's page for "table"."""
        if seat == "table":
            return f'W/"{release()}.v{self.state.version_seen_by(None)}-host--"'
        return f'W/"{release()}.v{self.state.version_seen_by(seat)}-seat-{self.seats[seat][0]}-{seat}"'

    def page(self, seat: int | str) -> str:
        """The page a seat's phone (or the table screen, "table") shows."""
        return f"/table/{self.game_id}" if seat == "table" else f"/play/{self.game_id}"


# --- the planner: a legal next move, from what the table screen shows ------------------------------


def wrong(code, rng: random.Random) -> list[int]:
    return list(rng.choice([c for c in ALL_CODES if c != tuple(code)]))


def plan(
    view: dict, codes: dict[str, list[int]], rng: random.Random, p_decrypt: float = 0.8, p_intercept: float = 0.25
) -> tuple[str | int, str, dict]:
    """(who, command, body) for the next move: who is "host" or a seat. `view` is the host's view;
    `codes` the codes of this round's transmissions (each on its Encryptor's phone)."""
    phase = view["phase"]
    members = {t: [p["seat"] for p in view["teams"][t]["players"]] for t in TEAMS}
    if phase == "lobby":
        return "host", "start", {}
    if phase == OVER:
        return "host", "rematch", {}
    if phase == "keyword_judging":
        return "host", "verdicts", {"verdicts": view["tiebreak"]["proposal"]}
    if phase == "keyword_guessing":
        team = next(t for t in TEAMS if not view["tiebreak"]["sealed"][t])
        return rng.choice(members[team]), "keyword-guesses", {"guesses": [f"guess{n}" for n in range(4)]}
    assert phase == PLAYING, phase
    r = view["rounds"][-1]
    for team in view["transmitting"]:
        t = r["transmissions"][team]
        if not t["announced"]:
            clues = [f"{team[0]}{view['match']}r{r['number']}{x}" for x in "abc"]
            return t["encryptor"], "clues", {"clues": clues}
    team = view["transmission"]
    t = r["transmissions"][team]
    code = codes[team]
    if not t["decryption"]["sealed"]:
        seat = rng.choice([s for s in members[team] if s != t["encryptor"]])
        return seat, "guess", {"code": list(code) if rng.random() < p_decrypt else wrong(code, rng), "confirm": True}
    seat = rng.choice(members[other(team)])
    return seat, "guess", {"code": list(code) if rng.random() < p_intercept else wrong(code, rng), "confirm": True}


# --- playing in-process: the tests' driver (tools/driver.py) ------------------------------------------


class Builder(Table):
    """Plays one game in-process with the tests' driver, as the service would, collecting its events and
    the capability tokens the service would grant."""

    def __init__(self, rng: random.Random, players: int = 8):
        self.game_id = secrets.token_urlsafe(GAME_ID_BYTES)
        self.caps: list[Capability] = [
            Capability(new_token(), self.game_id, "host"),
            Capability(new_token(), self.game_id, "spectator"),
            Capability(new_token(), self.game_id, "join", team="white"),
            Capability(new_token(), self.game_id, "join", team="black"),
        ]
        super().__init__(
            white=NAMES["white"][: players // 2],
            black=NAMES["black"][: players // 2],
            rng=rng,
            words=WORDS,
            start=False,
            clock=lambda: 0.0,
            language="en",
        )

    def do(self, command: dict, actor: Who) -> list[dict]:
        before = self.game
        events = super().do(command, actor)
        grants, revoked, _ = capability_changes(self.game_id, [read(e) for e in events], before, self.clock())
        assert not revoked
        self.caps += grants
        return events

    def sender(self, who) -> Who:
        return HOST if who == "host" else self.seat(who)

    def codes(self) -> dict[str, list[int]]:
        r = self.game.round
        return {team: list(t.code) for team, t in r.transmissions.items()} if r else {}

    def next_move(self) -> tuple[str | int, str, dict]:
        return plan(self.view(HOST), self.codes(), self.rng)

    def move(self, guess: list[int] | None = None) -> tuple[str | int, str, dict]:
        """The planner's next move (a guess of `guess`, if given), sent with the targets of its sender's
        view; returns (who, command, the body sent)."""
        who, name, body = self.next_move()
        if name == "guess" and guess:
            body = {"code": guess, "confirm": True}
        sender = self.sender(who)
        body = self.with_targets(sender, name, body)
        self.send(sender, name, body)
        return who, name, body

    def start(self) -> Builder:
        self.move()
        return self

    def play_until(self, done) -> Builder:
        while not done(self.game):
            self.move()
        return self

    def prepared(self) -> Prepared:
        seats = {c.seat: (c.team, c.token) for c in self.caps if c.kind == "seat"}
        return Prepared(self.game_id, self.events, self.caps, self.game, seats)


def started_game(rng: random.Random) -> Prepared:
    """Eight players seated, the game started: round 1, no clues yet."""
    return Builder(rng).start().prepared()


def mid_game(rng: random.Random, round_number: int = 4) -> Prepared:
    """A game played (in-process) into round `round_number` (or to its end if it ends sooner)."""
    return (
        Builder(rng)
        .start()
        .play_until(
            lambda g: g.phase != PLAYING or (g.round.number >= round_number and g.round.transmissions["white"].clues)
        )
        .prepared()
    )


def finished_game(rng: random.Random) -> Prepared:
    return Builder(rng).start().play_until(lambda g: g.phase == OVER).prepared()


def clone(template: Prepared) -> Prepared:
    """The same log under a new game id and new tokens (a finished game is only ever read)."""
    game_id = secrets.token_urlsafe(GAME_ID_BYTES)
    caps = [Capability(new_token(), game_id, c.kind, c.team, c.seat) for c in template.caps]
    seats = {c.seat: (c.team, c.token) for c in caps if c.kind == "seat"}
    return Prepared(game_id, template.events, caps, template.state, seats)


# --- the actions of scenario 4 -------------------------------------------------------------------------


def action_script(game: Prepared, rng: random.Random, rounds: int = 2) -> list[tuple[str, str, dict]]:
    """The moves of the game's first `rounds` rounds as (token, command, body), every one legal whatever
    codes the server draws: the guesses are fixed, and no game can end before the end of round 2."""
    builder = Builder.__new__(Builder)
    builder.rng, builder.game_id, builder.game, builder.clock = rng, game.game_id, game.state, lambda: 0.0
    builder.events, builder.caps, builder.words = list(game.events), list(game.caps), WORDS
    moves = []
    while builder.game.phase == PLAYING and builder.game.round.number <= rounds:
        who, name, body = builder.move(guess=[1, 2, 3])
        token = game.token("host") if who == "host" else game.seats[who][1]
        moves.append((token, name, body))
    return moves


# --- phones' cookies -------------------------------------------------------------------------------------


@functools.cache
def _signer():
    app = Flask("bench")
    app.secret_key = SECRET_KEY
    return SecureCookieSessionInterface().get_signing_serializer(app)


def session_cookie(game_id: str, token: str, table: bool = False) -> str:
    """The `decrypto` cookie a phone holds once seated (and once a page gave it a CSRF token); with `table`,
    the table screen's, which holds the host token."""
    value = _signer().dumps(
        {"tables" if table else "seats": {game_id: token}, "csrf_token": secrets.token_hex(20), "_permanent": True}
    )
    return f"decrypto={value}"


def with_cookies(game: Prepared) -> Prepared:
    """The game with its phones' cookies (by seat) and its table screen's (under "table")."""
    game.cookies = {seat: session_cookie(game.game_id, token) for seat, (_, token) in game.seats.items()}
    game.cookies["table"] = session_cookie(game.game_id, game.token("host"), table=True)
    return game


# --- writing them ---------------------------------------------------------------------------------------


def insert_games(store: Store, prepared: list[Prepared], batch: int = 500) -> None:
    """Write the games (their rows, tokens and whole event logs), `batch` games per transaction."""
    now = datetime.now(UTC)
    for start in range(0, len(prepared), batch):
        chunk = prepared[start : start + batch]
        with store.engine.begin() as conn:
            conn.execute(insert(games), [{"id": p.game_id, "created_at": now} for p in chunk])
            conn.execute(
                insert(capabilities),
                [
                    {"token": c.token, "game_id": c.game_id, "kind": c.kind, "team": c.team, "seat": c.seat}
                    for p in chunk
                    for c in p.caps
                ],
            )
            conn.execute(
                insert(events),
                [
                    {
                        "game_id": p.game_id,
                        "seq": seq,
                        "type": e["type"],
                        "data": json.dumps(e, ensure_ascii=False),
                        "created_at": now,
                    }
                    for p in chunk
                    for seq, e in enumerate(p.events, start=1)
                ],
            )
