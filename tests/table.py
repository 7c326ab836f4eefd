"""A test driver that plays games through the pure rules, the way a table would."""

from __future__ import annotations

import itertools
import random

from companion.rules import HOST, Actor, Game, decide, replay

WORDS = [f"KW{i:02d}X" for i in range(40)]   # no word is part of another


def wrong(code) -> list[int]:
    """Some valid code other than `code`."""
    return next(list(c) for c in itertools.permutations((1, 2, 3, 4), 3) if tuple(c) != tuple(code))


class Table:
    def __init__(self, white=("Ann", "Abe"), black=("Bea", "Bob"), seed=7, words=WORDS, start=True,
                 custom_words=None, **settings):
        """A game with these players; `settings` go into the create command (mode, timer...).

        `words` is the language pack the service would pass; `custom_words` the host's own list."""
        if custom_words is not None:
            settings["words"] = custom_words
        self.rng = random.Random(seed)
        self.game = Game()
        self.events: list[dict] = []
        self.words = list(words)
        self._clue_numbers = itertools.count(1)
        self.do({"type": "create", **settings}, HOST)
        for team, names in (("white", white), ("black", black)):
            for name in names:
                self.do({"type": "join", "name": name}, Actor("join", team))
        if start:
            self.do({"type": "start", "words": self.words}, HOST)

    def do(self, command: dict, actor: Actor) -> list[dict]:
        events = decide(self.game, command, actor, self.rng)
        self.game = replay(events, self.game)
        self.events += events
        return events

    # --- who ---------------------------------------------------------------------------------
    def seat(self, seat: int) -> Actor:
        return Actor("seat", self.game.player(seat).team, seat)

    def encryptor(self, team: str) -> Actor:
        return self.seat(self.game.round.transmissions[team].encryptor)

    def guesser(self, by: str, transmission: str) -> Actor:
        """A player of team `by` who may guess `transmission`'s code (never its own Encryptor)."""
        encryptor = self.game.round.transmissions[transmission].encryptor
        return next(self.seat(p.seat) for p in self.game.team_players(by) if p.seat != encryptor)

    def code(self, team: str) -> list[int]:
        return list(self.game.round.transmissions[team].code)

    # --- what ------------------------------------------------------------------------------
    def announce(self, team: str, clues=None) -> list[dict]:
        clues = clues or [f"clue{next(self._clue_numbers):03d}x" for _ in range(3)]
        return self.do({"type": "announce_clues", "clues": clues}, self.encryptor(team))

    def guess(self, by: str, transmission: str, code, confirm=True) -> list[dict]:
        return self.do({"type": "guess", "code": list(code), "confirm": confirm},
                       self.guesser(by, transmission))

    def transmission(self, team: str, decrypted=True, intercepted=False) -> list[dict]:
        """Both guesses for `team`'s transmission (no interception in round 1)."""
        code = self.code(team)
        events = []
        if self.game.round.interception_allowed:
            other = "black" if team == "white" else "white"   # in a three-player game, the Interceptor
            events += self.guess(other, team, code if intercepted else wrong(code))
        events += self.guess(team, team, code if decrypted else wrong(code))
        return events

    def round(self, white=(True, False), black=(True, False)) -> list[dict]:
        """A whole round: (decrypted, intercepted) for White's transmission, then Black's."""
        self.announce("white")
        self.announce("black")
        return self.transmission("white", *white) + self.transmission("black", *black)

    def three_player_round(self, decrypted=True, intercepted=False) -> list[dict]:
        """A round of the three-player game: the team's one transmission."""
        self.announce("white")
        return self.transmission("white", decrypted, intercepted)

    def quiet_rounds(self, count: int) -> None:
        for _ in range(count):
            self.round()
