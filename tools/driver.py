"""One way to drive a game, for the tests and the benchmark.

`Driver` knows the moves of a table (who encrypts, who guesses, a transmission, a round, quiet rounds) and
reads them from the views the players see. Every command it sends carries the targets of the view its
sender just read (`targets`: what the player saw, which the server compares with the game now). Two
transports carry the commands:

- `ApiGame`: the JSON API with bearer tokens, like a `curl` user, through a Flask test client or a real
  server's address (`UrlClient`);
- `Table`: in-process, straight through the rules (`decide`, `replay`), as the service would; its log holds
  the events as the store keeps them (their JSON).

A sender ("who") is whatever the transport addresses one by: a token for the API, a `Who` in-process.
"""

from __future__ import annotations

import http.client
import itertools
import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar
from urllib.parse import urlsplit

from companion.rules.command import Command
from companion.rules.commands import targets_for
from companion.rules import HOST, TEAMS, Who, Game, Kind, decide, other, replay
from companion.views import view_for
from companion.web.commands import from_json

WORDS = [f"KW{i:02d}X" for i in range(40)]  # no word is part of another

Addressee = TypeVar("Addressee")  # whom a transport addresses a player by: a token (the API), a `Who` (in-process)
Sent = TypeVar("Sent")  # what it answers a command with: an HTTP answer, the command's events


def wrong(code: Sequence[int]) -> list[int]:
    """Some valid code other than `code` (the first two digits swapped)."""
    return [code[1], code[0], code[2]]


def wrong2(code: Sequence[int]) -> list[int]:
    """Another valid code other than `code`, and other than `wrong(code)` (the digits reversed)."""
    return [code[2], code[1], code[0]]


# --- what the player saw -------------------------------------------------------------------------


def targets(command: str, view: Mapping[str, Any], body: dict[str, Any] | None = None) -> dict[str, object]:
    """The target fields of `command`, taken from the view its sender just read (as the pages' forms do)."""
    return targets_for(command, view, body)


# --- the moves ---------------------------------------------------------------------------------------


class Driver(Generic[Addressee, Sent]):
    """The moves of a table, the same through every transport. A transport sets `host` and provides
    `view(who)`, `send(who, command, body)` and `who(seat)`."""

    host: Addressee
    clue_numbers = itertools.count(1)  # clues never repeat, across games too

    def view(self, who: Addressee) -> Mapping[str, Any]:
        raise NotImplementedError

    def send(self, who: Addressee, command: str, body: dict[str, Any]) -> Sent:
        raise NotImplementedError

    def who(self, seat: int) -> Addressee:
        raise NotImplementedError

    def command(self, who: Addressee, command: str, **body: Any) -> Sent:
        """`command` from `who`, with the targets of the view `who` sees now."""
        return self.send(who, command, self.with_targets(who, command, body))

    def with_targets(self, who: Addressee, command: str, body: dict[str, Any]) -> dict[str, Any]:
        """`body` and the targets of the view `who` sees now (the fields of `body` win)."""
        return {**targets(command, self.view(who), body), **body}

    def outcomes(self, results: list[Sent]) -> list[Any]:
        """What a sequence of commands returns: their answers (in-process: their events, in one list)."""
        return results

    # --- who ---------------------------------------------------------------------------------
    def _transmissions(self) -> dict[str, Any]:
        transmissions: dict[str, Any] = self.view(self.host)["rounds"][-1]["transmissions"]
        return transmissions

    def encryptor(self, team: str) -> Addressee:
        return self.who(self._transmissions()[team]["encryptor"])

    def guesser(self, by: str, transmission: str) -> Addressee:
        """A player of team `by` who may guess `transmission`'s code (never its own Encryptor)."""
        view = self.view(self.host)
        encryptor = view["rounds"][-1]["transmissions"][transmission]["encryptor"]
        return self.who(next(p["seat"] for p in view["teams"][by]["players"] if p["seat"] != encryptor))

    def code(self, team: str) -> list[int]:
        """This round's code of `team`, as its Encryptor's phone shows it."""
        code: list[int] = self.view(self.encryptor(team))["you"]["code"]
        return code

    # --- what ------------------------------------------------------------------------------
    def fresh_clues(self) -> list[str]:
        """Three clues nobody gave yet, and no keyword of any language pack."""
        number = next(self.clue_numbers)
        return [f"zq{number}{letter}" for letter in "abc"]

    def announce(self, team: str, clues: Sequence[str] | None = None) -> Sent:
        return self.command(self.encryptor(team), "clues", clues=clues or self.fresh_clues())

    def guess(self, by: str, transmission: str, code: Iterable[int], confirm: bool = True) -> Sent:
        return self.command(self.guesser(by, transmission), "guess", code=list(code), confirm=confirm)

    def transmission(self, team: str, decrypted: bool = True, intercepted: bool = False) -> list[Any]:
        """Both guesses for `team`'s transmission (nobody intercepts in round 1); in a three-player game
        the other team is the Interceptor."""
        code = self.code(team)
        results: list[Sent] = []
        if self._transmissions()[team]["interception"] is not None:
            results.append(self.guess(other(team), team, code if intercepted else wrong(code)))
        results.append(self.guess(team, team, code if decrypted else wrong(code)))
        return self.outcomes(results)

    def round(
        self,
        white: tuple[bool, bool] = (True, False),
        black: tuple[bool, bool] = (True, False),
        clues: Mapping[str, Sequence[str]] | None = None,
        stop_before: str | None = None,
    ) -> dict[str, Any]:
        """A whole round: (decrypted, intercepted) for White's transmission, then Black's (a three-player
        game has White's only); `clues` (team -> three) are fresh unless given; `stop_before` leaves that
        team's transmission being read. Returns what was said and the codes."""
        transmitting: list[str] = self.view(self.host)["transmitting"]
        said = {team: list((clues or {}).get(team) or self.fresh_clues()) for team in transmitting}
        for team in transmitting:
            self.announce(team, said[team])
        codes = {team: self.code(team) for team in transmitting}
        for team, outcome in zip(TEAMS, (white, black), strict=True):
            if team == stop_before:
                break
            if team in transmitting:
                self.transmission(team, *outcome)
        return {"clues": said, "codes": codes}

    def three_player_round(self, decrypted: bool = True, intercepted: bool = False) -> list[Any]:
        """A round of the three-player game: the team's one transmission."""
        self.announce("white")
        return self.transmission("white", decrypted, intercepted)

    def quiet_rounds(self, count: int) -> None:
        for _ in range(count):
            self.round()


