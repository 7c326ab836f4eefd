"""What a text looks like, for comparing it: invisible characters left out, look-alike letters made one.

Two players can type texts that print the same and differ underneath: `ot‍ter` with a zero-width joiner
inside, `Аnn` with a Cyrillic А, or `ᴏᴛᴛᴇʀ` in small capitals. The clue and name checks compare skeletons,
after Unicode's confusable detection (UTS #39, section 4): each character is replaced by the prototype it is
confusable with, from Unicode's `confusables.txt` (kept reduced in `confusables.txt` beside this file; see
`scripts/update-confusables`). What the players typed is kept and shown as typed; only comparisons use this.

Before that, a letter-like form stands for the letter its Unicode name says it is (`plain_letter`): a small
capital (`ᴛ`, LATIN LETTER SMALL CAPITAL T) for the capital T, an enclosed letter (`🅾`, NEGATIVE SQUARED
LATIN CAPITAL LETTER O) for O, a letter with a hook, tail or stroke (`ƈ`, LATIN SMALL LETTER C WITH HOOK) for
c, as an accented letter stands for its letter. The confusables data misses most of these (it maps `ᴏ` but
not `ᴛ`), and the names say it for every script at once, with no list to keep. Fullwidth, mathematical,
circled, superscript and modifier letters are NFKC's (words.normalize) before this.

Where this differs from the UTS #39 skeleton, on purpose:
- ASCII stands for itself, so plain typing never turns into another word: the skeleton would make `rn`
  and `m` one (BURN would refuse the clue "bum"), or `l`, `I` and `1`.
- A Hangul syllable stands for itself: the skeleton would split it into its letters, and the Korean
  comparisons (a particle after a noun) work on syllables.
- A zero-width joiner between two symbols stays: it makes one emoji of two (👩‍🚀 is not 👩🚀).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from pathlib import Path

_DATA = Path(__file__).with_name("confusables.txt")
_ZERO_WIDTH_JOINER = "\u200d"
# Default_Ignorable_Code_Point (Unicode 15.0, DerivedCoreProperties.txt): characters that print as nothing
# unless a font makes them part of something else.
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Characters that print as a blank space but are not whitespace (nor ignorable): the comparisons read them as
# spaces. The blank braille pattern, and a musical null notehead.
BLANKS = frozenset("\u2800\U0001d159")
# What may stand between an emoji and the joiner after it: a variation selector, a skin tone.
_EMOJI_MODIFIERS = frozenset("\ufe0e\ufe0f\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff")


def ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE)


def visible_only(text: str) -> str:
    """The text without its default-ignorable characters, but for a zero-width joiner inside an emoji."""
    kept = []
    for i, char in enumerate(text):
        if not ignorable(char) or (char == _ZERO_WIDTH_JOINER and _joins_emoji(text, i)):
            kept.append(char)
    return "".join(kept)


def _joins_emoji(text: str, i: int) -> bool:
    before = text[:i].rstrip("".join(_EMOJI_MODIFIERS))
    after = text[i + 1 :]
    return bool(before and after) and _symbol(before[-1]) and _symbol(after[0])


def _symbol(char: str) -> bool:
    return unicodedata.category(char) == "So"


# "<anything> <SCRIPT> <form> <LETTER>[ WITH <marks>]", the form saying its case: LATIN LETTER SMALL CAPITAL G,
# NEGATIVE SQUARED LATIN CAPITAL LETTER O, LATIN SMALL LETTER C WITH HOOK, GREEK LETTER SMALL CAPITAL GAMMA.
_LETTER_NAME = re.compile(
    r"(?:.+ )?(?P<script>[A-Z]+) "
    r"(?P<form>CAPITAL LETTER SMALL CAPITAL|LETTER SMALL CAPITAL|SMALL CAPITAL LETTER|"
    r"CAPITAL LETTER|SMALL LETTER) (?P<letter>[A-Z]+)(?: WITH (?P<marks>.+))?"
)
# Words of a name that make another shape of the letter, not the letter: ɐ (TURNED A), ℩ (TURNED IOTA).
_OTHER_SHAPE = frozenset(("TURNED", "REVERSED", "INVERTED", "SIDEWAYS"))


@lru_cache(maxsize=4096)  # the characters players type (a game uses a few hundred), never all of Unicode
def plain_letter(char: str) -> str:
    """The plain letter that a letter or a letter-like symbol is named after, in the case it shows (a small
    capital looks like a capital): ᴛ -> T, ɢ -> G, 🅾 -> O, ƈ -> c, ᴦ -> Γ; any other character itself."""
    if unicodedata.category(char)[0] not in "LS":  # not a combining letter, which sits on the one before
        return char
    name = unicodedata.name(char, "")
    found = _LETTER_NAME.fullmatch(name)
    if found is None or _OTHER_SHAPE & set(name.split()) or "LETTER" in (found["marks"] or ""):
        return char  # LATIN CAPITAL LETTER D WITH SMALL LETTER Z is two
    case = "SMALL" if found["form"] == "SMALL LETTER" else "CAPITAL"
    try:
        return unicodedata.lookup(f"{found['script']} {case} LETTER {found['letter']}")
    except KeyError:
        return char


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character -> its prototype; read once, on the first comparison."""
    table = {}
    for line in _DATA.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            source, prototype = line.split(";")
            table[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in prototype.split())
    return table


def skeleton(text: str) -> str:
    """The text as it looks: no ignorable characters, each letter-like form its plain letter, each character
    decomposed and replaced by its prototype (ASCII and Hangul syllables stand for themselves)."""
    prototypes = _prototypes()
    out = []
    for char in visible_only(text):
        if char.isascii() or "\uac00" <= char <= "\ud7a3":
            out.append(char)
            continue
        for part in unicodedata.normalize("NFD", plain_letter(char)):
            out.append(part if part.isascii() else prototypes.get(part, part))
    return unicodedata.normalize("NFD", "".join(out))
