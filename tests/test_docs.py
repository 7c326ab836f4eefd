"""docs/api.md stays exact where it lists what the code defines: its generated lists (tools/api_docs.py), the
refusal codes and their statuses, the languages, each command's targets, and the stale answers it shows
(replayed here); and the operating guide names every setting."""

from __future__ import annotations

import json
import re
from pathlib import Path

from companion.rules.commands import COMMANDS
from companion.rules.text import LANGUAGES
from companion.messages import REFUSALS
from companion.web.openapi import openapi_document
from tools.api_docs import updated

API_MD = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
PROSE = re.sub(r"^```.*?^```", "", API_MD, flags=re.M | re.S)  # no code blocks: `# comments` aren't headings


def section(heading: str) -> str:
    """The prose under `## heading` (or `### heading`), up to the next heading of the same level or above."""
    found = re.search(rf"^(#+) {re.escape(heading)}$", PROSE, re.M)
    assert found, f"docs/api.md has no section {heading!r}"
    rest = PROSE[found.end() :]
    end = re.search(rf"^#{{1,{len(found.group(1))}}} ", rest, re.M)
    return rest[: end.start()] if end else rest


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the first Markdown table in `text`, as cells."""
    table = re.search(r"^\|.*?(?=^[^|]|\Z)", text, re.M | re.S)
    assert table, "no table"
    lines = table.group(0).splitlines()
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def codes(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def test_the_errors_table_is_every_refusal_code_with_its_status():
    documented = {}
    for status, _meaning, listed in table_rows(section("Errors")):
        for code in codes(listed):
            assert code not in documented, f"{code} is listed twice"
            documented[code] = int(status)
    statuses = {code: refusal.status for code, refusal in REFUSALS.items()}
    assert set(statuses) - set(documented) == set(), "codes the Errors table doesn't list"
    assert set(documented) - set(statuses) == set(), "codes the Errors table lists that the app never answers"
    assert {code: status for code, status in documented.items() if statuses[code] != status} == {}, (
        "codes listed under another status than the app's"
    )


def test_the_lists_are_as_update_docs_writes_them():
    """The event types, tasks, host commands and refusal codes by status (tools/api_docs.py)."""
    assert updated(API_MD) == API_MD, "run scripts/update-docs"


def test_the_languages_are_the_apps():
    create = dict((row[0], row) for row in table_rows(section("`POST /api/games`: create a game")))
    view = dict((row[0], row) for row in table_rows(section("The view")))
    expected = [f'"{language}"' for language in LANGUAGES]
    assert [c for c in codes(create["`language`"][2]) if c.startswith('"')] == expected
    assert codes(view["`language`"][2]) == list(LANGUAGES)


def test_the_openapi_version_is_the_documents():
    assert f"OpenAPI {openapi_document()['openapi'].rsplit('.', 1)[0]}" in API_MD


def test_the_targets_table_is_each_commands_targets():
    documented = {}
    for commands, fields, _source in table_rows(section("Targets: every command names what it acts on")):
        for name in codes(commands):
            assert name not in documented, f"{name} is listed twice"
            documented[name] = set(codes(fields))
    assert set(documented) == set(COMMANDS)
    assert {
        name: fields for name, fields in documented.items() if fields != {t.name for t in COMMANDS[name].targets}
    } == {}


# --- the answers the Targets section shows, replayed ------------------------------------------


def shown(answer) -> str:
    """An answer as `curl` prints it (the API's compact JSON), which the doc must show verbatim."""
    text = answer.get_data(as_text=True).strip()
    assert text in API_MD, f"docs/api.md doesn't show the answer {text}"
    return json.loads(text)


def as_written(etag: str) -> str:
    """An ETag as docs/api.md writes it: the app's release (its first part) as "ab12cd34"."""
    return re.sub(r'"[0-9a-f]{8}\.', '"ab12cd34.', etag)


def test_the_targets_examples_are_what_the_api_answers(client):
    created = client.post("/api/games", json={"language": "en"}).get_json()
    game, host = created["game_id"], created["tokens"]["host"]
    path = f"/api/games/{game}"
    seats = {}
    for team, name in (("white", "Ann"), ("black", "Bea"), ("white", "Abe"), ("black", "Bob")):
        joined = client.post(
            f"{path}/join", json={"name": name}, headers={"Authorization": f"Bearer {created['tokens'][team]}"}
        ).get_json()
        seats[name] = {"Authorization": f"Bearer {joined['token']}"}
    assert (
        client.post(f"{path}/start", json={"match": 1}, headers={"Authorization": f"Bearer {host}"}).status_code == 200
    )
    # round 1: Ann and Bea encrypt; Abe and Bob guess
    for name, clues in (("Ann", ["w1a", "w1b", "w1c"]), ("Bea", ["b1a", "b1b", "b1c"])):
        assert (
            client.post(f"{path}/clues", json={"clues": clues, "match": 1, "round": 1}, headers=seats[name]).status_code
            == 200
        )
    code = client.get(path, headers=seats["Ann"]).get_json()["you"]["code"]

    # Bob's screen (version 9) still shows Black's transmission as the next to guess: it isn't open yet.
    bobs_screen = client.get(path, headers=seats["Bob"])
    assert bobs_screen.get_json()["version"] == 9 and as_written(bobs_screen.headers["ETag"]) in API_MD
    early = client.post(
        f"{path}/guess",
        headers=seats["Bob"],
        json={"code": [1, 2, 3], "confirm": True, "match": 1, "round": 1, "transmission": "black"},
    )
    assert early.status_code == 409 and shown(early)["code"] == "stale"

    # Abe seals White's decryption naming its transmission, then sends the same seal again.
    seal = {"code": code, "confirm": True, "match": 1, "round": 1, "transmission": "white"}
    first = client.post(f"{path}/guess", json=seal, headers=seats["Abe"])
    assert first.status_code == 200
    assert shown(first) == {"events": ["guess_saved", "transmission_resolved"], "version": 11}
    again = client.post(f"{path}/guess", json=seal, headers=seats["Abe"])
    assert again.status_code == 409 and shown(again)["code"] == "stale"
    assert client.get(path, headers=seats["Abe"]).get_json()["version"] == 11  # nothing written
    untargeted = {key: seal[key] for key in ("code", "confirm")}
    assert (
        client.post(f"{path}/guess", json=untargeted, headers=seats["Abe"]).get_json()["code"]
        == "no_interception_round_one"
    )

    # If-Match: Bob's old screen, something unreadable, then the view he fetched again.
    behind = client.post(
        f"{path}/guess",
        json={"code": [1, 1, 1], "confirm": True},
        headers={**seats["Bob"], "If-Match": bobs_screen.headers["ETag"]},
    )
    assert behind.status_code == 409 and shown(behind)["code"] == "stale"
    unreadable = client.post(
        f"{path}/guess", json={"code": [1, 1, 1], "confirm": True}, headers={**seats["Bob"], "If-Match": "yesterday"}
    )
    assert unreadable.status_code == 400 and shown(unreadable)["code"] == "if_match_malformed"
    fetched = client.get(path, headers=seats["Bob"])
    assert as_written(fetched.headers["ETag"]) == 'W/"ab12cd34.v11-seat-black-4"' in API_MD
    sealed = client.post(
        f"{path}/guess", json={"code": [1, 1, 1], "confirm": True}, headers={**seats["Bob"], "If-Match": "11"}
    )
    assert sealed.status_code == 200
    assert shown(sealed) == {"events": ["guess_saved", "transmission_resolved", "round_started"], "version": 14}

    # A join once the game has started.
    late = client.post(
        f"{path}/join", json={"name": "Cy"}, headers={"Authorization": f"Bearer {created['tokens']['white']}"}
    )
    assert late.status_code == 409 and shown(late)["code"] == "too_late_to_join"


def test_the_operating_guide_names_every_setting_the_app_reads():
    """Every environment variable the app or its server script reads is in the operating guide's settings."""
    root = Path(__file__).resolve().parent.parent
    sources = [*(root / "companion").rglob("*.py"), root / "gunicorn.conf.py"]
    read = {
        name
        for path in sources
        for name in re.findall(r"""os\.environ(?:\.get\(|\[)["']([A-Z_]+)["']""", path.read_text())
    }
    guide = (root / "docs" / "operating.md").read_text(encoding="utf-8")
    settings = guide[guide.index("## Settings") : guide.index("## PostgreSQL")]
    assert {"DATABASE_URL", "SECRET_KEY", "STREAMS", "PORT"} <= read  # the scan finds them
    assert {name for name in read if f"`{name}`" not in settings} == set()
