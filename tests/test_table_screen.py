"""The table screen's key lives in its browser's HttpOnly cookie: its address and page name only the game,
and moving it to another device takes a one-time link shown on request (issue 12, item 1)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from tests.api import browser, csrf_of, table_path
from tools.driver import ApiGame

TOKEN = re.compile(r"[A-Za-z0-9_-]{20,}")  # anything as long as a capability token (32 characters)


def created_at_home(app):
    """A game created from the home page's form: the browser it was created in, and the table's address."""
    home = browser(app)
    answer = home.post("/games", data={"csrf_token": home.csrf, "language": "en"})
    assert answer.status_code == 303
    return home, answer.headers["Location"]


def test_the_table_address_names_only_the_game_and_its_key_is_an_httponly_cookie(app):
    home, address = created_at_home(app)
    game_id = address.rsplit("/", 1)[1]
    host = app.extensions["games"].shared_tokens(game_id)["host"]
    assert address == f"/table/{game_id}" and host not in address
    cookie = home.get_cookie("decrypto")
    assert cookie.http_only and cookie.same_site == "Lax"
    page = home.get(address)
    assert page.status_code == 200 and host not in page.get_data(as_text=True)
    # Commands post to the address that names the game; the cookie says who asks.
    started = home.post(f"{address}/lock-joining", data={"locked": "1", "csrf_token": home.csrf})
    assert started.status_code == 303 and started.headers["Location"] == address


def test_a_browser_without_the_cookie_cannot_open_or_drive_the_table(app):
    _, address = created_at_home(app)
    stranger = browser(app)
    assert stranger.get(address).status_code == 403
    for path in (f"{address}/lock-joining", f"{address}/move", f"{address}/start"):
        answer = stranger.post(path, data={"locked": "1", "csrf_token": stranger.csrf})
        assert answer.status_code == 403, path
        assert "not this game&#39;s table screen" in answer.get_data(as_text=True)
    assert stranger.get(f"{address}/summary").status_code == 403


def test_the_old_address_with_the_host_token_sets_the_cookie_and_leaves_the_address_bar(client):
    game = ApiGame(client, start=False)
    table = browser(client.application)
    address = table_path(table, game.host)
    assert address == f"/table/{game.id}"
    assert table.get(address).status_code == 200
    assert game.host not in table.get(address).get_data(as_text=True)


def move_link_of(page) -> str:
    found = re.search(r'href="https?://[^/]+(/move/[^"]+)"', page.get_data(as_text=True))
    return found and found.group(1)


def test_the_move_link_works_once_and_then_the_qr_code_is_gone(app):
    home, address = created_at_home(app)
    assert move_link_of(home.get(address)) is None  # shown only on request
    assert home.post(f"{address}/move", data={"csrf_token": home.csrf}).status_code == 303
    page = home.get(address)
    link = move_link_of(page)
    assert link and 'class="card seat-link table-move"' in page.get_data(as_text=True)
    etag = page.headers["ETag"]

    other = browser(app)
    assert other.get(address).status_code == 403
    assert other.get(link).status_code == 200  # opening it uses nothing up
    moved = other.post(link, data={"csrf_token": csrf_of(other.get(link))})
    assert moved.status_code == 303 and moved.headers["Location"] == address
    # Used: a move, not a copy (issue 20): the first screen's poll is refused, saying so; the new one drives.
    polled = home.get(address, headers={"If-None-Match": etag})
    assert polled.status_code == 403 and "The table screen moved to another device" in polled.get_data(as_text=True)
    page = other.get(address)
    assert page.status_code == 200 and move_link_of(page) is None
    assert other.get(address, headers={"If-None-Match": page.headers["ETag"]}).status_code == 304
    assert other.post(f"{address}/lock-joining", data={"locked": "1", "csrf_token": other.csrf}).status_code == 303

    # Used: it works no more.
    third = browser(app)
    assert third.post(link, data={"csrf_token": third.csrf}).status_code == 403
    assert third.get(address).status_code == 403


def test_a_cancelled_move_link_works_no_more(app):
    home, address = created_at_home(app)
    home.post(f"{address}/move", data={"csrf_token": home.csrf})
    link = move_link_of(home.get(address))
    assert home.post(f"{address}/move", data={"cancel": "1", "csrf_token": home.csrf}).status_code == 303
    assert move_link_of(home.get(address)) is None
    other = browser(app)
    assert other.get(link).status_code == 403
    assert other.post(link, data={"csrf_token": other.csrf}).status_code == 403
    assert other.get(address).status_code == 403


def test_a_move_token_is_no_key_to_the_api(app):
    home, address = created_at_home(app)
    home.post(f"{address}/move", data={"csrf_token": home.csrf})
    token = move_link_of(home.get(address)).rsplit("/", 1)[1]
    game_id = address.rsplit("/", 1)[1]
    client = app.test_client()
    assert client.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).status_code == 403
    assert (
        client.post(
            f"/api/games/{game_id}/lock-joining", json={"locked": True}, headers={"Authorization": f"Bearer {token}"}
        ).status_code
        == 403
    )


def test_everything_the_table_screen_shows_lets_a_player_act_as_no_one_else(client):
    """The room's leak audit: a player reads the table screen's address and every page it shows through a
    game (the lobby, a round, a seat link asked for, the end); no string in them is the host's key or a
    seat's, and none is taken by the API as either."""
    game = ApiGame(client, start=False)
    table = browser(client.application)
    opened = table.get(urlsplit(game.urls["table"]).path, follow_redirects=True)  # the API's link, opened
    address = opened.request.path  # what the address bar then shows
    seen = {address}

    def look():
        page = table.get(address)
        assert page.status_code == 200
        seen.add(page.get_data(as_text=True))
        for path in re.findall(r'(?:action|href|data-poll)="([^"]*)"', page.get_data(as_text=True)):
            seen.add(path)

    look()
    game.ok(game.command(game.host, "start"))
    look()
    game.round()
    look()
    game.ok(game.command(game.host, "seat-link", seat=2, name="Abe"))  # a phone died: shown on request
    look()
    if address == f"/table/{game.id}":
        table.post(f"{address}/move", data={"csrf_token": table.csrf})  # the move link, shown on request
    look()
    game.ok(game.command(game.host, "cancel-seat-link", seat=2))
    while game.view(game.host)["phase"] != "over":
        game.round(white=(True, True))  # Black intercepts White until it wins
    look()
    shown = {word for text in seen for word in TOKEN.findall(text)}
    secret = {game.host, *game.seat_tokens.values()}
    assert not shown & secret
    for word in shown:  # none is taken as the host's key or a seat's (a join link joins; a seat
        found = client.application.extensions["games"].resolve(word)  # link waits for its player)
        assert found is None or found[0].kind in ("join", "spectator", "handoff", "table_move"), found
