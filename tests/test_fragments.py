"""Reused page pieces (companion/web/fragments.py) change no byte of any page.

Two apps on one database, with the same key: one reuses rendered pieces across every viewer and version of
the game (and across languages and games), the other renders every page afresh. After every command of
whole games, every screen (each phone, one of them in French, the table screen, a spectator) fetches its page
from both: the pages must be identical (but for the CSRF tokens, signed anew on each page). A piece keyed by
less than it reads (a viewer's secret, the language, the mode) would show up here as a difference.
"""

from __future__ import annotations

import re
import uuid

import pytest

from companion import create_app

from .api import browser, table_path
from .conftest import database_url
from .driver import ApiGame

CSRF = re.compile(r'(name="csrf_token" value=|name="csrf-token" content=)"[^"]*"')


def two_apps(tmp_path):
    settings = {"TESTING": True, "SECRET_KEY": "test-" + uuid.uuid4().hex, "DATABASE_URL": database_url(tmp_path)}
    reusing = create_app({**settings, "FRAGMENT_CACHE_CHARS": 4_000_000})
    fresh = create_app({**settings, "FRAGMENT_CACHE_CHARS": 0})
    for app in (reusing, fresh):
        app.extensions["games"].clock = lambda: 1_000_000.0     # the sand timer reads the same on both
    return reusing, fresh


class ComparedGame(ApiGame):
    """A game played through the API; after each command every screen compares its two pages."""

    def __init__(self, reusing, fresh, **kwargs):
        self.apps, self.screens, self.compared = (reusing, fresh), [], 0
        super().__init__(reusing.test_client(use_cookies=False), **kwargs)
        for seat, token in self.seat_tokens.items():
            self.screen(f"/play/{self.id}", seat_token=token, language="fr" if seat == 2 else None)
        table = [browser(app) for app in self.apps]
        self.screens.append((table_path(table[0], self.host), table))
        table_path(table[1], self.host)
        self.screen(f"/watch/{self.tokens['spectator']}")
        self.compare()

    def screen(self, path, seat_token=None, language=None):
        clients = [browser(app, self.id, seat_token) for app in self.apps]
        if language:
            for client in clients:
                client.get(f"{path}?lang={language}")
        self.screens.append((path, clients))

    def send(self, token, command, body):
        answer = super().send(token, command, body)
        self.compare()
        return answer

    def compare(self):
        for path, (reusing, fresh) in self.screens:
            pages = [client.get(path) for client in (reusing, fresh)]
            assert [p.status_code for p in pages] == [200, 200], path
            assert CSRF.sub("", pages[0].get_data(as_text=True)) == CSRF.sub("", pages[1].get_data(as_text=True)), \
                f"{path} differs after {self.compared} commands"
        self.compared += 1

    def reused(self) -> int:
        return self.apps[0].extensions["fragments"].hits


@pytest.mark.parametrize("language", ["en", "ko"])
def test_every_page_of_a_whole_game_is_the_same_with_reused_pieces(tmp_path, language):
    game = ComparedGame(*two_apps(tmp_path), white=("Ann", "Abe", "Ada"), black=("Bea", "Bob"),
                        settings={"language": language})
    game.round()
    game.round(white=(False, False), black=(True, True))
    while game.view(game.host)["phase"] == "playing":      # to round 8: Black wins on points
        game.round()
    assert game.compared > 40
    assert game.reused() > game.compared       # pieces were shared, or this compared nothing


def test_every_page_of_a_three_player_game_is_the_same_with_reused_pieces(tmp_path):
    apps = two_apps(tmp_path)
    ComparedGame(*apps).announce("white")      # a standard game's pieces are held first (same teams, other words)
    game = ComparedGame(*apps, white=("Ann", "Abe"), black=("Ivy",), settings={"mode": "three_player"})
    while game.view(game.host)["phase"] == "playing":
        game.three_player_round(decrypted=True, intercepted=game.compared % 2 == 0)
    assert game.reused() > game.compared
