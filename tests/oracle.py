"""Who may see what: the one oracle the view tests and the leak audit compare real answers against.

`Oracle(events)` is the game its event log replays to, with what only the log knows (every word each team
was dealt this match, a swapped-out one included; the clues the table took back). For a viewer (anything
with `kind`, `seat` and `team`, as `companion.rules.access.Who`) it says, from the rules alone and not from
`companion/views.py`, which strings the viewer may not know yet (`hidden_words`; a team's notes are never
anyone else's), every code or guess it may see anywhere (`visible_codes`), the code it is encrypting now
(`own_code`) and its view's version (`version_seen`: the events it could see, counted from the log in
`versions_seen`). What needs the game only
is a function too: which of a transmission's code and guesses a viewer may see (`sees`), its own code
(`own_code`). `walk` finds every code-like value in a JSON document.
"""

from __future__ import annotations

import re

from companion.rules import KEYWORD_GUESSING, KEYWORD_JUDGING, OVER, PLAYING, other, replay

CODE_STRING = re.compile(r"^\s*\[?\s*[1-4]\s*[-,./ ]?\s*[1-4]\s*[-,./ ]?\s*[1-4]\s*\]?\s*$")


def team_of(viewer) -> str | None:
    """The team a viewer plays on (a seated player's), else None (also for no viewer: a summary's reader)."""
    return viewer.team if viewer is not None and viewer.kind == "seat" else None


def sees(viewer, t) -> dict[str, bool]:
    """Which of a transmission's code (on the board) and guesses `viewer` may see now: all once it is
    revealed; before, a team its own guess only (its Encryptor's code is the Encryptor's alone: `own_code`)."""
    team = team_of(viewer)
    return {
        "code": t.resolved,
        "decryption": t.resolved or team == t.team,
        "interception": t.resolved or team == other(t.team),
    }


def own_code(game, viewer):
    """The code `viewer` is encrypting right now, if any (it alone sees it before the reveal)."""
    if viewer.kind != "seat" or game.phase != PLAYING or game.round is None:
        return None
    own = game.round.transmissions.get(viewer.team)
    return own.code if own and own.encryptor == viewer.seat and not own.resolved else None


def transmission(game, number, team):
    """Round `number`'s transmission of `team`, if the game has it."""
    r = next((r for r in game.rounds if r.number == number), None)
    return r.transmissions.get(team) if r else None


def private_to(event: dict) -> str | None:
    """The team an event is for, when it is for one team only: a draft guess (its guessing team's) or a note
    (its writing team's); None for an event everyone sees."""
    if event["type"] == "guess_saved" and not event["sealed"]:
        return event["by"]
    if event["type"] == "note_written":
        return event["team"]
    return None


def versions_seen(events: list[dict], viewer) -> list[int]:
    """The version `viewer`'s view had after each event of the log: how many events it could see, which is
    every event but the drafts and notes of a team it was not on when they were saved (a seat's team; no team
    for the table, spectators and links). The log keeps a team's latest draft of each transmission and latest
    text of each note only: such an event says how many of them its team had saved (`ordinal`), the replaced
    ones included."""
    public, private, seen, teams, after = 0, {}, {}, {}, []  # seen: seat -> private events it saw; teams: seat -> team
    for e in events:
        team = private_to(e)
        if team is not None:
            had = private.get(team, 0)
            private[team] = e.get("ordinal", had + 1)
            for seat in (s for s, on in teams.items() if on == team):
                seen[seat] = seen.get(seat, 0) + private[team] - had
        else:
            public += 1
            if e["type"] in ("player_joined", "player_moved"):
                teams[e["seat"]] = e["team"]
            elif e["type"] in ("player_left", "player_removed"):
                teams.pop(e["seat"], None)
            elif e["type"] == "teams_shuffled":
                teams.update({seat: team for team in ("white", "black") for seat in e[team]})
        seated = viewer.kind == "seat" and viewer.seat in teams
        after.append(public + (seen.get(viewer.seat, 0) if seated else 0))
    return after


