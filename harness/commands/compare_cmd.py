"""``cgpm compare BASE RUN``: exit 1 naming the cells that got slower (median beyond the threshold and Mann-Whitney significant), else 0.

``BASE`` is a run directory or the name of a baseline under results/baselines/.
``cgpm compare --record NAME RUN`` records RUN as that baseline instead.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from common.errors import ConfigError


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("compare", help="compare a run with a base run or baseline; exit 1 on a regression")
    parser.add_argument("runs", nargs="+", metavar="BASE RUN", help="the base (run directory or baseline name), then the run")
    parser.add_argument("--threshold", type=float, default=0.10, help="median change that counts (default 0.10: 10%%)")
    parser.add_argument("--alpha", type=float, default=0.05, help="Mann-Whitney significance level (default 0.05)")
    parser.add_argument("--metric", default="wall_s", help="column compared, larger is worse (default wall_s; also cpu_s, latency_p99_ms, rss_peak_bytes, ...)")
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
    from harness.bench.compare import COMPARABLE, compare_cells
    from harness.bench.store import load_results, read_run_info
    from harness.bench.tables import to_text

    if args.metric not in COMPARABLE:
        raise ConfigError(f"--metric {args.metric!r} cannot be compared; choose one of {', '.join(COMPARABLE)}")
    base, run_cells = load_results(base_dir), load_results(run_dir)
    comparison = compare_cells(base, run_cells, threshold=args.threshold, alpha=args.alpha, metric=args.metric)
    base_machine = read_run_info(base_dir).get("machine", {})
    run_machine = read_run_info(run_dir).get("machine", {})
    if (base_machine.get("hostname"), base_machine.get("processor")) != (run_machine.get("hostname"), run_machine.get("processor")):
        comparison.notes.append("the two runs were taken on different machines: ratios mix code and hardware")
    table = comparison.table
    shown = table if args.all else table[~table["change"].isin(["same"])]
    print(f"cgpm compare: {args.metric}, {base_dir} -> {run_dir}: regression when the median ratio is beyond "
          f"{1 + args.threshold:.2f} and Mann-Whitney p < {args.alpha}")
    if len(shown):
        print(to_text(shown.drop(columns=["cell_id", "dataset"]).fillna({"note": ""})), end="")
    counts = table["change"].value_counts()
    print("; ".join(f"{count} {change}" for change, count in counts.items()) or "no cells")
    for note in comparison.notes:
        print(f"note: {note}")
    regressions = comparison.regressions
    if len(regressions):
        print(f"{len(regressions)} regression(s):", file=sys.stderr)
        for row in regressions.itertuples():
            print(f"  {row.cell_id}: {row.change}" + (f" x{row.ratio:.2f} (p={row.p_value:.3g})" if row.change == "slower" else ""),
                  file=sys.stderr)
        return 1
    return 0
