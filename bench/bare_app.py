"""The ceiling: a bare Flask endpoint returning a short string, served by the same gunicorn setup.

`gunicorn bench.bare_app:app` (bench/server.py starts it with production's arguments)."""

from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello():
    return "hello"


@app.get("/healthz")
def healthz():
    return {"status": "ok"}
