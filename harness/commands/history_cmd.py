"""``cgpm history BENCHMARK``: a benchmark's runs across commits, per machine, each step tested with ``compare``'s rule.

``cgpm history --add RUN [RUN ...]`` appends runs (a run directory, a published folder or a
``*run.json`` file) to their benchmarks' histories under ``--results``/history; ``cgpm bench``
does so itself for runs kept under results/runs/. Exit 0, or 2 on bad input: a step change is
news to read, as in asv, not a failure of the command (``cgpm compare`` and ``cgpm regress --check`` are the
gates). ``--correction`` is compare's, over each step's cells. A slower step that an acceptance names
(``--accepted``, default ``benchmarks/regress-accepted.toml`` when it exists: ``harness.bench.acceptances``) is
printed as ``ACCEPTED`` with its trade-off, not as a regression.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from common.errors import ConfigError
from harness.commands.compare_cmd import CORRECTION_CHOICES


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("history", help="a benchmark's results across commits, step changes flagged")
    parser.add_argument("benchmark", nargs="?", help="benchmark name (its configuration's name; see results/history/)")
    parser.add_argument("--add", nargs="+", type=Path, metavar="RUN", help="append these runs to their histories")
    parser.add_argument("--results", type=Path, default=Path("results"),
                        help="results folder whose history/ holds the histories (default results)")
    parser.add_argument("--metric", default="wall_s", help="measure tested for step changes (default wall_s)")
    parser.add_argument("--threshold", type=float, default=0.10, help="median change that counts (default 0.10)")
    parser.add_argument("--alpha", type=float, default=0.05, help="significance level after correction (default 0.05)")
    parser.add_argument("--correction", choices=CORRECTION_CHOICES, default="bh",
                        help="correction over a step's cells, as cgpm compare's: bh (default), holm, none")
    parser.add_argument("--accepted", type=Path, default=None, help="acceptances of slowdowns (default "
                        "benchmarks/regress-accepted.toml when it exists): their steps show as accepted")
    parser.add_argument("--json", action="store_true", help="print the runs and the steps as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from harness.bench import history

    directory = args.results / "history"
    if args.add:
        from harness.site.runs import open_run

        for run_path in args.add:
            target, added = history.add_run(run_path, directory)
            print(f"{run_path}: {added} row(s) added to {target}" if added else f"{run_path}: already in {target}")
            verdicts = verdicts_of(open_run(run_path))
            if verdicts:
                added = history.add_verdicts(verdicts, open_run(run_path), directory)
                print(f"{run_path}: {len(verdicts)} claim(s) judged from it, {added} verdict(s) added to "
                      f"{directory / history.CLAIMS_FILE}")
        return 0
    if not args.benchmark:
        known = sorted(path.stem for path in directory.glob("*.csv"))
        raise ConfigError("name a benchmark: cgpm history BENCHMARK" + (f" (one of {', '.join(known)})" if known else
                                                                         f"; {directory} holds none yet"))
    if not args.threshold > 0 or not 0 < args.alpha < 1:
        raise ConfigError("--threshold must be > 0 and --alpha in (0, 1)")
    path = history.history_path(args.benchmark, directory)
    if not path.is_file():
        raise ConfigError(f"no history for {args.benchmark!r} in {directory}: add runs with cgpm history --add RUN")
    frame = history.read_history(path)
    points = history.points(frame)
    from harness.bench.acceptances import ACCEPTED_FILE, load_acceptances, with_acceptances

    if args.accepted is not None and not args.accepted.is_file():
        raise ConfigError(f"--accepted {args.accepted}: no such file")
    acceptances = load_acceptances(args.accepted if args.accepted is not None else ACCEPTED_FILE)
    steps = with_acceptances(history.step_changes(frame, args.metric, args.threshold, args.alpha, args.correction),
                             acceptances)
    claims = claim_changes_of(args.benchmark, directory)
    if args.json:
        print(json.dumps({"benchmark": args.benchmark, "schema_version": history.SCHEMA_VERSION, "metric": args.metric,
                          "threshold": args.threshold, "alpha": args.alpha, "correction": args.correction,
                          "runs": json.loads(points.to_json(orient="records")),
                          "steps": json.loads(steps.to_json(orient="records")),
                          "cells": json.loads(frame[["machine", "commit", "run_id", "cell_id", "engine", "dataset",
                                                     "query", "window", "status", "n", args.metric,
                                                     f"{args.metric}_q1", f"{args.metric}_q3"]]
                                              .to_json(orient="records")),
                          "claims": json.loads(claims.to_json(orient="records"))}, indent=1))
        return 0
    _print(args, frame, points, steps)
    for row in claims[claims["change"] != "same"].itertuples():
        flag = "CLAIM REGRESSION" if row.change == "regression" else "claim fixed"
        print(f"{flag}: {row.paper} {row.claim_id} {row.base_verdict} at {row.base_commit[:10]}, {row.verdict} at "
              f"{row.commit[:10]} ({row.machine})")
    return 0


def claim_changes_of(benchmark: str, directory: Path):
    """The verdict changes of the claims judged from this benchmark's runs (empty when none was recorded)."""
    import pandas as pd

    from harness.bench import history

    path = directory / history.CLAIMS_FILE
    claims = history.read_claim_history(path) if path.is_file() else pd.DataFrame(columns=list(history.CLAIM_COLUMNS))
    return history.claim_changes(claims[claims["benchmark"] == benchmark])


