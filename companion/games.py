"""The game service: load a game's state, run a command through the rules, save its events.

This is where the pure rules meet the store: optimistic concurrency with retry, capability tokens,
and a small per-process cache of folded states keyed by version (safe with many workers, since a
cached state is only ever used for the exact version it was folded to).
"""

from __future__ import annotations

import logging
import random
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple
from datetime import datetime, timedelta, UTC

from sqlalchemy.exc import DBAPIError

from .cache import Cache
from .keywords import load_pack
from .rules import HOST, LOBBY, TEAMS, Game, RuleError, Who, decide, replay
from .rules.access import TOMBSTONES, Kind
from .rules.command import Command
from .rules.commands import read as read_command
from .rules.lobby import Create
from .rules.event import Event
from .rules.events import GameCreated, RematchStarted, read
from .rules.host import (
    PHONE_IN_USE_SECONDS,
    SEEN_KEPT_SECONDS,
    SEEN_WRITE_SECONDS,
    take_seat_by_itself,
    waiting_until,
)
from .rules.targets import stale
from .seen import UnwrittenSeen
from .store import Capability, Conflict, Marks, NewEvent, Store, Withdrawn

TOKEN_BYTES = 24  # 192 bits: capabilities are unguessable
GAME_ID_BYTES = 9
GAME_ID_LENGTH = len(secrets.token_urlsafe(GAME_ID_BYTES))  # 12: shorter than any token
TOKEN_LENGTH = len(secrets.token_urlsafe(TOKEN_BYTES))  # 32: a longer "token" is looked up nowhere
# What `token_urlsafe` writes: anything else (a NUL byte from a URL's %00, which PostgreSQL refuses to compare
# with text) is no token and is looked up nowhere either.
TOKEN_SHAPE = re.compile(rf"[A-Za-z0-9_-]{{1,{TOKEN_LENGTH}}}")
log = logging.getLogger(__name__)

MAX_ATTEMPTS = 20
# A phone's "last seen" is written when it is older than SEEN_WRITE_SECONDS (rules/host.py), so a phone polling
# every 1.5 s writes once a minute, not on every poll (and is in use for PHONE_IN_USE_SECONDS after it stopped,
# give or take this).
# A whole game is about 150 events (a rematch starts over in the same game): a game spammed with commands
# within the rate limits stops growing here, and then expires like any idle game. The limit counts the events
# everyone sees: a team's private steps replace one another in the log (rules/audience.py), so they neither
# grow it nor bring a game to its end, and the table sees whoever spams it.
MAX_EVENTS_PER_GAME = 5000
# Join codes: read off the table screen and typed on a phone, so no two characters look alike
# (no 0/O/Q, 1/I/L, 2/Z, 5/S, 8/B, U/V). 22**5 = 5.2 million codes; guessing is rate-limited and a code
# only works while its game's lobby is open (see `join_by_code`).
JOIN_CODE_ALPHABET = "34679ACDEFGHJKMNPRTWXY"
JOIN_CODE_LENGTH = 5