# --- in-process, through the rules ------------------------------------------------------------------


class Table(Driver[Who, list[dict[str, Any]]]):
    """A game played through the pure rules, the way the service would: `do` is the raw rules command,
    the moves go through the same command mapping as the API (`from_json`)."""

    host = HOST

    def __init__(
        self,
        white: Sequence[str] = ("Ann", "Abe"),
        black: Sequence[str] = ("Bea", "Bob"),
        seed: int = 7,
        words: Iterable[str] = WORDS,
        start: bool = True,
        custom_words: list[str] | None = None,
        rng: random.Random | None = None,
        clock: Callable[[], float] | None = None,
        **settings: Any,
    ) -> None:
        """A game with these players; `settings` go into the create command (mode, timer...).

        `words` is the language pack the service would pass; `custom_words` the host's own list; `rng` the
        service's dice (else seeded with `seed`); `clock` its clock, which starts the sand timer (else no
        announcement has a time)."""
        if custom_words is not None:
            settings["words"] = custom_words
        self.rng = rng or random.Random(seed)
        self.clock = clock
        self.game = Game()
        self.events: list[dict[str, Any]] = []
        self.words = list(words)
        self.do({"type": "create", **settings}, HOST)
        for team, names in (("white", white), ("black", black)):
            for name in names:
                self.do({"type": "join", "name": name}, Who(Kind.JOIN, team))
        if start:
            self.command(HOST, "start")

    def do(self, command: Command | dict[str, Any], actor: Who) -> list[dict[str, Any]]:
        """The rules' command `command` (declared, or in the rules' form): its events, as the store keeps them
        (their JSON), also in `events`."""
        events = decide(self.game, command, actor, self.rng)
        self.game = replay(events, self.game)
        stored = [event.to_json() for event in events]
        self.events += stored
        return stored

    # --- the transport -------------------------------------------------------------------------
    def view(self, who: Who) -> Mapping[str, Any]:
        return view_for(self.game, who)

    def send(self, who: Who, command: str, body: dict[str, Any]) -> list[dict[str, Any]]:
        declared = from_json(command, body)  # what the service adds, as it adds it
        pack = self.words if declared.draws_words else None
        at = self.clock() if declared.timed and self.clock else None
        return self.do(declared.given(pack=pack, at=at), who)

    def who(self, seat: int) -> Who:
        return self.seat(seat)

    def outcomes(self, results: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
        return [event for events in results for event in events]

    def seat(self, seat: int) -> Who:
        return Who(Kind.SEAT, self.game.seated(seat).team, seat)

    def code(self, team: str) -> list[int]:
        """This round's code of `team` (in-process, also once it is revealed)."""
        return list(self.game.latest_round.transmissions[team].code)


# --- through the JSON API ---------------------------------------------------------------------------


class Answer(Protocol):
    """An answer to a request: a Flask test client's, or a `UrlClient`'s."""

    @property
    def status_code(self) -> int: ...

    def get_json(self) -> Any: ...


class Client(Protocol):
    """A Flask test client, or a `UrlClient` on a real server."""

    def get(self, path: str, headers: Mapping[str, str] | None = None) -> Answer: ...

    def post(self, path: str, json: Any = None, headers: Mapping[str, str] | None = None) -> Answer: ...


class ApiGame(Driver[str, Answer]):
    """A game played through the JSON API with bearer tokens; `client` is a Flask test client or a
    `UrlClient` on a real server."""

    def __init__(
        self,
        client: Client,
        white: Sequence[str] = ("Ann", "Abe"),
        black: Sequence[str] = ("Bea", "Bob"),
        start: bool = True,
        settings: dict[str, Any] | None = None,
    ) -> None:
        """A game with these players; `settings` go into the create request (language, mode...)."""
        self.client = client
        answer = client.post("/api/games", json=settings)
        assert answer.status_code == 201, answer.get_json()
        created = answer.get_json()
        self.id: str = created["game_id"]
        self.tokens: dict[str, str] = created["tokens"]  # host, spectator, white, black (join)
        self.urls: dict[str, str] = created["urls"]
        self.host = self.tokens["host"]
        self.seats: dict[str, str] = {}  # player name -> seat token
        self.seat_tokens: dict[int, str] = {}  # seat -> seat token
        for team, names in (("white", white), ("black", black)):
            for name in names:
                self.join(team, name)
        if start:
            self.ok(self.command(self.host, "start"))

    def join(self, team: str, name: str) -> dict[str, Any]:
        joined: dict[str, Any] = self.ok(self.post("join", self.tokens[team], name=name)).get_json()
        self.seats[name] = self.seat_tokens[joined["seat"]] = joined["token"]
        return joined

    @staticmethod
    def ok(answer: Answer) -> Answer:
        assert answer.status_code == 200, answer.get_json()
        return answer

    # --- raw requests (no targets: what a test sends is what the server gets) --------------------
    def post(self, command: str, token: str | None = None, body: Any = None, **fields: Any) -> Answer:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.client.post(
            f"/api/games/{self.id}/{command}", json=body if body is not None else fields, headers=headers
        )

    def events(self) -> list[dict[str, Any]]:
        # (in-process only: a Flask test client's app)
        store = self.client.application.extensions["games"].store  # type: ignore[attr-defined]
        return [event for _, event, _ in store.events_after(self.id)]

    # --- the transport -------------------------------------------------------------------------
    def view(self, token: str) -> Mapping[str, Any]:
        answer = self.client.get(f"/api/games/{self.id}", headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.get_json()
        view: Mapping[str, Any] = answer.get_json()
        return view

    def send(self, token: str, command: str, body: dict[str, Any]) -> Answer:
        return self.ok(self.post(command, token, body))

    def who(self, seat: int) -> str:
        return self.seat_tokens[seat]

    def seat_of(self, name: str) -> int:
        return next(seat for seat, token in self.seat_tokens.items() if token == self.seats[name])

    def teammate(self, team: str) -> str:
        """A player of `team` other than this round's Encryptor of `team`."""
        return self.guesser(team, team)


class UrlClient:
    """The little of a Flask test client `ApiGame` uses, on a real server (one connection a request)."""

    def __init__(self, base_url: str, timeout: float = 10) -> None:
        parts = urlsplit(base_url)
        if parts.hostname is None:
            raise ValueError(f"no host in {base_url!r}")
        self.host, self.port, self.timeout = parts.hostname, parts.port, timeout

    def get(self, path: str, headers: Mapping[str, str] | None = None) -> UrlAnswer:
        return self.open("GET", path, None, headers)

    def post(self, path: str, json: Any = None, headers: Mapping[str, str] | None = None) -> UrlAnswer:
        return self.open("POST", path, json if json is not None else {}, headers)

    def open(self, method: str, path: str, body: Any = None, headers: Mapping[str, str] | None = None) -> UrlAnswer:
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            connection.request(method, path, body=data, headers=headers)
            answer = connection.getresponse()
            return UrlAnswer(answer.status, answer.read())
        finally:
            connection.close()


class UrlAnswer:
    def __init__(self, status_code: int, data: bytes) -> None:
        self.status_code, self.data = status_code, data

    def get_json(self) -> Any:
        return json.loads(self.data or b"null")
