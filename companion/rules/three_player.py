"""The three-player game: two players form a team (with keywords and a code deck), the third is the
Interceptor, who has no keywords of their own.

- One transmission per round, by the team; its two players take turns as Encryptor.
- No interception in round 1.
- The Interceptor gets an Interception token for each correct interception, and another each time the
  team fails to decrypt its own code (instead of a Miscommunication token); both can come from one
  transmission.
- The Interceptor wins as soon as a round ends with 2 tokens; otherwise the team wins after round 5.
  There is no tiebreak.
"""

TEAM, INTERCEPTOR = "white", "black"  # the team plays behind the white screen
SIZES = {TEAM: 2, INTERCEPTOR: 1}
MAX_ROUNDS = 5
TOKENS_TO_WIN = 2

# Why a three-player game ended.
INTERCEPTOR_TOKENS = "interceptor_tokens"
TEAM_SURVIVED = "team_survived"


def round_end(interceptor_tokens: int, round_number: int) -> tuple[str, str] | None:
    """(winner, reason) once a round ends the game, else None."""
    if interceptor_tokens >= TOKENS_TO_WIN:
        return INTERCEPTOR, INTERCEPTOR_TOKENS
    if round_number >= MAX_ROUNDS:
        return TEAM, TEAM_SURVIVED
    return None
