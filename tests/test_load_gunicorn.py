"""Many games at once under gunicorn, and a SIGKILL in the middle of a burst: nothing lost, nothing doubled.

Bots play whole games through the JSON API, with bearer tokens, against the real server (several
gunicorn worker processes on one database). Afterwards the database itself is read: every game's event
log must be gapless, replay to a finished game whose result the rules agree with, and hold exactly the
events the server acknowledged to the bots, at the versions it acknowledged them (each poster's view's
version: the events it could see, tests/oracle.py `versions_seen`).
"""

from __future__ import annotations

import http.client
import json
import random
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from companion.rules import ALL_CODES, OVER, TEAMS, other, replay
from companion.rules.round_end import SCORE, keyword_result, round_end, score_winner
from companion.rules.state import Tokens, token_awards
from companion.store import Store, make_engine
from companion.rules.access import SPECTATOR, Who

from .conftest import database_url
from .oracle import versions_seen
from .server import ROOT, Server

pytestmark = [pytest.mark.system, pytest.mark.slow]

WORKERS = 3  # gunicorn worker processes
THREADS = 4  # threads per worker, as in production (companion/serve.py)
REQUEST_TIMEOUT = 60  # seconds; a lost answer would spoil the count of acknowledged events
NAMES = {"white": ("Ann", "Abe"), "black": ("Bea", "Bob")}


# --- the server and the HTTP client -----------------------------------------------------------


class LoadServer(Server):
    """tests/server.py's server, with threads per worker (as `companion.serve` runs it) and its log in a
    file, so that a chatty worker can never block on a full pipe; the log is kept across restarts."""

    def __init__(self, database_url: str, log: Path, workers: int = WORKERS, threads: int = THREADS):
        super().__init__(database_url, workers)
        self.threads, self.log = threads, log

    def start(self, timeout: float = 30) -> None:
        gunicorn = Path(sys.executable).parent / "gunicorn"
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [
                    str(gunicorn),
                    "--bind",
                    f"127.0.0.1:{self.port}",
                    "--workers",
                    str(self.workers),
                    "--threads",
                    str(self.threads),
                    "--chdir",
                    str(ROOT),
                    "app:app",
                ],
                env=self.env,
                start_new_session=True,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:  # wait until it answers, not a fixed time
            try:
                if request(self.port, "GET", "/healthz")[0] == 200:
                    return
            except Unreachable:
                pass
            if self.process.poll() is not None:
                raise RuntimeError(self.log.read_text())
            time.sleep(0.05)
        raise TimeoutError("the server did not answer /healthz")

    def errors(self) -> list[str]:
        """Lines of the server's log telling of a failure (a traceback, a worker timeout...)."""
        return [
            line
            for line in self.log.read_text(errors="replace").splitlines()
            if "Traceback" in line or "ERROR" in line or "CRITICAL" in line
        ]


class Unreachable(Exception):
    """No answer: the connection was refused or cut (the server was killed)."""


class Refused(AssertionError):
    """A command the bot expected to succeed was refused: (game, command, body, status, answer)."""

    @property
    def status(self) -> int:
        return self.args[0][3]


def request(port: int, method: str, path: str, body=None, token: str | None = None):
    """One request on its own connection (http.client: no proxy settings get in the way)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    try:
        connection.request(method, path, body=data, headers=headers)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    except (OSError, http.client.HTTPException) as error:
        raise Unreachable(f"{method} {path}: {error!r}") from error
    finally:
        connection.close()


def store_for(url: str) -> Store:
    """The app's database, opened directly (the same URL forms as `create_app` accepts)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            url = "postgresql+psycopg://" + url[len(prefix) :]
    return Store(make_engine(url))


def concurrently(calls) -> None:
    """Run the calls in threads released together; re-raise the first exception any of them raised."""
    if len(calls) < 2:
        for call in calls:
            call()
        return
    barrier, errors = threading.Barrier(len(calls)), []

    def run(call):
        barrier.wait()
        try:
            call()
        except BaseException as error:  # noqa: BLE001 - handed to the calling thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


# --- a bot that plays one game through the API ------------------------------------------------


