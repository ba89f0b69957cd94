"""A claim recorded as not met is listed once its recorded verdict has stood longer than the set age, from git history."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from pathlib import Path

from harness.claims.standing import recorded_verdicts, standing

CLAIM = '''paper = "spectra"
[[claim]]
id = "c-{{window}}"
each = {{ window = ["w1", "w2"] }}
expected = "{expected}"
{exceptions}
'''


def _commit(repo: Path, expected: str, day: int, exceptions: str = "") -> None:
    (repo / "claims.toml").write_text(CLAIM.format(expected=expected, exceptions=exceptions))
    stamp = f"2026-11-{day:02d}T12:00:00+00:00"
    env = os.environ | {"GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp, "GIT_AUTHOR_NAME": "t",
                        "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    subprocess.run(["git", "-C", str(repo), "add", "claims.toml"], check=True, env=env)
    subprocess.run(["git", "-C", str(repo), "commit", "-qm", f"day {day}"], check=True, env=env)


def test_a_recorded_verdict_is_read_per_expanded_claim():
    text = CLAIM.format(expected="missed", exceptions='expected_except = { "c-w2" = "met" }')
    assert recorded_verdicts(text, "e") == {"e.c-w1": "missed", "e.c-w2": "met"}


def test_the_standing_begins_where_the_recorded_verdict_last_changed(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    _commit(tmp_path, "met", 1)
    _commit(tmp_path, "missed", 5)
    _commit(tmp_path, "missed", 9, 'expected_except = { "c-w2" = "not-shown" }')
    found = standing(tmp_path / "claims.toml", "e", tmp_path)
    assert set(found) == {"e.c-w1", "e.c-w2"}
    assert found["e.c-w1"].since == dt.datetime(2026, 11, 5, 12, tzinfo=dt.UTC)  # missed since day 5, not day 1
    # missed from day 5, not shown from day 9: not met all along, so its standing began on day 5 too
    assert found["e.c-w2"].since == dt.datetime(2026, 11, 5, 12, tzinfo=dt.UTC) and found["e.c-w2"].verdict == "not-shown"
    now = dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC)
    assert round(found["e.c-w1"].age_days(now)) == 15


def test_an_uncommitted_verdict_has_no_age_yet(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    _commit(tmp_path, "met", 1)
    (tmp_path / "claims.toml").write_text(CLAIM.format(expected="missed", exceptions=""))
    found = standing(tmp_path / "claims.toml", "e", tmp_path)
    assert all(record.since is None for record in found.values())
