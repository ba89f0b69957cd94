"""``cgpm bench``: run a benchmark matrix from a TOML file or one cell from flags, each timed cell in a fresh process.

Forms (others script against them)::

    cgpm bench CONFIG.toml --out RUN
    cgpm bench --engine NAME [--engine NAME ...] --stream DIR --query FILE.rq --window SPEC --repetitions N --out RUN
    cgpm bench --engine NAME --stream IRI=DIR --stream IRI=DIR --query NAMED.rq --out RUN   # named windows, a stream each

Flags override the file (defaults < file < flags). Rerunning with the same ``--out`` resumes the
run. Exit 1 when a verified cell disagrees with the oracle or a cell errors (each failed cell's
reason is one line on stderr), 0 otherwise: a time-out or a memory cap is a result and an engine's
``unsupported`` a refusal, neither fails the run.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from common.errors import ConfigError
from engines.model.windows import WINDOW_FORMS
from harness.bench.config import DEFAULTS, RUNNERS, VERIFY_POLICIES, load_config, with_flags
from harness.oracle_choice import ORACLE_CHOICES
from harness.streams.named_inputs import named_stream_arguments

RUNS = Path("results") / "runs"


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("bench", help="benchmark engines: a TOML matrix, or one cell from flags")
    parser.add_argument("config", nargs="?", type=Path, help="run configuration (TOML); see docs/benchmarking.md")
    parser.add_argument("--out", type=Path, help=f"run directory (default: {RUNS}/DATE-NAME); an existing run resumes")
    cell = parser.add_argument_group("one cell from the command line (replaces the file's workloads)")
    cell.add_argument("--engine", action="append", help="engine name (repeatable; default: the file's, else all)")
    cell.add_argument("--stream", action="append", metavar="[IRI=]DIR",
                      help="stream directory: a path, a file:// URI, or any URI Spark can read (hdfs://, s3a://); for "
                      "queries over named windows, IRI=DIR once per stream their windows read")
    cell.add_argument("--query", action="append", type=Path, help="query file (.rq; repeatable)")
    cell.add_argument("--window", action="append", help=f"window ({WINDOW_FORMS}; repeatable; default: the query's own)")
    cell.add_argument("--entailment", choices=("none", "rdfs"), help="entailment (default: the query's own)")
    cell.add_argument("--max-events", type=int, help="run only the first N events of the stream")
    cell.add_argument("--concurrent", action="append", type=int, metavar="N",
                      help="run N copies of each query together, constants redrawn from the stream (repeatable: the "
                      "queries axis; an engine named NAME+perquery runs them one instance each)")
    cell.add_argument("--partitions", action="append", type=int, metavar="N",
                      help="split the stream into N key partitions, each a Spark task (repeatable: the partitions "
                      "axis; 0 is the unsplit cell; docs/partitioned-runs.md)")
    knobs = parser.add_argument_group("measurement (override the file)")
    knobs.add_argument("--repetitions", type=int, help=f"timed repetitions per cell (default {DEFAULTS.repetitions})")
    knobs.add_argument("--warmup", type=int, help=f"untimed passes before the timed one (default {DEFAULTS.warmup})")
    knobs.add_argument("--min-time", type=float, dest="min_time_s", help="repeat a cell's pass in its process until the "
                       f"timed loop lasts this many seconds (default {DEFAULTS.min_time_s:g}; 0: one pass)")
    knobs.add_argument("--rate", type=float, metavar="EVENTS_PER_S", help="feed events at their arrival times, scaled to "
                       "this many events per second, and record end-to-end latency and whether the engine kept up")
    knobs.add_argument("--rate-lag", type=float, dest="rate_lag_s", help="with --rate: the engine kept up if no event "
                       f"waited longer than this many seconds (default {DEFAULTS.rate_lag_s:g})")
    knobs.add_argument("--timeout", type=float, dest="timeout_s", help=f"seconds per cell (default {DEFAULTS.timeout_s:g})")
    knobs.add_argument("--memory-mb", type=int, help=f"RSS cap per cell in MiB (default {DEFAULTS.memory_mb})")
    knobs.add_argument("--rss-hz", type=float, help=f"RSS samples per second, >= 10, or 0 (default {DEFAULTS.rss_hz:g})")
    knobs.add_argument("--verify", nargs="?", const="all", choices=VERIFY_POLICIES, default=None,
                       help="also check cells against the oracle: all (the flag alone), none, or smallest-window "
                            "(each workload's smallest window; the default)")
    knobs.add_argument("--oracle", choices=ORACLE_CHOICES,
                       help="oracle of --verify (default auto: rdflib for small cells, the Spark oracle for large ones)")
    knobs.add_argument("--verify-every", type=int, help="check every K-th instant (plus window drops and the last)")
    knobs.add_argument("--verify-timeout", type=float, dest="verify_timeout_s",
                       help=f"seconds per verify task (default {DEFAULTS.verify_timeout_s:g})")
    knobs.add_argument("--runner", choices=RUNNERS, help=f"how cells get a fresh process (default {DEFAULTS.runner})")
    knobs.add_argument("--parallel", type=int, help="timed cells at once (default 1: one at a time)")
    knobs.add_argument("--master", dest="spark_master", help=f"Spark master URL (default {DEFAULTS.spark_master})")
    knobs.add_argument("--name", help="a label for the run (default: the file's name)")
    knobs.add_argument("--history", action=argparse.BooleanOptionalAction, default=None,
                       help="append the finished run to results/history/NAME.csv, which the committed-results site "
                       "shows (default: yes for a configuration file's run under results/runs/, no for a run from "
                       "--stream/--query flags alone)")
    parser.set_defaults(handler=run)


def resolve(args: argparse.Namespace):
    """The configuration: defaults, then the file, then the flags."""
    config = load_config(args.config) if args.config else DEFAULTS
    one_cell = args.stream is not None or args.query is not None
    workload = None
    if one_cell:
        if args.stream is None or not args.query:
            raise ConfigError("a benchmark from flags needs both --stream DIR and --query FILE.rq")
        named = named_stream_arguments(args.stream)
        if named is not None and len(named) == 1:
            named = _one_window_stream(args.stream[0], args.query, (args.window or [None])[0]) or named
        workload = {"queries": [str(q) for q in args.query]}
        workload.update({"stream": args.stream[0]} if named is None else
                        {"stream": named} if isinstance(named, str) else {"streams": named})
        if args.window:
            workload["windows"] = list(args.window)
        if args.entailment:
            workload["entailment"] = args.entailment
        if args.max_events is not None:
            workload["max_events"] = args.max_events
        if args.concurrent:
            workload["concurrent"] = list(args.concurrent)
        if args.partitions:
            workload["partitions"] = list(args.partitions)
    elif args.window or args.entailment or args.max_events is not None or args.concurrent or args.partitions:
        raise ConfigError("--window, --entailment, --max-events, --concurrent and --partitions describe a cell: give "
                          "--stream and --query too")
    name = args.name or (args.config.stem if args.config and config.name == DEFAULTS.name else None)
    flags = {
        "name": name, "engines": tuple(args.engine) if args.engine else None, "repetitions": args.repetitions,
        "warmup": args.warmup, "min_time_s": args.min_time_s, "rate": args.rate, "rate_lag_s": args.rate_lag_s,
        "timeout_s": args.timeout_s, "memory_mb": args.memory_mb, "rss_hz": args.rss_hz,
        "verify": args.verify, "verify_every": args.verify_every, "verify_timeout_s": args.verify_timeout_s, "oracle": args.oracle, "runner": args.runner, "parallel": args.parallel,
        "spark_master": args.spark_master,
    }
    return with_flags(config, flags, workload=workload)


def _one_window_stream(value: str, query_paths: list[Path], window: str | None) -> str | None:
    """``--stream IRI=DIR`` for queries of one window each: DIR when their window clause reads IRI (a ConfigError
    when it does not), None when they are over named windows (then IRI=DIR names one of their streams)."""
    from engines.model.query import load_query
    from harness.query_files import check_query_file
    from harness.streams.named_inputs import single_stream_directory

    queries = []
    for path in query_paths:
        check_query_file(path)
        queries.append(load_query(path, window=None if window is None or _declares_windows(path) else window))
    if any(query.named_windows for query in queries):
        return None
    return next(iter({single_stream_directory(value, query) for query in queries}))


def _declares_windows(path: Path) -> bool:
    from engines.model.rspql import strip_rspql

    return len(strip_rspql(path.read_text(encoding="utf-8"))[1]) > 1  # --window cannot replace named windows


def default_out(name: str) -> Path:
    return RUNS / f"{datetime.now().strftime('%Y%m%d-%H%M%S')}-{name}"


def run(args: argparse.Namespace) -> int:
    from harness.bench.execute import run_bench
    from harness.bench.store import load_results
    from harness.bench.summary import diverging_cells, failed_cells, per_cell, silent_cells, terminal_table
    from harness.bench.tables import to_text

    config = resolve(args)
    out = args.out or default_out(config.name)
    say = lambda message: print(f"cgpm bench: {message}", file=sys.stderr)  # noqa: E731
    run_dir = run_bench(config, out, argv=sys.argv, say=say)
    cells = load_results(run_dir)
    summary = per_cell(cells)
    print(to_text(terminal_table(summary)), end="")
    print(f"\nresults in {run_dir}; every column, tables and figures: cgpm report {run_dir}")
    if history_wanted(args):
        _add_to_history(Path(run_dir), say, asked=bool(args.history))
    for cell in silent_cells(summary, matches=_engine_matches):
        say(f"cell {cell} answered nothing over the whole stream: does the stream hold the query's constants?")
    for cell in diverging_cells(cells, matches=_engine_matches):
        say(f"the engines' answers differ (answer digests) on {cell}: a claim comparing them is invalid")
    failed = failed_cells(summary)
    for cell, reason in failed:
        print(f"cgpm bench: cell {cell} failed ({reason})", file=sys.stderr)
    disagree = summary[summary["verdict"] == "disagrees"]
    if len(disagree):
        print(f"{len(disagree)} cell(s) disagree with the oracle: reproduce with cgpm verify", file=sys.stderr)
    return 1 if len(disagree) or failed else 0


def _engine_matches(name: str) -> bool:
    from harness.bench.matrix import engine_class

    try:
        return engine_class(name).capabilities.matches
    except Exception:  # an engine gone since the run (a plugin uninstalled): say what its cells show
        return True


def history_wanted(args: argparse.Namespace) -> bool:
    """``--history``/``--no-history`` when given; else a configuration file's run (a named benchmark, the same from
    one commit to the next) joins its history, and an ad-hoc run from flags (``--stream``/``--query``) does not: its
    one-off cells would otherwise show on the committed-results site as a benchmark's history."""
    if args.history is not None:
        return args.history
    return args.config is not None and args.stream is None and args.query is None


def _add_to_history(run_dir: Path, say, asked: bool = False) -> None:
    """A finished run kept under a ``results/runs/`` folder joins its benchmark's history in the ``history/``
    beside it; a run written elsewhere (a test's temporary folder) only when ``asked``, into ``results/history/``
    (or by hand: ``cgpm history --add RUN``)."""
    from harness.bench.history import HISTORY_DIR, add_run
    from harness.bench.store import read_run_info

    parent = run_dir.resolve().parent
    under_runs = parent.name == RUNS.name and parent.parent.name == RUNS.parent.name
    if not (under_runs or asked) or read_run_info(run_dir).get("status") != "complete":
        return
    target, added = add_run(run_dir, parent.parent / "history" if under_runs else HISTORY_DIR)
    if added:
        say(f"{added} row(s) added to the history {target}")
