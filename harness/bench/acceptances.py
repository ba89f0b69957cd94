"""A slowdown the gate would fail passes only by a written acceptance: the commit, the cell, the trade-off bought with it and its figure, every field required.

The file (``benchmarks/regress-accepted.toml`` by default, committed with the change it accepts)::

    [[accepted]]
    commit = "d7005fb"                 # the commit whose run got slower: 7 or more hex digits, a prefix of its hash
    cell = "sparkwave-*"               # a cell id, or a glob over cell ids (fnmatch: *, ?, [...])
    trade_off = "memory for time: bytes per window triple down, CPU per event up"
    figure = "206 -> 159 bytes per window triple; CPU per event x1.15 (cpu_over_scan, 5 paired repetitions)"

An acceptance names the step into ``commit``: a later commit slower again fails on its own. ``cgpm history`` and the
site show an accepted step as accepted, with its trade-off, instead of as a regression.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

import pandas as pd

from common.errors import ConfigError
from common.toml_files import read_toml

ACCEPTED_FILE = Path("benchmarks") / "regress-accepted.toml"
FIELDS = ("commit", "cell", "trade_off", "figure")
COMMIT = re.compile(r"^[0-9a-f]{7,40}$")


@dataclass(frozen=True)
class Acceptance:
    commit: str
    cell: str
    trade_off: str
    figure: str

    def covers(self, commit: str, cell_id: str) -> bool:
        return str(commit).startswith(self.commit) and fnmatchcase(str(cell_id), self.cell)

    @property
    def text(self) -> str:
        return f"{self.trade_off} ({self.figure})"


def load_acceptances(path: str | Path | None) -> list[Acceptance]:
    """The acceptances of ``path``; none when it is None or (the default file) absent. A ConfigError names a bad entry."""
    if path is None or not Path(path).is_file():
        return []
    path = Path(path)
    table = read_toml(path, "acceptances")
    unknown = set(table) - {"accepted"}
    if unknown:
        raise ConfigError(f"unknown key {sorted(unknown)[0]!r} in {path} (known: accepted, a [[accepted]] table each)")
    entries = table.get("accepted", [])
    if not isinstance(entries, list):
        raise ConfigError(f"key 'accepted' in {path} must be [[accepted]] tables")
    return [_acceptance(entry, path, number) for number, entry in enumerate(entries, start=1)]


def _acceptance(entry, path: Path, number: int) -> Acceptance:
    where = f"accepted[{number}] in {path}"
    if not isinstance(entry, dict):
        raise ConfigError(f"{where} must be a table of {', '.join(FIELDS)}")
    unknown = set(entry) - set(FIELDS)
    if unknown:
        raise ConfigError(f"unknown key {sorted(unknown)[0]!r} in {where} (known: {', '.join(FIELDS)})")
    for field in FIELDS:
        value = entry.get(field)
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(f"{where} needs {field!r}: a trade-off is accepted by naming the commit, the cell, "
                              "what was bought and its figure")
    if not COMMIT.match(entry["commit"]):
        raise ConfigError(f"key 'commit' in {where} must be 7 to 40 lower-case hex digits, not {entry['commit']!r}")
    return Acceptance(**{field: entry[field].strip() for field in FIELDS})


def accepted_by(acceptances: list[Acceptance], commit: str, cell_id: str) -> Acceptance | None:
    return next((one for one in acceptances if one.covers(commit, cell_id)), None)


def with_acceptances(steps: pd.DataFrame, acceptances: list[Acceptance]) -> pd.DataFrame:
    """``steps`` (rows with ``commit``, ``cell_id`` and ``change``) with ``accepted``: the trade-off text where a
    regression (``slower`` or ``failed``) into that commit is accepted, else empty."""
    accepted = [(one.text if change in ("slower", "failed") and one is not None else "")
                for one, change in zip((accepted_by(acceptances, commit, cell_id)
                                        for commit, cell_id in zip(steps["commit"], steps["cell_id"])),
                                       steps["change"])]
    return steps.assign(accepted=pd.Series(accepted, index=steps.index, dtype=object))
