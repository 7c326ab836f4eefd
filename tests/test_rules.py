"""The rules, case by case: every end-of-round case of rules.md and every FAQ question of the seeds."""

import random

import pytest

from companion.rules import (
    ALL_CODES,
    HOST,
    KEYWORD_GUESSING,
    KEYWORD_JUDGING,
    OVER,
    PLAYING,
    Who,
    RuleError,
    decide,
    replay,
)
from companion.rules.round_end import round_end
from companion.rules.events import EVENT_TYPES, EVENTS
from companion.rules.state import Tokens

from tools.driver import WORDS, Table, wrong

from .examples import EXAMPLES, play


def ended(table):
    return table.game.phase == OVER


def winners(table):
    return table.game.result.winners, table.game.result.reason


# --- setup ---------------------------------------------------------------------------------


def test_the_deck_holds_the_24_codes_of_three_distinct_digits():
    assert len(ALL_CODES) == 24 == len(set(ALL_CODES))
    assert all(len(set(c)) == 3 and set(c) <= {1, 2, 3, 4} for c in ALL_CODES)


def test_each_team_is_dealt_four_distinct_keywords_and_no_word_is_on_both_screens():
    for seed in range(50):
        keywords = Table(seed=seed).game.keywords
        assert len(keywords["white"]) == len(keywords["black"]) == 4
        assert len(set(keywords["white"]) | set(keywords["black"])) == 8


def test_duplicate_words_in_a_pack_never_put_one_word_on_both_screens():
    words = [
        "MOON",
        "MOON",
        "SHARK",
        "SHARK",
        "CASTLE",
        "FOREST",
        "PIANO",
        "ANCHOR",
        "ROBOT",
        "KEY",
        "LAMP",
        "RIVER",
        "TOWER",
        "CLOUD",
    ]
    for seed in range(50):
        keywords = Table(seed=seed, words=words).game.keywords
        assert len(set(keywords["white"]) | set(keywords["black"])) == 8


def test_encryptors_rotate_through_each_team_in_join_order():
    table = Table(white=("Ann", "Abe", "Amy"), black=("Bea", "Bob"))
    seen = []
    for _ in range(4):
        seen.append(
            (
                table.game.player(table.encryptor("white").seat).name,
                table.game.player(table.encryptor("black").seat).name,
            )
        )
        table.round()
    assert seen == [("Ann", "Bea"), ("Abe", "Bob"), ("Amy", "Bea"), ("Ann", "Bob")]


@pytest.mark.parametrize("white,black", [(("Ann",), ("Bea", "Bob")), (("A1", "A2", "A3", "A4"), ("Bea",))])
def test_the_game_starts_only_with_two_to_four_players_a_team(white, black):
    table = Table(white=white, black=black, start=False)
    with pytest.raises(RuleError) as refused:
        table.do({"type": "start", "words": WORDS}, HOST)
    assert refused.value.code == "team_size"


def test_a_fifth_player_cannot_join_a_team():
    table = Table(white=("A1", "A2", "A3", "A4"), start=False)
    with pytest.raises(RuleError, match="team_full"):
        table.do({"type": "join", "name": "A5"}, Who("join", "white"))


@pytest.mark.parametrize(
    "name,code",
    [
        ("A", "name_length"),
        ("x" * 21, "text_too_long"),
        ("   ", "name_required"),
        ("ann", "name_taken"),
        ("ÁNN", "name_taken"),
        (None, "name_required"),
        ("Bad\x00name", "text_has_control_characters"),
    ],
)
def test_names_are_two_to_twenty_characters_and_unique_in_a_team(name, code):
    table = Table(start=False)
    with pytest.raises(RuleError) as refused:
        table.do({"type": "join", "name": name}, Who("join", "white"))
    assert refused.value.code == code


def test_the_same_name_may_sit_on_the_other_team():
    table = Table(start=False)
    table.do({"type": "join", "name": "Ann"}, Who("join", "black"))
    assert [p.name for p in table.game.team_players("black")] == ["Bea", "Bob", "Ann"]


def test_only_the_host_starts_the_game():
    table = Table(start=False)
    with pytest.raises(RuleError, match="host_only"):
        table.do({"type": "start", "words": WORDS}, table.seat(1))


# --- clues ---------------------------------------------------------------------------------


