"""The game as plain data, and `apply`: how each event changes it.

The current state of a game is the fold of its events (`replay`). Events are JSON-ready dicts with a
"type"; everything random (keywords, codes) was decided before and is written into them.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field, replace

from . import three_player
from .audience import EVERYONE, audience, seat_audience, team_audience

TEAMS = ("white", "black")
MIN_TEAM, MAX_TEAM = 2, 4
MAX_ROUNDS = 8
TOKENS_TO_END = 2

# Kinds of game, chosen at creation.
STANDARD, THREE_PLAYER = "standard", "three_player"
MODES = (STANDARD, THREE_PLAYER)

# Phases of a game. Inside PLAYING, what happens next is derived from the current round.
LOBBY, PLAYING, KEYWORD_GUESSING, KEYWORD_JUDGING, OVER = (
    "lobby", "playing", "keyword_guessing", "keyword_judging", "over")


def other(team: str) -> str:
    return "black" if team == "white" else "white"


@dataclass(frozen=True)
class Settings:
    """What the host chose when creating the game; kept by its rematches (the timer can change in a lobby)."""
    mode: str = STANDARD
    language: str = "en"
    try_out: bool = False          # one device plays every seat; nothing is secret
    timer: int | None = None       # seconds the late Encryptor gets once the first one announced
    words: tuple | None = None     # the host's own word list, instead of the language's pack


@dataclass
class Player:
    seat: int
    name: str
    team: str


@dataclass
class Guess:
    code: tuple | None = None
    sealed: bool = False
    entered_by: int | None = None  # the seat that entered it last (unknown in logs written before)


@dataclass
class Transmission:
    """One team's transmission in one round: its code, clues, the two guesses and the outcome."""
    team: str
    encryptor: int
    code: tuple
    clues: tuple | None = None
    announced_at: float | None = None
    decryption: Guess = field(default_factory=Guess)
    interception: Guess = field(default_factory=Guess)
    resolved: bool = False
    intercepted: bool = False
    miscommunicated: bool = False

    def guess_by(self, team: str) -> Guess:
        return self.decryption if team == self.team else self.interception


@dataclass
class Round:
    number: int
    transmissions: dict[str, Transmission]    # the teams that transmit, in the order they are guessed
    announced: list[str] = field(default_factory=list)   # teams in the order their clues came
    rotation: dict[str, int] = field(default_factory=dict)   # the Encryptor rotation as the round began

    @property
    def interception_allowed(self) -> bool:
        return self.number > 1

    @property
    def all_announced(self) -> bool:
        return all(t.clues is not None for t in self.transmissions.values())

    @property
    def current(self) -> Transmission | None:
        """The transmission being guessed: White's, then Black's, once both Encryptors announced."""
        if not self.all_announced:
            return None
        return next((t for t in self.transmissions.values() if not t.resolved), None)

    @property
    def finished(self) -> bool:
        return all(t.resolved for t in self.transmissions.values())

    @property
    def last_resolved(self) -> Transmission | None:
        resolved = [t for t in self.transmissions.values() if t.resolved]
        return resolved[-1] if resolved else None


@dataclass
class Tokens:
    interceptions: int = 0
    miscommunications: int = 0

    @property
    def score(self) -> int:
        return self.interceptions - self.miscommunications


@dataclass
class Tiebreak:
    cause: str                                   # "collision" or "round_limit"
    keyword_guesses: dict[str, tuple | None] = field(
        default_factory=lambda: {t: None for t in TEAMS})   # team -> its guesses of the other's words
    verdicts: dict[str, tuple] | None = None     # team -> which of its guesses the table accepted


@dataclass
class Result:
    winners: tuple          # one team, or both for a shared victory
    reason: str             # see rules.round_end and rules.three_player for the reasons
    cause: str | None = None  # why a tiebreak was needed, when one was


@dataclass
class Notes:
    """What a team wrote on its note sheet about the other team (rules/notes.py): a guess above each of its
    four keyword columns, and a free line on each round (round number -> its line). Blank notes are left out."""
    keywords: list = field(default_factory=lambda: [""] * 4)
    lines: dict = field(default_factory=dict)


def _no_notes() -> dict:
    return {t: Notes() for t in TEAMS}


@dataclass
class Correction:
    """A proposed correction of the last reveal, waiting for both teams to confirm it on their phones."""
    round: int
    team: str                       # whose transmission
    decryption: tuple
    interception: tuple | None
    id: int = 1                     # the proposal's number in this game: answers name it
    confirmed: set = field(default_factory=set)   # teams that confirmed


