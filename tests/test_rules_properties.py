"""Property tests: whatever the teams guess, the rules end the game exactly when the rulebook says."""

from hypothesis import given, settings, strategies as st

from companion.rules import KEYWORD_GUESSING, OVER, PLAYING, replay
from companion.rules.round_end import round_end
from companion.rules.state import MAX_ROUNDS

from tools.driver import Table

from .tier import examples

# Each round: (White decrypts, Black intercepts White, Black decrypts, White intercepts Black).
rounds = st.lists(
    st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans()), min_size=MAX_ROUNDS, max_size=MAX_ROUNDS
)


@settings(max_examples=examples(150), deadline=None)
@given(rounds, st.integers(0, 10_000))
def test_a_game_ends_exactly_when_the_rules_say(outcomes, seed):
    table = Table(seed=seed)
    for number, (white_ok, black_steals, black_ok, white_steals) in enumerate(outcomes, start=1):
        before = {t: (tok.interceptions, tok.miscommunications) for t, tok in table.game.tokens.items()}
        table.round(white=(white_ok, black_steals), black=(black_ok, white_steals))
        tokens = table.game.tokens
        # Tokens only grow, by at most one of each kind per team and round, and never pass 2.
        for team, (interceptions, miscommunications) in before.items():
            assert 0 <= tokens[team].interceptions - interceptions <= (1 if number > 1 else 0)
            assert 0 <= tokens[team].miscommunications - miscommunications <= 1
            assert tokens[team].interceptions <= 2 and tokens[team].miscommunications <= 2
        expected = round_end(tokens, number)
        if expected is None:
            assert table.game.phase == PLAYING and table.game.round.number == number + 1
            continue
        assert table.game.phase in (OVER, KEYWORD_GUESSING)
        if expected[0] == "win":
            assert table.game.result.winners == (expected[1][0],)
        else:
            scores = {t: tok.score for t, tok in tokens.items()}
            if scores["white"] != scores["black"]:
                assert table.game.result.winners == (max(scores, key=scores.get),)
            else:
                assert table.game.phase == KEYWORD_GUESSING
        break
    assert table.game.phase != PLAYING
    assert replay(table.events) == table.game
