"""Nothing is lost: a game survives the server being killed in the middle of a round."""

import pytest

from .conftest import database_url
from .server import Server

pytestmark = [pytest.mark.system, pytest.mark.slow]


@pytest.fixture
def server(tmp_path):
    server = Server(database_url(tmp_path))
    server.start()
    yield server
    server.stop()


def test_a_game_survives_a_server_kill_in_the_middle_of_a_round(server):
    status, game = server.request("POST", "/api/games", {})
    assert status == 201
    gid, tokens = game["game_id"], game["tokens"]
    seats = {}
    for team, names in (("white", ("Ann", "Abe")), ("black", ("Bea", "Bob"))):
        for name in names:
            status, joined = server.request("POST", f"/api/games/{gid}/join", {"name": name}, tokens[team])
            assert status == 200
            seats[name] = joined["token"]
    assert server.request("POST", f"/api/games/{gid}/start", {}, tokens["host"])[0] == 200
    # Round 1: Ann and Bea are the Encryptors (first to join).
    code = server.request("GET", f"/api/games/{gid}", token=seats["Ann"])[1]["you"]["code"]
    for name, clues in (("Ann", ["tide", "crater", "howl"]), ("Bea", ["ripple", "fin", "spire"])):
        assert server.request("POST", f"/api/games/{gid}/clues", {"clues": clues}, seats[name])[0] == 200
    status, answer = server.request("POST", f"/api/games/{gid}/guess", {"code": code, "confirm": False}, seats["Abe"])
    assert status == 200
    before_kill = answer["version"]

    server.kill()
    with pytest.raises(OSError):
        server.request("GET", "/healthz")
    server.start()

    # Every acknowledged action is there, and the phones carry on where they were.
    view = server.request("GET", f"/api/games/{gid}", token=seats["Abe"])[1]
    assert view["version"] == before_kill
    white = view["rounds"][0]["transmissions"]["white"]
    assert white["clues"] == ["tide", "crater", "howl"] and white["decryption"]["code"] == code
    assert server.request("GET", f"/api/games/{gid}", token=seats["Ann"])[1]["you"]["code"] == code
    status, _ = server.request("POST", f"/api/games/{gid}/guess", {"code": code, "confirm": True}, seats["Abe"])
    assert status == 200
    black_code = server.request("GET", f"/api/games/{gid}", token=seats["Bea"])[1]["you"]["code"]
    assert (
        server.request("POST", f"/api/games/{gid}/guess", {"code": black_code, "confirm": True}, seats["Bob"])[0] == 200
    )
    view = server.request("GET", f"/api/games/{gid}", token=tokens["spectator"])[1]
    assert view["round"] == 2 and view["teams"]["white"]["tokens"]["miscommunications"] == 0