@dataclass
class Game:
    settings: Settings = field(default_factory=Settings)
    phase: str = LOBBY
    match: int = 1                  # 2 after the first rematch, and so on
    joining_locked: bool = False
    players: list[Player] = field(default_factory=list)
    last_seat: int = 0              # the highest seat number given: a seat number names one player for good
    rotation: dict[str, int] = field(default_factory=lambda: {t: 0 for t in TEAMS})
    keywords: dict[str, tuple] = field(default_factory=dict)
    dealt: list[str] = field(default_factory=list)     # every keyword dealt in this game, all matches
    swapped: set = field(default_factory=set)          # teams that swapped a keyword this match
    rounds: list[Round] = field(default_factory=list)
    tokens: dict[str, Tokens] = field(default_factory=lambda: {t: Tokens() for t in TEAMS})
    tiebreak: Tiebreak | None = None
    result: Result | None = None
    correction: Correction | None = None
    seat_links: dict = field(default_factory=dict)     # seat -> when the host issued its new link, not yet taken
    waiting_phones: set = field(default_factory=set)   # seats whose new phone used its link and waits for a
                                                       # phone of its team to let it in (`let-in`)
    unattended: dict = field(default_factory=dict)     # seat -> when a new phone took it while no phone of its
                                                       # team was in use, until a teammate acknowledges it
    move_offered: bool = False                         # the table screen's move link is showing
    moved_at: float | None = None                      # when the table screen last moved to another device
    last_encrypted: dict = field(default_factory=dict)  # seat -> (match, round) of its last turn as Encryptor
    notices: list[dict] = field(default_factory=list)  # corrections and host actions, for everyone
    notes: dict[str, Notes] = field(default_factory=_no_notes)   # each team's, this match; its team's only
    corrections_proposed: int = 0                      # in this game, all matches
    # Per-viewer versions (rules/audience.py): how many events each audience had, and how many of the events
    # for fewer than everyone each seat saw (kept when its player leaves: a newcomer there goes on from it).
    counts: dict[str, int] = field(default_factory=dict)
    private_seen: dict[int, int] = field(default_factory=dict)

    # --- the kind of game --------------------------------------------------------------------
    @property
    def language(self) -> str:
        return self.settings.language

    @property
    def three_player(self) -> bool:
        return self.settings.mode == THREE_PLAYER

    @property
    def transmitting(self) -> tuple[str, ...]:
        """The teams that transmit each round, in the order their transmissions are guessed."""
        return (three_player.TEAM,) if self.three_player else TEAMS

    @property
    def max_rounds(self) -> int:
        return three_player.MAX_ROUNDS if self.three_player else MAX_ROUNDS

    def team_sizes(self, team: str) -> tuple[int, int]:
        if self.three_player:
            return three_player.SIZES[team], three_player.SIZES[team]
        return MIN_TEAM, MAX_TEAM

    # --- who -----------------------------------------------------------------------------------
    def team_players(self, team: str) -> list[Player]:
        """A team's players in join order (the Encryptor rotation follows it)."""
        return [p for p in self.players if p.team == team]

    def player(self, seat: int) -> Player | None:
        return next((p for p in self.players if p.seat == seat), None)

    @property
    def round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def encryptor_for(self, team: str, round_number: int) -> Player:
        """The rotation: one new Encryptor per round in join order, moved on by skips; each match starts it
        from the player who has gone longest without encrypting (`first_encryptor`)."""
        members = self.team_players(team)
        return members[(self.rotation[team] + round_number - 1) % len(members)]

    def first_encryptor(self, team: str) -> int:
        """Where a match's rotation starts: the player who has gone longest without encrypting (never, for a
        newcomer or in the first match), the earliest in join order among equals."""
        members = self.team_players(team)
        if not members:
            return 0
        waited = [self.last_encrypted.get(p.seat, (0, 0)) for p in members]
        return waited.index(min(waited))

    def version_seen_by(self, seat: int | None) -> int:
        """The version of what the player in `seat` sees (None: a viewer without a seat, who sees only what
        everyone sees): the number of events it could see (rules/audience.py), +1 for each, whatever the
        other team does meanwhile."""
        public = self.counts.get(EVERYONE, 0)
        return public + self.private_seen.get(seat, 0) if self.player(seat) else public

    def clues_used(self, team: str) -> list[str]:
        return [c for r in self.rounds if team in r.transmissions for c in (r.transmissions[team].clues or ())]


