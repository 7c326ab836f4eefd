"""Host corrections, seats, the keyword swap, custom words, rematch and the try-out, through the pure rules."""

import copy
import pytest

from companion.rules import HOST, LOBBY, OVER, PLAYING, Who, RuleError, decide
from companion.rules.host import PHONE_IN_USE_SECONDS, SEEN_WRITE_SECONDS, take_seat_by_itself, waiting_until
from companion.rules.queries import last_entry
from companion.views import view_for
from companion.rules import replay
from companion.rules.text import custom_words

from tools.driver import WORDS, Table, targets, wrong


def refused(table, command, actor=HOST) -> str:
    before = list(table.events)
    with pytest.raises(RuleError) as error:
        table.do(command, actor)
    assert table.events == before
    return error.value.code


# --- the lobby ----------------------------------------------------------------------------


def test_locked_joining_refuses_new_players_until_reopened():
    table = Table(start=False)
    table.do({"type": "lock_joining", "locked": True}, HOST)
    assert refused(table, {"type": "join", "name": "Cy"}, Who("join", "white")) == "joining_locked"
    table.do({"type": "lock_joining", "locked": False}, HOST)
    table.do({"type": "join", "name": "Cy"}, Who("join", "white"))
    assert [p.name for p in table.game.team_players("white")] == ["Ann", "Abe", "Cy"]


def test_the_host_moves_a_player_to_the_other_team_or_removes_them_before_the_start():
    table = Table(white=("Ann", "Abe", "Amy"), black=("Bea",), start=False)
    table.do({"type": "move_player", "seat": 3}, HOST)
    assert [p.name for p in table.game.team_players("black")] == ["Bea", "Amy"]
    table.do({"type": "remove_player", "seat": 1}, HOST)
    assert [p.name for p in table.game.team_players("white")] == ["Abe"]
    assert refused(table, {"type": "move_player", "seat": 99}) == "no_such_player"
    assert refused(table, {"type": "remove_player", "seat": 2}, Who("seat", "white", 2)) == "host_only"


def test_a_seat_number_names_one_player_for_the_whole_game():
    """A removed player's seat number is never given to a newcomer: the host's second tap on Remove (or a
    table screen behind the game) can't remove whoever joined after."""
    table = Table(white=("Ann", "Abe"), black=("Bea", "Bob"), start=False)
    table.do({"type": "remove_player", "seat": 4}, HOST)
    table.do({"type": "join", "name": "Cy"}, Who("join", "black"))
    assert table.game.player(4) is None and [p.seat for p in table.game.team_players("black")] == [3, 5]
    assert refused(table, {"type": "remove_player", "seat": 4}) == "no_such_player"
    assert table.game.player(5).name == "Cy"


def test_moving_refuses_a_full_team_or_a_name_already_there():
    table = Table(white=("Ann", "Abe", "Amy", "Al"), black=("Ann", "Bob", "Bea", "Ben"), start=False)
    assert refused(table, {"type": "move_player", "seat": 1}) == "team_full"
    table.do({"type": "remove_player", "seat": 8}, HOST)
    assert refused(table, {"type": "move_player", "seat": 1}) == "name_taken"


def test_seats_change_only_in_the_lobby():
    table = Table()
    assert refused(table, {"type": "move_player", "seat": 1}) == "game_in_progress"
    assert refused(table, {"type": "lock_joining", "locked": True}) == "game_in_progress"


# --- skipping an Encryptor ----------------------------------------------------------------


def test_skipping_an_encryptor_gives_the_round_to_the_next_teammate_with_a_fresh_code_and_the_rotation_goes_on():
    table = Table(white=("Ann", "Abe", "Amy"), black=("Bea", "Bob"))
    name = lambda: table.game.player(table.encryptor("white").seat).name
    assert name() == "Ann"
    events = table.do({"type": "skip_encryptor", "team": "white"}, HOST)
    assert events[0]["type"] == "encryptor_skipped" and len(events[0]["code"]) == 3
    assert name() == "Abe"
    assert table.code("white") == events[0]["code"]
    assert table.game.notices[-1] == {"kind": "encryptor_skipped", "round": 1, "team": "white", "seat": 1, "by": 2}
    table.round()
    assert name() == "Amy"


def test_an_encryptor_who_announced_cannot_be_skipped():
    table = Table()
    table.announce("white")
    assert refused(table, {"type": "skip_encryptor", "team": "white"}) == "clues_already_announced"
    assert refused(table, {"type": "skip_encryptor", "team": "green"}) == "no_such_team"


# --- taking back an entry -----------------------------------------------------------------


def test_the_table_takes_back_a_sealed_guess_before_the_reveal_and_it_stays_as_a_draft():
    table = Table()
    table.round()
    table.announce("white")
    table.announce("black")
    code = table.code("white")
    table.guess("black", "white", wrong(code))  # sealed interception
    assert last_entry(table.game) == {"entry": "guess", "round": 2, "transmission": "white", "by": "black"}
    table.do({"type": "take_back"}, HOST)
    guess = table.game.round.transmissions["white"].interception
    assert guess.code == tuple(wrong(code)) and not guess.sealed
    table.guess("black", "white", code)  # the table's real guess
    table.guess("white", "white", code)
    assert table.game.tokens["black"].interceptions == 1


def test_the_table_takes_back_the_last_clues_not_yet_revealed():
    table = Table()
    table.announce("black")
    table.announce("white")  # White announced last
    table.do({"type": "take_back"}, HOST)
    assert table.game.round.transmissions["white"].clues is None
    assert table.game.round.current is None  # guessing waits for White again
    table.do({"type": "take_back"}, HOST)
    assert table.game.round.transmissions["black"].clues is None
    assert refused(table, {"type": "take_back"}) == "nothing_to_take_back"
    assert [n["kind"] for n in table.game.notices] == ["entry_taken_back"] * 2


def test_a_resolved_transmission_cannot_be_taken_back():
    table = Table()
    table.round()
    assert refused(table, {"type": "take_back"}) == "nothing_to_take_back"


def test_the_taken_back_clues_may_be_announced_again():
    table = Table()
    table.announce("white", ["alpha", "beta", "gamma"])
    table.do({"type": "take_back"}, HOST)
    table.announce("white", ["alpha", "beta", "delta"])
    assert table.game.round.transmissions["white"].clues == ("alpha", "beta", "delta")


# --- correcting the last reveal -----------------------------------------------------------


def _answer(table, team, accept=True):
    return table.do({"type": "answer_correction", "accept": accept}, table.seat(table.game.team_players(team)[0].seat))