class Oracle:
    def __init__(self, events: list[dict]):
        self.events = list(events)
        self.game = replay(self.events)
        self.dealt: dict[str, list[str]] = {}  # this match: every word each team held
        for e in self.events:
            if e["type"] == "rematch_started":
                self.dealt = {}  # a rematch deals when it starts
            elif e["type"] == "game_started":
                self.dealt = {t: list(w) for t, w in e["keywords"].items()}
            elif e["type"] == "keyword_swapped":
                self.dealt[e["team"]].append(e["word"])
        self.notes: list[tuple[int, str, str]] = []  # (match, team, text) of every note ever written
        match = 1
        for e in self.events:
            if e["type"] == "rematch_started":
                match += 1
            elif e["type"] == "note_written" and e["text"]:
                self.notes.append((match, e["team"], e["text"]))
        self.withdrawn: dict[str, int] = {}  # a clue taken back -> the Encryptor who wrote it
        for i, e in enumerate(self.events):
            if e["type"] == "entry_taken_back" and e["entry"] == "clues":
                t = replay(self.events[:i]).round.transmissions[e["transmission"]]
                self.withdrawn.update({clue: t.encryptor for clue in t.clues})

    def version_seen(self, v) -> int:
        """The version this viewer's view shows (see `versions_seen`)."""
        return versions_seen(self.events, v)[-1] if self.events else 0

    @property
    def public_keywords(self) -> bool:
        return self.game.phase in (KEYWORD_JUDGING, OVER)

    def hidden_words(self, v) -> dict[str, str]:
        """Strings (matched case-insensitively) this viewer may not know: keywords, clues, keyword guesses,
        notes; each with what it is."""
        g, team = self.game, team_of(v)
        hidden = {}
        if not self.public_keywords:
            for t, words in self.dealt.items():
                if t != team:
                    now = g.keywords.get(t, ())
                    hidden.update({w: f"{t}'s {'keyword' if w in now else 'swapped-out keyword'} {w}" for w in words})
        hidden.update(self._unopened_clues(v))
        announced = {c for r in g.rounds for t in r.transmissions.values() for c in t.clues or ()}
        for clue, seat in self.withdrawn.items():
            if clue not in announced and not (v.kind == "seat" and v.seat == seat):
                hidden[clue] = f"a clue the table took back ({clue})"
        for match, t, text in self.notes:  # a team's notes: its players', this match; nobody else's
            if not (t == team and match == g.match):
                hidden[text] = f"{t}'s note {text} of match {match}"
        if g.phase == KEYWORD_GUESSING:
            for t, guesses in g.tiebreak.keyword_guesses.items():
                if guesses and t != team:
                    hidden.update({x: f"{t}'s sealed keyword guess {x}" for x in guesses if x})
        return hidden

    def _unopened_clues(self, v) -> dict[str, str]:
        """The clues announced but not open yet to this viewer (as `hidden_words`)."""
        g, hidden = self.game, {}
        for r in g.rounds:
            for t in r.transmissions.values():
                visible = (
                    t.resolved
                    or (g.phase == PLAYING and r.current is t)
                    or (v.kind == "seat" and v.seat == t.encryptor)
                )
                if t.clues and not visible:
                    hidden.update({c: f"{t.team}'s unopened clue {c}" for c in t.clues})
        return hidden

    def visible_codes(self, v) -> set[tuple]:
        """Every code or guess this viewer may see anywhere (the value check behind the place checks)."""
        g = self.game
        out = set()
        for r in g.rounds:
            for t in r.transmissions.values():
                shown = sees(v, t)
                out |= {
                    guess.code
                    for part, guess in (("decryption", t.decryption), ("interception", t.interception))
                    if shown[part]
                }
                if shown["code"] or (v.kind == "seat" and v.seat == t.encryptor):
                    out.add(t.code)
        if g.correction:
            out |= {g.correction.decryption, g.correction.interception}
        for n in g.notices:
            out |= {tuple(n[k]) for k in ("decryption", "interception") if n.get(k)}
        out.discard(None)
        return {tuple(c) for c in out}

    def own_code(self, v):
        return own_code(self.game, v)


def code_like(value) -> bool:
    if isinstance(value, list) and len(value) == 3:
        return all(
            (isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 4)
            or (isinstance(x, str) and x.strip() in ("1", "2", "3", "4"))
            for x in value
        )
    return isinstance(value, str) and bool(CODE_STRING.match(value))


def walk(value, path=()):
    """(path, value) of every code-like value in a JSON document."""
    if code_like(value):
        yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, path + (index,))