def token_awards(game: Game, team: str, intercepted: bool, miscommunicated: bool) -> list[tuple[str, str]]:
    """(team, kind of token) earned by the outcome of `team`'s transmission."""
    awards = []
    if intercepted:
        awards.append((other(team), "interceptions"))
    if miscommunicated:
        # Three players: the Interceptor takes a token instead of the team's Miscommunication.
        awards.append((three_player.INTERCEPTOR, "interceptions") if game.three_player
                      else (team, "miscommunications"))
    return awards


def _count_tokens(game: Game, team: str, intercepted: bool, miscommunicated: bool, sign: int) -> None:
    for owner, kind in token_awards(game, team, intercepted, miscommunicated):
        tokens = game.tokens[owner]
        setattr(tokens, kind, getattr(tokens, kind) + sign)


def _new_round(game: Game, number: int, codes: dict) -> Round:
    return Round(number, {team: Transmission(team=team, code=tuple(codes[team]),
                                             encryptor=game.encryptor_for(team, number).seat)
                          for team in game.transmitting}, rotation=dict(game.rotation))


def _deal(game: Game, keywords: dict) -> None:
    game.keywords = {team: tuple(words) for team, words in keywords.items()}
    game.dealt += [w for words in keywords.values() for w in words]


def _notice(game: Game, kind: str, **public) -> None:
    """A line of the public log: only what everyone may know (never a keyword, code or sealed guess).

    Its round is the round under way, unless the notice is about another one (a correction)."""
    game.notices.append({"kind": kind, "round": game.round.number if game.round else 0, **public})


EVENT_TYPES = ("game_created", "player_joined", "player_left", "player_removed", "player_moved",
               "joining_locked", "game_started", "keyword_swapped", "round_started", "encryptor_skipped",
               "clues_announced", "guess_saved", "entry_taken_back", "transmission_resolved",
               "correction_proposed", "correction_answered", "correction_withdrawn", "round_reopened",
               "reveal_corrected", "tiebreak_started", "keyword_guesses_sealed", "keywords_judged",
               "game_ended", "seat_link_issued", "seat_link_cancelled", "seat_claimed", "seat_claim_waiting",
               "seat_handed", "claim_acknowledged", "table_move_offered", "table_move_cancelled", "table_moved",
               "rematch_started", "teams_shuffled", "timer_set", "note_written")


def _count(game: Game, event: dict) -> None:
    """Count `event` for its audience and for the seats in it (before it changes who is where)."""
    who = audience(event)
    had = game.counts.get(who, 0)
    game.counts[who] = event.get("ordinal", had + 1)     # a replaceable event's: those it replaced are gone
    if who != EVERYONE:
        for p in game.players:
            if who in (team_audience(p.team), seat_audience(p.seat)):
                game.private_seen[p.seat] = game.private_seen.get(p.seat, 0) + game.counts[who] - had


