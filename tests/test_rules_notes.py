"""A team's notes (rules/notes.py): who may write them and when, what they hold, how long they last, and who
sees them (views.py); their storage and versions are tests/test_team_private.py's."""

from __future__ import annotations

import pytest

from companion.rules import HOST, Who, RuleError
from companion.views import view_for

from tools.driver import Table

WHITE, BLACK = 1, 3  # Ann (White) and Bea (Black), seated first on their teams (Table's default)


def note(table, seat, **body):
    return table.do({"type": "write_note", **body}, table.seat(seat))


def refused(table, seat, **body) -> str:
    with pytest.raises(RuleError) as error:
        note(table, seat, **body)
    return error.value.code


def notes_of(table, seat):
    return view_for(table.game, Who("seat", seat=seat))["you"]["notes"]


def test_a_note_is_its_teams_for_the_match_and_seen_by_nobody_else():
    table = Table()
    table.round()  # round 2
    [written] = note(table, BLACK, keyword=2, text="  whale \t ?  ", match=1)
    assert {k: written[k] for k in ("type", "team", "keyword", "text")} == {
        "type": "note_written",
        "team": "black",
        "keyword": 2,
        "text": "whale ?",
    }
    note(table, 4, line=1, text="all about the sea")  # Bob, Bea's teammate
    expected = {"keywords": ["", "whale ?", "", ""], "lines": ["all about the sea", ""], "editable": True}
    assert notes_of(table, BLACK) == notes_of(table, 4) == expected
    assert notes_of(table, WHITE) == {"keywords": [""] * 4, "lines": ["", ""], "editable": True}
    for viewer in (Who("host"), Who("spectator"), Who("join", team="black"), Who("seat", seat=WHITE)):
        assert "whale" not in repr(view_for(table.game, viewer)) and "the sea" not in repr(view_for(table.game, viewer))
    note(table, 4, line=1, text="")  # cleared
    assert notes_of(table, BLACK)["lines"] == ["", ""]


def test_writing_a_note_as_it_stands_writes_nothing():
    table = Table()
    note(table, WHITE, keyword=1, text="ship")
    assert note(table, 2, keyword=1, text=" ship ") == []  # the same, once cleaned
    assert note(table, WHITE, line=1, text="") == []  # a blank line is no note
    assert note(table, WHITE, keyword=1, text="boat") != []


def test_notes_are_written_from_the_start_until_the_keywords_are_out_and_read_until_the_rematch():
    table = Table(start=False)
    assert refused(table, WHITE, keyword=1, text="x") == "game_not_started"
    assert view_for(table.game, Who("seat", seat=WHITE))["you"]["notes"] is None
    table.do({"type": "start", "words": table.words}, HOST)
    note(table, WHITE, keyword=1, text="anchor")
    table.quiet_rounds(8)  # the keyword tiebreak
    assert table.game.phase == "keyword_guessing"
    note(table, BLACK, keyword=4, text="moon")  # still: the tiebreak's guesses start from them
    table.do({"type": "keyword_guesses", "guesses": ["a", "b", "c", "d"]}, table.seat(WHITE))
    table.do({"type": "keyword_guesses", "guesses": ["e", "f", "g", "h"]}, table.seat(BLACK))
    assert refused(table, WHITE, keyword=1, text="y") == "judging_in_progress"
    assert notes_of(table, WHITE) == {"keywords": ["anchor", "", "", ""], "lines": [""] * 8, "editable": False}
    table.do({"type": "judge_keywords", "verdicts": {"white": [False] * 4, "black": [False] * 4}}, HOST)
    assert refused(table, WHITE, keyword=1, text="y") == "game_over"
    assert notes_of(table, WHITE)["keywords"][0] == "anchor"
    table.do({"type": "rematch"}, HOST)
    assert notes_of(table, WHITE) is None  # the lobby
    table.do({"type": "start", "words": table.words}, HOST)
    assert notes_of(table, WHITE) == {"keywords": [""] * 4, "lines": [""], "editable": True}  # blank again


def test_a_note_names_one_keyword_or_one_round_so_far_and_holds_short_text():
    table = Table()
    table.round()  # round 2
    for body in (
        {"text": "x"},
        {"keyword": 1, "line": 1, "text": "x"},
        {"keyword": 0, "text": "x"},
        {"keyword": 5, "text": "x"},
        {"keyword": True, "text": "x"},
        {"keyword": "1", "text": "x"},
        {"line": 3, "text": "x"},
        {"line": 0, "text": "x"},
        {"line": 1.0, "text": "x"},
        {"keyword": 1},
        {"keyword": 1, "text": 7},
        {"keyword": 1, "text": ["x"]},
    ):
        assert refused(table, WHITE, **body) == "note_malformed", body
    assert refused(table, WHITE, keyword=1, text="x" * 41) == "text_too_long"
    assert refused(table, WHITE, line=2, text="x" * 81) == "text_too_long"
    assert refused(table, WHITE, keyword=1, text="a\u202eb") == "text_has_control_characters"
    note(table, WHITE, keyword=1, text="x" * 40)
    note(table, WHITE, line=2, text="y" * 80)
    assert refused(table, WHITE, keyword=1, text="z", match=2) == "stale"
    with pytest.raises(RuleError) as error:
        table.do({"type": "write_note", "keyword": 1, "text": "z"}, HOST)
    assert error.value.code == "players_only"
    with pytest.raises(RuleError) as error:
        table.do({"type": "write_note", "keyword": 1, "text": "z"}, Who("join", "white"))
    assert error.value.code == "players_only"


def test_in_the_three_player_game_only_the_interceptor_takes_notes():
    table = Table(white=("Ann", "Abe"), black=("Bea",), mode="three_player")
    assert refused(table, WHITE, keyword=1, text="x") == "nothing_to_note"
    assert notes_of(table, WHITE) is None
    note(table, BLACK, keyword=3, text="castle")
    assert notes_of(table, BLACK)["keywords"] == ["", "", "castle", ""]


def test_notes_go_on_while_a_correction_waits():
    table = Table()
    table.round(black=(False, False))
    black = table.game.rounds[0].transmissions["black"]
    table.do({"type": "propose_correction", "decryption": list(black.code), "interception": None}, HOST)
    note(table, WHITE, keyword=2, text="whale")
    assert notes_of(table, 2)["keywords"][1] == "whale"
