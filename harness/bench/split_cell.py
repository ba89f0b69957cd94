"""A split cell's repetition is measured from the driver: its partitions are Spark tasks, its merge runs here, each timed apart.

A cell with ``partitions`` N >= 1 cannot be one task like an unsplit cell (``harness.bench.cell``): a task
cannot start Spark tasks. So the driver opens the cell's inputs, runs ``harness.partitions`` on the bench's
runner (with ``runner = "spark"``, one task per partition on a session whose Python workers are never reused,
so each partition runs in a fresh process as an unsplit cell does; with ``runner = "process"``, in this
process, which then is not fresh) and reads the merged history, timing only the merge's steps.

What a row says, beside the unsplit columns it shares (answers and their digest, events, triples, window):
- ``wall_s`` is the *critical path*: the slowest partition's loop (routing and its engine's pushes, without
  reading and decoding the stream, as an unsplit cell's loop) plus the merge; ``events_per_s`` and
  ``triples_per_s`` are over it, and the ``steady_`` rates over the same from the fill point on
  (``harness.bench.steady``). This is the throughput N workers give when each has its core: on a machine with
  fewer cores than partitions the partitions share them, and ``end_to_end_s`` (the Spark job, its scheduling
  and every partition reading the stream, then the merge) says what the machine did;
- ``cpu_s``: the same path in CPU time, which other processes' load does not stretch: the slowest partition's
  loop CPU time (``partition_loop_cpu_s``, its thread's, reading excluded) plus the merge's;
- ``merge_s``: the driver's merge; ``partition_updates``, ``partition_wall_s``, ``partition_cpu_s`` (its
  process's CPU time over the pass, reading included), ``partition_loop_cpu_s``, ``partition_rss_peak_bytes``
  (each partition's worker's peak RSS) as JSON lists, and ``partition_skew``, the largest partition's updates
  over the mean (1.0: even);
- ``rss_peak_bytes``: the largest partition's worker peak.
The soft time-out and memory cap of an unsplit cell are not enforced on a split one (its partitions are not
sampled); warm-up passes and ``min_time_s`` repeats do not apply either: a repetition is one pass.
"""

from __future__ import annotations

import json
import time

import numpy as np

from engines.model.stream import Delta
from harness.bench.answers import AnswerDigest
from harness.bench.quiet import MachineLoad, load_columns
from harness.bench.task import CellTask


def _executor(runner):
    from harness.partitions.executors import InProcessExecutor, SparkExecutor

    return SparkExecutor(context=runner.context) if runner.name == "spark" else InProcessExecutor()


