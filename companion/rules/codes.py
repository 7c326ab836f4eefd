"""The code deck: the 24 ordered codes of three distinct digits from 1 to 4."""

from itertools import permutations
import random
import re

Code = tuple[int, int, int]

# A guess typed as text: three digits from 1 to 4, anything of " -.,/" around them ("314", "3-1-4", "3, 1, 4").
# The API's description of a guess (web/openapi.py) is this pattern.
_SEPARATORS = "[-., /]*"
GUESS_TEXT = re.compile("^" + _SEPARATORS + _SEPARATORS.join(["[1-4]"] * 3) + _SEPARATORS + "$")

ALL_CODES: tuple[Code, ...] = tuple(permutations((1, 2, 3, 4), 3))


def draw_code(rng: random.Random) -> Code:
    """Draw from the full deck: the card goes back after every round, so a code can recur."""
    return rng.choice(ALL_CODES)


def parse_guess(value: object) -> Code | None:
    """A guess is any three digits from 1 to 4 (a guess may repeat a digit; it is then simply wrong).

    Accepts [3, 1, 4], ["3", "1", "4"] or "314"/"3-1-4"; returns None when it is not a guess.
    """
    if isinstance(value, str):
        if not GUESS_TEXT.fullmatch(value):
            return None
        value = [c for c in value if c in "1234"]
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        return None
    digits = []
    for item in value:
        if isinstance(item, bool):
            return None
        digit = int(item) if isinstance(item, str) and len(item) == 1 and item in "1234" else item
        if not isinstance(digit, int) or not 1 <= digit <= 4:
            return None
        digits.append(digit)
    first, second, third = digits  # three, checked above
    return first, second, third