def test_a_correction_of_the_last_reveal_takes_effect_once_both_teams_confirm():
    table = Table()
    table.round()
    table.announce("white")
    table.announce("black")
    code = table.code("white")
    table.transmission("white", decrypted=False)  # White mis-tapped its decryption
    assert table.game.tokens["white"].miscommunications == 1
    table.do({"type": "propose_correction", "decryption": code, "interception": wrong(code)}, HOST)
    assert (
        refused(table, {"type": "guess", "code": [1, 2, 3], "confirm": True}, table.guesser("white", "black"))
        == "correction_pending"
    )
    _answer(table, "white")
    assert table.game.tokens["white"].miscommunications == 1  # one team is not enough
    events = _answer(table, "black")
    assert [e["type"] for e in events] == ["correction_answered", "reveal_corrected"]
    assert table.game.tokens["white"].miscommunications == 0
    assert table.game.round.transmissions["white"].decryption.code == tuple(code)
    assert table.game.correction is None


def _propose(table, decryption, interception):
    return table.do(
        {
            "type": "propose_correction",
            "decryption": list(decryption),
            "interception": list(interception) if interception else None,
        },
        HOST,
    )


def test_either_team_can_reject_a_correction_and_nothing_changes():
    table = Table()
    table.round()
    table.round()
    last = table.game.rounds[1].transmissions["black"]
    _propose(table, wrong(last.code), last.interception.code)
    tokens = copy.deepcopy(table.game.tokens)
    _answer(table, "black", accept=False)
    assert table.game.correction is None
    assert table.game.tokens == tokens
    assert table.game.notices[-1] == {"kind": "correction_answered", "round": 3, "team": "black", "accept": False}


def test_each_proposal_has_the_next_number_in_the_game():
    """The view's `correction.id`: counted over every proposal, rejected and withdrawn ones too."""
    table = Table()
    table.round()
    table.round()
    last = table.game.rounds[1].transmissions["black"]
    for number in (1, 2, 3):
        _propose(table, wrong(last.code), last.interception.code)
        assert table.game.correction.id == number
        if number == 2:
            table.do({"type": "withdraw_correction"}, HOST)
        else:
            _answer(table, "black", accept=False)


def test_after_the_game_ended_a_correction_may_change_the_result_but_never_resume_play():
    """At game over both teams' keywords are on every screen: a round or a tiebreak can't be played with them."""
    table = Table()
    table.round()
    table.round(black=(True, True))
    table.round(black=(True, True))  # White's 2nd Interception: White wins
    assert table.game.phase == OVER and table.game.result.winners == ("white",)
    last = table.game.rounds[2].transmissions["black"]
    # Without that interception the game would go on to round 4, with keywords everyone has seen.
    assert (
        refused(
            table,
            {"type": "propose_correction", "decryption": list(last.decryption.code), "interception": wrong(last.code)},
        )
        == "correction_resumes_play"
    )
    # Black misread its own code too: the game stays over, and the tokens are recounted.
    _propose(table, wrong(last.code), last.interception.code)
    _answer(table, "white")
    events = _answer(table, "black")
    assert [e["type"] for e in events] == ["correction_answered", "round_reopened", "reveal_corrected", "game_ended"]
    assert table.game.phase == OVER and table.game.result.winners == ("white",)
    assert table.game.tokens["black"].miscommunications == 1


def test_a_correction_proposed_before_the_refusal_existed_is_not_carried_out_after_the_end():
    """A log may hold a correction proposed at game over by an older version: confirming it can't resume play."""
    table = Table()
    table.round()
    table.round(black=(True, True))
    table.round(black=(True, True))  # White's 2nd Interception: White wins
    last = table.game.rounds[2].transmissions["black"]
    proposed = {
        "type": "correction_proposed",
        "round": 3,
        "team": "black",
        "decryption": list(last.decryption.code),
        "interception": wrong(last.code),
    }
    table.events.append(proposed)
    table.game = replay(table.events)
    _answer(table, "white")
    assert (
        refused(
            table, {"type": "answer_correction", "accept": True}, table.seat(table.game.team_players("black")[0].seat)
        )
        == "correction_resumes_play"
    )
    assert table.game.phase == OVER
    table.do({"type": "withdraw_correction"}, HOST)


def test_a_correction_after_the_keywords_were_shown_never_leads_to_the_tiebreak():
    table = Table()
    table.round(white=(False, False), black=(False, False))  # a Miscommunication each
    table.round(white=(True, True), black=(True, True))  # an Interception each
    table.round(white=(False, False))  # White's 2nd Miscommunication: Black wins
    assert table.game.phase == OVER and table.game.result.winners == ("black",)
    last = table.game.rounds[2].transmissions["black"]
    # White really intercepted Black's last code: both teams won at once, the scores are level, and the
    # tiebreak would have the teams guess keywords they have seen.
    assert (
        refused(
            table,
            {"type": "propose_correction", "decryption": list(last.decryption.code), "interception": list(last.code)},
        )
        == "correction_resumes_play"
    )


def test_a_correction_that_gives_the_deciding_token_ends_the_game_instead_of_the_next_round():
    table = Table()
    table.round()
    table.round(black=(True, True))
    table.round()  # round 4 has begun
    assert table.game.round.number == 4
    last = table.game.rounds[2].transmissions["black"]
    _propose(table, last.decryption.code, last.code)  # White did intercept, really
    _answer(table, "black")
    events = _answer(table, "white")
    assert [e["type"] for e in events][-1] == "game_ended"
    assert [r.number for r in table.game.rounds] == [1, 2, 3]
    assert table.game.result.winners == ("white",)


def test_a_correction_in_the_middle_of_a_round_changes_only_that_transmission():
    table = Table()
    table.round()
    table.announce("white")
    table.announce("black")
    code = table.code("white")
    table.transmission("white", decrypted=False)
    _propose(table, code, table.game.round.transmissions["white"].interception.code)
    _answer(table, "white")
    events = _answer(table, "black")
    assert [e["type"] for e in events] == ["correction_answered", "reveal_corrected"]
    assert table.game.tokens["white"].miscommunications == 0
    assert table.game.round.current.team == "black"  # Black's transmission goes on


def test_only_the_last_reveal_can_be_corrected_and_it_must_change_something():
    table = Table()
    table.round()
    last = table.game.rounds[0].transmissions["black"]
    assert (
        refused(table, {"type": "propose_correction", "decryption": list(last.decryption.code)})
        == "correction_changes_nothing"
    )
    assert refused(table, {"type": "propose_correction", "decryption": "12"}) == "guess_malformed"
    table.announce("white")  # round 2 is under way
    assert refused(table, {"type": "propose_correction", "decryption": wrong(last.code)}) == "nothing_to_correct"
    assert refused(table, {"type": "answer_correction", "accept": True}, table.seat(1)) == "no_correction"


