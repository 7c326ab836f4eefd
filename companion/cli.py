"""`decrypto`: the one way to run and look after the app (docs/operating.md). Settings come from the
environment, as for the app (DATABASE_URL, PORT...).

    decrypto serve                 start the server (gunicorn), migrating the database first
    decrypto migrate               create or upgrade the database, then stop
    decrypto backup FILE           a copy of the database, taken while the server runs
    decrypto restore FILE          the database becomes that copy (SQLite: with the server stopped)
    decrypto expire                delete the games nobody played for GAME_EXPIRY_HOURS (servers also do it)
    decrypto drain SERVER [--ready] [--socket PATH]
                                   HAProxy sends a server no new connection (or takes it back)
    decrypto checkpoint            copy SQLite's log into its file (a clean stop does it)
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import backup, haproxy


def _database_url() -> str:
    from .app import database_url

    return database_url(os.environ.get("DATABASE_URL", ""))


def _serve(arguments: argparse.Namespace) -> None:
    from .serve import main as serve

    serve()


def _migrate(arguments: argparse.Namespace) -> None:
    from .migrate import migrate
    from .store import NewerSchema

    try:
        print(f"The database is at schema version {migrate()}.")
    except NewerSchema as refusal:
        raise backup.OperationRefused(f"{refusal}.") from None


def _backup(arguments: argparse.Namespace) -> None:
    backup.backup(_database_url(), Path(arguments.file))
    print(f"Backed up to {arguments.file}.")


def _restore(arguments: argparse.Namespace) -> None:
    backup.restore(_database_url(), Path(arguments.file))
    print(f"Restored from {arguments.file}: start the server again (./scripts/serve).")


def _expire(arguments: argparse.Namespace) -> None:
    from .app import create_app

    deleted = create_app().extensions["games"].expire_idle_games()
    print(f"Deleted {len(deleted)} game(s) nobody played for {os.environ.get('GAME_EXPIRY_HOURS', '72')} hours.")


def _drain(arguments: argparse.Namespace) -> None:
    state = "ready" if arguments.ready else "drain"
    haproxy.set_state(arguments.socket, arguments.server, state)
    print(f"HAProxy: {arguments.server} is now {state}.")


def _checkpoint(arguments: argparse.Namespace) -> None:
    backup.checkpoint(_database_url())


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(prog="decrypto", description="Run and look after Decrypto Companion.")
    commands = main.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("serve", help="start the server (gunicorn), migrating the database first").set_defaults(
        run=_serve
    )
    commands.add_parser("migrate", help="create or upgrade the database").set_defaults(run=_migrate)
    for name, run, what, means in (
        ("backup", _backup, "the file to write the copy to", "a copy of the database, taken while the server runs"),
        ("restore", _restore, "the backup", "the database becomes a backup (SQLite: with the server stopped)"),
    ):
        command = commands.add_parser(name, help=means)
        command.add_argument("file", help=what)
        command.set_defaults(run=run)
    commands.add_parser("expire", help="delete the games nobody played for GAME_EXPIRY_HOURS").set_defaults(run=_expire)
    drain = commands.add_parser("drain", help="HAProxy sends a server no new connection (--ready: takes it back)")
    drain.add_argument("server", help="the server's name in docs/haproxy.cfg's backend (app1, app2...)")
    drain.add_argument("--ready", action="store_true", help="take the server back instead")
    drain.add_argument(
        "--socket", default=haproxy.ADMIN_SOCKET, help=f"HAProxy's admin socket ({haproxy.ADMIN_SOCKET})"
    )
    drain.set_defaults(run=_drain)
    commands.add_parser("checkpoint", help="copy SQLite's log into its file (a clean stop does it)").set_defaults(
        run=_checkpoint
    )
    return main


def main(argv: list[str] | None = None) -> None:
    arguments = parser().parse_args(argv)
    try:
        arguments.run(arguments)
    except (backup.OperationRefused, ValueError, OSError) as refused:
        sys.exit(f"decrypto {arguments.command}: {refused}")


if __name__ == "__main__":
    main()
