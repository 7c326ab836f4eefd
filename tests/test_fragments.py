"""Reused page pieces (companion/web/fragments.py) change no byte of any page, and a page put together from
the regions its script gets after each change is the page itself.

Two apps on one database, with the same key: one reuses rendered pieces across every viewer and version of
the game (and across languages and games), the other renders every page afresh. After every command of
whole games, every screen (each phone, one of them in French, the table screen, a spectator) fetches its page
from both: the pages must be identical (but for the CSRF tokens, signed anew on each page). A piece keyed by
less than it reads (a viewer's secret, the language, the mode) would show up here as a difference.

Each screen also keeps its live regions as its script does: it fetches its page with the keys of the regions
it shows (`X-Live-Keys`), and puts the regions it gets in their place. Its regions must then be those of the
whole page, and the answer must have left out every region whose key it sent.
"""

from __future__ import annotations

import re
import uuid

import pytest
from jinja2 import UndefinedError

from companion import create_app
from tools.driver import ApiGame

from .api import browser, table_path
from .conftest import database_url
from .test_stream import Stream

CSRF = re.compile(r'(name="csrf_token" value=|name="csrf-token" content=)"[^"]*"')
REGION = re.compile(r'<(div|p) id="([\w-]+)" data-live[^>]*>')
KEY = re.compile(r'data-key="([a-p]+)"')


def regions(html: str) -> dict[str, tuple[str | None, str]]:
    """Each live region of a page: its id -> (its key, its element), CSRF tokens left out."""
    found = {}
    for start in REGION.finditer(html):
        tag, depth, at = start.group(1), 1, start.end()
        tags = re.compile(rf"<(/?){tag}\b")
        while depth:
            edge = tags.search(html, at)
            depth, at = depth + (-1 if edge.group(1) else 1), edge.end()
        key = KEY.search(start.group(0))
        found[start.group(2)] = (key and key.group(1), CSRF.sub("", html[start.start() : at]))
    return found


def two_apps(tmp_path):
    settings = {"TESTING": True, "SECRET_KEY": "test-" + uuid.uuid4().hex, "DATABASE_URL": database_url(tmp_path)}
    reusing = create_app(
        {**settings, "FRAGMENT_CACHE_CHARS": 4_000_000, "SHARED_ANSWER_CHARS": 200_000, "SHARED_SCREENS": 128}
    )
    fresh = create_app({**settings, "FRAGMENT_CACHE_CHARS": 0, "SHARED_ANSWER_CHARS": 0, "SHARED_SCREENS": 0})
    for app in (reusing, fresh):
        app.extensions["games"].clock = lambda: 1_000_000.0  # the sand timer reads the same on both
    return reusing, fresh


class Pushed:
    """A screen's stream, and the regions its page shows as the stream's messages alone make them."""

    def __init__(self, client, path):
        self.client, self.path = client, path
        self.stream = Stream(client, f"{path}/stream")
        assert self.stream.answer.status_code == 200, path
        self.etag: str | None = None
        self.shown: dict[str, tuple[str | None, str]] = {}
        self.pushes = 0

    def follow(self, compared: int) -> None:
        """Read the stream up to the page's current ETag; each regions' message must be what the page's fetch,
        naming the regions the page shows, answers now (and after the last, the page must be whole)."""
        now = self.client.get(self.path).headers["ETag"]
        while self.etag != now:
            message = self.stream.next()
            self.etag = message["data"]
            if "body" not in message:  # the ETag alone: the page fetches itself (a stream's first message)
                self.shown = regions(self.client.get(self.path).get_data(as_text=True))
                continue
            assert self.etag == now, f"{self.path}: a message for a version gone by"
            keys = " ".join(sorted(key for key, _ in self.shown.values() if key))
            fetched = self.client.get(self.path, headers={"X-Live-Keys": keys}).get_data(as_text=True)
            assert BODY.match(message["body"]).group(0) == BODY.match(fetched).group(0), self.path
            pushed = regions(message["body"])
            assert pushed == regions(fetched), f"{self.path}: its stream's regions differ from its fetch's"
            self.shown.update(pushed)
            self.pushes += 1
        whole = regions(self.client.get(self.path).get_data(as_text=True))
        assert self.shown == whole, f"{self.path}: pushed regions differ from the page's after {compared} commands"


