"""One cell repetition, measured in the process that runs it: the stream is loaded first, then only the push loop is timed.

``run_task(task)`` is what a runner calls in the fresh process (a Spark python worker that is not
reused, or a spawned process). It loads the stream (cut to its first ``max_events`` events) and
the query, runs ``warmup`` untimed passes with throw-away engines, collects garbage, reads the
baseline RSS, builds the engine (timed apart as ``build_s``), then times each ``push`` with
``perf_counter_ns``; wall time is the loop's, CPU time the process's over the loop (it includes
the sampler thread, whose own CPU time is reported as ``sampler_cpu_s``). A ``verify`` task
checks the cell against the oracle instead and times nothing. It returns plain data (a row, the
RSS series, the latencies) and never writes files except its progress line.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import sys
import time

import numpy as np

from harness.bench.sampler import CellLimit, RssSampler

LATENCY_PERCENTILES = {"latency_p50_ms": 50, "latency_p95_ms": 95, "latency_p99_ms": 99}


def _load_inputs(cell: dict):
    from engines.model.query import load_query
    from harness.streams import check_window, read_stream

    query = load_query(cell["query_path"], window=cell["window"], entailment=cell["entailment"])
    stream = read_stream(cell["stream_dir"])
    if cell["max_events"]:
        stream = dataclasses.replace(stream, events=stream.events[: cell["max_events"]])
    check_window(stream, query.window)
    return query, stream


def _progress_writer(path: str | None, done, total: int):
    if not path:
        return None

    def write() -> None:
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(f"{done()} {total}\n")
        except OSError:
            pass
    return write


def _timed_pass(engine_cls, query, stream, latencies: list[int]) -> tuple[object, dict]:
    """Build an engine and feed it every event, appending each push's latency; returns the engine and the loop's totals."""
    build_started = time.perf_counter_ns()
    engine = engine_cls(query, static=stream.static, schema=stream.schema)
    built = time.perf_counter_ns()
    added = removed = 0
    clock = time.perf_counter_ns
    append = latencies.append
    cpu_started = time.process_time_ns()
    loop_started = clock()
    for event in stream.events:
        before = clock()
        delta = engine.push(event)
        append(clock() - before)
        added += len(delta.added)
        removed += len(delta.removed)
    loop_ended = clock()
    cpu_ended = time.process_time_ns()
    return engine, {
        "build_s": (built - build_started) / 1e9, "wall_s": (loop_ended - loop_started) / 1e9,
        "cpu_s": (cpu_ended - cpu_started) / 1e9, "added": added, "removed": removed,
        "loop_start_ns": loop_started, "loop_end_ns": loop_ended,
    }


def _latency_summary(latencies: np.ndarray) -> dict:
    if len(latencies) == 0:
        return {name: None for name in [*LATENCY_PERCENTILES, "latency_max_ms", "latency_mean_ms"]}
    values = np.percentile(latencies, list(LATENCY_PERCENTILES.values())) / 1e6
    summary = dict(zip(LATENCY_PERCENTILES, (float(v) for v in values)))
    summary["latency_max_ms"] = float(latencies.max() / 1e6)
    summary["latency_mean_ms"] = float(latencies.mean() / 1e6)
    return summary


def _process_facts() -> dict:
    # the modules loaded before the task began: the engine's own module among them means a reused process
    return {"pid": os.getpid(), "ppid": os.getppid(), "modules_at_start": frozenset(sys.modules)}


def _public(facts: dict) -> dict:
    return {key: value for key, value in facts.items() if key != "modules_at_start"}


def _time_cell(task: dict, facts: dict) -> dict:
    from harness.bench.matrix import engine_class
    from harness.engines_setup import engine_class_for

    cell = task["cell"]
    load_started = time.perf_counter()
    query, stream = _load_inputs(cell)
    engine_cls = engine_class_for(engine_class(cell["engine"]), query, stream)
    row = {"load_s": time.perf_counter() - load_started, "events": len(stream.events), "triples": stream.triple_count,
           "engine_module_preloaded": engine_cls.__module__ in facts["modules_at_start"]}
    latencies: list[int] = []
    progress = _progress_writer(task.get("progress_path"), lambda: len(latencies), len(stream.events))
    sampler = RssSampler(task["rss_hz"], memory_cap_bytes=task["memory_bytes"], progress=progress).start()
    totals: dict = {}
    engine = None
    try:
        sampler.arm(task["timeout_s"])
        for _ in range(task["warmup"]):
            _timed_pass(engine_cls, query, stream, [])
        gc.collect()
        row["rss_base_bytes"] = sampler.rss()
        engine, totals = _timed_pass(engine_cls, query, stream, latencies)
        sampler.disarm()
        status, error = "ok", ""
    except CellLimit as limit:
        status, error = limit.status, limit.detail
    finally:
        sampler.stop()
    if progress is not None:
        progress()
    timed = np.asarray(latencies, dtype=np.int64)
    row.update(status=status, error=error, **_public(facts))
    row.update(_latency_summary(timed))
    row["events_fed"] = len(timed)
    if status == "ok":
        row.update({key: value for key, value in totals.items() if not key.endswith("_ns")})
        wall = max(totals["wall_s"], 1e-12)
        row["triples_per_s"] = row["triples"] / wall
        row["events_per_s"] = row["events"] / wall
        row["answers"] = int(sum(engine.answers().values()))
        row["stats"] = json.dumps(engine.stats(), sort_keys=True)
    origin = totals.get("loop_start_ns") or (sampler.series[0][0] if sampler.series else 0)
    rss = [((t - origin) / 1e9, value) for t, value in sampler.series]
    window = [value for t, value in sampler.series if totals and totals["loop_start_ns"] <= t <= totals["loop_end_ns"]]
    row["rss_peak_bytes"] = max([*window, sampler.rss() if status == "ok" else sampler.peak, row.get("rss_base_bytes", 0)])
    row["rss_samples"] = len(sampler.series)
    row["sampler_hz"] = task["rss_hz"]
    row["sampler_cpu_s"] = sampler.cpu_s
    # the share of one CPU the sampler thread used while it ran: its cost to the cell, whatever the loop's length
    row["sampler_share"] = sampler.cpu_s / sampler.lifetime_s if sampler.lifetime_s > 0 else None
    return {"row": row, "rss": rss, "latency_ns": timed}


def _verify_cell(task: dict, facts: dict) -> dict:
    from harness.bench.matrix import engine_class
    from harness.verify import verify

    cell = task["cell"]
    query, stream = _load_inputs(cell)
    sampler = RssSampler(0, memory_cap_bytes=task["memory_bytes"]).start()
    started = time.perf_counter()
    row = {**_public(facts), "events": len(stream.events), "triples": stream.triple_count}
    try:
        sampler.arm(task["timeout_s"])
        result = verify(engine_class(cell["engine"]), query, stream, oracle=task.get("oracle", "rdflib"), every=task["verify_every"])
        sampler.disarm()
        row.update(status="ok", error="", checkpoints=result.checkpoints, mismatches=result.mismatches,
                   verdict="agrees" if result.agrees else "disagrees",
                   first_divergence_event=result.first.event_index if result.first else None)
    except CellLimit as limit:
        row.update(status=limit.status, error=limit.detail, verdict=f"not checked ({limit.status})")
    finally:
        sampler.stop()
    row["verify_s"] = time.perf_counter() - started
    return {"row": row, "rss": [], "latency_ns": np.zeros(0, dtype=np.int64)}


def run_task(task: dict) -> dict:
    """Measure (``kind='time'``) or verify (``kind='verify'``) one cell; refusals and failures become a status, not an exception."""
    from common.errors import CgpmError, EngineError, WindowError

    facts = _process_facts()
    try:
        if task["kind"] == "verify":
            return _verify_cell(task, facts)
        return _time_cell(task, facts)
    except (EngineError, WindowError) as refusal:
        status, detail = "unsupported", str(refusal)
    except CgpmError as problem:
        status, detail = "error", str(problem)
    except MemoryError:
        status, detail = "memory", "the engine ran out of memory (MemoryError)"
    except Exception as failure:  # an engine bug must not stop the run; its message is kept
        status, detail = "error", f"{type(failure).__name__}: {failure}"
    row = {**_public(facts), "status": status, "error": detail.splitlines()[0] if detail else ""}
    if task["kind"] == "verify":
        row["verdict"] = f"not checked ({status})"
    return {"row": row, "rss": [], "latency_ns": np.zeros(0, dtype=np.int64)}