class Bot:
    """Plays one game from creation to the end, as four phones and a table screen would.

    What it does is planned from (game number, round, team) only, so a bot that lost track (its server
    was killed) picks the game up again from the host's view and plays on exactly as planned. Styles:
      clean            no mistakes: 8 rounds, then the round-limit tiebreak with tied scores (0-0);
      collision        both teams misread their Encryptor in rounds 1 and 2: a collision, -2 to -2;
      collision_score  the same, but White also intercepts in round 2: White wins the collision on score;
      random           misreadings and interceptions drawn with this game's own probabilities.
    """

    def __init__(self, port: int, number: int, style: str):
        self.port, self.number, self.style = port, number, style
        chances = random.Random(f"chances/{number}")
        self.p_miss = chances.choice((0.15, 0.3, 0.5))
        self.p_intercept = chances.choice((0.1, 0.3, 0.5))
        self.acks: list[dict] = []  # every 2xx answer: command, body, poster's team and seat, version, events
        self.keywords: dict[str, list[str]] = {}
        self.finished = False

    # --- requests ---------------------------------------------------------------------------
    def request(self, method: str, path: str, body=None, token: str | None = None):
        """(status, the JSON answer); Unreachable when no answer came (tests/test_cluster.py's bot, behind
        HAProxy, also counts HAProxy's own answers as none)."""
        return request(self.port, method, path, body, token)

    def get(self, token: str) -> dict:
        status, view = self.request("GET", f"/api/games/{self.game_id}", token=token)
        assert status == 200, (self.game_id, status, view)
        return view

    def post(self, command: str, token: str, body=None, team: str | None = None) -> dict:
        """A command that must succeed; its acknowledgement is recorded."""
        status, answer = self.request("POST", f"/api/games/{self.game_id}/{command}", body or {}, token)
        if not 200 <= status < 300:
            raise Refused((self.game_id, command, body, status, answer))
        seat = next((seat for seat, t in self.seats.items() if t == token), None)
        self.acks.append(
            {
                "command": command,
                "body": body,
                "team": team,
                "seat": seat,
                "version": answer["version"],
                "events": answer["events"],
            }
        )
        return answer

    # --- the lobby --------------------------------------------------------------------------
    def set_up(self) -> None:
        status, created = self.request("POST", "/api/games", {})
        assert status == 201, (status, created)
        self.game_id, self.tokens = created["game_id"], created["tokens"]
        self.seats: dict[int, str] = {}  # seat -> seat token
        self.team_of: dict[int, str] = {}
        order = [("white", 0), ("black", 0), ("white", 1), ("black", 1)]
        if self.number % 2:  # another join order: White's pair first
            order.sort()
        for team, i in order:
            answer = self.post("join", self.tokens[team], {"name": NAMES[team][i]}, team)
            self.seats[answer["seat"]] = answer["token"]
            self.team_of[answer["seat"]] = team
        self.post("start", self.tokens["host"])

    def members(self, team: str) -> list[int]:
        return [seat for seat, t in self.team_of.items() if t == team]

    # --- the game ---------------------------------------------------------------------------
    def play(self) -> dict:
        """Play on from wherever the game is until it is over; returns the host's final view."""
        while True:
            view = self.get(self.tokens["host"])
            if view["phase"] == OVER:
                self.finished = True
                return view
            if view["phase"] == "playing":
                self.play_round(view)
            elif view["phase"] == "keyword_guessing":
                self.guess_keywords(view)
            elif view["phase"] == "keyword_judging":
                self.judge(view)
            else:
                raise AssertionError(f"{self.game_id}: unexpected phase {view['phase']}")

    def plan(self, r: int, team: str) -> dict:
        """What happens to `team`'s transmission in round `r`."""
        rng = random.Random(f"plan/{self.number}/{r}/{team}")
        if self.style == "clean":
            miss, intercept = False, False
        elif self.style == "collision":
            miss, intercept = r <= 2, False
        elif self.style == "collision_score":
            miss, intercept = r <= 2, r == 2 and team == "black"
        else:
            miss, intercept = rng.random() < self.p_miss, rng.random() < self.p_intercept
        return {
            "miss": miss,
            "intercept": intercept and r > 1,
            "rng": rng,
            "draft": rng.random() < 0.2,  # a draft first, that the team then replaces
            "together": rng.random() < 0.5,  # decryption and interception sealed at once
            "interceptor": rng.choice(self.members(other(team))),
        }

    @staticmethod
    def wrong(code, rng) -> list[int]:
        return list(rng.choice([c for c in ALL_CODES if c != tuple(code)] + [(1, 1, 1), (4, 4, 2)]))

    def play_round(self, view: dict) -> None:
        r = view["round"]
        transmissions = view["rounds"][-1]["transmissions"]
        encryptor = {team: transmissions[team]["encryptor"] for team in TEAMS}
        codes = {}
        for team in TEAMS:
            if not transmissions[team]["resolved"]:
                mine = self.get(self.seats[encryptor[team]])  # the code is on the Encryptor's phone only
                assert mine["you"]["encryptor"] and mine["round"] == r, (self.game_id, mine["you"])
                codes[team] = mine["you"]["code"]
                self.keywords[team] = mine["teams"][team]["keywords"]
        # Both Encryptors announce at the same moment, as at a real table.
        concurrently(
            [
                lambda team=team: self.post(
                    "clues", self.seats[encryptor[team]], {"clues": [f"{team[0]}{r}{x}" for x in "abc"]}, team
                )
                for team in TEAMS
                if not transmissions[team]["announced"]
            ]
        )
        for team in TEAMS:  # White's transmission is guessed first, then Black's
            t = transmissions[team]
            if t["resolved"]:
                continue
            plan, code = self.plan(r, team), codes[team]
            rng = plan["rng"]
            decrypter = next(s for s in self.members(team) if s != encryptor[team])
            decryption = self.wrong(code, rng) if plan["miss"] else code
            interception = code if plan["intercept"] else self.wrong(code, rng)
            seals = []
            if not t["decryption"]["sealed"]:
                if plan["draft"]:
                    self.post("guess", self.seats[decrypter], {"code": self.wrong(code, rng), "confirm": False}, team)
                seals.append(
                    lambda decrypter=decrypter, decryption=decryption, team=team: self.post(
                        "guess", self.seats[decrypter], {"code": decryption, "confirm": True}, team
                    )
                )
            if t["interception"] is not None and not t["interception"]["sealed"]:
                seals.append(
                    lambda plan=plan, interception=interception, team=team: self.post(
                        "guess", self.seats[plan["interceptor"]], {"code": interception, "confirm": True}, other(team)
                    )
                )
            if plan["together"]:
                concurrently(seals)
            else:
                for seal in rng.sample(seals, len(seals)):
                    seal()

    def guess_keywords(self, view: dict) -> None:
        for team in TEAMS:
            if view["tiebreak"]["sealed"][team]:
                continue
            rng = random.Random(f"keywords/{self.number}/{team}")
            theirs = (
                self.keywords.get(other(team))
                or self.get(self.seats[self.members(other(team))[0]])["teams"][other(team)]["keywords"]
            )
            guesses = [
                word.lower() if rng.random() < 0.5 else rng.choice(("", f"guess{n}")) for n, word in enumerate(theirs)
            ]
            self.post("keyword-guesses", self.seats[rng.choice(self.members(team))], {"guesses": guesses}, team)

    def judge(self, view: dict) -> None:
        verdicts = view["tiebreak"]["proposal"]
        rng = random.Random(f"verdicts/{self.number}")
        if rng.random() < 0.3:  # the table overrules the app on one guess
            team, n = rng.choice(TEAMS), rng.randrange(4)
            verdicts[team][n] = not verdicts[team][n]
        self.post("verdicts", self.tokens["host"], {"verdicts": verdicts})