def test_a_team_confirms_once_and_only_players_answer():
    table = Table()
    table.round()
    last = table.game.rounds[0].transmissions["black"]
    _propose(table, wrong(last.code), None)
    _answer(table, "white")
    assert (
        refused(table, {"type": "answer_correction", "accept": True}, table.seat(2)) == "correction_already_confirmed"
    )
    assert refused(table, {"type": "answer_correction", "accept": True}) == "players_only"
    assert refused(table, {"type": "answer_correction", "accept": "yes"}, table.seat(3)) == "accept_malformed"
    table.do({"type": "withdraw_correction"}, HOST)
    assert table.game.correction is None


def test_in_the_three_player_game_the_team_and_the_interceptor_confirm():
    table = Table(white=("Ann", "Abe"), black=("Ivy",), mode="three_player")
    table.three_player_round()
    table.three_player_round(decrypted=False)
    assert table.game.tokens["black"].interceptions == 1
    last = table.game.rounds[1].transmissions["white"]
    _propose(table, last.code, last.interception.code)
    _answer(table, "white")
    _answer(table, "black")
    assert table.game.tokens["black"].interceptions == 0


# --- the keyword swap ---------------------------------------------------------------------


def test_each_team_may_swap_one_keyword_once_before_its_round_1_clues():
    table = Table()
    before = table.game.keywords["white"]
    events = table.do({"type": "swap_keyword", "number": 2, "words": WORDS}, table.seat(1))
    after = table.game.keywords["white"]
    assert after[1] != before[1] and after[0::2] == before[0::2] and after[3] == before[3]
    assert after[1] not in table.game.keywords["black"] and after[1] not in before
    assert events[0]["word"] == after[1]
    assert table.game.notices[-1] == {"kind": "keyword_swapped", "round": 1, "team": "white"}  # not which
    assert refused(table, {"type": "swap_keyword", "number": 1, "words": WORDS}, table.seat(2)) == "already_swapped"
    table.announce("black")
    assert refused(table, {"type": "swap_keyword", "number": 1, "words": WORDS}, table.seat(3)) == "swap_too_late"


def test_a_swap_needs_a_spare_word_and_a_number():
    table = Table(words=WORDS[:12])
    dealt = list(table.game.dealt)  # a list all dealt (a game from before lists needed 12 words)
    assert refused(table, {"type": "swap_keyword", "number": 5, "words": dealt}, table.seat(1)) == "keyword_number"
    assert refused(table, {"type": "swap_keyword", "number": 1, "words": dealt}, table.seat(1)) == "no_spare_words"


# --- seats ----------------------------------------------------------------------------------

EVERY_PHONE = [1, 2, 3, 4]  # `in_use`: every seat's phone asked for its view lately (the service's word)


def claim(table, seat, in_use=EVERY_PHONE, at=None):
    command = {"type": "claim_seat", "in_use": in_use, **({"at": at} if at is not None else {})}
    return table.do(command, Who("handoff", seat=seat))


def test_a_seat_link_is_issued_by_the_host_and_claimed_by_a_handoff_link_only():
    table = Table(white=("Ann",), black=("Bea",), start=False)  # nobody else in White to ask
    assert table.do({"type": "issue_seat_link", "seat": 1, "at": 100.0}, HOST) == [
        {"type": "seat_link_issued", "v": 2, "seat": 1, "at": 100.0}
    ]
    assert table.game.seat_links == {1: 100.0}
    assert refused(table, {"type": "claim_seat", "in_use": []}, Who("seat", "white", 1)) == "seat_link_only"
    assert claim(table, 1, in_use=[2], at=160.0) == [
        {"type": "seat_claimed", "v": 2, "seat": 1, "unattended": True, "at": 160.0}
    ]
    assert [n["kind"] for n in table.game.notices] == ["seat_link_issued", "seat_claimed"]
    assert refused(table, {"type": "claim_seat", "in_use": []}, Who("handoff", seat=1)) == "seat_link_only"


def test_a_claimed_seat_with_a_teammates_phone_waits_until_a_teammate_lets_it_in():
    table = Table()  # Ann 1 and Abe 2 White, Bea 3 and Bob 4 Black
    table.do({"type": "issue_seat_link", "seat": 2}, HOST)
    assert refused(table, {"type": "let_in", "seat": 2}, table.seat(1)) == "no_waiting_phone"
    assert claim(table, 2, in_use=[1]) == [{"type": "seat_claim_waiting", "seat": 2}]
    assert table.game.waiting_phones == {2} and table.game.seat_links == {}
    assert [n["kind"] for n in table.game.notices] == ["seat_link_issued"]  # nothing public yet
    assert refused(table, {"type": "claim_seat"}, Who("handoff", seat=2)) == "seat_link_only"  # used once
    assert refused(table, {"type": "let_in", "seat": 2}, table.seat(3)) == "teammates_let_in"  # the other team
    assert refused(table, {"type": "let_in", "seat": 2}, HOST) == "players_only"
    assert table.do({"type": "let_in", "seat": 2}, table.seat(1)) == [{"type": "seat_handed", "seat": 2, "by": 1}]
    assert table.game.notices[-1] == {"kind": "seat_handed", "round": 1, "seat": 2, "by": 1}
    assert refused(table, {"type": "let_in", "seat": 2}, table.seat(1)) == "no_waiting_phone"


def test_a_seat_link_does_not_make_a_teammates_phone_count_as_gone():
    """Issue 20: links for every teammate of a seat, then a claim: it still waits while a phone of the team is in
    use (before, the links made the teammates count as gone and the claim went through at once)."""
    table = Table()
    for seat in (1, 2):  # both of White's seats
        table.do({"type": "issue_seat_link", "seat": seat}, HOST)
    assert claim(table, 1, in_use=[2, 3, 4]) == [{"type": "seat_claim_waiting", "seat": 1}]
    assert claim(table, 2, in_use=[1, 3, 4]) == [{"type": "seat_claim_waiting", "seat": 2}]  # Ann's own phone
    assert table.game.unattended == {}


def test_the_seats_own_old_phone_is_asked_too_and_may_let_its_new_phone_in():
    table = Table()
    table.do({"type": "issue_seat_link", "seat": 1}, HOST)
    assert claim(table, 1, in_use=[1, 3]) == [{"type": "seat_claim_waiting", "seat": 1}]  # Abe's phone sleeps
    assert table.do({"type": "let_in", "seat": 1}, table.seat(1)) == [{"type": "seat_handed", "seat": 1, "by": 1}]


