"""Each live page as one model built from its viewer's view: a `Screen`, its body's classes and its live
regions by id, in the page's order. A player's phone (templates/pages/play.html), the table screen
(pages/table.html) and a spectator's (pages/watch.html) each have theirs; the template writes
`live(regions["topbar"])` for each region, and outside them reads only what never changes during a game.

A region is what web/fragments.py `live` renders: a reused piece of a template and its arguments, in an
element that carries the piece's key. Worked out here rather than in the template, a page's regions have keys
before anything is rendered: a fetch names its answer before rendering it (`answer_key`: a team's phones that
show the same regions get the first one's answer), and a stream sends its page only the regions whose key
changed (web/pages/rendering.py `page_stream`). tests/test_fragments.py compares every screen's pushed and
fetched regions, shared or not, with those of an app that shares nothing, byte for byte, through whole games.
"""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple

import orjson

from ...rules import KEYWORD_JUDGING, LOBBY, OVER, PLAYING, other
from ...rules.text import DEFAULT_TIMER
from ...views import TURN_TASKS, without_own
from ..fragments import (
    Pieces,
    Region,
    Speech,
    host_tools_of,
    region_key,
    last_reveal,
    names,
    news_of,
    sheets_of,
    short_key,
    timer_slot,
    writers,
)

PHONE = Pieces("partials/phone.html")
TABLE = Pieces("partials/table.html")
BOARD = Pieces("partials/board.html")
GAME = Pieces("partials/game.html")
INTERCEPTING = ("intercept", "intercept_alone")


class Screen(NamedTuple):
    """A live page: its body's classes, its regions by id in the page's order, and what its template shows
    outside them that the view doesn't say (`frame`: a whole page's, never sent by its stream)."""

    body_class: str
    regions: dict[str, Region]
    frame: dict[str, Any] = {}


class TableLinks(NamedTuple):
    """What the table screen shows besides the view: the lobby's join links (their addresses, QR codes and
    codes), the seat links it issued and its pending move link (each an address and its QR code), and the
    address of the home page."""

    join: dict[str, str]
    qr: dict[str, str]
    codes: dict[str, str]
    home_url: str
    seat_links: dict[int, dict[str, str]]
    move: dict[str, str] | None
    spectator_url: str | None  # (outside the regions: the page's footer)


def _classes(screen: str, view: Any, game_over: bool = True, also: str = "") -> str:
    """A screen's body classes: its own, then the game under way (or over, on the boards), `also`, and a
    try-out's bar."""
    playing = view["phase"] not in (LOBBY, OVER)
    over = game_over and view["phase"] == OVER
    return (
        screen
        + (" in-game" if playing else " game-over" if over else "")
        + also
        + (" try-out" if view["try_out"] else "")
    )


def phone_own(view: Any, game_id: str) -> list[Region]:
    """A phone's regions that read its player's own seat or name (`views.view_key` leaves them out): its
    teammates who see the same get the same other regions. In the lobby, every region (its roster marks the
    player's own seat)."""
    if view["phase"] == LOBBY:
        return list(phone_screen(view, game_id).regions.values())
    return _own_regions(view, game_id)


def _own_regions(view: Any, game_id: str) -> list[Region]:
    """The top bar (the player's name), the sand timer and the seat alerts (the player's seat)."""
    me, you = view["viewer"], view["you"]
    team = me["team"]
    return [
        Region(
            "div",
            "topbar",
            {"class": "topbar-line"},
            PHONE.topbar,
            (me["name"], team, view["round"], view["max_rounds"]),
        ),
        Region(
            "div",
            "timer",
            {},
            PHONE.timer,
            (view["timer"], me["seat"], team, view["round"], you["task"] == "write_clues", timer_slot(view)),
        ),
        Region(
            "div",
            "seat-alerts",
            {},
            PHONE.seat_alerts,
            (
                game_id,
                me["seat"],
                team,
                you["seat_links"],
                [w for w in view["waiting"] if w["team"] == team],
                view["unattended"],
                names(view),
            ),
        ),
    ]


