"""The security boundary for the variants and the host's tools, through the pure rules and `view_for`.

The three-player game (the Interceptor, the spectator and the table never see the team's keywords before
the end, nor a code before its reveal), the keyword swap (the other side learns only *that* a team
swapped), a pending correction and the public log (nothing secret), the `host` section (the table only)
and `you.can_swap`.

Secrets are checked by value (keyword strings never appear in the serialised view) and by place (a
three-digit list may only stand where a code may, and those places are empty until the viewer may know).
"""

from __future__ import annotations

import json

import pytest

from companion.rules import HOST, OVER, TEAMS, Who, other
from companion.rules import replay
from companion.rules.events import NOTICES
from companion.rules.three_player import INTERCEPTOR, TEAM
from companion.views import view_for
from tools.driver import WORDS, Table, wrong, wrong2

from .oracle import own_code, sees, transmission, walk

NOW = 1_000.0


# --- helpers --------------------------------------------------------------------------------


def three(**settings) -> Table:
    """Ann (1) and Abe (2) are the team, behind the white screen; Ivy (3) is the Interceptor."""
    return Table(white=("Ann", "Abe"), black=("Ivy",), mode="three_player", **settings)


def seat_viewer(game, seat) -> Who:
    return Who("seat", seat=seat, team=game.player(seat).team)


def everyone(game):
    """(name, viewer) for the table, a spectator, both join links and every seat."""
    yield "table", Who("host")
    yield "spectator", Who("spectator")
    for team in TEAMS:
        yield f"{team} join link", Who("join", team=team)
    for p in game.players:
        yield p.name, seat_viewer(game, p.seat)


def check_codes(game, viewer, view, where=""):
    """A code-like value only where a code may stand; each unrevealed one empty unless the viewer may know
    it (the oracle's `sees` and `own_code`)."""
    for path, _ in walk(view):
        if path[0] == "notices":  # what the host proposed: typed at the table, not a secret
            assert path[-1] in ("decryption", "interception"), (where, path)
            assert view["notices"][path[1]]["kind"] in ("correction_proposed", "reveal_corrected"), (where, path)
        elif path[0] == "correction":  # about the last reveal: public since it was revealed
            assert path[-1] in ("code", "decryption", "interception"), (where, path)
            c = game.correction
            assert transmission(game, c.round, c.team).resolved, where
        else:
            assert path[-1] == "code", f"a three-digit list at {path} in {where}"
    for r_view, r in zip(view["rounds"], game.rounds, strict=True):
        for team, t in r.transmissions.items():
            tv, shown = r_view["transmissions"][team], sees(viewer, t)
            if t.resolved:
                assert tv["code"] == list(t.code)
                continue
            assert shown["code"] or tv["code"] is None, f"round {r.number} {team} code before its reveal in {where}"
            assert shown["decryption"] or tv["decryption"]["code"] is None, f"{team}'s decryption reaches {where}"
            if tv["interception"] is not None:
                assert shown["interception"] or tv["interception"]["code"] is None, (
                    f"{other(team)}'s interception reaches {where}"
                )
    you, own = view["you"], own_code(game, viewer)
    if you and you["code"] is not None:
        assert own and you["code"] == list(own), f"you.code for someone not encrypting it in {where}"
    for section in ("host", "timer"):
        assert not list(walk(view[section])), (where, section)


def text_of(view) -> str:
    return json.dumps(view, ensure_ascii=False)


# --- the three-player game ------------------------------------------------------------------


def three_player_scenarios():
    yield "lobby", three(start=False)
    t = three()
    yield "round1-writing", t
    t = three()
    t.announce(TEAM)
    yield "round1-guessing", t
    t = three()
    t.announce(TEAM)
    t.guess(TEAM, TEAM, wrong(t.code(TEAM)), confirm=False)
    yield "round1-draft-decryption", t
    t = three()
    t.three_player_round()
    t.announce(TEAM)
    t.guess(INTERCEPTOR, TEAM, wrong(t.code(TEAM)), confirm=False)
    yield "round2-draft-interception", t
    t = three()
    t.three_player_round()
    t.announce(TEAM)
    t.guess(INTERCEPTOR, TEAM, wrong(t.code(TEAM)))
    t.guess(TEAM, TEAM, wrong2(t.code(TEAM)), confirm=False)
    yield "round2-interception-sealed", t
    t = three()
    t.three_player_round()
    t.three_player_round(intercepted=True)
    yield "after-the-reveal", t
    t = three()
    t.do({"type": "swap_keyword", "number": 3, "words": WORDS}, t.seat(2))
    yield "swapped", t
    t = three()
    t.three_player_round(decrypted=False)
    t.three_player_round(decrypted=False)
    yield "over", t


