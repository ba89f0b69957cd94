"""``cgpm report RUN``: Markdown, LaTeX and CSV tables and seaborn figures, made from the run's stored results alone."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("report", help="tables and figures of a benchmark run, from its stored results")
    parser.add_argument("run", type=Path, help="run directory (from cgpm bench) or baseline")
    parser.add_argument("--out", type=Path, help="report directory (default: RUN/report)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from harness.bench.baselines import resolve_run
    from harness.bench.report import make_report

    target = make_report(resolve_run(args.run), args.out)
    print(f"report written to {target}: summary.md, summary.tex, summary.csv, cells.csv and figures")
    return 0
