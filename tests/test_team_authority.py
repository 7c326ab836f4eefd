"""A team is the authority over its own secrets (issue 20, item 1): no sequence of taps on the table screen, or
on a device the table screen moved to, seats a new phone on a team or shows its keywords, codes or drafts
unless a phone of that team that is in use lets it in; every seat link shows at once on its team's phones;
moving the table screen is a move, in the public log. Through the pages (a browser's cookie and forms) and
through the API (bearer tokens). Time is the service's clock, moved by the test."""

from __future__ import annotations

import html
import json
import re

import pytest
from sqlalchemy import event

from companion.messages import clock_time
from companion import create_app
from companion.rules.host import PHONE_IN_USE_SECONDS, SEEN_KEPT_SECONDS
from tools.driver import ApiGame

from .api import browser, csrf_of, expected, table_path

NOW = 1_000_000.0
SEAT_LINK = re.compile(r'href="https?://[^/"]+(/seat/[\w-]+)"')
MOVE_LINK = re.compile(r'href="https?://[^/"]+(/move/[\w-]+)"')
# Keywords no page holds otherwise (a dealt PAGE or LINK would be "found" in the pages' own words).
NO_PAGE_WORDS = {
    "words": "\n".join(
        (
            "zorblax",
            "quimby",
            "fenwick",
            "gastrol",
            "moxley",
            "trundel",
            "vellum",
            "poskit",
            "durnham",
            "skellig",
            "wombat",
            "yarrowby",
        )
    )
}


@pytest.fixture
def clock(app):
    """The service's clock, which the test moves (`clock[0]`)."""
    now = [NOW]
    app.extensions["games"].clock = lambda: now[0]
    return now


def at(app, moment: float) -> str:
    """A moment as the pages write it (English)."""
    with app.test_request_context("/"):
        return clock_time(moment)


def text_of(answer) -> str:
    return html.unescape(answer.get_data(as_text=True))


def whites_secrets(game) -> dict:
    """Round 1 with both transmissions announced and White's draft decryption saved: what only White may know
    (its keywords, its code, its draft). Ann is White's Encryptor (she joined first), Abe drafts."""
    game.announce("white")
    game.announce("black")
    code = game.code("white")
    draft = [d % 4 + 1 for d in code]
    game.ok(game.command(game.seats["Abe"], "guess", code=draft, confirm=False))
    keywords = game.view(game.seats["Abe"])["teams"]["white"]["keywords"]
    return {"keywords": keywords, "codes": [code, draft]}


def assert_nothing_of(secrets: dict, bodies: list[str]) -> None:
    """No keyword (as a word), code or draft (as the pages and the API write one) in any body."""
    for body in bodies:
        for word in secrets["keywords"]:
            assert not re.search(rf"\b{re.escape(word)}\b", body, re.I), word
        for code in secrets["codes"]:
            for written in ("-".join(map(str, code)), json.dumps(code), json.dumps(code, separators=(",", ":"))):
                assert written not in body, written


def seat_link_of(page) -> str:
    return SEAT_LINK.search(page.get_data(as_text=True)).group(1)


# --- links for every teammate, then a claim -----------------------------------------------------------


def test_links_for_every_teammate_then_a_claim_waits_and_reads_nothing_through_the_pages(app, client, clock):
    """Bob (Black) taps the seat-link buttons of Ann and Abe (White) on the table screen and takes Ann's link
    with a second phone: it waits for a phone of White, and nothing it gets holds White's secrets."""
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    secrets = whites_secrets(game)
    table = browser(app)
    address = table_path(table, game.host)
    for name in ("Ann", "Abe"):
        seat = game.seat_of(name)
        tapped = table.post(f"{address}/seat-link", data={"seat": seat, "name": name, "csrf_token": table.csrf})
        assert tapped.status_code == 303
    link = seat_link_of(table.get(address))  # the first one shown: Ann's

    second = browser(app)
    bodies = [text_of(second.get(link))]
    claimed = second.post(link, data={"csrf_token": csrf_of(second.get(link))})
    assert claimed.status_code == 303 and claimed.headers["Location"] == f"/play/{game.id}"
    assert [e["type"] for e in game.events()][-1] == "seat_claim_waiting"
    page = second.get(f"/play/{game.id}")
    bodies += [text_of(claimed), text_of(page)]
    assert "A phone of your team must let this phone in" in bodies[-1]
    for path in (f"/api/games/{game.id}", f"/summary/{game.id}.json"):
        answer = second.get(path)
        assert answer.status_code in (401, 403, 404), path
        bodies.append(text_of(answer))
    assert_nothing_of(secrets, bodies)
    assert "Let Ann's new phone in" in text_of(browser(app, game.id, game.seats["Abe"]).get(f"/play/{game.id}"))


