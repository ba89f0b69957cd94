"""A cell is called a regression only when its move is both large and real: median ratio beyond the threshold AND significant after correcting for the many cells compared.

For each measure compared (``metrics``) and each cell, the ratio of medians (run / base) must leave
``[1 - threshold, 1 + threshold]`` in the bad direction (a cost rising: time, memory; a rate ``*_per_s``
falling), and the cell's t-test (``harness.bench.significance``: paired round by round where the runs allow,
else Welch's) must give a p-value below ``alpha`` once adjusted over every cell and measure tested together
(Benjamini-Hochberg by default, or Holm, or none). A cell with fewer repetitions than the test needs is
``undecided`` when it moved, and says how many it needs. A cell that finished in the base and did not finish in
the run (timeout, memory, error) is a regression whatever its values. ``decide`` is the rule; ``cgpm history``
uses it through ``compare_cells`` too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from harness.bench.matrix import KEY_COLUMNS
from harness.bench.significance import (
    CORRECTIONS,
    MIN_REPETITIONS,
    Refusal,
    Sample,
    corrected,
    p_values,
    paired,
    sample,
)

LABEL_COLUMNS = ("engine", "dataset", "query", "window")
# larger is worse: more time, more memory
COSTS = ("wall_s", "cpu_s", "build_s", "latency_p50_ms", "latency_p95_ms", "latency_p99_ms", "latency_max_ms",
         "rss_peak_bytes", "rss_base_bytes")
# larger is better: the throughputs the paper claims are judged on
RATES = ("triples_per_s", "events_per_s", "steady_triples_per_s", "steady_events_per_s")
COMPARABLE = COSTS + RATES
REGRESSIONS = ("slower", "failed")
COLUMNS = ("metric", *LABEL_COLUMNS, "base_median", "run_median", "ratio", "test", "p_value", "p_adjusted", "base_n",
           "run_n", "change", "note", "cell_id")


def higher_is_better(metric: str) -> bool:
    """A rate (``*_per_s``) is better higher; anything else (seconds, bytes) is a cost (as ``harness.claims`` reads them)."""
    return metric.endswith("_per_s")


def comparable(metric: str) -> bool:
    return metric in COMPARABLE or higher_is_better(metric)


def measured(cells: pd.DataFrame, metric: str) -> bool:
    """The run holds at least one finite value of ``metric`` (old runs lack the steady-state rates)."""
    return metric in cells and pd.to_numeric(cells[metric], errors="coerce").notna().any()


@dataclass
class Comparison:
    table: pd.DataFrame
    threshold: float
    alpha: float
    metrics: tuple[str, ...]
    correction: str
    notes: list[str] = field(default_factory=list)

    @property
    def regressions(self) -> pd.DataFrame:
        return self.table[self.table["change"].isin(REGRESSIONS)]

    @property
    def tests(self) -> int:
        """How many (cell, measure) tests the correction was over."""
        return int(self.table["p_value"].notna().sum())


def decide(ratio: float, test: Sample | Refusal, p_adjusted: float, *, threshold: float, alpha: float,
           higher_better: bool) -> str:
    """The change a cell shows: ``same`` (within the threshold), ``undecided`` (moved, too few repetitions to
    test), ``noise`` (moved, not significant after correction), else ``slower`` (worse) or ``faster`` (better)."""
    if 1 - threshold <= ratio <= 1 + threshold:
        return "same"
    if isinstance(test, Refusal):
        return "undecided"
    if not p_adjusted < alpha or test.direction != (1 if ratio > 1 else -1):  # a test against the medians: not shown
        return "noise"
    return "slower" if (ratio > 1) != higher_better else "faster"


def _by_cell(cells: pd.DataFrame, values: pd.Series) -> dict[str, dict]:
    """``values`` (aligned with ``cells``) per cell, by repetition number (the row's order where none is recorded)."""
    repetitions = cells["repetition"] if "repetition" in cells else cells.groupby("cell_id").cumcount()
    found: dict[str, dict] = {}
    for cell_id, repetition, value in zip(cells["cell_id"], repetitions, values):
        found.setdefault(cell_id, {})[repetition] = value
    return found


def _values(cells: pd.DataFrame, metric: str) -> dict[str, dict]:
    """Each cell's finished, finite values, by repetition number."""
    ok = cells[cells["status"] == "ok"]
    values = pd.to_numeric(ok[metric], errors="coerce") if metric in ok else pd.Series(np.nan, index=ok.index)
    finite = values.notna() & (~values.isin([np.inf, -np.inf]))
    return _by_cell(ok[finite.to_numpy()], values[finite])


def _recorded(cells: pd.DataFrame) -> dict[str, list]:
    """Each cell's recorded repetition numbers, whatever their status (the pairing is decided on these)."""
    found: dict[str, list] = {}
    repetitions = cells["repetition"] if "repetition" in cells else pd.Series(np.nan, index=cells.index)
    for cell_id, repetition in zip(cells["cell_id"], repetitions):
        numbers = found.setdefault(cell_id, [])
        if pd.notna(repetition):
            numbers.append(repetition)
    return found


def _statuses(cells: pd.DataFrame) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for cell_id, status in zip(cells["cell_id"], cells["status"]):
        found.setdefault(cell_id, set()).add(status)
    return found


def _rows(base: pd.DataFrame, run: pd.DataFrame, metric: str, labels: pd.DataFrame) -> list[tuple[dict, object]]:
    """A row per cell for one measure, with what its test is made on (or its refusal; None: nothing to test)."""
    base_values, run_values = _values(base, metric), _values(run, metric)
    base_status, run_status = _statuses(base), _statuses(run)
    base_recorded, run_recorded = _recorded(base), _recorded(run)
    rows = []
    for cell_id in labels.index:
        row = {column: labels.at[cell_id, column] for column in LABEL_COLUMNS}
        before, after = base_values.get(cell_id, {}), run_values.get(cell_id, {})
        row.update(metric=metric, cell_id=cell_id, base_n=len(before), run_n=len(after))
        test = None
        if cell_id not in base_status or cell_id not in run_status:
            row.update(change="only in base" if cell_id in base_status else "only in run")
        elif before and "ok" not in run_status[cell_id]:  # finished in the base, no repetition finished in the run
            row.update(change="failed", base_median=np.median(list(before.values())),
                       note="/".join(sorted(run_status[cell_id] - {"ok"})))
        elif not before or not after:
            side = "base" if not before else "run"
            finished = "ok" in (base_status if side == "base" else run_status)[cell_id]
            row.update(change="not measured", note=(f"no {metric} in the {side}'s finished repetitions" if finished
                                                    else f"no finished repetition in {side}"))
        else:
            test = sample(before, after, pair=paired(base_recorded[cell_id], run_recorded[cell_id]))
            base_median, run_median = np.median(list(before.values())), np.median(list(after.values()))
            row.update(base_median=base_median, run_median=run_median,
                       ratio=run_median / base_median if base_median > 0 else float("inf"),
                       **({"test": test.name} if isinstance(test, Sample) else {"note": test.reason}))
            if run_status[cell_id] - {"ok"}:
                row["note"] = "; ".join(filter(None, [row.get("note"), "some repetitions: " + "/".join(
                    sorted(run_status[cell_id] - {"ok"}))]))
        rows.append((row, test))
    return rows


def compare_cells(base: pd.DataFrame, run: pd.DataFrame, *, threshold: float = 0.10, alpha: float = 0.05,
                  metrics: tuple[str, ...] = ("wall_s",), correction: str = "bh") -> Comparison:
    """Every cell of either run, for each of ``metrics``, with its change; the correction spans every test made."""
    if correction not in CORRECTIONS:
        raise ValueError(f"unknown correction {correction!r}: one of {', '.join(CORRECTIONS)}")
    labels = pd.concat([base, run])[["cell_id", *KEY_COLUMNS]].drop_duplicates("cell_id").set_index("cell_id")
    rows = [pair for metric in metrics for pair in _rows(base, run, metric, labels)]
    tested = [number for number, (_, test) in enumerate(rows) if isinstance(test, Sample)]
    for number, p_value in zip(tested, p_values([rows[number][1] for number in tested])):
        rows[number][0]["p_value"] = p_value
    adjusted = corrected([row.get("p_value", np.nan) for row, _ in rows], correction)
    for (row, test), p_adjusted in zip(rows, adjusted):
        if test is None:
            continue
        row["p_adjusted"] = p_adjusted
        row["change"] = decide(row["ratio"], test, p_adjusted, threshold=threshold, alpha=alpha,
                               higher_better=higher_is_better(row["metric"]))
    table = pd.DataFrame([row for row, _ in rows]).reindex(columns=list(COLUMNS))
    comparison = Comparison(table, threshold, alpha, tuple(metrics), correction)
    undecided = table[table["change"] == "undecided"]
    if len(undecided):
        comparison.notes.append(
            f"{len(undecided)} cell(s) moved by more than {threshold:.0%} but have too few repetitions to test: the "
            f"t-test needs at least {MIN_REPETITIONS} repetitions on each side (paired when both runs have the same)")
    noise = table[table["change"] == "noise"]
    if len(noise):
        comparison.notes.append(
            f"{len(noise)} cell(s) moved by more than {threshold:.0%} but not significantly after "
            f"{CORRECTIONS[correction]} over {comparison.tests} tests (more repetitions give the test more power)")
    return comparison