def stored(events: list[Event]) -> list[NewEvent]:
    """Events as the store keeps them: as JSON, each with its audience."""
    return [NewEvent(e.to_json(), e.audience()) for e in events]


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_join_code(rng: random.Random) -> str:
    return "".join(rng.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


def normal_join_code(typed: str) -> str:
    """A join code as typed (any case, with spaces or dashes) as it is stored."""
    return "".join(ch for ch in typed.upper() if ch.isalnum())


@dataclass(frozen=True)
class Outcome:
    events: list[Event]
    version: int  # the version of the caller's view after the command
    seat: int | None = None  # the seat this command gave the caller (join, claiming a seat link)...
    seat_token: str | None = None  # ... and its token (a waiting one, while the claim waits)
    seat_link: str | None = None  # a new seat link the host asked for (its token)
    move_link: str | None = None  # a new link to move the table screen (its token)
    host_token: str | None = None  # the table screen's new key, for the device it moved to


@dataclass(frozen=True)
class Created:
    game_id: str
    seat_tokens: dict[int, str] = field(default_factory=dict)  # a try-out's seats, all for the one device


class Changes(NamedTuple):
    grants: list[Capability]
    revoked: list[tuple[Kind, int | None]]  # (kind, seat; None: the game's own token of that kind)
    promoted: list[tuple[Kind, Kind, int | None]]  # (kind, new kind, seat)


def capability_changes(game_id: str, events: list[Event], game: Game, now: float) -> Changes:
    """The tokens these events, decided on `game`, grant and withdraw (each event says which: `capabilities`,
    rules/events.py), with a new token for each grant; a phone just given one is in use `now`."""
    grants: list[Capability] = []
    revoked: list[tuple[Kind, int | None]] = []
    promoted: list[tuple[Kind, Kind, int | None]] = []
    for event in events:
        changes = event.capabilities(game)
        grants += [
            Capability(new_token(), game_id, g.kind, g.team, g.seat, now if g.in_use else None) for g in changes.grants
        ]
        revoked += changes.revoked
        promoted += changes.promoted
    return Changes(grants, revoked, promoted)


def _cause(error: DBAPIError) -> str:
    """What the database said, by name only (a statement's parameters hold tokens): "DeadlockDetected"."""
    return f"{type(error).__name__} ({type(error.orig).__name__})"


def _granted(caps: list[Capability], kind: Kind) -> str | None:
    """The token of the first of `caps` of `kind`, if any."""
    return next((c.token for c in caps if c.kind == kind), None)


class GameService:
    def __init__(
        self,
        store: Store,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
        expiry_hours: float = 72,
        code_rng: random.Random | None = None,
        max_events: int = MAX_EVENTS_PER_GAME,
    ) -> None:
        self.store = store
        self.max_events = max_events
        self.rng = rng or random.SystemRandom()
        self.code_rng = code_rng or random.SystemRandom()  # join codes (tests pass a seeded one)
        self.clock = clock  # seconds; the sand timer reads it (tests pass their own)
        self.cache: Cache[str, tuple[int, Game]] = Cache("a game's id: its version and its state then", 512)
        self.unwritten_seen = UnwrittenSeen()  # phones' marks written together (`saw`, `write_seen`)
        self.expiry = timedelta(hours=expiry_hours)
        # Called with a game's id once it changed here (the app wakes this process's streams: push.py).
        self.changed: Callable[[str], None] = lambda game_id: None

    def expire_idle_games(self) -> list[str]:
        """Delete games nobody has played for `expiry_hours` (finished or abandoned): their links stop working.
        Each server does it on its own, now and then (companion/housekeeping.py); one at a time."""
        now = datetime.fromtimestamp(self.clock(), UTC)
        deleted = self.store.delete_idle_games(now - self.expiry)
        self.cache.forget(deleted)
        return deleted

    def _keep(self, game_id: str, version: int, game: Game) -> Game:
        """Keeps `game` as the game's state at `version` unless a later one is kept. Returns the state kept at
        that version, this one or an equal one kept before, so that callers holding a state (the streams' looks
        at their games) hold the cache's: one copy of a game's state in a process, not one each."""
        kept = self.cache.update(game_id, lambda known: known if known and known[0] >= version else (version, game))
        return kept[1] if kept[0] == version else game

    def create(self, settings: Create | Mapping[str, object] | None = None) -> Created:
        """A new game from the create command (or its settings in the rules' form: language, mode, timer, words,
        try_out, players)."""
        command = settings if isinstance(settings, Create) else Create.read(settings or {})
        first = decide(Game(), command, HOST, self.rng)
        for _ in range(MAX_ATTEMPTS):  # again with a new id and codes if one was taken
            game_id = secrets.token_urlsafe(GAME_ID_BYTES)
            seats = capability_changes(game_id, first, Game(), self.clock()).grants
            caps = [Capability(new_token(), game_id, Kind.HOST)] + seats
            codes = {}
            created = first[0]
            assert isinstance(created, GameCreated)  # a game's first event
            if not created.try_out:  # a try-out can't take in anyone: no join links, no spectators
                joins = [Capability(new_token(), game_id, Kind.JOIN, team=team) for team in TEAMS]
                caps += [Capability(new_token(), game_id, Kind.SPECTATOR), *joins]
                codes = {new_join_code(self.code_rng): c.token for c in joins}
                if len(codes) < len(joins):
                    continue
            try:
                self.store.create_game(game_id, stored(first), caps, codes)
            except Conflict:
                continue
            return Created(game_id, {c.seat: c.token for c in seats if c.seat is not None})  # (a seat's token has one)
        raise RuleError("busy")

    def load(self, game_id: str, version: int | None = None) -> tuple[int, Game]:
        """The game's state at its latest version, folding only the events the cache hasn't seen."""
        cached = self.cache.get(game_id)
        if cached and version is not None and cached[0] == version:
            return cached
        start_seq, state = cached if cached else (0, None)
        rows = self.store.events_after(game_id, start_seq)
        if not rows:
            return start_seq, state or Game()
        state = replay([read(data) for _, data, _ in rows], state)
        version = rows[-1][0]
        return version, self._keep(game_id, version, state)

    def load_for(self, game_id: str, marks: Marks, seat: int | None = None) -> tuple[int, Game]:
        """The game as a reader stands to see it (`marks`, looked up with its token; `seat`: its seat, if
        any): the cached state if that holds every event the reader can see, else the latest. Another team's
        private steps since then change nothing of the reader's view, so they cost its look-up nothing either:
        what a fetch costs never tells one team of the other's drafts and notes (docs/security.md)."""
        cached = self.cache.get(game_id)
        if cached is not None and cached[0] >= marks.shared:  # (who is in which team: events everyone sees)
            player = cached[1].player(seat) if seat is not None else None
            if cached[0] >= marks.seen_by(player.team if player else None):
                return cached
        return self.load(game_id)

    def catch_up(self, game_id: str, version: int, game: Game) -> tuple[int, Game, list[tuple[int, Changes]]]:
        """`game`, the state at `version`, brought to the latest version in one query: that version, its state
        (cached, so a view at that version needs no other query), and what each event since did to the game's
        tokens (`capability_changes`), with its number. The open streams learn of a withdrawn token this way,
        once per change of the game, not once per stream (web/stream.py)."""
        rows = self.store.events_after(game_id, version)
        changes = []
        for seq, data, _ in rows:
            event = read(data)
            changes.append((seq, capability_changes(game_id, [event], game, now=0.0)))  # (its grants unused)
            game = replay([event], game)
        if rows:
            version = rows[-1][0]
            game = self._keep(game_id, version, game)
        return version, game, changes

    def load_match(self, game_id: str, match: int) -> Game | None:
        """The game as it stood when match number `match` ended (None if there is no such match)."""
        version, game = self.load(game_id)
        if match == game.match:
            return game
        events: list[Event] = []
        played = 1
        for _, data, _ in self.store.events_after(game_id):
            event = read(data)
            if isinstance(event, RematchStarted):
                if played == match:
                    return replay(events)
                played += 1
            events.append(event)
        return None

    def execute(
        self,
        game_id: str,
        actor: Who,
        command: Command | Mapping[str, object],
        token: str | None = None,
        expected_version: int | None = None,
    ) -> Outcome:
        """Run a command; retried on a conflict so a command still legal on the fresh state succeeds.

        `token`: the capability the command came with; it must still exist when the events are appended (in
        the same transaction), so a seat taken over by another phone can't act any more. `expected_version`:
        the version of the view the caller saw (If-Match); any other is refused as stale (the other team's
        drafts don't move it: rules/audience.py). A command that changes nothing writes nothing.

        The `version` read and appended after here is the log's own sequence number, for the store's
        optimistic concurrency and the cache only: what a caller is told is its view's version."""
        seat = actor.player_seat  # whose view the versions are of
        declared = command if isinstance(command, Command) else read_command(command)

        def decided(game: Game, now: float) -> list[Event]:
            if expected_version is not None and game.version_seen_by(seat) != expected_version:
                raise stale("version")
            return decide(game, self._given(declared, game_id, game, now), actor, self.rng)

        return self._append(game_id, decided, token, seat, actor.kind)

    def _append(
        self,
        game_id: str,
        decided: Callable[[Game, float], list[Event]],
        token: str | None,
        seat: int | None,
        sender: Kind,
    ) -> Outcome:
        """The events `decided(game, now)` gives on the latest state, appended with the tokens they grant and
        withdraw; decided again on the fresh state if another append came first. `token`: the capability acting
        (`sender`, its kind), which must still exist; `seat`: whose view the answer's version is of."""
        for _ in range(MAX_ATTEMPTS):
            version, game = self.load(game_id)
            now = self.clock()
            events = decided(game, now)
            if not events:  # (a RuleError propagates: nothing written)
                return Outcome([], game.version_seen_by(seat))
            after = replay(events, game)
            if after.version_seen_by(None) > self.max_events:
                raise RuleError("game_too_long", limit=self.max_events)
            caps, revoked, promoted = capability_changes(game_id, events, game, now)
            try:
                new_version = self.store.append(game_id, version, stored(events), caps, revoked, token, promoted)
            except Conflict:
                continue
            except Withdrawn:
                raise RuleError(
                    "seat_gone" if sender in (Kind.SEAT, Kind.HANDOFF, Kind.WAITING) else "no_capability"
                ) from None
            self._keep(game_id, new_version, after)
            self.changed(game_id)
            seated = next((c for c in caps if c.kind in (Kind.SEAT, Kind.WAITING)), None)  # the caller's new seat
            return Outcome(
                events,
                after.version_seen_by(seat),
                seated.seat if seated else None,
                seated.token if seated else None,
                _granted(caps, Kind.HANDOFF),
                _granted(caps, Kind.TABLE_MOVE),
                _granted(caps, Kind.HOST),
            )
        raise RuleError("busy")

    def _given(self, command: Command, game_id: str, game: Game, now: float) -> Command:
        """The command with what the service adds to it for the rules (never read from the request): the
        language's words, its clock, which seats' phones are in use."""
        return command.given(
            pack=load_pack(game.language) if command.draws_words else None,
            at=now if command.timed else None,  # the sand timer; the times the log shows
            in_use=sorted(self.phones_in_use(game_id, now)) if command.phones_in_use else None,
        )

    # --- phones in use: when each seat's phone last asked for its view, kept in the database (every worker and
    # server agrees), written at most once a SEEN_WRITE_SECONDS per token: not on every poll; and a routine
    # mark with the others of this process (seen.py), not in a transaction of its own

    def saw(self, capability: Capability) -> None:
        """The holder of `capability` asked for its view (a page, a poll, a stream, a command)."""
        now = self.clock()
        written = capability.seen_at
        if written is not None and now - written < SEEN_WRITE_SECONDS:
            return
        # A seat's phone used while a new phone waits for a seat of its team moves the time that phone takes
        # the seat by itself (`waiting_until`): every screen showing it is woken, as by an event.
        signal = capability.game_id if self._moves_a_wait(capability) else None
        # Its written mark still says "in use" to every worker while a new one waits for the others (seen.py).
        routine = written is not None and now - written < PHONE_IN_USE_SECONDS - SEEN_KEPT_SECONDS
        if routine and capability.kind == Kind.SEAT and signal is None:
            self.unwritten_seen.keep(capability.game_id, capability.token, capability.seat, now)
            if self.unwritten_seen.due(now, SEEN_KEPT_SECONDS):  # no housekeeping wrote them (not gunicorn)
                self.write_seen()
            return
        self.unwritten_seen.forget(capability.game_id, capability.token)
        try:
            self.store.seen(capability.token, now, signal)
        except DBAPIError as error:  # a page still shows when the database takes no writes (healthz says)
            log.warning("could not record that a phone is in use: %s", _cause(error))
            return
        if signal is not None:
            self.changed(signal)

    def write_seen(self) -> None:
        """Write the phones' marks kept since the last time (`saw`; the worker does it twice every SEEN_KEPT_SECONDS,
        and as it stops: gunicorn.conf.py)."""
        marks = self.unwritten_seen.take()
        try:
            self.store.seen_together([(mark.token, mark.at) for mark in marks])
        except DBAPIError as error:  # dropped: each phone's next asking is written again
            log.warning("could not record that %d phones are in use: %s", len(marks), _cause(error))

    def _seats_last_seen(self, game_id: str) -> dict[int, float]:
        """When each seat's phone last asked for its view: as written, or as kept here since."""
        seen = self.store.seats_last_seen(game_id)
        for seat, at in self.unwritten_seen.of_game(game_id).items():
            seen[seat] = max(at, seen.get(seat, at))
        return seen

    def _moves_a_wait(self, capability: Capability) -> bool:
        """Whether a new phone waits for a seat of this seat's team, as far as this process's cache knows (a
        game it has not loaded has no screen here to wake; other servers' screens are woken by `seen`'s signal
        on PostgreSQL, else by their next poll)."""
        cached = self.cache.get(capability.game_id)
        if capability.kind != Kind.SEAT or cached is None or not cached[1].waiting_phones:
            return False
        game = cached[1]
        player = game.player(capability.seat)
        return player is not None and any(game.seated(s).team == player.team for s in game.waiting_phones)

    def waiting_until(self, game_id: str, game: Game) -> dict[int, float]:
        """When each new phone waiting for a seat takes it by itself unless a phone of its team is used before
        then (rules/host.py `waiting_until`): seat -> seconds on this service's clock. No query without one."""
        if not game.waiting_phones:
            return {}
        seen = self._seats_last_seen(game_id)
        return {seat: waiting_until(game, seat, seen) for seat in sorted(game.waiting_phones)}

    def take_seat_by_itself(self, capability: Capability) -> bool:
        """A new phone waiting to be let in (`capability`, its token as it was looked up) asked for its view: once
        none of its team's phones has been in use for long enough, it takes the seat (rules/host.py
        `take_seat_by_itself`), in the same transaction as its token becomes the seat's. Any page, poll, stream
        or command of that phone asks, through the pages or the API alike, so a wait always ends: nothing has to
        come back at the right moment but the waiting phone itself. True when its wait is over (it took the
        seat, or another of its requests just did, or its team decided meanwhile): look its token up again."""
        seat = capability.seat
        if capability.kind != Kind.WAITING or seat is None:
            return False
        over = False

        def decided(game: Game, now: float) -> list[Event]:
            nonlocal over
            over = seat not in game.waiting_phones  # (and no query then)
            return [] if over else take_seat_by_itself(game, seat, self._seats_last_seen(capability.game_id), now)

        try:
            return bool(self._append(capability.game_id, decided, capability.token, None, Kind.WAITING).events) or over
        except RuleError:  # sent away meanwhile, or the game is at its limit: it asks as it stands
            return True

    def phones_in_use(self, game_id: str, now: float | None = None) -> set[int]:
        """The seats whose phone asked for its view in the last PHONE_IN_USE_SECONDS."""
        since = (self.clock() if now is None else now) - PHONE_IN_USE_SECONDS
        kept = {seat for seat, at in self.unwritten_seen.of_game(game_id).items() if at >= since}
        return self.store.seats_seen_since(game_id, since) | kept

    def check(self, game_id: str, actor: Who, command: Command) -> None:
        """Raise the RuleError `command` would meet now, writing nothing (a careful button's first tap)."""
        _, game = self.load(game_id)
        decide(game, self._given(command, game_id, game, self.clock()), actor, random.Random())

    def resolve(self, token: str | None) -> tuple[Capability, Marks] | None:
        """The capability `token` grants and where its game stands; None if it grants nothing (any more)."""
        found = self.lookup(token)
        return None if found is None or found[0].kind in TOMBSTONES else found

    def lookup(self, token: str | None) -> tuple[Capability, Marks] | None:
        """As `resolve`, but a token kept to say why it grants nothing (store.py TOMBSTONES) is found too: a
        host token the table screen moved away from (its holder is told where the table screen went), a waiting
        phone's whose seat got a newer link."""
        if not token or not TOKEN_SHAPE.fullmatch(token):
            return None
        return self.store.capability(token)

    def join_by_code(self, typed: str) -> Capability:
        """The join capability a typed join code stands for, while its game takes in players (again once
        joining reopens). Every other code, unknown or of a game started, over or with joining locked, gets
        the one refusal: a stranger guessing codes learns nothing of which ones exist."""
        code = normal_join_code(typed)
        found = self.store.join_code(code) if 0 < len(code) <= 20 else None
        game = self.load(found.game_id)[1] if found is not None else None
        if found is None or game is None or game.phase != LOBBY or game.joining_locked:
            raise RuleError("no_such_join_code")
        return found

    def join_codes(self, game_id: str) -> dict[str, str]:
        """The game's join codes by team (none for a try-out)."""
        codes = self.store.join_codes_of(game_id)
        return {team: codes[team] for team in TEAMS if team in codes}

    def seat_links(self, game_id: str) -> dict[int, str]:
        """Seat links the table screen issued and no phone has claimed yet: seat -> token."""
        return _seat_links(self.store.capabilities_of(game_id, Kind.HANDOFF))

    def table_links(self, game_id: str) -> TableLinks:
        """What the table screen shows of the game's tokens, in one query."""
        caps = self.store.capabilities_of(game_id)
        return TableLinks(_shared_tokens(caps), _seat_links(caps), _table_move_link(caps))

    def shared_tokens(self, game_id: str) -> dict[str, str]:
        """The game's shareable tokens: "host", "spectator", and each team's join token by team name."""
        return _shared_tokens(self.store.capabilities_of(game_id))


@dataclass(frozen=True)
class TableLinks:
    shared: dict[str, str]  # shared_tokens
    seat_links: dict[int, str]  # seat -> its new link's token
    move: str | None  # the pending move link's token


def _shared_tokens(caps: list[Capability]) -> dict[str, str]:
    return {c.team or c.kind: c.token for c in caps if c.kind in (Kind.HOST, Kind.SPECTATOR, Kind.JOIN)}


def _seat_links(caps: list[Capability]) -> dict[int, str]:
    return {c.seat: c.token for c in caps if c.kind == Kind.HANDOFF and c.seat is not None}  # (a seat link has one)


def _table_move_link(caps: list[Capability]) -> str | None:
    return next((c.token for c in caps if c.kind == Kind.TABLE_MOVE), None)
