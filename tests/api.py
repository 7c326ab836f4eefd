"""What web tests share besides the driver (tools/driver.py): a browser with its cookie and CSRF token,
the sentence of a refusal."""

from __future__ import annotations

import re

from companion.messages import REFUSALS, refusal


def expected(app, code, **params) -> str:
    """The sentence for a refusal code, as the app words it in a request."""
    with app.test_request_context("/api/x"):
        return refusal(code, **params)


def refusal_pattern(app, code) -> re.Pattern:
    """Every sentence a refusal code may be worded as (each side's, singular and plural), its %(params)s
    matching anything."""
    message = REFUSALS[code].sentence
    variants = (
        list(message.values())
        if isinstance(message, dict)
        else list(message[:2])
        if isinstance(message, tuple)
        else [message]
    )
    with app.test_request_context("/api/x"):
        templates = [str(variant) for variant in variants]
    return re.compile(
        "|".join(
            "".join(".+" if part.startswith("%(") else re.escape(part) for part in re.split(r"(%\(\w+\)s)", template))
            for template in templates
        )
        + r"\Z",
        re.S,
    )


def csrf_of(page) -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', page.get_data(as_text=True)).group(1)


def browser(app, game_id=None, seat_token=None):
    """A browser: optionally seated in a game by its cookie, with the CSRF token of its pages."""
    client = app.test_client()
    if seat_token:
        with client.session_transaction() as session:
            session["seats"] = {game_id: seat_token}
    client.csrf = csrf_of(client.get("/"))
    return client


def table_path(client, host_token: str) -> str:
    """Make `client` the table screen of the host token's game, as the API's `urls.table` does in a
    browser (its host cookie), and return the table page's address, which names only the game."""
    answer = client.get(f"/table/{host_token}")
    assert answer.status_code == 303, answer.status_code
    return answer.headers["Location"]


def page_of(client, answer):
    """The page a browser shows after a page form's answer: the page a redirect leads to (a form the rules
    refused, or any form that went through), or the answer itself (a refusal of who is asking, which has no
    page to go back to)."""
    return followed(client, answer) if answer.status_code == 303 else answer


def followed(client, answer):
    """A page form's answer: a redirect to a page on this site (post/redirect/get, a refusal too), and that
    page as the browser then gets it."""
    assert answer.status_code == 303, (answer.status_code, answer.get_data(as_text=True)[:300])
    location = answer.headers["Location"]
    assert location.startswith("/") and not location.startswith("//"), location
    return client.get(location)
