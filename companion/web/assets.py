"""Static files: fingerprinted addresses cached for a year, and compressed responses.

A page links `/static/app.css?v=<hash of its content>`: a phone downloads each version once, and a
poll or page reload never fetches it again (the hash changes when the file does).
"""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

from flask import Flask, Response, request, url_for
from flask_compress import Compress

YEAR = 365 * 24 * 3600


def init_assets(app: Flask) -> None:
    assert app.static_folder is not None  # the app serves static/ (companion/app.py)
    fingerprints = {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        for path in Path(app.static_folder).iterdir()
        if path.is_file()
    }

    with app.test_request_context():  # (at the root: each request puts its own mount point before it)
        addresses = {
            name: url_for("static", filename=name, v=fingerprint) for name, fingerprint in fingerprints.items()
        }

    def asset(filename: str) -> str:
        # Built once per file, at start: every page links four of them.
        return request.script_root + addresses[filename]

    app.jinja_env.globals["asset"] = asset

    @app.after_request
    def _cache_static(response: Response) -> Response:
        # (206: a part of the file, as browsers ask for a video)
        if request.endpoint == "static" and response.status_code in (200, 206):
            name = (request.view_args or {}).get("filename", "")
            if request.args.get("v") and request.args.get("v") == fingerprints.get(name):
                response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
            else:
                response.headers["Cache-Control"] = "no-cache"  # revalidate by ETag
        return response

    app.config.setdefault(
        "COMPRESS_MIMETYPES",
        ["text/html", "text/css", "application/javascript", "text/javascript", "application/json", "image/svg+xml"],
    )
    app.config.setdefault("COMPRESS_ALGORITHM", ["gzip"])
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    # gzip's fastest level: half the CPU of the default (6) for a page, about 12 % more bytes (on a LAN, and
    # far below the 40 kB budget: tests/test_page_weight.py). Pages are compressed anew on every change.
    app.config.setdefault("COMPRESS_LEVEL", 1)
    # What it compresses answers its own If-None-Match already (a page or a view: 304 before anything is
    # rendered); its second check of the compressed page was 2 % of a changed page.
    app.config.setdefault("COMPRESS_EVALUATE_CONDITIONAL_REQUEST", False)
    Compress(app)

    gzipped: dict[str, bytes] = {}  # static file name -> its content, gzipped once at the best level

    @app.after_request  # registered last, so it runs before Flask-Compress (which then leaves it)
    def _static_gzipped(response: Response) -> Response:
        """Our few small static files, compressed once each at gzip's best level: pages are compressed at
        its fastest, on every change, but a file is downloaded once and then kept for a year."""
        if (
            request.endpoint == "static"
            and response.status_code == 200
            # (werkzeug's Accept is a list of (name, quality) whose `in` takes a name: mypy sees only the list.)
            and "gzip" in request.accept_encodings  # type: ignore[comparison-overlap]
            and response.mimetype in app.config["COMPRESS_MIMETYPES"]
        ):
            name = (request.view_args or {}).get("filename", "")
            if name not in gzipped:
                response.direct_passthrough = False
                gzipped[name] = gzip.compress(response.get_data(), 9, mtime=0)
            response.direct_passthrough = False
            response.set_data(gzipped[name])
            response.headers["Content-Encoding"] = "gzip"
            response.vary.add("Accept-Encoding")
            etag, weak = response.get_etag()
            if etag:
                response.set_etag(f"{etag}:gzip", weak=bool(weak))  # another representation, another validator
        return response