def test_only_the_encryptor_announces_and_only_once():
    table = Table()
    teammate = table.guesser("white", "white")
    with pytest.raises(RuleError, match="not_encryptor"):
        table.do({"type": "announce_clues", "clues": ["a1", "b1", "c1"]}, teammate)
    table.announce("white", ["orbit", "pine", "fortress"])
    with pytest.raises(RuleError, match="stale"):  # a page names the round: a repeat is stale
        table.announce("white", ["other", "clues", "here"])
    with pytest.raises(RuleError, match="clues_already_announced"):  # without a target, still refused
        table.do({"type": "announce_clues", "clues": ["other", "clues", "here"]}, table.encryptor("white"))
    assert table.game.round.transmissions["white"].clues == ("orbit", "pine", "fortress")


@pytest.mark.parametrize(
    "clues,code",
    [
        (["", "b", "c"], "clue_empty"),
        (["a", "   ", "c"], "clue_empty"),
        (["a", "b"], "three_clues"),
        ("abc", "three_clues"),
        (["a", "b", 3], "clue_empty"),
        (["x" * 61, "b", "c"], "text_too_long"),
        (["tide", "Tide", "c"], "clue_repeated"),
    ],
)
def test_malformed_clues_are_refused(clues, code):
    table = Table()
    with pytest.raises(RuleError) as refused:
        table.announce("white", clues)
    assert refused.value.code == code
    assert table.game.round.transmissions["white"].clues is None


def test_a_clue_may_not_be_one_of_the_teams_own_keywords_ignoring_case_accents_and_plural():
    table = Table(
        words=[
            "MOON",
            "CAFÉ",
            "SHARK",
            "CASTLE",
            "FOREST",
            "PIANO",
            "ANCHOR",
            "ROBOT",
            "LAMP",
            "RIVER",
            "TOWER",
            "CLOUD",
        ],
        seed=3,
    )
    own = table.game.keywords["white"]
    for word in own:
        for variant in (
            word.lower(),
            word.title(),
            word.lower().replace("é", "e"),
            word.lower() + "s",
            f"the {word.lower()} of it",
        ):
            with pytest.raises(RuleError, match="clue_is_keyword"):
                table.announce("white", [variant, "zzz1", "zzz2"])
    other_word = table.game.keywords["black"][0]
    table.announce("white", [other_word, "zzz1", "zzz2"])  # the other team's word is only a clue


def test_a_clue_may_not_give_a_digit_of_the_code():
    """The Korean rulebook: the code's digits are never a clue; caught as a whole word, in any digit form."""
    table = Table()
    code = table.game.round.transmissions["white"].code
    digit, absent = code[1], next(d for d in (1, 2, 3, 4) if d not in code)
    for clue in (str(digit), f"number {digit}", f"{digit}!", chr(0xFF10 + digit)):  # ３ is a full-width 3
        with pytest.raises(RuleError, match="clue_is_code_digit"):
            table.announce("white", ["zzz0", clue, "zzz2"])
        assert table.game.round.transmissions["white"].clues is None
    # Another digit, or a number that merely contains one, is left to the table's judgement.
    table.announce("white", [str(absent), f"catch 2{digit}", "zzz2"])


def test_a_clue_the_team_already_used_is_refused_in_a_later_round():
    table = Table()
    table.announce("white", ["Orbit", "pine", "fortress"])
    table.announce("black", ["wave", "fin", "tower"])
    table.transmission("white")
    table.transmission("black")
    with pytest.raises(RuleError, match="clue_reused"):
        table.announce("white", ["ORBIT", "new", "ones"])
    table.announce("black", ["orbit", "fresh", "words"])  # the other team may use it


# --- transmissions -------------------------------------------------------------------------


def test_white_transmits_first_once_both_encryptors_have_announced():
    table = Table()
    table.announce("white")
    with pytest.raises(RuleError, match="clues_not_announced"):
        table.guess("white", "white", table.code("white"))
    table.announce("black")
    assert table.game.round.current.team == "white"
    table.transmission("white")
    assert table.game.round.current.team == "black"


def test_the_encryptor_takes_no_part_in_the_own_teams_guess():
    table = Table()
    table.round()
    table.announce("white")
    table.announce("black")
    with pytest.raises(RuleError, match="encryptor_cannot_guess"):
        table.do({"type": "guess", "code": [1, 2, 3]}, table.encryptor("white"))
    # ...but Black's Encryptor may help Black intercept White's code.
    table.do({"type": "guess", "code": [1, 2, 3]}, table.encryptor("black"))


