"""The pages' command forms: each carries its target (what the page showed) from the view it was rendered
from, and the same form post answers the page's script in JSON, as the API would."""

from __future__ import annotations

import html
import re

from tools.driver import ApiGame, targets, wrong

from .api import browser, followed, table_path

FORM = re.compile(r'<form method="post" action="[^"]*/([\w-]+)"[^>]*>(.*?)</form>', re.S)
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
# Hidden fields that are not targets: the CSRF token, a careful button's second tap, and the commands' own
# fields (for skip-encryptor `team` is its own field; for move-player it is the target; a note's `keyword` or `line`).
NOT_TARGETS = {"csrf_token", "confirmed", "seat", "locked", "timer", "keyword", "line"}
# The commands whose forms carry a target (TARGETS.md), each of which the game below shows at least once.
TARGETED = {
    "guess",
    "clues",
    "swap-keyword",
    "keyword-guesses",
    "verdicts",
    "start",
    "rematch",
    "take-back",
    "correction",
    "answer-correction",
    "withdraw-correction",
    "skip-encryptor",
    "move-player",
    "switch-team",
    "seat-link",
    "note",
}


def command_forms(page: str) -> list[tuple[str, dict[str, str]]]:
    """(command, hidden fields) of every command form of a page, in order."""
    return [
        (command, {name: html.unescape(value) for name, value in HIDDEN.findall(body)})
        for command, body in FORM.findall(page)
    ]


def player(view: dict, seat: int) -> tuple[str, dict]:
    return next((team, p) for team, t in view["teams"].items() for p in t["players"] if p["seat"] == seat)


def expected_target(command: str, fields: dict, view: dict) -> dict:
    """What a form's target must say, from the view its page was rendered from (a null is left out)."""
    host, correction = view["host"] or {}, view["correction"] or {}
    target = {
        "guess": lambda: {"match": view["match"], "round": view["round"], "transmission": view["transmission"]},
        "clues": lambda: {"match": view["match"], "round": view["round"]},
        "swap-keyword": lambda: {"match": view["match"], "round": view["round"]},
        "keyword-guesses": lambda: {"match": view["match"]},
        "note": lambda: {"match": view["match"]},
        "verdicts": lambda: {"match": view["match"]},
        "start": lambda: {"match": view["match"]},
        "rematch": lambda: {"match": view["match"]},
        "take-back": lambda: {key: host["take_back"].get(key) for key in ("round", "transmission", "entry", "by")},
        "correction": lambda: {"round": host["correctable"]["round"], "transmission": host["correctable"]["team"]},
        "answer-correction": lambda: {"correction": correction.get("id")},
        "withdraw-correction": lambda: {"correction": correction.get("id")},
        "skip-encryptor": lambda: {
            "team": fields["team"],
            "round": view["round"],
            "encryptor": view["rounds"][-1]["transmissions"][fields["team"]]["encryptor"],
        },
        "move-player": lambda: {"team": player(view, int(fields["seat"]))[0]},
        "switch-team": lambda: {"team": view["you"]["team"]},
        "seat-link": lambda: {"name": player(view, int(fields["seat"]))[1]["name"]},
    }.get(command, dict)()
    return {key: str(value) for key, value in target.items() if value is not None}


class Pages:
    """The table screen and every phone of a game, each page checked against its viewer's view."""

    def __init__(self, app, game: ApiGame):
        self.game = game
        self.screens = [(game.client, table_path(game.client, game.tokens["host"]), game.tokens["host"])]
        self.screens += [(browser(app, game.id, token), f"/play/{game.id}", token) for token in game.seats.values()]
        self.seen: set[str] = set()

    def check(self) -> None:
        for client, path, token in self.screens:
            page = client.get(path).get_data(as_text=True)
            view = self.game.view(token)
            for command, hidden in command_forms(page):
                target = {k: v for k, v in hidden.items() if k not in NOT_TARGETS}
                assert target == expected_target(command, hidden, view), (path, command, view["phase"])
                self.seen.add(command)


