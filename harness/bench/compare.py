"""A cell is called slower only when the change is both large and real: median ratio beyond the threshold AND a significant Mann-Whitney U test.

The rule is asv's: the ratio of median wall times (run / base) must pass ``1 + threshold`` and a
one-sided Mann-Whitney U test on the two sets of repetitions must give p < ``alpha``. With few
repetitions no test can be significant (two against two: the smallest one-sided p is 1/6), and
such a cell is reported as ``undecided`` rather than guessed at. A cell that finished in the base
and did not finish in the run (timeout, memory, error) is a regression whatever its timings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

import pandas as pd
from scipy.stats import mannwhitneyu

from harness.bench.matrix import KEY_COLUMNS

LABEL_COLUMNS = ("engine", "dataset", "query", "window")
# columns where a larger value is worse: "slower" on them means larger (more time, more memory)
COMPARABLE = ("wall_s", "cpu_s", "build_s", "latency_p50_ms", "latency_p95_ms", "latency_p99_ms", "latency_max_ms",
              "rss_peak_bytes", "rss_base_bytes")
REGRESSIONS = ("slower", "failed")


@dataclass
class Comparison:
    table: pd.DataFrame
    threshold: float
    alpha: float
    metric: str
    notes: list[str] = field(default_factory=list)

    @property
    def regressions(self) -> pd.DataFrame:
        return self.table[self.table["change"].isin(REGRESSIONS)]


def smallest_p(n: int, m: int) -> float:
    """The smallest one-sided p-value an exact Mann-Whitney U test can give for samples of n and m."""
    return 1.0 / comb(n + m, n) if n and m else 1.0


def _values(cells: pd.DataFrame, metric: str) -> dict[str, list[float]]:
    ok = cells[cells["status"] == "ok"]
    return {cell_id: pd.to_numeric(group[metric], errors="coerce").dropna().tolist() for cell_id, group in ok.groupby("cell_id")}


def _statuses(cells: pd.DataFrame) -> dict[str, set[str]]:
    return {cell_id: set(group["status"]) for cell_id, group in cells.groupby("cell_id")}


def _judge(base: list[float], run: list[float], threshold: float, alpha: float) -> tuple[str, float, float]:
    base_median, run_median = pd.Series(base).median(), pd.Series(run).median()
    ratio = run_median / base_median if base_median > 0 else float("inf")
    if 1 - threshold <= ratio <= 1 + threshold:
        return "same", ratio, float("nan")
    alternative = "greater" if ratio > 1 else "less"
    p_value = float(mannwhitneyu(run, base, alternative=alternative).pvalue)
    if smallest_p(len(base), len(run)) >= alpha:
        return "undecided", ratio, p_value
    if p_value >= alpha:
        return "noise", ratio, p_value
    return ("slower" if ratio > 1 else "faster"), ratio, p_value


def compare_cells(base: pd.DataFrame, run: pd.DataFrame, *, threshold: float = 0.10, alpha: float = 0.05,
                  metric: str = "wall_s") -> Comparison:
    base_values, run_values = _values(base, metric), _values(run, metric)
    base_status, run_status = _statuses(base), _statuses(run)
    labels = pd.concat([base, run])[["cell_id", *KEY_COLUMNS]].drop_duplicates("cell_id").set_index("cell_id")
    rows = []
    for cell_id in labels.index:
        row = {column: labels.at[cell_id, column] for column in LABEL_COLUMNS}
        row.update(cell_id=cell_id, base_n=len(base_values.get(cell_id, [])), run_n=len(run_values.get(cell_id, [])))
        if cell_id not in base_status or cell_id not in run_status:
            row.update(change="only in base" if cell_id in base_status else "only in run")
        elif base_values.get(cell_id) and not run_values.get(cell_id):
            row.update(change="failed", base_median=pd.Series(base_values[cell_id]).median(),
                       note="/".join(sorted(run_status[cell_id] - {"ok"})))
        elif not base_values.get(cell_id) or not run_values.get(cell_id):
            row.update(change="not measured", note="no finished repetition in " + ("base" if not base_values.get(cell_id) else "run"))
        else:
            change, ratio, p_value = _judge(base_values[cell_id], run_values[cell_id], threshold, alpha)
            row.update(change=change, ratio=ratio, p_value=p_value,
                       base_median=pd.Series(base_values[cell_id]).median(), run_median=pd.Series(run_values[cell_id]).median())
            if run_status[cell_id] - {"ok"}:
                row["note"] = "some repetitions: " + "/".join(sorted(run_status[cell_id] - {"ok"}))
        rows.append(row)
    columns = [*LABEL_COLUMNS, "base_median", "run_median", "ratio", "p_value", "base_n", "run_n", "change", "note", "cell_id"]
    table = pd.DataFrame(rows).reindex(columns=columns)
    comparison = Comparison(table, threshold, alpha, metric)
    undecided = table[table["change"] == "undecided"]
    if len(undecided):
        comparison.notes.append(
            f"{len(undecided)} cell(s) moved by more than {threshold:.0%} but have too few repetitions for a Mann-Whitney "
            f"test at alpha {alpha} (with n repetitions on each side the smallest p is 1/C(2n, n): use at least 4 each)")
    return comparison