BODY = re.compile(r'<body class="[^"]*">')


class ComparedGame(ApiGame):
    """A game played through the API; after each command every screen compares its two pages, and its
    stream's messages with its fetches."""

    def __init__(self, reusing, fresh, **kwargs):
        self.apps, self.screens, self.compared, self.shown, self.left_out = (reusing, fresh), [], 0, {}, 0
        self.pushed: list[Pushed] = []
        super().__init__(reusing.test_client(use_cookies=False), **kwargs)
        for seat, token in self.seat_tokens.items():
            self.screen(f"/play/{self.id}", seat_token=token, language="fr" if seat == 2 else None)
        table = [browser(app) for app in self.apps]
        path = table_path(table[0], self.host)
        table_path(table[1], self.host)
        self.screens.append((path, table))
        self.shown[path] = regions(table[0].get(path).get_data(as_text=True))
        streamed = browser(self.apps[0])  # a table screen of its own: its stream follows it
        table_path(streamed, self.host)
        self.pushed.append(Pushed(streamed, path))
        self.screen(f"/watch/{self.tokens['spectator']}")
        self.compare()

    def screen(self, path, seat_token=None, language=None):
        clients = [browser(app, self.id, seat_token) for app in self.apps]
        if language:
            for client in clients:
                client.get(f"{path}?lang={language}")
        self.screens.append((path, clients))
        self.shown[path] = regions(clients[0].get(path).get_data(as_text=True))
        streamed = browser(self.apps[0], self.id, seat_token)  # a screen of its own: its stream follows it
        if language:
            streamed.get(f"{path}?lang={language}")
        self.pushed.append(Pushed(streamed, path))

    def send(self, token, command, body):
        answer = super().send(token, command, body)
        self.compare()
        return answer

    def compare(self):
        for pushed in self.pushed:
            pushed.follow(self.compared)
        for path, (reusing, fresh) in self.screens:
            self.follow(path, reusing, fresh)
            pages = [client.get(path) for client in (reusing, fresh)]
            assert [p.status_code for p in pages] == [200, 200], path
            tokens = set(re.findall(r'name="csrf_token" value="([^"]*)"', pages[0].get_data(as_text=True)))
            assert len(tokens) <= 1 and "<csrf-token>" not in tokens, f"{path}: forms carry {tokens}"
            assert CSRF.sub("", pages[0].get_data(as_text=True)) == CSRF.sub("", pages[1].get_data(as_text=True)), (
                f"{path} differs after {self.compared} commands"
            )
        self.compared += 1

    def follow(self, path, client, fresh):
        """What the page's script does after a change: fetch the page naming the regions it shows, put in
        what comes. Its regions must then be the whole page's; and the answer, which a teammate's phone may
        have rendered (a shared answer), is byte for byte what the app that shares nothing answers."""
        shown = self.shown[path]
        keys = {key for key, _ in shown.values() if key}
        answer = client.get(path, headers={"X-Live-Keys": " ".join(sorted(keys))})
        assert answer.status_code == 200, path
        alone = fresh.get(path, headers={"X-Live-Keys": " ".join(sorted(keys))})
        assert CSRF.sub("", answer.get_data(as_text=True)) == CSRF.sub("", alone.get_data(as_text=True)), (
            f"{path}: its update differs after {self.compared} commands"
        )
        sent = regions(answer.get_data(as_text=True))
        assert not keys & {key for key, _ in sent.values()}, f"{path}: a region it shows was sent again"
        shown.update(sent)
        whole = regions(client.get(path).get_data(as_text=True))
        assert shown == whole, f"{path}: its regions differ from the page's after {self.compared} commands"
        self.left_out += len(whole) - len(sent)

    def reused(self) -> int:
        return self.apps[0].extensions["fragments"].hits

    def shared(self) -> int:
        return self.apps[0].extensions["shared_answers"].hits

    def shared_screens(self) -> int:
        return self.apps[0].extensions["shared_screens"].hits