def test_with_no_phone_of_the_team_in_use_a_claim_goes_through_and_stays_loud_until_a_teammate_acknowledges():
    table = Table(white=("Ann", "Abe", "Amy"))  # Ann 1, Abe 2, Amy 3 White; 4 and 5 Black
    table.do({"type": "issue_seat_link", "seat": 1}, HOST)
    assert claim(table, 1, in_use=[4, 5], at=500.0) == [
        {"type": "seat_claimed", "v": 2, "seat": 1, "unattended": True, "at": 500.0}
    ]
    assert table.game.unattended == {1: 500.0}
    assert table.game.notices[-1] == {"kind": "seat_claimed", "round": 1, "seat": 1, "unattended": True, "at": 500.0}
    assert refused(table, {"type": "acknowledge_claim", "seat": 1}, table.seat(1)) == "teammates_acknowledge"
    assert refused(table, {"type": "acknowledge_claim", "seat": 1}, table.seat(4)) == "not_your_team"
    assert refused(table, {"type": "acknowledge_claim", "seat": 2}, table.seat(3)) == "no_unattended_claim"
    assert refused(table, {"type": "acknowledge_claim", "seat": 1}, HOST) == "players_only"
    assert table.do({"type": "acknowledge_claim", "seat": 1}, table.seat(2)) == [
        {"type": "claim_acknowledged", "seat": 1, "by": 2}
    ]
    assert table.game.unattended == {}
    assert table.game.notices[-1] == {"kind": "claim_acknowledged", "round": 1, "seat": 1, "by": 2}


def test_a_phone_of_the_team_turns_away_a_link_or_a_waiting_phone_of_its_seats():
    table = Table()
    assert refused(table, {"type": "reject_seat_link", "seat": 2}, table.seat(1)) == "no_seat_link"
    table.do({"type": "issue_seat_link", "seat": 2}, HOST)
    assert refused(table, {"type": "reject_seat_link", "seat": 2}, table.seat(3)) == "not_your_team"
    assert refused(table, {"type": "reject_seat_link", "seat": 2}, HOST) == "players_only"
    assert table.do({"type": "reject_seat_link", "seat": 2}, table.seat(1)) == [
        {"type": "seat_link_cancelled", "seat": 2, "by": 1}
    ]
    assert table.game.seat_links == {}
    assert refused(table, {"type": "claim_seat", "in_use": []}, Who("handoff", seat=2)) == "seat_link_only"
    table.do({"type": "issue_seat_link", "seat": 2}, HOST)
    claim(table, 2)  # waits for a phone of White
    assert table.do({"type": "reject_seat_link", "seat": 2}, table.seat(2)) == [  # Abe's own phone: not mine
        {"type": "seat_link_cancelled", "seat": 2, "by": 2}
    ]
    assert table.game.waiting_phones == set()
    assert table.game.notices[-1] == {"kind": "seat_link_cancelled", "round": 1, "seat": 2, "by": 2}


# --- a waiting phone's wait always ends (issue 39, item 2) -----------------------------------------------
# `seen`: when the service last wrote that each seat's phone asked for its view (at most once a minute).


def let_in_by_itself(table, seat, seen, now) -> list[dict]:
    """The service's step when the new phone waiting for `seat` asks for its view at `now`."""
    events = take_seat_by_itself(table.game, seat, seen, now)
    table.game = replay(events, table.game)
    return [event.to_json() for event in events]


def waiting_for(table, seat) -> None:
    table.do({"type": "issue_seat_link", "seat": seat}, HOST)
    assert claim(table, seat, in_use=[1, 2]) == [{"type": "seat_claim_waiting", "seat": seat}]


def test_a_waiting_phone_takes_the_seat_by_itself_once_no_phone_of_its_team_was_used_for_two_minutes():
    """Abe's new phone waits (Ann's and Abe's old phones were in use: they were just put away). With nobody
    there to let it in, it takes the seat by itself, loudly, as a claim with nobody there would: not before
    PHONE_IN_USE_SECONDS without any use of White's phones, counted from the last moment one may have been used
    (its last written time + SEEN_WRITE_SECONDS: a phone asking within that minute is not written)."""
    table = Table()  # Ann 1 and Abe 2 White, Bea 3 and Bob 4 Black
    waiting_for(table, 2)
    seen = {1: 1000.0, 2: 1030.0, 3: 1500.0, 4: 1500.0}  # Black plays on: its phones change nothing here
    until = waiting_until(table.game, 2, seen)
    assert (
        1030 + SEEN_WRITE_SECONDS + PHONE_IN_USE_SECONDS
        <= until
        < 1030 + SEEN_WRITE_SECONDS + PHONE_IN_USE_SECONDS + 60
    )
    assert until % 60 == 0  # to the minute, as every screen says it: "at 12:34", then, never before
    for now in (1030 + PHONE_IN_USE_SECONDS + 1, until - 1):
        assert let_in_by_itself(table, 2, seen, now) == []
    assert table.game.waiting_phones == {2}
    assert let_in_by_itself(table, 2, seen, until) == [
        {"type": "seat_claimed", "v": 2, "seat": 2, "unattended": True, "at": until}
    ]
    assert table.game.waiting_phones == set() and table.game.unattended == {2: until}
    assert table.game.notices[-1] == {"kind": "seat_claimed", "round": 1, "seat": 2, "unattended": True, "at": until}
    assert let_in_by_itself(table, 2, seen, until + 600) == []  # nothing waits any more
    assert table.do({"type": "acknowledge_claim", "seat": 2}, table.seat(1)) == [
        {"type": "claim_acknowledged", "seat": 2, "by": 1}
    ]


def test_the_waiting_phones_own_token_becomes_the_seats_and_the_old_phone_is_signed_out():
    table = Table()
    waiting_for(table, 2)
    game = table.game
    (taken,) = take_seat_by_itself(game, 2, {}, 10_000.0)  # no phone of White ever seen: nobody to ask
    changes = taken.capabilities(game)
    assert changes.promoted == (("waiting", "seat", 2),) and changes.revoked == (("seat", 2),)
    assert changes.grants == ()


def test_the_time_a_waiting_phone_takes_the_seat_moves_later_when_a_phone_of_its_team_is_used():
    table = Table()
    waiting_for(table, 2)
    seen = {1: 1000.0, 2: 1000.0}
    until = waiting_until(table.game, 2, seen)
    assert waiting_until(table.game, 2, {**seen, 3: until, 4: until}) == until  # the other team's: nothing
    for teammate in (1, 2):  # Ann's phone, or Abe's own old phone, is used (and written) a minute later
        later = {**seen, teammate: 1000.0 + SEEN_WRITE_SECONDS}
        moved = waiting_until(table.game, 2, later)
        assert moved == until + SEEN_WRITE_SECONDS
        assert let_in_by_itself(table, 2, later, until) == []
    assert let_in_by_itself(table, 2, {1: 1060.0, 2: 1000.0}, until + SEEN_WRITE_SECONDS) != []


