"""A small example of every event (companion/rules/events.py: `EVENTS`): the moves of a table, through the pure
rules, that end with it.

Tests that need every event play these: each event's example is declared here once, and
tests/test_rules.py fails for an event without one. `play(event)` gives the table after the moves; the event
is among its last command's events (`table.events`), and its line, if it has one, among `table.game.notices`.

Seats: White is Ann (1) and Abe (2), Black is Bea (3) and Bob (4).
"""

from __future__ import annotations

from collections.abc import Callable

from companion.rules import HOST, Who
from companion.rules import events as e
from companion.rules.event import Event
from tools.driver import Table, wrong

Example = Callable[[], Table]
EXAMPLES: dict[type[Event], Example] = {}
CLOCK = 1_000.0  # the time of each command in a timed example


def example(*events: type[Event]) -> Callable[[Example], Example]:
    """Register the decorated moves as the example of `events` (the moves end with each of them)."""

    def register(moves: Example) -> Example:
        for event in events:
            assert event not in EXAMPLES, f"{event.TYPE} has two examples"
            EXAMPLES[event] = moves
        return moves

    return register


def play(event: type[Event]) -> Table:
    return EXAMPLES[event]()


# --- the lobby ----------------------------------------------------------------------------------------


@example(e.GameCreated, e.PlayerJoined)
def lobby() -> Table:
    return Table(start=False)


@example(e.PlayerLeft)
def leave() -> Table:
    table = lobby()
    table.command(table.seat(1), "leave")
    return table


@example(e.PlayerRemoved)
def remove_player() -> Table:
    table = lobby()
    table.command(HOST, "remove-player", seat=1)
    return table


@example(e.PlayerMoved)
def switch_team() -> Table:
    table = lobby()
    table.command(table.seat(1), "switch-team")
    return table


@example(e.JoiningLocked)
def lock_joining() -> Table:
    table = lobby()
    table.command(HOST, "lock-joining", locked=True)
    return table


@example(e.TeamsShuffled)
def shuffle_teams() -> Table:
    table = lobby()
    table.command(HOST, "shuffle-teams")
    return table


@example(e.TimerSet)
def set_timer() -> Table:
    table = lobby()
    table.command(HOST, "set-timer", timer=45)
    return table


# --- the rounds ---------------------------------------------------------------------------------------


@example(e.GameStarted, e.RoundStarted)
def started() -> Table:
    return Table()


@example(e.KeywordSwapped)
def swap_keyword() -> Table:
    table = started()
    table.command(table.seat(1), "swap-keyword", number=1)
    return table


@example(e.EncryptorSkipped)
def skip_encryptor() -> Table:
    table = started()
    table.command(HOST, "skip-encryptor", team="white")
    return table


@example(e.CluesAnnounced)
def announce() -> Table:
    table = started()
    table.announce("white")
    return table


@example(e.GuessSaved)
def draft() -> Table:
    table = started()
    table.announce("white")
    table.announce("black")
    table.guess("white", "white", wrong(table.code("white")), confirm=False)
    return table


@example(e.NoteWritten)
def note() -> Table:
    table = started()
    table.command(table.seat(1), "note", keyword=1, text="whale?")
    return table


@example(e.EntryTakenBack)
def take_back() -> Table:
    table = announce()
    table.command(HOST, "take-back")
    return table


@example(e.TransmissionResolved)
def resolve() -> Table:
    table = started()
    table.round(stop_before="black")
    return table


@example(e.TimerPaused)
def pause_timer() -> Table:
    table = Table(timer=30, clock=lambda: CLOCK)
    table.announce("white")
    table.command(HOST, "pause-timer")
    return table


@example(e.TimerResumed)
def resume_timer() -> Table:
    table = pause_timer()
    table.command(HOST, "resume-timer")
    return table


# --- corrections: of White's reveal in round 1, or of round 1's last reveal once round 2 began ------------


@example(e.CorrectionProposed)
def propose_correction() -> Table:
    table = resolve()
    table.command(HOST, "correction", decryption=wrong(table.code("white")))
    return table