def test_no_interception_in_round_one_only_decryptions_are_scored():
    table = Table()
    table.announce("white")
    table.announce("black")
    with pytest.raises(RuleError, match="no_interception_round_one"):
        table.guess("black", "white", table.code("white"))
    events = table.guess("white", "white", wrong(table.code("white")))
    resolved = events[-1]
    assert resolved["type"] == "transmission_resolved" and resolved["intercepted"] is False
    assert table.game.tokens["white"].miscommunications == 1


def test_a_guess_can_change_until_confirmed_then_it_is_sealed():
    table = Table()
    table.announce("white")
    table.announce("black")
    table.guess("white", "white", [1, 2, 3], confirm=False)
    table.guess("white", "white", [4, 2, 3], confirm=False)
    assert table.game.round.current.decryption.code == (4, 2, 3)
    code = table.code("white")
    table.guess("white", "white", code, confirm=True)
    assert table.game.round.transmissions["white"].resolved
    table.quiet_rounds(0)
    table.transmission("black")
    table.announce("white")
    table.announce("black")
    table.guess("black", "white", [1, 2, 4])
    with pytest.raises(RuleError, match="stale"):  # naming White's transmission, as pages do
        table.guess("black", "white", [2, 1, 4])
    with pytest.raises(RuleError, match="guess_sealed"):
        table.do({"type": "guess", "code": [2, 1, 4]}, table.guesser("black", "white"))


@pytest.mark.parametrize("code", [[1, 1, 2], [0, 5, 9], [1, 2], "12", "abc", None, [True, 2, 3], 123, [1.0, 2, 3]])
def test_malformed_guesses_are_refused(code):
    table = Table()
    table.announce("white")
    table.announce("black")
    if code == [1, 1, 2]:
        # A repeated digit is a well-formed (certainly wrong) guess: the table may write anything.
        table.guess("white", "white", code, confirm=False)
        return
    with pytest.raises(RuleError, match="guess_malformed"):
        table.do({"type": "guess", "code": code}, table.guesser("white", "white"))


def test_one_transmission_can_give_both_tokens_at_once():
    table = Table()
    table.round()
    table.announce("white")
    table.announce("black")
    events = table.transmission("white", decrypted=False, intercepted=True)
    assert events[-1]["intercepted"] and events[-1]["miscommunicated"]
    assert table.game.tokens["black"].interceptions == 1
    assert table.game.tokens["white"].miscommunications == 1


def test_a_wrong_interception_costs_nothing_and_a_right_decryption_earns_nothing():
    table = Table()
    table.round()
    table.announce("white")
    table.announce("black")
    table.transmission("white", decrypted=True, intercepted=False)
    assert table.game.tokens["white"].interceptions == table.game.tokens["white"].miscommunications == 0
    assert table.game.tokens["black"].interceptions == table.game.tokens["black"].miscommunications == 0


# --- end of a round ------------------------------------------------------------------------


def test_two_interceptions_win():
    table = Table()
    table.round()
    table.round(white=(True, False), black=(True, True))
    assert not ended(table)
    table.round(white=(True, False), black=(True, True))
    assert winners(table) == (("white",), "interceptions")


def test_two_miscommunications_lose():
    table = Table()
    table.round(black=(False, False))
    table.round(black=(False, False))
    assert winners(table) == (("white",), "miscommunications")


def test_one_team_winning_while_the_other_loses_is_a_plain_win():
    table = Table()
    table.round(black=(False, False))  # Black: 1 Miscommunication
    table.round(black=(True, True))  # White: 1 Interception
    table.round(black=(False, True))  # both at once: White wins twice over
    assert winners(table) == (("white",), "interceptions_and_miscommunications")


def test_a_team_that_both_wins_and_loses_goes_to_the_tiebreak():
    table = Table()
    table.round(white=(False, False))
    table.round(white=(True, False), black=(True, True))
    assert not ended(table)
    table.round(white=(False, False), black=(True, True))  # White: 2 Interceptions and 2 Miscommunications
    assert table.game.phase in (OVER, KEYWORD_GUESSING)
    assert table.game.tokens["white"].score == 0 and table.game.tokens["black"].score == 0
    assert table.game.phase == KEYWORD_GUESSING and table.game.tiebreak.cause == "collision"


def test_both_teams_reaching_two_interceptions_in_one_round_is_a_collision():
    table = Table()
    table.round()
    table.round(white=(True, True), black=(True, True))
    table.round(white=(True, True), black=(True, True))
    assert table.game.phase == KEYWORD_GUESSING and table.game.tiebreak.cause == "collision"


