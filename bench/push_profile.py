"""Where one pushed change's CPU goes: `.venv/bin/python -m bench.push_profile [--rounds N] [--profile] [--cold]`.

In-process, on a SQLite file: an 8-player game's nine screens (eight phones, the table screen) each hold
their page's stream (`web/stream.py: ViewStream`, as the courier runs it). After each command of N rounds
played through the API, every stream works out its message (`news`: the look at the game, the viewer's
ETag, the screen model, its changed regions). Prints the CPU per stream message, the rendering of new pieces
by region, and with `--profile` cProfile's cumulative table; `--cold` empties the process's rendered pieces
before each command's messages, as a worker serving hundreds of tables does between a table's two moves. The
first round warms the templates and is not counted. (The benchmark's scenario 5 measures the same cost under load, as a ratio to a bare request.)
"""

from __future__ import annotations

import argparse
import cProfile
import collections
import pstats
import tempfile
import time
import uuid
from typing import Any

from companion import create_app
from companion.web import fragments
from companion.web.pages.phone import play_stream
from companion.web.pages.table import table_stream
from companion.web.stream import ViewStream
from tests.api import browser, table_path
from tools.driver import ApiGame


class PieceTimes:
    """While entered, the CPU each new piece's render takes, less the pieces rendered inside it."""

    def __init__(self, app: Any) -> None:
        self.app, self.render = app, fragments._render
        self.seconds: collections.Counter[str] = collections.Counter()
        self.renders: collections.Counter[str] = collections.Counter()
        self.inner: list[float] = []  # the time of the pieces rendered inside each one being rendered

    def __enter__(self) -> None:
        fragments._render = self.timed

    def __exit__(self, *exc: object) -> None:
        fragments._render = self.render

    def timed(self, speech: Any, piece: Any, args: tuple[Any, ...], key: bytes | None = None) -> Any:
        def made() -> Any:
            start, depth = time.thread_time(), len(self.inner)
            self.inner.append(0.0)
            html = self.app.extensions["pieces"].macro(speech, piece)(*args)
            took = time.thread_time() - start
            self.seconds[piece.name] += took - self.inner.pop()
            self.renders[piece.name] += 1
            if depth:
                self.inner[-1] += took
            return html

        return self.app.extensions["fragments"].made(key or fragments.key_of(piece, speech, args), made)

    def report(self, messages: int) -> None:
        total = sum(self.seconds.values())
        print(f"rendering new pieces: {1000 * total / messages:.3f} ms a message; by piece (its own time):")
        for name, seconds in self.seconds.most_common(8):
            print(f"  {name:20} {self.renders[name]:4} renders, {1000 * seconds / self.renders[name]:.3f} ms each")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="print cProfile's cumulative table")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="no rendered piece kept from one command to the next, as in a worker serving hundreds of tables",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{folder}/bench.db"
        measure(create_app({"SECRET_KEY": uuid.uuid4().hex, "RATE_LIMITS": "off", "DATABASE_URL": database}), args)


def measure(app: Any, args: argparse.Namespace) -> None:
    game = ApiGame(app.test_client(use_cookies=False), ("Ann", "Abe", "Amy", "Al"), ("Bea", "Bob", "Bo", "Bix"))

    def opened(client: Any, path: str, stream: Any) -> ViewStream:
        cookie = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
        with app.test_request_context(f"{path}/stream", headers={"Cookie": f"{cookie.key}={cookie.value}"}):
            return stream(game.id).view_stream

    streams = [
        opened(browser(app, game.id, token), f"/play/{game.id}", play_stream) for token in game.seat_tokens.values()
    ]
    table = browser(app)
    streams.append(opened(table, table_path(table, game.host), table_stream))
    pieces = PieceTimes(app)
    profile, spent, messages, counting = cProfile.Profile(), [0.0], [0], [False]
    table_spent = [0.0]  # the table screen's own (the last stream)
    sent = game.send

    def send(who: Any, command: str, body: dict[str, Any]) -> Any:
        answer = sent(who, command, body)
        if args.cold:  # other tables' moves have pushed this one's pieces out of the process's cache
            fragments = app.extensions["fragments"]
            fragments.forget(list(fragments))
        start = time.thread_time()
        if counting[0] and args.profile:
            profile.enable()
        for stream in streams:
            table_start = time.thread_time()
            stream.news()
        if counting[0]:
            profile.disable()
            now = time.thread_time()
            spent[0] += now - start
            table_spent[0] += now - table_start
            messages[0] += len(streams)
        return answer

    game.send = send
    with app.extensions["push"].listening(game.id):  # as a worker with streams does
        for stream in streams:
            stream.news()  # each stream's first message: its page's regions
        game.round()
        counting[0] = True
        with pieces:
            for _ in range(args.rounds):
                game.round()
    print(f"{messages[0]} stream messages, {1000 * spent[0] / messages[0]:.3f} ms of CPU each")
    moves = messages[0] // len(streams)
    phones = 1000 * (spent[0] - table_spent[0]) / (messages[0] - moves)
    print(f"  a phone's {phones:.3f} ms, the table screen's {1000 * table_spent[0] / moves:.3f} ms")
    pieces.report(messages[0])
    if args.profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()