THREE = list(three_player_scenarios())
OUTSIDERS = [
    ("interceptor", Who("seat", seat=3, team=INTERCEPTOR)),
    ("spectator", Who("spectator")),
    ("table", Who("host")),
    ("white join link", Who("join", team="white")),
    ("black join link", Who("join", team="black")),
]


def test_the_three_player_scenarios_reach_every_phase():
    phases = {name: t.game.phase for name, t in THREE}
    assert phases["lobby"] == "lobby" and phases["over"] == OVER
    assert dict(THREE)["over"].game.result.winners == (INTERCEPTOR,)
    assert dict(THREE)["after-the-reveal"].game.round.number == 3
    assert dict(THREE)["round2-draft-interception"].game.round.interception_allowed


@pytest.mark.parametrize("name,table", THREE, ids=[n for n, _ in THREE])
@pytest.mark.parametrize("who,viewer", OUTSIDERS, ids=[w for w, _ in OUTSIDERS])
def test_the_interceptor_spectator_and_table_never_see_the_teams_secrets(name, table, who, viewer):
    game = table.game
    view = view_for(game, viewer, now=NOW)
    text = text_of(view)
    where = f"{who} in {name}"
    if game.phase != OVER:
        assert view["teams"][TEAM]["keywords"] is None, where
        for word in game.keywords.get(TEAM, ()) + tuple(game.dealt):
            assert word not in text, f"the team's keyword {word!r} reaches the {where}"
    else:
        assert view["teams"][TEAM]["keywords"] == list(game.keywords[TEAM])  # public once it is over
    assert view["teams"][INTERCEPTOR]["keywords"] is None  # the Interceptor has none
    check_codes(game, viewer, view, where)
    if viewer.kind == "seat":
        assert view["you"]["code"] is None and view["you"]["encryptor"] is False


@pytest.mark.parametrize("name,table", THREE, ids=[n for n, _ in THREE])
def test_the_team_sees_its_own_secrets_and_only_them(name, table):
    game = table.game
    for seat in (1, 2):
        viewer = seat_viewer(game, seat)
        view = view_for(game, viewer, now=NOW)
        check_codes(game, viewer, view, f"seat {seat} in {name}")
        if game.keywords:
            assert view["teams"][TEAM]["keywords"] == list(game.keywords[TEAM])
        if game.phase == "playing":
            own = game.round.transmissions[TEAM]
            assert (view["you"]["code"] == list(own.code)) == (own.encryptor == seat)


def test_the_interceptors_draft_interception_stays_with_the_interceptor_until_the_reveal():
    table = three()
    table.three_player_round()
    table.announce(TEAM)
    code = table.code(TEAM)
    draft = wrong(code)
    table.guess(INTERCEPTOR, TEAM, draft, confirm=False)
    game = table.game

    def interception(seat):
        game = table.game
        view = view_for(game, seat_viewer(game, seat), now=NOW)
        return view["rounds"][-1]["transmissions"][TEAM]["interception"]

    for seat in (1, 2):  # the team: not the draft, not even that it was started
        assert interception(seat) == {"code": None, "sealed": False, "started": False}
    assert interception(3) == {"code": draft, "sealed": False, "started": True}
    for _, viewer in OUTSIDERS[1:]:
        assert view_for(game, viewer, now=NOW)["rounds"][-1]["transmissions"][TEAM]["interception"]["code"] is None

    table.guess(INTERCEPTOR, TEAM, draft)  # sealed: the team learns that, not what
    assert interception(1) == {"code": None, "sealed": True, "started": True}
    table.guess(TEAM, TEAM, code)  # the reveal: everyone sees both guesses
    game = table.game
    for _, viewer in everyone(game):
        revealed = view_for(game, viewer, now=NOW)["rounds"][1]["transmissions"][TEAM]
        assert revealed["interception"]["code"] == draft and revealed["code"] == code