def test_both_teams_reaching_two_miscommunications_in_one_round_is_a_collision():
    table = Table()
    table.round(white=(False, False), black=(False, False))
    table.round(white=(False, False), black=(False, False))
    assert table.game.phase == KEYWORD_GUESSING and table.game.tiebreak.cause == "collision"


def test_a_collision_is_decided_by_score_when_scores_differ():
    table = Table()
    table.round(white=(False, False))  # White: 1 Miscommunication
    table.round(white=(True, True), black=(True, True))  # 1 Interception each
    table.round(white=(True, True), black=(True, True))  # 2 each: collision; White 2-1, Black 2-0
    assert winners(table) == (("black",), "score")
    assert table.game.phase == OVER


def test_the_game_lasts_at_most_eight_rounds_then_goes_to_the_tiebreak():
    table = Table()
    table.quiet_rounds(7)
    assert table.game.phase == PLAYING and table.game.round.number == 8
    table.round()
    assert table.game.phase == KEYWORD_GUESSING and table.game.tiebreak.cause == "round_limit"
    assert len(table.game.rounds) == 8


def test_after_eight_rounds_the_higher_score_wins():
    table = Table()
    table.quiet_rounds(6)
    table.round(white=(True, True))  # Black intercepts once
    table.round()
    assert winners(table) == (("black",), "score")
    assert table.events[-1]["cause"] == "round_limit"


def test_a_win_in_round_eight_is_a_win_not_a_tiebreak():
    table = Table()
    table.quiet_rounds(6)
    table.round(black=(False, False))
    table.round(black=(False, False))
    assert winners(table) == (("white",), "miscommunications")


def keyword_tiebreak_table():
    table = Table()
    table.quiet_rounds(8)
    assert table.game.phase == KEYWORD_GUESSING
    return table


def test_the_keyword_tiebreak_proposes_matches_and_the_table_decides():
    from companion.rules import proposed_verdicts

    table = keyword_tiebreak_table()
    black_words = table.game.keywords["black"]
    white_words = table.game.keywords["white"]
    table.do(
        {"type": "keyword_guesses", "guesses": [black_words[0].lower() + "s", "nope", black_words[2], "x"]},
        table.seat(1),
    )
    with pytest.raises(RuleError, match="keyword_guesses_sealed"):
        table.do({"type": "keyword_guesses", "guesses": ["a", "b", "c", "d"]}, table.seat(2))
    table.do({"type": "keyword_guesses", "guesses": [white_words[1], white_words[0], "", "y"]}, table.seat(3))
    assert table.game.phase == KEYWORD_JUDGING
    proposal = proposed_verdicts(table.game)
    assert proposal == {"white": [True, False, True, False], "black": [False, False, False, False]}
    # The table accepts one of Black's answers as a clear synonym: 2 against 1.
    with pytest.raises(RuleError, match="host_only"):
        table.do({"type": "judge_keywords", "verdicts": proposal}, table.seat(1))
    table.do(
        {
            "type": "judge_keywords",
            "verdicts": {"white": [True, False, True, False], "black": [False, False, False, True]},
        },
        HOST,
    )
    assert winners(table) == (("white",), "keywords")


def test_a_tie_on_keywords_shares_the_victory():
    table = keyword_tiebreak_table()
    table.do({"type": "keyword_guesses", "guesses": ["a", "b", "c", "d"]}, table.seat(1))
    table.do({"type": "keyword_guesses", "guesses": ["e", "f", "g", "h"]}, table.seat(3))
    table.do({"type": "judge_keywords", "verdicts": {"white": [False] * 4, "black": [False] * 4}}, HOST)
    assert winners(table) == (("white", "black"), "shared")


@pytest.mark.parametrize(
    "verdicts",
    [
        None,
        {},
        {"white": [True] * 4},
        {"white": [1, 0, 0, 0], "black": [False] * 4},
        {"white": [True] * 3, "black": [False] * 4},
        [True] * 8,
    ],
)
def test_malformed_verdicts_are_refused(verdicts):
    table = keyword_tiebreak_table()
    table.do({"type": "keyword_guesses", "guesses": ["a", "b", "c", "d"]}, table.seat(1))
    table.do({"type": "keyword_guesses", "guesses": ["e", "f", "g", "h"]}, table.seat(3))
    with pytest.raises(RuleError, match="verdicts_malformed"):
        table.do({"type": "judge_keywords", "verdicts": verdicts}, HOST)


