"""``cgpm site --out DIR``: a static HTML site of every published run, paper and benchmark history, opened from disk.

Built from the committed results alone (``--results``, default results/published) and the
histories (``--history``, default results/history); nothing is run. Exit 0, 2 on bad input.
Its progress goes to stderr: a bar on a terminal, else a line every few seconds (``harness.site.progress``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from common.errors import ConfigError


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("site", help="a static HTML site of the published results, papers and histories")
    parser.add_argument("--out", type=Path, required=True, help="the site's folder (replaced whole)")
    parser.add_argument("--results", type=Path, default=Path("results/published"),
                        help="published results to show (default results/published)")
    parser.add_argument("--history", type=Path, default=Path("results/history"),
                        help="histories kept by cgpm history (default results/history; absent: none)")
    parser.add_argument("--metric", default="wall_s", help="measure the history pages test for step changes")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from harness.site.build import build_site
    from harness.site.progress import SiteProgress

    if args.out.resolve() in (args.results.resolve(), *args.results.resolve().parents):
        raise ConfigError(f"--out {args.out} would replace the results it is built from")
    started = time.perf_counter()
    built = build_site(args.out, args.results, args.history, metric=args.metric, progress=SiteProgress())
    print(f"site written to {built.out / 'index.html'}: {built.runs} runs, {built.papers} papers, "
          f"{built.histories} histories, every local link checked ({time.perf_counter() - started:.1f} s)")
    return 0