@example(e.CorrectionAnswered)
def reject_correction() -> Table:
    table = propose_correction()
    table.command(table.seat(3), "answer-correction", accept=False)
    return table


@example(e.CorrectionWithdrawn)
def withdraw_correction() -> Table:
    table = propose_correction()
    table.command(HOST, "withdraw-correction")
    return table


@example(e.RevealCorrected)
def correct() -> Table:
    table = propose_correction()
    for seat in (1, 3):
        table.command(table.seat(seat), "answer-correction", accept=True)
    return table


@example(e.RoundReopened)
def reopen_round() -> Table:
    table = started()
    table.round()
    table.command(HOST, "correction", decryption=wrong(table.game.rounds[0].transmissions["black"].code))
    for seat in (1, 3):
        table.command(table.seat(seat), "answer-correction", accept=True)
    return table


# --- the end ------------------------------------------------------------------------------------------


@example(e.GameEnded)
def misread_twice() -> Table:
    table = started()
    for _ in range(2):
        table.round(white=(False, False))
    return table


@example(e.RematchStarted)
def rematch() -> Table:
    table = misread_twice()
    table.command(HOST, "rematch")
    return table


@example(e.TiebreakStarted)
def collision() -> Table:
    """Round 1, then both teams intercept in rounds 2 and 3: level."""
    table = started()
    table.round()
    for _ in range(2):
        table.round(white=(True, True), black=(True, True))
    return table


@example(e.KeywordGuessesSealed)
def seal_keyword_guesses() -> Table:
    table = collision()
    table.command(table.seat(1), "keyword-guesses", guesses=["a", "b", "c", "d"])
    return table


@example(e.KeywordsJudged)
def judge_keywords() -> Table:
    table = seal_keyword_guesses()
    table.command(table.seat(3), "keyword-guesses", guesses=["e", "f", "g", "h"])
    table.command(HOST, "verdicts", verdicts={"white": [True] * 4, "black": [False] * 4})
    return table


# --- seats: Bea's (3) new phone; Bob (4) is her teammate ----------------------------------------------


@example(e.SeatLinkIssued)
def seat_link() -> Table:
    table = started()
    table.command(HOST, "seat-link", seat=3)
    return table


@example(e.SeatLinkCancelled)
def cancel_seat_link() -> Table:
    table = seat_link()
    table.command(HOST, "cancel-seat-link", seat=3)
    return table


@example(e.SeatClaimed)
def claim_unattended() -> Table:
    """No phone of Black in use: the new phone takes the seat at once."""
    table = seat_link()
    table.do({"type": "claim_seat", "in_use": [], "at": CLOCK}, Who("handoff", seat=3))
    return table


@example(e.SeatClaimWaiting)
def claim_waiting() -> Table:
    """Bob's phone is in use: the new phone waits for him to let it in."""
    table = seat_link()
    table.do({"type": "claim_seat", "in_use": [4], "at": CLOCK}, Who("handoff", seat=3))
    return table


@example(e.SeatHanded)
def let_in() -> Table:
    table = claim_waiting()
    table.command(table.seat(4), "let-in", seat=3)
    return table


@example(e.ClaimAcknowledged)
def acknowledge_claim() -> Table:
    table = claim_unattended()
    table.command(table.seat(4), "acknowledge-claim", seat=3)
    return table


# --- moving the table screen (its own page's commands, not the API's) ------------------------------------


@example(e.TableMoveOffered)
def offer_table_move() -> Table:
    table = started()
    table.do({"type": "offer_table_move", "at": CLOCK}, HOST)
    return table


@example(e.TableMoveCancelled)
def cancel_table_move() -> Table:
    table = offer_table_move()
    table.do({"type": "cancel_table_move"}, HOST)
    return table


@example(e.TableMoved)
def move_table() -> Table:
    table = offer_table_move()
    table.do({"type": "take_table", "at": CLOCK}, Who("table_move"))
    return table