@pytest.mark.parametrize(
    "tokens,round_number,expected",
    [
        ({"white": (0, 0), "black": (0, 0)}, 3, None),
        ({"white": (2, 0), "black": (0, 0)}, 3, ("win", ("white", "interceptions"))),
        ({"white": (0, 0), "black": (0, 2)}, 3, ("win", ("white", "miscommunications"))),
        ({"white": (2, 0), "black": (0, 2)}, 3, ("win", ("white", "interceptions_and_miscommunications"))),
        ({"white": (2, 2), "black": (0, 0)}, 3, ("tiebreak", "collision")),
        ({"white": (2, 0), "black": (2, 0)}, 3, ("tiebreak", "collision")),
        ({"white": (0, 2), "black": (0, 2)}, 3, ("tiebreak", "collision")),
        ({"white": (1, 1), "black": (1, 1)}, 8, ("tiebreak", "round_limit")),
        ({"white": (0, 0), "black": (2, 1)}, 8, ("win", ("black", "interceptions"))),
    ],
)
def test_round_end_table(tokens, round_number, expected):
    assert round_end({t: Tokens(*v) for t, v in tokens.items()}, round_number) == expected


# --- the seeds' FAQ ------------------------------------------------------------------------


def test_faq_can_we_stop_immediately_on_earning_our_second_interception_token():
    """No: both transmissions of the round finish before the outcome is judged."""
    table = Table()
    table.round()
    table.round(white=(True, True), black=(True, True))  # one Interception each
    table.announce("white")
    table.announce("black")
    table.transmission("white", decrypted=True, intercepted=True)  # Black's second Interception
    assert table.game.tokens["black"].interceptions == 2
    assert table.game.phase == PLAYING and table.game.round.current.team == "black"
    table.transmission("black", decrypted=True, intercepted=True)  # ...and White catches up in the same round
    assert table.game.phase == KEYWORD_GUESSING and table.game.tiebreak.cause == "collision"


def test_faq_can_three_players_simply_form_a_team_against_one_person():
    """Not with the standard rules: a standard game needs two teams of two to four players."""
    table = Table(white=("Ann", "Abe"), black=("Bea",), start=False)
    with pytest.raises(RuleError, match="team_size"):
        table.do({"type": "start", "words": WORDS}, HOST)


def test_faq_must_an_interception_identify_the_opposing_keywords():
    """No: the right three numbers in the right order are an interception."""
    table = Table()
    table.round()
    table.announce("white")
    table.announce("black")
    events = table.transmission("white", intercepted=True)
    assert events[-1]["intercepted"] and table.game.tokens["black"].interceptions == 1


def test_faq_is_the_thirty_second_timer_a_compulsory_countdown():
    """No: it is a pacing aid; an Encryptor who takes long is never refused or penalised."""
    table = Table(timer=30)
    table.do({"type": "announce_clues", "clues": ["alpha", "beta", "gamma"], "at": 1000.0}, table.encryptor("white"))
    late = {"type": "announce_clues", "clues": ["delta", "epsilon", "zeta"], "at": 1000.0 + 600}
    events = table.do(late, table.encryptor("black"))
    assert [e["type"] for e in events] == ["clues_announced"]
    assert table.game.tokens["black"].miscommunications == 0


def test_faq_can_a_code_recur_in_the_next_round():
    """Yes: the code goes back into the deck, so the next round may draw the same code."""
    for seed in range(200):
        table = Table(seed=seed)
        first = table.code("white")
        table.round()
        if table.code("white") == first:
            break
    else:
        pytest.fail("no seed in 200 drew the same code twice in a row: the deck is not reshuffled")
    assert table.game.round.number == 2


# --- the log -------------------------------------------------------------------------------


def test_replaying_the_log_gives_the_same_state():
    table = Table()
    table.round(black=(False, True))
    table.round(white=(True, True))
    assert replay(table.events) == table.game


def test_an_illegal_command_changes_nothing():
    table = Table()
    before = replay(table.events)
    for command, actor in [
        ({"type": "guess", "code": [1, 2, 3]}, table.seat(2)),
        ({"type": "start", "words": WORDS}, HOST),
        ({"type": "join", "name": "Zed"}, Who("join", "white")),
        ({"type": "nonsense"}, HOST),
    ]:
        with pytest.raises(RuleError):
            decide(table.game, command, actor, random.Random(1))
    assert table.game == before


