"""What a group reads, worded as each language says it (issue 21, "Words"): French elides « de » before a
name that starts with a vowel and never assumes a player's gender; sides are named as teams; the
three-player game names no team where there is only one; Korean says "table screen" one way; a dead link
says what to do for its own kind of link."""

from __future__ import annotations

import html
import re

import pytest
from babel.messages.pofile import read_po

from companion.messages import elided
from tools.driver import ApiGame

from .api import browser, table_path
from .test_i18n import ROOT


def text(page) -> str:
    """A page's words, as a player reads them."""
    body = re.sub(r"<[^>]+>", " ", page.get_data(as_text=True))
    return re.sub(r"\s+", " ", html.unescape(body))


@pytest.mark.parametrize(
    "name, said",
    [
        ("Amélie", "d’Amélie"),
        ("Émile", "d’Émile"),
        ("Yves", "d’Yves"),
        ("Hugo", "d’Hugo"),
        ("Bob", "de Bob"),
        ("Yann", "de Yann"),
    ],
)
def test_french_elides_de_before_a_name_that_starts_with_a_vowel_sound(name, said):
    assert elided("la place de %(name)s", {"name": name}) % {"name": name} == f"la place {said}"
    assert elided("pour que %(name)s joue", {"name": "Ann"}) == "pour qu’%(name)s joue"
    assert elided("the code %(name)s", {"name": "Ann"}) == "the code %(name)s"  # English has no « de »


def test_french_pages_say_d_amelie_and_never_assume_a_gender(app, client):
    game = ApiGame(client, white=("Amélie", "Bob"), black=("Bea", "Bruno"), settings={"language": "fr"})
    ameli, bob = game.seats["Amélie"], game.seats["Bob"]
    game.ok(game.post("seat-link", game.host, seat=game.view(ameli)["viewer"]["seat"]))
    link = next(iter(app.extensions["games"].seat_links(game.id).values()))
    claim = text(client.get(f"/seat/{link}"))
    assert "Prendre la place d’Amélie" in claim and "de Amélie" not in claim
    phone = browser(app)
    claimed = phone.post(f"/seat/{link}", data={"csrf_token": phone.csrf})
    assert claimed.status_code == 303
    waiting = text(phone.get(claimed.headers["Location"]))
    assert "C’est presque prêt, Amélie" in waiting and "Presque prêt" not in waiting and "de Amélie" not in waiting
    teammate = text(browser(app, game.id, bob).get(f"/play/{game.id}"))
    assert "Laisser entrer le nouveau téléphone d’Amélie" in teammate and "de Amélie" not in teammate
    assert "Bob · Équipe blanche" in teammate  # a heading names the team, not « Blanc »
    game.ok(game.post("let-in", bob, seat=game.view(bob)["teams"]["white"]["players"][0]["seat"], name="Amélie"))
    table = browser(app)
    log = text(table.get(table_path(table, game.host)))
    assert "La place d’Amélie est passée sur un nouveau téléphone" in log and "de Amélie" not in log


def test_the_three_player_game_names_no_team_beside_its_only_encryptor_and_counts_tokens_past_two(app, client):
    game = ApiGame(client, white=("Tess", "Tom"), black=("Ivy",), settings={"mode": "three_player"})
    table = browser(app)
    page = text(table.get(table_path(table, game.host)))
    assert re.search(r"\b(Tess|Tom): writing…", page) and "(The team): writing" not in page
    game.three_player_round(decrypted=False)  # the Interceptor's first token
    game.three_player_round(decrypted=False, intercepted=True)  # two more at once: three in all
    assert game.view(game.host)["teams"]["black"]["tokens"]["interceptions"] == 3
    page = text(table.get(table_path(table, game.host)))
    assert "3 tokens" in page and "tokens of 2" not in page


def test_korean_says_table_screen_one_way_and_the_interceptor_s_guess_plainly():
    with open(ROOT / "translations" / "ko" / "LC_MESSAGES" / "messages.po", "rb") as po:
        said = " ".join(m.string if isinstance(m.string, str) else " ".join(m.string) for m in read_po(po) if m.id)
    assert "공용 화면" not in said and "테이블 화면" in said
    assert "가로채는 사람의 가로채기" not in said


@pytest.mark.parametrize(
    "path, words",
    [
        ("/join/{dead}", "Ask the table screen for your team's QR code"),
        ("/seat/{dead}", "Ask the table screen for a new seat link"),
        ("/move/{dead}", "tap “Move the table screen to another device” again"),
        ("/watch/{dead}", "This link to watch the game no longer works"),
    ],
)
def test_a_dead_link_says_what_to_do_for_its_own_kind(client, path, words):
    answer = client.get(path.format(dead="x" * 32))
    assert answer.status_code == 403 and words in text(answer)
    if "join" not in path:
        assert "your team's QR code" not in text(answer)
