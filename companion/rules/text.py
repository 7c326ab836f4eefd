"""Input cleaning: what a player typed, as the rules keep it, or the RuleError saying what is wrong."""

from __future__ import annotations

import unicodedata
from collections import Counter

from .errors import RuleError
from .skeleton import BLANKS, ignorable
from .words import distinct_words

NAME_LENGTH = (2, 20)
CLUE_MAX_LENGTH = 60
KEYWORD_GUESS_MAX_LENGTH = 40
NOTE_LINE_MAX_LENGTH = 80  # a team's free line on a round (rules/notes.py); a keyword note is a guess's length
WORD_MAX_LENGTH = 40
# Words a deal leaves undealt: with no spare word, a team would know the other's keywords as "the list minus
# ours"; with four, the other team's four keywords hide among eight words, as many decoys as keywords.
UNDEALT_WORDS = 4
MIN_WORDS = 2 * 4 + UNDEALT_WORDS  # a custom list must hold at least this many distinct words (two teams' four)
MAX_WORDS = 500  # fits the request size limit with room to spare
TIMER_SECONDS = (10, 600)  # the sand timer's allowed lengths; 30 is the rulebook's
DEFAULT_TIMER = 30  # the rulebook's sand timer, offered first
LANGUAGES = ("en", "fr", "ko")  # each has a keyword pack and a catalogue
# Kept for emoji like 👩‍🚀 (elsewhere the comparisons ignore it: words.normalize); every other format
# character is refused.
_ZERO_WIDTH_JOINER = "\u200d"


def clean_text(value: object, max_length: int, error: str) -> str:
    """Trimmed text with single spaces; refuses non-strings, control characters and overlong text."""
    if not isinstance(value, str):
        raise RuleError(error)
    text = " ".join(unicodedata.normalize("NFC", value).split())
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") and c != _ZERO_WIDTH_JOINER for c in text):
        raise RuleError("text_has_control_characters")
    if len(text) > max_length:
        raise RuleError("text_too_long", limit=max_length)
    return text if _visible(text) else ""  # a text nobody can see counts as empty


def _visible(text: str) -> bool:
    """At least one character that prints: a letter, digit, punctuation mark or symbol (the Hangul fillers
    are letters that print as nothing: default-ignorable; the BLANKS symbols that print as a space)."""
    return any(unicodedata.category(c)[0] in "LNPS" and c not in BLANKS and not ignorable(c) for c in text)


def custom_words(text: object) -> list[str]:
    """The host's own word list (one per line, or separated by commas), or the RuleError saying what is wrong."""
    if not isinstance(text, str):
        raise RuleError("words_malformed")
    words = [clean_text(w, WORD_MAX_LENGTH, "words_malformed") for line in text.splitlines() for w in line.split(",")]
    words = [w for w in words if w]
    if len(words) > MAX_WORDS:
        raise RuleError("too_many_words", max=MAX_WORDS)
    distinct = distinct_words(words)
    if len(distinct) < MIN_WORDS:
        repeated = sorted(Counter(words) - Counter(distinct))  # every copy after a word's first
        raise RuleError(
            "too_few_words", count=len(distinct), min=MIN_WORDS, repeated=", ".join(repeated) if repeated else "-"
        )
    return distinct
