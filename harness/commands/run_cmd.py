"""``cgpm run``: feed one engine a stream and report its answers, optionally as a JSON Lines trace of every delta.

With several ``--query``, one engine holds them all (``harness.engines_setup.build_query_set``:
shared when the engine shares, one instance per query with ``--per-query`` or when it cannot),
``--trace`` is a directory with one trace per query named by the query file's stem, and the
summary has a line per query.

With ``--semantics PROFILE`` the engine reports under that profile (``engines.profiled``, or its own reports
when it reports natively under it: ``engines.native_reports``; DESIGN.md section 2, Profiles) and the trace is its report stream: ``{"vars": [...]}``, then per report ``{"ts": T, "window": [OPEN,
CLOSE], ...}`` with ``"relation"`` under rstream, ``"added"`` under istream, ``"removed"`` under dstream and both
under delta; ``window`` is the instance in ms as the profile's bounds read it, null for windows without instances.
A report's rows are projected as a bag (a set with SELECT DISTINCT) and sorted, so two runs write one file.

What it shows is projected onto SELECT's variables (``harness.projection``): the trace's ``vars``
are SELECT's, its rows the change of the projected answers (a row once per full mapping that
projects onto it, once in all with SELECT DISTINCT), and ``answers`` counts projected answers;
``full_mappings`` counts the engine's full mappings, which verification compares.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from common.errors import ConfigError
from engines.model.semantics import Report, load_profile
from engines.native_reports import report_run
from engines.protocol import per_query
from harness.commands.common import add_query_arguments, load_many_inputs, progress_bar
from harness.commands.partitioned import add_partition_arguments, check_partition_arguments, run_partitioned
from harness.engines_setup import build_engine, build_query_set, close_engine, engine_steps
from harness.projection import Projection
from harness.streams.atomic import current_umask


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "run", help="run one engine over a stream",
        description="Feed one engine a stream event by event under a query's window and print how many answers it "
        "holds at the end, how many it added and removed, and the wall time. --trace writes every event's change of "
        "answers as JSON Lines. Nothing is checked: cgpm verify compares with the oracle, cgpm bench measures.")
    parser.add_argument("--engine", required=True, help="engine: a name (see cgpm engines), package.module:Class, or an external engine's .toml descriptor")
    add_query_arguments(parser)
    parser.add_argument("--trace", type=Path, help="write every event's added/removed answers as JSON Lines "
                        "(several queries: a directory, one QUERY-STEM.jsonl per query)")
    parser.add_argument("--semantics", metavar="PROFILE",
                        help="report under an operational-semantics profile (cgpm, csparql, cqels, sparqlstream, rspjs, "
                        "rsp4j, kolibrie, spark-microbatch, or a TOML file): --trace then has one line per report "
                        "(DESIGN.md section 2, Profiles)")
    parser.add_argument("--per-query", action="store_true",
                        help="several queries: one engine instance per query even when the engine shares")
    add_partition_arguments(parser, master=True)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(handler=run)


def _trace_target(path: Path):
    if path.exists() and path.is_dir():
        raise ConfigError(f"--trace {path} is a directory")
    if not path.parent.exists():
        raise ConfigError(f"--trace {path}: directory {path.parent} does not exist")
    handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.", delete=False)
    os.chmod(handle.name, 0o666 & ~current_umask())  # a temporary file is private; the trace is an ordinary file
    return handle


def run(args: argparse.Namespace) -> int:
    queries, stream = load_many_inputs(args)
    partitions = check_partition_arguments(args, queries)
    if partitions:
        return run_partitioned(args, queries[0], stream, partitions)
    if args.semantics is not None:
        return run_under_profile(args, queries, stream)
    if len(queries) > 1:
        return run_many(args, queries, stream)
    query = queries[0]
    engine = build_engine(args.engine, query, stream, master=args.master)
    name = engine.name
    trace = None
    projection = Projection(query)
    added_total = removed_total = events = triples = 0
    try:
        trace = _trace_target(args.trace) if args.trace else None
        if trace:
            trace.write(json.dumps({"vars": projection.names}) + "\n")
        bar = progress_bar(lambda: len(stream.events), name)
        started = time.perf_counter()
        reading = iter(stream.events)
        for event, delta in engine_steps(engine, reading):
            events += 1
            triples += len(event.updates)
            added_total += len(delta.added)
            removed_total += len(delta.removed)
            if trace:
                added, removed = projection.delta(delta)
                line = {"i": event.index, "ts": event.ts,
                        "added": [list(m) for m in added], "removed": [list(m) for m in removed]}
                if event.stream:  # one line per instant of the merged streams, naming the stream that made it
                    line["stream"] = event.stream
                trace.write(json.dumps(line, ensure_ascii=False) + "\n")
            bar.update(1)
        # reading and decoding the stream is the harness's work, not the engine's
        decode_s = getattr(reading, "decode_ns", 0) / 1e9
        wall = time.perf_counter() - started - decode_s
        bar.close()
        if trace:
            trace.close()
            os.replace(trace.name, args.trace)
            trace = None
        held = engine.answers()
        answers, full_mappings, stats = sum(projection.answers(held).values()), sum(held.values()), engine.stats()
    finally:
        close_engine(engine)
        if trace:
            trace.close()
            os.unlink(trace.name)
    summary = {
        "engine": name, "query": query.name, "window": query.window_spec, "entailment": query.entailment,
        "events": events, "triples": triples, "answers": answers,
        "full_mappings": full_mappings, "variables": projection.names,
        "added": added_total, "removed": removed_total, "wall_s": round(wall, 6), "decode_s": round(decode_s, 6),
        "stats": stats,
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{name} on {query.name} [{query.window_spec}]: {summary['events']} events, "
              f"{summary['triples']} triples, {summary['answers']} answers at the end "
              f"(+{added_total} / -{removed_total} over the stream) in {wall:.3f}s")
    return 0


def _trace_directory(path: Path, queries) -> dict:
    if path.exists() and not path.is_dir():
        raise ConfigError(f"--trace {path}: with several queries the trace is a directory, and this is a file")
    if not path.parent.exists():
        raise ConfigError(f"--trace {path}: directory {path.parent} does not exist")
    path.mkdir(exist_ok=True)
    return {query.name: path / f"{query.name}.jsonl" for query in queries}


def run_many(args: argparse.Namespace, queries, stream) -> int:
    """Every query in one engine, one pass over the stream; per query its answers, deltas and (with --trace) trace."""
    targets = _trace_directory(args.trace, queries) if args.trace else {}
    engine = build_query_set(args.engine, queries, stream, share=not args.per_query)
    name = engine.name
    projections = [Projection(query) for query in queries]
    added_total, removed_total = [0] * len(queries), [0] * len(queries)
    traces = []
    events = triples = 0
    try:
        for query, projection in zip(queries, projections, strict=True):
            if targets:
                traces.append(_trace_target(targets[query.name]))
                traces[-1].write(json.dumps({"vars": projection.names}) + "\n")
        bar = progress_bar(lambda: len(stream.events), name)
        started = time.perf_counter()
        reading = iter(stream.events)
        for event, result in engine_steps(engine, reading):
            events += 1
            triples += len(event.updates)
            for query_id, delta in enumerate(per_query(result)):
                added_total[query_id] += len(delta.added)
                removed_total[query_id] += len(delta.removed)
                if traces:
                    added, removed = projections[query_id].delta(delta)
                    line = {"i": event.index, "ts": event.ts,
                            "added": [list(m) for m in added], "removed": [list(m) for m in removed]}
                    if event.stream:  # an instant of the merged streams names the stream that made it, as alone
                        line["stream"] = event.stream
                    traces[query_id].write(json.dumps(line, ensure_ascii=False) + "\n")
            bar.update(1)
        decode_s = getattr(reading, "decode_ns", 0) / 1e9
        wall = time.perf_counter() - started - decode_s
        bar.close()
        for query, trace in zip(queries, traces, strict=True):
            trace.close()
            os.replace(trace.name, targets[query.name])
        traces = []
        per_query_summary = []
        for query_id, (query, projection) in enumerate(zip(queries, projections, strict=True)):
            held = engine.answers(query_id)
            per_query_summary.append({
                "query": query.name, "window": query.window.spec(), "entailment": query.entailment,
                "answers": sum(projection.answers(held).values()), "full_mappings": sum(held.values()),
                "added": added_total[query_id], "removed": removed_total[query_id],
            })
        stats = engine.stats()
    finally:
        close_engine(engine)
        for trace in traces:
            trace.close()
            os.unlink(trace.name)
    summary = {"engine": name, "shares": engine.capabilities.shares, "events": events, "triples": triples,
               "queries": per_query_summary, "wall_s": round(wall, 6), "decode_s": round(decode_s, 6), "stats": stats}
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"{name} on {len(queries)} queries: {events} events, {triples} triples in {wall:.3f}s")
    for row in per_query_summary:
        print(f"  {row['query']} [{row['window']}]: {row['answers']} answers at the end "
              f"(+{row['added']} / -{row['removed']} over the stream)")
    return 0


def rows(projection: Projection, mappings) -> list[list]:
    """The projected rows of a report's full mappings, in a fixed order."""
    projected = projection.answers(set(mappings))
    listed = [list(row) for row, count in projected.items() for _ in range(count)]
    return sorted(listed, key=lambda row: ["" if term is None else term for term in row])


