"""``--partitions N`` for ``cgpm run`` and ``cgpm verify``: checked before anything runs, one line when it cannot split.

``cgpm run --partitions N`` prints (or, ``--json``, returns) what an unsplit run does, the answers merged from
the partitions, and what the split cost: each partition's size (the updates routed to it, and the largest
against the mean: the skew), its loop time, and the driver's merge. Its ``--trace`` has one line per event
exactly as unsplit, each instant's rows in the partitions' order, written to a temporary file renamed when
complete: a run that fails (a lost executor) leaves no trace behind.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from types import SimpleNamespace

from common.errors import ConfigError
from harness.checkpoints import timeline_events
from harness.projection import Projection

RUNNERS = ("spark", "in-process")


def add_partition_arguments(parser: argparse.ArgumentParser, *, master: bool) -> None:
    parser.add_argument(
        "--partitions",
        type=int,
        metavar="N",
        help="split the stream by a variable every triple pattern binds and run one engine per "
        "partition, each a Spark task; the partitions' deltas are merged by instant "
        "(docs/partitioned-runs.md)",
    )
    parser.add_argument(
        "--partition-runner",
        choices=RUNNERS,
        default="spark",
        help="where the partitions run: Spark tasks (default), or in this process, one after another "
        "as the merge asks (no Java needed)",
    )
    if master:
        parser.add_argument("--master", help="Spark master URL for the partitions, and for an engine that is a Spark "
                            "query (spark-streaming); default local[*]")


def check_partition_arguments(args: argparse.Namespace, queries) -> int:
    """The number of partitions asked for (0: none), after the checks that need no engine or Spark."""
    partitions = getattr(args, "partitions", None)
    if partitions is None:
        return 0
    if partitions < 1:
        raise ConfigError(f"--partitions must be at least 1, got {partitions}")
    if len(queries) > 1:
        raise ConfigError(f"--partitions splits one query's stream; --query was given {len(queries)} times")
    if getattr(args, "semantics", None) is not None or getattr(args, "answers", None) is not None:
        raise ConfigError("--partitions merges the cgpm profile's deltas; it does not take --semantics or --answers")
    from harness.partitions.plan import plan_partitions

    plan_partitions(queries[0], partitions)  # the query's refusals, before Spark starts
    return partitions


def executor_for(args: argparse.Namespace):
    from harness.partitions.executors import make_executor

    return make_executor(args.partition_runner, getattr(args, "master", None))


def skew_line(summaries) -> str:
    sizes = [summary.updates for summary in summaries]
    mean = sum(sizes) / len(sizes)
    largest = f"largest {max(sizes) / mean:.2f}x the mean" if mean else "no updates routed"
    return f"updates per partition {' / '.join(map(str, sizes))} ({largest})"


def _trace_writer(path, projection: Projection):
    from harness.commands.run_cmd import _trace_target

    handle = _trace_target(path)
    handle.write(json.dumps({"vars": projection.names}) + "\n")
    return handle


def run_partitioned(args: argparse.Namespace, query, stream, partitions: int) -> int:
    """``cgpm run --partitions N``: the merged history counted (and traced), and the split's costs."""
    from harness.partitions.runs import start_split_run

    projection = Projection(query)
    executor = executor_for(args)
    trace = None
    held: set = set()
    added_total = removed_total = events = triples = 0
    started = time.perf_counter()
    split = start_split_run(args.engine, query, stream, partitions, executor)
    try:
        trace = _trace_writer(args.trace, projection) if args.trace else None
        instants = (SimpleNamespace(index=index, ts=ts, size=size) for index, ts, size, _ in timeline_events(stream))
        merging = time.perf_counter()
        for instant, delta in split.steps(instants):
            events += 1
            triples += instant.size
            added_total += len(delta.added)
            removed_total += len(delta.removed)
            held.difference_update(delta.removed)
            held.update(delta.added)
            if trace:
                added, removed = projection.delta(delta)
                trace.write(
                    json.dumps(
                        {
                            "i": instant.index,
                            "ts": instant.ts,
                            "added": [list(m) for m in added],
                            "removed": [list(m) for m in removed],
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                )
        finished = time.perf_counter()
        if trace:
            trace.close()
            os.replace(trace.name, args.trace)
            trace = None
    finally:
        split.close()
        if trace:
            trace.close()
            os.unlink(trace.name)
    summaries = split.run.summaries()
    merge_s = finished - merging
    if executor.name == "in-process":  # the partitions ran inside the merge's loop, as it pulled their records
        merge_s -= sum(summary.wall_s + summary.decode_s for summary in summaries)
    summary = {
        "engine": split.name,
        "query": query.name,
        "window": query.window_spec,
        "entailment": query.entailment,
        "events": events,
        "triples": triples,
        "answers": sum(projection.answers(held).values()),
        "full_mappings": len(held),
        "variables": projection.names,
        "added": added_total,
        "removed": removed_total,
        "wall_s": round(finished - started, 6),
        "merge_s": round(max(merge_s, 0.0), 6),
        "partitioned": {
            "partitions": partitions,
            "key": split.plan.key,
            "runner": executor.name,
            "master": getattr(executor, "master", None),
            "by_partition": [s.as_json() for s in summaries],
        },
    }
    if args.json:
        print(json.dumps(summary))
        return 0
    print(
        f"{split.name} on {query.name} [{query.window_spec}] in {partitions} partitions by {split.plan.key} "
        f"({executor.name}{' on ' + executor.master if getattr(executor, 'master', None) else ''}): {events} events, "
        f"{triples} triples, {summary['answers']} answers at the end (+{added_total} / -{removed_total} over the "
        f"stream) in {finished - started:.3f}s"
    )
    print(
        f"  {skew_line(summaries)}; slowest partition {max(s.wall_s for s in summaries):.3f}s; "
        f"merge {summary['merge_s']:.3f}s"
    )
    return 0