def test_links_for_every_teammate_then_a_claim_waits_and_reads_nothing_through_the_api(client, clock):
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    secrets = whites_secrets(game)
    links = [
        game.ok(game.post("seat-link", game.host, seat=game.seat_of(name))).get_json()["seat_link"]["token"]
        for name in ("Ann", "Abe")
    ]
    claimed = game.ok(game.post("claim-seat", links[0]))
    assert claimed.get_json()["events"] == ["seat_claim_waiting"]
    token = claimed.get_json()["token"]
    answers = [
        claimed,
        client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {token}"}),
        game.post("guess", token, code=[1, 2, 3], confirm=False),
    ]
    assert [a.status_code for a in answers] == [200, 403, 403]
    assert answers[1].get_json()["code"] == "seat_waiting"
    assert_nothing_of(secrets, [a.get_data(as_text=True) for a in answers])


# --- the remote variant: the table screen moved to Bob's phone first -------------------------------------


def test_the_moved_table_screen_can_seat_no_phone_either_and_the_old_one_says_where_it_went(app, client, clock):
    """Bob moves the table screen onto his own phone (one tap, one scan), then taps both links and claims from
    his pocket: the claim still waits. The move is a line of the public log, and the old table screen is
    refused with a sentence that says the table screen moved, and when."""
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    secrets = whites_secrets(game)
    table = browser(app)
    address = table_path(table, game.host)
    assert table.post(f"{address}/move", data={"csrf_token": table.csrf}).status_code == 303
    move = MOVE_LINK.search(table.get(address).get_data(as_text=True)).group(1)
    bob = browser(app)
    clock[0] += 5
    assert bob.post(move, data={"csrf_token": csrf_of(bob.get(move))}).headers["Location"] == address
    for name in ("Ann", "Abe"):
        bob.post(f"{address}/seat-link", data={"seat": game.seat_of(name), "name": name, "csrf_token": bob.csrf})
    link = seat_link_of(bob.get(address))
    second = browser(app)
    second.post(link, data={"csrf_token": csrf_of(second.get(link))})
    assert [e["type"] for e in game.events()][-1] == "seat_claim_waiting"
    assert_nothing_of(secrets, [text_of(second.get(f"/play/{game.id}")), text_of(bob.get(address))])

    moved = expected(app, "table_moved", time=at(app, NOW + 5))
    old = table.get(address)
    assert old.status_code == 403 and moved in text_of(old)
    assert table.post(f"{address}/seat-link", data={"seat": 1, "csrf_token": table.csrf}).status_code == 403
    answer = client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {game.host}"})
    assert answer.status_code == 403 and answer.get_json() == {"code": "table_moved", "error": moved}
    log = game.view(game.seats["Bea"])["notices"]
    assert {"kind": "table_moved", "round": 1, "at": NOW + 5} in log
    assert f"The table screen moved to another device at {at(app, NOW + 5)}." in text_of(
        browser(app, game.id, game.seats["Bea"]).get(f"/play/{game.id}")
    )


def test_through_the_api_the_moved_table_screens_new_key_seats_no_phone_either(app, client, clock):
    """Bob's phone holds the new host token in its cookie (signed, not encrypted: he can read it) and uses the
    API with it: the links and the claim still wait for White."""
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    table = browser(app)
    address = table_path(table, game.host)
    table.post(f"{address}/move", data={"csrf_token": table.csrf})
    move = MOVE_LINK.search(table.get(address).get_data(as_text=True)).group(1)
    bob = browser(app)
    bob.post(move, data={"csrf_token": csrf_of(bob.get(move))})
    host = app.extensions["games"].shared_tokens(game.id)["host"]
    assert host != game.host
    links = [game.ok(game.post("seat-link", host, seat=seat)).get_json()["seat_link"]["token"] for seat in (1, 2)]
    assert game.ok(game.post("claim-seat", links[1])).get_json()["events"] == ["seat_claim_waiting"]
    assert game.post("seat-link", game.host, seat=1).get_json()["code"] == "table_moved"