def test_every_command_form_carries_its_target_from_the_view(app, client):
    game = ApiGame(client, start=False)
    pages = Pages(app, game)
    pages.check()  # the lobby: start, move-player, switch-team
    assert game.post("start", game.tokens["host"]).status_code == 200
    pages.check()  # round 1: clues, swap, skip, seat links
    for round_number in range(1, 9):  # nobody earns a token: the keyword tiebreak
        for team in ("white", "black"):
            game.announce(team, [f"r{round_number}{team}{n}" for n in range(3)])
            pages.check()  # take back the clues
        for team, other in (("white", "black"), ("black", "white")):
            code = game.code(team)
            if round_number > 1:
                game.guess(other, team, wrong(code))
                pages.check()  # take back a guess
            game.guess(team, team, code)
            pages.check()  # guess, then a reveal to correct
        if round_number == 2:  # a correction waits for both sides
            fix = {"decryption": wrong(code), "interception": code}
            assert game.post("correction", game.tokens["host"], **fix).status_code == 200
            pages.check()
            assert game.post("withdraw-correction", game.tokens["host"]).status_code == 200
    pages.check()  # keyword guesses
    for name in ("Ann", "Bea"):
        assert game.post("keyword-guesses", game.seats[name], guesses=["", "", "", ""]).status_code == 200
    pages.check()  # verdicts
    verdicts = {"white": [False] * 4, "black": [False] * 4}
    assert game.post("verdicts", game.tokens["host"], verdicts=verdicts).status_code == 200
    pages.check()  # rematch
    assert pages.seen >= TARGETED, TARGETED - pages.seen


# --- the page's script: the form's own post, answered in JSON -------------------------------

JSON = {"Accept": "application/json"}


def form_of(page, command: str) -> dict:
    return next(hidden for name, hidden in command_forms(page.get_data(as_text=True)) if name == command)


def test_a_form_posted_by_the_pages_script_gets_the_apis_answer(app, client):
    game = ApiGame(client)
    phone = browser(app, game.id, game.encryptor("white"))
    play = f"/play/{game.id}"
    clues = {**form_of(phone.get(play), "clues"), "clues": ["tide", "crater", "howl"]}
    answer = phone.post(f"{play}/clues", data=clues, headers=JSON)
    assert answer.status_code == 200
    assert answer.get_json() == {"version": len(game.events()), "events": ["clues_announced"]}

    # A refusal: the API's JSON sentence and status, and nothing written.
    before = game.events()
    again = phone.post(f"{play}/clues", data={**clues, "clues": ["x1", "y1", "z1"]}, headers=JSON)
    by_api = game.post("clues", game.encryptor("white"), clues=["x1", "y1", "z1"], match=1, round=1)
    assert (
        (again.status_code, again.get_json())
        == (by_api.status_code, by_api.get_json())
        == (409, {"code": "stale", "error": by_api.get_json()["error"]})
    )  # the form named its round
    assert game.events() == before

    # Without JavaScript the same post goes back to the page (post/redirect/get), which says why.
    page = followed(phone, phone.post(f"{play}/clues", data=clues))
    assert (
        page.status_code == 409
        and page.mimetype == "text/html"
        and again.get_json()["error"] in html.unescape(page.get_data(as_text=True))
    )


def test_the_table_screens_forms_answer_json_too(app, client):
    game = ApiGame(client)
    host = browser(app)
    table = table_path(host, game.tokens['host'])
    seat_link = form_of(host.get(table), "seat-link")
    answer = host.post(f"{table}/seat-link", data=seat_link, headers=JSON)
    assert answer.status_code == 200
    link = answer.get_json()["seat_link"]
    assert answer.get_json()["events"] == ["seat_link_issued"] and link["url"].endswith("/seat/" + link["token"])
    # A careful button's second tap (the script adds `confirmed`, as the armed form does without JavaScript).
    skip = {**form_of(host.get(table), "skip-encryptor"), "confirmed": "1"}
    answer = host.post(f"{table}/skip-encryptor", data=skip, headers=JSON)
    assert answer.status_code == 200 and answer.get_json()["events"] == ["encryptor_skipped"]
    # Without JavaScript: back to the table screen.
    answer = host.post(f"{table}/cancel-seat-link", data={**seat_link, "confirmed": "1"})
    assert answer.status_code == 303 and answer.headers["Location"] == table
    # Refused in JSON, with the API's status: no CSRF token.
    answer = host.post(f"{table}/start", data={}, headers=JSON)
    assert answer.status_code == 400 and answer.get_json()["code"] == "csrf"


def test_refused_clues_come_back_as_typed_without_javascript(app, client):
    """A refused clue form (a repeated clue, here) goes back to the page, which says why and holds the clues as
    the Encryptor typed them, to correct one rather than type all three again."""
    game = ApiGame(client)
    encryptor = game.encryptor("white")
    phone = browser(app, game.id, encryptor)
    said = ["zqlamp", "zqlamp", "zqtide"]
    body = {"clues": said, "csrf_token": phone.csrf, **targets("clues", game.view(encryptor))}
    page = followed(phone, phone.post(f"/play/{game.id}/clues", data=body)).get_data(as_text=True)
    assert "zqlamp" in page and all(f'value="{clue}"' in page for clue in said)
    assert phone.get(f"/play/{game.id}").get_data(as_text=True).count('value="zqlamp"') == 0  # said once
