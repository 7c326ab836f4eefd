"""The fixture that fails a browser test on a page error (conftest.py: page_errors) hears every page the test
opens: a page of a context, a window it opens, a page of its own; an error a test allows by name passes."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_every_page_a_test_opens_is_heard(browser, page_errors):
    context = browser.new_context()
    page = context.new_page()
    with page.expect_console_message():
        page.evaluate("console.error('said in a page')")
    with context.expect_page() as opened:
        page.evaluate("window.open('about:blank')")
    with context.expect_event("weberror"):
        opened.value.evaluate("setTimeout(() => { throw new Error('thrown in a window it opened') })")
    alone = browser.new_page()
    with alone.context.expect_event("weberror"):
        alone.evaluate("() => { Promise.reject(new Error('rejected in a page of its own')); }")
    alone.evaluate("console.warn('a warning is no error')")
    assert [seen.split(": ", 1)[1].splitlines()[0] for seen in page_errors.seen] == [
        "said in a page",
        "Error: thrown in a window it opened",
        "Error: rejected in a page of its own",
    ]
    page_errors.allow(r"said in a page|thrown in a window|rejected in a page", "this test makes them")
    context.close()
    alone.context.close()
