"""One cell repetition, measured in the process that runs it: the stream is read batch by batch, and only the engine's pushes are timed.

``run_task(task)`` is what a runner calls in the fresh process (a Spark python worker that is not
reused, or a spawned process). It opens the stream (for named windows, its streams merged; cut to its first ``max_events`` events; its
events are read batch by batch in each pass, so the process holds O(batch + window), and the time a
pass spends reading and decoding is subtracted from its loop: ``decode_s``) and the query, reads the
stream's timeline as a few numbers and the steady-state fill point (scans in O(batch): the cell keeps
no per-event array of the stream, and its latencies are folded as they come, ``harness.bench.latencies``:
the cell holds O(window), never O(stream), except over named windows, whose merge sorts its
sources' timestamps), runs ``warmup`` untimed passes with throw-away engines, collects garbage, reads the
baseline RSS (an external engine's: with its child's, whose stderr the row keeps), then runs the timed passes of ``harness.bench.passes`` (each builds its engine,
timed apart as ``build_s``, and times each ``push`` with ``perf_counter_ns``; a short cell is
repeated until ``min_time_s``); wall time is the loop's, CPU time the process's over the loop (it
includes the sampler thread, whose own CPU time is reported as ``sampler_cpu_s``). The RSS series
carries the events the first pass had processed at each sample, with a point at its start and end; the row has the
first pass's answer counts and digest (``harness.bench.answers``) and the machine's load at the cell's start and end
(``harness.bench.quiet``: ``noisy`` when it was busier than its cores). A ``verify`` task
checks the cell against the oracle instead and times nothing. It returns plain data (a row, the
RSS series, the latencies) and never writes files except its progress line. Its passes and its time-out read the
machine's clock; a test in the same process may give its own (``harness.bench.pacing.Clock``).
"""

from __future__ import annotations

import gc
import json
import os
import sys
import time

import numpy as np

from harness.bench.latencies import PassLatencies
from harness.bench.matrix import Cell
from harness.bench.pacing import MACHINE_CLOCK, Clock
from harness.bench.passes import Passes, latency_summary, timed_pass
from harness.bench.quantiles import LatencySketch
from harness.bench.quiet import MachineLoad, load_columns
from harness.bench.sampler import CellLimit, RssSampler
from harness.bench.task import CellTask


def _load_inputs(cell: Cell):
    """The query, and the stream opened for streaming (cut to ``max_events``, deletions refused under a bounded window):
    for a query over named windows, its streams merged into one sequence of instants (``harness.streams.merged``)."""
    from engines.model.query import load_query
    from harness.streams.reader import open_stream

    query = load_query(cell.query_path, window=cell.window if not cell.streams else None, entailment=cell.entailment)
    limit = cell.max_events or None
    if query.named_windows and not cell.streams:
        from common.errors import ConfigError

        raise ConfigError(f"query {query.name} is over named windows, but the cell names no stream per window "
                          "(a workload's streams, or cgpm bench --stream IRI=DIR)")
    if cell.streams:
        from harness.streams.merged import open_merged

        stream = open_merged(query, {iri: directory for iri, directory, _ in cell.streams}, max_events=limit)
    else:
        stream = open_stream(cell.stream_dir, max_events=limit).checked_against(query.window)
    if not query.window.allows_deletions and stream.has_deletions:
        for _ in stream.events:  # the pass stops at the first deletion with the message naming it
            pass
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


def _out_of_process(engine_cls) -> bool:
    """True for an engine whose work happens in a child process (its RSS and stderr are the child's)."""
    inner = getattr(engine_cls, "inner", engine_cls)  # behind the window adapter
    return bool(getattr(inner, "out_of_process", False))


class _StderrFile:
    """Where an external engine's stderr goes during the cell; its tail is kept in the cell's row."""

    LIMIT = 4000

    def __init__(self) -> None:
        import tempfile

        handle, self.path = tempfile.mkstemp(prefix="cgpm-cell-", suffix=".stderr")
        os.close(handle)

    def tail_and_remove(self) -> str:
        try:
            with open(self.path, "rb") as handle:
                handle.seek(max(0, os.path.getsize(self.path) - self.LIMIT))
                return handle.read().decode("utf-8", "replace")
        except OSError:
            return ""
        finally:
            try:
                os.unlink(self.path)
            except OSError:
                pass


