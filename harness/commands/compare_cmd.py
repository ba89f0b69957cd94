"""``cgpm compare BASE RUN``: exit 1 naming the cells that got worse (median beyond the threshold and a t-test significant after correction), else 0.

``BASE`` is a run directory or the name of a baseline under results/baselines/. By default ``wall_s`` is
compared, and every throughput (``*_per_s``) both runs measured; the correction spans every cell and measure.
``cgpm compare --record NAME RUN`` records RUN as that baseline instead.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from common.errors import ConfigError

CORRECTION_CHOICES = ("bh", "holm", "none")  # harness.bench.significance.CORRECTIONS, not imported here: scipy is slow to load


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("compare", help="compare a run with a base run or baseline; exit 1 on a regression")
    parser.add_argument("runs", nargs="+", metavar="BASE RUN", help="the base (run directory or baseline name), then the run")
    parser.add_argument("--threshold", type=float, default=0.10, help="median change that counts (default 0.10: 10%%)")
    parser.add_argument("--alpha", type=float, default=0.05, help="significance level after correction (default 0.05)")
    parser.add_argument("--correction", choices=CORRECTION_CHOICES, default="bh",
                        help="correction for testing many cells: bh (Benjamini-Hochberg, default), holm, none")
    parser.add_argument("--metric", action="append", metavar="COLUMN",
                        help="column compared, repeatable (default wall_s and the *_per_s throughputs both runs have; "
                             "also cpu_s, latency_p99_ms, rss_peak_bytes, ...; a *_per_s rate is worse lower)")
    parser.add_argument("--all", action="store_true", help="list every cell, not only those that changed")
    parser.add_argument("--record", metavar="NAME", help="record the one RUN given as baseline NAME in results/baselines/")
    parser.add_argument("--replace", action="store_true", help="with --record: overwrite an existing baseline")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from harness.bench.baselines import record_baseline, resolve_run

    if args.record:
        if len(args.runs) != 1:
            raise ConfigError("--record NAME takes exactly one run directory")
        target = record_baseline(args.runs[0], args.record, replace=args.replace)
        print(f"baseline {args.record} recorded in {target}")
        return 0
    if len(args.runs) != 2:
        raise ConfigError("give the base (run directory or baseline name) and the run: cgpm compare BASE RUN")
    if not args.threshold > 0 or not 0 < args.alpha < 1:
        raise ConfigError("--threshold must be > 0 and --alpha in (0, 1)")
    return report(resolve_run(args.runs[0]), resolve_run(args.runs[1]), args)


def report(base_dir: Path, run_dir: Path, args: argparse.Namespace) -> int:
    from harness.bench.compare import COMPARABLE, RATES, comparable, compare_cells, measured
    from harness.bench.significance import CORRECTIONS, PAIRED, UNPAIRED
    from harness.bench.store import load_results, read_run_info
    from harness.bench.tables import to_text

    base, run_cells = load_results(base_dir), load_results(run_dir)
    for metric in args.metric or ():
        if not comparable(metric):
            raise ConfigError(f"--metric {metric!r} cannot be compared; choose one of {', '.join(COMPARABLE)} "
                              "(or another *_per_s rate)")
    metrics = tuple(dict.fromkeys(args.metric or ["wall_s", *(rate for rate in RATES
                                                               if measured(base, rate) and measured(run_cells, rate))]))
    comparison = compare_cells(base, run_cells, threshold=args.threshold, alpha=args.alpha, metrics=metrics,
                               correction=args.correction)
    base_machine = read_run_info(base_dir).get("machine", {})
    run_machine = read_run_info(run_dir).get("machine", {})
    if (base_machine.get("hostname"), base_machine.get("processor")) != (run_machine.get("hostname"), run_machine.get("processor")):
        comparison.notes.append("the two runs were taken on different machines: ratios mix code and hardware")
    table = comparison.table
    shown = table if args.all else table[~table["change"].isin(["same"])]
    print(f"cgpm compare: {', '.join(metrics)}, {base_dir} -> {run_dir}: a regression when the median ratio is beyond "
          f"{1 + args.threshold:.2f} (a *_per_s rate: below {1 - args.threshold:.2f}) and the {PAIRED} (scipy; "
          f"{UNPAIRED} where the repetitions cannot be paired) gives p < {args.alpha} after "
          f"{CORRECTIONS[args.correction]} over {comparison.tests} tests")
    if len(shown):
        print(to_text(shown.drop(columns=["cell_id", "dataset"]).fillna({"note": "", "test": ""})), end="")
    for metric, rows in table.groupby("metric", sort=False):
        counts = rows["change"].value_counts()
        print(f"{metric}: " + "; ".join(f"{count} {change}" for change, count in counts.items()))
    if table.empty:
        print("no cells")
    for note in comparison.notes:
        print(f"note: {note}")
    regressions = comparison.regressions
    if len(regressions):  # one line per cell, naming each measure that got worse
        print(f"{regressions['cell_id'].nunique()} cell(s) regressed:", file=sys.stderr)
        for cell_id, rows in regressions.groupby("cell_id", sort=False):
            if (rows["change"] == "failed").any():
                print(f"  {cell_id}: failed ({rows['note'].iloc[0]})", file=sys.stderr)
                continue
            measures = [f"{row.metric} x{row.ratio:.2f} (p={row.p_value:.3g}, {row.p_adjusted:.3g} after "
                        f"{CORRECTIONS[args.correction]}, {row.test})" for row in rows.itertuples()]
            print(f"  {cell_id}: slower: " + "; ".join(measures), file=sys.stderr)
        return 1
    return 0
