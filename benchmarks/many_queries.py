"""Throughput and memory against the number of concurrent queries: each sharing engine against its one-instance-per-query form, interleaved in one process.

The workload is one query's N copies (``harness.bench.query_copies``: constants redrawn from the
stream's own terms, seeded) over the stream's first ``--max-events`` events, read into memory once.
A query over named windows takes ``--stream IRI=DIR`` once per stream it reads (its copies read the
same streams, so the instants are the merge of those: DESIGN.md section 2, Several queries) and no
``--window``.
Each round runs, for every N and engine, the shared form (the engine's ``add_query``) and the
per-query form (``PerQueryEngine``: N instances) one after the other, their order swapped every
round, each a fresh engine after a garbage collection. A pass times the pushes alone: wall time and
the thread's CPU time (the fair one on a shared core: another process's turn is not counted).
Memory (``--memory``): after the timed rounds, one more pass of each form and N under ``tracemalloc``:
the bytes Python allocated for the engine and still held after the last event (the engine alive),
and the peak during the pass. The RSS change over a timed pass is kept too, but the allocator reuses
freed pages, so it says little.

    python -m benchmarks.many_queries run --stream DIR --query Q.rq --window SPEC [--entailment none] \
        --max-events N --counts 1 10 50 100 --engines sparkwave tpjoin-lazy --repetitions 5 --out RUN.json
    python -m benchmarks.many_queries run --stream IRI1=DIR1 --stream IRI2=DIR2 --query NAMED.rq ...  # named windows
    python -m benchmarks.many_queries table RUN.json [RUN.json ...] [--engines E ...]  # Markdown, median [IQR]
"""

from __future__ import annotations

import argparse
import gc
import json
import time
from pathlib import Path

import numpy as np
import psutil

from engines.model.query import load_query
from harness.bench.query_copies import query_copies
from harness.engines_setup import build_query_set, close_engine
from harness.streams.reader import open_stream

FORMS = ("shared", "per-query")


def one_pass(engine_name: str, queries, stream, share: bool) -> dict:
    process = psutil.Process()
    gc.collect()
    rss_before = process.memory_info().rss
    built = time.perf_counter()
    engine = build_query_set(engine_name, queries, stream, share=share)
    build_s = time.perf_counter() - built
    push = engine.push
    wall, cpu = time.perf_counter_ns(), time.thread_time_ns()
    for event in stream.events:
        push(event)
    wall, cpu = time.perf_counter_ns() - wall, time.thread_time_ns() - cpu
    row = {"engine_name": engine.name, "wall_s": wall / 1e9, "cpu_s": cpu / 1e9, "build_s": build_s,
           "rss_growth_bytes": process.memory_info().rss - rss_before, "stats": engine.stats()}
    close_engine(engine)
    del engine, push
    return row


def memory_pass(engine_name: str, queries, stream, share: bool) -> dict:
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    engine = build_query_set(engine_name, queries, stream, share=share)
    for event in stream.events:
        engine.push(event)
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    close_engine(engine)
    return {"held_bytes": held, "peak_bytes": peak}


def open_source(args, query):
    """The stream, or for a query over named windows its streams merged, cut to ``--max-events`` instants."""
    if query.named_windows:
        from harness.streams.merged import open_merged
        from harness.streams.named_inputs import stream_directories

        return open_merged(query, stream_directories(args.stream, query), max_events=args.max_events)
    if len(args.stream) > 1:
        raise SystemExit(f"query {query.name} has one window over one stream; --stream was given {len(args.stream)} times")
    return open_stream(args.stream[0], max_events=args.max_events)