# --- the team's phones see each link, and can turn it away ------------------------------------------------


def test_the_teams_phones_show_each_link_with_its_time_and_cancel_it_through_the_pages(app, client, clock):
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    table = browser(app)
    address = table_path(table, game.host)
    clock[0] += 60
    table.post(f"{address}/seat-link", data={"seat": 1, "name": "Ann", "csrf_token": table.csrf})
    link = seat_link_of(table.get(address))
    phones = {name: browser(app, game.id, game.seats[name]) for name in ("Ann", "Abe", "Bea")}
    made = at(app, NOW + 60)
    abe = text_of(phones["Abe"].get(f"/play/{game.id}"))
    assert f"At {made} the table screen made a new link to Ann's seat, for a new phone." in abe
    assert "Not Ann's: cancel this link" in abe
    assert f"At {made} the table screen made a new link to your seat" in text_of(phones["Ann"].get(f"/play/{game.id}"))
    assert "made a new link" not in text_of(phones["Bea"].get(f"/play/{game.id}"))

    turned = phones["Abe"].post(f"/play/{game.id}/reject-seat-link", data={"seat": 1, "csrf_token": phones["Abe"].csrf})
    assert turned.status_code == 303
    stranger = browser(app)
    assert stranger.get(link).status_code == 403
    assert "Abe turned away the new seat link for Ann." in text_of(phones["Bea"].get(f"/play/{game.id}"))
    assert "made a new link" not in text_of(phones["Abe"].get(f"/play/{game.id}"))


def test_the_teams_phones_show_each_link_with_its_time_and_cancel_it_through_the_api(client, clock):
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    link = game.ok(game.post("seat-link", game.host, seat=1)).get_json()["seat_link"]["token"]
    assert game.view(game.seats["Abe"])["you"]["seat_links"] == [{"seat": 1, "at": NOW}]
    assert game.view(game.seats["Ann"])["you"]["seat_links"] == [{"seat": 1, "at": NOW}]
    assert game.view(game.seats["Bea"])["you"]["seat_links"] == []
    before = game.events()
    assert game.post("reject-seat-link", game.seats["Bea"], seat=1).get_json()["code"] == "not_your_team"
    assert game.events() == before
    assert game.ok(game.post("reject-seat-link", game.seats["Abe"], seat=1)).get_json()["events"] == [
        "seat_link_cancelled"
    ]
    assert game.post("claim-seat", link).get_json()["code"] == "no_capability"
    # A new phone already waiting with a link is sent away the same way, by the seat's own old phone too.
    link = game.ok(game.post("seat-link", game.host, seat=1)).get_json()["seat_link"]["token"]
    waiting = game.ok(game.post("claim-seat", link)).get_json()["token"]
    assert game.view(game.seats["Ann"])["you"]["waiting_phones"] == [1]
    game.ok(game.post("reject-seat-link", game.seats["Ann"], seat=1))
    answer = client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {waiting}"})
    assert answer.get_json()["code"] == "no_capability"
    assert game.view(game.host)["notices"][-1] == {"kind": "seat_link_cancelled", "round": 1, "seat": 1, "by": 1}


# --- no phone of the team in use: the claim goes through, loudly ------------------------------------------


def quiet_white(game, clock):
    """White's phones go quiet for longer than PHONE_IN_USE_SECONDS; Black's stay in use."""
    clock[0] += PHONE_IN_USE_SECONDS + 1
    for name in ("Bea", "Bob"):
        game.view(game.seats[name])


def test_with_no_phone_of_the_team_in_use_a_claim_goes_through_loudly_through_the_pages(app, client, clock):
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    table = browser(app)
    address = table_path(table, game.host)
    table.post(f"{address}/seat-link", data={"seat": 1, "name": "Ann", "csrf_token": table.csrf})
    link = seat_link_of(table.get(address))
    quiet_white(game, clock)
    second = browser(app)
    claimed = second.post(link, data={"csrf_token": csrf_of(second.get(link))})
    assert claimed.status_code == 303
    assert [e["type"] for e in game.events()][-1] == "seat_claimed"
    when = at(app, clock[0])
    loud = f"At {when} a new phone took Ann's seat on White while no White phone was in use: nobody of White let it in."
    screen = text_of(table.get(address))
    assert loud in screen and 'class="notice error unattended" role="alert"' in screen
    assert loud in text_of(browser(app, game.id, game.seats["Bea"]).get(f"/play/{game.id}"))
    assert "This phone took your seat at" in text_of(second.get(f"/play/{game.id}"))
    # White's phones when they come back: Abe's says so and asks him; Ann's old one has lost its seat.
    abe = browser(app, game.id, game.seats["Abe"])
    page = text_of(abe.get(f"/play/{game.id}"))
    assert f"At {when} a new phone took Ann's seat while no phone of your team was in use" in page
    assert "It is Ann: all right" in page
    assert browser(app, game.id, game.seats["Ann"]).get(f"/play/{game.id}").status_code == 403
    assert abe.post(f"/play/{game.id}/acknowledge-claim", data={"seat": 1, "csrf_token": abe.csrf}).status_code == 303
    assert loud not in text_of(table.get(address))
    assert "Abe confirmed that Ann's new phone is theirs." in text_of(table.get(address))


