"""Every word a player reads goes through Flask-Babel's gettext."""

import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from companion.messages import CAUSES, REASONS, REFUSALS, TASKS

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))


def visible_literal_text(source: str) -> str:
    """What a template shows that is not produced by an expression, a tag or a gettext call."""
    source = re.sub(r"{#.*?#}", "", source, flags=re.S)
    # Blocks that fill an attribute (a class, data-*), not text a player reads.
    source = re.sub(r"{% block body_(?:class|attrs) %}.*?{% endblock %}", "", source, flags=re.S)
    source = re.sub(r"{%.*?%}", "", source, flags=re.S)
    source = re.sub(r"{{.*?}}", "", source, flags=re.S)
    source = re.sub(r"<(script|style)\b.*?</\1>", "", source, flags=re.S)
    source = re.sub(r"<[^>]*>", "", source, flags=re.S)
    source = re.sub(r"&[a-z]+;|&#\d+;", "", source)
    return re.sub(r"[\s\W\d_]", "", source)    # punctuation and digits are not words


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: p.name)
def test_templates_have_no_untranslated_text(template):
    assert visible_literal_text(template.read_text()) == "", f"{template.name} shows text outside gettext"


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: p.name)
def test_attributes_that_people_read_are_translated(template):
    for attribute in re.findall(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"', template.read_text()):
        assert attribute.startswith("{{ _(") or attribute.startswith("{{ ngettext"), attribute


def extracted_messages() -> set[str]:
    """Every message id, as `pybabel extract -F babel.cfg -k _l` (scripts/update-catalogues) finds them."""
    method_map = [("companion/**.py", "python"), ("templates/**.html", "jinja2")]
    keywords = {**DEFAULT_KEYWORDS, "_l": None}
    return {m if isinstance(m, str) else m[0]
            for _, _, m, _, _ in extract_from_dir(str(ROOT), method_map, keywords=keywords)}


def test_the_english_catalogue_holds_every_message():
    """Run scripts/update-catalogues after changing any user-facing text."""
    with open(ROOT / "translations" / "en" / "LC_MESSAGES" / "messages.po", "rb") as po:
        catalogue = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(po) if m.id}
    assert extracted_messages() - catalogue == set(), "messages missing from the catalogue: run scripts/update-catalogues"


def test_babel_extracts_the_sentences_from_python_and_templates():
    flat = extracted_messages()
    for table in (REFUSALS, TASKS, REASONS, CAUSES):
        for lazy in table.values():
            assert lazy._args[0] in flat
    assert "New game" in flat and "Seal our guess" in flat
