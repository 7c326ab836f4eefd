"""A stateful property test of the rules: random tables send random commands, legal and illegal.

A hypothesis `RuleBasedStateMachine` creates a game (standard, teams of 2-4, or three-player: 2 on
"white" against 1 Interceptor on "black"), seats players, starts, then lets random actors (the host, every
seat, join links, seat links, a spectator, unknown seats) send every kind of command with sensible,
wrong and malformed values. A "play" rule makes the right actors play the game on, so most examples reach
the end of a match (a win, the tiebreak, the five rounds of the three-player game) and rematches.

After every single command the invariants below are checked. Each one names the part of the rules in
`docs/rules.md` it comes from (cited as "rules.md <section>"):

- a refused command (RuleError) gives no events and leaves the state exactly as it was; `decide` never
  touches the state it is given; folding the events into a separate copy, and replaying the whole log from
  scratch after every step, give exactly the state folded command by command, also the log as stored, where
  a replaceable event replaced the earlier ones of its slot (rules/audience.py); an accepted command without
  events is a draft equal to the team's draft or a note as it stands, and changes nothing; a lobby holds
  no notes (a rematch starts blank);
- per-viewer versions (rules/audience.py): every viewer's version moves by exactly the number of the
  command's events it can see, and a viewer whose version did not move sees exactly the same view;
- tokens never go negative and are exactly what the resolved transmissions gave; a transmission gives at
  most one token of each kind to a team (the Interceptor: two); in the standard game no team ever has more
  than 2 of a kind, and at the start of every round each has at most 1 (else the game would have ended);
  in the three-player game the Interceptor has at most 1 during play and at most 3 at the end;
- every finished round but the last ended with no result, judged by an independent reading of rules.md
  ("End of a round", "Three-player game") that must also agree with round_end.py / three_player.py; the
  game is in play iff its last round is unfinished, and out of play (over, tiebreak) exactly when that
  reading says so, with the right winner, reason and tiebreak cause; never more than max_rounds rounds;
  no tiebreak in the three-player game;
- one transmission and one Encryptor per transmitting team and round, a player of that team (never the
  Interceptor), following the rotation; an Encryptor's own-team guess is refused; no interception in
  round 1; skips and rematches move the rotation as docs/rules.md says;
- codes are 3 distinct digits 1-4; 4 keywords a screen, no word on two screens, changed only by the deal
  and one swap; clues are never an own keyword nor a digit of the code, never reused by the team, never revised;
- the refusals match independent oracles for clues, guesses, starting, taking back, seat links, rematch,
  switching teams, shuffling them and setting the sand timer; a rematch goes back to the lobby with the same
  seats, a shuffle splits the players as evenly as possible, and each match's first Encryptors are the
  players who have gone longest without encrypting.
"""

from __future__ import annotations

import copy
import re
import os
import random
from itertools import combinations

import pytest
from hypothesis import HealthCheck, Phase, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from companion.rules import (
    ALL_CODES,
    HOST,
    KEYWORD_GUESSING,
    KEYWORD_JUDGING,
    LOBBY,
    OVER,
    PLAYING,
    TEAMS,
    Who,
    Game,
    RuleError,
    decide,
    other,
    parse_guess,
    proposed_verdicts,
    replay,
    start_problem,
)
from companion.rules import round_end as end
from companion.rules import three_player
from companion.rules.queries import correctable, last_entry
from companion.rules.audience import EVERYONE, seat_audience, team_audience
from companion.rules.commands import BY_TYPE
from companion.rules.events import EVENT_TYPES, read
from companion.rules.fold import fold
from companion.rules.state import Guess, Notes, Tokens, token_awards
from companion.rules.event import Event
from companion.rules.words import contains_word, same_word
from companion.rules.access import SPECTATOR, Kind
from companion.views import as_seen_by, version_for, view_for, view_key

from tools.driver import Table, wrong

from .tier import examples

WORDS = [f"KW{i:02d}X" for i in range(40)]  # no word is part of another
WATCHER = Who("spectator")  # a spectator trying a command
NAMES = ["Ann", "Abe", "Amy", "Al", "Bea", "Bob", "Ben", "Bo", "Cy", "ann"]

# Guesses as a phone could send them, with whether they are a guess at all (docs/rules.md "Readings we
# chose": any three digits 1-4, a repeated digit is a guess that is simply wrong; "314" and "3-1-4" are fine).
CODE_VALUES = [
    ([1, 1, 2], True),
    ([0, 5, 9], False),
    ("12", False),
    ("abc", False),
    (None, False),
    ([1, 2, 3, 4], False),
    ([True, 2, 3], False),
    ("3-1-4", True),
    (["4", "3", "2"], True),
    ("314", True),
    (314, False),
    ([1.0, 2, 3], False),
    ([], False),
    ({"a": 1}, False),
]

# Values of any field, for commands sent with a garbage body (JSON-ish: what the API passes through).
JUNK = [
    None,
    True,
    False,
    0,
    1,
    2,
    3,
    4,
    5,
    99,
    -1,
    "",
    "x",
    "white",
    "black",
    "1",
    [],
    [1],
    ["white"],
    [1, 2, 3],
    {"white": [True] * 4},
    {"a": 1},
    1.5,
]

# The team a skip names: the two sides, an unknown one, and JSON that is not a name at all.
SKIP_TEAMS = ["white", "black", "grey", None, ["white"], {"white": 1}]

# Every command of the rules (the registry: a new command is sent at once), and one that doesn't exist.
COMMAND_TYPES = [*BY_TYPE, "no_such_command"]
# Every field and target any command declares.
FIELDS = sorted({f.name for c in BY_TYPE.values() for f in (*c.fields, *c.targets)})

# Commands whose immediate repeat may be accepted, being harmless: a draft saved again, the same sand timer
# set again, a fresh seat link or move link (the earlier one stops working), another shuffle, a note written again.
REPEATABLE = {
    ("guess", False),
    ("set_timer", None),
    ("issue_seat_link", None),
    ("shuffle_teams", None),
    ("offer_table_move", None),
    ("write_note", None),
}


# A body each command would accept but for its target (the target is added by the rule).
STALE_BODIES = {
    "guess": lambda g: {"code": [1, 2, 3], "confirm": True},
    "announce_clues": lambda g: {"clues": ["zz1", "zz2", "zz3"]},
    "swap_keyword": lambda g: {"number": 1, "words": WORDS},
    "keyword_guesses": lambda g: {"guesses": ["", "", "", ""]},
    "judge_keywords": lambda g: {"verdicts": {t: [False] * 4 for t in TEAMS}},
    "start": lambda g: {"words": WORDS},
    "rematch": lambda g: {},
    "take_back": lambda g: {},
    "propose_correction": lambda g: {"decryption": [1, 2, 3], "interception": [2, 1, 3]},
    "answer_correction": lambda g: {"accept": True},
    "withdraw_correction": lambda g: {},
    "skip_encryptor": lambda g: {"team": "white"},
    "move_player": lambda g: {"seat": g.players[0].seat if g.players else 1},
    "switch_team": lambda g: {},
    "issue_seat_link": lambda g: {"seat": g.players[0].seat if g.players else 1},
}


def seen_target(game: Game, command: dict, actor: Who) -> dict:
    """The target a page showing `game` would send with `command` (rules/commands.py `targets`)."""
    kind = command["type"]
    number = game.round.number if game.round else 0
    player = game.player(actor.seat) if actor.kind == "seat" else None
    if kind == "guess":
        current = game.round.current if game.phase == PLAYING else None
        return {"match": game.match, "round": number, "transmission": current.team if current else None}
    if kind in ("announce_clues", "swap_keyword"):
        return {"match": game.match, "round": number}
    if kind in ("keyword_guesses", "judge_keywords", "start", "rematch"):
        return {"match": game.match}
    if kind == "take_back":
        return {"round": number, **(last_entry(game) or {})}
    if kind == "propose_correction":
        found = correctable(game)
        return {"round": found[0].number, "transmission": found[1].team} if found else {}
    if kind in ("answer_correction", "withdraw_correction"):
        return {"correction": game.correction.id} if game.correction else {}
    if kind == "skip_encryptor":
        t = game.round.transmissions.get(command.get("team")) if game.round and game.phase == PLAYING else None
        return {"round": number, **({"encryptor": t.encryptor} if t else {})}
    if kind == "move_player":
        moved = game.player(command.get("seat")) if type(command.get("seat")) is int else None
        return {"team": moved.team} if moved else {}
    if kind == "switch_team":
        return {"team": player.team} if player else {}
    if kind == "issue_seat_link":
        holder = game.player(command.get("seat")) if type(command.get("seat")) is int else None
        return {"name": holder.name} if holder else {}
    return {}


