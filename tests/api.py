"""A test driver that plays games through the JSON API with bearer tokens, like a `curl` user, and the
helpers web tests share (a browser with its cookie and CSRF token, the sentence of a refusal)."""

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
    message = REFUSALS[code]
    variants = (list(message.values()) if isinstance(message, dict)
                else list(message[:2]) if isinstance(message, tuple) else [message])
    with app.test_request_context("/api/x"):
        templates = [str(variant) for variant in variants]
    return re.compile("|".join("".join(".+" if part.startswith("%(") else re.escape(part)
                                       for part in re.split(r"(%\(\w+\)s)", template))
                               for template in templates) + r"\Z", re.S)


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


def wrong(code):
    return [code[1], code[0], code[2]]


class ApiGame:
    def __init__(self, client, white=("Ann", "Abe"), black=("Bea", "Bob"), start=True, settings=None):
        """A game with these players; `settings` go into the create request (language, mode...)."""
        self.client = client
        created = client.post("/api/games", json=settings).get_json()
        self.id = created["game_id"]
        self.tokens = created["tokens"]          # host, spectator, white, black (join)
        self.urls = created["urls"]
        self.seats: dict[str, str] = {}          # player name -> seat token
        for team, names in (("white", white), ("black", black)):
            for name in names:
                answer = self.post("join", self.tokens[team], name=name)
                assert answer.status_code == 200, answer.get_json()
                self.seats[name] = answer.get_json()["token"]
        if start:
            assert self.post("start", self.tokens["host"]).status_code == 200

    # --- raw requests ----------------------------------------------------------------------
    def post(self, command, token=None, body=None, **fields):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.client.post(f"/api/games/{self.id}/{command}", json=body if body is not None else fields,
                                headers=headers)

    def view(self, token):
        answer = self.client.get(f"/api/games/{self.id}", headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()

    def events(self):
        store = self.client.application.extensions["games"].store
        return [event for _, event, _ in store.events_after(self.id)]

    # --- who -------------------------------------------------------------------------------
    def encryptor(self, team) -> str:
        players = self.view(self.tokens["host"])["teams"][team]["players"]
        seat = next(p for p in players if p["encryptor"])["name"]
        return self.seats[seat]

    def teammate(self, team, of_token=None) -> str:
        """A player of `team` other than this round's Encryptor of `team`."""
        encryptor = self.encryptor(team)
        players = self.view(self.tokens["host"])["teams"][team]["players"]
        return next(self.seats[p["name"]] for p in players if self.seats[p["name"]] != encryptor)

    def code(self, team):
        return self.view(self.encryptor(team))["you"]["code"]

    # --- what ------------------------------------------------------------------------------
    def announce(self, team, clues):
        answer = self.post("clues", self.encryptor(team), clues=clues)
        assert answer.status_code == 200, answer.get_json()

    def guess(self, by, transmission, code, confirm=True):
        token = self.teammate(by) if by == transmission else self.encryptor(by)
        answer = self.post("guess", token, code=code, confirm=confirm)
        assert answer.status_code == 200, answer.get_json()
        return answer
