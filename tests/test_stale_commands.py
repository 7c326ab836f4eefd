"""Every tap does what its player saw: a command names its target, and one sent from a screen that was
behind the game (or sent twice) is refused with 409 `stale` and a sentence, changing nothing.

Each race of issue 11 is driven twice: deterministically (the old target sent after the state moved on)
and, further down, with real concurrency against a live server."""

from __future__ import annotations

import threading

import uuid
from functools import partial

import pytest
import requests

from companion import create_app
from companion.rules import Who
from tools.driver import ApiGame, wrong

from .api import expected
from .server import at_once
from .conftest import LiveServer, database_url


def stale(game, answer, change, **params):
    """A 409 `stale` refusal whose sentence says what changed."""
    body = answer.get_json()
    assert answer.status_code == 409, body
    assert body["code"] == "stale"
    assert body["error"] == expected(game.client.application, "stale", change=change, **params)
    return body["error"]


def unchanged(game, act):
    before = game.events()
    answer = act()
    assert game.events() == before, "a refused command wrote events"
    return answer


def target(game, token) -> dict:
    """What this player's screen shows now: the target a page would send with a guess."""
    view = game.view(token)
    return {"match": view["match"], "round": view["round"], "transmission": view["transmission"]}


def round_two(client):
    """Round 1 played (both decrypt), round 2 with both clues announced."""
    game = ApiGame(client, white=("Ann", "Abe", "Amy"), black=("Bea", "Bob"))
    for round_ in (1, 2):
        game.announce("white")
        game.announce("black")
        if round_ == 2:
            return game
        for team in ("white", "black"):
            game.guess(team, team, game.code(team))


# --- a guess lands only on the transmission it was made for ------------------------------------


def test_a_guess_from_a_screen_one_step_behind_does_not_become_an_interception(client):
    game = round_two(client)
    code = game.code("white")
    black_intercepts = game.encryptor("black")
    game.post("guess", black_intercepts, code=wrong(code), confirm=True, **target(game, black_intercepts))
    encryptor = game.encryptor("white")
    ann, abe, amy = (game.seats[n] for n in ("Ann", "Abe", "Amy"))
    first, second = [t for t in (ann, abe, amy) if t != encryptor]
    seen = target(game, second)  # the teammate's phone still shows White's form
    assert seen["transmission"] == "white"
    assert game.post("guess", first, code=code, confirm=True, **target(game, first)).status_code == 200
    assert game.view(game.tokens["host"])["transmission"] == "black"
    sealer = next(n for n in ("Ann", "Abe", "Amy") if game.seats[n] == first)
    answer = unchanged(game, lambda: game.post("guess", second, code=code, confirm=True, **seen))
    sentence = stale(game, answer, "guess_sealed_by", team="white", name=sealer)
    assert sealer in sentence
    black = game.view(game.tokens["host"])["rounds"][1]["transmissions"]["black"]
    assert black["interception"] == {"code": None, "sealed": False, "started": False}


def test_a_repeated_seal_is_refused_and_changes_nothing(client):
    game = round_two(client)
    guesser = game.teammate("white")
    body = {"code": game.code("white"), "confirm": True, **target(game, guesser)}
    assert game.post("guess", guesser, body).status_code == 200  # Black hasn't sealed: still open
    answer = unchanged(game, lambda: game.post("guess", guesser, body))
    name = next(n for n, t in game.seats.items() if t == guesser)
    stale(game, answer, "guess_sealed_by", team="white", name=name)


def test_a_guess_for_another_round_or_match_is_stale(client):
    game = round_two(client)
    guesser = game.teammate("white")
    seen = target(game, guesser)
    answer = unchanged(game, lambda: game.post("guess", guesser, code=[1, 2, 3], **{**seen, "round": 1}))
    stale(game, answer, "round_moved", now=2)
    answer = unchanged(game, lambda: game.post("guess", guesser, code=[1, 2, 3], **{**seen, "match": 2}))
    stale(game, answer, "match_over")
    # A value of another type never matches (True is not 1; "2" is not 2).
    stale(game, game.post("guess", guesser, code=[1, 2, 3], **{**seen, "round": "2"}), "round_moved", now=2)


def test_a_guess_without_a_target_still_acts_on_what_is_current(client):
    """The target is optional in the API (pages always send it): an old client keeps working."""
    game = round_two(client)
    assert game.post("guess", game.teammate("white"), code=[1, 2, 3]).status_code == 200


# --- the table screen's buttons ------------------------------------------------------------------


def test_take_back_removes_only_the_entry_the_table_screen_offered(client):
    game = ApiGame(client)
    host = game.tokens["host"]
    game.announce("white")
    offered = game.view(host)["host"]["take_back"]
    assert offered == {"entry": "clues", "round": 1, "transmission": "white"}
    game.announce("black")  # Black announces before the tap arrives
    answer = unchanged(game, lambda: game.post("take-back", host, offered))
    stale(game, answer, "entry_changed")
    assert all(t["announced"] for t in game.view(host)["rounds"][0]["transmissions"].values())
    now = game.view(host)["host"]["take_back"]
    assert game.post("take-back", host, now).status_code == 200
    assert game.events()[-1] == {"type": "entry_taken_back", "v": 2, **now}
    stale(game, unchanged(game, lambda: game.post("take-back", host, now)), "entry_changed")  # the repeat