def test_with_no_phone_of_the_team_in_use_a_claim_goes_through_loudly_through_the_api(client, clock):
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    link = game.ok(game.post("seat-link", game.host, seat=1)).get_json()["seat_link"]["token"]
    quiet_white(game, clock)
    claimed = game.ok(game.post("claim-seat", link)).get_json()
    assert claimed["events"] == ["seat_claimed"]
    shown = [{"seat": 1, "team": "white", "at": clock[0]}]
    for token in (game.host, game.tokens["spectator"], game.seats["Bea"], claimed["token"]):
        assert game.view(token)["unattended"] == shown
    assert game.view(game.host)["notices"][-1] == {
        "kind": "seat_claimed",
        "round": 1,
        "seat": 1,
        "unattended": True,
        "at": clock[0],
    }
    assert game.post("acknowledge-claim", claimed["token"], seat=1).get_json()["code"] == "teammates_acknowledge"
    assert game.post("acknowledge-claim", game.seats["Bea"], seat=1).get_json()["code"] == "not_your_team"
    assert game.view(game.seats["Abe"])["unattended"] == shown  # Abe's phone comes back: still there
    game.ok(game.post("acknowledge-claim", game.seats["Abe"], seat=1))
    assert game.view(game.host)["unattended"] == []


# --- "in use", and what it costs ------------------------------------------------------------------------


def test_a_phone_is_in_use_while_it_polls_and_its_last_poll_is_written_at_most_once_a_minute(app, client, clock):
    service = app.extensions["games"]
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    abe = browser(app, game.id, game.seats["Abe"])
    seen = lambda: service.store.capability(game.seats["Abe"])[0].seen_at  # noqa: E731
    assert seen() == NOW  # seated: in use
    for step in range(1, 60):  # a poll a second for a minute: no write
        clock[0] = NOW + step
        assert abe.get(f"/play/{game.id}").status_code == 200
        assert seen() == NOW
    clock[0] = NOW + 60
    abe.get(f"/play/{game.id}")
    service.write_seen()  # (the worker's housekeeping: below)
    assert seen() == NOW + 60
    clock[0] = NOW + 60 + PHONE_IN_USE_SECONDS
    assert service.phones_in_use(game.id) >= {game.seat_of("Abe")}
    clock[0] += 1
    assert game.seat_of("Abe") not in service.phones_in_use(game.id)


def test_a_phones_routine_mark_is_written_with_the_others_and_every_worker_counts_it_meanwhile(
    app, client, clock, migrated_database_url
):
    """A phone whose written mark still says "in use" has its new one kept, and written with the others of its
    process in one transaction once the oldest is SEEN_KEPT_SECONDS old: meanwhile this process counts the kept
    one, and another worker the written one."""
    service = app.extensions["games"]
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    names = ("Abe", "Bea", "Ann")
    phones = {name: browser(app, game.id, game.seats[name]) for name in names}
    seats = {game.seat_of(name) for name in names}
    seen = lambda name: service.store.capability(game.seats[name])[0].seen_at  # noqa: E731
    other_worker = create_app(
        {"TESTING": True, "SECRET_KEY": app.config["SECRET_KEY"], "DATABASE_URL": migrated_database_url}
    ).extensions["games"]
    commits = []
    count = commits.append
    event.listen(service.store.engine, "commit", count)
    try:
        clock[0] = NOW + 60
        for phone in phones.values():
            assert phone.get(f"/play/{game.id}").status_code == 200
        assert commits == [] and {seen(name) for name in names} == {NOW}
        clock[0] = NOW + PHONE_IN_USE_SECONDS + SEEN_KEPT_SECONDS - 1  # the written marks are about to age out
        assert seats <= service.phones_in_use(game.id)  # this process: its kept marks
        assert seats <= other_worker.phones_in_use(game.id, now=NOW + PHONE_IN_USE_SECONDS)  # another: the written
        clock[0] = NOW + 60 + SEEN_KEPT_SECONDS  # the oldest kept mark is due: the next asking writes them all
        phones["Abe"].get(f"/play/{game.id}")
        assert len(commits) == 1
        written = {name: seen(name) for name in names}
        assert written == {"Abe": NOW + 60 + SEEN_KEPT_SECONDS, "Bea": NOW + 60, "Ann": NOW + 60}
        assert seats <= other_worker.phones_in_use(game.id, now=NOW + 60 + PHONE_IN_USE_SECONDS)
    finally:
        event.remove(service.store.engine, "commit", count)