def test_commands_after_the_game_ended_are_refused():
    table = Table()
    table.round(black=(False, False))
    table.round(black=(False, False))
    with pytest.raises(RuleError, match="game_over"):
        table.announce("white")


# --- readings found while writing docs/rules.md -------------------------------------------


def test_teams_must_be_as_even_as_possible():
    table = Table(white=("A1", "A2", "A3", "A4"), black=("B1", "B2"), start=False)
    with pytest.raises(RuleError) as refused:
        table.do({"type": "start", "words": WORDS}, HOST)
    assert refused.value.code == "teams_uneven" and refused.value.params["team"] == "white"
    Table(white=("A1", "A2", "A3"), black=("B1", "B2"))  # 3 against 2 is as even as 5 players get


def test_a_seated_player_switches_teams_in_the_lobby():
    table = Table(white=("A1", "A2", "A3", "A4"), black=("B1", "B2"), start=False)
    table.do({"type": "join", "name": "A4"}, Who("join", "black", seat=4))
    assert [p.name for p in table.game.team_players("white")] == ["A1", "A2", "A3"]
    assert [p.name for p in table.game.team_players("black")] == ["B1", "B2", "A4"]
    with pytest.raises(RuleError, match="already_seated"):
        table.do({"type": "join", "name": "A4b"}, Who("join", "black", seat=7))
    table.do({"type": "start", "words": WORDS}, HOST)
    assert replay(table.events) == table.game


def test_words_that_differ_only_in_case_accents_or_plural_never_go_to_both_teams():
    words = [
        "MOON",
        "Moon",
        "MOONS",
        "Café",
        "CAFE",
        "ANT",
        "ANTS",
        "box",
        "BOXES",
        "KEY",
        "ROBOT",
        "PIANO",
        "SHARK",
        "FOREST",
        "LAMP",
        "RIVER",
        "TOWER",
    ]
    for seed in range(100):
        keywords = Table(seed=seed, words=words).game.keywords
        dealt = [
            w.upper().replace("É", "E").rstrip("S").removesuffix("E") for w in keywords["white"] + keywords["black"]
        ]
        assert len(set(dealt)) == 8, keywords


def test_a_keyword_of_several_words_is_caught_only_as_whole_words():
    from companion.rules.words import contains_word

    assert contains_word("a big ice cream cone", "ICE CREAM")
    assert contains_word("ice creams", "ice cream")
    assert not contains_word("nice creamy", "ICE CREAM")


def test_clues_with_control_characters_are_refused_but_emoji_sequences_are_fine():
    table = Table()
    with pytest.raises(RuleError, match="text_has_control_characters"):
        table.announce("white", ["evil\u202etext", "b1", "c1"])
    table.announce("white", ["👩‍🚀", "b1", "c1"])


def test_a_score_decided_tiebreak_keeps_its_cause():
    table = Table()
    table.quiet_rounds(6)
    table.round(white=(True, True))
    table.round()
    assert table.game.result.cause == "round_limit" and table.game.result.reason == "score"


def test_the_note_sheet_columns_file_each_clue_under_its_true_number():
    from companion.views import SPECTATOR, view_for

    table = Table()
    table.announce("white", ["orbit", "pine", "fortress"])
    code = table.code("white")
    table.announce("black")
    table.transmission("white")
    columns = view_for(table.game, SPECTATOR)["teams"]["white"]["columns"]
    for clue, number in zip(["orbit", "pine", "fortress"], code, strict=True):
        assert columns[number - 1] == [{"clue": clue, "round": 1}]
    assert sum(len(c) for c in columns) == 3


def test_every_code_can_be_drawn_and_production_draws_from_the_system_generator():
    from companion.games import GameService
    from companion.rules import draw_code

    rng = random.Random(1)
    assert {draw_code(rng) for _ in range(2000)} == set(ALL_CODES)
    assert isinstance(GameService(store=None).rng, random.SystemRandom)


@pytest.mark.parametrize("event", EVENTS, ids=[event.TYPE for event in EVENTS])
def test_every_event_has_an_example_that_makes_it_and_makes_only_known_events(event):
    assert event in EXAMPLES, f"declare a small example of {event.TYPE} in tests/examples.py"
    made = [stored["type"] for stored in play(event).events]
    assert event.TYPE in made
    assert set(made) <= set(EVENT_TYPES)