def _apply_in_place(game: Game, event: dict) -> None:
    _count(game, event)
    kind = event["type"]
    if kind == "game_created":
        words = event.get("words")
        game.settings = Settings(mode=event.get("mode", STANDARD), language=event["language"],
                                 try_out=event.get("try_out", False), timer=event.get("timer"),
                                 words=tuple(words) if words else None)
    elif kind == "player_joined":
        game.players.append(Player(seat=event["seat"], name=event["name"], team=event["team"]))
        game.last_seat = max(game.last_seat, event["seat"])
    elif kind in ("player_left", "player_removed"):
        game.players = [p for p in game.players if p.seat != event["seat"]]
        game.seat_links.pop(event["seat"], None)
        game.waiting_phones.discard(event["seat"])
        game.unattended.pop(event["seat"], None)
        game.last_encrypted.pop(event["seat"], None)
    elif kind == "player_moved":
        moved = game.player(event["seat"])
        game.players = [p for p in game.players if p is not moved] + [Player(moved.seat, moved.name, event["team"])]
    elif kind == "teams_shuffled":
        # The listed order becomes each team's join order (and so the Encryptor rotation's).
        by_seat = {p.seat: p for p in game.players}
        game.players = [Player(seat, by_seat[seat].name, team) for team in TEAMS for seat in event[team]]
    elif kind == "joining_locked":
        game.joining_locked = event["locked"]
    elif kind == "timer_set":
        game.settings = replace(game.settings, timer=event["timer"])
    elif kind == "game_started":
        game.phase = PLAYING
        game.rotation = {team: game.first_encryptor(team) for team in TEAMS}
        _deal(game, event["keywords"])
    elif kind == "keyword_swapped":
        words = list(game.keywords[event["team"]])
        words[event["number"] - 1] = event["word"]
        game.keywords[event["team"]] = tuple(words)
        game.dealt.append(event["word"])
        game.swapped.add(event["team"])
        _notice(game, kind, team=event["team"])      # never which number, nor the word
    elif kind == "round_started":
        game.rounds.append(_new_round(game, event["round"], event["codes"]))
    elif kind == "encryptor_skipped":
        team = event["team"]
        game.rotation[team] += 1
        transmission = game.round.transmissions[team]
        skipped = transmission.encryptor
        transmission.encryptor = game.encryptor_for(team, game.round.number).seat
        transmission.code = tuple(event["code"])
        _notice(game, kind, team=team, seat=skipped, by=transmission.encryptor)
    elif kind == "clues_announced":
        transmission = game.round.transmissions[event["team"]]
        transmission.clues = tuple(event["clues"])
        transmission.announced_at = event.get("at")
        game.round.announced.append(event["team"])
    elif kind == "guess_saved":
        guess = game.round.transmissions[event["transmission"]].guess_by(event["by"])
        guess.code, guess.sealed, guess.entered_by = tuple(event["code"]), event["sealed"], event.get("seat")
    elif kind == "note_written":
        notes = game.notes[event["team"]]
        if "keyword" in event:
            notes.keywords[event["keyword"] - 1] = event["text"]
        elif event["text"]:
            notes.lines[event["line"]] = event["text"]
        else:
            notes.lines.pop(event["line"], None)
    elif kind == "entry_taken_back":
        transmission = game.round.transmissions[event["transmission"]]
        if event["entry"] == "guess":
            transmission.guess_by(event["by"]).sealed = False      # kept as the team's draft
        else:
            transmission.clues, transmission.announced_at = None, None
            transmission.decryption, transmission.interception = Guess(), Guess()
            game.round.announced.remove(transmission.team)
        _notice(game, kind, entry=event["entry"], team=event["transmission"], by=event.get("by"))
    elif kind == "transmission_resolved":
        transmission = game.round.transmissions[event["team"]]
        transmission.resolved = True
        transmission.intercepted = event["intercepted"]
        transmission.miscommunicated = event["miscommunicated"]
        _count_tokens(game, transmission.team, transmission.intercepted, transmission.miscommunicated, +1)
    elif kind == "correction_proposed":
        interception = event["interception"]
        game.corrections_proposed += 1
        game.correction = Correction(round=event["round"], team=event["team"], decryption=tuple(event["decryption"]),
                                     interception=tuple(interception) if interception else None,
                                     id=game.corrections_proposed)
        _notice(game, kind, round=event["round"], team=event["team"], decryption=event["decryption"],
                interception=interception)
    elif kind == "correction_answered":
        if event["accept"]:
            game.correction.confirmed.add(event["team"])
        else:
            game.correction = None
        _notice(game, kind, team=event["team"], accept=event["accept"])
    elif kind == "correction_withdrawn":
        game.correction = None
        _notice(game, kind)
    elif kind == "round_reopened":
        # The end of this round is judged again: whatever followed it automatically is undone,
        # including a skip of an Encryptor in a round that now never happened.
        undone = [r for r in game.rounds if r.number > event["round"]]
        if undone:
            game.rotation = dict(undone[0].rotation)
        game.rounds = [r for r in game.rounds if r.number <= event["round"]]
        game.phase, game.tiebreak, game.result = PLAYING, None, None
    elif kind == "reveal_corrected":
        transmission = next(r for r in game.rounds if r.number == event["round"]).transmissions[event["team"]]
        _count_tokens(game, transmission.team, transmission.intercepted, transmission.miscommunicated, -1)
        transmission.decryption.code = tuple(event["decryption"])
        if event["interception"]:
            transmission.interception.code = tuple(event["interception"])
        transmission.intercepted = event["intercepted"]
        transmission.miscommunicated = event["miscommunicated"]
        _count_tokens(game, transmission.team, transmission.intercepted, transmission.miscommunicated, +1)
        game.correction = None
        _notice(game, kind, round=event["round"], team=event["team"], decryption=event["decryption"],
                interception=event["interception"], intercepted=event["intercepted"],
                miscommunicated=event["miscommunicated"])
    elif kind == "tiebreak_started":
        game.phase = KEYWORD_GUESSING
        game.tiebreak = Tiebreak(cause=event["cause"])
    elif kind == "keyword_guesses_sealed":
        game.tiebreak.keyword_guesses[event["team"]] = tuple(event["guesses"])
        if all(game.tiebreak.keyword_guesses.values()):
            game.phase = KEYWORD_JUDGING
    elif kind == "keywords_judged":
        game.tiebreak.verdicts = {team: tuple(v) for team, v in event["verdicts"].items()}
    elif kind == "game_ended":
        game.phase = OVER
        game.result = Result(winners=tuple(event["winners"]), reason=event["reason"], cause=event.get("cause"))
    elif kind == "seat_link_issued":       # a new link replaces the earlier one, and any phone waiting with it
        game.seat_links[event["seat"]] = event.get("at")
        game.waiting_phones.discard(event["seat"])
        _notice(game, kind, seat=event["seat"])
    elif kind == "seat_link_cancelled":    # by the table screen, or by a phone of the seat's team (`by`)
        game.seat_links.pop(event["seat"], None)
        game.waiting_phones.discard(event["seat"])
        _notice(game, kind, seat=event["seat"], by=event.get("by"))
    elif kind == "seat_claimed":           # (logs from before unattended claims were told apart: not loud)
        game.seat_links.pop(event["seat"], None)
        if event.get("unattended"):
            game.unattended[event["seat"]] = event.get("at")
        _notice(game, kind, seat=event["seat"], unattended=event.get("unattended", False), at=event.get("at"))
    elif kind == "seat_claim_waiting":     # the link is used up; the seat stays with its old phone meanwhile
        game.seat_links.pop(event["seat"], None)
        game.waiting_phones.add(event["seat"])
    elif kind == "seat_handed":
        game.waiting_phones.discard(event["seat"])
        game.unattended.pop(event["seat"], None)        # the team let this seat's phone in itself
        _notice(game, kind, seat=event["seat"], by=event["by"])
    elif kind == "claim_acknowledged":
        game.unattended.pop(event["seat"], None)
        _notice(game, kind, seat=event["seat"], by=event["by"])
    elif kind == "table_move_offered":
        game.move_offered = True
        _notice(game, kind, at=event["at"])
    elif kind == "table_move_cancelled":
        game.move_offered = False
        _notice(game, kind)
    elif kind == "table_moved":
        game.move_offered, game.moved_at = False, event["at"]
        _notice(game, kind, at=event["at"])
    elif kind == "rematch_started":
        # Same seats, back in the lobby: players may switch, newcomers join, then the host starts.
        last_round = game.round.number if game.round else 0
        for r in game.rounds:                    # in order, so each seat keeps its latest turn
            for transmission in r.transmissions.values():
                game.last_encrypted[transmission.encryptor] = (game.match, r.number)
        game.match += 1
        game.phase, game.joining_locked = LOBBY, False
        game.rounds, game.tiebreak, game.result, game.correction = [], None, None, None
        game.tokens = {t: Tokens() for t in TEAMS}
        game.keywords, game.swapped, game.notices, game.notes = {}, set(), [], _no_notes()
        game.unattended = {}                     # shown until a teammate acknowledges it, or the match ends
        if "keywords" in event:
            # A log written before the rematch lobby: that rematch dealt at once, its rotation going on
            # from the last round played (replayed as it was played).
            game.phase = PLAYING
            game.rotation = {team: game.rotation[team] + last_round for team in TEAMS}
            _deal(game, event["keywords"])
    else:
        raise ValueError(f"unknown event type {kind!r}")


def _copy(game: Game) -> Game:
    """A deep copy. The state is plain data, so a pickle round trip does it, 4x faster than
    copy.deepcopy (which was a fifth of a command's CPU: docs/performance.md)."""
    return pickle.loads(pickle.dumps(game, pickle.HIGHEST_PROTOCOL))


def apply(game: Game, event: dict) -> Game:
    """The state after `event`; `game` itself is left as it was."""
    after = _copy(game)
    _apply_in_place(after, event)
    return after


def replay(events, game: Game | None = None) -> Game:
    """Fold events into a state (from scratch, or onward from a copy of `game`)."""
    state = Game() if game is None else _copy(game)
    for event in events:
        _apply_in_place(state, event)
    return state