def test_a_phone_whose_written_mark_is_about_to_age_out_is_written_at_once(app, client, clock):
    """Kept for SEEN_KEPT_SECONDS, its old mark would stop saying "in use" to the other workers meanwhile."""
    service = app.extensions["games"]
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    abe = browser(app, game.id, game.seats["Abe"])
    clock[0] = NOW + PHONE_IN_USE_SECONDS - SEEN_KEPT_SECONDS
    abe.get(f"/play/{game.id}")
    assert service.store.capability(game.seats["Abe"])[0].seen_at == clock[0]


def test_a_phones_mark_is_never_written_back_in_time(app, client, clock):
    """A worker's kept marks may be written after a later mark of the same phone (another worker's)."""
    store = app.extensions["games"].store
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    token = game.seats["Abe"]
    store.seen(token, NOW + 200)
    store.seen_together([(token, NOW + 100)])
    assert store.capability(token)[0].seen_at == NOW + 200
    store.seen_together([(token, NOW + 300)])
    assert store.capability(token)[0].seen_at == NOW + 300


def test_a_seat_with_two_phones_counts_its_later_kept_mark():
    """An old and a new phone of one seat both asking within a batch: the seat was in use at the later."""
    from companion.seen import UnwrittenSeen

    kept = UnwrittenSeen()
    kept.keep("g", "new-phone", 3, NOW + 50)
    kept.keep("g", "old-phone", 3, NOW + 10)
    assert kept.of_game("g") == {3: NOW + 50}


def test_a_batch_of_marks_is_written_in_the_tokens_order(app, client):
    """Two workers' batches share phones: each locks their rows in the same order, or PostgreSQL finds a
    deadlock (a second in which every write of those phones waits, and one batch lost)."""
    store = app.extensions["games"].store
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    tokens = sorted(game.seats.values())
    written = []

    def count(conn, cursor, statement, parameters, *args):
        if statement.startswith("UPDATE capabilities"):
            written.extend(parameters if isinstance(parameters, list) else [parameters])

    event.listen(store.engine, "before_cursor_execute", count)
    try:
        store.seen_together([(token, NOW + 100) for token in reversed(tokens)])
    finally:
        event.remove(store.engine, "before_cursor_execute", count)
    values = [row.values() if isinstance(row, dict) else row for row in written]  # (PostgreSQL's, SQLite's)
    assert [next(value for value in row if value in tokens) for row in values] == tokens, written


def test_the_workers_housekeeping_writes_the_kept_marks_every_batch(app, client, clock):
    """Nobody else asking, a kept mark is written within half of SEEN_KEPT_SECONDS (gunicorn.conf.py runs this)."""
    from companion.housekeeping import write_seen_while

    service = app.extensions["games"]
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    clock[0] = NOW + 60
    browser(app, game.id, game.seats["Abe"]).get(f"/play/{game.id}")
    assert service.store.capability(game.seats["Abe"])[0].seen_at == NOW
    turns, waited = iter([True, False]), []
    write_seen_while(service, lambda: next(turns), wait=waited.append)
    assert waited == [SEEN_KEPT_SECONDS / 2]
    assert service.store.capability(game.seats["Abe"])[0].seen_at == NOW + 60