def verdicts_of(run) -> list:
    """The claims judged from the run's folder, when a claim file names it as its published folder; else none."""
    from harness import claims

    location = run.location.resolve().as_posix()
    found = []
    for paper in claims.papers():
        for experiment in claims.experiments(paper):
            published = experiment.published.strip("/")
            if location.endswith("/" + published):  # the results root is what remains of its path
                verdicts = claims.judge(paper, Path(location[: -len(published) - 1]))
                found += [verdict for verdict in verdicts if verdict.experiment == experiment.name]
    return found


def _print(args: argparse.Namespace, frame, points, steps) -> None:
    from harness.bench import history
    from harness.bench.significance import CORRECTIONS, PAIRED, UNPAIRED
    from harness.bench.tables import to_text

    print(f"cgpm history {args.benchmark}: {args.metric}; a step is a change when the median ratio is beyond "
          f"{1 + args.threshold:.2f} (or below {1 - args.threshold:.2f}) and the {PAIRED} ({UNPAIRED} where the "
          f"repetitions cannot be paired) gives p < {args.alpha} after {CORRECTIONS[args.correction]} over the step's cells")
    for machine, runs in points.groupby("machine", sort=False):
        print(f"\nmachine {machine}:")
        shown = runs.assign(commit=runs["commit"].str[:10])[["commit", "run_id", "created", "cells", "dirty"]]
        print(to_text(shown), end="")
        print(f"{args.metric} per cell, median [IQR] (a cell that did not finish: its status):")
        print(to_text(history.results_table(frame, machine, args.metric)), end="")
        here = steps[steps["machine"] == machine]
        for (base_commit, commit), step in here.groupby(["base_commit", "commit"], sort=False):
            counts = step["change"].value_counts()
            print(f"{base_commit[:10]} -> {commit[:10]}: " + "; ".join(f"{n} {change}" for change, n in counts.items()))
            for row in step[step["change"].isin(["slower", "faster", "failed"])].itertuples():
                flag = ("ACCEPTED" if row.accepted else "REGRESSION") if row.change in ("slower", "failed") else "improvement"
                ratio = f" x{row.ratio:.2f} (p={row.p_value:.3g}, adjusted {row.p_adjusted:.3g})" if row.change != "failed" else ""
                trade = f": {row.accepted}" if row.accepted else ""
                print(f"  {flag}: {row.engine} {row.query} [{row.window}] {row.change}{ratio}{trade}")
