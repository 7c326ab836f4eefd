"""gunicorn reads this file from the folder it starts in (scripts/serve names it explicitly).

Before forking any worker, the master migrates the database once: workers starting together on a fresh
database used to race to create the same tables and kill the whole server ("Worker failed to boot").
"""

# gunicorn's control socket (`gunicorn ctl`) is one path per user by default (~/.gunicorn/gunicorn.ctl):
# two servers on one machine (two tables, or the app beside its tests) would share it. Nothing uses it.
control_socket_disable = True

# No request header sets the app's mount point or path, not even a trusted proxy's: proxies pass a client's own
# headers on (Caddy does), and a made-up `SCRIPT_NAME` would root every link of its page elsewhere.
forwarder_headers = ""


def on_starting(server):
    # In a process of its own: the master imports nothing of the app, so nothing that gevent's workers
    # patch after the fork was set up before it (psycopg picks how it waits when first imported: imported
    # here, it waited without yielding to gevent, and one worker's LISTEN froze all of its streams).
    import subprocess
    import sys

    # A database it can't serve (newer than this release) stops the server here, with the sentence
    # companion.migrate printed, rather than a traceback from every worker.
    migrated = subprocess.run([sys.executable, "-m", "companion.migrate"], check=False)
    if migrated.returncode:
        sys.exit(migrated.returncode)


def on_exit(server):
    """A clean stop (SIGTERM, SIGINT, Ctrl+C), once every worker is gone: SQLite's write-ahead log is copied
    into the file, which alone then holds every game (it can be copied elsewhere: docs/operating.md)."""
    import subprocess
    import sys

    subprocess.run([sys.executable, "-m", "companion.cli", "checkpoint"], check=False)


def post_worker_init(worker):
    """Before the worker serves anything, its open files (raised to its hard limit as its app started) are
    shared out between the requests it serves at once and the streams it holds (web/stream_budget.py).

    A worker told to stop ends its streams at once (web/stream.py): a graceful restart then waits for no
    page, and each page reconnects to a worker that stays.

    The worker gives the memory it freed back to the system now and then (companion/heap.py), and writes the
    phones' marks it kept (companion/housekeeping.py)."""
    import threading
    import time

    from companion.heap import trim_while
    from companion.web.stream_budget import fit_worker

    fit_worker(worker)
    # Ctrl+C reaches every process of the terminal's group: the master then stops the workers (SIGQUIT). A
    # worker that also acted on the SIGINT itself exited twice and printed two tracebacks (SystemExit: 0).
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=trim_while, args=(lambda: worker.alive,), name="heap-trimmer", daemon=True).start()
    app = worker.wsgi
    if "games" in getattr(
        app, "extensions", {}
    ):  # idle games go as the worker starts, then now and then (companion/housekeeping.py)
        from companion.housekeeping import expire_while, write_seen_while

        threading.Thread(
            target=expire_while,
            args=(app.extensions["games"], app.config["EXPIRY_CHECK_SECONDS"], lambda: worker.alive),
            name="housekeeping",
            daemon=True,
        ).start()
        threading.Thread(
            target=write_seen_while,
            args=(app.extensions["games"], lambda: worker.alive),
            name="seen-marks",
            daemon=True,
        ).start()
    hub = getattr(worker.wsgi, "extensions", {}).get("push")
    if hub is None:
        return

    def close_when_stopping():
        while worker.alive:
            time.sleep(0.5)
        hub.close()

    threading.Thread(target=close_when_stopping, name="streams-closer", daemon=True).start()


def worker_exit(server, worker):
    """The phones' marks the worker kept are written before it goes (companion/seen.py)."""
    games = getattr(worker.wsgi, "extensions", {}).get("games")
    if games is not None:
        games.write_seen()


def post_fork(server, worker):
    """A stop asked for while a new worker is still starting is kept, not lost. Until the worker installs its
    own signal handlers (gevent's worker first patches the standard library, a second or more on a busy
    machine), it runs the master's, which only queue the signal in this forked copy of the master: the
    worker then served on until the master's graceful timeout (30 s) killed it."""
    import signal

    def stop(signum, frame):
        worker.alive = False

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT):
        signal.signal(signum, stop)