def _release_freed_memory() -> None:
    """Garbage collected, and Arrow's pool handing back what the stream's scans freed: else the pool returns it during
    the timed pass, and the baseline would count memory the engine's growth then hides."""
    import pyarrow as pa

    gc.collect()
    pa.default_memory_pool().release_unused()


def _process_facts() -> dict:
    # the modules loaded before the task began: the engine's own module among them means a reused process
    return {"pid": os.getpid(), "ppid": os.getppid(), "modules_at_start": frozenset(sys.modules)}


def _public(facts: dict) -> dict:
    return {key: value for key, value in facts.items() if key != "modules_at_start"}


def _time_cell(task: CellTask, facts: dict, clock: Clock) -> dict:
    from common.errors import EngineFailure, EnvironmentProblem
    from harness.bench.matrix import PER_QUERY, engine_class
    from harness.bench.steady import query_fill_point, window_triples
    from harness.engines_setup import close_engine, default_profile, engine_class_for, profile_options, start_runtime
    from harness.streams.event_index import facts_of

    cell = task.cell
    machine_at_start = MachineLoad.now()
    load_started = time.perf_counter()
    query, stream = _load_inputs(cell)
    profile = None
    if cell.concurrent > 1 or cell.engine.endswith(PER_QUERY):
        from harness.bench.concurrent import concurrent_engine

        engine_cls = concurrent_engine(cell.engine, query, stream, cell.concurrent)
    else:
        # an engine of another semantics (spark-streaming) runs under its own profile, its pushes' rows its reports'
        profile = default_profile(engine_class(cell.engine))
        engine_cls = engine_class_for(engine_class(cell.engine), query, stream, profile)
        start_runtime(engine_cls, task.spark_master)
    timeline = facts_of(stream)  # a few numbers from one scan: the cell keeps no per-event array of the stream
    events = timeline.events
    fill = query_fill_point(stream, query)  # a scan that stops at the fill point, counting the rows before it
    row = {"load_s": time.perf_counter() - load_started, "events": events, "triples": timeline.triples,
           "engine_module_preloaded": engine_cls.__module__ in facts["modules_at_start"]}
    external = _out_of_process(engine_cls)
    stderr = _StderrFile() if external else None
    options = {"stderr_path": stderr.path} if stderr else {}
    options.update(profile_options(engine_cls, profile))
    passes = Passes(engine_cls, query, stream, min_time_s=task.min_time_s, rate=task.rate,
                    rate_lag_s=task.rate_lag_s, options=options,
                    fill=fill.event if fill is not None else None, clock=clock)
    progress = _progress_writer(task.progress_path, passes.fed, events)
    sampler = RssSampler(task.rss_hz, memory_cap_bytes=task.memory_bytes, progress=progress, count=passes.fed,
                         children=external, clock=clock.now_ns).start()
    first_end: dict = {}

    def after_first(totals: dict) -> None:
        # every cell, however short, gets a point at the end of its first pass: memory against events processed
        first_end.update(t=totals["loop_end_ns"], start=totals["loop_start_ns"], rss=sampler.rss(),
                         child=sampler.children_last)

    try:
        sampler.arm(task.timeout_s)
        for _ in range(task.warmup):
            close_engine(timed_pass(engine_cls, query, stream, PassLatencies(LatencySketch()), options=options,
                                    clock=clock)[0])
        _release_freed_memory()
        row["rss_base_bytes"] = sampler.rss()
        passes.run(after_first)
        sampler.disarm()
        status, error = "ok", ""
    except CellLimit as limit:
        status, error = limit.status, limit.detail
    except (EngineFailure, EnvironmentProblem) as problem:
        # an external engine that crashed, hung, broke the protocol or is not installed: the cell keeps its stderr
        if stderr is None:
            raise
        status, error = "error", str(problem).splitlines()[0]
    finally:
        sampler.stop()
    passes.settle()
    if progress is not None:
        progress()
    row.update(status=status, error=error, **_public(facts))
    row.update(latency_summary(passes.sketch))
    row["events_fed"] = passes.fed()
    loop_start = first_end.get("start")
    if status == "ok":
        triples_after_fill = timeline.triples - fill.rows_before if fill is not None else 0
        row.update(passes.row(triples_after_fill))
        from harness.projection import Projection

        answers = passes.engine.answers()
        row["answers"] = int(sum(Projection(query).answers(answers).values()))  # projected onto SELECT's variables
        row["full_mappings"] = int(sum(answers.values()))
        row["stats"] = json.dumps(passes.engine.stats(), sort_keys=True)
    if passes.engine is not None:
        close_engine(passes.engine)
        passes.engine = None
    # counted after the timed passes (what the count allocates and frees must not sit in the baseline the engine
    # reuses) and once the engine is freed: the count holds O(window) too, which would stack on the engine's
    row["window_triples"] = window_triples(stream, query)
    if stderr is not None:
        row["engine_stderr"] = stderr.tail_and_remove()
        # the first pass's samples and its end: a child being forked copies this process's pages for a moment
        first_loop = [value for t, value in sampler.children_series
                      if first_end and first_end["start"] <= t <= first_end["t"]]
        row["child_rss_peak_bytes"] = max([*first_loop, first_end.get("child", 0)])
    origin = loop_start or (sampler.series[0][0] if sampler.series else 0)
    first_until = first_end.get("t")
    rss = [((t - origin) / 1e9, value, count if first_until is None or t <= first_until else None)
           for t, value, count in sampler.series]
    if "rss_base_bytes" in row:
        rss.insert(0, (0.0, row["rss_base_bytes"], 0))
    if first_until is not None:
        rss.append(((first_until - origin) / 1e9, first_end["rss"], events))
        rss.sort(key=lambda point: point[0])
    # the peak of the first pass (its samples and its end): later passes of a short cell keep their stored
    # latencies, which would count as the engine's memory otherwise
    window = [value for t, value, _ in sampler.series
              if loop_start is not None and loop_start <= t <= (first_until or t)]
    ended = first_end.get("rss", 0) if first_until is not None else sampler.peak
    row["rss_peak_bytes"] = max([*window, ended, row.get("rss_base_bytes", 0)])
    row["rss_samples"] = len(sampler.series)
    row["sampler_hz"] = task.rss_hz
    row["sampler_cpu_s"] = sampler.cpu_s
    # the share of one CPU the sampler thread used while it ran: its cost to the cell, whatever the loop's length
    row["sampler_share"] = sampler.cpu_s / sampler.lifetime_s if sampler.lifetime_s > 0 else None
    row.update(load_columns(machine_at_start, MachineLoad.now(), noisy_load=task.noisy_load,
                            noisy_steal=task.noisy_steal))
    return {"row": row, "rss": rss, "latency_ns": passes.stored_latencies(), "e2e_ns": passes.e2e_ns()}


