"""Static files: fingerprinted addresses cached for a year, and compressed responses.

A page links `/static/app.css?v=<hash of its content>`: a phone downloads each version once, and a
poll or page reload never fetches it again (the hash changes when the file does).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Flask, request, url_for
from flask_compress import Compress

YEAR = 365 * 24 * 3600


def init_assets(app: Flask) -> None:
    fingerprints = {path.name: hashlib.sha256(path.read_bytes()).hexdigest()[:12]
                    for path in Path(app.static_folder).iterdir() if path.is_file()}

    addresses: dict[tuple[str, str], str] = {}

    def asset(filename: str) -> str:
        # Built once per file (and mount point): every page links four of them.
        key = (request.script_root, filename)
        address = addresses.get(key)
        if address is None:
            address = addresses[key] = url_for("static", filename=filename, v=fingerprints[filename])
        return address

    app.jinja_env.globals["asset"] = asset

    @app.after_request
    def _cache_static(response):
        # (206: a part of the file, as browsers ask for a video)
        if request.endpoint == "static" and response.status_code in (200, 206):
            name = (request.view_args or {}).get("filename")
            if request.args.get("v") and request.args.get("v") == fingerprints.get(name):
                response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
            else:
                response.headers["Cache-Control"] = "no-cache"     # revalidate by ETag
        return response

    app.config.setdefault("COMPRESS_MIMETYPES", ["text/html", "text/css", "application/javascript",
                                                 "text/javascript", "application/json", "image/svg+xml"])
    app.config.setdefault("COMPRESS_ALGORITHM", ["gzip"])
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    Compress(app)

    @app.after_request          # registered last, so it runs before compression
    def _let_static_compress(response):
        if request.endpoint == "static" and response.status_code == 200:
            response.direct_passthrough = False
            response.set_data(response.get_data())  # our few small files, read into memory, can be gzipped
        return response