def off_by_one(field: str, value):
    """A target value the game is not at: another match, round, team, entry, correction, seat or name."""
    if field in ("transmission", "team", "by"):
        return other(value) if value in TEAMS else "white"
    if field == "entry":
        return "guess" if value == "clues" else "clues"
    if field == "name":
        return f"{value}x"
    return (value if type(value) is int else 0) + 1


def tidy(text: str) -> str:
    return " ".join(text.split())


def note_now(game: Game, team: str, command: dict) -> str:
    """What a team's note that `command` names says now ("" for none)."""
    notes = game.notes[team]
    return notes.keywords[command["keyword"] - 1] if "keyword" in command else notes.lines.get(command["line"], "")


def rulebook_end(game: Game, tokens: dict, number: int):
    """What the end of round `number` leads to, written straight from rules.md, independently of round_end.py.

    Returns None (next round), ("win", winner, reason) or ("tiebreak", cause)."""
    if game.three_player:
        # rules.md "Three-player game": the Interceptor wins as soon as a round ends with 2 tokens; if that
        # has not happened after round 5, the team wins. No tiebreak.
        if tokens["black"].interceptions >= 2:
            return ("win", "black", three_player.INTERCEPTOR_TOKENS)
        if number >= 5:
            return ("win", "white", three_player.TEAM_SURVIVED)
        return None
    # rules.md "End of a round": 2 Interceptions point at the team, 2 Miscommunications at the other team.
    reasons = {}
    for team in TEAMS:
        if tokens[team].interceptions >= 2:
            reasons.setdefault(team, set()).add(end.INTERCEPTIONS)
        if tokens[team].miscommunications >= 2:
            reasons.setdefault(other(team), set()).add(end.MISCOMMUNICATIONS)
    if len(reasons) == 2:
        return ("tiebreak", end.COLLISION)
    if len(reasons) == 1:
        [(winner, why)] = reasons.items()
        return ("win", winner, end.BOTH if len(why) == 2 else next(iter(why)))
    if number >= 8:  # rules.md "At most 8 rounds"
        return ("tiebreak", end.ROUND_LIMIT)
    return None


def app_end(game: Game, tokens: dict, number: int):
    """The same question asked of the app's own functions, in the same shape."""
    if game.three_player:
        found = three_player.round_end(tokens[three_player.INTERCEPTOR].interceptions, number)
        return None if found is None else ("win", *found)
    found = end.round_end(tokens, number)
    if found is None:
        return None
    kind, detail = found
    return ("win", *detail) if kind == "win" else ("tiebreak", detail)


