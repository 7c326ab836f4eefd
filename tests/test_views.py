"""The security boundary: for every viewer and every phase, no secret appears in any view it may not see.

Secrets are checked two ways: by value (keywords, unopened clues, keyword guesses: their strings never
appear anywhere in the serialised view) and by place (a code or guess is a list of three digits; such a
list may only stand in the few fields that hold codes, and those fields are empty until the viewer may know).
What each viewer may know is the oracle's (tests/oracle.py), which the leak audit uses too.
"""

import json

import pytest

from companion.rules import TEAMS
from companion.rules.access import Who
from companion.views import view_for
from tools.driver import Table, wrong, wrong2

from .oracle import Oracle, sees, walk

CODE_FIELDS = ("code",)  # the only keys under which a three-digit list may appear


def scenarios():
    """(name, table) pairs covering every phase and every stage of a round."""
    yield "lobby", Table(start=False)
    t = Table()
    yield "round1-writing", t
    t = Table()
    t.announce("white", ["orbit", "pine", "fortress"])
    yield "round1-white-announced", t
    t = Table()
    t.announce("white")
    t.announce("black")
    t.guess("white", "white", wrong(t.code("white")), confirm=False)
    yield "round1-white-draft", t
    t = Table()
    t.round()
    t.announce("white")
    t.announce("black")
    t.guess("black", "white", wrong(t.code("white")), confirm=True)
    t.guess("white", "white", wrong2(t.code("white")), confirm=False)
    yield "round2-white-guesses", t
    t = Table()
    t.round()
    t.announce("white")
    t.announce("black")
    t.transmission("white")
    t.guess("white", "black", wrong(t.code("black")), confirm=True)
    yield "round2-black-interception-sealed", t
    t = Table()
    t.quiet_rounds(8)
    yield "tiebreak-guessing", t
    t = Table()
    t.quiet_rounds(8)
    t.do({"type": "keyword_guesses", "guesses": ["secretguess1", "secretguess2", "", "secretguess4"]}, t.seat(1))
    yield "tiebreak-white-sealed", t
    t.do({"type": "keyword_guesses", "guesses": ["e", "f", "g", "h"]}, t.seat(3))
    yield "tiebreak-judging", t
    t = Table()
    t.round(black=(False, False))
    t.round(black=(False, False))
    yield "over", t
    t = Table()
    t.round()
    t.announce("white")
    write_notes(t)
    yield "round2-notes", t
    t = Table()
    write_notes(t)
    t.quiet_rounds(8)
    yield "tiebreak-notes", t
    t = Table()
    write_notes(t)
    t.round(black=(False, False))
    t.round(black=(False, False))
    yield "over-notes", t


def write_notes(table):
    """Both teams' notes: a keyword and a line each, with text found nowhere else."""
    for team, seat in (("white", 1), ("black", 3)):
        table.do({"type": "write_note", "keyword": 2, "text": f"zknote{team}kw2"}, table.seat(seat))
        table.do({"type": "write_note", "line": 1, "text": f"zknote{team} line one"}, table.seat(seat))


def viewers(table):
    yield Who("host")
    yield Who("spectator")
    for team in TEAMS:
        yield Who("join", team=team)
    for p in table.game.players:
        yield Who("seat", seat=p.seat, team=p.team)


def secrets_hidden_from(table, viewer) -> dict[str, str]:
    """The strings this viewer may not know yet, with what each one is."""
    return Oracle(table.events).hidden_words(viewer)


def check_codes(table, viewer, view):
    """Three-digit lists only in code fields, each one a code or guess this viewer may see, and the
    transmissions' code fields empty until it may."""
    oracle = Oracle(table.events)
    visible = oracle.visible_codes(viewer)
    for path, value in walk(view):
        assert path[-1] in CODE_FIELDS, f"a three-digit list at {path} (only code fields may hold one)"
        assert tuple(value) in visible, f"a code {value} at {path} this viewer may not see"
    for r_view, r in zip(view["rounds"], table.game.rounds, strict=True):
        for team, t in r.transmissions.items():
            tv, shown = r_view["transmissions"][team], sees(viewer, t)
            assert shown["code"] or tv["code"] is None, f"unrevealed {team} code shown"
            assert shown["decryption"] or tv["decryption"]["code"] is None, f"{team}'s unresolved decryption shown"
            if tv["interception"] is not None:
                assert shown["interception"] or tv["interception"]["code"] is None, (
                    f"{team}'s unresolved interception shown"
                )
    you, own = view["you"], oracle.own_code(viewer)
    if you and you["code"] is not None:
        assert own and you["code"] == list(own), "you.code for someone not encrypting it"


SCENARIOS = list(scenarios())


