"""gunicorn reads this file from the folder it starts in (scripts/serve names it explicitly).

Before forking any worker, the master migrates the database once: workers starting together on a fresh
database used to race to create the same tables and kill the whole server ("Worker failed to boot").
"""


def on_starting(server):
    from companion.migrate import migrate
    migrate()