@pytest.mark.slow  # eight rounds, every page rendered twice: the full run, not --fast
@pytest.mark.parametrize("language", ["en", "ko"])
def test_every_page_of_a_whole_game_is_the_same_with_reused_pieces(tmp_path, language):
    game = ComparedGame(
        *two_apps(tmp_path), white=("Ann", "Abe", "Ada"), black=("Bea", "Bob"), settings={"language": language}
    )
    game.round()
    # Each team's notes on the other's sheet: a piece of its own phones' pages alone.
    game.command(game.seats["Ann"], "note", keyword=2, text="whale?")
    game.command(game.seats["Bob"], "note", line=1, text="all about the sea")
    game.round(white=(False, False), black=(True, True))
    game.command(game.seats["Ada"], "note", keyword=2, text="orca")
    while game.view(game.host)["phase"] == "playing":  # to round 8: Black wins on points
        game.round()
    assert game.compared > 40
    assert game.reused() > game.compared  # pieces were shared, or this compared nothing
    assert game.left_out > game.compared  # and regions left out
    assert sum(pushed.pushes for pushed in game.pushed) > game.compared  # and the streams sent regions
    # and updates: White's two phones in English share theirs whenever neither is the Encryptor, fetched or
    # pushed (their streams' regions are worked out once for both)
    assert game.shared() > 10
    assert game.shared_screens() > 10


def test_every_page_of_a_three_player_game_is_the_same_with_reused_pieces(tmp_path):
    apps = two_apps(tmp_path)
    ComparedGame(*apps).announce("white")  # a standard game's pieces are held first (same teams, other words)
    game = ComparedGame(*apps, white=("Ann", "Abe"), black=("Ivy",), settings={"mode": "three_player"})
    game.command(game.seats["Ivy"], "note", keyword=1, text="castle")
    while game.view(game.host)["phase"] == "playing":
        game.three_player_round(decrypted=True, intercepted=game.compared % 2 == 0)
    assert game.reused() > game.compared


def test_a_request_naming_another_script_root_changes_no_other_viewers_page(tmp_path):
    """gunicorn takes a request's `SCRIPT_NAME` from its trusted proxy's header, which a client behind the
    proxy can write: Ann's page asked for under `/evil` must not hand its pieces, links and form actions
    under `/evil/…`, to her teammate Abe's page."""
    reusing, fresh = two_apps(tmp_path)
    game = ApiGame(reusing.test_client())  # round 1, before the clues: a keyword swap form
    ann, abe = (browser(reusing, game.id, game.seats[name]) for name in ("Ann", "Abe"))
    evil = ann.get(f"/play/{game.id}", base_url="http://localhost/evil/")
    assert evil.status_code == 200 and f'action="/evil/play/{game.id}/swap-keyword"' in evil.get_data(as_text=True)
    page = abe.get(f"/play/{game.id}").get_data(as_text=True)
    assert "/evil" not in page
    assert f'action="/play/{game.id}/swap-keyword"' in page
    alone = browser(fresh, game.id, game.seats["Abe"]).get(f"/play/{game.id}").get_data(as_text=True)
    assert CSRF.sub("", page) == CSRF.sub("", alone)  # exactly the page rendered without reuse


LIVE_KEY = re.compile(r' data-key="[a-p]+"')


def test_a_table_screen_update_after_a_move_sends_only_the_regions_that_changed(tmp_path):
    """The table screen's script, after each move, gets exactly the regions whose HTML changed (the others it
    named by their keys), as a phone's does."""
    app, _ = two_apps(tmp_path)
    game = ApiGame(app.test_client(use_cookies=False))  # round 1, before the clues
    table = browser(app)
    path = table_path(table, game.host)
    shown = regions(table.get(path).get_data(as_text=True))
    moves = [
        lambda: game.announce("white"),
        lambda: game.announce("black"),
        lambda: game.transmission("white"),
        lambda: game.transmission("black"),
    ]
    sent_ids = []
    for move in moves:
        move()
        keys = " ".join(key for key, _ in shown.values() if key)
        sent = regions(table.get(path, headers={"X-Live-Keys": keys}).get_data(as_text=True))
        whole = regions(table.get(path).get_data(as_text=True))
        changed = {id_ for id_, (_, html) in whole.items() if LIVE_KEY.sub("", html) != LIVE_KEY.sub("", shown[id_][1])}
        assert set(sent) == changed and changed < set(whole)
        shown = whole
        sent_ids.append(set(sent))
    assert "news" not in sent_ids[0] and "news" in sent_ids[2]  # said at a reveal, not at the clues
    assert all("table-move" not in ids and "seat-links" not in ids for ids in sent_ids)


