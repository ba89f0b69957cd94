"""Issue 11's figures from stored runs of the benchmarks/configs/tpjoin-*.toml configs: every number is read from a run.

For each cell group (dataset, scale, event shape, query, window, max_events) it prints, in Markdown, each engine's
median throughput over its repetitions (events/s and triples/s) and the ratio of wall times of a pair of engines
measured side by side in the run: the median of the per-round ratios (repetition k of one engine against
repetition k of the other: the rounds interleave every cell, so a round shares the machine's load) with its IQR.
A cell that timed out is shown as `timeout`; a ratio against it is a lower bound (">="): its time-out over the
events it processed (the run's first, cheapest ones) against the other engine's wall time per event.

Throughputs are median [IQR] of triples/s over the repetitions. With ``--steady`` each engine's column is its
steady-state cost instead (µs per event after the window filled, the runner's ``steady_events_per_s``), for the
per-update cost against window size, followed by its growth from the smallest to the largest window (per round),
and the pair's ratio is also given over the steady state alone (per round, ``(steady)`` columns).

    python benchmarks/tpjoin_ratios.py RUN BASE_ENGINE [OTHER_ENGINE ...] [--steady]
    e.g. python benchmarks/tpjoin_ratios.py results/runs/tpjoin-partition tpjoin-event tpjoin-event-nopart
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.bench import load_results  # noqa: E402

GROUP = ["dataset", "scale", "event_shape", "query", "window", "max_events"]


def _ratio(base: pd.DataFrame, other: pd.DataFrame, timeout_s: float) -> str:
    """Median and IQR of other/base wall times over rounds; '>= x' when ``other`` timed out."""
    if base.empty or other.empty or (base.status != "ok").any():
        return "n/a"
    if (other.status == "timeout").any():
        # per-event cost: the timed-out engine spent timeout_s on the events it got through, which are the run's
        # first (its window still filling, the cheap part), so its cost per event over the whole run is at least that
        fed = other.events_fed.max() if "events_fed" in other and other.events_fed.notna().any() else 0
        base_per_event = base.wall_s.median() / base.events.median()
        if fed:
            return f">= {timeout_s / fed / base_per_event:.1f} (timeout after {int(fed):,} events)"
        return f">= {timeout_s / base.wall_s.median():.1f} (timeout)"
    if (other.status != "ok").any():
        return other.status.iloc[0]
    paired = pd.merge(base[["repetition", "wall_s"]], other[["repetition", "wall_s"]], on="repetition")
    ratios = paired.wall_s_y / paired.wall_s_x
    q1, median, q3 = np.percentile(ratios, [25, 50, 75])
    return f"{median:.2f} [{q1:.2f}-{q3:.2f}] (n={len(ratios)})"


def _steady_ratio(base: pd.DataFrame, other: pd.DataFrame) -> str:
    """Median and IQR over rounds of other/base steady cost per event (the events after the window filled)."""
    if base.empty or other.empty or (base.status != "ok").any() or (other.status != "ok").any():
        return "n/a"
    if "steady_events_per_s" not in base or "steady_events_per_s" not in other:
        return "n/a"
    paired = pd.merge(base[["repetition", "steady_events_per_s"]], other[["repetition", "steady_events_per_s"]],
                      on="repetition").dropna()
    if paired.empty:
        return "no steady state"
    ratios = paired.steady_events_per_s_x / paired.steady_events_per_s_y  # rates: base's over other's is cost other/base
    q1, median, q3 = np.percentile(ratios, [25, 50, 75])
    return f"{median:.2f} [{q1:.2f}-{q3:.2f}] (n={len(ratios)})"


def _spread(values) -> str:
    q1, median, q3 = np.percentile(np.asarray(values, dtype=float), [25, 50, 75])
    big = median >= 100
    return f"{median:,.0f} [{q1:,.0f}-{q3:,.0f}]" if big else f"{median:,.2f} [{q1:,.2f}-{q3:,.2f}]"


def _throughput(mine: pd.DataFrame, steady: bool) -> str:
    if steady:
        rates = mine.steady_events_per_s.dropna() if "steady_events_per_s" in mine else pd.Series(dtype=float)
        if rates.empty:
            return "no steady state"
        return f"{_spread(1e6 / rates)} µs/ev"
    return f"{mine.events_per_s.median():,.0f} ev/s, {_spread(mine.triples_per_s)} t/s"


def main(run: str, base_engine: str, others: list[str], steady: bool = False) -> None:
    cells = load_results(run)
    import json

    timeout_s = json.loads((Path(run) / "run.json").read_text())["config"].get("timeout_s", 600.0)
    engines = [base_engine, *others]
    unit = "steady µs/event" if steady else "throughput"
    header = ["stream", "query", "window", "events", "shape"] + [f"{e} {unit}" for e in engines] + [f"{o} / {base_engine} (wall)" for o in others]
    if steady:
        header += [f"{o} / {base_engine} (steady)" for o in others]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for key, group in cells.groupby(GROUP, dropna=False, sort=True):
        dataset, scale, shape, query, window, max_events = key
        row = [f"{dataset}({scale})", query, window, f"{int(max_events):,}" if max_events else "all", shape]
        for engine in engines:
            mine = group[group.engine == engine]
            if mine.empty:
                row.append("-")
            elif (mine.status == "ok").all():
                row.append(_throughput(mine, steady))
            else:
                row.append(str(mine.status.iloc[0]))
        base = group[group.engine == base_engine]
        for other in others:
            row.append(_ratio(base, group[group.engine == other], timeout_s))
        if steady:
            row += [_steady_ratio(base, group[group.engine == other]) for other in others]
        print("| " + " | ".join(row) + " |")
    if steady:
        _growth(cells, engines)


def _window_range(window: str) -> int:
    parts = window.split(":")
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


def _growth(cells: pd.DataFrame, engines: list[str]) -> None:
    """Per query and engine: steady cost per event at the largest window over the smallest, per round, median [IQR]."""
    print()
    print("| query | engine | windows | steady cost growth (largest / smallest window, per round) |")
    print("|---|---|---|---|")
    for (query, engine), group in cells[cells.engine.isin(engines)].groupby(["query", "engine"], sort=True):
        windows = sorted(group.window.unique(), key=_window_range)
        if len(windows) < 2 or "steady_events_per_s" not in group:
            continue
        small, large = (group[group.window == w].set_index("repetition").steady_events_per_s for w in (windows[0], windows[-1]))
        ratios = (small / large).dropna()  # cost ratio = rate ratio inverted
        if ratios.empty:
            continue
        q1, median, q3 = np.percentile(ratios, [25, 50, 75])
        print(f"| {query} | {engine} | {windows[0]} -> {windows[-1]} | {median:.2f} [{q1:.2f}-{q3:.2f}] (n={len(ratios)}) |")


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if a != "--steady"]
    if len(arguments) < 2:
        sys.exit(__doc__)
    main(arguments[0], arguments[1], arguments[2:], steady="--steady" in sys.argv)