def test_a_new_link_for_a_seat_whose_phone_waits_replaces_its_claim_and_keeps_its_token_to_say_so():
    table = Table()
    waiting_for(table, 2)
    (issued,) = decide(table.game, {"type": "issue_seat_link", "seat": 2}, HOST, table.rng)
    changes = issued.capabilities(table.game)
    assert changes.promoted == (("waiting", "replaced", 2),)  # refused, saying another link replaced it
    assert ("waiting", 2) not in changes.revoked and ("handoff", 2) in changes.revoked
    table.game = replay([issued], table.game)
    assert table.game.waiting_phones == set() and table.game.seat_links == {2: None}
    assert claim(table, 2, in_use=[1]) == [{"type": "seat_claim_waiting", "seat": 2}]  # the new one: same rule


def test_the_lone_interceptors_seat_asks_its_own_phone_while_it_is_in_use():
    """Three players: nobody shares the Interceptor's side, so its own phone decides while in use; once it is
    not, a claim goes through at once, loudly, and nobody can acknowledge it: it shows until the match ends."""
    table = Table(white=("Ann", "Abe"), black=("Ivy",), mode="three_player")
    table.do({"type": "issue_seat_link", "seat": 3}, HOST)
    assert claim(table, 3, in_use=[1, 2, 3]) == [{"type": "seat_claim_waiting", "seat": 3}]
    assert refused(table, {"type": "let_in", "seat": 3}, table.seat(1)) == "teammates_let_in"
    table.do({"type": "issue_seat_link", "seat": 3}, HOST)
    assert claim(table, 3, in_use=[1, 2], at=10.0) == [
        {"type": "seat_claimed", "v": 2, "seat": 3, "unattended": True, "at": 10.0}
    ]
    assert refused(table, {"type": "acknowledge_claim", "seat": 3}, table.seat(3)) == "teammates_acknowledge"
    assert table.game.unattended == {3: 10.0}


def test_moving_the_table_screen_is_in_the_public_log():
    table = Table()
    assert refused(table, {"type": "cancel_table_move"}) == "no_table_move"
    assert refused(table, {"type": "take_table"}, Who("table_move")) == "no_table_move"
    assert refused(table, {"type": "offer_table_move"}, table.seat(1)) == "host_only"
    assert table.do({"type": "offer_table_move", "at": 1.0}, HOST) == [{"type": "table_move_offered", "at": 1.0}]
    assert table.do({"type": "cancel_table_move"}, HOST) == [{"type": "table_move_cancelled"}]
    table.do({"type": "offer_table_move", "at": 2.0}, HOST)
    assert refused(table, {"type": "take_table"}, HOST) == "move_link_only"
    assert table.do({"type": "take_table", "at": 3.0}, Who("table_move")) == [{"type": "table_moved", "at": 3.0}]
    assert table.game.moved_at == 3.0 and not table.game.move_offered
    assert [n["kind"] for n in table.game.notices] == [
        "table_move_offered",
        "table_move_cancelled",
        "table_move_offered",
        "table_moved",
    ]
    assert refused(table, {"type": "take_table"}, Who("table_move")) == "no_table_move"  # once


def test_a_seat_link_can_be_cancelled_and_then_no_longer_claimed():
    table = Table()
    assert refused(table, {"type": "cancel_seat_link", "seat": 2}) == "no_seat_link"
    table.do({"type": "issue_seat_link", "seat": 2}, HOST)
    table.do({"type": "cancel_seat_link", "seat": 2}, HOST)
    assert refused(table, {"type": "claim_seat"}, Who("handoff", seat=2)) == "seat_link_only"


def test_a_try_out_issues_no_seat_link_and_takes_no_claim():
    """A try-out's seats are all on the device that made it: no link lets another phone take one."""
    table = Table(white=(), black=(), start=False, try_out=True, players={"white": ["W1", "W2"], "black": ["B1", "B2"]})
    table.do({"type": "start", "words": WORDS}, HOST)
    assert refused(table, {"type": "issue_seat_link", "seat": 3}) == "try_out_fixed_seats"
    assert refused(table, {"type": "claim_seat"}, Who("handoff", seat=3)) == "try_out_fixed_seats"


# --- rematch --------------------------------------------------------------------------------


def _finished(table: Table) -> Table:
    table.round(white=(False, False))
    table.round(white=(False, False))  # Black wins in round 2
    assert table.game.phase == OVER
    return table


def test_a_rematch_goes_back_to_the_lobby_with_the_same_seats_then_deals_fresh_keywords():
    table = _finished(Table(white=("Ann", "Abe", "Amy"), black=("Bea", "Bob")))
    first = dict(table.game.keywords)
    seats = [(p.seat, p.name, p.team) for p in table.game.players]
    assert table.do({"type": "rematch"}, HOST) == [{"type": "rematch_started", "v": 2}]
    game = table.game
    assert game.phase == LOBBY and game.match == 2 and not game.rounds and not game.keywords
    assert [(p.seat, p.name, p.team) for p in game.players] == seats
    assert game.tokens["white"].miscommunications == 0 and not game.joining_locked
    assert refused(table, {"type": "rematch"}) == "game_not_started"
    table.do({"type": "start", "words": WORDS}, HOST)
    game = table.game
    assert game.phase == PLAYING and game.round.number == 1
    assert not set(first["white"] + first["black"]) & set(game.keywords["white"] + game.keywords["black"])
    names = (game.player(table.encryptor("white").seat).name, game.player(table.encryptor("black").seat).name)
    assert names == ("Amy", "Bea")  # after Abe and Bob of round 2
    assert refused(table, {"type": "rematch"}) == "game_in_progress"


def test_the_rematch_lobby_reopens_joining_and_takes_newcomers():
    table = Table(start=False)
    table.do({"type": "lock_joining", "locked": True}, HOST)
    table.do({"type": "start", "words": WORDS}, HOST)
    _finished(table).do({"type": "rematch"}, HOST)
    table.do({"type": "join", "name": "Cy"}, Who("join", "white"))
    assert [p.name for p in table.game.team_players("white")] == ["Ann", "Abe", "Cy"]


