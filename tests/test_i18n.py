"""Every word a player reads goes through Flask-Babel's gettext."""

import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from flask_babel import LazyString

from companion import messages
from companion.messages import (
    CAUSES,
    NOTICE_SENTENCES,
    REASONS,
    REFUSALS,
    SIDE_SENTENCES,
    TASKS,
    THREE_PLAYER_TASKS,
    Refusal,
    refusal,
)

from .api import table_path

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
    return re.sub(r"[\s\W\d_]", "", source)  # punctuation and digits are not words


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: p.name)
def test_templates_have_no_untranslated_text(template):
    assert visible_literal_text(template.read_text()) == "", f"{template.name} shows text outside gettext"


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: p.name)
def test_attributes_that_people_read_are_translated(template):
    for attribute in re.findall(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"', template.read_text()):
        assert attribute.startswith(("{{ _(", "{{ ngettext", "{{ side_text(")), attribute


def extracted() -> list[str | tuple[str, ...]]:
    """Every message, as `pybabel extract -F babel.cfg -k _l -k N_plural:1,2` (scripts/update-catalogues) finds
    them: a sentence, or a sentence and its plural."""
    method_map = [("companion/**.py", "python"), ("templates/**.html", "jinja2")]
    keywords = {**DEFAULT_KEYWORDS, "_l": None, "N_plural": (1, 2)}
    return [m for _, _, m, _, _ in extract_from_dir(str(ROOT), method_map, keywords=keywords)]


def extracted_messages() -> set[str]:
    """Every message id (a plural's singular)."""
    return {m if isinstance(m, str) else m[0] for m in extracted()}


# A number before what it counts ("%(max)s players", "%(min)s different words"); a name or a seat before a verb
# ("%(name)s reads") counts nothing.
COUNTED = re.compile(r"%\((?!name\)|seat\))\w+\)s (?:[a-z]+ )?[a-z]{2,}s\b")


def test_a_number_of_things_is_worded_in_each_languages_plural_forms():
    """A sentence showing how many of something has plural forms (ngettext, `N_plural`): each language picks the
    form its number needs ("1 jeton", "2 jetons")."""
    singular_only = {m for m in extracted() if isinstance(m, str) and COUNTED.search(m)}
    assert singular_only == set()
    assert COUNTED.search("at most %(max)s words") and not COUNTED.search("%(name)s reads the clues")


def test_the_message_template_holds_every_message():
    """Run scripts/update-catalogues after changing any user-facing text. (English is the messages themselves:
    it has no catalogue.)"""
    with open(ROOT / "translations" / "messages.pot", "rb") as po:
        catalogue = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(po) if m.id}
    assert extracted_messages() - catalogue == set(), (
        "messages missing from translations/messages.pot: run scripts/update-catalogues"
    )


def message_ids(entry) -> list[str]:
    """The message ids in a table entry: a lazy string, an `N_plural`, or one of those per side."""
    if isinstance(entry, dict):
        return [m for value in entry.values() for m in message_ids(value)]
    return [entry[0]] if isinstance(entry, tuple) else [entry._args[0]]


def test_the_sentences_messages_declares_are_translated_when_shown():
    """A sentence made as the module loads is a lazy string (or an `N_plural`), which speaks the language of the
    request that shows it: a plain string there would be one language for every request."""

    def plain(entry) -> list:
        if isinstance(entry, dict):
            return [m for value in entry.values() for m in plain(value)]
        if isinstance(entry, Refusal):
            return plain(entry.sentence)
        return [] if isinstance(entry, LazyString | tuple) else [entry]

    tables = {name: table for name, table in vars(messages).items() if name.isupper() and isinstance(table, dict)}
    assert len(tables) >= 10 and {name: plain(table) for name, table in tables.items() if plain(table)} == {}


@pytest.mark.parametrize(
    "language,one,many",
    [("en", "limit of 1 action.", "limit of 500 actions."), ("fr", "limite de 1 action.", "limite de 500 actions.")],
)
def test_a_sentence_with_a_count_takes_the_form_its_number_needs(app, language, one, many):
    with app.test_request_context("/api/x", headers={"Accept-Language": language}):
        assert one in refusal("game_too_long", limit=1) and many in refusal("game_too_long", limit=500)


def test_babel_extracts_the_sentences_from_python_and_templates():
    flat = extracted_messages()
    for table in (
        {code: refused.sentence for code, refused in REFUSALS.items()},
        TASKS,
        THREE_PLAYER_TASKS,
        REASONS,
        CAUSES,
        SIDE_SENTENCES,
        NOTICE_SENTENCES,
    ):
        for entry in table.values():
            for message in message_ids(entry):
                assert message in flat
    assert "New game" in flat and "Seal our guess" in flat


PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def catalogue(language: str):
    with open(ROOT / "translations" / language / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po)


@pytest.mark.parametrize("language", ["fr", "ko"])
def test_every_message_is_translated_and_keeps_its_placeholders(language):
    translations = catalogue(language)
    assert not translations.fuzzy, f"{language}: the catalogue is marked fuzzy, so it would not be compiled"
    messages = {m.id if isinstance(m.id, str) else m.id[0]: m for m in translations if m.id}
    assert extracted_messages() - set(messages) == set(), f"{language}: run scripts/update-catalogues"
    for message in messages.values():
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"{language}: no translation for {ids[0]!r}"
        assert not message.fuzzy, f"{language}: fuzzy translation for {ids[0]!r}"
        expected = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
        for string in strings:
            kept = set(PLACEHOLDER.findall(string))
            # A plural form may say "one" in words instead of %(num)s; nothing else may be lost or added.
            assert kept - expected == set() and expected - kept <= {"num"}, f"{language}: {ids[0]!r} -> {string!r}"


@pytest.mark.parametrize(
    "language,sentence",
    [
        ("fr", "Nouvelle partie"),
        ("ko", "새 게임"),
    ],
)
def test_the_home_page_speaks_the_phones_language(client, language, sentence):
    answer = client.get(f"/?lang={language}")
    assert answer.status_code == 303
    page = client.get("/").get_data(as_text=True)
    assert f'<html lang="{language}">' in page and sentence in page


def test_a_game_page_speaks_the_games_language_until_a_phone_chooses_its_own(app, client):
    created = client.post("/api/games", json={"language": "fr"}).get_json()
    table = table_path(client, created['tokens']['host'])
    assert "Lancer la partie" in client.get(table).get_data(as_text=True)
    other_phone = app.test_client()
    table_path(other_phone, created['tokens']['host'])
    assert other_phone.get(table + "?lang=ko").status_code == 303
    assert "게임 시작" in other_phone.get(table).get_data(as_text=True)
    assert "Lancer la partie" in client.get(table).get_data(as_text=True)  # the first phone keeps French
