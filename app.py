"""Entry point: `gunicorn app:app` or `flask --app app run`."""

import gc

from companion import create_app

app = create_app()

# What is loaded by now (modules, templates, the app) lives as long as the process: the garbage collector's
# full passes need not walk it again. They froze a busy worker for 50-90 ms each (docs/performance.md).
gc.freeze()