def test_a_rematch_starts_each_rotation_with_whoever_has_gone_longest_without_encrypting():
    """Newcomers first (they never encrypted); whoever encrypted the last round comes last."""
    table = _finished(Table(white=("Ann", "Abe"), black=("Bea", "Bob")))  # Ann, Abe / Bea, Bob encrypted
    table.do({"type": "rematch"}, HOST)
    table.do({"type": "move_player", "seat": 2}, HOST)  # Abe (round 2) to Black
    table.do({"type": "join", "name": "Cy"}, Who("join", "white"))
    table.do({"type": "start", "words": WORDS}, HOST)
    order = {team: [table.game.encryptor_for(team, r).name for r in (1, 2, 3)] for team in ("white", "black")}
    assert order == {"white": ["Cy", "Ann", "Cy"], "black": ["Bea", "Bob", "Abe"]}


def test_a_player_switches_team_from_their_phone_in_the_lobby():
    table = Table(white=("Ann", "Abe", "Amy"), black=("Bea", "Bob"), start=False)
    assert table.do({"type": "switch_team"}, table.seat(3)) == [{"type": "player_moved", "seat": 3, "team": "black"}]
    assert [p.name for p in table.game.team_players("black")] == ["Bea", "Bob", "Amy"]
    assert refused(table, {"type": "switch_team"}) == "players_only"
    assert refused(table, {"type": "switch_team"}, Who("join", "white")) == "players_only"
    table.do({"type": "join", "name": "Ann"}, Who("join", "black"))  # another Ann: Black is full
    assert refused(table, {"type": "switch_team"}, table.seat(6)) == "name_taken"
    assert refused(table, {"type": "switch_team"}, table.seat(1)) == "team_full"
    table.do({"type": "lock_joining", "locked": True}, HOST)
    assert refused(table, {"type": "switch_team"}, table.seat(1)) == "joining_locked"
    table.do({"type": "lock_joining", "locked": False}, HOST)
    table.do({"type": "remove_player", "seat": 6}, HOST)
    table.do({"type": "start", "words": WORDS}, HOST)
    assert refused(table, {"type": "switch_team"}, table.seat(1)) == "game_in_progress"
    try_out = Table(white=(), black=(), start=False, try_out=True, players={"white": ["W1", "W2"], "black": ["B1"]})
    assert refused(try_out, {"type": "switch_team"}, try_out.seat(1)) == "try_out_fixed_seats"


def test_a_player_leaves_from_their_phone_in_the_lobby():
    table = Table(white=("Ann", "Abe", "Amy"), black=("Bea", "Bob"), start=False)
    assert table.do({"type": "leave"}, table.seat(2)) == [{"type": "player_left", "seat": 2}]
    assert [p.name for p in table.game.team_players("white")] == ["Ann", "Amy"]
    # Gone: a repeat leaves nobody.
    assert refused(table, {"type": "leave"}, Who("seat", "white", 2)) == "players_only"
    assert refused(table, {"type": "leave"}) == "players_only"
    assert refused(table, {"type": "leave"}, Who("join", "white")) == "players_only"
    table.do({"type": "join", "name": "Abe"}, Who("join", "white"))  # back after all: a new seat
    assert table.game.team_players("white")[-1].seat == 6
    table.do({"type": "start", "words": WORDS}, HOST)
    assert refused(table, {"type": "leave"}, table.seat(1)) == "game_in_progress"
    try_out = Table(white=(), black=(), start=False, try_out=True, players={"white": ["W1", "W2"], "black": ["B1"]})
    assert refused(try_out, {"type": "leave"}, try_out.seat(1)) == "try_out_fixed_seats"


def _shuffled(names_by_team, seed, **settings):
    table = Table(white=names_by_team[0], black=names_by_team[1], start=False, seed=seed, **settings)
    table.do({"type": "shuffle_teams"}, HOST)
    return table


def test_shuffling_splits_the_seated_players_as_evenly_as_possible_at_random():
    players = ["Ann", "Abe", "Amy", "Al", "Bea", "Bob", "Ben", "Bo"]
    for count in range(2, 9):
        white, black = players[:count][::2], players[:count][1::2]
        arrangements, bigger = set(), set()
        for seed in range(40):
            game = _shuffled((white, black), seed).game
            sizes = {team: len(game.team_players(team)) for team in ("white", "black")}
            assert abs(sizes["white"] - sizes["black"]) <= 1 and sorted(p.name for p in game.players) == sorted(
                white + black
            )
            arrangements.add(tuple(p.name for p in game.team_players("white")))
            bigger.add(max(sizes, key=sizes.get) if sizes["white"] != sizes["black"] else None)
        assert len(arrangements) > 1  # random, not a fixed split
        if count % 2:
            assert bigger == {"white", "black"}  # either team may get the odd player out
    assert [(p.seat, p.team) for p in _shuffled((players[:3], players[4:7]), 5).game.players] == [
        (p.seat, p.team) for p in _shuffled((players[:3], players[4:7]), 5).game.players
    ]  # the seeded rng decides


def test_shuffling_keeps_two_players_of_the_same_name_apart():
    for seed in range(30):
        game = _shuffled((["Ann", "Abe", "Amy"], ["ann", "Bob", "amy"]), seed).game
        for team in ("white", "black"):
            names = [p.name.lower() for p in game.team_players(team)]
            assert len(names) == len(set(names)) == 3


def test_shuffling_in_the_three_player_game_draws_a_new_interceptor():
    interceptors = set()
    for seed in range(30):
        game = _shuffled((["Ann", "Abe"], ["Ivy"]), seed, mode="three_player").game
        assert len(game.team_players("white")) == 2 and len(game.team_players("black")) == 1
        interceptors.add(game.team_players("black")[0].name)
    assert interceptors == {"Ann", "Abe"}


def test_a_shuffle_never_gives_back_the_same_two_teams_when_another_split_exists():
    """Not the same pairs again, nor the same teams with their colours swapped."""

    def teams(game):
        return {frozenset(p.name for p in game.team_players(team)) for team in ("white", "black")}

    for white, black in (
        (["Ann", "Abe"], ["Bea", "Bob"]),
        (["Ann", "Abe", "Amy"], ["Bea"]),
        (["Ann", "Abe", "Amy", "Al"], ["Bea", "Bob", "Ben", "Bo"]),
        (["Ann"], ["Bea"]),
    ):
        seen = set()
        for seed in range(40):
            table = Table(white=white, black=black, start=False, seed=seed)
            before = teams(table.game)
            table.do({"type": "shuffle_teams"}, HOST)
            after = teams(table.game)
            assert after != before or len(white) + len(black) == 2, (seed, before, after)
            seen.add(frozenset(after))
        assert len(seen) > 1 or len(white) + len(black) == 2  # still at random among the others
    table = Table(white=["Ann", "Abe"], black=["Bea", "Bob"], start=False, seed=3)
    for _ in range(8):  # the tester's eight taps in a row
        before = teams(table.game)
        table.do({"type": "shuffle_teams"}, HOST)
        assert teams(table.game) != before
    # New teams, and the same names still apart: Ann/ann and Abe/abe have one other split.
    table = Table(white=["Ann", "Abe"], black=["ann", "abe"], start=False, seed=1)
    table.do({"type": "shuffle_teams"}, HOST)
    assert teams(table.game) == {frozenset({"Ann", "abe"}), frozenset({"ann", "Abe"})}


