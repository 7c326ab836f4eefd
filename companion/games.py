"""The game service: load a game's state, run a command through the rules, save its events.

This is where the pure rules meet the store: optimistic concurrency with retry, capability tokens,
and a small per-process cache of folded states keyed by version (safe with many workers, since a
cached state is only ever used for the exact version it was folded to).
"""

from __future__ import annotations

import random
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass

from .keywords import load_pack
from .rules import HOST, Actor, Game, RuleError, decide, replay
from .store import Capability, Conflict, Store

TOKEN_BYTES = 24          # 192 bits: capabilities are unguessable
GAME_ID_BYTES = 9
MAX_ATTEMPTS = 20


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass(frozen=True)
class Outcome:
    events: list[dict]
    version: int
    seat_token: str | None = None


class StateCache:
    def __init__(self, size: int = 512):
        self._size = size
        self._items: OrderedDict[str, tuple[int, Game]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> tuple[int, Game] | None:
        with self._lock:
            item = self._items.get(game_id)
            if item:
                self._items.move_to_end(game_id)
            return item

    def put(self, game_id: str, version: int, game: Game) -> None:
        with self._lock:
            known = self._items.get(game_id)
            if known is None or known[0] < version:
                self._items[game_id] = (version, game)
                self._items.move_to_end(game_id)
                while len(self._items) > self._size:
                    self._items.popitem(last=False)


class GameService:
    def __init__(self, store: Store, rng: random.Random | None = None):
        self.store = store
        self.rng = rng or random.SystemRandom()
        self.cache = StateCache()

    def create(self, language: str = "en") -> str:
        game = Game()
        first = decide(game, {"type": "create", "language": language}, HOST, self.rng)
        game_id = secrets.token_urlsafe(GAME_ID_BYTES)
        caps = [Capability(new_token(), game_id, "host"),
                Capability(new_token(), game_id, "spectator"),
                Capability(new_token(), game_id, "join", team="white"),
                Capability(new_token(), game_id, "join", team="black")]
        self.store.create_game(game_id, first, caps)
        return game_id

    def load(self, game_id: str, version: int | None = None) -> tuple[int, Game]:
        """The game's state at its latest version, folding only the events the cache hasn't seen."""
        cached = self.cache.get(game_id)
        if cached and version is not None and cached[0] == version:
            return cached
        start_seq, state = cached if cached else (0, None)
        rows = self.store.events_after(game_id, start_seq)
        if not rows:
            return start_seq, state or Game()
        state = replay([e for _, e, _ in rows], state)
        version = rows[-1][0]
        self.cache.put(game_id, version, state)
        return version, state

    def execute(self, game_id: str, actor: Actor, command: dict) -> Outcome:
        """Run a command; retried on a conflict so a command still legal on the fresh state succeeds."""
        for _ in range(MAX_ATTEMPTS):
            version, game = self.load(game_id)
            if command.get("type") == "start":     # the deal draws from the game's word pack
                command = {**command, "words": list(load_pack(game.language))}
            events = decide(game, command, actor, self.rng)   # RuleError propagates: nothing written
            caps, seat_token = [], None
            joined = [e for e in events if e["type"] == "player_joined"]
            if joined:
                seat_token = new_token()
                caps.append(Capability(seat_token, game_id, "seat", joined[0]["team"], joined[0]["seat"]))
            left = [e["seat"] for e in events if e["type"] == "player_left"]
            try:
                new_version = self.store.append(game_id, version, events, caps, left)
            except Conflict:
                continue
            self.cache.put(game_id, new_version, replay(events, game))
            return Outcome(events, new_version, seat_token)
        raise RuleError("busy")

    def resolve(self, token: str | None) -> tuple[Capability, int] | None:
        if not token or len(token) > 100:
            return None
        return self.store.capability(token)

    def shared_tokens(self, game_id: str) -> dict[str, str]:
        """The game's shareable tokens: "host", "spectator", and each team's join token by team name."""
        return {c.team or c.kind: c.token for c in self.store.capabilities_of(game_id)
                if c.kind in ("host", "spectator", "join")}