def run(args) -> None:
    query = load_query(args.query, window=args.window, entailment=args.entailment)
    stream = open_source(args, query).materialise()
    copies = query_copies(query, max(args.counts), stream, seed=args.seed)
    triples = sum(len(event.updates) for event in stream.events)
    rows = []
    for repetition in range(args.repetitions):
        for count in args.counts:
            for engine_name in args.engines:
                forms = FORMS if repetition % 2 == 0 else FORMS[::-1]
                for form in forms:
                    row = one_pass(engine_name, copies[:count], stream, share=form == "shared")
                    row.update(engine=engine_name, form=form, queries=count, repetition=repetition,
                               events=len(stream.events), triples=triples)
                    rows.append(row)
                    print(json.dumps({k: v for k, v in row.items() if k != "stats"}), flush=True)
    memory = []
    for count in args.counts if args.memory else ():
        for engine_name in args.engines:
            for form in FORMS:
                row = memory_pass(engine_name, copies[:count], stream, share=form == "shared")
                row.update(engine=engine_name, form=form, queries=count)
                memory.append(row)
                print(json.dumps(row), flush=True)
    distinct = len({tuple(q.patterns) for q in copies})
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({
        "stream": args.stream[0] if len(args.stream) == 1 else args.stream, "query": str(args.query),
        "window": query.window_spec,
        "entailment": query.entailment, "max_events": args.max_events, "seed": args.seed,
        "distinct_copies": distinct, "counts": args.counts, "rows": rows, "memory": memory,
    }, indent=1))


def _median_iqr(values) -> str:
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    return f"{median:.3g} [{q1:.3g}–{q3:.3g}]"


def table(paths, engines=None) -> None:
    for path in paths:
        run_data = json.loads(Path(path).read_text())
        rows = run_data["rows"]
        events, triples = rows[0]["events"], rows[0]["triples"]
        print(f"### {Path(run_data['query']).stem} [{run_data['window']}], entailment {run_data['entailment']}, "
              f"first {events} events ({triples} triples); {run_data['distinct_copies']} distinct copies of "
              f"{max(run_data['counts'])}\n")
        print("| engine | queries | shared: triples/s (CPU) | per-query: triples/s (CPU) | shared / per-query speed-up "
              "| shared: CPU per query, over 1 query's | shared: held MiB | per-query: held MiB |")
        print("|---|---|---|---|---|---|---|---|")
        held = {(m["engine"], m["form"], m["queries"]): f"{m['held_bytes'] / 2**20:.2f}"
                for m in run_data.get("memory", ())}
        for engine in dict.fromkeys(row["engine"] for row in rows if not engines or row["engine"] in engines):
            alone = np.median([r["cpu_s"] for r in rows if r["engine"] == engine and r["queries"] == 1
                               and r["form"] == "shared"])
            for count in run_data["counts"]:
                mine = [r for r in rows if r["engine"] == engine and r["queries"] == count]
                by_form = {form: sorted((r for r in mine if r["form"] == form), key=lambda r: r["repetition"])
                           for form in FORMS}
                shared, separate = by_form["shared"], by_form["per-query"]
                speed = [triples / r["cpu_s"] for r in shared]
                speed_apart = [triples / r["cpu_s"] for r in separate]
                ratio = [b["cpu_s"] / a["cpu_s"] for a, b in zip(shared, separate, strict=True)]
                per_query = [r["cpu_s"] / count / alone for r in shared]
                print(f"| {engine} | {count} | {_median_iqr(speed)} | {_median_iqr(speed_apart)} | "
                      f"{_median_iqr(ratio)} | {_median_iqr(per_query)} | "
                      f"{held.get((engine, 'shared', count), '–')} | {held.get((engine, 'per-query', count), '–')} |")
        print()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    measure = commands.add_parser("run")
    measure.add_argument("--stream", required=True, action="append", metavar="[IRI=]DIR",
                         help="the stream; for a query over named windows, IRI=DIR once per stream it reads")
    measure.add_argument("--query", required=True)
    measure.add_argument("--window", help="the window (default: the query's; none for named windows)")
    measure.add_argument("--entailment")
    measure.add_argument("--max-events", type=int, required=True)
    measure.add_argument("--counts", type=int, nargs="+", default=[1, 10, 50, 100])
    measure.add_argument("--engines", nargs="+", required=True)
    measure.add_argument("--repetitions", type=int, default=5)
    measure.add_argument("--seed", type=int, default=0)
    measure.add_argument("--memory", action="store_true", help="one tracemalloc pass per form and N after the rounds")
    measure.add_argument("--out", required=True)
    shown = commands.add_parser("table")
    shown.add_argument("runs", nargs="+")
    shown.add_argument("--engines", nargs="+", help="only these engines' rows")
    args = parser.parse_args(argv)
    if args.command == "run":
        run(args)
    else:
        table(args.runs, args.engines)


if __name__ == "__main__":
    main()
