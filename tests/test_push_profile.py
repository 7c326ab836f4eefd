"""`bench/push_profile.py` (docs/performance.md's profile of a pushed change) still runs, and every screen's
stream has a message after each command."""

from __future__ import annotations

import re

import pytest

from bench.push_profile import main


@pytest.mark.parametrize("cold", [[], ["--cold"]])
def test_the_push_profile_runs_a_round_and_counts_every_screens_message(capsys, cold):
    main(["--rounds", "1", *cold])
    printed = capsys.readouterr().out
    found = re.search(r"(\d+) stream messages, ([\d.]+) ms of CPU each", printed)
    assert found and int(found[1]) % 9 == 0 and int(found[1]) >= 9 * 6, printed
    assert re.search(r"a phone's [\d.]+ ms, the table screen's [\d.]+ ms", printed), printed
    assert "rendering new pieces" in printed
