"""``cgpm report RUN``: Markdown, LaTeX and CSV tables and figures, made from the run's stored results alone.

``--publish DIR`` also copies what a paper needs (run.json, summaries, tables, PNG figures, a
README with the command that rebuilds it) into a folder small enough to commit; ``--retable``
rebuilds the tables and README of such a folder from its own run.json and summary.csv.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("report", help="tables and figures of a benchmark run, from its stored results")
    parser.add_argument("run", type=Path, help="run directory (from cgpm bench) or baseline; with --retable, a published folder")
    parser.add_argument("--out", type=Path, help="report directory (default: RUN/report)")
    parser.add_argument("--publish", type=Path, metavar="DIR", help="also write a committable results folder DIR")
    parser.add_argument("--retable", action="store_true",
                        help="rebuild the paper tables and README of a published folder from its run.json and summary.csv")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from harness.bench.baselines import resolve_run
    from harness.bench.publish import publish, retable
    from harness.bench.report import make_report

    if args.retable:
        written = retable(args.run)
        print(f"rebuilt in {args.run}: {', '.join(written)}")
        return 0
    target = make_report(resolve_run(args.run), args.out)
    print(f"report written to {target}: summary.md, tables.md, summary.tex, summary.csv, cells.csv, README.md and figures")
    if args.publish:
        print(f"published to {publish(resolve_run(args.run), args.publish)}")
    return 0