def style_of(number: int) -> str:
    """Of 100 games: 5 clean (the longest), 10 collisions, 10 collisions won on score, 75 random."""
    if number % 20 == 0:
        return "clean"
    return {1: "collision", 2: "collision_score"}.get(number % 10, "random")


# --- what the database must hold --------------------------------------------------------------


def log_of(store: Store, game_id: str) -> list[dict]:
    rows = store.events_after(game_id)
    seqs = [seq for seq, _, _ in rows]
    # No gap: a bot drafts at most once per transmission, so no draft replaced another (store.py).
    assert seqs == list(range(1, len(rows) + 1)), f"{game_id}: gaps or duplicates in the log: {seqs}"
    events = [event for _, event, _ in rows]
    assert events[0]["type"] == "game_created"
    return events


def check_acknowledged(game_id: str, events: list[dict], acks: list[dict], every: bool) -> None:
    """Each acknowledged command's events are in the log, at the acknowledged versions, with what was sent.
    With `every`, the acknowledged events are the whole log but for its creation: none lost, none doubled."""
    covered, posters = [], {}
    for ack in acks:
        # The poster's version came with the command's last event (one its poster sees): the first event after
        # which the poster's view had that version.
        poster = Who("seat", seat=ack["seat"]) if ack["seat"] is not None else SPECTATOR
        if poster.seat not in posters:
            posters[poster.seat] = versions_seen(events, poster)
        last = posters[poster.seat].index(ack["version"]) + 1 if ack["version"] in posters[poster.seat] else 0
        if not ack["events"]:  # it changed nothing (a bot re-sending its draft after a restart)
            assert last and ack["command"] == "guess" and not ack["body"]["confirm"], (game_id, ack)
            continue
        first = last - len(ack["events"]) + 1
        logged = events[first - 1 : last]
        assert first >= 2 and [e["type"] for e in logged] == ack["events"], (game_id, ack, logged)
        head, body = logged[0], ack["body"]
        if ack["command"] == "join":
            assert (head["name"], head["team"]) == (body["name"], ack["team"]), (game_id, ack, head)
        elif ack["command"] == "clues":
            assert (head["clues"], head["team"]) == (body["clues"], ack["team"]), (game_id, ack, head)
        elif ack["command"] == "guess":
            assert (head["code"], head["sealed"], head["by"]) == (body["code"], body["confirm"], ack["team"]), (
                game_id,
                ack,
                head,
            )
        elif ack["command"] == "keyword-guesses":
            assert (head["guesses"], head["team"]) == (body["guesses"], ack["team"]), (game_id, ack, head)
        elif ack["command"] == "verdicts":
            assert head["verdicts"] == body["verdicts"], (game_id, ack, head)
        covered += range(first, last + 1)
    assert len(covered) == len(set(covered)), f"{game_id}: two answers acknowledged the same event"
    if every:
        assert sorted(covered) == list(range(2, len(events) + 1)), (
            f"{game_id}: {len(events)} events in the log, {len(covered) + 1} acknowledged"
        )