def test_the_interceptor_cannot_swap_and_learns_only_that_the_team_swapped():
    table = dict(THREE)["swapped"]
    game = table.game
    for who, viewer in OUTSIDERS:
        view = view_for(game, viewer, now=NOW)
        assert view["notices"] == [{"kind": "keyword_swapped", "round": 1, "team": TEAM}], who
        if viewer.kind == "seat":
            assert view["you"]["can_swap"] is False


# --- the keyword swap -----------------------------------------------------------------------


def swapped(number, team="white"):
    """A standard game (same seed every time) where `team` swapped keyword `number` in round 1."""
    table = Table()
    before = table.game.keywords[team]
    seat = table.game.team_players(team)[0].seat
    events = table.do({"type": "swap_keyword", "number": number, "words": WORDS}, table.seat(seat))
    return table, before[number - 1], events[0]["word"]


@pytest.mark.parametrize("team", TEAMS)
def test_the_other_side_learns_only_that_a_team_swapped(team):
    tables = {number: swapped(number, team) for number in (1, 3)}
    for number, (table, old, new) in tables.items():
        game = table.game
        assert game.keywords[team][number - 1] == new
        for name, viewer in everyone(game):
            view = view_for(game, viewer, now=NOW)
            text = text_of(view)
            assert view["notices"] == [{"kind": "keyword_swapped", "round": 1, "team": team}], name
            assert old not in text, f"the swapped-out word reaches {name}"
            mine = viewer.kind == "seat" and game.player(viewer.seat).team == team
            assert (new in text) == mine, f"the new word and {name}"
            check_codes(game, viewer, view, name)
    # Nor the number: the other team, the spectator and the table see the same whichever keyword it was.
    one, three_ = tables[1][0].game, tables[3][0].game
    assert tables[1][2] == tables[3][2]  # the same fresh word was drawn
    for name, viewer in everyone(one):
        mine = viewer.kind == "seat" and one.player(viewer.seat).team == team
        if mine:
            assert view_for(one, viewer, now=NOW) != view_for(three_, viewer, now=NOW)
        else:
            assert view_for(one, viewer, now=NOW) == view_for(three_, viewer, now=NOW), name


def test_a_swap_stays_hidden_as_the_game_goes_on():
    table, old, new = swapped(2, "black")
    table.round()
    table.round()
    game = table.game
    for name, viewer in everyone(game):
        if viewer.kind == "seat" and game.player(viewer.seat).team == "black":
            continue
        text = text_of(view_for(game, viewer, now=NOW))
        assert new not in text and old not in text, name


# --- a pending correction and the public log ------------------------------------------------


def eventful() -> Table:
    """A game through every host tool; it ends with a correction of round 2's White reveal waiting,
    confirmed by White, while Black's transmission is being guessed (its code still secret)."""
    t = Table(white=("Ann", "Abe", "Amy"), black=("Bea", "Bob"))  # seats 1-3 White, 4-5 Black
    t.do({"type": "swap_keyword", "number": 2, "words": WORDS}, t.seat(4))
    t.do({"type": "skip_encryptor", "team": "white"}, HOST)
    t.do({"type": "issue_seat_link", "seat": 5}, HOST)
    t.do({"type": "claim_seat"}, Who("handoff", seat=5))  # waits for Black's other phone
    t.do({"type": "let_in", "seat": 5}, t.seat(4))
    t.announce("white")
    t.do({"type": "take_back"}, HOST)  # White's clues, taken back
    t.round()
    t.announce("white")
    t.announce("black")
    code = t.code("white")
    t.guess("black", "white", wrong(code))
    t.do({"type": "take_back"}, HOST)  # Black's sealed interception, back to a draft
    t.guess("black", "white", wrong(code))
    t.guess("white", "white", wrong(code))  # White misread: resolved
    t.guess("white", "black", wrong(t.code("black")), confirm=False)  # White's draft on Black's code
    t.do({"type": "propose_correction", "decryption": code, "interception": wrong(code)}, HOST)
    t.do({"type": "answer_correction", "accept": True}, t.seat(1))
    return t