def test_a_correction_names_the_reveal_it_changes(client):
    game = ApiGame(client)
    host = game.tokens["host"]
    game.announce("white")
    game.announce("black")
    game.guess("white", "white", game.code("white"))
    seen = game.view(host)["host"]["correctable"]
    assert seen == {"round": 1, "team": "white"}
    game.guess("black", "black", game.code("black"))  # the next reveal comes first
    body = {
        "decryption": wrong(game.view(host)["rounds"][0]["transmissions"]["white"]["code"]),
        "round": seen["round"],
        "transmission": seen["team"],
    }
    stale(game, unchanged(game, lambda: game.post("correction", host, body)), "reveal_changed")


def test_an_answer_names_the_correction_it_answers(client):
    game = ApiGame(client)
    host = game.tokens["host"]
    game.announce("white")
    game.announce("black")
    game.guess("white", "white", game.code("white"))
    game.guess("black", "black", game.code("black"))
    code = game.view(host)["rounds"][0]["transmissions"]["black"]["code"]
    assert game.post("correction", host, decryption=wrong(code)).status_code == 200
    first = game.view(host)["correction"]["id"]
    assert game.post("withdraw-correction", host, correction=first).status_code == 200
    stale(game, unchanged(game, lambda: game.post("withdraw-correction", host, correction=first)), "correction_changed")
    assert game.post("correction", host, decryption=wrong(code)).status_code == 200
    second = game.view(host)["correction"]["id"]
    assert second == first + 1
    white = game.seats["Ann"]
    stale(
        game,
        unchanged(game, lambda: game.post("answer-correction", white, accept=True, correction=first)),
        "correction_changed",
    )
    assert game.post("answer-correction", white, accept=True, correction=second).status_code == 200
    stale(
        game,
        unchanged(game, lambda: game.post("answer-correction", white, accept=True, correction=second)),
        "correction_accepted",
    )


def test_a_repeated_skip_does_not_skip_the_next_encryptor_too(client):
    game = ApiGame(client, white=("Ann", "Abe", "Amy"), black=("Bea", "Bob", "Ben"))
    host = game.tokens["host"]
    encryptor = game.view(host)["rounds"][0]["transmissions"]["white"]["encryptor"]
    body = {"team": "white", "round": 1, "encryptor": encryptor}
    assert game.post("skip-encryptor", host, body).status_code == 200
    stale(game, unchanged(game, lambda: game.post("skip-encryptor", host, body)), "encryptor_changed")


def test_repeated_team_moves_do_not_move_back(client):
    game = ApiGame(client, start=False)
    host = game.tokens["host"]
    bob = game.view(game.seats["Bob"])["viewer"]["seat"]
    assert game.post("move-player", host, seat=bob, team="black").status_code == 200
    stale(
        game,
        unchanged(game, lambda: game.post("move-player", host, seat=bob, team="black")),
        "player_moved",
        name="Bob",
    )
    ann = game.seats["Ann"]
    assert game.post("switch-team", ann, team="white").status_code == 200
    stale(game, unchanged(game, lambda: game.post("switch-team", ann, team="white")), "you_switched")


def test_a_seat_link_names_the_seat_holder(client):
    game = ApiGame(client)
    bob = game.view(game.seats["Bob"])["viewer"]["seat"]
    stale(
        game,
        unchanged(game, lambda: game.post("seat-link", game.tokens["host"], seat=bob, name="Bea")),
        "seat_holder_changed",
        seat=bob,
    )
    assert game.post("seat-link", game.tokens["host"], seat=bob, name="Bob").status_code == 200


def test_repeated_clues_swap_and_keyword_guesses_are_stale(client):
    game = ApiGame(client)
    encryptor = game.encryptor("white")
    assert game.post("swap-keyword", encryptor, number=1, match=1, round=1).status_code == 200
    stale(
        game,
        unchanged(game, lambda: game.post("swap-keyword", encryptor, number=2, match=1, round=1)),
        "keyword_swapped",
    )
    said = game.fresh_clues()
    assert game.post("clues", encryptor, clues=said, match=1, round=1).status_code == 200
    stale(game, unchanged(game, lambda: game.post("clues", encryptor, clues=said, match=1, round=1)), "clues_announced")


def test_if_match_names_the_version_the_client_saw(client):
    game = ApiGame(client)
    host = game.tokens["host"]
    version = game.view(host)["version"]
    game.announce("white")
    headers = {"Authorization": f"Bearer {host}", "If-Match": f'W/"v{version}-host--"'}
    answer = unchanged(game, lambda: client.post(f"/api/games/{game.id}/take-back", json={}, headers=headers))
    stale(game, answer, "version")
    now = game.view(host)["version"]
    answer = client.post(f"/api/games/{game.id}/take-back", json={}, headers={**headers, "If-Match": str(now)})
    assert answer.status_code == 200, answer.get_json()
    answer = client.post(f"/api/games/{game.id}/take-back", json={}, headers={**headers, "If-Match": "soon"})
    assert answer.status_code == 400 and answer.get_json()["code"] == "if_match_malformed"


