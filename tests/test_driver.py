"""The driver itself: each command's targets are what its sender saw (issue 11's table), and both transports
play the same moves."""

from companion.rules import HOST, Who

from tools.driver import ApiGame, Table, targets, wrong


def test_the_targets_of_each_command_come_from_the_view_its_sender_read():
    table = Table(white=("Ann", "Abe"), black=("Bea", "Bob", "Ben"))
    table.announce("white")
    table.announce("black")
    host, ann = table.view(HOST), table.view(table.seat(1))
    assert targets("guess", ann) == {"match": 1, "round": 1, "transmission": "white"}
    assert targets("clues", ann) == targets("swap-keyword", ann) == {"match": 1, "round": 1}
    for command in ("keyword-guesses", "verdicts", "start", "rematch"):
        assert targets(command, host) == {"match": 1}, command
    # What the table may take back: Black's clues (the latest; no `by` for clues), and the round once the
    # view holds it (`host.take_back.round` is new in issue 11).
    take_back = targets("take-back", host)
    assert take_back.pop("round", None) == host["host"]["take_back"].get("round")
    assert take_back == {"transmission": "black", "entry": "clues"}
    encryptor = host["rounds"][-1]["transmissions"]["black"]["encryptor"]
    assert targets("skip-encryptor", host, {"team": "black"}) == {"round": 1, "encryptor": encryptor}
    assert targets("move-player", host, {"seat": 5}) == {"team": "black"}
    assert targets("seat-link", host, {"seat": 5}) == {"name": "Ben"}
    assert targets("switch-team", table.view(table.seat(5))) == {"team": "black"}
    assert targets("lock-joining", host) == targets("join", ann) == {}
    table.transmission("white")
    table.transmission("black")
    host = table.view(HOST)
    assert targets("correction", host) == {"round": 1, "transmission": "black"}  # the last reveal
    assert targets("answer-correction", ann) == {}  # no proposal (and no `correction.id` yet)


def test_a_field_of_the_body_wins_over_the_target_of_the_same_name():
    table = Table()
    assert table.with_targets(table.seat(1), "move-player", {"seat": 1, "team": "black"})["team"] == "black"


def test_both_transports_play_the_same_round(client):
    """A round in-process and the same round through the API write the same events, targets and all."""
    played = []
    for game in (Table(), ApiGame(client)):
        game.round(white=(False, False))
        game.round(black=(True, True))
        events = game.events if isinstance(game, Table) else game.events()
        played.append([e["type"] for e in events])
    assert played[0] == played[1]
    assert played[0].count("guess_saved") == 6 and played[0].count("transmission_resolved") == 4, played[0]


def test_who_is_read_from_the_views():
    table = Table()
    assert table.encryptor("white") == Who("seat", "white", 1)  # the first of each team to join
    assert table.guesser("white", "white") == Who("seat", "white", 2)
    assert table.guesser("black", "white") == Who("seat", "black", 3)
    assert wrong(table.code("white")) != table.code("white")
