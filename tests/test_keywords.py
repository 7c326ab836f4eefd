"""The English word pack: enough words, one per line, no word that is another word again."""

import re
import unicodedata

from companion.keywords import KEYWORDS_DIR, load_pack
from companion.rules.words import distinct_words


def test_the_english_pack_has_at_least_500_clean_distinct_words():
    lines = (KEYWORDS_DIR / "en.txt").read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 500
    assert all(re.fullmatch(r"[A-Z]{3,12}", line) for line in lines), "one upper-case word per line"
    assert distinct_words(lines) == lines, "a word repeats (ignoring case, accents and a plural ending)"
    assert load_pack("en") == tuple(lines)


def test_the_french_and_korean_packs_have_at_least_500_clean_distinct_words():
    patterns = {"fr": r"[A-ZÀÂÆÇÉÈÊËÎÏÔŒÙÛÜŸ]{2,14}", "ko": r"[\uac00-\ud7a3]{1,6}"}
    for language, pattern in patterns.items():
        words = list(load_pack(language))
        assert len(words) >= 500, language
        assert all(re.fullmatch(pattern, w) for w in words), f"{language}: one word per line, in its script"
        assert distinct_words(words) == words, f"{language}: a word repeats (the app would see it as the same)"
        assert all(unicodedata.normalize("NFC", w) == w for w in words), f"{language}: not in NFC"
