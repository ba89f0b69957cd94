"""``cgpm regress [--check]``: the regression suite run on this commit, appended to its history, and with ``--check`` gated against the previous commit's record on this machine, or with ``--against REV`` against REV's code measured in the same run.

Forms::

    cgpm regress [CONFIG] [--out RUN] [--check]        # CONFIG: benchmarks/configs/regress.toml by default
    cgpm regress [CONFIG] --against REV [--check]      # REV's code and this checkout's side by side (CI: .ci/regress-base)
    cgpm regress --run RUN --check                     # gate a run already made (added to the history if new)

The suite is an ordinary bench configuration run by the bench's own runner (``harness.bench.execute``); the run's
rows join ``RESULTS/history/NAME.csv`` (``cgpm-history/2``: CPU time per event and its ratio to the scan floor).
``--repetitions``, ``--min-time`` and ``--max-events`` shrink it (a try, a test: never a record to gate a real
change on). With ``--against REV`` (``harness.bench.against``) each repetition runs with REV's code (a detached
worktree, removed after) and with this checkout's, one right after the other, pinned to one core; both records
join the history, REV's first, and the gate compares this checkout's with REV's of the same run. Exit 0; 1 when a
cell of this checkout errored or, with ``--check``, when the gate fails (``harness.bench.gate``); 2 on bad input (a
REV the clone lacks, a shallow clone), one line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from common.errors import ConfigError
from harness.commands.compare_cmd import CORRECTION_CHOICES

SUITE = Path("benchmarks") / "configs" / "regress.toml"


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("regress", help="run the regression suite, record it per commit, gate with --check")
    parser.add_argument("config", nargs="?", type=Path, default=SUITE, help=f"the suite (default {SUITE})")
    parser.add_argument("--out", type=Path, help="run directory (default results/runs/DATE-NAME); an existing run resumes")
    parser.add_argument("--run", type=Path, metavar="RUN", help="gate this finished run instead of running the suite")
    parser.add_argument("--check", action="store_true", help="exit 1 on an unaccepted significant slowdown")
    parser.add_argument("--against", metavar="REV", help="measure REV's code beside this checkout's in the same run "
                        "and gate against it (CI: the previous landing, .ci/regress-base)")
    parser.add_argument("--core", type=int, help="with --against: the core every repetition is pinned to (default: "
                        "the last this process may use)")
    parser.add_argument("--results", type=Path, default=Path("results"),
                        help="results folder whose history/ keeps the records (default results)")
    parser.add_argument("--accepted", type=Path, default=None,
                        help="acceptances of slowdowns (default benchmarks/regress-accepted.toml when it exists)")
    parser.add_argument("--threshold", type=float, help="median slowdown that fails (default: the suite's "
                        "gate_threshold, 0.10)")
    parser.add_argument("--alpha", type=float, default=0.05, help="significance level after correction (default 0.05)")
    parser.add_argument("--correction", choices=CORRECTION_CHOICES, default="bh",
                        help="correction over the cells: bh (default), holm, none")
    shrink = parser.add_argument_group("a smaller suite (a try: its records are not ones to gate on)")
    shrink.add_argument("--repetitions", type=int, help="timed repetitions per cell (the suite's: 5)")
    shrink.add_argument("--min-time", type=float, dest="min_time_s", help="least timed loop per repetition, seconds")
    shrink.add_argument("--max-events", type=int, help="cut every workload to at most this many events")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.run is not None and (args.out or args.repetitions or args.min_time_s is not None or args.max_events
                                 or args.against):
        raise ConfigError("--run gates a finished run: --out, --repetitions, --min-time, --max-events and --against "
                          "make a new one")
    if args.core is not None and not args.against:
        raise ConfigError("--core pins the repetitions of --against REV: give REV")
    if args.threshold is not None and not 0 < args.threshold < 1 or not 0 < args.alpha < 1:
        raise ConfigError("--threshold and --alpha must be in (0, 1)")
    from harness.bench.against import is_comparison, side_dirs

    directory = args.results / "history"
    failed, base_dir = [], None
    if args.run is None:
        base_dir, run_dir, threshold, failed = _run_suite(args)
    else:
        from harness.bench.store import read_run_info

        base_dir, run_dir = side_dirs(args.run) if is_comparison(args.run) else (None, args.run)
        threshold = read_run_info(run_dir).get("config", {}).get("gate_threshold", 0.10)
    base = None
    if base_dir is not None:  # REV's record first: the history's step goes from it to this checkout's
        from harness.bench.store import load_results
        from harness.bench.summary import failed_cells, per_cell

        base_rows = _recorded(base_dir, directory)[1]
        base = (base_rows.iloc[0]["commit"], base_rows.iloc[0]["run_id"])
        for cell, reason in failed_cells(per_cell(load_results(base_dir))):
            print(f"cgpm regress: with the base's code, cell {cell} failed ({reason}): not tested", file=sys.stderr)
    frame, run_rows = _recorded(run_dir, directory)
    for cell, reason in failed:
        print(f"cgpm regress: cell {cell} failed ({reason})", file=sys.stderr)
    if not args.check:
        return 1 if failed else 0
    from harness.bench.acceptances import ACCEPTED_FILE, load_acceptances
    from harness.bench.gate import check, summary_lines

    accepted = args.accepted if args.accepted is not None else ACCEPTED_FILE
    if args.accepted is not None and not args.accepted.is_file():
        raise ConfigError(f"--accepted {args.accepted}: no such file")
    first = run_rows.iloc[0]
    result = check(frame, first["run_id"], first["commit"], first["machine"], acceptances=load_acceptances(accepted),
                   threshold=args.threshold or threshold, alpha=args.alpha, correction=args.correction, base=base)
    for line in summary_lines(result):
        print(line, file=sys.stderr if line.startswith("REGRESSION") else sys.stdout)
    return 1 if failed or not result.passed else 0


def _recorded(run_dir: Path, directory: Path):
    """``run_dir`` added to its history (if it is not there yet) and its figures printed; the history and its rows."""
    from harness.bench import history

    target, added = history.add_run(run_dir, directory)
    print(f"{run_dir}: {added} row(s) added to {target}" if added else f"{run_dir}: already in {target}")
    frame = history.read_history(target)
    rows = _this_run(frame, run_dir)
    _print_figures(rows)
    return frame, rows


def _run_suite(args: argparse.Namespace):
    """Run the suite (its insert/delete stream made first), alone or against REV; the base's run directory (None
    without --against), this checkout's, the gate threshold and this checkout's failed cells."""
    from dataclasses import replace

    from harness.bench.config import load_config, with_flags
    from harness.bench.store import load_results
    from harness.bench.summary import failed_cells, per_cell
    from harness.commands.bench_cmd import default_out

    _make_update_streams(args.config)
    config = load_config(args.config)
    config = with_flags(config, {"repetitions": args.repetitions, "min_time_s": args.min_time_s})
    if args.max_events is not None:
        if args.max_events < 1:
            raise ConfigError("--max-events must be >= 1")
        config = replace(config, workloads=tuple(
            replace(workload, max_events=min(workload.max_events or args.max_events, args.max_events))
            for workload in config.workloads))
    say = lambda message: print(f"cgpm regress: {message}", file=sys.stderr)  # noqa: E731
    if args.against:
        from harness.bench.against import run_against
        from harness.bench.checkouts import default_core, pinning, resolve
        from harness.bench.machine import REPOSITORY

        commit = resolve(args.against, REPOSITORY)
        out = args.out or default_out(f"{config.name}-against-{commit[:10]}")
        core = default_core() if args.core is None else args.core
        say(f"{config.name}: {args.against} ({commit[:10]}) and this checkout side by side, {pinning(core)}")
        base_dir, run_dir = run_against(config, out, commit, core=core, argv=sys.argv, say=say)
    else:
        from harness.bench.execute import run_bench

        base_dir, run_dir = None, run_bench(config, args.out or default_out(config.name), argv=sys.argv, say=say)
    return base_dir, run_dir, config.gate_threshold, failed_cells(per_cell(load_results(run_dir)))


def _make_update_streams(config: Path) -> None:
    """The suite's insert/delete stream, made where a workload of ``config`` reads it (no generator makes one)."""
    from common.toml_files import read_toml
    from harness.bench import update_stream

    table = read_toml(config, "configuration")
    for workload in table.get("workloads", []):
        stream = workload.get("stream") if isinstance(workload, dict) else None
        if isinstance(stream, str) and Path(stream).name == update_stream.NAME:
            update_stream.ensure_update_stream((config.resolve().parent / stream).resolve().parent)


def _this_run(frame, run_dir: Path):
    from harness.site.runs import open_run

    run = open_run(run_dir)
    rows = frame[(frame["run_id"] == run.run_id) & (frame["commit"] == run.commit)]
    if rows.empty:
        raise ConfigError(f"{run_dir} left no rows in its history (a run with no cells?)")
    return rows


def _print_figures(rows) -> None:
    from harness.bench.normalised import OVER_FLOOR, PER_EVENT
    from harness.bench.tables import to_text

    first = rows.iloc[0]
    print(f"cgpm regress: {first['benchmark']} at {first['commit'][:10]}{' (dirty)' if first['dirty'] else ''} on "
          f"{first['machine']}, run {first['run_id']}: medians over the finished repetitions")
    shown = rows[["engine", "query", "window", "status", "n", PER_EVENT, OVER_FLOOR]].sort_values(
        ["engine", "query", "window"], kind="stable")
    print(to_text(shown.round({PER_EVENT: 2, OVER_FLOOR: 3})), end="")
