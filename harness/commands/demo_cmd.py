"""``cgpm demo``: the README's main job on embedded defaults: generate, run, verify, report, summarise; exit 1 if an engine disagrees or a cell fails.

Steps: start local Spark (``local[2]``, Python workers not reused); generate LUBM(1) with the
LUBM generator's Spark job (kept in ``results/runs/.streams``) and cut its first ``--events``
events into a small stream; benchmark every registered engine on a few LUBM queries under two
sliding windows, each cell in a fresh process; verify each matching engine against the rdflib
oracle; write the report (``RUN/report``) and print the summary table. A demo shows what can run:
a cell an engine refuses (an event-window engine given a sliding window) is left out of the matrix
before anything runs, and one line says which engines were left out and why. Without Java it says so
and uses spawned processes and the generator's pure-Python twin; without the generators it uses
the example stream shipped in ``harness/examples/``. About two minutes on two cores.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from datetime import datetime
from pathlib import Path

from common.errors import EnvironmentProblem
from engines.registry import loadable_engines

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
STREAMS = Path("results") / "runs" / ".streams"
LUBM_QUERIES = ("L4", "L6")  # a star and a join that have answers in LUBM's first few hundred events
LUBM_WINDOWS = ("sliding:1s:100ms", "sliding:2s:500ms")
EXAMPLE_QUERIES = ("chain", "star", "filter")
EXAMPLE_WINDOWS = ("query", "sliding:5s:1s")


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "demo", help="generate a small LUBM stream, benchmark and verify every engine, report",
        description="The first thing to run: generate LUBM(1) and cut its first events into a small stream, benchmark "
        "every engine that can run them on two LUBM queries under two sliding windows (each cell in a fresh process), "
        "verify each against the rdflib oracle, write a report under results/runs/ and print a summary. Without Java "
        "it runs without Spark. About two minutes on two cores; exit 1 if an engine disagrees or a cell fails.")
    parser.add_argument("--engine", action="append", help="only these engines (repeatable; default: every registered one)")
    parser.add_argument("--events", type=int, default=600, help="events of the generated stream to run (default 600)")
    parser.add_argument("--repetitions", type=int, default=1, help="timed repetitions per cell (default 1)")
    parser.add_argument("--out", type=Path, help="run directory (default results/runs/DATE-demo)")
    parser.add_argument("--no-spark", action="store_true", help="spawned processes and the in-process generator, no Spark")
    parser.set_defaults(handler=run)


def say(message: str) -> None:
    print(f"cgpm demo: {message}", flush=True)


def _spark_or_none(no_spark: bool):
    if no_spark:
        return None
    from harness.bench.runners import SparkRunner

    try:
        return SparkRunner("local[2]")
    except EnvironmentProblem as problem:
        say(f"note: no Spark ({problem}); cells run in spawned processes instead")
        return None


def _lubm_stream(events: int, spark_runner) -> Path | None:
    """The first ``events`` events of LUBM(1, seed 0), generated on Spark when it runs; None without the generators."""
    try:
        from harness.bench.datasets import make_stream, stream_name
    except ImportError:
        return None
    try:
        import generators.lubm.dataset  # noqa: F401
    except ImportError as error:
        say(f"note: the LUBM generator cannot be imported ({error}); using the shipped example stream")
        return None
    from harness.streams import write_stream
    from harness.streams.reader import open_stream

    key = ("lubm", 1, 0, "entity", None, ())
    whole = STREAMS / stream_name(key)
    small = STREAMS / f"{stream_name(key)}-first{events}"
    if not (small / "stream.json").exists():
        if not (whole / "stream.json").exists():
            from harness.spark import spark_session

            spark = spark_session("local[2]") if spark_runner is not None else None
            say(f"generating LUBM(1) {'on local Spark' if spark else 'in this process'} into {whole}")
            make_stream(key, whole, spark)
        stream = open_stream(whole, max_events=events).materialise()  # the prefix alone is read
        provenance = {**stream.provenance, "prefix_of": str(whole), "events": len(stream.events)}
        write_stream(dataclasses.replace(stream, provenance=provenance), small)
    return small


def _workload(stream: Path | None) -> dict:
    if stream is not None:
        from importlib import resources

        queries = [str(resources.files("generators.lubm") / "queries" / f"{name}.rq") for name in LUBM_QUERIES]
        return {"stream": str(stream), "queries": queries, "windows": list(LUBM_WINDOWS)}
    example = EXAMPLES / "university"
    return {"stream": str(example), "queries": [str(example / "queries" / f"{name}.rq") for name in EXAMPLE_QUERIES],
            "windows": list(EXAMPLE_WINDOWS)}


def _runnable(engines: list[str], workload: dict) -> tuple[list[str], list[dict], dict[str, str]]:
    """(the engines that run some cell, one workload per query and window with the engines that accept it, and
    engine -> why it was left out for the engines that refuse every cell)."""
    from common.errors import EngineError
    from engines.model.stream import Stream
    from harness.bench.matrix import resolved_query
    from harness.engines_setup import engine_class_for

    static_file = Path(workload["stream"]) / "static.nt"
    # only whether there is static data matters to a refusal; the demo's streams insert only
    shape = Stream(events=(), static=(("<urn:x>", "<urn:x>", "<urn:x>"),) if static_file.is_file()
                   and static_file.stat().st_size else ())
    workloads, refusals = [], {engine: [] for engine in engines}
    for query_path in workload["queries"]:
        for window in workload["windows"]:
            query = resolved_query(query_path, window, "query")
            accepting = []
            for engine in engines:
                try:
                    engine_class_for(engine, query, shape)
                    accepting.append(engine)
                except EngineError as refusal:
                    refusals[engine].append(str(refusal).partition(" does not support ")[2] or str(refusal))
            if accepting:
                workloads.append({**workload, "queries": [query_path], "windows": [window],
                                  "engines": accepting})
    cells = len(workload["queries"]) * len(workload["windows"])
    left_out = {engine: sorted(set(reasons))[0] for engine, reasons in refusals.items() if len(reasons) == cells}
    return [engine for engine in engines if engine not in left_out], workloads, left_out


def run(args: argparse.Namespace) -> int:
    from harness.bench.config import config_from_table
    from harness.bench.execute import run_bench
    from harness.bench.report import make_report
    from harness.bench.runners import ProcessRunner
    from harness.bench.store import load_results
    from harness.bench.summary import failed_cells, per_cell, terminal_table
    from harness.bench.tables import to_text

    runner = _spark_or_none(args.no_spark)
    stream = _lubm_stream(args.events, runner)
    workload = _workload(stream)
    engines, workloads, left_out = _runnable(args.engine or loadable_engines(), workload)
    if left_out:
        say(f"left out {len(left_out)} engines that cannot run the demo's queries and windows: "
            + "; ".join(f"{engine} ({reason})" for engine, reason in left_out.items()))
    config = config_from_table({
        "name": "demo", "engines": engines, "repetitions": args.repetitions, "verify": True, "verify_every": 10,
        "runner": runner.name if runner else "process", "spark_master": "local[2]", "timeout_s": 120.0,
        "min_time_s": 0.2,  # a demo: short cells repeated for 0.2 s, not the 1 s a published run takes
        "memory_mb": 3072, "workloads": workloads,
    })
    out = args.out or Path("results") / "runs" / f"{datetime.now().strftime('%Y%m%d-%H%M%S')}-demo"
    say(f"benchmarking {', '.join(engines)} on {len(workload['queries'])} queries x "
        f"{len(workload['windows'])} windows, each cell in a fresh process ({(runner or ProcessRunner()).description})")
    run_dir = run_bench(config, out, runner=runner or ProcessRunner(), argv=sys.argv, say=say)
    report = make_report(run_dir)
    summary = per_cell(load_results(run_dir))
    print(to_text(terminal_table(summary)), end="")
    verified = summary[summary["verdict"].isin(["agrees", "disagrees"])]
    failed = verified[verified["verdict"] == "disagrees"]
    print(f"\n{len(verified) - len(failed)} of {len(verified)} verified cells agree with the oracle"
          + (f"; {len(failed)} disagree (reproduce with cgpm verify)" if len(failed) else ""))
    errors = failed_cells(summary)
    for cell, reason in errors:
        print(f"cgpm demo: cell {cell} failed ({reason})", file=sys.stderr)
    print(f"results: {run_dir}\nreport:  {report / 'summary.md'} (every column; the table above shows the first few)")
    return 1 if len(failed) or errors else 0