def test_a_reused_piece_that_reads_the_request_fails(tmp_path):
    """Pieces render in an environment of their own, without `request`, `session` or `g`: a piece that reads
    them fails, where the pages' environment would have rendered it."""
    app, _ = two_apps(tmp_path)
    with app.test_request_context("/"):
        pieces = app.extensions["pieces"]("en", "standard")
        for reading in ("request.path", "g.mode", "session", "request"):
            macro = f"{{% macro piece() %}}{{{{ {reading} }}}}{{% endmacro %}}"
            with pytest.raises(UndefinedError):
                pieces.from_string(macro).module.piece()
            app.jinja_env.from_string(macro).module.piece()  # the pages' environment has them
        assert pieces.from_string('{{ _("Table log") }}').render() == "Table log"
    assert not {"request", "session", "g"} & set(pieces.globals)


def test_teammates_share_an_update_only_when_it_is_the_same_for_both(tmp_path):
    """After a move, two of a team's phones showing the same regions get one rendering of their update (the
    second is the first's, shared); a phone that speaks another language, or of the other team, gets its own,
    even when every region is unchanged and the update is only the page's frame. Each answer is byte for byte
    the one an app that shares nothing gives."""
    shared_app, fresh_app = two_apps(tmp_path)
    game = ApiGame(shared_app.test_client(use_cookies=False), white=("Ann", "Abe", "Ada"))  # round 1
    path, shared = f"/play/{game.id}", shared_app.extensions["shared_answers"]
    x, y = [name for name in ("Ann", "Abe", "Ada") if not game.view(game.seats[name])["you"]["encryptor"]]
    z = next(name for name in ("Bea", "Bob") if not game.view(game.seats[name])["you"]["encryptor"])
    phones = {name: [browser(app, game.id, game.seats[name]) for app in (shared_app, fresh_app)] for name in (x, y, z)}

    def shown_by(name) -> str:
        page = phones[name][0].get(path).get_data(as_text=True)
        return " ".join(sorted(key for key, _ in regions(page).values() if key))

    def updates_after(move) -> list[str]:
        """Each phone's update after `move`, as its script fetches it, naming the regions it showed before."""
        shown = {name: shown_by(name) for name in phones}
        move()
        got = []
        for name, clients in phones.items():
            mine, alone = (client.get(path, headers={"X-Live-Keys": shown[name]}) for client in clients)
            assert CSRF.sub("", mine.get_data(as_text=True)) == CSRF.sub("", alone.get_data(as_text=True)), name
            got.append(mine.get_data(as_text=True))
        return got

    before = shared.hits
    first, second, black = updates_after(lambda: game.announce("white"))  # White's clues: White now decrypts
    assert shared.hits == before + 1 and first == second and 'id="task"' in first and first != black

    for client in phones[y]:
        client.get(f"{path}?lang=fr")
    before = shared.hits
    first, second, _ = updates_after(lambda: game.announce("black"))
    assert shared.hits == before and first != second

    before = shared.hits
    # Nothing changed: each update is only the page's frame, in its language and its team's colours.
    first, second, black = updates_after(lambda: None)
    assert "data-live" not in first + second + black and shared.hits == before
    assert len({first, second, black}) == 3


def test_a_phone_in_the_lobby_marks_its_own_seat_in_its_teams_roster_pushed_or_fetched(app):
    """The lobby's task panel is rendered from the view less the player's own seat, plus that seat: each phone
    of a team marks its own name, whether its page is fetched or its stream pushes it after a change."""
    game = ApiGame(app.test_client(use_cookies=False), white=("Ann", "Abe"), black=("Bea", "Bob"), start=False)
    path = f"/play/{game.id}"
    phones = {name: browser(app, game.id, game.seats[name]) for name in ("Ann", "Abe")}
    streams = {name: Stream(phone, f"{path}/stream") for name, phone in phones.items()}
    for stream in streams.values():
        stream.next()  # the page's ETag: it has fetched itself
    game.join("white", "Ada")  # a change: the roster grows, and each stream pushes it
    for name, phone in phones.items():
        pushed = streams[name].next()["body"]
        for html in (pushed, phone.get(path).get_data(as_text=True)):
            assert re.findall(r'<li class="me">([^<]*)</li>', html) == [name], name
        streams[name].close()