def test_shuffling_is_for_the_host_in_a_real_game_lobby_with_two_players_or_more():
    table = Table(white=("Ann",), black=(), start=False)
    assert refused(table, {"type": "shuffle_teams"}) == "too_few_to_shuffle"
    table.do({"type": "join", "name": "Bea"}, Who("join", "white"))
    assert refused(table, {"type": "shuffle_teams"}, table.seat(1)) == "host_only"
    table = Table()
    assert refused(table, {"type": "shuffle_teams"}) == "game_in_progress"
    try_out = Table(white=(), black=(), start=False, try_out=True, players={"white": ["W1", "W2"], "black": ["B1"]})
    assert refused(try_out, {"type": "shuffle_teams"}) == "try_out_fixed_seats"


def test_the_host_changes_the_sand_timer_in_the_lobby():
    table = _finished(Table(timer=30))
    assert refused(table, {"type": "set_timer", "timer": 45}) == "game_over"
    table.do({"type": "rematch"}, HOST)
    table.do({"type": "set_timer", "timer": 45}, HOST)
    assert table.game.settings.timer == 45
    for wrong_value in (5, 601, "45", 45.0, True, [45]):
        assert refused(table, {"type": "set_timer", "timer": wrong_value}) == "timer_length"
    assert refused(table, {"type": "set_timer"}) == "timer_length"
    assert refused(table, {"type": "set_timer", "timer": 60}, table.seat(1)) == "host_only"
    table.do({"type": "set_timer", "timer": None}, HOST)
    assert table.game.settings.timer is None
    table.do({"type": "set_timer", "timer": 10}, HOST)
    table.do({"type": "start", "words": WORDS}, HOST)
    assert table.game.settings.timer == 10
    assert refused(table, {"type": "set_timer", "timer": 60}) == "game_in_progress"


# --- pausing the sand timer -----------------------------------------------------------------


def timed_table(**settings) -> tuple[Table, list[float]]:
    """A game with a 30-second sand timer, on a clock the test moves (`now[0]`): White announced at 100."""
    now = [100.0]
    table = Table(timer=30, clock=lambda: now[0], **settings)
    table.announce("white")
    return table, now


def timer_at(table: Table, when: float) -> dict | None:
    """The sand timer as every screen shows it at `when` (the service's clock then): the view's `timer`."""
    return view_for(table.game, Who("spectator"), now=when)["timer"]


def sent_at(kind: str, when: float) -> dict:
    """The table's pause or resume sent at `when`: the service adds its clock as `at`."""
    return {"type": kind, "at": when}


def test_the_table_pauses_and_resumes_the_sand_timer():
    table, now = timed_table()
    now[0] = 110.0
    assert [e["type"] for e in table.command(HOST, "pause-timer")] == ["timer_paused"]
    paused = timer_at(table, 110.0)
    assert paused["paused"] and paused["remaining"] == 20 and paused["ends_at"] is None and not paused["up"]
    assert timer_at(table, 500.0) == paused  # frozen, however long the pizza takes
    now[0] = 500.0
    assert [e["type"] for e in table.command(HOST, "resume-timer")] == ["timer_resumed"]
    assert timer_at(table, 500.0)["paused"] is False and timer_at(table, 500.0)["ends_at"] == 520.0
    assert [timer_at(table, t)["remaining"] for t in (500.0, 512.5, 520.0)] == [20, 7.5, 0]
    assert timer_at(table, 519.9)["up"] is False and timer_at(table, 520.0)["up"] is True
    assert [(n["kind"], n["remaining"], n["at"]) for n in table.game.notices] == [
        ("timer_paused", 20.0, 110.0),
        ("timer_resumed", 20.0, 500.0),
    ]


def test_the_time_left_never_counts_a_pause():
    table, now = timed_table()
    for pause, resume in ((105.0, 200.0), (210.0, 1000.0)):
        table.do(sent_at("pause_timer", pause), HOST)
        table.do(sent_at("resume_timer", resume), HOST)
    # 5 s run before the first pause, 10 s between the two: 15 s left, counted from the second resume
    assert timer_at(table, 1000.0)["remaining"] == 15 and timer_at(table, 1000.0)["ends_at"] == 1015.0
    assert timer_at(table, 1015.0)["up"] is True


def test_pausing_needs_a_running_timer_with_time_left_and_resuming_a_paused_one():
    table, now = timed_table()
    assert refused(table, sent_at("resume_timer", 101.0)) == "timer_not_paused"
    assert refused(table, sent_at("pause_timer", 130.0)) == "timer_not_running"  # its time is up
    assert refused(table, sent_at("pause_timer", 200.0)) == "timer_not_running"
    assert refused(table, {"type": "pause_timer"}) == "timer_not_running"  # no clock: no timer to pause
    table.do(sent_at("pause_timer", 110.0), HOST)
    assert refused(table, sent_at("pause_timer", 111.0)) == "timer_not_running"  # already paused
    assert refused(table, sent_at("resume_timer", 120.0), table.seat(1)) == "host_only"
    table.do(sent_at("resume_timer", 120.0), HOST)
    assert refused(table, sent_at("resume_timer", 121.0)) == "timer_not_paused"
    table.announce("black")  # the late Encryptor: no more timer
    assert refused(table, sent_at("pause_timer", 122.0)) == "timer_not_running"
    assert refused(table, sent_at("resume_timer", 122.0)) == "timer_not_paused"


def test_no_sand_timer_to_pause_without_the_setting_before_the_clues_or_outside_play():
    now = [100.0]
    plain = Table(clock=lambda: now[0])
    plain.announce("white")
    assert refused(plain, sent_at("pause_timer", 101.0)) == "timer_not_running"
    timed = Table(timer=30, clock=lambda: now[0])
    assert refused(timed, sent_at("pause_timer", 101.0)) == "timer_not_running"  # nobody announced yet
    three = Table(white=("Ann", "Abe"), black=("Ivy",), mode="three_player", timer=30, clock=lambda: now[0])
    three.announce("white")
    assert refused(three, sent_at("pause_timer", 101.0)) == "timer_not_running"  # one Encryptor a round
    lobby = Table(timer=30, start=False)
    assert refused(lobby, sent_at("pause_timer", 101.0)) == "game_not_started"
    assert refused(lobby, sent_at("resume_timer", 101.0)) == "game_not_started"