class DecryptoTable(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.game = Game()
        self.snapshot = Game()  # the same events folded into a separate object, to compare with
        self.events: list[Event] = []
        self.stored: list[dict] = []  # the log as the store keeps it: its JSON, one event per slot (store.py)
        self.rng = random.Random(0)
        self.clue_numbers = 0
        self.wrong_decryption = 0  # in percent, per example: how often the "play" rule decrypts wrong
        self.right_interception = 0  # ... and intercepts right
        self.turns: dict[int, tuple] = {}  # seat -> (match, round) of its last turn as Encryptor, kept here

    # --- sending commands --------------------------------------------------------------------

    def send(self, command: dict, actor: Who, must_succeed: bool = False):
        """decide + fold, checking every invariant; returns the events, or the RuleError's code."""
        game = self.game
        untouched = self.snapshot  # a separate object equal to `game` (checked after each command)
        try:
            events = decide(game, command, actor, self.rng)
        except RuleError as error:
            # Invariant (rules/decide.py contract; docs/rules.md "an illegal command changes nothing"):
            # a refused command produces no events and leaves the state exactly as it was.
            assert game == untouched, f"refused {command} ({error.code}) changed the state"
            assert not must_succeed, f"legal move {command} by {actor} refused: {error.code} {error.params}"
            return error.code
        # decide is pure: even an accepted command does not touch the state it was given.
        assert game == untouched, f"decide mutated the state on {command}"
        if not events:
            # Only a draft equal to the team's own draft, or a note as it stands, is accepted without events
            # (issue 20, issue 21).
            if command["type"] == "write_note":
                assert note_now(game, game.player(actor.seat).team, command) == tidy(command["text"]), command
                return events
            assert command["type"] == "guess" and command.get("confirm") is False, f"{command}: no event"
            guess = game.round.current.guess_by(actor.team)
            assert not guess.sealed and guess.code == tuple(parse_guess(command.get("code"))), command
            return events
        assert all(e.type in EVENT_TYPES for e in events)
        # rules/event.py: an event reads back from its stored JSON as itself.
        assert all(read(e.to_json()) == e for e in events), events
        after = replay(events, game)
        self.check_command(command, actor, game, events, after)
        self.game = after
        self.events += events
        for event in events:
            stored = event.to_json()
            if stored.get("slot"):
                self.stored = [e for e in self.stored if e.get("slot") != stored["slot"]]
            self.stored.append(stored)
        # The state is the fold of its events (rules/state.py): folding the same events into a separate
        # copy gives the same state (and the whole log is replayed from scratch after every step, below).
        for event in events:
            fold(self.snapshot, event)
        assert self.snapshot == after
        self.check_state()
        self.check_repeat(command, actor, game, after)
        self.check_versions(events, game, after)
        return events

    @staticmethod
    def check_versions(events: list[Event], before: Game, after: Game) -> None:
        """Issues 12 and 20 (per-viewer versions, rules/audience.py): each viewer's version moves by exactly
        the number of the command's events it can see (dense: +1 each; the other team's drafts move nothing),
        and a viewer whose version did not move sees exactly the view it saw (no screen is left behind)."""
        seats = {p.seat for p in before.players} & {p.seat for p in after.players}
        viewers = [Who("host"), SPECTATOR] + [Who("seat", seat=s) for s in sorted(seats)]
        for viewer in viewers:
            state, visible = before, 0
            for event in events:  # who sees an event: everyone, or the team of the player as it was
                player = state.player(viewer.seat) if viewer.seat else None
                sees = (EVERYONE, team_audience(player.team), seat_audience(player.seat)) if player else (EVERYONE,)
                visible += event.audience() in sees
                state = replay([event], state)
            moved = version_for(after, viewer) - version_for(before, viewer)
            assert moved == visible, (viewer, [e.type for e in events], moved, visible)
            if moved == 0:
                assert view_for(after, viewer) == view_for(before, viewer), (viewer, [e.type for e in events])

    def check_repeat(self, command: dict, actor: Who, before: Game, after: Game) -> None:
        """Issue 11: the same command sent again (a double tap, a retry), naming what its player saw before
        it took effect, is refused and changes nothing (unless repeating it is harmless: REPEATABLE)."""
        key = (command["type"], command.get("confirm") if command["type"] == "guess" else None)
        if key in REPEATABLE or command["type"] in ("create", "join", "claim_seat"):
            return
        again = {**command, **seen_target(before, command, actor)}
        untouched = copy.deepcopy(after)
        try:
            decide(after, again, actor, random.Random(0))
        except RuleError:
            assert after == untouched
        else:
            raise AssertionError(f"the repeat of {again} by {actor} was accepted")

    # --- who ---------------------------------------------------------------------------------

    def seat(self, seat: int) -> Who:
        return Who("seat", self.game.player(seat).team, seat)

    def actors(self) -> list[Who]:
        seats = [p.seat for p in self.game.players]
        found = [
            HOST,
            WATCHER,
            Who("join", "white"),
            Who("join", "black"),
            Who("seat", "white", 99),
            Who("handoff", seat=99),
        ]
        for s in seats:
            player = self.game.player(s)
            found += [
                self.seat(s),
                Who("join", other(player.team), s),
                Who("join", player.team, s),
                Who("handoff", seat=s),
            ]
        return found

    def any_actor(self, data, prefer_seats: bool = True) -> Who:
        seats = [self.seat(p.seat) for p in self.game.players]
        if prefer_seats and seats and data.draw(st.integers(0, 3), label="seat?") > 0:
            return data.draw(st.sampled_from(seats), label="actor")
        return data.draw(st.sampled_from(self.actors()), label="actor")

    # --- setting up --------------------------------------------------------------------------

    @initialize(data=st.data())
    def create_and_seat(self, data):
        self.rng = random.Random(data.draw(st.integers(0, 2**16), label="seed"))
        self.wrong_decryption = data.draw(st.sampled_from([0, 15, 35, 60]), label="wrong decryptions %")
        self.right_interception = data.draw(st.sampled_from([0, 15, 35, 60]), label="right interceptions %")
        mode = data.draw(st.sampled_from(["standard", "three_player"]), label="mode")
        timer = data.draw(st.sampled_from([None, 30]), label="timer")
        self.send({"type": "create", "mode": mode, "timer": timer}, HOST, must_succeed=True)
        if mode == "three_player":
            # rules.md "Three-player game": two players form the team, the third is the Interceptor.
            sizes = {"white": 2, "black": 1}
            if data.draw(st.integers(0, 9), label="odd seating?") == 0:
                sizes = data.draw(
                    st.sampled_from([{"white": 3, "black": 1}, {"white": 2, "black": 2}, {"white": 1, "black": 1}]),
                    label="sizes",
                )
        else:
            # rules.md "Standard game": two teams, as even as possible, 2-4 players each.
            white = data.draw(st.integers(2, 4), label="white size")
            black = data.draw(
                st.sampled_from([n for n in (white - 1, white, white + 1) if 2 <= n <= 4]), label="black size"
            )
            sizes = {"white": white, "black": black}
            if data.draw(st.integers(0, 9), label="odd seating?") == 0:
                sizes = data.draw(
                    st.sampled_from([{"white": 1, "black": 2}, {"white": 5, "black": 4}, {"white": 4, "black": 2}]),
                    label="sizes",
                )
        for team, size in sizes.items():
            names = NAMES[:4] if team == "white" else NAMES[4:8]
            for i in range(size):
                self.send({"type": "join", "name": names[i % 4]}, Who("join", team))

    # --- the lobby -----------------------------------------------------------------------------

    @precondition(lambda self: self.game.phase == LOBBY)
    @rule(data=st.data())
    def lobby(self, data):
        kind = data.draw(
            st.sampled_from(
                [
                    "join",
                    "switch",
                    "move_player",
                    "remove_player",
                    "lock_joining",
                    "create",
                    "switch_team",
                    "shuffle_teams",
                    "set_timer",
                ]
            ),
            label="lobby command",
        )
        actor = self.any_actor(data, prefer_seats=kind == "switch_team")
        seats = [p.seat for p in self.game.players] + [99, "1"]
        if kind == "join":
            team = data.draw(st.sampled_from(TEAMS), label="team")
            name = data.draw(st.sampled_from(NAMES + ["", "A", "x" * 21, 7]), label="name")
            self.send({"type": "join", "name": name}, Who("join", team) if data.draw(st.booleans()) else actor)
        elif kind == "switch":
            if self.game.players:  # (nobody to switch yet: nothing to send)
                player = data.draw(st.sampled_from(self.game.players), label="player")
                self.send({"type": "join", "name": player.name}, Who("join", other(player.team), player.seat))
        elif kind in ("move_player", "remove_player"):
            self.send(
                {"type": kind, "seat": data.draw(st.sampled_from(seats), label="seat")},
                HOST if data.draw(st.booleans()) else actor,
            )
        elif kind == "lock_joining":
            self.send({"type": kind, "locked": data.draw(st.sampled_from([True, False, "yes"]))}, HOST)
        elif kind == "create":
            self.send({"type": "create", "mode": data.draw(st.sampled_from(["standard", "five"]))}, actor)
        elif kind == "switch_team":
            before = self.game
            player = before.player(actor.seat) if actor.kind == "seat" else None
            outcome = self.send({"type": kind}, actor)
            # docs/rules.md "Rematch": a seated player moves themselves to the other team while joining is
            # open, if it has room and nobody there has their name (as joining it would ask).
            if player is not None:
                theirs = before.team_players(other(player.team))
                legal = (
                    not before.joining_locked
                    and len(theirs) < before.team_sizes(other(player.team))[1]
                    and all(p.name.lower() != player.name.lower() for p in theirs)
                )
                assert isinstance(outcome, list) == legal, (player, outcome)
            else:
                assert not isinstance(outcome, list)
        elif kind == "shuffle_teams":
            actor = data.draw(st.sampled_from([HOST, HOST, actor]), label="host?")
            before = self.game
            outcome = self.send({"type": kind}, actor)
            assert isinstance(outcome, list) == (actor == HOST and len(before.players) >= 2), outcome
        else:
            value = data.draw(st.sampled_from([None, 10, 45, 600, 9, 601, "30", True, 30.0]), label="timer")
            actor = data.draw(st.sampled_from([HOST, HOST, actor]), label="host?")
            outcome = self.send({"type": kind, "timer": value}, actor)
            # docs/rules.md "Sand timer": none, or 10 to 600 whole seconds.
            legal = value is None or (type(value) is int and 10 <= value <= 600)
            assert isinstance(outcome, list) == (actor == HOST and legal), (value, outcome)
            if isinstance(outcome, list):
                assert self.game.settings.timer == value

    @precondition(lambda self: self.game.phase == LOBBY)
    @rule(data=st.data())
    def start(self, data):
        words = data.draw(st.sampled_from([WORDS, WORDS[:11], WORDS[:7], []]), label="words")
        actor = HOST if data.draw(st.integers(0, 4), label="host?") else self.any_actor(data)
        before = self.game
        outcome = self.send({"type": "start", "words": words}, actor)
        # rules.md "Standard game" / "Three-player game": the host starts exactly when the seating is legal,
        # and "Custom words": when the deal leaves at least 4 words of the pack undealt.
        if actor == HOST:
            problem = start_problem(before)
            if problem is not None:
                assert outcome == problem.code
            elif len(words) >= 4 * len(before.transmitting) + 4:
                assert isinstance(outcome, list), outcome
            else:
                assert outcome == "not_enough_words"

    # --- playing on: the right actors do the next thing --------------------------------------

    def fresh_clues(self) -> list[str]:
        self.clue_numbers += 3
        return [f"clue{n:04d}z" for n in range(self.clue_numbers - 3, self.clue_numbers)]

    def wrong_code(self, data, code) -> list[int]:
        choices = [list(c) for c in ALL_CODES if c != tuple(code)] + [[1, 1, 2]]
        return data.draw(st.sampled_from(choices), label="wrong code")

    def next_move(self, data):
        """(command, actor) that moves the game on legally, or None."""
        game = self.game
        if game.correction is not None:
            unconfirmed = [t for t in TEAMS if t not in game.correction.confirmed]
            if data.draw(st.integers(0, 5), label="withdraw?") == 0:
                return {"type": "withdraw_correction"}, HOST
            team = data.draw(st.sampled_from(unconfirmed), label="answering team")
            player = data.draw(st.sampled_from(game.team_players(team)), label="answering player")
            accept = data.draw(st.integers(0, 3), label="accept?") > 0
            return {"type": "answer_correction", "accept": accept}, self.seat(player.seat)
        if game.phase == PLAYING:
            r = game.round
            waiting = [t for t, tr in r.transmissions.items() if tr.clues is None]
            if waiting:  # rules.md "A round" 1: either Encryptor may announce first
                team = data.draw(st.sampled_from(waiting), label="announcing team")
                if data.draw(st.integers(0, 9), label="skip the Encryptor?") == 0:
                    return {"type": "skip_encryptor", "team": team}, HOST  # docs/rules.md "Host corrections"
                spare = [w for w in WORDS if w not in game.dealt]
                if (
                    r.number == 1
                    and team not in game.swapped
                    and spare
                    and data.draw(st.integers(0, 3), label="swap a keyword?") == 0
                ):
                    # docs/rules.md "Keyword swap": once per match, in round 1 before the team's clues.
                    player = data.draw(st.sampled_from(game.team_players(team)), label="swapping player")
                    number = data.draw(st.integers(1, 4), label="keyword number")
                    return {"type": "swap_keyword", "number": number, "words": WORDS}, self.seat(player.seat)
                return (
                    {"type": "announce_clues", "clues": self.fresh_clues(), "at": 1000.0},
                    self.seat(r.transmissions[team].encryptor),
                )
            current = r.current
            percent = data.draw(st.integers(0, 99), label="luck")
            confirm = data.draw(st.integers(0, 4), label="seal?") > 0
            if r.interception_allowed and not current.interception.sealed:
                catcher = other(current.team)
                player = data.draw(st.sampled_from(game.team_players(catcher)), label="interceptor")
                right = percent < self.right_interception
                code = list(current.code) if right else self.wrong_code(data, current.code)
                return {"type": "guess", "code": code, "confirm": confirm}, self.seat(player.seat)
            guessers = [p for p in game.team_players(current.team) if p.seat != current.encryptor]
            player = data.draw(st.sampled_from(guessers), label="decrypter")
            wrong = percent < self.wrong_decryption
            code = self.wrong_code(data, current.code) if wrong else list(current.code)
            return {"type": "guess", "code": code, "confirm": confirm}, self.seat(player.seat)
        if game.phase == KEYWORD_GUESSING:
            team = next(t for t in TEAMS if game.tiebreak.keyword_guesses[t] is None)
            player = data.draw(st.sampled_from(game.team_players(team)), label="keyword guesser")
            right = data.draw(st.lists(st.booleans(), min_size=4, max_size=4), label="right keywords")
            guesses = [w.lower() if ok else "nope" for w, ok in zip(game.keywords[other(team)], right, strict=True)]
            return {"type": "keyword_guesses", "guesses": guesses}, self.seat(player.seat)
        if game.phase == KEYWORD_JUDGING:
            verdicts = proposed_verdicts(game)
            how = data.draw(st.sampled_from(["proposed", "overruled", "even"]), label="verdicts")
            if how == "overruled":
                verdicts = {t: data.draw(st.lists(st.booleans(), min_size=4, max_size=4)) for t in TEAMS}
            elif how == "even":  # rules.md "Tiebreak" 3: still tied, both teams share the victory
                verdicts = {t: verdicts["white"] for t in TEAMS}
            return {"type": "judge_keywords", "verdicts": verdicts}, HOST
        assert game.phase == OVER
        return {"type": "rematch", "words": WORDS}, HOST

    def seating_move(self):
        """A host or join-link command that brings the lobby closer to a legal start, or the start itself."""
        game = self.game
        problem = start_problem(game)
        if problem is None:
            return {"type": "start", "words": WORDS}, HOST
        sizes = {t: len(game.team_players(t)) for t in TEAMS}
        if game.three_player:
            wanted = dict(three_player.SIZES)
        else:
            wanted = {t: min(max(sizes[t], 2), 4) for t in TEAMS}
            if abs(wanted["white"] - wanted["black"]) > 1:
                wanted[max(TEAMS, key=wanted.get)] -= 1
        for team in TEAMS:
            if sizes[team] > wanted[team]:
                return {"type": "remove_player", "seat": game.team_players(team)[-1].seat}, HOST
        if game.joining_locked:
            return {"type": "lock_joining", "locked": False}, HOST
        team = next(t for t in TEAMS if sizes[t] < wanted[t])
        taken = {p.name.lower() for p in game.team_players(team)}
        return {"type": "join", "name": next(n for n in NAMES if n.lower() not in taken)}, Who("join", team)

    def play_on(self, data, most: int) -> None:
        """Play on by the right actors: up to `most` legal commands, each of which must be accepted."""
        for _ in range(data.draw(st.integers(1, most), label="moves")):
            if self.game.phase == LOBBY and self.game.match > 1 and data.draw(st.booleans(), label="lobby chores?"):
                self.rematch_lobby(data)
                move = self.seating_move()
            elif self.game.phase == LOBBY:
                move = self.seating_move()
            elif self.game.phase == OVER and data.draw(st.integers(0, 2), label="rematch now?"):
                return
            else:
                move = self.next_move(data)
            self.send(*move, must_succeed=True)

    def rematch_lobby(self, data) -> None:
        """What a table does in a rematch's lobby: someone switches team, the host shuffles the teams
        (legal with two players or more) and changes the sand timer."""
        player = data.draw(st.sampled_from(self.game.players), label="switching player")
        self.send({"type": "switch_team"}, self.seat(player.seat))
        if data.draw(st.booleans(), label="shuffle?"):
            self.send({"type": "shuffle_teams"}, HOST, must_succeed=True)
        timer = data.draw(st.sampled_from([None, 10, 45]), label="new timer")
        self.send({"type": "set_timer", "timer": timer}, HOST, must_succeed=True)

    # Three copies of the same rule: hypothesis picks among rules evenly (and switches some off per example),
    # so this weighs playing on against the random commands and most examples reach the end of a match.
    @rule(data=st.data())
    def play(self, data):
        self.play_on(data, 8)

    @rule(data=st.data())
    def play_a_while(self, data):
        self.play_on(data, 24)

    @rule(data=st.data())
    def play_a_little(self, data):
        self.play_on(data, 3)

    @precondition(
        lambda self: self.game.phase != LOBBY and self.game.correction is None and correctable(self.game) is not None
    )
    @rule(data=st.data())
    def correct_last_reveal(self, data):
        """The host corrects the last reveal (often in a way that changes its tokens); both sides answer."""
        r, transmission = correctable(self.game)
        code = list(transmission.code)
        decryption = data.draw(st.sampled_from([code, self.wrong_code(data, code)]), label="decryption")
        interception = data.draw(st.sampled_from([code, self.wrong_code(data, code)]), label="interception")
        unchanged = tuple(decryption) == transmission.decryption.code and (
            not r.interception_allowed or tuple(interception) == transmission.interception.code
        )
        over = self.game.phase == OVER
        outcome = self.send(
            {"type": "propose_correction", "decryption": decryption, "interception": interception},
            HOST,
            must_succeed=not unchanged and not over,
        )
        if unchanged:
            assert outcome == "correction_changes_nothing"
            return
        if isinstance(outcome, str):
            # docs/rules.md "Readings we chose": after the end, a correction that would resume play is refused
            # (check_command below checks that an accepted one keeps the game over).
            assert over and outcome == "correction_resumes_play"
            return
        for team in data.draw(st.permutations(TEAMS), label="answer order"):
            if data.draw(st.integers(0, 5), label="leave it pending?") == 0:
                return
            player = data.draw(st.sampled_from(self.game.team_players(team)), label="answering player")
            accept = data.draw(st.integers(0, 5), label="accept?") > 0
            self.send({"type": "answer_correction", "accept": accept}, self.seat(player.seat), must_succeed=True)
            if not accept:
                return

    # --- random commands, legal or not -------------------------------------------------------

    @precondition(lambda self: self.game.phase == PLAYING)
    @rule(data=st.data())
    def announce(self, data):
        game = self.game
        transmissions = game.round.transmissions.values()
        encryptors = [self.seat(tr.encryptor) for tr in transmissions if tr.clues is None] or [
            self.seat(tr.encryptor) for tr in transmissions
        ]
        actor = (
            data.draw(st.sampled_from(encryptors), label="encryptor")
            if data.draw(st.integers(0, 3), label="encryptor?")
            else self.any_actor(data)
        )
        player = game.player(actor.seat) if actor.kind == "seat" else None
        own = list(game.keywords.get(player.team, ())) if player else []
        theirs = [w for t, ws in game.keywords.items() for w in ws if not player or t != player.team]
        used = [c for t in TEAMS for c in game.clues_used(t)]
        pool = (
            [self.fresh_clues()[0]] * 3
            + ["sun", "Sun", "suns", "river", "the river bank"]
            + used[:6]
            + own
            + [w.lower() + "s" for w in own]
            + [f"a big {w} thing" for w in own]
            + [f"{w}-like" for w in own]
            + theirs[:3]
            + ["", "   ", "x" * 61, "a\x00b", "a\u200bb", "two  spaces", 5, None]
            + ["1", "route 2", "3!", "4th", "catch 22"]
        )
        clue = st.sampled_from(pool)
        clues = data.draw(
            st.one_of(
                st.lists(clue, min_size=3, max_size=3),
                st.lists(clue, max_size=4),
                st.sampled_from(["abc", None, ("p", "q", "r")]),
            ),
            label="clues",
        )
        if isinstance(clues, list) and len(clues) == 3 and data.draw(st.booleans(), label="fresh?"):
            clues = [self.fresh_clues()[i] if isinstance(c, str) and not c.strip() else c for i, c in enumerate(clues)]
        outcome = self.send({"type": "announce_clues", "clues": clues}, actor)
        # rules.md "Clues": the mechanical checks, asked independently of the app's order of checks.
        if (
            player
            and game.correction is None
            and game.round.transmissions.get(player.team) is not None
            and game.round.transmissions[player.team].encryptor == player.seat
            and game.round.transmissions[player.team].clues is None
        ):
            fine = isinstance(clues, (list, tuple)) and len(clues) == 3 and all(isinstance(c, str) for c in clues)
            if fine:
                texts = [tidy(c) for c in clues]
                history = game.clues_used(player.team)
                fine = (
                    all(texts)
                    and all(len(c) <= 60 and c.isprintable() for c in texts)
                    and not any(contains_word(c, k) for c in texts for k in own)
                    and not any(
                        str(d) in re.split(r"\W+", c) for c in texts for d in game.round.transmissions[player.team].code
                    )
                    and not any(same_word(c, u) for c in texts for u in history)
                    and not any(same_word(a, b) for a, b in combinations(texts, 2))
                )
            assert isinstance(outcome, list) == fine, (clues, outcome)

    @precondition(lambda self: self.game.phase == PLAYING and self.game.round.current is not None)
    @rule(data=st.data())
    def guess(self, data):
        game = self.game
        current = game.round.current
        who = data.draw(st.sampled_from(["player", "player", "player", "encryptor", "anyone"]), label="who")
        actor = {
            "player": lambda: data.draw(st.sampled_from([self.seat(p.seat) for p in game.players]), label="player"),
            "encryptor": lambda: self.seat(current.encryptor),
            "anyone": lambda: self.any_actor(data),
        }[who]()
        choices = CODE_VALUES + [(list(current.code), True)] * 3 + [(list(c), True) for c in ALL_CODES[:4]]
        code, parses = data.draw(st.sampled_from(choices), label="code")
        confirm = data.draw(st.sampled_from([True, False, True, "yes"]), label="confirm")
        outcome = self.send({"type": "guess", "code": code, "confirm": confirm}, actor)
        player = game.player(actor.seat) if actor.kind == "seat" else None
        if player and game.correction is None:
            own = player.team == current.team
            # rules.md "A round" 3 and "Round 1": the Encryptor takes no part in the own team's guess;
            # nobody intercepts in round 1; a guess is three digits 1-4; a sealed guess is final.
            legal = (
                not (own and current.encryptor == player.seat)
                and (own or game.round.interception_allowed)
                and not current.guess_by(player.team).sealed
                and parses
                and isinstance(confirm, bool)
            )
            assert isinstance(outcome, list) == legal, (code, confirm, outcome)

    @precondition(lambda self: self.game.phase != LOBBY)
    @rule(data=st.data())
    def host_tools(self, data):
        game = self.game
        kind = data.draw(
            st.sampled_from(
                ["take_back", "skip_encryptor", "swap_keyword", "issue_seat_link", "cancel_seat_link", "claim_seat"]
            ),
            label="tool",
        )
        seats = [p.seat for p in game.players]
        if kind == "take_back":
            actor = HOST if data.draw(st.integers(0, 3), label="host?") else self.any_actor(data)
            outcome = self.send({"type": "take_back"}, actor)
            # docs/rules.md "Host corrections": the table takes back exactly when there is an entry to take.
            if actor == HOST and game.phase == PLAYING and game.correction is None:
                assert isinstance(outcome, list) == (last_entry(game) is not None)
        elif kind == "skip_encryptor":
            team = data.draw(st.sampled_from(SKIP_TEAMS), label="team")
            actor = HOST if data.draw(st.integers(0, 3), label="host?") else self.any_actor(data)
            self.send({"type": "skip_encryptor", "team": team}, actor)
        elif kind == "swap_keyword":
            actor = self.any_actor(data)
            number = data.draw(st.sampled_from([1, 2, 3, 4, 0, 5, True, "1"]), label="number")
            self.send({"type": "swap_keyword", "number": number, "words": WORDS}, actor)
        elif kind == "issue_seat_link":
            seat = data.draw(st.sampled_from(seats + [99]), label="seat")
            issued = self.send(
                {"type": kind, "seat": seat}, HOST if data.draw(st.integers(0, 3)) else self.any_actor(data)
            )
            then = data.draw(st.sampled_from(["claim", "cancel", "wait"]), label="then")
            if isinstance(issued, list) and then != "wait":
                # docs/rules.md "Seats": the new phone claims the seat, or the table cancels the link.
                in_use = data.draw(st.lists(st.sampled_from(seats), unique=True), label="phones in use")
                command, actor = (
                    ({"type": "claim_seat", "in_use": in_use}, Who("handoff", seat=seat))
                    if then == "claim"
                    else ({"type": "cancel_seat_link", "seat": seat}, HOST)
                )
                outcome = self.send(command, actor, must_succeed=True)
                if then == "claim":
                    # docs/rules.md "Seats": at once only when no phone of the seat's team is in use.
                    team = game.player(seat).team
                    alone = not any(game.player(s).team == team for s in in_use)
                    assert outcome[0].type == ("seat_claimed" if alone else "seat_claim_waiting")
        elif kind == "cancel_seat_link":
            seat = data.draw(st.sampled_from(seats + [99]), label="seat")
            self.send({"type": kind, "seat": seat}, HOST if data.draw(st.integers(0, 3)) else self.any_actor(data))
        else:
            seat = data.draw(st.sampled_from(sorted(game.seat_links) or seats + [99]), label="seat")
            actor = Who("handoff", seat=seat) if data.draw(st.integers(0, 3)) else self.any_actor(data)
            outcome = self.send({"type": kind}, actor)
            # docs/rules.md "Seats": only an issued, unclaimed seat link claims its seat (in any phase).
            assert isinstance(outcome, list) == (actor.kind == "handoff" and actor.seat in game.seat_links)

    @precondition(lambda self: self.game.phase != LOBBY)
    @rule(data=st.data())
    def corrections(self, data):
        game = self.game
        kind = data.draw(st.sampled_from(["propose", "propose", "answer", "withdraw"]), label="correction")
        if kind == "propose":
            found = correctable(game)
            values = [v for v, _ in CODE_VALUES[:6]] + [list(c) for c in ALL_CODES[::5]]
            if found:
                _, transmission = found
                values += [list(transmission.code)] * 3 + [list(transmission.decryption.code or (1, 2, 3))]
                if transmission.interception.code:
                    values.append(list(transmission.interception.code))
            decryption = data.draw(st.sampled_from(values), label="decryption")
            interception = data.draw(st.sampled_from(values), label="interception")
            actor = HOST if data.draw(st.integers(0, 5), label="host?") else self.any_actor(data)
            outcome = self.send(
                {"type": "propose_correction", "decryption": decryption, "interception": interception}, actor
            )
            # docs/rules.md "Host corrections": only the last reveal, while nothing but what followed it
            # by itself came after it.
            if actor == HOST and game.correction is None and found is None:
                assert outcome == "nothing_to_correct"
        elif kind == "answer":
            actor = self.any_actor(data)
            accept = data.draw(st.sampled_from([True, True, False, "yes"]), label="accept")
            self.send({"type": "answer_correction", "accept": accept}, actor)
        else:
            actor = HOST if data.draw(st.integers(0, 3), label="host?") else self.any_actor(data)
            self.send({"type": "withdraw_correction"}, actor)

    @precondition(lambda self: self.game.phase != LOBBY)
    @rule(data=st.data())
    def tiebreak(self, data):
        game = self.game
        if data.draw(st.booleans(), label="guesses?"):
            actor = self.any_actor(data)
            theirs = list(game.keywords.get(other(actor.team), ())) if actor.team else []
            guess = st.sampled_from(theirs + ["", "nope", "x" * 41, 3, None])
            guesses = data.draw(
                st.one_of(st.lists(guess, min_size=4, max_size=4), st.lists(guess, max_size=5)), label="guesses"
            )
            self.send({"type": "keyword_guesses", "guesses": guesses}, actor)
        else:
            actor = HOST if data.draw(st.integers(0, 3), label="host?") else self.any_actor(data)
            verdict = st.lists(st.booleans(), min_size=4, max_size=4)
            verdicts = data.draw(
                st.one_of(
                    st.fixed_dictionaries({"white": verdict, "black": verdict}),
                    st.sampled_from([None, {"white": [True] * 4}, {"white": [1] * 4, "black": [0] * 4}]),
                ),
                label="verdicts",
            )
            self.send({"type": "judge_keywords", "verdicts": verdicts}, actor)

    @precondition(lambda self: self.game.phase != LOBBY)
    @rule(data=st.data())
    def notes(self, data):
        """A team's notes (docs/rules.md "Notes", an option of the app): any player of a side facing keywords
        writes a guess of one of them or a line on a round so far, from the start of the match until both
        teams sealed their keyword guesses; each note keeps its latest text (a slot), the team sees it and
        nobody else (check_versions). A few notes at a time, mostly legal ones, so that slots get rewritten."""
        for _ in range(data.draw(st.integers(1, 4), label="notes")):
            self.write_note(data)

    def write_note(self, data):
        game = self.game
        writers = [self.seat(p.seat) for p in game.players if other(p.team) in game.transmitting]
        actor = (
            data.draw(st.sampled_from(writers), label="writer")
            if writers and data.draw(st.integers(0, 4), label="writer?")
            else self.any_actor(data)
        )
        number = game.round.number
        field, value = data.draw(
            st.sampled_from(
                [
                    ("keyword", 1),
                    ("keyword", 1),
                    ("keyword", 4),
                    ("line", 1),
                    ("line", number),
                    ("line", number + 1),
                    ("keyword", 0),
                    ("keyword", 5),
                    ("keyword", "2"),
                    ("keyword", True),
                    ("line", 2.0),
                ]
            ),
            label="note",
        )
        player = game.player(actor.seat) if actor.kind == "seat" else None
        names_a_note = type(value) is int and 1 <= value <= (4 if field == "keyword" else number)
        current = note_now(game, player.team, {field: value}) if player and names_a_note else ""
        text = data.draw(
            st.sampled_from(
                [
                    "whale",
                    " Whale  ",
                    "castle",
                    "",
                    "x" * 40,
                    "x" * 41,
                    "y" * 80,
                    "y" * 81,
                    "a\x00b",
                    7,
                    None,
                    current,
                    current,
                ]
            ),
            label="text",
        )
        command = {"type": "write_note", field: value, "text": text}
        if data.draw(st.integers(0, 9), label="both?") == 0:
            command["line" if field == "keyword" else "keyword"] = 1
        outcome = self.send(command, actor)
        limit = 40 if field == "keyword" else 80
        legal = (
            player is not None
            and game.phase in (PLAYING, KEYWORD_GUESSING)
            and other(player.team) in game.transmitting
            and len(command) == 3
            and names_a_note
            and isinstance(text, str)
            and text.isprintable()
            and len(tidy(text)) <= limit
        )
        assert isinstance(outcome, list) == legal, (command, actor, outcome)
        if legal:
            assert note_now(self.game, player.team, command) == tidy(text)

    @precondition(lambda self: self.game.phase != LOBBY)
    @rule(data=st.data())
    def rematch(self, data):
        before = self.game
        actor = HOST if data.draw(st.booleans(), label="host?") else self.any_actor(data)
        outcome = self.send({"type": "rematch", "words": WORDS}, actor)
        # docs/rules.md "Rematch": the table screen starts one once the game is over.
        assert isinstance(outcome, list) == (actor == HOST and before.phase == OVER and before.correction is None)

    @rule(data=st.data())
    def stale_target(self, data):
        """A command naming a target the game is not at (one field off what the screen would show) is refused
        and changes nothing (checked in `send`)."""
        kind = data.draw(st.sampled_from(sorted(STALE_BODIES)), label="stale command")
        actor = HOST if BY_TYPE[kind].sender == Kind.HOST else self.any_actor(data)
        command = {"type": kind, **STALE_BODIES[kind](self.game)}
        seen = seen_target(self.game, command, actor)
        if not seen:
            return
        field = data.draw(st.sampled_from(sorted(seen)), label="field off")
        command.update(seen, **{field: off_by_one(field, seen[field])})
        outcome = self.send(command, actor)
        assert not isinstance(outcome, list), f"{command} by {actor} named a stale target and was accepted"

    @rule(data=st.data())
    def garbage(self, data):
        """Any command type, any actor, any field with JSON-ish junk: refused or not, never a crash."""
        command = {"type": data.draw(st.sampled_from(COMMAND_TYPES), label="type")}
        for field in data.draw(st.lists(st.sampled_from(FIELDS), max_size=4, unique=True), label="fields"):
            command[field] = data.draw(st.sampled_from(JUNK), label=field)
        self.send(command, data.draw(st.sampled_from(self.actors()), label="actor"))

    # --- invariants ------------------------------------------------------------------------------

    def check_command(self, command: dict, actor: Who, before: Game, events: list[Event], after: Game) -> None:
        """What one accepted command may do, judged from the state before and after it."""
        kinds = [e.type for e in events]
        kind = command["type"]
        player = before.player(actor.seat) if actor.kind == "seat" else None
        if kind == "guess":
            current = before.round.current
            # rules.md "A round" 3: the Encryptor takes no part in the own team's guess.
            assert not (player.team == current.team and player.seat == current.encryptor), "Encryptor guessed"
            # rules.md "Round 1: nobody intercepts".
            assert player.team == current.team or before.round.interception_allowed
        if kind == "announce_clues":
            # rules.md "Clues": only the round's Encryptor announces, once; never an own keyword, never a
            # clue the team used before, three separate clues.
            transmission = before.round.transmissions[player.team]
            assert transmission.encryptor == player.seat and transmission.clues is None
            new = after.round.transmissions[player.team].clues
            assert len(new) == 3 and all(new)
            assert not any(contains_word(c, k) for c in new for k in before.keywords[player.team])
            history = before.clues_used(player.team)
            assert not any(same_word(c, u) for c in new for u in history)
            assert not any(same_word(a, b) for a, b in combinations(new, 2))
        if after.keywords != before.keywords:
            # rules.md "Standard game": keywords are fixed for the whole game; only the deal (start), a
            # rematch (none until its start) and one keyword swap per team (docs/rules.md "Keyword swap",
            # a word never dealt before) change them.
            assert {"game_started", "rematch_started", "keyword_swapped"} & set(kinds), kinds
            if kinds == ["keyword_swapped"]:
                changed = [
                    (t, i) for t in after.keywords for i in range(4) if after.keywords[t][i] != before.keywords[t][i]
                ]
                assert len(changed) == 1 and changed[0][0] == player.team and changed[0][0] not in before.swapped
                assert not any(same_word(after.keywords[t][i], d) for t, i in changed for d in before.dealt)
            if after.phase == LOBBY:
                assert kinds == ["rematch_started"] and not after.keywords
            else:
                self.check_keywords(after)
        if before.match == after.match:
            # rules.md "Clues": announced once and never revised; only the table's take-back withdraws them.
            for old, new in zip(before.rounds, after.rounds, strict=False):  # a round may have begun
                for team, transmission in old.transmissions.items():
                    if transmission.clues is not None and new.transmissions[team].clues != transmission.clues:
                        assert kinds == ["entry_taken_back"] and new.transmissions[team].clues is None
        if after.keywords != before.keywords and after.match == before.match:
            # rules.md "Clues": never a keyword of your own screen, also after a keyword swap.
            for team in after.transmitting:
                assert not any(contains_word(c, k) for c in after.clues_used(team) for k in after.keywords[team])
        if kind == "rematch":
            # docs/rules.md "Rematch": back to the lobby with the same seats, tokens back to 0, joining open.
            assert before.phase == OVER and after.match == before.match + 1 and after.players == before.players
            assert after.phase == LOBBY and not after.rounds and not after.joining_locked
            for r in before.rounds:
                for transmission in r.transmissions.values():
                    self.turns[transmission.encryptor] = (before.match, r.number)
        for event in events:
            if event.type in ("player_left", "player_removed"):
                self.turns.pop(event.seat, None)
        if kind == "start":
            # docs/rules.md "Rematch": each team's first Encryptor of a match is the player who has gone
            # longest without encrypting (never, first), the earliest in join order among equals.
            for team in after.transmitting:
                members = [p.seat for p in after.team_players(team)]
                expected = min(members, key=lambda seat: self.turns.get(seat, (0, 0)))
                assert after.round.transmissions[team].encryptor == expected, (team, self.turns)
        if kind == "shuffle_teams":
            # docs/rules.md "Rematch": the same players, split as evenly as possible (three players: the
            # team of two and one Interceptor), never two of the same name on one team.
            assert sorted(p.seat for p in after.players) == sorted(p.seat for p in before.players)
            sizes = [len(after.team_players(team)) for team in TEAMS]
            assert abs(sizes[0] - sizes[1]) <= 1 and (not after.three_player or sizes[0] >= sizes[1])
            for team in TEAMS:
                names = [p.name.lower() for p in after.team_players(team)]
                assert len(names) == len(set(names))
        if kind == "skip_encryptor":
            # docs/rules.md "Host corrections": the next teammate in join order takes the round.
            team = command["team"]
            members = [p.seat for p in before.team_players(team)]
            was = before.round.transmissions[team].encryptor
            assert after.round.transmissions[team].encryptor == members[(members.index(was) + 1) % len(members)]
        if before.phase == PLAYING and before.match == after.match and "round_reopened" not in kinds:
            # Tokens only grow during play, and at most one transmission resolves per command (rules.md
            # "A round" 5: one transmission gives each team at most one token of each kind, in the
            # three-player game at most two to the Interceptor).
            resolved = kinds.count("transmission_resolved")
            assert resolved <= 1
            for team in TEAMS if "reveal_corrected" not in kinds else ():
                gained = (
                    after.tokens[team].interceptions - before.tokens[team].interceptions,
                    after.tokens[team].miscommunications - before.tokens[team].miscommunications,
                )
                limit = (2 if after.three_player else 1) * resolved
                assert 0 <= gained[0] <= limit and 0 <= gained[1] <= resolved
        if before.phase == OVER and before.match == after.match:
            # docs/rules.md "Readings we chose": everyone has seen the keywords, so a game over stays over
            # (a correction may change its result) until a rematch.
            assert after.phase == OVER
        if before.phase == PLAYING and after.phase != PLAYING:
            # rules.md "A round" 8: the game ends only once the round's last transmission is resolved.
            assert after.round.finished

    def check_state(self) -> None:
        game = self.game
        # rules.md "Components": tokens are counts; they never go negative.
        assert all(getattr(t, k) >= 0 for t in game.tokens.values() for k in ("interceptions", "miscommunications"))
        assert set(game.seat_links) | game.waiting_phones | set(game.unattended) <= {p.seat for p in game.players}
        if game.phase == LOBBY:
            assert not game.rounds and not game.keywords and game.correction is None and game.result is None
            assert game.notes == {t: Notes() for t in TEAMS}  # a rematch starts with blank notes
            assert game.tokens == {t: Tokens() for t in TEAMS}
            return
        # Seats are fixed once started (docs/rules.md "Host corrections": lobby only), so the seating that
        # allowed the start still holds: 2-4 a team and even (standard), 2 + 1 (three players).
        assert start_problem(game) is None
        rounds = game.rounds
        # rules.md "At most 8 rounds" / "Three-player game": 5 rounds at most. Rounds are numbered 1, 2, ...
        assert 1 <= len(rounds) <= game.max_rounds
        assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
        running = {t: Tokens() for t in TEAMS}
        for r in rounds:
            before_round = {t: copy.copy(tokens) for t, tokens in running.items()}
            self.check_round(r, running)
            if game.three_player:
                # rules.md "Three-player game": the team never takes a token; the Interceptor takes at most
                # two a round (a correct interception and a failed decryption, on the one transmission).
                assert running["white"] == Tokens() and running["black"].miscommunications == 0
                assert running["black"].interceptions - before_round["black"].interceptions <= 2
            else:
                # rules.md "A round" 5: a team's Interceptions come from the other transmission and its
                # Miscommunications from its own: at most one of each kind a round.
                for t in TEAMS:
                    assert running[t].interceptions - before_round[t].interceptions <= 1
                    assert running[t].miscommunications - before_round[t].miscommunications <= 1
            if r is not rounds[-1]:
                # rules.md "A round" 8 and "End of a round": a round ended with no result, so play went on.
                assert r.finished
                assert rulebook_end(game, running, r.number) is None
        # The tokens are exactly what the resolved transmissions gave (rules.md "A round" 5 and
        # "Three-player game": a failed decryption gives the Interceptor a token, not the team).
        assert running == game.tokens, (running, game.tokens)
        last = rounds[-1]
        expected = rulebook_end(game, game.tokens, last.number) if last.finished else None
        # round_end.py and three_player.py agree with the rulebook whenever a round has ended.
        if last.finished:
            assert app_end(game, game.tokens, last.number) == expected
        if game.phase == PLAYING:
            # rules.md "A round" 8: no round is over without its end being judged; the game goes on only
            # while the current round is unfinished. Never a tiebreak or a result during play.
            assert not last.finished and game.tiebreak is None and game.result is None
            # docs/rules.md "Encryptors": (offset + r - 1) mod team size.
            for team, transmission in last.transmissions.items():
                assert transmission.encryptor == game.encryptor_for(team, last.number).seat
            tokens = game.tokens
            if game.three_player:
                # Three players: the round's one transmission ends it, so during play the Interceptor is
                # still below 2.
                assert tokens["black"].interceptions <= 1
            else:
                # Standard: no team had 2 of anything when this round began (else the game would have
                # ended), and a round adds at most one of each kind: never more than 2 during play.
                assert all(t.interceptions <= 2 and t.miscommunications <= 2 for t in tokens.values())
        else:
            # rules.md "End of a round": the game left play exactly when a finished round said so.
            assert last.finished and expected is not None, (game.phase, last.number, game.tokens)
            self.check_result(expected)
        # Token ceilings at any time (docs/rules.md "Components": 2 per kind in the standard game; the
        # Interceptor may end with 3).
        if game.three_player:
            assert game.tokens["black"].interceptions <= 3
        else:
            assert all(t.interceptions <= 2 and t.miscommunications <= 2 for t in game.tokens.values())
        if game.correction is not None:
            # docs/rules.md "Host corrections": a pending correction is about the last reveal, still
            # correctable, and not yet confirmed by both sides.
            found = correctable(game)
            assert found is not None
            assert (found[0].number, found[1].team) == (game.correction.round, game.correction.team)
            assert game.correction.confirmed < set(TEAMS)

    @staticmethod
    def check_keywords(game: Game) -> None:
        # rules.md "Components" / "Standard game": 4 keywords a screen, fixed, no word on both screens (not
        # even as a case, accent or plural variant); the Interceptor has none.
        assert set(game.keywords) == set(game.transmitting)
        words = [w for team in game.transmitting for w in game.keywords[team]]
        assert all(len(game.keywords[team]) == 4 for team in game.transmitting)
        assert not any(same_word(a, b) for a, b in combinations(words, 2)), game.keywords
        assert set(words) <= set(WORDS) and set(words) <= set(game.dealt)

    def check_round(self, r, running: dict) -> None:
        game = self.game
        # rules.md "A round": each transmitting team has exactly one transmission and one Encryptor, a player
        # of that team (never the Interceptor, who transmits nothing); White's is guessed before Black's.
        assert tuple(r.transmissions) == game.transmitting
        assert sorted(r.announced) == sorted(t for t, tr in r.transmissions.items() if tr.clues is not None)
        assert len(set(r.announced)) == len(r.announced)
        resolved = [tr.resolved for tr in r.transmissions.values()]
        assert resolved == sorted(resolved, reverse=True)
        guessing_started = True
        for team, tr in r.transmissions.items():
            encryptor = game.player(tr.encryptor)
            assert tr.team == team and encryptor is not None and encryptor.team == team
            assert not (game.three_player and encryptor.team == three_player.INTERCEPTOR)
            # rules.md "Components": a code is three distinct digits from 1-4.
            assert tr.code in ALL_CODES and len(set(tr.code)) == 3 and set(tr.code) <= {1, 2, 3, 4}
            if tr.clues is None or not guessing_started:
                # Nothing is guessed before the clues are out, nor on a transmission whose turn has not come.
                assert tr.decryption == Guess() and tr.interception == Guess() and not tr.resolved
            if tr.clues is not None:
                assert len(tr.clues) == 3 and all(isinstance(c, str) and c for c in tr.clues)
            if r.number == 1:
                assert tr.interception == Guess() and not tr.intercepted  # rules.md "Round 1"
            if tr.resolved:
                assert tr.clues is not None and tr.decryption.sealed and tr.decryption.code is not None
                assert tr.interception.sealed == r.interception_allowed
                # rules.md "A round" 5: an interception counts only when it equals the code exactly; a
                # decryption that is not exactly the code is a Miscommunication.
                assert tr.intercepted == (r.interception_allowed and tr.interception.code == tr.code)
                assert tr.miscommunicated == (tr.decryption.code != tr.code)
                for owner, kind in token_awards(game, team, tr.intercepted, tr.miscommunicated):
                    setattr(running[owner], kind, getattr(running[owner], kind) + 1)
            else:
                assert not tr.intercepted and not tr.miscommunicated
                guessing_started = False

    def check_result(self, expected) -> None:
        game = self.game
        result = game.result
        if game.three_player:
            # rules.md "Three-player game": no tiebreak.
            assert game.tiebreak is None and game.phase == OVER
        if expected[0] == "win":
            _, winner, reason = expected
            assert game.phase == OVER and game.tiebreak is None
            assert (result.winners, result.reason, result.cause) == ((winner,), reason, None), result
            return
        cause = expected[1]
        scores = {t: game.tokens[t].interceptions - game.tokens[t].miscommunications for t in TEAMS}
        if scores["white"] != scores["black"]:
            # rules.md "Tiebreak" 1: the higher score wins.
            assert game.phase == OVER and game.tiebreak is None
            assert (result.winners, result.reason, result.cause) == ((max(scores, key=scores.get),), end.SCORE, cause)
            return
        # rules.md "Tiebreak" 2-3: the keywords, then a shared victory.
        assert game.phase in (KEYWORD_GUESSING, KEYWORD_JUDGING, OVER) and game.tiebreak.cause == cause
        sealed = all(game.tiebreak.keyword_guesses.values())
        assert (game.phase == KEYWORD_GUESSING) == (not sealed)
        if game.phase in (KEYWORD_GUESSING, KEYWORD_JUDGING):
            assert result is None and game.tiebreak.verdicts is None
        else:
            right = {t: sum(game.tiebreak.verdicts[t]) for t in TEAMS}
            if right["white"] == right["black"]:
                assert (set(result.winners), result.reason) == (set(TEAMS), end.SHARED)
            else:
                assert (result.winners, result.reason) == ((max(right, key=right.get),), end.KEYWORDS)
            assert result.cause == cause

    @invariant()
    def viewers_with_one_view_key_see_one_view(self):
        # A page's stream works a view out once for all the viewers with its `view_key` (a team's guessers, the
        # spectators...), and gives each its own seat and name: they must see nothing else apart.
        groups: dict[tuple, list[Who]] = {}
        for viewer in [HOST, WATCHER, Who("join", "white"), *(self.seat(p.seat) for p in self.game.players)]:
            groups.setdefault(view_key(self.game, viewer), []).append(viewer)
        for first, *others in (group for group in groups.values() if len(group) > 1):
            seen = view_for(self.game, first)
            for viewer in others:
                assert as_seen_by(seen, self.game, viewer) == view_for(self.game, viewer), (first, viewer)

    @invariant()
    def replays(self):
        # Every command was checked as it was sent (see `send`). After every step, replaying the whole log
        # from scratch (rules/state.py `replay`) gives exactly the state folded command by command.
        assert replay(self.events) == self.game
        # ... and so does the log as stored, without the events that later ones of their slot replaced.
        assert replay(self.stored) == self.game


# Deterministic (derandomize, no example database) and about 10 s on two cores. Shrinking a failure of this
# machine can take minutes, so it is off unless DECRYPTO_SHRINK=1: a failure prints the whole step sequence,
# with every value drawn, as it happened.
_PHASES = [Phase.explicit, Phase.generate] + ([Phase.shrink] if os.environ.get("DECRYPTO_SHRINK") else [])
DecryptoTable.TestCase.settings = settings(
    max_examples=examples(150),
    stateful_step_count=60,
    deadline=None,
    derandomize=True,
    database=None,
    phases=_PHASES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_the_rules_hold_whatever_the_table_does = DecryptoTable.TestCase


# --- what the machine found, as plain regressions ---------------------------------------------


def test_a_skip_naming_no_team_is_refused_not_a_crash():
    """A JSON list or object as the `team` of skip-encryptor is refused like an unknown team (the API passes
    the body's values through), instead of a TypeError (a 500)."""
    table = Table()
    for team in (["white"], {"white": 1}):
        with pytest.raises(RuleError) as refused:
            table.do({"type": "skip_encryptor", "team": team}, HOST)
        assert refused.value.code == "no_such_team"


def test_a_skip_in_a_round_that_a_correction_undid_does_not_shift_the_rematch_rotation():
    """docs/rules.md "Rematch": each team's first Encryptor is the player after the one who encrypted the
    last round played, here round 2 (round 3, where White's Encryptor was skipped, was undone)."""
    table = Table()  # White: Ann (1), Abe (2); Black: Bea (3), Bob (4)
    table.round(black=(False, False))  # round 1: Black miscommunicates
    table.round()  # round 2: White's Encryptor is Abe
    assert table.game.round.number == 3
    table.do({"type": "skip_encryptor", "team": "white"}, HOST)  # round 3: Ann steps away
    black = table.game.rounds[1].transmissions["black"]
    table.do(
        {
            "type": "propose_correction",
            "decryption": wrong(black.code),  # round 2: Black misread after all
            "interception": list(black.interception.code),
        },
        HOST,
    )
    table.do({"type": "answer_correction", "accept": True}, table.seat(1))
    table.do({"type": "answer_correction", "accept": True}, table.seat(3))
    assert table.game.phase == OVER and table.game.round.number == 2  # White won in round 2
    last = table.game.round.transmissions["white"].encryptor
    assert table.game.player(last).name == "Abe"
    table.do({"type": "rematch"}, HOST)
    table.do({"type": "start", "words": WORDS}, HOST)
    assert table.game.player(table.encryptor("white").seat).name == "Ann"
