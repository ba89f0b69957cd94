"""A verdict recorded as not met is seen with its age: since which commit the claim file has recorded it so.

``cgpm reproduce --check`` passes while every verdict is the recorded one, so a claim recorded as ``missed`` or
``not-shown`` would stay green for ever. This module reads, from the repository's history of each claim file, how
long each such recorded verdict has stood unchanged (walking the file's commits from the newest, as long as the
claim's recorded verdict is the same), so that ``--check`` lists those older than ``--max-age`` days: a permanent
miss is seen, not hidden by being expected.

Old versions of a claim file are read leniently (only ids, ``each``, ``expected`` and ``expected_except``), since
the claim-file format grew keys over time; a version that cannot be read ends the walk there.
"""

from __future__ import annotations

import datetime as dt
import itertools
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

NOT_MET = ("missed", "not-shown", "undecided", "invalid")
MAX_AGE_DAYS = 7


@dataclass(frozen=True)
class Standing:
    claim_id: str
    verdict: str
    since: dt.datetime | None   # the commit from which the file has recorded this verdict; None: not in git
    commit: str | None

    def age_days(self, now: dt.datetime) -> float | None:
        return None if self.since is None else (now - self.since).total_seconds() / 86400


def recorded_verdicts(text: str, experiment: str) -> dict[str, str]:
    """``{claim id: recorded verdict}`` of one version of a claim file, read leniently."""
    table = tomllib.loads(text)
    recorded = {}
    for raw in table.get("claim", []):
        each = raw.get("each") or {}
        exceptions = raw.get("expected_except") or {}
        for combination in itertools.product(*each.values()) if each else [()]:
            chosen = {name: str(value) for name, value in zip(each, combination)}
            claim_id = str(raw["id"]).format(**chosen)
            recorded[f"{experiment}.{claim_id}"] = exceptions.get(claim_id, raw.get("expected", "met"))
    return recorded


def _git(root: Path, *args: str) -> str | None:
    try:
        result = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout if result.returncode == 0 else None


def standing(path: Path, experiment: str, root: Path) -> dict[str, Standing]:
    """How long each claim of one claim file recorded as not met has been recorded so (uncommitted: now)."""
    current = recorded_verdicts(path.read_text(), experiment)
    wanted = {claim_id: verdict for claim_id, verdict in current.items() if verdict in NOT_MET}
    found = {claim_id: Standing(claim_id, verdict, None, None) for claim_id, verdict in wanted.items()}
    try:
        relative = path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:  # a claim file outside the repository has no history here
        return found
    log = _git(root, "log", "--format=%H %cI", "--", relative)
    if not log:
        return found
    open_ids = set(wanted)
    for line in log.splitlines():
        commit, date = line.split(" ", 1)
        text = _git(root, "show", f"{commit}:{relative}")
        try:
            then = recorded_verdicts(text, experiment) if text is not None else {}
        except (tomllib.TOMLDecodeError, KeyError, IndexError, TypeError, AttributeError):
            break
        for claim_id in list(open_ids):
            if then.get(claim_id) in NOT_MET:  # missed, then undecided, then missed: not met all along
                found[claim_id] = Standing(claim_id, wanted[claim_id], dt.datetime.fromisoformat(date), commit)
            else:
                open_ids.discard(claim_id)  # recorded otherwise before this commit: its standing began after it
        if not open_ids:
            break
    return found


def stale(experiments, root: Path, max_age_days: float, now: dt.datetime | None = None) -> list[Standing]:
    """The claims recorded as not met for longer than ``max_age_days``, oldest first."""
    now = now or dt.datetime.now(dt.UTC)
    old = [record for experiment in experiments
           for record in standing(experiment.path, experiment.name, root).values()
           if (record.age_days(now) or 0.0) > max_age_days]
    return sorted(old, key=lambda record: record.since)