def check_public_log(game, name, viewer, view):
    text = json.dumps({"notices": view["notices"], "correction": view["correction"], "host": view["host"]})
    for word in set(game.dealt):
        assert word not in text, f"the keyword {word!r} in the log or correction seen by {name}"
    for notice in view["notices"]:  # only what its event declares public
        assert list(notice) == ["kind", "round", *NOTICES[notice["kind"]].fields], notice
        if notice["kind"] == "keyword_swapped":
            assert set(notice) == {"kind", "round", "team"}  # never which keyword, nor the word
        if notice["kind"] == "entry_taken_back":
            assert set(notice) <= {"kind", "round", "entry", "team", "by"}
    check_codes(game, viewer, view, name)


def test_a_pending_correction_and_the_log_hold_nothing_secret():
    table = eventful()
    game = table.game
    white = transmission(game, 2, "white")
    assert white.resolved and not transmission(game, 2, "black").resolved
    expected = {
        "id": 1,
        "round": 2,
        "team": "white",
        "code": list(white.code),
        "before": {"decryption": wrong(white.code), "interception": wrong(white.code)},
        "after": {"decryption": list(white.code), "interception": wrong(white.code)},
        "confirmed": ["white"],
    }
    logs = []
    for name, viewer in everyone(game):
        view = view_for(game, viewer, now=NOW)
        assert view["correction"] == expected, name
        logs.append(view["notices"])
        check_public_log(game, name, viewer, view)
    assert all(log == logs[0] for log in logs), "the public log differs between viewers"
    assert [n["kind"] for n in logs[0]] == [
        "keyword_swapped",
        "encryptor_skipped",
        "seat_link_issued",
        "seat_handed",
        "entry_taken_back",
        "entry_taken_back",
        "correction_proposed",
        "correction_answered",
    ]
    assert logs[0][5] == {"kind": "entry_taken_back", "round": 2, "entry": "guess", "team": "white", "by": "black"}


@pytest.mark.parametrize("ending", ["rejected", "withdrawn", "confirmed"])
def test_the_log_stays_public_however_a_correction_ends(ending):
    table = eventful()
    if ending == "rejected":
        table.do({"type": "answer_correction", "accept": False}, table.seat(4))
    elif ending == "withdrawn":
        table.do({"type": "withdraw_correction"}, HOST)
    else:
        table.do({"type": "answer_correction", "accept": True}, table.seat(5))
    game = table.game
    assert game.correction is None
    last = {"rejected": "correction_answered", "withdrawn": "correction_withdrawn", "confirmed": "reveal_corrected"}[
        ending
    ]
    for name, viewer in everyone(game):
        view = view_for(game, viewer, now=NOW)
        assert view["correction"] is None and view["notices"][-1]["kind"] == last
        check_public_log(game, name, viewer, view)
    # Black's transmission goes on, its code still Black's Encryptor's alone.
    assert game.round.current.team == "black"


def test_a_three_player_correction_holds_nothing_secret():
    table = three()
    table.three_player_round()
    table.three_player_round(decrypted=False)  # round 3 dealt, its code secret
    last = transmission(table.game, 2, TEAM)
    table.do(
        {"type": "propose_correction", "decryption": list(last.code), "interception": list(last.interception.code)},
        HOST,
    )
    game = table.game
    for name, viewer in everyone(game):
        view = view_for(game, viewer, now=NOW)
        assert view["correction"]["code"] == list(last.code)
        check_public_log(game, name, viewer, view)


def test_the_log_names_the_round_whose_reveal_is_corrected():
    """Correcting round 1's last reveal once round 2 is dealt: the log says round 1, not the round under way."""
    table = Table()
    table.round()  # round 2 is dealt, nobody announced yet
    last = transmission(table.game, 1, "black")
    table.do({"type": "propose_correction", "decryption": wrong(last.code)}, HOST)
    view = view_for(table.game, Who("spectator"))
    assert view["correction"]["round"] == 1
    assert view["notices"][-1]["kind"] == "correction_proposed"
    assert view["notices"][-1]["round"] == 1


# --- the host section -----------------------------------------------------------------------


def host_scenarios():
    yield from THREE
    yield "standard-lobby", Table(start=False)
    yield "standard-writing", Table()
    t = Table()
    t.announce("black")
    yield "standard-announced", t
    yield "standard-swapped", swapped(2)[0]
    yield "correction-pending", eventful()
    t = Table()
    t.round(black=(False, False))
    t.round(black=(False, False))
    yield "standard-over", t
    t = Table()
    t.quiet_rounds(8)
    yield "tiebreak", t