def _time_split(task: CellTask, runner) -> dict:
    from common.errors import EngineError
    from harness.bench.cell import _load_inputs
    from harness.bench.steady import query_fill_point, window_triples
    from harness.partitions.runs import start_split_run
    from harness.projection import Projection
    from harness.streams.event_index import facts_of

    cell = task.cell
    if cell.concurrent != 1:
        raise EngineError("a split cell runs one query (concurrent = 1)")
    machine_at_start = MachineLoad.now()
    query, stream = _load_inputs(cell)
    timeline = facts_of(stream)
    fill = query_fill_point(stream, query)
    executor = _executor(runner)
    started = time.perf_counter()
    split = start_split_run(
        cell.engine,
        query,
        stream,
        cell.partitions,
        executor,
        steady_from=fill.event if fill is not None else None,
    )
    job_s = time.perf_counter() - started
    digest, held = AnswerDigest(), set()
    merge_ns = steady_merge_ns = merge_cpu_ns = 0
    try:
        merged = split.run.merged()
        while True:
            step, step_cpu = time.perf_counter_ns(), time.thread_time_ns()
            record = next(merged, None)
            spent = time.perf_counter_ns() - step
            merge_cpu_ns += time.thread_time_ns() - step_cpu
            merge_ns += spent
            if record is None:
                break
            if fill is not None and record[0] >= fill.event:
                steady_merge_ns += spent
            delta = Delta(record[2], record[3])
            digest.record(record[0], delta)  # the harness's work, outside the merge's time
            held.difference_update(delta.removed)
            held.update(delta.added)
        end_to_end_s = time.perf_counter() - started
        summaries = split.run.summaries()
    finally:
        split.close()
    merge_s, steady_merge_s, merge_cpu_s = merge_ns / 1e9, steady_merge_ns / 1e9, merge_cpu_ns / 1e9
    if executor.name == "in-process":  # the partitions ran inside the merge's steps, as it pulled their records
        merge_s = max(0.0, merge_s - sum(s.wall_s + s.decode_s for s in summaries))
        merge_cpu_s = max(0.0, merge_cpu_s - sum(s.cpu_s for s in summaries))
        steady_merge_s = max(0.0, steady_merge_s - sum(s.steady_s or 0.0 for s in summaries))
    critical = max(s.wall_s for s in summaries) + merge_s
    sizes = [s.updates for s in summaries]
    mean = sum(sizes) / len(sizes)
    rss = [s.rss_peak_bytes for s in summaries]
    row = {
        "status": "ok",
        "error": "",
        "events": timeline.events,
        "triples": timeline.triples,
        "partitions": cell.partitions,
        "partition_key": split.plan.key,
        "partition_runner": executor.name,
        "wall_s": critical,
        "events_per_s": timeline.events / critical if critical > 0 else None,
        "triples_per_s": timeline.triples / critical if critical > 0 else None,
        "merge_s": merge_s,
        "job_s": job_s,
        "end_to_end_s": end_to_end_s,
        "partition_updates": json.dumps(sizes),
        "partition_wall_s": json.dumps([round(s.wall_s, 6) for s in summaries]),
        "partition_rss_peak_bytes": json.dumps(rss),
        "partition_cpu_s": json.dumps([round(s.cpu_s, 6) for s in summaries]),
        "partition_loop_cpu_s": json.dumps([round(s.loop_cpu_s, 6) for s in summaries]),
        "cpu_s": max(s.loop_cpu_s for s in summaries) + merge_cpu_s,
        "partition_skew": max(sizes) / mean if mean else None,
        "rss_peak_bytes": max(rss) if all(value is not None for value in rss) else None,
        "decode_s": max(s.decode_s for s in summaries),
        "added": digest.added,
        "removed": digest.removed,
        **digest.columns(),
        "answers": int(sum(Projection(query).answers(held).values())),
        "full_mappings": len(held),
        "stats": json.dumps([s.stats for s in summaries], sort_keys=True),
        "inner_passes": 1,
        "short": False,
    }
    steady = [s.steady_s for s in summaries]
    if fill is not None and all(value is not None for value in steady):
        steady_critical = max(steady) + steady_merge_s
        row.update(
            steady_events=timeline.events - fill.event,
            steady_events_per_s=(timeline.events - fill.event) / steady_critical if steady_critical > 0 else None,
            steady_triples_per_s=(timeline.triples - fill.rows_before) / steady_critical
            if steady_critical > 0
            else None,
        )
    row["window_triples"] = window_triples(stream, query)
    row.update(
        load_columns(
            machine_at_start,
            MachineLoad.now(),
            noisy_load=task.noisy_load,
            noisy_steal=task.noisy_steal,
        )
    )
    return row


def run_split_task(task: CellTask, runner) -> dict:
    """One timed repetition of a split cell, as ``harness.bench.cell.run_task`` returns an unsplit one's: refusals
    and failures become a status."""
    from common.errors import CgpmError, EngineError, QueryError, WindowError

    try:
        row = _time_split(task, runner)
    except (EngineError, WindowError, QueryError) as refusal:  # a query without a partition key is refused too
        row = {"status": "unsupported", "error": str(refusal).splitlines()[0]}
    except CgpmError as problem:
        row = {"status": "error", "error": str(problem).splitlines()[0]}
    except Exception as failure:  # an engine bug must not stop the run; its message is kept
        row = {
            "status": "error",
            "error": f"{type(failure).__name__}: {str(failure).splitlines()[0] if str(failure) else ''}",
        }
    return {"row": row, "rss": [], "latency_ns": np.zeros(0, dtype=np.int64)}