def phone_screen(
    view: Any, game_id: str, armed: tuple[str, ...] | None = None, typed: dict[str, Any] | None = None
) -> Screen:
    """A player's phone. `armed`: the careful button tapped once; `typed`: the fields of a refused form, as the
    player typed them (web/pages/after_form.py)."""
    me, you = view["viewer"], view["you"]
    team, task = me["team"], you["task"]
    them = other(team)
    transmissions = view["rounds"][-1]["transmissions"] if view["rounds"] else {}
    seated = names(view)
    panel: tuple[Any, ...]
    if task == "write_clues":
        panel = (
            PHONE.write_clues_panel,
            game_id,
            view["match"],
            view["round"],
            you["code"],
            view["teams"][team]["keywords"],
            (typed or {}).get("clues") or you["clues_taken_back"],  # clues to edit, refused or taken back
        )
    elif task in ("wait_for_clues", "wait_for_encryptor"):
        clues = transmissions[team]["clues"] if you["encryptor"] else None
        panel = (PHONE.waiting_panel, clues, writers(view))
    elif view["transmission"] and task not in ("answer_correction", "wait_for_correction"):
        transmission = transmissions[view["transmission"]]
        panel = (PHONE.transmission_panel, game_id, view["match"], view["round"], task, team, transmission)
    else:
        seat = me["seat"] if task == "wait_for_start" else None
        panel = (PHONE.other_task_panel, game_id, without_own(view), seat, armed)
    # While intercepting, the other team's sheet comes first (app.css puts it right after the task): its
    # columns are what the team decodes with.
    first = them if view["transmission"] == them else team
    regions = [
        *_own_regions(view, game_id),
        Region("p", "task-line", {"class": "task-text", "aria-live": "polite"}, PHONE.task_line, (task,)),
        Region("div", "task", {"data-task": task, "data-cue": task in TURN_TASKS}, panel[0], panel[1:]),
        Region("div", "reveal", {}, PHONE.reveal_card, (last_reveal(view),)),
        Region(
            "div",
            "keywords",
            {},
            PHONE.keywords_card,
            (
                game_id,
                view["teams"][team]["keywords"] if view["phase"] != OVER else None,
                you["can_swap"],
                view["match"],
                view["round"],
                armed[1] if armed and armed[0] == "swap-keyword" else None,
            ),
        ),
        Region(
            "div",
            "status",
            {},
            PHONE.status,
            (
                [[team, view["teams"][team]["tokens"]], [them, view["teams"][them]["tokens"]]],
                view["mode"],
                view["phase"],
                view["max_rounds"],
            ),
        ),
        Region("div", "sheets", {}, PHONE.sheets, (sheets_of(view, first, other(first), game_id=game_id),)),
        Region("div", "notices", {}, GAME.table_log, (view["notices"], seated)),
    ]
    intercepting = " intercepting" if task in INTERCEPTING else ""
    return Screen(_classes(f"phone team-{team}", view, False, intercepting), {region.id: region for region in regions})


def table_screen(view: Any, game_id: str, links: TableLinks, armed: tuple[str, ...] | None = None) -> Screen:
    """The table screen (the host's): the board, and the host's tools."""
    phase, judging = view["phase"], view["phase"] == KEYWORD_JUDGING
    # Each step the table acts on (a round's clues, a transmission, the verdicts) is a task that may call it.
    task = {
        "data-task": f"{phase}-{view['round']}-{view['transmission']}" + ("-correction" if view["correction"] else ""),
        "data-cue": phase in (PLAYING, KEYWORD_JUDGING) and not view["correction"],
    }
    teams = view["teams"]
    if phase == LOBBY:
        board = Region(
            "div", "board", task, TABLE.lobby, (game_id, view, links.join, links.qr, links.codes, links.home_url, armed)
        )
    else:
        board = Region("div", "board", task, TABLE.stage, (game_id, view))
    regions = [
        # What a screen reader beside the table hears: the element stays, so each new text is said once.
        Region("p", "news", {"class": "visually-hidden", "aria-live": "polite"}, BOARD.news, (news_of(view),)),
        Region(
            "div",
            "judging",
            {},
            TABLE.judging,
            (
                game_id,
                view["match"],
                view["tiebreak"] if judging else None,
                {"white": teams["white"]["keywords"], "black": teams["black"]["keywords"]} if judging else None,
            ),
        ),
        Region(
            "div",
            "seat-links",
            {},
            TABLE.seat_links_card,
            (game_id, view["unattended"], view["waiting"], links.seat_links, names(view), armed),
        ),
        board,
        *_under_the_board(view, phase != LOBBY),
        Region(
            "div",
            "lobby-settings",
            {},
            TABLE.lobby_settings,
            (game_id, phase == LOBBY and view["mode"] == "standard", view["timer_seconds"], DEFAULT_TIMER),
        ),
        Region("div", "host-tools", {}, TABLE.host_tools, (game_id, host_tools_of(view), armed)),
        Region("div", "table-move", {}, TABLE.table_move, (game_id, links.move, view["try_out"])),
    ]
    frame = {"spectator_url": links.spectator_url}
    return Screen(_classes("table-screen", view), {region.id: region for region in regions}, frame)


def watch_screen(view: Any) -> Screen:
    """A spectator's screen: what the whole table sees (the table screen's classes: on a wide window, a second
    screen, its layout; on a phone, the phone's)."""
    regions = [
        Region("p", "news", {"class": "visually-hidden", "aria-live": "polite"}, BOARD.news, (news_of(view),)),
        Region("div", "board", {}, BOARD.watching, (view,)),
        *_under_the_board(view, True),
    ]
    return Screen(_classes("watch table-screen", view), {region.id: region for region in regions})


def _under_the_board(view: Any, log: bool) -> list[Region]:
    """The note sheets and the table log under the table screen's board (a spectator's too), each a region of
    its own: most moves change neither, which then stay on the screen as they are (the board itself changes with
    every move). `log`: whether the table log shows (not in the table screen's lobby)."""
    return [
        Region("div", "sheets", {}, BOARD.sheets, (sheets_of(view, *view["transmitting"]),)),
        Region("div", "notices", {}, GAME.table_log, (view["notices"] if log else [], names(view))),
    ]


def answer_key(template: str, screen: Screen, speech: Speech, shown: frozenset[str]) -> bytes:
    """What an update of the page renders from: its frame (its classes, the words and links of `speech`) and
    the regions its script does not show yet (each by its key, which names all it reads)."""
    unshown = [
        key for key in (region_key(speech, region) for region in screen.regions.values()) if short_key(key) not in shown
    ]
    what = orjson.dumps([template, screen.body_class, *speech]) + b"".join(unshown)
    return hashlib.blake2b(what, digest_size=16).digest()
