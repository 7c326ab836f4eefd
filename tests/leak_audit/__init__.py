"""Leak audit: whole games played through the API, every viewer looking at every byte after every step.

A standard game (with a removed player, keyword swaps, take-backs, a correction, a seat link handed to a new
phone, audited while it waits, a tiebreak and a rematch) and a three-player game (a team switch, a skipped
Encryptor, a cancelled seat link, a correction, a rematch) are played command by command. After each
command, every viewer (each seated phone, by cookie and by bearer token; the table screen; a spectator; both
join links; an open seat link; anonymous; a forged token; a token of another game; expired tokens: a removed
player, a phone whose seat went to a new phone, a seat left by switching teams, a used or cancelled seat
link) fetches every page, API answer (with and without If-None-Match) and summary it can address, and a
refused command; once per phase the answers that can't depend on the game (404s, pages addressed by a
refused token); once per browser every static file, the OpenAPI document and the home page. Every body
(decompressed when the app gzips it), every header and every session cookie (decoded) is checked for what
that viewer may not know yet (see `companion/views.py`):

- another team's keywords, including the word it swapped out and the one it got (by value: the game uses
  its own word list of unmistakable words, matched case-insensitively in any byte);
- a clue before its transmission opens, and a clue the table took back (by value);
- a code before its reveal, except to its Encryptor, and another team's guess (draft or sealed) before
  the reveal (by place: in JSON a code-like value may only stand where a code goes, and there it must be
  empty unless this viewer may know it; in HTML the `.code`/`.digit` spans, the note-sheet and summary
  columns, checked radios, `1-2-3` text and attribute values, and any spelling such as `314` of a code
  this viewer may not know);
- a tiebreak keyword guess before both teams sealed theirs (by value);
- any capability token but the ones this viewer holds (by value, also inside the session cookie, whose
  `seats` may hold this phone's own seat token only).

`audit()` returns the list of problems: empty for the real app, and not empty once a leak is planted
(see `test_a_planted_leak_is_caught`). A small Chromium part plays round 1 with one real phone per team
and checks every response those pages load (polls included) and their final DOM.

What each viewer may know comes from `tests/oracle.py`. The package: `checks.py` (what the truth is, and
the checks on each answer), `dom.py` (a light DOM for the pages), `world.py` (the game, its viewers and
the audit), `walks.py` (the games played), then the tests: `test_walks.py`, `test_planted.py`,
`test_chromium.py`.
"""