def report_line(report: Report, projection: Projection) -> dict:
    line: dict = {"ts": report.time, "window": None if report.window is None else list(report.window)}
    for key in ("relation", "added", "removed"):
        value = getattr(report, key)
        if value is not None:
            line[key] = rows(projection, value)
    return line


def run_under_profile(args: argparse.Namespace, queries, stream) -> int:
    """Feed the engine the stream under ``args.semantics`` and write (with ``--trace``) or count its reports."""
    if len(queries) > 1:
        raise ConfigError("--semantics takes one --query")
    profile = load_profile(args.semantics)
    query = queries[0]
    engine = build_engine(args.engine, query, stream, profile=profile, master=args.master)
    projection = Projection(query)
    trace = None
    count = events = 0
    try:
        run = report_run(engine, query, profile)
        trace = _trace_target(args.trace) if args.trace else None
        if trace:
            trace.write(json.dumps({"vars": projection.names}) + "\n")
        started = time.perf_counter()

        def written(reports: list[Report]) -> None:
            nonlocal count
            count += len(reports)
            if trace:
                for report in reports:
                    trace.write(json.dumps(report_line(report, projection), ensure_ascii=False) + "\n")

        for event in stream.events:
            events += 1
            written(run.push(event))
        written(run.finish())
        wall = time.perf_counter() - started
        if trace:
            trace.close()
            os.replace(trace.name, args.trace)
            trace = None
    finally:
        close_engine(engine)
        if trace:
            trace.close()
            os.unlink(trace.name)
    summary = {"engine": engine.name, "query": query.name, "window": query.window_spec, "semantics": profile.as_json(),
               "events": events, "reports": count, "wall_s": round(wall, 6)}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{engine.name} on {query.name} [{query.window_spec}] under {profile.name}: {events} events, "
              f"{count} reports in {wall:.3f}s")
    return 0
