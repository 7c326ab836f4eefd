"""Who can be asking is declared once (companion/rules/access.py): every kind of token the service stores is a
`Kind`, and no module compares a kind with a bare string."""

from __future__ import annotations

import ast
from pathlib import Path

from sqlalchemy import select

from companion.rules import HOST, Who
from companion.rules.access import Kind
from companion.rules.commands import BY_TYPE
from companion.store import capabilities
from tools.driver import ApiGame

COMPANION = Path(__file__).resolve().parent.parent / "companion"
KIND_STRINGS = {str(kind) for kind in Kind}


def stored_kinds(app, game_id: str) -> set[str]:
    with app.extensions["games"].store.engine.connect() as conn:
        query = select(capabilities.c.kind).where(capabilities.c.game_id == game_id)
        return set(conn.execute(query).scalars())


def test_every_kind_the_service_stores_is_a_kind_and_every_kind_is_stored(app, client):
    service = app.extensions["games"]
    game = ApiGame(client)  # the host, spectator and join links; a seat per player
    seen = stored_kinds(app, game.id)
    seat = game.view(game.seats["Abe"])["viewer"]["seat"]
    game.ok(game.post("seat-link", game.host, seat=seat))  # handoff
    seen |= stored_kinds(app, game.id)
    game.ok(game.post("claim-seat", service.seat_links(game.id)[seat]))  # waiting: Abe's teammates are in use
    seen |= stored_kinds(app, game.id)
    game.ok(game.post("seat-link", game.host, seat=seat))  # the waiting claim is replaced
    seen |= stored_kinds(app, game.id)
    service.execute(game.id, HOST, {"type": "offer_table_move"}, game.host)  # table_move
    seen |= stored_kinds(app, game.id)
    move = service.table_links(game.id).move
    service.execute(game.id, Who(Kind.TABLE_MOVE), {"type": "take_table"}, move)  # the old host token: moved
    seen |= stored_kinds(app, game.id)
    assert seen == KIND_STRINGS


def test_every_command_is_sent_by_a_kind():
    assert {command.sender for command in BY_TYPE.values()} <= KIND_STRINGS


def bare_kind_comparisons(root: Path) -> list[str]:
    """Where a module under `root` compares a kind (or a command's sender) with a string, or lists kinds as
    strings (`kinds=("seat",)`, a dict keyed by kinds), instead of naming a `Kind`."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                named = any(
                    word in ast.unparse(s) for s in sides if not _kind_strings(s) for word in ("kind", "sender")
                )
                bare = named and any(_kind_strings(s) for s in sides)
            elif isinstance(node, ast.keyword):
                bare = node.arg == "kinds" and bool(_kind_strings(node.value))
            elif isinstance(node, ast.Dict):
                keys = [_kind_strings(k) if k is not None else set() for k in node.keys]
                bare = len(keys) > 1 and all(keys)
            else:
                continue
            if bare:
                found.append(f"{path.relative_to(root.parent)}:{node.lineno}: {ast.unparse(node)[:80]}")
    return found


def _kind_strings(node: ast.expr) -> set[str]:
    """The kinds a string literal, or a tuple, list or set of them, names as strings."""
    items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return {i.value for i in items if isinstance(i, ast.Constant) and i.value in KIND_STRINGS}


def test_no_module_compares_a_kind_with_a_bare_string():
    assert bare_kind_comparisons(COMPANION) == []