@pytest.mark.parametrize("name,table", SCENARIOS, ids=[n for n, _ in SCENARIOS])
def test_no_viewer_sees_a_secret_it_may_not_know(name, table):
    for viewer in viewers(table):
        view = view_for(table.game, viewer)
        text = json.dumps(view, ensure_ascii=False)
        for secret, what in secrets_hidden_from(table, viewer).items():
            assert secret not in text, f"{what} {secret!r} reaches {viewer} in {name}"
        check_codes(table, viewer, view)


@pytest.mark.parametrize("name,table", SCENARIOS, ids=[n for n, _ in SCENARIOS])
def test_own_secrets_do_reach_their_owners(name, table):
    """The other half: the boundary doesn't hide what a player needs."""
    game = table.game
    for p in game.players:
        view = view_for(game, Who("seat", seat=p.seat, team=p.team))
        if game.keywords:
            assert view["teams"][p.team]["keywords"] == list(game.keywords[p.team])
        if game.phase == "playing":
            own = game.round.transmissions[p.team]
            assert (view["you"]["code"] == list(own.code)) == (own.encryptor == p.seat and not own.resolved)


def three_player_notes():
    t = Table(white=("Ann", "Abe"), black=("Bea",), mode="three_player")
    t.three_player_round()
    t.do({"type": "write_note", "keyword": 1, "text": "zknotebkw1"}, t.seat(3))
    return t


@pytest.mark.parametrize("name", ["round2-notes", "tiebreak-notes", "over-notes", "three-player-notes"])
def test_a_teams_notes_reach_its_players_and_nobody_else_even_once_the_game_is_over(name):
    table = three_player_notes() if name == "three-player-notes" else dict(SCENARIOS)[name]
    for viewer in viewers(table):
        text = json.dumps(view_for(table.game, viewer))
        for team in TEAMS:
            mine = viewer.kind == "seat" and viewer.team == team
            written = [note for _, t, note in Oracle(table.events).notes if t == team]
            assert all((note in text) == mine for note in written), (viewer, team)


def test_everything_is_public_once_the_game_is_over():
    table = dict(SCENARIOS)["over"]
    view = view_for(table.game, Who("spectator"))
    for team in TEAMS:
        assert view["teams"][team]["keywords"] == list(table.game.keywords[team])
    assert all(t["code"] for r in view["rounds"] for t in r["transmissions"].values())


def test_the_table_screen_sees_the_public_board_only():
    table = dict(SCENARIOS)["round2-white-guesses"]
    view = view_for(table.game, Who("host"))
    assert view["you"] is None
    assert all(view["teams"][t]["keywords"] is None for t in TEAMS)
    current = view["rounds"][-1]["transmissions"]["white"]
    assert current["clues"] and current["interception"]["sealed"] and current["interception"]["code"] is None


def test_a_planted_leak_is_caught():
    """If someone adds a field that copies a secret into a view, the checks above go red."""
    table = dict(SCENARIOS)["round2-white-guesses"]
    viewer = Who("spectator")
    view = view_for(table.game, viewer)
    view["debug"] = {"white_words": list(table.game.keywords["white"])}
    text = json.dumps(view)
    assert any(secret in text for secret in secrets_hidden_from(table, viewer))
    view = view_for(table.game, viewer)
    view["teams"]["white"]["next_code"] = list(table.game.round.transmissions["white"].code)
    with pytest.raises(AssertionError, match="three-digit list"):
        check_codes(table, viewer, view)


def test_every_viewer_sees_the_sand_timer_paused_with_the_same_time_left():
    """A pause shows on every screen (the table, spectators, join links, each seat, the late Encryptor's
    own): paused, with the time it had left, frozen however long it lasts; the resume counts on from there."""
    now = [100.0]
    table = Table(timer=30, clock=lambda: now[0])
    table.announce("white")
    now[0] = 112.0
    table.command(table.host, "pause-timer")
    late = table.game.round.transmissions["black"].encryptor
    for when in (112.0, 113.0, 900.0):
        timers = [view_for(table.game, viewer, now=when)["timer"] for viewer in viewers(table)]
        assert timers == [timers[0]] * len(timers)
        assert timers[0] == {
            "seconds": 30,
            "late_team": "black",
            "late_seat": late,
            "remaining": 18.0,
            "ends_at": None,
            "paused": True,
            "up": False,
        }
    now[0] = 900.0
    table.command(table.host, "resume-timer")
    for viewer in viewers(table):
        view = view_for(table.game, viewer, now=905.5)
        assert view["timer"]["paused"] is False and view["timer"]["remaining"] == 12.5
        assert view["timer"]["ends_at"] == 918.0
        assert [(n["kind"], n["remaining"]) for n in view["notices"]] == [
            ("timer_paused", 18.0),
            ("timer_resumed", 18.0),
        ]
