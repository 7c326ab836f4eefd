"""Loading word packs from the project's `keywords/` folder (one word per line)."""

from functools import cache
from pathlib import Path

KEYWORDS_DIR = Path(__file__).resolve().parent.parent / "keywords"


@cache
def load_pack(language: str) -> tuple[str, ...]:
    path = KEYWORDS_DIR / f"{language}.txt"
    words = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return tuple(dict.fromkeys(w for w in words if w and not w.startswith("#")))