def run_task(task: CellTask | dict, *, clock: Clock = MACHINE_CLOCK) -> dict:
    """Measure (``kind='time'``) or verify (``kind='verify'``) one cell; refusals and failures become a status, not an exception.

    ``task`` is the record, or its wire form from another checkout's run (``harness.bench.task``), parsed here.
    ``clock`` times the passes and judges the time-out of a timed cell."""
    from common.errors import CgpmError, EngineError, WindowError

    facts = _process_facts()
    task = CellTask.of(task)
    try:
        if task.kind == "verify":
            from harness.bench.verify_cell import verify_cell

            return verify_cell(task, facts)
        return _time_cell(task, facts, clock)
    except (EngineError, WindowError) as refusal:
        status, detail = "unsupported", str(refusal)
    except CgpmError as problem:
        status, detail = "error", str(problem)
    except MemoryError:
        status, detail = "memory", "the engine ran out of memory (MemoryError)"
    except Exception as failure:  # an engine bug must not stop the run; its message is kept
        status, detail = "error", f"{type(failure).__name__}: {failure}"
    row = {**_public(facts), "status": status, "error": detail.splitlines()[0] if detail else ""}
    if task.kind == "verify":
        row["verdict"] = f"not checked ({status})"
    return {"row": row, "rss": [], "latency_ns": np.zeros(0, dtype=np.int64)}
