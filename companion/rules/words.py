"""Comparing words as a table would: ignoring case, accents, spacing, punctuation and a plural ending, and
what a reader can't see (invisible characters, a look-alike letter from another script or a letter-like form
such as a small capital: see skeleton.py).

Used for the mechanical clue checks (no own keyword, no reuse) and for proposing matches in the
keyword tiebreak. The table keeps the last word on anything subtler (synonyms, translations).

Spacing and punctuation make no new word: "ice cream", "ice-cream" and "icecream" are one clue, and a clue
spelling a keyword with spaces, dashes or dots between its letters ("O T T E R", "OT-TER") is that keyword.
Symbols and emoji do count ("🍦 cream" is not "cream").

Languages: English and French plurals (-s, -es, -x, French -aux for -al); Korean has no case, and
a noun carries its particle or plural marker in the same word (사과를, 사과들), so those are
stripped too. NFKC folds compatibility forms (full-width letters, compatibility jamo ㄱ) and
decomposed accents or Hangul to one spelling.
"""

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from .skeleton import BLANKS, skeleton

_PLURAL_ENDINGS = ("es", "s", "x")
# What Korean attaches to a noun: the plural 들 and common particles (longest first).
_KOREAN_ENDINGS = (
    "들에게",
    "에게서",
    "으로",
    "에서",
    "에게",
    "까지",
    "부터",
    "처럼",
    "보다",
    "들",
    "은",
    "는",
    "이",
    "가",
    "을",
    "를",
    "의",
    "에",
    "로",
    "와",
    "과",
    "도",
    "만",
)
_LONGEST_ENDING = max(map(len, _PLURAL_ENDINGS + _KOREAN_ENDINGS))
_BLANK_TO_SPACE = str.maketrans(dict.fromkeys(BLANKS, " "))


@lru_cache(maxsize=4096)  # a game compares the same few words again and again
def normalize(text: str) -> str:
    """Fold a word or phrase to a comparable form: NFKC, casefold, its skeleton (no invisible characters,
    look-alikes made one), no accents, single spaces (a blank-looking character is a space)."""
    # The skeleton before case folding: a Cyrillic capital Т looks like T, its small т not like t.
    text = skeleton(unicodedata.normalize("NFKC", text)).casefold()
    decomposed = unicodedata.normalize("NFKD", text)
    without_marks = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(unicodedata.normalize("NFC", without_marks).translate(_BLANK_TO_SPACE).split())


def _compact(folded: str) -> str:
    """A folded text without its spaces and punctuation ("ice-cream" -> "icecream", "o t t e r" -> "otter");
    a text of nothing else stays as it is ("?!" is not "...")."""
    kept = "".join(c for c in folded if not c.isspace() and unicodedata.category(c)[0] != "P")
    return kept or folded


def _is_hangul(char: str) -> bool:
    return "\uac00" <= char <= "\ud7a3"


def _singulars(word: str) -> set[str]:
    """The word and what it would be without a plural ending (CAFES -> CAFE, BOXES -> BOX,
    CHEVAUX -> CHEVAL) or, in Korean, without its particle or plural marker (사과를 -> 사과)."""
    forms = {word}
    if word and _is_hangul(word[-1]):
        # Only a stem of two syllables or more: 종이 (paper) is not 종 (bell) with a particle. A
        # one-syllable keyword with a particle is left to the table (a missed catch, never a false one).
        forms |= {
            word[: -len(ending)] for ending in _KOREAN_ENDINGS if word.endswith(ending) and len(word) - len(ending) >= 2
        }
        return forms
    forms |= {
        word[: -len(ending)] for ending in _PLURAL_ENDINGS if word.endswith(ending) and len(word) - len(ending) >= 3
    }
    if word.endswith("aux") and len(word) >= 5:
        forms.add(word[:-3] + "al")
    return forms


def _same(a: str, b: str) -> bool:
    """Two folded words are one but for a plural ending (or Korean particle)."""
    return a in _singulars(b) or b in _singulars(a)


def same_word(a: str, b: str) -> bool:
    """True when two words or phrases are the same but for case, accents, spacing, punctuation or a plural
    ending."""
    return _same(_compact(normalize(a)), _compact(normalize(b)))


def words_of(phrase: str) -> list[str]:
    """The phrase's words: its runs of letters and digits (anything else parts them, the underscore too)."""
    return [w for w in re.split(r"[\W_]+", normalize(phrase)) if w]


def contains_word(phrase: str, word: str) -> bool:
    """True when `word` (or its plural) is the whole phrase, or is spelled by whole words of it in a row:
    "moon-walk" holds MOON ("moonlight" doesn't), and so do "the O T T E R" and "sea ot-ter" hold OTTER."""
    if same_word(phrase, word):
        return True
    target, words = "".join(words_of(word)), words_of(phrase)
    if not target:
        return False
    for start in range(len(words)):
        run = ""
        for part in words[start:]:
            run += part
            if _same(run, target):
                return True
            if len(run) > len(target) + _LONGEST_ENDING:
                break
    return False


def distinct_words(words: Iterable[str]) -> list[str]:
    """The words in order, leaving out any that is the same word as an earlier one (MOON, Moon, MOONS)."""
    kept: list[str] = []
    seen_words: set[str] = set()
    seen_forms: set[str] = set()
    for word in words:
        folded = _compact(normalize(word))
        if not folded or folded in seen_forms or _singulars(folded) & seen_words:
            continue
        kept.append(word)
        seen_words.add(folded)
        seen_forms |= _singulars(folded)
    return kept
