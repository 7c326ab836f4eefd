"""The three-player game (rules.md "Three-player game"): two players against one Interceptor."""

import pytest

from companion.rules import HOST, OVER, PLAYING, Who, RuleError
from companion.rules.three_player import INTERCEPTOR, INTERCEPTOR_TOKENS, TEAM, TEAM_SURVIVED

from tools.driver import WORDS, Table, wrong


def three(seed=7, **settings):
    return Table(white=("Ann", "Abe"), black=("Ivy",), seed=seed, mode="three_player", **settings)


def test_only_the_team_has_keywords_and_transmits():
    table = three()
    assert set(table.game.keywords) == {TEAM}
    assert len(table.game.keywords[TEAM]) == 4
    assert list(table.game.round.transmissions) == [TEAM]


@pytest.mark.parametrize("white,black", [(("Ann",), ("Ivy",)), (("Ann", "Abe"), ())])
def test_it_starts_only_with_two_in_the_team_and_one_interceptor(white, black):
    table = Table(white=white, black=black, mode="three_player", start=False)
    with pytest.raises(RuleError) as refused:
        table.do({"type": "start", "words": WORDS}, HOST)
    assert refused.value.code == "three_player_seats"


def test_a_third_team_member_or_a_second_interceptor_is_refused_at_the_door():
    table = Table(white=("Ann", "Abe"), black=("Ivy",), mode="three_player", start=False)
    for team in ("white", "black"):
        with pytest.raises(RuleError) as refused:
            table.do({"type": "join", "name": "Zed"}, Who("join", team))
        assert refused.value.code == "team_full"


def test_the_two_players_take_turns_as_encryptor():
    table = three()
    names = []
    for _ in range(4):
        names.append(table.game.player(table.encryptor(TEAM).seat).name)
        table.three_player_round()
    assert names == ["Ann", "Abe", "Ann", "Abe"]


def test_round_1_the_interceptor_may_not_intercept_and_only_the_decryption_counts():
    table = three()
    table.announce(TEAM)
    with pytest.raises(RuleError) as refused:
        table.guess(INTERCEPTOR, TEAM, table.code(TEAM))
    assert refused.value.code == "no_interception_round_one"
    events = table.guess(TEAM, TEAM, table.code(TEAM))
    assert [e["type"] for e in events] == ["guess_saved", "transmission_resolved", "round_started"]
    assert table.game.tokens[INTERCEPTOR].interceptions == 0


def test_a_failed_decryption_gives_the_interceptor_a_token_not_the_team_a_miscommunication():
    table = three()
    table.three_player_round(decrypted=False)
    assert table.game.tokens[INTERCEPTOR].interceptions == 1
    assert table.game.tokens[TEAM].miscommunications == 0
    assert table.game.phase == PLAYING


def test_one_transmission_can_give_the_interceptor_both_tokens_and_the_win_in_round_2():
    table = three()
    table.three_player_round()  # round 1: decrypted
    events = table.three_player_round(decrypted=False, intercepted=True)
    resolved = next(e for e in events if e["type"] == "transmission_resolved")
    assert resolved["intercepted"] and resolved["miscommunicated"]
    assert table.game.tokens[INTERCEPTOR].interceptions == 2
    assert table.game.phase == OVER
    assert (table.game.result.winners, table.game.result.reason) == ((INTERCEPTOR,), INTERCEPTOR_TOKENS)


def test_two_correct_interceptions_in_rounds_2_and_3_win_for_the_interceptor():
    table = three()
    table.three_player_round()
    table.three_player_round(intercepted=True)
    assert table.game.phase == PLAYING
    table.three_player_round(intercepted=True)
    assert table.game.result.winners == (INTERCEPTOR,)


def test_the_team_surviving_round_5_wins_with_no_tiebreak():
    table = three()
    for _ in range(4):
        table.three_player_round()
    table.three_player_round(intercepted=True)  # one token only by the end of round 5
    assert table.game.phase == OVER and table.game.tiebreak is None
    assert (table.game.result.winners, table.game.result.reason) == ((TEAM,), TEAM_SURVIVED)
    assert len(table.game.rounds) == 5


def test_the_interceptors_second_token_in_round_5_still_wins():
    table = three()
    table.three_player_round(decrypted=False)
    for _ in range(3):
        table.three_player_round()
    table.three_player_round(intercepted=True)
    assert table.game.result.winners == (INTERCEPTOR,)


def test_the_interceptor_cannot_announce_clues_or_decrypt():
    table = three()
    interceptor = table.seat(table.game.team_players(INTERCEPTOR)[0].seat)
    with pytest.raises(RuleError) as refused:
        table.do({"type": "announce_clues", "clues": ["a1", "b1", "c1"]}, interceptor)
    assert refused.value.code == "not_encryptor"
    with pytest.raises(RuleError) as refused:
        table.do({"type": "swap_keyword", "number": 1, "words": WORDS}, interceptor)
    assert refused.value.code == "no_keywords"


def test_the_encryptor_cannot_decrypt_so_the_teammate_does():
    table = three()
    table.announce(TEAM)
    with pytest.raises(RuleError) as refused:
        table.do({"type": "guess", "code": table.code(TEAM), "confirm": True}, table.encryptor(TEAM))
    assert refused.value.code == "encryptor_cannot_guess"


def test_a_wrong_interception_costs_the_interceptor_nothing():
    table = three()
    table.three_player_round()
    table.announce(TEAM)
    table.guess(INTERCEPTOR, TEAM, wrong(table.code(TEAM)))
    table.guess(TEAM, TEAM, table.code(TEAM))
    assert table.game.tokens[INTERCEPTOR].interceptions == 0
    assert table.game.tokens[INTERCEPTOR].miscommunications == 0
