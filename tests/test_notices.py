"""The public log: each event adds the line its declaration says (companion/rules/events.py: `NOTICE`), and
every line has its sentence on the pages (companion/messages.py or templates/partials/notices.html). The lines come from each event's
example (tests/examples.py)."""

from __future__ import annotations

import re

import pytest
from jinja2.runtime import Macro

from companion.messages import NOTICE_SENTENCES
from companion.rules import Game, replay
from companion.rules.events import EVENTS, NOTICES, read
from companion.rules.access import HOST
from companion.views import view_for
from companion.web.fragments import names as names_of

from .examples import play

NOTICING = [event for event in EVENTS if event.NOTICE]


@pytest.mark.parametrize("event", EVENTS, ids=[event.TYPE for event in EVENTS])
def test_an_event_adds_the_line_it_declares_and_only_it(event):
    """Folded one at a time, each event of the example adds one line of its kind with exactly its declared fields
    if it declares a notice, and none if it doesn't (a rematch empties the log)."""
    game = Game()
    for stored in play(event).events:
        folded = read(stored)
        before = list(game.notices)
        game = replay([folded], game)
        if folded.NOTICE is None:
            assert len(game.notices) <= len(before) and game.notices == before[: len(game.notices)], folded.TYPE
            continue
        assert game.notices[:-1] == before, folded.TYPE
        line = game.notices[-1]
        assert list(line) == ["kind", "round", *folded.NOTICE.fields]
        assert line["kind"] == folded.TYPE


def sentences(app) -> dict[str, Macro]:
    module = app.jinja_env.get_template("partials/notices.html").module
    return {name: value for name, value in vars(module).items() if isinstance(value, Macro)}


def test_every_notice_has_one_sentence_and_every_sentence_a_notice(app):
    declared = {notice.sentence for notice in NOTICES.values()}
    macros, worded = set(sentences(app)), set(NOTICE_SENTENCES)
    assert macros & worded == set(), "sentences both in messages.py and templates/partials/notices.html"
    assert declared - macros - worded == set(), "notices without a sentence"
    assert (macros | worded) - declared == set(), "sentences no notice names"


@pytest.mark.parametrize("event", NOTICING, ids=[event.TYPE for event in NOTICING])
def test_the_table_log_words_every_notice(app, event):
    """The table log's line of each event's example: a whole sentence, naming whom it is about."""
    game = play(event).game
    line = next(line for line in reversed(game.notices) if line["kind"] == event.TYPE)
    names = names_of(view_for(game, HOST))
    game_html = app.jinja_env.get_template("partials/game.html")
    with app.test_request_context("/"):
        text = str(game_html.module.notice_text(names, line)).strip()
    assert re.fullmatch(r"[A-Z].*[.!]", text), text
    assert "%(" not in text and "None" not in text, text
    for field in ("seat", "by"):
        if isinstance(line.get(field), int):
            assert names[line[field]] in text, (field, text)
