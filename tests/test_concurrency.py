"""Both teams act at the same time in Decrypto: the event log's optimistic concurrency must cope."""

import pytest

from tools.driver import ApiGame, UrlClient

from .conftest import database_url
from .server import Server, at_once

pytestmark = [pytest.mark.system, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(database_url(tmp_path_factory.mktemp("db")), workers=3)
    server.start()
    yield server
    server.stop()


def new_game(server):
    """A started game on the real server (the driver's: White Ann, Abe; Black Bea, Bob; the first of each
    team encrypts first): its id, tokens and seat tokens by name."""
    game = ApiGame(UrlClient(server.url))
    return game.id, game.tokens, game.seats


def test_both_encryptors_announcing_at_the_same_instant_both_succeed(server):
    for _ in range(5):
        gid, tokens, seats = new_game(server)
        answers = at_once(
            [
                lambda gid=gid, seats=seats: server.request(
                    "POST", f"/api/games/{gid}/clues", {"clues": ["tide", "crater", "howl"]}, seats["Ann"]
                ),
                lambda gid=gid, seats=seats: server.request(
                    "POST", f"/api/games/{gid}/clues", {"clues": ["ripple", "fin", "spire"]}, seats["Bea"]
                ),
            ]
        )
        assert [status for status, _ in answers] == [200, 200], answers
        view = server.request("GET", f"/api/games/{gid}", token=tokens["spectator"])[1]
        assert view["transmission"] == "white"


def test_twenty_simultaneous_seals_of_one_guess_take_effect_once(server):
    gid, tokens, seats = new_game(server)
    server.request("POST", f"/api/games/{gid}/clues", {"clues": ["tide", "crater", "howl"]}, seats["Ann"])
    server.request("POST", f"/api/games/{gid}/clues", {"clues": ["ripple", "fin", "spire"]}, seats["Bea"])
    answers = at_once(
        [lambda: server.request("POST", f"/api/games/{gid}/guess", {"code": [1, 2, 3], "confirm": True}, seats["Abe"])]
        * 20
    )
    statuses = sorted(status for status, _ in answers)
    assert statuses.count(200) == 1 and set(statuses[1:]) == {409}, statuses
    # The first seal resolves White's transmission; the late ones find Black's open (and no
    # interception in round 1), so each is refused with a sentence and writes nothing.
    assert all(body["error"] for status, body in answers if status == 409)
    view = server.request("GET", f"/api/games/{gid}", token=tokens["spectator"])[1]
    white, black = view["rounds"][0]["transmissions"]["white"], view["rounds"][0]["transmissions"]["black"]
    assert white["resolved"] and white["decryption"]["code"] == [1, 2, 3]
    assert not black["resolved"] and not black["decryption"]["sealed"]


def test_twenty_simultaneous_clue_announcements_by_one_encryptor_take_effect_once(server):
    gid, tokens, seats = new_game(server)
    answers = at_once(
        [
            (
                lambda n=n: server.request(
                    "POST", f"/api/games/{gid}/clues", {"clues": [f"tide{n}", f"crater{n}", f"howl{n}"]}, seats["Ann"]
                )
            )
            for n in range(20)
        ]
    )
    statuses = sorted(status for status, _ in answers)
    assert statuses.count(200) == 1 and set(statuses[1:]) == {409}, statuses
    winner = next(n for n, (status, _) in enumerate(answers) if status == 200)
    view = server.request("GET", f"/api/games/{gid}", token=seats["Ann"])[1]
    assert view["rounds"][0]["transmissions"]["white"]["clues"] == [f"tide{winner}", f"crater{winner}", f"howl{winner}"]
    assert view["version"] == answers[winner][1]["version"]  # nothing else was written
