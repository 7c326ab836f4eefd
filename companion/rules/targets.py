"""Stale taps: a command names what its player saw (its target); when the game has moved on since, or the
command already took effect, it is refused with `stale` and what changed, so a retry is always safe.

Each command's check sits beside it (rules.command: `Command.stale`, and the match and round targets' own);
each compares only the targets the command carries (an API client may leave them out). Where a sender finds
each target in its view is declared with the command (`Target.path`), and read here (`find`)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from .errors import RuleError

_WHERE = re.compile(r"\[(\w+)=\{(\w+)\}\]")


def find(view: object, path: str, body: Mapping[str, object]) -> object:
    """The value at `path` in a view (a JSON dict), or None. A path's steps, separated by dots: a key; `-1`,
    a list's last item; `{field}`, the key `body[field]`; `[key={field}]`, the list item whose `key` is
    `body[field]`; `*`, any key of a dict (the first under which the rest of the path is found); `<*>`, the
    same, the path's value being that key."""
    return _find(view, path.split("."), body)


def _find(node: object, steps: list[str], body: Mapping[str, object]) -> object:
    if not steps or node is None:
        return node
    step, rest = steps[0], steps[1:]
    if step in ("*", "<*>"):
        for key, value in node.items() if isinstance(node, dict) else ():
            found = _find(value, rest, body)
            if found is not None:
                return key if step == "<*>" else found
        return None
    where = _WHERE.fullmatch(step)
    if where:
        wanted = body.get(where.group(2))
        items = node if isinstance(node, list) else ()
        return _find(next((i for i in items if i.get(where.group(1)) == wanted), None), rest, body)
    if step == "-1":
        return _find(node[-1] if isinstance(node, list) and node else None, rest, body)
    key = body.get(step[1:-1]) if step.startswith("{") else step
    return _find(node.get(key) if isinstance(node, dict) and isinstance(key, str) else None, rest, body)


def stale(change: str, **params: object) -> RuleError:
    """The refusal of a stale command; `change` names what changed (messages.STALE_CHANGES words it)."""
    return RuleError("stale", change=change, **params)
