"""End of a round and the tiebreak, exactly as the rulebook orders them.

Checked only once both transmissions of a round are resolved, never in the middle of a round.
"""

from collections.abc import Mapping, Sequence
from typing import Literal, TypedDict

from .state import MAX_ROUNDS, TEAMS, TOKENS_TO_END, Game, Tokens, other

# Why a game ended (the web layer words them for players).
INTERCEPTIONS = "interceptions"  # the winner intercepted twice
MISCOMMUNICATIONS = "miscommunications"  # the loser misread its own Encryptor twice
BOTH = "interceptions_and_miscommunications"
SCORE = "score"  # tiebreak step 1
KEYWORDS = "keywords"  # tiebreak step 2
SHARED = "shared"  # tiebreak step 3: still tied

# Why a tiebreak started.
COLLISION = "collision"
ROUND_LIMIT = "round_limit"

# What the end of a round leads to (`round_end`): a win, (team, reason), or a tiebreak, its cause.
Win = tuple[Literal["win"], tuple[str, str]]
TiebreakNeeded = tuple[Literal["tiebreak"], str]


def round_end(tokens: dict[str, Tokens], round_number: int) -> Win | TiebreakNeeded | None:
    """What the end of a round leads to.

    Returns ("win", (team, reason)), ("tiebreak", cause) or None to play the next round.
    Each condition *points* at a winner: 2 Interceptions at that team, 2 Miscommunications at the
    other team. One team pointed at is a win; both teams pointed at is a collision.
    """
    pointed: dict[str, set[str]] = {}  # team -> why it is pointed at
    for team in TEAMS:
        if tokens[team].interceptions >= TOKENS_TO_END:
            pointed.setdefault(team, set()).add(INTERCEPTIONS)
        if tokens[team].miscommunications >= TOKENS_TO_END:
            pointed.setdefault(other(team), set()).add(MISCOMMUNICATIONS)
    if len(pointed) == 2:
        return ("tiebreak", COLLISION)
    if len(pointed) == 1:
        [(winner, reasons)] = pointed.items()
        return ("win", (winner, BOTH if len(reasons) == 2 else reasons.pop()))
    if round_number >= MAX_ROUNDS:
        return ("tiebreak", ROUND_LIMIT)
    return None


def score_winner(tokens: dict[str, Tokens]) -> str | None:
    """Tiebreak step 1: the team with more Interceptions minus Miscommunications, or None if tied."""
    white, black = tokens["white"].score, tokens["black"].score
    if white == black:
        return None
    return "white" if white > black else "black"


def keyword_result(verdicts: Mapping[str, Sequence[bool]]) -> tuple[tuple[str, ...], str]:
    """Tiebreak steps 2 and 3: more keywords guessed right wins; a tie shares the victory."""
    right = {team: sum(bool(v) for v in verdicts[team]) for team in TEAMS}
    if right["white"] == right["black"]:
        return TEAMS, SHARED
    return (max(TEAMS, key=lambda team: right[team]),), KEYWORDS


class Standing(TypedDict):
    interceptions: int
    miscommunications: int
    score: int  # Interceptions minus Miscommunications


def standings(game: Game) -> dict[str, Standing]:
    """Each team's tokens and score, for views and the end screen."""
    return {
        team: {"interceptions": t.interceptions, "miscommunications": t.miscommunications, "score": t.score}
        for team, t in game.tokens.items()
    }