HOSTED = list(host_scenarios())


@pytest.mark.parametrize("name,table", HOSTED, ids=[n for n, _ in HOSTED])
def test_the_host_section_is_for_the_table_screen_only(name, table):
    game = table.game
    for who, viewer in everyone(game):
        view = view_for(game, viewer, now=NOW)
        if viewer.kind == "host":
            assert set(view["host"]) == {"take_back", "skippable", "correctable"}
            assert view["you"] is None
        else:
            assert view["host"] is None, f"the host section reaches {who} in {name}"


def test_the_host_section_names_what_can_be_fixed_and_nothing_secret():
    table = Table()
    table.announce("black")
    host = view_for(table.game, Who("host"))["host"]
    assert host == {
        "take_back": {"entry": "clues", "round": 1, "transmission": "black"},
        "skippable": ["white"],
        "correctable": None,
    }
    pending = view_for(eventful().game, Who("host"))["host"]
    assert pending == {"take_back": None, "skippable": [], "correctable": None}


# --- you.can_swap ---------------------------------------------------------------------------


def can_swap(game) -> dict[str, bool]:
    return {p.name: view_for(game, seat_viewer(game, p.seat))["you"]["can_swap"] for p in game.players}


def test_can_swap_only_in_round_1_before_the_teams_clues_and_once():
    assert set(can_swap(Table(start=False).game).values()) == {False}
    table = Table()
    assert can_swap(table.game) == {"Ann": True, "Abe": True, "Bea": True, "Bob": True}
    table.announce("white")
    assert can_swap(table.game) == {"Ann": False, "Abe": False, "Bea": True, "Bob": True}
    table.do({"type": "swap_keyword", "number": 4, "words": WORDS}, table.seat(4))
    assert can_swap(table.game) == {"Ann": False, "Abe": False, "Bea": False, "Bob": False}
    table.announce("black")
    table.transmission("white")
    table.transmission("black")
    assert table.game.round.number == 2
    assert set(can_swap(table.game).values()) == {False}

    table = Table()
    table.do({"type": "swap_keyword", "number": 1, "words": WORDS}, table.seat(2))
    assert can_swap(table.game) == {"Ann": False, "Abe": False, "Bea": True, "Bob": True}
    for _, viewer in everyone(table.game):
        if viewer.kind != "seat":
            assert view_for(table.game, viewer)["you"] is None


def test_can_swap_in_the_three_player_game_is_for_the_team_only():
    table = three()
    assert can_swap(table.game) == {"Ann": True, "Abe": True, "Ivy": False}
    table.three_player_round()
    assert set(can_swap(table.game).values()) == {False}


def test_can_swap_is_false_when_no_spare_word_is_left():
    """A game from before lists needed 12 words: its list of 8 was all dealt, so no team can swap."""
    table = Table(custom_words="apple, pear, plum, kiwi, fig, lime, lemon, melon, peach, grape, mango, cherry")
    assert set(can_swap(table.game).values()) == {True}
    created, *played = table.events
    old = replay([{**created, "words": list(table.game.dealt)}, *played])
    assert len(old.settings.words) == 8
    assert set(can_swap(old).values()) == {False}


def test_a_planted_leak_is_caught():
    """The checks above go red if a view ever carries the Interceptor's draft, a code or a keyword."""
    table = dict(THREE)["round2-draft-interception"]
    game, team_view = table.game, Who("seat", seat=1, team=TEAM)
    view = view_for(game, team_view, now=NOW)
    view["rounds"][-1]["transmissions"][TEAM]["interception"]["code"] = list(game.round.current.interception.code)
    with pytest.raises(AssertionError, match="interception reaches"):
        check_codes(game, team_view, view)
    spectator = Who("spectator")
    view = view_for(game, spectator, now=NOW)
    view["notices"].append({"kind": "keyword_swapped", "round": 2, "team": TEAM, "number": 2})
    with pytest.raises(AssertionError):
        check_public_log(game, "spectator", spectator, view)
    view = view_for(game, spectator, now=NOW)
    view["timer"] = {"next": list(game.round.current.code)}
    with pytest.raises(AssertionError):
        check_codes(game, spectator, view)
