"""Which release of the app serves: a digest of its code, templates, script, styles and words, the same on
every server that runs the same files. Every ETag starts with it (web/auth.py `Caller.etag`), so that after an
upgrade no page or API client is told it is current (304) by a version counted another way, or by a page the
new templates draw otherwise; a page's script that sees it change loads the page anew (static/live.js)."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("companion/**/*.py", "companion/**/*.txt", "templates/**/*.html", "static/*", "translations/*/*/*.po")


@cache
def release() -> str:
    """Eight hex digits naming the files this process serves (read once, at its first answer)."""
    digest = hashlib.sha256()
    for pattern in SHIPPED:
        for path in sorted(ROOT.glob(pattern)):
            if path.is_file():
                digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:8]