def check_result(game_id: str, events: list[dict]):
    """Replay the log: a finished game, whose tokens, end and winners the rules work out the same way."""
    game = replay(events)
    assert game.phase == OVER and game.result is not None, (game_id, game.phase)
    tokens = {team: Tokens() for team in TEAMS}
    outcome = None
    for i, r in enumerate(game.rounds):
        assert r.number == i + 1 and r.finished, (game_id, r)
        for team, t in r.transmissions.items():
            assert t.clues is not None and t.decryption.sealed, (game_id, r.number, t)
            assert t.miscommunicated == (t.decryption.code != t.code), (game_id, r.number, t)
            if r.interception_allowed:
                assert t.interception.sealed and t.intercepted == (t.interception.code == t.code), (game_id, t)
            else:
                assert not t.intercepted and t.interception.code is None, (game_id, t)
            for owner, kind in token_awards(game, team, t.intercepted, t.miscommunicated):
                setattr(tokens[owner], kind, getattr(tokens[owner], kind) + 1)
        outcome = round_end(tokens, r.number)
        assert outcome is None or r is game.rounds[-1], f"{game_id}: the game should have ended in round {r.number}"
    assert outcome is not None, f"{game_id}: over, but nothing ended it"
    assert tokens == game.tokens, (game_id, tokens, game.tokens)
    result = game.result
    if outcome[0] == "win":
        winner, reason = outcome[1]
        assert game.tiebreak is None and (result.winners, result.reason, result.cause) == ((winner,), reason, None), (
            game_id,
            outcome,
            result,
        )
    else:
        cause, leader = outcome[1], score_winner(tokens)
        if leader is not None:
            assert game.tiebreak is None and (result.winners, result.reason, result.cause) == (
                (leader,),
                SCORE,
                cause,
            ), (game_id, outcome, result)
        else:
            assert game.tiebreak is not None and game.tiebreak.cause == cause, (game_id, game.tiebreak)
            assert all(game.tiebreak.keyword_guesses.values()) and game.tiebreak.verdicts, (game_id, game.tiebreak)
            winners, reason = keyword_result(game.tiebreak.verdicts)
            assert (result.winners, result.reason, result.cause) == (winners, reason, cause), (game_id, result)
    return game


def check_style(bot: Bot, game) -> None:
    """The games whose end is known in advance ended as the rulebook says."""
    result = game.result
    if bot.style == "clean":
        assert len(game.rounds) == 8 and game.tiebreak and game.tiebreak.cause == "round_limit", (bot.game_id, result)
    elif bot.style == "collision":
        assert len(game.rounds) == 2 and game.tiebreak and game.tiebreak.cause == "collision", (bot.game_id, result)
    elif bot.style == "collision_score":
        assert len(game.rounds) == 2 and game.tiebreak is None, (bot.game_id, result)
        assert (result.winners, result.reason, result.cause) == (("white",), SCORE, "collision"), (bot.game_id, result)