def test_a_phones_page_still_shows_when_the_database_takes_no_writes(app, client, clock):
    """Writing that a phone is in use is not worth a page: a read-only database (healthz says so) still shows it."""
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    abe = browser(app, game.id, game.seats["Abe"])
    engine = app.extensions["games"].store.engine

    def _read_only(connection, _record):
        if engine.dialect.name == "sqlite":
            connection.execute("PRAGMA query_only=ON")
        else:
            connection.autocommit = True
            connection.execute("SET default_transaction_read_only = on")
            connection.autocommit = False

    event.listen(engine, "connect", _read_only)
    engine.dispose()
    clock[0] += 61  # the phone's last poll is old enough to be written again: kept, then written with others
    assert abe.get(f"/play/{game.id}").status_code == 200
    app.extensions["games"].write_seen()  # dropped, said in the log
    clock[0] += PHONE_IN_USE_SECONDS  # old enough to be written at once
    assert abe.get(f"/play/{game.id}").status_code == 200
    assert app.extensions["games"].store.capability(game.seats["Abe"])[0].seen_at == NOW
    event.remove(engine, "connect", _read_only)
    engine.dispose()


# --- a wait always ends (issue 39, item 2) ------------------------------------------------------------------


def until_for(app, game) -> float:
    """When the new phone waiting for Ann's seat takes it by itself, as the service works it out."""
    service = app.extensions["games"]
    waiting = service.waiting_until(game.id, service.load(game.id)[1])
    return waiting[game.seat_of("Ann")]


def test_a_waiting_phone_takes_the_seat_by_itself_once_its_team_is_away_through_the_pages(app, client, clock):
    """White's phones were put away just before Ann's new phone used its link: it waits (they count as in use
    for 2 minutes), its page says until when and why, and once that time passed with no White phone used, its
    next asking takes the seat, loudly, as a claim with nobody there would."""
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    table = browser(app)
    address = table_path(table, game.host)
    table.post(f"{address}/seat-link", data={"seat": 1, "name": "Ann", "csrf_token": table.csrf})
    link = seat_link_of(table.get(address))
    clock[0] += 30
    new = browser(app)
    assert new.post(link, data={"csrf_token": csrf_of(new.get(link))}).status_code == 303
    assert [e["type"] for e in game.events()][-1] == "seat_claim_waiting"
    until = until_for(app, game)
    assert until == NOW + 200  # NOW + 180 s to the whole minute: White's phones were last written at NOW
    since = until - PHONE_IN_USE_SECONDS
    page = text_of(new.get(f"/play/{game.id}"))
    assert (
        f"A phone of your team was in use a moment ago. If none of them is used after {at(app, since)}, this phone "
        f"takes the seat by itself at {at(app, until)}, and every screen says so." in page
    )
    assert f'data-countdown="{until - clock[0]}"' in page and "2:50" in page  # the seconds left, counted down

    clock[0] = since + 1
    assert "None of your team's phones has been used since" in text_of(new.get(f"/play/{game.id}"))
    clock[0] = until - 1
    assert "Almost there, Ann" in text_of(new.get(f"/play/{game.id}"))
    assert [e["type"] for e in game.events()][-1] == "seat_claim_waiting"
    clock[0] = until
    page = text_of(new.get(f"/play/{game.id}"))
    assert 'class="topbar' in page and "Almost there" not in page  # its own seat's page now
    assert game.events()[-1] == {"type": "seat_claimed", "v": 2, "seat": 1, "unattended": True, "at": until}
    loud = f"At {at(app, until)} a new phone took Ann's seat on White while no White phone was in use"
    assert loud in text_of(table.get(address))
    assert "This phone took your seat at" in page
    assert browser(app, game.id, game.seats["Ann"]).get(f"/play/{game.id}").status_code == 403  # signed out


