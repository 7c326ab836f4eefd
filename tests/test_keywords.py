"""The English word pack: enough words, one per line, no word that is another word again."""

import re

from companion.keywords import KEYWORDS_DIR, load_pack
from companion.rules.words import distinct_words


def test_the_english_pack_has_at_least_500_clean_distinct_words():
    lines = (KEYWORDS_DIR / "en.txt").read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 500
    assert all(re.fullmatch(r"[A-Z]{3,12}", line) for line in lines), "one upper-case word per line"
    assert distinct_words(lines) == lines, "a word repeats (ignoring case, accents and a plural ending)"
    assert load_pack("en") == tuple(lines)