def test_a_pause_or_resume_from_a_screen_behind_the_game_is_stale():
    table, now = timed_table()
    shown = targets("pause-timer", view_for(table.game, Who("host"), now=101.0))
    assert shown == {"match": 1, "round": 1, "team": "black"}
    assert refused(table, {**sent_at("pause_timer", 101.0), **shown, "team": "white"}) == "stale"
    assert refused(table, {**sent_at("pause_timer", 101.0), **shown, "round": 2}) == "stale"
    table.do({**sent_at("pause_timer", 101.0), **shown}, HOST)
    with pytest.raises(RuleError) as twice:  # a second tap on Pause
        table.do({**sent_at("pause_timer", 102.0), **shown}, HOST)
    assert twice.value.params == {"change": "timer_paused"}
    table.do({**sent_at("resume_timer", 103.0), **shown}, HOST)
    with pytest.raises(RuleError) as again:  # a second tap on Resume
        table.do({**sent_at("resume_timer", 104.0), **shown}, HOST)
    assert again.value.params == {"change": "timer_running"}
    table.announce("black")
    with pytest.raises(RuleError) as gone:  # Pause tapped as the late clues came
        table.do({**sent_at("pause_timer", 105.0), **shown}, HOST)
    assert gone.value.code == "stale" and gone.value.params == {"change": "timer_stopped"}


def test_the_late_encryptor_may_announce_while_paused_and_clues_taken_back_take_their_pause_along():
    table, now = timed_table()
    table.do(sent_at("pause_timer", 110.0), HOST)
    table.announce("black")  # nothing waits on the timer, paused or not
    assert timer_at(table, 120.0) is None
    table.do({"type": "take_back"}, HOST)  # Black's clues: the timer is back as it was, paused
    assert timer_at(table, 900.0)["paused"] and timer_at(table, 900.0)["remaining"] == 20
    table.do({"type": "take_back"}, HOST)  # White's clues, which started it: the timer and its pause go
    assert timer_at(table, 900.0) is None
    now[0] = 1000.0
    table.announce("white")
    timer = timer_at(table, 1000.0)
    assert not timer["paused"] and timer["remaining"] == 30 and timer["ends_at"] == 1030.0


# --- custom words ---------------------------------------------------------------------------


def test_custom_words_are_split_by_lines_or_commas_and_must_hold_12_distinct_words():
    assert custom_words("apple, pear\nplum\n\n kiwi ,fig,lime,lemon,melon\npeach,grape,mango,cherry") == [
        "apple",
        "pear",
        "plum",
        "kiwi",
        "fig",
        "lime",
        "lemon",
        "melon",
        "peach",
        "grape",
        "mango",
        "cherry",
    ]
    with pytest.raises(RuleError) as error:
        custom_words("apple\nApples\npear\nplum\nfig\nlime\nlemon\nmelon\npeach\ngrape\nmango\ncherry")
    assert error.value.code == "too_few_words"
    assert error.value.params == {"count": 11, "min": 12, "repeated": "Apples"}
    with pytest.raises(RuleError) as error:
        custom_words(["not", "text"])
    assert error.value.code == "words_malformed"


def test_a_game_with_custom_words_deals_from_them():
    words = ["apple", "pear", "plum", "kiwi", "fig", "lime", "lemon", "melon", "peach", "grape", "mango", "cherry"]
    for seed in range(20):
        table = Table(seed=seed, custom_words="\n".join(words))  # the pack (WORDS) is not used
        assert table.game.settings.words == tuple(words)
        dealt = table.game.keywords["white"] + table.game.keywords["black"]
        assert set(dealt) < set(words) and len(set(dealt)) == 8


def test_a_deal_always_leaves_four_words_undealt():
    """With no spare word, each team would know the other's keywords: "the list minus ours"."""
    for seed in range(10):
        table = Table(seed=seed, words=WORDS[:12])
        assert len(set(table.game.dealt)) == 8  # 4 of the 12 are nobody's
    for words, mode, least in ((WORDS[:11], "standard", 12), (WORDS[:7], "three_player", 8)):
        players = {"white": ("Ann", "Abe"), "black": ("Ivy",) if mode == "three_player" else ("Bea", "Bob")}
        table = Table(start=False, mode=mode, **players)
        before = list(table.events)
        with pytest.raises(RuleError) as error:
            table.do({"type": "start", "words": words}, HOST)
        assert (error.value.code, error.value.params) == ("not_enough_words", {"min": least})
        assert table.events == before


def _rematch_deals(words: list[str], seed: int) -> tuple[set, set]:
    """The first match's keywords and the rematch's, from the host's own list."""
    table = _finished(Table(seed=seed, custom_words="\n".join(words)))
    first = set(table.game.dealt)
    table.do({"type": "rematch"}, HOST)
    table.do({"type": "start", "words": WORDS}, HOST)
    return first, set(table.game.keywords["white"] + table.game.keywords["black"])


def test_a_rematch_deals_only_unseen_words_while_four_of_them_would_stay_undealt():
    # 20 words: 12 never dealt, enough for a deal that leaves 4 of them: the rematch deals only unseen words.
    for seed in range(10):
        first, second = _rematch_deals(WORDS[:20], seed)
        assert not first & second
    # 16 words: the 8 unseen would all be dealt, and each team would know the other's as "the unseen minus
    # ours"; so the rematch deals from the whole list, and sometimes a word everyone saw comes back.
    assert any(first & second for first, second in (_rematch_deals(WORDS[:16], seed) for seed in range(10)))


# --- the try-out ----------------------------------------------------------------------------


def test_a_try_out_seats_everyone_at_creation_and_never_takes_real_players():
    table = Table(white=(), black=(), start=False, try_out=True, players={"white": ["W1", "W2"], "black": ["B1", "B2"]})
    assert [(p.seat, p.team) for p in table.game.players] == [(1, "white"), (2, "white"), (3, "black"), (4, "black")]
    assert table.game.phase == LOBBY
    assert refused(table, {"type": "join", "name": "Eve"}, Who("join", "white")) == "try_out_fixed_seats"
    assert refused(table, {"type": "move_player", "seat": 1}) == "try_out_fixed_seats"
    table.do({"type": "start", "words": WORDS}, HOST)
    assert table.game.settings.try_out