def test_a_waiting_phones_time_moves_later_when_a_teammates_phone_is_used_through_the_api(app, client, clock):
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    service = app.extensions["games"]
    link = game.ok(game.post("seat-link", game.host, seat=1)).get_json()["seat_link"]["token"]
    waiting = game.ok(game.post("claim-seat", link)).get_json()["token"]
    first = NOW + 200
    for token in (game.host, game.tokens["spectator"], game.seats["Abe"], game.seats["Bea"]):
        assert game.view(token)["waiting"] == [{"seat": 1, "team": "white", "until": first}]
    host = client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {game.host}"})
    rung = []
    service.changed = rung.append

    clock[0] = NOW + 61  # Abe looks at his phone: written (a minute since the last), the time moves
    game.view(game.seats["Abe"])
    moved = NOW + 260
    assert rung == [game.id]  # its screens are woken, as by an event
    again = client.get(
        f"/api/games/{game.id}", headers={"Authorization": f"Bearer {game.host}", "If-None-Match": host.headers["ETag"]}
    )
    assert again.status_code == 200 and again.headers["ETag"] != host.headers["ETag"]
    assert again.get_json()["waiting"] == [{"seat": 1, "team": "white", "until": moved}]
    assert again.get_json()["version"] == host.get_json()["version"]  # no event: the ETag names the time

    clock[0] = first
    refused = client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {waiting}"})
    assert refused.status_code == 403 and refused.get_json() == {
        "code": "seat_waiting",
        "error": expected(app, "seat_waiting", time=at(app, moved)),
    }
    clock[0] = moved
    view = client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {waiting}"})
    assert view.status_code == 200 and view.get_json()["viewer"]["seat"] == 1
    assert view.get_json()["unattended"] == [{"seat": 1, "team": "white", "at": moved}]
    assert view.get_json()["waiting"] == []
    assert game.post("switch-team", game.seats["Ann"], team="white").get_json()["code"] == "no_capability"


def test_the_table_screen_and_the_team_show_a_waiting_phone_with_one_time_and_nothing_secret(app, client, clock):
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    secrets = whites_secrets(game)
    table = browser(app)
    address = table_path(table, game.host)
    table.post(f"{address}/seat-link", data={"seat": 1, "name": "Ann", "csrf_token": table.csrf})
    link = seat_link_of(table.get(address))
    new = browser(app)
    new.post(link, data={"csrf_token": csrf_of(new.get(link))})
    time = at(app, until_for(app, game))

    screen = text_of(table.get(address))
    assert (
        f"A new phone waits for Ann's seat on White: a White phone lets it in, or, if none is used before {time}, "
        "it takes the seat by itself then." in screen
    )
    abe = text_of(browser(app, game.id, game.seats["Abe"]).get(f"/play/{game.id}"))
    assert "Let Ann's new phone in" in abe
    assert f"If no phone of your team is used before {time}, the new phone takes the seat by itself then." in abe
    ann = text_of(browser(app, game.id, game.seats["Ann"]).get(f"/play/{game.id}"))
    assert "Let my new phone in" in ann and f"is used before {time}" in ann
    waiting = text_of(new.get(f"/play/{game.id}"))
    assert f"takes the seat by itself at {time}" in waiting
    bea = text_of(browser(app, game.id, game.seats["Bea"]).get(f"/play/{game.id}"))
    assert "Let Ann's new phone in" not in bea  # Black's phones decide nothing about White's seats
    spectator = client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {game.tokens['spectator']}"})
    assert spectator.get_json()["waiting"] == game.view(game.seats["Bea"])["waiting"] != []
    assert_nothing_of(secrets, [screen, waiting, bea, spectator.get_data(as_text=True)])


def test_a_second_link_for_a_seat_whose_phone_waits_replaces_its_claim_and_says_so(app, client, clock):
    """The table screen makes another link for Ann while a new phone waits with the first: that phone is told
    another link replaced its claim (not that it "no longer has its seat"), and the phone that claims the new
    link waits, then takes the seat by itself, by the same rule."""
    game = ApiGame(client, settings=NO_PAGE_WORDS)
    table = browser(app)
    address = table_path(table, game.host)
    phones = []
    for _ in range(2):
        table.post(f"{address}/seat-link", data={"seat": 1, "name": "Ann", "csrf_token": table.csrf})
        link = seat_link_of(table.get(address))
        phone = browser(app)
        assert phone.post(link, data={"csrf_token": csrf_of(phone.get(link))}).status_code == 303
        phones.append(phone)
    first, second = phones
    assert [e["type"] for e in game.events()][-3:] == ["seat_claim_waiting", "seat_link_issued", "seat_claim_waiting"]

    told = first.get(f"/play/{game.id}")
    assert told.status_code == 403
    page = text_of(told)
    assert "Another link replaced this phone's claim" in page and expected(app, "claim_replaced") in page
    assert "no longer has its seat" not in page
    assert "Almost there, Ann" in text_of(second.get(f"/play/{game.id}"))
    clock[0] = until_for(app, game)
    assert 'class="topbar' in text_of(second.get(f"/play/{game.id}"))
    assert first.get(f"/play/{game.id}").status_code == 403
    assert expected(app, "claim_replaced") in text_of(first.get(f"/play/{game.id}"))