# --- a withdrawn capability can't act after the event that withdrew it ----------------------------


def test_a_request_already_in_flight_when_its_seat_is_claimed_is_refused(app, client):
    """The old phone's request was authorised (its token resolved) before the new phone claimed the seat,
    and reaches the append after: the token is checked again inside the append's transaction."""
    game = round_two(client)
    service = app.extensions["games"]
    old_token = game.teammate("white")
    capability, _ = service.resolve(old_token)
    in_flight = Who(capability.kind, team=capability.team, seat=capability.seat)
    link = game.post("seat-link", game.tokens["host"], seat=capability.seat).get_json()["seat_link"]["token"]
    assert game.post("claim-seat", link).status_code == 200
    assert game.post("let-in", game.encryptor("white"), seat=capability.seat).status_code == 200  # taken now
    before = game.events()
    try:
        service.execute(game.id, in_flight, {"type": "guess", "code": [1, 2, 3]}, old_token)
    except Exception as refused:
        assert getattr(refused, "code", None) == "seat_gone"
    else:
        raise AssertionError("the withdrawn token acted")
    assert game.events() == before


# --- the same races with real concurrency (threads against a live server) --------------------------


@pytest.fixture
def live_server(tmp_path):
    """A threaded live server whose limits don't count this test's own bursts from one address."""
    app = create_app(
        {"SECRET_KEY": "race-" + uuid.uuid4().hex, "DATABASE_URL": database_url(tmp_path), "RATE_LIMITS": "off"}
    )
    with LiveServer(app) as server:
        yield server


def _post(server, game_id, command, token, body):
    return requests.post(
        f"{server.url}/api/games/{game_id}/{command}",
        json=body,
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )


@pytest.mark.system
def test_teammates_sealing_at_once_file_one_decryption_and_no_interception(live_server):
    app = live_server.server.app
    for attempt in range(10):
        game = round_two(app.test_client())
        game.post(
            "guess",
            game.encryptor("black"),
            code=wrong(game.code("white")),
            confirm=True,
            **target(game, game.encryptor("black")),
        )
        guessers = [t for t in game.seats.values() if game.view(t)["you"]["task"] == "decrypt"]
        body = {"code": game.code("white"), "confirm": True, **target(game, guessers[0])}
        answers = at_once([partial(_post, live_server, game.id, "guess", t, body) for t in guessers * 2])
        assert sorted(a.status_code for a in answers) == [200] + [409] * (len(answers) - 1), attempt
        assert {a.json()["code"] for a in answers if a.status_code == 409} == {"stale"}
        saved = [e for e in game.events() if e["type"] == "guess_saved" and e["by"] == "white"]
        assert [(e["transmission"], e["sealed"]) for e in saved][-1:] == [("white", True)]
        assert not any(e["transmission"] == "black" for e in saved), "a stale seal became an interception"


@pytest.mark.system
def test_no_command_of_the_old_phone_lands_after_its_seat_is_claimed(live_server):
    app = live_server.server.app
    client = app.test_client()
    for attempt in range(5):
        game = round_two(client)
        old = game.teammate("white")
        seat = game.view(old)["viewer"]["seat"]
        link = game.post("seat-link", game.tokens["host"], seat=seat).get_json()["seat_link"]["token"]
        stop = threading.Event()
        accepted = []

        def drafts(game=game, old=old, stop=stop, accepted=accepted):
            while not stop.is_set():
                answer = _post(live_server, game.id, "guess", old, {"code": [1, 2, 3]})
                if answer.status_code == 200:
                    accepted.append(answer.json()["version"])

        assert _post(live_server, game.id, "claim-seat", link, {}).status_code == 200  # waits for a teammate
        spammers = [threading.Thread(target=drafts) for _ in range(3)]
        for t in spammers:
            t.start()
        claimed = _post(live_server, game.id, "let-in", game.encryptor("white"), {"seat": seat})  # taken now
        stop.set()
        for t in spammers:
            t.join()
        assert claimed.status_code == 200, claimed.text
        claim_version = claimed.json()["version"]
        assert [v for v in accepted if v > claim_version] == [], attempt
        assert _post(live_server, game.id, "guess", old, {"code": [1, 2, 3]}).status_code == 403


def test_a_player_who_switched_teams_announces_with_a_target(client):
    """A seat's capability keeps the team it was issued for; the target checks read the player's team now
    (the leak audit's rematch found clues refused as stale after a switch)."""
    game = ApiGame(client, start=False)
    for name in ("Bea", "Ann"):  # each ends up second on the other team
        assert game.post("switch-team", game.seats[name]).status_code == 200
    assert game.post("start", game.tokens["host"]).status_code == 200
    game.round()
    for team in ("white", "black"):
        encryptor = game.encryptor(team)
        assert game.view(encryptor)["viewer"]["name"] in ("Bea", "Ann")
        answer = game.post("clues", encryptor, clues=game.fresh_clues(), match=1, round=2)
        assert answer.status_code == 200, answer.get_json()
