"""A player's phone page (templates/pages/play.html) as its live regions, worked out from the player's view.

Each region is what web/fragments.py `live` takes: `(tag, id, attributes, piece, *args)`; the template writes
`live(*regions.topbar)`. Worked out here rather than in the template so that a fetch can name its answer
before rendering it (`answer_key`): a team's phones that show the same regions get the same answer after a
move, and only the first of them renders it (web/pages/rendering.py `render_view`).

The page's HTML outside its regions reads only `body_class` (and the words of its language): what a region
shows of its viewer alone (the name in the top bar, the seat the timer and the seat alerts are for) is in
that region's arguments, so in its key. tests/test_fragments.py compares every phone's answers, shared or
not, with those of an app that shares nothing, byte for byte, through whole games.
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

from ...rules import LOBBY, OVER, other
from ...views import TURN_TASKS
from ..fragments import Pieces, Speech, key_of, last_reveal, names, sheets_of, short_key, timer_slot, writers

PHONE = Pieces("partials/phone.html")
INTERCEPTING = ("intercept", "intercept_alone")


def phone_regions(
    view: Any, game_id: str, armed: tuple[str, ...] | None = None, typed: dict[str, Any] | None = None
) -> dict[str, tuple[Any, ...]]:
    """play.html's live regions, by id, in the page's order. `armed`: the careful button tapped once; `typed`:
    the fields of a refused form, as the player typed them (web/pages/after_form.py)."""
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
        panel = (PHONE.other_task_panel, game_id, view, armed)
    # While intercepting, the other team's sheet comes first (app.css puts it right after the task): its
    # columns are what the team decodes with.
    first = them if view["transmission"] == them else team
    return {
        "topbar": (
            "div",
            "topbar",
            {"class": "topbar-line"},
            PHONE.topbar,
            me["name"],
            team,
            view["round"],
            view["max_rounds"],
        ),
        "timer": (
            "div",
            "timer",
            {},
            PHONE.timer,
            view["timer"],
            me["seat"],
            team,
            view["round"],
            task == "write_clues",
            timer_slot(view),
        ),
        "seat-alerts": (
            "div",
            "seat-alerts",
            {},
            PHONE.seat_alerts,
            game_id,
            me["seat"],
            team,
            you["seat_links"],
            [w for w in view["waiting"] if w["team"] == team],
            view["unattended"],
            seated,
        ),
        "task-line": ("p", "task-line", {"class": "task-text", "aria-live": "polite"}, PHONE.task_line, task),
        "task": ("div", "task", {"data-task": task, "data-cue": task in TURN_TASKS}, *panel),
        "reveal": ("div", "reveal", {}, PHONE.reveal_card, last_reveal(view)),
        "keywords": (
            "div",
            "keywords",
            {},
            PHONE.keywords_card,
            game_id,
            view["teams"][team]["keywords"] if view["phase"] != OVER else None,
            you["can_swap"],
            view["match"],
            view["round"],
            armed[1] if armed and armed[0] == "swap-keyword" else None,
        ),
        "status": (
            "div",
            "status",
            {},
            PHONE.status,
            [[team, view["teams"][team]["tokens"]], [them, view["teams"][them]["tokens"]]],
            view["mode"],
            view["phase"],
            view["max_rounds"],
        ),
        "sheets": ("div", "sheets", {}, PHONE.sheets, sheets_of(view, first, other(first), game_id=game_id)),
        "notices": ("div", "notices", {}, PHONE.table_log, view["notices"], seated),
    }


def phone_body_class(view: Any) -> str:
    """The page's body classes: its team's colours, a game under way, the team intercepting."""
    classes = f"phone team-{view['viewer']['team']}"
    if view["phase"] not in (LOBBY, OVER):
        classes += " in-game"
    if view["you"]["task"] in INTERCEPTING:
        classes += " intercepting"
    return classes


def answer_key(
    template: str,
    body_class: str,
    try_out: bool,
    speech: Speech,
    regions: dict[str, tuple[Any, ...]],
    shown: frozenset[str],
) -> bytes:
    """What an update of the page renders from: its frame (`body_class`, `try_out`, the words and links of
    `speech`) and the regions its script does not show yet (each by its key, which names all it reads)."""
    unshown = []
    for tag, element_id, attributes, piece, *args in regions.values():
        key = key_of(piece, speech, (tag, element_id, attributes, tuple(args)))
        if short_key(key) not in shown:
            unshown.append(key)
    what = orjson.dumps([template, body_class, try_out, *speech]) + b"".join(unshown)
    return hashlib.blake2b(what, digest_size=16).digest()
