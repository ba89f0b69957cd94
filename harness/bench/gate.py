"""A commit passes the gate unless a cell of its run is significantly slower than at the previous commit on the same machine, on the CPU time over the scan floor, beyond the threshold, and no acceptance names that step.

The base is the history's latest earlier record on the same machine of another commit (or, for a run from a dirty
tree, the clean record of its own commit: the code it changes): reruns of one commit are never compared with one
another, so a slow rerun cannot hide in them. The two records are compared cell by cell with ``compare``'s rule
(``harness.bench.history.compare_rows``: the median ratio beyond ``1 + threshold`` AND the paired t-test on the
log ratios significant at ``alpha`` after ``correction`` over the cells), on ``cpu_over_scan``
(``harness.bench.normalised``): a machine slower in one round slows the engine and its scan reference alike, so the
ratio keeps the code's cost where CPU time alone would move with the load. A cell that finished at the base and no
longer does fails too (``failed``). A slowdown an acceptance names (``harness.bench.acceptances``) is reported as
accepted and passes. A cell with no reference (no scan cell over its stream) or a run with too few repetitions is
not tested, and the result says so: such a gate passes by having nothing to test, never by having tested.

A same-run comparison (``cgpm regress --against REV``, ``harness.bench.against``) names its base itself: the record
of REV's code measured in the same run, repetition by repetition beside this commit's.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from common.errors import ConfigError
from harness.bench import history
from harness.bench.acceptances import Acceptance, with_acceptances
from harness.bench.compare import COLUMNS, REGRESSIONS
from harness.bench.normalised import OVER_FLOOR

GATE_METRIC = OVER_FLOOR
# the suites' benchmark names (benchmarks/configs/regress.toml and regress-ci.toml): the site shows them on GATE_METRIC
SUITES = ("regress", "regress-ci")


@dataclass
class GateResult:
    run: pd.Series
    base: pd.Series | None
    table: pd.DataFrame  # a row per cell: compare_rows' columns and ``accepted``
    metric: str
    threshold: float
    alpha: float
    correction: str

    def _regressed(self) -> pd.Series:
        return self.table["change"].isin(REGRESSIONS)

    @property
    def failures(self) -> pd.DataFrame:
        return self.table[self._regressed() & self.table["accepted"].eq("")]

    @property
    def accepted(self) -> pd.DataFrame:
        return self.table[self._regressed() & self.table["accepted"].ne("")]

    @property
    def tested(self) -> int:
        return int(self.table["p_value"].notna().sum()) if len(self.table) else 0

    @property
    def passed(self) -> bool:
        return self.failures.empty


def base_of(points: pd.DataFrame, run: pd.Series) -> pd.Series | None:
    """The record the run is gated against (``points``: ``history.points``, oldest first per machine)."""
    here = points[points["machine"] == run["machine"]].reset_index(drop=True)
    position = here.index[(here["run_id"] == run["run_id"]) & (here["commit"] == run["commit"])]
    earlier = here.iloc[: position[0]] if len(position) else here
    other = earlier["commit"] != run["commit"]
    if bool(run["dirty"]):
        other |= (earlier["commit"] == run["commit"]) & ~earlier["dirty"].astype(bool)
    candidates = earlier[other]
    return None if candidates.empty else candidates.iloc[-1]


def _point(points: pd.DataFrame, machine: str, commit: str, run_id: str) -> pd.Series:
    match = points[(points["machine"] == machine) & (points["commit"] == commit) & (points["run_id"] == run_id)]
    if match.empty:
        raise ConfigError(f"the history holds no run {run_id} of commit {commit[:10]} on {machine}")
    return match.iloc[0]


def check(frame: pd.DataFrame, run_id: str, commit: str, machine: str, *, acceptances: list[Acceptance],
          threshold: float, alpha: float = 0.05, correction: str = "bh", metric: str = GATE_METRIC,
          base: tuple[str, str] | None = None) -> GateResult:
    """The gate on the run ``(machine, commit, run_id)`` of the history ``frame``, against ``base`` (a ``(commit,
    run_id)`` on the same machine) when given, else against ``base_of`` it."""
    points = history.points(frame)
    run = _point(points, machine, commit, run_id)
    base = base_of(points, run) if base is None else _point(points, machine, *base)
    if base is None:
        table = pd.DataFrame(columns=[*COLUMNS, "commit", "accepted"])
    else:
        def rows(point: pd.Series) -> pd.DataFrame:
            return frame[(frame["machine"] == machine) & (frame["run_id"] == point["run_id"])
                         & (frame["commit"] == point["commit"])]

        table = history.compare_rows(rows(base), rows(run), metric, threshold, alpha, correction)
        table = with_acceptances(table.assign(commit=commit), acceptances)
    return GateResult(run, base, table, metric, threshold, alpha, correction)


def summary_lines(result: GateResult) -> list[str]:
    """What the gate found, a line each: the comparison, then each failing and each accepted cell."""
    run, base = result.run, result.base
    if base is None:
        return [f"gate: no earlier record of another commit on {run['machine']}: nothing to compare {run['commit'][:10]} "
                "with (this run is the first point of the history there)"]
    counts = result.table["change"].value_counts()
    lines = [f"gate: {run['commit'][:10]} ({run['run_id']}) against {base['commit'][:10]} ({base['run_id']}) on "
             f"{run['machine']}, {result.metric}: a cell fails when its median ratio is beyond "
             f"{1 + result.threshold:.2f} and the paired t-test gives p < {result.alpha} after "
             f"{result.correction} over {result.tested} tested cell(s): "
             + "; ".join(f"{n} {change}" for change, n in counts.items())]
    if result.tested == 0:
        lines.append("gate: no cell could be tested (too few repetitions, or no scan reference on its stream): "
                     "the gate passes by having nothing to test")
    for row in result.failures.itertuples():
        figure = f"x{row.ratio:.3f} (p={row.p_value:.3g}, adjusted {row.p_adjusted:.3g})" if row.change == "slower" \
            else f"({row.note})"
        lines.append(f"REGRESSION: {row.cell_id}: {row.engine} {row.query} [{row.window}] {row.change} {figure}")
    for row in result.accepted.itertuples():
        lines.append(f"ACCEPTED: {row.cell_id}: {row.engine} {row.query} [{row.window}] {row.change} "
                     f"x{row.ratio:.3f}: {row.accepted}")
    return lines