# --- the tests --------------------------------------------------------------------------------


@pytest.fixture
def server(tmp_path):
    server = LoadServer(database_url(tmp_path), tmp_path / "gunicorn.log")
    server.start()
    yield server
    server.stop()


def test_a_hundred_games_played_at_once_are_logged_exactly(server):
    bots = [Bot(server.port, number, style_of(number)) for number in range(100)]

    def run(bot):
        bot.set_up()
        return bot.play()

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=24) as pool:
        finals = list(pool.map(run, bots))
    played = time.monotonic() - started
    assert all(view["phase"] == OVER for view in finals)

    store = store_for(server.env["DATABASE_URL"])
    rounds, tiebreaks, reasons = [], 0, set()
    for bot in bots:
        events = log_of(store, bot.game_id)
        check_acknowledged(bot.game_id, events, bot.acks, every=True)
        assert len(events) == 1 + sum(len(ack["events"]) for ack in bot.acks)
        game = check_result(bot.game_id, events)
        check_style(bot, game)
        rounds.append(len(game.rounds))
        tiebreaks += game.tiebreak is not None
        reasons.add(game.result.reason)
    store.engine.dispose()
    # The games really were different: they ended in different rounds, in different ways.
    assert len(set(rounds)) >= 4 and tiebreaks >= 15 and len(reasons) >= 4, (sorted(rounds), tiebreaks, reasons)
    assert server.errors() == []
    print(
        f"\n100 games, {sum(len(b.acks) for b in bots)} commands acknowledged in {played:.1f} s; "
        f"rounds {sorted(set(rounds))}, {tiebreaks} keyword tiebreaks, reasons {sorted(reasons)}"
    )


def test_acknowledged_actions_survive_a_sigkill_in_the_middle_of_a_burst(server):
    bots = [Bot(server.port, number, style_of(number) if number < 3 else "random") for number in range(12)]
    with ThreadPoolExecutor(max_workers=len(bots)) as pool:
        list(pool.map(Bot.set_up, bots))
    store = store_for(server.env["DATABASE_URL"])
    report = []
    for _ in range(2):  # twice: a recovered database must survive the next crash too
        before = sum(len(b.acks) for b in bots)
        playing = [b for b in bots if not b.finished]
        cut = {}  # game id -> what stopped its bot when the server died

        def burst(bot, cut=cut):
            try:
                bot.play()
            except (Unreachable, AssertionError) as error:  # a refusal would be a bug of its own: kept
                cut[bot.game_id] = error

        threads = [threading.Thread(target=burst, args=(bot,)) for bot in playing]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 30
        while sum(len(b.acks) for b in bots) - before < 80 and time.monotonic() < deadline:
            time.sleep(0.002)
        server.kill()  # SIGKILL to the master and every worker, mid-burst
        for t in threads:
            t.join()
        assert not [e for e in cut.values() if not isinstance(e, Unreachable)], cut
        assert len(cut) >= max(2, len(playing) // 3), f"the kill came after the burst: {len(cut)} games were cut"
        report.append(f"{sum(len(b.acks) for b in bots) - before} acknowledged, {len(cut)} of {len(playing)} cut")

        server.start()  # on the same database
        for bot in bots:  # every acknowledged action is there, where it was acknowledged
            events = log_of(store, bot.game_id)
            check_acknowledged(bot.game_id, events, bot.acks, every=False)
            # The spectator's view counts the events everyone sees in the log, acknowledged or not.
            assert bot.get(bot.tokens["spectator"])["version"] == versions_seen(events, SPECTATOR)[-1]

    # The games carry on: the next legal actions succeed, and every game is played to its end.
    with ThreadPoolExecutor(max_workers=len(bots)) as pool:
        assert all(view["phase"] == OVER for view in pool.map(Bot.play, bots))
    for bot in bots:
        events = log_of(store, bot.game_id)
        check_acknowledged(bot.game_id, events, bot.acks, every=False)
        check_style(bot, check_result(bot.game_id, events))
        # Whatever the log holds beyond the acknowledged events was in flight when the server died.
        unacknowledged = len(events) - 1 - sum(len(ack["events"]) for ack in bot.acks)
        assert 0 <= unacknowledged <= 12, (bot.game_id, unacknowledged)
    store.engine.dispose()
    assert server.errors() == []
    print("\nkills in mid-burst: " + "; ".join(report))
