"""Every refusal the app can give has a sentence in every language and an HTTP status: a code the
messages don't know is a bug the tests catch, not a reason to say something else."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.messages import REFUSALS, SIDE_SENTENCES, STALE_CHANGES, refusal, stale_change
from companion.rules.commands import BY_TYPE
from companion.rules.guards import PHASE_REFUSALS, SENDER_REFUSALS
from companion.web.errors import _HTTP_CODES, status_of

ROOT = Path(__file__).resolve().parent.parent
RAISERS = {"RuleError", "Refused"}


def _strings(node) -> list[str]:
    """The string constants an expression can be (through `a if c else b`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _strings(node.body) + _strings(node.orelse)
    return []


def raised_codes() -> set[str]:
    """Every refusal code written in the app's source: raised, returned by a `*_problem` query, or given to
    a stale refusal as what changed (those are checked separately)."""
    codes = set()
    for path in (ROOT / "companion").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and node.args:
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                if name in RAISERS or name == "refusal_response":
                    codes.update(_strings(node.args[0]))
            if isinstance(node, ast.FunctionDef) and node.name.endswith("_problem"):
                for ret in ast.walk(node):
                    if isinstance(ret, ast.Return) and ret.value is not None:
                        codes.update(_strings(ret.value))
    return codes


def stale_changes() -> set[str]:
    """Every `change` the rules' stale checks name (rules/targets.py and the service)."""
    changes = set()
    for path in (ROOT / "companion").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "stale" and node.args:
                changes.update(_strings(node.args[0]))
    return changes


def every_code() -> set[str]:
    declared = {code for c in BY_TYPE.values() for code in c.refusals}
    declared |= {f.refusal for c in BY_TYPE.values() for f in c.fields}  # a field's, refused when it is read
    return (
        raised_codes()
        | declared
        | set(SENDER_REFUSALS.values())
        | set(PHASE_REFUSALS.values())
        | set(_HTTP_CODES.values())
        | {"server_error", "malformed_body", "csrf", "correction_pending"}
    )


def test_the_source_scan_finds_the_codes():
    """The scan itself bites: it finds codes raised in each way the source raises them."""
    found = raised_codes()
    assert {
        "guess_sealed",
        "already_locked",
        "already_open",
        "too_late_to_join",
        "swap_too_late",
        "nobody_to_skip_to",
        "seat_gone",
        "stale",
        "if_match_malformed",
    } <= found
    assert {"guess_sealed_by", "transmission_not_open", "entry_changed", "version"} <= stale_changes()


def test_every_refusal_code_has_a_sentence_and_a_status():
    codes = every_code()
    assert codes - set(REFUSALS) == set(), "codes without a sentence"
    assert set(REFUSALS) - codes == set(), "sentences no code uses any more"
    for code in codes:
        assert 400 <= status_of(code) < 600, code


def test_an_unknown_code_is_a_bug_not_another_sentence(app):
    with app.test_request_context("/api/x"), pytest.raises(KeyError):
        refusal("no_such_code")
    with pytest.raises(KeyError):
        status_of("no_such_code")


def test_every_stale_change_has_a_sentence(app):
    with app.test_request_context("/api/x"):
        for change in stale_changes():
            params = {"team": "white", "name": "Ann", "now": 3, "seat": 2}
            assert stale_change(change, **params).endswith("."), change


def _messages(message) -> list[str]:
    if isinstance(message, dict):
        return [m for value in message.values() for m in _messages(value)]
    if isinstance(message, tuple):
        return [message[0]]  # a plural entry is found by its singular
    return [message._args[0] if hasattr(message, "_args") else str(message)]


@pytest.mark.parametrize("language", ["fr", "ko"])
def test_every_refusal_sentence_is_translated(language):
    with open(ROOT / "translations" / language / "LC_MESSAGES" / "messages.po", "rb") as f:
        catalogue = read_po(f, locale=language)
    sentences = [
        m for message in (*(r.sentence for r in REFUSALS.values()), *STALE_CHANGES.values()) for m in _messages(message)
    ]
    sentences += [m for key, by_side in SIDE_SENTENCES.items() if key.startswith("stale_") for m in _messages(by_side)]
    untranslated = []
    for sentence in sentences:
        entry = catalogue.get(sentence)
        strings = [] if entry is None else ([entry.string] if isinstance(entry.string, str) else list(entry.string))
        if entry is None or entry.fuzzy or not all(strings):
            untranslated.append(sentence)
    assert untranslated == []
